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
    ServeResult sr; /* serving scenarios: the decode step (serve.h) */
    int presses;    /* key presses of the moves from the start to here */
} Snapshot;

struct Scenario {
    Snapshot cur;
    Snapshot start;
    StepResult reference;
    Snapshot *undo; /* undo[n_undo-1] is the state before the last move */
    int n_undo;
    int cap_undo;
    unsigned allow;
    bool serving;   /* judged by the decode step (scenario_set_serving) */
    ServeLoad load; /* its batch and context */
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

/* Checks a candidate state and computes its result into sn->r (and, when
 * load is given, its decode step into sn->sr). */
static bool snap_eval_load(Snapshot *sn, const ServeLoad *load, char *err, size_t err_len)
{
    if (!cluster_check(&sn->c, err, err_len))
        return false;
    if (!workload_check(&sn->w, err, err_len))
        return false;
    if (!mapping_check(&sn->m, &sn->c, &sn->w, err, err_len))
        return false;
    if (placement_size(sn->p) != sn->c.n_gpus ||
        placement_gpus(sn->p) != cluster_machine_gpus(&sn->c)) {
        msg_set(err, err_len, "the placement covers %d ranks on %d GPUs but the job has %d on %d",
                placement_size(sn->p), placement_gpus(sn->p), sn->c.n_gpus,
                cluster_machine_gpus(&sn->c));
        return false;
    }
    for (int i = 0; i < sn->c.n_down; i++)
        for (int g = sn->c.down[i].first; g < sn->c.down[i].first + sn->c.down[i].count; g++)
            if (placement_rank_on(sn->p, g) >= 0) {
                msg_set(err, err_len, "%s %d is %s: it runs no rank", hw_noun(&sn->c.gpu, 0), g,
                        sn->c.down[i].state == CLUSTER_GPU_BUSY ? "held by another job" : "down");
                return false;
            }
    memset(&sn->r, 0, sizeof sn->r); /* nothing of an earlier state is left */
    memset(&sn->sr, 0, sizeof sn->sr);
    if (step_eval(&sn->c, &sn->w, &sn->m, sn->p, NULL, &sn->r, err, err_len) != STEP_OK)
        return false;
    return !load || serve_eval(&sn->c, &sn->w, &sn->m, sn->p, *load, &sn->sr, err, err_len);
}

static bool snap_eval(Snapshot *sn, char *err, size_t err_len)
{
    return snap_eval_load(sn, NULL, err, err_len);
}

/* A state of s, evaluated as s judges it (with its decode step when s
 * serves). */
static bool snap_eval_in(const Scenario *s, Snapshot *sn, char *err, size_t err_len)
{
    return snap_eval_load(sn, s->serving ? &s->load : NULL, err, err_len);
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
    sn.p = p ? placement_dup(p) : placement_for_machine(c);
    if (!sn.p) {
        cluster_check(c, err, err_len);
        return NULL;
    }
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
 * makes next current, `presses` key presses further. On failure frees next.
 * Either way next is consumed. */
static bool commit_pressed(Scenario *s, Snapshot *next, int presses, char *err, size_t err_len)
{
    next->presses = s->cur.presses + presses;
    if (!snap_eval_in(s, next, err, err_len)) {
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

/* A setting's move: one key press. */
static bool commit(Scenario *s, Snapshot *next, char *err, size_t err_len)
{
    return commit_pressed(s, next, 1, err, err_len);
}

int scenario_presses(const Scenario *s)
{
    return s ? s->cur.presses : 0;
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
    int n = cluster_machine_gpus(&s->cur.c);
    if (gpu >= 0 && gpu < n)
        return true;
    msg_set(err, err_len, "there is no %s %d: %s are numbered 0 to %d", hw_noun(&s->cur.c.gpu, 0),
            gpu, hw_noun(&s->cur.c.gpu, HW_NOUN_MANY | HW_NOUN_CAP), n - 1);
    return false;
}

/* Whether a rank may go to gpu: it must be up. */
static bool gpu_usable(const Scenario *s, int gpu, char *err, size_t err_len)
{
    ClusterGpuState st = cluster_gpu_state(&s->cur.c, gpu);
    if (st == CLUSTER_GPU_UP)
        return true;
    msg_set(err, err_len, "%s %d %s: it can run no rank", hw_noun(&s->cur.c.gpu, HW_NOUN_CAP), gpu,
            st == CLUSTER_GPU_BUSY ? "belongs to another job" : "has failed");
    return false;
}

bool scenario_swap_gpus(Scenario *s, int gpu_a, int gpu_b, char *err, size_t err_len)
{
    if (!allowed(s, SCN_ALLOW_MOVE, "move", err, err_len))
        return false;
    if (!gpu_in_range(s, gpu_a, err, err_len) || !gpu_in_range(s, gpu_b, err, err_len))
        return false;
    const GpuSpec *g = &s->cur.c.gpu;
    if (gpu_a == gpu_b) {
        msg_set(err, err_len, "%s %d cannot swap with itself: pick two different %s",
                hw_noun(g, HW_NOUN_CAP), gpu_a, hw_noun(g, HW_NOUN_MANY));
        return false;
    }
    if (!gpu_usable(s, gpu_a, err, err_len) || !gpu_usable(s, gpu_b, err, err_len))
        return false;
    if (placement_rank_on(s->cur.p, gpu_a) < 0 && placement_rank_on(s->cur.p, gpu_b) < 0) {
        msg_set(err, err_len, "%s %d and %d are both free: nothing to move",
                hw_noun(g, HW_NOUN_MANY | HW_NOUN_CAP), gpu_a, gpu_b);
        return false;
    }
    Snapshot next = snap_dup(&s->cur);
    placement_swap_gpus(next.p, gpu_a, gpu_b);
    return commit_pressed(s, &next, SCN_SWAP_PRESSES, err, err_len);
}

/* The g cycle: these kinds, in this order, where they have more than one
 * rank and the scenario lets them move. */
static const MappingDim pick_order[] = {DIM_TP, DIM_PP, DIM_DP, DIM_EP};

int scenario_pick_cycle(const Scenario *s, MappingDim *dims, int max)
{
    if (!s || !(s->allow & (SCN_ALLOW_MOVE | SCN_ALLOW_GROUPS)))
        return 0;
    unsigned only = s->allow & SCN_ALLOW_GROUP_DIMS;
    int n = 0;
    for (size_t i = 0; i < sizeof pick_order / sizeof pick_order[0]; i++) {
        MappingDim d = pick_order[i];
        if (mapping_dim_size(&s->cur.m, d) <= 1 || (only && !(only & SCN_ALLOW_GROUP_DIM(d))))
            continue;
        if (dims && n < max)
            dims[n] = d;
        n++;
    }
    return n;
}

int scenario_pick_presses(const Scenario *s, MappingDim d)
{
    MappingDim dims[4];
    int n = scenario_pick_cycle(s, dims, 4);
    for (int i = 0; i < n; i++)
        if (dims[i] == d)
            return i + 1;
    return 0;
}

int scenario_group_presses(const Scenario *s, MappingDim d)
{
    int picks = scenario_pick_presses(s, d);
    return picks > 0 ? picks + 1 : 0;
}

/* The ranks of the group of d that holds rank, by their coordinate along d
 * (size of them); false when the layout does not give them. */
static bool group_ranks(const Mapping *m, int rank, MappingDim d, int *ranks, int size)
{
    int group = mapping_group_of(m, rank, d), found = 0, world = mapping_world(m);
    for (int r = 0; r < world && found < size; r++) {
        if (mapping_group_of(m, r, d) != group)
            continue;
        int k = mapping_coord(m, r, d);
        if (k < 0 || k >= size)
            return false;
        ranks[k] = r;
        found++;
    }
    return found == size;
}

/* The free GPUs of domain dom, the first `want` of them in GPU order, into
 * out; returns how many there are (at most want). */
static int free_gpus_of(const Scenario *s, int dom, int want, int *out)
{
    const Cluster *c = &s->cur.c;
    int first = cluster_domain_first(c, dom), n = cluster_domain_size(c, dom), k = 0;
    for (int g = first; g < first + n && k < want; g++)
        if (cluster_gpu_state(c, g) == CLUSTER_GPU_UP && placement_rank_on(s->cur.p, g) < 0)
            out[k++] = g;
    return k;
}

/* Where the members of the group go (ranks[], by coordinate along d): when
 * `at` runs a rank of another group of d, that group's GPUs (the two trade
 * places, member k for member k); otherwise (a free GPU, or one of the
 * group's own) into at's domain: members already there stay, the others go
 * onto its first free GPUs, which must be enough. False with a reason. */
static bool group_targets(const Scenario *s, const int *ranks, MappingDim d, int size, int at,
                          int *dest, char *err, size_t err_len)
{
    const Cluster *c = &s->cur.c;
    const Mapping *m = &s->cur.m;
    const char *dim = mapping_dim_name(d), *one = hw_noun(&c->gpu, 0);
    int there = placement_rank_on(s->cur.p, at);
    if (there >= 0 && mapping_group_of(m, there, d) != mapping_group_of(m, ranks[0], d)) {
        int *other = xmem_alloc((size_t)size * sizeof *other);
        bool ok = group_ranks(m, there, d, other, size);
        for (int k = 0; ok && k < size; k++)
            dest[k] = placement_gpu_of(s->cur.p, other[k]);
        free(other);
        if (!ok)
            msg_set(err, err_len, "the %s group of %s %d could not be found", dim, one, at);
        return ok;
    }
    int dom = cluster_domain_of(c, at), outside = 0;
    for (int k = 0; k < size; k++) {
        dest[k] = placement_gpu_of(s->cur.p, ranks[k]);
        outside += cluster_domain_of(c, dest[k]) != dom;
    }
    if (outside == 0) {
        msg_set(err, err_len,
                "the %s group is all in domain %d already: drop it on another group "
                "to trade places, or in another domain",
                dim, dom);
        return false;
    }
    int *free_gpu = xmem_alloc((size_t)outside * sizeof *free_gpu);
    int have = free_gpus_of(s, dom, outside, free_gpu);
    if (have < outside) {
        free(free_gpu);
        msg_set(err, err_len,
                "%d of the %s group's %s are outside domain %d, which has only %d "
                "free",
                outside, dim, hw_noun(&c->gpu, HW_NOUN_MANY), dom, have);
        return false;
    }
    for (int k = 0, j = 0; k < size; k++)
        if (cluster_domain_of(c, dest[k]) != dom)
            dest[k] = free_gpu[j++];
    free(free_gpu);
    return true;
}

int scenario_group_plan(const Scenario *s, int gpu, MappingDim d, int at, int *from, int *to,
                        char *err, size_t err_len)
{
    if (!s || !(s->allow & (SCN_ALLOW_MOVE | SCN_ALLOW_GROUPS))) {
        allowed(s, SCN_ALLOW_MOVE, "move", err, err_len);
        return -1;
    }
    if (!gpu_in_range(s, gpu, err, err_len) || !gpu_in_range(s, at, err, err_len))
        return -1;
    if (d < 0 || d >= DIM_COUNT) {
        msg_set(err, err_len, "unknown parallel dimension");
        return -1;
    }
    const Cluster *c = &s->cur.c;
    const char *dim = mapping_dim_name(d);
    int rank = placement_rank_on(s->cur.p, gpu);
    if (rank < 0) {
        msg_set(err, err_len, "%s %d runs no rank: pick a group on a %s that does",
                hw_noun(&c->gpu, HW_NOUN_CAP), gpu, hw_noun(&c->gpu, 0));
        return -1;
    }
    if (scenario_pick_presses(s, d) == 0) {
        msg_set(err, err_len, "this scenario does not let you move %s groups", dim);
        return -1;
    }
    if (!gpu_usable(s, at, err, err_len))
        return -1;
    int size = mapping_dim_size(&s->cur.m, d);
    int *ranks = xmem_alloc((size_t)size * sizeof *ranks);
    bool ok = group_ranks(&s->cur.m, rank, d, ranks, size);
    if (!ok)
        msg_set(err, err_len, "the %s group of %s %d could not be found", dim, hw_noun(&c->gpu, 0),
                gpu);
    ok = ok && group_targets(s, ranks, d, size, at, to, err, err_len);
    for (int k = 0; ok && k < size; k++)
        from[k] = placement_gpu_of(s->cur.p, ranks[k]);
    free(ranks);
    return ok ? size : -1;
}

bool scenario_move_group(Scenario *s, int gpu, MappingDim d, int at, char *err, size_t err_len)
{
    int size = s && d >= 0 && d < DIM_COUNT ? mapping_dim_size(&s->cur.m, d) : 1;
    int *from = xmem_alloc(2 * (size_t)size * sizeof *from), *to = from + size;
    int n = scenario_group_plan(s, gpu, d, at, from, to, err, err_len);
    if (n < 0) {
        free(from);
        return false;
    }
    /* Member k goes from from[k] to to[k], trading with what runs there (a
     * member that stays has to[k] == from[k]). The targets are distinct and
     * none holds another member, so no swap undoes an earlier one. */
    Snapshot next = snap_dup(&s->cur);
    for (int k = 0; k < n; k++)
        placement_swap_gpus(next.p, from[k], to[k]);
    free(from);
    return commit_pressed(s, &next, scenario_group_presses(s, d), err, err_len);
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
    next.p = placement_for_machine(&next.c);
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
        Placement *home = p ? NULL : placement_for_machine(&s->cur.c);
        const Placement *want = p ? p : home;
        int n = cluster_machine_gpus(&s->cur.c);
        moved = placement_gpus(want) != n;
        for (int g = 0; g < n && !moved; g++)
            moved = placement_rank_on(s->cur.p, g) != placement_rank_on(want, g);
        placement_free(home);
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
    next.p = p ? placement_dup(p) : placement_for_machine(&s->cur.c);
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
    int n = cluster_machine_gpus(&s->cur.c);
    const char *one = hw_noun(&s->cur.c.gpu, 0), *many = hw_noun(&s->cur.c.gpu, HW_NOUN_MANY);
    if (s->cur.c.n_runs > 0) {
        msg_set(err, err_len,
                "this machine's domains are built in: a rack and servers do not "
                "change size");
        return false;
    }
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
    if (s->cur.c.n_runs > 0 || cluster_machine_gpus(&s->cur.c) != s->cur.c.n_gpus) {
        msg_set(err, err_len,
                "the job runs on this machine as it is: another system would be "
                "another machine");
        return false;
    }
    Cluster c;
    if (!cluster_from_system(&c, system_id, s->cur.c.n_gpus, err, err_len))
        return false;
    if (strcmp(c.system_id, s->cur.c.system_id) == 0) {
        msg_set(err, err_len, "the job already runs on %s", c.name);
        return false;
    }
    c.sites = s->cur.c.sites;
    c.across_bytes_per_s = s->cur.c.across_bytes_per_s;
    c.across_lat_s = s->cur.c.across_lat_s;
    Snapshot next = snap_dup(&s->cur);
    next.c = c;
    return commit(s, &next, err, err_len);
}

/* --- keys ------------------------------------------------------------------ */

static const struct {
    char key;
    unsigned allow;
    MappingDim dim; /* degree keys */
    int dir;        /* +1 up / next, -1 down / previous */
} key_table[SCN_KEY_COUNT] = {
    {'t', SCN_ALLOW_DEGREES, DIM_TP, 1}, {'T', SCN_ALLOW_DEGREES, DIM_TP, -1},
    {'y', SCN_ALLOW_DEGREES, DIM_PP, 1}, {'Y', SCN_ALLOW_DEGREES, DIM_PP, -1},
    {'d', SCN_ALLOW_DEGREES, DIM_DP, 1}, {'D', SCN_ALLOW_DEGREES, DIM_DP, -1},
    {'x', SCN_ALLOW_DEGREES, DIM_EP, 1}, {'X', SCN_ALLOW_DEGREES, DIM_EP, -1},
    {'m', SCN_ALLOW_MICRO, DIM_TP, 1},   {'M', SCN_ALLOW_MICRO, DIM_TP, -1},
    {'+', SCN_ALLOW_DOMAIN, DIM_TP, 1},  {'-', SCN_ALLOW_DOMAIN, DIM_TP, -1},
    {']', SCN_ALLOW_SYSTEM, DIM_TP, 1},  {'[', SCN_ALLOW_SYSTEM, DIM_TP, -1},
};

char scenario_key_char(ScenarioKey k)
{
    return k >= 0 && k < SCN_KEY_COUNT ? key_table[k].key : '?';
}

unsigned scenario_key_allow(ScenarioKey k)
{
    return k >= 0 && k < SCN_KEY_COUNT ? key_table[k].allow : 0;
}

/* Domain sizes the +/- keys step through: powers of two and the sizes of
 * real NVLink domains and partitions (36 and 72 GPUs of NVL36/NVL72 racks
 * in trays of 4, 144, 288 and 576 of the NVLink 5 switch spec: NVIDIA GB200
 * NVL72 and Base Command Manager documentation). */
static const int domain_steps[] = {1, 2, 4, 8, 16, 32, 36, 64, 72, 128, 144, 256, 288, 512, 576};

static bool press_domain(Scenario *s, int dir, char *err, size_t err_len)
{
    const int ns = (int)(sizeof domain_steps / sizeof domain_steps[0]);
    int cur = s->cur.c.domain_gpus;
    char first[MSG_LEN] = "", why[MSG_LEN];
    for (int k = 0; k < ns; k++) {
        int i = dir > 0 ? k : ns - 1 - k;
        if ((dir > 0 && domain_steps[i] <= cur) || (dir < 0 && domain_steps[i] >= cur))
            continue;
        if (scenario_set_domain(s, domain_steps[i], why, sizeof why))
            return true;
        if (!first[0])
            msg_set(first, sizeof first, "%s", why);
    }
    if (first[0])
        msg_set(err, err_len, "%s", first);
    else if (dir > 0)
        msg_set(err, err_len, "the domain is as big as it gets");
    else
        msg_set(err, err_len, "the domain is already 1 %s", hw_noun(&s->cur.c.gpu, 0));
    return false;
}

static bool press_system(Scenario *s, int dir, char *err, size_t err_len)
{
    int n = hw_system_count(), idx = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(hw_system_at(i)->id, s->cur.c.system_id) == 0)
            idx = i;
    char first[MSG_LEN] = "", why[MSG_LEN];
    for (int k = 1; k < n; k++) {
        const SystemSpec *sys = hw_system_at(((idx + dir * k) % n + n) % n);
        if (scenario_set_system(s, sys->id, why, sizeof why))
            return true;
        if (!first[0])
            msg_set(first, sizeof first, "%s: %s", sys->name, why);
    }
    msg_set(err, err_len, "%s", first[0] ? first : "no other system fits");
    return false;
}

bool scenario_press(Scenario *s, ScenarioKey k, char *err, size_t err_len)
{
    if (!s || k < 0 || k >= SCN_KEY_COUNT) {
        msg_set(err, err_len, "no such key");
        return false;
    }
    int dir = key_table[k].dir;
    switch (key_table[k].allow) {
    case SCN_ALLOW_DEGREES: {
        MappingDim d = key_table[k].dim;
        int cur = mapping_dim_size(&s->cur.m, d);
        if (dir < 0 && cur == 1) {
            if (!allowed(s, SCN_ALLOW_DEGREES, "change the parallel degrees", err, err_len))
                return false;
            msg_set(err, err_len, "%s is already 1", mapping_dim_name(d));
            return false;
        }
        return scenario_set_degree(s, d, dir > 0 ? cur * 2 : cur / 2, err, err_len);
    }
    case SCN_ALLOW_MICRO: {
        int cur = s->cur.w.micro_batch;
        if (dir < 0 && cur == 1) {
            if (!allowed(s, SCN_ALLOW_MICRO, "change the micro-batch", err, err_len))
                return false;
            msg_set(err, err_len, "the micro-batch is already 1 sequence");
            return false;
        }
        return scenario_set_micro_batch(s, dir > 0 ? cur * 2 : cur / 2, err, err_len);
    }
    case SCN_ALLOW_DOMAIN:
        if (!allowed(s, SCN_ALLOW_DOMAIN, "change the scale-up domain size", err, err_len))
            return false;
        return press_domain(s, dir, err, err_len);
    default:
        if (!allowed(s, SCN_ALLOW_SYSTEM, "switch to another system", err, err_len))
            return false;
        return press_system(s, dir, err, err_len);
    }
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
        bool to = n == 5 && strcmp(words[3], "to") == 0;
        if ((n != 4 && !to) || !parse_dim(words[1], &d) || !parse_int(words[2], &a) ||
            !parse_int(words[to ? 4 : 3], &b)) {
            msg_set(err, err_len,
                    "'%s': write group DIM GPU to GPU, e.g. 'group tp 8 to 16' (DIM: tp, pp, dp, "
                    "ep), or group DIM GPU DOMAIN",
                    move);
            return false;
        }
        if (!to) { /* a domain: its first GPU that is up */
            const Cluster *cl = &s->cur.c;
            int first = cluster_domain_first(cl, b), size = cluster_domain_size(cl, b);
            if (first < 0) {
                msg_set(err, err_len, "there is no domain %d: domains are numbered 0 to %d", b,
                        cluster_domain_count(cl) - 1);
                return false;
            }
            while (size > 1 && cluster_gpu_state(cl, first) != CLUSTER_GPU_UP)
                first++, size--;
            b = first;
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
            "unknown move '%s' (moves: swap A B, group DIM GPU to GPU, tp|pp|dp|ep|cp N, mb N, "
            "domain N, system ID, undo, reset)",
            move);
    return false;
}

/* --- moves as the keys type them ----------------------------------------- */

/* Takes back the last n moves. */
static void undo_n(Scenario *s, int n)
{
    while (n-- > 0)
        scenario_undo(s);
}

/* The setting a key steps: a degree (dim), the micro-batch or the domain. */
static int key_value(const Scenario *s, ScenarioKey key)
{
    switch (key_table[key].allow) {
    case SCN_ALLOW_DEGREES:
        return mapping_dim_size(&s->cur.m, key_table[key].dim);
    case SCN_ALLOW_MICRO:
        return s->cur.w.micro_batch;
    default:
        return s->cur.c.domain_gpus;
    }
}

/* Presses key until its setting reaches want (one press per step), at
 * most limit presses; false (and the presses taken back) when a press is
 * refused or the setting steps past want. */
static bool press_until(Scenario *s, ScenarioKey key, int want, int limit, int *presses, char *err,
                        size_t err_len)
{
    int n = 0, dir = key_table[key].dir;
    while (key_value(s, key) != want) {
        int before = key_value(s, key);
        if (n == limit || !scenario_press(s, key, err, err_len)) {
            if (n == limit)
                msg_set(err, err_len, "the keys do not reach %d", want);
            undo_n(s, n);
            return false;
        }
        n++;
        int now = key_value(s, key);
        if ((dir > 0 && now > want) || (dir < 0 && now < want)) {
            msg_set(err, err_len, "%c steps from %d to %d, past %d", key_table[key].key, before,
                    now, want);
            undo_n(s, n);
            return false;
        }
    }
    *presses = n;
    return true;
}

/* "system ID" by ] or [, whichever takes fewer presses. */
static bool type_system(Scenario *s, const char *id, int *presses, char *err, size_t err_len)
{
    int best = -1, best_n = 0;
    for (int dir = 0; dir < 2; dir++) {
        ScenarioKey key = dir ? SCN_KEY_SYSTEM_PREV : SCN_KEY_SYSTEM_NEXT;
        int n = 0;
        while (strcmp(s->cur.c.system_id, id) != 0 && n < hw_system_count() &&
               scenario_press(s, key, err, err_len))
            n++;
        bool there = strcmp(s->cur.c.system_id, id) == 0;
        undo_n(s, n);
        if (there && n > 0 && (best < 0 || n < best_n))
            best = dir, best_n = n;
    }
    if (best < 0) {
        msg_set(err, err_len, "] and [ do not reach the system '%s'", id);
        return false;
    }
    for (int k = 0; k < best_n; k++)
        scenario_press(s, best ? SCN_KEY_SYSTEM_PREV : SCN_KEY_SYSTEM_NEXT, err, err_len);
    *presses = best_n;
    return true;
}

bool scenario_type_text(Scenario *s, const char *move, int *presses, char *err, size_t err_len)
{
    int got = 0, before = s ? s->cur.presses : 0;
    if (presses)
        *presses = 0;
    if (!s || !move) {
        msg_set(err, err_len, !s ? "no scenario" : "empty move");
        return false;
    }
    char verb[16] = "", arg[64] = "";
    int v = 0;
    sscanf(move, "%15s %63s", verb, arg);
    MappingDim d;
    bool num = parse_int(arg, &v);
    bool ok;
    if (strcmp(verb, "swap") == 0 || strcmp(verb, "group") == 0) {
        ok = scenario_apply_text(s, move, err, err_len);
        got = ok ? s->cur.presses - before : 0;
    } else if (parse_dim(verb, &d) && d != DIM_CP && num) {
        static const ScenarioKey up[DIM_COUNT] = {SCN_KEY_TP_UP, SCN_KEY_TP_UP, SCN_KEY_EP_UP,
                                                  SCN_KEY_PP_UP, SCN_KEY_DP_UP};
        int cur = mapping_dim_size(&s->cur.m, d);
        ok = v != cur &&
             press_until(s, (ScenarioKey)(up[d] + (v < cur)), v, 64, &got, err, err_len);
        if (v == cur)
            msg_set(err, err_len, "%s is already %d", mapping_dim_name(d), v);
    } else if ((strcmp(verb, "mb") == 0 || strcmp(verb, "domain") == 0) && num) {
        bool mb = verb[0] == 'm';
        int cur = mb ? s->cur.w.micro_batch : s->cur.c.domain_gpus;
        ScenarioKey key = mb ? (v < cur ? SCN_KEY_MB_DOWN : SCN_KEY_MB_UP)
                             : (v < cur ? SCN_KEY_DOMAIN_DOWN : SCN_KEY_DOMAIN_UP);
        ok = v != cur && press_until(s, key, v, 64, &got, err, err_len);
        if (v == cur)
            msg_set(err, err_len, "%s is already %d", mb ? "the micro-batch" : "the domain", v);
    } else if (strcmp(verb, "system") == 0 && arg[0]) {
        ok = allowed(s, SCN_ALLOW_SYSTEM, "switch to another system", err, err_len) &&
             type_system(s, arg, &got, err, err_len);
    } else {
        msg_set(err, err_len, "'%s' cannot be typed with the scenario's keys", move);
        ok = false;
    }
    if (presses)
        *presses = got;
    return ok;
}

char *scenario_key_move_text(const Scenario *s, ScenarioKey k, char *buf, size_t n)
{
    if (!buf || n == 0)
        return buf;
    buf[0] = '\0';
    if (!s || k < 0 || k >= SCN_KEY_COUNT)
        return buf;
    switch (key_table[k].allow) {
    case SCN_ALLOW_DEGREES: {
        char lower[4];
        snprintf(lower, sizeof lower, "%s", mapping_dim_name(key_table[k].dim));
        for (char *c = lower; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        snprintf(buf, n, "%s %d", lower, key_value(s, k));
        break;
    }
    case SCN_ALLOW_MICRO:
        snprintf(buf, n, "mb %d", key_value(s, k));
        break;
    case SCN_ALLOW_DOMAIN:
        snprintf(buf, n, "domain %d", key_value(s, k));
        break;
    default:
        snprintf(buf, n, "system %s", s->cur.c.system_id);
        break;
    }
    return buf;
}

/* --- for the par search (solve.c) ---------------------------------------- */

Scenario *scenario_clone(const Scenario *s)
{
    if (!s)
        return NULL;
    Scenario *c = xmem_calloc(1, sizeof *c);
    c->cur = snap_dup(&s->cur);
    c->start = snap_dup(&s->start);
    c->reference = s->reference;
    c->allow = s->allow;
    c->serving = s->serving;
    c->load = s->load;
    return c;
}

bool scenario_jump(Scenario *s, const Cluster *c, int micro_batch, const Mapping *m,
                   const Placement *p, int presses, char *err, size_t err_len)
{
    Snapshot next = snap_dup(&s->cur);
    next.c = *c;
    next.w.micro_batch = micro_batch;
    next.m = *m;
    placement_free(next.p);
    next.p = p ? placement_dup(p) : placement_for_machine(c);
    next.presses = presses;
    if (!next.p || !snap_eval_in(s, &next, err, err_len)) {
        snap_free(&next);
        return false;
    }
    for (int i = 0; i < s->n_undo; i++)
        snap_free(&s->undo[i]);
    s->n_undo = 0;
    snap_free(&s->cur);
    s->cur = next;
    return true;
}

/* --- serving ------------------------------------------------------------- */

bool scenario_set_serving(Scenario *s, ServeLoad load, char *err, size_t err_len)
{
    if (!s)
        return msg_fail(err, err_len, "no scenario");
    Snapshot cur = snap_dup(&s->cur), start = snap_dup(&s->start);
    if (!snap_eval_load(&cur, &load, err, err_len) ||
        !snap_eval_load(&start, &load, err, err_len)) {
        snap_free(&cur);
        snap_free(&start);
        return false;
    }
    snap_free(&s->cur);
    snap_free(&s->start);
    s->cur = cur;
    s->start = start;
    for (int i = 0; i < s->n_undo; i++)
        snap_free(&s->undo[i]);
    s->n_undo = 0;
    s->serving = true;
    s->load = load;
    return true;
}

const ServeResult *scenario_serve(const Scenario *s)
{
    return s && s->serving ? &s->cur.sr : NULL;
}

const ServeResult *scenario_serve_start(const Scenario *s)
{
    return s && s->serving ? &s->start.sr : NULL;
}

const ServeResult *scenario_serve_previous(const Scenario *s)
{
    if (!s || !s->serving)
        return NULL;
    return s->n_undo > 0 ? &s->undo[s->n_undo - 1].sr : &s->cur.sr;
}

bool scenario_serving_load(const Scenario *s, ServeLoad *load)
{
    if (!s || !s->serving)
        return false;
    if (load)
        *load = s->load;
    return true;
}
