/* SPDX-License-Identifier: MIT */
/* test_practice — exercises made from seeds: the same seed gives the same
 * exercise, other seeds other ones; every kind at every level can be made
 * over many seeds and is solvable (the grader passes the search's best and
 * fails the start or a clearly worse answer); the bottleneck named is the
 * largest part of an independent evaluation; predicted numbers obey the
 * physics they teach (line-rate bounds, bytes per parameter, the bubble
 * law); the level follows the learner's results; any 20 consecutive
 * exercises of a run or a worksheet show 6 models and 4 systems, and no 7
 * consecutive predict questions ask the same thing more than 3 times; a
 * tier exercise's answer is the tier of its group's span, worked out here
 * from the cluster's domains, leaves and sites; a placement exercise starts
 * with straddling groups and is solved by undoing its swaps.
 */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "learn/practice.h"
#include "learn/scenario.h"
#include "model/hw.h"
#include "model/span.h"
#include "model/step.h"
#include "model/workload.h"

#define SEEDS 40

static void test_practice_same_seed_same_exercise(void **state)
{
    (void)state;
    for (int kind = 0; kind < PRACTICE_KIND_COUNT; kind++)
        for (uint64_t seed = 1; seed <= 10; seed++) {
            Practice a, b;
            char err[200];
            assert_true(practice_make(seed, kind, 3, &a, err, sizeof err));
            assert_true(practice_make(seed, kind, 3, &b, err, sizeof err));
            assert_string_equal(a.question, b.question);
            assert_string_equal(a.answer, b.answer);
            assert_string_equal(a.worked, b.worked);
            assert_true(a.value == b.value);
        }
}

static void test_practice_seeds_differ(void **state)
{
    (void)state;
    for (int kind = 0; kind < PRACTICE_KIND_COUNT; kind++) {
        int same = 0;
        Practice prev;
        char err[200];
        assert_true(practice_make(100, kind, 2, &prev, err, sizeof err));
        for (uint64_t seed = 101; seed < 121; seed++) {
            Practice p;
            assert_true(practice_make(seed, kind, 2, &p, err, sizeof err));
            same += strcmp(p.question, prev.question) == 0;
            prev = p;
        }
        /* Neighbouring seeds may meet the same job now and then, not often. */
        assert_true(same <= 4);
    }
}

/* The mapping grader passes the best mapping and fails the start. */
static void test_practice_mapping_solvable(void **state)
{
    (void)state;
    for (int level = PRACTICE_LEVEL_MIN; level <= PRACTICE_LEVEL_MAX; level++)
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            Practice p;
            char err[200], msg[400];
            assert_true(practice_make(seed * 7919 + (uint64_t)level, PRACTICE_MAPPING, level, &p,
                                      err, sizeof err));
            /* Par counts presses that double or halve a degree: TP 2 -> 8 is
             * two, micro-batch 4 -> 1 two more; at least one per degree. */
            int differ = (p.start.tp != p.best.tp) + (p.start.pp != p.best.pp) +
                         (p.start.ep != p.best.ep) +
                         (p.workload.micro_batch != p.best_micro_batch);
            assert_true(differ >= 2 && p.par >= differ);
            int log_sum = 0;
            bool pow2 = true;
            int pairs[4][2] = {{p.start.tp, p.best.tp},
                               {p.start.pp, p.best.pp},
                               {p.start.ep, p.best.ep},
                               {p.workload.micro_batch, p.best_micro_batch}};
            for (int k = 0; k < 4; k++) {
                int a = pairs[k][0], b = pairs[k][1];
                pow2 = pow2 && (a & (a - 1)) == 0 && (b & (b - 1)) == 0;
                while (a < b && (a *= 2))
                    log_sum++;
                while (a > b && (a /= 2))
                    log_sum++;
            }
            if (pow2) /* powers of two: exactly the doublings and halvings */
                assert_int_equal(p.par, log_sum);
            assert_int_equal(p.kind, PRACTICE_MAPPING);

            Workload w = p.workload;
            w.micro_batch = p.best_micro_batch;
            StepResult best;
            assert_int_equal(
                step_eval(&p.cluster, &w, &p.best, NULL, NULL, &best, err, sizeof err), STEP_OK);
            assert_true(best.fits);
            if (!practice_grade_mapping(&p, &best, msg, sizeof msg)) {
                print_error("seed %llu level %d: best refused: %s\n", (unsigned long long)p.seed,
                            level, msg);
                fail();
            }
            StepResult start;
            assert_int_equal(
                step_eval(&p.cluster, &p.workload, &p.start, NULL, NULL, &start, err, sizeof err),
                STEP_OK);
            assert_false(practice_grade_mapping(&p, &start, msg, sizeof msg));
            assert_true(strlen(msg) > 0);
        }
}

/* A step 10% slower than the best fails; 4% slower passes. */
static void test_practice_mapping_slack(void **state)
{
    (void)state;
    Practice p;
    char err[200], msg[400];
    assert_true(practice_make(42, PRACTICE_MAPPING, 2, &p, err, sizeof err));
    StepResult r;
    memset(&r, 0, sizeof r);
    r.fits = true;
    r.step_s = p.best_step_s * 1.04;
    assert_true(practice_grade_mapping(&p, &r, msg, sizeof msg));
    r.step_s = p.best_step_s * 1.10;
    assert_false(practice_grade_mapping(&p, &r, msg, sizeof msg));
    assert_non_null(strstr(msg, "10% slower"));
    r.step_s = p.best_step_s * 0.5;
    r.fits = false;
    snprintf(r.bottleneck, sizeof r.bottleneck, "needs 90 GB of 80 GB");
    assert_false(practice_grade_mapping(&p, &r, msg, sizeof msg));
    assert_string_equal(msg, "Not yet: needs 90 GB of 80 GB.");
}

/* The part named is the largest of a fresh evaluation, by a clear margin,
 * and only it passes. */
static void test_practice_bottleneck_solvable(void **state)
{
    (void)state;
    for (int level = PRACTICE_LEVEL_MIN; level <= PRACTICE_LEVEL_MAX; level++)
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            Practice p;
            char err[200], msg[400];
            assert_true(practice_make(seed * 104729 + (uint64_t)level, PRACTICE_BOTTLENECK, level,
                                      &p, err, sizeof err));
            StepResult r;
            assert_int_equal(
                step_eval(&p.cluster, &p.workload, &p.start, NULL, NULL, &r, err, sizeof err),
                STEP_OK);
            for (int i = 0; i < STEP_PART_COUNT; i++)
                if (i != (int)p.part)
                    assert_true(r.part_s[p.part] >= 1.25 * r.part_s[i]);
            StepPart parts[STEP_PART_COUNT];
            int n = practice_part_choices(&p, parts), right = 0;
            for (int i = 0; i < n; i++)
                right += practice_grade_part(&p, parts[i], msg, sizeof msg);
            assert_int_equal(right, 1);
            assert_true(practice_grade_part(&p, p.part, msg, sizeof msg));
        }
}

/* Predicted numbers: finite and positive, printed in their unit, and within
 * the physics the worked answer teaches. */
static void test_practice_predict_physics(void **state)
{
    (void)state;
    int kinds[3] = {0};
    for (int level = PRACTICE_LEVEL_MIN; level <= PRACTICE_LEVEL_MAX; level++)
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            Practice p;
            char err[200];
            assert_true(practice_make(seed * 31 + (uint64_t)level, PRACTICE_PREDICT, level, &p,
                                      err, sizeof err));
            assert_true(isfinite(p.value) && p.value > 0);
            assert_true(p.tolerance > 0 && p.tolerance <= 0.25);
            PredictSpec spec;
            practice_predict_spec(&p, &spec);
            assert_true(predict_spec_check(&spec, err, sizeof err));
            /* The model's own answer, printed as people write it, passes; three
             * times it fails as too high; an eighth on a memory question, which
             * has no bits in it, is too low, never "bits for bytes". */
            char typed[32];
            PredictGrade g;
            predict_format(&spec, p.value, true, typed, sizeof typed);
            assert_int_equal(predict_grade(&spec, typed, true, &g), PREDICT_RIGHT);
            predict_format(&spec, 3 * p.value, true, typed, sizeof typed);
            assert_int_equal(predict_grade(&spec, typed, true, &g), PREDICT_TOO_HIGH);
            predict_format(&spec, p.value / 3, true, typed, sizeof typed);
            assert_int_equal(predict_grade(&spec, typed, true, &g), PREDICT_TOO_LOW);
            if (strcmp(p.unit, "B") == 0) {
                predict_format(&spec, p.value / 8, true, typed, sizeof typed);
                assert_int_equal(predict_grade(&spec, typed, true, &g), PREDICT_TOO_LOW);
                assert_null(strstr(g.msg, "bits"));
            }
            if (strstr(p.title, "all-reduce")) {
                kinds[0]++; /* bounds: test_practice_allreduce_near_line_rate */
                assert_string_equal(p.unit, "s");
            } else if (strstr(p.title, "memory")) {
                kinds[1]++;
                assert_string_equal(p.unit, "B");
                /* 2 + 4 bytes of weights and gradients per parameter held plus
                 * at most 12 more: between 6 and 18 bytes per parameter of the
                 * GPU's 1/(TP x PP) share (the output layer can add a little). */
                double share = 0;
                StepResult r;
                assert_int_equal(
                    step_eval(&p.cluster, &p.workload, &p.start, NULL, NULL, &r, err, sizeof err),
                    STEP_OK);
                share = r.mem_weights / 2;
                assert_true(p.value >= 6 * share * 0.999);
                assert_true(p.value <= 18 * share * 1.001);
            } else if (strstr(p.title, "bubble")) {
                kinds[2]++;
                assert_string_equal(p.unit, "s");
                StepResult r;
                assert_int_equal(
                    step_eval(&p.cluster, &p.workload, &p.start, NULL, NULL, &r, err, sizeof err),
                    STEP_OK);
                /* Even stages, no interleave: (p-1) stage times (SC21 §2.2). */
                if (p.start.interleave == 1 && p.workload.layers % p.start.pp == 0)
                    assert_true(fabs(p.value - (p.start.pp - 1) * r.mb_stage_s) <= 1e-9 * p.value);
            } else {
                print_error("unknown predict exercise '%s'\n", p.title);
                fail();
            }
        }
    for (int i = 0; i < 3; i++)
        assert_true(kinds[i] > 0);
}

/* An all-reduce inside one 8-GPU domain: no faster than the line rate allows,
 * and within 3x of it plus a millisecond of latency. */
static void test_practice_allreduce_near_line_rate(void **state)
{
    (void)state;
    int seen = 0;
    for (uint64_t seed = 1; seed <= 200 && seen < 10; seed++) {
        Practice p;
        char err[200];
        assert_true(practice_make(seed, PRACTICE_PREDICT, 1, &p, err, sizeof err));
        if (!strstr(p.title, "all-reduce"))
            continue;
        seen++;
        if (strstr(p.question, "straddles"))
            continue; /* across domains: the hierarchical cost, bounded elsewhere */
        /* The buffer is one sequence of the model's activations: seq x
         * hidden BF16 values, written "= 50.3 MB" in the question. */
        double S = (double)p.workload.seq * p.workload.hidden * 2, shown = 0;
        const char *at = strstr(p.question, "values = ");
        assert_non_null(at);
        char size[32];
        assert_int_equal(sscanf(at, "values = %31[^,]", size), 1);
        assert_true(units_parse(UNITS_BYTES, size, &shown, err, sizeof err));
        assert_true(fabs(shown - S) <= 0.01 * S);
        int n = p.cluster.domain_gpus < 8 ? p.cluster.domain_gpus : 8;
        double ideal = 2.0 * (n - 1) / n * S / p.cluster.up_bytes_per_s;
        assert_true(p.value >= ideal);
        assert_true(p.value <= 3 * ideal + 1e-3);
    }
    assert_true(seen > 0);
}

static void test_practice_every_system_drawn(void **state)
{
    (void)state;
    char seen[64][32];
    int n_seen = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        Practice p;
        char err[200];
        assert_true(practice_make(seed, -1, 1 + (int)(seed % 5), &p, err, sizeof err));
        bool found = false;
        for (int i = 0; i < n_seen; i++)
            found = found || strcmp(seen[i], p.cluster.system_id) == 0;
        if (!found && n_seen < 64)
            snprintf(seen[n_seen++], sizeof seen[0], "%s", p.cluster.system_id);
    }
    assert_int_equal(n_seen, hw_system_count());
}

static void test_practice_run_levels(void **state)
{
    (void)state;
    PracticeRun run;
    practice_run_init(&run, 9, 1);
    Practice a, b;
    char err[200];
    assert_true(practice_run_next(&run, &a, err, sizeof err));
    assert_true(practice_run_next(&run, &b, err, sizeof err));
    assert_true(a.seed != b.seed);
    assert_true(a.kind != b.kind);
    practice_run_result(&run, true);
    practice_run_result(&run, true);
    assert_int_equal(run.level, 1);
    practice_run_result(&run, true);
    assert_int_equal(run.level, 2);
    practice_run_result(&run, false);
    assert_int_equal(run.level, 1);
    assert_int_equal(run.streak, 0);
    practice_run_result(&run, false);
    assert_int_equal(run.level, 1);
    for (int i = 0; i < 30; i++)
        practice_run_result(&run, true);
    assert_int_equal(run.level, PRACTICE_LEVEL_MAX);

    PracticeRun again;
    practice_run_init(&again, 9, 1);
    Practice c;
    assert_true(practice_run_next(&again, &c, err, sizeof err));
    assert_string_equal(a.question, c.question);
}

/* ---- variety ---- */

typedef struct {
    char model[32], system[32];
    int sub; /* predict: 0 all-reduce, 1 memory, 2 bubble; -1 other kinds */
} Seen;

static void seen_of(const Practice *p, Seen *s)
{
    snprintf(s->model, sizeof s->model, "%s", p->workload.id);
    snprintf(s->system, sizeof s->system, "%s", p->cluster.system_id);
    s->sub = p->kind != PRACTICE_PREDICT  ? -1
             : strstr(p->title, "bubble") ? 2
             : strstr(p->title, "memory") ? 1
                                          : 0;
}

/* Distinct models and systems in seen[from .. from + n). */
static void distinct(const Seen *seen, int from, int n, int *models, int *systems)
{
    *models = *systems = 0;
    for (int i = from; i < from + n; i++) {
        bool new_m = true, new_s = true;
        for (int j = from; j < i; j++) {
            new_m = new_m && strcmp(seen[i].model, seen[j].model) != 0;
            new_s = new_s && strcmp(seen[i].system, seen[j].system) != 0;
        }
        *models += new_m;
        *systems += new_s;
    }
}

/* Every window of 20 in seen[0..n) has 6 models and 4 systems; every 7
 * consecutive predict questions ask one thing at most 3 times. */
static void check_windows(const Seen *seen, int n, const char *what, uint64_t seed)
{
    for (int s = 0; s + 20 <= n; s++) {
        int models, systems;
        distinct(seen, s, 20, &models, &systems);
        if (models < 6 || systems < 4) {
            print_error("%s %llu, exercises %d-%d: %d models, %d systems\n", what,
                        (unsigned long long)seed, s + 1, s + 20, models, systems);
            fail();
        }
    }
    int subs[64], np = 0;
    for (int i = 0; i < n && np < 64; i++)
        if (seen[i].sub >= 0)
            subs[np++] = seen[i].sub;
    for (int s = 0; s + 7 <= np; s++) {
        int c[3] = {0};
        for (int i = s; i < s + 7; i++)
            c[subs[i]]++;
        for (int k = 0; k < 3; k++)
            if (c[k] > 3) {
                print_error("%s %llu: predict kind %d %d times in 7\n", what,
                            (unsigned long long)seed, k, c[k]);
                fail();
            }
    }
}

/* Runs as the UI deals them, from 50 seeds at every level: 40 exercises
 * each, every window of 20 checked. */
static void test_practice_variety_in_runs(void **state)
{
    (void)state;
    enum { LEN = 40 };
    for (uint64_t seed = 1; seed <= 50; seed++) {
        PracticeRun run;
        practice_run_init(&run, seed * 0x9e3779b97f4a7c15ULL, 1 + (int)(seed % 5));
        Seen seen[LEN];
        for (int i = 0; i < LEN; i++) {
            Practice p;
            char err[200];
            assert_true(practice_run_next(&run, &p, err, sizeof err));
            seen_of(&p, &seen[i]);
        }
        check_windows(seen, LEN, "run", seed);
    }
}

/* Worksheets (consecutive seeds), all kinds in turn and one kind alone. */
static void test_practice_variety_in_worksheets(void **state)
{
    (void)state;
    enum { LEN = 40 };
    for (int kind = -1; kind < PRACTICE_KIND_COUNT; kind++)
        for (uint64_t start = 1; start <= 200; start += 97) {
            Seen seen[LEN];
            for (int i = 0; i < LEN; i++) {
                Practice p;
                char err[200];
                assert_true(practice_make(start + (uint64_t)i, kind, 2, &p, err, sizeof err));
                seen_of(&p, &seen[i]);
            }
            check_windows(seen, LEN, kind < 0 ? "worksheet" : practice_kind_name(kind), start);
        }
}

/* ---- tier ---- */

/* The tier of a group, worked out from its GPUs alone: one domain is the
 * scale-up tier; more than one site the site link; else one leaf (or, on
 * rails, the same positions within one unit) the leaves, and the spine
 * otherwise. */
static PracticeTier tier_by_hand(const Practice *p, const Placement *pl)
{
    const Cluster *c = &p->cluster;
    int rank = pl ? placement_rank_on(pl, p->gpu) : p->gpu;
    int g = mapping_group_of(&p->start, rank, p->dim);
    long long unit = cluster_rail_unit_gpus(c); /* > 0: leaves wired by rail */
    int dom0 = -1, site0 = -1, leaf0 = -1;
    long long unit0 = -1;
    bool domains = false, sites = false, leaves = false, units = false;
    /* On rails: the positions the group holds in each domain it touches. */
    static uint64_t pos[8192];
    memset(pos, 0, sizeof pos);
    for (int r = 0; r < c->n_gpus; r++) {
        if (mapping_group_of(&p->start, r, p->dim) != g)
            continue;
        int gpu = pl ? placement_gpu_of(pl, r) : r;
        int d = gpu / c->domain_gpus, st = cluster_site_of(c, gpu), lf = cluster_leaf_of(c, gpu);
        if (dom0 < 0)
            dom0 = d, site0 = st, leaf0 = lf, unit0 = unit > 0 ? gpu / unit : -1;
        domains = domains || d != dom0;
        sites = sites || st != site0;
        leaves = leaves || lf != leaf0;
        units = units || (unit > 0 && gpu / unit != unit0);
        if (unit > 0 && d < 8192)
            pos[d] |= 1ULL << (gpu % c->domain_gpus);
    }
    if (!domains)
        return PRACTICE_TIER_UP;
    if (sites)
        return PRACTICE_TIER_SITE;
    if (unit <= 0)
        return leaves ? PRACTICE_TIER_SPINE : PRACTICE_TIER_LEAF;
    /* Rails carry it when it stays in one unit and every domain it touches
     * holds it at the same positions (GPU i of each server on rail i). */
    uint64_t first = 0;
    bool aligned = true;
    for (int d = 0; d < 8192 && d * c->domain_gpus < c->n_gpus; d++)
        if (pos[d]) {
            if (!first)
                first = pos[d];
            aligned = aligned && pos[d] == first;
        }
    return units || !aligned ? PRACTICE_TIER_SPINE : PRACTICE_TIER_LEAF;
}

static void test_practice_tier_answers(void **state)
{
    (void)state;
    int seen[PRACTICE_TIER_COUNT] = {0};
    for (int level = PRACTICE_LEVEL_MIN; level <= PRACTICE_LEVEL_MAX; level++)
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            Practice p;
            char err[200], msg[400];
            assert_true(practice_make(seed * 6007 + (uint64_t)level, PRACTICE_TIER, level, &p, err,
                                      sizeof err));
            assert_int_equal(p.kind, PRACTICE_TIER);
            Placement *pl = practice_start_placement(&p);
            assert_int_equal(p.tier, tier_by_hand(&p, pl));
            placement_free(pl);
            seen[p.tier]++;
            /* Exactly one of the four choices passes, and it is the answer. */
            const char *labels[PRACTICE_MAX_CHOICES];
            int n = practice_choices(&p, labels), right = 0;
            assert_int_equal(n, PRACTICE_TIER_COUNT);
            for (int i = 0; i < n; i++) {
                bool ok = practice_grade_choice(&p, i, msg, sizeof msg);
                right += ok;
                assert_true(msg[0] != '\0');
                if (!ok) /* a miss never names the answer */
                    assert_null(strstr(msg, practice_tier_name(p.tier)));
            }
            assert_int_equal(right, 1);
            assert_true(practice_grade_tier(&p, p.tier, msg, sizeof msg));
            assert_non_null(strstr(p.question, "group of"));
        }
    /* Every tier is an answer now and then (levels 4 and 5 have two sites). */
    for (int t = 0; t < PRACTICE_TIER_COUNT; t++) {
        if (seen[t] == 0)
            print_error("tier %s never the answer\n", practice_tier_name((PracticeTier)t));
        assert_true(seen[t] > 0);
    }
}

/* ---- placement ---- */

static void test_practice_placement_solvable(void **state)
{
    (void)state;
    for (int level = PRACTICE_LEVEL_MIN; level <= PRACTICE_LEVEL_MAX; level++)
        for (uint64_t seed = 1; seed <= SEEDS / 2; seed++) {
            Practice p;
            char err[200], msg[400];
            assert_true(practice_make(seed * 3001 + (uint64_t)level, PRACTICE_PLACEMENT, level, &p,
                                      err, sizeof err));
            assert_true(p.n_swaps >= 1 && p.par == p.n_swaps);
            assert_true(p.cluster.domain_gpus <= 72);
            /* Ranks in order: no group straddles; the scattered start: some do. */
            assert_true(practice_grade_placement(&p, &p.start, NULL, msg, sizeof msg));
            Placement *pl = practice_start_placement(&p);
            assert_non_null(pl);
            assert_false(practice_grade_placement(&p, &p.start, pl, msg, sizeof msg));
            assert_non_null(strstr(msg, "still span"));
            assert_true(span_worst(&p.start, &p.cluster, pl, p.dim).domains > 1);
            /* Through the scenario, as the learner moves: the swaps undone, in
             * reverse order, pass within par moves. */
            Scenario *s = scenario_new(&p.cluster, &p.workload, &p.start, pl, SCN_ALLOW_MOVE, err,
                                       sizeof err);
            assert_non_null(s);
            char move[64];
            snprintf(move, sizeof move, "tp 4");
            assert_false(scenario_apply_text(s, move, err, sizeof err)); /* degrees are fixed */
            for (int i = p.n_swaps - 1; i >= 0; i--) {
                snprintf(move, sizeof move, "swap %d %d", p.swaps[i][0], p.swaps[i][1]);
                assert_true(scenario_apply_text(s, move, err, sizeof err));
            }
            assert_true(practice_grade_placement(&p, scenario_mapping(s), scenario_placement(s),
                                                 msg, sizeof msg));
            /* The whole placement is faster, as the worked answer says. */
            assert_true(scenario_result(s)->step_s < scenario_start_result(s)->step_s);
            scenario_free(s);
            placement_free(pl);
        }
}

static void test_practice_kind_names(void **state)
{
    (void)state;
    for (int k = 0; k < PRACTICE_KIND_COUNT; k++)
        assert_int_equal(practice_kind_find(practice_kind_name((PracticeKind)k)), k);
    assert_int_equal(practice_kind_find("quiz"), -1);
    assert_int_equal(practice_kind_find(NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_practice_same_seed_same_exercise),
        cmocka_unit_test(test_practice_seeds_differ),
        cmocka_unit_test(test_practice_mapping_solvable),
        cmocka_unit_test(test_practice_mapping_slack),
        cmocka_unit_test(test_practice_bottleneck_solvable),
        cmocka_unit_test(test_practice_predict_physics),
        cmocka_unit_test(test_practice_allreduce_near_line_rate),
        cmocka_unit_test(test_practice_every_system_drawn),
        cmocka_unit_test(test_practice_run_levels),
        cmocka_unit_test(test_practice_variety_in_runs),
        cmocka_unit_test(test_practice_variety_in_worksheets),
        cmocka_unit_test(test_practice_tier_answers),
        cmocka_unit_test(test_practice_placement_solvable),
        cmocka_unit_test(test_practice_kind_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
