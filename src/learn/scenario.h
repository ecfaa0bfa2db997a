/* SPDX-License-Identifier: MIT */
/* scenario — the editable state of an interactive scenario or of free play:
 * a cluster, a workload, a mapping and a placement, the moves a learner can
 * make on them, undo, and a reference point for deltas.
 *
 * Every move is validated; an illegal move leaves the state unchanged and
 * explains itself in err ("PP 3 does not divide the 80 layers"). Moves are
 * also written as short text ("swap 3 12", "tp 8", "domain 72", ...) so a
 * lesson can ship a reference solution as a list of moves and a presenter
 * script can replay them; scenario_apply_text parses that form, and
 * scenario_type_text plays it with the keys a learner would press.
 *
 * The keys themselves are here (scenario_press), not in the screen, so the
 * screen and the par search (solve.h) make exactly the same moves and count
 * the same presses.
 *
 * Pure: no I/O. The Scenario owns its placement and undo history;
 * scenario_free accepts NULL.
 */
#ifndef SCALELAB_LEARN_SCENARIO_H
#define SCALELAB_LEARN_SCENARIO_H

#include "model/cluster.h"
#include "model/mapping.h"
#include "model/serve.h"
#include "model/step.h"
#include "model/workload.h"
#include <stdbool.h>
#include <stddef.h>

/* What the learner may change (bit set). */
enum {
    SCN_ALLOW_MOVE = 1 << 0,    /* swap single GPUs (Space, Enter) and move groups */
    SCN_ALLOW_DEGREES = 1 << 1, /* TP, PP, DP, EP, CP */
    SCN_ALLOW_MICRO = 1 << 2,   /* micro-batch */
    SCN_ALLOW_DOMAIN = 1 << 3,  /* scale-up domain size */
    SCN_ALLOW_SYSTEM = 1 << 4,  /* switch system preset */
    SCN_ALLOW_SEARCH = 1 << 5,  /* the search key (off in lesson scenarios unless named) */
    SCN_ALLOW_GROUPS = 1 << 6,  /* move whole groups (g, Enter), not single GPUs */
    SCN_ALLOW_ALL = 0x7f,
    /* A lesson scenario without `allow`: every knob, but no search. */
    SCN_ALLOW_LESSON_DEFAULT = SCN_ALLOW_ALL & ~SCN_ALLOW_SEARCH,
};
/* The kinds of group a learner may pick (with MOVE or GROUPS): none set
 * means every kind with more than one rank. */
#define SCN_ALLOW_GROUP_DIM(d) (1u << (8 + (d)))
#define SCN_ALLOW_GROUP_DIMS   (0x1fu << 8)

/* The keys that change one setting by one step, as the scenario screen
 * binds them: t/T y/Y d/D x/X double or halve TP, PP, DP, EP; m/M the
 * micro-batch; + / - the next bigger or smaller scale-up domain that is
 * legal; ] / [ the next or previous system preset that is legal. Each is
 * one key press. */
typedef enum {
    SCN_KEY_TP_UP,
    SCN_KEY_TP_DOWN,
    SCN_KEY_PP_UP,
    SCN_KEY_PP_DOWN,
    SCN_KEY_DP_UP,
    SCN_KEY_DP_DOWN,
    SCN_KEY_EP_UP,
    SCN_KEY_EP_DOWN,
    SCN_KEY_MB_UP,
    SCN_KEY_MB_DOWN,
    SCN_KEY_DOMAIN_UP,
    SCN_KEY_DOMAIN_DOWN,
    SCN_KEY_SYSTEM_NEXT,
    SCN_KEY_SYSTEM_PREV,
    SCN_KEY_COUNT
} ScenarioKey;

/* The key as the screen binds it ('t', 'T', ..., '+', '-', ']', '['). */
char scenario_key_char(ScenarioKey k);
/* The allow bit a key needs. */
unsigned scenario_key_allow(ScenarioKey k);

typedef struct Scenario Scenario;

/* Starts a scenario; copies its inputs. NULL with a reason when the start is
 * not legal. */
Scenario *scenario_new(const Cluster *c, const Workload *w, const Mapping *m, const Placement *p,
                       unsigned allow, char *err, size_t err_len);
void scenario_free(Scenario *s);

const Cluster *scenario_cluster(const Scenario *s);
const Workload *scenario_workload(const Scenario *s);
const Mapping *scenario_mapping(const Scenario *s);
const Placement *scenario_placement(const Scenario *s);
unsigned scenario_allowed(const Scenario *s);

/* The current result, the result at the start, and the reference (start,
 * until scenario_set_reference). Recomputed after each successful move. */
const StepResult *scenario_result(const Scenario *s);
const StepResult *scenario_start_result(const Scenario *s);
const StepResult *scenario_reference(const Scenario *s);
const StepResult *scenario_previous(const Scenario *s); /* before the last move */
void scenario_set_reference(Scenario *s);

/* Key presses of the moves that lead from the start to the current state:
 * what the learner typed, the way par counts (a key step is one press, a
 * swap Space + Enter two, a group move its pick presses + Enter). Undo
 * takes a move's presses back; reset makes it 0. */
int scenario_presses(const Scenario *s);

/* Serving scenarios: from now on every state is also judged as one decode
 * step (serve.h) with this load, the start and the current state included
 * (the undo history is dropped). False, with nothing changed, when the
 * decode step cannot be evaluated. The results are NULL for a scenario
 * that does not serve. */
bool scenario_set_serving(Scenario *s, ServeLoad load, char *err, size_t err_len);
const ServeResult *scenario_serve(const Scenario *s);
const ServeResult *scenario_serve_start(const Scenario *s);
const ServeResult *scenario_serve_previous(const Scenario *s); /* before the last move */
bool scenario_serving_load(const Scenario *s, ServeLoad *load);

/* Moves. Each returns false and leaves the state as it was on error. */
/* One key press (see ScenarioKey). */
bool scenario_press(Scenario *s, ScenarioKey k, char *err, size_t err_len);
/* Swaps what two GPUs run: two ranks, or a rank and a free GPU (the rank
 * moves there). A down GPU takes no rank. Two presses. */
bool scenario_swap_gpus(Scenario *s, int gpu_a, int gpu_b, char *err, size_t err_len);
/* Moves the whole group of dimension d that contains gpu to where the GPU
 * `at` is: when `at` runs a rank of another group of that kind, the two
 * groups trade places (member k with member k, by coordinate along d);
 * when `at` is free, or one of the group's own, the group gathers in at's
 * domain: its members there stay, the others go onto the domain's first
 * free GPUs, which must be enough. Presses: scenario_pick_presses + 1. */
bool scenario_move_group(Scenario *s, int gpu, MappingDim d, int at, char *err, size_t err_len);
/* What scenario_move_group would do, without doing it: the size of the
 * group, with member k moving from GPU from[k] to GPU to[k] (each array
 * holds the group's size), or -1 with the reason in err. */
int scenario_group_plan(const Scenario *s, int gpu, MappingDim d, int at, int *from, int *to,
                        char *err, size_t err_len);
/* The kinds `g` picks, in the order repeated presses cycle through them
 * (TP, PP, DP, EP with more than one rank and allowed); returns the count. */
int scenario_pick_cycle(const Scenario *s, MappingDim *dims, int max);
/* Presses of g that pick a group of kind d (1 for the first kind of the
 * cycle), 0 when d cannot be picked. */
int scenario_pick_presses(const Scenario *s, MappingDim d);
/* What a move costs in presses, the one rule par and the search count by:
 * a swap is Space + Enter, a group move its picks + Enter. */
#define SCN_SWAP_PRESSES 2
int scenario_group_presses(const Scenario *s, MappingDim d);
bool scenario_set_degree(Scenario *s, MappingDim d, int value, char *err, size_t err_len);
bool scenario_set_micro_batch(Scenario *s, int mb, char *err, size_t err_len);
bool scenario_set_domain(Scenario *s, int domain_gpus, char *err, size_t err_len);
bool scenario_set_system(Scenario *s, const char *system_id, char *err, size_t err_len);
/* Sets the whole mapping, micro-batch and placement in one move (one undo
 * step), e.g. to apply a search's winner; p NULL: the default placement.
 * Needs what changes to be allowed: the degrees when a degree differs, the
 * micro-batch when it differs, moves when the placement differs (or p is
 * given with new degrees). */
bool scenario_set_mapping(Scenario *s, const Mapping *m, int micro_batch, const Placement *p,
                          char *err, size_t err_len);
bool scenario_undo(Scenario *s);  /* false when nothing to undo */
void scenario_reset(Scenario *s); /* back to the start; undo history cleared */

/* Text moves, one per call: "swap A B", "group DIM GPU to AT" (the group of
 * GPU goes where GPU AT is; "group DIM GPU DOMAIN": to the domain's first
 * usable GPU), "tp N" / "pp N" / "dp N" / "ep N" / "cp N", "mb N",
 * "domain N", "system ID", "undo", "reset". A setting is set at once (one
 * move, one press), whatever keys would take. */
bool scenario_apply_text(Scenario *s, const char *move, char *err, size_t err_len);
/* The same move as the keys type it: a setting by repeated presses of its
 * key (each one move; "tp 8" from TP 2 is t, t), a swap or a group move as
 * scenario_swap_gpus / scenario_move_group. False, with the state as it
 * was, when the keys cannot reach it ("tp 3": t doubles). *presses gets
 * the presses typed (may be NULL). */
bool scenario_type_text(Scenario *s, const char *move, int *presses, char *err, size_t err_len);
/* For the par search (solve.h): a copy with the same start and current
 * state and no undo history; and a jump to another state (evaluated; the
 * undo history cleared; p NULL: the machine's default placement), at
 * `presses` presses from the start. False with a reason when the state is
 * not legal (the scenario is then unchanged). */
Scenario *scenario_clone(const Scenario *s);
bool scenario_jump(Scenario *s, const Cluster *c, int micro_batch, const Mapping *m,
                   const Placement *p, int presses, char *err, size_t err_len);

/* The move key k just made, in the text form scenario_type_text reads
 * ("tp 8" after t from TP 4, "domain 72" after +): call it after the press. */
char *scenario_key_move_text(const Scenario *s, ScenarioKey k, char *buf, size_t n);

#endif
