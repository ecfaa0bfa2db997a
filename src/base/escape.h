/* SPDX-License-Identifier: MIT */
/* escape — what scalelab prints of text it did not write (lesson titles and
 * messages, file names, progress fields) reaches a terminal as plain,
 * printable text: control characters, DEL, invalid UTF-8, C1 controls and
 * the Unicode bidirectional controls (U+061C, U+200E-U+200F, U+202A-U+202E,
 * U+2066-U+2069) are written as \n, \t, \r and \xNN escapes, so no byte can
 * move the cursor, change colours, reorder or hide what follows.
 *
 * Part of src/base, the bottom layer: pure C, no other dependency.
 */
#ifndef SCALELAB_BASE_ESCAPE_H
#define SCALELAB_BASE_ESCAPE_H

#include <stddef.h>

/* Copies msg (msg_len bytes) into out (out_len bytes), escaping as above and
 * cutting at out_len with "...". Never fails; out is always terminated when
 * out_len > 0. */
void escape_text(const char *msg, size_t msg_len, char *out, size_t out_len);

#endif
