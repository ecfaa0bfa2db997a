/* SPDX-License-Identifier: MIT */
/* progress — what a learner has done: lessons started and finished, the page
 * they were on and when, scenarios solved (with the hints they used) and quiz
 * answers.
 *
 * Kept in $XDG_STATE_HOME/scalelab/progress (fallback ~/.local/state/scalelab/)
 * as short text lines, rewritten whole after every change: temporary file in
 * the same folder, fsync, rename, so a kill at any moment leaves either the
 * old file or the new one. A file that cannot be read or parsed is reported
 * once (progress_open's note), set aside under a name of its own ("<path>.corrupt-<UTC
 * time>-<n>", never overwriting an earlier one) and a fresh
 * store is started; nothing here aborts or prints.
 *
 * No curses, no Lua. Lesson ids are the catalog's ids; ids with white space
 * or control characters are refused (never written). The caller owns what
 * progress_open returns; progress_free accepts NULL.
 */
#ifndef SCALELAB_STORE_PROGRESS_H
#define SCALELAB_STORE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { PROGRESS_NEW, PROGRESS_STARTED, PROGRESS_DONE } ProgressStatus;

typedef struct Progress Progress;

/* The default file: $XDG_STATE_HOME/scalelab/progress when XDG_STATE_HOME is
 * an absolute path, else $HOME/.local/state/scalelab/progress. NULL when
 * neither can be formed (no HOME) or the path does not fit in n. */
const char *progress_default_path(char *buf, size_t n);

/* Opens the store at path (NULL: an in-memory store that never saves). A
 * missing file is an empty store, but when its folder cannot be created or
 * written the note says progress will not be kept. On a corrupt or unreadable
 * file a one-line
 * note is written to note (else note is ""), the file is moved aside when
 * possible, and an empty store is returned. Never NULL. */
Progress *progress_open(const char *path, char *note, size_t note_len);
/* Reads the file at path without changing anything on disk (a file handed
 * in, read by `scalelab report`): any version the store has written. NULL
 * with a one-line reason when it cannot be read or is not a progress file.
 * The store returned is in memory: it never saves. */
Progress *progress_load(const char *path, char *err, size_t err_len);
void progress_free(Progress *p);
const char *progress_path(const Progress *p); /* NULL for an in-memory store */

ProgressStatus progress_status(const Progress *p, const char *lesson_id);
/* Last page visited (0 when never). */
int progress_page(const Progress *p, const char *lesson_id);
/* When the lesson's record last changed, seconds since 1970 (0: not known,
 * as in files written before the store kept it). Every change below sets it. */
long long progress_last_active(const Progress *p, const char *lesson_id);
/* The lessons the store has a record of, in the order first recorded. */
int progress_lesson_count(const Progress *p);
const char *progress_lesson_id(const Progress *p, int i); /* NULL out of range */
/* Scenario page solved; hints revealed on it (even when not solved). */
bool progress_scenario_met(const Progress *p, const char *lesson_id, int page);
int progress_hints(const Progress *p, const char *lesson_id, int page);
/* Quiz: the choice answered (-1 when not answered) and whether it was right. */
int progress_quiz_answer(const Progress *p, const char *lesson_id, int page, bool *correct);

/* Changes. Each marks the lesson started (never un-done) and saves at once;
 * they return false when the save failed (err says why) but keep the change
 * in memory. err may be NULL. progress_set_quiz sets the answer alone;
 * progress_record_try below also keeps the first try. */
bool progress_visit(Progress *p, const char *lesson_id, int page, char *err, size_t err_len);
bool progress_set_hints(Progress *p, const char *lesson_id, int page, int hints, char *err,
                        size_t err_len);
bool progress_set_scenario_met(Progress *p, const char *lesson_id, int page, char *err,
                               size_t err_len);
bool progress_set_quiz(Progress *p, const char *lesson_id, int page, int choice, bool correct,
                       char *err, size_t err_len);
bool progress_set_done(Progress *p, const char *lesson_id, char *err, size_t err_len);

/* The learner's random seed (never 0): made when the store is new, kept in
 * the file, so quiz_order gives this learner the same order after a reload. */
uint64_t progress_seed(const Progress *p);

/* Quiz, predict and scenario pages as exercises. */
typedef struct {
    int first;      /* first try: -1 not tried (or unknown), 0 wrong, 1 right */
    int tries;      /* tries counted (a quiz answer, a graded predict entry) */
    bool solved;    /* answered right, or the scenario's goal met */
    bool search;    /* a scenario's search was used */
    int reviews;    /* times the page came up in a review */
    bool review_ok; /* the last review was right at the first try */
    int moves;      /* moves a scenario took when its goal was met (0: none) */
} ProgressExercise;
/* False (and *out for a page never seen) when nothing is recorded. */
bool progress_exercise(const Progress *p, const char *lesson_id, int page, ProgressExercise *out);
/* One try on a quiz (answer = the choice, in file order) or predict page
 * (answer -1): the first one is kept as the first-try result, tries count
 * up, and the page stays solved once right. */
bool progress_record_try(Progress *p, const char *lesson_id, int page, int answer, bool right,
                         char *err, size_t err_len);
/* A prediction on a scenario page (before a move the lesson marks): the
 * first one is kept as the page's first try and tries count up, as for a
 * question; the scenario's goal is not touched. */
bool progress_record_prediction(Progress *p, const char *lesson_id, int page, bool right,
                                char *err, size_t err_len);
/* A page replayed in a review, answered right at once or not. */
bool progress_record_review(Progress *p, const char *lesson_id, int page, bool right_at_once,
                            char *err, size_t err_len);
bool progress_set_search_used(Progress *p, const char *lesson_id, int page, char *err,
                              size_t err_len);
bool progress_set_moves(Progress *p, const char *lesson_id, int page, int moves, char *err,
                        size_t err_len);
/* Pages of the lesson with a first try recorded; *right of them right
 * ("4/5 first try"). */
int progress_first_tries(const Progress *p, const char *lesson_id, int *right);
/* Missed at the first try and not yet right at once in a review. */
bool progress_needs_review(const Progress *p, const char *lesson_id, int page);
/* Done and mastered, the two marks a finished lesson can have:
 *   done      every page seen and every check answered (a quiz answered
 *             right, in the end; a predict page right or out of tries; a
 *             scenario's goal met), set by progress_set_done when the
 *             learner leaves the last page with nothing left to do;
 *   mastered  done, and every check right at the first try, or right at
 *             once when it came up again in a review (R): no page of the
 *             lesson needs a review.
 * A done lesson with checks still to review is done, not mastered. */
bool progress_mastered(const Progress *p, const char *lesson_id);
/* The pages that need a review, in page order, into pages[0..max) (pages
 * may be NULL); returns how many there are (may exceed max). */
int progress_review_pages(const Progress *p, const char *lesson_id, int *pages, int max);

/* Practice (learn/practice.h): per exercise kind ("mapping", "predict",
 * "bottleneck"), exercises tried, passed on the first try, and the current
 * streak of first-try passes; and the level the learner reached. */
typedef struct {
    int tried, first_try, streak;
} ProgressPractice;

ProgressPractice progress_practice(const Progress *p, const char *kind); /* zeros when none */
int progress_practice_level(const Progress *p);                          /* 1 when never */
/* Records one finished exercise of kind and the level now reached; saves. */
bool progress_add_practice(Progress *p, const char *kind, bool first_try, int level, char *err,
                           size_t err_len);

/* Writes the store now (atomically). True for an in-memory store. */
bool progress_save(Progress *p, char *err, size_t err_len);
/* Why the last save failed, reported once: the first call after a failed
 * save returns the reason, later calls NULL until another save fails after
 * one succeeded. */
const char *progress_take_error(Progress *p);

#endif
