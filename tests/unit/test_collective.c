/* SPDX-License-Identifier: MIT */
/* test_collective — alpha-beta costs worked by hand on a hand-made cluster:
 * 300 GB/s scale-up at 80% efficiency = 240 GB/s, 25 GB/s NICs at 100%,
 * 2 us per scale-up ring step, 5 us per network step, no fixed cost unless a
 * test says so. Times in seconds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

// clang-format off
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include <math.h>
#include <string.h>

#include "model/collective.h"
#include "model/mapping.h"
#include "model/placement.h"

static Cluster hand_cluster(int n, int domain)
{
    Cluster c;
    memset(&c, 0, sizeof c);
    c.n_gpus = n;
    c.domain_gpus = domain;
    c.gpus_per_leaf = n;
    c.sites = 1;
    c.up_bytes_per_s = 300e9;
    c.up_lat_s = 2e-6;
    c.out_bytes_per_s = 25e9;
    c.out_lat_s = 5e-6;
    c.oversub = 1;
    return c;
}

static const CollParams P = {.up_efficiency = 0.8, .out_efficiency = 1.0, .fixed_s = 0};

static GroupSpan span(int size, int domains, int min_per, int sites, bool leaf)
{
    GroupSpan s = {size, domains, min_per, sites, leaf};
    return s;
}

/* NCCL's all-gather and reduce-scatter are rings over every rank: n-1
 * steps, m-1 of them between domains (tuning.cc, MODEL-FACTS §4.2). 64 GPUs
 * in 8 domains of 8, 1 byte (no bandwidth to speak of): 56 x 2 us + 7 x 5 us
 * = 147 us, not the 7 + 7 steps of a hierarchical ring (49 us). 1,536 ranks
 * in 192 domains: 1,344 x 2 + 191 x 5 = 3,643 us. */
static void test_collective_ring_latency_grows_with_ranks(void **state)
{
    (void)state;
    Cluster c = hand_cluster(64, 8);
    CollCost g = collective_cost_with(COLL_ALL_GATHER, 1, span(64, 8, 8, 1, false), &c, &P);
    NEAR(g.time_s, 147e-6, 1e-3);
    CollCost rs = collective_cost_with(COLL_REDUCE_SCATTER, 1, span(64, 8, 8, 1, false), &c, &P);
    NEAR(rs.time_s, 147e-6, 1e-3);
    Cluster big = hand_cluster(1536, 8);
    g = collective_cost_with(COLL_ALL_GATHER, 1, span(1536, 192, 8, 1, false), &big, &P);
    NEAR(g.time_s, 3643e-6, 1e-3);
}

static void test_collective_inside_one_domain(void **state)
{
    (void)state;
    Cluster c = hand_cluster(64, 8);
    /* All-reduce of 1 GB on 8 GPUs: 2 x 7/8 x 1e9 / 240e9 = 7.2917e-3 s, plus
     * 2 x 7 ring steps x 2 us = 28e-6: 7.3197e-3 s. */
    CollCost a = collective_cost_with(COLL_ALL_REDUCE, 1e9, span(8, 1, 8, 1, false), &c, &P);
    NEAR(a.time_s, 7.2916667e-3 + 28e-6, 1e-6);
    NEAR(a.tier_bytes[TIER_UP], 1.75e9, 1e-12);
    assert_true(a.tier_bytes[TIER_OUT] == 0);
    assert_int_equal(a.slowest, TIER_UP);
    /* Reduce-scatter: half, 3.6458e-3 + 14e-6. */
    CollCost r = collective_cost_with(COLL_REDUCE_SCATTER, 1e9, span(8, 1, 8, 1, false), &c, &P);
    NEAR(r.time_s, 3.6458333e-3 + 14e-6, 1e-6);
    /* The fixed cost is added once: +250 us. */
    CollParams f = P;
    f.fixed_s = 250e-6;
    CollCost af = collective_cost_with(COLL_ALL_REDUCE, 1e9, span(8, 1, 8, 1, false), &c, &f);
    NEAR(af.time_s, a.time_s + 250e-6, 1e-9);
    /* Nothing to do for one rank or no bytes. */
    assert_true(
        collective_cost_with(COLL_ALL_REDUCE, 1e9, span(1, 1, 1, 1, false), &c, &P).time_s == 0);
    assert_true(collective_cost_with(COLL_ALL_REDUCE, 0, span(8, 1, 8, 1, false), &c, &P).time_s ==
                0);
}

static void test_collective_ring_busbw_is_independent_of_n(void **state)
{
    (void)state;
    /* busbw = S x 2(n-1)/n / t; for 10 GB and no fixed cost the latency is
     * negligible, so busbw = 240 GB/s for every n inside the domain. */
    Cluster c = hand_cluster(64, 64);
    for (int n = 2; n <= 64; n *= 2) {
        CollCost a = collective_cost_with(COLL_ALL_REDUCE, 10e9, span(n, 1, n, 1, false), &c, &P);
        double busbw = 10e9 * 2.0 * (n - 1) / n / a.time_s;
        NEAR(busbw, 240e9, 0.005);
    }
}

static void test_collective_hierarchical_two_domains(void **state)
{
    (void)state;
    Cluster c = hand_cluster(64, 8);
    /* 16 GPUs over 2 domains of 8: reduce-scatter inside 7/8 x 1e9 / 240e9
     * twice (RS and AG) = 7.2917e-3; across the domains NCCL's 8 rings (one
     * per NIC) each carry (n-1)/n of their S/8 = 125 MB share over the
     * boundary, per phase: 2 x 15/16 x 125e6 / 25e9 = 9.375e-3; latency
     * 2 x (7 x 2 us + 1 x 5 us) = 38e-6. Total 16.7047e-3. */
    CollCost a = collective_cost_with(COLL_ALL_REDUCE, 1e9, span(16, 2, 8, 1, false), &c, &P);
    NEAR(a.time_s, 7.2916667e-3 + 9.375e-3 + 38e-6, 1e-6);
    NEAR(a.tier_bytes[TIER_OUT], 2 * 15.0 / 16 * 125e6, 1e-9);
    NEAR(a.tier_s[TIER_OUT], 9.375e-3, 1e-9);
    assert_int_equal(a.slowest, TIER_OUT);
    /* One rank per domain (a DP group over 8 servers): everything over the
     * NIC, 2 x 7/8 x 1e9 / 25e9 = 70e-3, latency 2 x 3 tree steps x 5 us. */
    CollCost d = collective_cost_with(COLL_ALL_REDUCE, 1e9, span(8, 8, 1, 1, false), &c, &P);
    NEAR(d.time_s, 70e-3 + 30e-6, 1e-6);
    assert_int_equal(d.slowest, TIER_OUT);
    /* The emptiest domain sets the pace: 8 ranks with 7 + 1 (k = 1): the lone
     * GPU's ring carries 7/8 of all 1e9 across per phase, 2 x 7/8 x 1e9 /
     * 25e9 = 70e-3, and the seven reduce in sub-groups of k = 1, so nothing
     * inside: the flat ring over the NICs, no slower than with 8 one-GPU
     * domains (d above); latency 2 x (0 x 2 + 1 x 5) us. */
    CollCost s = collective_cost_with(COLL_ALL_REDUCE, 1e9, span(8, 2, 1, 1, false), &c, &P);
    NEAR(s.time_s, 70e-3 + 10e-6, 1e-6);
    assert_true(s.time_s <= d.time_s);
    /* Oversubscription 2 when the group crosses leaves: the NIC phase
     * doubles, 18.75e-3 instead of 9.375e-3. */
    Cluster o = c;
    o.oversub = 2;
    CollCost ao = collective_cost_with(COLL_ALL_REDUCE, 1e9, span(16, 2, 8, 1, true), &o, &P);
    NEAR(ao.time_s, 7.2916667e-3 + 18.75e-3 + 38e-6, 1e-6);
    CollCost an = collective_cost_with(COLL_ALL_REDUCE, 1e9, span(16, 2, 8, 1, false), &o, &P);
    NEAR(an.time_s, a.time_s, 1e-12);
}

static void test_collective_all_to_all_and_send(void **state)
{
    (void)state;
    Cluster c = hand_cluster(64, 8);
    /* All-to-all of 1 GB per rank on 16 ranks in 2 domains: 7/16 of it to
     * the other ranks of the domain (1.8229e-3 s at 240 GB/s), 8/16 out of
     * the domain (0.5e9 / 25e9 = 20e-3 s); the tiers run at once, so the
     * NIC bounds it: 20e-3 + one network step 5 us. */
    CollCost a = collective_cost_with(COLL_ALL_TO_ALL, 1e9, span(16, 2, 8, 1, false), &c, &P);
    NEAR(a.time_s, 20e-3 + 5e-6, 1e-6);
    NEAR(a.tier_bytes[TIER_UP], 1e9 * 7 / 16, 1e-12);
    NEAR(a.tier_bytes[TIER_OUT], 0.5e9, 1e-12);
    assert_int_equal(a.slowest, TIER_OUT);
    /* Inside one domain of 8: 7/8 x 1e9 / 240e9 = 3.6458e-3 + 2 us. */
    CollCost i = collective_cost_with(COLL_ALL_TO_ALL, 1e9, span(8, 1, 8, 1, false), &c, &P);
    NEAR(i.time_s, 3.6458333e-3 + 2e-6, 1e-6);
    /* Send of 100 MB to another domain: 100e6 / 25e9 = 4e-3 + 5 us; inside:
     * 100e6 / 240e9 = 0.41667e-3 + 2 us. No fixed cost for a copy. */
    CollParams f = P;
    f.fixed_s = 1;
    CollCost s = collective_cost_with(COLL_SEND_RECV, 100e6, span(2, 2, 1, 1, false), &c, &f);
    NEAR(s.time_s, 4e-3 + 5e-6, 1e-6);
    CollCost u = collective_cost_with(COLL_SEND_RECV, 100e6, span(2, 1, 2, 1, false), &c, &f);
    NEAR(u.time_s, 0.41666667e-3 + 2e-6, 1e-6);
    assert_string_equal(collective_name(COLL_ALL_TO_ALL), "all-to-all");
    assert_string_equal(tier_name(TIER_ACROSS), "scale-across");
}

/* Top-k dispatch sent once per remote domain (DeepEP): 1 GB of routed
 * copies per rank on 32 ranks in 4 domains of 8, top-8. Plain: 7/32 stays
 * in the domain, 24/32 = 0.75 GB crosses the NICs. Deduplicated: a token's
 * 8 copies reach 3 x (1 - (3/4)^8) = 2.699661 other domains on average,
 * against 8 x 3/4 = 6 remote copies, so 0.75 x 2.699661 / 6 = 0.3374576 GB
 * crosses the NICs and the other 0.4125424 GB is forwarded over scale-up:
 * 0.21875 + 0.4125424 = 0.6312924 GB. The NIC still bounds it:
 * 0.3374577e9 / 25e9 = 13.4983063e-3 s + one network step. */
static void test_collective_dispatch_once_per_domain(void **state)
{
    (void)state;
    Cluster c = hand_cluster(64, 8);
    CollParams d = P;
    d.dispatch_topk = 8;
    CollCost plain = collective_cost_with(COLL_ALL_TO_ALL, 1e9, span(32, 4, 8, 1, false), &c, &P);
    CollCost once = collective_cost_with(COLL_ALL_TO_ALL, 1e9, span(32, 4, 8, 1, false), &c, &d);
    NEAR(plain.tier_bytes[TIER_OUT], 0.75e9, 1e-12);
    NEAR(once.tier_bytes[TIER_OUT], 0.3374576e9, 1e-6);
    NEAR(once.tier_bytes[TIER_UP], 0.6312924e9, 1e-6);
    NEAR(once.time_s, 13.4983063e-3 + 5e-6, 1e-8);
    assert_int_equal(once.slowest, TIER_OUT);
    /* inside one domain nothing crosses a NIC: no change */
    CollCost in = collective_cost_with(COLL_ALL_TO_ALL, 1e9, span(8, 1, 8, 1, false), &c, &d);
    CollCost in0 = collective_cost_with(COLL_ALL_TO_ALL, 1e9, span(8, 1, 8, 1, false), &c, &P);
    NEAR(in.time_s, in0.time_s, 1e-15);
    /* top-1: one copy per token, nothing to share */
    d.dispatch_topk = 1;
    CollCost one = collective_cost_with(COLL_ALL_TO_ALL, 1e9, span(32, 4, 8, 1, false), &c, &d);
    NEAR(one.tier_bytes[TIER_OUT], 0.75e9, 1e-12);
}

static void test_collective_across_sites(void **state)
{
    (void)state;
    /* 64 GPUs, 2 sites of 32, a 100 GB/s link shared by the 32 GPUs of a site
     * (3.125 GB/s each), 1 ms per site step. 16 ranks: 8 in a domain at each
     * site (m = 2, sigma = 2, m_s = 1). Inside: 7.2917e-3 (as above); no
     * domain-to-domain phase inside a site; across: 2 x 1/2 x (1e9/8) /
     * 3.125e9 = 40e-3; latency 2 x (7 x 2 us + 1 ms) = 2.028e-3. */
    Cluster c = hand_cluster(64, 8);
    c.sites = 2;
    c.across_bytes_per_s = 100e9;
    c.across_lat_s = 1e-3;
    CollCost a = collective_cost_with(COLL_ALL_REDUCE, 1e9, span(16, 2, 8, 2, false), &c, &P);
    NEAR(a.time_s, 7.2916667e-3 + 40e-3 + 2.028e-3, 1e-6);
    assert_int_equal(a.slowest, TIER_ACROSS);
    NEAR(a.tier_bytes[TIER_ACROSS], 125e6, 1e-9);
    /* Fewer GPUs crossing at once get more of the link: 8 sharers, 10e-3. */
    CollParams f = P;
    f.across_sharers = 8;
    CollCost b = collective_cost_with(COLL_ALL_REDUCE, 1e9, span(16, 2, 8, 2, false), &c, &f);
    NEAR(b.time_s, 7.2916667e-3 + 10e-3 + 2.028e-3, 1e-6);
}

static void test_collective_default_small_message_share(void **state)
{
    (void)state;
    /* Defaults (collective.c): 6 us per collective, 1.9 us per NVLink step,
     * 370 GB/s busbw, bandwidth time x (1 + 4 MB/(S + 4 MB)). 8 H100:
     * 2 KB: 6 + 14 x 1.9 = 32.6 us plus 2048 x 1.75 / 370e9 x ~2 = 0.02 us;
     * 16 MB: 32.6 + 16e6 x 1.75 / 370e9 x (1 + 4/20) = 32.6 + 90.8 = 123.4 us;
     * 8 GB: the ramp adds 0.05%, busbw within 1% of 370 GB/s (82% of 450). */
    Cluster c = hand_cluster(8, 8);
    c.up_bytes_per_s = 450e9;
    c.up_lat_s = 1.9e-6;
    GroupSpan s = span(8, 1, 8, 1, false);
    NEAR(collective_cost(COLL_ALL_REDUCE, 2048, s, &c).time_s, 32.62e-6, 0.005);
    NEAR(collective_cost(COLL_ALL_REDUCE, 16e6, s, &c).time_s, 123.4e-6, 0.005);
    CollCost big = collective_cost(COLL_ALL_REDUCE, 8e9, s, &c);
    double big_share = 8e9 * 1.75 / big.time_s / 450e9;
    assert_in_range((long)(big_share * 100), 80, 83);
}

/* The spine rule on a rail-optimized fabric (span.c), worked through to
 * all-reduce times. 16 GPUs in 4 servers of 4 under 4-port leaves,
 * oversubscribed 2:1. On rails the 4 servers form one unit, GPU i of each on
 * leaf i; plain, each server has a leaf of its own. All-reduce of 1 GB,
 * hand costs as above (25 GB/s NICs, 12.5 GB/s through a 2:1 spine).
 * TP4 DP4: a DP group is GPUs {i, 4+i, 8+i, 12+i}, one per server (k = 1,
 * m = 4): per phase 3/4 x 1e9 over the NIC, plus 2 tree steps of 5 us.
 * On rails it is all on leaf i: 2 x 0.75e9 / 25e9 = 60e-3 + 20 us, the
 * time of a fabric with no oversubscription. Plain, it climbs to the spine:
 * 2 x 0.75e9 / 12.5e9 = 120e-3 + 20 us. */
static void test_collective_rails_keep_dp_off_the_spine(void **state)
{
    (void)state;
    Cluster full = hand_cluster(16, 4);
    full.gpus_per_leaf = 4;
    Cluster rails = full, plain = full;
    rails.oversub = plain.oversub = 2;
    rails.rail_optimized = true;
    Mapping m = {.tp = 4, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    GroupSpan on = span_worst(&m, &rails, NULL, DIM_DP);
    assert_false(on.crosses_leaf);
    NEAR(collective_cost_with(COLL_ALL_REDUCE, 1e9, on, &rails, &P).time_s, 60e-3 + 20e-6, 1e-9);
    GroupSpan flat = span_worst(&m, &full, NULL, DIM_DP);
    NEAR(collective_cost_with(COLL_ALL_REDUCE, 1e9, flat, &full, &P).time_s, 60e-3 + 20e-6, 1e-9);
    GroupSpan off = span_worst(&m, &plain, NULL, DIM_DP);
    assert_true(off.crosses_leaf);
    NEAR(collective_cost_with(COLL_ALL_REDUCE, 1e9, off, &plain, &P).time_s, 120e-3 + 20e-6, 1e-9);

    /* Mixed rails: swap GPUs 4 and 5, so DP group 0 is GPUs {0, 5, 8, 12},
     * GPU 0 of three servers and GPU 1 of one. Still one per server, but
     * rail 0 meets rail 1 only through the spine: the NIC part doubles, as
     * plain: 120e-3 + 20 us. */
    Placement *p = placement_new(16);
    assert_true(placement_swap_gpus(p, 4, 5));
    GroupSpan mixed = span_worst(&m, &rails, p, DIM_DP);
    assert_int_equal(mixed.domains, 4);
    assert_true(mixed.crosses_leaf);
    NEAR(collective_cost_with(COLL_ALL_REDUCE, 1e9, mixed, &rails, &P).time_s, 120e-3 + 20e-6,
         1e-9);
    assert_true(span_of_group(&m, &rails, p, DIM_DP, 0).crosses_leaf);
    assert_false(span_of_group(&m, &rails, p, DIM_DP, 2).crosses_leaf); /* GPUs 2, 6, 10, 14 */
    placement_free(p);

    /* TP2 DP8: a DP group holds GPUs i and i+2 of every server (k = 2,
     * m = 4, n = 8), rails i and i+2 in each: no spine. Per phase, inside:
     * 1/2 x 1e9 / 240e9 = 2.0833e-3; across: 1e9/2 x 7/8 / 25e9 = 17.5e-3;
     * latency 2 us + 2 x 5 us. Two phases: 39.1667e-3 + 24 us. Plain, the
     * NIC part doubles: 2 x (2.0833e-3 + 35e-3) + 24 us. */
    Mapping m2 = {.tp = 2, .cp = 1, .pp = 1, .dp = 8, .ep = 1, .interleave = 1};
    GroupSpan two = span_worst(&m2, &rails, NULL, DIM_DP);
    assert_false(two.crosses_leaf);
    NEAR(collective_cost_with(COLL_ALL_REDUCE, 1e9, two, &rails, &P).time_s,
         2 * (1e9 / 2 / 240e9 + 17.5e-3) + 24e-6, 1e-9);
    NEAR(collective_cost_with(COLL_ALL_REDUCE, 1e9, span_worst(&m2, &plain, NULL, DIM_DP), &plain,
                              &P)
             .time_s,
         2 * (1e9 / 2 / 240e9 + 35e-3) + 24e-6, 1e-9);

    /* Beyond one unit: 32 GPUs are 2 units of 4 servers; a TP4 DP8 group
     * (one GPU of each of 8 servers) leaves its unit: k = 1, m = 8,
     * 2 x 7/8 x 1e9 / 12.5e9 = 140e-3, plus 2 x 3 tree steps of 5 us. */
    Cluster two_units = rails;
    two_units.n_gpus = 32;
    Mapping m3 = {.tp = 4, .cp = 1, .pp = 1, .dp = 8, .ep = 1, .interleave = 1};
    GroupSpan wide = span_worst(&m3, &two_units, NULL, DIM_DP);
    assert_true(wide.crosses_leaf);
    NEAR(collective_cost_with(COLL_ALL_REDUCE, 1e9, wide, &two_units, &P).time_s, 140e-3 + 30e-6,
         1e-9);
    /* A TP group inside a server sends nothing to the fabric, rails or not;
     * a PP pipeline of TP4 PP4 (GPUs i, 4+i, 8+i, 12+i) stays on rail i. */
    Mapping pp = {.tp = 4, .cp = 1, .pp = 4, .dp = 1, .ep = 1, .interleave = 1};
    assert_false(span_worst(&pp, &rails, NULL, DIM_PP).crosses_leaf);
    assert_true(span_worst(&pp, &plain, NULL, DIM_PP).crosses_leaf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collective_ring_latency_grows_with_ranks),
        cmocka_unit_test(test_collective_inside_one_domain),
        cmocka_unit_test(test_collective_ring_busbw_is_independent_of_n),
        cmocka_unit_test(test_collective_hierarchical_two_domains),
        cmocka_unit_test(test_collective_all_to_all_and_send),
        cmocka_unit_test(test_collective_dispatch_once_per_domain),
        cmocka_unit_test(test_collective_across_sites),
        cmocka_unit_test(test_collective_default_small_message_share),
        cmocka_unit_test(test_collective_rails_keep_dp_off_the_spine),
    };
    return cmocka_run_group_tests_name("collective", tests, NULL, NULL);
}
