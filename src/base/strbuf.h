/* SPDX-License-Identifier: MIT */
/* strbuf — a growable NUL-terminated string (canvas dumps, descriptions,
 * JSON, files built before one atomic write). Part of src/base, the bottom
 * layer: depends only on xmem.
 *
 * Invariant: s is always NUL-terminated once anything was appended; len is
 * strlen(s). Allocation through xmem (aborts on out-of-memory). The caller
 * takes ownership of s with strbuf_take; strbuf_free accepts a zeroed buffer.
 */
#ifndef SCALELAB_BASE_STRBUF_H
#define SCALELAB_BASE_STRBUF_H

#include <stddef.h>

typedef struct {
    char *s;
    size_t len, cap;
} StrBuf;

void strbuf_add(StrBuf *b, const char *s);
void strbuf_add_n(StrBuf *b, const char *s, size_t n);
void strbuf_addc(StrBuf *b, char ch);
void strbuf_addf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the string (never NULL: "" when empty) and resets b. Caller frees. */
char *strbuf_take(StrBuf *b);
void strbuf_free(StrBuf *b);

#endif
