/* xmem — allocation wrappers that abort on out-of-memory (see xmem.h). The
 * only place in model/ that writes to stderr. */
#include "base/xmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xmem_check(void *p, size_t size)
{
    if (!p && size) {
        fputs("scalelab: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *xmalloc(size_t size)
{
    return xmem_check(malloc(size ? size : 1), size);
}

void *xcalloc(size_t count, size_t size)
{
    return xmem_check(calloc(count ? count : 1, size ? size : 1), count * size);
}

void *xrealloc(void *ptr, size_t size)
{
    return xmem_check(realloc(ptr, size ? size : 1), size);
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}
