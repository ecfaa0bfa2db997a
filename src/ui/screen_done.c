/* SPDX-License-Identifier: MIT */
/* screen_done — the end of a lesson, shown when the learner goes past its
 * last page (see screens.h): the first-try score, the scenarios met and the
 * hints used, what is left to do (pages that keep the lesson from being
 * done, questions never answered right, those missed the first time) and
 * the next lesson of the menu. Drawn in the lesson page's frame; the
 * PageState (finished) holds all it needs.
 *
 * Pure: no curses. The Lesson and Progress are borrowed.
 */
#include "ui/screens.h"

#include "draw/text.h"
#include "lesson/lesson.h"
#include "ui/keymap.h"
#include "ui/keys.h"

#include <stdio.h>
#include <string.h>

/* The first page left to do, -1 when none. */
static int screen_done_first_left(const PageState *p)
{
    for (int i = 0; i < lesson_page_count(p->lesson); i++)
        if (screen_page_is_left(p, i))
            return i;
    return -1;
}

static void screen_done_back_to(PageState *p, int page)
{
    p->finished = false;
    if (page != p->page)
        screen_page_goto(p, page);
}

static int screen_done_key_enter(void *st, int key)
{
    (void)key;
    PageState *p = st;
    int left = screen_done_first_left(p);
    if (left >= 0) {
        screen_done_back_to(p, left);
        return SCREEN_NONE;
    }
    return p->next_title[0] ? SCREEN_NEXT : SCREEN_BACK;
}

static int screen_done_key_next(void *st, int key)
{
    (void)key;
    PageState *p = st;
    if (p->next_title[0])
        return SCREEN_NEXT;
    snprintf(p->message, sizeof p->message, "%s", "This is the last lesson here. Esc goes back.");
    return SCREEN_NONE;
}

static int screen_done_key_prev(void *st, int key)
{
    (void)key;
    PageState *p = st;
    screen_done_back_to(p, p->page);
    return SCREEN_NONE;
}

static int screen_done_key_back(void *st, int key)
{
    (void)st, (void)key;
    return SCREEN_BACK;
}

static int screen_done_key_help(void *st, int key)
{
    (void)key;
    ((PageState *)st)->help = true;
    return SCREEN_NONE;
}

static const KeyBinding screen_done_rows[] = {
    {{UIK_ENTER, ' '},
     "Enter, Space",
     "the next lesson; while pages are left, the first of them",
     NULL,
     0,
     screen_done_key_enter},
    {{'n', UIK_TAB, UIK_PGDN}, "n", "the next lesson", "n next lesson", 1, screen_done_key_next},
    {{'p', UIK_LEFT, UIK_BACKSPACE, UIK_BTAB, UIK_PGUP},
     "p, Left",
     "back to the last page",
     "p last page",
     2,
     screen_done_key_prev},
    {{UIK_ESC, 'q'}, "Esc, q", "back to the lesson menu", "Esc menu", 3, screen_done_key_back},
    {{'?'}, "?", "this help", NULL, 0, screen_done_key_help},
};
static const KeyTable screen_done_keys = KEYMAP_TABLE("End of the lesson keys", screen_done_rows);

ScreenAction screen_done_key(PageState *p, int key)
{
    const KeyBinding *b = keymap_find(&screen_done_keys, key);
    return b && b->fn ? (ScreenAction)b->fn(p, key) : SCREEN_NONE;
}

/* The counts the screen shows. */
typedef struct {
    int tried, right;   /* first tries recorded, right among them */
    int scenarios, met; /* scenario pages, goals met */
    int hints;          /* revealed on all pages */
    char wrong[300];    /* never answered right: "4 predict "One copy", 6 quiz "X"" */
    char missed[200];   /* pages missed the first time: "2, 4" */
    int n_wrong, n_missed;
} DoneCounts;

/* Appends piece to buf, after "; " unless buf is empty. */
static void screen_done_add(char *buf, size_t n, int *count, const char *piece)
{
    size_t used = strlen(buf);
    if (used + 1 < n)
        snprintf(buf + used, n - used, "%s%s", *count ? ", " : "", piece);
    (*count)++;
}

static DoneCounts screen_done_count(const PageState *p)
{
    DoneCounts d;
    memset(&d, 0, sizeof d);
    const char *id = lesson_id(p->lesson);
    d.tried = progress_first_tries(p->progress, id, &d.right);
    for (int i = 0; i < lesson_page_count(p->lesson); i++) {
        PageKind k = lesson_page_kind(p->lesson, i);
        ProgressExercise e;
        bool seen = progress_exercise(p->progress, id, i, &e);
        d.hints += progress_hints(p->progress, id, i);
        if (k == PAGE_SCENARIO) {
            d.scenarios++;
            d.met += progress_scenario_met(p->progress, id, i);
        }
        if (k != PAGE_QUIZ && k != PAGE_PREDICT)
            continue;
        char piece[160];
        if (!e.solved && seen && (e.tries > 0 || e.first >= 0)) {
            snprintf(piece, sizeof piece, "%d %s \"%s\"", i + 1,
                     k == PAGE_QUIZ ? "quiz" : "predict", lesson_page_title(p->lesson, i));
            screen_done_add(d.wrong, sizeof d.wrong, &d.n_wrong, piece);
        }
        if (progress_needs_review(p->progress, id, i)) {
            snprintf(piece, sizeof piece, "%d", i + 1);
            screen_done_add(d.missed, sizeof d.missed, &d.n_missed, piece);
        }
    }
    return d;
}

/* One "Label: text" line, wrapped under the label; returns the next row. */
static int screen_done_line(Canvas *c, int y, int bottom, const char *label, const char *text,
                            Style st)
{
    int w = canvas_width(c) - 8;
    if (y >= bottom)
        return y;
    int lw = canvas_put_text(c, 4, y, label, STYLE_BOLD);
    int used = text_draw_wrapped(c, 4 + lw + 1, y, w - lw - 1, bottom - y, text, st);
    return y + (used > 0 ? used : 1);
}

static void screen_done_body(Canvas *c, const PageState *p, int top, int bottom)
{
    bool ascii = canvas_is_ascii(c);
    DoneCounts d = screen_done_count(p);
    char left[200], line[400];
    int n_left = screen_page_left(p, left, sizeof left);
    int y = top;
    if (n_left == 0 && progress_mastered(p->progress, lesson_id(p->lesson)))
        snprintf(line, sizeof line, "Lesson mastered%s", ascii ? "." : " ✓");
    else if (n_left == 0 && d.n_missed)
        snprintf(line, sizeof line, "Lesson done%s Not mastered yet: %d to review",
                 ascii ? "." : " ✓", d.n_missed);
    else if (n_left == 0)
        snprintf(line, sizeof line, "Lesson complete%s", ascii ? "." : " ✓");
    else
        snprintf(line, sizeof line, "Not finished yet: %d page%s left", n_left,
                 n_left == 1 ? "" : "s");
    canvas_put_text_max(c, 2, y, canvas_width(c) - 4, line, n_left ? STYLE_WARNING : STYLE_GOOD);
    y += 2;
    if (d.tried)
        snprintf(line, sizeof line, "%d of %d question%s right (%d%%)", d.right, d.tried,
                 d.tried == 1 ? "" : "s", 100 * d.right / d.tried);
    else
        snprintf(line, sizeof line, "no question tried");
    y = screen_done_line(c, y, bottom, "First try:", line, STYLE_NORMAL);
    if (d.scenarios) {
        snprintf(line, sizeof line, "%d of %d goals met, %d hint%s used", d.met, d.scenarios,
                 d.hints, d.hints == 1 ? "" : "s");
        y = screen_done_line(c, y, bottom, "Scenarios:", line, STYLE_NORMAL);
    }
    y++;
    y = screen_done_line(c, y, bottom, "Pages left:", n_left ? left : "none",
                         n_left ? STYLE_WARNING : STYLE_NORMAL);
    if (d.n_wrong)
        y = screen_done_line(c, y, bottom, "Never answered right:", d.wrong, STYLE_NORMAL);
    if (d.n_missed) {
        snprintf(line, sizeof line, "page%s %s (R in the menu replays %s)",
                 d.n_missed == 1 ? "" : "s", d.missed, d.n_missed == 1 ? "it" : "them");
        y = screen_done_line(c, y, bottom, "Missed the first time:", line, STYLE_NORMAL);
    }
    y++;
    int first = screen_done_first_left(p);
    if (first >= 0 && p->next_title[0])
        snprintf(line, sizeof line,
                 "Enter goes to page %d, the first page left; n opens the "
                 "next lesson, %s.",
                 first + 1, p->next_title);
    else if (first >= 0)
        snprintf(line, sizeof line, "Enter goes to page %d, the first page left.", first + 1);
    else if (p->next_title[0])
        snprintf(line, sizeof line, "Next lesson: %s. Enter opens it.", p->next_title);
    else
        snprintf(line, sizeof line, "Esc goes back.");
    if (y < bottom)
        text_draw_wrapped(c, 4, y, canvas_width(c) - 8, bottom - y, line, STYLE_EMPH);
}

void screen_done_draw(Canvas *c, PageState *p, ScreenCursor *cur)
{
    int w = canvas_width(c), h = canvas_height(c);
    char title[512], foot[2][400];
    snprintf(title, sizeof title, "%s — the end", lesson_title(p->lesson));
    const KeyTable *tables[1] = {&screen_done_keys};
    keymap_footer(tables, 1, w - 2, 1, canvas_is_ascii(c), foot);
    int top = screen_frame(c, title, "done", foot[0], NULL);
    int bottom = h - 2;
    screen_done_body(c, p, top + 1, bottom);
    if (p->message[0])
        canvas_put_text_max(c, 1, bottom, w - 2, p->message, STYLE_WARNING);
    cur->x = 2;
    cur->y = top + 1;
    if (p->help)
        keymap_help_draw(c, tables, 1);
}
