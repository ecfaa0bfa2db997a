/* SPDX-License-Identifier: MIT */
/* aside — what scalelab does with a file of its own that it cannot read (a
 * progress file or a cache that does not parse, a folder where a file
 * belongs): it keeps it, under a name of its own beside it, and starts
 * afresh. Nothing is ever overwritten or deleted: each file set aside gets a
 * name no other file has, "<path>.corrupt-<UTC time>-<n>", n counting up
 * from 1 until the name is free, and the rename refuses to replace
 * (RENAME_NOREPLACE, or a hard link where the file system has no such
 * rename).
 *
 * Part of src/store (base only); nothing here prints.
 */
#ifndef SCALELAB_STORE_ASIDE_H
#define SCALELAB_STORE_ASIDE_H

#include <stdbool.h>
#include <stddef.h>

/* Moves path aside. True with the new name in aside; false with errno set
 * and path left where it was (aside then holds ""). */
bool aside_keep(const char *path, char *aside, size_t aside_len);

#endif
