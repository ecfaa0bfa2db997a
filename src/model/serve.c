/* SPDX-License-Identifier: MIT */
/* serve — one decode step of serving (see serve.h for the formula and its
 * sources). The collectives are collective.c's, on the spans span.c gives
 * for the placement, so a TP group that crosses a domain pays here exactly
 * what it pays in a training step.
 *
 * Pure: no I/O, no allocation.
 */
#include "model/serve.h"

#include "base/msg.h"
#include "model/collective.h"
#include "model/span.h"
#include "model/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Bytes of one stored weight or KV value: FP8 serving keeps both in one
 * byte (TensorRT-LLM's --fp8_kv_cache; NVIDIA Transformer Engine), BF16 in
 * two. Activations on the wire stay BF16 (2 bytes). */
static double serve_elem_bytes(const Workload *w)
{
    return w->precision == WL_FP8 ? 1.0 : 2.0;
}

/* Parameters read in one step: all of a dense model; of an MoE model the
 * non-expert weights and, per MoE layer, the experts the batch's tokens
 * pick: at most top-k per token, at most all of them. */
static double params_read(const Workload *w, int batch)
{
    double total = workload_params(w);
    if (!workload_is_moe(w))
        return total;
    double experts = 0, touched = 0;
    double picked = (double)w->topk * batch < w->experts ? (double)w->topk * batch : w->experts;
    for (int l = 0; l < w->layers; l++) {
        double e = workload_layer_expert_params(w, l);
        experts += e;
        touched += e / w->experts * picked;
    }
    return total - experts + touched;
}

/* One small all-reduce of S bytes over k ranks inside one switched domain,
 * as serving engines run it: TensorRT-LLM's MultiShot splits it into a
 * reduce-scatter and an all-gather over NVSwitch multicast, "two
 * synchronization steps regardless of the number of GPUs" where a ring
 * takes 2N - 2 (NVIDIA developer blog, "3x Faster AllReduce with NVSwitch
 * and TensorRT-LLM MultiShot", 2024). So: the launch cost and two link
 * latencies of collective.c's figures, and the ring's bytes at its
 * achievable rate. A torus (TPU ICI) has no switch to multicast: there the
 * training collective's cost stands. */
static double allreduce_inside(const Cluster *c, int k, double S)
{
    GroupSpan in = {k, 1, k, 1, false};
    if (k <= 1)
        return 0;
    if (c->up_kind != HW_UP_SWITCHED)
        return collective_cost(COLL_ALL_REDUCE, S, in, c).time_s;
    CollParams p = collective_params_default();
    return p.fixed_s + 2 * c->up_lat_s +
           2.0 * (k - 1) / k * S / (c->up_bytes_per_s * p.up_efficiency);
}

/* The part of a group inside one domain: the ranks it has there (all of a
 * group that does not cross), the phase of its collective that runs on the
 * scale-up links. */
static GroupSpan inside(GroupSpan s)
{
    int k = s.domains > 1 ? s.min_per_domain : s.size;
    GroupSpan in = {k, 1, k, 1, false};
    return in;
}

static bool serve_check(const Cluster *c, const Workload *w, const Mapping *m, ServeLoad load,
                        char *err, size_t err_len)
{
    if (!c || !w || !m)
        return msg_fail(err, err_len, "serving needs a cluster, a workload and a mapping");
    if (load.batch < 1 || load.context < 1)
        return msg_fail(err, err_len,
                        "serving needs a batch and a context of at least 1 (got %d "
                        "and %d)",
                        load.batch, load.context);
    if (m->ep > 1 || m->cp > 1)
        return msg_fail(err, err_len, "serving with EP or CP is not modelled: set them to 1");
    if (!cluster_check(c, err, err_len) || !workload_check(w, err, err_len))
        return false;
    /* The training rules on the global batch do not apply: one sequence
     * per replica keeps them quiet, the rest (heads, layers, GPUs) does. */
    Workload one = *w;
    one.global_batch = m->dp > 0 ? m->dp : 1;
    one.micro_batch = 1;
    return mapping_check(m, c, &one, err, err_len);
}

/* Reads and compute of one step. */
static void serve_memory(const Cluster *c, const Workload *w, const Mapping *m, ServeLoad load,
                         ServeResult *r)
{
    double b = serve_elem_bytes(w), hbm = c->gpu.hbm_bytes_per_s;
    double tp = m->tp, pp = m->pp, layers = w->layers;
    /* a sliding window's layers keep only the last `window` tokens */
    double local = workload_local_layer_count(w, load.context);
    double kept = (layers - local) * load.context + local * w->window;
    double kv_seq = b * workload_kv_values_per_token(w, m->tp) * kept / pp;
    double read = params_read(w, load.batch) * b / (tp * pp);
    r->weight_bytes = workload_params(w) * b / (tp * pp);
    r->kv_bytes = (double)load.batch * kv_seq;
    r->read_bytes = read + r->kv_bytes;
    /* the stages run one after another for one token */
    r->part_s[SERVE_WEIGHTS] = pp * read / hbm;
    r->part_s[SERVE_KV] = pp * r->kv_bytes / hbm;
    double peak =
        w->precision == WL_FP8 && c->gpu.fp8_flops > 0 ? c->gpu.fp8_flops : c->gpu.bf16_flops;
    r->flops = 2.0 * workload_active_params(w) * load.batch / (tp * pp);
    double compute = pp * r->flops / peak;
    r->part_s[SERVE_COMPUTE] =
        compute > r->part_s[SERVE_WEIGHTS] ? compute - r->part_s[SERVE_WEIGHTS] : 0;
    r->mem_per_gpu_bytes = r->weight_bytes + r->kv_bytes;
    r->hbm_bytes = c->gpu.hbm_bytes;
    r->fits = r->mem_per_gpu_bytes <= r->hbm_bytes;
}

/* The all-reduces and the stage hops of one step. */
static void serve_comm(const Cluster *c, const Workload *w, const Mapping *m, const Placement *p,
                       ServeLoad load, ServeResult *r)
{
    double act = (double)load.batch * w->hidden * 2.0; /* BF16 activations */
    GroupSpan tp = span_worst(m, c, p, DIM_TP);
    r->tp_domains = tp.domains;
    if (m->tp > 1) {
        double n = 2.0 * w->layers; /* after attention and after the MLP */
        /* inside: the engine's in-domain all-reduce over the ranks a domain
         * holds; crossing adds what collective.c charges the hierarchical
         * all-reduce beyond its in-domain phase */
        GroupSpan in = inside(tp);
        r->part_s[SERVE_TP] = n * allreduce_inside(c, in.size, act);
        if (tp.domains > 1) {
            double here = collective_cost(COLL_ALL_REDUCE, act, in, c).time_s;
            double there = collective_cost(COLL_ALL_REDUCE, act, tp, c).time_s;
            r->part_s[SERVE_NETWORK] = n * (there > here ? there - here : 0);
        }
    }
    /* The sends between pipeline stages that cross a domain; inside one a
     * send of a few hundred kB takes microseconds and is not counted. */
    GroupSpan pp = span_worst(m, c, p, DIM_PP);
    if (m->pp > 1 && pp.domains > 1) {
        GroupSpan hop = {2, 2, 1, pp.sites > 1 ? 2 : 1, pp.crosses_leaf};
        r->part_s[SERVE_NETWORK] +=
            (m->pp - 1) * collective_cost(COLL_SEND_RECV, act, hop, c).time_s;
    }
}

bool serve_eval(const Cluster *c, const Workload *w, const Mapping *m, const Placement *p,
                ServeLoad load, ServeResult *out, char *err, size_t err_len)
{
    if (!out)
        return msg_fail(err, err_len, "no result to fill");
    memset(out, 0, sizeof *out);
    if (!serve_check(c, w, m, load, err, err_len))
        return false;
    serve_memory(c, w, m, load, out);
    serve_comm(c, w, m, p, load, out);
    out->token_s = 0;
    out->bottleneck = SERVE_WEIGHTS;
    for (int i = 0; i < SERVE_PART_COUNT; i++) {
        out->token_s += out->part_s[i];
        if (out->part_s[i] > out->part_s[out->bottleneck])
            out->bottleneck = (ServePart)i;
    }
    out->replicas = m->dp;
    out->user_tokens_per_s = out->token_s > 0 ? 1.0 / out->token_s : 0;
    out->tokens_per_s = (double)m->dp * load.batch * out->user_tokens_per_s;
    return true;
}

const char *serve_part_name(ServePart part)
{
    static const char *const names[SERVE_PART_COUNT] = {"weights", "KV cache", "compute",
                                                        "TP all-reduce", "network"};
    return part >= 0 && part < SERVE_PART_COUNT ? names[part] : "?";
}

const char *serve_part_key(ServePart part)
{
    static const char *const keys[SERVE_PART_COUNT] = {"weights_s", "kv_s", "compute_s", "tp_s",
                                                       "network_s"};
    return part >= 0 && part < SERVE_PART_COUNT ? keys[part] : "?";
}

char *serve_bottleneck(const ServeResult *r, char *buf, size_t n)
{
    static const char *const words[SERVE_PART_COUNT] = {
        "reading the weights from HBM", "reading the KV cache from HBM",
        "the matmuls (a batch this large is compute-bound)",
        "the TP all-reduces, even on the scale-up links",
        "the network: a TP group or a pipeline hop crosses a domain"};
    double share = r->token_s > 0 ? r->part_s[r->bottleneck] / r->token_s : 0;
    snprintf(buf, n, "%s: %.0f%% of each token", words[r->bottleneck], 100.0 * share);
    return buf;
}

char *serve_explain(const Cluster *c, const Workload *w, const Mapping *m, ServeLoad load,
                    const ServeResult *r, ServePart part, bool ascii, char *buf, size_t n)
{
    char a[32], b[32], t[32];
    units_format(UNITS_TIME, r->part_s[part >= 0 && part < SERVE_PART_COUNT ? part : 0], ascii, t,
                 sizeof t);
    units_format(UNITS_BANDWIDTH, c->gpu.hbm_bytes_per_s, ascii, b, sizeof b);
    const char *x = ascii ? "x" : "×";
    switch (part) {
    case SERVE_WEIGHTS:
        units_format(UNITS_BYTES, r->read_bytes - r->kv_bytes, ascii, a, sizeof a);
        snprintf(buf, n, "weights: %s per %s per stage %s %d stages / HBM %s = %s", a,
                 hw_noun(&c->gpu, 0), x, m->pp, b, t);
        break;
    case SERVE_KV:
        units_format(UNITS_BYTES, r->kv_bytes, ascii, a, sizeof a);
        snprintf(buf, n, "KV cache: batch %d %s context %d = %s per %s %s %d stages / HBM %s = %s",
                 load.batch, x, load.context, a, hw_noun(&c->gpu, 0), x, m->pp, b, t);
        break;
    case SERVE_COMPUTE:
        units_format(UNITS_WORK, r->flops, ascii, a, sizeof a);
        snprintf(buf, n, "compute: %s per %s per stage at peak, past the weights read: %s", a,
                 hw_noun(&c->gpu, 0), t);
        break;
    case SERVE_TP:
        units_format(UNITS_BYTES, (double)load.batch * w->hidden * 2.0, ascii, a, sizeof a);
        snprintf(buf, n, "TP all-reduce: 2 %s %d layers of %s over %d %s, as inside a domain = %s",
                 x, w->layers, a, m->tp, hw_noun(&c->gpu, HW_NOUN_MANY), t);
        break;
    default:
        snprintf(
            buf, n, "network: TP groups over %d domain%s and %d pipeline hop%s add %s per token",
            r->tp_domains, r->tp_domains == 1 ? "" : "s", m->pp - 1, m->pp == 2 ? "" : "s", t);
        break;
    }
    return buf;
}
