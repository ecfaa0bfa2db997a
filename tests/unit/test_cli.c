/* test_cli — the command line shell: dispatch, usage errors and exit codes.
 * Runs cli_run in-process with stdout and stderr captured to temp files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmd/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    int status;
    char out[8192];
    char err[8192];
} Run;

static void slurp(FILE *f, char *buf, size_t n)
{
    rewind(f);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
}

/* Runs `scalelab ARGS...` in-process, capturing both streams. */
static Run run(int argc, char **argv)
{
    Run r;
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    dup2(fileno(out), 1);
    dup2(fileno(err), 2);
    r.status = cli_run(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    slurp(out, r.out, sizeof r.out);
    slurp(err, r.err, sizeof r.err);
    fclose(out);
    fclose(err);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_help_lists_every_command),
        cmocka_unit_test(test_cli_short_help_is_the_same),
        cmocka_unit_test(test_cli_version_prints_the_one_version),
        cmocka_unit_test(test_cli_unknown_option_is_one_line_exit_2),
        cmocka_unit_test(test_cli_unknown_command_is_one_line_exit_2),
        cmocka_unit_test(test_cli_extra_arguments_are_refused),
        cmocka_unit_test(test_cli_find_uses_the_table),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
