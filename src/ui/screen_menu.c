/* SPDX-License-Identifier: MIT */
/* screen_menu — the lesson menu: lessons grouped by track in the order
 * given, each with a progress mark, title, length and summary; j/k or
 * arrows move, Enter opens, `/` filters by words, `?` help, `q` quits.
 *
 * Marks (progress.h, progress_mastered, has the rule): [ ] new, [>] in
 * progress, [x] done (every page seen, every check answered), [*] mastered
 * (done, and every check right at the first try or at once in a review).
 * The words beside the title say the same without colour: "2/5 first try,
 * 3 to review" on a done lesson, "mastered" on a mastered one.
 *
 * Invariant: sel is -1 or the index of an item that matches the filter.
 * Pure: no curses; items and their strings are borrowed.
 */
#include "ui/screens.h"

#include "base/utf8.h"
#include "draw/text.h"
#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/lineedit.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void screen_menu_init(MenuState *m, const MenuItem *items, int n_items)
{
    memset(m, 0, sizeof *m);
    m->items = items;
    m->n_items = n_items;
    m->sel = n_items > 0 ? 0 : -1;
}

/* Case-insensitive substring search (ASCII folding). */
static bool screen_menu_has(const char *hay, const char *word, size_t wlen)
{
    if (!hay)
        return false;
    for (const char *h = hay; *h; h++) {
        size_t i = 0;
        while (i < wlen && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)word[i]))
            i++;
        if (i == wlen)
            return true;
    }
    return false;
}

bool screen_menu_matches(const MenuState *m, int i)
{
    if (i < 0 || i >= m->n_items)
        return false;
    const MenuItem *it = &m->items[i];
    const char *f = m->filter;
    while (*f) {
        while (*f == ' ')
            f++;
        size_t len = strcspn(f, " ");
        if (len == 0)
            break;
        if (!screen_menu_has(it->title, f, len) && !screen_menu_has(it->summary, f, len) &&
            !screen_menu_has(it->track, f, len) && !screen_menu_has(it->id, f, len))
            return false;
        f += len;
    }
    return true;
}

/* The next matching item from i in direction dir (i itself excluded); -1. */
static int screen_menu_step(const MenuState *m, int i, int dir)
{
    for (int j = i + dir; j >= 0 && j < m->n_items; j += dir)
        if (screen_menu_matches(m, j))
            return j;
    return -1;
}

static void screen_menu_fix_sel(MenuState *m)
{
    if (m->sel >= 0 && screen_menu_matches(m, m->sel))
        return;
    int s = screen_menu_step(m, m->sel < 0 ? -1 : m->sel, 1);
    if (s < 0)
        s = screen_menu_step(m, m->sel < 0 ? m->n_items : m->sel, -1);
    m->sel = s;
}

static void screen_menu_move(MenuState *m, int dir, int count)
{
    for (int k = 0; k < count; k++) {
        int s = screen_menu_step(m, m->sel, dir);
        if (s < 0)
            break;
        m->sel = s;
    }
}

/* ---- keys: the filter line while typing, else the list ---- */

static int screen_menu_key_filter_done(void *st, int key)
{
    MenuState *m = st;
    m->filtering = false;
    if (key == UIK_ESC)
        m->filter[0] = '\0';
    screen_menu_fix_sel(m);
    return SCREEN_NONE;
}

static int screen_menu_key_move(void *st, int key)
{
    MenuState *m = st;
    int dir =
        key == UIK_UP || key == 'k' || key == UIK_PGUP || key == UIK_HOME || key == 'g' ? -1 : 1;
    int count = key == UIK_PGUP || key == UIK_PGDN                              ? 10
                : key == UIK_HOME || key == UIK_END || key == 'g' || key == 'G' ? m->n_items
                                                                                : 1;
    screen_menu_move(m, dir, count);
    return SCREEN_NONE;
}

/* Every other key edits the filter line (lineedit: Backspace, and the
 * letters, which the first row, answering no key, stands for). */
static const KeyBinding screen_menu_filter_rows[] = {
    {{0}, "letters", "type words of the filter", "type words", 0, NULL},
    {{UIK_ENTER},
     "Enter",
     "keep the filter, stop typing",
     "Enter keep",
     0,
     screen_menu_key_filter_done},
    {{UIK_ESC},
     "Esc",
     "clear the filter, stop typing",
     "Esc clear",
     0,
     screen_menu_key_filter_done},
    {{UIK_UP, UIK_DOWN},
     "Up/Down",
     "move between the lessons shown",
     "↑↓ move",
     0,
     screen_menu_key_move},
};
static const KeyTable screen_menu_filter_keys =
    KEYMAP_TABLE("Filter keys", screen_menu_filter_rows);

static int screen_menu_key_open(void *st, int key)
{
    (void)key;
    return ((MenuState *)st)->sel >= 0 ? SCREEN_OPEN : SCREEN_NONE;
}

static int screen_menu_key_filter(void *st, int key)
{
    (void)key;
    ((MenuState *)st)->filtering = true;
    return SCREEN_NONE;
}

static int screen_menu_key_review(void *st, int key)
{
    (void)key;
    MenuState *m = st;
    if (m->sel >= 0 && m->items[m->sel].to_review > 0)
        return SCREEN_REVIEW;
    snprintf(m->note, sizeof m->note, "%s",
             m->sel >= 0 && m->items[m->sel].first_tried > 0
                 ? "Nothing to review here: every question was right at the first try, "
                   "or has been reviewed."
                 : "Nothing to review yet: R replays the questions you miss the first time.");
    return SCREEN_NONE;
}

static int screen_menu_key_clear(void *st, int key)
{
    (void)key;
    MenuState *m = st;
    if (m->filter[0]) {
        m->filter[0] = '\0';
        screen_menu_fix_sel(m);
    }
    return SCREEN_NONE;
}

static int screen_menu_key_help(void *st, int key)
{
    (void)key;
    ((MenuState *)st)->help = true;
    return SCREEN_NONE;
}

static int screen_menu_key_action(void *st, int key)
{
    (void)st;
    return key == 'P' ? SCREEN_PRACTICE : SCREEN_QUIT;
}

/* The last two rows answer no key: they explain the marks and the pages. */
static const KeyBinding screen_menu_rows[] = {
    {{UIK_UP, UIK_DOWN, 'k', 'j'},
     "Up/Down, k/j",
     "move between lessons",
     "↑↓/jk move",
     0,
     screen_menu_key_move},
    {{UIK_PGUP, UIK_PGDN}, "PgUp/PgDn", "move by ten", NULL, 0, screen_menu_key_move},
    {{UIK_HOME, UIK_END, 'g', 'G'},
     "Home/End, g/G",
     "first / last lesson",
     NULL,
     0,
     screen_menu_key_move},
    {{UIK_ENTER, UIK_RIGHT, 'l'},
     "Enter",
     "open the lesson",
     "Enter open",
     0,
     screen_menu_key_open},
    {{'/'},
     "/",
     "filter by words (Enter keeps, Esc clears)",
     "/ filter",
     0,
     screen_menu_key_filter},
    {{UIK_ESC}, "Esc", "clear the filter", NULL, 0, screen_menu_key_clear},
    {{'P'},
     "P",
     "practice: endless exercises the model makes and grades",
     "P practice",
     0,
     screen_menu_key_action},
    {{'R'}, "R", "review the questions missed the first time", NULL, 0, screen_menu_key_review},
    {{'?'}, "?", "this help", NULL, 0, screen_menu_key_help},
    {{'q', UIK_CTRL_C},
     "q",
     "quit (progress is saved as you go)",
     "q quit",
     0,
     screen_menu_key_action},
    {{0}, "Marks", "[ ] new  [>] in progress  [x] done  [*] mastered", NULL, 0, NULL},
    {{0}, "Done", "every page seen and every question answered", NULL, 0, NULL},
    {{0}, "Mastered", "done, each question right the first time or in review R", NULL, 0, NULL},
    {{0}, "In a lesson", "n/Space/Right next page, p/Left back, Esc menu", NULL, 0, NULL},
};
static const KeyTable screen_menu_keys = KEYMAP_TABLE("Lesson menu keys", screen_menu_rows);

ScreenAction screen_menu_key(MenuState *m, int key)
{
    m->note[0] = '\0';
    if (m->help) {
        m->help = false;
        return SCREEN_NONE;
    }
    const KeyBinding *b =
        keymap_find(m->filtering ? &screen_menu_filter_keys : &screen_menu_keys, key);
    if (b)
        return (ScreenAction)b->fn(m, key);
    if (m->filtering && lineedit_key(m->filter, sizeof m->filter, key))
        screen_menu_fix_sel(m);
    return SCREEN_NONE;
}

/* "*" for mastered in every locale: a star glyph's width is ambiguous in
 * some terminals, and the mark column must stay three cells wide. */
static const char *screen_menu_mark(const MenuItem *it, bool ascii)
{
    if (it->mark == PROGRESS_DONE && it->mastered)
        return "[*]";
    switch (it->mark) {
    case PROGRESS_DONE:
        return ascii ? "[x]" : "[✓]";
    case PROGRESS_STARTED:
        return "[>]";
    default:
        return "[ ]";
    }
}

/* The words after the length: "mastered", "2/5 first try, 3 to review",
 * "2/5 first try"; the style they are drawn in. */
static Style screen_menu_state_words(const MenuItem *it, char *buf, size_t n)
{
    buf[0] = '\0';
    if (it->error)
        return STYLE_NORMAL;
    if (it->mark == PROGRESS_DONE && it->mastered) {
        snprintf(buf, n, "mastered ");
        return STYLE_GOOD;
    }
    if (it->first_tried <= 0)
        return STYLE_NORMAL;
    if (it->to_review > 0)
        snprintf(buf, n, "%d/%d first try, %d to review ", it->first_right, it->first_tried,
                 it->to_review);
    else
        snprintf(buf, n, "%d/%d first try ", it->first_right, it->first_tried);
    return it->first_right == it->first_tried ? STYLE_GOOD : STYLE_LABEL;
}

void screen_menu_draw(Canvas *c, MenuState *m, ScreenCursor *cur)
{
    bool ascii = canvas_is_ascii(c);
    int w = canvas_width(c), h = canvas_height(c);
    canvas_clear(c);
    cur->x = cur->y = -1;
    char right[64];
    int shown = 0;
    for (int i = 0; i < m->n_items; i++)
        shown += screen_menu_matches(m, i);
    snprintf(right, sizeof right, "%d of %d lessons", shown, m->n_items);
    char filt[120];
    if (m->filtering || m->filter[0])
        snprintf(filt, sizeof filt, "Filter: %s%s", m->filter, m->filtering ? "_" : "");
    else
        snprintf(filt, sizeof filt, "Marks: [ ] new  [>] in progress  %s done  [*] mastered",
                 ascii ? "[x]" : "[✓]");
    const KeyTable *keys = m->filtering ? &screen_menu_filter_keys : &screen_menu_keys;
    char foot[1][400];
    keymap_footer(&keys, 1, w - 2, 1, ascii, foot);
    int top = screen_frame(c, "scalelab - lessons", right, filt, foot[0]);
    if (m->where[0])
        canvas_put_text_max(c, 1, top, w - 2, m->where, STYLE_DIM);
    top += 1;
    int bottom = h - 3;        /* last list row (footer has two lines, note above) */
    int list_h = bottom - top; /* rows top .. bottom-1 */
    if (m->note[0])
        canvas_put_text_max(c, 1, bottom, w - 2, m->note, STYLE_WARNING);
    else if (m->sel >= 0 && m->items[m->sel].error)
        canvas_put_text_max(c, 1, bottom, w - 2, m->items[m->sel].error, STYLE_BAD);
    else if (m->sel >= 0 && m->items[m->sel].to_review > 0) {
        const MenuItem *it = &m->items[m->sel];
        char rev[160];
        snprintf(rev, sizeof rev, "%sR reviews the %d question%s missed at the first try.",
                 it->mark == PROGRESS_DONE ? "Done, not mastered: " : "", it->to_review,
                 it->to_review == 1 ? "" : "s");
        canvas_put_text_max(c, 1, bottom, w - 2, rev, STYLE_WARNING);
    } else if (m->sel >= 0 && m->items[m->sel].summary)
        canvas_put_text_max(c, 1, bottom, w - 2, m->items[m->sel].summary, STYLE_DIM);

    /* Rows: a track heading before each new track, then its lessons. */
    int rows = 0, sel_row = -1;
    const char *track = NULL;
    for (int i = 0; i < m->n_items; i++) {
        if (!screen_menu_matches(m, i))
            continue;
        const char *t = m->items[i].track ? m->items[i].track : "";
        if (!track || strcmp(track, t) != 0) {
            rows++;
            track = t;
        }
        if (i == m->sel)
            sel_row = rows;
        rows++;
    }
    if (sel_row >= 0) {
        if (sel_row < m->scroll + 1)
            m->scroll = sel_row - 1 < 0 ? 0 : sel_row - 1;
        if (sel_row >= m->scroll + list_h)
            m->scroll = sel_row - list_h + 1;
    }
    if (m->scroll > rows - list_h)
        m->scroll = rows - list_h > 0 ? rows - list_h : 0;
    if (shown == 0)
        canvas_put_text_max(c, 3, top + 1, w - 4,
                            m->n_items ? "No lesson matches the filter (Esc clears it)."
                                       : "No lessons found in this folder.",
                            STYLE_WARNING);

    int title_w = w >= 120 ? 40 : 30;
    int row = 0;
    track = NULL;
    for (int i = 0; i < m->n_items; i++) {
        if (!screen_menu_matches(m, i))
            continue;
        const MenuItem *it = &m->items[i];
        const char *t = it->track ? it->track : "";
        if (!track || strcmp(track, t) != 0) {
            int y = top + row - m->scroll;
            if (y >= top && y < bottom)
                canvas_put_text_max(c, 1, y, w - 2, *t ? t : "Other", STYLE_BOLD);
            row++;
            track = t;
        }
        int y = top + row - m->scroll;
        row++;
        if (y < top || y >= bottom)
            continue;
        char mins[16] = "";
        if (it->minutes > 0)
            snprintf(mins, sizeof mins, "%3d min", it->minutes);
        canvas_put_text(c, 3, y, screen_menu_mark(it, ascii),
                        it->mark == PROGRESS_DONE ? STYLE_GOOD : STYLE_NORMAL);
        canvas_put_text_max(c, 7, y, title_w, it->title ? it->title : it->id,
                            it->error ? STYLE_BAD : STYLE_BOLD);
        canvas_put_text(c, 8 + title_w, y, mins, STYLE_DIM);
        const char *sum = it->error ? "does not load: Enter shows the error" : it->summary;
        int sx = 17 + title_w;
        char words[64];
        Style ws = screen_menu_state_words(it, words, sizeof words);
        if (words[0])
            sx += canvas_put_text_max(c, sx, y, w - 1 - sx, words, ws);
        if (sum && sx < w - 1)
            canvas_put_text_max(c, sx, y, w - 1 - sx, sum, STYLE_NORMAL);
        if (i == m->sel) {
            canvas_set_style(c, 2, y, w - 3, 1, STYLE_SELECTED);
            cur->x = 3;
            cur->y = y;
        }
    }
    if (m->filtering) {
        cur->x = 9 + utf8_width(m->filter);
        cur->y = h - 2;
    }
    if (m->help) {
        const KeyTable *tables[1] = {&screen_menu_keys};
        keymap_help_draw(c, tables, 1);
    }
}
