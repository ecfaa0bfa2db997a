/* app — the interactive program: the lesson menu and lesson pages in a
 * terminal, one event loop, progress kept as the learner goes.
 *
 * Start-up modes: the menu over a lessons folder (the default folder, or
 * one given), or one lesson file opened directly (for authors: Esc quits).
 * Returns the exit status (0, or 1 when there is no usable terminal or the
 * folder cannot be read, with one line on stderr). A quit signal saves,
 * restores the terminal and re-raises, so the process ends by the signal.
 */
#ifndef SCALELAB_UI_APP_H
#define SCALELAB_UI_APP_H

typedef struct {
    const char *lessons_dir; /* NULL: catalog_default_dir */
    const char *lesson_file; /* non-NULL: open this lesson only */
} AppOptions;

int app_run(const AppOptions *o);

#endif
