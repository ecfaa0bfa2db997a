/* SPDX-License-Identifier: MIT */
/* placement_work — the inside of a Placement, for the one module that walks
 * it (span.c: exact spans of an explicit placement). Not for other callers:
 * they use placement.h.
 *
 * Work memory for exact spans, owned by the Placement: made on the first
 * exact span, reused by every later one, so an evaluation allocates nothing.
 * block[t][r] caches the tier-t block (0 domain, 1 leaf, 2 site) of the GPU
 * that runs rank r, for the block size block_size[t]; it is built in one pass
 * over the GPUs without division, and placement_swap_gpus keeps it in step.
 * bstamp[] marks, per block, the group that last touched it, and gstamp[],
 * per group id, the pass that last counted it, so nothing is cleared between
 * groups: one counting pass per group, no sort. The scratch is written behind
 * a const Placement, so two threads must not take spans of one placement at
 * once (scalelab evaluates on one thread). */
#ifndef SCALELAB_MODEL_PLACEMENT_WORK_H
#define SCALELAB_MODEL_PLACEMENT_WORK_H

#include "model/cluster.h"
#include "model/placement.h"

/* Tiers of a machine's blocks (domain, leaf block, site, rail). */
#define PLACEMENT_MACHINE_TIERS 4

typedef struct PlacementWork {
    int n;                                /* GPUs: block ids and group ids are below it */
    long long block_size[3];              /* 0: block[t] not built */
    int *block[3];                        /* rank -> block id, per tier */
    unsigned *bstamp;                     /* block id -> stamp of the group counted last */
    unsigned *gstamp;                     /* group id -> stamp of the pass that saw it */
    int *count;                           /* block id -> members of the current group */
    int *touched;                         /* blocks the current group touched */
    int *ids;                             /* 2n: one group's GPUs, then their blocks */
    unsigned gen;                         /* last stamp handed out */
    int *mblock[PLACEMENT_MACHINE_TIERS]; /* rank -> block of an irregular machine's tier */
} PlacementWork;

struct Placement {
    int n;                  /* ranks */
    int slots;              /* GPUs, >= n: the rest run no rank (rank_on -1) */
    int moved;              /* ranks not on their default GPU */
    int *gpu_of;            /* rank -> GPU */
    int *rank_on;           /* GPU -> rank */
    int *moved_list;        /* the moved ranks, in no order (moved entries) */
    int *moved_pos;         /* rank -> index in moved_list, -1 when not moved */
    PlacementWork *scratch; /* exact-span work memory, made on first use */
};

/* The placement's work memory, made on first use (written behind const). */
PlacementWork *placement_work(const Placement *p);
/* A fresh stamp for bstamp/gstamp (clears both when the counter wraps). */
unsigned placement_work_stamp(PlacementWork *sc);
/* rank -> block of tier t (0 domain, 1 leaf, 2 site) for blocks of S GPUs,
 * built once per size and kept in step by placement_swap_gpus. */
const int *placement_work_blocks(PlacementWork *sc, const Placement *p, int t, long long S);
/* rank -> block of tier t (0 domain, 1 leaf block, 2 site, 3 rail) of an
 * irregular machine (cluster.h), from the cluster's own functions: built
 * afresh on every call, O(ranks x the cluster's lookups), for the small
 * machines of scenarios. */
const int *placement_work_machine(PlacementWork *sc, const Placement *p, const Cluster *c, int t);

#endif
