/* SPDX-License-Identifier: MIT */
/* scenario — the editable state of a scenario: cluster, workload, mapping,
 * placement, the learner's moves on them, undo and reference results.
 *
 * Every move works on a copy of the current state (a Snapshot); the copy is
 * checked (cluster, workload, mapping, then a full step evaluation) and only
 * then replaces the current state, whose old value goes on the undo stack.
 * So an illegal move never changes anything and always says why. The undo
 * stack keeps the last SCN_UNDO_MAX states (oldest dropped first).
 *
 * Degree moves keep the GPU count: "tp N", "cp N" and "pp N" recompute DP as
 * GPUs / (TP x CP x PP); "dp N" recomputes PP the same way. They reset the
 * placement to the default order, because a rank's meaning changes with the
 * degrees. "domain N" and "system ID" keep the placement (GPU ids stay
 * valid); the cluster keeps its GPU count.
 *
 * Pure: no I/O. Owns its placements (via xmem); scenario_free accepts NULL.
 */
#include "learn/scenario.h"
#include "base/msg.h"

#include "base/xmem.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCN_UNDO_MAX 256

typedef struct {
    Cluster c;
    Workload w;
    Mapping m;
    Placement *p; /* owned */
    StepResult r;
} Snapshot;

struct Scenario {
    Snapshot cur;
    Snapshot start;
    StepResult reference;
    Snapshot *undo; /* undo[n_undo-1] is the state before the last move */
    int n_undo;
    int cap_undo;
    unsigned allow;
};

static void snap_free(Snapshot *sn)
{
    placement_free(sn->p);
    sn->p = NULL;
}

static Snapshot snap_dup(const Snapshot *sn)
{
    Snapshot out = *sn;
    out.p = placement_dup(sn->p);
    return out;
}

/* Checks a candidate state and computes its result into sn->r. */
static bool snap_eval(Snapshot *sn, char *err, size_t err_len)
{
    if (!cluster_check(&sn->c, err, err_len))
        return false;
    if (!workload_check(&sn->w, err, err_len))
        return false;
    if (!mapping_check(&sn->m, &sn->c, &sn->w, err, err_len))
        return false;
    if (placement_size(sn->p) != sn->c.n_gpus) {
        msg_set(err, err_len, "the placement covers %d GPUs but the cluster has %d",
                placement_size(sn->p), sn->c.n_gpus);
        return false;
    }
    return step_eval(&sn->c, &sn->w, &sn->m, sn->p, NULL, &sn->r, err, err_len) == STEP_OK;
}

Scenario *scenario_new(const Cluster *c, const Workload *w, const Mapping *m, const Placement *p,
                       unsigned allow, char *err, size_t err_len)
{
    if (!c || !w || !m) {
        msg_set(err, err_len, "a scenario needs a cluster, a workload and a mapping");
        return NULL;
    }
    Snapshot sn;
    memset(&sn, 0, sizeof sn);
    sn.c = *c;
    sn.w = *w;
    sn.m = *m;
    if (c->n_gpus < 1 || c->n_gpus > CLUSTER_MAX_GPUS) {
        cluster_check(c, err, err_len);
        return NULL;
    }
    sn.p = p ? placement_dup(p) : placement_new(c->n_gpus);
    if (!snap_eval(&sn, err, err_len)) {
        snap_free(&sn);
        return NULL;
    }
    Scenario *s = xmem_calloc(1, sizeof *s);
    s->cur = sn;
    s->start = snap_dup(&sn);
    s->reference = sn.r;
    s->allow = allow;
    return s;
}

void scenario_free(Scenario *s)
{
    if (!s)
        return;
    snap_free(&s->cur);
    snap_free(&s->start);
    for (int i = 0; i < s->n_undo; i++)
        snap_free(&s->undo[i]);
    free(s->undo);
    free(s);
}

const Cluster *scenario_cluster(const Scenario *s)
{
    return s ? &s->cur.c : NULL;
}

const Workload *scenario_workload(const Scenario *s)
{
    return s ? &s->cur.w : NULL;
}

const Mapping *scenario_mapping(const Scenario *s)
{
    return s ? &s->cur.m : NULL;
}

const Placement *scenario_placement(const Scenario *s)
{
    return s ? s->cur.p : NULL;
}

unsigned scenario_allowed(const Scenario *s)
{
    return s ? s->allow : 0;
}

const StepResult *scenario_result(const Scenario *s)
{
    return s ? &s->cur.r : NULL;
}

const StepResult *scenario_start_result(const Scenario *s)
{
    return s ? &s->start.r : NULL;
}

const StepResult *scenario_reference(const Scenario *s)
{
    return s ? &s->reference : NULL;
}

const StepResult *scenario_previous(const Scenario *s)
{
    if (!s)
        return NULL;
    return s->n_undo > 0 ? &s->undo[s->n_undo - 1].r : &s->cur.r;
}

void scenario_set_reference(Scenario *s)
{
    if (s)
        s->reference = s->cur.r;
}

/* Evaluates next; on success pushes the current state on the undo stack and
 * makes next current. On failure frees next. Either way next is consumed. */
static bool commit(Scenario *s, Snapshot *next, char *err, size_t err_len)
{
    if (!snap_eval(next, err, err_len)) {
        snap_free(next);
        return false;
    }
    if (s->n_undo == SCN_UNDO_MAX) {
        snap_free(&s->undo[0]);
        memmove(&s->undo[0], &s->undo[1], (size_t)(s->n_undo - 1) * sizeof s->undo[0]);
        s->n_undo--;
    }
    if (s->n_undo == s->cap_undo) {
        s->cap_undo = s->cap_undo ? s->cap_undo * 2 : 16;
        s->undo = xmem_realloc(s->undo, (size_t)s->cap_undo * sizeof s->undo[0]);
    }
    s->undo[s->n_undo++] = s->cur;
    s->cur = *next;
    return true;
}

static bool allowed(const Scenario *s, unsigned what, const char *verb, char *err, size_t err_len)
{
    if (!s) {
        msg_set(err, err_len, "no scenario");
        return false;
    }
    if (s->allow & what)
        return true;
    /* moves name what they move: "move", "move chips" */
    msg_set(err, err_len, "this scenario does not let you %s%s%s", verb,
            what == SCN_ALLOW_MOVE ? " " : "",
            what == SCN_ALLOW_MOVE ? hw_noun(&s->cur.c.gpu, HW_NOUN_MANY) : "");
    return false;
}

static bool gpu_in_range(const Scenario *s, int gpu, char *err, size_t err_len)
{
    if (gpu >= 0 && gpu < s->cur.c.n_gpus)
        return true;
    msg_set(err, err_len, "there is no %s %d: %s are numbered 0 to %d", hw_noun(&s->cur.c.gpu, 0),
            gpu, hw_noun(&s->cur.c.gpu, HW_NOUN_MANY | HW_NOUN_CAP), s->cur.c.n_gpus - 1);
    return false;
}

bool scenario_swap_gpus(Scenario *s, int gpu_a, int gpu_b, char *err, size_t err_len)
{
    if (!allowed(s, SCN_ALLOW_MOVE, "move", err, err_len))
        return false;
    if (!gpu_in_range(s, gpu_a, err, err_len) || !gpu_in_range(s, gpu_b, err, err_len))
        return false;
    if (gpu_a == gpu_b) {
        msg_set(err, err_len, "%s %d cannot swap with itself: pick two different %s",
                hw_noun(&s->cur.c.gpu, HW_NOUN_CAP), gpu_a, hw_noun(&s->cur.c.gpu, HW_NOUN_MANY));
        return false;
    }
    Snapshot next = snap_dup(&s->cur);
    placement_swap_gpus(next.p, gpu_a, gpu_b);
    return commit(s, &next, err, err_len);
}

bool scenario_move_group(Scenario *s, int gpu, MappingDim d, int domain, char *err, size_t err_len)
{
    if (!allowed(s, SCN_ALLOW_MOVE, "move", err, err_len))
        return false;
    if (!gpu_in_range(s, gpu, err, err_len))
        return false;
    if (d < 0 || d >= DIM_COUNT) {
        msg_set(err, err_len, "unknown parallel dimension");
        return false;
    }
    const Cluster *c = &s->cur.c;
    const Mapping *m = &s->cur.m;
    int domains = cluster_domain_count(c);
    if (domain < 0 || domain >= domains) {
        msg_set(err, err_len, "there is no domain %d: domains are numbered 0 to %d", domain,
                domains - 1);
        return false;
    }
    int size = mapping_dim_size(m, d);
    const char *dim = mapping_dim_name(d);
    long long first = (long long)domain * c->domain_gpus;
    if (first + size > c->n_gpus) {
        msg_set(err, err_len,
                "the %s group has %d %s: starting at domain %d (%s %lld) it would run past "
                "the last %s %d",
                dim, size, hw_noun(&c->gpu, HW_NOUN_MANY), domain, hw_noun(&c->gpu, 0), first,
                hw_noun(&c->gpu, 0), c->n_gpus - 1);
        return false;
    }
    int rank = placement_rank_on(s->cur.p, gpu);
    int group = mapping_group_of(m, rank, d);
    /* the group's ranks, ordered by their coordinate along d */
    int *ranks = xmem_alloc((size_t)size * sizeof *ranks);
    int found = 0;
    for (int r = 0; r < c->n_gpus && found < size; r++) {
        if (mapping_group_of(m, r, d) == group) {
            int k = mapping_coord(m, r, d);
            if (k >= 0 && k < size)
                ranks[k] = r;
            found++;
        }
    }
    if (found != size) {
        free(ranks);
        msg_set(err, err_len, "the %s group of %s %d could not be found", dim, hw_noun(&c->gpu, 0),
                gpu);
        return false;
    }
    bool in_place = true;
    for (int k = 0; k < size; k++)
        if (placement_gpu_of(s->cur.p, ranks[k]) != (int)(first + k))
            in_place = false;
    if (in_place) {
        free(ranks);
        msg_set(err, err_len, "the %s group of %s %d already starts at domain %d: nothing to move",
                dim, hw_noun(&c->gpu, 0), gpu, domain);
        return false;
    }
    /* Member k goes to GPU first+k. Members placed earlier sit on first..first+k-1,
     * which neither side of this swap touches, so they stay put. */
    Snapshot next = snap_dup(&s->cur);
    for (int k = 0; k < size; k++) {
        int now = placement_gpu_of(next.p, ranks[k]);
        int want = (int)(first + k);
        if (now != want)
            placement_swap_gpus(next.p, now, want);
    }
    free(ranks);
    return commit(s, &next, err, err_len);
}

bool scenario_set_degree(Scenario *s, MappingDim d, int value, char *err, size_t err_len)
{
    if (!allowed(s, SCN_ALLOW_DEGREES, "change the parallel degrees", err, err_len))
        return false;
    if (d < 0 || d >= DIM_COUNT) {
        msg_set(err, err_len, "unknown parallel dimension");
        return false;
    }
    const char *dim = mapping_dim_name(d);
    int n = s->cur.c.n_gpus;
    if (value > n) {
        msg_set(err, err_len, "%s %d is more than the %d GPUs of the cluster", dim, value, n);
        return false;
    }
    if (mapping_dim_size(&s->cur.m, d) == value) {
        msg_set(err, err_len, "%s is already %d", dim, value);
        return false;
    }
    Mapping m = s->cur.m;
    if (!mapping_set_degree(&m, n, d, value, err, err_len))
        return false;
    Snapshot next = snap_dup(&s->cur);
    next.m = m;
    placement_free(next.p);
    next.p = placement_new(n);
    return commit(s, &next, err, err_len);
}

bool scenario_set_mapping(Scenario *s, const Mapping *m, int micro_batch, const Placement *p,
                          char *err, size_t err_len)
{
    if (!s || !m) {
        msg_set(err, err_len, !s ? "no scenario" : "no mapping given");
        return false;
    }
    const Mapping *cur = &s->cur.m;
    bool degrees = m->tp != cur->tp || m->pp != cur->pp || m->dp != cur->dp || m->ep != cur->ep ||
                   m->cp != cur->cp || m->interleave != cur->interleave || m->zero != cur->zero;
    /* Same degrees: the placement changes when p differs from the current
     * one (NULL: the default); new degrees reset it as a degree move does. */
    bool moved = false;
    if (!degrees) {
        int n = s->cur.c.n_gpus;
        for (int g = 0; g < n && !moved; g++)
            moved = placement_rank_on(s->cur.p, g) != (p ? placement_rank_on(p, g) : g);
    }
    if (degrees && !allowed(s, SCN_ALLOW_DEGREES, "change the parallel degrees", err, err_len))
        return false;
    if (micro_batch != s->cur.w.micro_batch &&
        !allowed(s, SCN_ALLOW_MICRO, "change the micro-batch", err, err_len))
        return false;
    if (((degrees && p) || moved) && !allowed(s, SCN_ALLOW_MOVE, "move", err, err_len))
        return false;
    Snapshot next = snap_dup(&s->cur);
    next.m = *m;
    next.w.micro_batch = micro_batch;
    placement_free(next.p);
    next.p = p ? placement_dup(p) : placement_new(s->cur.c.n_gpus);
    return commit(s, &next, err, err_len);
}

bool scenario_set_micro_batch(Scenario *s, int mb, char *err, size_t err_len)
{
    if (!allowed(s, SCN_ALLOW_MICRO, "change the micro-batch", err, err_len))
        return false;
    if (mb < 1) {
        msg_set(err, err_len, "the micro-batch must be at least 1 sequence (got %d)", mb);
        return false;
    }
    if (mb == s->cur.w.micro_batch) {
        msg_set(err, err_len, "the micro-batch is already %d", mb);
        return false;
    }
    Snapshot next = snap_dup(&s->cur);
    next.w.micro_batch = mb;
    return commit(s, &next, err, err_len);
}

bool scenario_set_domain(Scenario *s, int domain_gpus, char *err, size_t err_len)
{
    if (!allowed(s, SCN_ALLOW_DOMAIN, "change the scale-up domain size", err, err_len))
        return false;
    int n = s->cur.c.n_gpus;
    const char *one = hw_noun(&s->cur.c.gpu, 0), *many = hw_noun(&s->cur.c.gpu, HW_NOUN_MANY);
    if (domain_gpus < 1) {
        msg_set(err, err_len, "a scale-up domain needs at least 1 %s (got %d)", one, domain_gpus);
        return false;
    }
    if (domain_gpus > n) {
        msg_set(err, err_len, "a domain of %d %s is larger than the whole %d-%s cluster",
                domain_gpus, many, n, one);
        return false;
    }
    if (domain_gpus == s->cur.c.domain_gpus) {
        msg_set(err, err_len, "the scale-up domain already has %d %s", domain_gpus, many);
        return false;
    }
    Snapshot next = snap_dup(&s->cur);
    next.c.domain_gpus = domain_gpus;
    return commit(s, &next, err, err_len);
}

bool scenario_set_system(Scenario *s, const char *system_id, char *err, size_t err_len)
{
    if (!allowed(s, SCN_ALLOW_SYSTEM, "switch to another system", err, err_len))
        return false;
    Cluster c;
    if (!cluster_from_system(&c, system_id, s->cur.c.n_gpus, err, err_len))
        return false;
    if (strcmp(c.system_id, s->cur.c.system_id) == 0) {
        msg_set(err, err_len, "the cluster is already a %s", c.name);
        return false;
    }
    c.sites = s->cur.c.sites;
    c.across_bytes_per_s = s->cur.c.across_bytes_per_s;
    c.across_lat_s = s->cur.c.across_lat_s;
    Snapshot next = snap_dup(&s->cur);
    next.c = c;
    return commit(s, &next, err, err_len);
}

bool scenario_undo(Scenario *s)
{
    if (!s || s->n_undo == 0)
        return false;
    snap_free(&s->cur);
    s->cur = s->undo[--s->n_undo];
    return true;
}

void scenario_reset(Scenario *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n_undo; i++)
        snap_free(&s->undo[i]);
    s->n_undo = 0;
    snap_free(&s->cur);
    s->cur = snap_dup(&s->start);
}

/* --- text moves ---------------------------------------------------------- */

static bool parse_dim(const char *word, MappingDim *d)
{
    static const char *names[DIM_COUNT] = {"tp", "cp", "ep", "pp", "dp"};
    for (int i = 0; i < DIM_COUNT; i++) {
        if (strlen(word) == 2 && tolower((unsigned char)word[0]) == names[i][0] &&
            tolower((unsigned char)word[1]) == names[i][1]) {
            *d = (MappingDim)i;
            return true;
        }
    }
    return false;
}

static bool parse_int(const char *word, int *out)
{
    if (!word || !*word)
        return false;
    char *end;
    long v = strtol(word, &end, 10);
    if (*end != '\0' || v < -1000000000L || v > 1000000000L)
        return false;
    *out = (int)v;
    return true;
}

#define MOVE_MAX_WORDS 5

bool scenario_apply_text(Scenario *s, const char *move, char *err, size_t err_len)
{
    if (!s) {
        msg_set(err, err_len, "no scenario");
        return false;
    }
    if (!move) {
        msg_set(err, err_len, "empty move");
        return false;
    }
    char buf[128];
    if (strlen(move) >= sizeof buf) {
        msg_set(err, err_len, "move too long: '%.40s...'", move);
        return false;
    }
    snprintf(buf, sizeof buf, "%s", move);
    char *words[MOVE_MAX_WORDS];
    int n = 0;
    for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
        if (n == MOVE_MAX_WORDS) {
            msg_set(err, err_len, "too many words in move '%s'", move);
            return false;
        }
        words[n++] = tok;
    }
    if (n == 0) {
        msg_set(err, err_len, "empty move");
        return false;
    }
    const char *verb = words[0];
    MappingDim d;
    int a, b, c;
    if (strcmp(verb, "swap") == 0) {
        if (n != 3 || !parse_int(words[1], &a) || !parse_int(words[2], &b)) {
            msg_set(err, err_len, "'%s': write swap GPU GPU, e.g. 'swap 3 12'", move);
            return false;
        }
        return scenario_swap_gpus(s, a, b, err, err_len);
    }
    if (strcmp(verb, "group") == 0) {
        if (n != 4 || !parse_dim(words[1], &d) || !parse_int(words[2], &a) ||
            !parse_int(words[3], &b)) {
            msg_set(err, err_len,
                    "'%s': write group DIM GPU DOMAIN, e.g. 'group tp 8 0' (DIM: tp, cp, ep, "
                    "pp, dp)",
                    move);
            return false;
        }
        return scenario_move_group(s, a, d, b, err, err_len);
    }
    if (parse_dim(verb, &d)) {
        if (n != 2 || !parse_int(words[1], &c)) {
            msg_set(err, err_len, "'%s': write %s N, e.g. '%s 8'", move, verb, verb);
            return false;
        }
        return scenario_set_degree(s, d, c, err, err_len);
    }
    if (strcmp(verb, "mb") == 0) {
        if (n != 2 || !parse_int(words[1], &c)) {
            msg_set(err, err_len, "'%s': write mb N, e.g. 'mb 2'", move);
            return false;
        }
        return scenario_set_micro_batch(s, c, err, err_len);
    }
    if (strcmp(verb, "domain") == 0) {
        if (n != 2 || !parse_int(words[1], &c)) {
            msg_set(err, err_len, "'%s': write domain N, e.g. 'domain 72'", move);
            return false;
        }
        return scenario_set_domain(s, c, err, err_len);
    }
    if (strcmp(verb, "system") == 0) {
        if (n != 2) {
            msg_set(err, err_len, "'%s': write system ID, e.g. 'system gb200-nvl72'", move);
            return false;
        }
        return scenario_set_system(s, words[1], err, err_len);
    }
    if (strcmp(verb, "undo") == 0 && n == 1) {
        if (!scenario_undo(s)) {
            msg_set(err, err_len, "nothing to undo");
            return false;
        }
        return true;
    }
    if (strcmp(verb, "reset") == 0 && n == 1) {
        scenario_reset(s);
        return true;
    }
    msg_set(err, err_len,
            "unknown move '%s' (moves: swap A B, group DIM GPU DOMAIN, tp|pp|dp|ep|cp N, mb N, "
            "domain N, system ID, undo, reset)",
            move);
    return false;
}
