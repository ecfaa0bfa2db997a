/* SPDX-License-Identifier: MIT */
/* cmd_check — `scalelab check FILE...`: validates lessons the way CI does.
 *
 * Every problem of every file is printed on stderr, one per line as
 * "file:line: message" (already escaped by the lesson engine) and nothing
 * else, so editors and CI can parse it; when all pass, one summary line goes
 * to stdout. Lesson ids must be unique across the files given.
 * Exit 0 when every file passes, 1 when any problem was found, 2 on usage.
 */
#include "cmd/cli.h"

#include "base/escape.h"
#include "base/xmem.h"
#include "lesson/lesson.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_problem(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

static const char check_help[] =
    "Usage: scalelab check [--] FILE...\n"
    "Loads each lesson file in the sandbox and validates it the way CI does.\n"
    "Every problem goes to stderr as FILE:LINE: message; when all pass, one line\n"
    "to stdout. Exit 0 when every file passes, 1 when any has a problem.\n"
    "  --help             this text\n"
    "  --                 the arguments after it are files, even if they start with -\n";

int cmd_check(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(check_help, stdout);
        return CLI_OK;
    }
    /* Operands only: drop one "--"; before it nothing may look like an option. */
    int files = 0;
    bool options = true;
    for (int i = 1; i < argc; i++) {
        if (options && strcmp(argv[i], "--") == 0) {
            options = false;
            continue;
        }
        if (options && argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error("check: unknown option '%s' (try 'scalelab check --help')",
                                   argv[i]);
        argv[++files] = argv[i];
    }
    argc = files + 1;
    if (argc < 2)
        return cli_usage_error("check: give one or more lesson files (scalelab check "
                               "lessons/*.lua)");
    int problems = 0;
    char **ids = xmem_calloc((size_t)argc, sizeof *ids);
    for (int i = 1; i < argc; i++) {
        char id[256];
        int n = lesson_check_file_id(argv[i], print_problem, NULL, id, sizeof id);
        problems += n;
        if (n > 0)
            continue;
        for (int j = 1; j < i; j++)
            if (ids[j] && strcmp(ids[j], id) == 0) {
                char line[MSG_LEN * 2], shown[MSG_LEN];
                snprintf(line, sizeof line, "%s:1: lesson id '%s' is already used by %s", argv[i],
                         id, argv[j]);
                escape_text(line, strlen(line), shown, sizeof shown);
                fprintf(stderr, "%s\n", shown);
                problems++;
            }
        ids[i] = xmem_strdup(id);
    }
    for (int i = 0; i < argc; i++)
        free(ids[i]);
    free(ids);
    if (problems)
        return CLI_FAIL;
    printf("%d lesson file%s checked: all pass\n", argc - 1, argc == 2 ? "" : "s");
    return CLI_OK;
}
