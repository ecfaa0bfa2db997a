/* SPDX-License-Identifier: MIT */
/* cluster — the machine a job runs on: GPUs grouped into scale-up domains,
 * domains under a leaf-spine scale-out fabric, optionally spread over sites
 * joined by a scale-across link.
 *
 * GPUs are numbered 0..n_gpus-1. GPU g sits in domain g / domain_gpus (the
 * last domain may be partial) and at site domain / domains_per_site. Its leaf
 * switch depends on the wiring: in a plain fabric leaf g / gpus_per_leaf (a
 * leaf takes whole servers); in a rail-optimized one the GPUs of
 * gpus_per_leaf consecutive domains form a scalable unit (SU) with one leaf
 * per rail, and GPU i of every domain of the unit is on its leaf i:
 * leaf = (g / (domain_gpus x gpus_per_leaf)) x domain_gpus + g % domain_gpus.
 * Rails need a domain no larger than a leaf's GPU ports (8-GPU servers under
 * 32-port leaves); a bigger domain (an NVL72 rack, a --domain override) is
 * wired as a plain fabric whatever rail_optimized says.
 *
 * The cluster owns no GPU objects: views and Lua
 * refer to GPUs by id, so a stale id is a clean range error.
 *
 * Bandwidths are per GPU, per direction, bytes/s (see hw.h). Pure: no I/O.
 */
#ifndef SCALELAB_MODEL_CLUSTER_H
#define SCALELAB_MODEL_CLUSTER_H

#include "model/hw.h"
#include <stdbool.h>
#include <stddef.h>

#define CLUSTER_MAX_GPUS 100000000 /* sanity cap on input, not a design limit */

typedef struct {
    char system_id[32]; /* preset it came from, or "custom" */
    char name[48];      /* "GB200 NVL72" */
    GpuSpec gpu;        /* copy: overrides stay local */
    int n_gpus;
    int domain_gpus; /* GPUs per scale-up domain */
    HwUpKind up_kind;
    char up_link[32];
    double up_bytes_per_s; /* per GPU, per direction */
    double up_lat_s;
    char out_link[48];
    double out_bytes_per_s; /* per GPU, per direction */
    double out_lat_s;
    double oversub; /* >= 1 */
    int gpus_per_leaf;
    bool rail_optimized;       /* leaves cabled by rail where the domain allows (see above) */
    int sites;                 /* >= 1 */
    double across_bytes_per_s; /* site-to-site, total, per direction */
    double across_lat_s;
    double domain_power_w;
    char cooling[16];
    double power_cap_w;      /* board power cap per GPU (--power); 0 = the GPU's own */
    double host_bytes_per_s; /* GPU to host memory, per GPU, per direction (offload) */
    double host_mem_bytes;   /* host memory per GPU */
} Cluster;

/* Builds a cluster of n_gpus from a system preset (n_gpus <= 0: its default).
 * Returns false with a reason in err when the preset is unknown or n_gpus is
 * out of range. */
bool cluster_from_system(Cluster *c, const char *system_id, int n_gpus, char *err, size_t err_len);

/* Sets the GPU count. A torus system's slice (its domain) shrinks to the
 * job when the job is smaller than the preset's largest slice. */
void cluster_set_gpus(Cluster *c, int n_gpus);

/* Override a preset's scale-up or scale-out bandwidth (per GPU, per
 * direction, bytes/s). A figure other than the preset's renames the link by
 * that figure ("custom 450 GB/s scale-up", "custom 50 Gb/s scale-out"), so
 * no output keeps a product name whose speed no longer applies. */
void cluster_set_up_bw(Cluster *c, double bytes_per_s);
void cluster_set_out_bw(Cluster *c, double bytes_per_s);

/* Validates every field (positive bandwidths, domain >= 1, sites <= domains). */
bool cluster_check(const Cluster *c, char *err, size_t err_len);

int cluster_domain_count(const Cluster *c);
int cluster_domain_of(const Cluster *c, int gpu); /* -1 when gpu out of range */
int cluster_site_of(const Cluster *c, int gpu);   /* -1 when gpu out of range */
/* GPUs per site: whole domains, the last site may hold fewer. */
long long cluster_site_gpus(const Cluster *c);
int cluster_leaf_of(const Cluster *c, int gpu); /* -1 when gpu out of range */
/* Leaves in use; in a rail-optimized fabric a partial last unit still has
 * one leaf per rail it holds. */
int cluster_leaf_count(const Cluster *c);
/* GPUs per rail-optimized scalable unit (domain_gpus x gpus_per_leaf, at most
 * one site's GPUs: a unit's leaves stand in one site), 0 when
 * the fabric is wired plain or the cluster is one server: the one test of
 * "is this fabric on rails". */
long long cluster_rail_unit_gpus(const Cluster *c);
/* Spine switches needed for the leaf count and oversubscription (Clos). */
int cluster_spine_count(const Cluster *c);

#endif
