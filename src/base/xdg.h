/* SPDX-License-Identifier: MIT */
/* xdg — where scalelab keeps its files, by the XDG Base Directory
 * specification: progress and saved work under the state home, the lesson
 * header cache under the cache home, each in a "scalelab" folder.
 *
 * $XDG_STATE_HOME and $XDG_CACHE_HOME count only when they hold an absolute
 * path; an unset, empty or relative value is ignored (the specification
 * says so) and $HOME/.local/state or $HOME/.cache is used, when $HOME is an
 * absolute path. Part of src/base: no other layer, no printing.
 */
#ifndef SCALELAB_BASE_XDG_H
#define SCALELAB_BASE_XDG_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { XDG_STATE, XDG_CACHE } XdgBase;

/* BASE/scalelab, or BASE/scalelab/NAME when name is not NULL, into buf.
 * Returns buf, or NULL when neither the variable nor HOME gives an absolute
 * path or the result does not fit in n. */
const char *xdg_path(XdgBase base, const char *name, char *buf, size_t n);

/* mkdir -p: creates dir and the folders above it that are missing, each
 * with mode 0700 as the specification asks. True when dir is a folder at
 * the end; else false with "cannot create FOLDER: reason" in err. */
bool xdg_mkdirs(const char *dir, char *err, size_t err_len);

#endif
