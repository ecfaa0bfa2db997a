/* SPDX-License-Identifier: MIT */
/* test_mapping — legality messages, rank coordinates, placements and group
 * spans. Clusters are filled by hand so every tier boundary is known; the
 * closed-form spans of the default placement are checked against hand-worked
 * cases and against the exact per-group walk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

// clang-format off
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "testlib.h"

#include "base/xmem.h"
#include "model/mapping.h"
#include "model/placement.h"
#include "model/span.h"

static Cluster hand_cluster(int n, int domain, int per_leaf, int sites)
{
    Cluster c;
    memset(&c, 0, sizeof c);
    strcpy(c.system_id, "custom");
    c.n_gpus = n;
    c.domain_gpus = domain;
    c.gpus_per_leaf = per_leaf;
    c.sites = sites;
    c.up_bytes_per_s = 300e9;
    c.out_bytes_per_s = 25e9;
    c.oversub = 1;
    return c;
}

/* Heads of 128 wide, as GPT-3's are. */
static Workload gpt(int layers, int heads, int batch, int mb)
{
    return tl_gpt(layers, 128 * heads, heads, batch, mb);
}

static void expect_illegal(const Mapping *m, const Cluster *c, const Workload *w,
                           const char *must_contain, int line)
{
    char err[200] = "";
    if (mapping_check(m, c, w, err, sizeof err) || !strstr(err, must_contain)) {
        print_error("line %d: want '%s', got '%s'\n", line, must_contain, err);
        fail();
    }
}
#define ILLEGAL(m, c, w, text) expect_illegal(&(m), &(c), &(w), (text), __LINE__)

static void test_mapping_check_names_the_constraint(void **state)
{
    (void)state;
    Cluster c = hand_cluster(512, 8, 32, 1);
    Workload w = gpt(96, 96, 1536, 1);
    Mapping ok = {.tp = 8, .cp = 1, .pp = 4, .dp = 16, .ep = 1, .interleave = 1};
    char err[200] = "";
    assert_true(mapping_check(&ok, &c, &w, err, sizeof err));
    Mapping m = ok;
    m.dp = 15; /* 8*4*15 = 480 */
    ILLEGAL(m, c, w, "TP 8 x CP 1 x PP 4 x DP 15 = 480 GPUs, but the cluster has 512");
    m = ok;
    m.tp = 16, m.dp = 8; /* 96 heads / 16 = 6 is fine; 72 / 16 is not */
    Workload w72 = gpt(96, 72, 1536, 1);
    ILLEGAL(m, c, w72, "TP 16 does not divide the 72 attention heads");
    m = ok;
    /* folding: EP x ETP must divide TP x CP x DP = 8 x 1 x 16 = 128 */
    m.ep = 3;
    ILLEGAL(m, c, w, "EP 3 x ETP 1 = 3 does not divide TP 8 x CP 1 x DP 16 = 128");
    m.ep = 4;
    ILLEGAL(m, c, w, "EP 4 needs a mixture-of-experts model");
    Workload moe = w;
    moe.experts = 6, moe.topk = 2;
    ILLEGAL(m, c, moe, "EP 4 does not divide the 6 experts");
    /* EP 64 with TP 2 and DP 32 (64 GPUs): EP 64 does not divide DP 32, but
     * 64 x ETP 1 divides TP 2 x DP 32 = 64, so it is legal; EDP = 64 / 64 = 1.
     * With ETP 2, 128 does not divide 64. */
    Cluster c64 = hand_cluster(64, 8, 32, 1);
    Workload moe64 = gpt(32, 32, 64, 1);
    moe64.experts = 256, moe64.topk = 8;
    Mapping fold = {.tp = 2, .cp = 1, .pp = 1, .dp = 32, .ep = 64, .interleave = 1, .zero = 1};
    assert_true(mapping_check(&fold, &c64, &moe64, err, sizeof err));
    assert_int_equal(mapping_edp(&fold), 1);
    fold.etp = 2;
    ILLEGAL(fold, c64, moe64, "EP 64 x ETP 2 = 128 does not divide TP 2 x CP 1 x DP 32 = 64");
    fold.ep = 32; /* 32 x 2 = 64: legal, EDP 1, and ETP 2 must divide the expert FFN */
    assert_true(mapping_check(&fold, &c64, &moe64, err, sizeof err));
    fold.etp = 3, fold.ep = 1;
    ILLEGAL(fold, c64, moe64, "EP 1 x ETP 3 = 3 does not divide");
    Mapping dense_etp = ok;
    dense_etp.etp = 2;
    ILLEGAL(dense_etp, c, w, "ETP 2 needs a mixture-of-experts model");
    Workload bad_batch = gpt(96, 96, 1000, 1); /* 1000 % 16 = 8 */
    ILLEGAL(ok, c, bad_batch, "global batch 1000 is not a multiple of DP 16 x micro-batch 1 = 16");
    m = ok;
    /* Uneven chunks are legal, as uneven stages are: Llama 3 405B, 126
     * layers on PP 16 interleaved (Llama 3 paper §3.3.2), here with 2 chunks
     * per GPU (32 chunks of 4 or 3 layers) on 128 x 8 GPUs: TP 8, DP 8, 2048
     * sequences = 256 micro-batches per pipeline, a multiple of 16. */
    Cluster c1k = hand_cluster(1024, 8, 32, 1);
    Workload l405 = gpt(126, 128, 2048, 1);
    Mapping il = {.tp = 8, .cp = 1, .pp = 16, .dp = 8, .ep = 1, .interleave = 2};
    assert_true(mapping_check(&il, &c1k, &l405, err, sizeof err));
    il.interleave = 8; /* 16 x 8 = 128 chunks for 126 layers: two would be empty */
    ILLEGAL(il, c1k, l405, "PP 16 x 8 chunks = 128 is more chunks than the 126 layers");
    m.interleave = 2;
    Workload few = gpt(96, 96, 16 * 6, 1); /* 6 micro-batches, not a multiple of 4 */
    ILLEGAL(m, c, few, "the 6 micro-batches to be a multiple of PP 4");
    m = ok;
    m.pp = 128, m.tp = 1, m.dp = 4;
    ILLEGAL(m, c, w, "PP 128 is more pipeline stages than the 96 layers");
    m = ok;
    m.zero = 4;
    ILLEGAL(m, c, w, "ZeRO stage");
    Workload gqa = gpt(96, 96, 1536, 1);
    gqa.kv_heads = 3; /* neither 3 % 8 nor 8 % 3 */
    ILLEGAL(ok, c, gqa, "TP 8 and the 3 KV heads");
    char buf[64];
    Mapping f = {.tp = 8, .cp = 2, .pp = 4, .dp = 16, .ep = 8, .interleave = 2};
    assert_string_equal(mapping_format(&f, buf, sizeof buf), "TP8 CP2 PP4x2 DP16 EP8");
}

/* Rank coordinates: each {rank, dim, want} of the list is
 * mapping_coord(&m, rank, dim). */
typedef struct {
    int rank;
    MappingDim dim;
    int want;
} Coord;

static void expect_coords(const Mapping *m, const Coord *c, size_t n, int line)
{
    for (size_t i = 0; i < n; i++) {
        int got = mapping_coord(m, c[i].rank, c[i].dim);
        if (got != c[i].want)
            print_error("line %d: rank %d %s: coordinate %d, want %d\n", line, c[i].rank,
                        mapping_dim_name(c[i].dim), got, c[i].want);
        assert_int_equal(got, c[i].want);
    }
}
#define COORDS(m, ...)                                                                            \
    expect_coords(&(m), (const Coord[]){__VA_ARGS__},                                             \
                  sizeof((const Coord[]){__VA_ARGS__}) / sizeof(Coord), __LINE__)

static void test_mapping_coordinates(void **state)
{
    (void)state;
    /* TP 2, PP 2, DP 2: rank = tp + 2*(pp + 2*dp). Rank 5 = 1 + 2*2:
     * tp 1, pp 0, dp 1. */
    Mapping m = {.tp = 2, .cp = 1, .pp = 2, .dp = 2, .ep = 1, .interleave = 1};
    assert_int_equal(mapping_world(&m), 8);
    COORDS(m, {5, DIM_TP, 1}, {5, DIM_PP, 0}, {5, DIM_DP, 1});
    /* TP groups are pairs: rank 5 is in group 2 (ranks 4, 5). */
    assert_int_equal(mapping_group_of(&m, 5, DIM_TP), 2);
    assert_int_equal(mapping_group_of(&m, 4, DIM_TP), 2);
    /* DP groups share (tp, pp): ranks 1 and 5 (tp 1, pp 0). */
    assert_int_equal(mapping_group_of(&m, 1, DIM_DP), mapping_group_of(&m, 5, DIM_DP));
    assert_true(mapping_group_of(&m, 1, DIM_DP) != mapping_group_of(&m, 3, DIM_DP));
    /* With EP folded, TP 2, EP 2, ETP 2, PP 2, DP 4: ETP x EP = 4, so the
     * inner part of DP is 4 / gcd(4, TP 2) = 2 and rank = tp + 2*(dpi +
     * 2*(pp + 2*dpr)) (with ETP = TP this is EP carved out of DP). Rank 13 =
     * 1 + 2*6: dpi 0, then 3 = pp 1 + 2*dpr 1; DP coordinate dpi + 2*dpr = 2.
     * Expert view L = tp + 2*dp = 5: etp 1, EP (5 / 2) % 2 = 0, EDP 5 / 4 = 1.
     * Rank 15 (dpi 1): L = 7, EP 1, same etp, EDP and stage: same EP group. */
    Mapping e = {.tp = 2, .cp = 1, .pp = 2, .dp = 4, .ep = 2, .interleave = 1, .etp = 2};
    assert_int_equal(mapping_dp_inner(&e), 2);
    COORDS(e, {13, DIM_TP, 1}, {13, DIM_EP, 0}, {13, DIM_PP, 1}, {13, DIM_DP, 2}, {15, DIM_EP, 1});
    assert_int_equal(mapping_group_of(&e, 13, DIM_EP), mapping_group_of(&e, 15, DIM_EP));
    /* ETP 1: the inner part of DP is 2 / gcd(2, 2) = 1, rank = tp + 2*(pp +
     * 2*dp); L = tp + 2*dp, EP = L % 2 = tp: the EP group of rank 13 is its
     * TP pair (ranks 12, 13), inside one server. */
    Mapping e1 = e;
    e1.etp = 1;
    assert_int_equal(mapping_dp_inner(&e1), 1);
    COORDS(e1, {13, DIM_DP, 3}, {13, DIM_EP, 1});
    assert_int_equal(mapping_group_of(&e1, 12, DIM_EP), mapping_group_of(&e1, 13, DIM_EP));
    assert_true(mapping_group_of(&e1, 13, DIM_EP) != mapping_group_of(&e1, 15, DIM_EP));
    assert_int_equal(mapping_coord(&e, 16, DIM_TP), -1);
    assert_int_equal(mapping_coord(NULL, 0, DIM_TP), -1);
    assert_string_equal(mapping_dim_name(DIM_EP), "EP");
    assert_int_equal(mapping_dim_size(&e, DIM_DP), 4);
}

/* The one rebalance rule, on 16 GPUs from TP 2 PP 2 DP 4: TP 4 leaves
 * DP = 16 / (4 x 1 x 2) = 2; DP 8 leaves PP = 16 / (2 x 1 x 8) = 1; EP
 * changes nothing else; TP 3 and DP 3 are not whole and change nothing. */
static void test_mapping_set_degree_rebalances(void **state)
{
    (void)state;
    const Mapping start = {.tp = 2, .cp = 1, .pp = 2, .dp = 4, .ep = 1, .interleave = 1};
    static const struct {
        MappingDim dim;
        int value, tp, pp, dp, ep; /* the degree set, then the mapping after */
    } moves[] = {{DIM_TP, 4, 4, 2, 2, 1}, {DIM_DP, 8, 2, 1, 8, 1}, {DIM_EP, 4, 2, 2, 4, 4}};
    Mapping m;
    char err[200] = "";
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        m = start;
        assert_true(mapping_set_degree(&m, 16, moves[i].dim, moves[i].value, err, sizeof err));
        assert_int_equal(m.tp, moves[i].tp);
        assert_int_equal(m.pp, moves[i].pp);
        assert_int_equal(m.dp, moves[i].dp);
        assert_int_equal(m.ep, moves[i].ep);
    }
    m = start;
    assert_false(mapping_set_degree(&m, 16, DIM_TP, 3, err, sizeof err));
    assert_string_equal(err, "TP 3 x CP 1 x PP 2 = 6 does not divide the 16 GPUs, so DP would "
                             "not be whole");
    assert_int_equal(m.tp, 2);
    assert_false(mapping_set_degree(&m, 16, DIM_DP, 3, err, sizeof err));
    assert_string_equal(err, "TP 2 x CP 1 x DP 3 = 6 does not divide the 16 GPUs, so PP would "
                             "not be whole");
    assert_false(mapping_set_degree(&m, 16, DIM_PP, 0, err, sizeof err));
    assert_string_equal(err, "PP must be at least 1 (got 0)");
    assert_int_equal(m.dp, 4);
    /* DP derived alone: 16 / (2 x 1 x 2) = 4 */
    Mapping d = {.tp = 2, .cp = 1, .pp = 2, .dp = 0, .ep = 1, .interleave = 1};
    assert_true(mapping_derive_dp(&d, 16, NULL, 0));
    assert_int_equal(d.dp, 4);
}

static void test_mapping_placement_swap_and_inverse(void **state)
{
    (void)state;
    Placement *p = placement_new(16);
    assert_non_null(p);
    assert_true(placement_is_default(p));
    assert_int_equal(placement_gpu_of(p, 3), 3);
    assert_true(placement_swap_gpus(p, 3, 12));
    assert_false(placement_is_default(p));
    assert_int_equal(placement_gpu_of(p, 3), 12);
    assert_int_equal(placement_rank_on(p, 12), 3);
    assert_int_equal(placement_rank_on(p, 3), 12);
    Placement *q = placement_dup(p);
    assert_true(placement_swap_gpus(p, 12, 3)); /* back to the default */
    assert_true(placement_is_default(p));
    assert_false(placement_is_default(q));
    assert_false(placement_swap_gpus(p, -1, 3));
    assert_false(placement_swap_gpus(p, 0, 16));
    assert_int_equal(placement_gpu_of(p, 16), -1);
    assert_int_equal(placement_rank_on(p, -1), -1);
    assert_null(placement_new(0));
    placement_free(p);
    placement_free(q);
    placement_free(NULL);
    assert_true(placement_is_default(NULL));
}

/* The default placement of n GPUs with GPUs a and b swapped. */
static Placement *swapped(int n, int a, int b)
{
    Placement *p = placement_new(n);
    assert_true(placement_swap_gpus(p, a, b));
    return p;
}

static void expect_span(GroupSpan s, int size, int domains, int min_per, int sites, bool leaf,
                        int line)
{
    if (s.size != size || s.domains != domains || s.min_per_domain != min_per ||
        s.sites != sites || s.crosses_leaf != leaf) {
        print_error("line %d: span {size %d, domains %d, min %d, sites %d, leaf %d}, want "
                    "{%d, %d, %d, %d, %d}\n",
                    line, s.size, s.domains, s.min_per_domain, s.sites, s.crosses_leaf, size,
                    domains, min_per, sites, leaf);
        fail();
    }
}
#define SPAN(s, size, dom, mn, sites, leaf) expect_span((s), size, dom, mn, sites, leaf, __LINE__)

/* Folded experts on 64 GPUs in domains of 8, default placement.
 * TP 2 EP 64 DP 32: DP inside PP = 64 / gcd(64, 2) = 32, so the EP group is
 * all 64 GPUs (stride ETP 1): 8 domains, 8 in each; EDP 1; a DP group is
 * stride 2 size 32: 8 domains, 4 in each.
 * TP 8 EP 8 DP 8: DP inside PP = 8 / gcd(8, 8) = 1: the EP group is the TP
 * group (GPUs 0..7, one domain); EDP = 64 / 8 = 8, stride 8: 8 domains, 1
 * in each.
 * TP 2 ETP 2 EP 2 PP 2 DP 4 on 16 GPUs in domains of 4: DP inside = 2, a
 * block of 4 GPUs holds TP x DP-inner; EP group stride 2 size 2 (GPUs 0, 2):
 * one domain; ETP group = the TP pair; EDP = 2 x 4 / 4 = 2, stride 4 within
 * the block: {0} then the next block of the same stage 4 x 2 = 8 GPUs on:
 * GPUs 0 and 8, 2 domains. The same spans come out of the exact walk over
 * an explicit placement that swaps the two GPUs of one TP pair. */
static void test_mapping_folded_expert_spans(void **state)
{
    (void)state;
    Cluster c = hand_cluster(64, 8, 64, 1);
    Mapping a = {.tp = 2, .cp = 1, .pp = 1, .dp = 32, .ep = 64, .interleave = 1, .zero = 1};
    SPAN(span_worst(&a, &c, NULL, DIM_EP), 64, 8, 8, 1, false);
    SPAN(span_worst_expert(&a, &c, NULL, SPAN_EXPERT_DP), 1, 1, 1, 1, false);
    SPAN(span_worst(&a, &c, NULL, DIM_DP), 32, 8, 4, 1, false);
    Mapping b = {.tp = 8, .cp = 1, .pp = 1, .dp = 8, .ep = 8, .interleave = 1, .zero = 1};
    SPAN(span_worst(&b, &c, NULL, DIM_EP), 8, 1, 8, 1, false);
    SPAN(span_worst_expert(&b, &c, NULL, SPAN_EXPERT_DP), 8, 8, 1, 1, false);
    SPAN(span_worst_expert(&b, &c, NULL, SPAN_EXPERT_TP), 1, 1, 1, 1, false);
    Cluster c16 = hand_cluster(16, 4, 16, 1);
    Mapping e = {.tp = 2, .cp = 1, .pp = 2, .dp = 4, .ep = 2, .interleave = 1, .etp = 2};
    Placement *p = swapped(16, 0, 1);
    for (int walk = 0; walk < 2; walk++) {
        const Placement *q = walk ? p : NULL;
        SPAN(span_worst(&e, &c16, q, DIM_EP), 2, 1, 2, 1, false);
        SPAN(span_worst_expert(&e, &c16, q, SPAN_EXPERT_TP), 2, 1, 2, 1, false);
        SPAN(span_worst_expert(&e, &c16, q, SPAN_EXPERT_DP), 2, 2, 1, 1, false);
    }
    placement_free(p);
}

static void test_mapping_default_spans_hand_worked(void **state)
{
    (void)state;
    /* 64 GPUs in 8-GPU servers, 32 GPUs per leaf. TP 8 fills one server. */
    Cluster c = hand_cluster(64, 8, 32, 1);
    Mapping m = {.tp = 8, .cp = 1, .pp = 2, .dp = 4, .ep = 1, .interleave = 1};
    SPAN(span_worst(&m, &c, NULL, DIM_TP), 8, 1, 8, 1, false);
    /* PP stride 8: GPUs x and x+8, two servers, same leaf. */
    SPAN(span_worst(&m, &c, NULL, DIM_PP), 2, 2, 1, 1, false);
    /* DP stride 16: x, x+16, x+32, x+48: 4 servers over 2 leaves. */
    SPAN(span_worst(&m, &c, NULL, DIM_DP), 4, 4, 1, 1, true);
    /* TP 16 spans two servers with 8 each. */
    Mapping t16 = {.tp = 16, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    SPAN(span_worst(&t16, &c, NULL, DIM_TP), 16, 2, 8, 1, false);
    /* NVL72 racks, 144 GPUs: TP 16 groups start at 0, 16, ..., 128; the one
     * at 64 covers 64..79 = 8 GPUs in rack 0 and 8 in rack 1. */
    Cluster r = hand_cluster(144, 72, 72, 1);
    Mapping t16r = {.tp = 16, .cp = 1, .pp = 1, .dp = 9, .ep = 1, .interleave = 1};
    SPAN(span_worst(&t16r, &r, NULL, DIM_TP), 16, 2, 8, 1, true);
    /* TP 8 in NVL72: 72 = 9 x 8, never split. */
    Mapping t8r = {.tp = 8, .cp = 1, .pp = 1, .dp = 18, .ep = 1, .interleave = 1};
    SPAN(span_worst(&t8r, &r, NULL, DIM_TP), 8, 1, 8, 1, false);
    /* Two sites of 32 GPUs: DP 4 at stride 16 touches both. */
    Cluster s = hand_cluster(64, 8, 32, 2);
    SPAN(span_worst(&m, &s, NULL, DIM_DP), 4, 4, 1, 2, true);
    /* Size-1 dimensions span nothing. */
    SPAN(span_worst(&m, &c, NULL, DIM_EP), 1, 1, 1, 1, false);
}

/* A row {tp, cp, ep, pp, dp} of the shape lists below, not interleaved. */
static Mapping shape_mapping(const int shape[5])
{
    Mapping m = {.tp = shape[0],
                 .cp = shape[1],
                 .ep = shape[2],
                 .pp = shape[3],
                 .dp = shape[4],
                 .interleave = 1};
    return m;
}

/* Closed form against the exact walk over every group (the default placement
 * passed to mapping_group_span is walked member by member). */
static void test_mapping_closed_form_matches_walk(void **state)
{
    (void)state;
    const int shapes[][5] = {/* tp, cp, ep, pp, dp */
                             {8, 1, 1, 4, 4},  {16, 1, 1, 2, 4}, {2, 2, 1, 4, 4},
                             {4, 1, 4, 2, 8},  {1, 1, 8, 2, 8},  {8, 1, 2, 1, 8},
                             {3, 1, 1, 4, 12}, {6, 1, 1, 2, 12}, {2, 1, 1, 6, 64}};
    /* 256 with PP 6 over TP 2: 64 pipeline offsets in a domain, found by
     * span.c's two-start closed form rather than start by start */
    const int domains[] = {8, 72, 6, 16, 4, 256};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        for (size_t j = 0; j < 2 * sizeof domains / sizeof domains[0]; j++) {
            Mapping m = shape_mapping(shapes[i]);
            int world = mapping_world(&m);
            int dom = domains[j / 2];
            Cluster c = hand_cluster(world, dom, 2 * dom, 1);
            c.rail_optimized = j % 2; /* every case on a plain and on a rail fabric */
            for (int d = 0; d < DIM_COUNT; d++) {
                GroupSpan closed = span_worst(&m, &c, NULL, (MappingDim)d);
                int worst_dom = 0, worst_min = 0;
                bool leaf = false;
                for (int r = 0; r < world; r++) {
                    GroupSpan g = span_of_group(&m, &c, NULL, (MappingDim)d, r);
                    if (g.domains > worst_dom ||
                        (g.domains == worst_dom && g.min_per_domain < worst_min)) {
                        worst_dom = g.domains;
                        worst_min = g.min_per_domain;
                    }
                    leaf = leaf || g.crosses_leaf;
                }
                if (closed.domains != worst_dom || closed.crosses_leaf != leaf ||
                    closed.min_per_domain != worst_min) {
                    print_error("shape %zu domain %d rails %d dim %s: closed %d domains (min %d) "
                                "leaf %d, walk %d (min %d) leaf %d\n",
                                i, dom, c.rail_optimized, mapping_dim_name((MappingDim)d),
                                closed.domains, closed.min_per_domain, closed.crosses_leaf,
                                worst_dom, worst_min, leaf);
                    fail();
                }
            }
        }
    }
}

/* A swap inside one domain and one leaf changes no span: the exact walk of
 * the explicit placement must then agree with the closed form. */
static void test_mapping_explicit_walk_matches_closed_form(void **state)
{
    (void)state;
    const int shapes[][5] = {{8, 1, 1, 4, 4}, {4, 1, 4, 2, 8}, {16, 1, 1, 2, 4}, {6, 1, 1, 2, 12}};
    const int domains[] = {8, 16, 72};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        for (size_t j = 0; j < sizeof domains / sizeof domains[0]; j++) {
            Mapping m = shape_mapping(shapes[i]);
            int world = mapping_world(&m);
            Cluster c = hand_cluster(world, domains[j], domains[j], 1);
            Placement *p = swapped(world, 0, 1); /* same domain, same leaf */
            assert_false(placement_is_default(p));
            for (int d = 0; d < DIM_COUNT; d++) {
                GroupSpan a = span_worst(&m, &c, NULL, (MappingDim)d);
                GroupSpan b = span_worst(&m, &c, p, (MappingDim)d);
                if (a.domains != b.domains || a.min_per_domain != b.min_per_domain ||
                    a.crosses_leaf != b.crosses_leaf || a.sites != b.sites) {
                    print_error("shape %zu domain %d dim %s: closed %d/%d/%d, walk %d/%d/%d\n", i,
                                domains[j], mapping_dim_name((MappingDim)d), a.domains,
                                a.min_per_domain, a.crosses_leaf, b.domains, b.min_per_domain,
                                b.crosses_leaf);
                    fail();
                }
            }
            placement_free(p);
        }
    }
}

/* The span of rank r's group by brute force, independent of mapping.c's
 * walks: members are the ranks with the same mapping_group_of, tiers are
 * GPU / block size (cluster.h), counted in plain arrays. On rails the "leaf"
 * block is the scalable unit (domain x gpus_per_leaf GPUs, at most a site's),
 * and a group over
 * several domains also climbs to the spine unless every domain it touches
 * holds a member at every position any of them holds. */
/* The group id of every rank along d (mapping_group_of, the definition),
 * kept for the last mapping and dimension asked: brute force asks often. */
static const int *group_ids(const Mapping *m, MappingDim d)
{
    static Mapping last;
    static int last_d = -1, *ids;
    if (ids && last_d == (int)d && memcmp(&last, m, sizeof last) == 0)
        return ids;
    free(ids);
    ids = malloc((size_t)mapping_world(m) * sizeof *ids);
    assert_non_null(ids);
    for (int q = 0; q < mapping_world(m); q++)
        ids[q] = mapping_group_of(m, q, d);
    last = *m;
    last_d = (int)d;
    return ids;
}

static GroupSpan brute_group(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d,
                             int r)
{
    const int *ids = group_ids(m, d);
    int world = mapping_world(m), g = ids[r];
    int n_domains = (c->n_gpus + c->domain_gpus - 1) / c->domain_gpus;
    int dom_per_site = (n_domains + c->sites - 1) / c->sites;
    static int dom_count[4096], leaf_count[4096], site_count[64];
    static bool at[4096][72], pos_used[72];
    bool rails = c->rail_optimized && c->domain_gpus <= c->gpus_per_leaf;
    int block = rails ? c->domain_gpus * c->gpus_per_leaf : c->gpus_per_leaf;
    if (rails && c->sites > 1 && dom_per_site * c->domain_gpus < block)
        block = dom_per_site * c->domain_gpus; /* a unit stands in one site */
    assert_true(c->domain_gpus <= 72 && n_domains <= 4096);
    memset(at, 0, (size_t)n_domains * sizeof at[0]); /* the rows a GPU can be in */
    memset(pos_used, 0, sizeof pos_used);
    memset(dom_count, 0, sizeof dom_count);
    memset(leaf_count, 0, sizeof leaf_count);
    memset(site_count, 0, sizeof site_count);
    GroupSpan s = {0, 0, 0, 0, false};
    for (int q = 0; q < world; q++) {
        if (ids[q] != g)
            continue;
        int gpu = placement_gpu_of(p, q);
        s.size++;
        dom_count[gpu / c->domain_gpus]++;
        /* a leaf (or rail unit) stands in one site: blocks restart at each */
        int site = gpu / c->domain_gpus / dom_per_site, site_gpus = dom_per_site * c->domain_gpus;
        int per_site = (site_gpus + block - 1) / block;
        leaf_count[site * per_site + (gpu - site * site_gpus) / block]++;
        at[gpu / c->domain_gpus][gpu % c->domain_gpus] = true;
        pos_used[gpu % c->domain_gpus] = true;
        site_count[gpu / c->domain_gpus / dom_per_site]++;
    }
    s.min_per_domain = s.size;
    int leaves = 0;
    for (int i = 0; i < 4096; i++) {
        if (i < n_domains && dom_count[i] > 0) {
            s.domains++;
            if (dom_count[i] < s.min_per_domain)
                s.min_per_domain = dom_count[i];
        }
        leaves += leaf_count[i] > 0;
    }
    for (int i = 0; i < 64; i++)
        s.sites += site_count[i] > 0;
    s.crosses_leaf = leaves > 1;
    for (int i = 0; rails && s.domains > 1 && i < n_domains; i++)
        for (int k = 0; dom_count[i] > 0 && k < c->domain_gpus; k++)
            if (pos_used[k] && !at[i][k])
                s.crosses_leaf = true;
    return s;
}

/* Worst span of an explicit placement by brute force: every group, each
 * from the first rank found in it. */
static GroupSpan brute_worst(const Mapping *m, const Cluster *c, const Placement *p, MappingDim d)
{
    GroupSpan w = {0, 0, 0, 0, false};
    int world = mapping_world(m);
    const int *ids = group_ids(m, d);
    bool *seen = calloc((size_t)world, sizeof *seen);
    assert_non_null(seen);
    for (int r = 0; r < world; r++) {
        int id = ids[r];
        assert_true(id >= 0 && id < world);
        if (seen[id])
            continue;
        seen[id] = true;
        GroupSpan g = brute_group(m, c, p, d, r);
        bool leaf = w.crosses_leaf || g.crosses_leaf;
        int sites = g.sites > w.sites ? g.sites : w.sites;
        if (r == 0 || g.domains > w.domains ||
            (g.domains == w.domains && g.min_per_domain < w.min_per_domain))
            w = g;
        w.crosses_leaf = leaf;
        w.sites = sites;
    }
    free(seen);
    return w;
}

static bool same_span(GroupSpan a, GroupSpan b)
{
    return a.domains == b.domains && a.min_per_domain == b.min_per_domain &&
           a.crosses_leaf == b.crosses_leaf && a.sites == b.sites;
}

/* A few swaps in a big cluster take the shortcut (only touched groups are
 * walked); many swaps in a small one take the full walk. Both must agree
 * with brute force. */
static void test_mapping_explicit_spans_match_brute_force(void **state)
{
    (void)state;
    const int shapes[][5] = {
        {8, 1, 1, 4, 32}, {16, 1, 1, 2, 32}, {4, 1, 4, 2, 16}, {2, 2, 1, 8, 8}};
    const int domains[] = {8, 72};
    unsigned seed = 12345;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        for (size_t j = 0; j < sizeof domains / sizeof domains[0]; j++) {
            Mapping m = shape_mapping(shapes[i]);
            int world = mapping_world(&m);
            for (int sites = 1; sites <= 4; sites++) {
                /* 1 and 2 sites, then the same on a rail-optimized fabric */
                Cluster c = hand_cluster(world, domains[j], 4 * domains[j], (sites - 1) % 2 + 1);
                c.rail_optimized = sites > 2;
                Placement *p = placement_new(world);
                /* Where the closed form of the default placement is not exact
                 * (min per domain of a DP group with EP > 1 whose sub-groups share
                 * a domain: 8 for 6 with TP4 EP4 PP2 DP16 on 72-GPU domains), the
                 * few-swaps shortcut inherits that; only domains, leaf and sites
                 * are compared there. */
                bool closed_exact[DIM_COUNT];
                for (int d = 0; d < DIM_COUNT; d++)
                    closed_exact[d] = same_span(span_worst(&m, &c, NULL, (MappingDim)d),
                                                brute_worst(&m, &c, p, (MappingDim)d));
                /* 1, then 20, then 400 swaps on the same placement: the spans
                 * taken in between must follow the swaps made after them. */
                for (int swaps = 1; swaps <= 400; swaps *= 20) {
                    for (int k = 0; k < swaps; k++) {
                        seed = seed * 1103515245u + 12345u;
                        int a = (int)((seed >> 8) % (unsigned)world);
                        seed = seed * 1103515245u + 12345u;
                        int b = (int)((seed >> 8) % (unsigned)world);
                        placement_swap_gpus(p, a, b);
                    }
                    for (int d = 0; d < DIM_COUNT; d++) {
                        GroupSpan a = span_worst(&m, &c, p, (MappingDim)d);
                        GroupSpan b = brute_worst(&m, &c, p, (MappingDim)d);
                        if (!closed_exact[d] && swaps == 1)
                            a.min_per_domain = b.min_per_domain;
                        if (!same_span(a, b)) {
                            print_error("shape %zu domain %d sites %d swaps %d dim %s: "
                                        "%d/%d/%d/%d vs brute %d/%d/%d/%d\n",
                                        i, domains[j], sites, swaps,
                                        mapping_dim_name((MappingDim)d), a.domains,
                                        a.min_per_domain, a.crosses_leaf, a.sites, b.domains,
                                        b.min_per_domain, b.crosses_leaf, b.sites);
                            fail();
                        }
                        for (int r = 0; r < world; r += 7) {
                            GroupSpan g = span_of_group(&m, &c, p, (MappingDim)d, r);
                            if (!same_span(g, brute_group(&m, &c, p, (MappingDim)d, r))) {
                                print_error("group of rank %d, dim %s differs from brute force\n",
                                            r, mapping_dim_name((MappingDim)d));
                                fail();
                            }
                        }
                    }
                }
                /* A copy takes the work memory over; both must stay exact, the
                 * copy after a swap of its own too. */
                Placement *q = placement_dup(p);
                placement_swap_gpus(q, 0, world - 1);
                for (int d = 0; d < DIM_COUNT; d++) {
                    assert_true(same_span(span_worst(&m, &c, q, (MappingDim)d),
                                          brute_worst(&m, &c, q, (MappingDim)d)));
                    assert_true(same_span(span_worst(&m, &c, p, (MappingDim)d),
                                          brute_worst(&m, &c, p, (MappingDim)d)));
                }
                placement_free(q);
                placement_free(p);
            }
        }
    }
}

static void test_mapping_explicit_placement_spans(void **state)
{
    (void)state;
    /* 16 GPUs in two 8-GPU servers, TP 8 x DP 2. Move rank 7 (last of TP
     * group 0) to GPU 8 by swapping GPUs 7 and 8: TP group 0 now has 7 GPUs in
     * server 0 and 1 in server 1. */
    Cluster c = hand_cluster(16, 8, 16, 1);
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 2, .ep = 1, .interleave = 1};
    Placement *p = swapped(16, 7, 8);
    SPAN(span_worst(&m, &c, p, DIM_TP), 8, 2, 1, 1, false);
    SPAN(span_of_group(&m, &c, p, DIM_TP, 0), 8, 2, 1, 1, false);
    /* DP pairs (r, r+8) still straddle the two servers. */
    SPAN(span_worst(&m, &c, p, DIM_DP), 2, 2, 1, 1, false);
    /* Default placement: TP inside one server. */
    SPAN(span_worst(&m, &c, NULL, DIM_TP), 8, 1, 8, 1, false);
    placement_free(p);
}

/* A fully shuffled placement of 131,072 GPUs (NVL72 domains, 32-GPU leaves;
 * TP64 PP2 DP1024, the mapping `make bench` times): the spans are the same
 * when asked again from the placement's caches, and again after a swap and
 * back. (How fast this is, is `make bench`'s figure.) */
static void test_mapping_shuffled_spans_are_stable(void **state)
{
    (void)state;
    Cluster c = hand_cluster(131072, 72, 32, 1);
    Mapping m = {.tp = 64, .cp = 1, .pp = 2, .dp = 1024, .ep = 1, .interleave = 1};
    Placement *p = placement_new(131072);
    unsigned long long x = 88172645463325252ULL;
    for (int g = 131071; g > 0; g--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        placement_swap_gpus(p, g, (int)(x % (unsigned long long)(g + 1)));
    }
    GroupSpan first[DIM_COUNT];
    for (int d = 0; d < DIM_COUNT; d++)
        first[d] = span_worst(&m, &c, p, (MappingDim)d);
    /* A shuffled TP group of 64 lands in many domains. */
    assert_true(first[DIM_TP].domains > 1);
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            assert_true(placement_swap_gpus(p, 5, 70000));
            assert_true(placement_swap_gpus(p, 5, 70000));
        }
        for (int d = 0; d < DIM_COUNT; d++) {
            GroupSpan again = span_worst(&m, &c, p, (MappingDim)d);
            assert_int_equal(again.domains, first[d].domains);
            assert_int_equal(again.min_per_domain, first[d].min_per_domain);
            assert_int_equal(again.sites, first[d].sites);
        }
    }
    placement_free(p);
}

static Mapping tpdp(int tp, int pp, int dp)
{
    Mapping m = {.tp = tp, .cp = 1, .pp = pp, .dp = dp, .ep = 1, .interleave = 1};
    return m;
}

/* Two GB200 racks (144 GPUs), a 128-rank TP 16 job, GPUs 16-19 failed. The
 * fill skips the tray: ranks 0-15 on GPUs 0-15, ranks 16-67 on 20-71, ranks
 * 68-127 on 72-131. TP group 4 (ranks 64-79) has 4 ranks in rack 0 (GPUs
 * 68-71) and 12 in rack 1: it alone crosses. Gathering it in rack 1 (its
 * ranks 64-67 onto the free GPUs 132-135) leaves no group across. */
static void test_mapping_spans_around_a_failed_tray(void **state)
{
    (void)state;
    Cluster c = tl_preset("gb200-nvl72", 128);
    char err[200];
    c.machine_gpus = 144;
    assert_true(cluster_add_down(&c, 16, 4, CLUSTER_GPU_FAILED, err, sizeof err));
    Mapping m = tpdp(16, 1, 8);
    GroupSpan w = span_worst(&m, &c, NULL, DIM_TP);
    assert_int_equal(w.domains, 2);
    assert_int_equal(w.min_per_domain, 4);
    int ids[8];
    assert_int_equal(span_crossing_groups(&m, &c, NULL, DIM_TP, SPAN_CROSS_DOMAIN, ids, 8), 1);
    assert_int_equal(ids[0], 4);
    /* the machine's own placement says the same as none */
    Placement *fill = placement_for_machine(&c);
    for (int d = 0; d < DIM_COUNT; d++) {
        GroupSpan a = span_worst(&m, &c, NULL, (MappingDim)d);
        GroupSpan b = span_worst(&m, &c, fill, (MappingDim)d);
        assert_int_equal(a.domains, b.domains);
        assert_int_equal(a.min_per_domain, b.min_per_domain);
        assert_int_equal(a.crosses_leaf, b.crosses_leaf);
    }
    placement_free(fill);
    int gpu_of[128];
    for (int r = 0; r < 128; r++)
        gpu_of[r] = cluster_nth_usable(&c, r);
    for (int r = 64; r < 68; r++)
        gpu_of[r] = 132 + (r - 64);
    Placement *moved = placement_from(128, 144, gpu_of);
    assert_non_null(moved);
    assert_int_equal(placement_rank_on(moved, 68), -1); /* left free */
    assert_int_equal(span_worst(&m, &c, moved, DIM_TP).domains, 1);
    assert_int_equal(span_crossing_groups(&m, &c, moved, DIM_TP, SPAN_CROSS_DOMAIN, NULL, 0), 0);
    placement_free(moved);
}

/* With the default placement the groups that cross a domain are counted from
 * each group's lowest and highest GPU (span.c); here every rank's domain is
 * looked at instead, for mappings whose groups are strided (DP, PP) or mixed
 * (EP, CP), on domains that divide the groups and domains that do not. */
static void test_mapping_default_crossing_groups_brute_force(void **state)
{
    (void)state;
    const int shapes[][5] = {{8, 1, 1, 4, 32}, {16, 1, 1, 2, 32}, {4, 1, 4, 2, 16},
                             {2, 2, 1, 8, 8},  {4, 2, 8, 2, 16},  {8, 1, 1, 1, 9},
                             {4, 1, 1, 2, 3}};
    const int domains[] = {6, 8, 10, 36, 72};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (size_t j = 0; j < sizeof domains / sizeof domains[0]; j++) {
            Mapping m = shape_mapping(shapes[i]);
            int world = mapping_world(&m);
            Cluster c = hand_cluster(world, domains[j], 4 * domains[j], 1);
            for (int d = 0; d < DIM_COUNT; d++) {
                int n_groups = world / mapping_dim_size(&m, (MappingDim)d);
                int *first = xmem_alloc((size_t)n_groups * sizeof *first);
                bool *cross = xmem_alloc((size_t)n_groups * sizeof *cross);
                for (int g = 0; g < n_groups; g++)
                    first[g] = -1, cross[g] = false;
                for (int r = 0; r < world; r++) {
                    int g = mapping_group_of(&m, r, (MappingDim)d);
                    int dom = cluster_domain_of(&c, r);
                    if (first[g] < 0)
                        first[g] = dom;
                    else if (first[g] != dom)
                        cross[g] = true;
                }
                int want = 0, want_first = -1;
                for (int g = 0; g < n_groups; g++)
                    if (cross[g] && want++ == 0)
                        want_first = g;
                if (mapping_dim_size(&m, (MappingDim)d) <= 1)
                    want = 0, want_first = -1;
                assert_int_equal(
                    span_crossing_groups(&m, &c, NULL, (MappingDim)d, SPAN_CROSS_DOMAIN, NULL, 0),
                    want);
                int id = -1;
                span_crossing_groups(&m, &c, NULL, (MappingDim)d, SPAN_CROSS_DOMAIN, &id, 1);
                assert_int_equal(id, want_first);
                free(first);
                free(cross);
            }
        }
}

/* A failed GPU never runs a rank: placement_from refuses nothing itself,
 * but the fill and every count keep off it. */
static void test_mapping_fill_keeps_off_down_gpus(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 16);
    char err[200];
    c.machine_gpus = 24;
    assert_true(cluster_add_down(&c, 0, 8, CLUSTER_GPU_BUSY, err, sizeof err));
    Placement *p = placement_for_machine(&c);
    for (int g = 0; g < 8; g++)
        assert_int_equal(placement_rank_on(p, g), -1);
    assert_int_equal(placement_gpu_of(p, 0), 8);
    assert_int_equal(placement_gpu_of(p, 15), 23);
    placement_free(p);
    /* the job's two servers are servers 1 and 2: TP 8 fits each */
    Mapping m = tpdp(8, 1, 2);
    assert_int_equal(span_worst(&m, &c, NULL, DIM_TP).domains, 1);
    assert_int_equal(span_worst(&m, &c, NULL, DIM_DP).domains, 2);
}

/* Which groups climb to the spine, and which cross the site link.
 * DGX A100 (no rails), leaves of 16: TP 8 DP 4 over 32 GPUs puts each DP
 * group {r, r+8, r+16, r+24} under both leaves, every TP group under one.
 * Two sites of 16 (servers 0-1 and 2-3): the same DP groups cross the site
 * link, no TP group does. */
static void test_mapping_groups_that_cross_spine_and_site(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-a100", 32);
    c.gpus_per_leaf = 16;
    Mapping m = tpdp(8, 1, 4);
    int ids[16];
    assert_int_equal(span_crossing_groups(&m, &c, NULL, DIM_DP, SPAN_CROSS_SPINE, ids, 16), 8);
    assert_int_equal(ids[7], 7);
    assert_int_equal(span_crossing_groups(&m, &c, NULL, DIM_TP, SPAN_CROSS_SPINE, ids, 16), 0);
    assert_int_equal(span_crossing_groups(&m, &c, NULL, DIM_DP, SPAN_CROSS_SITE, ids, 16), 0);
    c.sites = 2;
    c.across_bytes_per_s = 400e9;
    char err[200];
    assert_true(cluster_check(&c, err, sizeof err));
    assert_int_equal(span_crossing_groups(&m, &c, NULL, DIM_DP, SPAN_CROSS_SITE, ids, 2), 8);
    assert_int_equal(ids[1], 1); /* only max written */
    assert_int_equal(span_crossing_groups(&m, &c, NULL, DIM_TP, SPAN_CROSS_SITE, ids, 16), 0);
    assert_int_equal(span_worst(&m, &c, NULL, DIM_DP).sites, 2);
}

/* Rails (DGX H100 SuperPOD): GPU k of each server on leaf k. TP 8 DP 8 over
 * 64 GPUs: each DP group keeps one position (ranks r, r+8, ...: GPU r of
 * every server), so it stays on rail leaf r; TP 4 DP 16 keeps positions 0
 * and 4 in every server, also aligned. Swapping GPUs 8 and 9 puts rank 8
 * (DP group 0) on position 1 of server 1 while the rest of its group sits
 * at position 0: that group, and group 1 (rank 9 now at position 0), climb
 * to the spine. */
static void test_mapping_rails_keep_dp_on_one_leaf(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 64);
    assert_true(cluster_rail_unit_gpus(&c) > 0);
    Mapping same = tpdp(8, 1, 8), pairs = tpdp(4, 1, 16);
    assert_int_equal(span_crossing_groups(&same, &c, NULL, DIM_DP, SPAN_CROSS_SPINE, NULL, 0), 0);
    assert_false(span_worst(&same, &c, NULL, DIM_DP).crosses_leaf);
    assert_int_equal(span_crossing_groups(&pairs, &c, NULL, DIM_DP, SPAN_CROSS_SPINE, NULL, 0), 0);
    Placement *p = placement_new(64);
    assert_true(placement_swap_gpus(p, 8, 9));
    int ids[8];
    assert_int_equal(span_crossing_groups(&same, &c, p, DIM_DP, SPAN_CROSS_SPINE, ids, 8), 2);
    assert_int_equal(ids[0], 0);
    assert_int_equal(ids[1], 1);
    assert_true(span_worst(&same, &c, p, DIM_DP).crosses_leaf);
    placement_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapping_spans_around_a_failed_tray),
        cmocka_unit_test(test_mapping_fill_keeps_off_down_gpus),
        cmocka_unit_test(test_mapping_groups_that_cross_spine_and_site),
        cmocka_unit_test(test_mapping_rails_keep_dp_on_one_leaf),
        cmocka_unit_test(test_mapping_check_names_the_constraint),
        cmocka_unit_test(test_mapping_coordinates),
        cmocka_unit_test(test_mapping_set_degree_rebalances),
        cmocka_unit_test(test_mapping_folded_expert_spans),
        cmocka_unit_test(test_mapping_placement_swap_and_inverse),
        cmocka_unit_test(test_mapping_default_spans_hand_worked),
        cmocka_unit_test(test_mapping_closed_form_matches_walk),
        cmocka_unit_test(test_mapping_explicit_walk_matches_closed_form),
        cmocka_unit_test(test_mapping_explicit_spans_match_brute_force),
        cmocka_unit_test(test_mapping_default_crossing_groups_brute_force),
        cmocka_unit_test(test_mapping_explicit_placement_spans),
        cmocka_unit_test(test_mapping_shuffled_spans_are_stable),
    };
    return cmocka_run_group_tests_name("mapping", tests, NULL, NULL);
}
