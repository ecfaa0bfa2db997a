/* SPDX-License-Identifier: MIT */
/* collective — alpha-beta cost of NCCL-style collectives over the tiers a
 * group actually spans.
 *
 * Terms as in NVIDIA/nccl-tests doc/PERFORMANCE.md: for a message of S bytes
 * on n ranks, algbw = S / t and busbw = algbw * factor, factor = 2(n-1)/n for
 * all-reduce, (n-1)/n for reduce-scatter, all-gather and all-to-all. A ring
 * reaches a busbw independent of n, so t = alpha + S * factor / busbw.
 *
 * A group inside one scale-up domain runs at the scale-up bandwidth. A group
 * over m domains with k ranks in each runs hierarchically: reduce-scatter
 * inside the domain, all-reduce of S/k across domains on each GPU's NIC,
 * all-gather inside (a reduce-scatter and an all-gather of the same buffer
 * cost the same: one such phase). All-to-all pays scale-out for the share
 * (m-1)/m of its data that leaves the domain. Oversubscription divides the scale-out rate
 * when a group's traffic climbs to the spine (span.h); a site crossing is bounded by the
 * scale-across link shared by the GPUs that cross it.
 *
 * Pure: no I/O, no allocation.
 */
#ifndef SCALELAB_MODEL_COLLECTIVE_H
#define SCALELAB_MODEL_COLLECTIVE_H

#include "model/cluster.h"
#include "model/span.h"

typedef enum {
    COLL_ALL_REDUCE,
    COLL_REDUCE_SCATTER,
    COLL_ALL_GATHER,
    COLL_ALL_TO_ALL,
    COLL_SEND_RECV,
} CollKind;

typedef enum { TIER_UP, TIER_OUT, TIER_ACROSS, TIER_COUNT } Tier;

typedef struct {
    double time_s;                 /* total */
    double tier_s[TIER_COUNT];     /* time spent on each tier */
    double tier_bytes[TIER_COUNT]; /* bytes each GPU sends on each tier */
    Tier slowest;                  /* tier that bounds the time */
} CollCost;

/* The knobs of the cost model (defaults and their sources in collective.c). */
typedef struct {
    double up_efficiency;  /* achievable ring busbw / line rate, scale-up */
    double out_efficiency; /* achievable busbw / line rate, scale-out NIC */
    double fixed_s;        /* launch and base latency, paid once per collective */
    double ramp_bytes;     /* buffer at which a tier reaches half its rate (0 = none) */
    double across_sharers; /* GPUs sharing the scale-across link; 0 = n_gpus / sites */
    int dispatch_topk;     /* all-to-all of top-k routed copies sent once per remote
                            * domain (DeepEP, HybridEP); 0 = every copy on its own */
} CollParams;

CollParams collective_params_default(void);

/* As collective_cost, with explicit parameters (NULL = defaults). */
CollCost collective_cost_with(CollKind kind, double bytes, GroupSpan span, const Cluster *c,
                              const CollParams *params);

/* Cost of one collective of `bytes` (the full buffer S per rank, as
 * nccl-tests counts it) on a group with the given span. */
CollCost collective_cost(CollKind kind, double bytes, GroupSpan span, const Cluster *c);

const char *collective_name(CollKind kind); /* "all-reduce", ... */
const char *tier_name(Tier t);              /* "scale-up", "scale-out", "scale-across" */

#endif
