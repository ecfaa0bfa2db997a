/* SPDX-License-Identifier: MIT */
/* test_balance — the balanced placement of TP groups in domains that TP
 * does not divide. Expected part sizes are worked by hand in the comments;
 * every placement returned is checked against the rules it promises (a
 * permutation; each group whole or in two neighbouring domains; at most two
 * groups split at an edge; no part under the minimum it reports). */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>

#include "model/balance.h"
#include "model/span.h"
#include "testlib.h"

/* The rules, checked GPU by GPU; returns the fewest ranks a split group has
 * in one domain (t when no group is split). */
static int check_layout(const Placement *p, int n, int d, int t)
{
    assert_int_equal(placement_size(p), n);
    for (int g = 0; g < n; g++) {
        int r = placement_rank_on(p, g);
        assert_true(r >= 0 && r < n);
        assert_int_equal(placement_gpu_of(p, r), g);
    }
    int domains = (n + d - 1) / d, least = t;
    int *split_at = calloc((size_t)domains, sizeof *split_at); /* groups split at edge i|i+1 */
    assert_non_null(split_at);
    for (int grp = 0; grp < n / t; grp++) {
        int lo = domains, hi = -1, in_lo = 0, in_hi = 0;
        for (int j = 0; j < t; j++) {
            int dom = placement_gpu_of(p, grp * t + j) / d;
            lo = dom < lo ? dom : lo;
            hi = dom > hi ? dom : hi;
        }
        for (int j = 0; j < t; j++) {
            int dom = placement_gpu_of(p, grp * t + j) / d;
            in_lo += dom == lo;
            in_hi += dom == hi;
        }
        if (hi == lo)
            continue;
        if (hi != lo + 1 || in_lo + in_hi != t) {
            print_error("group %d spans domains %d..%d (%d + %d of %d)\n", grp, lo, hi, in_lo,
                        in_hi, t);
            fail();
        }
        split_at[lo]++;
        least = in_lo < least ? in_lo : least;
        least = in_hi < least ? in_hi : least;
    }
    for (int i = 0; i < domains; i++)
        assert_true(split_at[i] <= 2);
    free(split_at);
    return least;
}

/* With ranks in order, the group over each domain edge is cut where the
 * edge falls: TP 8, domains of 9: the edge at 9 cuts group 1 into 1 + 7.
 * Domains of 12: 12 = 8 + 4 cuts 4 + 4, and 24 is a group edge. TP 32 in
 * NVL72 racks: 72 = 2 x 32 + 8 cuts 8 + 24, 144 = 4 x 32 + 16 cuts 16 + 16. */
static void test_balance_default_parts_hand_worked(void **state)
{
    (void)state;
    assert_int_equal(balance_default_min_part(96, 9, 8), 1);
    assert_int_equal(balance_default_min_part(96, 12, 8), 4);
    assert_int_equal(balance_default_min_part(96, 8, 8), 8);
    assert_int_equal(balance_default_min_part(576, 72, 32), 8);
    assert_int_equal(balance_default_min_part(144, 72, 16), 8);
}

/* Nothing to gain: TP divides the domain (8 in 8); the order already cuts
 * every group in halves (16 in racks of 72: 8 + 8; 8 in 12: 4 + 4); a group
 * is as large as a domain or larger (16 in 9); one domain holds all. And
 * TP 4 in domains of 9 over 72 GPUs: every domain holds 9 ranks, an odd
 * number, so some group keeps an odd part, 1 or 3, of its 4 there, and the
 * other side is 3 or 1: no rule-abiding layout keeps 2 on each side. */
static void test_balance_none_where_order_is_best(void **state)
{
    (void)state;
    int part = -1;
    assert_null(balance_tp_placement(96, 8, 8, &part));
    assert_null(balance_tp_placement(144, 72, 16, &part));
    assert_null(balance_tp_placement(96, 12, 8, &part));
    assert_null(balance_tp_placement(96, 9, 16, &part));
    assert_null(balance_tp_placement(8, 9, 4, &part));
    assert_null(balance_tp_placement(72, 9, 4, &part));
    assert_null(balance_tp_placement(90, 9, 4, &part)); /* 90 is no multiple of 4 */
    assert_int_equal(part, -1);
}

/* TP 8 in domains of 9 (96 GPUs: ten full domains and one of 6). No
 * whole group can share a domain with a split part (8 + 1 = 9 leaves a
 * lone GPU), so every domain holds parts of split groups only. Can every
 * part be 3 or more? A domain of 9 is then 4 + 5 or 3 + 3 + 3 (a 6 leaves
 * its group 2). A 3 + 3 + 3 domain needs three partners of 5, but it has
 * two neighbours, and one neighbour giving two 5s would hold 10. So all
 * domains are 4 + 5, and a 5's partner 3 exists nowhere: 2 is the best. */
static void test_balance_tp8_in_domains_of_9(void **state)
{
    (void)state;
    int part = 0;
    Placement *p = balance_tp_placement(96, 9, 8, &part);
    assert_non_null(p);
    assert_int_equal(part, 2);
    assert_int_equal(check_layout(p, 96, 9, 8), 2);
    /* what the model sees: the worst TP group in two domains, 2 in one */
    Cluster c = tl_tiny_cluster(96, 9);
    Mapping m = {.tp = 8, .cp = 1, .pp = 12, .dp = 1, .ep = 1, .interleave = 1};
    GroupSpan s = span_worst(&m, &c, p, DIM_TP);
    assert_int_equal(s.domains, 2);
    assert_int_equal(s.min_per_domain, 2);
    GroupSpan flat = span_worst(&m, &c, NULL, DIM_TP);
    assert_int_equal(flat.min_per_domain, 1);
    placement_free(p);
}

/* Every layout returned keeps the rules and beats ranks in order. */
static void test_balance_layouts_keep_their_rules(void **state)
{
    (void)state;
    static const int ds[] = {5, 6, 7, 9, 10, 11, 12, 14, 18, 20, 24, 36, 72};
    static const int ts[] = {2, 3, 4, 6, 8, 16, 32};
    int found = 0, tried = 0;
    for (int n = 48; n <= 1152; n += 48)
        for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
            for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
                int d = ds[i], t = ts[k], part = 0;
                if (n % t)
                    continue;
                tried++;
                Placement *p = balance_tp_placement(n, d, t, &part);
                if (!p)
                    continue;
                found++;
                int least = check_layout(p, n, d, t);
                if (least < part || part <= balance_default_min_part(n, d, t)) {
                    print_error("n %d d %d t %d: parts >= %d claimed, %d found, order %d\n", n, d,
                                t, part, least, balance_default_min_part(n, d, t));
                    fail();
                }
                placement_free(p);
            }
    print_message("%d of %d layouts balanced\n", found, tried);
    assert_true(found > 50);
}

/* GPT-3 175B, TP 8 PP 12 on 96 A100s in domains of 9. Ranks in order
 * leave one GPU of a TP group alone in a domain: it sends the whole
 * all-reduce share over InfiniBand. Balanced, the worst group keeps 2 per
 * side, and the hierarchical all-reduce sends half as much per GPU over
 * the network (TP dominates that traffic: PP sends 12 stages' activations
 * only). Domains of 8 and of 12 keep ranks in order. */
static void test_balance_job_placement_is_faster(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-a100", 96);
    Workload w = tl_model("gpt3-175b");
    Mapping m = {.tp = 8, .cp = 1, .pp = 12, .dp = 1, .ep = 1, .interleave = 1, .zero = 1};
    c.domain_gpus = 9;
    int part = 0;
    Placement *p = balance_job_placement(&c, &w, &m, NULL, &part, NULL);
    assert_non_null(p);
    assert_int_equal(part, 2);
    StepResult flat = tl_eval_ok(&c, &w, &m, NULL, NULL), even;
    assert_int_equal(step_eval(&c, &w, &m, p, NULL, &even, NULL, 0), STEP_OK);
    assert_true(even.step_s < 0.85 * flat.step_s);
    double ratio = even.tier_bytes[TIER_OUT] / flat.tier_bytes[TIER_OUT];
    assert_true(ratio > 0.45 && ratio < 0.55);
    placement_free(p);
    c.domain_gpus = 8;
    assert_null(balance_job_placement(&c, &w, &m, NULL, &part, NULL));
    c.domain_gpus = 12;
    assert_null(balance_job_placement(&c, &w, &m, NULL, &part, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_balance_default_parts_hand_worked),
        cmocka_unit_test(test_balance_none_where_order_is_best),
        cmocka_unit_test(test_balance_tp8_in_domains_of_9),
        cmocka_unit_test(test_balance_layouts_keep_their_rules),
        cmocka_unit_test(test_balance_job_placement_is_faster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
