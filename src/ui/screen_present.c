/* SPDX-License-Identifier: MIT */
/* screen_present — presenter mode (see screen_present.h): block-letter
 * titles, whole-screen diagrams, reveals one key at a time, a scenario's
 * moves played from the lesson's steps or a script, a discreet footer.
 * Pure: no curses, no progress. The Lesson is borrowed.
 */
#include "ui/screen_present.h"

#include "base/msg.h"
#include "base/utf8.h"
#include "base/xmem.h"
#include "draw/charts.h"
#include "draw/diagram.h"
#include "draw/text.h"
#include "lesson/lesson.h"
#include "model/units.h"
#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/screen_compare.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the block-letter font: 3 columns x 5 rows per character ---- */

static const struct {
    char ch;
    const char *rows[5];
} screen_present_font[] = {
    {'A', {" # ", "# #", "###", "# #", "# #"}}, {'B', {"## ", "# #", "## ", "# #", "## "}},
    {'C', {" ##", "#  ", "#  ", "#  ", " ##"}}, {'D', {"## ", "# #", "# #", "# #", "## "}},
    {'E', {"###", "#  ", "## ", "#  ", "###"}}, {'F', {"###", "#  ", "## ", "#  ", "#  "}},
    {'G', {" ##", "#  ", "# #", "# #", " ##"}}, {'H', {"# #", "# #", "###", "# #", "# #"}},
    {'I', {"###", " # ", " # ", " # ", "###"}}, {'J', {"  #", "  #", "  #", "# #", " # "}},
    {'K', {"# #", "# #", "## ", "# #", "# #"}}, {'L', {"#  ", "#  ", "#  ", "#  ", "###"}},
    {'M', {"# #", "###", "###", "# #", "# #"}}, {'N', {"## ", "# #", "# #", "# #", "# #"}},
    {'O', {" # ", "# #", "# #", "# #", " # "}}, {'P', {"## ", "# #", "## ", "#  ", "#  "}},
    {'Q', {" # ", "# #", "# #", "## ", " ##"}}, {'R', {"## ", "# #", "## ", "# #", "# #"}},
    {'S', {" ##", "#  ", " # ", "  #", "## "}}, {'T', {"###", " # ", " # ", " # ", " # "}},
    {'U', {"# #", "# #", "# #", "# #", "###"}}, {'V', {"# #", "# #", "# #", "# #", " # "}},
    {'W', {"# #", "# #", "###", "###", "# #"}}, {'X', {"# #", "# #", " # ", "# #", "# #"}},
    {'Y', {"# #", "# #", " # ", " # ", " # "}}, {'Z', {"###", "  #", " # ", "#  ", "###"}},
    {'0', {"###", "# #", "# #", "# #", "###"}}, {'1', {" # ", "## ", " # ", " # ", "###"}},
    {'2', {"## ", "  #", " # ", "#  ", "###"}}, {'3', {"## ", "  #", " # ", "  #", "## "}},
    {'4', {"# #", "# #", "###", "  #", "  #"}}, {'5', {"###", "#  ", "## ", "  #", "## "}},
    {'6', {" ##", "#  ", "###", "# #", "###"}}, {'7', {"###", "  #", " # ", " # ", " # "}},
    {'8', {"###", "# #", "###", "# #", "###"}}, {'9', {"###", "# #", "###", "  #", "## "}},
    {' ', {"   ", "   ", "   ", "   ", "   "}}, {'-', {"   ", "   ", "###", "   ", "   "}},
    {':', {"   ", " # ", "   ", " # ", "   "}}, {'.', {"   ", "   ", "   ", "   ", " # "}},
    {',', {"   ", "   ", "   ", " # ", "#  "}}, {'?', {"## ", "  #", " # ", "   ", " # "}},
    {'!', {" # ", " # ", " # ", "   ", " # "}}, {'\'', {" # ", " # ", "   ", "   ", "   "}},
    {'/', {"  #", "  #", " # ", "#  ", "#  "}}, {'(', {" # ", "#  ", "#  ", "#  ", " # "}},
    {')', {" # ", "  #", "  #", "  #", " # "}}, {'&', {" # ", "# #", " # ", "# #", " ##"}},
    {'+', {"   ", " # ", "###", " # ", "   "}},
};

static const char *const *screen_present_glyph(char ch)
{
    ch = (char)toupper((unsigned char)ch);
    for (size_t i = 0; i < sizeof screen_present_font / sizeof screen_present_font[0]; i++)
        if (screen_present_font[i].ch == ch)
            return screen_present_font[i].rows;
    return NULL;
}

/* The columns n block letters take in w columns: twice as wide on a tall
 * screen when that fits (a projector's back row), else 3 columns a letter
 * and one between. */
static int screen_present_banner_width(const Canvas *c, int w, int n)
{
    if (n <= 0)
        return 0;
    return canvas_height(c) >= 40 && n * 8 - 2 <= w ? n * 8 - 2 : n * 4 - 1;
}

int screen_present_banner(Canvas *c, int x, int y, int w, const char *text)
{
    bool ascii = canvas_is_ascii(c);
    char up[128];
    size_t n = 0;
    for (const char *s = text; *s && n + 1 < sizeof up; s++) {
        if (strncmp(s, "\xe2\x80\x94", 3) == 0 || strncmp(s, "\xe2\x80\x93", 3) == 0) {
            up[n++] = '-'; /* em and en dashes */
            s += 2;
            continue;
        }
        if (!screen_present_glyph(*s))
            return 0;
        up[n++] = *s;
    }
    up[n] = '\0';
    int tw = screen_present_banner_width(c, w, (int)n);
    int scale = tw > 0 && (int)n * 8 - 2 == tw && n > 0 ? 2 : 1;
    if (n == 0 || tw > w)
        return 0;
    int x0 = x + (w - tw) / 2;
    bool half = !ascii && scale == 1; /* two font rows per cell row */
    int rows = half ? 3 : 5;
    for (size_t i = 0; i < n; i++) {
        const char *const *g = screen_present_glyph(up[i]);
        if (!g) /* every letter of up was found above; this says so to the analyzers */
            continue;
        for (int col = 0; col < 3; col++) {
            for (int r = 0; r < rows; r++) {
                const char *glyph = NULL;
                if (!half) {
                    glyph = g[r][col] == '#' ? (ascii ? "#" : "█") : NULL;
                } else {
                    bool top = g[2 * r][col] == '#';
                    bool bot = 2 * r + 1 < 5 && g[2 * r + 1][col] == '#';
                    glyph = top && bot ? "█" : top ? "▀" : bot ? "▄" : NULL;
                }
                for (int k = 0; glyph && k < scale; k++)
                    canvas_put_glyph(c, x0 + ((int)i * 4 + col) * scale + k, y + r, glyph,
                                     STYLE_HEADING);
            }
        }
    }
    return rows;
}

/* ---- state ---- */

static bool screen_present_is_scenario(const PresentState *ps, int page)
{
    return lesson_page_kind(ps->lesson, page) == PAGE_SCENARIO;
}

static int screen_present_script_count(const PresentState *ps, int page)
{
    int n = 0;
    for (int i = 0; i < ps->n_script; i++)
        n += ps->script[i].page == page;
    return n;
}

const char *screen_present_move(const PresentState *ps, int k)
{
    if (!screen_present_is_scenario(ps, ps->page) || k < 0)
        return "";
    if (screen_present_script_count(ps, ps->page) > 0) {
        for (int i = 0; i < ps->n_script; i++)
            if (ps->script[i].page == ps->page && k-- == 0)
                return ps->script[i].move;
        return "";
    }
    if (lesson_page_step_count(ps->lesson, ps->page) > 0)
        return lesson_page_step(ps->lesson, ps->page, k);
    return lesson_scenario_solution_move(ps->lesson, ps->page, k);
}

/* Reveals of a page's text: its pieces after the first (the first shows as
 * the page opens). */
static int screen_present_text_steps(const PresentState *ps)
{
    int n = lesson_page_step_count(ps->lesson, ps->page);
    return n > 1 ? n - 1 : 0;
}

int screen_present_step_count(const PresentState *ps)
{
    if (!ps->lesson)
        return 0;
    switch (lesson_page_kind(ps->lesson, ps->page)) {
    case PAGE_SCENARIO: {
        int n = screen_present_script_count(ps, ps->page);
        if (n == 0)
            n = lesson_page_step_count(ps->lesson, ps->page);
        return n > 0 ? n : lesson_scenario_solution_count(ps->lesson, ps->page);
    }
    case PAGE_QUIZ:
        return 1;
    case PAGE_PREDICT: /* the text, then the answer, then the formula */
        return screen_present_text_steps(ps) + 1 +
               (*lesson_predict_formula(ps->lesson, ps->page) ? 1 : 0);
    default:
        return screen_present_text_steps(ps);
    }
}

/* The group a scenario page is about: the first dimension its moves name
 * ("group ep 3 1", "ep 8"), TP when none does. */
static MappingDim screen_present_colour(const PresentState *ps)
{
    static const struct {
        const char *word;
        MappingDim d;
    } dims[] = {{"ep", DIM_EP}, {"tp", DIM_TP}, {"pp", DIM_PP}, {"dp", DIM_DP}, {"cp", DIM_CP}};
    int n = screen_present_step_count(ps);
    for (int k = 0; k < n; k++) {
        const char *m = screen_present_move(ps, k);
        if (strncmp(m, "group ", 6) == 0)
            m += 6;
        for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
            if (strncmp(m, dims[i].word, 2) == 0 && m[2] == ' ')
                return dims[i].d;
    }
    return DIM_TP;
}

/* The goal on the state shown, and the debrief once it is met. */
static void screen_present_check(PresentState *ps)
{
    char err[MSG_LEN] = "";
    ps->why[0] = ps->debrief[0] = '\0';
    ps->goal = lesson_scenario_goal_met(ps->lesson, ps->page, ps->s, ps->why, sizeof ps->why, err,
                                        sizeof err);
    if (ps->goal < 0)
        msg_set(ps->why, sizeof ps->why, "%s", err);
    if (ps->goal != 1)
        return;
    LessonPlay play = {scenario_presses(ps->s), 0, false};
    lesson_scenario_debrief_for(ps->lesson, ps->page, ps->s, &play, ps->debrief,
                                sizeof ps->debrief, err, sizeof err);
    /* A debrief written over several source lines reads as one paragraph
     * (blank lines and "- " items keep their breaks). */
    for (char *n = ps->debrief; (n = strchr(n, '\n')) != NULL; n++)
        if (n > ps->debrief && n[-1] != '\n' && n[1] && n[1] != '\n' && strncmp(n + 1, "- ", 2))
            *n = ' ';
}

static void screen_present_enter(PresentState *ps)
{
    scenario_free(ps->s);
    ps->s = NULL;
    ps->step = 0;
    ps->effect[0] = '\0';
    if (!ps->lesson || !screen_present_is_scenario(ps, ps->page))
        return;
    char err[MSG_LEN] = "";
    ps->s = lesson_scenario_start(ps->lesson, ps->page, err, sizeof err);
    if (!ps->s) {
        snprintf(ps->message, sizeof ps->message, "%s", err);
        return;
    }
    ps->colour = (int)screen_present_colour(ps);
    screen_present_check(ps);
}

void screen_present_init(PresentState *ps, Lesson *l, int page)
{
    memset(ps, 0, sizeof *ps);
    ps->lesson = l;
    snprintf(ps->clock, sizeof ps->clock, "--:--");
    int n = lesson_page_count(l);
    ps->page = page < 0 ? 0 : page >= n ? (n > 0 ? n - 1 : 0) : page;
    screen_present_enter(ps);
}

static void screen_present_free_script(PresentState *ps)
{
    for (int i = 0; i < ps->n_script; i++)
        free(ps->script[i].move);
    free(ps->script);
    ps->script = NULL;
    ps->n_script = 0;
}

void screen_present_fini(PresentState *ps)
{
    scenario_free(ps->s);
    ps->s = NULL;
    screen_present_free_script(ps);
}

bool screen_present_script(PresentState *ps, const char *text, char *err, size_t err_len)
{
    screen_present_free_script(ps);
    int target = -1, lineno = 0;
    for (int i = 0; i < lesson_page_count(ps->lesson) && target < 0; i++)
        if (screen_present_is_scenario(ps, i))
            target = i;
    const char *s = text;
    while (*s) {
        lineno++;
        size_t len = strcspn(s, "\n");
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), s);
        s += len + (s[len] == '\n');
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *a = line;
        while (isspace((unsigned char)*a))
            a++;
        size_t al = strlen(a);
        while (al > 0 && isspace((unsigned char)a[al - 1]))
            a[--al] = '\0';
        if (!*a)
            continue;
        int pn;
        char extra;
        if (strncmp(a, "page", 4) == 0 && isspace((unsigned char)a[4])) {
            if (sscanf(a + 4, "%d %c", &pn, &extra) != 1 || pn < 1 ||
                pn > lesson_page_count(ps->lesson) || !screen_present_is_scenario(ps, pn - 1)) {
                msg_set(err, err_len, "script:%d: '%s': page %s is not a scenario page", lineno, a,
                        a + 5);
                return false;
            }
            target = pn - 1;
            continue;
        }
        if (target < 0) {
            msg_set(err, err_len, "script:%d: the lesson has no scenario page to play on", lineno);
            return false;
        }
        ps->script = xmem_realloc(ps->script, (size_t)(ps->n_script + 1) * sizeof *ps->script);
        ps->script[ps->n_script++] = (PresentMove){xmem_strdup(a), target, lineno};
    }
    /* Play each page's moves from its start, so a typo shows before class. */
    for (int pg = 0; pg < lesson_page_count(ps->lesson); pg++) {
        if (screen_present_script_count(ps, pg) == 0)
            continue;
        char e[MSG_LEN] = "";
        Scenario *sc = lesson_scenario_start(ps->lesson, pg, e, sizeof e);
        if (!sc) {
            msg_set(err, err_len, "page %d: %s", pg + 1, e);
            return false;
        }
        for (int i = 0; i < ps->n_script; i++) {
            if (ps->script[i].page != pg ||
                scenario_apply_text(sc, ps->script[i].move, e, sizeof e))
                continue;
            msg_set(err, err_len, "script:%d: '%s' on page %d: %s", ps->script[i].line,
                    ps->script[i].move, pg + 1, e);
            scenario_free(sc);
            return false;
        }
        scenario_free(sc);
    }
    return true;
}

void screen_present_goto(PresentState *ps, int n)
{
    int count = lesson_page_count(ps->lesson);
    if (n < 0 || n >= count)
        return;
    ps->page = n;
    screen_present_enter(ps);
}

/* The effect of the last move: the part that changed most, and the step. */
static void screen_present_effect(PresentState *ps, const char *move, bool ascii)
{
    const StepResult *a = scenario_previous(ps->s), *b = scenario_result(ps->s);
    if (!a || !b) {
        snprintf(ps->effect, sizeof ps->effect, "%s", move);
        return;
    }
    StepPart part = screen_compare_main_part(a, b);
    char t0[32], t1[32];
    double pct = a->step_s > 0 ? (b->step_s / a->step_s - 1.0) * 100.0 : 0.0;
    if (fabs(a->part_s[part] - b->part_s[part]) < 1e-12) {
        snprintf(ps->effect, sizeof ps->effect, "%s: step unchanged", move);
        return;
    }
    snprintf(ps->effect, sizeof ps->effect, "%s: %s %s %s %s, step %+.0f%%", move,
             step_part_words(part),
             units_format(UNITS_TIME, a->part_s[part], ascii, t0, sizeof t0), ascii ? "->" : "→",
             units_format(UNITS_TIME, b->part_s[part], ascii, t1, sizeof t1), pct);
}

static void screen_present_reveal(PresentState *ps)
{
    if (ps->s) {
        const char *move = screen_present_move(ps, ps->step);
        char err[MSG_LEN] = "";
        if (!scenario_apply_text(ps->s, move, err, sizeof err))
            snprintf(ps->message, sizeof ps->message, "Not possible: %s: %s", move, err);
        else
            screen_present_effect(ps, move, ps->ascii);
    }
    ps->step++;
    if (ps->s)
        screen_present_check(ps);
}

static void screen_present_unreveal(PresentState *ps)
{
    if (ps->step == 0)
        return;
    ps->step--;
    if (ps->s) {
        scenario_undo(ps->s);
        ps->effect[0] = '\0';
        screen_present_check(ps);
    }
}

static int screen_present_key_next(void *st, int key)
{
    (void)key;
    PresentState *ps = st;
    if (ps->step < screen_present_step_count(ps))
        screen_present_reveal(ps);
    else if (ps->page + 1 < lesson_page_count(ps->lesson))
        screen_present_goto(ps, ps->page + 1);
    else
        snprintf(ps->message, sizeof ps->message, "The end. q leaves.");
    return SCREEN_NONE;
}

static int screen_present_key_back(void *st, int key)
{
    (void)key;
    screen_present_unreveal(st);
    return SCREEN_NONE;
}

static int screen_present_key_page(void *st, int key)
{
    PresentState *ps = st;
    if (key == '0')
        screen_present_enter(ps);
    else
        screen_present_goto(ps, key == UIK_HOME  ? 0
                                : key == UIK_END ? lesson_page_count(ps->lesson) - 1
                                                 : ps->page - 1);
    return SCREEN_NONE;
}

static int screen_present_key_quit(void *st, int key)
{
    (void)st;
    (void)key;
    return SCREEN_QUIT;
}

static int screen_present_key_help(void *st, int key)
{
    (void)key;
    ((PresentState *)st)->help = true;
    return SCREEN_NONE;
}

/* No footer words: the presenter's footer is the reveals, page and clock. */
static const KeyBinding screen_present_rows[] = {
    {{' ', 'n', UIK_RIGHT, UIK_DOWN, UIK_PGDN, UIK_ENTER},
     "Space, Enter",
     "next reveal, then the next page (n, Right, Down too)",
     NULL,
     0,
     screen_present_key_next},
    {{'u', UIK_UP}, "u or Up", "one reveal back", NULL, 0, screen_present_key_back},
    {{'p', UIK_LEFT, UIK_PGUP, UIK_BACKSPACE},
     "p, Left",
     "previous page",
     NULL,
     0,
     screen_present_key_page},
    {{'0'}, "0", "this page from its start", NULL, 0, screen_present_key_page},
    {{UIK_HOME, UIK_END}, "Home / End", "first / last page", NULL, 0, screen_present_key_page},
    {{'q', UIK_ESC, UIK_CTRL_C},
     "q or Esc",
     "leave (nothing is saved)",
     NULL,
     0,
     screen_present_key_quit},
    {{'?'}, "?", "this help", NULL, 0, screen_present_key_help},
};
static const KeyTable screen_present_keys = KEYMAP_TABLE("Presenter keys", screen_present_rows);

ScreenAction screen_present_key(PresentState *ps, int key)
{
    if (ps->help) {
        ps->help = false;
        return SCREEN_NONE;
    }
    ps->message[0] = '\0';
    const KeyBinding *b = keymap_find(&screen_present_keys, key);
    return b ? (ScreenAction)b->fn(ps, key) : SCREEN_NONE;
}

/* ---- drawing ---- */

/* The page's text up to the end of the revealed pieces. */
static size_t screen_present_text_len(const PresentState *ps, const char *text)
{
    int n = lesson_page_step_count(ps->lesson, ps->page);
    if (n <= 1 || lesson_page_kind(ps->lesson, ps->page) == PAGE_SCENARIO)
        return strlen(text);
    size_t pos = 0;
    for (int i = 0; i <= ps->step && i < n; i++) {
        const char *piece = lesson_page_step(ps->lesson, ps->page, i);
        const char *at = strstr(text + pos, piece);
        if (!at)
            return strlen(text);
        pos = (size_t)(at - text) + strlen(piece);
    }
    return pos;
}

/* Presenting: wider margins, the readable measure, the revealed text. */
static PageLayout screen_present_layout(const PresentState *ps)
{
    PageLayout lay = {4, SCREEN_MEASURE, (size_t)-1, 0, true};
    lay.shown = screen_present_text_len(ps, lesson_page_text(ps->lesson, ps->page));
    return lay;
}

static void screen_present_scenario(Canvas *c, PresentState *ps, int top, int bottom, bool ascii)
{
    int w = canvas_width(c);
    if (!ps->s)
        return;
    const char *brief = lesson_page_text(ps->lesson, ps->page);
    int y = top;
    if (*brief) { /* all of it, however many lines: the view gets what is left */
        int lines = text_draw_markup(c, 4, y, w - 8, 0, brief, 0);
        y += text_draw_markup(c, 4, y, w - 8, lines, brief, 0) + 1;
    }
    /* The result block at the bottom: bar against the start, the move. */
    int n = screen_present_step_count(ps);
    int bar_rows = 5, info_rows = 4;
    if (ps->goal == 1 && ps->debrief[0]) { /* room for the debrief under the goal */
        int d = text_wrap_count(ps->debrief, w - 4);
        info_rows += d < 6 ? d : 6;
    }
    int res_y = bottom - bar_rows - info_rows;
    if (res_y - y >= 16) {
        char err[MSG_LEN] = "";
        Diagram d = diagram_of(VIEW_FABRIC, scenario_cluster(ps->s));
        d.workload = scenario_workload(ps->s);
        d.mapping = scenario_mapping(ps->s);
        d.placement = scenario_placement(ps->s);
        d.colour_by = (MappingDim)ps->colour;
        int used = diagram_draw(c, 2, y, w - 4, res_y - y - 1, &d, err, sizeof err);
        if (y + used + 1 < res_y)
            res_y = y + used + 1; /* the result right under the view */
    } else if (res_y - y >= 3) {
        /* Too short for the fabric view: the domains and their GPU letters. */
        Canvas *strip = canvas_new(w - 4, res_y - y - 1);
        int used =
            screen_compare_domains(strip, 0, 0, w - 4, res_y - y - 1, scenario_cluster(ps->s),
                                   scenario_mapping(ps->s), scenario_placement(ps->s));
        if (used >= 3) /* a domain's box at least, not "+ 2 more" alone */
            canvas_blit(c, 2, y + (res_y - y - 1 - used) / 2, strip); /* centred */
        else
            res_y = y;
        canvas_free(strip);
    } else {
        res_y = y;
    }
    int used = chart_step_bar(c, 2, res_y, w - 4, scenario_result(ps->s),
                              ps->step > 0 ? scenario_start_result(ps->s) : NULL);
    int ry = res_y + used;
    char line[800];
    if (ps->effect[0]) {
        snprintf(line, sizeof line, "Move %d/%d  %s", ps->step, n, ps->effect);
        canvas_put_text_max(c, 2, ry++, w - 4, line, STYLE_EMPH);
    }
    const char *goal = lesson_scenario_goal_text(ps->lesson, ps->page);
    if (*goal && ry < bottom) {
        snprintf(line, sizeof line, "%s %s",
                 ps->goal == 1  ? (ascii ? "Goal met:" : "Goal met ✓:")
                 : ps->goal < 0 ? "Goal (error):"
                                : "Goal (not yet):",
                 goal);
        canvas_put_text_max(c, 2, ry++, w - 4, line, ps->goal == 1 ? STYLE_GOOD : STYLE_NORMAL);
    }
    if (ps->goal != 1 && ps->why[0] && ry < bottom) {
        snprintf(line, sizeof line, "Why not: %s", ps->why);
        canvas_put_text_max(c, 2, ry++, w - 4, line, STYLE_WARNING);
    }
    if (ps->step < n && ry < bottom) {
        snprintf(line, sizeof line, "Next %s %s", ascii ? ">" : "▸",
                 screen_present_move(ps, ps->step));
        canvas_put_text_max(c, 2, ry++, w - 4, line, STYLE_DIM);
    }
    if (ps->goal == 1 && ps->debrief[0] && ry < bottom)
        text_draw_wrapped(c, 2, ry, w - 4, bottom - ry, ps->debrief, STYLE_GOOD);
}

/* A quantity ("2.22 ms") with its number in block letters and its unit in
 * plain text beside it (the font has one case: "MS" or "GB/S" would say
 * another unit), centred in w columns at (x, y). Returns the rows used, 0
 * when it does not fit. */
static int screen_present_big_number(Canvas *c, int x, int y, int w, const char *q)
{
    char num[32];
    size_t n = strcspn(q, " ");
    if (n == 0 || n >= sizeof num)
        return 0;
    snprintf(num, sizeof num, "%.*s", (int)n, q);
    const char *unit = q[n] ? q + n + 1 : "";
    int bw = screen_present_banner_width(c, w, (int)n), uw = utf8_width(unit);
    int total = bw + (uw ? 1 + uw : 0);
    if (total > w)
        return 0;
    int x0 = x + (w - total) / 2;
    int rows = screen_present_banner(c, x0, y, bw, num);
    if (rows && uw)
        canvas_put_text(c, x0 + bw + 1, y + rows - 1, unit, STYLE_HEADING);
    return rows;
}

/* A predict page: the situation (revealed piece by piece when the page has
 * steps) and the question; one key shows the model's answer, large when it
 * fits; the next the formula. */
static void screen_present_predict(Canvas *c, PresentState *ps, int top, int bottom, bool ascii)
{
    int w = canvas_width(c), tw = w - 8 < SCREEN_MEASURE ? w - 8 : SCREEN_MEASURE;
    int x = (w - tw) / 2, text_steps = screen_present_text_steps(ps);
    PageLayout lay = screen_present_layout(ps);
    int room = (bottom - top) / 2;
    int lines = screen_page_body_text(c, ps->lesson, ps->page, top, top + room, &lay);
    int y = top + (lines < room ? lines : room) + 1;
    char line[200];
    if (ps->step < text_steps || y >= bottom)
        return;
    y += text_draw_wrapped(c, x, y, tw, bottom - y, lesson_predict_question(ps->lesson, ps->page),
                           STYLE_BOLD) +
         1;
    PredictSpec spec;
    bool shown = ps->step > text_steps && lesson_predict_spec(ps->lesson, ps->page, &spec);
    if (!shown) {
        if (y < bottom)
            canvas_put_text_max(c, x, y, tw, ascii ? "Next > the answer" : "Next ▸ the answer",
                                STYLE_DIM);
        return;
    }
    char ans[40];
    predict_format(&spec, spec.answer, ascii, ans, sizeof ans);
    double tol = spec.tolerance > 0 ? spec.tolerance : PREDICT_TOLERANCE_DEFAULT;
    int big = y + 5 < bottom ? screen_present_big_number(c, x, y, tw, ans) : 0;
    y += big ? big + 1 : 0;
    snprintf(line, sizeof line, "The model's answer: %s (right within %s%.0f%%)", ans,
             ascii ? "+/-" : "±", tol * 100);
    if (y < bottom)
        y += text_draw_wrapped(c, x, y, tw, bottom - y, line, STYLE_GOOD) + 1;
    const char *formula = lesson_predict_formula(ps->lesson, ps->page);
    if (!*formula || y >= bottom)
        return;
    if (ps->step > text_steps + 1)
        text_draw_markup(c, x, y, tw, bottom - y, formula, 0);
    else
        canvas_put_text_max(c, x, y, tw,
                            ascii ? "Next > how it is worked out" : "Next ▸ how it is worked out",
                            STYLE_DIM);
}

static void screen_present_quiz(Canvas *c, PresentState *ps, int top, int bottom, bool ascii)
{
    int w = canvas_width(c);
    int x = 4, tw = w - 8;
    int y = top + text_draw_markup(c, x, top, tw, (bottom - top) / 2,
                                   lesson_page_text(ps->lesson, ps->page), 0);
    y++;
    int n = lesson_quiz_choice_count(ps->lesson, ps->page);
    bool shown = ps->step > 0;
    for (int i = 0; i < n && y < bottom; i++) {
        bool ok = lesson_quiz_is_correct(ps->lesson, ps->page, i);
        char lead[32];
        snprintf(lead, sizeof lead, "%d) %s", i + 1,
                 !shown ? ""
                 : ok   ? (ascii ? "+ " : "✓ ")
                        : (ascii ? "x " : "✗ "));
        int lw =
            canvas_put_text(c, x, y, lead, shown ? (ok ? STYLE_GOOD : STYLE_DIM) : STYLE_BOLD);
        y += text_draw_wrapped(c, x + lw, y, tw - lw, bottom - y,
                               lesson_quiz_choice(ps->lesson, ps->page, i),
                               shown && ok ? STYLE_GOOD : STYLE_NORMAL);
        if (shown && y < bottom)
            y += text_draw_wrapped(c, x + lw, y, tw - lw, bottom - y,
                                   lesson_quiz_explanation(ps->lesson, ps->page, i), STYLE_DIM);
    }
}

void screen_present_draw(Canvas *c, PresentState *ps)
{
    int w = canvas_width(c), h = canvas_height(c);
    bool ascii = canvas_is_ascii(c);
    canvas_clear(c);
    ps->ascii = ascii;
    if (!ps->lesson)
        return;
    int pages = lesson_page_count(ps->lesson);
    PageKind kind = lesson_page_kind(ps->lesson, ps->page);
    /* The footer: reveals left, page, clock; dim, bottom right. */
    char foot[96], steps[32] = "";
    int n = screen_present_step_count(ps);
    if (n > 0)
        snprintf(steps, sizeof steps, "step %d/%d %s ", ps->step, n, ascii ? "|" : "·");
    snprintf(foot, sizeof foot, "%s%d/%d %s %s", steps, ps->page + 1, pages, ascii ? "|" : "·",
             ps->clock);
    canvas_put_text(c, w - 1 - utf8_width(foot), h - 1, foot, STYLE_DIM);
    if (ps->message[0])
        canvas_put_text_max(c, 1, h - 1, w - utf8_width(foot) - 4, ps->message, STYLE_WARNING);
    /* The title: block letters when they fit and the page can spare rows. */
    const char *title = lesson_page_title(ps->lesson, ps->page);
    int top = 1;
    int big = 0;
    if (h >= 30 || kind == PAGE_TEXT || kind == PAGE_QUIZ || kind == PAGE_PREDICT)
        big = screen_present_banner(c, 2, top, w - 4, title);
    if (big) {
        top += big + 1;
    } else {
        int tw = utf8_width(title);
        canvas_put_text_max(c, tw < w - 4 ? (w - tw) / 2 : 2, top, w - 4, title, STYLE_HEADING);
        canvas_hline(c, 2, top + 1, w - 4, LINE_LIGHT, STYLE_FRAME);
        top += 3;
    }
    int bottom = h - 2;
    PageLayout lay = screen_present_layout(ps);
    switch (kind) {
    case PAGE_TEXT:
        screen_page_body_text(c, ps->lesson, ps->page, top, bottom, &lay);
        break;
    case PAGE_PREDICT:
        screen_present_predict(c, ps, top, bottom, ascii);
        break;
    case PAGE_DIAGRAM:
        screen_page_body_diagram(c, ps->lesson, ps->page, top, bottom, &lay);
        break;
    case PAGE_COMPARE:
        screen_page_body_compare(c, ps->lesson, ps->page, top, bottom, &lay);
        break;
    case PAGE_SCENARIO:
        screen_present_scenario(c, ps, top, bottom, ascii);
        break;
    case PAGE_QUIZ:
        screen_present_quiz(c, ps, top, bottom, ascii);
        break;
    }
    if (ps->help) {
        const KeyTable *tables[1] = {&screen_present_keys};
        keymap_help_draw(c, tables, 1);
    }
}
