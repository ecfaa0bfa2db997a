/* SPDX-License-Identifier: MIT */
/* term — the terminal: the only module that includes curses.
 *
 * It checks that there is a usable terminal, installs scalelab's own signal
 * handlers before curses starts (so a quit signal lets the program save
 * progress and restore the screen, and a crash signal restores the terminal
 * with async-signal-safe calls and re-raises), starts ncursesw with newterm,
 * copies a Canvas to the screen through one style table (colour pairs, or
 * attributes only under NO_COLOR or on a monochrome terminal) and turns
 * curses key codes into the codes of keys.h. Reading a key blocks: no CPU is
 * used while the learner thinks.
 *
 * Invariant: between term_start and term_stop the terminal is in curses
 * mode; term_stop is idempotent and is also what every exit path calls.
 */
#ifndef SCALELAB_UI_TERM_H
#define SCALELAB_UI_TERM_H

#include "base/attr.h"
#include "draw/canvas.h"
#include <stdbool.h>
#include <stddef.h>

/* Checks stdin/stdout are terminals and TERM is usable (set, not "dumb").
 * Returns false with a one-line message pointing at the headless commands. */
bool term_preflight(char *msg, size_t msg_len);

/* Starts curses. False with a one-line reason (unknown TERM, no cursor
 * addressing). */
bool term_start(char *err, size_t err_len);
void term_stop(void);

bool term_is_ascii(void);  /* no UTF-8 locale: draw ASCII */
bool term_has_color(void); /* false with NO_COLOR or a monochrome terminal */
void term_size(int *w, int *h);

/* Copies the canvas to the screen at the top-left, blanks the rest, puts the
 * hardware cursor at (cx, cy) (hidden when cx < 0) and refreshes. */
void term_blit(const Canvas *c, int cx, int cy);

/* Waits for a key (blocking). Returns a keys.h code; UIK_SIGNAL when a quit
 * signal (INT, TERM, HUP) arrived. */
int term_read_key(void);
/* term_read_key, waiting at most ms milliseconds: UIK_NONE when no key came
 * in time (for polling a file while a lesson is open; no CPU between). */
int term_read_key_timeout(int ms);
/* For sandbox_set_poll while a lesson script runs long: shows "running…
 * Esc to stop" on the bottom line and reads keys without waiting. True
 * (stop the script) on Esc, q or Ctrl-C (whose SIGINT then does not quit the
 * program) or another quit signal; q and other keys are kept and
 * term_read_key returns them next, in the order typed. The lesson host's
 * parent calls it while it waits (lesson/host.h), so these keys answer at
 * once whatever the lesson does. */
bool term_busy_poll(void *ctx, double running_s);
/* The quit signal that arrived (0 when none). */
int term_quit_signal(void);
/* After the caller saved its state: stops curses and ends the process the
 * way the signal would have (default action, re-raised). */
void term_die_by_signal(int sig) ATTR_NORETURN;

#endif
