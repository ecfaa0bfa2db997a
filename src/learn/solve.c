/* SPDX-License-Identifier: MIT */
/* solve — the par search (see solve.h).
 *
 * A node is one state: an interned cluster (the system and domain keys
 * change it), the micro-batch, the mapping and, when the search moves GPUs,
 * the GPU of every rank (as 16-bit ids in one pool). Its key hashes the
 * first three with, for every rank, the tier class of its GPU (domain, leaf
 * block, site, rail and whether it is up), by Zobrist hashing, so a swap or
 * a group move changes the key by a few XORs and a duplicate is dropped
 * before the model ever evaluates it; equal keys are confirmed by comparing
 * the classes rank by rank. A search without GPU moves needs no ranks: its
 * placement is the start's until a degree key resets it to the machine's
 * default (scenario.c), so one flag says which.
 *
 * Nodes are expanded from buckets by presses (uniform-cost search over
 * costs 1 to a few). A node is expanded by jumping a working scenario to it
 * (scenario_jump) and making each move there, undoing it after. The goal is
 * memoised by a hash of everything the goal's result table is made of (the
 * StepResult's values, field by field, and the cluster, mapping and
 * micro-batch).
 *
 * Pure: no I/O. Memory is freed before solve_scenario returns.
 */
#include "learn/solve.h"

#include "base/xmem.h"
#include "model/placement.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOLVE_MAX_CLUSTERS 4096
#define SOLVE_MAX_GPUS     65535 /* ids kept in 16 bits */

typedef struct {
    int parent;    /* node index, -1 for the root */
    int cost;      /* presses from the root */
    int cl;        /* interned cluster */
    int mb;        /* micro-batch */
    Mapping m;     /* mapping */
    long pool;     /* first GPU id in the pool, -1: no ranks kept */
    bool start_p;  /* no ranks kept: the start's placement (else the default) */
    bool met;      /* the goal is met here */
    uint64_t raw;  /* state key before nonzero(): a move's delta XORs into it */
    char move[48]; /* the move from the parent, as text */
    char keys[24]; /* and as keys */
} Node;

typedef struct {
    Cluster c;
    int *cls;  /* GPU -> tier class */
    int n_cls; /* classes */
} Interned;

typedef struct {
    uint64_t *keys; /* 0: empty */
    int *vals;
    long cap, n;
} Table;

typedef struct {
    const Scenario *origin;
    Scenario *ws; /* the working copy */
    const SolveLimits *lim;
    SolveGoal goal;
    void *ctx;
    SolveResult *out;
    unsigned allow; /* the moves searched */
    bool ranks;     /* nodes keep the GPU of every rank */
    int world, machine;
    Node *nodes;
    long n_nodes, cap_nodes;
    uint16_t *pool;
    long n_pool, cap_pool;
    Interned *cl;
    int n_cl;
    Table states, memo;
    long **bucket; /* per cost: node indices */
    long *bucket_n, *bucket_cap;
    int best; /* node index of the cheapest solution, -1 none */
    bool stop;
    /* scratch: the placement of the node being expanded, its group heads,
     * a group move's plan, and the placement of a child */
    int *gpu_of, *rank_on, *from, *to, *heads, *child_gpu;
} Search;

/* ---- hashing -------------------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    /* splitmix64's finaliser (Steele, Lea, Flood 2014): a bijection that
     * spreads every input bit */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static uint64_t zob(int rank, int cls)
{
    return mix64(((uint64_t)(unsigned)rank << 32 | (unsigned)cls) + 0x9e3779b97f4a7c15ULL);
}

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* FNV-1a over whole ints (an int array read as bytes is what clang's
 * analyzer cannot follow). */
static uint64_t fnv_ints(const int *v, int n)
{
    uint64_t h = 14695981039346656037ULL;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint64_t)(unsigned)v[i]) * 1099511628211ULL;
    return h;
}

static uint64_t base_key(int cl, int mb, const Mapping *m)
{
    int v[10] = {cl, mb, m->tp, m->cp, m->pp, m->dp, m->ep, m->interleave, m->zero, m->etp};
    return fnv_ints(v, 10);
}

/* ---- tables (open addressing, 64-bit keys, 0 never a key) ----------------- */

static uint64_t nonzero(uint64_t k)
{
    return k ? k : 1;
}

static void table_grow(Table *t)
{
    long cap = t->cap ? t->cap * 2 : 1024;
    uint64_t *keys = xmem_calloc((size_t)cap, sizeof *keys);
    int *vals = xmem_alloc((size_t)cap * sizeof *vals);
    for (long i = 0; i < t->cap; i++) {
        if (!t->keys[i])
            continue;
        long j = (long)(t->keys[i] & (uint64_t)(cap - 1));
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = t->keys[i];
        vals[j] = t->vals[i];
    }
    free(t->keys);
    free(t->vals);
    t->keys = keys;
    t->vals = vals;
    t->cap = cap;
}

/* The slot of key k: where it is, or where it would go. */
static long table_slot(Table *t, uint64_t k)
{
    if (2 * (t->n + 1) > t->cap)
        table_grow(t);
    long j = (long)(k & (uint64_t)(t->cap - 1));
    while (t->keys[j] && t->keys[j] != k)
        j = (j + 1) & (t->cap - 1);
    return j;
}

static void table_free(Table *t)
{
    free(t->keys);
    free(t->vals);
}

/* ---- clusters ------------------------------------------------------------- */

/* The tier class of every GPU of c: GPUs in the same domain, leaf block,
 * site and rail, and up or down alike, share one. */
static void intern_classes(Interned *in)
{
    const Cluster *c = &in->c;
    int n = cluster_machine_gpus(c);
    in->cls = xmem_alloc((size_t)n * sizeof *in->cls);
    in->n_cls = 0;
    Table seen = {0};
    int(*tuple)[5] = NULL; /* class -> its tiers */
    int prev[5] = {-2, -2, -2, -2, -2};
    for (int g = 0; g < n; g++) {
        int t[5] = {cluster_domain_of(c, g), cluster_leaf_block_of(c, g), cluster_site_of(c, g),
                    cluster_rail_of(c, g), cluster_gpu_state(c, g) != CLUSTER_GPU_UP};
        if (g > 0 && memcmp(t, prev, sizeof t) == 0) { /* a run: the common case */
            in->cls[g] = in->cls[g - 1];
            continue;
        }
        memcpy(prev, t, sizeof t);
        uint64_t k = nonzero(fnv_ints(t, 5));
        long j = table_slot(&seen, k);
        while (seen.keys[j] == k && memcmp(tuple[seen.vals[j]], t, sizeof t) != 0)
            j = (j + 1) & (seen.cap - 1);
        if (seen.keys[j] != k) {
            while (seen.keys[j]) /* a clash of keys ended the probe on a full slot */
                j = (j + 1) & (seen.cap - 1);
            tuple = xmem_realloc(tuple, (size_t)(in->n_cls + 1) * sizeof *tuple);
            memcpy(tuple[in->n_cls], t, sizeof t);
            seen.keys[j] = k;
            seen.vals[j] = in->n_cls++;
            seen.n++;
        }
        in->cls[g] = seen.vals[j];
    }
    free(tuple);
    table_free(&seen);
}

static int intern(Search *S, const Cluster *c)
{
    for (int i = 0; i < S->n_cl; i++)
        if (memcmp(&S->cl[i].c, c, sizeof *c) == 0)
            return i;
    if (S->n_cl == SOLVE_MAX_CLUSTERS)
        return -1;
    S->cl = xmem_realloc(S->cl, (size_t)(S->n_cl + 1) * sizeof *S->cl);
    Interned *in = &S->cl[S->n_cl];
    memset(in, 0, sizeof *in);
    in->c = *c;
    if (S->ranks)
        intern_classes(in);
    return S->n_cl++;
}

/* ---- nodes ---------------------------------------------------------------- */

static uint64_t ranks_key(const Search *S, int cl, const int *gpu_of)
{
    uint64_t h = 0;
    const int *cls = S->cl[cl].cls;
    for (int r = 0; r < S->world; r++)
        h ^= zob(r, cls[gpu_of[r]]);
    return h;
}

/* The key of a state: its cluster, micro-batch and mapping, and the ranks'
 * classes (ranks kept) or the placement flag. */
static uint64_t state_key(const Search *S, int cl, int mb, const Mapping *m, const int *gpu_of,
                          bool start_p)
{
    uint64_t k = base_key(cl, mb, m);
    return S->ranks ? k ^ ranks_key(S, cl, gpu_of) : k ^ (start_p ? 0x5bd1e995 : 0);
}

/* Whether node a holds the same state as (cl, mb, m, gpu_of / start_p). */
static bool same_state(const Search *S, const Node *a, int cl, int mb, const Mapping *m,
                       const int *gpu_of, bool start_p)
{
    if (a->cl != cl || a->mb != mb || memcmp(&a->m, m, sizeof *m) != 0)
        return false;
    if (!S->ranks)
        return a->start_p == start_p;
    const int *cls = S->cl[cl].cls;
    for (int r = 0; r < S->world; r++)
        if (cls[S->pool[a->pool + r]] != cls[gpu_of[r]])
            return false;
    return true;
}

/* The node of the state with raw key raw, -1 when it is new. */
static long find_node(Search *S, uint64_t raw, int cl, int mb, const Mapping *m, const int *gpu_of,
                      bool start_p)
{
    uint64_t k = nonzero(raw);
    for (long j = table_slot(&S->states, k); S->states.keys[j]; j = (j + 1) & (S->states.cap - 1))
        if (S->states.keys[j] == k &&
            same_state(S, &S->nodes[S->states.vals[j]], cl, mb, m, gpu_of, start_p))
            return S->states.vals[j];
    return -1;
}

static void bucket_push(Search *S, int cost, long node)
{
    if (S->bucket_n[cost] == S->bucket_cap[cost]) {
        S->bucket_cap[cost] = S->bucket_cap[cost] ? 2 * S->bucket_cap[cost] : 64;
        S->bucket[cost] =
            xmem_realloc(S->bucket[cost], (size_t)S->bucket_cap[cost] * sizeof **S->bucket);
    }
    S->bucket[cost][S->bucket_n[cost]++] = node;
}

/* Stores a new node under its raw key. */
static long add_node(Search *S, const Node *proto, uint64_t raw, const int *gpu_of)
{
    uint64_t k = nonzero(raw);
    if (S->n_nodes == S->cap_nodes) {
        S->cap_nodes = S->cap_nodes ? 2 * S->cap_nodes : 1024;
        S->nodes = xmem_realloc(S->nodes, (size_t)S->cap_nodes * sizeof *S->nodes);
    }
    long i = S->n_nodes++;
    S->nodes[i] = *proto;
    S->nodes[i].raw = raw;
    S->nodes[i].pool = -1;
    if (S->ranks) {
        if (S->n_pool + S->world > S->cap_pool) {
            S->cap_pool = S->cap_pool ? 2 * S->cap_pool : 64L * S->world;
            S->pool = xmem_realloc(S->pool, (size_t)S->cap_pool * sizeof *S->pool);
        }
        S->nodes[i].pool = S->n_pool;
        for (int r = 0; r < S->world; r++)
            S->pool[S->n_pool + r] = (uint16_t)gpu_of[r];
        S->n_pool += S->world;
    }
    long j = table_slot(&S->states, k);
    while (S->states.keys[j])
        j = (j + 1) & (S->states.cap - 1);
    S->states.keys[j] = k;
    S->states.vals[j] = (int)i;
    S->states.n++;
    bucket_push(S, proto->cost, i);
    return i;
}

/* ---- the goal ------------------------------------------------------------- */

static uint64_t fnv_num(uint64_t h, double v)
{
    return fnv(h, &v, sizeof v);
}

static uint64_t fnv_nums(uint64_t h, const double *v, int n)
{
    for (int i = 0; i < n; i++)
        h = fnv_num(h, v[i]);
    return h;
}

/* What a goal's r is made of (lesson_api_push_result), value by value: the
 * structs' padding is never written, so their bytes are not a key. */
static uint64_t step_key(uint64_t h, const StepResult *r)
{
    double v[] = {r->step_s,
                  r->optimizer_s,
                  r->tokens_per_s,
                  r->tflops_per_gpu,
                  r->hw_tflops_per_gpu,
                  r->mfu,
                  r->micro_batches,
                  r->mem_weights,
                  r->mem_grads,
                  r->mem_optimizer,
                  r->mem_activations,
                  r->mem_per_gpu_bytes,
                  r->hbm_bytes,
                  r->fits,
                  r->bottleneck_part,
                  r->bottleneck_tier};
    h = fnv_nums(h, v, (int)(sizeof v / sizeof v[0]));
    h = fnv_nums(h, r->part_s, STEP_PART_COUNT);
    h = fnv_nums(h, r->tier_bytes, TIER_COUNT);
    for (int d = 0; d < DIM_COUNT; d++) {
        const GroupSpan *g = &r->span[d];
        double s[] = {g->size, g->domains, g->min_per_domain, g->sites, g->crosses_leaf};
        h = fnv_nums(h, s, 5);
    }
    return fnv(h, r->bottleneck, strlen(r->bottleneck));
}

/* What a serving goal's result is made of (lesson_api_push_serve). */
static uint64_t serve_key(uint64_t h, const ServeResult *r)
{
    double v[] = {r->token_s,      r->tokens_per_s, r->user_tokens_per_s, r->replicas,
                  r->weight_bytes, r->kv_bytes,     r->mem_per_gpu_bytes, r->hbm_bytes,
                  r->fits,         r->tp_domains,   r->bottleneck};
    h = fnv_nums(h, v, (int)(sizeof v / sizeof v[0]));
    return fnv_nums(h, r->part_s, SERVE_PART_COUNT);
}

/* The goal of the working scenario's state, memoised by its result. */
static int goal_of(Search *S, int cl)
{
    const Scenario *ws = S->ws;
    uint64_t h = base_key(cl, scenario_workload(ws)->micro_batch, scenario_mapping(ws));
    h = step_key(h, scenario_result(ws));
    const ServeResult *sr = scenario_serve(ws);
    if (sr)
        h = serve_key(h, sr);
    const Placement *p = scenario_placement(ws);
    for (int r = 0; S->lim->goal_reads_placement && r < placement_size(p); r++) {
        int g = placement_gpu_of(p, r);
        h = fnv(h, &g, sizeof g);
    }
    h = nonzero(h);
    long j = table_slot(&S->memo, h);
    if (S->memo.keys[j] == h)
        return S->memo.vals[j];
    int met = S->goal(S->ctx, ws, S->out->err, sizeof S->out->err);
    S->out->goal_calls++;
    j = table_slot(&S->memo, h);
    S->memo.keys[j] = h;
    S->memo.vals[j] = met;
    S->memo.n++;
    return met;
}

static void note_met(Search *S, long i)
{
    if (S->nodes[i].met && (S->best < 0 || S->nodes[i].cost < S->nodes[S->best].cost))
        S->best = (int)i;
}

/* ---- children ------------------------------------------------------------- */

/* The working scenario's state as the child of node `parent` by the move
 * just made (its presses are the scenario's own count: scenario_presses): a
 * new node (with its goal run) unless the state is known at no more
 * presses; known at more, it is moved to its cheaper place. */
static void child(Search *S, long parent, const char *move, const char *keys)
{
    const Scenario *ws = S->ws;
    int c = scenario_presses(ws);
    if (c > S->lim->max_presses)
        return;
    int cl = intern(S, scenario_cluster(ws));
    if (cl < 0) {
        msg_set(S->out->err, sizeof S->out->err, "more than %d clusters", SOLVE_MAX_CLUSTERS);
        S->out->status = SOLVE_BOUND;
        S->stop = true;
        return;
    }
    const Placement *p = scenario_placement(ws);
    for (int r = 0; S->ranks && r < S->world; r++)
        S->child_gpu[r] = placement_gpu_of(p, r);
    const Node *par = &S->nodes[parent];
    /* without ranks kept: a degree key resets the placement (scenario.c) */
    bool start_p = par->start_p && memcmp(&par->m, scenario_mapping(ws), sizeof par->m) == 0;
    int mb = scenario_workload(ws)->micro_batch;
    const Mapping *m = scenario_mapping(ws);
    uint64_t key = state_key(S, cl, mb, m, S->child_gpu, start_p);
    long old = find_node(S, key, cl, mb, m, S->child_gpu, start_p);
    if (old >= 0) {
        Node *o = &S->nodes[old];
        if (o->cost <= c)
            return;
        o->cost = c; /* cheaper now: its old bucket entry is skipped */
        o->parent = (int)parent;
        snprintf(o->move, sizeof o->move, "%s", move);
        snprintf(o->keys, sizeof o->keys, "%s", keys);
        bucket_push(S, c, old);
        note_met(S, old);
        return;
    }
    if (S->n_nodes >= S->lim->max_states) {
        msg_set(S->out->err, sizeof S->out->err, "the search keeps at most %ld states",
                S->lim->max_states);
        S->out->status = SOLVE_BOUND;
        S->stop = true;
        return;
    }
    Node n;
    memset(&n, 0, sizeof n);
    n.parent = (int)parent;
    n.cost = c;
    n.cl = cl;
    n.mb = mb;
    n.m = *m;
    n.start_p = start_p;
    snprintf(n.move, sizeof n.move, "%s", move);
    snprintf(n.keys, sizeof n.keys, "%s", keys);
    long i = add_node(S, &n, key, S->child_gpu);
    int met = goal_of(S, cl);
    if (met < 0) {
        S->out->status = SOLVE_ERROR;
        S->stop = true;
        return;
    }
    S->nodes[i].met = met > 0;
    note_met(S, i);
}

static void key_children(Search *S, long node)
{
    for (int k = 0; k < SCN_KEY_COUNT && !S->stop; k++) {
        if (!(scenario_key_allow((ScenarioKey)k) & S->allow))
            continue;
        char err[MSG_LEN], move[48], keys[4] = {scenario_key_char((ScenarioKey)k), 0};
        if (!scenario_press(S->ws, (ScenarioKey)k, err, sizeof err))
            continue;
        scenario_key_move_text(S->ws, (ScenarioKey)k, move, sizeof move);
        child(S, node, move, keys);
        scenario_undo(S->ws);
    }
}

/* Applies a swap of two GPUs to the scratch placement; returns the change
 * of the ranks' key. Applying it again takes it back. */
static uint64_t scratch_swap(Search *S, const int *cls, int a, int b)
{
    uint64_t d = 0;
    int ra = S->rank_on[a], rb = S->rank_on[b];
    if (ra >= 0) {
        d ^= zob(ra, cls[a]) ^ zob(ra, cls[b]);
        S->gpu_of[ra] = b;
    }
    if (rb >= 0) {
        d ^= zob(rb, cls[b]) ^ zob(rb, cls[a]);
        S->gpu_of[rb] = a;
    }
    S->rank_on[a] = rb;
    S->rank_on[b] = ra;
    return d;
}

/* Whether the scratch placement, reached from node by a move of `cost`
 * presses that changed the ranks' key by delta, is a state already known at
 * no more presses: then the move need not be evaluated. */
static bool known_after(Search *S, long node, uint64_t delta, int cost)
{
    const Node *n = &S->nodes[node];
    if (n->cost + cost > S->lim->max_presses)
        return true;
    long old = find_node(S, n->raw ^ delta, n->cl, n->mb, &n->m, S->gpu_of, n->start_p);
    return old >= 0 && S->nodes[old].cost <= n->cost + cost;
}

/* One group move: group of gpu (kind d) to `at`, if it makes a new state. */
static void group_child(Search *S, long node, MappingDim d, int gpu, int at)
{
    int presses = scenario_group_presses(S->ws, d);
    char err[MSG_LEN];
    int n = scenario_group_plan(S->ws, gpu, d, at, S->from, S->to, err, sizeof err);
    if (n < 0)
        return;
    const int *cls = S->cl[S->nodes[node].cl].cls;
    uint64_t delta = 0;
    for (int k = 0; k < n; k++)
        delta ^= scratch_swap(S, cls, S->from[k], S->to[k]);
    bool known = known_after(S, node, delta, presses);
    for (int k = n - 1; k >= 0; k--) /* back as it was */
        scratch_swap(S, cls, S->from[k], S->to[k]);
    if (known || !scenario_move_group(S->ws, gpu, d, at, err, sizeof err))
        return;
    char move[48], keys[24] = "", dim[4];
    snprintf(dim, sizeof dim, "%s", mapping_dim_name(d));
    for (char *c = dim; *c; c++)
        *c = (char)(*c - 'A' + 'a');
    snprintf(move, sizeof move, "group %s %d to %d", dim, gpu, at);
    for (int k = 1; k < presses; k++)
        strcat(keys, "g ");
    strcat(keys, "Enter");
    child(S, node, move, keys);
    scenario_undo(S->ws);
}

static void group_children(Search *S, long node)
{
    const Scenario *ws = S->ws;
    const Mapping *m = scenario_mapping(ws);
    const Cluster *c = scenario_cluster(ws);
    MappingDim dims[4];
    int nd = scenario_pick_cycle(ws, dims, 4), domains = cluster_domain_count(c);
    for (int i = 0; i < nd && !S->stop; i++) {
        MappingDim d = dims[i];
        int nh = 0;
        for (int r = 0; r < S->world; r++) /* one head rank per group */
            if (mapping_coord(m, r, d) == 0)
                S->heads[nh++] = r;
        for (int h = 0; h < nh && !S->stop; h++) {
            int gx = S->gpu_of[S->heads[h]];
            /* trades with every later group (a trade is symmetric) */
            for (int q = h + 1; q < nh && !S->stop; q++)
                group_child(S, node, d, gx, S->gpu_of[S->heads[q]]);
            /* gathered into each domain with a free GPU (scenario.c
             * refuses it when there are too few) */
            for (int dom = 0; dom < domains && !S->stop; dom++) {
                int first = cluster_domain_first(c, dom), n = cluster_domain_size(c, dom);
                int at = -1;
                for (int g = first; g < first + n && at < 0; g++)
                    if (S->rank_on[g] < 0 && cluster_gpu_state(c, g) == CLUSTER_GPU_UP)
                        at = g;
                if (at >= 0)
                    group_child(S, node, d, gx, at);
            }
        }
    }
}

/* Swaps of single GPUs: every rank with every rank or free GPU of another
 * class (one free GPU stands for its class). */
static void swap_children(Search *S, long node)
{
    const Cluster *c = scenario_cluster(S->ws);
    const int *cls = S->cl[S->nodes[node].cl].cls;
    int n_cls = S->cl[S->nodes[node].cl].n_cls;
    int *free_of = xmem_alloc((size_t)n_cls * sizeof *free_of);
    for (int k = 0; k < n_cls; k++)
        free_of[k] = -1;
    for (int g = 0; g < S->machine; g++)
        if (S->rank_on[g] < 0 && cluster_gpu_state(c, g) == CLUSTER_GPU_UP && free_of[cls[g]] < 0)
            free_of[cls[g]] = g;
    for (int a = 0; a < S->machine && !S->stop; a++) {
        if (S->rank_on[a] < 0)
            continue;
        for (int b = 0; b < S->machine && !S->stop; b++) {
            bool other_rank = S->rank_on[b] >= 0 && b > a;
            bool free_rep = S->rank_on[b] < 0 && free_of[cls[b]] == b;
            if ((!other_rank && !free_rep) || cls[a] == cls[b])
                continue;
            uint64_t delta = scratch_swap(S, cls, a, b);
            bool known = known_after(S, node, delta, SCN_SWAP_PRESSES);
            scratch_swap(S, cls, a, b);
            char err[MSG_LEN];
            if (known || !scenario_swap_gpus(S->ws, a, b, err, sizeof err))
                continue;
            char move[48];
            snprintf(move, sizeof move, "swap %d %d", a, b);
            child(S, node, move, "Space Enter");
            scenario_undo(S->ws);
        }
    }
    free(free_of);
}

/* Jumps the working scenario to node and makes every move from there. */
static void expand(Search *S, long node)
{
    const Node *n = &S->nodes[node];
    Placement *p = NULL;
    if (S->ranks) {
        for (int g = 0; g < S->machine; g++)
            S->rank_on[g] = -1;
        for (int r = 0; r < S->world; r++) {
            S->gpu_of[r] = S->pool[n->pool + r];
            S->rank_on[S->gpu_of[r]] = r;
        }
        p = placement_from(S->world, S->machine, S->gpu_of);
    } else if (n->start_p) {
        p = placement_dup(scenario_placement(S->origin));
    }
    char err[MSG_LEN];
    bool ok = scenario_jump(S->ws, &S->cl[n->cl].c, n->mb, &n->m, p, n->cost, err, sizeof err);
    placement_free(p);
    if (!ok)
        return; /* every node was legal when it was made */
    key_children(S, node);
    if (S->ranks && (S->allow & (SCN_ALLOW_MOVE | SCN_ALLOW_GROUPS)))
        group_children(S, node);
    if (S->ranks && (S->allow & SCN_ALLOW_MOVE))
        swap_children(S, node);
}

/* ---- the search ----------------------------------------------------------- */

SolveLimits solve_limits_default(const Scenario *s)
{
    SolveLimits l = {scenario_allowed(s) & ~SCN_ALLOW_SEARCH, 12, 200000, false};
    return l;
}

static void solution(Search *S)
{
    if (!S->nodes || S->best < 0)
        return;
    SolveResult *out = S->out;
    out->presses = S->nodes[S->best].cost;
    int len = 0;
    for (long i = S->best; S->nodes[i].parent >= 0; i = S->nodes[i].parent)
        len++;
    out->n_moves = len < SOLVE_MAX_MOVES ? len : SOLVE_MAX_MOVES;
    int k = len;
    for (long i = S->best; S->nodes[i].parent >= 0; i = S->nodes[i].parent) {
        if (--k < SOLVE_MAX_MOVES) {
            snprintf(out->moves[k], sizeof out->moves[k], "%s", S->nodes[i].move);
            snprintf(out->keys[k], sizeof out->keys[k], "%s", S->nodes[i].keys);
        }
    }
}

static void search_free(Search *S)
{
    scenario_free(S->ws);
    for (int i = 0; i < S->n_cl; i++)
        free(S->cl[i].cls);
    free(S->cl);
    free(S->nodes);
    free(S->pool);
    table_free(&S->states);
    table_free(&S->memo);
    for (int c = 0; S->bucket && c <= S->lim->max_presses; c++)
        free(S->bucket[c]);
    free(S->bucket);
    free(S->bucket_n);
    free(S->bucket_cap);
    free(S->gpu_of);
    free(S->rank_on);
    free(S->from);
    free(S->heads);
    free(S->child_gpu);
}

/* Whether s's placement is its machine's default (the flag of a search
 * without ranks then says "default" from the start). */
static bool placed_by_default(const Scenario *s)
{
    Placement *home = placement_for_machine(scenario_cluster(s));
    const Placement *p = scenario_placement(s);
    bool same = home && placement_gpus(home) == placement_gpus(p);
    for (int r = 0; same && r < placement_size(p); r++)
        same = placement_gpu_of(home, r) == placement_gpu_of(p, r);
    placement_free(home);
    return same;
}

/* Sets up the root; false when the search cannot start (out says why). */
static bool search_init(Search *S, const Scenario *s)
{
    const Cluster *c = scenario_cluster(s);
    S->world = c->n_gpus;
    S->machine = cluster_machine_gpus(c);
    S->ranks = (S->allow & (SCN_ALLOW_MOVE | SCN_ALLOW_GROUPS)) != 0;
    if (S->ranks && S->machine > SOLVE_MAX_GPUS) {
        msg_set(S->out->err, sizeof S->out->err,
                "%d GPUs are too many for the search of GPU moves (at most %d)", S->machine,
                SOLVE_MAX_GPUS);
        S->out->status = SOLVE_BOUND;
        return false;
    }
    int np = S->lim->max_presses + 1;
    S->bucket = xmem_calloc((size_t)np, sizeof *S->bucket);
    S->bucket_n = xmem_calloc((size_t)np, sizeof *S->bucket_n);
    S->bucket_cap = xmem_calloc((size_t)np, sizeof *S->bucket_cap);
    S->gpu_of = xmem_alloc((size_t)S->world * sizeof *S->gpu_of);
    S->child_gpu = xmem_alloc((size_t)S->world * sizeof *S->child_gpu);
    S->heads = xmem_alloc((size_t)S->world * sizeof *S->heads);
    S->rank_on = xmem_alloc((size_t)S->machine * sizeof *S->rank_on);
    S->from = xmem_alloc(2 * (size_t)S->world * sizeof *S->from);
    S->to = S->from + S->world;
    S->ws = scenario_clone(s);
    S->best = -1;
    const Placement *p = scenario_placement(s);
    for (int r = 0; r < S->world; r++)
        S->gpu_of[r] = placement_gpu_of(p, r);
    Node root;
    memset(&root, 0, sizeof root);
    root.parent = -1;
    root.cl = intern(S, c);
    root.mb = scenario_workload(s)->micro_batch;
    root.m = *scenario_mapping(s);
    root.start_p = !placed_by_default(s);
    uint64_t key = state_key(S, root.cl, root.mb, &root.m, S->gpu_of, root.start_p);
    long i = add_node(S, &root, key, S->gpu_of);
    int met = goal_of(S, root.cl);
    if (met < 0) {
        S->out->status = SOLVE_ERROR;
        return false;
    }
    S->nodes[i].met = met > 0;
    note_met(S, i);
    return true;
}

/* Expands bucket by bucket. Invariant at the top of round c: every state
 * of at most c presses has been made and its goal run (the parents of a
 * state of c presses cost less, and every cheaper bucket was expanded). */
static void search_run(Search *S)
{
    SolveResult *out = S->out;
    for (int c = 0;; c++) {
        out->proved = c;
        if (S->best >= 0 && S->nodes[S->best].cost <= c)
            return;
        if (c == S->lim->max_presses)
            return;
        for (long i = 0; i < S->bucket_n[c] && !S->stop; i++) {
            long node = S->bucket[c][i];
            if (S->nodes[node].cost == c) /* else it moved to a cheaper bucket */
                expand(S, node);
        }
        if (S->stop)
            return;
    }
}

void solve_scenario(const Scenario *s, const SolveLimits *lim, SolveGoal goal, void *ctx,
                    SolveResult *out)
{
    memset(out, 0, sizeof *out);
    out->status = SOLVE_NONE;
    if (!s || !lim || !goal || lim->max_presses < 0 || lim->max_presses > 200 ||
        lim->max_states < 1) {
        out->status = SOLVE_ERROR;
        msg_set(out->err, sizeof out->err, "the search needs a scenario, limits and a goal");
        return;
    }
    Search S;
    memset(&S, 0, sizeof S);
    S.origin = s;
    S.lim = lim;
    S.goal = goal;
    S.ctx = ctx;
    S.out = out;
    S.allow = lim->allow & scenario_allowed(s) & ~SCN_ALLOW_SEARCH;
    if (search_init(&S, s))
        search_run(&S);
    if (S.best >= 0 && out->status != SOLVE_ERROR) {
        solution(&S);
        /* the cheapest solution is proved when every cheaper state was
         * tried, also when the bound stopped the search after it */
        out->status = out->presses <= out->proved ? SOLVE_FOUND : SOLVE_BOUND;
    }
    out->states = S.n_nodes;
    search_free(&S);
}

char *solve_format(const SolveResult *r, char *buf, size_t n)
{
    if (!buf || n == 0)
        return buf;
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; r && i < r->n_moves && used < n; i++) {
        int w =
            snprintf(buf + used, n - used, "%s%s (%s)", i ? ", " : "", r->moves[i], r->keys[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    if (r && r->n_moves == 0 && n > 0)
        snprintf(buf, n, "nothing: the goal is met at the start");
    return buf;
}

/* xorshift32: a small, portable, seeded sequence (not for secrets). */
static unsigned mash_next(unsigned *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* One walk from s: true when the goal is met on the way; -1 on error. */
static int mash_walk(const Scenario *s, const ScenarioKey *keys, int n_keys, int presses,
                     unsigned *rng, SolveGoal goal, void *ctx, SolveMash *out)
{
    Scenario *w = scenario_clone(s);
    int met = 0;
    for (int p = 0; p < presses && met == 0; p++) {
        /* a random key until one is taken (each key the state takes as
         * likely), then, not to give up by chance, every key in turn */
        bool pressed = false;
        char err[MSG_LEN];
        for (int i = 0; i < 8 * n_keys && !pressed; i++)
            pressed = scenario_press(w, keys[mash_next(rng) % (unsigned)n_keys], err, sizeof err);
        for (int i = 0; i < n_keys && !pressed; i++)
            pressed = scenario_press(w, keys[i], err, sizeof err);
        if (!pressed)
            break; /* nothing this state allows */
        out->goal_calls++;
        met = goal(ctx, w, out->err, sizeof out->err);
    }
    scenario_free(w);
    return met;
}

void solve_mash(const Scenario *s, int walks, int presses, unsigned seed, SolveGoal goal,
                void *ctx, SolveMash *out)
{
    memset(out, 0, sizeof *out);
    out->walks = walks;
    out->presses = presses;
    out->status = SOLVE_FOUND;
    ScenarioKey keys[SCN_KEY_COUNT];
    int n_keys = 0;
    unsigned lazy = SCN_ALLOW_DEGREES | SCN_ALLOW_MICRO | SCN_ALLOW_DOMAIN | SCN_ALLOW_SYSTEM;
    for (int k = 0; s && k < SCN_KEY_COUNT; k++)
        if (scenario_key_allow((ScenarioKey)k) & scenario_allowed(s) & lazy)
            keys[n_keys++] = (ScenarioKey)k;
    unsigned rng = seed ? seed : 1;
    for (int i = 0; n_keys > 0 && i < walks; i++) {
        int met = mash_walk(s, keys, n_keys, presses, &rng, goal, ctx, out);
        if (met < 0) {
            out->status = SOLVE_ERROR;
            return;
        }
        out->met += met;
    }
}
