/* SPDX-License-Identifier: MIT */
/* msg — the one way library code reports a reason: a printf-style one-line
 * message into a caller's buffer. Functions return a status and fill `err`;
 * they never print. Part of src/base, the bottom layer: pure C, no other
 * dependency.
 */
#ifndef SCALELAB_BASE_MSG_H
#define SCALELAB_BASE_MSG_H

#include "base/attr.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* The one size of a message buffer: every `char err[MSG_LEN]` holds a
 * "file:line: " prefix and a reason of a few lines' worth. */
#define MSG_LEN 512

/* Writes the formatted message into err, always terminated. A message
 * longer than err_len is cut at a character boundary and ends in "...", so
 * a cut never passes for the whole. err may be NULL or err_len 0: then
 * nothing is written. */
void msg_set(char *err, size_t err_len, const char *fmt, ...) ATTR_PRINTF(3, 4);
/* msg_set, then false: `return msg_fail(err, err_len, ...)` for a check
 * that refuses. */
bool msg_fail(char *err, size_t err_len, const char *fmt, ...) ATTR_PRINTF(3, 4);
/* msg_set for a caller that has its own variable arguments. */
void msg_vset(char *err, size_t err_len, const char *fmt, va_list ap) ATTR_PRINTF(3, 0);

#endif
