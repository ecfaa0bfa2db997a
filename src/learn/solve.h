/* SPDX-License-Identifier: MIT */
/* solve — the par search: the fewest key presses that meet a scenario's
 * goal, found by trying every sequence of the moves a learner may make, the
 * cheapest first.
 *
 * The moves are the scenario's keys (scenario_press: t/T y/Y d/D x/X m/M
 * + - ] [, one press each), swaps of two GPUs (Space, Enter: two presses)
 * and group moves (g as often as the kind needs, Enter), each allowed only
 * where the scenario and the limits allow it. The search is uniform-cost
 * (a breadth-first search by presses): states are expanded in order of the
 * presses that reach them, so when it stops at a solution of k presses
 * every sequence of fewer presses was tried and none met the goal.
 *
 * States are told apart by what decides a step: the cluster, micro-batch
 * and mapping, and for every rank the tiers its GPU sits in (domain, leaf
 * block, site, rail). Two GPUs in the same tiers are interchangeable, so a
 * swap between them changes nothing and two placements that differ only by
 * such swaps are one state. The goal is called at most once per distinct
 * result (a goal sees only the result table of a state).
 *
 * Bounded: at most SolveLimits.max_states states are kept; a search that
 * reaches the bound stops with SOLVE_BOUND and says up to how many presses
 * it had tried everything (proved).
 *
 * Pure: no I/O; the goal is the caller's (lesson.h's goal functions through
 * a callback), so learn/ needs no Lua.
 */
#ifndef SCALELAB_LEARN_SOLVE_H
#define SCALELAB_LEARN_SOLVE_H

#include "base/msg.h"
#include "learn/scenario.h"
#include <stdbool.h>

typedef enum {
    SOLVE_FOUND, /* a solution; every cheaper sequence fails */
    SOLVE_NONE,  /* no sequence of at most max_presses meets the goal */
    SOLVE_BOUND, /* stopped at max_states (or a machine too large to search) */
    SOLVE_ERROR, /* the goal raised an error (err) */
} SolveStatus;

typedef struct {
    unsigned allow;  /* moves the search may make, within the scenario's own allow */
    int max_presses; /* sequences of at most this many presses */
    long max_states; /* distinct states kept at most */
    /* The goal reads where each rank sits, not only the step result (a
     * lesson's goal sees the result table alone, so the goal is run once
     * per distinct result; a C goal that reads the placement sets this). */
    bool goal_reads_placement;
} SolveLimits;

/* The defaults: the scenario's moves, 12 presses, 200,000 states. */
SolveLimits solve_limits_default(const Scenario *s);

/* The goal of the state s is in: 1 met, 0 not met, -1 error (with err). */
typedef int (*SolveGoal)(void *ctx, const Scenario *s, char *err, size_t err_len);

#define SOLVE_MAX_MOVES 64

typedef struct {
    SolveStatus status;
    int presses;                     /* of the solution found */
    int n_moves;                     /* its moves */
    char moves[SOLVE_MAX_MOVES][48]; /* each as text (scenario_type_text reads it) */
    char keys[SOLVE_MAX_MOVES][24];  /* and as the keys typed: "t", "g g Enter" */
    int proved;                      /* every sequence of at most this many presses tried */
    long states;                     /* distinct states kept */
    long goal_calls;                 /* goal functions run (one per distinct result) */
    char err[MSG_LEN];               /* SOLVE_ERROR, SOLVE_BOUND: why */
} SolveResult;

/* Searches from s's current state (s itself is not changed). */
void solve_scenario(const Scenario *s, const SolveLimits *lim, SolveGoal goal, void *ctx,
                    SolveResult *out);

/* A lazy learner: `walks` walks of `presses` presses of the setting keys
 * the scenario allows (t/T y/Y d/D x/X m/M + - ] [), from s's state:
 * each press a random key among those the state takes (a refused press is
 * not counted).
 * met counts the walks that meet the goal on the way. The same seed gives
 * the same walks. What the par search proves is "no shorter sequence"; this
 * says how often mashing the keys that need no thought gets there. */
typedef struct {
    SolveStatus status; /* SOLVE_FOUND when the walks ran, SOLVE_ERROR (err) */
    int walks, presses, met;
    long goal_calls;
    char err[MSG_LEN];
} SolveMash;
void solve_mash(const Scenario *s, int walks, int presses, unsigned seed, SolveGoal goal,
                void *ctx, SolveMash *out);

/* The moves of a result as one line: "group tp 64 to 72 (g Enter), tp 4 (T)". */
char *solve_format(const SolveResult *r, char *buf, size_t n);

#endif
