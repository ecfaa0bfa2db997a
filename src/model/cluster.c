/* SPDX-License-Identifier: MIT */
/* cluster — build a cluster from a preset, check it, and answer where a GPU
 * sits: its scale-up domain, its leaf switch, its site.
 *
 * Numbering is contiguous (cluster.h): GPU g is in domain g / domain_gpus,
 * under leaf g / gpus_per_leaf (or its rail's leaf in a rail-optimized
 * fabric), at site domain / domains_per_site. The leaf
 * and spine counts are those of a two-level Clos (leaf-spine) built from one
 * switch model: a leaf has gpus_per_leaf ports down and gpus_per_leaf/oversub
 * up; a spine has as many ports as a leaf at full bisection (2 x
 * gpus_per_leaf). Bigger fabrics add a third level; the count here is the
 * port arithmetic of the two-level picture that lessons draw.
 *
 * Pure: no I/O, no allocation. Integer results never overflow: every count
 * is bounded by CLUSTER_MAX_GPUS, which cluster_check enforces.
 */
#include "model/cluster.h"
#include "base/msg.h"

#include "model/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void copy_str(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src ? src : "");
}

void cluster_set_gpus(Cluster *c, int n_gpus)
{
    if (!c)
        return;
    c->n_gpus = n_gpus;
    /* A torus slice (TPU, Trainium) is allocated at the job's size: a
     * 256-chip v5p job is one 4x8x8 slice, not part of a 6,144-chip one. */
    const SystemSpec *s = hw_system_find(c->system_id);
    if (c->up_kind == HW_UP_TORUS && s && n_gpus > 0)
        c->domain_gpus = n_gpus < s->domain_gpus ? n_gpus : s->domain_gpus;
}

bool cluster_from_system(Cluster *c, const char *system_id, int n_gpus, char *err, size_t err_len)
{
    if (!c) {
        msg_set(err, err_len, "no cluster to fill");
        return false;
    }
    const SystemSpec *s = hw_system_find(system_id);
    if (!s) {
        char names[512] = "";
        for (int i = 0; i < hw_system_count(); i++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                     hw_system_at(i)->id);
        }
        msg_set(err, err_len, "unknown system '%s' (known: %s)", system_id ? system_id : "",
                names);
        return false;
    }
    const GpuSpec *g = hw_gpu_find(s->gpu_id);
    if (!g) {
        msg_set(err, err_len, "system '%s' names an unknown GPU '%s'", s->id, s->gpu_id);
        return false;
    }
    if (n_gpus <= 0)
        n_gpus = s->default_gpus;
    if (n_gpus > CLUSTER_MAX_GPUS) {
        msg_set(err, err_len, "%d GPUs is more than scalelab models (at most %d)", n_gpus,
                CLUSTER_MAX_GPUS);
        return false;
    }
    Cluster out;
    memset(&out, 0, sizeof out);
    copy_str(out.system_id, sizeof out.system_id, s->id);
    copy_str(out.name, sizeof out.name, s->name);
    out.gpu = *g;
    out.n_gpus = n_gpus;
    out.domain_gpus = s->domain_gpus;
    out.up_kind = s->up_kind;
    copy_str(out.up_link, sizeof out.up_link, s->up_link);
    out.up_bytes_per_s = s->up_bytes_per_s;
    out.up_lat_s = s->up_lat_s;
    copy_str(out.out_link, sizeof out.out_link, s->out_link);
    out.out_bytes_per_s = s->out_bytes_per_s;
    out.out_lat_s = s->out_lat_s;
    out.oversub = s->oversub;
    out.gpus_per_leaf = s->gpus_per_leaf;
    out.rail_optimized = s->rail_optimized;
    out.sites = 1;
    out.across_bytes_per_s = 0;
    out.across_lat_s = 0;
    out.domain_power_w = s->domain_power_w;
    copy_str(out.cooling, sizeof out.cooling, s->cooling);
    out.host_bytes_per_s = s->host_bytes_per_s;
    out.host_mem_bytes = s->host_mem_bytes;
    cluster_set_gpus(&out, n_gpus);
    *c = out;
    return true;
}

static bool positive_finite(double v)
{
    return isfinite(v) && v > 0;
}

bool cluster_check(const Cluster *c, char *err, size_t err_len)
{
    if (!c) {
        msg_set(err, err_len, "no cluster");
        return false;
    }
    if (c->n_gpus < 1) {
        msg_set(err, err_len, "a cluster needs at least 1 GPU (got %d)", c->n_gpus);
        return false;
    }
    if (c->n_gpus > CLUSTER_MAX_GPUS) {
        msg_set(err, err_len, "%d GPUs is more than scalelab models (at most %d)", c->n_gpus,
                CLUSTER_MAX_GPUS);
        return false;
    }
    if (c->domain_gpus < 1) {
        msg_set(err, err_len, "a scale-up domain needs at least 1 GPU (got %d)", c->domain_gpus);
        return false;
    }
    if (c->domain_gpus > CLUSTER_MAX_GPUS) {
        msg_set(err, err_len, "a scale-up domain of %d GPUs is more than scalelab models",
                c->domain_gpus);
        return false;
    }
    if (!positive_finite(c->gpu.bf16_flops)) {
        msg_set(err, err_len, "the GPU's peak FLOP/s must be positive");
        return false;
    }
    if (!positive_finite(c->gpu.hbm_bytes) || !positive_finite(c->gpu.hbm_bytes_per_s)) {
        msg_set(err, err_len, "the GPU's memory size and bandwidth must be positive");
        return false;
    }
    if (!isfinite(c->power_cap_w) || c->power_cap_w < 0 ||
        (c->power_cap_w > 0 && c->power_cap_w < 50)) {
        msg_set(err, err_len, "a power cap must be at least 50 W (got %g W)", c->power_cap_w);
        return false;
    }
    if (!isfinite(c->host_bytes_per_s) || c->host_bytes_per_s < 0 ||
        !isfinite(c->host_mem_bytes) || c->host_mem_bytes < 0) {
        msg_set(err, err_len, "the host link and memory must be zero or positive");
        return false;
    }
    if (!positive_finite(c->up_bytes_per_s)) {
        msg_set(err, err_len, "the scale-up bandwidth must be positive");
        return false;
    }
    if (!positive_finite(c->out_bytes_per_s)) {
        msg_set(err, err_len, "the scale-out bandwidth must be positive");
        return false;
    }
    if (!isfinite(c->up_lat_s) || c->up_lat_s < 0 || !isfinite(c->out_lat_s) || c->out_lat_s < 0 ||
        !isfinite(c->across_lat_s) || c->across_lat_s < 0) {
        msg_set(err, err_len, "latencies must be zero or positive");
        return false;
    }
    if (!isfinite(c->oversub) || c->oversub < 1) {
        msg_set(err, err_len,
                "oversubscription must be at least 1 (1 = full bisection, 3 = 3:1; got %g)",
                c->oversub);
        return false;
    }
    if (c->gpus_per_leaf < 1) {
        msg_set(err, err_len, "a leaf switch needs at least 1 GPU port (got %d)",
                c->gpus_per_leaf);
        return false;
    }
    if (c->sites < 1) {
        msg_set(err, err_len, "a cluster needs at least 1 site (got %d)", c->sites);
        return false;
    }
    int domains = cluster_domain_count(c);
    if (c->sites > domains) {
        msg_set(err, err_len,
                "%d sites but only %d scale-up domains: a domain cannot be split over sites",
                c->sites, domains);
        return false;
    }
    if (domains % c->sites != 0) {
        msg_set(err, err_len, "%d sites do not divide the %d scale-up domains evenly", c->sites,
                domains);
        return false;
    }
    if (c->sites > 1 && !positive_finite(c->across_bytes_per_s)) {
        msg_set(err, err_len, "%d sites need a scale-across bandwidth (e.g. --across 10 TB/s)",
                c->sites);
        return false;
    }
    return true;
}

void cluster_set_up_bw(Cluster *c, double bytes_per_s)
{
    if (!c || bytes_per_s == c->up_bytes_per_s)
        return;
    char bw[16]; /* "1.80 TB/s": units_format keeps 3 digits */
    units_format(UNITS_BANDWIDTH, bytes_per_s, true, bw, sizeof bw);
    snprintf(c->up_link, sizeof c->up_link, "custom %.15s scale-up", bw);
    c->up_bytes_per_s = bytes_per_s;
}

/* NICs are named by their line rate in bits per second (400 Gb/s). */
void cluster_set_out_bw(Cluster *c, double bytes_per_s)
{
    if (!c || bytes_per_s == c->out_bytes_per_s)
        return;
    double bits = 8.0 * bytes_per_s;
    if (bits >= 1e12)
        snprintf(c->out_link, sizeof c->out_link, "custom %.3g Tb/s scale-out", bits / 1e12);
    else if (bits >= 1e9)
        snprintf(c->out_link, sizeof c->out_link, "custom %.3g Gb/s scale-out", bits / 1e9);
    else
        snprintf(c->out_link, sizeof c->out_link, "custom %.3g Mb/s scale-out", bits / 1e6);
    c->out_bytes_per_s = bytes_per_s;
}

int cluster_domain_count(const Cluster *c)
{
    if (!c || c->n_gpus < 1 || c->domain_gpus < 1)
        return 0;
    return (int)(((long long)c->n_gpus + c->domain_gpus - 1) / c->domain_gpus);
}

int cluster_domain_of(const Cluster *c, int gpu)
{
    if (!c || gpu < 0 || gpu >= c->n_gpus || c->domain_gpus < 1)
        return -1;
    return gpu / c->domain_gpus;
}

long long cluster_site_gpus(const Cluster *c)
{
    int sites = c->sites < 1 ? 1 : c->sites;
    long long per_site = (cluster_domain_count(c) + sites - 1) / sites;
    long long gpus = per_site * c->domain_gpus;
    return gpus > 0 ? gpus : 1;
}

int cluster_site_of(const Cluster *c, int gpu)
{
    int d = cluster_domain_of(c, gpu);
    if (d < 0)
        return -1;
    int sites = c->sites < 1 ? 1 : c->sites;
    int domains = cluster_domain_count(c);
    int per_site = (domains + sites - 1) / sites;
    return d / per_site;
}

long long cluster_rail_unit_gpus(const Cluster *c)
{
    if (!c || !c->rail_optimized || c->domain_gpus < 1 || c->domain_gpus > c->gpus_per_leaf)
        return 0;
    if (c->n_gpus <= c->domain_gpus) /* one server: nothing to cable rail by rail */
        return 0;
    long long unit = (long long)c->domain_gpus * c->gpus_per_leaf;
    if (c->sites > 1) { /* a unit's leaves stand in one site */
        long long per_site = ((long long)cluster_domain_count(c) + c->sites - 1) / c->sites;
        if (per_site * c->domain_gpus < unit)
            unit = per_site * c->domain_gpus;
    }
    return unit;
}

int cluster_leaf_of(const Cluster *c, int gpu)
{
    if (!c || gpu < 0 || gpu >= c->n_gpus || c->gpus_per_leaf < 1)
        return -1;
    long long unit = cluster_rail_unit_gpus(c);
    if (unit > 0)
        return (int)(gpu / unit * c->domain_gpus + gpu % c->domain_gpus);
    /* plain: leaves never span two sites; each site's numbering follows
     * the full sites before it */
    long long per_site = cluster_site_gpus(c), site = gpu / per_site;
    long long per_site_leaves = (per_site + c->gpus_per_leaf - 1) / c->gpus_per_leaf;
    return (int)(site * per_site_leaves + (gpu - site * per_site) / c->gpus_per_leaf);
}

int cluster_leaf_count(const Cluster *c)
{
    if (!c || c->n_gpus < 1 || c->gpus_per_leaf < 1)
        return 0;
    long long unit = cluster_rail_unit_gpus(c);
    if (unit > 0) {
        long long rest = c->n_gpus % unit;
        return (int)(c->n_gpus / unit * c->domain_gpus +
                     (rest < c->domain_gpus ? rest : c->domain_gpus));
    }
    long long per_site = cluster_site_gpus(c), leaves = 0;
    for (long long first = 0; first < c->n_gpus; first += per_site) {
        long long in = c->n_gpus - first < per_site ? c->n_gpus - first : per_site;
        leaves += (in + c->gpus_per_leaf - 1) / c->gpus_per_leaf;
    }
    return (int)leaves;
}

int cluster_spine_count(const Cluster *c)
{
    int leaves = cluster_leaf_count(c);
    int sites = c && c->sites > 1 ? c->sites : 1;
    if (leaves <= 1 && sites == 1)
        return 0;
    double oversub = c->oversub >= 1 ? c->oversub : 1;
    /* uplinks per leaf = ceil(down / oversub); spine radix = 2 x down */
    long long up = (long long)ceil(c->gpus_per_leaf / oversub - 1e-9);
    long long radix = 2LL * c->gpus_per_leaf;
    long long spines = ((long long)leaves * up + radix - 1) / radix;
    /* each site has at least one spine of its own: where the link between
     * sites lands */
    return spines < sites ? sites : (int)spines;
}
