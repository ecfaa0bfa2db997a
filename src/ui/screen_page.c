/* screen_page — one page of a lesson: text, diagram, quiz, compare, or a
 * scenario (delegated to screen_scenario.c). Header "Title — page 3/9",
 * footer with the keys that apply to this page, one status line; errors
 * from the lesson show on the page with file:line and the program stays up.
 *
 * Progress: entering a page records the visit; a quiz answer is recorded;
 * "next" on the last page marks the lesson done when every scenario is
 * solved and every quiz answered, else says which pages are left.
 * Pure: no curses. The Lesson and Progress are borrowed.
 */
#include "ui/screens.h"

#include "base/utf8.h"
#include "draw/text.h"
#include "lesson/lesson.h"
#include "ui/keys.h"
#include "ui/screen_compare.h"

#include <stdio.h>
#include <string.h>

/* As many chart points as draw/charts.h can plot (CHART_MAX_POINTS). */
#define CHART_MAX_VALUES 64

static void screen_page_enter(PageState *p)
{
    p->scroll = 0;
    p->lines = 0;
    p->quiz_sel = 0;
    p->quiz_answer = -1;
    p->page_error[0] = '\0';
    if (!p->lesson)
        return;
    const char *id = lesson_id(p->lesson);
    if (p->progress)
        progress_visit(p->progress, id, p->page, NULL, 0);
    PageKind k = lesson_page_kind(p->lesson, p->page);
    if (k == PAGE_QUIZ && p->progress) {
        bool correct;
        p->quiz_answer = progress_quiz_answer(p->progress, id, p->page, &correct);
        if (p->quiz_answer >= lesson_quiz_choice_count(p->lesson, p->page))
            p->quiz_answer = -1;
        if (p->quiz_answer >= 0)
            p->quiz_sel = p->quiz_answer;
    }
    if (k == PAGE_SCENARIO)
        screen_scenario_open(p);
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
    screen_scenario_close(p);
}

void screen_page_set_lesson(PageState *p, Lesson *l, const char *load_error)
{
    screen_scenario_close(p);
    p->lesson = l;
    snprintf(p->load_error, sizeof p->load_error, "%s", load_error ? load_error : "");
    int n = l ? lesson_page_count(l) : 0;
    if (p->page >= n)
        p->page = n > 0 ? n - 1 : 0;
    p->help = false;
    screen_page_enter(p);
    snprintf(p->message, sizeof p->message, "%s",
             l ? "Reloaded from disk." : "Reload failed: the error is shown above.");
}

void screen_page_goto(PageState *p, int n)
{
    int count = p->lesson ? lesson_page_count(p->lesson) : 0;
    if (n < 0 || n >= count || n == p->page)
        return;
    screen_scenario_close(p);
    p->page = n;
    screen_page_enter(p);
}

/* Pages still to do before the lesson counts as done; writes them into buf. */
static int screen_page_unfinished(const PageState *p, char *buf, size_t n)
{
    int left = 0;
    size_t used = 0;
    buf[0] = '\0';
    const char *id = lesson_id(p->lesson);
    for (int i = 0; i < lesson_page_count(p->lesson); i++) {
        PageKind k = lesson_page_kind(p->lesson, i);
        bool todo = (k == PAGE_SCENARIO && !progress_scenario_met(p->progress, id, i)) ||
                    (k == PAGE_QUIZ && progress_quiz_answer(p->progress, id, i, NULL) < 0);
        if (!todo)
            continue;
        left++;
        int w = snprintf(buf + used, n - used, "%s%d (%s)", left > 1 ? ", " : "", i + 1,
                         k == PAGE_QUIZ ? "quiz" : "scenario");
        if (w > 0 && used + (size_t)w < n)
            used += (size_t)w;
    }
    return left;
}

static ScreenAction screen_page_next(PageState *p)
{
    int n = lesson_page_count(p->lesson);
    if (p->page + 1 < n) {
        screen_page_goto(p, p->page + 1);
        return SCREEN_NONE;
    }
    if (!p->progress) {
        snprintf(p->message, sizeof p->message, "This is the last page. Esc goes back.");
        return SCREEN_NONE;
    }
    char left[200];
    if (screen_page_unfinished(p, left, sizeof left) > 0) {
        snprintf(p->message, sizeof p->message, "Last page. To finish the lesson: page %s.", left);
        return SCREEN_NONE;
    }
    progress_set_done(p->progress, lesson_id(p->lesson), NULL, 0);
    return SCREEN_BACK;
}

static void screen_page_answer(PageState *p, int choice)
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

ScreenAction screen_page_key(PageState *p, int key)
{
    if (p->help) {
        p->help = false;
        return SCREEN_NONE;
    }
    p->message[0] = '\0';
    if (key == 'r')
        return SCREEN_RELOAD;
    if (!p->lesson)
        return key == UIK_ESC || key == 'q' ? SCREEN_BACK : SCREEN_NONE;
    PageKind kind = lesson_page_kind(p->lesson, p->page);
    if (kind == PAGE_SCENARIO && p->scn.s) {
        ScreenAction a = screen_scenario_key(p, key);
        if (a != SCREEN_PASS)
            return a;
    }
    if (kind == PAGE_QUIZ) {
        int n = lesson_quiz_choice_count(p->lesson, p->page);
        if (key >= '1' && key <= '9' && key - '1' < n) {
            screen_page_answer(p, key - '1');
            return SCREEN_NONE;
        }
        if ((key == UIK_UP || key == 'k') && p->quiz_sel > 0) {
            p->quiz_sel--;
            return SCREEN_NONE;
        }
        if ((key == UIK_DOWN || key == 'j') && p->quiz_sel + 1 < n) {
            p->quiz_sel++;
            return SCREEN_NONE;
        }
        if (key == UIK_ENTER) {
            screen_page_answer(p, p->quiz_sel);
            return SCREEN_NONE;
        }
    }
    switch (key) {
    case 'n':
    case ' ':
    case UIK_RIGHT:
    case UIK_TAB:
    case UIK_PGDN:
    case UIK_ENTER:
        return screen_page_next(p);
    case 'p':
    case UIK_LEFT:
    case UIK_BTAB:
    case UIK_PGUP:
    case UIK_BACKSPACE:
        screen_page_goto(p, p->page - 1);
        return SCREEN_NONE;
    case UIK_DOWN:
    case 'j':
        if (p->scroll + 1 < p->lines)
            p->scroll++;
        return SCREEN_NONE;
    case UIK_UP:
    case 'k':
        if (p->scroll > 0)
            p->scroll--;
        return SCREEN_NONE;
    case UIK_ESC:
    case 'q':
        return SCREEN_BACK;
    case '?':
        p->help = true;
        return SCREEN_NONE;
    default:
        return SCREEN_NONE;
    }
}

static const char *const screen_page_help[] = {
    "n, Space, Right, Tab   next page",
    "p, Left, Shift-Tab     previous page",
    "Up/Down or k/j         scroll a long page",
    "1-9, or Up/Down+Enter  answer a quiz",
    "r                      reload the lesson file (authors), same page;",
    "                       saving the file in an editor reloads it too",
    "S                      save this screen as SVG (the path is shown)",
    "Esc or q               back to the lesson menu",
    "?                      this help",
    "",
    "Scenario pages have their own keys: see the two lines at the bottom,",
    "and press ? there for the full list.",
    NULL,
};

static const char *const screen_page_scenario_help[] = {
    "Arrows or H J K L   move the cursor: left/right GPU, up/down domain",
    "Space               pick the GPU under the cursor",
    "g                   pick its TP group; g again: PP group, DP group",
    "Enter               drop: swap the picked GPU with the one under the",
    "                    cursor, or move the picked group into this domain",
    "Esc                 drop the pick (or close explain); else the menu",
    "t/T y/Y d/D x/X     TP, PP, DP, EP degree up (x2) / down (/2)",
    "m/M                 micro-batch up / down",
    "+ / -               bigger / smaller scale-up domain",
    "] / [               next / previous system preset",
    "s                   search the best mappings (Enter applies one, Esc back)",
    "S                   save this screen as SVG (the file is named on screen)",
    "u  0  b             undo, reset to the start, mark as reference",
    "c                   compare with the start (or the b reference), side by side",
    "h                   next hint (nudge, concept, near-solution)",
    "e / E               explain the next number (parts, step, tokens/s, MFU)",
    "n / p               next / previous page;  r reload the file",
    NULL,
};

static const char *screen_page_kind_name(PageKind k)
{
    switch (k) {
    case PAGE_TEXT:
        return "text";
    case PAGE_DIAGRAM:
        return "diagram";
    case PAGE_SCENARIO:
        return "scenario";
    case PAGE_QUIZ:
        return "quiz";
    case PAGE_COMPARE:
        return "compare";
    case PAGE_PREDICT:
        return "predict";
    }
    return "";
}

static void screen_page_draw_error(Canvas *c, int x, int y, int w, int h, const char *err,
                                   bool ascii)
{
    canvas_put_text_max(c, x, y, w, "This page has an error:", STYLE_BAD, ascii);
    int used = text_draw_wrapped(c, x, y + 1, w, h - 3, err, STYLE_BAD);
    if (used > h - 3)
        used = h - 3;
    canvas_put_text_max(c, x, y + 2 + used, w,
                        "Fix the lesson file and press r to reload, or Esc to leave.",
                        STYLE_NORMAL, ascii);
}

static void screen_page_draw_text(Canvas *c, PageState *p, int top, int bottom, bool ascii)
{
    int w = canvas_width(c);
    int h = bottom - top;
    p->lines = text_draw_markup(c, 2, top, w - 4, h, lesson_page_text(p->lesson, p->page),
                                p->scroll, ascii);
    if (p->lines > h) {
        char more[64];
        snprintf(more, sizeof more, "lines %d-%d of %d (Up/Down)", p->scroll + 1,
                 p->scroll + h < p->lines ? p->scroll + h : p->lines, p->lines);
        canvas_put_text(c, w - 2 - (int)strlen(more), bottom, more, STYLE_DIM);
    }
}

static void screen_page_draw_diagram(Canvas *c, PageState *p, int top, int bottom, bool ascii)
{
    int w = canvas_width(c);
    const char *caption = lesson_page_text(p->lesson, p->page);
    int cap_h = *caption ? text_wrap_count(caption, w - 4) : 0;
    int max_cap = (bottom - top) / 3;
    if (cap_h > max_cap)
        cap_h = max_cap;
    LessonDiagram d;
    char err[LESSON_ERR_LEN] = "";
    if (!lesson_page_diagram(p->lesson, p->page, 0, &d, err, sizeof err)) {
        screen_page_draw_error(c, 2, top, w - 4, bottom - top, err, ascii);
        return;
    }
    int dh = bottom - top - cap_h - (cap_h ? 1 : 0);
    char cx[16] = "";
    double values[CHART_MAX_VALUES];
    ScreenChart chart = {cx, values, 0};
    if (d.view == VIEW_CHART)
        chart.n = lesson_page_chart(p->lesson, p->page, cx, sizeof cx, values, CHART_MAX_VALUES);
    if (!screen_diagram_draw(c, 2, top, w - 4, dh, (int)d.view, &d.cluster, &d.workload,
                             &d.mapping, d.placement, &chart, ascii, err, sizeof err))
        screen_page_draw_error(c, 2, top, w - 4, dh, err, ascii);
    placement_free(d.placement);
    if (cap_h)
        p->lines = text_draw_markup(c, 2, bottom - cap_h, w - 4, cap_h, caption, p->scroll, ascii);
}

static void screen_page_draw_compare(Canvas *c, PageState *p, int top, int bottom, bool ascii)
{
    int w = canvas_width(c);
    const char *caption = lesson_page_text(p->lesson, p->page);
    int cap_h = *caption ? text_wrap_count(caption, w - 4) : 0;
    if (cap_h > 4)
        cap_h = 4;
    p->lines = text_draw_markup(c, 2, top, w - 4, cap_h, caption, p->scroll, ascii);
    top += cap_h + (cap_h ? 1 : 0);
    /* One drawing for compare pages and a scenario's compare view. */
    CompareSide sides[2];
    for (int side = 0; side < 2; side++) {
        LessonDiagram d;
        char err[LESSON_ERR_LEN] = "";
        if (!lesson_page_diagram(p->lesson, p->page, side, &d, err, sizeof err)) {
            screen_compare_side_error(&sides[side], side ? "right" : "left", err);
            continue;
        }
        screen_compare_side_set(&sides[side], d.label, &d.cluster, &d.workload, &d.mapping,
                                d.placement);
        placement_free(d.placement);
    }
    screen_compare_draw(c, 2, top, w - 4, bottom - top, sides, ascii);
    screen_compare_side_fini(&sides[0]);
    screen_compare_side_fini(&sides[1]);
}

static void screen_page_draw_quiz(Canvas *c, PageState *p, int top, int bottom, bool ascii,
                                  ScreenCursor *cur)
{
    int w = canvas_width(c);
    const char *q = lesson_page_text(p->lesson, p->page);
    int qh = text_draw_markup(c, 2, top, w - 4, (bottom - top) / 2, q, 0, ascii);
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

void screen_page_draw(Canvas *c, PageState *p, bool ascii, ScreenCursor *cur)
{
    int w = canvas_width(c), h = canvas_height(c);
    canvas_clear(c);
    cur->x = cur->y = -1;
    p->ascii = ascii;
    const char *dash = ascii ? "-" : "—";
    char title[512];
    const char *f1 = NULL, *f2;
    if (!p->lesson) {
        snprintf(title, sizeof title, "%s", p->path);
        f2 = "r reload · Esc back";
        int top = screen_frame(c, title, "error", NULL, f2, ascii);
        screen_page_draw_error(c, 2, top + 1, w - 4, h - top - 3, p->load_error, ascii);
        if (p->message[0])
            canvas_put_text_max(c, 1, h - 2, w - 2, p->message, STYLE_WARNING, ascii);
        cur->x = 2;
        cur->y = top + 1;
        return;
    }
    int n = lesson_page_count(p->lesson);
    PageKind kind = lesson_page_kind(p->lesson, p->page);
    snprintf(title, sizeof title, "%s %s page %d/%d", lesson_title(p->lesson), dash, p->page + 1,
             n);
    switch (kind) {
    case PAGE_SCENARIO:
        if (w >= 120) {
            f1 = "arrows or H J K L cursor · Space pick a GPU · g pick its group (again: PP, DP) "
                 "· Enter drop/swap · u undo · 0 reset · b mark reference";
            f2 = "t/T TP · y/Y PP · d/D DP · x/X EP · m/M micro-batch · +/- domain · ]/[ system "
                 "· s search · S SVG · h hint · e explain · n/p page · ? help · Esc menu";
        } else {
            f1 =
                ascii
                    ? "arrows move · Space pick · g group · Enter drop · u undo · 0 reset · b mark"
                    : "←↓↑→ move · Space pick · g group · Enter drop · u undo · 0 reset · b mark";
            f2 = "t/T TP y/Y PP d/D DP m/M mb · +/- domain · ]/[ system · s search · h hint · ?";
        }
        break;
    case PAGE_QUIZ:
        f2 = "1-9 or ↑↓+Enter answer · n next · p back · r reload · ? help · Esc menu";
        break;
    default:
        f2 = p->lines > h - 6 ? "n/Space/→ next · p/← back · ↑↓ scroll · r reload · ? help · "
                                "Esc menu"
                              : "n/Space/→ next · p/← back · r reload · ? help · Esc menu";
        break;
    }
    int top = screen_frame(c, title, screen_page_kind_name(kind), f1, f2, ascii);
    canvas_put_text_max(c, 1, top, w - 2, lesson_page_title(p->lesson, p->page), STYLE_BOLD,
                        ascii);
    top += 2;
    int bottom = h - (f1 ? 3 : 2); /* the status line, right above the footer */
    if (p->message[0])
        canvas_put_text_max(c, 1, bottom, w - 2, p->message, STYLE_WARNING, ascii);
    if (p->page_error[0]) {
        screen_page_draw_error(c, 2, top, w - 4, bottom - top, p->page_error, ascii);
    } else {
        switch (kind) {
        case PAGE_TEXT:
        case PAGE_PREDICT:
            screen_page_draw_text(c, p, top, bottom, ascii);
            break;
        case PAGE_DIAGRAM:
            screen_page_draw_diagram(c, p, top, bottom, ascii);
            break;
        case PAGE_COMPARE:
            screen_page_draw_compare(c, p, top, bottom, ascii);
            break;
        case PAGE_QUIZ:
            screen_page_draw_quiz(c, p, top, bottom, ascii, cur);
            break;
        case PAGE_SCENARIO:
            screen_scenario_draw(c, p, top, ascii, cur);
            break;
        }
    }
    if (cur->x < 0) {
        cur->x = 1;
        cur->y = 2;
    }
    if (p->help)
        screen_help_draw(c, kind == PAGE_SCENARIO ? "Scenario keys" : "Lesson page keys",
                         kind == PAGE_SCENARIO ? screen_page_scenario_help : screen_page_help,
                         ascii);
}
