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
 * The machine around a job (scenarios): the job's n_gpus ranks may run on
 * some of a larger machine's machine_gpus GPUs, the others being spares or
 * down (failed, or held by another job); down GPUs run no rank. A mixed
 * machine has domains of different sizes, given as runs in GPU order (one
 * NVL72 rack, then 8-GPU servers); its fabric is wired plain. A cluster
 * with none of these is regular (cluster_is_regular): every tier is a run of
 * equal blocks, which the closed forms of span.c rely on.
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
#define CLUSTER_DOWN_MAX 16        /* ranges of down GPUs in one machine */
#define CLUSTER_RUNS_MAX 8         /* runs of equal domains in a mixed machine */

/* What a GPU of the machine can do. */
typedef enum {
    CLUSTER_GPU_UP,     /* healthy: runs a rank or is a spare */
    CLUSTER_GPU_FAILED, /* failed (a GPU or its tray): runs nothing */
    CLUSTER_GPU_BUSY,   /* held by another job: runs nothing of this one */
} ClusterGpuState;

/* count GPUs from first, all down in the same way. */
typedef struct {
    int first, count;
    ClusterGpuState state;
} ClusterDown;

/* domains scale-up domains of gpus GPUs each. */
typedef struct {
    int domains, gpus;
} ClusterRun;

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
    /* The machine around the job (see above); all zero for a plain cluster. */
    int machine_gpus; /* GPUs of the machine, >= n_gpus; 0: n_gpus */
    int n_down;
    ClusterDown down[CLUSTER_DOWN_MAX]; /* ascending, disjoint */
    int n_runs;                         /* 0: every domain has domain_gpus */
    ClusterRun runs[CLUSTER_RUNS_MAX];  /* in GPU order; domain_gpus is the largest */
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

/* Validates every field (positive bandwidths, domain >= 1, sites <= domains,
 * the machine: enough usable GPUs for the job, down ranges in range and
 * apart, runs that add up). */
bool cluster_check(const Cluster *c, char *err, size_t err_len);

/* GPUs of the machine (machine_gpus, or n_gpus): every GPU id is below it. */
int cluster_machine_gpus(const Cluster *c);
/* Whether the cluster is a plain run of equal blocks on every tier: no
 * spare or down GPU, no mixed domains, and leaves (or rail units) that tile
 * each site. */
bool cluster_is_regular(const Cluster *c);
ClusterGpuState cluster_gpu_state(const Cluster *c, int gpu); /* FAILED when out of range */
int cluster_usable_gpus(const Cluster *c);                    /* machine GPUs that are up */
/* The r-th usable GPU (0-based; -1 when there is none): where rank r runs
 * in the default placement of the machine, the way a scheduler fills it. */
int cluster_nth_usable(const Cluster *c, int r);
/* Adds a down range (kept sorted); false with a reason when it is out of the
 * machine, overlaps another or there are too many. */
bool cluster_add_down(Cluster *c, int first, int count, ClusterGpuState state, char *err,
                      size_t err_len);

int cluster_domain_count(const Cluster *c);
int cluster_domain_of(const Cluster *c, int gpu);    /* -1 when gpu out of range */
int cluster_domain_first(const Cluster *c, int dom); /* first GPU of a domain, -1 out of range */
int cluster_domain_size(const Cluster *c, int dom);  /* its GPUs, 0 out of range */
int cluster_site_of(const Cluster *c, int gpu);      /* -1 when gpu out of range */
/* GPUs per site: whole domains, the last site may hold fewer. Of a regular
 * cluster; cluster_site_first works for every machine. */
long long cluster_site_gpus(const Cluster *c);
int cluster_site_first(const Cluster *c, int site); /* first GPU of a site, -1 out of range */
int cluster_leaf_of(const Cluster *c, int gpu);     /* -1 when gpu out of range */
/* The block of the leaf tier the spine rule looks at (span.c): the leaf of
 * a plain fabric, the scalable unit of a rail-optimized one. Never spans
 * two sites. -1 when gpu out of range. */
int cluster_leaf_block_of(const Cluster *c, int gpu);
/* The rail of a GPU (its position in its domain) in a rail-optimized
 * fabric, -1 when the fabric is plain. */
int cluster_rail_of(const Cluster *c, int gpu);
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
