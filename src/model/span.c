/* SPDX-License-Identifier: MIT */
/* span — how the groups of one parallel dimension spread over the tiers
 * (scale-up domains, leaf switches, sites), for the default placement in
 * closed form and for an explicit placement exactly.
 *
 * Tiers of a GPU g (must agree with cluster.h): domain g / domain_gpus, leaf
 * g / gpus_per_leaf, site domain / domains_per_site, with domains_per_site =
 * ceil(domains / sites).
 *
 * The spine rule, here and nowhere else: a group's scale-out traffic climbs
 * to the spine (crosses_leaf, which collective.c charges the
 * oversubscription for) unless one leaf switch can carry it. In a plain
 * fabric that means every member under one leaf. In a rail-optimized fabric
 * (cluster_rail_unit_gpus > 0) the hierarchical collectives exchange between
 * GPUs of the same position in their domains, and GPU i of every domain of a
 * scalable unit sits on the unit's leaf i; so the traffic stays on the rail
 * leaves when the group lies in one unit and is rail-aligned: every domain it
 * touches holds its members at the same positions (a DP group of GPUs 3, 11,
 * 19: all on rail 3; TP 4 x DP: rails 0 and 4 in every server). A group that
 * mixes positions across domains, or spans units, crosses the spine.
 *
 * Spans with the default placement (rank r on GPU r) are computed without
 * visiting GPUs or groups: a group of one dimension is an arithmetic
 * progression x + i*s (i < n) of GPU ids (DP with EP > 1: a progression of such
 * progressions; the rank layout is mapping.c's), and how many blocks of D
 * consecutive GPUs such a progression touches is closed-form. The worst group
 * is found by trying the group starts x that differ modulo D: at most
 * D / gcd(period, D) of them, a number bounded by the domain size and
 * independent of the cluster size (1 in the common case where the domain size
 * is a multiple of the group period). The closed form's fewest-per-domain is
 * approximate where a progression's interior blocks or a DP-with-EP group's
 * sub-groups split unevenly (e.g. 8 for the true 6). Explicit placements are
 * walked exactly in O(ranks): see the explicit-span section.
 *
 * Pure: no I/O, no allocation of its own (work memory is the placement's).
 */
#include "model/span.h"

#include "model/placement_work.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- tiers of a GPU ----------------------------------------------------- */

typedef struct {
    long long domain; /* GPUs per domain */
    long long leaf;   /* GPUs per leaf switch, or per rail unit in a rail fabric */
    long long site;   /* GPUs per site */
} TierSizes;

static TierSizes tier_sizes(const Cluster *c)
{
    TierSizes t;
    long long n = c->n_gpus > 0 ? c->n_gpus : 1;
    t.domain = c->domain_gpus > 0 ? c->domain_gpus : n;
    long long unit = cluster_rail_unit_gpus(c);
    t.leaf = unit > 0 ? unit : c->gpus_per_leaf > 0 ? c->gpus_per_leaf : n;
    long long domains = (n + t.domain - 1) / t.domain;
    long long sites = c->sites > 1 ? c->sites : 1;
    long long dps = (domains + sites - 1) / sites;
    t.site = dps * t.domain;
    return t;
}

/* ---- spans with the default placement (closed form) --------------------- */

/* Blocks of D consecutive GPUs touched by {x + i*s : i < n}, and the fewest
 * members in one touched block. Exact except the interior blocks of a
 * progression whose stride does not divide D, taken as floor(D/s). */
static void prog_blocks(long long x, long long s, long long n, long long D, long long *count,
                        long long *min_per)
{
    if (n <= 1) {
        *count = 1;
        *min_per = 1;
        return;
    }
    if (s >= D) { /* consecutive members are at least one block apart */
        *count = n;
        *min_per = 1;
        return;
    }
    long long f = x / D, last = (x + (n - 1) * s) / D;
    *count = last - f + 1;
    if (*count == 1) {
        *min_per = n;
        return;
    }
    long long in_first = ((f + 1) * D - x + s - 1) / s;
    long long before_last = (last * D - x + s - 1) / s;
    long long in_last = n - before_last;
    long long mn = in_first < in_last ? in_first : in_last;
    if (*count > 2 && D / s < mn)
        mn = D / s;
    *min_per = mn;
}

/* A default-placement group: {x + i*s1 + j*s2 : i < n1, j < n2}, s2 >= n1*s1. */
typedef struct {
    long long s1, n1, s2, n2;
} GroupShape;

static void shape_blocks(const GroupShape *g, long long x, long long D, long long *count,
                         long long *min_per)
{
    long long c1, m1;
    prog_blocks(x, g->s1, g->n1, D, &c1, &m1);
    if (g->n2 <= 1) {
        *count = c1;
        *min_per = m1;
        return;
    }
    if (g->s2 >= D) { /* sub-groups in separate blocks (a shared edge block is ignored) */
        *count = c1 * g->n2;
        *min_per = m1;
        return;
    }
    long long extent_last = x + (g->n2 - 1) * g->s2 + (g->n1 - 1) * g->s1;
    *count = extent_last / D - x / D + 1;
    long long members = g->n1 * g->n2;
    *min_per = *count > 0 ? members / *count : members;
    if (*min_per < 1)
        *min_per = 1;
}

/* The groups a span is taken of: the five mapping dimensions, then the
 * expert-TP and expert-DP groups of the expert view (mapping.c). */
enum { KIND_ETP = DIM_COUNT, KIND_EDP, KIND_COUNT };

static int kind_size(const Mapping *m, int kind)
{
    if (kind == KIND_ETP)
        return mapping_etp(m);
    if (kind == KIND_EDP)
        return mapping_edp(m);
    return mapping_dim_size(m, (MappingDim)kind);
}

/* One progression s1, n1, then n2 copies s2 apart; n1 = 1 is folded away so
 * that a two-level shape always has n1 > 1. */
static GroupShape shape_of(long long s1, long long n1, long long s2, long long n2)
{
    GroupShape g = {s1, n1, s2, n2};
    if (n2 > 1 && (n1 == 1 || s2 == s1 * n1)) {
        g.s1 = n1 == 1 ? s2 : s1;
        g.n1 = n1 * n2;
        g.s2 = 1;
        g.n2 = 1;
    }
    return g;
}

static GroupShape default_shape(const Mapping *m, int kind, long long *period,
                                long long *groups_outer)
{
    GroupShape g = {1, 1, 1, 1};
    long long tp = m->tp, cp = m->cp, ep = m->ep, pp = m->pp, dpi = mapping_dp_inner(m);
    long long dpr = m->dp / dpi, etp = mapping_etp(m), block = tp * cp * dpi;
    long long world = block * pp * dpr;
    switch (kind) {
    case DIM_TP:
        g = shape_of(1, tp, 1, 1);
        break;
    case DIM_CP:
        g = shape_of(tp, cp, 1, 1);
        break;
    case DIM_EP:
        g = shape_of(etp, ep, 1, 1);
        break;
    case DIM_PP:
        g = shape_of(block, pp, 1, 1);
        break;
    case DIM_DP:
        g = shape_of(tp * cp, dpi, block * pp, dpr);
        break;
    case KIND_ETP:
        g = shape_of(1, etp, 1, 1);
        break;
    case KIND_EDP:
        g = shape_of(etp * ep, block / (etp * ep), block * pp, dpr);
        break;
    default:
        break;
    }
    /* Group starts: x = a + b*P with a < s1 (inner digits) and b counting the
     * outer digits; P = s1*n1 when the group is one progression. */
    *period = g.n2 > 1 ? g.s2 * g.n2 : g.s1 * g.n1;
    if (g.n2 > 1 && pp > 1)
        *period = g.s1 * g.n1; /* DP split around PP: starts step by the block over pp first */
    *groups_outer = world / (g.n1 * g.n2 * g.s1);
    return g;
}

#define SPAN_MAX_STARTS 64

/* The worst start, in closed form, of a progression whose stride s divides
 * the block S (or of copies of it a block or more apart) when its starts
 * step by its own extent (period = s*n) and reach every offset a multiple
 * of step = gcd(period, S). Counted in strides, the group is a run of n
 * consecutive units in blocks of B = S/s units, starting at a multiple of
 * u = step/s, and u divides n (an offset below s moves no member across a
 * block edge). The run touches the most blocks when it starts latest, at
 * B - u, with u members in its first block; a start touching as many
 * blocks leaves its first and last blocks a multiple of u each, so none
 * holds fewer: that one start is the worst, exactly. */
static void stride_run_worst(const GroupShape *g, long long step, long long S, long long *count,
                             long long *min_per)
{
    prog_blocks(S - step, g->s1, g->n1, S, count, min_per);
    if (g->n2 > 1)
        *count *= g->n2;
}

/* Worst blocks of size S touched by a group over the group starts
 * a + b*period (a in {0, s1-1}, b < outer). When the starts hit every
 * residue class modulo S that a multiple of gcd(period, S) can (outer large),
 * the latest such residue is the worst start, so one evaluation is enough;
 * otherwise the few starts are tried one by one. */
static void worst_blocks(const GroupShape *g, long long period, long long outer, long long S,
                         long long *count, long long *min_per)
{
    /* Runs of n1 consecutive ranks that start every period ranks, with
     * period | S and n1 <= period: every start sits at a multiple of period
     * inside its block, so no run crosses a block edge (TP, EP and ETP
     * groups in domains their size divides); the walk below would find
     * the same. */
    if (g->s1 == 1 && g->n2 <= 1 && period > 0 && S % period == 0 && g->n1 <= period) {
        *count = 1;
        *min_per = g->n1;
        return;
    }
    /* Members at least a block apart (PP stages, DP replicas over big
     * blocks): one block each, wherever the group starts. */
    if (g->s1 >= S && (g->n2 <= 1 || g->s2 >= S)) {
        *count = g->n1 * (g->n2 > 1 ? g->n2 : 1);
        *min_per = 1;
        return;
    }
    long long step = mapping_gcd(period, S);
    long long classes = S / step;
    if (S % g->s1 == 0 && period == g->s1 * g->n1 && (g->n2 <= 1 || g->s2 >= S) &&
        outer >= classes) {
        stride_run_worst(g, step, S, count, min_per);
        return;
    }
    bool two_a = g->s1 > 1 && S % g->s1 != 0;
    *count = 0;
    *min_per = LLONG_MAX;
    if (classes > SPAN_MAX_STARTS && outer >= classes) {
        long long x = S - step + (two_a ? g->s1 - 1 : 0);
        shape_blocks(g, x, S, count, min_per);
        long long c0, m0;
        shape_blocks(g, 0, S, &c0, &m0);
        if (c0 > *count || (c0 == *count && m0 < *min_per)) {
            *count = c0;
            *min_per = m0;
        }
        return;
    }
    long long tries = classes < outer ? classes : outer;
    if (tries > SPAN_MAX_STARTS)
        tries = SPAN_MAX_STARTS;
    if (tries < 1)
        tries = 1;
    for (long long b = 0; b < tries; b++) {
        for (int ai = 0; ai < (two_a ? 2 : 1); ai++) {
            long long x = (ai ? g->s1 - 1 : 0) + b * period, cnt, mn;
            shape_blocks(g, x, S, &cnt, &mn);
            if (cnt > *count || (cnt == *count && mn < *min_per)) {
                *count = cnt;
                *min_per = mn;
            }
        }
    }
}

/* Whether every group {x + i*s : i < n} with a start x = a + b*s*n (a < s)
 * holds the same positions in each domain of D GPUs it touches: one member
 * per domain at one position (s a multiple of D), the group inside one
 * domain, or whole domains at every s-th position (s | D, D | s*n). Any
 * other shape that spans domains mixes positions. */
static bool prog_on_rails(long long s, long long n, long long D)
{
    if (n <= 1 || s % D == 0 || D % (s * n) == 0)
        return true;
    return s < D && D % s == 0 && (s * n) % D == 0;
}

/* The same for every group of a default-placement shape: its first
 * progression on rails and the copies whole domains apart. */
static bool shape_on_rails(const GroupShape *g, long long D)
{
    return prog_on_rails(g->s1, g->n1, D) && (g->n2 <= 1 || g->s2 % D == 0);
}

static GroupSpan worst_span_default(const Mapping *m, const Cluster *c, int kind)
{
    GroupSpan worst = {kind_size(m, kind), 1, 1, 1, false};
    if (worst.size <= 1)
        return worst;
    TierSizes ts = tier_sizes(c);
    long long period, outer, dom, mn, leaves, sites;
    GroupShape g = default_shape(m, kind, &period, &outer);
    worst_blocks(&g, period, outer, ts.domain, &dom, &mn);
    worst.domains = (int)dom;
    worst.min_per_domain = (int)mn;
    if (ts.leaf < c->n_gpus) {
        worst_blocks(&g, period, outer, ts.leaf, &leaves, &mn);
        worst.crosses_leaf = leaves > 1;
    }
    if (cluster_rail_unit_gpus(c) > 0 && worst.domains > 1 && !shape_on_rails(&g, ts.domain))
        worst.crosses_leaf = true;
    if (c->sites > 1) {
        worst_blocks(&g, period, outer, ts.site, &sites, &mn);
        worst.sites = (int)sites;
    }
    return worst;
}

/* ---- spans with an explicit placement (exact) --------------------------- */

/* The groups of one dimension as rank progressions: a group is
 * {base + i*s1 + j*s2 : i < n1, j < n2}, and the bases are
 * lo + mid*s1*n1 + hi*H for lo < s1, mid < M, hi < world / H. Decoding a
 * rank takes three divisions, no digit loop. */
typedef struct {
    long long s1, n1, s2, n2, M, H;
    long long world;
} DimWalk;

static DimWalk dim_walk(const Mapping *m, int kind)
{
    long long period, outer;
    GroupShape g = default_shape(m, kind, &period, &outer);
    DimWalk w = {g.s1, g.n1, g.s2, g.n2, 1, g.s1 * g.n1, mapping_world(m)};
    if (g.n2 > 1) {
        w.M = g.s2 / (g.s1 * g.n1);
        w.H = g.s2 * g.n2;
    } else {
        w.s2 = w.H;
    }
    return w;
}

static int walk_group_id(const DimWalk *w, long long r)
{
    long long lo = r % w->s1, mid = (r / (w->s1 * w->n1)) % w->M, hi = r / w->H;
    return (int)(lo + w->s1 * (mid + w->M * hi));
}

static long long walk_base(const DimWalk *w, long long r)
{
    long long lo = r % w->s1, mid = (r / (w->s1 * w->n1)) % w->M, hi = r / w->H;
    return lo + mid * w->s1 * w->n1 + hi * w->H;
}

/* Distinct blocks of one group and the fewest members in one of them. */
#define SMALL_GROUP 8

static void tally_group(PlacementWork *sc, const int *blk, const DimWalk *w, long long base,
                        int *distinct, int *min_per)
{
    if (w->n1 * w->n2 <= SMALL_GROUP) { /* pipelines: pairwise, in registers */
        int b[SMALL_GROUP], k = 0, nd = 0, mn = INT_MAX;
        for (long long j = 0; j < w->n2; j++)
            for (long long i = 0; i < w->n1; i++)
                b[k++] = blk[base + j * w->s2 + i * w->s1];
        for (int x = 0; x < k; x++) {
            bool seen = false;
            int same = 0;
            for (int y = 0; y < k; y++) {
                seen |= y < x && b[y] == b[x];
                same += b[y] == b[x];
            }
            if (!seen) {
                nd++;
                if (same < mn)
                    mn = same;
            }
        }
        *distinct = nd;
        *min_per = mn;
        return;
    }
    unsigned g = placement_work_stamp(sc);
    int nt = 0;
    for (long long j = 0; j < w->n2; j++) {
        const int *row = blk + base + j * w->s2;
        for (long long i = 0; i < w->n1; i++) {
            int b = row[i * w->s1];
            if (sc->bstamp[b] != g) {
                sc->bstamp[b] = g;
                sc->count[b] = 1;
                sc->touched[nt++] = b;
            } else {
                sc->count[b]++;
            }
        }
    }
    int mn = INT_MAX;
    for (int k = 0; k < nt; k++)
        if (sc->count[sc->touched[k]] < mn)
            mn = sc->count[sc->touched[k]];
    *distinct = nt;
    *min_per = mn;
}

/* Whether the members of one group sit in more than one block. */
static bool group_crosses(const int *blk, const DimWalk *w, long long base)
{
    int first = blk[base];
    for (long long j = 0; j < w->n2; j++)
        for (long long i = 0; i < w->n1; i++)
            if (blk[base + j * w->s2 + i * w->s1] != first)
                return true;
    return false;
}

/* The tiers an exact span looks at: NULL where one block holds every GPU. */
typedef struct {
    const int *dom, *leaf, *site;
} TierBlocks;

static TierBlocks tier_blocks(PlacementWork *sc, const Placement *p, const Cluster *c)
{
    TierSizes ts = tier_sizes(c);
    TierBlocks tb = {NULL, NULL, NULL};
    if (ts.domain < p->n)
        tb.dom = placement_work_blocks(sc, p, 0, ts.domain);
    if (ts.leaf < p->n && ts.leaf < c->n_gpus)
        tb.leaf = placement_work_blocks(sc, p, 1, ts.leaf);
    if (c->sites > 1 && ts.site < p->n)
        tb.site = placement_work_blocks(sc, p, 2, ts.site);
    return tb;
}

/* Whether the n GPUs in gpu[] (one group, any order) sit at the same
 * positions in every domain they touch: with nd domains and np distinct
 * positions that is nd x np == n (each position is at most once per domain,
 * so n = nd x np only when every position is in every domain). Uses
 * gpu[n..2n) as scratch. */
static bool ids_on_rails(PlacementWork *sc, int *gpu, int n, long long D)
{
    int *blk = gpu + n, nd, np, mn;
    DimWalk row = {1, n, n, 1, 1, n, n};
    for (int x = 0; x < n; x++)
        blk[x] = (int)(gpu[x] / D);
    tally_group(sc, blk, &row, 0, &nd, &mn);
    if (nd == 1)
        return true;
    for (int x = 0; x < n; x++)
        blk[x] = (int)(gpu[x] % D);
    tally_group(sc, blk, &row, 0, &np, &mn);
    return (long long)nd * np == n;
}

/* The GPUs of the group starting at base into sc->ids (n of them). */
static int group_gpus(PlacementWork *sc, const Placement *p, const DimWalk *w, long long base)
{
    int k = 0;
    for (long long j = 0; j < w->n2; j++)
        for (long long i = 0; i < w->n1; i++)
            sc->ids[k++] = p->gpu_of[base + j * w->s2 + i * w->s1];
    return k;
}

/* Exact span of the group starting at base from the GPU ids themselves
 * (a division per member and tier), for the few groups of a shortcut or one
 * group: building the rank -> block caches would cost O(ranks). */
static GroupSpan span_by_division(PlacementWork *sc, const Placement *p, const Cluster *c,
                                  const DimWalk *w, long long base)
{
    TierSizes ts = tier_sizes(c);
    int size = group_gpus(sc, p, w, base);
    int *gpu = sc->ids, *blk = sc->ids + sc->n;
    DimWalk row = {1, size, size, 1, 1, size, size};
    GroupSpan s = {size, 1, size, 1, false};
    long long sizes[3] = {ts.domain, ts.leaf < c->n_gpus ? ts.leaf : p->n,
                          c->sites > 1 ? ts.site : p->n};
    for (int t = 0; t < 3; t++) {
        if (sizes[t] >= p->n)
            continue;
        for (int x = 0; x < size; x++)
            blk[x] = (int)(gpu[x] / sizes[t]);
        int mn;
        if (t == 0)
            tally_group(sc, blk, &row, 0, &s.domains, &s.min_per_domain);
        else if (t == 1)
            s.crosses_leaf = group_crosses(blk, &row, 0);
        else
            tally_group(sc, blk, &row, 0, &s.sites, &mn);
    }
    if (cluster_rail_unit_gpus(c) > 0 && s.domains > 1 && !s.crosses_leaf)
        s.crosses_leaf = !ids_on_rails(sc, gpu, size, ts.domain);
    return s;
}

/* Default placement (GPU = rank): members come in increasing GPU order, so
 * blocks are counted as runs, with no memory. */
static void runs_default(const DimWalk *w, long long base, long long S, int *distinct,
                         int *min_per)
{
    long long prev = -1;
    int nd = 0, run = 0, mn = INT_MAX;
    for (long long j = 0; j < w->n2; j++)
        for (long long i = 0; i < w->n1; i++) {
            long long b = (base + j * w->s2 + i * w->s1) / S;
            if (b != prev) {
                if (nd > 0 && run < mn)
                    mn = run;
                nd++;
                run = 0;
                prev = b;
            }
            run++;
        }
    if (run < mn)
        mn = run;
    *distinct = nd;
    *min_per = mn;
}

/* The group's q-th GPU with the default placement (GPU order). */
static long long walk_member(const DimWalk *w, long long base, long long q)
{
    return base + q / w->n1 * w->s2 + q % w->n1 * w->s1;
}

/* ids_on_rails for a default-placement group, with no memory: its GPUs come
 * in increasing order, so it is on rails when the first domain's k members
 * repeat, position by position, in runs of k, one domain per run. */
static bool default_on_rails(const DimWalk *w, long long base, long long D)
{
    long long n = w->n1 * w->n2, k = 1, d0 = walk_member(w, base, 0) / D;
    while (k < n && walk_member(w, base, k) / D == d0)
        k++;
    if (k == n)
        return true;
    if (n % k != 0)
        return false;
    for (long long q = k; q < n; q++) {
        long long g = walk_member(w, base, q), h = walk_member(w, base, q - k);
        long long run = walk_member(w, base, q - q % k), prev = walk_member(w, base, q - 1);
        if (g % D != h % D || g / D != run / D || (q % k == 0 && g / D == prev / D))
            return false;
    }
    return true;
}

static GroupSpan span_default_exact(const Cluster *c, const DimWalk *w, long long base)
{
    TierSizes ts = tier_sizes(c);
    int size = (int)(w->n1 * w->n2), leaves, mn;
    GroupSpan s = {size, 1, size, 1, false};
    runs_default(w, base, ts.domain, &s.domains, &s.min_per_domain);
    runs_default(w, base, ts.leaf, &leaves, &mn);
    s.crosses_leaf = leaves > 1;
    if (cluster_rail_unit_gpus(c) > 0 && s.domains > 1 && !s.crosses_leaf)
        s.crosses_leaf = !default_on_rails(w, base, ts.domain);
    if (c->sites > 1)
        runs_default(w, base, ts.site, &s.sites, &mn);
    return s;
}

static bool span_worse(GroupSpan a, GroupSpan b)
{
    return a.domains > b.domains ||
           (a.domains == b.domains && a.min_per_domain < b.min_per_domain);
}

static void merge_span(GroupSpan *worst, GroupSpan s, bool first)
{
    bool leaf = worst->crosses_leaf || s.crosses_leaf;
    int sites = s.sites > worst->sites ? s.sites : worst->sites;
    if (first || span_worse(s, *worst))
        *worst = s;
    worst->crosses_leaf = leaf;
    worst->sites = sites;
}

/* How many groups at least share each worst default span. A group starts at
 * a + b*period (a < s1 inner digits, b < outer). Along b the spans repeat
 * with a period of S / gcd(period, S) for each tier size S; along a they are
 * all alike when s1 divides each tier size or is at least as large (else
 * count one). */
static long long groups_per_class(const Mapping *m, const Cluster *c, int kind)
{
    TierSizes ts = tier_sizes(c);
    long long period, outer;
    GroupShape g = default_shape(m, kind, &period, &outer);
    long long sizes[3] = {ts.domain, ts.leaf < c->n_gpus ? ts.leaf : 0,
                          c->sites > 1 ? ts.site : 0};
    long long classes = 1;
    bool a_alike = true;
    for (int t = 0; t < 3; t++) {
        if (sizes[t] <= 0)
            continue;
        long long cl = sizes[t] / mapping_gcd(period, sizes[t]);
        if (cl > classes)
            classes = cl;
        /* s1 | S: the inner digits never change a member's block; s1 >= S:
         * every member has a block of its own whatever a is. */
        if (sizes[t] % g.s1 != 0 && g.s1 < sizes[t])
            a_alike = false;
    }
    /* The worst start found is one of the starts tried, so its class holds
     * at least one b even when there are fewer b values than classes. */
    long long per_b = outer / classes > 1 ? outer / classes : 1;
    return per_b * (a_alike ? g.s1 : 1);
}

/* ---- spans on an irregular machine (exact) ------------------------------- */

/* A machine with spares, down GPUs, mixed domains or leaves that restart at
 * a site (cluster_is_regular false) is not a run of equal blocks, so no
 * closed form applies: every group is walked, each member's blocks taken
 * from cluster.c's own functions (cluster_domain_of, cluster_leaf_block_of,
 * cluster_site_of, cluster_rail_of), which therefore agree with the views.
 * Such machines are the small ones of scenarios; the cost is O(ranks x the
 * lookups) per dimension. */

/* Positions seen, for the rail rule without work memory. */
#define RAIL_SEEN_MAX 1024

/* The span of one group under the machine's default fill (rank r on the
 * r-th usable GPU, no work memory): members come in increasing GPU order and
 * every tier's blocks grow with the GPU id, so blocks are counted as runs. */
static GroupSpan span_fill_group(const Cluster *c, const DimWalk *w, long long base)
{
    int size = (int)(w->n1 * w->n2);
    GroupSpan s = {size, 0, size, 0, false};
    int pd = -1, ps = -1, run = 0, first_leaf = -1, np = 0;
    bool rails = cluster_rail_unit_gpus(c) > 0, pairwise = c->domain_gpus > RAIL_SEEN_MAX;
    unsigned char seen[RAIL_SEEN_MAX] = {0};
    for (int q = 0; q < size; q++) {
        int g = cluster_nth_usable(c, (int)walk_member(w, base, q));
        if (g < 0) /* fewer usable GPUs than ranks: cluster_check says so */
            break;
        int d = cluster_domain_of(c, g), l = cluster_leaf_block_of(c, g),
            t = cluster_site_of(c, g);
        if (d != pd) {
            if (s.domains > 0 && run < s.min_per_domain)
                s.min_per_domain = run;
            s.domains++;
            run = 0;
            pd = d;
        }
        run++;
        if (q == 0)
            first_leaf = l;
        s.crosses_leaf |= l != first_leaf;
        if (t != ps) {
            s.sites++;
            ps = t;
        }
        int pos = rails ? cluster_rail_of(c, g) : 0;
        if (rails && !pairwise && !seen[pos]) {
            seen[pos] = 1;
            np++;
        } else if (rails && pairwise) { /* a domain too wide for the table: count by hand */
            bool again = false;
            for (int k = 0; k < q && !again; k++)
                again =
                    cluster_rail_of(c, cluster_nth_usable(c, (int)walk_member(w, base, k))) == pos;
            np += !again;
        }
    }
    if (run < s.min_per_domain)
        s.min_per_domain = run;
    if (rails && s.domains > 1 && !s.crosses_leaf)
        s.crosses_leaf = (long long)s.domains * np != size;
    return s;
}

/* The span of one group of an explicit placement from the rank -> block
 * tables of each tier (blk[0] domain, [1] leaf block, [2] site, [3] rail;
 * NULL where not needed). */
static GroupSpan span_machine_group(PlacementWork *sc, const int *const blk[4], const DimWalk *w,
                                    long long base)
{
    int size = (int)(w->n1 * w->n2), mn;
    GroupSpan s = {size, 1, size, 1, false};
    tally_group(sc, blk[0], w, base, &s.domains, &s.min_per_domain);
    s.crosses_leaf = group_crosses(blk[1], w, base);
    if (blk[3] && s.domains > 1 && !s.crosses_leaf) {
        int np;
        tally_group(sc, blk[3], w, base, &np, &mn);
        s.crosses_leaf = (long long)s.domains * np != size;
    }
    if (blk[2])
        tally_group(sc, blk[2], w, base, &s.sites, &mn);
    return s;
}

/* Whether p places the job on the machine (one slot per machine GPU);
 * otherwise the machine's default fill is meant. */
static bool placed_on_machine(const Placement *p, const Cluster *c)
{
    return p && placement_gpus(p) == cluster_machine_gpus(c) && !placement_is_default(p);
}

/* The span of the group starting at base on an irregular machine. */
static GroupSpan span_machine_one(const Cluster *c, const Placement *p, const DimWalk *w,
                                  long long base, const int *const blk[4])
{
    if (!placed_on_machine(p, c))
        return span_fill_group(c, w, base);
    return span_machine_group(placement_work(p), blk, w, base);
}

/* The rank -> block tables of p's ranks on an irregular machine. */
static void machine_blocks(const Cluster *c, const Placement *p, const int *blk[4])
{
    for (int t = 0; t < 4; t++)
        blk[t] = NULL;
    if (!placed_on_machine(p, c))
        return;
    PlacementWork *sc = placement_work(p);
    blk[0] = placement_work_machine(sc, p, c, 0);
    blk[1] = placement_work_machine(sc, p, c, 1);
    if (c->sites > 1)
        blk[2] = placement_work_machine(sc, p, c, 2);
    if (cluster_rail_unit_gpus(c) > 0)
        blk[3] = placement_work_machine(sc, p, c, 3);
}

/* Calls fn(ctx, base, span) for every group of kind on an irregular
 * machine, in the order of the groups' bases. */
static void machine_each(const Mapping *m, const Cluster *c, const Placement *p, int kind,
                         void (*fn)(void *ctx, long long base, GroupSpan s), void *ctx)
{
    DimWalk w = dim_walk(m, kind);
    const int *blk[4];
    machine_blocks(c, p, blk);
    long long his = w.world / w.H, step = w.s1 * w.n1;
    for (long long hi = 0; hi < his; hi++)
        for (long long mid = 0; mid < w.M; mid++)
            for (long long lo = 0; lo < w.s1; lo++) {
                long long base = lo + mid * step + hi * w.H;
                fn(ctx, base, span_machine_one(c, p, &w, base, blk));
            }
}

static void machine_worst_fn(void *ctx, long long base, GroupSpan s)
{
    GroupSpan *worst = ctx;
    (void)base;
    merge_span(worst, s, worst->size == 0);
}

static GroupSpan worst_machine(const Mapping *m, const Cluster *c, const Placement *p, int kind)
{
    GroupSpan worst = {0, 0, 0, 0, false};
    machine_each(m, c, p, kind, machine_worst_fn, &worst);
    return worst;
}

static GroupSpan worst_of_kind(const Mapping *m, const Cluster *c, const Placement *p, int d)
{
    GroupSpan none = {0, 0, 0, 0, false};
    if (!mapping_has_layout(m) || !c || d < 0 || d >= KIND_COUNT)
        return none;
    if (kind_size(m, d) <= 1) {
        GroupSpan one = {kind_size(m, d), 1, 1, 1, false};
        return one;
    }
    if (!cluster_is_regular(c))
        return mapping_world(m) == c->n_gpus ? worst_machine(m, c, p, d) : none;
    if (placement_is_default(p))
        return worst_span_default(m, c, d);
    int world = mapping_world(m);
    if (placement_size(p) != world)
        return none;
    int size = kind_size(m, d);
    if (size <= 1) {
        GroupSpan one = {size, 1, 1, 1, false};
        return one;
    }
    PlacementWork *sc = placement_work(p);
    DimWalk w = dim_walk(m, d);
    /* Few moved ranks in a big cluster: only the groups holding a moved rank
     * can differ from the default. When fewer groups are touched than share
     * each worst default span, an untouched group still has it, so the worst
     * is the default worst merged with the touched groups' exact spans:
     * O(moved x group size) instead of O(ranks). Counting the touched groups
     * stops as soon as there are enough of them to need the full walk. */
    long long per_class = groups_per_class(m, c, d);
    unsigned pass = placement_work_stamp(sc);
    long long touched = 0;
    for (int i = 0; i < p->moved && touched < per_class; i++) {
        int g = walk_group_id(&w, p->moved_list[i]);
        if (sc->gstamp[g] != pass) {
            sc->gstamp[g] = pass;
            touched++;
        }
    }
    if (touched < per_class) {
        GroupSpan worst = worst_span_default(m, c, d);
        pass = placement_work_stamp(sc);
        for (int i = 0; i < p->moved; i++) {
            int r = p->moved_list[i], g = walk_group_id(&w, r);
            if (sc->gstamp[g] == pass)
                continue;
            sc->gstamp[g] = pass;
            merge_span(&worst, span_by_division(sc, p, c, &w, walk_base(&w, r)), false);
        }
        return worst;
    }
    /* Every group, each once from its base, one tier at a time: each tier's
     * walk stops once its worst reaches what no group can exceed (every
     * member in a block of its own, all blocks touched, a leaf crossed), so
     * a scattered placement often settles a tier after a few groups. */
    TierBlocks tb = tier_blocks(sc, p, c);
    GroupSpan worst = {size, 1, size, 1, false};
    TierSizes ts = tier_sizes(c);
    long long his = w.world / w.H, step = w.s1 * w.n1;
    long long cap_dom = (p->n + ts.domain - 1) / ts.domain;
    long long cap_site = (p->n + ts.site - 1) / ts.site;
    if (cap_dom > size)
        cap_dom = size;
    if (cap_site > size)
        cap_site = size;
    bool rails = cluster_rail_unit_gpus(c) > 0 && ts.domain < p->n;
    bool done_dom = !tb.dom, done_leaf = !tb.leaf && !rails, done_site = !tb.site;
    for (long long hi = 0; hi < his; hi++)
        for (long long mid = 0; mid < w.M; mid++)
            for (long long lo = 0; lo < w.s1; lo++) {
                long long base = lo + mid * step + hi * w.H;
                if (!done_dom) {
                    int nd, mn;
                    tally_group(sc, tb.dom, &w, base, &nd, &mn);
                    if (nd > worst.domains || (nd == worst.domains && mn < worst.min_per_domain)) {
                        worst.domains = nd;
                        worst.min_per_domain = mn;
                    }
                    done_dom = worst.domains >= cap_dom && worst.min_per_domain <= 1;
                }
                if (!done_leaf &&
                    ((tb.leaf && group_crosses(tb.leaf, &w, base)) ||
                     (rails &&
                      !ids_on_rails(sc, sc->ids, group_gpus(sc, p, &w, base), ts.domain)))) {
                    worst.crosses_leaf = true;
                    done_leaf = true;
                }
                if (!done_site) {
                    int ns, mn;
                    tally_group(sc, tb.site, &w, base, &ns, &mn);
                    if (ns > worst.sites)
                        worst.sites = ns;
                    done_site = worst.sites >= cap_site;
                }
                if (done_dom && done_leaf && done_site)
                    return worst;
            }
    return worst;
}

GroupSpan span_worst(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d)
{
    return d >= 0 && d < DIM_COUNT ? worst_of_kind(m, c, p, (int)d) : worst_of_kind(NULL, c, p, 0);
}

GroupSpan span_worst_expert(const Mapping *m, const Cluster *c, const Placement *p, SpanExpert e)
{
    return worst_of_kind(m, c, p, e == SPAN_EXPERT_TP ? KIND_ETP : KIND_EDP);
}

GroupSpan span_of_group(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d,
                        int rank)
{
    GroupSpan none = {0, 0, 0, 0, false};
    if (!mapping_has_layout(m) || !c || d < 0 || d >= DIM_COUNT || rank < 0 ||
        rank >= mapping_world(m))
        return none;
    if (p && placement_size(p) != mapping_world(m))
        return none;
    DimWalk w = dim_walk(m, d);
    long long base = walk_base(&w, rank);
    if (!cluster_is_regular(c)) {
        const int *blk[4];
        machine_blocks(c, p, blk);
        return span_machine_one(c, p, &w, base, blk);
    }
    if (!p || placement_is_default(p)) /* no placement is the default one */
        return span_default_exact(c, &w, base);
    return span_by_division(placement_work(p), p, c, &w, base);
}

/* ---- which groups cross ---------------------------------------------------- */

typedef struct {
    const Mapping *m;
    const Cluster *c;
    const Placement *p;
    MappingDim d;
    SpanCross what;
    int *ids, max, n;
    bool by_ends; /* default placement, regular machine, domains: crossing_group */
    DimWalk w;    /* d's walk */
} CrossWalk;

static bool crosses(GroupSpan s, SpanCross what)
{
    return what == SPAN_CROSS_DOMAIN  ? s.domains > 1
           : what == SPAN_CROSS_SPINE ? s.crosses_leaf
                                      : s.sites > 1;
}

/* Whether the group of `rank` crosses what cw asks about. With the default
 * placement on a regular machine a GPU is its rank and a domain a run of
 * consecutive GPUs, so a group is in one domain when its lowest and highest
 * GPUs are: two divisions instead of a walk over the group (a 1,024-wide
 * DP group would cost more than the rest of the evaluation). */
static bool crossing_group(const CrossWalk *cw, int rank)
{
    if (cw->by_ends) {
        const DimWalk *w = &cw->w;
        long long lo = walk_base(w, rank);
        long long hi = lo + (w->n2 - 1) * w->s2 + (w->n1 - 1) * w->s1;
        return cluster_domain_of(cw->c, (int)lo) != cluster_domain_of(cw->c, (int)hi);
    }
    return crosses(span_of_group(cw->m, cw->c, cw->p, cw->d, rank), cw->what);
}

/* Counts the group of head `rank` when it crosses, keeping the first
 * ids sorted (heads come in rank order, not always in id order). */
static void cross_add(CrossWalk *cw, int rank)
{
    if (!crossing_group(cw, rank))
        return;
    int id = mapping_group_of(cw->m, rank, cw->d);
    int at = cw->n < cw->max ? cw->n : cw->max;
    if (cw->ids) {
        while (at > 0 && cw->ids[at - 1] > id) {
            if (at < cw->max)
                cw->ids[at] = cw->ids[at - 1];
            at--;
        }
        if (at < cw->max)
            cw->ids[at] = id;
    }
    cw->n++;
}

int span_crossing_groups(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d,
                         SpanCross what, int *ids, int max)
{
    if (!mapping_has_layout(m) || !c || d < 0 || d >= DIM_COUNT || mapping_dim_size(m, d) <= 1)
        return 0;
    CrossWalk cw = {m, c, p, d, what, ids, max < 0 ? 0 : max, 0, false, dim_walk(m, d)};
    cw.by_ends = what == SPAN_CROSS_DOMAIN && placement_is_default(p) && cluster_is_regular(c);
    /* the first rank of every group of d (coordinate 0 along d), in rank
     * order: the walk's bases lo + mid x s1 x n1 + hi x H (walk_base),
     * counted out directly, not found among all the ranks */
    const DimWalk *w = &cw.w;
    for (long long hi = 0; hi * w->H < w->world; hi++)
        for (long long mid = 0; mid < w->M; mid++)
            for (long long lo = 0; lo < w->s1; lo++)
                cross_add(&cw, (int)(lo + mid * w->s1 * w->n1 + hi * w->H));
    return cw.n;
}
