/* cli — dispatch from argv to a command through one table. Knows every
 * command by name, nothing of what they do. */
#include "cmd/cli.h"

#include "ui/app.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

/* The one table. Order is the order of --help. */
static const CliCommand commands[] = {
    {"help", cmd_help, "", "show this help"},
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
};

static const struct {
    const char *flag;
    const char *command;
} aliases[] = {
    {"--help", "help"},
    {"-h", "help"},
    {"--version", "version"},
    {"-V", "version"},
    {"--list", "list"},
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

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("scalelab: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_USAGE;
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
          "Exit status: 0 success, 1 a failed check, 2 bad usage.\n"
          "See scalelab(1) for every flag and more examples.\n",
          out);
}

int cmd_help(int argc, char **argv)
{
    (void)argv;
    if (argc > 1)
        return cli_usage_error("help takes no arguments");
    cli_usage(stdout);
    return CLI_OK;
}

int cmd_version(int argc, char **argv)
{
    (void)argv;
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

int cli_run(int argc, char **argv)
{
    /* The interactive modes: the menu, another folder, one lesson file. */
    if (argc < 2) {
        AppOptions o = {.lessons_dir = NULL};
        return app_run(&o);
    }
    if (strcmp(argv[1], "--lessons") == 0) {
        if (argc != 3)
            return cli_usage_error("--lessons takes one folder: scalelab --lessons DIR");
        AppOptions o = {.lessons_dir = argv[2]};
        return app_run(&o);
    }
    if (cli_is_lesson_file(argv[1])) {
        if (argc != 2)
            return cli_usage_error("open one lesson at a time: scalelab FILE.lua");
        AppOptions o = {.lesson_file = argv[1]};
        return app_run(&o);
    }
    const CliCommand *cmd = cli_find(argv[1]);
    if (!cmd) {
        if (argv[1][0] == '-')
            return cli_usage_error("unknown option '%s' (try 'scalelab --help')", argv[1]);
        return cli_usage_error("unknown command '%s' (try 'scalelab --help')", argv[1]);
    }
    return cmd->run(argc - 1, argv + 1);
}
