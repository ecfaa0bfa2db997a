/* SPDX-License-Identifier: MIT */
/* presets_doc — the lists of presets the docs carry (lessons/AUTHORING.md's
 * table, the man page's PRESETS section), written from the compiled-in
 * tables by `scalelab eval --list --format markdown|man`. */
#ifndef SCALELAB_CMD_PRESETS_DOC_H
#define SCALELAB_CMD_PRESETS_DOC_H

#include <stdbool.h>
#include <stdio.h>

/* format "markdown" (tables of systems, GPUs and models) or "man" (roff
 * .SS and .TP entries); false, writing nothing, for another format. */
bool presets_doc_write(FILE *out, const char *format);

#endif
