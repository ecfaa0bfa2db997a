/* SPDX-License-Identifier: MIT */
/* text — measuring, wrapping and drawing text for terminals.
 *
 * Widths are those of base/utf8.h (locale-independent; invalid UTF-8 counts
 * one column per bad byte and draws as '?', so measuring never fails).
 *
 * Markup (lesson pages, captions), one construct per line start:
 *   "# Heading" (also ##, ###), "- bullet" (hanging indent),
 *   blank line = paragraph break; inline *emphasis* and `code`.
 * Consecutive non-blank lines are joined into one paragraph and re-wrapped.
 *
 * Pure C: depends only on canvas and base/utf8. No allocation beyond what canvas does.
 */
#ifndef SCALELAB_DRAW_TEXT_H
#define SCALELAB_DRAW_TEXT_H

#include "base/strbuf.h"
#include "draw/canvas.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Word wrapping: finds the next line of at most width columns in s (breaking
 * at spaces, or inside a word longer than width). Returns the bytes of the
 * line (trailing spaces excluded) and sets *next to the offset of the next
 * line's first byte (spaces and one '\n' skipped). At the end *next is the
 * length of s. */
size_t text_wrap_line(const char *s, int width, size_t *next);
/* Number of lines text_wrap_line makes of s (at least 1). */
int text_wrap_count(const char *s, int width);

/* Text to print rather than draw (a command's output, --describe): s
 * appended to b in lines of at most width columns, each ending in '\n'.
 * Each line of s is wrapped by text_wrap_line. The first line continues
 * one that already holds `first` columns (a lead the caller printed);
 * every other line starts with indent spaces, and a line of s that starts
 * with "- " hangs its continuation lines two columns further, under its
 * text. An empty line of s stays empty; a last '\n' adds none. */
void text_wrap_append(StrBuf *b, const char *s, int width, int first, int indent);

/* Draws plain text wrapped into the w x h box at (x, y). Returns the number
 * of lines the whole text needs (drawn or not). */
int text_draw_wrapped(Canvas *c, int x, int y, int w, int h, const char *s, Style st);

/* Draws markup into the w x h box at (x, y), skipping the first `scroll`
 * lines. Returns the number of lines the whole text needs at width w, so the
 * caller can scroll. On an ASCII canvas bullets draw as '-' instead of '•'. */
int text_draw_markup(Canvas *c, int x, int y, int w, int h, const char *markup, int scroll);

/* Running text with inline markup (*emphasis*, `code`), as a page's
 * paragraph: single newlines join lines, a blank line breaks one, the
 * markers are not drawn. Draws into the w x h box at (x, y) (c NULL: only
 * counts) and returns the lines the whole text needs. text_inline_count
 * counts without drawing. */
int text_draw_inline(Canvas *c, int x, int y, int w, int h, const char *s, Style st);
int text_inline_count(const char *s, int w);

/* A screen's title on row 0 (right right-aligned, may be NULL) and a rule on
 * row 1; returns the first free row (2). */
int text_title_rule(Canvas *c, const char *title, const char *right);

#endif
