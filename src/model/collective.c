/* SPDX-License-Identifier: MIT */
/* collective — alpha-beta cost of a collective over the tiers its group spans.
 *
 * Terms (NVIDIA/nccl-tests doc/PERFORMANCE.md): S = the buffer in bytes, n
 * ranks, t = time; algbw = S/t; busbw = algbw * F with F = 2(n-1)/n for
 * all-reduce and (n-1)/n for reduce-scatter, all-gather and all-to-all. A ring
 * keeps busbw at the link's achievable rate B whatever n is, so
 *   t = alpha + S * F / B.
 * B = line rate x efficiency: NVLink reaches about 370 of 450 GB/s (0.82,
 * NCCL maintainers, NVIDIA/nccl-tests#212), an NDR NIC 46-48 of 50 GB/s
 * (0.94, NVIDIA/nccl-tests#290).
 *
 * Hierarchy. A group of n ranks over m domains (k ranks in the emptiest
 * domain, k_in = n/m on average) and sigma sites (m_s = m/sigma domains per
 * site) reduces in stages, each GPU using its own NIC (rail-optimised):
 *   reduce-scatter  up:     S (k-1)/k                / B_up
 *                   out:    (S/k) (m_s-1)/m_s        / B_out
 *                   across: (S/(k m_s)) (sigma-1)/sigma / B_across_share
 * all-gather is the mirror image and all-reduce = reduce-scatter +
 * all-gather (2x each term). With m = 1 this is the flat ring
 * 2(n-1)/n * S / B_up; with k = 1 (one rank per domain) every byte goes over
 * the NIC. The emptiest domain sets the pace: its GPUs carry S/k each, so
 * fuller domains reduce in sub-groups of k (NVSwitch links any subset):
 * reducing over more ranks inside would add scale-up work and save no NIC
 * byte. Hence a domain merged from smaller ones never costs more than they
 * did (k and m can only improve), and a 7 + 1 split runs as the flat ring
 * over the NICs that its lone GPU forces anyway.
 * B_out is divided by the oversubscription when the group's traffic climbs
 * to the spine (span.c's spine rule: off one leaf, or on a rail-optimized
 * fabric off one rail). The scale-across link is shared: B_across_share = across rate /
 * (GPUs crossing at once, by default every GPU of a site).
 *
 * All-to-all: each rank sends S/n to every rank. The share (k_in-1)/n stays
 * in the domain, (n/sigma - k_in)/n goes over the NIC to other domains of the
 * site, (n - n/sigma)/n crosses sites; the tiers run at once, so the slowest
 * bounds the time. Send/recv: S over the one tier between the two GPUs.
 *
 * Latency alpha: an all-reduce pays (k-1) ring steps of up_lat_s per
 * scale-up phase and, across domains and sites, NCCL's tree: ceil(log2 m_s)
 * steps of out_lat_s and ceil(log2 sigma) of across_lat_s per phase.
 * Reduce-scatter and all-gather have only the ring, and NCCL's ring visits
 * every rank whatever the bandwidth hierarchy: n-1 steps, of which m-1 cross
 * domains (m-sigma inside sites, sigma-1 between them) and n-m stay inside
 * (NVIDIA/nccl src/graph/tuning.cc: latency = base + (nsteps - nInterSteps)
 * x intraLat + nInterSteps x interLat, MODEL-FACTS §4.2): linear in n, so
 * ZeRO-3's per-parameter gathers over 1,536 A100s pay 1,344 NVLink and 191
 * network steps each.
 *
 * Fixed cost and small messages (MODEL-FACTS §3, §4.2, §9). Every collective
 * pays fixed_s once (launch and NCCL's base latency) plus the step latencies
 * above. nccl-tests on one DGX A100 (single-channel ring all-reduce of tiny
 * messages, NVIDIA/nccl-tests#123, confirmed by the maintainer) takes 10 us
 * on 2 GPUs and 33.7 us on 8: 2(n-1) steps of ~2 us (the presets' 1.9 us,
 * NCCL tuning.cc LL128) plus ~6 us: fixed_s = 6 us [tuned on those two
 * points]. A 2 KB all-reduce on 8 A100 then costs 6 + 14 x 1.9 = 32.6 us.
 *
 * Mid-size messages fall short of the peak bus bandwidth: NCCL moves small
 * buffers with its LL protocol at about half the link rate and large ones
 * with Simple at the full rate (tuning.cc). Each tier's bandwidth time is
 * multiplied by 1 + ramp/(S + ramp): 2 for tiny buffers, 1 for large, so
 * the ramp never adds a fixed cost. nccl-tests all_reduce_perf on 8 Hopper
 * GPUs (kvcache-ai/Mooncake#3484) takes 121 us at 16 MB and 195 at 32 MB;
 * with B = 370 GB/s and the latency above, ramp_bytes = 4 MB gives 128 and
 * 209 us [tuned on those points]; multi-GB buffers stay within 1% of B, as
 * NCCL's ~370 GB/s large-message figure says (held out: test_fidelity.c).
 *
 * Pure: no I/O, no allocation.
 */
#include "model/collective.h"

#include <math.h>

CollParams collective_params_default(void)
{
    CollParams p = {
        .up_efficiency = 370.0 / 450.0, /* NVIDIA/nccl-tests#212, NVIDIA/nccl#1442 */
        .out_efficiency = 47.0 / 50.0,  /* NVIDIA/nccl-tests#290: 46-48 GB/s per NDR NIC */
        .fixed_s = 6e-6,                /* NVIDIA/nccl-tests#123, see above */
        .ramp_bytes = 4e6,              /* nccl-tests all_reduce_perf, see above */
        .across_sharers = 0,
    };
    return p;
}

const char *collective_name(CollKind kind)
{
    switch (kind) {
    case COLL_ALL_REDUCE:
        return "all-reduce";
    case COLL_REDUCE_SCATTER:
        return "reduce-scatter";
    case COLL_ALL_GATHER:
        return "all-gather";
    case COLL_ALL_TO_ALL:
        return "all-to-all";
    case COLL_SEND_RECV:
        return "send/recv";
    default:
        return "?";
    }
}

const char *tier_name(Tier t)
{
    switch (t) {
    case TIER_UP:
        return "scale-up";
    case TIER_OUT:
        return "scale-out";
    case TIER_ACROSS:
        return "scale-across";
    default:
        return "?";
    }
}

static double log2_steps(double m)
{
    return m > 1 ? ceil(log2(m)) : 0;
}

typedef struct {
    double up_bps, out_bps, across_bps; /* achievable per-GPU rates */
    double n, m, k, k_in, sigma, m_s;
} Geometry;

static Geometry geometry(GroupSpan span, const Cluster *c, const CollParams *p)
{
    Geometry g;
    g.n = span.size > 0 ? span.size : 1;
    const int domains = span.domains > 0 ? span.domains : 1,
              sites = span.sites > 1 ? span.sites : 1;
    g.m = domains;
    g.k = span.min_per_domain > 0 ? span.min_per_domain : 1;
    g.k_in = g.n / g.m;
    if (g.k_in < 1)
        g.k_in = 1;
    g.sigma = sites;
    g.m_s = (domains + sites - 1) / sites; /* ceil(m / sigma) */
    g.up_bps = c->up_bytes_per_s * p->up_efficiency;
    g.out_bps = c->out_bytes_per_s * p->out_efficiency;
    if (span.crosses_leaf && c->oversub > 1)
        g.out_bps /= c->oversub;
    double sharers = p->across_sharers;
    if (sharers <= 0)
        sharers = (double)c->n_gpus / (c->sites > 1 ? c->sites : 1);
    if (sharers < 1)
        sharers = 1;
    g.across_bps = c->across_bytes_per_s > 0 ? c->across_bytes_per_s / sharers : 0;
    return g;
}

static double safe_div(double a, double b)
{
    if (a <= 0)
        return 0;
    return b > 0 ? a / b : INFINITY;
}

/* NCCL moves large buffers with its Simple protocol, whose per-step network
 * latency is 14 us against LL128's 4 (NVIDIA/nccl src/graph/tuning.cc
 * hwLatencies, MODEL-FACTS §3): the presets' out_lat_s is LL128's, so a ring
 * over many nodes with a large buffer (past the ramp, where Simple wins)
 * pays 3.5x per network step. NVLink steps keep their LL128 latency (the
 * 8-GPU all-reduce figures of collective_params_default rest on it). */
#define SIMPLE_NET_STEP_FACTOR (14.0 / 4.0)

static double net_step_s(const Cluster *c, double S, const CollParams *p)
{
    return c->out_lat_s * (p->ramp_bytes > 0 && S >= p->ramp_bytes ? SIMPLE_NET_STEP_FACTOR : 1.0);
}

/* One reduce-scatter (or all-gather) of S bytes: adds the per-tier bytes and
 * times and returns the latency of its phases. */
static double rs_phase(double S, const Geometry *g, const Cluster *c, CollCost *cost, bool tree,
                       const CollParams *p)
{
    double up_b = g->k > 1 ? S * (g->k - 1) / g->k : 0;
    /* NCCL's rings (one per NIC) each cross every domain boundary and carry
     * (n-1)/n of their S/k share over it: busbw = the domain's NIC total
     * (NVIDIA/nccl#812: 192 GB/s on 8 x 200 Gb/s DGX A100), (n-1)/n rather
     * than an ideal hierarchy's (m-1)/m. */
    double out_b = g->m_s > 1 ? (S / g->k) * (g->n - 1) / g->n : 0;
    double across_b = g->sigma > 1 ? (S / (g->k * g->m_s)) * (g->sigma - 1) / g->sigma : 0;
    cost->tier_bytes[TIER_UP] += up_b;
    cost->tier_bytes[TIER_OUT] += out_b;
    cost->tier_bytes[TIER_ACROSS] += across_b;
    cost->tier_s[TIER_UP] += safe_div(up_b, g->up_bps);
    cost->tier_s[TIER_OUT] += safe_div(out_b, g->out_bps);
    cost->tier_s[TIER_ACROSS] += safe_div(across_b, g->across_bps);
    double net = net_step_s(c, S, p);
    if (!tree) { /* NCCL's ring visits every rank: n-1 steps, m-1 of them between domains */
        double up_steps = g->n - g->m, out_steps = g->m - g->sigma;
        return up_steps * c->up_lat_s + out_steps * net + (g->sigma - 1) * c->across_lat_s;
    }
    return (g->k - 1) * c->up_lat_s + log2_steps(g->m_s) * net +
           log2_steps(g->sigma) * c->across_lat_s;
}

CollCost collective_cost_with(CollKind kind, double bytes, GroupSpan span, const Cluster *c,
                              const CollParams *params)
{
    CollCost cost = {0, {0, 0, 0}, {0, 0, 0}, TIER_UP};
    if (!c || !(bytes > 0) || span.size <= 1)
        return cost;
    CollParams dflt;
    const CollParams *p = params;
    if (!p) {
        dflt = collective_params_default();
        p = &dflt;
    }
    Geometry g = geometry(span, c, p);
    double lat = 0;
    bool sequential = true; /* hierarchical phases follow one another */
    switch (kind) {
    case COLL_ALL_REDUCE:
        lat = rs_phase(bytes, &g, c, &cost, true, p);
        lat += rs_phase(bytes, &g, c, &cost, true, p);
        break;
    case COLL_REDUCE_SCATTER:
    case COLL_ALL_GATHER:
        lat = rs_phase(bytes, &g, c, &cost, false, p);
        break;
    case COLL_ALL_TO_ALL: {
        double per_site = g.n / g.sigma;
        double up_b = bytes * (g.k_in - 1) / g.n;
        double out_b = bytes * (per_site - g.k_in) / g.n;
        double m = per_site / g.k_in; /* domains of the group in one site */
        if (p->dispatch_topk > 1 && m > 1 && out_b > 0) {
            /* a token's k copies reach (m-1)(1-(1-1/m)^k) other domains on
             * average (experts spread evenly, chosen independently); it
             * crosses the network once per domain and fans out on its
             * scale-up links (DeepSeek-V3 §3.2.2; DeepEP's dispatch) */
            double k = p->dispatch_topk, copies = k * (m - 1) / m;
            double domains = (m - 1) * (1 - pow(1 - 1 / m, k));
            double sent = out_b * domains / copies;
            up_b += out_b - sent;
            out_b = sent;
        }
        double across_b = bytes * (g.n - per_site) / g.n;
        cost.tier_bytes[TIER_UP] = up_b;
        cost.tier_bytes[TIER_OUT] = out_b > 0 ? out_b : 0;
        cost.tier_bytes[TIER_ACROSS] = across_b > 0 ? across_b : 0;
        cost.tier_s[TIER_UP] = safe_div(up_b, g.up_bps);
        cost.tier_s[TIER_OUT] = safe_div(out_b, g.out_bps);
        cost.tier_s[TIER_ACROSS] = safe_div(across_b, g.across_bps);
        lat = g.sigma > 1 ? c->across_lat_s : g.m > 1 ? c->out_lat_s : c->up_lat_s;
        sequential = false;
        break;
    }
    case COLL_SEND_RECV: {
        Tier t = g.sigma > 1 ? TIER_ACROSS : g.m > 1 ? TIER_OUT : TIER_UP;
        double bps = t == TIER_ACROSS ? g.across_bps : t == TIER_OUT ? g.out_bps : g.up_bps;
        cost.tier_bytes[t] = bytes;
        cost.tier_s[t] = safe_div(bytes, bps);
        cost.time_s = cost.tier_s[t] + (t == TIER_ACROSS ? c->across_lat_s
                                        : t == TIER_OUT  ? c->out_lat_s
                                                         : c->up_lat_s);
        cost.slowest = t;
        return cost; /* a point-to-point copy has no ring to fill */
    }
    default:
        return cost;
    }
    if (p->ramp_bytes > 0) { /* half rate for small buffers, full for large */
        double slow = 1 + p->ramp_bytes / (bytes + p->ramp_bytes);
        for (int t = 0; t < TIER_COUNT; t++)
            cost.tier_s[t] *= slow;
    }
    double busy = 0, worst = -1;
    for (int t = 0; t < TIER_COUNT; t++) {
        busy = sequential ? busy + cost.tier_s[t] : fmax(busy, cost.tier_s[t]);
        if (cost.tier_s[t] > worst) {
            worst = cost.tier_s[t];
            cost.slowest = (Tier)t;
        }
    }
    cost.time_s = busy + lat + p->fixed_s;
    return cost;
}

CollCost collective_cost(CollKind kind, double bytes, GroupSpan span, const Cluster *c)
{
    return collective_cost_with(kind, bytes, span, c, NULL);
}
