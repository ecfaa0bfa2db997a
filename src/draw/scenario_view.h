/* SPDX-License-Identifier: MIT */
/* scenario_view — the scenario screen as a drawing over a plain state: the
 * briefing, the cluster view (cluster_grid.h) with its cursor line and
 * legend, the live result (the stacked step bar, or for serving the parts
 * of a token, with the figures line and the bottleneck), and the feedback:
 * the answer to the last key, the hint, the formula explained, the goal
 * with why it is not met, the effect of the last move and the debrief.
 *
 * The screen (ui/screen_scenario.c) and `scalelab render scenario` draw
 * through this one function, so what a handout shows is what the learner
 * sees. Every sentence is made here from the model's structured results:
 * the groups that cross a tier by their letters, the memory verdict from
 * its need and have; nothing parses model text.
 *
 * While a prediction waits for its answer (ScenarioScreen.guessing) the new
 * result is hidden: the bar, the figures, the bottleneck and the goal's
 * state give way to the question and its numbered choices.
 *
 * Pure: no curses, no Lua (the lesson's texts come in as strings). Inputs
 * are borrowed.
 */
#ifndef SCALELAB_DRAW_SCENARIO_VIEW_H
#define SCALELAB_DRAW_SCENARIO_VIEW_H

#include "draw/canvas.h"
#include "draw/cluster_grid.h"
#include "learn/guess.h"
#include "learn/scenario.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const Scenario *s; /* the state shown (required) */
    /* what the lesson says (NULL or "": nothing; free play has none) */
    const char *brief;     /* the briefing, light markup */
    const char *goal_text; /* the goal in words */
    double target_s;       /* the goal's mark on the bar (a step or a token time), 0 none */
    int par;               /* key presses, 0 none */
    const char *hint;      /* the hint revealed last, NULL none */
    int hint_no, hint_count;
    /* the screen's state */
    int cursor, picked, pick_dim; /* GPU ids; pick_dim -1: one GPU */
    int goal;                     /* 1 met, 0 not met, -1 the goal raised an error */
    const char *why;              /* why the goal is not met (scenario_view_why) */
    const char *msg;              /* the answer to the last key */
    const char *last;             /* the effect of the last move (scenario_view_effect) */
    const char *debrief;          /* shown once met, NULL none */
    bool met;                     /* the goal was met at least once */
    int explain;                  /* which figure is explained, -1 none */
    bool guessing;                /* a prediction waits for its answer */
    GuessAsk ask;
    const char *guess_verdict; /* the graded answer, NULL none */
    int scroll;                /* feedback lines skipped */
    int fresh;                 /* what answers the last key, shown first: SCENARIO_FRESH_* */
} ScenarioScreen;

/* The hint or the explanation answers the last key (h, e): it goes first
 * in the feedback, before the goal; otherwise it follows the goal, the
 * last move and the debrief. */
enum { SCENARIO_FRESH_NONE, SCENARIO_FRESH_HINT, SCENARIO_FRESH_EXPLAIN };

typedef struct {
    CanvasPoint cursor; /* the cursor's cell, -1 none */
    int lines;          /* feedback lines the state needs at this size */
    int scroll;         /* the scroll used (clamped to what there is) */
} ScenarioDrawn;

/* A state with nothing but the scenario: cursor 0, nothing picked, no goal. */
ScenarioScreen scenario_view_state(const Scenario *s);

/* Draws the scenario between rows top and bottom (inclusive) of c. */
void scenario_view_draw(Canvas *c, const ScenarioScreen *v, int top, int bottom,
                        ScenarioDrawn *out);

/* The groups the letters show: the picked kind, else the first dimension
 * with more than one rank among TP, EP, CP, PP, DP. */
MappingDim scenario_view_colour(const Scenario *s, int pick_dim);

/* Why the goal is not met: the goal's own reason (may be "") and then the
 * model's facts: the memory shortfall with need and have, the groups that
 * cross a domain, the site link or an oversubscribed spine, by letter
 * ("TP groups C and G cross servers: their all-reduces run at 50 GB/s
 * instead of 450 GB/s"). */
void scenario_view_why(const Scenario *s, const char *reason, bool ascii, char *buf, size_t n);

/* The effect of the last move: the part that changed most and the step (or
 * the time per token), "TP all-reduce 4.10 s → 0.30 s, step -38%". */
void scenario_view_effect(const Scenario *s, bool ascii, char *buf, size_t n);

/* The figures e explains, in order (the parts, then the step or token,
 * tokens/s and MFU), and one of them in words. */
int scenario_view_explain_count(const Scenario *s);
void scenario_view_explain(const Scenario *s, int which, bool ascii, char *buf, size_t n);

#endif
