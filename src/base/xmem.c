/* SPDX-License-Identifier: MIT */
/* xmem — allocation wrappers that abort on out-of-memory (see xmem.h). The
 * one place in base/, model/ and draw/ that writes to stderr. */
#include "base/xmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The policy itself: one line on stderr, then abort(). */
ATTR_NORETURN static void xmem_fail(void)
{
    fputs("scalelab: out of memory\n", stderr);
    abort();
}

static void *xmem_check(void *p)
{
    if (!p)
        xmem_fail();
    return p;
}

void *xmem_alloc(size_t size)
{
    return xmem_check(malloc(size ? size : 1));
}

void *xmem_calloc(size_t count, size_t size)
{
    return xmem_check(calloc(count ? count : 1, size ? size : 1));
}

void *xmem_realloc(void *ptr, size_t size)
{
    return xmem_check(realloc(ptr, size ? size : 1));
}

char *xmem_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmem_alloc(n), s, n);
}
