/* SPDX-License-Identifier: MIT */
/* cluster — build a cluster from a preset, check it, and answer where a GPU
 * sits: its scale-up domain, its leaf switch, its site.
 *
 * Numbering is contiguous (cluster.h): GPU g is in domain g / domain_gpus
 * (in a mixed machine, the domain its run puts it in), under leaf
 * g / gpus_per_leaf counted afresh in each site (or its rail's leaf in a
 * rail-optimized fabric), at site domain / domains_per_site. The leaf
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
#include "base/strbuf.h"

#include "model/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
        char *names = strbuf_join(hw_system_count(), hw_system_id_at, NULL);
        msg_set(err, err_len, "unknown system '%s' (known: %s)", system_id ? system_id : "",
                names);
        free(names);
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

/* The machine around the job: spares, down ranges, mixed domains. */
static bool cluster_check_machine(const Cluster *c, char *err, size_t err_len)
{
    int n = cluster_machine_gpus(c);
    if (c->machine_gpus < 0 || c->machine_gpus > CLUSTER_MAX_GPUS || c->n_down < 0 ||
        c->n_down > CLUSTER_DOWN_MAX || c->n_runs < 0 || c->n_runs > CLUSTER_RUNS_MAX)
        return msg_fail(err, err_len, "the machine's sizes are out of range");
    for (int i = 0; i < c->n_down; i++) {
        const ClusterDown *d = &c->down[i];
        if (d->count < 1 || d->first < 0 || d->first > n - d->count)
            return msg_fail(err, err_len, "down GPUs %d to %d are not in the %d-GPU machine",
                            d->first, d->first + d->count - 1, n);
        if (i > 0 && d->first < c->down[i - 1].first + c->down[i - 1].count)
            return msg_fail(err, err_len, "down GPU ranges overlap or are out of order at GPU %d",
                            d->first);
        if (d->state != CLUSTER_GPU_FAILED && d->state != CLUSTER_GPU_BUSY)
            return msg_fail(err, err_len, "down GPUs must be failed or busy");
    }
    if (cluster_usable_gpus(c) < c->n_gpus)
        return msg_fail(err, err_len,
                        "the job needs %d GPUs but the machine has only %d that are up", c->n_gpus,
                        cluster_usable_gpus(c));
    if (c->n_runs == 0)
        return true;
    long long sum = 0;
    int widest = 0;
    for (int i = 0; i < c->n_runs; i++) {
        if (c->runs[i].domains < 1 || c->runs[i].gpus < 1)
            return msg_fail(err, err_len, "a run of domains needs at least 1 domain of 1 GPU");
        sum += (long long)c->runs[i].domains * c->runs[i].gpus;
        widest = c->runs[i].gpus > widest ? c->runs[i].gpus : widest;
    }
    if (sum != n)
        return msg_fail(err, err_len, "the domains hold %lld GPUs but the machine has %d", sum, n);
    if (widest != c->domain_gpus)
        return msg_fail(err, err_len, "domain_gpus (%d) must be the widest domain (%d)",
                        c->domain_gpus, widest);
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
    if (!cluster_check_machine(c, err, err_len))
        return false;
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

/* ---- the machine: spares, down GPUs, mixed domains ----------------------- */

int cluster_machine_gpus(const Cluster *c)
{
    if (!c)
        return 0;
    return c->machine_gpus > c->n_gpus ? c->machine_gpus : c->n_gpus;
}

ClusterGpuState cluster_gpu_state(const Cluster *c, int gpu)
{
    if (!c || gpu < 0 || gpu >= cluster_machine_gpus(c))
        return CLUSTER_GPU_FAILED;
    for (int i = 0; i < c->n_down && c->down[i].first <= gpu; i++)
        if (gpu < c->down[i].first + c->down[i].count)
            return c->down[i].state;
    return CLUSTER_GPU_UP;
}

int cluster_usable_gpus(const Cluster *c)
{
    int n = cluster_machine_gpus(c);
    for (int i = 0; c && i < c->n_down; i++)
        n -= c->down[i].count;
    return n;
}

int cluster_nth_usable(const Cluster *c, int r)
{
    if (!c || r < 0)
        return -1;
    int g = r;
    for (int i = 0; i < c->n_down && c->down[i].first <= g; i++)
        g += c->down[i].count; /* every range at or before g pushes it on */
    return g < cluster_machine_gpus(c) ? g : -1;
}

bool cluster_add_down(Cluster *c, int first, int count, ClusterGpuState state, char *err,
                      size_t err_len)
{
    int n = cluster_machine_gpus(c);
    if (count < 1 || first < 0 || first > n - count)
        return msg_fail(err, err_len, "GPUs %d to %d are not all in the machine (GPUs 0 to %d)",
                        first, first + count - 1, n - 1);
    if (c->n_down == CLUSTER_DOWN_MAX)
        return msg_fail(err, err_len, "at most %d ranges of down GPUs", CLUSTER_DOWN_MAX);
    int at = 0;
    while (at < c->n_down && c->down[at].first < first)
        at++;
    bool before = at > 0 && c->down[at - 1].first + c->down[at - 1].count > first;
    bool after = at < c->n_down && first + count > c->down[at].first;
    if (before || after)
        return msg_fail(err, err_len, "GPU %d is down twice", before ? first : c->down[at].first);
    memmove(&c->down[at + 1], &c->down[at], (size_t)(c->n_down - at) * sizeof c->down[0]);
    c->down[at] = (ClusterDown){first, count, state};
    c->n_down++;
    return true;
}

bool cluster_is_regular(const Cluster *c)
{
    if (!c || c->n_runs > 0 || c->n_down > 0 || cluster_machine_gpus(c) != c->n_gpus)
        return false;
    if (c->sites <= 1 || c->gpus_per_leaf < 1)
        return true;
    /* leaves restart at each site: equal blocks only when they tile a site */
    long long unit = cluster_rail_unit_gpus(c);
    long long block = unit > 0 ? unit : c->gpus_per_leaf;
    return cluster_site_gpus(c) % block == 0;
}

int cluster_domain_count(const Cluster *c)
{
    if (!c || c->n_gpus < 1 || c->domain_gpus < 1)
        return 0;
    if (c->n_runs > 0) {
        int n = 0;
        for (int i = 0; i < c->n_runs; i++)
            n += c->runs[i].domains;
        return n;
    }
    return (int)(((long long)cluster_machine_gpus(c) + c->domain_gpus - 1) / c->domain_gpus);
}

int cluster_domain_of(const Cluster *c, int gpu)
{
    if (!c || gpu < 0 || gpu >= cluster_machine_gpus(c) || c->domain_gpus < 1)
        return -1;
    if (c->n_runs == 0)
        return gpu / c->domain_gpus;
    int dom = 0;
    for (int i = 0; i < c->n_runs; i++) {
        long long span = (long long)c->runs[i].domains * c->runs[i].gpus;
        if (gpu < span)
            return dom + gpu / c->runs[i].gpus;
        gpu -= (int)span;
        dom += c->runs[i].domains;
    }
    return -1;
}

int cluster_domain_first(const Cluster *c, int dom)
{
    if (!c || dom < 0 || dom >= cluster_domain_count(c))
        return -1;
    if (c->n_runs == 0)
        return dom * c->domain_gpus;
    int first = 0;
    for (int i = 0; i < c->n_runs; i++) {
        if (dom < c->runs[i].domains)
            return first + dom * c->runs[i].gpus;
        first += c->runs[i].domains * c->runs[i].gpus;
        dom -= c->runs[i].domains;
    }
    return -1;
}

int cluster_domain_size(const Cluster *c, int dom)
{
    int first = cluster_domain_first(c, dom);
    if (first < 0)
        return 0;
    if (c->n_runs > 0)
        return cluster_domain_first(c, dom + 1) > 0 ? cluster_domain_first(c, dom + 1) - first
                                                    : cluster_machine_gpus(c) - first;
    int left = cluster_machine_gpus(c) - first; /* the last domain may be partial */
    return left < c->domain_gpus ? left : c->domain_gpus;
}

long long cluster_site_gpus(const Cluster *c)
{
    int sites = c->sites < 1 ? 1 : c->sites;
    long long per_site = (cluster_domain_count(c) + sites - 1) / sites;
    long long gpus = per_site * c->domain_gpus;
    return gpus > 0 ? gpus : 1;
}

/* Domains per site: the sites divide the domains (cluster_check). */
static int domains_per_site(const Cluster *c)
{
    int sites = c->sites < 1 ? 1 : c->sites;
    int per = (cluster_domain_count(c) + sites - 1) / sites;
    return per > 0 ? per : 1;
}

int cluster_site_of(const Cluster *c, int gpu)
{
    int d = cluster_domain_of(c, gpu);
    return d < 0 ? -1 : d / domains_per_site(c);
}

int cluster_site_first(const Cluster *c, int site)
{
    int sites = c && c->sites > 1 ? c->sites : 1;
    if (!c || site < 0 || site >= sites)
        return -1;
    return cluster_domain_first(c, site * domains_per_site(c));
}

/* GPUs of a site (the last may hold fewer). */
static int site_size(const Cluster *c, int site)
{
    int first = cluster_site_first(c, site), next = cluster_site_first(c, site + 1);
    return (next > 0 ? next : cluster_machine_gpus(c)) - first;
}

long long cluster_rail_unit_gpus(const Cluster *c)
{
    if (!c || !c->rail_optimized || c->n_runs > 0 || c->domain_gpus < 1 ||
        c->domain_gpus > c->gpus_per_leaf)
        return 0;
    if (cluster_machine_gpus(c) <= c->domain_gpus) /* one server: nothing to cable by rail */
        return 0;
    long long unit = (long long)c->domain_gpus * c->gpus_per_leaf;
    if (c->sites > 1) { /* a unit's leaves stand in one site */
        long long per_site = (long long)domains_per_site(c) * c->domain_gpus;
        if (per_site < unit)
            unit = per_site;
    }
    return unit;
}

/* Where a GPU's leaf block starts counting: blocks never span two sites, and
 * each site's numbering follows the full sites before it. block: GPUs per
 * block; per_block: block ids each full block takes (1 plain, rails: one
 * leaf per rail). */
static int site_blocks(const Cluster *c, int gpu, long long block, int per_block, bool whole)
{
    int site = cluster_site_of(c, gpu);
    if (site < 0 || block < 1)
        return -1;
    long long before = 0;
    for (int s = 0; s < site; s++) {
        long long in = site_size(c, s);
        before += in / block * per_block;
        if (in % block) /* a partial block: its rails, or one leaf */
            before += whole ? 1 : (in % block < c->domain_gpus ? in % block : c->domain_gpus);
    }
    long long off = gpu - cluster_site_first(c, site);
    return (int)(before + off / block * per_block);
}

int cluster_leaf_of(const Cluster *c, int gpu)
{
    if (!c || gpu < 0 || gpu >= cluster_machine_gpus(c) || c->gpus_per_leaf < 1)
        return -1;
    long long unit = cluster_rail_unit_gpus(c);
    if (unit > 0) {
        long long off = gpu - cluster_site_first(c, cluster_site_of(c, gpu));
        return site_blocks(c, gpu, unit, c->domain_gpus, false) +
               (int)(off % unit % c->domain_gpus);
    }
    return site_blocks(c, gpu, c->gpus_per_leaf, 1, true);
}

int cluster_leaf_block_of(const Cluster *c, int gpu)
{
    if (!c || gpu < 0 || gpu >= cluster_machine_gpus(c) || c->gpus_per_leaf < 1)
        return -1;
    long long unit = cluster_rail_unit_gpus(c);
    return site_blocks(c, gpu, unit > 0 ? unit : c->gpus_per_leaf, 1, true);
}

int cluster_rail_of(const Cluster *c, int gpu)
{
    if (cluster_rail_unit_gpus(c) == 0 || gpu < 0 || gpu >= cluster_machine_gpus(c))
        return -1;
    return gpu - cluster_domain_first(c, cluster_domain_of(c, gpu));
}

int cluster_leaf_count(const Cluster *c)
{
    int n = c ? cluster_machine_gpus(c) : 0;
    if (n < 1 || c->gpus_per_leaf < 1)
        return 0;
    return cluster_leaf_of(c, n - 1) + 1;
}

int cluster_spine_count(const Cluster *c)
{
    if (!c)
        return 0;
    int leaves = cluster_leaf_count(c);
    int sites = c->sites > 1 ? c->sites : 1;
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
