/* SPDX-License-Identifier: MIT */
/* practice — exercises made from a seed and graded by the model (see
 * practice.h). Everything an exercise shows comes from the presets and the
 * model: the search (sweep.h) for the best mapping, step_eval for the parts
 * of a step, collective_cost for one collective. Nothing here is typed in.
 *
 * Determinism: the only randomness is a splitmix64 stream of the seed and
 * the decks (a shuffle per block of positions, drawn from a key), the
 * presets are compiled in, and the model is pure, so one seed gives one
 * exercise everywhere. Pure: no I/O.
 */
#include "learn/practice.h"

#include "base/msg.h"
#include "base/xmem.h"
#include "model/collective.h"
#include "model/hw.h"
#include "model/span.h"
#include "model/sweep.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRACTICE_DEAL_TRIES 8     /* sizes tried for one dealt model and system */
#define PRACTICE_MAX_GPUS   65536 /* a model's cluster grows to fit up to this */

static const char *const kind_names[PRACTICE_KIND_COUNT] = {"mapping", "predict", "bottleneck",
                                                            "tier", "placement"};

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

/* The article before a noun phrase, by how it is read aloud, with its space:
 * "an " before a vowel sound ("an AMD Helios rack", "an HGX H200", "an 800
 * Gb/s NIC", "an 11 ..."), "a " before a consonant sound ("a DGX H100", "a
 * UALink domain", "a 400 Gb/s NIC"), and "" before a count of several ("8 x
 * H100 servers"), which takes none. Letters of an abbreviation (a capital
 * followed by a capital or a digit) are read by name. */
static const char *article(const char *s)
{
    if (!s || !*s)
        return "a ";
    if (isdigit((unsigned char)s[0])) {
        size_t n = strspn(s, "0123456789");
        if (strncmp(s + n, " x ", 3) == 0)
            return "";
        /* eight..., eighty..., eleven, eighteen (and their thousands) */
        bool eleven = n % 3 == 2 && (strncmp(s, "11", 2) == 0 || strncmp(s, "18", 2) == 0);
        return s[0] == '8' || eleven ? "an " : "a ";
    }
    if (isupper((unsigned char)s[0]) &&
        (isupper((unsigned char)s[1]) || isdigit((unsigned char)s[1])))
        return strchr("AEFHILMNORSX", s[0]) ? "an " : "a ";
    char c = (char)tolower((unsigned char)s[0]);
    if (c == 'u') /* "a unit", "a user"; "an update" */
        return strncmp(s + 1, "ni", 2) == 0 || strncmp(s + 1, "s", 1) == 0 ? "a " : "an ";
    return strchr("aeio", c) && strncmp(s, "one", 3) != 0 ? "an " : "a ";
}

/* ---- variety: endless decks of cards ---- */

#define DECK_MAX 64

/* The card at position pos of an endless deck of n cards (n <= DECK_MAX):
 * each block of n positions holds every card once, in an order drawn from
 * key and the block, so any 2n - 1 consecutive positions hold every card
 * and any n + k of them at least k + 1 different ones. */
static int deck_card(uint64_t key, uint64_t pos, int n)
{
    if (n <= 1)
        return 0;
    int order[DECK_MAX];
    for (int i = 0; i < n; i++)
        order[i] = i;
    Rng r = {key ^ (0xd1b54a32d192ed03ULL * (pos / (uint64_t)n + 1))};
    for (int i = n - 1; i > 0; i--) {
        int j = rng_below(&r, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    return order[pos % (uint64_t)n];
}

/* What the decks deal one exercise: a model, a system and the kind of
 * predict question (all indexes into their tables). */
typedef struct {
    int model, system, sub;
} Deal;

enum { PREDICT_COLLECTIVE, PREDICT_MEMORY, PREDICT_BUBBLE, PREDICT_SUB_COUNT };

static Deal deal_at(uint64_t key, uint64_t pos, uint64_t sub_pos)
{
    Deal d = {deck_card(key ^ 0x6d6f64656c5f5f5fULL, pos, workload_preset_count()),
              deck_card(key ^ 0x73797374656d5f5fULL, pos, hw_system_count()),
              deck_card(key ^ 0x7072656469637421ULL, sub_pos, PREDICT_SUB_COUNT)};
    return d;
}

/* ---- drawing a cluster and a workload for a level ---- */

/* Cluster sizes before rounding to whole scale-up domains. */
static const int level_gpus[PRACTICE_LEVEL_MAX][4] = {
    {8, 16, 16, 32},          {32, 64, 128, 256},          {256, 512, 1024, 1024},
    {1024, 2048, 4096, 4096}, {8192, 16384, 16384, 32768},
};

/* n GPUs of system s, rounded up to whole domains. */
static bool cluster_of(const SystemSpec *s, int n, Cluster *c)
{
    if (s->domain_gpus > 0 && n >= s->domain_gpus)
        n = (n + s->domain_gpus - 1) / s->domain_gpus * s->domain_gpus;
    char err[160];
    return cluster_from_system(c, s->id, n, err, sizeof err);
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

/* The dealt job at a size of the level: the dealt system and model, the
 * cluster doubled (whole domains) until the search finds a mapping that
 * fits, up to PRACTICE_MAX_GPUS. False when the model fits no cluster of
 * that system. */
static bool draw_job(Rng *rng, int level, const Deal *d, Practice *p, SweepResult *r)
{
    const SystemSpec *s = hw_system_at(d->system);
    p->workload = workload_preset_at(d->model)->w;
    Workload base = p->workload;
    for (int n = level_gpus[level - 1][rng_below(rng, 4)]; n <= PRACTICE_MAX_GPUS; n *= 2) {
        if (!cluster_of(s, n, &p->cluster))
            return false;
        p->workload = base;
        fit_batch(&p->workload, &p->cluster);
        sweep_result_free(r);
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

static bool make_mapping(Rng *rng, const Deal *d, Practice *p, SweepResult *r)
{
    for (int t = 0; t < PRACTICE_DEAL_TRIES; t++) {
        if (!draw_job(rng, p->level, d, p, r))
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
        p->task_at = strlen(p->question);
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

static bool make_bottleneck(Rng *rng, const Deal *d, Practice *p, SweepResult *r)
{
    for (int t = 0; t < PRACTICE_DEAL_TRIES; t++) {
        if (!draw_job(rng, p->level, d, p, r))
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

/* One TP all-reduce of the dealt model: a sequence of activations (seq x
 * hidden BF16 values), among the GPUs of one domain, or (from level 2 on)
 * a group that straddles several domains, the misconfiguration the lessons
 * warn about. Inside a domain the page gives NVLink both ways, as vendors
 * print it; across, the NIC in bits, as it is sold: the slips in play. */
static bool make_predict_collective(Rng *rng, const Deal *d, Practice *p)
{
    SweepResult r = {0};
    bool ok = draw_job(rng, p->level, d, p, &r);
    sweep_result_free(&r);
    if (!ok)
        return false;
    const Cluster *c = &p->cluster;
    const Workload *w = &p->workload;
    double S = (double)w->seq * w->hidden * 2;
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
    p->slips[0] = (PredictSlip){domains == 1 ? PREDICT_SLIP_DIRECTIONS : PREDICT_SLIP_BITS, 0};
    p->n_slips = 1;
    const WorkloadPreset *wp = workload_preset_find(w->id);
    char sz[32], t[32], lat[32], up2[32], out[32];
    fmt_u(UNITS_BYTES, S, sz, sizeof sz);
    fmt_u(UNITS_TIME, cost.time_s, t, sizeof t);
    fmt_u(UNITS_TIME, tiny.time_s, lat, sizeof lat);
    fmt_u(UNITS_BANDWIDTH, 2 * c->up_bytes_per_s, up2, sizeof up2);
    units_format_bits(c->out_bytes_per_s, out, sizeof out);
    const char *gpus = hw_noun(&c->gpu, HW_NOUN_MANY), *gpu = hw_noun(&c->gpu, 0);
    snprintf(p->title, sizeof p->title, "Predict: %.30s's all-reduce on %.36s",
             wp ? wp->name : w->id, c->name);
    if (domains == 1)
        snprintf(p->question, sizeof p->question,
                 "%s runs TP %d inside one scale-up domain of %s%s (%s: %s per %s, both "
                 "directions added). One TP all-reduce sums a sequence of activations: %d x %d "
                 "BF16 values = %s, as nccl-tests counts it. How long does it take?",
                 wp ? wp->name : w->id, per, article(c->name), c->name, c->up_link, up2, gpu,
                 w->seq, w->hidden, sz);
    else
        snprintf(p->question, sizeof p->question,
                 "%s runs TP %d on %s%s, and each TP group straddles %d scale-up domains, %d %s "
                 "in each (%s: %s per %s both ways inside; %s%s NIC per %s between "
                 "domains). One TP all-reduce sums a sequence of activations: %d x %d BF16 "
                 "values = %s. How long does it take?",
                 wp ? wp->name : w->id, per * domains, article(c->name), c->name, domains, per,
                 gpus, c->up_link, up2, gpu, article(out), out, gpu, w->seq, w->hidden, sz);
    snprintf(p->answer, sizeof p->answer, "%s (within %.0f%%)", t, 100 * p->tolerance);
    double n = span.size;
    if (domains == 1)
        snprintf(p->worked, sizeof p->worked,
                 "t = latency + 2(n-1)/n x S / busbw: n = %.0f, S = %s; the ring moves %.2f x "
                 "S per %s over %s at the achievable share of its one-way rate (half of %s). "
                 "The fixed part is about %s, so the total is %s: %s dominates.",
                 n, sz, 2 * (n - 1) / n, gpu, c->up_link, up2, lat, t,
                 tiny.time_s > cost.time_s / 2 ? "latency" : "bandwidth");
    else {
        char so[32], ob[32];
        fmt_u(UNITS_TIME, cost.tier_s[TIER_OUT], so, sizeof so);
        fmt_u(UNITS_BANDWIDTH, c->out_bytes_per_s, ob, sizeof ob);
        snprintf(p->worked, sizeof p->worked,
                 "Hierarchical: reduce-scatter inside each domain, all-reduce of S/%d = 1/%d "
                 "of the buffer across the %d domains on each %s's NIC at %s = %s, "
                 "all-gather inside. The scale-out step takes %s of the %s total (fixed part "
                 "about %s): %s dominates.",
                 per, per, domains, gpu, out, ob, so, t, lat,
                 cost.tier_s[TIER_OUT] > cost.time_s / 2 ? "the scale-out tier"
                                                         : "the scale-up tier");
    }
    return true;
}

/* A job of the level and one of its fitting entries (among the first
 * `first` when first > 0) that `want` accepts (NULL: any), evaluated in full
 * into *s; the exercise takes its mapping and micro-batch. */
static bool draw_entry(Rng *rng, const Deal *d, Practice *p, int first,
                       bool (*want)(const SweepEntry *, const Workload *), StepResult *s)
{
    SweepResult r = {0};
    bool ok = draw_job(rng, p->level, d, p, &r);
    int cand[256], n = 0;
    for (int i = 0; ok && i < r.n_fit && n < 256 && (first <= 0 || i < first); i++)
        if (!want || want(&r.entries[i], &p->workload))
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

static bool is_pipelined(const SweepEntry *e, const Workload *w)
{
    (void)w;
    return e->m.pp > 1;
}

/* Weights, gradients and optimizer state per GPU of the best mapping. */
static bool make_predict_memory(Rng *rng, const Deal *d, Practice *p)
{
    StepResult s;
    if (!draw_entry(rng, d, p, 8, NULL, &s))
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
static bool make_predict_bubble(Rng *rng, const Deal *d, Practice *p)
{
    StepResult s;
    if (!draw_entry(rng, d, p, 0, is_pipelined, &s))
        return false;
    p->unit = "s";
    p->value = s.part_s[STEP_BUBBLE];
    p->tolerance = 0.2;
    /* The idle stage times split as the stage time does: its compute, and
     * its TP, PP and EP traffic. */
    double compute = s.mb_fill_s > 0
                         ? p->value * (s.mb_fill_s - (s.mb_stage_s - s.mb_compute_s)) / s.mb_fill_s
                         : 0;
    p->terms[0] = (PredictTerm){"the stages' compute", compute};
    p->terms[1] = (PredictTerm){"their TP, PP and EP traffic", p->value - compute};
    p->n_terms = 2;
    const WorkloadPreset *wp = workload_preset_find(p->workload.id);
    char st[32], bub[32], line[600];
    fmt_u(UNITS_TIME, s.mb_fill_s, st, sizeof st);
    fmt_u(UNITS_TIME, p->value, bub, sizeof bub);
    snprintf(p->title, sizeof p->title, "Predict: a pipeline bubble on %.60s", p->cluster.name);
    int L = p->workload.layers, pp = p->start.pp;
    char even[96];
    if (L % pp == 0)
        snprintf(even, sizeof even, "every stage holding %d layers", L / pp);
    else
        snprintf(even, sizeof even, "the stages holding %d or %d layers", L / pp, L / pp + 1);
    snprintf(p->question, sizeof p->question,
             "%s's %d layers run as a pipeline of %d stages (interleave %d), %s, %d "
             "micro-batches per step. One micro-batch takes %s on %s stage (compute and "
             "its TP, PP and EP traffic; the last stage adds the output layer). How long is "
             "the pipeline idle per step, filling and draining?",
             wp ? wp->name : p->workload.id, L, pp, p->start.interleave, even, s.micro_batches, st,
             L % pp == 0 ? "each" : "the slowest");
    snprintf(p->answer, sizeof p->answer, "%s (within %.0f%%)", bub, 100 * p->tolerance);
    step_explain(&p->cluster, &p->workload, &p->start, &s, STEP_BUBBLE, line, sizeof line);
    snprintf(p->worked, sizeof p->worked,
             "The first micro-batch needs p-1 stage times to reach the last stage and the "
             "last needs as many to drain, through stages that have no output layer: %s. As a "
             "share, (p-1)/(v*m).",
             line);
    return true;
}

/* The dealt kind of question first, then the others. */
static bool make_predict(Rng *rng, const Deal *d, Practice *p)
{
    int pick = d->sub;
    for (int t = 0; t < PREDICT_SUB_COUNT; t++, pick = (pick + 1) % PREDICT_SUB_COUNT) {
        Rng copy = *rng;
        bool ok = pick == PREDICT_COLLECTIVE ? make_predict_collective(&copy, d, p)
                  : pick == PREDICT_MEMORY   ? make_predict_memory(&copy, d, p)
                                             : make_predict_bubble(&copy, d, p);
        if (ok)
            return true;
    }
    return false;
}

/* ---- groups under a placement: tiers and placements ---- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

Placement *practice_start_placement(const Practice *p)
{
    if (p->n_swaps <= 0)
        return NULL;
    Placement *pl = placement_new(p->cluster.n_gpus);
    for (int i = 0; i < p->n_swaps; i++)
        placement_swap_gpus(pl, p->swaps[i][0], p->swaps[i][1]);
    return pl;
}

/* The GPUs of the group of dimension dim that holds GPU gpu under pl (NULL:
 * ranks in order), sorted, into out (n_gpus ints); returns how many. */
static int group_gpus(const Mapping *m, const Placement *pl, int n_gpus, MappingDim dim, int gpu,
                      int *out)
{
    int rank = pl ? placement_rank_on(pl, gpu) : gpu;
    int g = mapping_group_of(m, rank, dim), n = 0;
    for (int r = 0; r < n_gpus; r++)
        if (mapping_group_of(m, r, dim) == g)
            out[n++] = pl ? placement_gpu_of(pl, r) : r;
    qsort(out, (size_t)n, sizeof *out, cmp_int);
    return n;
}

static PracticeTier tier_of(GroupSpan s)
{
    return s.domains <= 1   ? PRACTICE_TIER_UP
           : s.sites > 1    ? PRACTICE_TIER_SITE
           : s.crosses_leaf ? PRACTICE_TIER_SPINE
                            : PRACTICE_TIER_LEAF;
}

/* "GPUs 3, 11, 19 and 27"; "GPUs 736-751" (runs of three or more as a
 * range); "the 64 GPUs from 5 to 509, every 8th"; or the first and last
 * few of a longer irregular group. */
static void describe_gpus(const Cluster *c, const int *g, int n, char *buf, size_t len)
{
    const char *nouns = hw_noun(&c->gpu, HW_NOUN_MANY);
    int pieces = 0;
    for (int i = 0; i < n; pieces++) {
        int j = i;
        while (j + 1 < n && g[j + 1] == g[j] + 1)
            j++;
        i = j - i >= 2 ? j + 1 : i + 1;
    }
    if (pieces <= 12) {
        put(buf, len, "%s ", nouns);
        for (int i = 0, k = 0; i < n; k++) {
            int j = i;
            while (j + 1 < n && g[j + 1] == g[j] + 1)
                j++;
            const char *sep = k == 0 ? "" : k == pieces - 1 ? " and " : ", ";
            if (j - i >= 2) {
                put(buf, len, "%s%d-%d", sep, g[i], g[j]);
                i = j + 1;
            } else {
                put(buf, len, "%s%d", sep, g[i]);
                i++;
            }
        }
        return;
    }
    bool step = true;
    for (int i = 2; i < n && step; i++)
        step = g[i] - g[i - 1] == g[1] - g[0];
    if (step) {
        put(buf, len, "the %d %s from %d to %d, every %dth", n, nouns, g[0], g[n - 1],
            g[1] - g[0]);
        return;
    }
    put(buf, len, "%d %s: %d, %d, %d, %d, ..., %d, %d", n, nouns, g[0], g[1], g[2], g[3], g[n - 2],
        g[n - 1]);
}

/* "- Cluster: ..." for the tier questions: the machine by where its
 * domains, leaves and sites begin and end. */
static void describe_fabric(const Cluster *c, char *buf, size_t len)
{
    const char *nouns = hw_noun(&c->gpu, HW_NOUN_MANY);
    put(buf, len, "- Cluster: %d %s of %s; domain k holds %s %dk to %dk+%d; ", c->n_gpus, nouns,
        c->name, nouns, c->domain_gpus, c->domain_gpus, c->domain_gpus - 1);
    long long unit = cluster_rail_unit_gpus(c);
    if (unit > 0)
        put(buf, len,
            "leaves wired by rail: each unit of %lld domains has %d leaves, %s i of every "
            "domain of the unit on the unit's leaf i",
            unit / c->domain_gpus, c->domain_gpus, hw_noun(&c->gpu, 0));
    else
        put(buf, len, "leaf switch k takes %s %dk to %dk+%d", nouns, c->gpus_per_leaf,
            c->gpus_per_leaf, c->gpus_per_leaf - 1);
    if (c->sites > 1)
        put(buf, len, "; %d sites of %lld %s, joined by a site link", c->sites,
            cluster_site_gpus(c), nouns);
    put(buf, len, ".\n");
}

static const char *const tier_names[PRACTICE_TIER_COUNT] = {"scale-up domain", "leaf switches",
                                                            "spine", "site link"};

const char *practice_tier_name(PracticeTier t)
{
    return (int)t >= 0 && t < PRACTICE_TIER_COUNT ? tier_names[t] : "?";
}

/* What the traffic of a group of dimension d is, in words. */
static const char *dim_traffic(MappingDim d)
{
    static const char *const w[DIM_COUNT] = {[DIM_TP] = "TP all-reduces",
                                             [DIM_CP] = "CP all-gathers",
                                             [DIM_EP] = "EP all-to-alls",
                                             [DIM_PP] = "pipeline sends",
                                             [DIM_DP] = "gradient reduction"};
    return w[d];
}

/* Domains, leaves and sites the GPUs g[0..n) touch. */
static void count_tiers(const Cluster *c, const int *g, int n, int *domains, int *leaves,
                        int *sites)
{
    *domains = *leaves = *sites = 0;
    int seen_d = -1, seen_s = -1;
    int lv[64], nl = 0;
    for (int i = 0; i < n; i++) {
        int d = cluster_domain_of(c, g[i]), st = cluster_site_of(c, g[i]);
        int lf = cluster_leaf_of(c, g[i]);
        if (d != seen_d) /* g is sorted: domains and sites come in runs */
            (*domains)++, seen_d = d;
        if (st != seen_s)
            (*sites)++, seen_s = st;
        bool known = false;
        for (int k = 0; k < nl && !known; k++)
            known = lv[k] == lf;
        if (!known && nl < 64)
            lv[nl++] = lf;
    }
    *leaves = nl;
}

static void tier_worked(const Practice *p, const int *g, int n, char *buf, size_t len)
{
    const Cluster *c = &p->cluster;
    int dom, lea, sit;
    count_tiers(c, g, n, &dom, &lea, &sit);
    const char *gpu = hw_noun(&c->gpu, 0);
    buf[0] = '\0';
    put(buf, len, "Its %d %s sit in %d domain%s", n, hw_noun(&c->gpu, HW_NOUN_MANY), dom,
        dom == 1 ? "" : "s");
    if (dom <= 1) {
        put(buf, len, ", so all its %s stay on %s: the scale-up domain.", dim_traffic(p->dim),
            c->up_link);
        return;
    }
    put(buf, len, " (%s %d in domain %d, %s %d in domain %d)", gpu, g[0],
        cluster_domain_of(c, g[0]), gpu, g[n - 1], cluster_domain_of(c, g[n - 1]));
    if (p->tier == PRACTICE_TIER_SITE) {
        put(buf, len, " and %d sites: the site link carries part of its %s.", sit,
            dim_traffic(p->dim));
        return;
    }
    if (cluster_rail_unit_gpus(c) > 0)
        put(buf, len,
            p->tier == PRACTICE_TIER_LEAF
                ? "; on rails, every domain holds it at the same positions within one unit, so "
                  "its rails' leaves carry it and the spine is not needed."
                : "; on rails, it mixes positions or leaves its unit, so its traffic climbs to "
                  "the spine.");
    else
        put(buf, len,
            p->tier == PRACTICE_TIER_LEAF ? " under one leaf switch: the spine is not needed."
                                          : " under %d leaf switches: its traffic climbs to the "
                                            "spine.",
            lea);
}

/* Groups worth asking about: every dimension with groups of 2 or more,
 * through a few GPUs each (those the scheduler moved first). */
typedef struct {
    MappingDim dim;
    int gpu;
    PracticeTier tier;
} TierCand;

static int tier_candidates(Rng *rng, const Practice *p, const Placement *pl, TierCand *out,
                           int max)
{
    static const MappingDim dims[] = {DIM_TP, DIM_PP, DIM_DP, DIM_EP};
    int n = 0;
    for (size_t k = 0; k < sizeof dims / sizeof dims[0]; k++) {
        MappingDim d = dims[k];
        if (mapping_dim_size(&p->start, d) < 2)
            continue;
        for (int t = 0; t < 6 && n < max; t++) {
            int gpu =
                t < 2 * p->n_swaps ? p->swaps[t / 2][t % 2] : rng_below(rng, p->cluster.n_gpus);
            int rank = pl ? placement_rank_on(pl, gpu) : gpu;
            GroupSpan sp = span_of_group(&p->start, &p->cluster, pl, d, rank);
            out[n++] = (TierCand){d, gpu, tier_of(sp)};
        }
    }
    return n;
}

/* A few GPU swaps between domains (a scheduler that scattered the job). */
static void scatter(Rng *rng, Practice *p, int k)
{
    const Cluster *c = &p->cluster;
    int domains = cluster_domain_count(c);
    p->n_swaps = 0;
    for (int i = 0; i < k && domains >= 2 && i < PRACTICE_MAX_SWAPS; i++) {
        int a = rng_below(rng, c->n_gpus);
        int da = cluster_domain_of(c, a), db = (da + 1 + rng_below(rng, domains - 1)) % domains;
        int first = db * c->domain_gpus, size = c->n_gpus - first;
        if (size > c->domain_gpus)
            size = c->domain_gpus;
        p->swaps[i][0] = a;
        p->swaps[i][1] = first + rng_below(rng, size);
        p->n_swaps++;
    }
}

static bool make_tier(Rng *rng, const Deal *d, Practice *p)
{
    SweepResult r = {0};
    bool ok = draw_job(rng, p->level, d, p, &r);
    if (ok) {
        int first = r.n_fit < 16 ? r.n_fit : 16;
        const SweepEntry *e = &r.entries[rng_below(rng, first)];
        p->start = e->m;
        p->workload.micro_batch = e->micro_batch;
    }
    sweep_result_free(&r);
    if (!ok)
        return false;
    Cluster *c = &p->cluster;
    if (p->level >= 4 && cluster_domain_count(c) >= 2 && rng_below(rng, 2)) {
        c->sites = 2;
        c->across_bytes_per_s = 100e12 / 8; /* a 100 Tb/s site link: a premise */
        char err[160];
        if (!cluster_check(c, err, sizeof err))
            c->sites = 1;
    }
    if (p->level >= 3)
        scatter(rng, p, 1 + rng_below(rng, 2));
    Placement *pl = practice_start_placement(p);
    TierCand cand[24];
    int n = tier_candidates(rng, p, pl, cand, 24);
    bool have[PRACTICE_TIER_COUNT] = {false};
    int kinds = 0;
    for (int i = 0; i < n; i++)
        if (!have[cand[i].tier])
            have[cand[i].tier] = true, kinds++;
    if (kinds == 0) {
        placement_free(pl);
        return false;
    }
    /* Each tier the job offers is as likely an answer as any other. */
    int want = rng_below(rng, kinds);
    PracticeTier tier = PRACTICE_TIER_UP;
    for (int t = 0; t < PRACTICE_TIER_COUNT; t++)
        if (have[t] && want-- == 0)
            tier = (PracticeTier)t;
    int pick[24], np = 0;
    for (int i = 0; i < n; i++)
        if (cand[i].tier == tier)
            pick[np++] = i;
    const TierCand *q = &cand[pick[rng_below(rng, np)]];
    p->dim = q->dim;
    p->gpu = q->gpu;
    p->tier = q->tier;

    int *g = xmem_alloc((size_t)c->n_gpus * sizeof *g);
    int gn = group_gpus(&p->start, pl, c->n_gpus, p->dim, p->gpu, g);
    char m[64], who[400] = "";
    mapping_format(&p->start, m, sizeof m);
    describe_gpus(c, g, gn, who, sizeof who);
    const char *gpu = hw_noun(&c->gpu, 0);
    const char *a = article(mapping_dim_name(p->dim));
    snprintf(p->title, sizeof p->title, "Which tier? %c%s%s group on %d %s of %.40s",
             toupper((unsigned char)a[0]), a + 1, mapping_dim_name(p->dim), c->n_gpus,
             hw_noun(&c->gpu, HW_NOUN_MANY), c->name);
    describe_fabric(c, p->question, sizeof p->question);
    const WorkloadPreset *wp = workload_preset_find(p->workload.id);
    put(p->question, sizeof p->question,
        "- Job: %s as %s, ranks in order (TP innermost, %sthen PP, then DP)",
        wp ? wp->name : p->workload.id, m,
        mapping_dp_inner(&p->start) > 1 ? "then the DP ranks that complete an EP group, " : "");
    for (int i = 0; i < p->n_swaps; i++) {
        if (i == 0)
            put(p->question, sizeof p->question, "; then the scheduler swapped %s",
                hw_noun(&c->gpu, HW_NOUN_MANY));
        put(p->question, sizeof p->question, "%s %d and %d", i ? ", and" : "", p->swaps[i][0],
            p->swaps[i][1]);
    }
    put(p->question, sizeof p->question, ".\n- The %s group of %s %d: %s.\n",
        mapping_dim_name(p->dim), gpu, p->gpu, who);
    put(p->question, sizeof p->question, "\nWhich is the slowest tier its %s cross?",
        dim_traffic(p->dim));
    snprintf(p->answer, sizeof p->answer, "the %s", practice_tier_name(p->tier));
    tier_worked(p, g, gn, p->worked, sizeof p->worked);
    free(g);
    placement_free(pl);
    return true;
}

bool practice_grade_tier(const Practice *p, PracticeTier t, char *msg, size_t msg_len)
{
    if (t == p->tier) {
        msg_set(msg, msg_len, "Right: its %s cross the %s.", dim_traffic(p->dim),
                practice_tier_name(t));
        return true;
    }
    /* Why the choice is wrong, as the question to ask of the group. */
    static const char *const hint[PRACTICE_TIER_COUNT] = {
        "Are all its members in one domain? Read off each one's domain",
        ("Do its members in other domains share one leaf (or, on rails, their positions in one "
         "unit)?"),
        "Do its members reach more than one leaf, or mix rail positions?",
        "Are its members in more than one site?",
    };
    msg_set(msg, msg_len, "Not the %s: its traffic goes %s. %s", practice_tier_name(t),
            t < p->tier ? "further" : "less far", hint[t]);
    return false;
}

/* GPUs of a domain-size override for placement exercises: a domain larger
 * than a rack becomes a 64-chip partition (a TPU cube, a Trn2 UltraServer). */
#define PLACE_MAX_DOMAIN 72

/* The number of groups of dimension d that span two or more domains. */
static int straddling_groups(const Mapping *m, const Cluster *c, const Placement *pl, MappingDim d)
{
    int n = c->n_gpus, size = mapping_dim_size(m, d);
    int groups = size > 0 ? n / size : 0, count = 0;
    int *dom = xmem_alloc((size_t)(groups > 0 ? groups : 1) * sizeof *dom);
    bool *bad = xmem_alloc((size_t)(groups > 0 ? groups : 1) * sizeof *bad);
    for (int i = 0; i < groups; i++)
        dom[i] = -1, bad[i] = false;
    for (int r = 0; r < n; r++) {
        int g = mapping_group_of(m, r, d);
        if (g < 0 || g >= groups)
            continue;
        int dd = cluster_domain_of(c, pl ? placement_gpu_of(pl, r) : r);
        if (dom[g] < 0)
            dom[g] = dd;
        else if (dom[g] != dd && !bad[g])
            bad[g] = true, count++;
    }
    free(dom);
    free(bad);
    return count;
}

bool practice_grade_placement(const Practice *p, const Mapping *m, const Placement *pl, char *msg,
                              size_t msg_len)
{
    int n = straddling_groups(m, &p->cluster, pl, p->dim);
    const char *dim = mapping_dim_name(p->dim);
    if (n == 0) {
        msg_set(msg, msg_len, "Right: every %s group sits whole in one domain.", dim);
        return true;
    }
    msg_set(msg, msg_len, "Not yet: %d %s group%s still span%s two domains.", n, dim,
            n == 1 ? "" : "s", n == 1 ? "s" : "");
    return false;
}

/* A small cluster of the dealt system (2 to 4 domains, more if the model
 * needs them to fit) and a mapping whose groups of p->dim sit whole in the
 * domains when ranks are in order. */
static bool placement_job(Rng *rng, const Deal *d, Practice *p)
{
    const SystemSpec *s = hw_system_at(d->system);
    int dom = s->domain_gpus > PLACE_MAX_DOMAIN ? 64 : s->domain_gpus;
    p->workload = workload_preset_at(d->model)->w;
    Workload base = p->workload;
    for (int k = 2 + rng_below(rng, 3); k <= 64 && (long long)k * dom <= 4608; k *= 2) {
        char err[160];
        if (!cluster_from_system(&p->cluster, s->id, k * dom, err, sizeof err))
            return false;
        p->cluster.domain_gpus = dom;
        if (!cluster_check(&p->cluster, err, sizeof err))
            return false;
        p->workload = base;
        fit_batch(&p->workload, &p->cluster);
        SweepResult r = {0};
        bool ok = search(&p->cluster, &p->workload, &r);
        int cand[64], n = 0;
        for (int i = 0; ok && i < r.n_fit && n < 64; i++) {
            const Mapping *m = &r.entries[i].m;
            bool ep = m->ep >= 2 && dom % m->ep == 0;
            if ((m->tp >= 2 && dom % m->tp == 0) || ep)
                cand[n++] = i;
        }
        if (n > 0) {
            const SweepEntry *e = &r.entries[cand[rng_below(rng, n)]];
            p->start = e->m;
            p->workload.micro_batch = e->micro_batch;
        }
        sweep_result_free(&r);
        if (n > 0)
            return true;
    }
    return false;
}

static bool make_placement(Rng *rng, const Deal *d, Practice *p)
{
    if (!placement_job(rng, d, p))
        return false;
    const Cluster *c = &p->cluster;
    bool ep = p->start.ep >= 2 && c->domain_gpus % p->start.ep == 0 &&
              span_worst(&p->start, c, NULL, DIM_EP).domains == 1;
    bool tp = p->start.tp >= 2 && c->domain_gpus % p->start.tp == 0;
    p->dim = ep && (!tp || rng_below(rng, 2)) ? DIM_EP : DIM_TP;
    int size = mapping_dim_size(&p->start, p->dim);
    /* k GPUs of one group swapped with k GPUs of another domain. */
    int k = p->level >= 3 && size >= 4 ? 2 : 1;
    int a = rng_below(rng, c->n_gpus);
    int *g = xmem_alloc((size_t)c->n_gpus * sizeof *g);
    int gn = group_gpus(&p->start, NULL, c->n_gpus, p->dim, a, g);
    int da = cluster_domain_of(c, g[0]), domains = cluster_domain_count(c);
    int db = (da + 1 + rng_below(rng, domains - 1)) % domains;
    int off = rng_below(rng, c->domain_gpus - k + 1);
    p->n_swaps = 0;
    for (int i = 0; i < k && i < gn; i++) {
        p->swaps[i][0] = g[(gn - k) + i];
        p->swaps[i][1] = db * c->domain_gpus + off + i;
        p->n_swaps++;
    }
    free(g);
    Placement *pl = practice_start_placement(p);
    int bad = straddling_groups(&p->start, c, pl, p->dim);
    StepResult now, whole;
    char err[200];
    bool ok =
        bad > 0 &&
        step_eval(c, &p->workload, &p->start, pl, NULL, &now, err, sizeof err) == STEP_OK &&
        step_eval(c, &p->workload, &p->start, NULL, NULL, &whole, err, sizeof err) == STEP_OK;
    placement_free(pl);
    if (!ok)
        return false;
    p->par = p->n_swaps;
    p->best = p->start;
    p->best_micro_batch = p->workload.micro_batch;
    p->best_step_s = whole.step_s;
    const char *dim = mapping_dim_name(p->dim), *gpus = hw_noun(&c->gpu, HW_NOUN_MANY);
    char m[64], t0[32], t1[32];
    mapping_format(&p->start, m, sizeof m);
    snprintf(p->title, sizeof p->title, "Fix the placement: %d %s of %s", c->n_gpus, gpus,
             c->name);
    describe_job(p, p->question, sizeof p->question);
    put(p->question, sizeof p->question,
        "- Mapping: %s, micro-batch %d, ranks in order; but the scheduler swapped %d pair%s of "
        "%s between domains, and now %d %s group%s straddle%s two domains. Step: %s.\n",
        m, p->workload.micro_batch, p->n_swaps, p->n_swaps == 1 ? "" : "s", gpus, bad, dim,
        bad == 1 ? "" : "s", bad == 1 ? "s" : "", fmt_u(UNITS_TIME, now.step_s, t0, sizeof t0));
    p->task_at = strlen(p->question);
    put(p->question, sizeof p->question,
        "\nMove %s (Space picks one, Enter swaps it with the one under the cursor; g picks "
        "its group) until no %s group spans two domains. Par: %d move%s.",
        gpus, dim, p->par, p->par == 1 ? "" : "s");
    p->answer[0] = '\0';
    for (int i = p->n_swaps - 1; i >= 0; i--)
        put(p->answer, sizeof p->answer, "%sswap %d %d", i == p->n_swaps - 1 ? "" : ", ",
            p->swaps[i][0], p->swaps[i][1]);
    fmt_u(UNITS_TIME, whole.step_s, t1, sizeof t1);
    snprintf(p->worked, sizeof p->worked,
             "Swapping the moved %s back puts every %s group whole in one domain, so its %s "
             "stay on %s: the step goes from %s to %s.",
             gpus, dim, dim_traffic(p->dim), c->up_link, t0, t1);
    return true;
}

/* ---- choices: bottleneck and tier ---- */

int practice_choices(const Practice *p, const char *labels[PRACTICE_MAX_CHOICES])
{
    if (p->kind == PRACTICE_TIER) {
        for (int t = 0; t < PRACTICE_TIER_COUNT; t++)
            labels[t] = tier_names[t];
        return PRACTICE_TIER_COUNT;
    }
    if (p->kind != PRACTICE_BOTTLENECK)
        return 0;
    StepPart parts[STEP_PART_COUNT];
    int n = practice_part_choices(p, parts);
    for (int i = 0; i < n && i < PRACTICE_MAX_CHOICES; i++)
        labels[i] = step_part_name(parts[i]);
    return n < PRACTICE_MAX_CHOICES ? n : PRACTICE_MAX_CHOICES;
}

bool practice_grade_choice(const Practice *p, int i, char *msg, size_t msg_len)
{
    if (p->kind == PRACTICE_TIER)
        return i >= 0 && i < PRACTICE_TIER_COUNT &&
               practice_grade_tier(p, (PracticeTier)i, msg, msg_len);
    StepPart parts[STEP_PART_COUNT];
    int n = practice_part_choices(p, parts);
    return i >= 0 && i < n && practice_grade_part(p, parts[i], msg, msg_len);
}

/* ---- on paper ---- */

void practice_paper_question(const Practice *p, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    size_t at = p->task_at < sizeof p->question ? p->task_at : 0;
    if (at == 0 || (p->kind != PRACTICE_MAPPING && p->kind != PRACTICE_PLACEMENT)) {
        snprintf(buf, len, "%s", p->question);
        return;
    }
    snprintf(buf, len, "%.*s", (int)at, p->question);
    if (p->kind == PRACTICE_MAPPING)
        put(buf, len,
            "\nWhich TP, PP, %smicro-batch (DP follows) make the job fit with a step within "
            "%.0f%% of the best mapping the search finds? Par: %d moves, each doubling or "
            "halving one of them.",
            workload_is_moe(&p->workload) ? "EP and " : "and ", 100 * PRACTICE_MAPPING_SLACK,
            p->par);
    else
        put(buf, len,
            "\nWhich swaps of two %s put every %s group whole in one domain again? Par: %d "
            "swap%s.",
            hw_noun(&p->cluster.gpu, HW_NOUN_MANY), mapping_dim_name(p->dim), p->par,
            p->par == 1 ? "" : "s");
}

/* ---- making one exercise ---- */

static bool make_kind(Rng *rng, int kind, const Deal *d, Practice *p)
{
    SweepResult r = {0};
    bool ok = kind == PRACTICE_MAPPING      ? make_mapping(rng, d, p, &r)
              : kind == PRACTICE_BOTTLENECK ? make_bottleneck(rng, d, p, &r)
              : kind == PRACTICE_TIER       ? make_tier(rng, d, p)
              : kind == PRACTICE_PLACEMENT  ? make_placement(rng, d, p)
                                            : make_predict(rng, d, p);
    sweep_result_free(&r);
    return ok;
}

/* The exercise of (seed, kind, level) with the cards at deck position pos
 * (sub_pos for the kind of predict question). When the dealt model and
 * system make no exercise, the model stays and the next systems of the deck
 * are tried, then the next models. */
static bool practice_make_at(uint64_t seed, int kind, int level, uint64_t key, uint64_t pos,
                             uint64_t sub_pos, Practice *p, char *err, size_t err_len)
{
    if (!p) {
        msg_set(err, err_len, "no exercise to fill");
        return false;
    }
    if (level < PRACTICE_LEVEL_MIN)
        level = PRACTICE_LEVEL_MIN;
    if (level > PRACTICE_LEVEL_MAX)
        level = PRACTICE_LEVEL_MAX;
    Deal d = deal_at(key, pos, sub_pos);
    int systems = hw_system_count(), models = workload_preset_count();
    for (int tm = 0; tm < models; tm++)
        for (int ts = 0; ts < systems; ts++) {
            Deal t = {(d.model + tm) % models, (d.system + ts) % systems, d.sub};
            memset(p, 0, sizeof *p);
            p->seed = seed;
            p->kind = (PracticeKind)kind;
            p->level = level;
            Rng rng = {seed};
            if (make_kind(&rng, kind, &t, p))
                return true;
        }
    msg_set(err, err_len, "no %s exercise could be made from seed %llu at level %d",
            kind_names[kind], (unsigned long long)seed, level);
    return false;
}

#define WORKSHEET_KEY 0x5ca1ab1e5eedULL /* the decks of a worksheet */

bool practice_make(uint64_t seed, int kind, int level, Practice *p, char *err, size_t err_len)
{
    bool turns = kind < 0 || kind >= PRACTICE_KIND_COUNT;
    if (turns)
        kind = (int)(seed % PRACTICE_KIND_COUNT); /* consecutive seeds take turns */
    return practice_make_at(seed, kind, level, WORKSHEET_KEY, seed,
                            turns ? seed / PRACTICE_KIND_COUNT : seed, p, err, err_len);
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
    uint64_t seed = rng_next(&mix), at = (uint64_t)run->index;
    int kind = run->index % PRACTICE_KIND_COUNT;
    run->index++;
    return practice_make_at(seed, kind, run->level, run->seed, at, at / PRACTICE_KIND_COUNT, p,
                            err, err_len);
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
