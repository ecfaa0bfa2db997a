/* SPDX-License-Identifier: MIT */
/* placement — which GPU runs which rank. The default placement runs rank r
 * on GPU r (mapping.h gives the rank layout); an explicit placement is a
 * one-to-one map rank -> GPU that a scenario or learner edits by swapping
 * GPUs. A placement may have more GPUs than ranks (a machine with spares or
 * down GPUs, cluster.h): a GPU that runs no rank is free, and a swap with a
 * free GPU moves the rank there.
 *
 * Pure: no I/O. Placement is an allocated object (caller owns what
 * placement_new/_dup return; placement_free accepts NULL). It also carries
 * the work memory that span.h uses for exact spans.
 */
#ifndef SCALELAB_MODEL_PLACEMENT_H
#define SCALELAB_MODEL_PLACEMENT_H

#include "model/cluster.h"
#include <stdbool.h>

typedef struct Placement Placement;

Placement *placement_new(int n_ranks); /* default: rank r on GPU r */
/* The job's n_gpus ranks on a cluster's machine, filled in GPU order over
 * the GPUs that are up (cluster_nth_usable), as a scheduler hands them out;
 * the same as placement_new(n_gpus) on a regular cluster. NULL when the
 * machine has too few usable GPUs. */
Placement *placement_for_machine(const Cluster *c);
/* n_ranks ranks on n_gpus GPUs, rank r on gpu_of[r]; NULL when an id is out
 * of range or two ranks share a GPU. */
Placement *placement_from(int n_ranks, int n_gpus, const int *gpu_of);
Placement *placement_dup(const Placement *p);
void placement_free(Placement *p);
int placement_size(const Placement *p);             /* ranks */
int placement_gpus(const Placement *p);             /* GPUs (>= ranks) */
int placement_gpu_of(const Placement *p, int rank); /* -1 when out of range */
int placement_rank_on(const Placement *p, int gpu); /* -1 when out of range or free */
/* Rank r on GPU r for every rank, and no GPU beyond them. */
bool placement_is_default(const Placement *p);
/* Swaps what two GPUs run (a rank each, or a rank and nothing). False when
 * either id is out of range. */
bool placement_swap_gpus(Placement *p, int gpu_a, int gpu_b);

#endif
