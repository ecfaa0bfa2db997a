/* SPDX-License-Identifier: MIT */
/* screen_page — one page of a lesson: the frame (header "Title — page 3/9",
 * the footer made from the key tables, one status line), the keys every
 * page shares, and the dispatch to the page kind's own part (the table of
 * ScreenPageKind below: scenarios in screen_scenario.c, quizzes in
 * screen_quiz.c; a new kind adds a file and one row). Also the page bodies
 * lesson pages and presenter mode share (text, diagram, compare), drawn
 * with a PageLayout. Errors from the lesson show on the page with file:line
 * and the program stays up.
 *
 * Progress: entering a page records the visit; quiz and predict pages
 * record their tries; "next" on the last page opens the end-of-lesson
 * screen (screen_done.c) and marks the lesson done when every scenario is
 * solved, every quiz answered right and every predict page answered
 * (right, or out of tries); that screen says which pages are left.
 * A review (screen_page_start_review) walks only the pages missed at the
 * first try and never marks the lesson done.
 * Pure: no curses. The Lesson and Progress are borrowed.
 */
#include "ui/screens.h"

#include "base/xmem.h"
#include "draw/charts.h"
#include "draw/diagram.h"
#include "draw/text.h"
#include "lesson/lesson.h"
#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/screen_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ScreenPageKind screen_kind_text = {"text", NULL, NULL, NULL, NULL, NULL, 1};
static const ScreenPageKind screen_kind_diagram = {"diagram", NULL, NULL, NULL, NULL, NULL, 1};
static const ScreenPageKind screen_kind_compare = {"compare", NULL, NULL, NULL, NULL, NULL, 1};

/* Each page kind's part, by PageKind. */
const ScreenPageKind *screen_page_kind(PageKind k)
{
    switch (k) {
    case PAGE_TEXT:
        return &screen_kind_text;
    case PAGE_DIAGRAM:
        return &screen_kind_diagram;
    case PAGE_COMPARE:
        return &screen_kind_compare;
    case PAGE_SCENARIO:
        return &screen_kind_scenario;
    case PAGE_QUIZ:
        return &screen_kind_quiz;
    case PAGE_PREDICT:
        return &screen_kind_predict;
    }
    return &screen_kind_text;
}

static void screen_page_enter(PageState *p)
{
    p->scroll = 0;
    p->lines = 0;
    p->page_error[0] = '\0';
    if (!p->lesson)
        return;
    const char *id = lesson_id(p->lesson);
    if (p->progress)
        progress_visit(p->progress, id, p->page, NULL, 0);
    const ScreenPageKind *k = screen_page_kind(lesson_page_kind(p->lesson, p->page));
    if (k->open)
        k->open(p);
}

static void screen_page_leave(PageState *p)
{
    const ScreenPageKind *k =
        p->lesson ? screen_page_kind(lesson_page_kind(p->lesson, p->page)) : NULL;
    if (k && k->close)
        k->close(p);
    screen_scenario_close(p); /* the scenario state is cleared on every page */
}

void screen_page_init(PageState *p, Lesson *l, const char *path, const char *load_error,
                      Progress *progress, int page)
{
    memset(p, 0, sizeof *p);
    p->scn.picked = -1;
    p->scn.explain = -1;
    p->lesson = l;
    p->progress = progress;
    snprintf(p->path, sizeof p->path, "%s", path ? path : "");
    snprintf(p->load_error, sizeof p->load_error, "%s", load_error ? load_error : "");
    int n = l ? lesson_page_count(l) : 0;
    p->page = page < 0 ? 0 : page >= n ? (n > 0 ? n - 1 : 0) : page;
    screen_page_enter(p);
}

void screen_page_fini(PageState *p)
{
    screen_page_leave(p);
}

void screen_page_set_lesson(PageState *p, Lesson *l, const char *load_error)
{
    screen_page_leave(p);
    p->lesson = l;
    snprintf(p->load_error, sizeof p->load_error, "%s", load_error ? load_error : "");
    int n = l ? lesson_page_count(l) : 0;
    if (p->page >= n)
        p->page = n > 0 ? n - 1 : 0;
    p->help = p->notes = false;
    p->finished = false;
    screen_page_enter(p);
    snprintf(p->message, sizeof p->message, "%s",
             l ? "Reloaded from disk." : "Reload failed: the error is shown above.");
}

void screen_page_goto(PageState *p, int n)
{
    int count = p->lesson ? lesson_page_count(p->lesson) : 0;
    if (n < 0 || n >= count || n == p->page)
        return;
    screen_page_leave(p);
    p->page = n;
    screen_page_enter(p);
}

bool screen_page_is_left(const PageState *p, int i)
{
    const char *id = lesson_id(p->lesson);
    ProgressExercise e;
    progress_exercise(p->progress, id, i, &e);
    switch (lesson_page_kind(p->lesson, i)) {
    case PAGE_SCENARIO:
        return !progress_scenario_met(p->progress, id, i);
    case PAGE_QUIZ:
        return !e.solved;
    case PAGE_PREDICT:
        return !e.solved && e.tries < PREDICT_TRIES;
    default:
        return false;
    }
}

/* Grouped by kind in the order the kinds first come, so that a status line
 * of 80 columns holds a long list: "2 predict; 3, 5, 8 scenario; 9, 10 quiz". */
int screen_page_left(const PageState *p, char *buf, size_t n)
{
    int left = 0, pages = lesson_page_count(p->lesson);
    size_t used = 0;
    buf[0] = '\0';
    for (int first = 0; first < pages; first++) {
        if (!screen_page_is_left(p, first))
            continue;
        PageKind kind = lesson_page_kind(p->lesson, first);
        bool seen = false; /* this kind already listed with an earlier page */
        for (int j = 0; j < first && !seen; j++)
            seen = lesson_page_kind(p->lesson, j) == kind && screen_page_is_left(p, j);
        if (seen)
            continue;
        int written = 0;
        for (int i = first; i < pages; i++) {
            if (lesson_page_kind(p->lesson, i) != kind || !screen_page_is_left(p, i))
                continue;
            left++;
            const char *sep = written++ ? ", " : used ? "; " : "";
            int w = snprintf(buf + used, n - used, "%s%d", sep, i + 1);
            if (w > 0 && used + (size_t)w < n)
                used += (size_t)w;
        }
        int w = snprintf(buf + used, n - used, " %s", screen_page_kind(kind)->name);
        if (w > 0 && used + (size_t)w < n)
            used += (size_t)w;
    }
    return left;
}

bool screen_page_start_review(PageState *p)
{
    if (!p->lesson || !p->progress) {
        snprintf(p->message, sizeof p->message, "Nothing to review.");
        return false;
    }
    int n = progress_review_pages(p->progress, lesson_id(p->lesson), p->review_pages,
                                  SCREEN_REVIEW_MAX);
    if (n > SCREEN_REVIEW_MAX)
        n = SCREEN_REVIEW_MAX;
    int kept = 0; /* pages the lesson still has, quiz or predict */
    for (int i = 0; i < n; i++) {
        int pg = p->review_pages[i];
        PageKind k = lesson_page_kind(p->lesson, pg);
        if (pg < lesson_page_count(p->lesson) && (k == PAGE_QUIZ || k == PAGE_PREDICT))
            p->review_pages[kept++] = pg;
    }
    if (kept == 0) {
        snprintf(p->message, sizeof p->message,
                 "Nothing to review: every question was right at the first try, or reviewed.");
        return false;
    }
    screen_page_leave(p);
    p->review = true;
    p->n_review = kept;
    p->review_at = 0;
    p->page = p->review_pages[0];
    screen_page_enter(p);
    snprintf(p->message, sizeof p->message, "Review: %d question%s missed the first time.", kept,
             kept == 1 ? "" : "s");
    return true;
}

/* n in a review: the next missed page, after the last one the menu. */
static ScreenAction screen_page_review_next(PageState *p)
{
    if (p->review_at + 1 >= p->n_review) {
        p->review = false; /* the caller closes the page */
        return SCREEN_BACK;
    }
    p->review_at++;
    screen_page_leave(p);
    p->page = p->review_pages[p->review_at];
    screen_page_enter(p);
    snprintf(p->message, sizeof p->message, "Review: question %d of %d.", p->review_at + 1,
             p->n_review);
    return SCREEN_NONE;
}

static ScreenAction screen_page_next(PageState *p)
{
    if (p->review)
        return screen_page_review_next(p);
    int n = lesson_page_count(p->lesson);
    if (p->page + 1 < n) {
        screen_page_goto(p, p->page + 1);
        return SCREEN_NONE;
    }
    /* Past the last page: the end-of-lesson screen, the lesson done when
     * nothing is left. */
    char left[200];
    if (p->progress && screen_page_left(p, left, sizeof left) == 0)
        progress_set_done(p->progress, lesson_id(p->lesson), NULL, 0);
    p->finished = true;
    p->help = false;
    return SCREEN_NONE;
}

/* ---- the keys every page shares ---- */

static int screen_page_key_next(void *st, int key)
{
    (void)key;
    return screen_page_next(st);
}

static int screen_page_key_prev(void *st, int key)
{
    (void)key;
    PageState *p = st;
    if (p->review) {
        if (p->review_at > 0) {
            p->review_at--;
            screen_page_leave(p);
            p->page = p->review_pages[p->review_at];
            screen_page_enter(p);
        }
        return SCREEN_NONE;
    }
    screen_page_goto(p, p->page - 1);
    return SCREEN_NONE;
}

static int screen_page_key_scroll(void *st, int key)
{
    PageState *p = st;
    if ((key == UIK_DOWN || key == 'j') && p->scroll + 1 < p->lines)
        p->scroll++;
    else if ((key == UIK_UP || key == 'k') && p->scroll > 0)
        p->scroll--;
    return SCREEN_NONE;
}

static int screen_page_key_reload(void *st, int key)
{
    (void)st, (void)key;
    return SCREEN_RELOAD;
}

static int screen_page_key_back(void *st, int key)
{
    (void)st, (void)key;
    return SCREEN_BACK;
}

static int screen_page_key_notes(void *st, int key)
{
    (void)key;
    ((PageState *)st)->notes = true;
    return SCREEN_NONE;
}

/* The author view: the notes the lesson's code made for this page and
 * outside any page, "LINE: text", in a box over the page. */
static void screen_page_draw_notes(Canvas *c, const PageState *p)
{
    enum { MAX = 60 };
    const char *lines[MAX + 2];
    static char buf[MAX][480];
    int n = 0;
    for (int i = 0; i < lesson_note_count(p->lesson) && n < MAX; i++) {
        int page, line;
        const char *text = lesson_note(p->lesson, i, &page, &line);
        if (page != p->page && page >= 0)
            continue;
        snprintf(buf[n], sizeof buf[n], "%s %d: %s", page < 0 ? "lesson, line" : "line", line,
                 text);
        lines[n] = buf[n];
        n++;
    }
    if (n == 0)
        lines[n++] = "No notes on this page: scalelab.note(value) in the lesson records one.";
    lines[n] = NULL;
    screen_help_draw(c, "Author notes (scalelab.note)", lines);
}

static int screen_page_key_help(void *st, int key)
{
    (void)key;
    ((PageState *)st)->help = true;
    return SCREEN_NONE;
}

/* S is the program's (app.c writes the SVG): listed here, run there. */
static const KeyBinding screen_page_rows[] = {
    {{'n', UIK_TAB, UIK_PGDN}, "n, Tab, PgDn", "next page", "n/p page", 0, screen_page_key_next},
    {{'p', UIK_BTAB, UIK_PGUP},
     "p, Shift-Tab, PgUp",
     "previous page",
     NULL,
     0,
     screen_page_key_prev},
    {{' ', UIK_RIGHT, UIK_ENTER},
     "Space, Right, Enter",
     "next page",
     NULL,
     0,
     screen_page_key_next},
    {{UIK_LEFT, UIK_BACKSPACE}, "Left, Backspace", "previous page", NULL, 0, screen_page_key_prev},
    {{UIK_DOWN, UIK_UP, 'j', 'k'},
     "Up/Down, j/k",
     "scroll a long page",
     NULL,
     0,
     screen_page_key_scroll},
    {{'r'},
     "r",
     "reload the lesson file (saving it in an editor does too)",
     "r reload",
     7,
     screen_page_key_reload},
    {{'S'}, "S", "save this screen as SVG (the path is shown)", "S SVG", 9, NULL},
    {{'N'}, "N", "author view: this page's notes (scalelab.note)", NULL, 0, screen_page_key_notes},
    {{UIK_ESC, 'q'}, "Esc, q", "back to the lesson menu", "Esc menu", 0, screen_page_key_back},
    {{'?'}, "?", "this help", NULL, 0, screen_page_key_help},
};
const KeyTable screen_page_keys = KEYMAP_TABLE("Lesson page keys", screen_page_rows);

ScreenAction screen_page_key(PageState *p, int key)
{
    if (p->help || p->notes) {
        p->help = p->notes = false;
        return SCREEN_NONE;
    }
    p->message[0] = '\0';
    if (p->finished && p->lesson)
        return screen_done_key(p, key);
    if (!p->lesson && key != 'r')
        return key == UIK_ESC || key == 'q' ? SCREEN_BACK : SCREEN_NONE;
    if (p->lesson && !p->page_error[0]) {
        const ScreenPageKind *k = screen_page_kind(lesson_page_kind(p->lesson, p->page));
        if (k->key) {
            ScreenAction a = k->key(p, key);
            if (a != SCREEN_PASS)
                return a;
        }
    }
    const KeyBinding *b = keymap_find(&screen_page_keys, key);
    return b && b->fn ? (ScreenAction)b->fn(p, key) : SCREEN_NONE;
}

/* ---- page bodies, shared with presenter mode ---- */

void screen_page_draw_error(Canvas *c, int x, int y, int w, int h, const char *err)
{
    canvas_put_text_max(c, x, y, w, "This page has an error:", STYLE_BAD);
    int used = text_draw_wrapped(c, x, y + 1, w, h - 3, err, STYLE_BAD);
    if (used > h - 3)
        used = h - 3;
    canvas_put_text_max(c, x, y + 2 + used, w,
                        "Fix the lesson file and press r to reload, or Esc to leave.",
                        STYLE_NORMAL);
}

/* The text column of a layout: margins, at most the measure, centred. */
static void screen_page_column(const Canvas *c, const PageLayout *lay, int *x, int *w)
{
    int cw = canvas_width(c);
    *w = cw - 2 * lay->margin;
    if (lay->measure > 0 && *w > lay->measure)
        *w = lay->measure;
    *x = lay->measure > 0 ? (cw - *w) / 2 : lay->margin;
}

/* Markup up to lay->shown bytes; returns the lines the shown text needs. */
static int screen_page_markup(Canvas *c, int x, int y, int w, int h, const char *text,
                              const PageLayout *lay)
{
    size_t len = strlen(text);
    if (lay->shown >= len)
        return text_draw_markup(c, x, y, w, h, text, lay->scroll);
    char *shown = xmem_alloc(lay->shown + 1);
    memcpy(shown, text, lay->shown);
    shown[lay->shown] = '\0';
    int used = text_draw_markup(c, x, y, w, h, shown, lay->scroll);
    free(shown);
    return used;
}

int screen_page_body_text(Canvas *c, const Lesson *l, int page, int top, int bottom,
                          const PageLayout *lay)
{
    int x, w;
    screen_page_column(c, lay, &x, &w);
    return screen_page_markup(c, x, top, w, bottom - top, lesson_page_text(l, page), lay);
}

ViewKind screen_page_view(PageView v)
{
    _Static_assert(LESSON_CHART_MAX_POINTS <= CHART_MAX_POINTS,
                   "a lesson chart must fit the chart view");
    switch (v) {
    case PAGE_VIEW_FABRIC:
        return VIEW_FABRIC;
    case PAGE_VIEW_BAR:
        return VIEW_BAR;
    case PAGE_VIEW_CHART:
        return VIEW_CHART;
    case PAGE_VIEW_RACK:
        break;
    }
    return VIEW_RACK;
}

/* The rows a view gets to lay itself out in, as `render` gives it. */
#define SCREEN_DIAGRAM_ROWS 60

/* Draws dg whole off screen, then the dh rows of it from lay->scroll on at
 * (2, top); when it needs more rows than that, the row under them (the
 * spare row above a caption, else the last of the dh) says which rows show
 * and that Up and Down scroll (so a fabric's legend is never lost at
 * 80x24). Returns the scroll positions there are (1: none). */
static int screen_page_diagram_window(Canvas *c, int top, int dh, bool spare_row,
                                      const Diagram *dg, const PageLayout *lay)
{
    int scroll = lay->scroll;
    int w = canvas_width(c) - 4;
    char err[MSG_LEN] = "";
    bool ascii = canvas_is_ascii(c);
    Canvas *full = canvas_new(w, SCREEN_DIAGRAM_ROWS);
    canvas_set_ascii(full, ascii);
    int used = diagram_draw(full, 0, 0, w, SCREEN_DIAGRAM_ROWS, dg, err, sizeof err);
    if (used <= 0 && err[0]) {
        screen_page_draw_error(c, 2, top, w, dh, err);
        canvas_free(full);
        return 1;
    }
    int rows = used <= dh || spare_row ? dh : dh - 1, last = used - rows;
    if (scroll > last)
        scroll = last;
    if (scroll < 0 || used <= dh)
        scroll = 0;
    Canvas *win = canvas_new(w, rows);
    canvas_set_ascii(win, ascii);
    canvas_blit(win, 0, -scroll, full);
    canvas_blit(c, 2, top, win);
    canvas_free(win);
    canvas_free(full);
    if (used <= dh)
        return 1;
    char more[96];
    snprintf(more, sizeof more, "%s rows %d-%d of %d: %s",
             scroll < last ? (ascii ? "v" : "▼") : (ascii ? "^" : "▲"), scroll + 1, scroll + rows,
             used, lay->fixed ? "a taller window shows them all" : "Up/Down scroll");
    canvas_put_text_max(c, 2, top + rows, w, more, STYLE_DIM);
    return last + 1;
}

int screen_page_body_diagram(Canvas *c, const Lesson *l, int page, int top, int bottom,
                             const PageLayout *lay)
{
    int w = canvas_width(c), x, tw;
    screen_page_column(c, lay, &x, &tw);
    const char *caption = lesson_page_text(l, page);
    int cap_h = *caption ? text_wrap_count(caption, tw) : 0;
    if (cap_h > (bottom - top) / 3)
        cap_h = (bottom - top) / 3;
    LessonDiagram d;
    char err[MSG_LEN] = "";
    if (!lesson_page_diagram(l, page, 0, &d, err, sizeof err)) {
        screen_page_draw_error(c, 2, top, w - 4, bottom - top, err);
        return 0;
    }
    int dh = bottom - top - cap_h - (cap_h ? 1 : 0);
    char cx[16] = "";
    double values[LESSON_CHART_MAX_POINTS];
    Diagram dg = diagram_of(screen_page_view(d.view), &d.cluster);
    dg.workload = &d.workload;
    dg.mapping = &d.mapping;
    dg.placement = d.placement;
    if (d.view == PAGE_VIEW_CHART) {
        dg.chart_n = lesson_page_chart(l, page, cx, sizeof cx, values, LESSON_CHART_MAX_POINTS);
        dg.chart_x = cx;
        dg.chart_values = values;
    }
    int lines = screen_page_diagram_window(c, top, dh, cap_h > 0, &dg, lay);
    placement_free(d.placement);
    PageLayout cap = *lay;
    cap.scroll = 0; /* Up and Down scroll the diagram */
    if (cap_h)
        screen_page_markup(c, x, bottom - cap_h, tw, cap_h, caption, &cap);
    return lines;
}

int screen_page_body_compare(Canvas *c, const Lesson *l, int page, int top, int bottom,
                             const PageLayout *lay)
{
    int w = canvas_width(c), x, tw;
    screen_page_column(c, lay, &x, &tw);
    const char *caption = lesson_page_text(l, page);
    int cap_h = *caption ? text_wrap_count(caption, tw) : 0;
    if (cap_h > 4)
        cap_h = 4;
    int lines = cap_h ? screen_page_markup(c, x, top, tw, cap_h, caption, lay) : 0;
    top += cap_h + (cap_h ? 1 : 0);
    CompareSide sides[2];
    for (int side = 0; side < 2; side++) {
        LessonDiagram d;
        char err[MSG_LEN] = "";
        if (!lesson_page_diagram(l, page, side, &d, err, sizeof err)) {
            screen_compare_side_error(&sides[side], side ? "right" : "left", err);
            continue;
        }
        screen_compare_side_set(&sides[side], d.label, &d.cluster, &d.workload, &d.mapping,
                                d.placement);
        placement_free(d.placement);
    }
    screen_compare_draw(c, 2, top, w - 4, bottom - top, sides);
    screen_compare_side_fini(&sides[0]);
    screen_compare_side_fini(&sides[1]);
    return lines;
}

/* ---- the frame ---- */

static PageLayout screen_page_layout(const PageState *p)
{
    PageLayout lay = {2, SCREEN_MEASURE, (size_t)-1, p->scroll, false};
    return lay;
}

static void screen_page_draw_body(Canvas *c, PageState *p, PageKind kind, int top, int bottom,
                                  ScreenCursor *cur)
{
    PageLayout lay = screen_page_layout(p);
    int h = bottom - top;
    switch (kind) {
    case PAGE_TEXT:
        p->lines = screen_page_body_text(c, p->lesson, p->page, top, bottom, &lay);
        if (p->lines > h) {
            char more[64];
            snprintf(more, sizeof more, "lines %d-%d of %d (Up/Down)", p->scroll + 1,
                     p->scroll + h < p->lines ? p->scroll + h : p->lines, p->lines);
            canvas_put_text(c, canvas_width(c) - 2 - (int)strlen(more), bottom, more, STYLE_DIM);
        }
        return;
    case PAGE_DIAGRAM:
        p->lines = screen_page_body_diagram(c, p->lesson, p->page, top, bottom, &lay);
        return;
    case PAGE_COMPARE:
        p->lines = screen_page_body_compare(c, p->lesson, p->page, top, bottom, &lay);
        return;
    default: {
        const ScreenPageKind *k = screen_page_kind(kind);
        if (k->draw)
            k->draw(c, p, top, bottom, cur);
    }
    }
}

static void screen_page_draw_unloaded(Canvas *c, PageState *p, ScreenCursor *cur)
{
    int w = canvas_width(c), h = canvas_height(c);
    int top = screen_frame(c, p->path, "error", NULL, "r reload · Esc back");
    screen_page_draw_error(c, 2, top + 1, w - 4, h - top - 3, p->load_error);
    if (p->message[0])
        canvas_put_text_max(c, 1, h - 2, w - 2, p->message, STYLE_WARNING);
    cur->x = 2;
    cur->y = top + 1;
}

void screen_page_draw(Canvas *c, PageState *p, ScreenCursor *cur)
{
    int w = canvas_width(c), h = canvas_height(c);
    canvas_clear(c);
    cur->x = cur->y = -1;
    p->ascii = canvas_is_ascii(c);
    if (!p->lesson) {
        screen_page_draw_unloaded(c, p, cur);
        return;
    }
    if (p->finished) {
        screen_done_draw(c, p, cur);
        return;
    }
    int n = lesson_page_count(p->lesson);
    PageKind kind = lesson_page_kind(p->lesson, p->page);
    const ScreenPageKind *k = screen_page_kind(kind);
    char title[512], foot[2][400];
    snprintf(title, sizeof title, "%s — page %d/%d", lesson_title(p->lesson), p->page + 1, n);
    const KeyTable *tables[2] = {k->keys ? k->keys : &screen_page_keys, &screen_page_keys};
    int nt = k->keys ? 2 : 1;
    keymap_footer(tables, nt, w - 2, k->footer_lines, p->ascii, foot);
    int fl = k->footer_lines;
    int top = screen_frame(c, title, k->name, fl > 1 ? foot[0] : NULL, fl > 1 ? foot[1] : foot[0]);
    canvas_put_text_max(c, 1, top, w - 2, lesson_page_title(p->lesson, p->page), STYLE_BOLD);
    top += 2;
    int bottom = h - 1 - fl; /* the status line, right above the footer */
    if (p->message[0])
        canvas_put_text_max(c, 1, bottom, w - 2, p->message, STYLE_WARNING);
    if (p->page_error[0])
        screen_page_draw_error(c, 2, top, w - 4, bottom - top, p->page_error);
    else
        screen_page_draw_body(c, p, kind, top, bottom, cur);
    if (cur->x < 0) {
        cur->x = 1;
        cur->y = 2;
    }
    if (p->help)
        keymap_help_draw(c, tables, nt);
    else if (p->notes)
        screen_page_draw_notes(c, p);
}
