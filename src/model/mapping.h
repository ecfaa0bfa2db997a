/* SPDX-License-Identifier: MIT */
/* mapping — how a job is split over GPUs (TP x CP x PP x DP; experts folded
 * over the same ranks as ETP x EP x EDP): the degrees, their legality, and
 * the rank layout.
 *
 * Parallel folding (Megatron-Core, "MoE parallel folding", Liu et al. 2025,
 * arXiv:2504.14960): attention splits the TP x CP x DP ranks of a pipeline
 * stage one way, the expert layers re-fold the same ranks as ETP x EP x EDP
 * (expert-TP innermost, then EP, then expert-DP), so EP need not divide DP:
 * the rule is that EP x ETP divides TP x CP x DP.
 *
 * Rank order of the default placement, innermost first: TP, CP, the inner
 * part of DP, PP, then the rest of DP (Llama 3 §3.3.2 places [TP, CP, PP, DP]
 * innermost to outermost). The inner part of DP is the fewest DP ranks that,
 * with TP x CP, hold whole ETP x EP groups (1 for a dense model), so that
 * the all-to-all-heavy EP groups sit in consecutive GPUs right after CP. With the
 * default placement (placement.h) rank r runs on GPU r; span.h says how
 * the groups of a dimension then spread over the tiers.
 *
 * Pure: no I/O, no allocation.
 */
#ifndef SCALELAB_MODEL_MAPPING_H
#define SCALELAB_MODEL_MAPPING_H

#include "model/cluster.h"
#include "model/workload.h"
#include <stdbool.h>
#include <stddef.h>

typedef enum { DIM_TP, DIM_CP, DIM_EP, DIM_PP, DIM_DP, DIM_COUNT } MappingDim;

typedef struct {
    int tp, cp, pp, dp; /* world size = tp*cp*pp*dp */
    int ep;             /* EP x ETP divides TP x CP x DP; 1 for dense models */
    int interleave;     /* virtual pipeline chunks per GPU, >= 1 */
    int zero;           /* 0..3: optimizer (1), +gradient (2), +weight (3) sharding over DP */
    int etp;            /* expert tensor parallelism; 0 or 1: experts not split */
    int shard;          /* ZeRO sharding group (hybrid sharding: shard inside it, replicate
                         * across); divides DP x CP; 0 = all DP x CP ranks */
} Mapping;

/* The mapping as "TP8 PP4 DP16" (EP/CP/ETP shown when > 1). */
char *mapping_format(const Mapping *m, char *buf, size_t buf_len);

/* Checks that the mapping is legal for this cluster and workload; on failure
 * names the constraint in err ("TP 16 does not divide the 96 heads"). */
bool mapping_check(const Mapping *m, const Cluster *c, const Workload *w, char *err,
                   size_t err_len);

int mapping_world(const Mapping *m);
/* Expert tensor parallelism (etp, 1 when 0). */
int mapping_etp(const Mapping *m);
/* The ZeRO sharding group's size: shard, or DP x CP when 0. */
int mapping_shard(const Mapping *m);
/* Expert-data-parallel degree EDP = TP x CP x DP / (ETP x EP): the ranks
 * that hold the same experts and reduce their gradients; 0 when EP x ETP
 * does not divide TP x CP x DP. */
int mapping_edp(const Mapping *m);
/* DP ranks placed inside PP (the inner part of DP, see above):
 * ETP x EP / gcd(ETP x EP, TP x CP); it divides DP when the mapping is legal. */
int mapping_dp_inner(const Mapping *m);
/* Size of a dimension's group (tp, cp, ep, pp, or dp). The EP coordinate
 * and group of a rank are those of the expert view (ETP x EP x EDP). */
int mapping_dim_size(const Mapping *m, MappingDim d);
/* The index of rank along one dimension (0..size-1) and the id of the group
 * of that dimension the rank belongs to (ranks with equal group ids talk). */
int mapping_coord(const Mapping *m, int rank, MappingDim d);
int mapping_group_of(const Mapping *m, int rank, MappingDim d);
const char *mapping_dim_name(MappingDim d); /* "TP", "CP", ... */
/* The greatest common divisor (a when b is 0), for the rank-layout
 * arithmetic here, in span.c and in sweep.c. */
long long mapping_gcd(long long a, long long b);
/* Whether every degree is at least 1, EP x ETP divides TP x CP x DP and the
 * world fits an int: the rank layout (mapping_coord, span.h) is defined. */
bool mapping_has_layout(const Mapping *m);

/* The one rule for "change one degree, keep the GPU count": DP absorbs a
 * change of TP, CP or PP (DP = GPUs / (TP x CP x PP)); a change of DP is
 * absorbed by PP (PP = GPUs / (TP x CP x DP)); EP changes nothing else.
 * False, with the product that is not whole named in err ("TP 3 x CP 1 x
 * PP 1 = 3 does not divide the 16 GPUs, so DP would not be whole"), when the
 * absorbing degree would not be whole; m is then unchanged. Legality beyond
 * whole degrees is mapping_check's. */
bool mapping_set_degree(Mapping *m, int n_gpus, MappingDim d, int value, char *err,
                        size_t err_len);
/* DP from the other degrees: DP = GPUs / (TP x CP x PP), with the words of
 * mapping_set_degree when that is not whole. */
bool mapping_derive_dp(Mapping *m, int n_gpus, char *err, size_t err_len);

#endif
