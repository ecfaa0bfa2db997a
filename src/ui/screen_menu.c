/* screen_menu — the lesson menu: lessons grouped by track in the order
 * given, each with a progress mark, title, length and summary; j/k or
 * arrows move, Enter opens, `/` filters by words, `?` help, `q` quits.
 *
 * Invariant: sel is -1 or the index of an item that matches the filter.
 * Pure: no curses; items and their strings are borrowed.
 */
#include "ui/screens.h"

#include "base/utf8.h"
#include "draw/text.h"
#include "ui/keys.h"

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

ScreenAction screen_menu_key(MenuState *m, int key)
{
    m->note[0] = '\0';
    if (m->help) {
        m->help = false;
        return SCREEN_NONE;
    }
    if (m->filtering) {
        size_t len = strlen(m->filter);
        if (key == UIK_ENTER) {
            m->filtering = false;
        } else if (key == UIK_ESC) {
            m->filtering = false;
            m->filter[0] = '\0';
        } else if (key == UIK_BACKSPACE) {
            if (len > 0) {
                /* drop one UTF-8 character */
                do
                    len--;
                while (len > 0 && ((unsigned char)m->filter[len] & 0xC0) == 0x80);
                m->filter[len] = '\0';
            }
        } else if (key == UIK_UP || key == UIK_DOWN) {
            screen_menu_move(m, key == UIK_UP ? -1 : 1, 1);
            return SCREEN_NONE;
        } else if (key >= 0x20 && key < 0x7f && len + 1 < sizeof m->filter) {
            m->filter[len] = (char)key;
            m->filter[len + 1] = '\0';
        }
        screen_menu_fix_sel(m);
        return SCREEN_NONE;
    }
    switch (key) {
    case UIK_UP:
    case 'k':
        screen_menu_move(m, -1, 1);
        break;
    case UIK_DOWN:
    case 'j':
        screen_menu_move(m, 1, 1);
        break;
    case UIK_PGUP:
        screen_menu_move(m, -1, 10);
        break;
    case UIK_PGDN:
        screen_menu_move(m, 1, 10);
        break;
    case UIK_HOME:
    case 'g':
        screen_menu_move(m, -1, m->n_items);
        break;
    case UIK_END:
    case 'G':
        screen_menu_move(m, 1, m->n_items);
        break;
    case UIK_ENTER:
    case UIK_RIGHT:
    case 'l':
        return m->sel >= 0 ? SCREEN_OPEN : SCREEN_NONE;
    case '/':
        m->filtering = true;
        break;
    case 'R':
        if (m->sel >= 0 && m->items[m->sel].to_review > 0)
            return SCREEN_REVIEW;
        snprintf(m->note, sizeof m->note, "%s",
                 m->sel >= 0 && m->items[m->sel].first_tried > 0
                     ? "Nothing to review here: every question was right at the first try, "
                       "or has been reviewed."
                     : "Nothing to review yet: R replays the questions you miss the first time.");
        break;
    case UIK_ESC:
        if (m->filter[0]) {
            m->filter[0] = '\0';
            screen_menu_fix_sel(m);
        }
        break;
    case '?':
        m->help = true;
        break;
    case 'P':
        return SCREEN_PRACTICE;
    case 'q':
    case UIK_CTRL_C:
        return SCREEN_QUIT;
    default:
        break;
    }
    return SCREEN_NONE;
}

static const char *screen_menu_mark(ProgressStatus s, bool ascii)
{
    switch (s) {
    case PROGRESS_DONE:
        return ascii ? "[x]" : "[✓]";
    case PROGRESS_STARTED:
        return "[>]";
    default:
        return "[ ]";
    }
}

static const char *const screen_menu_help[] = {
    "Up/Down or k/j   move between lessons",
    "PgUp/PgDn        move by ten",
    "Enter            open the lesson",
    "/                filter by words (Enter keeps, Esc clears)",
    "P                practice: endless exercises the model makes and grades",
    "R                review the questions missed the first time",
    "?                this help",
    "q                quit (progress is saved as you go)",
    "",
    "Marks: [ ] not started   [>] in progress   [x] or [✓] done",
    "In a lesson: n/Space/Right next page, p/Left back, Esc menu.",
    NULL,
};

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
        snprintf(filt, sizeof filt, "Marks: [ ] new  [>] in progress  %s done",
                 ascii ? "[x]" : "[✓]");
    int top = screen_frame(
        c, "scalelab - lessons", right, filt,
        m->filtering ? "type words · Enter keep · Esc clear · ↑↓ move"
                     : "↑↓/jk move · Enter open · / filter · P practice · ? help · q quit");
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
        char rev[120];
        snprintf(rev, sizeof rev, "R reviews the %d question%s missed the first time.",
                 m->items[m->sel].to_review, m->items[m->sel].to_review == 1 ? "" : "s");
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
        canvas_put_text(c, 3, y, screen_menu_mark(it->mark, ascii),
                        it->mark == PROGRESS_DONE ? STYLE_GOOD : STYLE_NORMAL);
        canvas_put_text_max(c, 7, y, title_w, it->title ? it->title : it->id,
                            it->error ? STYLE_BAD : STYLE_BOLD);
        canvas_put_text(c, 8 + title_w, y, mins, STYLE_DIM);
        const char *sum = it->error ? "does not load: Enter shows the error" : it->summary;
        int sx = 17 + title_w;
        if (it->first_tried > 0 && !it->error) {
            char first[48];
            snprintf(first, sizeof first, "%d/%d first try ", it->first_right, it->first_tried);
            sx +=
                canvas_put_text_max(c, sx, y, w - 1 - sx, first,
                                    it->first_right == it->first_tried ? STYLE_GOOD : STYLE_LABEL);
        }
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
    if (m->help)
        screen_help_draw(c, "Lesson menu keys", screen_menu_help);
}
