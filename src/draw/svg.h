/* SPDX-License-Identifier: MIT */
/* svg — a canvas as a standalone SVG 1.1 document, with the same layout and
 * colours as on screen: for `scalelab render --svg` and the UI's export key.
 *
 * Layout: a monospace grid of SVG_CELL_W x SVG_CELL_H pixels per cell (plus
 * a margin), a background rectangle, a <title>. Text is one <text> per run of
 * same-styled cells with one x position per character, so spacing is exact
 * whatever the font's advance; a wide glyph takes two cells. Box-drawing
 * cells made by canvas lines become stroked paths (double, light or dashed
 * by tier), and the bar glyphs █ ▓ ▒ ░ ▄ ▀ become rectangles, so lines and
 * bars join without gaps in any font. Colours come from one table in svg.c
 * that gives each semantic Style the meaning canvas_to_ansi gives it
 * (scale-up green, scale-out blue, scale-across magenta, warning yellow...).
 *
 * Every character written is valid XML: & < > " ' are escaped, control
 * characters and invalid UTF-8 become '?'.
 *
 * Pure C: depends on canvas and text only; no curses, no Lua, no model.
 * The caller owns what svg_from_canvas returns; NULL canvases are accepted.
 */
#ifndef SCALELAB_DRAW_SVG_H
#define SCALELAB_DRAW_SVG_H

#include "draw/canvas.h"
#include <stdbool.h>
#include <stdio.h>

#define SVG_CELL_W 9  /* pixels per column */
#define SVG_CELL_H 18 /* pixels per row */
#define SVG_MARGIN 8  /* pixels around the grid */

/* The SVG of the first `rows` rows of the canvas (rows <= 0 or more than
 * the height: all rows), titled `title` (NULL: "scalelab"). A NULL canvas
 * gives an empty 0 x 0 grid with its background. Caller frees. */
char *svg_from_canvas(const Canvas *c, int rows, const char *title);

/* The same, written to out. Returns false when out is NULL or a write
 * fails (ferror/fflush), so the caller can report it. */
bool svg_write_canvas(const Canvas *c, int rows, const char *title, FILE *out);

/* The foreground colour of a style as "#rrggbb" (the default foreground
 * for styles without a colour); for tests and other exporters. */
const char *svg_style_colour(Style s);

/* Appends s to a newly allocated string with XML escapes: &amp; &lt; &gt;
 * &quot; &apos;; control characters (C0 except none, DEL, C1), U+FFFE/FFFF
 * and invalid UTF-8 become '?'. NULL gives "". Caller frees. */
char *svg_escape(const char *s);

#endif
