/* SPDX-License-Identifier: MIT */
/* cli — dispatch from argv to a command through one table. Knows every
 * command by name, nothing of what they do. */
#include "cmd/cli.h"

#include "base/escape.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xmem.h"
#include "draw/text.h"
#include "lesson/catalog.h"
#include "ui/app.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The one table. Order is the order of --help. */
static const CliCommand commands[] = {
    {"help", cmd_help, "[COMMAND]", "show this help, or a command's --help"},
    {"version", cmd_version, "", "print the version"},
    {"list", cmd_list, "[--lessons DIR]", "list the lessons by track, with progress marks"},
    {"check", cmd_check, "FILE...", "validate lesson files (file:line: message per problem)"},
    {"new", cmd_new, "NAME", "write a lesson skeleton NAME.lua that passes check"},
    {"eval", cmd_eval, "[FLAGS]", "evaluate one training step (--list: presets; --json)"},
    {"sweep", cmd_sweep, "[FLAGS]", "best mappings of a job, ranked and explained (--json)"},
    {"play", cmd_play, "[--system ID] [--gpus N] [--model ID] [FILE.lua]",
     "free play: any system and workload, no goal; w writes it as a lesson"},
    {"render", cmd_render, "VIEW [FLAGS]", "draw a rack, fabric, bar or chart view (--describe)"},
    {"present", cmd_present, "LESSON [--script FILE]",
     "show a lesson at a projector, one reveal per key"},
    {"practice", cmd_practice, "[--print|--answers|--from]",
     "exercises made and graded by the model; worksheets and keys"},
    {"progress", cmd_progress, "[--json]", "your own record: lessons, first tries, practice"},
    {"report", cmd_report, "[--json] FILE...",
     "a class summary from students' 'progress --json' files"},
};

static const struct {
    const char *flag;
    const char *command;
} aliases[] = {
    {"--help", "help"}, {"-h", "help"},     {"--version", "version"},
    {"-V", "version"},  {"--list", "list"},
};

#define N_COMMANDS ((int)(sizeof commands / sizeof commands[0]))

int cli_command_count(void)
{
    return N_COMMANDS;
}

const CliCommand *cli_command_at(int i)
{
    return i >= 0 && i < N_COMMANDS ? &commands[i] : NULL;
}

const CliCommand *cli_find(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].flag, name) == 0)
            return cli_find(aliases[i].command);
    return NULL;
}

/* The command being run, for the prefix of its errors. */
static const char *cli_current;

const char *cli_current_command(void)
{
    return cli_current;
}

static int cli_verror(int status, const char *fmt, va_list ap)
{
    va_list measure;
    va_copy(measure, ap);
    int n = vsnprintf(NULL, 0, fmt, measure);
    va_end(measure);
    size_t len = n > 0 ? (size_t)n : 0;
    char *msg = xmem_alloc(len + 1);
    vsnprintf(msg, len + 1, fmt, ap);
    const char *name = cli_current, *text = msg;
    /* "eval: ..." from code shared between commands: the prefix is ours. */
    const char *colon = strstr(msg, ": ");
    if (colon) {
        for (int i = 0; i < N_COMMANDS; i++)
            if (strlen(commands[i].name) == (size_t)(colon - msg) &&
                strncmp(msg, commands[i].name, (size_t)(colon - msg)) == 0) {
                if (!name)
                    name = commands[i].name;
                text = colon + 2;
                break;
            }
    }
    /* The message may quote the command line, a file or a lesson: shown
     * through the one escaping function, never raw, and whole (an escape
     * is at most 4 bytes per byte). */
    size_t text_len = strlen(text), shown_len = 4 * text_len + 1;
    char *shown = xmem_alloc(shown_len);
    escape_text(text, text_len, shown, shown_len);
    fprintf(stderr, "scalelab%s%s: %s\n", name ? " " : "", name ? name : "", shown);
    free(shown);
    free(msg);
    return status;
}

int cli_error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = cli_verror(status, fmt, ap);
    va_end(ap);
    return rc;
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = cli_verror(CLI_USAGE, fmt, ap);
    va_end(ap);
    return rc;
}

/* True when one of argv[1..] before "--" is a or b. */
static bool cli_has_option(int argc, char **argv, const char *a, const char *b)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], a) == 0 || strcmp(argv[i], b) == 0)
            return true;
    return false;
}

bool cli_wants_help(int argc, char **argv)
{
    return cli_has_option(argc, argv, "--help", "-h");
}

bool cli_wants_version(int argc, char **argv)
{
    return cli_has_option(argc, argv, "--version", "-V");
}

int cli_finish(int status)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    int err = errno;
    if (err == EPIPE)
        return CLI_FAIL;
    cli_error(CLI_FAIL, "write error: %s", err ? strerror(err) : "standard output failed");
    return CLI_FAIL;
}

const char *cli_guide_path(const char *name, char *buf, size_t n)
{
    char assets[4096], path[4200];
    const char *in_tree = strcmp(name, "AUTHORING.md") == 0 ? "../lessons/" : "../";
    if (catalog_assets_dir(assets, sizeof assets)) {
        const char *where[] = {in_tree, "../../doc/scalelab/"};
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s%s", assets, where[i], name);
            char *real = access(path, R_OK) == 0 ? realpath(path, NULL) : NULL;
            bool fits = real && strlen(real) < n;
            if (fits)
                memcpy(buf, real, strlen(real) + 1);
            free(real);
            if (fits)
                return buf;
        }
    }
    snprintf(buf, n, "%s/%s", SCALELAB_DOCDIR, name);
    return buf;
}

void cli_print_wrapped(FILE *out, const char *s, int width, const char *lead, int indent)
{
    StrBuf b = {0};
    text_wrap_append(&b, s, width, utf8_width(lead), indent);
    fputs(lead, out);
    fputs(b.s ? b.s : "", out);
    strbuf_free(&b);
}

void cli_usage(FILE *out)
{
    fputs("scalelab - learn how AI clusters scale up, out and across, in a terminal\n"
          "\n"
          "Usage:\n"
          "  scalelab                     open the lesson menu\n"
          "  scalelab --lessons DIR       open the menu over another lessons folder\n"
          "  scalelab FILE.lua            open one lesson directly (for authors)\n",
          out);
    for (int i = 0; i < N_COMMANDS; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s %s", commands[i].name, commands[i].args);
        fprintf(out, "  scalelab %-19s %s\n", left, commands[i].summary);
    }
    fputs("\n"
          "Exit status: 0 success, 1 a check failed, 2 bad usage, 3 no usable terminal.\n"
          "See scalelab(1) for every flag and more examples.\n",
          out);
}

/* `scalelab help` or `scalelab help COMMAND` (that command's --help). */
int cmd_help(int argc, char **argv)
{
    if (argc > 2)
        return cli_usage_error("give at most one command: scalelab help [COMMAND]");
    if (argc == 2 && strcmp(argv[1], "--help") != 0 && strcmp(argv[1], "-h") != 0) {
        const CliCommand *cmd = cli_find(argv[1]);
        if (!cmd || argv[1][0] == '-')
            return cli_usage_error("unknown command '%s' (try 'scalelab --help')", argv[1]);
        char *args[] = {argv[1], "--help", NULL};
        cli_current = cmd->name;
        return cmd->run(2, args);
    }
    cli_usage(stdout);
    return CLI_OK;
}

int cmd_version(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs("Usage: scalelab --version\nPrints the version.\n", stdout);
        return CLI_OK;
    }
    if (argc > 1)
        return cli_usage_error("version takes no arguments");
    printf("scalelab %s\n", SCALELAB_VERSION);
    return CLI_OK;
}

static bool cli_is_lesson_file(const char *arg)
{
    size_t n = strlen(arg);
    return n > 4 && strcmp(arg + n - 4, ".lua") == 0;
}

/* The interactive modes: the menu, another folder, one lesson file. */
static int cli_run_app(int argc, char **argv)
{
    int i = 1;
    const char *dir = NULL;
    if (i < argc && strncmp(argv[i], "--lessons", 9) == 0 &&
        (argv[i][9] == '\0' || argv[i][9] == '=')) {
        if (argv[i][9] == '=')
            dir = argv[i] + 10;
        else if (i + 1 < argc)
            dir = argv[++i];
        if (!dir || !*dir)
            return cli_usage_error("--lessons takes one folder: scalelab --lessons DIR");
        i++;
    }
    if (i < argc && strcmp(argv[i], "--") == 0)
        i++;
    if (i == argc) {
        AppOptions o = {.lessons_dir = dir};
        return app_run(&o);
    }
    if (dir)
        return cli_usage_error("unexpected '%s' after --lessons DIR", argv[i]);
    if (argc - i != 1)
        return cli_usage_error("open one lesson at a time: scalelab FILE.lua");
    if (!cli_is_lesson_file(argv[i]))
        return cli_usage_error("'%s' is not a lesson file (FILE.lua)", argv[i]);
    AppOptions o = {.lesson_file = argv[i]};
    return app_run(&o);
}

int cli_run(int argc, char **argv)
{
    cli_current = NULL;
    if (argc < 2 || strncmp(argv[1], "--lessons", 9) == 0 || strcmp(argv[1], "--") == 0 ||
        cli_is_lesson_file(argv[1]))
        return cli_run_app(argc, argv);
    const CliCommand *cmd = cli_find(argv[1]);
    if (!cmd) {
        if (argv[1][0] == '-')
            return cli_usage_error("unknown option '%s' (try 'scalelab --help')", argv[1]);
        return cli_usage_error("unknown command '%s' (try 'scalelab --help')", argv[1]);
    }
    cli_current = cmd->name;
    /* A last "--" (the first one) ends the options and adds no operand, so
     * every command takes it, also those that have no operands at all. */
    int dashdash = 0;
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            dashdash = i;
            break;
        }
    if (dashdash == argc - 1)
        argc--;
    if (cli_wants_version(argc - 1, argv + 1))
        return cmd_version(1, argv + 1);
    return cmd->run(argc - 1, argv + 1);
}
