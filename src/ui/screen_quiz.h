/* SPDX-License-Identifier: MIT */
/* screen_quiz — a quiz page that tests: choices in the learner's own order
 * (quiz_order on the progress seed), a wrong answer shows only its own
 * explanation, the learner tries again, after QUIZ_WRONG_TRIES wrong tries
 * `a` shows the answer, and the first try goes into progress. In a review
 * the answer is recorded as a review instead.
 *
 * Pure: no curses. The view borrows nothing between calls: each call gets
 * the Lesson, the page and the Progress (which may be NULL).
 */
#ifndef SCALELAB_UI_SCREEN_QUIZ_H
#define SCALELAB_UI_SCREEN_QUIZ_H

#include "ui/screens.h"

#define SCREEN_QUIZ_MAX 64 /* choices (the lesson's own limit) */

typedef struct QuizView {
    int order[SCREEN_QUIZ_MAX]; /* position on screen -> choice in the file */
    int n;
    int sel;                     /* selected position */
    bool tried[SCREEN_QUIZ_MAX]; /* choice (file order) answered wrong */
    int n_wrong;                 /* wrong tries on this visit */
    int last;                    /* last choice answered (file order), -1 none */
    bool solved;                 /* answered right */
    bool revealed;               /* the answer was shown with `a` */
    bool review;                 /* this visit is part of a review */
    bool reviewed;               /* the review's first answer is recorded */
    char msg[400];               /* one status line */
} QuizView;

/* Opens the quiz on page `page`: the learner's order, and what progress
 * already says (a quiz solved earlier shows solved). */
void screen_quiz_open(QuizView *q, const Lesson *l, int page, Progress *pr, bool review);
/* Digits, Up/Down, Enter and `a`; SCREEN_PASS for any other key (and for
 * Enter once solved, so it turns the page). */
ScreenAction screen_quiz_key(QuizView *q, const Lesson *l, int page, Progress *pr, int key);
/* Draws the question and the choices in rows [top, bottom) of width w at x. */
void screen_quiz_draw(Canvas *c, const QuizView *q, const Lesson *l, int page, int x, int top,
                      int w, int bottom, ScreenCursor *cur);

#endif
