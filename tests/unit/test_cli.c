/* SPDX-License-Identifier: MIT */
/* test_cli — the command line shell: dispatch, usage errors and exit codes.
 * Runs cli_run in-process with stdout and stderr captured to temp files. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include "cmd/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef TlRun Run;

/* Runs `scalelab ARGS...` in-process, capturing both streams. */
static Run run(int argc, char **argv)
{
    Run r;
    tl_run_into(&r, cli_run, argc, argv);
    return r;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_cli_help_lists_every_command(void **state)
{
    (void)state;
    char *argv[] = {"scalelab", "--help", NULL};
    Run r = run(2, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "Usage:"));
    /* Every command of the table appears in the usage text, with its
     * summary, and the table has at least help and version. */
    assert_true(cli_command_count() >= 2);
    for (int i = 0; i < cli_command_count(); i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "scalelab %s", cli_command_at(i)->name);
        assert_non_null(strstr(r.out, needle));
        assert_non_null(strstr(r.out, cli_command_at(i)->summary));
    }
    assert_null(cli_command_at(cli_command_count()));
}

static void test_cli_short_help_is_the_same(void **state)
{
    (void)state;
    char *a[] = {"scalelab", "--help", NULL}, *b[] = {"scalelab", "-h", NULL};
    Run ra = run(2, a), rb = run(2, b);
    assert_string_equal(ra.out, rb.out);
}

static void test_cli_version_prints_the_one_version(void **state)
{
    (void)state;
    char *argv[] = {"scalelab", "--version", NULL};
    Run r = run(2, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "scalelab " SCALELAB_VERSION "\n");
}

/* Every command of the table answers --version with the top level's text,
 * wherever --version stands among its options, and not after "--". */
static void test_cli_version_on_every_command(void **state)
{
    (void)state;
    char *top[] = {"scalelab", "--version", NULL};
    Run want = run(2, top);
    assert_int_equal(cli_command_count() > 10, 1);
    for (int i = 0; i < cli_command_count(); i++) {
        char *name = (char *)cli_command_at(i)->name;
        char *argv[] = {"scalelab", name, "--version", NULL};
        Run r = run(3, argv);
        if (r.status != 0 || strcmp(r.out, want.out) != 0 || r.err[0]) {
            print_error("scalelab %s --version: exit %d, out '%s', err '%s'\n", name, r.status,
                        r.out, r.err);
            fail();
        }
    }
    char *late[] = {"scalelab", "eval", "--gpus", "8", "--version", NULL};
    Run r = run(5, late);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want.out);
    /* After "--" it is an operand: check looks for a file of that name. */
    char *operand[] = {"scalelab", "check", "--", "--version", NULL};
    r = run(4, operand);
    assert_int_not_equal(r.status, 0);
    assert_null(strstr(r.out, SCALELAB_VERSION));
}

/* The one prose printer: columns, not bytes (a UTF-8 character is one
 * column), lead then indent, bullets hanging, numbers kept with their
 * units, nothing past the width. */
static void test_cli_print_wrapped(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    cli_print_wrapped(
        f,
        "\u00b5\u00b5\u00b5\u00b5 \u00b5\u00b5\u00b5\u00b5 \u00b5 1234567890 400 Gb/s\n"
        "- a bullet that wraps here\n\nlast",
        20, "  lead: ", 4);
    char got[512] = "";
    rewind(f);
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = '\0';
    fclose(f);
    /* "  lead: " is 8 columns: 12 left for "µµµµ µµµµ µ" (11 columns, 19
     * bytes: a byte counter breaks after the first word); then 16 columns,
     * and "400 Gb/s" moves whole rather than leave its number behind. */
    assert_string_equal(got, "  lead: \u00b5\u00b5\u00b5\u00b5 \u00b5\u00b5\u00b5\u00b5 \u00b5\n"
                             "    1234567890\n"
                             "    400 Gb/s\n"
                             "    - a bullet that\n"
                             "      wraps here\n"
                             "\n"
                             "    last\n");
}

static void test_cli_unknown_option_is_one_line_exit_2(void **state)
{
    (void)state;
    char *argv[] = {"scalelab", "--frobnicate", NULL};
    Run r = run(2, argv);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_int_equal(count_lines(r.err), 1);
    assert_non_null(strstr(r.err, "unknown option '--frobnicate'"));
}

static void test_cli_unknown_command_is_one_line_exit_2(void **state)
{
    (void)state;
    char *argv[] = {"scalelab", "teleport", NULL};
    Run r = run(2, argv);
    assert_int_equal(r.status, 2);
    assert_int_equal(count_lines(r.err), 1);
    assert_non_null(strstr(r.err, "unknown command 'teleport'"));
}

static void test_cli_extra_arguments_are_refused(void **state)
{
    (void)state;
    char *argv[] = {"scalelab", "version", "now", NULL};
    Run r = run(3, argv);
    assert_int_equal(r.status, 2);
    assert_int_equal(count_lines(r.err), 1);
}

static void test_cli_find_uses_the_table(void **state)
{
    (void)state;
    assert_non_null(cli_find("help"));
    assert_ptr_equal(cli_find("--version"), cli_find("version"));
    assert_null(cli_find("no-such-command"));
    assert_null(cli_find(""));
}

/* Errors carry the name of the command typed, also when shared code wrote
 * another command's name in front of its message. */
static void test_cli_errors_are_prefixed_by_the_command_typed(void **state)
{
    (void)state;
    char *sweep[] = {"scalelab", "sweep", "--gpus", "x", NULL};
    Run r = run(4, sweep);
    assert_int_equal(r.status, 2);
    assert_int_equal(count_lines(r.err), 1);
    assert_int_equal(strncmp(r.err, "scalelab sweep: --gpus", 22), 0);
    char *check[] = {"scalelab", "check", "--bogus", NULL};
    r = run(3, check);
    assert_int_equal(r.status, 2);
    assert_int_equal(strncmp(r.err, "scalelab check: unknown option '--bogus'", 40), 0);
    char *top[] = {"scalelab", "--bogus", NULL};
    r = run(2, top);
    assert_int_equal(strncmp(r.err, "scalelab: unknown option", 24), 0);
}

static int render_error(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error(CLI_FAIL, "render: %s %d", "cannot write", 7);
}

static void test_cli_error_returns_its_status(void **state)
{
    (void)state;
    char *top[] = {"scalelab", "--bogus", NULL};
    run(2, top); /* no command chosen */
    const TlRun *r = tl_run(render_error, 0, NULL);
    assert_int_equal(r->status, CLI_FAIL);
    /* no command chosen: the name comes from the message */
    assert_string_equal(r->err, "scalelab render: cannot write 7\n");
}

static void test_cli_wants_help_stops_at_dashdash(void **state)
{
    (void)state;
    char *a[] = {"check", "x.lua", "-h", NULL};
    assert_true(cli_wants_help(3, a));
    char *b[] = {"check", "--", "--help", NULL};
    assert_false(cli_wants_help(3, b));
    char *c[] = {"check", "x.lua", NULL};
    assert_false(cli_wants_help(2, c));
}

/* help COMMAND prints what COMMAND --help prints, on stdout, exit 0. */
static void test_cli_help_command_is_its_help(void **state)
{
    (void)state;
    char *a[] = {"scalelab", "help", "check", NULL};
    Run r = run(3, a);
    assert_int_equal(r.status, 0);
    char *b[] = {"scalelab", "check", "--help", NULL};
    Run r2 = run(3, b);
    assert_int_equal(r2.status, 0);
    assert_string_equal(r.out, r2.out);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "Usage: scalelab check"));
    char *c[] = {"scalelab", "help", "teleport", NULL};
    assert_int_equal(run(3, c).status, 2);
}

/* The interactive modes without a terminal (stdin is a file here): exit 3,
 * and `--` before a lesson file is accepted. */
static void test_cli_no_terminal_is_status_3(void **state)
{
    (void)state;
    FILE *in = tmpfile();
    int saved = dup(0);
    dup2(fileno(in), 0);
    char *a[] = {"scalelab", "--", "lessons/01-two-ways-to-grow.lua", NULL};
    Run r = run(3, a);
    char *b[] = {"scalelab", "--lessons", "lessons", NULL};
    Run r2 = run(3, b);
    dup2(saved, 0);
    close(saved);
    fclose(in);
    assert_int_equal(r.status, CLI_NO_TERMINAL);
    assert_int_equal(CLI_NO_TERMINAL, 3);
    assert_int_equal(count_lines(r.err), 1);
    assert_int_equal(r2.status, CLI_NO_TERMINAL);
    char *c[] = {"scalelab", "--", "notes.txt", NULL};
    assert_int_equal(run(3, c).status, CLI_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_help_lists_every_command),
        cmocka_unit_test(test_cli_short_help_is_the_same),
        cmocka_unit_test(test_cli_version_prints_the_one_version),
        cmocka_unit_test(test_cli_version_on_every_command),
        cmocka_unit_test(test_cli_print_wrapped),
        cmocka_unit_test(test_cli_unknown_option_is_one_line_exit_2),
        cmocka_unit_test(test_cli_unknown_command_is_one_line_exit_2),
        cmocka_unit_test(test_cli_extra_arguments_are_refused),
        cmocka_unit_test(test_cli_find_uses_the_table),
        cmocka_unit_test(test_cli_errors_are_prefixed_by_the_command_typed),
        cmocka_unit_test(test_cli_error_returns_its_status),
        cmocka_unit_test(test_cli_wants_help_stops_at_dashdash),
        cmocka_unit_test(test_cli_help_command_is_its_help),
        cmocka_unit_test(test_cli_no_terminal_is_status_3),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
