/* SPDX-License-Identifier: MIT */
/* escape — what scalelab prints of text it did not write (lesson titles and
 * messages, file names, progress fields) reaches a terminal as plain,
 * printable text: control characters, DEL, invalid UTF-8 and C1 controls are
 * written as \n, \t, \r and \xNN escapes, so no byte can move the cursor,
 * change colours or hide what follows.
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
