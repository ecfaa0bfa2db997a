/* SPDX-License-Identifier: MIT */
/* lineedit — the one-line entry a learner types into (a predict answer, the
 * menu filter): keys.h codes into a NUL-terminated UTF-8 buffer the caller
 * owns, never written past its size.
 *
 * Pure: no curses.
 */
#ifndef SCALELAB_UI_LINEEDIT_H
#define SCALELAB_UI_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

/* Does key type a character: printable ASCII, or a code point from U+00A0
 * to U+07FF (Latin-1 and Greek letters, as µ U+00B5 and μ U+03BC in "µs")? */
bool lineedit_is_char(int key);

/* Backspace (UIK_BACKSPACE, DEL or Ctrl-H) deletes the last character; a
 * character key is appended when it fits in size bytes with the NUL. True
 * when key was one of those, whether or not it changed buf. */
bool lineedit_key(char *buf, size_t size, int key);

#endif
