/* SPDX-License-Identifier: MIT */
/* scenario — the editable state of an interactive scenario or of free play:
 * a cluster, a workload, a mapping and a placement, the moves a learner can
 * make on them, undo, and a reference point for deltas.
 *
 * Every move is validated; an illegal move leaves the state unchanged and
 * explains itself in err ("PP 3 does not divide the 80 layers"). Moves are
 * also written as short text ("swap 3 12", "tp 8", "domain 72", ...) so a
 * lesson can ship a reference solution as a list of moves and a presenter
 * script can replay them; scenario_apply_text parses that form.
 *
 * Pure: no I/O. The Scenario owns its placement and undo history;
 * scenario_free accepts NULL.
 */
#ifndef SCALELAB_LEARN_SCENARIO_H
#define SCALELAB_LEARN_SCENARIO_H

#include "model/cluster.h"
#include "model/mapping.h"
#include "model/step.h"
#include "model/workload.h"
#include <stdbool.h>
#include <stddef.h>

/* What the learner may change (bit set). */
enum {
    SCN_ALLOW_MOVE = 1 << 0,    /* swap GPUs / groups between domains */
    SCN_ALLOW_DEGREES = 1 << 1, /* TP, PP, DP, EP, CP */
    SCN_ALLOW_MICRO = 1 << 2,   /* micro-batch */
    SCN_ALLOW_DOMAIN = 1 << 3,  /* scale-up domain size */
    SCN_ALLOW_SYSTEM = 1 << 4,  /* switch system preset */
    SCN_ALLOW_SEARCH = 1 << 5,  /* the search key (off in lesson scenarios unless named) */
    SCN_ALLOW_ALL = 0x3f,
    /* A lesson scenario without `allow`: every knob, but no search. */
    SCN_ALLOW_LESSON_DEFAULT = SCN_ALLOW_ALL & ~SCN_ALLOW_SEARCH,
};

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

/* Moves. Each returns false and leaves the state as it was on error. */
bool scenario_swap_gpus(Scenario *s, int gpu_a, int gpu_b, char *err, size_t err_len);
/* Moves the whole group of dimension d that contains gpu so that it starts
 * at the first GPU of domain `domain`, swapping with the GPUs there. */
bool scenario_move_group(Scenario *s, int gpu, MappingDim d, int domain, char *err,
                         size_t err_len);
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

/* Text moves, one per call: "swap A B", "group DIM GPU DOMAIN",
 * "tp N" / "pp N" / "dp N" / "ep N" / "cp N", "mb N", "domain N",
 * "system ID", "undo", "reset". */
bool scenario_apply_text(Scenario *s, const char *move, char *err, size_t err_len);

#endif
