/* SPDX-License-Identifier: MIT */
/* app — the interactive program: the lesson menu and lesson pages in a
 * terminal, one event loop, progress kept as the learner goes.
 *
 * Start-up modes: the menu over a lessons folder (the default folder, or
 * one given), one lesson file opened directly (for authors: Esc quits), or
 * free play on a scenario (screen_play.h), or presenter mode on a lesson
 * (screen_present.h: no progress, the clock redrawn every few seconds).
 * While a lesson is open its file
 * is checked once a second (a key-read timeout, no other wake-ups) and
 * reloaded in place when it changed on disk. S writes the screen as SVG.
 * Returns the exit status: APP_OK, APP_NO_TERMINAL when stdin or stdout is
 * not a terminal or TERM is unset, dumb or unknown, APP_FAIL when the lessons
 * cannot be read (one line on stderr for either). A quit signal saves,
 * restores the terminal and re-raises, so the process ends by the signal.
 */
#ifndef SCALELAB_UI_APP_H
#define SCALELAB_UI_APP_H

#include <stdbool.h>

/* Exit statuses, the same numbers as the command line's (cmd/cli.h). */
enum { APP_OK = 0, APP_FAIL = 1, APP_NO_TERMINAL = 3 };

typedef struct {
    const char *lessons_dir;      /* NULL: catalog_default_dir */
    const char *lesson_file;      /* non-NULL: open this lesson only */
    struct Scenario *play;        /* non-NULL: free play on it (app_run takes ownership) */
    const char *play_from;        /* the file free play was loaded from, or NULL */
    struct PresentState *present; /* non-NULL: presenter mode on it (borrowed) */
    bool practice;                /* practice exercises (learn/practice.h) instead of lessons */
    unsigned long long practice_seed; /* the run's seed when practice_seed_given */
    bool practice_seed_given;
    int practice_kind;  /* < 0: kinds take turns */
    int practice_level; /* starting level, 1..5 */
} AppOptions;

int app_run(const AppOptions *o);

#endif
