/* SPDX-License-Identifier: MIT */
/* xmem — the one out-of-memory policy of scalelab: allocation failure of
 * scalelab's own (small, bounded) structures is not recoverable, so these
 * wrappers print one line and abort. Lua's allocator is separate: there a
 * failed allocation is a script error (src/lesson/), never an abort.
 * Part of src/base, the bottom layer: pure C, no other dependency.
 */
#ifndef SCALELAB_BASE_XMEM_H
#define SCALELAB_BASE_XMEM_H

#include <stddef.h>

void *xmem_alloc(size_t size);
void *xmem_calloc(size_t count, size_t size);
void *xmem_realloc(void *ptr, size_t size);
char *xmem_strdup(const char *s);

#endif
