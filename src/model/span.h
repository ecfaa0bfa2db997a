/* SPDX-License-Identifier: MIT */
/* span — how the groups of one parallel dimension spread over the tiers of a
 * cluster (scale-up domains, leaf switches, sites) under a placement: what
 * every collective's cost depends on.
 *
 * Pure: no I/O. Nothing here allocates after a placement's first exact span
 * (the work memory is the placement's).
 */
#ifndef SCALELAB_MODEL_SPAN_H
#define SCALELAB_MODEL_SPAN_H

#include "model/cluster.h"
#include "model/mapping.h"
#include "model/placement.h"
#include <stdbool.h>

/* How one group of a dimension spreads over the tiers. */
typedef struct {
    int size;           /* ranks in the group */
    int domains;        /* scale-up domains it touches */
    int min_per_domain; /* fewest of its ranks in one touched domain */
    int sites;          /* sites it touches */
    bool crosses_leaf;  /* its scale-out traffic climbs to the spine: members under
                         * more than one leaf, or, on rails, off one rail unit or
                         * mixing positions (span.c's spine rule) */
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
GroupSpan span_worst(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d);
/* The two expert groups that are no mapping dimension: expert-TP (ETP ranks
 * that split one expert's matrices) and expert-DP (the EDP ranks that hold
 * the same experts and reduce their gradients). EP is DIM_EP. */
typedef enum { SPAN_EXPERT_TP, SPAN_EXPERT_DP } SpanExpert;

/* The worst span of an expert group, as span_worst. */
GroupSpan span_worst_expert(const Mapping *m, const Cluster *c, const Placement *p, SpanExpert e);

/* The ids of the groups of dimension d that cross a tier, in id order,
 * into ids[0..max) (ids may be NULL); returns how many cross (may exceed
 * max). O(ranks x group size / group size) = O(ranks). */
typedef enum { SPAN_CROSS_DOMAIN, SPAN_CROSS_SPINE, SPAN_CROSS_SITE } SpanCross;
int span_crossing_groups(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d,
                         SpanCross what, int *ids, int max);

/* The span of the group of dimension d that contains rank. O(group size). */
GroupSpan span_of_group(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d,
                        int rank);

#endif
