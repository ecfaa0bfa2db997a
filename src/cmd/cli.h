/* SPDX-License-Identifier: MIT */
/* cli — the command line of scalelab: one table of commands, global options,
 * usage and version. main() calls cli_run, then cli_finish.
 *
 * Exit status everywhere (scalelab(1), EXIT STATUS): 0 success, 1 a check
 * failed (or a file could not be read or written), 2 bad usage, 3 no usable
 * terminal for the interactive modes (stdin or stdout not a terminal, TERM
 * unset, dumb or unknown). Every error is one line on stderr, "scalelab
 * COMMAND: message" ("scalelab: message" outside a command), printed by
 * cli_error. Each command is `int cmd_NAME(int argc, char **argv)` with
 * argv[0] the command name; commands live in src/cmd/cmd_NAME.c. Each takes
 * --help (its usage on stdout, exit 0) and `--` (everything after it is an
 * operand, not an option).
 */
#ifndef SCALELAB_CMD_CLI_H
#define SCALELAB_CMD_CLI_H

#include "base/attr.h"
#include "ui/app.h"

#include <stdbool.h>
#include <stdio.h>

#define SCALELAB_VERSION "3.0"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_NO_TERMINAL = APP_NO_TERMINAL };

typedef int (*CliCommandFn)(int argc, char **argv);

typedef struct {
    const char *name;
    CliCommandFn run;
    const char *args;    /* "[FLAGS]" for the usage line */
    const char *summary; /* one line for --help */
} CliCommand;

int cli_run(int argc, char **argv);
void cli_usage(FILE *out);
/* The table itself, for --help, the man page check and tests. */
int cli_command_count(void);
const CliCommand *cli_command_at(int i);
/* Looks a command up by name in the one table; NULL when unknown. */
const CliCommand *cli_find(const char *name);
/* The name of the command cli_run is running or last ran ("eval"), or NULL
 * when it chose none. */
const char *cli_current_command(void);
/* Prints one line "scalelab COMMAND: MESSAGE" (printf-style) on stderr, with
 * the running command's name, and returns status. A message that starts
 * with a command's name and ": " ("eval: --gpus ...") has that name taken
 * as the command when none is running and dropped otherwise, so an error
 * raised by shared code is named by the command the user typed. */
int cli_error(int status, const char *fmt, ...) ATTR_PRINTF(2, 3);
/* cli_error(CLI_USAGE, ...): bad usage. */
int cli_usage_error(const char *fmt, ...) ATTR_PRINTF(1, 2);
/* True when argv[i] is "--help" or "-h" among the options (before "--"). */
bool cli_wants_help(int argc, char **argv);
/* The same for "--version" or "-V": every command answers it with the top
 * level's version line (cli_run does, before the command runs). */
bool cli_wants_version(int argc, char **argv);
/* Ends the program's output: flushes stdout and returns status, or 1 after
 * one line "scalelab COMMAND: write error: REASON" when standard output
 * could not be written (a full disk, /dev/full). A reader that went away
 * (EPIPE, `| head -1`) ends the program quietly with status 1. */
int cli_finish(int status);

/* Where the guide NAME (README.md, AUTHORING.md, SECURITY.md, NEWS.md) is
 * for this program: in the tree it was built in (beside the assets it
 * reads, lessons/AUTHORING.md for the authoring guide), else in the
 * installed doc folder beside its share folder (PREFIX/share/doc/scalelab),
 * else in the doc folder it was built for (SCALELAB_DOCDIR). The one place
 * that knows; returns buf (a path that may not exist in the last case). */
const char *cli_guide_path(const char *name, char *buf, size_t n);

/* Prints s wrapped to width columns (draw/text.h, text_wrap_append: the
 * first line after lead, the others after indent spaces, "- " bullets
 * hanging): the one way a command prints prose. */
void cli_print_wrapped(FILE *out, const char *s, int width, const char *lead, int indent);

/* Commands (src/cmd/cmd_*.c). */
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_new(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_present(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_practice(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_progress(int argc, char **argv);

#endif
