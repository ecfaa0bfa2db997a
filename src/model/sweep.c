/* SPDX-License-Identifier: MIT */
/* sweep — the best-mapping search; see sweep.h for what is enumerated, how
 * it is pruned and how it is ranked.
 *
 * The legality tests below mirror mapping_check so that illegal candidates
 * are skipped before they cost an evaluation; step_eval still checks every
 * candidate it is given, so a rule added to mapping_check later can only
 * make the search skip more, never rank an illegal mapping.
 *
 * Cost: a candidate's spans are computed once per (TP, PP, DP, EP), not per
 * micro-batch, interleave and setting; the search evaluates without the
 * bottleneck words, from what step_prepare derived once per search; the
 * alternatives are sorted
 * among themselves and merged into the ranked list, not sorted with it.
 *
 * Pure: no I/O. Allocation: the entry array (grown by doubling) and, while
 * the alternatives are evaluated and merged in, their span cache and a copy
 * of them; sweep_entry_placement allocates the placement it returns.
 */
#include "model/sweep.h"

#include "base/msg.h"
#include "base/xmem.h"
#include "model/balance.h"
#include "model/job.h"
#include "model/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n <= CLUSTER_MAX_GPUS (1e8) has at most 768 divisors. */
#define SWEEP_MAX_DIVISORS 1024

SweepOptions sweep_options_default(void)
{
    SweepOptions o = {0, 0, 0,          0,          0,          0, JOB_DEFAULT_ZERO, -1, NULL,
                      0, 0, SWEEP_KEEP, SWEEP_KEEP, SWEEP_KEEP, 0, SWEEP_KEEP};
    return o;
}

const char *sweep_place_name(SweepPlace p)
{
    switch (p) {
    case SWEEP_PLACE_DEFAULT:
        return "TP, EP, PP, DP";
    case SWEEP_PLACE_DP_INNER:
        return "TP, EP, DP, PP";
    case SWEEP_PLACE_BALANCED:
        return "TP balanced";
    default:
        return "?";
    }
}

/* The divisors of n in ascending order; returns how many. */
static int divisors_of(int n, int *out, int max)
{
    int lo = 0, hi = 0;
    int small[SWEEP_MAX_DIVISORS], large[SWEEP_MAX_DIVISORS];
    for (long long d = 1; d * d <= n; d++) {
        if (n % d)
            continue;
        if (lo < SWEEP_MAX_DIVISORS)
            small[lo++] = (int)d;
        if (d * d != n && hi < SWEEP_MAX_DIVISORS)
            large[hi++] = (int)(n / d);
    }
    int k = 0;
    for (int i = 0; i < lo && k < max; i++)
        out[k++] = small[i];
    for (int i = hi - 1; i >= 0 && k < max; i--)
        out[k++] = large[i];
    return k;
}

static bool tp_legal(int tp, const Workload *w)
{
    return w->heads % tp == 0 && (w->kv_heads % tp == 0 || tp % w->kv_heads == 0) &&
           w->ffn % tp == 0;
}

static void entry_from(SweepEntry *e, const Mapping *m, const Workload *wl, SweepPlace place,
                       const StepResult *s)
{
    e->m = *m;
    e->micro_batch = wl->micro_batch;
    e->recompute = wl->recompute;
    e->recompute_mods = wl->recompute_mods;
    e->recompute_layers = wl->recompute_layers;
    e->offload = wl->offload;
    e->seq_parallel = wl->seq_parallel;
    e->tp_overlap = wl->tp_overlap;
    e->sp_on = s->seq_parallel;
    e->overlap_on = s->tp_overlap;
    e->place = place;
    e->step_s = s->step_s;
    memcpy(e->part_s, s->part_s, sizeof e->part_s);
    e->optimizer_s = s->optimizer_s;
    e->tokens_per_s = s->tokens_per_s;
    e->mfu = s->mfu;
    e->mem_per_gpu_bytes = s->mem_per_gpu_bytes;
    e->hbm_bytes = s->hbm_bytes;
    e->fits = s->fits;
    memcpy(e->span, s->span, sizeof e->span);
    e->bottleneck_part = s->bottleneck_part;
    e->bottleneck_tier = s->bottleneck_tier;
}

/* Room for one more entry; false at SWEEP_MAX_ENTRIES. */
static bool reserve(SweepResult *r)
{
    if (r->n < r->cap)
        return true;
    if (r->cap >= SWEEP_MAX_ENTRIES) {
        r->truncated = true;
        return false;
    }
    int cap = r->cap ? 2 * r->cap : 256;
    if (cap > SWEEP_MAX_ENTRIES)
        cap = SWEEP_MAX_ENTRIES;
    r->entries = xmem_realloc(r->entries, (size_t)cap * sizeof *r->entries);
    r->cap = cap;
    return true;
}

static int cmp_int(int a, int b)
{
    return (a > b) - (a < b);
}

static int entry_cmp(const void *pa, const void *pb)
{
    const SweepEntry *a = pa, *b = pb;
    if (a->fits != b->fits)
        return a->fits ? -1 : 1;
    if (a->step_s != b->step_s)
        return a->step_s < b->step_s ? -1 : 1;
    int c;
    if ((c = cmp_int(a->m.tp, b->m.tp)) || (c = cmp_int(a->m.pp, b->m.pp)) ||
        (c = cmp_int(a->m.ep, b->m.ep)) || (c = cmp_int(a->micro_batch, b->micro_batch)) ||
        (c = cmp_int(a->m.interleave, b->m.interleave)))
        return c;
    return cmp_int((int)a->place, (int)b->place);
}

/* Fills p (n ranks) with the DP-inner order: rank digits (tp, cp, dpi, pp,
 * dpr) of the default layout (mapping.c) go to GPU tp + TP*(cp + CP*(dpi +
 * DPI*(dpr + DPR*pp))). Works from any starting permutation: each swap puts
 * one rank on its GPU for good. O(ranks). */
static void fill_dp_inner(Placement *p, const Mapping *m)
{
    const int n = placement_size(p), dpi = mapping_dp_inner(m), dpr = m->dp / dpi;
    const long long block = (long long)m->tp * m->cp * dpi;
    for (int r = 0; r < n; r++) {
        long long inner = r % block, x = r / block;
        long long ppi = x % m->pp, dpri = x / m->pp;
        long long g = inner + block * (dpri + (long long)dpr * ppi);
        int now = placement_gpu_of(p, r);
        if (now != (int)g)
            placement_swap_gpus(p, now, (int)g);
    }
}

/* The worst spans of the DP-inner order in closed form, without visiting
 * GPUs. In that order a DP group is a progression of stride TP x CP and size
 * DP: the PP group of the default layout of X = (TP, CP, PP := DP, DP := PP);
 * a PP group has stride TP x CP x DP and size PP: X's DP group; the expert-
 * data-parallel group (stride ETP x EP, size EDP, all inside one stage's
 * consecutive TP x CP x DP GPUs) is the PP group of (ETP x EP, 1, PP := EDP,
 * DP := PP). TP, CP and EP groups are those of the default layout (the
 * first TP x CP x DP-inner GPUs of a stage are laid out alike). */
static void dp_inner_spans(const Cluster *c, const Mapping *m, GroupSpan span[DIM_COUNT],
                           GroupSpan *edp)
{
    for (int d = 0; d < DIM_COUNT; d++)
        span[d] = span_worst(m, c, NULL, (MappingDim)d);
    Mapping x = {m->tp, m->cp, m->dp, m->pp, 1, 1, m->zero, 1, 0};
    span[DIM_DP] = span_worst(&x, c, NULL, DIM_PP);
    span[DIM_PP] = span_worst(&x, c, NULL, DIM_DP);
    Mapping x2 = {m->ep * mapping_etp(m), 1, mapping_edp(m), m->pp, 1, 1, m->zero, 1, 0};
    *edp = span_worst(&x2, c, NULL, DIM_PP);
}

/* Whether the DP-inner placement can give some group another span: DP
 * ranks outside the stage (the rest of DP) exist and the domain, leaf or
 * sites leave room for them. */
static bool dp_inner_can_differ(const Cluster *c, const Mapping *m)
{
    const int dpi = mapping_dp_inner(m);
    if (m->pp < 2 || m->dp / dpi < 2)
        return false;
    long long inner = (long long)m->tp * m->cp * dpi;
    return inner < c->domain_gpus || inner < c->gpus_per_leaf || c->sites > 1;
}

static bool options_check(const SweepOptions *o, int n, char *err, size_t err_len)
{
    const int v[] = {o->tp, o->pp, o->dp, o->ep, o->micro_batch, o->interleave, o->cp, o->etp};
    const char *names[] = {"TP", "PP", "DP", "EP", "micro-batch", "interleave", "CP", "ETP"};
    for (int i = 0; i < 8; i++)
        if (v[i] < 0) {
            msg_set(err, err_len, "%s must be at least 1 (got %d)", names[i], v[i]);
            return false;
        }
    if ((o->zero < 0 || o->zero > 3) && o->zero != SWEEP_FREE) {
        msg_set(err, err_len, "ZeRO stage must be 0, 1, 2 or 3 (got %d)", o->zero);
        return false;
    }
    const int knob[] = {o->recompute, o->seq_parallel, o->tp_overlap};
    const int top[] = {WL_RECOMPUTE_FULL, WL_OFF, WL_OFF};
    const char *kname[] = {"recompute", "sequence parallelism", "TP overlap"};
    for (int i = 0; i < 3; i++)
        if (knob[i] != SWEEP_FREE && knob[i] != SWEEP_KEEP && (knob[i] < 0 || knob[i] > top[i])) {
            msg_set(err, err_len, "%s setting %d is out of range", kname[i], knob[i]);
            return false;
        }
    /* the degrees given against the GPUs, with the words every front end uses */
    return job_check_degrees(n, o->tp, o->cp, o->pp, o->dp, err, err_len);
}

/* Why nothing was legal: mapping_check's words on the mapping the options
 * pin down, or the general rule. */
static void explain_none(const Cluster *c, const Workload *w, const SweepOptions *o, char *err,
                         size_t err_len)
{
    const int n = c->n_gpus;
    Mapping m = {o->tp ? o->tp : 1,
                 o->cp ? o->cp : 1,
                 o->pp ? o->pp : 1,
                 1,
                 o->ep ? o->ep : 1,
                 o->interleave ? o->interleave : 1,
                 o->zero == SWEEP_FREE ? JOB_DEFAULT_ZERO : o->zero,
                 o->etp,
                 o->shard};
    long long model = (long long)m.tp * m.cp * m.pp;
    m.dp = o->dp ? o->dp : (n % model == 0 ? (int)(n / model) : 1);
    Workload wl = *w;
    wl.micro_batch = o->micro_batch ? o->micro_batch : 1;
    char why[MSG_LEN];
    bool pinned = o->tp || o->pp || o->dp || o->ep || o->micro_batch || o->interleave;
    if (pinned && !mapping_check(&m, c, &wl, why, sizeof why)) {
        msg_set(err, err_len, "no legal mapping: %s", why);
        return;
    }
    msg_set(err, err_len,
            "no legal mapping of %d GPUs: DP = GPUs / (TP x PP) must divide the global "
            "batch %d, TP divide the %d heads and PP be at most the %d layers",
            n, w->global_batch, w->heads, w->layers);
}

/* One search in progress: what is fixed, where the entries go. */
typedef struct {
    SweepResult *r;
    const Cluster *c;
    const Workload *w;
    SweepOptions o;
    StepPrep prep; /* c and w as every evaluation of the search needs them */
    Workload wl;   /* w with the candidate's micro-batch */
    int cp;
    long long below, above; /* explain_batch: nearest batches that work */
    int dps, one_dp;        /* explain_batch: DP degrees seen; the one, if one */
    bool any_fit;           /* some candidate fits */
} Search;

/* One rung of the memory ladder: a ZeRO stage, a recompute and whether
 * the activations live in host memory. */
typedef struct {
    int zero;
    WlRecompute recompute;
    int offload; /* WL_OFFLOAD_* */
    int mods;    /* with SELECTIVE: the WL_RC_* parts (0: core attention) */
} Rung;

/* The ladder, one level per row, cheapest in time first (see sweep.h); a
 * level's rungs are tried together and the faster that fits is kept. The
 * offloading rungs are tried only when offload is free. */
#define LADDER_LEVELS 5
#define LADDER_WIDTH  3
#define ACT           WL_OFFLOAD_ACTIVATIONS
#define NONE_         WL_RECOMPUTE_NONE
#define SEL           WL_RECOMPUTE_SELECTIVE
#define FULL          WL_RECOMPUTE_FULL
static const Rung ladder[LADDER_LEVELS][LADDER_WIDTH] = {
    {{1, NONE_, 0, 0}, {-1, NONE_, 0, 0}, {-1, NONE_, 0, 0}},
    {{2, NONE_, 0, 0}, {1, NONE_, ACT, 0}, {-1, NONE_, 0, 0}},
    {{2, SEL, 0, 0}, {2, NONE_, ACT, 0}, {2, SEL, 0, WL_RC_CHEAP_PARTS}},
    {{3, SEL, 0, 0}, {2, FULL, 0, 0}, {2, SEL, ACT, 0}},
    {{3, FULL, 0, 0}, {3, NONE_, ACT, 0}, {-1, NONE_, 0, 0}},
};
#undef NONE_
#undef SEL
#undef FULL

/* Whether the ladder may offload activations: when the search frees it and
 * the framework does (MaxText's offloading remat policies on TPU hosts;
 * Megatron-Core's --cpu-offloading, which NVIDIA's recipes use over the
 * NVLink-C2C of Grace systems, 100 GB/s and more per GPU, not over PCIe;
 * PyTorch's FSDP stacks and DeepSpeed's ZeRO-3 of 2021 do not offload
 * activations). */
static bool offload_free(const Search *s)
{
    WlFramework f = s->prep.framework;
    return s->o.offload == SWEEP_FREE &&
           (f == WL_FW_JAX || (f == WL_FW_MEGATRON && s->c->host_bytes_per_s >= 100e9));
}

/* The rung with the search's pins applied. */
static Rung pinned_rung(const Search *s, Rung r)
{
    if (s->o.zero != SWEEP_FREE)
        r.zero = s->o.zero;
    if (s->o.recompute == SWEEP_KEEP)
        r.recompute = s->w->recompute, r.mods = s->w->recompute_mods;
    else if (s->o.recompute != SWEEP_FREE)
        r.recompute = (WlRecompute)s->o.recompute, r.mods = 0;
    int other = s->w->offload & ~WL_OFFLOAD_ACTIVATIONS;
    if (s->o.offload == SWEEP_FREE)
        r.offload = other | r.offload;
    else
        r.offload = s->w->offload;
    return r;
}

/* Whether rung r could fit, from the memory of the base rung: ZeRO 2 can
 * save at most the gradients, ZeRO 3 at most the weights too, more
 * recompute at most the activations. An upper bound on the saving, so a
 * rung it rules out cannot fit. */
static bool rung_can_fit(const StepResult *base, Rung base_rung, Rung r)
{
    double save = 0;
    if (r.zero >= 2 && base_rung.zero < 2)
        save += base->mem_grads;
    if (r.zero >= 3 && base_rung.zero < 3)
        save += base->mem_weights;
    if (r.recompute > base_rung.recompute || r.mods != base_rung.mods ||
        (r.offload & ~base_rung.offload & ACT))
        save += base->mem_activations;
    return base->mem_per_gpu_bytes - save <= base->hbm_bytes;
}

/* s->wl set up for one candidate: micro-batch, recompute, and the switches
 * the search starts from (pinned, the workload's, or Megatron-Core's
 * defaults when free). */
static void candidate_workload(Search *s, int mb, Rung r)
{
    s->wl.micro_batch = mb;
    s->wl.recompute = r.recompute;
    s->wl.recompute_mods = r.recompute == WL_RECOMPUTE_SELECTIVE ? r.mods : 0;
    s->wl.offload = r.offload;
    s->wl.seq_parallel = s->o.seq_parallel == SWEEP_KEEP   ? s->w->seq_parallel
                         : s->o.seq_parallel == SWEEP_FREE ? WL_AUTO
                                                           : (WlSwitch)s->o.seq_parallel;
    s->wl.tp_overlap = s->o.tp_overlap == SWEEP_KEEP   ? s->w->tp_overlap
                       : s->o.tp_overlap == SWEEP_FREE ? WL_AUTO
                                                       : (WlSwitch)s->o.tp_overlap;
}

/* One rung of one candidate with the default placement, in full when its
 * memory fits or `full`, else its memory alone (STEP_DETAIL_FIT), which is
 * not counted as an evaluation; s->wl and *mr are left set up for it. False
 * when the mapping is refused (why is not asked for: nobody reads it). */
static bool rung_eval(Search *s, const Mapping *m, const GroupSpan span[DIM_COUNT], GroupSpan edp,
                      int mb, Rung r, bool full, Mapping *mr, StepResult *res)
{
    *mr = *m;
    mr->zero = r.zero;
    candidate_workload(s, mb, r);
    StepDetail detail = full ? STEP_DETAIL_QUIET : STEP_DETAIL_FIT;
    StepStatus st = step_eval_prepared(&s->prep, &s->wl, mr, span, edp, detail, res, NULL, 0);
    s->r->evaluated += full || st != STEP_OK || res->fits;
    return st == STEP_OK;
}

/* Evaluates one candidate with the default placement, climbing the memory
 * ladder from level *level until a rung fits, and keeps it (the fastest
 * fitting rung, else the one with the least memory, the earliest on ties)
 * when step_eval accepts it. A rung that does not fit costs only its memory;
 * when none fits, the one kept is evaluated in full at the end.
 * *level becomes the level that fitted: memory grows with the micro-batch,
 * so the next larger micro-batch of the same degrees starts there (the
 * levels below cannot fit it either). False when the entry array is full. */
static bool search_try(Search *s, const Mapping *m, const GroupSpan span[DIM_COUNT], GroupSpan edp,
                       int mb, int *level)
{
    if (!reserve(s->r))
        return false;
    SweepEntry *e = &s->r->entries[s->r->n];
    Rung tried[LADDER_WIDTH * LADDER_LEVELS];
    int n_tried = 0;
    bool have = false, fit = false; /* a rung was accepted; one fits (e holds the best) */
    StepResult base = {0};          /* the first rung accepted: what later rungs can save */
    Rung base_rung = {0, WL_RECOMPUTE_NONE, 0, 0}, least = base_rung;
    double least_mem = 0; /* of least, the rung that does not fit with the least memory */
    Mapping mr;
    StepResult res;
    int lv = *level, first_fit = -1;
    /* settled: a rung fits that costs no host-link time; an offloading rung
     * whose transfers show does not stop the climb (a recompute above it
     * may be faster), it is only kept if nothing faster fits */
    bool settled = false;
    for (; lv < LADDER_LEVELS && !settled; lv++)
        for (int k = 0; k < LADDER_WIDTH && ladder[lv][k].zero >= 0; k++) {
            if (ladder[lv][k].offload && !offload_free(s))
                continue;
            Rung r = pinned_rung(s, ladder[lv][k]);
            bool seen = false;
            for (int t = 0; t < n_tried; t++)
                seen |= tried[t].zero == r.zero && tried[t].recompute == r.recompute &&
                        tried[t].offload == r.offload && tried[t].mods == r.mods;
            if (seen)
                continue;
            tried[n_tried++] = r;
            if (have && lv < LADDER_LEVELS - 1 && !rung_can_fit(&base, base_rung, r))
                continue;
            if (!rung_eval(s, m, span, edp, mb, r, false, &mr, &res))
                continue;
            if (res.fits && (!fit || res.step_s < e->step_s))
                entry_from(e, &mr, &s->wl, SWEEP_PLACE_DEFAULT, &res);
            if (!res.fits && (!have || res.mem_per_gpu_bytes < least_mem))
                least = r, least_mem = res.mem_per_gpu_bytes;
            if (!have)
                base = res, base_rung = r;
            have = true;
            if (res.fits && first_fit < 0)
                first_fit = lv;
            fit |= res.fits;
            settled |= res.fits && !(res.offload_s > 0);
        }
    if (have && !fit) {
        have = rung_eval(s, m, span, edp, mb, least, true, &mr, &res);
        if (have)
            entry_from(e, &mr, &s->wl, SWEEP_PLACE_DEFAULT, &res);
    }
    if (have)
        s->r->n++;
    if (fit)
        *level = first_fit;
    return true;
}

/* Interleave values for PP stages: the pinned one, else v | ceil(L/PP) (the
 * largest chunk is then exactly 1/v of a stage; uneven chunks are legal,
 * step.c, but other v are not tried). Returns how many. */
static int search_interleaves(const Search *s, int pp, int *out)
{
    if (s->o.interleave) {
        out[0] = s->o.interleave;
        return 1;
    }
    out[0] = 1;
    if (pp < 2)
        return 1;
    return divisors_of((s->w->layers + pp - 1) / pp, out, SWEEP_MAX_DIVISORS);
}

/* The expert-TP of the search (pinned, 1 by default), or 1 when it does not
 * divide the ranks it folds over (the candidates are then all illegal and
 * step_eval says why). */
static int etp_of(const SweepOptions *o, int ranks)
{
    return o->etp > 1 && ranks % o->etp == 0 ? o->etp : 1;
}

/* Every EP, micro-batch and interleave of one (TP, PP, DP). */
static void search_inner(Search *s, int tp, int pp, int dp)
{
    const int per_dp = s->w->global_batch / dp; /* sequences per DP rank per step */
    int div_ep[SWEEP_MAX_DIVISORS], n_ep = 1;
    div_ep[0] = 1;
    if (s->o.ep)
        div_ep[0] = s->o.ep;
    else if (workload_is_moe(s->w)) /* EP x ETP | TP x CP x DP, EP | experts */
        n_ep = divisors_of(
            (int)mapping_gcd(tp * s->cp * dp / etp_of(&s->o, tp * s->cp * dp), s->w->experts),
            div_ep, SWEEP_MAX_DIVISORS);
    int div_mb[SWEEP_MAX_DIVISORS], div_v[SWEEP_MAX_DIVISORS];
    const int n_mb = divisors_of(per_dp, div_mb, SWEEP_MAX_DIVISORS);
    const int n_v = search_interleaves(s, pp, div_v);
    int level[SWEEP_MAX_DIVISORS];
    unsigned char fitted[SWEEP_MAX_DIVISORS], done[SWEEP_MAX_DIVISORS];
    for (int a = 0; a < n_ep; a++) {
        /* The default placement's spans depend on the degrees only, not on
         * the micro-batch, interleave or settings: once per (TP, PP, DP, EP). */
        Mapping degrees = {tp, s->cp, pp, dp, div_ep[a], 1, 1, s->o.etp, s->o.shard};
        GroupSpan span[DIM_COUNT], edp = {0, 0, 0, 0, false};
        for (int d = 0; d < DIM_COUNT; d++)
            span[d] = span_worst(&degrees, s->c, NULL, (MappingDim)d);
        if (mapping_has_layout(&degrees))
            edp = span_worst_expert(&degrees, s->c, NULL, SPAN_EXPERT_DP);
        memset(level, 0, sizeof level);
        memset(fitted, 0, sizeof fitted);
        memset(done, 0, sizeof done);
        for (int b = 0; b < n_mb; b++) {
            const int mb = div_mb[b];
            if (s->o.micro_batch && mb != s->o.micro_batch)
                continue;
            for (int k = 0; k < n_v; k++) {
                const int v = div_v[k];
                if (v > 1 && (per_dp / mb) % pp)
                    continue;
                if (done[k])
                    continue;
                Mapping m = {tp, s->cp, pp, dp, div_ep[a], v, 1, s->o.etp, s->o.shard};
                int before = s->r->n;
                if (!search_try(s, &m, span, edp, mb, &level[k]))
                    return;
                bool fits = s->r->n > before && s->r->entries[before].fits;
                /* Memory grows with the micro-batch: past one that does not
                 * fit, none will. They are tried on only while nothing has
                 * fit anywhere, to rank the best of what does not fit. */
                done[k] = !fits && (fitted[k] || s->any_fit);
                fitted[k] |= fits;
                s->any_fit |= fits;
            }
        }
    }
}

typedef void (*DegreeFn)(Search *s, int tp, int pp, int dp);

/* Every legal (TP, PP) over the divisors of GPUs / CP, DP the rest, with
 * the pins respected and the batch not looked at: fn for each. */
static void search_each_degree(Search *s, DegreeFn fn)
{
    const int n = s->c->n_gpus / s->cp;
    int div_n[SWEEP_MAX_DIVISORS];
    const int n_div = divisors_of(n, div_n, SWEEP_MAX_DIVISORS);
    for (int i = 0; i < n_div && !s->r->truncated; i++) {
        const int tp = div_n[i];
        if (tp > s->w->heads)
            break;
        if ((s->o.tp && tp != s->o.tp) || !tp_legal(tp, s->w))
            continue;
        for (int j = 0; j < n_div && !s->r->truncated; j++) {
            const int pp = div_n[j];
            if (pp > s->w->layers || (long long)tp * pp > n)
                break;
            if ((s->o.pp && pp != s->o.pp) || (n / tp) % pp)
                continue;
            const int dp = n / tp / pp;
            if (!s->o.dp || dp == s->o.dp)
                fn(s, tp, pp, dp);
        }
    }
}

/* The candidates of one (TP, PP, DP) whose DP splits the global batch. */
static void search_if_batch_splits(Search *s, int tp, int pp, int dp)
{
    if (s->w->global_batch % dp == 0)
        search_inner(s, tp, pp, dp);
}

/* The nearest global batches below and above `batch` that some DP the
 * search reaches splits (with the pinned micro-batch): a multiple of
 * DP x micro-batch. */
static void note_batches(Search *s, int tp, int pp, int dp)
{
    (void)tp;
    (void)pp;
    const long long step = (long long)dp * (s->o.micro_batch ? s->o.micro_batch : 1);
    const long long b = s->w->global_batch;
    long long below = (b - 1) / step * step, above = (b / step + 1) * step;
    if (below >= step && below > s->below)
        s->below = below;
    if (s->above == 0 || above < s->above)
        s->above = above;
    s->dps++;
    s->one_dp = s->dps == 1 ? dp : (s->one_dp == dp ? dp : 0);
}

/* When some (TP, PP) is legal but no DP splits the batch: one line that
 * says so and names the nearest batches that work. False when the batch is
 * not what stopped the search. */
static bool explain_batch(Search *s, char *err, size_t err_len)
{
    s->below = s->above = 0;
    s->dps = s->one_dp = 0;
    search_each_degree(s, note_batches);
    if (s->dps == 0 || s->above == 0)
        return false;
    char n[32], b[32], lo[32], hi[32], why[MSG_LEN];
    units_format_count(s->c->n_gpus, n, sizeof n);
    units_format_count(s->w->global_batch, b, sizeof b);
    units_format_count(s->above, hi, sizeof hi);
    const int mb = s->o.micro_batch ? s->o.micro_batch : 1;
    if (!s->o.tp && !s->o.pp && !s->o.dp)
        s->one_dp = 0; /* a DP the user never asked for is not named */
    if (s->one_dp && s->o.micro_batch)
        msg_set(why, sizeof why,
                "global batch %s is not a multiple of DP %d x micro-batch %d = %lld", b, s->one_dp,
                mb, (long long)s->one_dp * mb);
    else if (s->one_dp)
        msg_set(why, sizeof why, "global batch %s is not a multiple of DP %d", b, s->one_dp);
    else if (mb > 1)
        msg_set(why, sizeof why,
                "no mapping of %s GPUs splits a global batch of %s sequences into "
                "micro-batches of %d",
                n, b, mb);
    else
        msg_set(why, sizeof why, "no mapping of %s GPUs splits a global batch of %s sequences", n,
                b);
    if (s->below > 0) {
        units_format_count(s->below, lo, sizeof lo);
        msg_set(err, err_len, "%s; the nearest batches that work are %s and %s", why, lo, hi);
    } else {
        msg_set(err, err_len, "%s; the smallest batch that works is %s", why, hi);
    }
    return true;
}

/* Ranks entries[0..n) when entries[0..sorted) are ranked already: the tail
 * is sorted on its own and merged in from the back (the tail is copied out,
 * the head never overwritten before it is read), cheaper than sorting all. */
static void merge_sorted_tail(SweepResult *r, int sorted)
{
    const int n_tail = r->n - sorted;
    if (n_tail <= 0)
        return;
    SweepEntry *tail = xmem_alloc((size_t)n_tail * sizeof *tail);
    memcpy(tail, r->entries + sorted, (size_t)n_tail * sizeof *tail);
    qsort(tail, (size_t)n_tail, sizeof *tail, entry_cmp);
    int i = sorted - 1, j = n_tail - 1, k = r->n - 1;
    while (j >= 0) {
        if (i >= 0 && entry_cmp(&r->entries[i], &tail[j]) > 0)
            r->entries[k--] = r->entries[i--];
        else
            r->entries[k--] = tail[j--];
    }
    free(tail);
}

/* DP-inner spans of the degrees seen: many candidates share their TP, PP,
 * DP and EP (they differ in micro-batch, interleave or settings), and the
 * spans depend on those only. Open addressing over SPAN_PROBE slots from
 * the key's own; past them the own slot is overwritten (a miss just
 * recomputes). A search reaches a few hundred degrees: 64 direct-mapped
 * slots missed a third of the time, each miss eight span computations. */
#define SPAN_CACHE 1024
#define SPAN_PROBE 8
typedef struct {
    int tp, pp, dp, ep; /* tp 0: empty */
    GroupSpan span[DIM_COUNT], edp;
    bool same; /* every span as with the default placement: the same step time */
} SpanSlot;

static bool span_equal(GroupSpan a, GroupSpan b)
{
    return a.size == b.size && a.domains == b.domains && a.min_per_domain == b.min_per_domain &&
           a.sites == b.sites && a.crosses_leaf == b.crosses_leaf;
}

static const SpanSlot *cached_dp_inner_spans(SpanSlot *cache, const Cluster *c, const Mapping *m)
{
    unsigned h = (unsigned)m->tp * 31u + (unsigned)m->pp * 131u + (unsigned)m->dp * 17u +
                 (unsigned)m->ep * 7u;
    SpanSlot *slot = NULL;
    for (unsigned k = 0; k < SPAN_PROBE && !slot; k++) {
        SpanSlot *at = &cache[(h + k) % SPAN_CACHE];
        if (at->tp == 0 ||
            (at->tp == m->tp && at->pp == m->pp && at->dp == m->dp && at->ep == m->ep))
            slot = at;
    }
    if (!slot)
        slot = &cache[h % SPAN_CACHE];
    if (slot->tp != m->tp || slot->pp != m->pp || slot->dp != m->dp || slot->ep != m->ep) {
        slot->tp = m->tp, slot->pp = m->pp, slot->dp = m->dp, slot->ep = m->ep;
        dp_inner_spans(c, m, slot->span, &slot->edp);
        /* dp_inner_spans takes TP, CP and EP from the default layout */
        slot->same = span_equal(slot->span[DIM_DP], span_worst(m, c, NULL, DIM_DP)) &&
                     span_equal(slot->span[DIM_PP], span_worst(m, c, NULL, DIM_PP)) &&
                     span_equal(slot->edp, span_worst_expert(m, c, NULL, SPAN_EXPERT_DP));
    }
    return slot;
}

/* The alternative placement on the best candidates where it can differ,
 * evaluated with its spans in closed form (no per-GPU placement); kept only
 * where it changes the step time. CP and ETP are the search's (the same for
 * every candidate) and ZeRO, interleave and micro-batch move no rank, so
 * TP, PP, DP and EP are the whole key of the span cache. */
static void search_alternatives(Search *s)
{
    SweepResult *r = s->r;
    const int base_n = r->n;
    int k_alt = s->o.alt_top < 0 ? r->n : (s->o.alt_top < r->n ? s->o.alt_top : r->n);
    SpanSlot *cache = xmem_calloc(SPAN_CACHE, sizeof *cache);
    for (int i = 0; i < k_alt && i < base_n; i++) {
        const Mapping m = r->entries[i].m;
        const double base_s = r->entries[i].step_s;
        if (!dp_inner_can_differ(s->c, &m) || !reserve(r))
            continue;
        const SpanSlot *sp = cached_dp_inner_spans(cache, s->c, &m);
        if (sp->same)
            continue;
        const GroupSpan *span = sp->span, edp = sp->edp;
        StepResult res;
        Workload wl = sweep_entry_workload(s->w, &r->entries[i]);
        r->evaluated++;
        if (step_eval_prepared(&s->prep, &wl, &m, span, edp, STEP_DETAIL_QUIET, &res, NULL, 0) !=
            STEP_OK)
            continue;
        if (fabs(res.step_s - base_s) <= 1e-12 * base_s)
            continue;
        entry_from(&r->entries[r->n++], &m, &wl, SWEEP_PLACE_DP_INNER, &res);
    }
    free(cache);
    merge_sorted_tail(r, base_n);
}

/* The balanced placement of each TP degree, made once per search. */
typedef struct {
    int tp[SWEEP_BALANCE_TOP];
    Placement *p[SWEEP_BALANCE_TOP];
    int n;
} BalanceCache;

static const Placement *cached_balance(BalanceCache *bc, const Cluster *c, int tp)
{
    for (int i = 0; i < bc->n; i++)
        if (bc->tp[i] == tp)
            return bc->p[i];
    if (bc->n == SWEEP_BALANCE_TOP)
        return NULL;
    bc->tp[bc->n] = tp;
    bc->p[bc->n] = balance_tp_placement(c->n_gpus, c->domain_gpus, tp, NULL);
    return bc->p[bc->n++];
}

/* The balanced placement, where TP has one, on the best SWEEP_BALANCE_TOP
 * default-placement entries, kept (appended, then merged) where faster. */
static void search_balanced(Search *s)
{
    SweepResult *r = s->r;
    const int base_n = r->n;
    int top =
        s->o.alt_top < 0 || s->o.alt_top > SWEEP_BALANCE_TOP ? SWEEP_BALANCE_TOP : s->o.alt_top;
    BalanceCache bc = {{0}, {NULL}, 0};
    for (int i = 0, seen = 0; i < base_n && seen < top; i++) {
        const SweepEntry e = r->entries[i];
        if (e.place != SWEEP_PLACE_DEFAULT)
            continue;
        seen++;
        const Placement *p = cached_balance(&bc, s->c, e.m.tp);
        if (!p || !reserve(r))
            continue;
        Workload wl = sweep_entry_workload(s->w, &e);
        StepResult res;
        char why[MSG_LEN];
        r->evaluated++;
        if (step_eval(s->c, &wl, &e.m, p, s->o.params, &res, why, sizeof why) == STEP_OK &&
            res.step_s < e.step_s)
            entry_from(&r->entries[r->n++], &e.m, &wl, SWEEP_PLACE_BALANCED, &res);
    }
    for (int i = 0; i < bc.n; i++)
        placement_free(bc.p[i]);
    merge_sorted_tail(r, base_n);
}

/* Full recompute on fewer layers of each stage, the others keeping
 * everything (Megatron-Core's recompute_num_layers with the block method,
 * NeMo's activations_checkpoint_num_layers), where the recompute is free,
 * on the best SWEEP_TUNE_TOP candidates whose every layer recomputes: the
 * fewest layers that fit replace the entry when faster. Memory falls
 * linearly with the layers recomputed (step_memory), so the count follows
 * from the same entry without recompute; one evaluation checks it (one
 * more layer where rounding fell short). */
static void search_fewer_layers(Search *s)
{
    SweepResult *r = s->r;
    if (s->o.recompute != SWEEP_FREE)
        return;
    int changed = 0; /* entries[0..changed) hold every entry that changed */
    for (int i = 0; i < r->n && i < SWEEP_TUNE_TOP; i++) {
        SweepEntry *e = &r->entries[i];
        int per_stage = (s->w->layers + e->m.pp - 1) / e->m.pp;
        if (!e->fits || e->recompute != WL_RECOMPUTE_FULL || e->recompute_layers > 0 ||
            per_stage < 2)
            continue;
        Workload wl = sweep_entry_workload(s->w, e);
        wl.recompute = WL_RECOMPUTE_NONE;
        StepResult none, res;
        char why[MSG_LEN];
        r->evaluated++;
        if (step_eval(s->c, &wl, &e->m, NULL, s->o.params, &none, why, sizeof why) != STEP_OK ||
            none.fits || !(none.mem_per_gpu_bytes > e->mem_per_gpu_bytes))
            continue;
        double need = ceil((none.mem_per_gpu_bytes - none.hbm_bytes) /
                           (none.mem_per_gpu_bytes - e->mem_per_gpu_bytes) * per_stage);
        wl.recompute = WL_RECOMPUTE_FULL;
        for (int n = need > 1 ? (int)need : 1; n < per_stage && n <= need + 1; n++) {
            wl.recompute_layers = n;
            r->evaluated++;
            if (step_eval(s->c, &wl, &e->m, NULL, s->o.params, &res, why, sizeof why) != STEP_OK ||
                !res.fits)
                continue;
            if (res.step_s < e->step_s) {
                entry_from(e, &e->m, &wl, SWEEP_PLACE_DEFAULT, &res);
                changed = i + 1;
            }
            break;
        }
    }
    if (changed)
        qsort(r->entries, (size_t)changed, sizeof *r->entries, entry_cmp);
}

/* TP overlap on and sequence parallelism off, where free, on the best
 * SWEEP_TUNE_TOP candidates with TP > 1: a variant replaces the entry when
 * it is faster and fits as well. */
static void search_tune(Search *s)
{
    SweepResult *r = s->r;
    const bool free_ov = s->o.tp_overlap == SWEEP_FREE, free_sp = s->o.seq_parallel == SWEEP_FREE;
    if (!free_ov && !free_sp)
        return;
    int changed = 0; /* entries[0..changed) hold every entry that changed */
    for (int i = 0, tuned = 0; i < r->n && tuned < SWEEP_TUNE_TOP; i++) {
        SweepEntry *e = &r->entries[i];
        if (e->m.tp < 2)
            continue;
        tuned++;
        static const WlSwitch ov[] = {WL_ON, WL_AUTO, WL_ON}, sp[] = {WL_AUTO, WL_OFF, WL_OFF};
        for (int k = 0; k < 3; k++) {
            if ((ov[k] == WL_ON && !free_ov) || (sp[k] == WL_OFF && !free_sp))
                continue;
            Workload wl = sweep_entry_workload(s->w, e);
            wl.tp_overlap = ov[k];
            wl.seq_parallel = sp[k];
            StepResult res;
            char why[MSG_LEN];
            r->evaluated++;
            if (step_eval(s->c, &wl, &e->m, NULL, s->o.params, &res, why, sizeof why) != STEP_OK)
                continue;
            if ((res.fits || !e->fits) && res.step_s < e->step_s * (1 - 1e-12)) {
                entry_from(e, &e->m, &wl, SWEEP_PLACE_DEFAULT, &res);
                changed = i + 1;
            }
        }
    }
    /* A changed entry only got faster (or came to fit), so it moves towards
     * the front: sorting the prefix that holds the changes ranks them all. */
    if (changed)
        qsort(r->entries, (size_t)changed, sizeof *r->entries, entry_cmp);
}

bool sweep_run(SweepResult *r, const Cluster *c, const Workload *w, const SweepOptions *o,
               char *err, size_t err_len)
{
    if (!r || !c || !w) {
        msg_set(err, err_len, !r ? "no result to fill" : !c ? "no cluster" : "no workload");
        return false;
    }
    r->n = r->n_fit = r->evaluated = 0;
    r->truncated = false;
    Search s = {r, c, w, o ? *o : sweep_options_default(), {0}, *w, 1, 0, 0, 0, 0, false};
    if (!step_prepare(&s.prep, c, w, s.o.params, err, err_len) ||
        !options_check(&s.o, c->n_gpus, err, err_len))
        return false;
    s.cp = s.o.cp ? s.o.cp : 1;
    search_each_degree(&s, search_if_batch_splits);
    if (r->n == 0) {
        if (r->evaluated > 0 || !explain_batch(&s, err, err_len))
            explain_none(c, w, &s.o, err, err_len);
        return false;
    }
    qsort(r->entries, (size_t)r->n, sizeof *r->entries, entry_cmp);
    search_fewer_layers(&s);
    search_tune(&s);
    search_alternatives(&s);
    search_balanced(&s);
    while (r->n_fit < r->n && r->entries[r->n_fit].fits)
        r->n_fit++;
    return true;
}

const SweepEntry *sweep_choice(const SweepResult *r)
{
    if (!r || r->n == 0)
        return NULL;
    if (r->n_fit > 0)
        return &r->entries[0];
    const SweepEntry *least = &r->entries[0];
    for (int i = 1; i < r->n; i++)
        if (r->entries[i].mem_per_gpu_bytes < least->mem_per_gpu_bytes)
            least = &r->entries[i];
    return least;
}

bool sweep_find_mapping(const Cluster *c, const Workload *w, const SweepOptions *o, Mapping *m,
                        int *micro_batch, char *err, size_t err_len)
{
    SweepOptions opt = o ? *o : sweep_options_default();
    opt.alt_top = 0;
    SweepResult r = {0};
    bool ok = sweep_run(&r, c, w, &opt, err, err_len);
    const SweepEntry *e = ok ? sweep_choice(&r) : NULL;
    if (e) {
        *m = e->m;
        if (micro_batch)
            *micro_batch = e->micro_batch;
    }
    sweep_result_free(&r);
    return e != NULL;
}

void sweep_result_free(SweepResult *r)
{
    if (!r)
        return;
    free(r->entries);
    r->entries = NULL;
    r->n = r->cap = r->n_fit = r->evaluated = 0;
    r->truncated = false;
}

const SweepEntry *sweep_best(const SweepResult *r)
{
    return r && r->n > 0 ? &r->entries[0] : NULL;
}

Workload sweep_entry_workload(const Workload *w, const SweepEntry *e)
{
    Workload wl = *w;
    if (e) {
        wl.micro_batch = e->micro_batch;
        wl.recompute = e->recompute;
        wl.recompute_mods = e->recompute_mods;
        wl.recompute_layers = e->recompute_layers;
        wl.offload = e->offload;
        wl.seq_parallel = e->seq_parallel;
        wl.tp_overlap = e->tp_overlap;
    }
    return wl;
}

Placement *sweep_entry_placement(const Cluster *c, const SweepEntry *e)
{
    if (!c || !e || e->place == SWEEP_PLACE_DEFAULT)
        return NULL;
    if (e->place == SWEEP_PLACE_BALANCED)
        return balance_tp_placement(c->n_gpus, c->domain_gpus, e->m.tp, NULL);
    Placement *p = placement_new(c->n_gpus);
    if (p)
        fill_dp_inner(p, &e->m);
    return p;
}

StepStatus sweep_entry_eval(const Cluster *c, const Workload *w, const SweepEntry *e,
                            const StepParams *params, StepResult *out, char *err, size_t err_len)
{
    if (!e || !w) {
        if (err && err_len)
            msg_set(err, err_len, "no sweep entry");
        return STEP_ERR_MAPPING;
    }
    Workload wl = sweep_entry_workload(w, e);
    if (e->place == SWEEP_PLACE_DEFAULT || !c)
        return step_eval(c, &wl, &e->m, NULL, params, out, err, err_len);
    if (e->place == SWEEP_PLACE_BALANCED) {
        Placement *p = sweep_entry_placement(c, e);
        StepStatus st = step_eval(c, &wl, &e->m, p, params, out, err, err_len);
        placement_free(p);
        return st;
    }
    GroupSpan span[DIM_COUNT], edp;
    dp_inner_spans(c, &e->m, span, &edp);
    return step_eval_spans(c, &wl, &e->m, span, edp, params, out, err, err_len);
}

Tier sweep_span_tier(GroupSpan s)
{
    if (s.sites > 1)
        return TIER_ACROSS;
    if (s.domains > 1)
        return TIER_OUT;
    return TIER_UP;
}

/* Appends printf output to buf at *used, never past buf_len. */
static void append(char *buf, size_t buf_len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t buf_len, size_t *used, const char *fmt, ...)
{
    if (*used >= buf_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *used, buf_len - *used, fmt, ap);
    va_end(ap);
    if (k > 0)
        *used = *used + (size_t)k < buf_len ? *used + (size_t)k : buf_len - 1;
}

char *sweep_explain(const Cluster *c, const SweepEntry *e, char *buf, size_t buf_len)
{
    if (!buf || buf_len == 0)
        return buf;
    buf[0] = '\0';
    if (!c || !e)
        return buf;
    static const MappingDim order[] = {DIM_TP, DIM_CP, DIM_EP, DIM_PP, DIM_DP};
    size_t used = 0;
    int clauses = 0;
    for (int t = 0; t < TIER_COUNT; t++) {
        int in_tier = 0, total = 0;
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            MappingDim d = order[i];
            if (mapping_dim_size(&e->m, d) > 1 && (int)sweep_span_tier(e->span[d]) == t)
                total++;
        }
        if (total == 0)
            continue;
        append(buf, buf_len, &used, "%s", clauses ? "; " : "");
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            MappingDim d = order[i];
            int size = mapping_dim_size(&e->m, d);
            if (size <= 1 || (int)sweep_span_tier(e->span[d]) != t)
                continue;
            const char *sep = in_tier == 0 ? "" : (in_tier == total - 1 ? " and " : ", ");
            append(buf, buf_len, &used, "%s%s %d", sep, mapping_dim_name(d), size);
            if (t != TIER_UP && e->span[d].min_per_domain > 1)
                append(buf, buf_len, &used, " (%d per domain)", e->span[d].min_per_domain);
            in_tier++;
        }
        if (t == TIER_UP)
            append(buf, buf_len, &used, " inside the %s domain of %d (scale-up)",
                   c->up_link[0] ? c->up_link : "scale-up", c->domain_gpus);
        else if (t == TIER_OUT)
            append(buf, buf_len, &used, " across the scale-out fabric (%s)",
                   c->out_link[0] ? c->out_link : "scale-out");
        else
            append(buf, buf_len, &used, " across the %d sites (scale-across)", c->sites);
        clauses++;
    }
    if (clauses == 0)
        append(buf, buf_len, &used, "one %s: no parallelism", hw_noun(&c->gpu, 0));
    return buf;
}

void sweep_series_by_tp(const SweepResult *r, SweepSeries *s)
{
    if (!s)
        return;
    memset(s, 0, sizeof *s);
    s->best = -1;
    if (!r)
        return;
    for (int i = 0; i < r->n; i++) {
        const SweepEntry *e = &r->entries[i];
        int k = 0;
        while (k < s->n && s->x[k] < e->m.tp)
            k++;
        if (k == s->n || s->x[k] != e->m.tp) {
            if (s->n == SWEEP_SERIES_MAX)
                continue;
            memmove(&s->x[k + 1], &s->x[k], (size_t)(s->n - k) * sizeof s->x[0]);
            memmove(&s->y_s[k + 1], &s->y_s[k], (size_t)(s->n - k) * sizeof s->y_s[0]);
            memmove(&s->valid[k + 1], &s->valid[k], (size_t)(s->n - k) * sizeof s->valid[0]);
            s->n++;
            s->x[k] = e->m.tp;
            s->y_s[k] = e->step_s;
            s->valid[k] = e->fits;
            continue;
        }
        /* entries are ranked: the first one seen for a TP is its best */
    }
    for (int k = 0; k < s->n; k++)
        if (s->valid[k] && (s->best < 0 || s->y_s[k] < s->y_s[s->best]))
            s->best = k;
}

bool sweep_series_by_domain(const Cluster *c, const Workload *w, const SweepOptions *o,
                            const int *domain_gpus, int n, SweepSeries *s, char *err,
                            size_t err_len)
{
    if (!s || !c || !w || !domain_gpus || n < 1 || n > SWEEP_SERIES_MAX) {
        if (err && err_len)
            msg_set(err, err_len, "a domain series takes 1 to %d sizes (got %d)", SWEEP_SERIES_MAX,
                    n);
        return false;
    }
    memset(s, 0, sizeof *s);
    s->best = -1;
    SweepOptions opt = o ? *o : sweep_options_default();
    opt.alt_top = 0;
    SweepResult scratch = {0};
    for (int i = 0; i < n; i++) {
        Cluster cc = *c;
        cc.domain_gpus = domain_gpus[i];
        s->x[i] = domain_gpus[i];
        s->n++;
        if (!cluster_check(&cc, NULL, 0) || !sweep_run(&scratch, &cc, w, &opt, NULL, 0))
            continue;
        s->y_s[i] = scratch.entries[0].step_s;
        s->valid[i] = scratch.entries[0].fits;
        if (s->valid[i] && (s->best < 0 || s->y_s[i] < s->y_s[s->best]))
            s->best = i;
    }
    sweep_result_free(&scratch);
    return true;
}
