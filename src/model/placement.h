/* SPDX-License-Identifier: MIT */
/* placement — which GPU runs which rank. The default placement runs rank r
 * on GPU r (mapping.h gives the rank layout); an explicit placement is a
 * permutation rank -> GPU that a scenario or learner edits by swapping GPUs.
 *
 * Pure: no I/O. Placement is an allocated object (caller owns what
 * placement_new/_dup return; placement_free accepts NULL). It also carries
 * the work memory that span.h uses for exact spans.
 */
#ifndef SCALELAB_MODEL_PLACEMENT_H
#define SCALELAB_MODEL_PLACEMENT_H

#include <stdbool.h>

typedef struct Placement Placement;

Placement *placement_new(int n_ranks); /* default: rank r on GPU r */
Placement *placement_dup(const Placement *p);
void placement_free(Placement *p);
int placement_size(const Placement *p);
int placement_gpu_of(const Placement *p, int rank); /* -1 when out of range */
int placement_rank_on(const Placement *p, int gpu); /* -1 when out of range */
bool placement_is_default(const Placement *p);
/* Swaps the ranks of two GPUs. False when either id is out of range. */
bool placement_swap_gpus(Placement *p, int gpu_a, int gpu_b);

#endif
