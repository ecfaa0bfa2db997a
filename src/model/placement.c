/* SPDX-License-Identifier: MIT */
/* placement — which GPU runs which rank: the identity (rank r on GPU r) until
 * GPUs are swapped, kept as two inverse permutations plus the list of moved
 * ranks, so "is it the default?" and "which ranks moved?" cost nothing.
 *
 * Also the work memory that exact spans of an explicit placement use
 * (placement_work.h): it belongs to the placement so that an evaluation
 * allocates nothing after the first, and swaps keep its caches in step.
 *
 * Pure: no I/O. Allocation through xmem; placement_free accepts NULL.
 */
#include "model/placement_work.h"

#include "base/xmem.h"
#include "model/cluster.h"

#include <stdlib.h>
#include <string.h>

static void work_free(PlacementWork *sc);
static void work_moved(PlacementWork *sc, int rank, int gpu);
static void work_hand_over(Placement *to, const Placement *from);

/* n_ranks ranks over n_gpus GPUs, rank r on GPU r (the rest free). */
static Placement *placement_alloc(int n_ranks, int n_gpus)
{
    if (n_ranks < 1 || n_ranks > CLUSTER_MAX_GPUS || n_gpus < n_ranks || n_gpus > CLUSTER_MAX_GPUS)
        return NULL;
    Placement *p = xmem_alloc(sizeof *p);
    p->n = n_ranks;
    p->slots = n_gpus;
    p->moved = 0;
    p->gpu_of = xmem_alloc((size_t)n_ranks * sizeof *p->gpu_of);
    p->rank_on = xmem_alloc((size_t)n_gpus * sizeof *p->rank_on);
    p->moved_list = xmem_alloc((size_t)n_ranks * sizeof *p->moved_list);
    p->moved_pos = xmem_alloc((size_t)n_ranks * sizeof *p->moved_pos);
    p->scratch = NULL;
    for (int i = 0; i < n_ranks; i++) {
        p->gpu_of[i] = p->rank_on[i] = i;
        p->moved_pos[i] = -1;
    }
    for (int g = n_ranks; g < n_gpus; g++)
        p->rank_on[g] = -1;
    return p;
}

Placement *placement_new(int n_ranks)
{
    return placement_alloc(n_ranks, n_ranks);
}

static void placement_track(Placement *p, int r);

Placement *placement_for_machine(const Cluster *c)
{
    if (!c || cluster_usable_gpus(c) < c->n_gpus)
        return NULL;
    Placement *p = placement_alloc(c->n_gpus, cluster_machine_gpus(c));
    if (!p || c->n_down == 0)
        return p;
    for (int g = 0; g < p->slots; g++)
        p->rank_on[g] = -1;
    for (int r = 0; r < p->n; r++) {
        int g = cluster_nth_usable(c, r);
        p->gpu_of[r] = g;
        p->rank_on[g] = r;
        placement_track(p, r);
    }
    return p;
}

/* Keeps rank r's membership of the moved list in step with gpu_of. */
static void placement_track(Placement *p, int r)
{
    bool moved = p->gpu_of[r] != r;
    if (moved && p->moved_pos[r] < 0) {
        p->moved_pos[r] = p->moved;
        p->moved_list[p->moved++] = r;
    } else if (!moved && p->moved_pos[r] >= 0) {
        int at = p->moved_pos[r], last = p->moved_list[--p->moved];
        p->moved_list[at] = last;
        p->moved_pos[last] = at;
        p->moved_pos[r] = -1;
    }
}

Placement *placement_from(int n_ranks, int n_gpus, const int *gpu_of)
{
    Placement *p = placement_alloc(n_ranks, n_gpus);
    if (!p || !gpu_of)
        return p;
    for (int g = 0; g < n_gpus; g++)
        p->rank_on[g] = -1;
    for (int r = 0; r < n_ranks; r++) {
        int g = gpu_of[r];
        if (g < 0 || g >= n_gpus || p->rank_on[g] >= 0) {
            placement_free(p);
            return NULL;
        }
        p->gpu_of[r] = g;
        p->rank_on[g] = r;
    }
    p->moved = 0;
    for (int r = 0; r < n_ranks; r++) {
        p->moved_pos[r] = -1;
        placement_track(p, r);
    }
    return p;
}

Placement *placement_dup(const Placement *p)
{
    if (!p)
        return NULL;
    Placement *q = placement_alloc(p->n, p->slots);
    if (!q)
        return NULL;
    q->moved = p->moved;
    memcpy(q->gpu_of, p->gpu_of, (size_t)p->n * sizeof *q->gpu_of);
    memcpy(q->rank_on, p->rank_on, (size_t)p->slots * sizeof *q->rank_on);
    memcpy(q->moved_list, p->moved_list, (size_t)p->n * sizeof *q->moved_list);
    memcpy(q->moved_pos, p->moved_pos, (size_t)p->n * sizeof *q->moved_pos);
    work_hand_over(q, p);
    return q;
}

void placement_free(Placement *p)
{
    if (!p)
        return;
    free(p->gpu_of);
    free(p->rank_on);
    free(p->moved_list);
    free(p->moved_pos);
    work_free(p->scratch);
    free(p);
}

int placement_size(const Placement *p)
{
    return p ? p->n : 0;
}

int placement_gpus(const Placement *p)
{
    return p ? p->slots : 0;
}

int placement_gpu_of(const Placement *p, int rank)
{
    return (p && rank >= 0 && rank < p->n) ? p->gpu_of[rank] : -1;
}

int placement_rank_on(const Placement *p, int gpu)
{
    return (p && gpu >= 0 && gpu < p->slots) ? p->rank_on[gpu] : -1;
}

bool placement_is_default(const Placement *p)
{
    return !p || (p->moved == 0 && p->slots == p->n);
}

bool placement_swap_gpus(Placement *p, int gpu_a, int gpu_b)
{
    if (!p || gpu_a < 0 || gpu_b < 0 || gpu_a >= p->slots || gpu_b >= p->slots)
        return false;
    if (gpu_a == gpu_b)
        return true;
    int ra = p->rank_on[gpu_a], rb = p->rank_on[gpu_b];
    p->rank_on[gpu_a] = rb;
    p->rank_on[gpu_b] = ra;
    if (ra >= 0) {
        p->gpu_of[ra] = gpu_b;
        placement_track(p, ra);
        work_moved(p->scratch, ra, gpu_b);
    }
    if (rb >= 0) {
        p->gpu_of[rb] = gpu_a;
        placement_track(p, rb);
        work_moved(p->scratch, rb, gpu_a);
    }
    return true;
}

/* ---- work memory for exact spans ---------------------------------------- */

static void work_free(PlacementWork *sc)
{
    if (!sc)
        return;
    for (int t = 0; t < 3; t++)
        free(sc->block[t]);
    for (int t = 0; t < PLACEMENT_MACHINE_TIERS; t++)
        free(sc->mblock[t]);
    free(sc->bstamp);
    free(sc->gstamp);
    free(sc->count);
    free(sc->touched);
    free(sc->ids);
    free(sc);
}

static void work_moved(PlacementWork *sc, int rank, int gpu)
{
    if (!sc)
        return;
    for (int t = 0; t < 3; t++)
        if (sc->block_size[t] > 0)
            sc->block[t][rank] = (int)(gpu / sc->block_size[t]);
}

PlacementWork *placement_work(const Placement *p)
{
    /* The Placement is never const where it was made; the scratch pointer is
     * its one cache (see above). */
    Placement *q = (Placement *)p;
    if (!q->scratch) {
        PlacementWork *sc = xmem_calloc(1, sizeof *sc);
        /* block ids are below the GPU count, group ids below the rank count */
        size_t n = (size_t)p->slots;
        sc->n = p->slots;
        sc->bstamp = xmem_calloc(n, sizeof *sc->bstamp);
        sc->gstamp = xmem_calloc(n, sizeof *sc->gstamp);
        sc->count = xmem_alloc(n * sizeof *sc->count);
        sc->touched = xmem_alloc(n * sizeof *sc->touched);
        sc->ids = xmem_alloc(2 * n * sizeof *sc->ids);
        q->scratch = sc;
    }
    return q->scratch;
}

/* A copy takes over the work memory, rank -> block caches included (they
 * describe the copy too): a scenario copies its placement on every move and
 * keeps the old one only for undo, so the memory follows the placement being
 * evaluated instead of staying with up to 256 undo states, and the caches
 * need no rebuilding. The original makes new work memory if it is evaluated
 * again. */
static void work_hand_over(Placement *to, const Placement *from)
{
    Placement *src = (Placement *)from; /* the cache pointer only, see placement_work */
    if (!src->scratch || to->scratch)
        return;
    to->scratch = src->scratch;
    src->scratch = NULL;
}

unsigned placement_work_stamp(PlacementWork *sc)
{
    if (++sc->gen == 0) { /* wrapped: old stamps could match again */
        memset(sc->bstamp, 0, (size_t)sc->n * sizeof *sc->bstamp);
        memset(sc->gstamp, 0, (size_t)sc->n * sizeof *sc->gstamp);
        sc->gen = 1;
    }
    return sc->gen;
}

const int *placement_work_blocks(PlacementWork *sc, const Placement *p, int t, long long S)
{
    if (sc->block_size[t] == S)
        return sc->block[t];
    if (!sc->block[t])
        sc->block[t] = xmem_alloc((size_t)sc->n * sizeof *sc->block[t]);
    int b = 0;
    long long left = S;
    for (int g = 0; g < sc->n; g++) {
        if (p->rank_on[g] >= 0)
            sc->block[t][p->rank_on[g]] = b;
        if (--left == 0) {
            b++;
            left = S;
        }
    }
    sc->block_size[t] = S;
    return sc->block[t];
}

const int *placement_work_machine(PlacementWork *sc, const Placement *p, const Cluster *c, int t)
{
    if (!sc->mblock[t])
        sc->mblock[t] = xmem_alloc((size_t)p->n * sizeof *sc->mblock[t]);
    int *out = sc->mblock[t];
    for (int r = 0; r < p->n; r++) {
        int g = p->gpu_of[r];
        out[r] = t == 0   ? cluster_domain_of(c, g)
                 : t == 1 ? cluster_leaf_block_of(c, g)
                 : t == 2 ? cluster_site_of(c, g)
                          : cluster_rail_of(c, g);
    }
    return out;
}
