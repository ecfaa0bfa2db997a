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
 *   - tier: a group (TP, PP, DP or EP) under a placement on a cluster; the
 *     learner names the slowest tier its collective crosses: the scale-up
 *     domain only, the scale-out leaves, the spine, or the site link. Graded
 *     by the model's span of that group (span.h).
 *   - placement: a job whose scheduler swapped GPUs so that some groups
 *     straddle two domains; the learner moves GPUs (or groups) until none
 *     does, graded by the model's spans. Par: the swaps that undo it.
 *
 * Variety: the model, the system and the kind of predict question of each
 * exercise come from endless shuffled decks, one card per position: a run's
 * exercise i sits at position i of decks drawn from the run's seed, a
 * worksheet's exercise at position seed of fixed decks. Any 11 consecutive
 * positions hold all 6 models, any 20 at least 10 of the 16 systems. When a
 * model does not fit the level's cluster, the cluster grows (whole domains,
 * doubling) until it does, so every model comes up at every level.
 *
 * Difficulty: level 1 (a few servers or one rack, or the smallest cluster the
 * model fits on) to 5 (tens of thousands of GPUs, several sites). Levels 2
 * and up ask about collectives across domains; 3 and up scatter GPUs.
 * practice_run_* raises the level after a streak of first-try passes and
 * lowers it after a miss.
 *
 * Pure: no I/O. Randomness is a splitmix64 stream of the seed only.
 */
#ifndef SCALELAB_LEARN_PRACTICE_H
#define SCALELAB_LEARN_PRACTICE_H

#include "learn/predict.h"
#include "model/cluster.h"
#include "model/mapping.h"
#include "model/placement.h"
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
    PRACTICE_TIER,
    PRACTICE_PLACEMENT,
    PRACTICE_KIND_COUNT
} PracticeKind;

/* The tiers a collective can cross, from the fastest to the slowest. */
typedef enum {
    PRACTICE_TIER_UP,    /* every member in one scale-up domain */
    PRACTICE_TIER_LEAF,  /* across domains, under one leaf (or on its rails' leaves) */
    PRACTICE_TIER_SPINE, /* across leaves: up through the spine */
    PRACTICE_TIER_SITE,  /* across sites: the scale-across link */
    PRACTICE_TIER_COUNT
} PracticeTier;

#define PRACTICE_MAX_SWAPS   4
#define PRACTICE_MAX_CHOICES 6

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
    size_t task_at;      /* where the task in question begins when it names the UI's keys
                          * (mapping, placement; 0: none does): practice_paper_question */
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

    /* tier and placement: the start placement is the default one with these
     * GPU swaps made in order (none: ranks in order) */
    int swaps[PRACTICE_MAX_SWAPS][2];
    int n_swaps;
    MappingDim dim;    /* the group's dimension (tier) or the one to fix (placement) */
    int gpu;           /* tier: a GPU of the group asked about */
    PracticeTier tier; /* tier: the answer */

    /* mapping */
    Mapping best;
    int best_micro_batch;
    double best_step_s;
    int par; /* moves from the start to the best */
} Practice;

/* "mapping", "predict", "bottleneck", "tier", "placement" */
const char *practice_kind_name(PracticeKind k);
/* The kind named by text; -1 when unknown. */
int practice_kind_find(const char *name);

/* Makes the exercise of (seed, kind, level). kind < 0: seed % 5, so
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
/* "scale-up domain", "leaf switches", "spine", "site link". */
const char *practice_tier_name(PracticeTier t);
bool practice_grade_tier(const Practice *p, PracticeTier t, char *msg, size_t msg_len);
/* Bottleneck and tier exercises as choices: the labels in order (borrowed),
 * how many; and the grade of choice i. */
int practice_choices(const Practice *p, const char *labels[PRACTICE_MAX_CHOICES]);
bool practice_grade_choice(const Practice *p, int i, char *msg, size_t msg_len);
/* The start placement of a tier or placement exercise (caller frees); NULL
 * when the ranks are in order (the default placement). */
Placement *practice_start_placement(const Practice *p);
/* A placement exercise: passes when no group of p->dim spans two domains. */
bool practice_grade_placement(const Practice *p, const Mapping *m, const Placement *pl, char *msg,
                              size_t msg_len);

/* The question as a printed sheet asks it: the situation, then the task in
 * words for paper (which swaps, which degrees) where the UI's own names its
 * keys. */
void practice_paper_question(const Practice *p, char *buf, size_t len);

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
