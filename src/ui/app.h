/* app — the interactive program: the lesson menu and lesson pages in a
 * terminal, one event loop, progress kept as the learner goes.
 *
 * Start-up modes: the menu over a lessons folder (the default folder, or
 * one given), one lesson file opened directly (for authors: Esc quits), or
 * free play on a scenario (screen_play.h). While a lesson is open its file
 * is checked once a second (a key-read timeout, no other wake-ups) and
 * reloaded in place when it changed on disk. S writes the screen as SVG.
 * Returns the exit status (0, or 1 when there is no usable terminal or the
 * folder cannot be read, with one line on stderr). A quit signal saves,
 * restores the terminal and re-raises, so the process ends by the signal.
 */
#ifndef SCALELAB_UI_APP_H
#define SCALELAB_UI_APP_H

typedef struct {
    const char *lessons_dir; /* NULL: catalog_default_dir */
    const char *lesson_file; /* non-NULL: open this lesson only */
    struct Scenario *play;   /* non-NULL: free play on it (app_run takes ownership) */
    const char *play_from;   /* the file free play was loaded from, or NULL */
} AppOptions;

int app_run(const AppOptions *o);

#endif
