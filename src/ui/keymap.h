/* SPDX-License-Identifier: MIT */
/* keymap — key bindings as tables, one per screen (or per page kind), that
 * drive both the dispatch of a key and what the screen says about its keys:
 * the footer lines and the `?` overlay are made from the same rows, so a
 * key cannot work without being listed or be listed without working.
 *
 * A row names the key codes it answers (ui/keys.h), how the keys are
 * written for people ("t/T"), one help line, an optional short footer word
 * with a priority (lower shows first; a narrow footer keeps the lowest),
 * and the function that runs. Handlers get the screen's state as void *
 * (each table belongs to one state type) and the key pressed.
 *
 * Pure: no curses. Tables are static const data owned by their screens.
 */
#ifndef SCALELAB_UI_KEYMAP_H
#define SCALELAB_UI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

struct Canvas;

typedef int (*KeyFn)(void *state, int key); /* returns a ScreenAction */

#define KEYMAP_CODES 10

typedef struct {
    int codes[KEYMAP_CODES]; /* the keys, 0-terminated (at most 9) */
    const char *keys;        /* as written in help: "t/T", "Arrows or H J K L" */
    const char *help;        /* one line for the ? overlay */
    const char *foot;        /* footer words ("t/T TP"), NULL: not in the footer */
    int prio;                /* footer order, lower first (0..9) */
    KeyFn fn;
} KeyBinding;

typedef struct KeyTable {
    const char *title; /* of the ? overlay: "Scenario keys" */
    const KeyBinding *rows;
    int n;
} KeyTable;

#define KEYMAP_TABLE(title, rows)                                                                 \
    {                                                                                             \
        title, rows, (int)(sizeof rows / sizeof rows[0])                                          \
    }

/* The row of t that answers key, NULL when none. */
const KeyBinding *keymap_find(const KeyTable *t, int key);

/* Footer lines from the rows of the tables (in order; a row whose keys an
 * earlier row already answers is skipped): footer words by priority, joined
 * by " · " (" | " on ASCII), as many as fit in w columns on `lines` lines
 * (1 or 2), then "? more" when some were left out, "? help" otherwise
 * (neither when no row answers '?'). The words keep the tables' order
 * within a line. */
void keymap_footer(const KeyTable *const *tables, int n_tables, int w, int lines, bool ascii,
                   char out[][400]);

/* The ? overlay lines of the tables ("keys   help", aligned), with a
 * heading line per table after the first; a row whose keys all belong to
 * rows of earlier tables is left out (those rows answer them), and so is a
 * row without help. NULL-terminated into lines
 * (max entries, the last one NULL). Strings live in buf. */
int keymap_help_lines(const KeyTable *const *tables, int n_tables, const char **lines, int max,
                      char *buf, size_t buf_len);

/* Draws the ? overlay of the tables on c (screen_help_draw's box). */
void keymap_help_draw(struct Canvas *c, const KeyTable *const *tables, int n_tables);

#endif
