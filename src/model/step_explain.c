/* SPDX-License-Identifier: MIT */
/* step_explain — one line per part of a step that shows how its time was
 * made: every factor of the product or sum, with the values of this
 * evaluation substituted, so that the line multiplies out to the number it
 * explains.
 *
 * Pure: writes into the caller's buffer only.
 */
#include "model/step.h"

#include "model/units.h"

#include <stdio.h>
#include <string.h>

/* "93.3 GFLOP": a FLOP count (not a rate) with a decimal prefix. */
static void flop_count_text(double flops, char *buf, size_t len)
{
    static const char *prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    while (flops >= 999.5 && i < 6) {
        flops /= 1000;
        i++;
    }
    snprintf(buf, len, "%.3g %sFLOP", flops, prefix[i]);
}

static void t_text(double s, char *buf, size_t len)
{
    units_format(UNITS_TIME, s, true, buf, len);
}

/* compute: m x (kernels of one micro-batch) = total. */
static void explain_compute(const Cluster *c, const Workload *w, const Mapping *m,
                            const StepResult *r, char *buf, size_t buf_len)
{
    char fl[32], rate[32], g[32], a[32], e[32], hb[32], rc[32], sl[32], mb[32], tot[32];
    flop_count_text(r->mb_flops, fl, sizeof fl);
    double kern = r->mb_gemm_s + r->mb_attn_s;
    units_format(UNITS_FLOPS, kern > 0 ? r->mb_flops / kern : 0, true, rate, sizeof rate);
    t_text(r->mb_gemm_s, g, sizeof g);
    t_text(r->mb_attn_s, a, sizeof a);
    t_text(r->mb_stream_s, e, sizeof e);
    units_format(UNITS_BANDWIDTH, c->gpu.hbm_bytes_per_s, true, hb, sizeof hb);
    t_text(r->mb_recompute_s, rc, sizeof rc);
    t_text(r->comm_slowdown_s / (r->micro_batches > 0 ? r->micro_batches : 1), sl, sizeof sl);
    t_text(r->mb_compute_s, mb, sizeof mb);
    t_text(r->part_s[STEP_COMPUTE], tot, sizeof tot);
    int n = snprintf(buf, buf_len,
                     "compute: %d micro-batches x %s (GEMMs %s + attention %s: %s at %s; "
                     "element-wise %s at %s HBM; recompute %s; %s to SMs lent to "
                     "communication) = %s",
                     r->micro_batches, mb, g, a, fl, rate, e, hb, rc, sl, tot);
    if (r->mb_host_wait_s > 0 && n > 0 && (size_t)n < buf_len) {
        char hw[32];
        t_text(r->mb_host_wait_s, hw, sizeof hw);
        n += snprintf(buf + n, buf_len - (size_t)n,
                      "; of each micro-batch, %s waiting on the host, which reads the "
                      "tokens per expert before each MoE layer",
                      hw);
    }
    if (w->layers % m->pp != 0 && n > 0 && (size_t)n < buf_len)
        snprintf(buf + n, buf_len - (size_t)n, "; %d layers over %d stages: the slowest holds %d",
                 w->layers, m->pp, r->layers_per_stage);
}

/* DP: count x each = before overlap; hidden; exposed. */
static void explain_dp(const Cluster *c, const Mapping *m, const StepResult *r, char *buf,
                       size_t buf_len)
{
    const StepComm *sc = &r->comm[STEP_DP];
    if (sc->count <= 0) {
        snprintf(buf, buf_len, "DP: none (DP 1)");
        return;
    }
    char a[32], each[32], tot[32], hid[32], exp[32];
    units_format(UNITS_BYTES, sc->bytes, true, a, sizeof a);
    t_text(sc->each_s, each, sizeof each);
    t_text(sc->total_s, tot, sizeof tot);
    t_text(r->dp_hidden_s, hid, sizeof hid);
    t_text(r->part_s[STEP_DP], exp, sizeof exp);
    const char *what = m->zero == 0   ? "all-reduce"
                       : m->zero == 3 ? "per-layer all-gathers and reduce-scatters (ZeRO-3)"
                                      : "reduce-scatter + all-gather";
    snprintf(buf, buf_len,
             "DP: %.0f x %s of %s over %d %s in %d domain%s, %s each (%s) = %s in all, "
             "%s hidden behind compute, %s exposed",
             sc->count, what, a, sc->group, hw_noun(&c->gpu, HW_NOUN_MANY), sc->domains,
             sc->domains == 1 ? "" : "s", each, tier_name(sc->tier), tot, hid, exp);
}

/* TP, PP, EP: count x each = before overlap; hidden; exposed. */
static void explain_comm(const Cluster *c, const Mapping *m, const StepResult *r, StepPart part,
                         char *buf, size_t buf_len)
{
    const StepComm *sc = &r->comm[part];
    char a[32], each[32], all[32], hid[32], exp[32];
    units_format(UNITS_BYTES, sc->bytes, true, a, sizeof a);
    t_text(sc->each_s, each, sizeof each);
    t_text(sc->total_s, all, sizeof all);
    double hidden = part == STEP_TP   ? r->tp_hidden_s
                    : part == STEP_PP ? r->pp_hidden_s
                                      : r->ep_hidden_s;
    t_text(hidden, hid, sizeof hid);
    t_text(r->part_s[part], exp, sizeof exp);
    const char *what = part == STEP_PP   ? "sends"
                       : part == STEP_EP ? "all-to-alls"
                       : r->seq_parallel ? "reduce-scatter + all-gather pairs (sequence parallel)"
                                         : "all-reduces";
    int n = snprintf(buf, buf_len,
                     "%s: %.0f %s of %s over %d %s in %d domain%s, %s each (%s) = %s, "
                     "%s hidden, %s exposed",
                     step_part_name(part), sc->count, what, a, sc->group,
                     hw_noun(&c->gpu, HW_NOUN_MANY), sc->domains, sc->domains == 1 ? "" : "s",
                     each, tier_name(sc->tier), all, hid, exp);
    if (part == STEP_TP && m->cp > 1 && n > 0 && (size_t)n < buf_len) {
        char cp[32];
        t_text(r->cp_exposed_s, cp, sizeof cp);
        snprintf(buf + n, buf_len - (size_t)n, " (of which %s the CP exchange)", cp);
    }
}

char *step_explain(const Cluster *c, const Workload *w, const Mapping *m, const StepResult *r,
                   StepPart part, char *buf, size_t buf_len)
{
    if (!buf || buf_len == 0)
        return buf;
    buf[0] = '\0';
    if (!c || !w || !m || !r)
        return buf;
    char a[32], d4[32];
    switch (part) {
    case STEP_COMPUTE:
        explain_compute(c, w, m, r, buf, buf_len);
        break;
    case STEP_TP:
        if (m->tp <= 1 && m->cp <= 1)
            snprintf(buf, buf_len, "TP: none (TP 1)");
        else if (m->tp <= 1) {
            t_text(r->cp_exposed_s, d4, sizeof d4);
            snprintf(buf, buf_len, "TP: none (TP 1); the CP key/value exchange shows %s", d4);
        } else
            explain_comm(c, m, r, STEP_TP, buf, buf_len);
        break;
    case STEP_PP:
        if (m->pp <= 1)
            snprintf(buf, buf_len, "PP: none (PP 1)");
        else
            explain_comm(c, m, r, STEP_PP, buf, buf_len);
        break;
    case STEP_EP:
        if (m->ep <= 1)
            snprintf(buf, buf_len, "EP: none (EP 1)");
        else
            explain_comm(c, m, r, STEP_EP, buf, buf_len);
        break;
    case STEP_BUBBLE:
        t_text(r->mb_fill_s, a, sizeof a);
        t_text(r->part_s[STEP_BUBBLE], d4, sizeof d4);
        if (r->layers_per_chunk * m->interleave != r->layers_per_stage)
            snprintf(buf, buf_len,
                     "bubble: (%d-1) x %d/%d (the largest chunk's share of the stage's layers: "
                     "uneven chunks, the slowest sets the pace) x %s per micro-batch of a stage "
                     "without the output layer = %s "
                     "(%d micro-batches)",
                     m->pp, r->layers_per_chunk, r->layers_per_stage, a, d4, r->micro_batches);
        else
            snprintf(buf, buf_len,
                     "bubble: (%d-1)/%d x %s per micro-batch of a stage without the output "
                     "layer = %s (%d micro-batches)",
                     m->pp, m->interleave, a, d4, r->micro_batches);
        break;
    case STEP_DP:
        explain_dp(c, m, r, buf, buf_len);
        break;
    default:
        break;
    }
    return buf;
}
