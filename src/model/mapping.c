/* mapping — legality of a TP x CP x PP x DP (x EP) split, rank coordinates,
 * placements, and how the groups of one dimension spread over the tiers.
 *
 * Rank layout, innermost first: TP, CP, EP, PP, rest of DP (dp = ep * dpr):
 *   rank = tp_i + tp*(cp_i + cp*(ep_i + ep*(pp_i + pp*dpr_i)))
 * The DP coordinate of a rank is ep_i + ep*dpr_i, so a DP group holds the ranks
 * that share (tp_i, cp_i, pp_i); an EP group those that share everything but
 * ep_i.
 *
 * Tiers of a GPU g (must agree with cluster.h): domain g / domain_gpus, leaf
 * g / gpus_per_leaf, site domain / domains_per_site, with domains_per_site =
 * ceil(domains / sites).
 *
 * Spans with the default placement (rank r on GPU r) are computed without
 * visiting GPUs or groups: a group of one dimension is an arithmetic
 * progression x + i*s (i < n) of GPU ids (DP with EP > 1: a progression of such
 * progressions), and how many blocks of D consecutive GPUs such a progression
 * touches is closed-form. The worst group is found by trying the group starts
 * x that differ modulo D: at most D / gcd(period, D) of them, a number bounded
 * by the domain size and independent of the cluster size (1 in the common
 * case where the domain size is a multiple of the group period). The closed
 * form's fewest-per-domain is approximate where a progression's interior
 * blocks or a DP-with-EP group's sub-groups split unevenly (e.g. 8 for the
 * true 6). Explicit placements are walked exactly in O(ranks): see the
 * explicit-span section.
 *
 * Pure: no I/O. Placement is the only allocated object (xmem policy).
 */
#include "model/mapping.h"

#include "base/xmem.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...)                                                                                 \
    do {                                                                                          \
        if (err && err_len)                                                                       \
            snprintf(err, err_len, __VA_ARGS__);                                                  \
        return false;                                                                             \
    } while (0)

char *mapping_format(const Mapping *m, char *buf, size_t buf_len)
{
    if (!buf || buf_len == 0)
        return buf;
    if (!m) {
        snprintf(buf, buf_len, "(none)");
        return buf;
    }
    int n = snprintf(buf, buf_len, "TP%d", m->tp);
    if (m->cp > 1 && n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, " CP%d", m->cp);
    if (n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, " PP%d", m->pp);
    if (m->interleave > 1 && n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, "x%d", m->interleave);
    if (n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, " DP%d", m->dp);
    if (m->ep > 1 && n >= 0 && (size_t)n < buf_len)
        snprintf(buf + n, buf_len - (size_t)n, " EP%d", m->ep);
    return buf;
}

int mapping_world(const Mapping *m)
{
    if (!m)
        return 0;
    long long w = (long long)m->tp * m->cp * m->pp * m->dp;
    return (w > 0 && w <= INT_MAX) ? (int)w : 0;
}

bool mapping_check(const Mapping *m, const Cluster *c, const Workload *w, char *err,
                   size_t err_len)
{
    if (!m)
        FAIL("no mapping");
    if (m->tp < 1 || m->cp < 1 || m->pp < 1 || m->dp < 1 || m->ep < 1)
        FAIL("TP, CP, PP, DP and EP must be at least 1 (got TP %d CP %d PP %d DP %d EP %d)", m->tp,
             m->cp, m->pp, m->dp, m->ep);
    if (m->interleave < 1)
        FAIL("interleave must be at least 1 (got %d)", m->interleave);
    if (m->zero < 0 || m->zero > 3)
        FAIL("ZeRO stage must be 0, 1, 2 or 3 (got %d)", m->zero);
    long long world = (long long)m->tp * m->cp * m->pp * m->dp;
    if (world > CLUSTER_MAX_GPUS)
        FAIL("TP %d x CP %d x PP %d x DP %d = %lld GPUs is too many", m->tp, m->cp, m->pp, m->dp,
             world);
    if (c && world != c->n_gpus)
        FAIL("TP %d x CP %d x PP %d x DP %d = %lld GPUs, but the cluster has %d", m->tp, m->cp,
             m->pp, m->dp, world, c->n_gpus);
    if (m->dp % m->ep != 0)
        FAIL("EP %d does not divide DP %d (experts are spread over data-parallel ranks)", m->ep,
             m->dp);
    if (!w)
        return true;
    if (w->heads % m->tp != 0)
        FAIL("TP %d does not divide the %d attention heads", m->tp, w->heads);
    if (w->kv_heads % m->tp != 0 && m->tp % w->kv_heads != 0)
        FAIL("TP %d and the %d KV heads do not divide one another", m->tp, w->kv_heads);
    if (w->ffn % m->tp != 0)
        FAIL("TP %d does not divide the feed-forward width %d", m->tp, w->ffn);
    if (w->seq % m->cp != 0)
        FAIL("CP %d does not divide the sequence length %d", m->cp, w->seq);
    if (m->pp > w->layers)
        FAIL("PP %d is more pipeline stages than the %d layers", m->pp, w->layers);
    if (m->ep > 1 && !workload_is_moe(w))
        FAIL("EP %d needs a mixture-of-experts model; this one is dense", m->ep);
    if (workload_is_moe(w) && w->experts % m->ep != 0)
        FAIL("EP %d does not divide the %d experts", m->ep, w->experts);
    long long per_step = (long long)m->dp * w->micro_batch;
    if (w->global_batch % per_step != 0)
        FAIL("global batch %d is not a multiple of DP %d x micro-batch %d = %lld", w->global_batch,
             m->dp, w->micro_batch, per_step);
    if (m->interleave > 1) {
        long long mb = w->global_batch / per_step;
        if (m->pp < 2)
            FAIL("interleave %d needs pipeline parallelism (PP >= 2)", m->interleave);
        /* Chunks may be uneven, as stages may (Llama 3 405B: 126 layers on
         * PP 16, §3.3.2); step.c charges the largest. Each needs a layer. */
        if ((long long)m->pp * m->interleave > w->layers)
            FAIL("interleave: PP %d x %d chunks = %lld is more chunks than the %d layers", m->pp,
                 m->interleave, (long long)m->pp * m->interleave, w->layers);
        if (mb % m->pp != 0)
            FAIL("interleave needs the %lld micro-batches to be a multiple of PP %d", mb, m->pp);
    }
    return true;
}

int mapping_dim_size(const Mapping *m, MappingDim d)
{
    if (!m)
        return 0;
    switch (d) {
    case DIM_TP:
        return m->tp;
    case DIM_CP:
        return m->cp;
    case DIM_EP:
        return m->ep;
    case DIM_PP:
        return m->pp;
    case DIM_DP:
        return m->dp;
    default:
        return 0;
    }
}

const char *mapping_dim_name(MappingDim d)
{
    static const char *names[DIM_COUNT] = {"TP", "CP", "EP", "PP", "DP"};
    return (d >= 0 && d < DIM_COUNT) ? names[d] : "?";
}

/* The five radix digits of a rank: tp, cp, ep, pp, dp-rest. */
enum { R_TP, R_CP, R_EP, R_PP, R_DPR, R_COUNT };

static void radix_sizes(const Mapping *m, int size[R_COUNT])
{
    size[R_TP] = m->tp;
    size[R_CP] = m->cp;
    size[R_EP] = m->ep;
    size[R_PP] = m->pp;
    size[R_DPR] = m->ep > 0 ? m->dp / m->ep : m->dp;
}

static bool radix_ok(const Mapping *m)
{
    return m && m->tp >= 1 && m->cp >= 1 && m->ep >= 1 && m->pp >= 1 && m->dp >= 1 &&
           m->dp % m->ep == 0 && mapping_world(m) > 0;
}

static void rank_digits(const Mapping *m, int rank, int dig[R_COUNT])
{
    int size[R_COUNT];
    radix_sizes(m, size);
    for (int i = 0; i < R_COUNT; i++) {
        dig[i] = rank % size[i];
        rank /= size[i];
    }
}

int mapping_coord(const Mapping *m, int rank, MappingDim d)
{
    if (!radix_ok(m) || rank < 0 || rank >= mapping_world(m))
        return -1;
    int dig[R_COUNT];
    rank_digits(m, rank, dig);
    switch (d) {
    case DIM_TP:
        return dig[R_TP];
    case DIM_CP:
        return dig[R_CP];
    case DIM_EP:
        return dig[R_EP];
    case DIM_PP:
        return dig[R_PP];
    case DIM_DP:
        return dig[R_EP] + m->ep * dig[R_DPR];
    default:
        return -1;
    }
}

/* Whether radix digit i varies inside a group of dimension d. */
static bool digit_in_dim(MappingDim d, int i)
{
    switch (d) {
    case DIM_TP:
        return i == R_TP;
    case DIM_CP:
        return i == R_CP;
    case DIM_EP:
        return i == R_EP;
    case DIM_PP:
        return i == R_PP;
    case DIM_DP:
        return i == R_EP || i == R_DPR;
    default:
        return false;
    }
}

int mapping_group_of(const Mapping *m, int rank, MappingDim d)
{
    if (!radix_ok(m) || rank < 0 || rank >= mapping_world(m) || d < 0 || d >= DIM_COUNT)
        return -1;
    int dig[R_COUNT], size[R_COUNT];
    rank_digits(m, rank, dig);
    radix_sizes(m, size);
    int g = 0;
    for (int i = R_COUNT - 1; i >= 0; i--)
        if (!digit_in_dim(d, i))
            g = g * size[i] + dig[i];
    return g;
}

/* ---- placement ---------------------------------------------------------- */

struct SpanScratch;
static void scratch_free(struct SpanScratch *sc);
static void scratch_moved(struct SpanScratch *sc, int rank, int gpu);
static void scratch_copy_blocks(Placement *to, const Placement *from);

struct Placement {
    int n;
    int moved;                   /* ranks not on their default GPU */
    int *gpu_of;                 /* rank -> GPU */
    int *rank_on;                /* GPU -> rank */
    int *moved_list;             /* the moved ranks, in no order (moved entries) */
    int *moved_pos;              /* rank -> index in moved_list, -1 when not moved */
    struct SpanScratch *scratch; /* exact-span work memory, made on first use */
};

Placement *placement_new(int n_ranks)
{
    if (n_ranks < 1 || n_ranks > CLUSTER_MAX_GPUS)
        return NULL;
    Placement *p = xmalloc(sizeof *p);
    p->n = n_ranks;
    p->moved = 0;
    p->gpu_of = xmalloc((size_t)n_ranks * sizeof *p->gpu_of);
    p->rank_on = xmalloc((size_t)n_ranks * sizeof *p->rank_on);
    p->moved_list = xmalloc((size_t)n_ranks * sizeof *p->moved_list);
    p->moved_pos = xmalloc((size_t)n_ranks * sizeof *p->moved_pos);
    p->scratch = NULL;
    for (int i = 0; i < n_ranks; i++) {
        p->gpu_of[i] = p->rank_on[i] = i;
        p->moved_pos[i] = -1;
    }
    return p;
}

/* Keeps rank r's membership of the moved list in step with gpu_of. */
static void placement_track(Placement *p, int r)
{
    bool moved = p->gpu_of[r] != r;
    if (moved && p->moved_pos[r] < 0) {
        p->moved_pos[r] = p->moved;
        p->moved_list[p->moved++] = r;
    } else if (!moved && p->moved_pos[r] >= 0) {
        int at = p->moved_pos[r], last = p->moved_list[--p->moved];
        p->moved_list[at] = last;
        p->moved_pos[last] = at;
        p->moved_pos[r] = -1;
    }
}

Placement *placement_dup(const Placement *p)
{
    if (!p)
        return NULL;
    Placement *q = placement_new(p->n);
    q->moved = p->moved;
    memcpy(q->gpu_of, p->gpu_of, (size_t)p->n * sizeof *q->gpu_of);
    memcpy(q->rank_on, p->rank_on, (size_t)p->n * sizeof *q->rank_on);
    memcpy(q->moved_list, p->moved_list, (size_t)p->n * sizeof *q->moved_list);
    memcpy(q->moved_pos, p->moved_pos, (size_t)p->n * sizeof *q->moved_pos);
    scratch_copy_blocks(q, p);
    return q;
}

void placement_free(Placement *p)
{
    if (!p)
        return;
    free(p->gpu_of);
    free(p->rank_on);
    free(p->moved_list);
    free(p->moved_pos);
    scratch_free(p->scratch);
    free(p);
}

int placement_size(const Placement *p)
{
    return p ? p->n : 0;
}

int placement_gpu_of(const Placement *p, int rank)
{
    return (p && rank >= 0 && rank < p->n) ? p->gpu_of[rank] : -1;
}

int placement_rank_on(const Placement *p, int gpu)
{
    return (p && gpu >= 0 && gpu < p->n) ? p->rank_on[gpu] : -1;
}

bool placement_is_default(const Placement *p)
{
    return !p || p->moved == 0;
}

bool placement_swap_gpus(Placement *p, int gpu_a, int gpu_b)
{
    if (!p || gpu_a < 0 || gpu_b < 0 || gpu_a >= p->n || gpu_b >= p->n)
        return false;
    if (gpu_a == gpu_b)
        return true;
    int ra = p->rank_on[gpu_a], rb = p->rank_on[gpu_b];
    p->rank_on[gpu_a] = rb;
    p->rank_on[gpu_b] = ra;
    p->gpu_of[ra] = gpu_b;
    p->gpu_of[rb] = gpu_a;
    placement_track(p, ra);
    placement_track(p, rb);
    scratch_moved(p->scratch, ra, gpu_b);
    scratch_moved(p->scratch, rb, gpu_a);
    return true;
}

/* ---- tiers of a GPU ----------------------------------------------------- */

typedef struct {
    long long domain; /* GPUs per domain */
    long long leaf;   /* GPUs per leaf switch */
    long long site;   /* GPUs per site */
} TierSizes;

static TierSizes tier_sizes(const Cluster *c)
{
    TierSizes t;
    long long n = c->n_gpus > 0 ? c->n_gpus : 1;
    t.domain = c->domain_gpus > 0 ? c->domain_gpus : n;
    t.leaf = c->gpus_per_leaf > 0 ? c->gpus_per_leaf : n;
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

static long long gcd_ll(long long a, long long b)
{
    while (b) {
        long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static GroupShape default_shape(const Mapping *m, MappingDim d, long long *period,
                                long long *groups_outer)
{
    GroupShape g = {1, 1, 1, 1};
    long long tp = m->tp, cp = m->cp, ep = m->ep, pp = m->pp, dpr = m->dp / m->ep;
    long long world = tp * cp * ep * pp * dpr;
    switch (d) {
    case DIM_TP:
        g.s1 = 1;
        g.n1 = tp;
        break;
    case DIM_CP:
        g.s1 = tp;
        g.n1 = cp;
        break;
    case DIM_EP:
        g.s1 = tp * cp;
        g.n1 = ep;
        break;
    case DIM_PP:
        g.s1 = tp * cp * ep;
        g.n1 = pp;
        break;
    case DIM_DP:
        if (ep > 1) {
            g.s1 = tp * cp;
            g.n1 = ep;
            g.s2 = tp * cp * ep * pp;
            g.n2 = dpr;
        } else {
            g.s1 = tp * cp * pp;
            g.n1 = dpr;
        }
        break;
    default:
        break;
    }
    /* Group starts: x = a + b*P with a < s1 (inner digits) and b counting the
     * outer digits; P = s1*n1 when the group is one progression. */
    *period = g.n2 > 1 ? g.s2 * g.n2 : g.s1 * g.n1;
    if (g.n2 > 1 && pp > 1)
        *period = g.s1 * g.n1; /* DP with EP: starts step by tp*cp*ep over pp first */
    *groups_outer = world / (g.n1 * g.n2 * g.s1);
    return g;
}

#define SPAN_MAX_STARTS 64

/* Worst blocks of size S touched by a group over the group starts
 * a + b*period (a in {0, s1-1}, b < outer). When the starts hit every
 * residue class modulo S that a multiple of gcd(period, S) can (outer large),
 * the latest such residue is the worst start, so one evaluation is enough;
 * otherwise the few starts are tried one by one. */
static void worst_blocks(const GroupShape *g, long long period, long long outer, long long S,
                         long long *count, long long *min_per)
{
    long long step = gcd_ll(period, S);
    long long classes = S / step;
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

static GroupSpan worst_span_default(const Mapping *m, const Cluster *c, MappingDim d)
{
    GroupSpan worst = {mapping_dim_size(m, d), 1, 1, 1, false};
    if (worst.size <= 1)
        return worst;
    TierSizes ts = tier_sizes(c);
    long long period, outer, dom, mn, leaves, sites;
    GroupShape g = default_shape(m, d, &period, &outer);
    worst_blocks(&g, period, outer, ts.domain, &dom, &mn);
    worst.domains = (int)dom;
    worst.min_per_domain = (int)mn;
    if (ts.leaf < c->n_gpus) {
        worst_blocks(&g, period, outer, ts.leaf, &leaves, &mn);
        worst.crosses_leaf = leaves > 1;
    }
    if (c->sites > 1) {
        worst_blocks(&g, period, outer, ts.site, &sites, &mn);
        worst.sites = (int)sites;
    }
    return worst;
}

/* ---- spans with an explicit placement (exact) --------------------------- */

/* Work memory for exact spans, owned by the Placement: made on the first
 * exact span, reused by every later one, so an evaluation allocates nothing.
 * block[t][r] caches the tier-t block (0 domain, 1 leaf, 2 site) of the GPU
 * that runs rank r, for the block size block_size[t]; it is built in one pass
 * over the GPUs without division, and placement_swap_gpus keeps it in step.
 * bstamp[] marks, per block, the group that last touched it, and gstamp[],
 * per group id, the pass that last counted it, so nothing is cleared between
 * groups: one counting pass per group, no sort. The scratch is written behind
 * a const Placement, so two threads must not take spans of one placement at
 * once (scalelab evaluates on one thread). */
struct SpanScratch {
    int n;
    long long block_size[3]; /* 0: block[t] not built */
    int *block[3];           /* rank -> block id, per tier */
    unsigned *bstamp;        /* block id -> stamp of the group counted last */
    unsigned *gstamp;        /* group id -> stamp of the pass that saw it */
    int *count;              /* block id -> members of the current group */
    int *touched;            /* blocks the current group touched */
    int *ids;                /* 2n: one group's GPUs, then their blocks */
    unsigned gen;            /* last stamp handed out */
};
typedef struct SpanScratch SpanScratch;

static void scratch_free(SpanScratch *sc)
{
    if (!sc)
        return;
    for (int t = 0; t < 3; t++)
        free(sc->block[t]);
    free(sc->bstamp);
    free(sc->gstamp);
    free(sc->count);
    free(sc->touched);
    free(sc->ids);
    free(sc);
}

static void scratch_moved(SpanScratch *sc, int rank, int gpu)
{
    if (!sc)
        return;
    for (int t = 0; t < 3; t++)
        if (sc->block_size[t] > 0)
            sc->block[t][rank] = (int)(gpu / sc->block_size[t]);
}

static SpanScratch *scratch_of(const Placement *p)
{
    /* The Placement is never const where it was made; the scratch pointer is
     * its one cache (see above). */
    Placement *q = (Placement *)p;
    if (!q->scratch) {
        SpanScratch *sc = xcalloc(1, sizeof *sc);
        size_t n = (size_t)p->n;
        sc->n = p->n;
        sc->bstamp = xcalloc(n, sizeof *sc->bstamp);
        sc->gstamp = xcalloc(n, sizeof *sc->gstamp);
        sc->count = xmalloc(n * sizeof *sc->count);
        sc->touched = xmalloc(n * sizeof *sc->touched);
        sc->ids = xmalloc(2 * n * sizeof *sc->ids);
        q->scratch = sc;
    }
    return q->scratch;
}

/* A copy takes over the work memory, rank -> block caches included (they
 * describe the copy too): a scenario copies its placement on every move and
 * keeps the old one only for undo, so the memory follows the placement being
 * evaluated instead of staying with up to 256 undo states, and the caches
 * need no rebuilding. The original makes new work memory if it is evaluated
 * again. */
static void scratch_copy_blocks(Placement *to, const Placement *from)
{
    Placement *src = (Placement *)from; /* the cache pointer only, see scratch_of */
    if (!src->scratch || to->scratch)
        return;
    to->scratch = src->scratch;
    src->scratch = NULL;
}

static unsigned next_stamp(SpanScratch *sc)
{
    if (++sc->gen == 0) { /* wrapped: old stamps could match again */
        memset(sc->bstamp, 0, (size_t)sc->n * sizeof *sc->bstamp);
        memset(sc->gstamp, 0, (size_t)sc->n * sizeof *sc->gstamp);
        sc->gen = 1;
    }
    return sc->gen;
}

/* rank -> block of tier t for blocks of S GPUs, built once per size. */
static const int *scratch_blocks(SpanScratch *sc, const Placement *p, int t, long long S)
{
    if (sc->block_size[t] == S)
        return sc->block[t];
    if (!sc->block[t])
        sc->block[t] = xmalloc((size_t)sc->n * sizeof *sc->block[t]);
    int b = 0;
    long long left = S;
    for (int g = 0; g < sc->n; g++) {
        sc->block[t][p->rank_on[g]] = b;
        if (--left == 0) {
            b++;
            left = S;
        }
    }
    sc->block_size[t] = S;
    return sc->block[t];
}

/* The groups of one dimension as rank progressions: a group is
 * {base + i*s1 + j*s2 : i < n1, j < n2}, and the bases are
 * lo + mid*s1*n1 + hi*H for lo < s1, mid < M, hi < world / H. Decoding a
 * rank takes three divisions, no digit loop. */
typedef struct {
    long long s1, n1, s2, n2, M, H;
    long long world;
} DimWalk;

static DimWalk dim_walk(const Mapping *m, MappingDim d)
{
    long long period, outer;
    GroupShape g = default_shape(m, d, &period, &outer);
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

static void tally_group(SpanScratch *sc, const int *blk, const DimWalk *w, long long base,
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
    unsigned g = next_stamp(sc);
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

static TierBlocks tier_blocks(SpanScratch *sc, const Placement *p, const Cluster *c)
{
    TierSizes ts = tier_sizes(c);
    TierBlocks tb = {NULL, NULL, NULL};
    if (ts.domain < p->n)
        tb.dom = scratch_blocks(sc, p, 0, ts.domain);
    if (ts.leaf < p->n && ts.leaf < c->n_gpus)
        tb.leaf = scratch_blocks(sc, p, 1, ts.leaf);
    if (c->sites > 1 && ts.site < p->n)
        tb.site = scratch_blocks(sc, p, 2, ts.site);
    return tb;
}

/* Exact span of the group starting at base from the GPU ids themselves
 * (a division per member and tier), for the few groups of a shortcut or one
 * group: building the rank -> block caches would cost O(ranks). */
static GroupSpan span_by_division(SpanScratch *sc, const Placement *p, const Cluster *c,
                                  const DimWalk *w, long long base)
{
    TierSizes ts = tier_sizes(c);
    int size = (int)(w->n1 * w->n2), k = 0;
    int *gpu = sc->ids, *blk = sc->ids + sc->n;
    for (long long j = 0; j < w->n2; j++)
        for (long long i = 0; i < w->n1; i++)
            gpu[k++] = p->gpu_of[base + j * w->s2 + i * w->s1];
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

static GroupSpan span_default_exact(const Cluster *c, const DimWalk *w, long long base)
{
    TierSizes ts = tier_sizes(c);
    int size = (int)(w->n1 * w->n2), leaves, mn;
    GroupSpan s = {size, 1, size, 1, false};
    runs_default(w, base, ts.domain, &s.domains, &s.min_per_domain);
    runs_default(w, base, ts.leaf, &leaves, &mn);
    s.crosses_leaf = leaves > 1;
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
static long long groups_per_class(const Mapping *m, const Cluster *c, MappingDim d)
{
    TierSizes ts = tier_sizes(c);
    long long period, outer;
    GroupShape g = default_shape(m, d, &period, &outer);
    long long sizes[3] = {ts.domain, ts.leaf < c->n_gpus ? ts.leaf : 0,
                          c->sites > 1 ? ts.site : 0};
    long long classes = 1;
    bool a_alike = true;
    for (int t = 0; t < 3; t++) {
        if (sizes[t] <= 0)
            continue;
        long long cl = sizes[t] / gcd_ll(period, sizes[t]);
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

GroupSpan mapping_worst_span(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d)
{
    GroupSpan none = {0, 0, 0, 0, false};
    if (!radix_ok(m) || !c || d < 0 || d >= DIM_COUNT)
        return none;
    if (placement_is_default(p))
        return worst_span_default(m, c, d);
    int world = mapping_world(m);
    if (placement_size(p) != world)
        return none;
    int size = mapping_dim_size(m, d);
    if (size <= 1) {
        GroupSpan one = {size, 1, 1, 1, false};
        return one;
    }
    SpanScratch *sc = scratch_of(p);
    DimWalk w = dim_walk(m, d);
    /* Few moved ranks in a big cluster: only the groups holding a moved rank
     * can differ from the default. When fewer groups are touched than share
     * each worst default span, an untouched group still has it, so the worst
     * is the default worst merged with the touched groups' exact spans:
     * O(moved x group size) instead of O(ranks). Counting the touched groups
     * stops as soon as there are enough of them to need the full walk. */
    long long per_class = groups_per_class(m, c, d);
    unsigned pass = next_stamp(sc);
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
        pass = next_stamp(sc);
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
    bool done_dom = !tb.dom, done_leaf = !tb.leaf, done_site = !tb.site;
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
                if (!done_leaf && group_crosses(tb.leaf, &w, base)) {
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

GroupSpan mapping_group_span(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d,
                             int rank)
{
    GroupSpan none = {0, 0, 0, 0, false};
    if (!radix_ok(m) || !c || d < 0 || d >= DIM_COUNT || rank < 0 || rank >= mapping_world(m))
        return none;
    if (p && placement_size(p) != mapping_world(m))
        return none;
    DimWalk w = dim_walk(m, d);
    long long base = walk_base(&w, rank);
    if (placement_is_default(p))
        return span_default_exact(c, &w, base);
    return span_by_division(scratch_of(p), p, c, &w, base);
}
