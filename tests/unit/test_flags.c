/* SPDX-License-Identifier: MIT */
/* test_flags — the one flag table: each command takes its subset, in every
 * form (--flag VALUE, --flag=VALUE, -h, `--` before operands), and its
 * errors are named by the command that failed, also for the job flags that
 * eval, sweep, render and play share. Through cli_run, in-process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four above first */
// clang-format off
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include "cmd/cli.h"
#include "cmd/flags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs `scalelab ARGS...` (NULL-ended) through cli_run. */
static const TlRun *scalelab(const char *first, ...)
{
    static char *argv[32];
    int argc = 0;
    argv[argc++] = "scalelab";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    return tl_run(cli_run, argc, argv);
}

/* Exit 2, nothing on stdout, exactly one line on stderr that starts with
 * want. */
static void check_usage(const TlRun *r, const char *want, const char *file, int line)
{
    const char *nl = strchr(r->err, '\n');
    bool one_line = nl && nl[1] == '\0';
    if (r->status != 2 || r->out[0] || !one_line || strncmp(r->err, want, strlen(want)) != 0) {
        print_error("%s:%d: status %d, stderr '%s'\n  want status 2 and '%s...'\n", file, line,
                    r->status, r->err, want);
        fail();
    }
}
#define USAGE(r, want) check_usage((r), (want), __FILE__, __LINE__)

static void test_flags_errors_name_the_command(void **state)
{
    (void)state;
    USAGE(scalelab("sweep", "--bogus", NULL),
          "scalelab sweep: unknown flag '--bogus' (try 'scalelab sweep --help')");
    USAGE(scalelab("render", "rack", "--gpus", "x", NULL), "scalelab render: --gpus: ");
    USAGE(scalelab("play", "--gpus=0", NULL), "scalelab play: --gpus must be at least 1");
    USAGE(scalelab("sweep", "--tp", "3", "--gpus", "64", NULL),
          "scalelab sweep: TP 3 does not divide the 64 GPUs");
    USAGE(scalelab("render", "bar", "--model", "gpt5", NULL),
          "scalelab render: unknown model 'gpt5'");
    USAGE(scalelab("eval", "--tp", "8", "--tp=4", NULL), "scalelab eval: --tp given twice");
}

/* A flag of the table that this command does not take says whose it is. */
static void test_flags_subsets_per_command(void **state)
{
    (void)state;
    USAGE(scalelab("sweep", "--list", NULL),
          "scalelab sweep: --list is not a flag of sweep (it is eval's");
    USAGE(scalelab("play", "--tp", "8", NULL),
          "scalelab play: --tp is not a flag of play (it is eval's");
    USAGE(scalelab("eval", "--width", "80", NULL),
          "scalelab eval: --width is not a flag of eval (it is render's");
    USAGE(scalelab("eval", "--chart", NULL), "scalelab eval: --chart is not a flag of eval");
    /* --ascii is sweep's and render's, --json eval's and sweep's */
    USAGE(scalelab("render", "rack", "--json", NULL), "scalelab render: --json is not a flag");
    USAGE(scalelab("eval", "--ascii", NULL), "scalelab eval: --ascii is not a flag of eval");
    /* present and list read the same table: their own flags, one lesson */
    USAGE(scalelab("present", "--gpus", "8", "x.lua", NULL),
          "scalelab present: --gpus is not a flag of present (it is eval's");
    USAGE(scalelab("present", "a.lua", "b.lua", NULL),
          "scalelab present: unexpected argument 'b.lua' (give one lesson");
    USAGE(scalelab("present", "--script", NULL), "scalelab present: --script needs a value");
    USAGE(scalelab("list", "--lessons", NULL), "scalelab list: --lessons needs a value");
    USAGE(scalelab("list", "--shot", "1", NULL),
          "scalelab list: --shot is not a flag of list (it is present's");
}

/* --flag=value and --flag value read the same; -h is --help; after `--`
 * words are operands (render's view, play's file; eval takes none). */
static void test_flags_forms(void **state)
{
    (void)state;
    const TlRun *r = scalelab("eval", "--gpus=64", "--tp=8", "--pp", "2", "--json", NULL);
    assert_int_equal(r->status, 0);
    assert_non_null(strstr(r->out, "\"tp\":8,\"cp\":1,\"pp\":2,\"dp\":4,"));
    char *first = strdup(r->out);
    r = scalelab("eval", "--gpus", "64", "--tp", "8", "--pp=2", "--format=json", NULL);
    assert_int_equal(r->status, 0);
    assert_string_equal(r->out, first);
    free(first);
    r = scalelab("sweep", "-h", NULL);
    assert_int_equal(r->status, 0);
    assert_non_null(strstr(r->out, "Usage: scalelab sweep"));
    r = scalelab("render", "-h", NULL);
    assert_int_equal(r->status, 0);
    assert_non_null(strstr(r->out, "Usage: scalelab render"));
    USAGE(scalelab("eval", "--", "--json", NULL),
          "scalelab eval: unexpected argument '--json' (flags start with --");
    USAGE(scalelab("render", "rack", "fabric", NULL),
          "scalelab render: unexpected argument 'fabric' (give one view");
    USAGE(scalelab("render", "--", "--width", NULL), "scalelab render: unknown view '--width'");
    r = scalelab("render", "rack", "--ascii", "--width=80", "--colour=never", "--gpus", "8", NULL);
    assert_int_equal(r->status, 0);
    USAGE(scalelab("render", "rack", "--color", "sometimes", NULL),
          "scalelab render: --color must be auto, always or never (got 'sometimes')");
    USAGE(scalelab("sweep", "--json=yes", NULL), "scalelab sweep: --json takes no value");
    USAGE(scalelab("sweep", "--top", NULL), "scalelab sweep: --top needs a value");
}

/* The table in code: names and the int reader. */
static void test_flags_table(void **state)
{
    (void)state;
    assert_string_equal(flags_name(FLAG_ACROSS_LAT), "across-lat");
    assert_string_equal(flags_name(FLAG_ETP), "etp");
    assert_string_equal(flags_name(FLAG_COUNT), "?");
    char *argv[] = {"eval", "--gpus", "1e3", "--up", "1.8 TB/s", NULL};
    FlagArgs a;
    assert_int_equal(flags_parse(&flags_eval, 5, argv, &a), CLI_OK);
    assert_int_equal(flags_int(&a, FLAG_GPUS), 1000);
    assert_true(a.num[FLAG_UP] == 1.8e12);
    static const FlagId none[] = {FLAG_COUNT};
    assert_true(flags_any_set(&a, none));
    static const FlagId both[] = {FLAG_GPUS, FLAG_UP, FLAG_COUNT};
    assert_false(flags_any_set(&a, both));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flags_errors_name_the_command),
        cmocka_unit_test(test_flags_subsets_per_command),
        cmocka_unit_test(test_flags_forms),
        cmocka_unit_test(test_flags_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
