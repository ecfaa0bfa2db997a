/* SPDX-License-Identifier: MIT */
/* svg — a canvas as SVG; see svg.h for the layout. The one style → colour
 * table of the SVG export lives here and mirrors the SGR table of canvas.c:
 * same hue for the same meaning, on a dark terminal-like background.
 *
 * Line cells: a cell whose glyph came from canvas_hline/vline/box keeps in
 * Cell.lines two bits per direction (up, down, left, right at shifts 0, 2,
 * 4, 6) holding the LineKind that reaches that edge (canvas.c). When such a
 * cell shows a box-drawing glyph (not its ASCII look-alike) it is drawn as
 * half-cell strokes from the centre to each edge, so joins match the screen.
 * No curses, no Lua, no model.
 */
#include "draw/svg.h"

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xmem.h"
#include "draw/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SVG_FONT_PX  15
#define SVG_BASELINE 13 /* from the top of a cell */
#define SVG_BG       "#1d1f21"
#define SVG_FG       "#d8d8d8"

/* Terminal-like palette (readable on SVG_BG). */
#define C_DIM     "#7f848e"
#define C_RED     "#e06c75"
#define C_GREEN   "#98c379"
#define C_YELLOW  "#e5c07b"
#define C_BLUE    "#61afef"
#define C_MAGENTA "#c678dd"
#define C_CYAN    "#56b6c2"
#define C_BRED    "#ff8a94"
#define C_BGREEN  "#b8f28f"

typedef struct {
    const char *fg; /* NULL: SVG_FG */
    bool bold, underline, inverse;
} SvgStyle;

/* The meaning of each style, as canvas_to_ansi gives it (canvas.c style_sgr):
 * "1;32" → green bold, "7" → inverse, "2" → dim... */
static const SvgStyle svg_styles[STYLE_COUNT] = {
    [STYLE_NORMAL] = {NULL, false, false, false},
    [STYLE_DIM] = {C_DIM, false, false, false},
    [STYLE_BOLD] = {NULL, true, false, false},
    [STYLE_HEADING] = {NULL, true, true, false},
    [STYLE_EMPH] = {C_YELLOW, true, false, false},
    [STYLE_CODE] = {C_CYAN, false, false, false},
    [STYLE_FRAME] = {NULL, false, false, false},
    [STYLE_LABEL] = {NULL, false, false, false},
    [STYLE_UP_LINK] = {C_GREEN, true, false, false},
    [STYLE_OUT_LINK] = {C_BLUE, true, false, false},
    [STYLE_ACROSS_LINK] = {C_MAGENTA, true, false, false},
    [STYLE_GPU] = {NULL, true, false, false},
    [STYLE_GPU_GROUP_0] = {C_RED, true, false, false},
    [STYLE_GPU_GROUP_1] = {C_GREEN, true, false, false},
    [STYLE_GPU_GROUP_2] = {C_YELLOW, true, false, false},
    [STYLE_GPU_GROUP_3] = {C_BLUE, true, false, false},
    [STYLE_GPU_GROUP_4] = {C_MAGENTA, true, false, false},
    [STYLE_GPU_GROUP_5] = {C_CYAN, true, false, false},
    [STYLE_GPU_GROUP_6] = {C_BRED, true, false, false},
    [STYLE_GPU_GROUP_7] = {C_BGREEN, true, false, false},
    [STYLE_SWITCH] = {C_CYAN, true, false, false},
    [STYLE_NIC] = {C_BLUE, false, false, false},
    [STYLE_SELECTED] = {NULL, false, false, true},
    [STYLE_CURSOR] = {NULL, true, false, true},
    [STYLE_WARNING] = {C_YELLOW, true, false, false},
    [STYLE_GOOD] = {C_GREEN, false, false, false},
    [STYLE_BAD] = {C_RED, true, false, false},
    [STYLE_LOAD_IDLE] = {C_DIM, false, false, false},
    [STYLE_LOAD_BUSY] = {C_YELLOW, false, false, false},
    [STYLE_LOAD_BOTTLENECK] = {C_RED, true, false, false},
    [STYLE_BAR_COMPUTE] = {C_GREEN, false, false, false},
    [STYLE_BAR_TP] = {C_MAGENTA, false, false, false},
    [STYLE_BAR_PP] = {C_BLUE, false, false, false},
    [STYLE_BAR_BUBBLE] = {C_DIM, false, false, false},
    [STYLE_BAR_DP] = {C_CYAN, false, false, false},
    [STYLE_BAR_EP] = {C_YELLOW, false, false, false},
};

static const SvgStyle *svg_style(int s)
{
    return &svg_styles[(unsigned)s < STYLE_COUNT ? s : STYLE_NORMAL];
}

const char *svg_style_colour(Style s)
{
    const SvgStyle *st = svg_style((int)s);
    return st->fg ? st->fg : SVG_FG;
}

/* The colour ink is drawn in: the background for inverse styles. */
static const char *svg_ink(int s)
{
    return svg_style(s)->inverse ? SVG_BG : svg_style_colour((Style)s);
}

static void svg_escape_into(StrBuf *b, const char *s)
{
    if (!s)
        return;
    while (*s) {
        uint32_t cp;
        size_t n = utf8_decode(s, &cp);
        bool bad = (n == 1 && cp == 0xFFFD) || cp < 0x20 || (cp >= 0x7F && cp < 0xA0) ||
                   (cp >= 0xD800 && cp < 0xE000) || cp == 0xFFFE || cp == 0xFFFF;
        if (bad)
            strbuf_addc(b, '?');
        else if (cp == '&')
            strbuf_add(b, "&amp;");
        else if (cp == '<')
            strbuf_add(b, "&lt;");
        else if (cp == '>')
            strbuf_add(b, "&gt;");
        else if (cp == '"')
            strbuf_add(b, "&quot;");
        else if (cp == '\'')
            strbuf_add(b, "&apos;");
        else
            strbuf_add_n(b, s, n);
        s += n;
    }
}

char *svg_escape(const char *s)
{
    StrBuf b = {0};
    svg_escape_into(&b, s);
    return strbuf_take(&b);
}

/* Bar glyphs drawn as rectangles: top and height as fractions of the cell,
 * and an opacity for the shades. Returns false for other glyphs. */
static bool svg_block(const char *g, double *top, double *height, double *opacity)
{
    static const struct {
        const char *glyph;
        double top, height, opacity;
    } blocks[] = {
        {"█", 0, 1, 1},    {"▓", 0, 1, 0.75},  {"▒", 0, 1, 0.5},
        {"░", 0, 1, 0.25}, {"▄", 0.5, 0.5, 1}, {"▀", 0, 0.5, 1},
    };
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (strcmp(g, blocks[i].glyph) == 0) {
            *top = blocks[i].top;
            *height = blocks[i].height;
            *opacity = blocks[i].opacity;
            return true;
        }
    return false;
}

static bool svg_is_line_cell(const Cell *t)
{
    return t->lines && t->width == 1 && ((unsigned char)t->glyph[0] & 0x80);
}

static double svg_px_x(int col)
{
    return SVG_MARGIN + (double)col * SVG_CELL_W;
}

static double svg_px_y(int row)
{
    return SVG_MARGIN + (double)row * SVG_CELL_H;
}

/* Half-cell strokes of a line cell into the path buffers of its style:
 * paths[kind - 1] (light, double, dashed). A double line is two strokes
 * `gap` either side of the centre line; where double lines meet, each
 * stroke stops at the stroke it meets (inner) or runs on to it (outer),
 * as in ╔ ╦ ╬; single lines start at the double stroke they touch. */
static void svg_line_cell(StrBuf paths[3], const Cell *t, int col, int row)
{
    enum { U, D, L, R };
    static const int shift[4] = {0, 2, 4, 6};
    static const int opposite[4] = {D, U, R, L};
    static const int side[4][2] = {{L, R}, {L, R}, {U, D}, {U, D}}; /* perpendiculars */
    int kind[4];
    for (int d = 0; d < 4; d++)
        kind[d] = (t->lines >> shift[d]) & 3;
    double x0 = svg_px_x(col), y0 = svg_px_y(row);
    double cx = x0 + SVG_CELL_W / 2.0, cy = y0 + SVG_CELL_H / 2.0;
    const double gap = 2;
    for (int d = 0; d < 4; d++) {
        if (kind[d] < LINE_LIGHT || kind[d] > LINE_DASHED)
            continue;
        StrBuf *b = &paths[kind[d] - 1];
        bool vertical = d == U || d == D;
        double dir = d == U || d == L ? -1 : 1; /* sign of the way out of the cell */
        double end = d == U ? y0 : d == D ? y0 + SVG_CELL_H : d == L ? x0 : x0 + SVG_CELL_W;
        bool perp_double = kind[side[d][0]] == LINE_DOUBLE || kind[side[d][1]] == LINE_DOUBLE;
        for (int s = 0; s < 2; s++) {
            double offset = 0, start = 0; /* across the line; along it from the centre */
            if (kind[d] == LINE_DOUBLE) {
                offset = s ? gap : -gap;
                if (kind[side[d][s]] == LINE_DOUBLE)
                    start = gap;
                else if (kind[opposite[d]] == LINE_DOUBLE)
                    start = 0;
                else if (kind[side[d][!s]] == LINE_DOUBLE)
                    start = -gap;
            } else {
                if (s)
                    break; /* one stroke */
                start = perp_double ? gap : 0;
            }
            if (vertical)
                strbuf_addf(b, "M%g %gV%g", cx + offset, cy + dir * start, end);
            else
                strbuf_addf(b, "M%g %gH%g", cx + dir * start, cy + offset, end);
        }
    }
}

static void svg_text_run(StrBuf *b, const Canvas *c, int row, int from, int to, int style)
{
    /* trim blanks (and stray right halves) at both ends: they draw nothing */
    while (from < to && (canvas_cell(c, from, row)->width == 0 ||
                         strcmp(canvas_cell(c, from, row)->glyph, " ") == 0))
        from++;
    while (to > from) {
        const Cell *t = canvas_cell(c, to - 1, row);
        if (t->width != 0 && strcmp(t->glyph, " ") != 0)
            break;
        to--;
    }
    if (from >= to)
        return;
    strbuf_addf(b, "<text class=\"s-%s\" y=\"%g\" x=\"", canvas_style_name((Style)style),
                svg_px_y(row) + SVG_BASELINE);
    bool first = true;
    for (int x = from; x < to; x++) {
        const Cell *t = canvas_cell(c, x, row);
        if (t->width == 0)
            continue;
        strbuf_addf(b, first ? "%g" : " %g", svg_px_x(x));
        first = false;
    }
    strbuf_add(b, "\">");
    for (int x = from; x < to; x++) {
        const Cell *t = canvas_cell(c, x, row);
        if (t->width == 0)
            continue;
        /* a cell holds one character, so one x per character */
        size_t len = strlen(t->glyph);
        if (len == 0 || utf8_decode(t->glyph, &(uint32_t){0}) != len)
            strbuf_addc(b, '?');
        else
            svg_escape_into(b, t->glyph);
    }
    strbuf_add(b, "</text>\n");
}

static void svg_row(StrBuf *b, StrBuf paths[][3], const Canvas *c, int row)
{
    int w = canvas_width(c);
    /* backgrounds of inverse styles, merged along the row */
    for (int x = 0; x < w;) {
        int s = canvas_cell(c, x, row)->style;
        int end = x + 1;
        while (end < w && canvas_cell(c, end, row)->style == s)
            end++;
        if (svg_style(s)->inverse)
            strbuf_addf(b, "<rect x=\"%g\" y=\"%g\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
                        svg_px_x(x), svg_px_y(row), (end - x) * SVG_CELL_W, SVG_CELL_H,
                        svg_style_colour((Style)s));
        x = end;
    }
    /* bar glyphs as rectangles, merged along the row */
    for (int x = 0; x < w;) {
        const Cell *t = canvas_cell(c, x, row);
        double top, height, opacity;
        if (!svg_block(t->glyph, &top, &height, &opacity)) {
            x++;
            continue;
        }
        int end = x + 1;
        while (end < w && canvas_cell(c, end, row)->style == t->style &&
               strcmp(canvas_cell(c, end, row)->glyph, t->glyph) == 0)
            end++;
        strbuf_addf(b, "<rect x=\"%g\" y=\"%g\" width=\"%d\" height=\"%g\" fill=\"%s\"",
                    svg_px_x(x), svg_px_y(row) + top * SVG_CELL_H, (end - x) * SVG_CELL_W,
                    height * SVG_CELL_H, svg_ink(t->style));
        if (opacity < 1)
            strbuf_addf(b, " fill-opacity=\"%g\"", opacity);
        strbuf_add(b, "/>\n");
        x = end;
    }
    /* text runs, broken at line and bar cells and at style changes */
    int from = -1, style = 0;
    for (int x = 0; x <= w; x++) {
        const Cell *t = x < w ? canvas_cell(c, x, row) : NULL;
        double top, height, opacity;
        bool graphic = t && (svg_is_line_cell(t) || svg_block(t->glyph, &top, &height, &opacity));
        if (t && svg_is_line_cell(t))
            svg_line_cell(paths[t->style < STYLE_COUNT ? t->style : 0], t, x, row);
        bool ends = !t || graphic || (from >= 0 && t->style != style);
        if (from >= 0 && ends) {
            svg_text_run(b, c, row, from, x, style);
            from = -1;
        }
        if (t && !graphic && from < 0) {
            from = x;
            style = t->style;
        }
    }
}

static void svg_head(StrBuf *b, int width_px, int height_px, const char *title)
{
    strbuf_addf(b,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
                "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" xml:space=\"preserve\">\n"
                "<title>",
                width_px, height_px, width_px, height_px);
    svg_escape_into(b, title ? title : "scalelab");
    strbuf_add(b, "</title>\n<style>\n");
    strbuf_addf(b,
                "text{font-family:'DejaVu Sans Mono','Menlo','Consolas',monospace;"
                "font-size:%dpx;white-space:pre}\n",
                SVG_FONT_PX);
    for (int s = 0; s < STYLE_COUNT; s++) {
        const SvgStyle *st = svg_style(s);
        strbuf_addf(b, ".s-%s{fill:%s%s%s}\n", canvas_style_name((Style)s), svg_ink(s),
                    st->bold ? ";font-weight:bold" : "",
                    st->underline ? ";text-decoration:underline" : "");
    }
    strbuf_addf(b, "</style>\n<rect width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", width_px,
                height_px, SVG_BG);
}

char *svg_from_canvas(const Canvas *c, int rows, const char *title)
{
    int w = c ? canvas_width(c) : 0, h = c ? canvas_height(c) : 0;
    if (rows > 0 && rows < h)
        h = rows;
    StrBuf b = {0};
    svg_head(&b, 2 * SVG_MARGIN + w * SVG_CELL_W, 2 * SVG_MARGIN + h * SVG_CELL_H, title);
    StrBuf(*paths)[3] = xmem_calloc(STYLE_COUNT, sizeof *paths);
    for (int row = 0; row < h; row++)
        svg_row(&b, paths, c, row);
    static const char *const stroke[3] = {"stroke-width=\"1.4\"", "stroke-width=\"1.2\"",
                                          "stroke-width=\"1.4\" stroke-dasharray=\"3 1.5\""};
    for (int s = 0; s < STYLE_COUNT; s++)
        for (int k = 0; k < 3; k++) {
            if (paths[s][k].len == 0)
                continue;
            strbuf_addf(&b, "<path fill=\"none\" stroke=\"%s\" %s d=\"%s\"/>\n", svg_ink(s),
                        stroke[k], paths[s][k].s);
            strbuf_free(&paths[s][k]);
        }
    free(paths);
    strbuf_add(&b, "</svg>\n");
    return strbuf_take(&b);
}

bool svg_write_canvas(const Canvas *c, int rows, const char *title, FILE *out)
{
    if (!out)
        return false;
    char *s = svg_from_canvas(c, rows, title);
    bool ok = fputs(s, out) >= 0;
    free(s);
    return fflush(out) == 0 && ok && !ferror(out);
}
