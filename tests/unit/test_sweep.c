/* SPDX-License-Identifier: MIT */
/* test_sweep — the best-mapping search: candidates counted by hand, a ranking
 * worked by hand on a tiny job, the ranking against a brute force that
 * enumerates every (TP, PP, EP, micro-batch, interleave) up to the GPU count
 * without the search's divisor pruning, the closed-form spans of the DP-inner
 * placement against an explicit per-GPU placement, the explanation's tiers,
 * options, errors and the chart series.
 *
 * The tiny job is test_step's: GPUs of 100 TFLOP/s, 1 TB/s HBM, 80 GB;
 * scale-up 100 GB/s, NIC 10 GB/s, no latencies; matmuls at 50% of peak, no
 * memory-bound term, links at line rate, no fixed cost, no DP overlap.
 * Workload: 2 layers, h 1024, 8 heads, ffn 4096, s 1024, V 1000,
 * FlashAttention, global batch 8:
 *   forward per token per layer 24h^2 + 4sh = 29,360,128; logit 2hV = 2,048,000
 *   parameters per layer 12h^2 + 13h = 12,596,224; embeddings (V + s)h
 *   = 2,072,576 (SC21 Eq. 2).
 */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/sweep.h"

static void run_ok(SweepResult *r, const Cluster *c, const Workload *w, const SweepOptions *o)
{
    char err[300] = "";
    if (!sweep_run(r, c, w, o, err, sizeof err)) {
        print_error("sweep_run failed: %s\n", err);
        fail();
    }
}

/* The winner of a search with the recompute (and what else o frees) left
 * to it: it must fit. */
static const SweepEntry *run_fitting_best(SweepResult *r, const Cluster *c, const Workload *w,
                                          const SweepOptions *o)
{
    run_ok(r, c, w, o);
    assert_true(r->n >= 1);
    assert_true(r->entries[0].fits);
    return &r->entries[0];
}

/* 8 GPUs, 4 layers, 4 heads, batch 8: TP in {1,2,4} (divides the 4 heads),
 * PP a divisor of 8/TP up to 4 layers, DP = 8/(TP PP) divides 8 always,
 * micro-batch the divisors of 8/DP, interleave v | layers/PP with v > 1 only
 * when (8/DP/mb) % PP == 0:
 *   TP1: PP1 (DP8: mb 1) 1; PP2 (DP4: mb 1,2; v2 with mb 1) 3;
 *        PP4 (DP2: mb 1,2,4; layers/PP = 1) 3                        -> 7
 *   TP2: PP1 (DP4: mb 1,2) 2; PP2 (DP2: mb 1,2,4; v2 with mb 1,2) 5;
 *        PP4 (DP1: mb 1,2,4,8) 4                                     -> 11
 *   TP4: PP1 (DP2: mb 1,2,4) 3; PP2 (DP1: mb 1,2,4,8; v2 with mb
 *        1,2,4) 7                                                    -> 10
 * 28 in all. One domain: the DP-inner placement changes no span, so no
 * alternative is kept. */
static void test_sweep_counts_candidates_by_hand(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    w.layers = 4;
    w.heads = w.kv_heads = 4;
    SweepResult r = {0};
    SweepOptions o = sweep_options_default();
    run_ok(&r, &c, &w, &o);
    assert_int_equal(r.n, 28);
    int tp_count[5] = {0}, interleaved = 0;
    for (int i = 0; i < r.n; i++) {
        assert_int_equal(r.entries[i].place, SWEEP_PLACE_DEFAULT);
        assert_int_equal(r.entries[i].m.cp, 1);
        if (r.entries[i].m.tp <= 4)
            tp_count[r.entries[i].m.tp]++;
        interleaved += r.entries[i].m.interleave > 1;
    }
    assert_int_equal(tp_count[1], 7);
    assert_int_equal(tp_count[2], 11);
    assert_int_equal(tp_count[4], 10);
    assert_int_equal(interleaved, 1 + 2 + 3);
    sweep_result_free(&r);
}

/* 2 GPUs in one domain, micro-batch 1: three candidates, worked by hand.
 *  A  TP1 PP1 DP2, m = 4: compute (2 x 29,360,128 + 2,048,000) x 3 x 1024
 *     = 186,680,082,432 FLOP at 50 TFLOP/s = 3.73360 ms, x 4 = 14.93441 ms;
 *     DP: reduce-scatter of 4 x 27,265,024 bytes (2 layers + embeddings)
 *     moves 1/2 of it at 100 GB/s = 0.54530 ms, all-gather of 2 x 27,265,024
 *     = 0.27265 ms, nothing hidden; Adam 30 x 27,265,024 / 2 at 1 TB/s
 *     = 0.40898 ms. Step 16.16134 ms.
 *  B  TP2 PP1 DP1, m = 8: compute 14.93441 ms; TP 4 x 2 layers all-reduces
 *     of 2,097,152 bytes per micro-batch, each moving 2 x 1/2 x S at
 *     100 GB/s = 20.97 us: 8 x 8 x 20.97 us = 1.34218 ms; Adam
 *     30 x 27,265,024 / 2 = 0.40898 ms. Step 16.68557 ms.
 *  C  TP1 PP2 DP1, m = 8, 1 layer per stage: compute (29,360,128 +
 *     2,048,000) x 3 x 1024 = 96,485,769,216 FLOP = 1.92972 ms, x 8 =
 *     15.43772 ms; 2 sends of 2,097,152 bytes per micro-batch at 100 GB/s
 *     = 41.94 us, x 8 = 0.33554 ms; bubble 1 x (1.92972 + 0.04194) less
 *     the output layer only the last stage runs (2,048,000 x 3 x 1024 =
 *     6,291,456,000 FLOP = 0.12583 ms) = 1.84583 ms; Adam 30 x (12,596,224
 *     + V h 1,024,000) = 0.40861 ms. Step 18.02770 ms.
 * Ranking: A, B, C. */
static void test_sweep_ranks_tiny_job_by_hand(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(2, 2);
    Workload w = tl_tiny_workload();
    SweepOptions o = sweep_options_default();
    o.micro_batch = 1;
    o.params = &TL_TINY_PARAMS;
    SweepResult r = {0};
    run_ok(&r, &c, &w, &o);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.n_fit, 3);
    assert_int_equal(r.entries[0].m.dp, 2);
    assert_int_equal(r.entries[1].m.tp, 2);
    assert_int_equal(r.entries[2].m.pp, 2);
    NEAR(r.entries[0].step_s, 16.16134e-3, 1e-5);
    NEAR(r.entries[1].step_s, 16.68557e-3, 1e-5);
    NEAR(r.entries[2].step_s, 18.02770e-3, 1e-5);
    sweep_result_free(&r);
}

/* Brute force: every TP, PP, EP, micro-batch and interleave from 1 to its
 * bound, filtered by mapping_check alone, evaluated with step_eval. The
 * default-placement entries of the search must be exactly these, with the
 * same best. */
static void brute_force_compare(const Cluster *c, const Workload *w0)
{
    const int n = c->n_gpus;
    int legal = 0, fit_legal = 0;
    double best_fit = INFINITY, best_any = INFINITY;
    Workload w = *w0;
    for (int tp = 1; tp <= n; tp++)
        for (int pp = 1; tp * pp <= n; pp++) {
            if (n % (tp * pp))
                continue;
            int dp = n / (tp * pp);
            for (int ep = 1; ep <= tp * dp; ep++)
                for (int mb = 1; mb <= w.global_batch; mb++)
                    for (int v = 1; v <= w.layers; v++) {
                        /* uneven chunks are legal for any v with PP x v <=
                         * layers; the sweep tries the v dividing ceil(L/PP) */
                        if (v > 1 && ((w.layers + pp - 1) / pp) % v != 0)
                            continue;
                        Mapping m = {tp, 1, pp, dp, ep, v, 1, 1, 0};
                        w.micro_batch = mb;
                        if (!mapping_check(&m, c, &w, NULL, 0))
                            continue;
                        StepResult s;
                        assert_int_equal(step_eval(c, &w, &m, NULL, NULL, &s, NULL, 0), STEP_OK);
                        legal++;
                        if (s.fits) {
                            fit_legal++;
                            best_fit = fmin(best_fit, s.step_s);
                        }
                        best_any = fmin(best_any, s.step_s);
                    }
        }
    SweepResult r = {0};
    SweepOptions o = sweep_options_default();
    o.alt_top = 0;
    run_ok(&r, c, w0, &o);
    /* every fitting candidate is ranked; once something fits, micro-batches
     * past one that does not fit are not tried (they cannot fit) */
    assert_true(r.n <= legal);
    assert_int_equal(r.n_fit, fit_legal);
    assert_true(legal > 0);
    if (fit_legal > 0)
        NEAR(r.entries[0].step_s, best_fit, 1e-12);
    else
        NEAR(r.entries[0].step_s, best_any, 1e-12);
    /* ranked: fitting first, each part by step time */
    for (int i = 1; i < r.n; i++) {
        const SweepEntry *a = &r.entries[i - 1], *b = &r.entries[i];
        assert_true(a->fits >= b->fits);
        if (a->fits == b->fits)
            assert_true(a->step_s <= b->step_s);
    }
    /* with the alternative placement on: never worse, and the default
     * candidates are all still there */
    SweepResult alt = {0};
    run_ok(&alt, c, w0, NULL);
    assert_true(alt.n >= r.n);
    assert_true(alt.entries[0].step_s <= r.entries[0].step_s);
    int defaults = 0;
    for (int i = 0; i < alt.n; i++)
        defaults += alt.entries[i].place == SWEEP_PLACE_DEFAULT;
    assert_int_equal(defaults, r.n);
    sweep_result_free(&alt);
    sweep_result_free(&r);
}

static void test_sweep_matches_brute_force(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 64);
    Workload w = tl_model("llama3-8b");
    w.global_batch = 64;
    brute_force_compare(&c, &w);

    c = tl_preset("gb200-nvl72", 144);
    w = tl_tiny_workload();
    w.global_batch = 144;
    w.layers = 12;
    brute_force_compare(&c, &w);

    /* a small mixture of experts: EP searched too */
    c = tl_preset("dgx-h100", 32);
    w = tl_tiny_workload();
    w.layers = 4;
    w.experts = 8;
    w.topk = 2;
    w.global_batch = 32;
    brute_force_compare(&c, &w);

    /* nothing fits: the best that does not fit is still ranked first */
    c = tl_preset("dgx-h100", 8);
    w = tl_model("llama3-70b");
    w.global_batch = 8;
    brute_force_compare(&c, &w);
}

/* The DP-inner order of TP 2 PP 2 DP 2 on 8 GPUs: a rank with digits
 * (tp, pp, dp) = rank tp + 2 (pp + 2 dp) goes to GPU tp + 2 (dp + 2 pp):
 * rank 2 (0,1,0) -> GPU 4, rank 4 (0,0,1) -> GPU 2, rank 6 (0,1,1) -> 6,
 * rank 3 (1,1,0) -> 5. And the spans the search computes in closed form
 * agree with step_eval over that explicit placement. */
static void test_sweep_dp_inner_placement(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 8);
    SweepEntry e;
    memset(&e, 0, sizeof e);
    e.m = (Mapping){2, 1, 2, 2, 1, 1, 1, 1, 0};
    e.micro_batch = 1;
    e.place = SWEEP_PLACE_DP_INNER;
    Placement *p = sweep_entry_placement(&c, &e);
    assert_non_null(p);
    assert_int_equal(placement_gpu_of(p, 0), 0);
    assert_int_equal(placement_gpu_of(p, 2), 4);
    assert_int_equal(placement_gpu_of(p, 4), 2);
    assert_int_equal(placement_gpu_of(p, 6), 6);
    assert_int_equal(placement_gpu_of(p, 3), 5);
    placement_free(p);
    e.place = SWEEP_PLACE_DEFAULT;
    assert_null(sweep_entry_placement(&c, &e));

    /* Several clusters where the order matters (4-GPU domains, NVL72 whose
     * 72 is not a multiple of the groups, two sites, an MoE job). */
    struct {
        const char *sys;
        int n, domain, sites, batch;
        bool moe;
    } cases[] = {{"dgx-h100", 64, 4, 1, 64, false},
                 {"gb200-nvl72", 144, 72, 1, 144, false},
                 {"dgx-h100", 64, 8, 2, 64, false},
                 {"dgx-h100", 128, 8, 1, 64, true}};
    int compared = 0, compared_ep = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Cluster cc = tl_preset(cases[k].sys, cases[k].n);
        cc.domain_gpus = cases[k].domain;
        if (cases[k].sites > 1) {
            cc.sites = cases[k].sites;
            cc.across_bytes_per_s = 50e9;
            cc.across_lat_s = 1e-3;
        }
        Workload w = tl_tiny_workload();
        w.layers = 8;
        w.global_batch = cases[k].batch;
        if (cases[k].moe) {
            w.experts = 16;
            w.topk = 2;
        }
        SweepResult r = {0};
        run_ok(&r, &cc, &w, NULL);
        for (int i = 0; i < r.n; i++) {
            const SweepEntry *x = &r.entries[i];
            if (x->place != SWEEP_PLACE_DP_INNER)
                continue;
            Workload wl = sweep_entry_workload(&w, x);
            Placement *q = sweep_entry_placement(&cc, x);
            StepResult s;
            assert_int_equal(step_eval(&cc, &wl, &x->m, q, NULL, &s, NULL, 0), STEP_OK);
            NEAR(x->step_s, s.step_s, 1e-9);
            for (int d = 0; d < DIM_COUNT; d++) {
                assert_int_equal(x->span[d].domains, s.span[d].domains);
                assert_int_equal(x->span[d].sites, s.span[d].sites);
            }
            placement_free(q);
            compared++;
            compared_ep += x->m.ep > 1; /* the expert-data-parallel span too */
        }
        sweep_result_free(&r);
    }
    assert_true(compared >= 4);
    assert_true(compared_ep >= 1);
}

/* A hand-made winner: TP 8 in one domain, PP 4 over 4 domains, DP 16 over
 * 16 domains. */
static void test_sweep_explain_names_tiers(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 512);
    SweepEntry e;
    memset(&e, 0, sizeof e);
    e.m = (Mapping){8, 1, 4, 16, 1, 1, 1, 1, 0};
    e.span[DIM_TP] = (GroupSpan){8, 1, 8, 1, false};
    e.span[DIM_CP] = (GroupSpan){1, 1, 1, 1, false};
    e.span[DIM_EP] = (GroupSpan){1, 1, 1, 1, false};
    e.span[DIM_PP] = (GroupSpan){4, 4, 1, 1, false};
    e.span[DIM_DP] = (GroupSpan){16, 16, 1, 1, true};
    char buf[400];
    sweep_explain(&c, &e, buf, sizeof buf);
    char want[300];
    snprintf(want, sizeof want,
             "TP 8 inside the %s domain of 8 (scale-up); PP 4 and DP 16 across the scale-out "
             "fabric (%s)",
             c.up_link, c.out_link);
    assert_string_equal(buf, want);
    /* two sites: DP across them */
    e.span[DIM_DP].sites = 2;
    c.sites = 2;
    sweep_explain(&c, &e, buf, sizeof buf);
    CONTAINS(buf, "PP 4 across the scale-out fabric");
    CONTAINS(buf, "DP 16 across the 2 sites (scale-across)");
    /* a group partly inside domains says how many ranks each domain holds */
    e.span[DIM_DP] = (GroupSpan){16, 8, 2, 1, true};
    sweep_explain(&c, &e, buf, sizeof buf);
    CONTAINS(buf, "PP 4 and DP 16 (2 per domain) across");
    /* a single GPU */
    e.m = (Mapping){1, 1, 1, 1, 1, 1, 1, 1, 0};
    sweep_explain(&c, &e, buf, sizeof buf);
    assert_string_equal(buf, "one GPU: no parallelism");
    assert_string_equal(sweep_explain(NULL, &e, buf, sizeof buf), "");
}

/* 16 GPUs in 8-GPU domains with a 1000x slower NIC (50 MB/s): by hand every
 * byte that leaves a domain costs 9000x one on NVLink, so the winner sends
 * as little as possible across: TP stays inside (its 4 all-reduces of b s h
 * x 2 bytes per layer per micro-batch would all cross), and the search's
 * own explanation says so. */
static void test_sweep_winner_keeps_tp_inside(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 16);
    c.out_bytes_per_s /= 1000;
    Workload w = tl_tiny_workload();
    w.heads = w.kv_heads = 16;
    w.global_batch = 16;
    SweepResult r = {0};
    run_ok(&r, &c, &w, NULL);
    const SweepEntry *best = sweep_best(&r);
    assert_non_null(best);
    assert_true(best->m.tp <= 8);
    assert_int_equal(best->span[DIM_TP].domains, 1);
    char buf[400];
    sweep_explain(&c, best, buf, sizeof buf);
    char want[64];
    snprintf(want, sizeof want, "TP %d inside", best->m.tp);
    if (best->m.tp > 1)
        CONTAINS(buf, want);
    /* and TP 16, spilling out of the domain, is far slower than TP 8 */
    SweepSeries s;
    sweep_series_by_tp(&r, &s);
    int i8 = -1, i16 = -1;
    for (int k = 0; k < s.n; k++) {
        if (s.x[k] == 8)
            i8 = k;
        if (s.x[k] == 16)
            i16 = k;
    }
    assert_true(i8 >= 0 && i16 >= 0);
    assert_true(s.y_s[i16] > 2 * s.y_s[i8]);
    sweep_result_free(&r);
}

/* Two sites joined by 10 GB/s: the gradient reduction of DP across sites
 * moves the whole stage's gradients, a pipeline send only b s h x 2 / t
 * bytes; the winner keeps DP inside a site (PP crosses instead). */
static void test_sweep_scale_across_keeps_dp_in_site(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 64);
    c.sites = 2;
    c.across_bytes_per_s = 10e9;
    c.across_lat_s = 1e-3;
    Workload w = tl_model("llama3-8b");
    w.global_batch = 64;
    SweepResult r = {0};
    run_ok(&r, &c, &w, NULL);
    const SweepEntry *best = sweep_best(&r);
    assert_non_null(best);
    assert_true(best->fits);
    assert_int_equal(best->span[DIM_DP].sites, 1);
    assert_int_equal(best->span[DIM_PP].sites, 2);
    char buf[400];
    sweep_explain(&c, best, buf, sizeof buf);
    CONTAINS(buf, "across the 2 sites (scale-across)");
    sweep_result_free(&r);
}

static void test_sweep_options_and_errors(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 64);
    Workload w = tl_model("llama3-8b");
    w.global_batch = 64;
    SweepOptions o = sweep_options_default();
    o.tp = 8;
    o.micro_batch = 1;
    SweepResult r = {0};
    run_ok(&r, &c, &w, &o);
    int cap = r.cap;
    for (int i = 0; i < r.n; i++) {
        assert_int_equal(r.entries[i].m.tp, 8);
        assert_int_equal(r.entries[i].micro_batch, 1);
    }
    /* the buffer is reused */
    o.tp = 4;
    run_ok(&r, &c, &w, &o);
    assert_int_equal(r.cap, cap);
    assert_int_equal(r.entries[0].m.tp, 4);

    char err[300] = "";
    o = sweep_options_default();
    o.zero = 4;
    assert_false(sweep_run(&r, &c, &w, &o, err, sizeof err));
    CONTAINS(err, "ZeRO");
    o = sweep_options_default();
    o.tp = 3;
    assert_false(sweep_run(&r, &c, &w, &o, err, sizeof err));
    assert_int_equal(r.n, 0);
    CONTAINS(err, "TP 3");
    /* 7 GPUs, 4 layers, 8 heads, batch 8: TP 7 does not divide the heads and
     * PP 7 > 4 layers, so DP is 7, which does not divide 8; the multiples of
     * 7 around 8 are 7 and 14 */
    Cluster c7 = tl_tiny_cluster(7, 8);
    Workload t = tl_tiny_workload();
    t.layers = 4;
    assert_false(sweep_run(&r, &c7, &t, NULL, err, sizeof err));
    assert_string_equal(err, "no mapping of 7 GPUs splits a global batch of 8 sequences; the "
                             "nearest batches that work are 7 and 14");
    /* batch 3 is below the only DP: no batch below works */
    t.global_batch = 3;
    assert_false(sweep_run(&r, &c7, &t, NULL, err, sizeof err));
    CONTAINS(err, "the smallest batch that works is 7");
    /* pinned micro-batch 2: DP 7 x 2 = 14 per step: 7 x 2 below 8? no, so
     * only 14 above */
    SweepOptions mb2 = sweep_options_default();
    mb2.micro_batch = 2;
    t.global_batch = 8;
    assert_false(sweep_run(&r, &c7, &t, &mb2, err, sizeof err));
    CONTAINS(err, "the smallest batch that works is 14");
    /* nothing legal at all (TP pinned to 7): the constraint is named instead */
    t.layers = 7;
    SweepOptions tp7 = sweep_options_default();
    tp7.tp = 7;
    assert_false(sweep_run(&r, &c7, &t, &tp7, err, sizeof err));
    CONTAINS(err, "TP 7 does not divide the 8 attention heads");
    t.layers = 4;
    c7.n_gpus = 0;
    assert_false(sweep_run(&r, &c7, &t, NULL, err, sizeof err));
    assert_false(sweep_run(NULL, &c, &w, NULL, NULL, 0));
    assert_null(sweep_best(NULL));
    sweep_result_free(&r);
    sweep_result_free(NULL);
    assert_null(r.entries);
}

/* Batch 1 on 128 GPUs in domains of 2 (Llama 3 8B: 32 heads, 8 KV heads,
 * 32 layers): DP must be 1, so TP x PP = 128 with TP | 32 and PP <= 32:
 * TP 4 PP 32, TP 8 PP 16, TP 16 PP 8, TP 32 PP 4; one micro-batch, so no
 * interleave (m = 1 is not a multiple of PP). Four candidates, TP 8 PP 16
 * among them, whatever the domain size allows TP to be fast at. */
static void test_sweep_finds_dp1_for_batch_1(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 128);
    c.domain_gpus = 2;
    Workload w = tl_model("llama3-8b");
    w.global_batch = 1;
    SweepResult r = {0};
    run_ok(&r, &c, &w, NULL);
    assert_int_equal(r.evaluated, 4);
    bool tp8 = false;
    for (int i = 0; i < r.n; i++) {
        assert_int_equal(r.entries[i].m.dp, 1);
        assert_int_equal(r.entries[i].m.tp * r.entries[i].m.pp, 128);
        tp8 |= r.entries[i].m.tp == 8 && r.entries[i].m.pp == 16;
    }
    assert_true(tp8);
    /* eval's use of the same search: micro-batch and interleave pinned */
    SweepOptions o = sweep_options_default();
    o.micro_batch = 1;
    o.interleave = 1;
    Mapping m;
    int mb = 0;
    char err[300] = "";
    assert_true(sweep_find_mapping(&c, &w, &o, &m, &mb, err, sizeof err));
    assert_int_equal(m.dp, 1);
    assert_int_equal(mb, 1);
    assert_int_equal(m.tp, r.entries[0].m.tp);
    sweep_result_free(&r);
}

/* sweep_choice: the fastest that fits; when nothing fits, the entry that
 * needs the least memory, not the fastest. */
/* DeepSeek-V3 on 256 GB300 as NVIDIA's 26.04 recipe lays it out (TP1 PP2x8
 * EP32, micro-batch 2, FP8): without recompute it needs more than the HBM;
 * recomputing the norms, the activation and the Q/KV projections fits, and
 * costs less than sending the activations over NVLink-C2C (the rung the
 * search kept before it had the cheap parts), as the recipe's own choice
 * (mla_up_proj) says. */
static void test_sweep_recomputes_the_cheap_parts_before_offloading(void **state)
{
    (void)state;
    Cluster c = tl_preset("gb300-nvl72", 256);
    Workload w = tl_model("deepseek-v3");
    w.global_batch = 4096;
    w.precision = WL_FP8;
    w.grad_bytes = 2; /* grad_reduce_in_fp32 False, as the recipe sets */
    SweepOptions o = sweep_options_default();
    o.tp = 1, o.pp = 2, o.ep = 32, o.micro_batch = 2, o.interleave = 8, o.zero = 1;
    o.recompute = SWEEP_FREE;
    o.offload = SWEEP_FREE;
    o.alt_top = 0;
    SweepResult r = {0};
    const SweepEntry *e = run_fitting_best(&r, &c, &w, &o);
    assert_int_equal(e->recompute, WL_RECOMPUTE_SELECTIVE);
    assert_int_equal(e->recompute_mods, WL_RC_CHEAP_PARTS);
    assert_int_equal(e->offload & WL_OFFLOAD_ACTIVATIONS, 0);
    Workload d = sweep_entry_workload(&w, e);
    StepResult none, off;
    d.recompute = WL_RECOMPUTE_NONE, d.recompute_mods = 0;
    assert_int_equal(step_eval(&c, &d, &e->m, NULL, NULL, &none, NULL, 0), STEP_OK);
    assert_false(none.fits);
    d.offload |= WL_OFFLOAD_ACTIVATIONS;
    assert_int_equal(step_eval(&c, &d, &e->m, NULL, NULL, &off, NULL, 0), STEP_OK);
    assert_true(off.fits);
    assert_true(e->step_s < off.step_s);
    print_message("cheap parts %.2f s, %.0f GB; offloaded %.2f s; none needs %.0f GB of %.0f\n",
                  e->step_s, e->mem_per_gpu_bytes / 1e9, off.step_s, none.mem_per_gpu_bytes / 1e9,
                  none.hbm_bytes / 1e9);
    sweep_result_free(&r);
}

/* Nemotron-4 340B as NeMo's recipe lays it out on 128 H100 (TP8 PP8x12,
 * DP 2, micro-batch 1, ZeRO 1): without recompute it needs more than the
 * HBM, recomputing every layer fits with room to spare, and the search
 * keeps full recompute on the fewest layers of each stage that fit
 * (Megatron-Core's recompute_num_layers): one layer fewer does not fit,
 * and every layer is slower. */
static void test_sweep_recomputes_the_fewest_layers_that_fit(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 128);
    Workload w = tl_gpt(96, 18432, 96, 32, 1);
    w.kv_heads = 8, w.ffn = 73728, w.vocab = 256000, w.seq = 4096;
    w.flash_attention = true;
    w.framework = WL_FW_MEGATRON;
    SweepOptions o = sweep_options_default();
    o.tp = 8, o.pp = 8, o.micro_batch = 1, o.interleave = 12, o.zero = 1;
    o.recompute = SWEEP_FREE;
    o.alt_top = 0;
    SweepResult r = {0};
    const SweepEntry *e = run_fitting_best(&r, &c, &w, &o);
    assert_int_equal(e->recompute, WL_RECOMPUTE_FULL);
    assert_true(e->recompute_layers > 0 && e->recompute_layers < 12);
    Workload d = sweep_entry_workload(&w, e);
    assert_int_equal(d.recompute_layers, e->recompute_layers);
    StepResult fewer, all;
    d.recompute_layers = e->recompute_layers - 1;
    assert_int_equal(step_eval(&c, &d, &e->m, NULL, NULL, &fewer, NULL, 0), STEP_OK);
    assert_false(fewer.fits);
    d.recompute_layers = 0;
    assert_int_equal(step_eval(&c, &d, &e->m, NULL, NULL, &all, NULL, 0), STEP_OK);
    assert_true(all.fits);
    assert_true(e->step_s < all.step_s);
    print_message("full on %d of 12 layers: %.2f s, %.1f GB; on all: %.2f s, %.1f GB\n",
                  e->recompute_layers, e->step_s, e->mem_per_gpu_bytes / 1e9, all.step_s,
                  all.mem_per_gpu_bytes / 1e9);
    sweep_result_free(&r);
}

static void test_sweep_choice_prefers_least_memory_when_nothing_fits(void **state)
{
    (void)state;
    SweepEntry e[3];
    memset(e, 0, sizeof e);
    e[0].step_s = 1, e[0].mem_per_gpu_bytes = 300e9;
    e[1].step_s = 2, e[1].mem_per_gpu_bytes = 100e9;
    e[2].step_s = 3, e[2].mem_per_gpu_bytes = 200e9;
    SweepResult r = {.entries = e, .n = 3, .cap = 3, .n_fit = 0};
    assert_ptr_equal(sweep_choice(&r), &e[1]);
    r.n_fit = 1;
    e[0].fits = true;
    assert_ptr_equal(sweep_choice(&r), &e[0]);
    r.n = 0;
    assert_null(sweep_choice(&r));
    /* the options a search pins must divide the GPUs on their own */
    Cluster c = tl_preset("dgx-h100", 64);
    Workload w = tl_model("llama3-8b");
    SweepOptions o = sweep_options_default();
    o.tp = 8;
    o.dp = 3;
    char err[300] = "";
    SweepResult s = {0};
    assert_false(sweep_run(&s, &c, &w, &o, err, sizeof err));
    assert_string_equal(err, "TP 8 x DP 3 = 24 does not divide the 64 GPUs");
    o.dp = 2;
    o.pp = 2;
    assert_false(sweep_run(&s, &c, &w, &o, err, sizeof err));
    assert_string_equal(err, "TP 8 x CP 1 x PP 2 x DP 2 = 32 GPUs, but the cluster has 64");
    sweep_result_free(&s);
}

/* The framework settings, searched: every entry's (ZeRO, recompute) is the
 * first rung of the ladder that fits (sweep.h): ZeRO 1 none; ZeRO 2 none;
 * ZeRO 2 selective; ZeRO 3 selective or ZeRO 2 full; ZeRO 3 full. So a rung
 * of an earlier level must not fit with the default switches, checked here
 * by evaluating it. Llama 3 70B (70.6 B parameters, 16 bytes each with Adam
 * unsharded: 1.1 TB) on 64 H100s of 80 GiB cannot run TP 1 PP 1 at ZeRO 1,
 * so some entries climb. The tuned switches never make an entry slower
 * than Megatron-Core's defaults. Pinned settings hold for every entry. */
static void test_sweep_searches_framework_settings(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 64);
    Workload w = tl_model("llama3-70b");
    w.global_batch = 64;
    SweepOptions o = sweep_options_default();
    o.zero = o.recompute = o.seq_parallel = o.tp_overlap = SWEEP_FREE;
    o.alt_top = 0;
    SweepResult r = {0};
    run_ok(&r, &c, &w, &o);
    /* sweep.c's ladder without its offloading rungs (offload is not free on
     * DGX H100): ZeRO stage, recompute and its parts per rung */
    static const int lv_zero[5][2] = {{1, -1}, {2, -1}, {2, 2}, {3, 2}, {3, -1}};
    static const WlRecompute lv_rc[5][2] = {{WL_RECOMPUTE_NONE, 0},
                                            {WL_RECOMPUTE_NONE, 0},
                                            {WL_RECOMPUTE_SELECTIVE, WL_RECOMPUTE_SELECTIVE},
                                            {WL_RECOMPUTE_SELECTIVE, WL_RECOMPUTE_FULL},
                                            {WL_RECOMPUTE_FULL, 0}};
    static const int lv_mods[5][2] = {{0, 0}, {0, 0}, {0, WL_RC_CHEAP_PARTS}, {0, 0}, {0, 0}};
    int climbed = 0, tuned = 0, parts = 0;
    for (int i = 0; i < r.n; i++) {
        const SweepEntry *e = &r.entries[i];
        int level = -1;
        for (int lv = 0; lv < 5; lv++)
            for (int k = 0; k < 2; k++)
                if (lv_zero[lv][k] == e->m.zero && lv_rc[lv][k] == e->recompute &&
                    lv_mods[lv][k] == e->recompute_mods && level < 0)
                    level = lv;
        assert_true(level >= 0);
        climbed += level > 0;
        parts += e->recompute_mods == WL_RC_CHEAP_PARTS;
        Workload d = sweep_entry_workload(&w, e);
        assert_int_equal(d.recompute_mods, e->recompute_mods);
        d.seq_parallel = d.tp_overlap = WL_AUTO;
        for (int lv = 0; lv < level && e->fits; lv++)
            for (int k = 0; k < 2 && lv_zero[lv][k] >= 0; k++) {
                Mapping m = e->m;
                m.zero = lv_zero[lv][k];
                d.recompute = lv_rc[lv][k];
                d.recompute_mods = lv_mods[lv][k];
                StepResult sr;
                assert_int_equal(step_eval(&c, &d, &m, NULL, NULL, &sr, NULL, 0), STEP_OK);
                assert_false(sr.fits);
            }
        if (e->seq_parallel != WL_AUTO || e->tp_overlap != WL_AUTO) {
            tuned++;
            d = sweep_entry_workload(&w, e);
            d.seq_parallel = d.tp_overlap = WL_AUTO;
            StepResult sr;
            assert_int_equal(step_eval(&c, &d, &e->m, NULL, NULL, &sr, NULL, 0), STEP_OK);
            assert_true(e->step_s < sr.step_s);
            assert_true(e->m.tp > 1);
        }
    }
    assert_true(climbed > 0);
    print_message("%d entries, %d climbed the memory ladder, %d recompute the cheap parts, "
                  "%d tuned, %d evaluations\n",
                  r.n, climbed, parts, tuned, r.evaluated);
    /* pinned: ZeRO 1 and no recompute on every entry */
    o.zero = 1;
    o.recompute = WL_RECOMPUTE_NONE;
    run_ok(&r, &c, &w, &o);
    for (int i = 0; i < r.n; i++) {
        assert_int_equal(r.entries[i].m.zero, 1);
        assert_int_equal(r.entries[i].recompute, WL_RECOMPUTE_NONE);
    }
    char err[200] = "";
    o.tp_overlap = 7;
    assert_false(sweep_run(&r, &c, &w, &o, err, sizeof err));
    CONTAINS(err, "TP overlap setting 7 is out of range");
    sweep_result_free(&r);
}

/* A settings search over both placements on an MoE job: the ranking holds
 * over the whole list (fitting first, then by step time; the alternatives
 * are merged into the ranked list, the tuned entries re-ranked at the
 * front) and each entry's figures are what a full evaluation of it gives
 * (the search reuses one set of spans per TP, PP, DP and EP and skips the
 * words). */
static void test_sweep_settings_search_ranked_and_exact(void **state)
{
    (void)state;
    Cluster c = tl_preset("gb200-nvl72", 144);
    Workload w = tl_model("deepseek-v3");
    w.global_batch = 288;
    SweepOptions o = sweep_options_default();
    o.zero = o.recompute = o.seq_parallel = o.tp_overlap = SWEEP_FREE;
    SweepResult r = {0};
    run_ok(&r, &c, &w, &o);
    int alternatives = 0;
    for (int i = 0; i < r.n; i++) {
        const SweepEntry *e = &r.entries[i];
        alternatives += e->place == SWEEP_PLACE_DP_INNER;
        if (i > 0) {
            const SweepEntry *a = &r.entries[i - 1];
            assert_true(a->fits >= e->fits);
            if (a->fits == e->fits)
                assert_true(a->step_s <= e->step_s);
        }
        StepResult sr;
        char err[200] = "";
        assert_int_equal(sweep_entry_eval(&c, &w, e, NULL, &sr, err, sizeof err), STEP_OK);
        assert_true(sr.step_s == e->step_s);
        assert_true(sr.mem_per_gpu_bytes == e->mem_per_gpu_bytes);
        assert_int_equal(sr.fits, e->fits);
        assert_int_equal(sr.bottleneck_part, e->bottleneck_part);
        assert_int_equal(sr.bottleneck_tier, e->bottleneck_tier);
    }
    assert_true(alternatives > 0);
    assert_true(r.n_fit > 0 && r.n_fit < r.n);
    sweep_result_free(&r);
}

/* The TP series holds each TP the search reached once, ascending, with the
 * best step time of that TP (checked by a scan), and `best` the fastest. The
 * domain series on 64 GPUs: with domains of 4, 8 and 16 nested in one
 * another no group spans more domains as the domain grows, so the best step
 * time never rises. */
/* GPT-3 175B on 96 A100s in domains of 9 with TP 8 and PP 12 pinned: ranks
 * in order split a TP group 1 + 7, the balanced placement no worse than
 * 2 + 6 (test_balance works it by hand), so the balanced entries rank
 * first; the entry re-evaluates to the same figures with its placement.
 * With alt_top 0 (the search eval uses) and in domains of 8 (TP divides
 * them) no entry is balanced. */
static void test_sweep_balances_straddling_tp(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-a100", 96);
    c.domain_gpus = 9;
    Workload w = tl_model("gpt3-175b");
    SweepOptions o = sweep_options_default();
    o.tp = 8;
    o.pp = 12;
    SweepResult r = {0};
    run_ok(&r, &c, &w, &o);
    const SweepEntry *best = sweep_best(&r);
    assert_int_equal(best->place, SWEEP_PLACE_BALANCED);
    double best_default = 0;
    int balanced = 0;
    for (int i = 0; i < r.n; i++) {
        balanced += r.entries[i].place == SWEEP_PLACE_BALANCED;
        if (r.entries[i].place == SWEEP_PLACE_DEFAULT && r.entries[i].fits && best_default == 0)
            best_default = r.entries[i].step_s;
    }
    assert_true(balanced > 0 && balanced <= SWEEP_BALANCE_TOP);
    assert_true(best->step_s < best_default);
    StepResult again;
    char err[300] = "";
    assert_int_equal(sweep_entry_eval(&c, &w, best, NULL, &again, err, sizeof err), STEP_OK);
    assert_true(again.step_s == best->step_s);
    assert_int_equal(again.span[DIM_TP].min_per_domain, 2);
    Placement *p = sweep_entry_placement(&c, best);
    assert_non_null(p);
    placement_free(p);
    o.alt_top = 0;
    run_ok(&r, &c, &w, &o);
    for (int i = 0; i < r.n; i++)
        assert_int_not_equal(r.entries[i].place, SWEEP_PLACE_BALANCED);
    o.alt_top = -1;
    c.domain_gpus = 8;
    run_ok(&r, &c, &w, &o);
    for (int i = 0; i < r.n; i++)
        assert_int_not_equal(r.entries[i].place, SWEEP_PLACE_BALANCED);
    sweep_result_free(&r);
}

static void test_sweep_series(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 64);
    Workload w = tl_model("llama3-8b");
    w.global_batch = 64;
    SweepResult r = {0};
    run_ok(&r, &c, &w, NULL);
    SweepSeries s;
    sweep_series_by_tp(&r, &s);
    assert_true(s.n >= 4);
    for (int k = 0; k < s.n; k++) {
        if (k > 0)
            assert_true(s.x[k] > s.x[k - 1]);
        double best = INFINITY;
        for (int i = 0; i < r.n; i++)
            if (r.entries[i].m.tp == (int)s.x[k] && r.entries[i].fits)
                best = fmin(best, r.entries[i].step_s);
        if (s.valid[k])
            NEAR(s.y_s[k], best, 1e-12);
    }
    assert_true(s.best >= 0);
    NEAR(s.y_s[s.best], r.entries[0].step_s, 1e-12);
    assert_int_equal((int)s.x[s.best], r.entries[0].m.tp);

    const int domains[] = {4, 8, 16};
    SweepSeries d;
    char err[200];
    assert_true(sweep_series_by_domain(&c, &w, NULL, domains, 3, &d, err, sizeof err));
    assert_int_equal(d.n, 3);
    for (int k = 0; k < 3; k++)
        assert_true(d.valid[k]);
    assert_true(d.y_s[1] <= d.y_s[0]);
    assert_true(d.y_s[2] <= d.y_s[1]);
    assert_false(sweep_series_by_domain(&c, &w, NULL, domains, 0, &d, err, sizeof err));
    sweep_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_counts_candidates_by_hand),
        cmocka_unit_test(test_sweep_ranks_tiny_job_by_hand),
        cmocka_unit_test(test_sweep_matches_brute_force),
        cmocka_unit_test(test_sweep_dp_inner_placement),
        cmocka_unit_test(test_sweep_explain_names_tiers),
        cmocka_unit_test(test_sweep_winner_keeps_tp_inside),
        cmocka_unit_test(test_sweep_scale_across_keeps_dp_in_site),
        cmocka_unit_test(test_sweep_options_and_errors),
        cmocka_unit_test(test_sweep_balances_straddling_tp),
        cmocka_unit_test(test_sweep_series),
        cmocka_unit_test(test_sweep_finds_dp1_for_batch_1),
        cmocka_unit_test(test_sweep_searches_framework_settings),
        cmocka_unit_test(test_sweep_settings_search_ranked_and_exact),
        cmocka_unit_test(test_sweep_choice_prefers_least_memory_when_nothing_fits),
        cmocka_unit_test(test_sweep_recomputes_the_cheap_parts_before_offloading),
        cmocka_unit_test(test_sweep_recomputes_the_fewest_layers_that_fit),
    };
    return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
