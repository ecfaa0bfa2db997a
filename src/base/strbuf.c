/* SPDX-License-Identifier: MIT */
/* strbuf — growable string; see strbuf.h. */
#include "base/strbuf.h"

#include "base/xmem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void strbuf_reserve(StrBuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->s = xmem_realloc(b->s, cap);
    b->cap = cap;
}

void strbuf_add_n(StrBuf *b, const char *s, size_t n)
{
    strbuf_reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void strbuf_add(StrBuf *b, const char *s)
{
    strbuf_add_n(b, s, strlen(s));
}

void strbuf_addc(StrBuf *b, char ch)
{
    strbuf_add_n(b, &ch, 1);
}

void strbuf_addf(StrBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    strbuf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *strbuf_take(StrBuf *b)
{
    char *s = b->s ? b->s : xmem_strdup("");
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void strbuf_free(StrBuf *b)
{
    if (!b)
        return;
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

size_t strbuf_join_into(char *buf, size_t len, int count, StrBufNameAt name_at, const void *ctx)
{
    size_t need = 0;
    for (int i = 0; i < count; i++) {
        const char *name = name_at(i, ctx);
        const char *parts[2] = {i ? ", " : "", name ? name : ""};
        for (int k = 0; k < 2; k++) {
            size_t n = strlen(parts[k]);
            if (need < len) {
                size_t room = len - 1 - need;
                memcpy(buf + need, parts[k], n < room ? n : room);
            }
            need += n;
        }
    }
    if (len > 0)
        buf[need < len ? need : len - 1] = '\0';
    return need;
}

char *strbuf_join(int count, StrBufNameAt name_at, const void *ctx)
{
    size_t n = strbuf_join_into(NULL, 0, count, name_at, ctx);
    char *s = xmem_alloc(n + 1);
    strbuf_join_into(s, n + 1, count, name_at, ctx);
    return s;
}
