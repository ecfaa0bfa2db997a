/* SPDX-License-Identifier: MIT */
/* screen_play — free play (`scalelab play`): the scenario screen on any
 * system preset and workload, every change allowed, no goal. `w` writes the
 * state as a small Lua lesson with one scenario page (cluster, workload,
 * mapping, the placement as `start` moves, a placeholder goal and a
 * reference solution of one move, so `scalelab check` passes on it); `scalelab
 * play FILE.lua` loads such a file (or any lesson's first scenario) back.
 *
 * Also here: writing the screen's canvas as SVG for the UI's export key
 * (screen_play_export_svg), used by free play and lesson pages alike.
 *
 * Pure except for the files `w` and the SVG key write. No curses. A
 * PlayState owns its Scenario (through its PageState, whose lesson is NULL).
 */
#ifndef SCALELAB_UI_SCREEN_PLAY_H
#define SCALELAB_UI_SCREEN_PLAY_H

#include "draw/canvas.h"
#include "learn/scenario.h"
#include "ui/screens.h"
#include <stdbool.h>
#include <stddef.h>

/* More swaps than this and the placement is not written (default kept,
 * said on screen): each start move is evaluated when the lesson loads. */
#define PLAY_MAX_SWAPS 2000

typedef struct PlayState {
    PageState page;  /* lesson NULL; page.scn owns the Scenario */
    char from[400];  /* the file it was loaded from, "" when made from flags */
    char saved[600]; /* where w last wrote, "" until then */
    int saved_moves; /* page.scn.moves at the last write */
    bool help;
    bool confirm_quit; /* q asked "leave without writing?" */
} PlayState;

/* Takes ownership of s (every change is allowed in free play: pass a
 * scenario made with SCN_ALLOW_ALL). from may be NULL. */
void screen_play_init(PlayState *ps, Scenario *s, const char *from);
void screen_play_fini(PlayState *ps);
ScreenAction screen_play_key(PlayState *ps, int key);
void screen_play_draw(Canvas *c, PlayState *ps, ScreenCursor *cur);

/* Free play from a lesson file: the first scenario page's starting state,
 * with every change allowed. NULL + "file:line: message" on error. */
Scenario *screen_play_load(const char *path, char *err, size_t err_len);

/* The Lua lesson text of the state (caller frees), id and title made from
 * `stamp` ("20261130-071500"). NULL + err when it cannot be written (a
 * cluster or workload that is not from a preset). note (may be NULL) gets
 * what was not kept, "" when everything was. */
char *screen_play_lua(const Scenario *s, const char *stamp, char *note, size_t note_len, char *err,
                      size_t err_len);

/* Writes the state to dir/scalelab-play-STAMP.lua (dir NULL: the current
 * folder, else $XDG_STATE_HOME/scalelab or ~/.local/state/scalelab when it is
 * not writable). True with the path in where; false with the reason. */
bool screen_play_write(PlayState *ps, const char *dir, char *where, size_t where_len);

/* Writes the canvas as SVG to dir/scalelab-STAMP.svg (same folder rule).
 * True with the path in where, false with the reason in where. */
bool screen_play_export_svg(const Canvas *c, const char *title, const char *dir, char *where,
                            size_t where_len);

#endif
