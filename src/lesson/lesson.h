/* SPDX-License-Identifier: MIT */
/* lesson — loading a lesson file in a Lua sandbox and reading its pages.
 *
 * A lesson is a Lua file that returns { id, title, summary, track, order,
 * pages = {...} } (format: lessons/AUTHORING.md). Lessons are untrusted: each
 * runs in a lesson host, a child process with OS limits (lesson/host.h), in
 * one fresh sandboxed lua_State with instruction, time, memory and pattern
 * limits; nothing here lets a script touch files or processes. The host
 * sends the loaded pages over; the accessors below read that copy, and the
 * goal and debrief calls travel to the host (which a crash replaces).
 *
 * Every error is one line "file:line: message", escaped so no control
 * character reaches the terminal. This header does not include lua.h: only
 * src/lesson/ sees Lua.
 *
 * Ownership: lesson_load returns a Lesson the caller frees with lesson_free
 * (NULL accepted). Strings returned are owned by the Lesson and live until it
 * is freed or reloaded.
 */
#ifndef SCALELAB_LESSON_LESSON_H
#define SCALELAB_LESSON_LESSON_H

#include "base/msg.h"
#include "learn/guess.h"
#include "learn/predict.h"
#include "learn/scenario.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    PAGE_TEXT,
    PAGE_DIAGRAM,
    PAGE_SCENARIO,
    PAGE_QUIZ,
    PAGE_COMPARE,
    PAGE_PREDICT,
} PageKind;

typedef struct Lesson Lesson;

/* Loads and validates the file. NULL on error, with "file:line: message". */
Lesson *lesson_load(const char *path, char *err, size_t err_len);
void lesson_free(Lesson *l);
/* lesson_load with the tighter limits of a folder listing (catalog). */
Lesson *lesson_load_quick(const char *path, char *err, size_t err_len);
int lesson_minutes(const Lesson *l); /* estimated length, 0 when not given */
/* For tests: the Lua stack height of the lesson's state (0 between calls). */
int lesson_debug_stack_top(const Lesson *l);
/* The source line of a page's `kind =` (for messages), 0 when unknown. */
int lesson_page_line(const Lesson *l, int page);
/* Chart diagrams (view "chart"): the swept parameter ("tp", "pp", "dp",
 * "ep", "cp", "mb", "domain", "gpus") into x and up to max values; returns
 * the number of values, 0 when the page has no chart. */
int lesson_page_chart(const Lesson *l, int page, char *x, size_t x_len, double *values, int max);

const char *lesson_path(const Lesson *l);
const char *lesson_id(const Lesson *l);
const char *lesson_title(const Lesson *l);
const char *lesson_summary(const Lesson *l);
const char *lesson_track(const Lesson *l);
int lesson_order(const Lesson *l);
int lesson_page_count(const Lesson *l);

PageKind lesson_page_kind(const Lesson *l, int page);
const char *lesson_page_title(const Lesson *l, int page);
/* Body text in light markup (# heading, *emphasis*, `code`, "- " bullets):
 * the text of a text page, the caption of a diagram, the briefing of a
 * scenario, the question of a quiz, the situation of a predict page. Never
 * NULL (may be ""). */
const char *lesson_page_text(const Lesson *l, int page);

/* Presenter steps (`steps` in the page table): on a scenario page, moves in
 * scenario_apply_text form, applied one per key; on any other page, the
 * pieces of the page's text ("lines" or "paragraphs"), in order, each a
 * substring of lesson_page_text. 0 when the page declares none. */
int lesson_page_step_count(const Lesson *l, int page);
const char *lesson_page_step(const Lesson *l, int page, int i); /* "" out of range */

/* The picture a diagram page asks for (`view =`). ui/ and cmd/ turn it into
 * a draw/ view; lesson/ does not see draw/. */
typedef enum { PAGE_VIEW_RACK, PAGE_VIEW_FABRIC, PAGE_VIEW_BAR, PAGE_VIEW_CHART } PageView;
/* The most numbers a chart page's `values` may hold. */
#define LESSON_CHART_MAX_POINTS 64

/* Diagram and compare pages: what to draw. For compare pages, side 0 and 1;
 * for diagrams, side 0 only. Returns false with err when the page's cluster
 * cannot be built. The caller frees *placement (may be NULL = default). */
typedef struct {
    PageView view;
    Cluster cluster;
    Workload workload;
    Mapping mapping;
    Placement *placement;
    char label[64];
} LessonDiagram;
bool lesson_page_diagram(const Lesson *l, int page, int side, LessonDiagram *out, char *err,
                         size_t err_len);

/* Scenario pages. */
Scenario *lesson_scenario_start(const Lesson *l, int page, char *err, size_t err_len);
const char *lesson_scenario_goal_text(const Lesson *l, int page);
int lesson_scenario_hint_count(const Lesson *l, int page);
const char *lesson_scenario_hint(const Lesson *l, int page, int i);
/* The debrief as written when it is a string ("" when it is a function). */
const char *lesson_scenario_debrief(const Lesson *l, int page);
/* A prediction before a move (`predict = { at =, ask = }`): the kind of
 * move it waits for and the question; false when the page has none. */
bool lesson_scenario_guess(const Lesson *l, int page, GuessSpec *out);
/* A serving scenario (`serve = { batch =, context = }`): its load; false
 * when the page is judged as training. */
bool lesson_scenario_serve(const Lesson *l, int page, ServeLoad *out);
/* The kind of a move in scenario_apply_text form ("group tp 3 to 8": a
 * group move), GUESS_AT_ANY when it is none of them. */
GuessAt lesson_move_kind(const char *move);
/* par: key presses of the reference solution as the keys type it (0 when
 * the page declares none). */
int lesson_scenario_par(const Lesson *l, int page);
/* The goal as numbers to draw (goal.target = { step_s =, ... }, or those
 * keys in the goal table itself); a field is 0 when not given. */
typedef struct {
    double step_s;            /* at most */
    double tokens_per_s;      /* at least */
    double power_w;           /* at most */
    double mem_per_gpu_bytes; /* at most */
    double token_s;           /* at most: a serving scenario's time per token */
} LessonTarget;
bool lesson_scenario_target(const Lesson *l, int page, LessonTarget *out);
/* What the learner did, for the debrief and the goal's r table. */
typedef struct {
    int moves;        /* key presses from the start to the final state (scenario_presses) */
    int hints;        /* hints revealed */
    bool used_search; /* a search result was applied */
} LessonPlay;
/* The debrief for the final state s: a debrief function runs in the
 * sandbox on the goal's r table (plus r.moves, r.par, r.hints, r.search);
 * a string debrief is copied. The engine's own line comparing moves with
 * par and naming search use comes first. Returns false on a script error (err
 * says where; out still gets the engine's line). */
bool lesson_scenario_debrief_for(Lesson *l, int page, const Scenario *s, const LessonPlay *play,
                                 char *out, size_t out_len, char *err, size_t err_len);
/* Reference solution: moves in scenario_apply_text form. */
int lesson_scenario_solution_count(const Lesson *l, int page);
const char *lesson_scenario_solution_move(const Lesson *l, int page, int i);
/* Runs the page's goal function on the scenario's current result, in the
 * sandbox. Returns 1 met, 0 not met, -1 on a script error (err says where).
 * When not met and the goal returns a reason string, it goes to why. */
int lesson_scenario_goal_met(Lesson *l, int page, const Scenario *s, char *why, size_t why_len,
                             char *err, size_t err_len);

/* Quiz pages. */
int lesson_quiz_choice_count(const Lesson *l, int page);
const char *lesson_quiz_choice(const Lesson *l, int page, int i);
bool lesson_quiz_is_correct(const Lesson *l, int page, int i);
const char *lesson_quiz_explanation(const Lesson *l, int page, int i);
/* calc = true: the question needs a calculation, not recall. */
bool lesson_quiz_is_calc(const Lesson *l, int page);
/* The choices in the order one learner sees them (quiz_order on the
 * learner's seed, the lesson id and the page); returns the count (at most
 * max), 0 when the page is not a quiz. */
int lesson_quiz_order(const Lesson *l, int page, uint64_t seed, int *order, int max);

/* Predict pages: the question, the formula shown after the answer (may be
 * ""), and the grading spec (strings and terms owned by the Lesson). False
 * when the page is not a predict page. */
const char *lesson_predict_question(const Lesson *l, int page);
const char *lesson_predict_formula(const Lesson *l, int page);
bool lesson_predict_spec(const Lesson *l, int page, PredictSpec *out);

/* Validation as `scalelab check` does it: structure, presets, goals callable,
 * scenarios evaluate. Writes every problem, one "file:line: message" per
 * line, through report; returns the number of problems. */
typedef void (*LessonReportFn)(void *ctx, const char *line);
int lesson_check_file(const char *path, LessonReportFn report, void *ctx);
/* The same, and the lesson's id into id (empty when it has problems), so a
 * caller comparing ids need not load the file a second time: one file, one
 * budget. */
int lesson_check_file_id(const char *path, LessonReportFn report, void *ctx, char *id,
                         size_t id_len);

/* Notes the lesson's code made with scalelab.note, for its author (never
 * for a learner): while the file loaded, and (a local lesson, or `check`)
 * while its goals and debriefs ran. page is 0-based, -1 for a note outside
 * the pages; text is escaped. At most 200 notes and 32 KB are kept, each at
 * most 400 bytes; lesson_notes_dropped counts the rest. */
int lesson_note_count(const Lesson *l);
const char *lesson_note(const Lesson *l, int i, int *page, int *line); /* "" out of range */
int lesson_notes_dropped(const Lesson *l);
/* Note i as `check --notes` prints it: "FILE:LINE: page N: text". */
void lesson_note_line(const Lesson *l, int i, char *buf, size_t n);
/* lesson_check_file_id, and each note to note (NULL: not wanted). */
int lesson_check_file_notes(const char *path, LessonReportFn report, LessonReportFn note,
                            void *ctx, char *id, size_t id_len);

#endif
