/* SPDX-License-Identifier: MIT */
/* practice — exercises made from a seed and graded by the model (see
 * practice.h). Everything an exercise shows comes from the presets and the
 * model: the search (sweep.h) for the best mapping, step_eval for the parts
 * of a step, collective_cost for one collective. Nothing here is typed in.
 *
 * Determinism: the only randomness is a splitmix64 stream of the seed, the
 * presets are compiled in, and the model is pure, so one seed gives one
 * exercise everywhere. Pure: no I/O.
 */
#include "learn/practice.h"

#include "base/msg.h"
#include "model/collective.h"
#include "model/hw.h"
#include "model/sweep.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PRACTICE_TRIES 40 /* draws before giving up on a seed */

static const char *const kind_names[PRACTICE_KIND_COUNT] = {"mapping", "predict", "bottleneck"};

const char *practice_kind_name(PracticeKind k)
{
    return (int)k >= 0 && k < PRACTICE_KIND_COUNT ? kind_names[k] : "?";
}

int practice_kind_find(const char *name)
{
    for (int k = 0; name && k < PRACTICE_KIND_COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0)
            return k;
    return -1;
}

/* ---- randomness: splitmix64 (Steele, Lea, Flood 2014), the seed's only use ---- */

typedef struct {
    uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* 0..n-1, n >= 1 (the modulo bias of a 64-bit draw is below 1e-15). */
static int rng_below(Rng *r, int n)
{
    return n <= 1 ? 0 : (int)(rng_next(r) % (uint64_t)n);
}

/* ---- text ---- */

static void put(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

static const char *fmt_u(UnitsKind k, double v, char *buf, size_t len)
{
    return units_format(k, v, true, buf, len);
}

/* ---- drawing a cluster and a workload for a level ---- */

/* Cluster sizes before rounding to whole scale-up domains. */
static const int level_gpus[PRACTICE_LEVEL_MAX][4] = {
    {8, 16, 16, 32},          {32, 64, 128, 256},          {256, 512, 1024, 1024},
    {1024, 2048, 4096, 4096}, {8192, 16384, 16384, 32768},
};

/* The largest model (total parameters) a level draws; level 4 and 5 draw any. */
static const double level_max_params[PRACTICE_LEVEL_MAX] = {20e9, 200e9, 500e9, 1e30, 1e30};

static bool draw_cluster(Rng *rng, int level, Cluster *c)
{
    const SystemSpec *s = hw_system_at(rng_below(rng, hw_system_count()));
    int n = level_gpus[level - 1][rng_below(rng, 4)];
    if (s->domain_gpus > 0 && n >= s->domain_gpus)
        n = (n + s->domain_gpus - 1) / s->domain_gpus * s->domain_gpus;
    char err[160];
    return cluster_from_system(c, s->id, n, err, sizeof err);
}

static bool draw_workload(Rng *rng, int level, Workload *w)
{
    int pick[64], n = 0;
    for (int i = 0; i < workload_preset_count() && n < 64; i++)
        if (workload_params(&workload_preset_at(i)->w) <= level_max_params[level - 1])
            pick[n++] = i;
    if (n == 0)
        return false;
    *w = workload_preset_at(pick[rng_below(rng, n)])->w;
    return true;
}

/* The global batch rounded up to a multiple of the GPU count when it is
 * smaller than the cluster (so some mapping can split it). */
static void fit_batch(Workload *w, const Cluster *c)
{
    if (w->global_batch < c->n_gpus)
        w->global_batch = c->n_gpus;
}

/* Searches the job with the default placement only (what the scenario keys
 * reach), ZeRO 1, no interleave. False when nothing fits. */
static bool search(const Cluster *c, const Workload *w, SweepResult *r)
{
    SweepOptions o = sweep_options_default();
    o.alt_top = 0;
    o.interleave = 1;
    char err[256];
    return sweep_run(r, c, w, &o, err, sizeof err) && r->n_fit > 0;
}

/* A job drawn for the level whose search has a mapping that fits. */
static bool draw_job(Rng *rng, int level, Practice *p, SweepResult *r)
{
    for (int t = 0; t < PRACTICE_TRIES; t++) {
        if (!draw_cluster(rng, level, &p->cluster) || !draw_workload(rng, level, &p->workload))
            continue;
        fit_batch(&p->workload, &p->cluster);
        if (search(&p->cluster, &p->workload, r))
            return true;
    }
    return false;
}

/* "- Cluster: ..." and "- Job: ...": one bullet each, so both the UI's
 * markup and a printed sheet keep them on lines of their own. */
static void describe_job(const Practice *p, char *buf, size_t len)
{
    const Cluster *c = &p->cluster;
    const Workload *w = &p->workload;
    const WorkloadPreset *wp = workload_preset_find(w->id);
    char up[32], out[32], hbm[32];
    fmt_u(UNITS_BANDWIDTH, c->up_bytes_per_s, up, sizeof up);
    fmt_u(UNITS_BANDWIDTH, c->out_bytes_per_s, out, sizeof out);
    fmt_u(UNITS_BYTES, c->gpu.hbm_bytes, hbm, sizeof hbm);
    put(buf, len,
        "- Cluster: %d %s of %s, %d per scale-up domain on %s (%s each way), %s each way "
        "per %s to the scale-out fabric, %s of HBM each.\n",
        c->n_gpus, hw_noun(&c->gpu, HW_NOUN_MANY), c->name, c->domain_gpus, c->up_link, up, out,
        hw_noun(&c->gpu, 0), hbm);
    put(buf, len, "- Job: %s (%d layers, hidden %d, %d heads", wp ? wp->name : w->id, w->layers,
        w->hidden, w->heads);
    if (workload_is_moe(w))
        put(buf, len, ", %d experts, top-%d", w->experts, w->topk);
    put(buf, len, "), %d sequences of %d tokens a step.\n", w->global_batch, w->seq);
}

static void describe_mapping(const Practice *p, const SweepEntry *e, const char *lead, char *buf,
                             size_t len)
{
    char m[64], where[400];
    mapping_format(&e->m, m, sizeof m);
    sweep_explain(&p->cluster, e, where, sizeof where);
    put(buf, len, "- %s: %s, micro-batch %d (%d micro-batches a step): %s.\n", lead, m,
        e->micro_batch, p->workload.global_batch / (e->m.dp * e->micro_batch), where);
}

/* ---- mapping ---- */

/* Degrees that differ between two mappings (TP, PP, EP, micro-batch). */
static int moves_between(const Mapping *a, int mb_a, const Mapping *b, int mb_b)
{
    return (a->tp != b->tp) + (a->pp != b->pp) + (a->ep != b->ep) + (mb_a != mb_b);
}

/* Key presses from one value to another when each press doubles or halves
 * (the presets' degrees and batches are powers of two; otherwise the
 * nearest count). */
static int presses(int from, int to)
{
    double d = fabs(log2((double)to / from));
    int n = (int)(d + 0.5);
    return from != to && n < 1 ? 1 : n;
}

/* Par: the presses from the start to the best, one degree at a time. */
static int par_between(const Mapping *a, int mb_a, const Mapping *b, int mb_b)
{
    return presses(a->tp, b->tp) + presses(a->pp, b->pp) + presses(a->ep, b->ep) +
           presses(mb_a, mb_b);
}

static bool make_mapping(Rng *rng, Practice *p, SweepResult *r)
{
    for (int t = 0; t < PRACTICE_TRIES; t++) {
        if (!draw_job(rng, p->level, p, r))
            return false;
        const SweepEntry *best = &r->entries[0];
        /* Starts that leave room to improve: 25% or more slower than the best
         * or not fitting at all, and two or more moves away. */
        int cand[256], n = 0;
        for (int i = 1; i < r->n && n < 256; i++) {
            const SweepEntry *e = &r->entries[i];
            bool slow = !e->fits || e->step_s >= 1.25 * best->step_s;
            if (slow && moves_between(&e->m, e->micro_batch, &best->m, best->micro_batch) >= 2)
                cand[n++] = i;
        }
        if (n == 0)
            continue;
        const SweepEntry *start = &r->entries[cand[rng_below(rng, n)]];
        p->start = start->m;
        p->workload.micro_batch = start->micro_batch;
        p->best = best->m;
        p->best_micro_batch = best->micro_batch;
        p->best_step_s = best->step_s;
        p->par = par_between(&start->m, start->micro_batch, &best->m, best->micro_batch);

        char bs[32], ss[32], bm[64], why[400];
        snprintf(p->title, sizeof p->title, "Map the job: %d %s of %s", p->cluster.n_gpus,
                 hw_noun(&p->cluster.gpu, HW_NOUN_MANY), p->cluster.name);
        describe_job(p, p->question, sizeof p->question);
        describe_mapping(p, start, "Start", p->question, sizeof p->question);
        put(p->question, sizeof p->question, "- Its step: %s%s.\n",
            fmt_u(UNITS_TIME, start->step_s, ss, sizeof ss),
            start->fits ? "" : ", and it does not fit in memory");
        put(p->question, sizeof p->question,
            "\nChange TP, PP, EP and the micro-batch (DP follows) until the job fits and "
            "its step is within %.0f%% of the best mapping the search finds. Par: %d moves.",
            100 * PRACTICE_MAPPING_SLACK, p->par);
        mapping_format(&best->m, bm, sizeof bm);
        snprintf(p->answer, sizeof p->answer, "%s, micro-batch %d: %s per step", bm,
                 best->micro_batch, fmt_u(UNITS_TIME, best->step_s, bs, sizeof bs));
        sweep_explain(&p->cluster, best, why, sizeof why);
        snprintf(p->worked, sizeof p->worked,
                 "The best mapping, %s with micro-batch %d, takes %s per step (%.0f%% MFU): "
                 "%s.",
                 bm, best->micro_batch, bs, 100 * best->mfu, why);
        if (best->bottleneck_part != STEP_COMPUTE)
            put(p->worked, sizeof p->worked, " What it still waits for most is %s.",
                step_part_name(best->bottleneck_part));
        return true;
    }
    return false;
}

bool practice_grade_mapping(const Practice *p, const StepResult *r, char *msg, size_t msg_len)
{
    char have[32], best[32];
    fmt_u(UNITS_TIME, r->step_s, have, sizeof have);
    fmt_u(UNITS_TIME, p->best_step_s, best, sizeof best);
    if (!r->fits) {
        msg_set(msg, msg_len, "Not yet: %s.", r->bottleneck);
        return false;
    }
    double off = r->step_s / p->best_step_s - 1;
    if (off <= PRACTICE_MAPPING_SLACK) {
        msg_set(msg, msg_len, "Passed: %s per step, %s the best (%s).", have,
                off <= 0 ? "as fast as" : "within 5% of", best);
        return true;
    }
    msg_set(msg, msg_len, "%s per step is %.0f%% slower than the best the search finds; %s.", have,
            100 * off, r->bottleneck);
    return false;
}

/* ---- bottleneck ---- */

int practice_part_choices(const Practice *p, StepPart parts[STEP_PART_COUNT])
{
    int n = 0;
    for (int i = 0; i < STEP_PART_COUNT; i++)
        if (i != STEP_EP || workload_is_moe(&p->workload))
            parts[n++] = (StepPart)i;
    return n;
}

/* The largest part and whether it leads the second by 25% or more. */
static StepPart largest_part(const double part_s[STEP_PART_COUNT], bool *clear)
{
    int a = 0;
    for (int i = 1; i < STEP_PART_COUNT; i++)
        if (part_s[i] > part_s[a])
            a = i;
    double second = 0;
    for (int i = 0; i < STEP_PART_COUNT; i++)
        if (i != a && part_s[i] > second)
            second = part_s[i];
    *clear = part_s[a] >= 1.25 * second;
    return (StepPart)a;
}

static void breakdown(const double part_s[STEP_PART_COUNT], double step_s, char *buf, size_t len)
{
    for (int i = 0; i < STEP_PART_COUNT; i++) {
        if (part_s[i] <= 0)
            continue;
        char t[32];
        put(buf, len, "%s%s %s (%.0f%%)", buf[0] ? ", " : "", step_part_name((StepPart)i),
            fmt_u(UNITS_TIME, part_s[i], t, sizeof t), 100 * part_s[i] / step_s);
    }
}

static bool make_bottleneck(Rng *rng, Practice *p, SweepResult *r)
{
    for (int t = 0; t < PRACTICE_TRIES; t++) {
        if (!draw_job(rng, p->level, p, r))
            return false;
        /* Three times in four a communication part leads: those are the ones
         * a learner can reason out from where the groups land. */
        bool want_comm = rng_below(rng, 4) != 0;
        int cand[256], n = 0;
        for (int i = 0; i < r->n && n < 256; i++) {
            bool clear;
            StepPart a = largest_part(r->entries[i].part_s, &clear);
            if (clear && r->entries[i].fits && (a != STEP_COMPUTE) == want_comm)
                cand[n++] = i;
        }
        if (n == 0)
            continue;
        const SweepEntry *e = &r->entries[cand[rng_below(rng, n)]];
        bool clear;
        p->start = e->m;
        p->workload.micro_batch = e->micro_batch;
        p->part = largest_part(e->part_s, &clear);
        snprintf(p->title, sizeof p->title, "Spot the bottleneck: %d %s of %s", p->cluster.n_gpus,
                 hw_noun(&p->cluster.gpu, HW_NOUN_MANY), p->cluster.name);
        describe_job(p, p->question, sizeof p->question);
        describe_mapping(p, e, "Mapping", p->question, sizeof p->question);
        put(p->question, sizeof p->question, "\nWhich part of the step takes the most time?");
        char total[32], parts[400] = "";
        fmt_u(UNITS_TIME, e->step_s, total, sizeof total);
        snprintf(p->answer, sizeof p->answer, "%s", step_part_name(p->part));
        breakdown(e->part_s, e->step_s, parts, sizeof parts);
        snprintf(p->worked, sizeof p->worked, "The step takes %s: %s.", total, parts);
        StepResult full;
        char err[200];
        if (p->part != STEP_COMPUTE && sweep_entry_eval(&p->cluster, &p->workload, e, NULL, &full,
                                                        err, sizeof err) == STEP_OK) {
            char line[600];
            step_explain(&p->cluster, &p->workload, &e->m, &full, p->part, line, sizeof line);
            put(p->worked, sizeof p->worked, " %s", line);
        }
        return true;
    }
    return false;
}

bool practice_grade_part(const Practice *p, StepPart part, char *msg, size_t msg_len)
{
    if (part == p->part) {
        msg_set(msg, msg_len, "Right: %s is the largest part.", step_part_name(part));
        return true;
    }
    static const char *const why[STEP_PART_COUNT] = {
        NULL, /* compute: written out below, with the accelerator's noun */
        "TP all-reduces sit on every layer's path: are its groups inside the domain here?",
        "pipeline sends carry one activation per micro-batch: rarely the largest part",
        "the bubble is (p-1)/(v*m) of the pipelined work: how many micro-batches are there?",
        "the DP reduction happens once per step and hides behind backward",
        "expert all-to-alls grow when EP groups leave the domain",
    };
    if (part == STEP_COMPUTE) /* names the accelerator */
        msg_set(msg, msg_len,
                "Not %s: compute is what every %s must do anyway; look for traffic that crosses "
                "a slow tier.",
                step_part_name(part), hw_noun(&p->cluster.gpu, 0));
    else
        msg_set(msg, msg_len, "Not %s: %s.", step_part_name(part), why[part]);
    return false;
}

/* ---- predict ---- */

void practice_predict_spec(const Practice *p, PredictSpec *spec)
{
    *spec = (PredictSpec){.unit = p->unit,
                          .answer = p->value,
                          .tolerance = p->tolerance,
                          .terms = p->terms,
                          .n_terms = p->n_terms,
                          .slips = p->slips,
                          .n_slips = p->n_slips};
}

static GroupSpan span_of(int domains, int per_domain)
{
    GroupSpan s = {domains * per_domain, domains, per_domain, 1, domains > 1};
    return s;
}

static const double predict_sizes[] = {16e6, 64e6, 256e6, 1e9, 4e9};

/* An all-reduce of S bytes inside one domain, or across domains (k per
 * domain) from level 2 on. */
static bool make_predict_collective(Rng *rng, Practice *p)
{
    SweepResult r = {0};
    bool ok = draw_job(rng, p->level, p, &r);
    sweep_result_free(&r);
    if (!ok)
        return false;
    const Cluster *c = &p->cluster;
    double S = predict_sizes[rng_below(rng, 5)];
    int per = c->domain_gpus < 8 ? c->domain_gpus : 8;
    int domains = 1;
    if (p->level >= 2 && cluster_domain_count(c) >= 2 && rng_below(rng, 2)) {
        domains = cluster_domain_count(c) < 8 ? cluster_domain_count(c) : 2 << rng_below(rng, 2);
        if (domains > cluster_domain_count(c))
            domains = cluster_domain_count(c);
    }
    if (per < 2 && domains < 2)
        return false;
    GroupSpan span = span_of(domains, per);
    CollCost cost = collective_cost(COLL_ALL_REDUCE, S, span, c);
    CollCost tiny = collective_cost(COLL_ALL_REDUCE, 1, span, c);
    p->unit = "s";
    p->value = cost.time_s;
    p->tolerance = 0.25;
    p->terms[0] = (PredictTerm){"latency", tiny.time_s};
    p->terms[1] =
        (PredictTerm){"bandwidth", cost.time_s > tiny.time_s ? cost.time_s - tiny.time_s : 0};
    p->n_terms = 2;
    char sz[32], t[32], lat[32], up[32], out[32];
    fmt_u(UNITS_BYTES, S, sz, sizeof sz);
    fmt_u(UNITS_TIME, cost.time_s, t, sizeof t);
    fmt_u(UNITS_TIME, tiny.time_s, lat, sizeof lat);
    fmt_u(UNITS_BANDWIDTH, c->up_bytes_per_s, up, sizeof up);
    fmt_u(UNITS_BANDWIDTH, c->out_bytes_per_s, out, sizeof out);
    snprintf(p->title, sizeof p->title, "Predict: an all-reduce on %s", c->name);
    if (domains == 1)
        snprintf(p->question, sizeof p->question,
                 "%d %s in one scale-up domain of a %s (%s, %s per %s each way) all-reduce "
                 "a %s buffer, as nccl-tests counts it. How long does it take?",
                 per, hw_noun(&c->gpu, HW_NOUN_MANY), c->name, c->up_link, up, hw_noun(&c->gpu, 0),
                 sz);
    else
        snprintf(p->question, sizeof p->question,
                 "%d %s, %d in each of %d scale-up domains of a %s (%s at %s each way inside, "
                 "%s each way per %s between domains) all-reduce a %s buffer. How long does "
                 "it take?",
                 per * domains, hw_noun(&c->gpu, HW_NOUN_MANY), per, domains, c->name, c->up_link,
                 up, out, hw_noun(&c->gpu, 0), sz);
    snprintf(p->answer, sizeof p->answer, "%s (within %.0f%%)", t, 100 * p->tolerance);
    double n = span.size;
    if (domains == 1)
        snprintf(p->worked, sizeof p->worked,
                 "t = latency + 2(n-1)/n x S / busbw: n = %.0f, S = %s; the ring moves %.2f x "
                 "S per %s over %s at the achievable share of %s. The fixed part is about %s, "
                 "so the total is %s: %s dominates.",
                 n, sz, 2 * (n - 1) / n, hw_noun(&c->gpu, 0), c->up_link, up, lat, t,
                 tiny.time_s > cost.time_s / 2 ? "latency" : "bandwidth");
    else {
        char so[32];
        fmt_u(UNITS_TIME, cost.tier_s[TIER_OUT], so, sizeof so);
        snprintf(p->worked, sizeof p->worked,
                 "Hierarchical: reduce-scatter inside each domain, all-reduce of S/%d = 1/%d "
                 "of the buffer across the %d domains on each %s's NIC at %s, all-gather "
                 "inside. The scale-out step takes %s of the %s total (fixed part about %s): "
                 "%s dominates.",
                 per, per, domains, hw_noun(&c->gpu, 0), out, so, t, lat,
                 cost.tier_s[TIER_OUT] > cost.time_s / 2 ? "the scale-out tier"
                                                         : "the scale-up tier");
    }
    return true;
}

/* A job of the level and one of its fitting entries (among the first
 * `first` when first > 0) that `want` accepts (NULL: any), evaluated in full
 * into *s; the exercise takes its mapping and micro-batch. */
static bool draw_entry(Rng *rng, Practice *p, int first, bool (*want)(const SweepEntry *),
                       StepResult *s)
{
    SweepResult r = {0};
    bool ok = draw_job(rng, p->level, p, &r);
    int cand[256], n = 0;
    for (int i = 0; ok && i < r.n_fit && n < 256 && (first <= 0 || i < first); i++)
        if (!want || want(&r.entries[i]))
            cand[n++] = i;
    const SweepEntry *e = n ? &r.entries[cand[rng_below(rng, n)]] : NULL;
    char err[200];
    ok = e && sweep_entry_eval(&p->cluster, &p->workload, e, NULL, s, err, sizeof err) == STEP_OK;
    if (ok) {
        p->start = e->m;
        p->workload.micro_batch = e->micro_batch;
    }
    sweep_result_free(&r);
    return ok;
}

static bool is_pipelined(const SweepEntry *e)
{
    return e->m.pp > 1;
}

/* Weights, gradients and optimizer state per GPU of the best mapping. */
static bool make_predict_memory(Rng *rng, Practice *p)
{
    StepResult s;
    if (!draw_entry(rng, p, 8, NULL, &s))
        return false;
    double stat = s.mem_weights + s.mem_grads + s.mem_optimizer;
    p->unit = "B";
    p->value = stat;
    p->terms[0] = (PredictTerm){"weights and gradients", s.mem_weights + s.mem_grads};
    p->terms[1] = (PredictTerm){"optimizer state", s.mem_optimizer};
    p->n_terms = 2;
    p->tolerance = 0.2;
    char m[64], w[32], g[32], o[32], tot[32], params[32];
    mapping_format(&p->start, m, sizeof m);
    snprintf(params, sizeof params, "%.3g billion", workload_params(&p->workload) / 1e9);
    snprintf(p->title, sizeof p->title, "Predict: memory per %s", hw_noun(&p->cluster.gpu, 0));
    describe_job(p, p->question, sizeof p->question);
    put(p->question, sizeof p->question,
        "\nThe model has %s parameters, trained in BF16 with Adam and ZeRO stage %d over DP, "
        "mapped as %s. How much memory does one %s of the last pipeline stage hold for "
        "weights, gradients and optimizer state (activations not counted)?",
        params, p->start.zero, m, hw_noun(&p->cluster.gpu, 0));
    snprintf(p->answer, sizeof p->answer, "%s (within %.0f%%)",
             fmt_u(UNITS_BYTES, stat, tot, sizeof tot), 100 * p->tolerance);
    double bpp = s.mem_weights > 0 ? 2.0 / s.mem_weights : 0; /* BF16 weights: 2 bytes each */
    snprintf(p->worked, sizeof p->worked,
             "Each %s holds its 1/(TP x PP) share of the parameters (the last stage also "
             "holds the output layer): weights in BF16 = %s (2 bytes per parameter held), "
             "gradients = %s (%.2g bytes per parameter), optimizer state (Adam's FP32 master "
             "copy and two moments, ZeRO stage %d) = %s (%.2g bytes per parameter). Total %s.",
             hw_noun(&p->cluster.gpu, 0), fmt_u(UNITS_BYTES, s.mem_weights, w, sizeof w),
             fmt_u(UNITS_BYTES, s.mem_grads, g, sizeof g), s.mem_grads * bpp, p->start.zero,
             fmt_u(UNITS_BYTES, s.mem_optimizer, o, sizeof o), s.mem_optimizer * bpp, tot);
    return true;
}

/* The pipeline bubble of a mapping with PP > 1. */
static bool make_predict_bubble(Rng *rng, Practice *p)
{
    StepResult s;
    if (!draw_entry(rng, p, 0, is_pipelined, &s))
        return false;
    p->unit = "s";
    p->value = s.part_s[STEP_BUBBLE];
    p->tolerance = 0.2;
    char st[32], bub[32], line[600];
    fmt_u(UNITS_TIME, s.mb_stage_s, st, sizeof st);
    fmt_u(UNITS_TIME, p->value, bub, sizeof bub);
    snprintf(p->title, sizeof p->title, "Predict: a pipeline bubble");
    snprintf(p->question, sizeof p->question,
             "A pipeline of %d stages (interleave %d) runs %d micro-batches per step. One "
             "micro-batch takes %s on a stage (compute and its TP, PP and EP traffic), and "
             "every stage holds the same number of layers. How long is the pipeline idle "
             "per step, filling and draining?",
             p->start.pp, p->start.interleave, s.micro_batches, st);
    snprintf(p->answer, sizeof p->answer, "%s (within %.0f%%)", bub, 100 * p->tolerance);
    step_explain(&p->cluster, &p->workload, &p->start, &s, STEP_BUBBLE, line, sizeof line);
    snprintf(p->worked, sizeof p->worked,
             "The first micro-batch needs p-1 stage times to reach the last stage and the "
             "last needs as many to drain: %s. As a share, (p-1)/(v*m).",
             line);
    return true;
}

static bool make_predict(Rng *rng, Practice *p)
{
    int pick = rng_below(rng, 3);
    for (int t = 0; t < 3; t++, pick = (pick + 1) % 3) {
        Rng copy = *rng;
        bool ok = pick == 0   ? make_predict_collective(&copy, p)
                  : pick == 1 ? make_predict_memory(&copy, p)
                              : make_predict_bubble(&copy, p);
        if (ok)
            return true;
    }
    return false;
}

bool practice_make(uint64_t seed, int kind, int level, Practice *p, char *err, size_t err_len)
{
    if (!p) {
        msg_set(err, err_len, "no exercise to fill");
        return false;
    }
    memset(p, 0, sizeof *p);
    Rng rng = {seed};
    if (level < PRACTICE_LEVEL_MIN)
        level = PRACTICE_LEVEL_MIN;
    if (level > PRACTICE_LEVEL_MAX)
        level = PRACTICE_LEVEL_MAX;
    if (kind < 0 || kind >= PRACTICE_KIND_COUNT)
        kind = (int)(seed % PRACTICE_KIND_COUNT); /* consecutive seeds take turns */
    p->seed = seed;
    p->kind = (PracticeKind)kind;
    p->level = level;
    SweepResult r = {0};
    bool ok = kind == PRACTICE_MAPPING      ? make_mapping(&rng, p, &r)
              : kind == PRACTICE_BOTTLENECK ? make_bottleneck(&rng, p, &r)
                                            : make_predict(&rng, p);
    sweep_result_free(&r);
    if (!ok)
        msg_set(err, err_len, "no %s exercise could be made from seed %llu at level %d",
                kind_names[kind], (unsigned long long)seed, level);
    return ok;
}

/* ---- a run ---- */

void practice_run_init(PracticeRun *run, uint64_t seed, int level)
{
    run->seed = seed;
    run->index = 0;
    run->level = level < PRACTICE_LEVEL_MIN   ? PRACTICE_LEVEL_MIN
                 : level > PRACTICE_LEVEL_MAX ? PRACTICE_LEVEL_MAX
                                              : level;
    run->streak = 0;
}

bool practice_run_next(PracticeRun *run, Practice *p, char *err, size_t err_len)
{
    Rng mix = {run->seed ^ (0x2545f4914f6cdd1dULL * (uint64_t)(run->index + 1))};
    uint64_t seed = rng_next(&mix);
    int kind = run->index % PRACTICE_KIND_COUNT;
    run->index++;
    return practice_make(seed, kind, run->level, p, err, err_len);
}

void practice_run_result(PracticeRun *run, bool first_try)
{
    if (first_try) {
        run->streak++;
        if (run->streak % PRACTICE_STREAK_UP == 0 && run->level < PRACTICE_LEVEL_MAX)
            run->level++;
    } else {
        run->streak = 0;
        if (run->level > PRACTICE_LEVEL_MIN)
            run->level--;
    }
}
