/* SPDX-License-Identifier: MIT */
/* canvas — a grid of cells that diagrams, charts and text are drawn onto.
 *
 * A cell holds one glyph (UTF-8 bytes, NUL-terminated), its display width
 * (1, 2 for an East-Asian wide glyph, 0 for the cell under the right half of
 * a wide glyph) and a semantic Style: what the cell means ("scale-up link",
 * "GPU of TP group 3"), never a colour. The UI maps styles to curses colour
 * pairs with its own table; canvas_to_ansi uses the SGR table in canvas.c.
 *
 * Invariants: every cell always holds a valid glyph (a blank is " "); writes
 * outside the grid clip silently; a wide glyph that would straddle the right
 * edge is not drawn; overwriting half of a wide glyph blanks the other half.
 * Lines drawn with canvas_hline/vline/box remember which directions meet in
 * each cell, so crossing and touching lines join (┼ ├ ┬ ╪ ╬ …; ASCII +).
 *
 * The character set is a property of the canvas, decided once by whoever
 * makes it (canvas_set_ascii: the terminal's locale, a --ascii flag). On an
 * ASCII canvas every glyph written is converted at once through the one
 * look-alike table (canvas_ascii_glyph), so drawing code writes UTF-8 and
 * asks canvas_is_ascii only where the ASCII form needs other room or words.
 *
 * Pure C: no curses, no Lua, no model. Allocation through xmem (aborts on
 * out-of-memory). The caller owns what canvas_new and canvas_to_* return;
 * canvas_free accepts NULL.
 */
#ifndef SCALELAB_DRAW_CANVAS_H
#define SCALELAB_DRAW_CANVAS_H

#include <stdbool.h>
#include <stddef.h>

/* What a cell means. Keep STYLE_COUNT last; the UI and canvas.c index tables
 * with it. Groups cycle through 8 styles; views also draw the group letter, so
 * colour never carries meaning alone. */
typedef enum {
    STYLE_NORMAL,
    STYLE_DIM,
    STYLE_BOLD,
    STYLE_HEADING,
    STYLE_EMPH,
    STYLE_CODE,
    STYLE_FRAME,       /* boxes and axes that are not a network link */
    STYLE_LABEL,       /* figures printed next to a diagram element */
    STYLE_UP_LINK,     /* scale-up: NVLink / ICI */
    STYLE_OUT_LINK,    /* scale-out: InfiniBand / RDMA Ethernet */
    STYLE_ACROSS_LINK, /* scale-across: between sites */
    STYLE_GPU,
    STYLE_GPU_GROUP_0,
    STYLE_GPU_GROUP_1,
    STYLE_GPU_GROUP_2,
    STYLE_GPU_GROUP_3,
    STYLE_GPU_GROUP_4,
    STYLE_GPU_GROUP_5,
    STYLE_GPU_GROUP_6,
    STYLE_GPU_GROUP_7,
    STYLE_SWITCH,
    STYLE_NIC,
    STYLE_SELECTED,
    STYLE_CURSOR,
    STYLE_WARNING,
    STYLE_GOOD,
    STYLE_BAD,
    STYLE_LOAD_IDLE,
    STYLE_LOAD_BUSY,
    STYLE_LOAD_BOTTLENECK,
    STYLE_BAR_COMPUTE,
    STYLE_BAR_TP,
    STYLE_BAR_PP,
    STYLE_BAR_BUBBLE,
    STYLE_BAR_DP,
    STYLE_BAR_EP,
    STYLE_COUNT
} Style;

#define STYLE_GPU_GROUPS 8
/* The group style of group g (cycles through the 8 group styles). */
Style canvas_group_style(int group);
/* "up-link", "gpu-group-3", ...: stable names for themes and tests. */
const char *canvas_style_name(Style s);

/* Line kinds. Tiers differ by glyph as well as by style:
 * double ═ ║ (ASCII = #) for scale-up, light ─ │ (ASCII - |) for scale-out
 * and frames, dashed ┄ ┆ (ASCII ~ :) for scale-across. */
typedef enum { LINE_LIGHT = 1, LINE_DOUBLE = 2, LINE_DASHED = 3 } LineKind;

typedef struct {
    char glyph[5];       /* UTF-8, NUL-terminated; "" in a width-0 cell */
    unsigned char width; /* 1, 2, or 0 for the right half of a wide glyph */
    unsigned char style; /* a Style */
    unsigned char lines; /* internal: line directions meeting here */
} Cell;

typedef struct Canvas Canvas;

Canvas *canvas_new(int w, int h); /* negative sizes count as 0; all blank; UTF-8 */
void canvas_free(Canvas *c);
/* Makes the canvas ASCII (or UTF-8 again for what is drawn next). Turning it
 * ASCII converts the cells already drawn. */
void canvas_set_ascii(Canvas *c, bool ascii);
bool canvas_is_ascii(const Canvas *c);
/* The ASCII look-alike of one UTF-8 glyph of display width 1 ("═" → "=",
 * "…" → "~", "µ" → "u"); "?" when the table has none. The one table, for
 * the canvas and for a terminal that cannot show UTF-8. */
const char *canvas_ascii_glyph(const char *glyph);
/* Changes the size; keeps the overlapping top-left content, blanks the rest. */
void canvas_resize(Canvas *c, int w, int h);
void canvas_clear(Canvas *c);
int canvas_width(const Canvas *c);
int canvas_height(const Canvas *c);
/* The cell at (x, y); NULL outside the grid. */
const Cell *canvas_cell(const Canvas *c, int x, int y);

/* Puts the first UTF-8 character of glyph at (x, y). Returns its display
 * width (0 when glyph is empty). Invalid bytes draw as '?'. */
int canvas_put_glyph(Canvas *c, int x, int y, const char *glyph, Style s);
/* Puts text on one row, no wrapping; stops at '\n'. Returns the columns it
 * takes (as if unclipped). */
int canvas_put_text(Canvas *c, int x, int y, const char *text, Style s);
/* Same, but never draws past x + max_w; text that does not fit ends in '…'
 * ('~' on an ASCII canvas). Returns the columns drawn. */
int canvas_put_text_max(Canvas *c, int x, int y, int max_w, const char *text, Style s);
/* Changes only the style of a rectangle (highlights). */
void canvas_set_style(Canvas *c, int x, int y, int w, int h, Style s);
/* Fills a rectangle with one glyph. */
void canvas_fill(Canvas *c, int x, int y, int w, int h, const char *glyph, Style s);

/* Lines that join: each cell remembers the directions drawn through it. */
void canvas_hline(Canvas *c, int x, int y, int len, LineKind k, Style s);
void canvas_vline(Canvas *c, int x, int y, int len, LineKind k, Style s);
void canvas_box(Canvas *c, int x, int y, int w, int h, LineKind k, Style s);

/* Copies all of src onto dst with its top-left at (x, y), clipped to dst
 * (converted when dst is ASCII). Views draw into a canvas of their own box
 * size and blit it, so nothing they draw can leave their box. */
void canvas_blit(Canvas *dst, int x, int y, const Canvas *src);

/* The canvas as text: one line per row, trailing blanks trimmed, each row
 * ending in '\n'. Caller frees. */
char *canvas_to_text(const Canvas *c);
/* The same with SGR colour escapes from the style table in canvas.c; each row
 * ends with a reset. Caller frees. */
char *canvas_to_ansi(const Canvas *c);
/* The SGR parameters canvas_to_ansi uses for a style ("1;36"), "" for none. */
const char *canvas_style_sgr(Style s);

#endif
