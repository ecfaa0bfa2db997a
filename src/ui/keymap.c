/* SPDX-License-Identifier: MIT */
/* keymap — key tables driving dispatch, footer and help (see keymap.h).
 * Pure: no curses.
 */
#include "ui/keymap.h"

#include "base/utf8.h"
#include "draw/text.h"
#include "ui/screens.h"

#include <stdio.h>
#include <string.h>

#define KEYMAP_MAX_ROWS 96

static bool keymap_row_has(const KeyBinding *b, int key)
{
    for (int i = 0; i < KEYMAP_CODES && b->codes[i]; i++)
        if (b->codes[i] == key)
            return true;
    return false;
}

const KeyBinding *keymap_find(const KeyTable *t, int key)
{
    for (int i = 0; t && i < t->n; i++)
        if (keymap_row_has(&t->rows[i], key))
            return &t->rows[i];
    return NULL;
}

/* The rows of the tables in order, without rows an earlier row shadows. */
static int keymap_collect(const KeyTable *const *tables, int n_tables, const KeyBinding **out)
{
    int n = 0;
    for (int t = 0; t < n_tables; t++) {
        for (int i = 0; tables[t] && i < tables[t]->n && n < KEYMAP_MAX_ROWS; i++) {
            const KeyBinding *b = &tables[t]->rows[i];
            bool shadowed = false;
            for (int k = 0; k < n && !shadowed; k++)
                shadowed = b->codes[0] && keymap_row_has(out[k], b->codes[0]);
            if (!shadowed)
                out[n++] = b;
        }
    }
    return n;
}

/* Lays the chosen footer words into the lines; false when they do not fit. */
static bool keymap_lay(const KeyBinding **rows, const bool *on, int n, const char *last, int w,
                       int lines, const char *sep, char out[][400])
{
    int line = 0, col = 0, sw = utf8_width(sep);
    for (int l = 0; l < lines; l++)
        out[l][0] = '\0';
    for (int i = 0; i <= n; i++) {
        const char *word = i < n ? (on[i] ? rows[i]->foot : NULL) : last;
        if (!word)
            continue;
        int ww = utf8_width(word);
        if (col > 0 && col + sw + ww > w) {
            line++;
            col = 0;
        }
        if (line >= lines || ww > w)
            return false;
        size_t len = strlen(out[line]);
        snprintf(out[line] + len, 400 - len, "%s%s", col > 0 ? sep : "", word);
        col += (col > 0 ? sw : 0) + ww;
    }
    return true;
}

void keymap_footer(const KeyTable *const *tables, int n_tables, int w, int lines, bool ascii,
                   char out[][400])
{
    const KeyBinding *rows[KEYMAP_MAX_ROWS];
    bool on[KEYMAP_MAX_ROWS] = {false};
    int n = keymap_collect(tables, n_tables, rows);
    const char *sep = ascii ? " | " : " · ";
    int with_foot = 0, shown = 0;
    bool help = false;
    for (int i = 0; i < n; i++) {
        with_foot += rows[i]->foot != NULL;
        help = help || keymap_row_has(rows[i], '?');
    }
    for (int prio = 0; prio <= 9; prio++)
        for (int i = 0; i < n; i++) {
            if (!rows[i]->foot || rows[i]->prio != prio)
                continue;
            on[i] = true;
            const char *last = !help ? NULL : shown + 1 == with_foot ? "? help" : "? more";
            if (keymap_lay(rows, on, n, last, w, lines, sep, out))
                shown++;
            else
                on[i] = false;
        }
    keymap_lay(rows, on, n,
               !help                ? NULL
               : shown == with_foot ? "? help"
                                    : "? more",
               w, lines, sep, out);
}

/* "n/p page · r reload · Esc menu": a table's footer words on one line. */
static int keymap_condensed(const KeyTable *t, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s:", t->title);
    for (int i = 0; i < t->n && used + 2 < len; i++)
        if (t->rows[i].foot)
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     used > strlen(t->title) + 1 ? " · " : " ", t->rows[i].foot);
    return (int)(used < len ? used : len - 1);
}

/* Does the row say something in the overlay: a help line, and not every
 * one of its keys taken by a row of an earlier table? */
static bool keymap_row_listed(const KeyTable *const *tables, int t, const KeyBinding *b)
{
    if (!b->help)
        return false;
    if (!b->codes[0])
        return true; /* a note: answers no key */
    for (int i = 0; i < KEYMAP_CODES && b->codes[i]; i++) {
        bool taken = false;
        for (int e = 0; e < t && !taken; e++)
            taken = keymap_find(tables[e], b->codes[i]) != NULL;
        if (!taken)
            return true;
    }
    return false;
}

int keymap_help_lines(const KeyTable *const *tables, int n_tables, const char **lines, int max,
                      char *buf, size_t buf_len)
{
    int kw = 0, n = 0, all = 0;
    size_t used = 0;
    for (int t = 0; t < n_tables; t++)
        for (int i = 0; tables[t] && i < tables[t]->n; i++) {
            if (!keymap_row_listed(tables, t, &tables[t]->rows[i]))
                continue;
            int k = utf8_width(tables[t]->rows[i].keys);
            kw = k > kw && k <= 15 ? k : kw;
            all++;
        }
    /* Too many rows for the room: the tables after the first in one line each. */
    bool condense = all + 2 * (n_tables - 1) + 1 > max;
    for (int t = 0; t < n_tables && n + 1 < max; t++) {
        if (!tables[t])
            continue;
        if (t > 0 && (condense || n + 3 < max) && used + 400 < buf_len) {
            if (!condense)
                lines[n++] = "";
            int len = condense ? keymap_condensed(tables[t], buf + used, 400)
                               : snprintf(buf + used, buf_len - used, "%s", tables[t]->title);
            lines[n++] = buf + used;
            used += (size_t)len + 1;
            if (condense)
                continue;
        }
        for (int i = 0; i < tables[t]->n && n + 1 < max; i++) {
            const KeyBinding *b = &tables[t]->rows[i];
            if (!keymap_row_listed(tables, t, b) || used + 300 >= buf_len)
                continue;
            int pad = kw - utf8_width(b->keys);
            int len = snprintf(buf + used, buf_len - used, "%s%*s   %s", b->keys,
                               pad > 0 ? pad : 0, "", b->help);
            if (len < 0 || used + (size_t)len + 1 > buf_len)
                break;
            lines[n++] = buf + used;
            used += (size_t)len + 1;
        }
    }
    lines[n] = NULL;
    return n;
}

void keymap_help_draw(struct Canvas *c, const KeyTable *const *tables, int n_tables)
{
    const char *lines[KEYMAP_MAX_ROWS + 8];
    char buf[16384];
    int room = canvas_height(c) - 6; /* the box's frame and padding */
    int max = (int)(sizeof lines / sizeof lines[0]);
    keymap_help_lines(tables, n_tables, lines, room + 1 < max ? room + 1 : max, buf, sizeof buf);
    screen_help_draw(c, tables[0]->title, lines);
}
