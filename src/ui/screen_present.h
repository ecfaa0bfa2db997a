/* SPDX-License-Identifier: MIT */
/* screen_present — presenter mode: a lesson for a teacher at a projector.
 * Each page fills the screen: the title in block letters from a small
 * built-in font when the width allows, diagrams given the whole body, the
 * compare view, a scenario as its fabric view with the step bar. One key
 * (Space or Right) steps through the page's reveals (lesson_page_step: the
 * text piece by piece, a quiz's answer, a predict page's answer and then
 * its formula, a scenario's moves one per key),
 * then turns the page. A --script file replaces a scenario page's moves.
 * The footer is discreet: the step, the page number and the clock.
 *
 * Never writes progress. Pure: no curses (app.c runs it as one of its
 * modes and sets the clock; --shot sets a fixed one, so renders repeat). The Lesson is borrowed;
 * the state owns its Scenario and script.
 */
#ifndef SCALELAB_UI_SCREEN_PRESENT_H
#define SCALELAB_UI_SCREEN_PRESENT_H

#include "draw/canvas.h"
#include "learn/scenario.h"
#include "ui/screens.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *move;
    int page; /* 0-based scenario page it plays on */
    int line; /* line in the script file */
} PresentMove;

typedef struct PresentState {
    Lesson *lesson; /* borrowed */
    int page;
    int step;            /* reveals done on this page (0: as it opens) */
    Scenario *s;         /* owned: a scenario page's state */
    PresentMove *script; /* owned, from --script */
    int n_script;
    char effect[640];   /* what the last move did */
    char message[640];  /* one status line */
    char clock[8];      /* "HH:MM", set by the caller before each draw */
    int goal;           /* the scenario's goal on the state shown: 1 met, 0 not, -1 error */
    char why[400];      /* why not, in the lesson's words */
    char debrief[2048]; /* once met: the debrief for the state shown */
    int colour;         /* MappingDim the GPUs are lettered by: the group the page moves */
    bool help;
    bool ascii; /* as last drawn: text made by keys follows it */
} PresentState;

void screen_present_init(PresentState *ps, Lesson *l, int page);
void screen_present_fini(PresentState *ps);

/* Reads a script: one move per line in scenario_apply_text form, '#'
 * comments and blank lines ignored, "page N" sends the moves after it to
 * page N (1-based; before any "page" line: the first scenario page). Each
 * page's moves are played from its start as a check. False with
 * "script:LINE: message" in err. Replaces the page's own steps. */
bool screen_present_script(PresentState *ps, const char *text, char *err, size_t err_len);

/* Reveals on the current page: scenario moves (the script's, else the
 * page's steps, else its reference solution), 1 for a quiz (the answer);
 * on a predict page the pieces of its text after the first (the question
 * shows with the last), then the model's answer, then the formula; pieces
 * of text after the first for other pages. A scenario's briefing always
 * shows whole. */
int screen_present_step_count(const PresentState *ps);
/* The move a scenario step k plays ("" when none). */
const char *screen_present_move(const PresentState *ps, int k);

/* Goes to page n (clamped), reveals reset. */
void screen_present_goto(PresentState *ps, int n);
/* Space/Right/n/Enter: the next reveal, else the next page; u: one reveal
 * back; Left/p: previous page; 0: the page from its start; Home/End; q or
 * Esc: SCREEN_QUIT; ? help. */
ScreenAction screen_present_key(PresentState *ps, int key);
void screen_present_draw(Canvas *c, PresentState *ps);

/* Draws text in block letters centred in the w columns at (x, y): 3 rows
 * of half blocks (5 rows of '#' when ascii), or on a canvas 40 rows or
 * taller, when it fits, 5 rows at twice the width. Returns
 * the rows used, 0 (nothing drawn) when it does not fit or a character is
 * not in the font (letters, digits, space and - : . , ? ! ' / ( ) & +). */
int screen_present_banner(Canvas *c, int x, int y, int w, const char *text);

#endif
