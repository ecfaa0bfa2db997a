/* SPDX-License-Identifier: MIT */
/* lesson_local — lesson.c's side in the process that runs a lesson's Lua:
 * the lesson host's child (lesson_host.c), and tests and the fuzzer, which
 * load lessons in their own process to compare and to reach every line.
 * scalelab itself calls lesson.h, which runs all of this in a lesson host.
 *
 * A local Lesson owns its Sandbox; a Lesson that came from a host has none
 * and holds the Host instead (lesson_attach_host). The accessors of lesson.h
 * read either the same way.
 */
#ifndef SCALELAB_LESSON_LESSON_LOCAL_H
#define SCALELAB_LESSON_LESSON_LOCAL_H

#include "lesson/host.h"
#include "lesson/lesson.h"
#include "lesson/wire.h"

/* What a goal or a debrief sees of a scenario (the r table): its result,
 * cluster, mapping, micro-batch and start result. Plain values, so a
 * request to the host carries them as they are. */
typedef struct {
    StepResult r, start;
    Cluster c;
    Mapping m;
    int mb;
    bool has_start;
    bool serving; /* a serving scenario: serve and serve_start hold its decode steps */
    ServeResult serve, serve_start;
} LessonState;

void lesson_state_of(const Scenario *s, LessonState *st);

/* Reads the text of the lesson file at path (path names it in messages) in
 * a sandbox of this process, with the catalog's limits when quick. Never
 * NULL: the problems, if any, are in lesson_problem. */
Lesson *lesson_read_text(const char *path, const char *text, size_t len, bool quick);
int lesson_problem_count(const Lesson *l);
const char *lesson_problem(const Lesson *l, int i);
/* lesson_load (quick: lesson_load_quick) in this process. */
Lesson *lesson_load_local(const char *path, bool quick, char *err, size_t err_len);
bool lesson_is_local(const Lesson *l);
/* `check` of the text of the file at path, in this process; each note the
 * lesson made (scalelab.note) goes to note as "FILE:LINE: page N: text"
 * (NULL: not wanted). */
int lesson_check_local(const char *path, const char *text, size_t len, LessonReportFn report,
                       LessonReportFn note, void *ctx, char *id, size_t id_len);
/* lesson_scenario_goal_met and lesson_scenario_debrief_for of a local
 * lesson, on a state; the public ones route here or to the host. */
bool lesson_page_has_goal(const Lesson *l, int page);
int lesson_goal_local(Lesson *l, int page, const LessonState *st, char *why, size_t why_len,
                      char *err, size_t err_len);
bool lesson_debrief_local(Lesson *l, int page, const LessonState *st, const LessonPlay *play,
                          char *out, size_t out_len, char *err, size_t err_len);
/* The engine's own first line of a debrief (moves against par, search). */
void lesson_debrief_line(const Lesson *l, int page, const LessonPlay *play, char *buf, size_t n);
int lesson_stack_local(const Lesson *l);

/* A debrief's text as page markup: newlines kept, every other control
 * character a blank, cut to n - 1 bytes. */
void lesson_text_copy(const char *r, size_t len, char *out, size_t n);

/* The file name as messages show it (escaped, at most n - 1 bytes). */
void lesson_shown_name(const char *path, char *buf, size_t n);

/* A loaded lesson as it crosses from the host (every page, by the field
 * tables beside the structs in lesson.c), and back into a Lesson for path,
 * checked as it is read: NULL with why when anything is out of range or
 * does not hold together. */
void lesson_to_wire(const Lesson *l, Wire *w);
Lesson *lesson_from_wire(const char *path, WireIn *r, char *why, size_t n);
/* Whether two lessons hold the same, byte for byte but for the members
 * marked local (wire_same_struct); why names the first difference. */
bool lesson_same(const Lesson *a, const Lesson *b, char *why, size_t n);

/* The host of a lesson that came from one, with the file's text it was
 * loaded from (owned by the Lesson from then on) and the limits (quick: the
 * catalog's). */
void lesson_attach_host(Lesson *l, Host *h, char *source, size_t len, bool quick);
Host *lesson_host(const Lesson *l);
void lesson_set_host(Lesson *l, Host *h); /* NULL: gone (a fresh one starts on demand) */
const char *lesson_source(const Lesson *l, size_t *len);
bool lesson_is_quick(const Lesson *l);

#endif
