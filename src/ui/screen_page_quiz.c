/* screen_page_quiz — the quiz page as it plugs into screen_page.c today
 * (screen_kind_quiz): the question, numbered choices, and once answered,
 * right/wrong marks and every choice's explanation. 1-9 answer at once;
 * Up/Down move the selection and Enter answers it. The answer is recorded
 * in progress. screen_quiz.c (QuizView: the learner's order, tries, `a`)
 * takes this place when it is hooked in. Pure: no curses.
 */
#include "ui/screens.h"

#include "base/utf8.h"
#include "draw/text.h"
#include "lesson/lesson.h"
#include "ui/keys.h"
#include "ui/keymap.h"

#include <stdio.h>
#include <string.h>

static void screen_quiz_open(PageState *p)
{
    if (!p->progress)
        return;
    bool correct;
    p->quiz_answer = progress_quiz_answer(p->progress, lesson_id(p->lesson), p->page, &correct);
    if (p->quiz_answer >= lesson_quiz_choice_count(p->lesson, p->page))
        p->quiz_answer = -1;
    if (p->quiz_answer >= 0)
        p->quiz_sel = p->quiz_answer;
}

static void screen_quiz_answer(PageState *p, int choice)
{
    int n = lesson_quiz_choice_count(p->lesson, p->page);
    if (choice < 0 || choice >= n)
        return;
    p->quiz_sel = choice;
    p->quiz_answer = choice;
    bool ok = lesson_quiz_is_correct(p->lesson, p->page, choice);
    if (p->progress)
        progress_set_quiz(p->progress, lesson_id(p->lesson), p->page, choice, ok, NULL, 0);
    snprintf(p->message, sizeof p->message, "%s",
             ok ? "Right. The explanations are under each choice; n goes on."
                : "Not this one: read why under each choice, then try another.");
}

static int screen_quiz_key_number(void *st, int key)
{
    PageState *p = st;
    if (key - '1' >= lesson_quiz_choice_count(p->lesson, p->page))
        return SCREEN_PASS;
    screen_quiz_answer(p, key - '1');
    return SCREEN_NONE;
}

static int screen_quiz_key_move(void *st, int key)
{
    PageState *p = st;
    int n = lesson_quiz_choice_count(p->lesson, p->page);
    if ((key == UIK_UP || key == 'k') && p->quiz_sel > 0)
        p->quiz_sel--;
    else if ((key == UIK_DOWN || key == 'j') && p->quiz_sel + 1 < n)
        p->quiz_sel++;
    return SCREEN_NONE;
}

static int screen_quiz_key_enter(void *st, int key)
{
    (void)key;
    PageState *p = st;
    screen_quiz_answer(p, p->quiz_sel);
    return SCREEN_NONE;
}

static const KeyBinding screen_quiz_rows[] = {
    {{'1', '2', '3', '4', '5', '6', '7', '8', '9'}, "1-9", "answer with that choice",
     "1-9 answer", 0, screen_quiz_key_number},
    {{UIK_UP, UIK_DOWN, 'k', 'j'}, "Up/Down, k/j", "move the selection", NULL, 0,
     screen_quiz_key_move},
    {{UIK_ENTER}, "Enter", "answer with the selected choice", NULL, 0, screen_quiz_key_enter},
};
static const KeyTable screen_quiz_keys = KEYMAP_TABLE("Quiz keys", screen_quiz_rows);

static ScreenAction screen_quiz_key(PageState *p, int key)
{
    const KeyBinding *b = keymap_find(&screen_quiz_keys, key);
    return b ? (ScreenAction)b->fn(p, key) : SCREEN_PASS;
}

static void screen_quiz_draw(Canvas *c, PageState *p, int top, int bottom,
                                  ScreenCursor *cur)
{
    bool ascii = canvas_is_ascii(c);
    int w = canvas_width(c);
    const char *q = lesson_page_text(p->lesson, p->page);
    int qh = text_draw_markup(c, 2, top, w - 4, (bottom - top) / 2, q, 0);
    if (qh > (bottom - top) / 2)
        qh = (bottom - top) / 2;
    int y = top + qh + 1;
    int n = lesson_quiz_choice_count(p->lesson, p->page);
    for (int i = 0; i < n && y < bottom; i++) {
        char lead[32];
        const char *mark = "";
        Style st = STYLE_NORMAL;
        if (p->quiz_answer >= 0) {
            bool ok = lesson_quiz_is_correct(p->lesson, p->page, i);
            mark = ok ? (ascii ? "+ right " : "✓ right ") : (ascii ? "x wrong " : "✗ wrong ");
            st = ok ? STYLE_GOOD : (i == p->quiz_answer ? STYLE_BAD : STYLE_NORMAL);
        }
        snprintf(lead, sizeof lead, "%d) ", i + 1);
        int x = 4;
        canvas_put_text(c, x, y, lead, STYLE_BOLD);
        int tw = utf8_width(lead);
        if (*mark)
            tw += canvas_put_text(c, x + tw, y, mark, st);
        char choice[600];
        snprintf(choice, sizeof choice, "%s%s", lesson_quiz_choice(p->lesson, p->page, i),
                 i == p->quiz_answer ? (ascii ? "  <- your answer" : "  ← your answer") : "");
        int used = text_draw_wrapped(c, x + tw, y, w - x - tw - 2, bottom - y, choice,
                                     p->quiz_answer >= 0 ? st : STYLE_NORMAL);
        if (i == p->quiz_sel) {
            canvas_set_style(c, x, y, 2, 1, STYLE_SELECTED);
            cur->x = x;
            cur->y = y;
        }
        y += used > 0 ? used : 1;
        if (p->quiz_answer >= 0) {
            const char *ex = lesson_quiz_explanation(p->lesson, p->page, i);
            if (ex && *ex && y < bottom)
                y += text_draw_wrapped(c, x + 3, y, w - x - 5, bottom - y, ex, STYLE_DIM);
        }
    }
}

const ScreenPageKind screen_kind_quiz = {
    "quiz", screen_quiz_open, NULL, screen_quiz_key, screen_quiz_draw, &screen_quiz_keys, 1,
};
