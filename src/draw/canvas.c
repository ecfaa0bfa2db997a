/* SPDX-License-Identifier: MIT */
/* canvas — the cell grid every diagram, chart and page is drawn onto; see
 * canvas.h for the contract. Line joins: each cell keeps, in Cell.lines, two
 * bits per direction (up, down, left, right) holding the LineKind that
 * reaches the cell's edge from that side; the glyph is recomputed from those
 * bits whenever a line passes. Text written over a line clears the bits.
 * UTF-8 measurement comes from base/utf8 (text.c sits above canvas). No curses, no Lua, no model.
 */
#include "draw/canvas.h"

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xmem.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct Canvas {
    int w, h;
    Cell *cells;
    bool ascii; /* every glyph written is converted through ascii_map */
};

enum { DIR_U = 0, DIR_D = 2, DIR_L = 4, DIR_R = 6 }; /* bit shifts into Cell.lines */

static void cell_to_ascii(Cell *t);

static const char *const style_names[STYLE_COUNT] = {
    "normal",      "dim",         "bold",        "heading",     "emph",        "code",
    "frame",       "label",       "up-link",     "out-link",    "across-link", "gpu",
    "gpu-group-0", "gpu-group-1", "gpu-group-2", "gpu-group-3", "gpu-group-4", "gpu-group-5",
    "gpu-group-6", "gpu-group-7", "switch",      "nic",         "selected",    "cursor",
    "warning",     "good",        "bad",         "load-idle",   "load-busy",   "load-bottleneck",
    "bar-compute", "bar-tp",      "bar-pp",      "bar-bubble",  "bar-dp",      "bar-ep",
};

/* SGR parameters for canvas_to_ansi. Meaning is never carried by colour
 * alone (views add glyphs and letters), so any of these may be dropped. */
static const char *const style_sgr[STYLE_COUNT] = {
    "",     "2",    "1",    "1;4",  "1;33", "36",   "",     "",     "1;32", "1;34", "1;35", "1",
    "1;31", "1;32", "1;33", "1;34", "1;35", "1;36", "1;91", "1;92", "1;36", "34",   "7",    "1;7",
    "1;33", "32",   "1;31", "2",    "33",   "1;31", "32",   "35",   "34",   "2",    "36",   "33",
};

Style canvas_group_style(int group)
{
    int g = ((group % STYLE_GPU_GROUPS) + STYLE_GPU_GROUPS) % STYLE_GPU_GROUPS;
    return (Style)(STYLE_GPU_GROUP_0 + g);
}

const char *canvas_style_name(Style s)
{
    return (unsigned)s < STYLE_COUNT ? style_names[s] : "?";
}

const char *canvas_style_sgr(Style s)
{
    return (unsigned)s < STYLE_COUNT ? style_sgr[s] : "";
}

static void cell_blank(Cell *c)
{
    c->glyph[0] = ' ';
    c->glyph[1] = '\0';
    c->width = 1;
    c->style = STYLE_NORMAL;
    c->lines = 0;
}

Canvas *canvas_new(int w, int h)
{
    Canvas *c = xmem_calloc(1, sizeof *c);
    canvas_resize(c, w, h);
    return c;
}

void canvas_free(Canvas *c)
{
    if (!c)
        return;
    free(c->cells);
    free(c);
}

void canvas_resize(Canvas *c, int w, int h)
{
    if (!c)
        return;
    if (w < 0)
        w = 0;
    if (h < 0)
        h = 0;
    Cell *cells = xmem_alloc(((size_t)w * (size_t)h + 1) * sizeof *cells);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            Cell *d = &cells[(size_t)y * (size_t)w + (size_t)x];
            if (x < c->w && y < c->h)
                *d = c->cells[(size_t)y * (size_t)c->w + (size_t)x];
            else
                cell_blank(d);
        }
    /* A wide glyph cut at the new right edge loses its right half. */
    if (w > 0 && w < c->w)
        for (int y = 0; y < h && y < c->h; y++) {
            Cell *last = &cells[(size_t)y * (size_t)w + (size_t)(w - 1)];
            if (last->width == 2)
                cell_blank(last);
        }
    free(c->cells);
    c->cells = cells;
    c->w = w;
    c->h = h;
}

void canvas_clear(Canvas *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < (size_t)c->w * (size_t)c->h; i++)
        cell_blank(&c->cells[i]);
}

void canvas_set_ascii(Canvas *c, bool ascii)
{
    if (!c)
        return;
    c->ascii = ascii;
    for (size_t i = 0; ascii && i < (size_t)c->w * (size_t)c->h; i++)
        cell_to_ascii(&c->cells[i]);
}

bool canvas_is_ascii(const Canvas *c)
{
    return c && c->ascii;
}

int canvas_width(const Canvas *c)
{
    return c ? c->w : 0;
}

int canvas_height(const Canvas *c)
{
    return c ? c->h : 0;
}

const Cell *canvas_cell(const Canvas *c, int x, int y)
{
    if (!c || x < 0 || y < 0 || x >= c->w || y >= c->h)
        return NULL;
    return &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
}

static Cell *cell_at(Canvas *c, int x, int y)
{
    return (Cell *)canvas_cell(c, x, y);
}

static bool cell_in(const Canvas *c, int x, int y)
{
    return x >= 0 && y >= 0 && x < c->w && y < c->h;
}

/* The cell at (x, y), which the caller has checked is on the canvas. */
static Cell *cell_on(Canvas *c, int x, int y)
{
    assert(cell_in(c, x, y));
    return &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
}

/* Makes (x, y) safe to overwrite: a wide glyph it is part of is blanked. */
static void cell_unshare(Canvas *c, int x, int y)
{
    if (!cell_in(c, x, y))
        return;
    Cell *t = cell_on(c, x, y);
    if (t->width == 0) {
        if (cell_in(c, x - 1, y))
            cell_blank(cell_on(c, x - 1, y));
        cell_blank(t);
    } else if (t->width == 2) {
        if (cell_in(c, x + 1, y))
            cell_blank(cell_on(c, x + 1, y));
        cell_blank(t);
    }
}

/* The one ASCII look-alike table: for ASCII canvases and for terminals
 * that cannot show UTF-8 (term.c). Line glyphs come from line_glyph. */
static const struct {
    const char *utf8, *ascii;
} ascii_map[] = {
    {"…", "~"}, {"•", "*"}, {"●", "*"}, {"○", "o"}, {"×", "x"}, {"→", ">"}, {"←", "<"},
    {"↑", "^"}, {"↓", "v"}, {"↔", "-"}, {"█", "#"}, {"▓", "#"}, {"▒", "%"}, {"░", "."},
    {"·", "."}, {"µ", "u"}, {"≈", "~"}, {"—", "-"}, {"–", "-"}, {"≥", ">"}, {"≤", "<"},
    {"▲", "^"}, {"▼", "v"}, {"◆", "*"}, {"▌", "|"}, {"▐", "|"}, {"│", "|"}, {"─", "-"},
    {"═", "="}, {"║", "#"}, {"┄", "~"}, {"┆", ":"}, {"▏", "|"}, {"±", "+"}, {"⚡", "!"},
    {"✓", "+"}, {"✗", "x"}, {"−", "-"}, {"μ", "u"}, {"▸", ">"}, {"▀", "#"}, {"▄", "#"},
};

const char *canvas_ascii_glyph(const char *glyph)
{
    if (!glyph || (unsigned char)glyph[0] < 0x80)
        return glyph ? glyph : "";
    for (size_t i = 0; i < sizeof ascii_map / sizeof ascii_map[0]; i++)
        if (strcmp(ascii_map[i].utf8, glyph) == 0)
            return ascii_map[i].ascii;
    return "?";
}

static const char *line_glyph(unsigned lines, bool ascii);

/* A cell as it shows on an ASCII canvas (a wide glyph: '?' in each half). */
static void cell_to_ascii(Cell *t)
{
    if ((unsigned char)t->glyph[0] < 0x80 && t->width != 0)
        return;
    const char *a = t->width == 0 ? "?"
                    : t->lines    ? line_glyph(t->lines, true)
                                  : canvas_ascii_glyph(t->glyph);
    size_t n = strlen(a);
    memcpy(t->glyph, a, n + 1);
    t->width = 1;
}

/* Puts one decoded character (bytes s[0..n-1], width cw). */
static void put_char(Canvas *c, int x, int y, const char *s, size_t n, int cw, Style st)
{
    if (!c || y < 0 || y >= c->h || x < 0 || x >= c->w || cw <= 0)
        return;
    if (cw == 2 && x + 1 >= c->w)
        return;
    cell_unshare(c, x, y);
    if (cw == 2)
        cell_unshare(c, x + 1, y);
    Cell *t = cell_on(c, x, y);
    if (n > 4)
        n = 4;
    memcpy(t->glyph, s, n);
    t->glyph[n] = '\0';
    t->width = (unsigned char)cw;
    t->style = (unsigned char)st;
    t->lines = 0;
    if (cw == 2) {
        Cell *r = cell_at(c, x + 1, y);
        r->glyph[0] = '\0';
        r->width = 0;
        r->style = (unsigned char)st;
        r->lines = 0;
        if (c->ascii)
            cell_to_ascii(r);
    }
    if (c->ascii)
        cell_to_ascii(t);
}

/* Decodes the next character of s into bytes and width; invalid → "?". */
static size_t next_char(const char *s, const char **bytes, size_t *n, int *cw)
{
    uint32_t cp;
    size_t used = utf8_decode(s, &cp);
    if (used == 0)
        return 0;
    if (cp == 0xFFFD && !(used == 3 && (unsigned char)s[0] == 0xEF)) {
        *bytes = "?";
        *n = 1;
        *cw = 1;
    } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
        /* C0, DEL and C1 controls: a terminal would obey them (U+009B is CSI) */
        *bytes = "?";
        *n = 1;
        *cw = 1;
    } else {
        *bytes = s;
        *n = used;
        *cw = utf8_cp_width(cp);
    }
    return used;
}

int canvas_put_glyph(Canvas *c, int x, int y, const char *glyph, Style s)
{
    if (!glyph || !*glyph)
        return 0;
    const char *b;
    size_t n;
    int cw;
    if (!next_char(glyph, &b, &n, &cw))
        return 0;
    put_char(c, x, y, b, n, cw, s);
    return cw;
}

/* Puts the first line of text from (x, y), as many characters as fit in
 * max_w columns; returns the columns used. */
static int put_line(Canvas *c, int x, int y, const char *text, int max_w, Style s)
{
    int col = 0;
    while (*text && *text != '\n') {
        const char *b;
        size_t n;
        int cw;
        size_t used = next_char(text, &b, &n, &cw);
        if (!used || col + cw > max_w)
            break;
        put_char(c, x + col, y, b, n, cw, s);
        col += cw;
        text += used;
    }
    return col;
}

int canvas_put_text(Canvas *c, int x, int y, const char *text, Style s)
{
    return text ? put_line(c, x, y, text, INT_MAX, s) : 0;
}

int canvas_put_text_max(Canvas *c, int x, int y, int max_w, const char *text, Style s)
{
    if (!text || max_w <= 0)
        return 0;
    size_t len = strcspn(text, "\n");
    int full = utf8_width_n(text, len);
    if (full <= max_w)
        return canvas_put_text(c, x, y, text, s);
    int col = put_line(c, x, y, text, max_w - 1, s);
    put_char(c, x + col, y, "…", 3, 1, s);
    return col + 1;
}

void canvas_set_style(Canvas *c, int x, int y, int w, int h, Style s)
{
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++) {
            Cell *t = cell_at(c, i, j);
            if (t)
                t->style = (unsigned char)s;
        }
}

void canvas_fill(Canvas *c, int x, int y, int w, int h, const char *glyph, Style s)
{
    if (!c || !glyph)
        return;
    int gw = utf8_width_n(glyph, strlen(glyph));
    if (gw <= 0)
        gw = 1;
    for (int j = y; j < y + h; j++)
        for (int i = x; i + gw <= x + w; i += gw)
            canvas_put_glyph(c, i, j, glyph, s);
}

/* --- line joins --------------------------------------------------------- */

static int line_get(unsigned lines, int dir)
{
    return (int)((lines >> dir) & 3u);
}

/* Index into the glyph tables: bit 0 up, 1 down, 2 left, 3 right. */
static const char *const light_glyph[16] = {
    " ", "│", "│", "│", "─", "┘", "┐", "┤", "─", "└", "┌", "├", "─", "┴", "┬", "┼",
};
static const char *const double_glyph[16] = {
    " ", "║", "║", "║", "═", "╝", "╗", "╣", "═", "╚", "╔", "╠", "═", "╩", "╦", "╬",
};
/* horizontal double, vertical light */
static const char *const hdouble_glyph[16] = {
    " ", "│", "│", "│", "═", "╛", "╕", "╡", "═", "╘", "╒", "╞", "═", "╧", "╤", "╪",
};
/* horizontal light, vertical double */
static const char *const vdouble_glyph[16] = {
    " ", "║", "║", "║", "─", "╜", "╖", "╢", "─", "╙", "╓", "╟", "─", "╨", "╥", "╫",
};

static int kind_of_pair(int a, int b)
{
    if (a == LINE_DOUBLE || b == LINE_DOUBLE)
        return LINE_DOUBLE;
    if (a == LINE_LIGHT || b == LINE_LIGHT)
        return a || b ? LINE_LIGHT : 0;
    return a ? a : b;
}

/* The glyph for a set of line directions. */
static const char *line_glyph(unsigned lines, bool ascii)
{
    int u = line_get(lines, DIR_U), d = line_get(lines, DIR_D);
    int l = line_get(lines, DIR_L), r = line_get(lines, DIR_R);
    int idx = (u ? 1 : 0) | (d ? 2 : 0) | (l ? 4 : 0) | (r ? 8 : 0);
    int hk = kind_of_pair(l, r), vk = kind_of_pair(u, d);
    bool horizontal_only = !u && !d, vertical_only = !l && !r;
    if (ascii) {
        if (horizontal_only)
            return hk == LINE_DOUBLE ? "=" : hk == LINE_DASHED ? "~" : "-";
        if (vertical_only)
            return vk == LINE_DOUBLE ? "#" : vk == LINE_DASHED ? ":" : "|";
        return "+";
    }
    if (horizontal_only && hk == LINE_DASHED)
        return "┄";
    if (vertical_only && vk == LINE_DASHED)
        return "┆";
    if (hk == LINE_DASHED)
        hk = LINE_LIGHT;
    if (vk == LINE_DASHED)
        vk = LINE_LIGHT;
    if (!hk)
        hk = vk;
    if (!vk)
        vk = hk;
    if (hk == LINE_DOUBLE && vk == LINE_DOUBLE)
        return double_glyph[idx];
    if (hk == LINE_DOUBLE)
        return hdouble_glyph[idx];
    if (vk == LINE_DOUBLE)
        return vdouble_glyph[idx];
    return light_glyph[idx];
}

static void line_cell(Canvas *c, int x, int y, unsigned add, Style s)
{
    Cell *t = cell_at(c, x, y);
    if (!t)
        return;
    unsigned lines = t->lines;
    cell_unshare(c, x, y);
    /* Each direction keeps the kind drawn last. */
    for (int dir = 0; dir < 8; dir += 2)
        if ((add >> dir) & 3u)
            lines = (lines & ~(3u << dir)) | (add & (3u << dir));
    const char *g = line_glyph(lines, c->ascii);
    put_char(c, x, y, g, strlen(g), 1, s);
    t->lines = (unsigned char)lines;
}

/* A line of len cells from (x, y), one cell further by (dx, dy) each time:
 * every cell reaches back (dir_back) and on (dir_on) except at the ends; a
 * one-cell line reaches both ways. */
static void canvas_line(Canvas *c, int x, int y, int dx, int dy, int len, int dir_back, int dir_on,
                        LineKind k, Style s)
{
    for (int i = 0; i < len; i++) {
        unsigned add = 0;
        if (i > 0 || len == 1)
            add |= (unsigned)k << dir_back;
        if (i < len - 1 || len == 1)
            add |= (unsigned)k << dir_on;
        line_cell(c, x + i * dx, y + i * dy, add, s);
    }
}

void canvas_hline(Canvas *c, int x, int y, int len, LineKind k, Style s)
{
    if (c && len > 0 && y >= 0 && y < c->h)
        canvas_line(c, x, y, 1, 0, len, DIR_L, DIR_R, k, s);
}

void canvas_vline(Canvas *c, int x, int y, int len, LineKind k, Style s)
{
    if (c && len > 0 && x >= 0 && x < c->w)
        canvas_line(c, x, y, 0, 1, len, DIR_U, DIR_D, k, s);
}

void canvas_box(Canvas *c, int x, int y, int w, int h, LineKind k, Style s)
{
    if (w < 2 || h < 2)
        return;
    canvas_hline(c, x, y, w, k, s);
    canvas_hline(c, x, y + h - 1, w, k, s);
    canvas_vline(c, x, y, h, k, s);
    canvas_vline(c, x + w - 1, y, h, k, s);
}

void canvas_blit(Canvas *dst, int x, int y, const Canvas *src)
{
    if (!dst || !src)
        return;
    for (int j = 0; j < src->h; j++) {
        if (y + j < 0 || y + j >= dst->h)
            continue;
        for (int i = 0; i < src->w; i++) {
            const Cell *s = &src->cells[(size_t)j * (size_t)src->w + (size_t)i];
            int dx = x + i;
            if (dx < 0 || dx >= dst->w || s->width == 0)
                continue;
            if (s->width == 2 && dx + 1 >= dst->w)
                continue;
            cell_unshare(dst, dx, y + j);
            if (s->width == 2)
                cell_unshare(dst, dx + 1, y + j);
            Cell *t = cell_on(dst, dx, y + j);
            *t = *s;
            if (s->width == 2) {
                Cell *r = cell_on(dst, dx + 1, y + j);
                *r = s[1];
                if (dst->ascii)
                    cell_to_ascii(r);
            }
            if (dst->ascii)
                cell_to_ascii(t);
        }
    }
}

/* --- output ------------------------------------------------------------- */

static bool cell_is_blank(const Cell *t)
{
    return t->width == 1 && t->glyph[0] == ' ' && t->glyph[1] == '\0' &&
           t->style != STYLE_CURSOR && t->style != STYLE_SELECTED;
}

static char *canvas_dump(const Canvas *c, bool ansi)
{
    StrBuf b = {0};
    if (!c)
        return strbuf_take(&b);
    for (int y = 0; y < c->h; y++) {
        const Cell *row = &c->cells[(size_t)y * (size_t)c->w];
        int last = c->w - 1;
        while (last >= 0 && cell_is_blank(&row[last]))
            last--;
        int cur = STYLE_NORMAL;
        for (int x = 0; x <= last; x++) {
            const Cell *t = &row[x];
            if (t->width == 0)
                continue;
            if (ansi && t->style != cur) {
                const char *sgr = canvas_style_sgr((Style)t->style);
                strbuf_addf(&b, "\x1b[0%s%sm", *sgr ? ";" : "", sgr);
                cur = t->style;
            }
            strbuf_add(&b, t->glyph);
        }
        if (ansi && cur != STYLE_NORMAL)
            strbuf_add(&b, "\x1b[0m");
        strbuf_addc(&b, '\n');
    }
    return strbuf_take(&b);
}

char *canvas_to_text(const Canvas *c)
{
    return canvas_dump(c, false);
}

char *canvas_to_ansi(const Canvas *c)
{
    return canvas_dump(c, true);
}
