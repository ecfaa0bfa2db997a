/* mapping — how a job is split over GPUs (TP x CP x PP x DP, with EP carved
 * out of DP): the degrees, their legality, and the rank layout.
 *
 * Rank order of the default placement, innermost first: TP, CP, EP, PP, then
 * the rest of DP (Llama 3 §3.3.2 places [TP, CP, PP, DP] innermost to
 * outermost; EP, being all-to-all heavy, sits right after CP). With the
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
    int tp, cp, pp, dp;  /* world size = tp*cp*pp*dp */
    int ep;              /* divides dp; 1 for dense models */
    int interleave;      /* virtual pipeline chunks per GPU, >= 1 */
    int zero;            /* 0..3: optimizer (1), +gradient (2), +weight (3) sharding over DP */
} Mapping;

/* The mapping as "TP8 PP4 DP16" (EP/CP shown when > 1). */
char *mapping_format(const Mapping *m, char *buf, size_t buf_len);

/* Checks that the mapping is legal for this cluster and workload; on failure
 * names the constraint in err ("TP 16 does not divide the 96 heads"). */
bool mapping_check(const Mapping *m, const Cluster *c, const Workload *w, char *err,
                   size_t err_len);

int mapping_world(const Mapping *m);
/* Size of a dimension's group (tp, cp, ep, pp, or dp). */
int mapping_dim_size(const Mapping *m, MappingDim d);
/* The index of rank along one dimension (0..size-1) and the id of the group
 * of that dimension the rank belongs to (ranks with equal group ids talk). */
int mapping_coord(const Mapping *m, int rank, MappingDim d);
int mapping_group_of(const Mapping *m, int rank, MappingDim d);
const char *mapping_dim_name(MappingDim d); /* "TP", "CP", ... */
/* Whether every degree is at least 1, EP divides DP and the world fits an
 * int: the rank layout (mapping_coord, span.h) is defined. */
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
