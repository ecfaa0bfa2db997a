/* mapping — how a job is split over GPUs (TP x CP x PP x DP, with EP carved
 * out of DP), and placement: which GPU runs which rank.
 *
 * Rank order of the default placement, innermost first: TP, CP, EP, PP, then
 * the rest of DP (Llama 3 §3.3.2 places [TP, CP, PP, DP] innermost to
 * outermost; EP, being all-to-all heavy, sits right after CP). With the
 * default placement rank r runs on GPU r. An explicit placement is a
 * permutation rank -> GPU that a scenario or learner edits.
 *
 * Pure: no I/O. Placement is the one allocated object here (caller owns what
 * placement_new/_dup return; placement_free accepts NULL).
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

typedef struct Placement Placement;

Placement *placement_new(int n_ranks);               /* default: rank r on GPU r */
Placement *placement_dup(const Placement *p);
void placement_free(Placement *p);
int placement_size(const Placement *p);
int placement_gpu_of(const Placement *p, int rank);  /* -1 when out of range */
int placement_rank_on(const Placement *p, int gpu);  /* -1 when out of range */
bool placement_is_default(const Placement *p);
/* Swaps the ranks of two GPUs. False when either id is out of range. */
bool placement_swap_gpus(Placement *p, int gpu_a, int gpu_b);

/* How one group of a dimension spreads over the tiers. */
typedef struct {
    int size;            /* ranks in the group */
    int domains;         /* scale-up domains it touches */
    int min_per_domain;  /* fewest of its ranks in one touched domain */
    int sites;           /* sites it touches */
    bool crosses_leaf;   /* spans more than one leaf switch */
} GroupSpan;

/* The worst span over all groups of dimension d (most domains; ties: fewest
 * ranks per domain). With p == NULL or default placement this is computed in
 * O(1) (bounded by the domain size, never by the cluster size); with an
 * explicit placement in O(moved ranks x group size) when few groups hold a
 * moved rank (exact for those groups, the closed form for the rest), else in
 * O(ranks) by one counting pass per group, no sort. Work memory belongs to
 * the placement (made on first use, reused, handed to a placement_dup copy), so a
 * call allocates nothing after the first; it is written even through a const
 * Placement, so one placement must not be evaluated on two threads at once. */
GroupSpan mapping_worst_span(const Mapping *m, const Cluster *c, const Placement *p,
                             MappingDim d);
/* The span of the group of dimension d that contains rank. O(group size). */
GroupSpan mapping_group_span(const Mapping *m, const Cluster *c, const Placement *p,
                             MappingDim d, int rank);

#endif
