/* SPDX-License-Identifier: MIT */
/* xmem — the one out-of-memory policy of scalelab: allocation failure of
 * scalelab's own (small, bounded) structures is not recoverable, so these
 * wrappers print one line and abort. Lua's allocator is separate: there a
 * failed allocation is a script error (src/lesson/), never an abort.
 * Part of src/base, the bottom layer: pure C, no other dependency.
 */
#ifndef SCALELAB_BASE_XMEM_H
#define SCALELAB_BASE_XMEM_H

#include "base/attr.h"

#include <stddef.h>

/* Never NULL: each returns memory (size 0 gives a valid 1-byte block) or
 * does not return. The caller frees with free(). */
void *xmem_alloc(size_t size) ATTR_MALLOC ATTR_RETURNS_NONNULL;
/* Zeroed; aborts also when count * size overflows. */
void *xmem_calloc(size_t count, size_t size) ATTR_MALLOC ATTR_RETURNS_NONNULL;
void *xmem_realloc(void *ptr, size_t size) ATTR_RETURNS_NONNULL;
char *xmem_strdup(const char *s) ATTR_MALLOC ATTR_RETURNS_NONNULL;

#endif
