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

#include "base/attr.h"

#include <stddef.h>

typedef struct {
    char *s;
    size_t len, cap;
} StrBuf;

void strbuf_add(StrBuf *b, const char *s);
void strbuf_add_n(StrBuf *b, const char *s, size_t n);
void strbuf_addc(StrBuf *b, char ch);
void strbuf_addf(StrBuf *b, const char *fmt, ...) ATTR_PRINTF(2, 3);
/* Returns the string (never NULL: "" when empty) and resets b. Caller frees. */
char *strbuf_take(StrBuf *b) ATTR_RETURNS_NONNULL;
void strbuf_free(StrBuf *b);

/* A list of names for a message, "unknown GPU 'x' (known: a100, h100, ...)":
 * name_at(0, ctx) .. name_at(count - 1, ctx) joined by ", ". Every name is
 * there, however many: nothing is cut. */
typedef const char *(*StrBufNameAt)(int i, const void *ctx);
/* The list, allocated (through xmem): caller frees. */
char *strbuf_join(int count, StrBufNameAt name_at, const void *ctx) ATTR_RETURNS_NONNULL;
/* The list into buf as snprintf writes: at most len bytes, terminated when
 * len > 0. Returns the length of the whole list, so a caller sizes buf with
 * a first call (buf NULL, len 0); for memory that is not ours to allocate
 * with xmem, such as a Lua userdata. */
size_t strbuf_join_into(char *buf, size_t len, int count, StrBufNameAt name_at, const void *ctx);

#endif
