/* SPDX-License-Identifier: MIT */
/* practice — endless graded exercises drawn from the model, for `scalelab
 * practice`: every exercise is made from one 64-bit seed and a difficulty
 * level, so the same seed gives the same exercise (and the same worked
 * answer) on any machine, for printed worksheets as well as the UI.
 *
 * Kinds:
 *   - mapping: a cluster, a workload and a badly mapped start; the learner
 *     sets TP/PP/DP/EP, micro-batch and placement. Passes when the mapping
 *     fits in memory and its step time is within PRACTICE_MAPPING_SLACK of
 *     the best mapping the search (model/sweep.h) finds. Par is the number
 *     of moves from the start to that best mapping.
 *   - predict: one number of the model (a collective's time on a tier, the
 *     static memory per GPU, a pipeline bubble), typed with its unit, graded
 *     within a tolerance; the worked answer gives the formula with values.
 *   - bottleneck: a step described in words; the learner names the part
 *     (compute, TP, PP, bubble, DP, EP) that takes the most time.
 *
 * Difficulty: level 1 (one server or rack, dense models) to 5 (tens of
 * thousands of GPUs, mixture-of-experts, several sites). practice_run_*
 * raises the level after a streak of first-try passes and lowers it after a
 * miss. Every system and workload preset can be drawn.
 *
 * Pure: no I/O. Randomness is a splitmix64 stream of the seed only.
 */
#ifndef SCALELAB_LEARN_PRACTICE_H
#define SCALELAB_LEARN_PRACTICE_H

#include "learn/predict.h"
#include "model/cluster.h"
#include "model/mapping.h"
#include "model/step.h"
#include "model/units.h"
#include "model/workload.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    PRACTICE_MAPPING,
    PRACTICE_PREDICT,
    PRACTICE_BOTTLENECK,
    PRACTICE_KIND_COUNT
} PracticeKind;

#define PRACTICE_LEVEL_MIN     1
#define PRACTICE_LEVEL_MAX     5
#define PRACTICE_MAPPING_SLACK 0.05 /* "within 5% of the best" passes */
#define PRACTICE_STREAK_UP     3    /* first-try passes in a row that raise the level */

typedef struct {
    uint64_t seed;
    PracticeKind kind;
    int level;
    char title[96];
    char question[1400]; /* the situation and the task, plain text, lines of <= 76 columns */
    char answer[320];    /* the answer in one line */
    char worked[1600];   /* the worked answer: formula with values, or the best and why */

    Cluster cluster;
    Workload workload; /* micro-batch: the start's (mapping) or the described one */
    Mapping start;     /* the mapping described (bottleneck, predict) or to fix (mapping) */

    /* predict (graded by predict_grade through practice_predict_spec) */
    const char *unit;     /* a predict unit: "s", "B", ... */
    double value;         /* the model's answer, in the unit's base (s, B, ...) */
    double tolerance;     /* relative */
    PredictTerm terms[3]; /* the parts of the answer, for "which term dominates" */
    PredictSlip slips[2]; /* the slips the question involves (predict_grade names them) */
    int n_slips;
    int n_terms;

    /* bottleneck */
    StepPart part; /* the largest part of the step */

    /* mapping */
    Mapping best;
    int best_micro_batch;
    double best_step_s;
    int par; /* moves from the start to the best */
} Practice;

const char *practice_kind_name(PracticeKind k); /* "mapping", "predict", "bottleneck" */
/* The kind named by text; -1 when unknown. */
int practice_kind_find(const char *name);

/* Makes the exercise of (seed, kind, level). kind < 0: seed % 3, so
 * consecutive seeds (a printed worksheet) take the kinds in turn.
 * level is clamped to 1..5. False with a reason when no exercise can be
 * made (should not happen with the shipped presets; tests check many seeds). */
bool practice_make(uint64_t seed, int kind, int level, Practice *p, char *err, size_t err_len);

/* Grading. Each returns true when the answer passes and writes one or two
 * sentences of feedback into msg (a miss says how far off and why, without
 * giving the answer away). */
bool practice_grade_mapping(const Practice *p, const StepResult *r, char *msg, size_t msg_len);
bool practice_grade_part(const Practice *p, StepPart part, char *msg, size_t msg_len);
/* The predict page form of a predict exercise (borrows p's fields). */
void practice_predict_spec(const Practice *p, PredictSpec *spec);
/* The step parts offered as choices for a bottleneck exercise (EP only for
 * mixture-of-experts models); returns how many were written to parts. */
int practice_part_choices(const Practice *p, StepPart parts[STEP_PART_COUNT]);

/* A run of exercises: seeds follow from the run's seed, the level follows
 * the learner's results. */
typedef struct {
    uint64_t seed; /* the run's seed */
    int index;     /* exercises made so far */
    int level;
    int streak; /* first-try passes in a row */
} PracticeRun;

void practice_run_init(PracticeRun *run, uint64_t seed, int level);
/* The next exercise of the run (kinds take turns, seeds differ). */
bool practice_run_next(PracticeRun *run, Practice *p, char *err, size_t err_len);
/* Records how the current exercise went: passed on the first try or not. */
void practice_run_result(PracticeRun *run, bool first_try);

#endif
