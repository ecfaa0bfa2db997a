/* SPDX-License-Identifier: MIT */
/* test_golden — `scalelab render` output compared byte for byte with the
 * reviewed files in tests/golden/ (cases in tests/golden/cases.txt, made by
 * `make golden`). Runs the real command in-process with stdout captured; on
 * a mismatch prints the file and its first differing line. Never writes a
 * golden file. Also: bad render usage exits 2 with one line on stderr. */
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

static void test_golden_all_cases_match(void **state)
{
    (void)state;
    FILE *cases = fopen("tests/golden/cases.txt", "r");
    assert_non_null(cases);
    char line[512];
    int checked = 0, failed = 0;
    while (fgets(line, sizeof line, cases)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char *words[40];
        int n = 0;
        for (char *t = strtok(line, " "); t && n < 30; t = strtok(NULL, " "))
            words[n++] = t;
        assert_true(n >= 2);
        const char *view = words[0], *name = words[1];
        for (int wi = 0; wi < 2; wi++)
            for (int ascii = 0; ascii < 2; ascii++) {
                const char *width = wi ? "160" : "80";
                char *argv[48];
                int argc = 0;
                argv[argc++] = "render";
                argv[argc++] = (char *)view;
                for (int k = 2; k < n; k++)
                    argv[argc++] = words[k];
                argv[argc++] = "--width";
                argv[argc++] = (char *)width;
                argv[argc++] = "--color";
                argv[argc++] = "never";
                if (ascii)
                    argv[argc++] = "--ascii";
                argv[argc] = NULL;
                char path[256];
                snprintf(path, sizeof path, "tests/golden/%s-%s-%s-%s.txt", view, name, width,
                         ascii ? "ascii" : "utf8");
                const TlRun *r = tl_run(cmd_render, argc, argv);
                if (r->status != 0) {
                    print_error("%s: render exited %d\n", path, r->status);
                    failed++;
                } else if (!tl_same_as_file(r->out, path)) {
                    failed++;
                }
                checked++;
            }
    }
    fclose(cases);
    assert_true(checked >= 8);
    assert_int_equal(failed, 0);
}

/* Bad usage: exit 2 with one line on stderr, nothing on stdout. */
static void test_golden_bad_usage_exits_2(void **state)
{
    (void)state;
    static const char *const cases[][6] = {
        {"render", NULL},
        {"render", "pie", NULL},
        {"render", "rack", "--width", "10", NULL},
        {"render", "rack", "--width", NULL},
        {"render", "fabric", "--color", "purple", NULL},
        {"render", "chart", "--sweep", "heads", NULL},
        {"render", "chart", "--values", "1,,2", NULL},
        {"render", "bar", "--json", NULL},
        {"render", "rack", "--cursor", "999999", NULL},
        {"render", "rack", "stray", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *argv[8];
        int argc = 0;
        while (cases[i][argc]) {
            argv[argc] = (char *)cases[i][argc];
            argc++;
        }
        argv[argc] = NULL;
        const TlRun *r = tl_run(cmd_render, argc, argv);
        int lines = 0;
        for (const char *p = r->err; *p; p++)
            lines += *p == '\n';
        if (r->status != 2 || lines != 1 || r->out[0])
            print_error("case %zu (%s %s): status %d, %d stderr lines, stdout \"%.40s\"\n", i,
                        argv[1] ? argv[1] : "", argc > 2 ? argv[2] : "", r->status, lines, r->out);
        assert_int_equal(r->status, 2);
        assert_int_equal(lines, 1);
        assert_string_equal(r->out, "");
    }
}

int main(void)
{
    setenv("LC_ALL", "C.UTF-8", 1); /* render draws UTF-8 only in a UTF-8 locale */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_all_cases_match),
        cmocka_unit_test(test_golden_bad_usage_exits_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
