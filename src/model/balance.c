/* SPDX-License-Identifier: MIT */
/* balance — a placement that splits tensor-parallel groups evenly between
 * scale-up domains (see balance.h for why).
 *
 * The search walks the domains in GPU order. Between two domains at most
 * two groups are split; the state after a domain is the parts those groups
 * still owe the next domain (none, one or two part sizes). A domain takes
 * what it is owed, some whole groups, and the first parts of the groups it
 * splits with the next one; every part is at least p ranks. Whether some
 * choice fills every domain exactly and owes nothing after the last is a
 * reachability question over (domain, state), answered for each p from t/2
 * down until one works; the moves that reached each state are kept so that
 * the placement can be read back.
 *
 * Pure: no I/O. Allocation through xmem.
 */
#include "model/balance.h"

#include "base/xmem.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BALANCE_MAX_TP    64        /* parts and states fit the packed moves below */
#define BALANCE_MAX_CELLS (1 << 20) /* domains x states kept: 4 MB */

/* How a state was reached: the state before (13 bits) and the first parts
 * a <= b of the groups split towards the next domain (0: none); -1: not. */
#define MOVE(prev, a, b) ((int32_t)((prev) | (a) << 13 | (b) << 20))
#define MOVE_PREV(m)     ((m)&0x1fff)
#define MOVE_A(m)        (((m) >> 13) & 0x7f)
#define MOVE_B(m)        (((m) >> 20) & 0x7f)

typedef struct {
    int n, d, t, domains;
    int states;    /* (t+1)^2: owed parts r1 <= r2 as r1*(t+1) + r2, 0 for none */
    int32_t *move; /* domains x states */
} Balance;

static int domain_cap(const Balance *b, int i)
{
    return i < b->domains - 1 ? b->d : b->n - b->d * (b->domains - 1);
}

/* The state that owes the rest of groups whose first parts are a <= b. */
static int owed_state(const Balance *b, int a, int c)
{
    int t = b->t;
    if (c == 0)
        return 0;
    if (a == 0)
        return t - c;
    return (t - c) * (t + 1) + (t - a);
}

/* One domain's moves from every state reached before it. */
static void expand_domain(Balance *b, int i, int p)
{
    assert(p >= 1); /* parts are whole GPUs: the packed moves hold no negative part */
    const int t = b->t, S = b->states, cap = domain_cap(b, i);
    const int32_t *before = i > 0 ? b->move + (size_t)(i - 1) * S : NULL;
    int32_t *row = b->move + (size_t)i * S;
    for (int st = 0; st < S; st++) {
        if (before ? before[st] < 0 : st != 0)
            continue;
        int owed = st / (t + 1) + st % (t + 1);
        /* first parts: none, one (c), or two (a <= c), each in [p, t - p] */
        for (int a = 0; a <= t - p; a = a ? a + 1 : p)
            for (int c = a ? a : 0; c <= t - p; c = c ? c + 1 : p) {
                if (a > 0 && c == 0)
                    continue;
                int rest = cap - owed - a - c; /* left for whole groups */
                if (rest < 0)
                    break;
                if (rest % t)
                    continue;
                int next = owed_state(b, a, c);
                if (i == b->domains - 1 && next != 0)
                    continue;
                if (row[next] < 0)
                    row[next] = MOVE(st, a, c);
            }
    }
}

static bool reachable(Balance *b, int p)
{
    memset(b->move, 0xff, (size_t)b->domains * b->states * sizeof *b->move);
    for (int i = 0; i < b->domains; i++)
        expand_domain(b, i, p);
    return b->move[(size_t)(b->domains - 1) * b->states] >= 0;
}

/* Reads the moves back and lays the groups out domain by domain: the parts
 * owed first, then the whole groups, then the first parts of the groups
 * split with the next domain. Group g holds ranks g*t .. g*t + t - 1. */
static void lay_out(const Balance *b, int *gpu_of_rank)
{
    const int t = b->t, S = b->states;
    int *first = xmem_alloc((size_t)b->domains * 2 * sizeof *first);
    for (int i = b->domains - 1, st = 0; i >= 0; i--) {
        int32_t m = b->move[(size_t)i * S + st];
        first[2 * i] = MOVE_A(m);
        first[2 * i + 1] = MOVE_B(m);
        st = MOVE_PREV(m);
    }
    int pend[2], done[2], n_pend = 0, next_group = 0;
    for (int i = 0; i < b->domains; i++) {
        int slot = i * b->d, cap = domain_cap(b, i), owed = 0;
        for (int k = 0; k < n_pend; k++) {
            for (int j = done[k]; j < t; j++)
                gpu_of_rank[pend[k] * t + j] = slot++;
            owed += t - done[k];
        }
        n_pend = 0;
        int a = first[2 * i], c = first[2 * i + 1];
        for (int w = (cap - owed - a - c) / t; w > 0; w--, next_group++)
            for (int j = 0; j < t; j++)
                gpu_of_rank[next_group * t + j] = slot++;
        int parts[2] = {a, c};
        for (int k = 0; k < 2; k++) {
            if (parts[k] == 0)
                continue;
            for (int j = 0; j < parts[k]; j++)
                gpu_of_rank[next_group * t + j] = slot++;
            pend[n_pend] = next_group++;
            done[n_pend++] = parts[k];
        }
    }
    free(first);
}

int balance_default_min_part(int n, int d, int t)
{
    int least = t;
    for (long long edge = d; t > 1 && d > 0 && edge < n; edge += d) {
        int f = (int)(edge % t), part = f < t - f ? f : t - f;
        if (f && part < least)
            least = part;
    }
    return least;
}

Placement *balance_tp_placement(int n, int d, int t, int *min_part)
{
    if (n < 1 || d < 1 || t < 2 || t >= d || d % t == 0 || n % t || t > BALANCE_MAX_TP || d >= n)
        return NULL;
    Balance b = {n, d, t, (n + d - 1) / d, (t + 1) * (t + 1), NULL};
    int beat = balance_default_min_part(n, d, t);
    if (beat >= t / 2 || (long long)b.domains * b.states > BALANCE_MAX_CELLS)
        return NULL;
    b.move = xmem_alloc((size_t)b.domains * b.states * sizeof *b.move);
    /* the largest p that works, by halving: a layout whose parts are all at
     * least p has them at least p - 1 too */
    int lo = beat, hi = t / 2; /* lo fails (it is the order's), the answer is in (lo, hi] */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (reachable(&b, mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    int p = lo;
    Placement *pl = NULL;
    if (p > beat && reachable(&b, p)) {
        int *gpu = xmem_alloc((size_t)n * sizeof *gpu);
        lay_out(&b, gpu);
        pl = placement_new(n);
        for (int r = 0; r < n; r++) /* ranks below r are home: gpu[r] holds a later one */
            placement_swap_gpus(pl, placement_gpu_of(pl, r), gpu[r]);
        free(gpu);
        if (min_part)
            *min_part = p;
    }
    free(b.move);
    return pl;
}

Placement *balance_job_placement(const Cluster *c, const Workload *w, const Mapping *m,
                                 const StepParams *params, int *min_part, StepResult *out)
{
    if (!c || !w || !m || mapping_world(m) != c->n_gpus)
        return NULL;
    int part = 0;
    Placement *p = balance_tp_placement(c->n_gpus, c->domain_gpus, m->tp, &part);
    if (!p)
        return NULL;
    StepResult flat, even;
    if (step_eval(c, w, m, NULL, params, &flat, NULL, 0) != STEP_OK ||
        step_eval(c, w, m, p, params, &even, NULL, 0) != STEP_OK || !(even.step_s < flat.step_s)) {
        placement_free(p);
        return NULL;
    }
    if (min_part)
        *min_part = part;
    if (out)
        *out = even;
    return p;
}
