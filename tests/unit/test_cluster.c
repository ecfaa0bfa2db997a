/* SPDX-License-Identifier: MIT */
/* test_cluster — building clusters from presets, where a GPU sits, the
 * leaf-spine counts, and the checks with their messages. Expected numbers are
 * worked by hand in the comments. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <string.h>

#include "model/cluster.h"

static void check_err(bool ok, const char *err, const char *must_contain)
{
    if (ok || !strstr(err, must_contain)) {
        print_error("expected failure containing '%s', got ok=%d err='%s'\n", must_contain, ok,
                    err);
        fail();
    }
}

static void test_cluster_from_system_copies_preset(void **state)
{
    (void)state;
    Cluster c;
    char err[200] = "";
    assert_true(cluster_from_system(&c, "gb200-nvl72", 144, err, sizeof err));
    assert_string_equal(c.system_id, "gb200-nvl72");
    assert_string_equal(c.gpu.id, "gb200");
    assert_int_equal(c.n_gpus, 144);
    assert_int_equal(c.domain_gpus, 72);
    assert_true(fabs(c.up_bytes_per_s - 900e9) < 1); /* 1.8 TB/s bidir / 2 */
    assert_true(fabs(c.out_bytes_per_s - 50e9) < 1); /* 400 Gb/s / 8 */
    assert_int_equal(c.sites, 1);
    assert_true(cluster_check(&c, err, sizeof err));

    /* n_gpus <= 0: the preset's default (dgx-h100: 256, one scalable unit) */
    assert_true(cluster_from_system(&c, "dgx-h100", 0, err, sizeof err));
    assert_int_equal(c.n_gpus, 256);
}

static void test_cluster_from_system_rejects_unknown_and_huge(void **state)
{
    (void)state;
    Cluster c;
    char err[300] = "";
    check_err(cluster_from_system(&c, "dgx-h1000", 8, err, sizeof err), err,
              "unknown system 'dgx-h1000'");
    assert_non_null(strstr(err, "gb300-nvl72")); /* lists what is known */
    /* 10^9 GPUs: a clear error, not an overflow */
    check_err(cluster_from_system(&c, "dgx-h100", 1000000000, err, sizeof err), err,
              "more than scalelab models");
    check_err(cluster_from_system(NULL, "dgx-h100", 8, err, sizeof err), err, "no cluster");
}

static void test_cluster_domain_leaf_site_of(void **state)
{
    (void)state;
    Cluster c;
    assert_true(cluster_from_system(&c, "dgx-h100", 64, NULL, 0));
    /* 64 GPUs / 8 per server = 8 domains; GPU 17 is in domain 17/8 = 2 */
    assert_int_equal(cluster_domain_count(&c), 8);
    assert_int_equal(cluster_domain_of(&c, 0), 0);
    assert_int_equal(cluster_domain_of(&c, 7), 0);
    assert_int_equal(cluster_domain_of(&c, 8), 1);
    assert_int_equal(cluster_domain_of(&c, 17), 2);
    assert_int_equal(cluster_domain_of(&c, 63), 7);
    assert_int_equal(cluster_domain_of(&c, 64), -1);
    assert_int_equal(cluster_domain_of(&c, -1), -1);
    assert_int_equal(cluster_domain_of(NULL, 0), -1);
    /* Rail-optimized (the DGX SuperPOD wiring): a unit of 32 servers x 8 =
     * 256 GPUs on 8 leaves, GPU i of every server on leaf i. GPU 17 is GPU 1
     * of server 2: leaf 1; GPU 31 is GPU 7 of server 3: leaf 7; GPU 32 is
     * GPU 0 of server 4: leaf 0. */
    assert_true(c.rail_optimized);
    assert_int_equal(cluster_rail_unit_gpus(&c), 256);
    assert_int_equal(cluster_leaf_of(&c, 17), 1);
    assert_int_equal(cluster_leaf_of(&c, 31), 7);
    assert_int_equal(cluster_leaf_of(&c, 32), 0);
    assert_int_equal(cluster_leaf_of(&c, 64), -1);
    assert_int_equal(cluster_leaf_count(&c), 8);
    /* Plain wiring, 32 GPUs per leaf: GPU 31 under leaf 0, GPU 32 under leaf 1 */
    c.rail_optimized = false;
    assert_int_equal(cluster_rail_unit_gpus(&c), 0);
    assert_int_equal(cluster_leaf_of(&c, 31), 0);
    assert_int_equal(cluster_leaf_of(&c, 32), 1);
    assert_int_equal(cluster_leaf_of(&c, 64), -1);
    assert_int_equal(cluster_leaf_count(&c), 2);
    /* 2 sites: 8 domains / 2 = 4 per site; GPU 31 (domain 3) at site 0, GPU 32 (domain 4) at 1 */
    c.sites = 2;
    c.across_bytes_per_s = 1e12;
    assert_true(cluster_check(&c, NULL, 0));
    assert_int_equal(cluster_site_of(&c, 31), 0);
    assert_int_equal(cluster_site_of(&c, 32), 1);
    assert_int_equal(cluster_site_of(&c, 99), -1);
    /* a leaf stands in one site: 64 GPUs on 32-port leaves at 2 sites of 32 */
    assert_int_equal(cluster_leaf_count(&c), 2);
    assert_int_equal(cluster_leaf_of(&c, 32), 1);
    /* two TPU v5p slices of 256, one per site: a leaf and a spine at each
     * (the preset's leaf would take all 512 chips, across both buildings) */
    assert_true(cluster_from_system(&c, "tpu-v5p", 512, NULL, 0));
    c.domain_gpus = 256;
    c.sites = 2;
    c.across_bytes_per_s = 1e12;
    assert_true(c.gpus_per_leaf >= 512);
    assert_int_equal(cluster_leaf_count(&c), 2);
    assert_int_equal(cluster_leaf_of(&c, 255), 0);
    assert_int_equal(cluster_leaf_of(&c, 256), 1);
    assert_int_equal(cluster_spine_count(&c), 2);

    /* partial last domain: 100 GPUs in domains of 72 -> 2 domains */
    assert_true(cluster_from_system(&c, "gb200-nvl72", 100, NULL, 0));
    assert_int_equal(cluster_domain_count(&c), 2);
    assert_int_equal(cluster_domain_of(&c, 99), 1);
}

static void test_cluster_leaf_spine_counts(void **state)
{
    (void)state;
    Cluster c;
    /* DGX H100 SuperPOD, 1,024 GPUs: 1024 / 32 per leaf = 32 leaves; each leaf
     * has 32 uplinks; spines have 64 ports: 32 x 32 / 64 = 16 spines (the
     * scaling book's 16 spine switches for 1,024 GPUs). */
    assert_true(cluster_from_system(&c, "dgx-h100", 1024, NULL, 0));
    assert_int_equal(cluster_leaf_count(&c), 32);
    assert_int_equal(cluster_spine_count(&c), 16);
    /* 2:1 oversubscribed: 16 uplinks per leaf -> 32 x 16 / 64 = 8 spines */
    c.oversub = 2;
    assert_int_equal(cluster_spine_count(&c), 8);
    /* 3:1: ceil(32/3) = 11 uplinks -> ceil(32 x 11 / 64) = ceil(5.5) = 6 spines */
    c.oversub = 3;
    assert_int_equal(cluster_spine_count(&c), 6);
    /* Rails: 1,024 GPUs = 4 units of 256 on 8 leaves each, 32 leaves again;
     * GPU 259 is GPU 3 of the second unit: leaf 8 + 3 = 11. A partial unit
     * has one leaf per rail it holds: 260 GPUs = 8 + 4 leaves; 16 GPUs (two
     * servers) still use all 8 rails. */
    assert_true(cluster_from_system(&c, "dgx-h100", 1024, NULL, 0));
    assert_true(c.rail_optimized);
    assert_int_equal(cluster_leaf_count(&c), 32);
    assert_int_equal(cluster_leaf_of(&c, 259), 11);
    c.n_gpus = 260;
    assert_int_equal(cluster_leaf_count(&c), 12);
    c.n_gpus = 16;
    assert_int_equal(cluster_leaf_count(&c), 8);
    /* One server has no fabric to cable by rail: its 8 GPUs hang from one
     * plain leaf, no spine. */
    c.n_gpus = 8;
    assert_int_equal(cluster_rail_unit_gpus(&c), 0);
    assert_int_equal(cluster_leaf_count(&c), 1);
    assert_int_equal(cluster_spine_count(&c), 0);
    /* A domain larger than a leaf's GPU ports cannot be cabled by rail: a
     * 72-GPU domain on 32-port leaves is wired plain. */
    c.domain_gpus = 72;
    assert_int_equal(cluster_rail_unit_gpus(&c), 0);
    /* one leaf needs no spine: 16 GPUs < 32 per leaf (plain wiring) */
    assert_true(cluster_from_system(&c, "dgx-h100", 16, NULL, 0));
    c.rail_optimized = false;
    assert_int_equal(cluster_leaf_count(&c), 1);
    assert_int_equal(cluster_spine_count(&c), 0);
    /* 33 GPUs: 2 leaves, 2 x 32 / 64 = 1 spine */
    c.n_gpus = 33;
    assert_int_equal(cluster_leaf_count(&c), 2);
    assert_int_equal(cluster_spine_count(&c), 1);
    assert_int_equal(cluster_leaf_count(NULL), 0);
    assert_int_equal(cluster_spine_count(NULL), 0);
}

static void test_cluster_check_explains(void **state)
{
    (void)state;
    Cluster c, base;
    char err[200];
    assert_true(cluster_from_system(&base, "dgx-a100", 64, NULL, 0));

    c = base;
    c.n_gpus = 0;
    check_err(cluster_check(&c, err, sizeof err), err, "at least 1 GPU");
    c = base;
    c.n_gpus = CLUSTER_MAX_GPUS + 1;
    check_err(cluster_check(&c, err, sizeof err), err, "more than scalelab models");
    c = base;
    c.domain_gpus = 0;
    check_err(cluster_check(&c, err, sizeof err), err, "domain needs at least 1 GPU");
    c = base;
    c.up_bytes_per_s = 0;
    check_err(cluster_check(&c, err, sizeof err), err, "scale-up bandwidth");
    c = base;
    c.out_bytes_per_s = NAN;
    check_err(cluster_check(&c, err, sizeof err), err, "scale-out bandwidth");
    c = base;
    c.oversub = 0.5;
    check_err(cluster_check(&c, err, sizeof err), err, "oversubscription must be at least 1");
    c = base;
    c.sites = 3; /* 8 domains over 3 sites */
    c.across_bytes_per_s = 1e12;
    check_err(cluster_check(&c, err, sizeof err), err, "do not divide the 8 scale-up domains");
    c = base;
    c.sites = 16;
    check_err(cluster_check(&c, err, sizeof err), err, "only 8 scale-up domains");
    c = base;
    c.sites = 2;
    check_err(cluster_check(&c, err, sizeof err), err, "need a scale-across bandwidth");
    c = base;
    c.up_lat_s = -1e-6;
    check_err(cluster_check(&c, err, sizeof err), err, "latencies");
    check_err(cluster_check(NULL, err, sizeof err), err, "no cluster");
}

/* `eval --out BW` / `--up BW` on a preset: the link is then named by its
 * figure, not the preset's product. 50 GB/s x 8 = 400 Gb/s; 6.25e9 B/s x 8 =
 * 50 Gb/s; the preset's own figure keeps the preset's name. */
static void test_cluster_overridden_links_are_named_by_figure(void **state)
{
    (void)state;
    char err[200];
    Cluster c;
    assert_true(cluster_from_system(&c, "dgx-a100", 16, err, sizeof err));
    cluster_set_out_bw(&c, c.out_bytes_per_s);
    assert_string_equal(c.out_link, "HDR InfiniBand 200 Gb/s");
    cluster_set_out_bw(&c, 6.25e9);
    assert_string_equal(c.out_link, "custom 50 Gb/s scale-out");
    assert_true(c.out_bytes_per_s == 6.25e9);
    cluster_set_up_bw(&c, 450e9);
    assert_string_equal(c.up_link, "custom 450 GB/s scale-up");
    assert_true(c.up_bytes_per_s == 450e9);
    cluster_set_out_bw(NULL, 1); /* accepts NULL */
}

/* A machine around the job: 2 GB200 racks (144 GPUs) for a 128-GPU job,
 * GPUs 16-19 failed (a tray), 100-103 busy. Usable: 144 - 8 = 136. The
 * scheduler's fill: rank r on the r-th usable GPU, so rank 16 lands on GPU
 * 20 (past the tray); 96 GPUs below 100 are up, so rank 95 is on GPU 99 and
 * rank 96 on GPU 104 (past the busy range). */
static void test_cluster_machine_with_holes(void **state)
{
    (void)state;
    Cluster c;
    char err[200];
    assert_true(cluster_from_system(&c, "gb200-nvl72", 128, err, sizeof err));
    assert_true(cluster_is_regular(&c));
    assert_int_equal(cluster_machine_gpus(&c), 128);
    c.machine_gpus = 144;
    assert_false(cluster_is_regular(&c)); /* spares */
    assert_true(cluster_add_down(&c, 100, 4, CLUSTER_GPU_BUSY, err, sizeof err));
    assert_true(cluster_add_down(&c, 16, 4, CLUSTER_GPU_FAILED, err, sizeof err));
    assert_int_equal(c.down[0].first, 16); /* kept sorted */
    assert_true(cluster_check(&c, err, sizeof err));
    assert_int_equal(cluster_machine_gpus(&c), 144);
    assert_int_equal(cluster_usable_gpus(&c), 136);
    assert_int_equal(cluster_gpu_state(&c, 15), CLUSTER_GPU_UP);
    assert_int_equal(cluster_gpu_state(&c, 16), CLUSTER_GPU_FAILED);
    assert_int_equal(cluster_gpu_state(&c, 103), CLUSTER_GPU_BUSY);
    assert_int_equal(cluster_gpu_state(&c, 144), CLUSTER_GPU_FAILED); /* no such GPU */
    assert_int_equal(cluster_nth_usable(&c, 15), 15);
    assert_int_equal(cluster_nth_usable(&c, 16), 20);
    assert_int_equal(cluster_nth_usable(&c, 95), 99);
    assert_int_equal(cluster_nth_usable(&c, 96), 104);
    assert_int_equal(cluster_nth_usable(&c, 135), 143);
    assert_int_equal(cluster_nth_usable(&c, 136), -1);
    /* the domains are the machine's: 2 racks, the second holding GPU 143 */
    assert_int_equal(cluster_domain_count(&c), 2);
    assert_int_equal(cluster_domain_of(&c, 143), 1);
    assert_int_equal(cluster_domain_of(&c, 144), -1);
    /* ranges that cannot be */
    check_err(cluster_add_down(&c, 18, 4, CLUSTER_GPU_FAILED, err, sizeof err), err, "down twice");
    check_err(cluster_add_down(&c, 140, 8, CLUSTER_GPU_FAILED, err, sizeof err), err,
              "not all in the machine");
    /* too few GPUs left up for the job */
    assert_true(cluster_add_down(&c, 72, 10, CLUSTER_GPU_FAILED, err, sizeof err));
    check_err(cluster_check(&c, err, sizeof err), err,
              "the job needs 128 GPUs but the machine has only 126 that are up");
}

/* A mixed machine: one 72-GPU rack, then four 8-GPU servers (104 GPUs).
 * Domain d starts at 0, 72, 80, 88, 96; GPU 85 is in server 2 (domain 2). */
static void test_cluster_mixed_domains(void **state)
{
    (void)state;
    Cluster c;
    char err[200];
    assert_true(cluster_from_system(&c, "gb200-nvl72", 104, err, sizeof err));
    c.n_runs = 2;
    c.runs[0] = (ClusterRun){1, 72};
    c.runs[1] = (ClusterRun){4, 8};
    assert_true(cluster_check(&c, err, sizeof err));
    assert_false(cluster_is_regular(&c));
    assert_int_equal(cluster_domain_count(&c), 5);
    assert_int_equal(cluster_domain_first(&c, 0), 0);
    assert_int_equal(cluster_domain_first(&c, 1), 72);
    assert_int_equal(cluster_domain_first(&c, 4), 96);
    assert_int_equal(cluster_domain_first(&c, 5), -1);
    assert_int_equal(cluster_domain_size(&c, 0), 72);
    assert_int_equal(cluster_domain_size(&c, 3), 8);
    assert_int_equal(cluster_domain_of(&c, 71), 0);
    assert_int_equal(cluster_domain_of(&c, 72), 1);
    assert_int_equal(cluster_domain_of(&c, 85), 2);
    assert_int_equal(cluster_domain_of(&c, 103), 4);
    c.runs[1].domains = 3; /* 96 GPUs for a machine of 104 */
    check_err(cluster_check(&c, err, sizeof err), err,
              "the domains hold 96 GPUs but the machine has 104");
    c.runs[0] = (ClusterRun){1, 24}; /* 24 + 80 = 104, but 80 is wider than 72 */
    c.runs[1] = (ClusterRun){1, 80};
    check_err(cluster_check(&c, err, sizeof err), err, "must be the widest domain");
}

/* Leaves of a multi-site cluster restart at each site: 2 sites of 24 DGX
 * A100 GPUs (3 servers) under leaves of 16. Site 0: leaves {0-15} {16-23};
 * site 1: {24-39} {40-47}: 4 leaves, where blocks that ignore sites would
 * give 3 and put GPUs 16-31 (both sites) under one leaf. */
static void test_cluster_leaves_restart_at_sites(void **state)
{
    (void)state;
    Cluster c;
    char err[200];
    assert_true(cluster_from_system(&c, "dgx-a100", 48, err, sizeof err));
    c.gpus_per_leaf = 16;
    c.sites = 2;
    c.across_bytes_per_s = 400e9;
    assert_true(cluster_check(&c, err, sizeof err));
    assert_int_equal(cluster_site_first(&c, 1), 24);
    assert_int_equal(cluster_leaf_count(&c), 4);
    int want[] = {0, 0, 1, 1, 2, 2, 3, 3};
    int at[] = {0, 15, 16, 23, 24, 39, 40, 47};
    for (int i = 0; i < 8; i++)
        assert_int_equal(cluster_leaf_of(&c, at[i]), want[i]);
    assert_int_equal(cluster_leaf_block_of(&c, 23), cluster_leaf_block_of(&c, 16));
    assert_true(cluster_leaf_block_of(&c, 23) != cluster_leaf_block_of(&c, 24));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cluster_machine_with_holes),
        cmocka_unit_test(test_cluster_mixed_domains),
        cmocka_unit_test(test_cluster_leaves_restart_at_sites),
        cmocka_unit_test(test_cluster_from_system_copies_preset),
        cmocka_unit_test(test_cluster_from_system_rejects_unknown_and_huge),
        cmocka_unit_test(test_cluster_domain_leaf_site_of),
        cmocka_unit_test(test_cluster_leaf_spine_counts),
        cmocka_unit_test(test_cluster_check_explains),
        cmocka_unit_test(test_cluster_overridden_links_are_named_by_figure),
    };
    return cmocka_run_group_tests_name("cluster", tests, NULL, NULL);
}
