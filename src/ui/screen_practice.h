/* SPDX-License-Identifier: MIT */
/* screen_practice — `scalelab practice` in the UI: one exercise at a time
 * from a PracticeRun (learn/practice.h), graded as the learner answers.
 *
 * Kinds on screen:
 *   - mapping: the scenario part of a page (screen_scenario.c) on the
 *     exercise's cluster and start, TP/PP/DP/EP, micro-batch and placement
 *     moves allowed (the search is off: it is what grades), checked after
 *     every move against the search's best. First try: passed in at most
 *     twice par moves without asking for the answer.
 *   - predict: a line to type the number with its unit, graded by
 *     predict_grade; three counted tries, then the answer.
 *   - bottleneck and tier: the step parts, or the tiers, as choices; two
 *     wrong tries, then the answer.
 *   - placement: the scenario part of a page on the scattered start, only
 *     moves allowed, checked after every move against the model's spans.
 *     First try: fixed in at most twice par moves.
 * After each exercise the worked answer is shown, the run's level follows
 * the result, and progress keeps tried / first try / streak per kind.
 *
 * Pure: no curses. The state owns its exercise and scenario; it borrows the
 * progress store (may be NULL: nothing kept).
 */
#ifndef SCALELAB_UI_SCREEN_PRACTICE_H
#define SCALELAB_UI_SCREEN_PRACTICE_H

#include "draw/canvas.h"
#include "learn/practice.h"
#include "store/progress.h"
#include "ui/screens.h"
#include <stdbool.h>
#include <stdint.h>

#define PRACTICE_PART_TRIES 2 /* wrong choices before the answer shows */

typedef struct {
    PracticeRun run;
    int kind; /* < 0: kinds take turns; else only this kind */
    Practice ex;
    bool have;          /* ex holds an exercise */
    char error[300];    /* the exercise could not be made */
    Progress *progress; /* borrowed */
    bool from_menu;     /* q and Esc go back to the menu instead of quitting */

    int tries; /* counted tries on this exercise */
    bool done, passed, first_try, gave_up;
    char feedback[600];
    char input[64]; /* predict: what is typed */
    int sel;        /* bottleneck, tier: the highlighted choice */
    bool wrong[PRACTICE_MAX_CHOICES];
    PageState page; /* mapping, placement: the scenario (lesson NULL) */
    bool page_open;
    int scroll; /* lines of the worked answer scrolled */
    bool help;

    int session_done, session_first; /* this session's counts, for the header */
} PracticeScreen;

/* Starts a run: seed_given ? seed : a seed from the learner's progress (new
 * exercises each session); level <= 0: the level progress keeps. */
void screen_practice_init(PracticeScreen *ps, Progress *progress, uint64_t seed, bool seed_given,
                          int kind, int level);
void screen_practice_fini(PracticeScreen *ps);
ScreenAction screen_practice_key(PracticeScreen *ps, int key);
void screen_practice_draw(Canvas *c, PracticeScreen *ps, ScreenCursor *cur);

#endif
