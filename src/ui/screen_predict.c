/* SPDX-License-Identifier: MIT */
/* screen_predict — the predict page (see screen_predict.h).
 *
 * The verdict line is predict_grade's message as it is (it never gives the
 * answer away); the answer and the formula appear only once the page is
 * solved or out of tries. An entry that is not a quantity of the right
 * kind is explained and costs no try.
 *
 * Pure: no curses.
 */
#include "ui/screen_predict.h"

#include "base/utf8.h"
#include "base/xmem.h"
#include "draw/text.h"
#include "lesson/lesson.h"
#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/lineedit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void screen_predict_open(PredictView *v, const Lesson *l, int page, Progress *pr, bool review)
{
    memset(v, 0, sizeof *v);
    v->review = review;
    ProgressExercise e;
    if (!pr || review || !progress_exercise(pr, lesson_id(l), page, &e))
        return;
    /* Solved or out of tries on an earlier visit: show the answer again. */
    if (e.solved || e.tries >= PREDICT_TRIES) {
        v->solved = e.solved;
        v->shown = true;
        v->tries = e.tries;
    }
}

static void screen_predict_grade(PredictView *v, const Lesson *l, int page, Progress *pr,
                                 bool ascii)
{
    PredictSpec spec;
    if (!lesson_predict_spec(l, page, &spec) || !v->input[0])
        return;
    PredictGrade g;
    PredictVerdict verdict = predict_grade(&spec, v->input, ascii, &g);
    snprintf(v->typed, sizeof v->typed, "%s", v->input);
    v->grade = g;
    if (!predict_counts_as_try(verdict)) {
        /* The verdict line repeats what was typed; the entry starts afresh. */
        v->input[0] = '\0';
        snprintf(v->msg, sizeof v->msg, "Not counted as a try: type it again and press Enter.");
        return;
    }
    bool right = verdict == PREDICT_RIGHT;
    const char *id = lesson_id(l);
    if (v->review && !v->reviewed) {
        progress_record_review(pr, id, page, right && v->tries == 0, NULL, 0);
        v->reviewed = true;
    } else if (!v->review) {
        progress_record_try(pr, id, page, -1, right, NULL, 0);
    }
    v->tries++;
    v->input[0] = '\0';
    if (right) {
        v->solved = v->shown = true;
        snprintf(v->msg, sizeof v->msg, "%s The model's working is below; n goes on.",
                 v->tries == 1 ? "Right at the first try." : "Right.");
    } else if (v->tries >= PREDICT_TRIES) {
        v->shown = true;
        snprintf(v->msg, sizeof v->msg, "Out of tries: the answer and the working are below.");
    } else {
        snprintf(v->msg, sizeof v->msg, "%d tr%s left.", PREDICT_TRIES - v->tries,
                 PREDICT_TRIES - v->tries == 1 ? "y" : "ies");
    }
}

ScreenAction screen_predict_key(PredictView *v, const Lesson *l, int page, Progress *pr, int key)
{
    if (v->shown)
        return SCREEN_PASS;
    v->msg[0] = '\0';
    if (key == UIK_ENTER) {
        if (!v->input[0])
            snprintf(v->msg, sizeof v->msg, "Type a number with its unit first, e.g. 0.3 ms.");
        screen_predict_grade(v, l, page, pr, true);
        return SCREEN_NONE;
    }
    if (key == '?') /* never part of a quantity: the help */
        return SCREEN_PASS;
    /* An answer starts with a digit, so on an empty entry the page letters
     * (n/p page, r reload, q) keep their meaning, as the footer says. */
    if (!v->input[0] && key < 0x80 && strchr("npqr", key))
        return SCREEN_PASS;
    return lineedit_key(v->input, sizeof v->input, key) ? SCREEN_NONE : SCREEN_PASS;
}

/* "The model's answer: 2.22 ms (right within ±20%); the largest term is
 * bandwidth, 99% of it." */
static void screen_predict_answer_line(const Lesson *l, int page, bool ascii, char *buf, size_t n)
{
    PredictSpec spec;
    char ans[40] = "?", term[120] = "";
    double tol = PREDICT_TOLERANCE_DEFAULT;
    if (lesson_predict_spec(l, page, &spec)) {
        predict_format(&spec, spec.answer, ascii, ans, sizeof ans);
        tol = spec.tolerance > 0 ? spec.tolerance : tol;
        int d = predict_dominant_term(&spec);
        if (d >= 0)
            snprintf(term, sizeof term, "; the largest term is %.60s, %.0f%% of it",
                     spec.terms[d].name, 100 * spec.terms[d].value / spec.answer);
    }
    snprintf(buf, n, "The model's answer: %s (right within %s%.0f%%)%s.", ans, ascii ? "+/-" : "±",
             tol * 100, term);
}

void screen_predict_draw(Canvas *c, const PredictView *v, const Lesson *l, int page, int x,
                         int top, int w, int bottom, ScreenCursor *cur)
{
    bool ascii = canvas_is_ascii(c);
    int room = bottom - top;
    int y = top;
    int th = text_draw_markup(c, x, y, w, room / 3, lesson_page_text(l, page), 0);
    y += (th < room / 3 ? th : room / 3) + 1;
    if (v->review && y < bottom)
        canvas_put_text_max(c, x, y++, w, "Review: a number you missed the first time.",
                            STYLE_WARNING);
    if (y < bottom)
        y += text_draw_wrapped(c, x, y, w, bottom - y, lesson_predict_question(l, page),
                               STYLE_BOLD);
    if (y + 1 < bottom) {
        char line[160];
        snprintf(line, sizeof line, "Your answer: %s", v->shown ? "" : v->input);
        y++;
        int lw = canvas_put_text_max(c, x, y, w, line, STYLE_NORMAL);
        if (!v->shown) {
            canvas_put_text(c, x + lw, y, "_", STYLE_CURSOR);
            cur->x = x + lw;
            cur->y = y;
            char tries[48];
            snprintf(tries, sizeof tries, "try %d of %d", v->tries + 1, PREDICT_TRIES);
            int tw = utf8_width(tries);
            if (x + w - tw > x + lw + 4)
                canvas_put_text(c, x + w - tw, y, tries, STYLE_DIM);
        }
        y += 2;
    }
    if (v->typed[0] && y < bottom) {
        char verdict[560];
        snprintf(verdict, sizeof verdict, "%s: %s", v->typed, v->grade.msg);
        Style st = v->grade.verdict == PREDICT_RIGHT        ? STYLE_GOOD
                   : v->grade.verdict == PREDICT_UNREADABLE ? STYLE_WARNING
                                                            : STYLE_BAD;
        y += text_draw_wrapped(c, x, y, w, bottom - y, verdict, st) + 1;
    }
    if (!v->shown || y >= bottom)
        return;
    char ans[240];
    screen_predict_answer_line(l, page, ascii, ans, sizeof ans);
    y += text_draw_wrapped(c, x, y, w, bottom - y, ans, v->solved ? STYLE_GOOD : STYLE_BOLD);
    const char *formula = lesson_predict_formula(l, page);
    if (*formula && y + 1 < bottom)
        text_draw_markup(c, x, y + 1, w, bottom - y - 1, formula, 0);
}

/* ---- the predict page as a page kind (screen_page.c's table) ---- */

static void screen_kind_predict_open(PageState *p)
{
    p->predict = xmem_calloc(1, sizeof *p->predict);
    screen_predict_open(p->predict, p->lesson, p->page, p->progress, p->review);
}

static void screen_kind_predict_close(PageState *p)
{
    free(p->predict);
    p->predict = NULL;
}

static ScreenAction screen_kind_predict_key(PageState *p, int key)
{
    if (!p->predict)
        return SCREEN_PASS;
    ScreenAction a = screen_predict_key(p->predict, p->lesson, p->page, p->progress, key);
    if (a != SCREEN_PASS && p->predict->msg[0])
        snprintf(p->message, sizeof p->message, "%s", p->predict->msg);
    return a;
}

static void screen_kind_predict_draw(Canvas *c, PageState *p, int top, int bottom,
                                     ScreenCursor *cur)
{
    int w = canvas_width(c) - 4;
    if (w > SCREEN_MEASURE)
        w = SCREEN_MEASURE;
    if (p->predict)
        screen_predict_draw(c, p->predict, p->lesson, p->page, (canvas_width(c) - w) / 2, top, w,
                            bottom, cur);
}

/* The keys for the footer and the ? overlay; screen_predict_key runs them.
 * Until the answer shows, every printable key types. */
static const KeyBinding screen_predict_rows[] = {
    {{UIK_ENTER},
     "Enter",
     "check the number typed (e.g. 0.3 ms, 450 GB/s)",
     "Enter check",
     0,
     NULL},
    {{UIK_BACKSPACE}, "Backspace", "delete the last character", "Backspace delete", 3, NULL},
    {{UIK_TAB, UIK_PGDN},
     "Tab, PgDn",
     "next page (n types while the answer is open)",
     "Tab next",
     1,
     NULL},
};
static const KeyTable screen_predict_keys = KEYMAP_TABLE("Predict keys", screen_predict_rows);

const ScreenPageKind screen_kind_predict = {
    "predict",
    screen_kind_predict_open,
    screen_kind_predict_close,
    screen_kind_predict_key,
    screen_kind_predict_draw,
    &screen_predict_keys,
    1,
};
