/* SPDX-License-Identifier: MIT */
/* utf8 — decoding UTF-8 and measuring it in terminal columns.
 *
 * Widths follow Unicode East Asian Width without setlocale or wcwidth: our
 * own table of ranges in utf8.c (wide and fullwidth = 2, combining marks and
 * zero-width characters = 0, everything else = 1). Invalid UTF-8 counts one
 * column per bad byte, so measuring never fails.
 *
 * Part of src/base, the bottom layer: pure C, no other dependency. The one
 * thing here that asks the locale is utf8_env_is_utf8, for what to print.
 */
#ifndef SCALELAB_BASE_UTF8_H
#define SCALELAB_BASE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes one UTF-8 character at s. Returns the bytes consumed (1 for an
 * invalid byte, with *cp = 0xFFFD; 0 at the end of the string). */
size_t utf8_decode(const char *s, uint32_t *cp);
/* Display width of one code point: 0, 1 or 2. */
int utf8_cp_width(uint32_t cp);
/* Display width of a NUL-terminated UTF-8 string (of its first n bytes). */
int utf8_width(const char *s);
int utf8_width_n(const char *s, size_t n);

/* True when the user's locale (LC_ALL, else LC_CTYPE, else LANG, as
 * setlocale reads them) has the UTF-8 character set: what decides between
 * UTF-8 drawing and ASCII for the screen and for `render`. A locale that is
 * not installed is the C locale: ASCII. The program's own locale is left as
 * it was. */
bool utf8_env_is_utf8(void);

#endif
