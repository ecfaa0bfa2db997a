/* SPDX-License-Identifier: MIT */
/* screen_predict — a predict page: the situation, the question, a line the
 * learner types a number with its unit into, the verdict of predict_grade
 * after each Enter, the answer after PREDICT_TRIES tries, then the formula.
 * Tries and the first-try result go into progress (a review records a
 * review instead).
 *
 * Pure: no curses. Each call gets the Lesson, the page and the Progress
 * (which may be NULL).
 */
#ifndef SCALELAB_UI_SCREEN_PREDICT_H
#define SCALELAB_UI_SCREEN_PREDICT_H

#include "learn/predict.h"
#include "ui/screens.h"

typedef struct PredictView {
    char input[48]; /* what is being typed (printable ASCII and UTF-8 letters like µ) */
    int tries;      /* graded tries on this visit */
    bool solved;    /* right within the tolerance */
    bool shown;     /* the answer is shown (solved, or out of tries) */
    bool review;
    bool reviewed;
    char typed[48];     /* the last graded entry */
    PredictGrade grade; /* its verdict (valid when typed[0]) */
    char msg[400];      /* one status line */
} PredictView;

void screen_predict_open(PredictView *v, const Lesson *l, int page, Progress *pr, bool review);
/* While the answer is open, every printable key types; Backspace deletes;
 * Enter grades. SCREEN_PASS for the rest (Esc, Tab, PgDn, arrows) and, once
 * the answer is shown, for every key. */
ScreenAction screen_predict_key(PredictView *v, const Lesson *l, int page, Progress *pr, int key);
void screen_predict_draw(Canvas *c, const PredictView *v, const Lesson *l, int page, int x,
                         int top, int w, int bottom, ScreenCursor *cur);

#endif
