/* cli — the command line of scalelab: one table of commands, global options,
 * usage and version. main() only calls cli_run.
 *
 * Exit status everywhere: 0 success, 1 a failed check, 2 bad usage (one line
 * on stderr). Each command is `int cmd_NAME(int argc, char **argv)` with
 * argv[0] the command name; commands live in src/cmd/cmd_NAME.c.
 */
#ifndef SCALELAB_CMD_CLI_H
#define SCALELAB_CMD_CLI_H

#include <stdio.h>

#define SCALELAB_VERSION "0.1.0"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef int (*CliCommandFn)(int argc, char **argv);

typedef struct {
    const char *name;
    CliCommandFn run;
    const char *args;     /* "[FLAGS]" for the usage line */
    const char *summary;  /* one line for --help */
} CliCommand;

int cli_run(int argc, char **argv);
void cli_usage(FILE *out);
/* The table itself, for --help, the man page check and tests. */
int cli_command_count(void);
const CliCommand *cli_command_at(int i);
/* Looks a command up by name in the one table; NULL when unknown. */
const CliCommand *cli_find(const char *name);
/* Prints "scalelab: MESSAGE" (printf-style) on stderr and returns CLI_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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

#endif
