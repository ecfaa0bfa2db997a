/* SPDX-License-Identifier: MIT */
/* names — the nearest of a list of known names to a misspelt one, for
 * messages that say "did you mean 'tolerance'?".
 *
 * Part of src/base, the bottom layer: pure C, no other dependency.
 */
#ifndef SCALELAB_BASE_NAMES_H
#define SCALELAB_BASE_NAMES_H

/* The name of known (a NULL-terminated list) nearest to word: the fewest
 * edits (a letter inserted, deleted, changed, or two neighbours swapped), at
 * most 2 (1 for words of 3 letters or fewer); else a name that word begins
 * (or that begins word) sharing at least 3 letters. On ties, the one that shares more of word's
 * first letters ("tpp": "tp", not "pp"), then the first in the list; NULL when none is near, or
 * word is itself in the list. */
const char *names_nearest(const char *word, const char *const *known);

#endif
