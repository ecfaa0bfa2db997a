/* SPDX-License-Identifier: MIT */
/* balance — a placement for tensor-parallel groups that do not fit the
 * scale-up domain evenly.
 *
 * With the default placement (rank r on GPU r) a TP group of t consecutive
 * ranks is split wherever a domain edge falls inside it: TP 8 in domains of
 * 9 GPUs splits groups 1 + 7, 2 + 6, 3 + 5, ... The lone GPU sends its whole
 * share over the network, and since every layer waits for the slowest TP
 * group, that one split sets the step. A scheduler free to place ranks can
 * do better: it keeps each group whole or splits it between two
 * neighbouring domains, at most two groups across any one edge, and makes
 * the smallest part as large as those rules allow (TP 8 in domains of 9:
 * no part under 2 GPUs).
 *
 * Pure: no I/O. The placement returned is the caller's (placement_free).
 */
#ifndef SCALELAB_MODEL_BALANCE_H
#define SCALELAB_MODEL_BALANCE_H

#include "model/cluster.h"
#include "model/mapping.h"
#include "model/placement.h"
#include "model/step.h"
#include "model/workload.h"

/* The balanced placement of n GPUs in domains of d (the last one may be
 * short) for TP groups of t consecutive ranks, and in *min_part the fewest
 * ranks a split group keeps in one domain. NULL when it cannot beat the
 * default placement: t divides d (no group is split) or t >= d (a group
 * must cover several domains anyway), no split leaves fewer than the best
 * balance, or the search would be too large (n/d domains x (t+1)^2 states
 * over 1 M). Deterministic; a few milliseconds at the largest. */
Placement *balance_tp_placement(int n, int d, int t, int *min_part);

/* The fewest ranks a split TP group keeps in one domain with the default
 * placement; t when no group is split. */
int balance_default_min_part(int n, int d, int t);

/* The placement a job runs with when none is given, as `eval` and `sweep`
 * take it: NULL (the default placement) unless the balanced placement of
 * its TP groups gives a shorter step, and then that one (the caller frees
 * it; *min_part as balance_tp_placement's, and *out its step, when not
 * NULL; both are left alone when NULL is returned). */
Placement *balance_job_placement(const Cluster *c, const Workload *w, const Mapping *m,
                                 const StepParams *params, int *min_part, StepResult *out);

#endif
