/* SPDX-License-Identifier: MIT */
/* screen_quiz — the quiz page (see screen_quiz.h).
 *
 * What the learner sees never gives the answer away before it is earned:
 * a wrong choice is marked and explained on its own; the right choice is
 * marked only once it is picked or revealed, and only then do all the
 * explanations show. Positions on screen are 1-based and follow q->order.
 *
 * Pure: no curses.
 */
#include "ui/screen_quiz.h"

#include "base/utf8.h"
#include "base/xmem.h"
#include "draw/text.h"
#include "learn/quiz.h"
#include "lesson/lesson.h"
#include "ui/keymap.h"
#include "ui/keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void screen_quiz_open(QuizView *q, const Lesson *l, int page, Progress *pr, bool review)
{
    memset(q, 0, sizeof *q);
    q->last = -1;
    q->review = review;
    q->n = lesson_quiz_order(l, page, progress_seed(pr), q->order, SCREEN_QUIZ_MAX);
    if (!pr || review)
        return;
    ProgressExercise e;
    bool correct = false;
    int answer = progress_quiz_answer(pr, lesson_id(l), page, &correct);
    if (progress_exercise(pr, lesson_id(l), page, &e) && e.solved && correct && answer >= 0 &&
        answer < q->n) {
        q->solved = true;
        q->last = answer;
        for (int k = 0; k < q->n; k++)
            if (q->order[k] == answer)
                q->sel = k;
    }
}

/* The position on screen of the right choice (the first one marked). */
static int screen_quiz_right_pos(const QuizView *q, const Lesson *l, int page)
{
    for (int k = 0; k < q->n; k++)
        if (lesson_quiz_is_correct(l, page, q->order[k]))
            return k;
    return 0;
}

static void screen_quiz_answer(QuizView *q, const Lesson *l, int page, Progress *pr, int pos)
{
    int choice = q->order[pos];
    bool ok = lesson_quiz_is_correct(l, page, choice);
    const char *id = lesson_id(l);
    bool first = q->n_wrong == 0 && !q->revealed;
    q->sel = pos;
    q->last = choice;
    if (q->review && !q->reviewed) {
        progress_record_review(pr, id, page, ok, NULL, 0);
        q->reviewed = true;
    } else if (!q->review && !q->solved) {
        progress_record_try(pr, id, page, choice, ok, NULL, 0);
    }
    if (ok) {
        q->solved = true;
        snprintf(q->msg, sizeof q->msg, "%s Every explanation is shown now; n goes on.",
                 first ? "Right, at the first try." : "Right.");
        return;
    }
    if (!q->tried[choice])
        q->n_wrong++;
    q->tried[choice] = true;
    if (q->n_wrong >= QUIZ_WRONG_TRIES && !q->revealed)
        snprintf(q->msg, sizeof q->msg, "Not %d either. Try another, or press a for the answer.",
                 pos + 1);
    else
        snprintf(q->msg, sizeof q->msg, "Not %d: read why, then try another.", pos + 1);
}

ScreenAction screen_quiz_key(QuizView *q, const Lesson *l, int page, Progress *pr, int key)
{
    q->msg[0] = '\0';
    if (key >= '1' && key <= '9' && key - '1' < q->n) {
        if (q->solved) {
            q->sel = key - '1';
            snprintf(q->msg, sizeof q->msg, "Answered. n goes on; p goes back.");
            return SCREEN_NONE;
        }
        screen_quiz_answer(q, l, page, pr, key - '1');
        return SCREEN_NONE;
    }
    if ((key == UIK_UP || key == 'k') && q->sel > 0) {
        q->sel--;
        return SCREEN_NONE;
    }
    if ((key == UIK_DOWN || key == 'j') && q->sel + 1 < q->n) {
        q->sel++;
        return SCREEN_NONE;
    }
    if (key == UIK_ENTER && !q->solved) {
        screen_quiz_answer(q, l, page, pr, q->sel);
        return SCREEN_NONE;
    }
    if (key == 'a' && !q->solved) {
        if (q->n_wrong < QUIZ_WRONG_TRIES) {
            snprintf(q->msg, sizeof q->msg, "Try %d more before the answer is shown.",
                     QUIZ_WRONG_TRIES - q->n_wrong);
            return SCREEN_NONE;
        }
        q->revealed = true;
        int pos = screen_quiz_right_pos(q, l, page);
        q->sel = pos;
        snprintf(q->msg, sizeof q->msg, "The answer is %d: read why, then press %d to take it.",
                 pos + 1, pos + 1);
        return SCREEN_NONE;
    }
    return SCREEN_PASS;
}

/* The mark before choice `choice` and its style: only what was earned. */
static const char *screen_quiz_mark(const QuizView *q, const Lesson *l, int page, int choice,
                                    bool ascii, Style *st)
{
    bool right = lesson_quiz_is_correct(l, page, choice);
    bool open = q->solved || q->revealed;
    *st = STYLE_NORMAL;
    if (open && right) {
        *st = STYLE_GOOD;
        return ascii ? "+ right " : "✓ right ";
    }
    if (q->tried[choice] || (open && choice == q->last && !right)) {
        *st = STYLE_BAD;
        return ascii ? "x wrong " : "✗ wrong ";
    }
    return "";
}

void screen_quiz_draw(Canvas *c, const QuizView *q, const Lesson *l, int page, int x, int top,
                      int w, int bottom, ScreenCursor *cur)
{
    bool ascii = canvas_is_ascii(c);
    const char *text = lesson_page_text(l, page);
    int half = (bottom - top) / 2;
    int qh = text_draw_markup(c, x, top, w, half, text, 0);
    if (qh > half)
        qh = half;
    int y = top + qh + 1;
    if (q->review && y < bottom) {
        canvas_put_text_max(c, x, y - 1, w, "Review: a question you missed the first time.",
                            STYLE_WARNING);
        y++;
    }
    bool open = q->solved || q->revealed;
    for (int k = 0; k < q->n && y < bottom; k++) {
        int choice = q->order[k];
        Style st;
        const char *mark = screen_quiz_mark(q, l, page, choice, ascii, &st);
        char lead[16];
        snprintf(lead, sizeof lead, "%d) ", k + 1);
        int cx = x + 2;
        canvas_put_text(c, cx, y, lead, STYLE_BOLD);
        int tw = utf8_width(lead);
        if (*mark)
            tw += canvas_put_text(c, cx + tw, y, mark, st);
        int used = text_draw_wrapped(c, cx + tw, y, w - 2 - tw, bottom - y,
                                     lesson_quiz_choice(l, page, choice), st);
        if (k == q->sel) {
            canvas_set_style(c, cx, y, 2, 1, STYLE_SELECTED);
            cur->x = cx;
            cur->y = y;
        }
        y += used > 0 ? used : 1;
        if ((open || q->tried[choice]) && y < bottom) {
            const char *ex = lesson_quiz_explanation(l, page, choice);
            if (ex && *ex)
                y += text_draw_wrapped(c, cx + 3, y, w - 5, bottom - y, ex, STYLE_DIM);
        }
    }
}

/* ---- the quiz as a page kind (screen_page.c's table) ---- */

static void screen_kind_quiz_open(PageState *p)
{
    p->quiz = xmem_calloc(1, sizeof *p->quiz);
    screen_quiz_open(p->quiz, p->lesson, p->page, p->progress, p->review);
}

static void screen_kind_quiz_close(PageState *p)
{
    free(p->quiz);
    p->quiz = NULL;
}

static ScreenAction screen_kind_quiz_key(PageState *p, int key)
{
    if (!p->quiz)
        return SCREEN_PASS;
    ScreenAction a = screen_quiz_key(p->quiz, p->lesson, p->page, p->progress, key);
    if (a != SCREEN_PASS && p->quiz->msg[0])
        snprintf(p->message, sizeof p->message, "%s", p->quiz->msg);
    return a;
}

static void screen_kind_quiz_draw(Canvas *c, PageState *p, int top, int bottom, ScreenCursor *cur)
{
    if (p->quiz)
        screen_quiz_draw(c, p->quiz, p->lesson, p->page, 2, top, canvas_width(c) - 4, bottom, cur);
}

/* The keys for the footer and the ? overlay; screen_quiz_key runs them. */
static const KeyBinding screen_quiz_rows[] = {
    {{'1', '2', '3', '4', '5', '6', '7', '8', '9'},
     "1-9",
     "answer with that choice",
     "1-9 answer",
     0,
     NULL},
    {{UIK_UP, UIK_DOWN, 'k', 'j'}, "Up/Down, k/j", "move the selection", NULL, 0, NULL},
    {{UIK_ENTER},
     "Enter",
     "answer with the selected choice (once right: next page)",
     NULL,
     0,
     NULL},
    {{'a'}, "a", "show the answer, after two wrong tries", "a answer", 3, NULL},
};
static const KeyTable screen_quiz_keys = KEYMAP_TABLE("Quiz keys", screen_quiz_rows);

const ScreenPageKind screen_kind_quiz = {
    "quiz",
    screen_kind_quiz_open,
    screen_kind_quiz_close,
    screen_kind_quiz_key,
    screen_kind_quiz_draw,
    &screen_quiz_keys,
    1,
};
