/* SPDX-License-Identifier: MIT */
/* test_scenario — moves, their validation and messages, undo, reset, the
 * reference and previous results, and the text form of moves.
 *
 * The fixture is small enough to work by hand: 16 H100 GPUs in 2 DGX H100
 * domains (GPUs 0-7 and 8-15), Llama 3 8B, TP 8 x PP 1 x DP 2. With the
 * default placement rank r runs on GPU r, so TP group 0 is GPUs 0-7 (domain
 * 0) and TP group 1 is GPUs 8-15 (domain 1). */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdlib.h>
#include <string.h>

#include "learn/scenario.h"

typedef struct {
    Scenario *s;
} Fixture;

static Scenario *make(unsigned allow)
{
    Cluster c;
    char err[300] = "";
    assert_true(cluster_from_system(&c, "dgx-h100", 16, err, sizeof err));
    Workload w = workload_preset_find("llama3-8b")->w;
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 2, .ep = 1, .interleave = 1, .zero = 1};
    Scenario *s = scenario_new(&c, &w, &m, NULL, allow, err, sizeof err);
    if (!s) {
        print_error("scenario_new: %s\n", err);
        fail();
    }
    return s;
}

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->s = make(SCN_ALLOW_ALL);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    scenario_free(f->s);
    free(f);
    return 0;
}

/* Applies a text move that must fail with a message containing want, and
 * checks that nothing changed. */
static void refuse(Scenario *s, const char *move, const char *want)
{
    char err[300] = "";
    double before = scenario_result(s)->step_s;
    Mapping m = *scenario_mapping(s);
    if (scenario_apply_text(s, move, err, sizeof err) || !strstr(err, want)) {
        print_error("'%s' should fail with '%s', got '%s'\n", move, want, err);
        fail();
    }
    assert_true(scenario_result(s)->step_s == before);
    assert_memory_equal(&m, scenario_mapping(s), sizeof m);
}

static void apply(Scenario *s, const char *move)
{
    char err[300] = "";
    if (!scenario_apply_text(s, move, err, sizeof err)) {
        print_error("'%s' failed: %s\n", move, err);
        fail();
    }
}

static void test_scenario_start_state(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    const StepResult *r = scenario_result(s);
    assert_true(r->step_s > 0);
    assert_true(scenario_start_result(s)->step_s == r->step_s);
    assert_true(scenario_reference(s)->step_s == r->step_s);
    assert_true(scenario_previous(s)->step_s == r->step_s); /* no move yet */
    assert_true(placement_is_default(scenario_placement(s)));
    assert_int_equal(scenario_allowed(s), SCN_ALLOW_ALL);
    assert_int_equal(scenario_cluster(s)->n_gpus, 16);
    assert_string_equal(scenario_workload(s)->id, "llama3-8b");
}

static void test_scenario_new_rejects_illegal_start(void **state)
{
    (void)state;
    Cluster c;
    char err[300] = "";
    assert_true(cluster_from_system(&c, "dgx-h100", 16, NULL, 0));
    Workload w = workload_preset_find("llama3-8b")->w;
    /* 8 x 1 x 1 x 4 = 32 GPUs on a 16-GPU cluster */
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    assert_null(scenario_new(&c, &w, &m, NULL, SCN_ALLOW_ALL, err, sizeof err));
    assert_non_null(strstr(err, "cluster has 16"));
    assert_null(scenario_new(NULL, &w, &m, NULL, SCN_ALLOW_ALL, err, sizeof err));
    scenario_free(NULL);
}

static void test_scenario_swap_spills_tp_and_undo_restores(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    char err[300] = "";
    double start = scenario_result(s)->step_s;
    /* GPU 0 (rank 0, TP group 0) <-> GPU 8 (rank 8, TP group 1): both TP
     * groups now span the two domains, so their all-reduces cross the
     * 50 GB/s NICs instead of 450 GB/s NVLink: slower. */
    assert_true(scenario_swap_gpus(s, 0, 8, err, sizeof err));
    assert_int_equal(placement_gpu_of(scenario_placement(s), 0), 8);
    assert_int_equal(placement_gpu_of(scenario_placement(s), 8), 0);
    assert_true(scenario_result(s)->step_s > 1.2 * start);
    assert_true(scenario_previous(s)->step_s == start);
    assert_true(scenario_start_result(s)->step_s == start);
    assert_true(scenario_undo(s));
    assert_true(placement_is_default(scenario_placement(s)));
    assert_true(scenario_result(s)->step_s == start);
    assert_false(scenario_undo(s)); /* nothing left */
}

static void test_scenario_swap_explains_bad_ids(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    refuse(s, "swap 0 16", "there is no GPU 16: GPUs are numbered 0 to 15");
    refuse(s, "swap -1 3", "there is no GPU -1");
    refuse(s, "swap 3 3", "cannot swap with itself");
    refuse(s, "swap 3", "write swap GPU GPU");
    refuse(s, "swap a b", "write swap GPU GPU");
}

static void test_scenario_group_moves_whole_group(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    double start = scenario_result(s)->step_s;
    /* TP group of GPU 3 (ranks 0-7) to domain 1: ranks 0-7 go to GPUs 8-15
     * and the ranks there (8-15) to GPUs 0-7; each group is still inside
     * one domain, so the step time is unchanged. */
    apply(s, "group tp 3 1");
    const Placement *p = scenario_placement(s);
    for (int r = 0; r < 8; r++) {
        assert_int_equal(placement_gpu_of(p, r), 8 + r);
        assert_int_equal(placement_gpu_of(p, 8 + r), r);
    }
    assert_true(scenario_result(s)->step_s == start);
    refuse(s, "group tp 8 1", "already starts at domain 1: nothing to move");
    refuse(s, "group tp 3 2", "there is no domain 2: domains are numbered 0 to 1");
    refuse(s, "group xx 3 1", "write group DIM GPU DOMAIN");
    refuse(s, "group tp 99 0", "there is no GPU 99");
}

static void test_scenario_group_moves_a_dp_group(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    /* With TP 8 x DP 2 the DP group of GPU 0 is ranks {0, 8} (TP coordinate 0
     * of each replica). Moving it to domain 1 puts rank 0 on GPU 8 and rank 8
     * on GPU 9: swap(0, 8) then swap(0, 9), so rank 9 ends on GPU 0. */
    apply(s, "group dp 0 1");
    const Placement *p = scenario_placement(s);
    assert_int_equal(placement_gpu_of(p, 0), 8);
    assert_int_equal(placement_gpu_of(p, 8), 9);
    assert_int_equal(placement_gpu_of(p, 9), 0);
    assert_int_equal(placement_gpu_of(p, 1), 1); /* the rest stay */
}

static void test_scenario_group_repairs_a_split_group(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    double start = scenario_result(s)->step_s;
    apply(s, "swap 0 8"); /* rank 0 on GPU 8, rank 8 on GPU 0: both groups split */
    assert_true(scenario_result(s)->step_s > start);
    /* GPU 1 holds rank 1 of TP group 0; bringing the group to domain 0 swaps
     * rank 0 back from GPU 8 to GPU 0 (and rank 8 back to GPU 8) */
    apply(s, "group tp 1 0");
    assert_true(placement_is_default(scenario_placement(s)));
    assert_true(scenario_result(s)->step_s == start);
}

static void test_scenario_degrees_keep_gpu_count(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    apply(s, "tp 4");
    /* DP takes up the rest: 16 / (TP 4 x CP 1 x PP 1) = 4 */
    assert_int_equal(scenario_mapping(s)->tp, 4);
    assert_int_equal(scenario_mapping(s)->dp, 4);
    apply(s, "pp 2");
    /* 16 / (4 x 1 x 2) = 2 */
    assert_int_equal(scenario_mapping(s)->pp, 2);
    assert_int_equal(scenario_mapping(s)->dp, 2);
    apply(s, "dp 4");
    /* "dp N" recomputes PP: 16 / (4 x 1 x 4) = 1 */
    assert_int_equal(scenario_mapping(s)->pp, 1);
    assert_int_equal(scenario_mapping(s)->dp, 4);
    refuse(s, "tp 3", "TP 3 x CP 1 x PP 1 = 3 does not divide the 16 GPUs");
    refuse(s, "dp 32", "DP 32 is more than the 16 GPUs");
    refuse(s, "tp 0", "TP must be at least 1");
    refuse(s, "tp 4", "TP is already 4");
    refuse(s, "ep 2", "mixture-of-experts");
    refuse(s, "tp x", "write tp N");
}

static void test_scenario_micro_batch_domain_system(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    /* batch 512 over DP 2 x micro-batch 3 = 6: 512 / 6 is not whole */
    refuse(s, "mb 3", "global batch 512 is not a multiple of DP 2 x micro-batch 3");
    refuse(s, "mb 0", "at least 1");
    apply(s, "mb 2");
    assert_int_equal(scenario_workload(s)->micro_batch, 2);

    apply(s, "domain 16");
    assert_int_equal(scenario_cluster(s)->domain_gpus, 16);
    assert_int_equal(scenario_cluster(s)->n_gpus, 16); /* the cluster keeps its GPUs */
    refuse(s, "domain 32", "larger than the whole 16-GPU cluster");
    refuse(s, "domain 0", "at least 1 GPU");

    apply(s, "system dgx-b200");
    assert_string_equal(scenario_cluster(s)->system_id, "dgx-b200");
    assert_int_equal(scenario_cluster(s)->n_gpus, 16);
    refuse(s, "system dgx-b200", "already");
    refuse(s, "system nope", "unknown system 'nope'");
}

static void test_scenario_previous_reference_reset(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    double start = scenario_result(s)->step_s;
    apply(s, "tp 4");
    double after_tp = scenario_result(s)->step_s;
    apply(s, "swap 0 8");
    assert_true(scenario_previous(s)->step_s == after_tp);
    scenario_set_reference(s);
    assert_true(scenario_reference(s)->step_s == scenario_result(s)->step_s);
    apply(s, "undo");
    assert_true(scenario_result(s)->step_s == after_tp);
    assert_true(scenario_previous(s)->step_s == start);
    apply(s, "reset");
    assert_true(scenario_result(s)->step_s == start);
    assert_int_equal(scenario_mapping(s)->tp, 8);
    assert_true(placement_is_default(scenario_placement(s)));
    refuse(s, "undo", "nothing to undo"); /* reset clears the history */
}

static void test_scenario_allow_mask_explains(void **state)
{
    (void)state;
    Scenario *s = make(SCN_ALLOW_MOVE);
    refuse(s, "tp 4", "does not let you change the parallel degrees");
    refuse(s, "mb 2", "does not let you change the micro-batch");
    refuse(s, "domain 16", "does not let you change the scale-up domain size");
    refuse(s, "system dgx-b200", "does not let you switch to another system");
    apply(s, "swap 1 9");
    scenario_free(s);
}

static void test_scenario_text_rejects_garbage(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    refuse(s, "", "empty move");
    refuse(s, "   ", "empty move");
    refuse(s, "fly 3", "unknown move 'fly 3'");
    refuse(s, "swap 1 2 3 4 5 6", "too many words");
    refuse(s, "undo now", "unknown move");
    char err[64];
    assert_false(scenario_apply_text(NULL, "tp 2", err, sizeof err));
    assert_false(scenario_apply_text(s, NULL, err, sizeof err));
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_scenario_start_state),
        cmocka_unit_test(test_scenario_new_rejects_illegal_start),
        T(test_scenario_swap_spills_tp_and_undo_restores),
        T(test_scenario_swap_explains_bad_ids),
        T(test_scenario_group_moves_whole_group),
        T(test_scenario_group_moves_a_dp_group),
        T(test_scenario_group_repairs_a_split_group),
        T(test_scenario_degrees_keep_gpu_count),
        T(test_scenario_micro_batch_domain_system),
        T(test_scenario_previous_reference_reset),
        cmocka_unit_test(test_scenario_allow_mask_explains),
        T(test_scenario_text_rejects_garbage),
    };
    return cmocka_run_group_tests_name("scenario", tests, NULL, NULL);
}
