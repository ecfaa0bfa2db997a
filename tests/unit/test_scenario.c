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
#include "model/span.h"

typedef struct {
    Scenario *s;
} Fixture;

/* Llama 3 8B as TP 8 x DP 2 on the cluster c. */
static Scenario *make_on(const Cluster *c, unsigned allow)
{
    char err[300] = "";
    Workload w = workload_preset_find("llama3-8b")->w;
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 2, .ep = 1, .interleave = 1, .zero = 1};
    Scenario *s = scenario_new(c, &w, &m, NULL, allow, err, sizeof err);
    if (!s) {
        print_error("scenario_new: %s\n", err);
        fail();
    }
    return s;
}

static Scenario *make(unsigned allow)
{
    Cluster c;
    char err[300] = "";
    assert_true(cluster_from_system(&c, "dgx-h100", 16, err, sizeof err));
    return make_on(&c, allow);
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
    /* TP group of GPU 3 (ranks 0-7) dropped on GPU 8 (rank 8, TP group 1):
     * the two groups trade places member by member, ranks 0-7 to GPUs 8-15
     * and ranks 8-15 to GPUs 0-7; each group is still inside one domain, so
     * the step time is unchanged. Par counts g + Enter: 2 presses. */
    apply(s, "group tp 3 to 8");
    const Placement *p = scenario_placement(s);
    for (int r = 0; r < 8; r++) {
        assert_int_equal(placement_gpu_of(p, r), 8 + r);
        assert_int_equal(placement_gpu_of(p, 8 + r), r);
    }
    assert_true(scenario_result(s)->step_s == start);
    assert_int_equal(scenario_presses(s), 2);
    refuse(s, "group tp 8 to 10", "all in domain 1 already");
    refuse(s, "group tp 3 2", "there is no domain 2: domains are numbered 0 to 1");
    refuse(s, "group xx 3 1", "write group DIM GPU to GPU");
    refuse(s, "group tp 99 to 0", "there is no GPU 99");
}

static void test_scenario_group_moves_a_dp_group(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    /* With TP 8 x DP 2 the DP group of GPU 0 is ranks {0, 8} (TP coordinate
     * 0 of each replica); dropped on GPU 9 (rank 9: DP group {1, 9}) the two
     * trade member by member: rank 0 to GPU 1, rank 8 to GPU 9, and back. */
    apply(s, "group dp 0 to 9");
    const Placement *p = scenario_placement(s);
    assert_int_equal(placement_gpu_of(p, 0), 1);
    assert_int_equal(placement_gpu_of(p, 1), 0);
    assert_int_equal(placement_gpu_of(p, 8), 9);
    assert_int_equal(placement_gpu_of(p, 9), 8);
    assert_int_equal(placement_gpu_of(p, 2), 2); /* the rest stay */
    /* g picks TP first, then DP: a DP group move is g g Enter */
    assert_int_equal(scenario_pick_presses(s, DIM_DP), 2);
    assert_int_equal(scenario_presses(s), 3);
}

static void test_scenario_group_repairs_a_split_group(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    double start = scenario_result(s)->step_s;
    apply(s, "swap 0 8"); /* rank 0 on GPU 8, rank 8 on GPU 0: both groups split */
    assert_true(scenario_result(s)->step_s > start);
    /* a trade of the two split groups keeps both split, member k for member
     * k: group 0 on GPUs 0 and 9-15, group 1 on 8 and 1-7 */
    apply(s, "group tp 1 to 9");
    assert_true(scenario_result(s)->step_s > start);
    assert_int_equal(placement_gpu_of(scenario_placement(s), 0), 0);
    assert_int_equal(placement_gpu_of(scenario_placement(s), 1), 9);
    /* one swap mends both: rank 8 to GPU 0, rank 0 to GPU 8, so group 0 is
     * server 1 and group 1 server 0 */
    apply(s, "swap 8 0");
    assert_true(scenario_result(s)->step_s == start);
    assert_int_equal(scenario_presses(s), 2 + 2 + 2);
    apply(s, "reset");
    assert_true(placement_is_default(scenario_placement(s)));
    assert_int_equal(scenario_presses(s), 0);
}

/* A machine with spares and a failed tray: 24 GPUs (3 servers) for a job
 * of 16, GPUs 4-7 failed. The default fill skips them: ranks 0-3 on GPUs
 * 0-3, ranks 4-15 on GPUs 8-19, GPUs 20-23 free. TP group 0 (ranks 0-7)
 * then spans servers 0 and 1. */
static Scenario *make_machine(unsigned allow)
{
    Cluster c;
    char err[300] = "";
    assert_true(cluster_from_system(&c, "dgx-h100", 16, err, sizeof err));
    c.machine_gpus = 24;
    assert_true(cluster_add_down(&c, 4, 4, CLUSTER_GPU_FAILED, err, sizeof err));
    return make_on(&c, allow);
}

static void test_scenario_machine_fill_and_free_gpus(void **state)
{
    (void)state;
    Scenario *s = make_machine(SCN_ALLOW_ALL);
    const Placement *p = scenario_placement(s);
    assert_int_equal(placement_gpus(p), 24);
    assert_int_equal(placement_gpu_of(p, 3), 3);
    assert_int_equal(placement_gpu_of(p, 4), 8); /* past the failed tray */
    assert_int_equal(placement_rank_on(p, 20), -1);
    assert_int_equal(scenario_result(s)->span[DIM_TP].domains, 2);
    /* group 0 has 4 ranks in server 0 and 4 in server 1, group 1 (GPUs
     * 12-19) 4 in server 1 and 4 in server 2 */
    int first = -1;
    assert_int_equal(span_crossing_groups(scenario_mapping(s), scenario_cluster(s), p, DIM_TP,
                                          SPAN_CROSS_DOMAIN, &first, 1),
                     2);
    assert_int_equal(first, 0);
    refuse(s, "swap 0 5", "GPU 5 has failed: it can run no rank");
    refuse(s, "swap 20 21", "both free: nothing to move");
    double start = scenario_result(s)->step_s;
    /* into server 2 (16-19 run ranks 12-15, 20-23 are free): all 8 of
     * group 0 would move there, and there are 4 free */
    refuse(s, "group tp 0 to 20",
           "8 of the TP group's GPUs are outside domain 2, which has only 4 free");
    /* gathering moves only the members outside: group 1 (ranks 8-15 on GPUs
     * 12-19) into server 2 takes ranks 8-11 to GPUs 20-23, which frees
     * 12-15 for group 0 (4 of its ranks are on GPUs 0-3) in server 1 */
    Scenario *fix = make_machine(SCN_ALLOW_GROUPS);
    apply(fix, "group tp 12 to 20");
    assert_int_equal(placement_gpu_of(scenario_placement(fix), 8), 20);
    assert_int_equal(placement_gpu_of(scenario_placement(fix), 12), 16); /* stayed */
    apply(fix, "group tp 0 to 9");
    assert_int_equal(placement_gpu_of(scenario_placement(fix), 0), 12);
    assert_int_equal(scenario_result(fix)->span[DIM_TP].domains, 1);
    assert_int_equal(span_crossing_groups(scenario_mapping(fix), scenario_cluster(fix),
                                          scenario_placement(fix), DIM_TP, SPAN_CROSS_DOMAIN, NULL,
                                          0),
                     0);
    assert_true(scenario_result(fix)->step_s < start);
    assert_int_equal(scenario_presses(fix), 4);
    scenario_free(fix);
    /* a swap with a free GPU moves the rank there and frees its GPU */
    apply(s, "swap 0 20");
    assert_int_equal(placement_gpu_of(scenario_placement(s), 0), 20);
    assert_int_equal(placement_rank_on(scenario_placement(s), 0), -1);
    assert_int_equal(scenario_presses(s), 2);
    /* group 0 now has members in all three servers: no faster */
    assert_int_equal(scenario_result(s)->span[DIM_TP].domains, 3);
    assert_true(scenario_result(s)->step_s >= start);
    scenario_free(s);
}

static void test_scenario_press_counts_keys(void **state)
{
    Scenario *s = ((Fixture *)*state)->s;
    char err[300] = "";
    int presses = 0;
    /* "tp 2" from TP 8 is T, T: two presses, two moves */
    assert_true(scenario_type_text(s, "tp 2", &presses, err, sizeof err));
    assert_int_equal(presses, 2);
    assert_int_equal(scenario_mapping(s)->tp, 2);
    assert_int_equal(scenario_presses(s), 2);
    /* "tp 3" cannot be typed: T halves, t doubles */
    assert_false(scenario_type_text(s, "tp 3", &presses, err, sizeof err));
    assert_int_equal(scenario_mapping(s)->tp, 2);
    assert_int_equal(scenario_presses(s), 2);
    /* undo takes a press back, reset all */
    assert_true(scenario_undo(s));
    assert_int_equal(scenario_presses(s), 1);
    assert_true(scenario_press(s, SCN_KEY_MB_UP, err, sizeof err));
    assert_int_equal(scenario_workload(s)->micro_batch, 2);
    assert_int_equal(scenario_presses(s), 2);
    scenario_reset(s);
    assert_int_equal(scenario_presses(s), 0);
    /* a refused press is no press */
    Scenario *d = make(SCN_ALLOW_DEGREES);
    assert_false(scenario_press(d, SCN_KEY_MB_UP, err, sizeof err));
    assert_non_null(strstr(err, "does not let you change the micro-batch"));
    assert_false(scenario_press(d, SCN_KEY_PP_DOWN, err, sizeof err));
    assert_non_null(strstr(err, "PP is already 1"));
    assert_int_equal(scenario_presses(d), 0);
    /* groups only: no single swaps, and only the kinds named */
    Scenario *g = make(SCN_ALLOW_GROUPS | SCN_ALLOW_GROUP_DIM(DIM_DP));
    assert_false(scenario_swap_gpus(g, 0, 8, err, sizeof err));
    assert_false(scenario_move_group(g, 0, DIM_TP, 8, err, sizeof err));
    assert_non_null(strstr(err, "does not let you move TP groups"));
    assert_int_equal(scenario_pick_presses(g, DIM_DP), 1);
    assert_true(scenario_move_group(g, 0, DIM_DP, 9, err, sizeof err));
    assert_int_equal(scenario_presses(g), 2);
    scenario_free(d);
    scenario_free(g);
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
        cmocka_unit_test(test_scenario_machine_fill_and_free_gpus),
        T(test_scenario_press_counts_keys),
        T(test_scenario_degrees_keep_gpu_count),
        T(test_scenario_micro_batch_domain_system),
        T(test_scenario_previous_reference_reset),
        cmocka_unit_test(test_scenario_allow_mask_explains),
        T(test_scenario_text_rejects_garbage),
    };
    return cmocka_run_group_tests_name("scenario", tests, NULL, NULL);
}
