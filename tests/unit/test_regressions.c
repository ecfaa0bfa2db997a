/* SPDX-License-Identifier: MIT */
/* test_regressions — every finding of the fuzzers (tests/fuzz/) and of the
 * bad-input and fault suites, pinned as a plain test so it runs in every
 * `make test`, under the sanitizers and under valgrind, without clang.
 *
 * Each test names the harness that found it, the input (bytes written out
 * in C escapes) and the contract it broke, quoted from the header that
 * makes the promise. A test here fails until the owner's fix lands; the
 * failure message says whose code and which promise.
 */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "base/clock.h"
#include "draw/canvas.h"
#include "draw/text.h"
#include "learn/scenario.h"
#include "lesson/lesson.h"
#include "lesson/sandbox.h"
#include "model/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

/* Index of the first control character (C0, DEL) in s, -1 when none. */
static int first_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return (int)(p - (const unsigned char *)s);
    return -1;
}

/* fuzz_units, input "\x01" "8G0\n b" (kind UNITS_BYTES): the reason echoed
 * the newline, so the "one-line reason" of units.h became two lines; an
 * escape sequence in a flag value (scalelab eval --up $'1 \e[31mX') reached
 * stderr raw the same way. units.h: "writes a one-line reason". */
static void test_regressions_units_reason_is_one_line(void **state)
{
    (void)state;
    static const struct {
        UnitsKind kind;
        const char *text;
    } cases[] = {
        {UNITS_BYTES, "8G0\n b"},
        {UNITS_BANDWIDTH, "1 \033[31mX"},
        {UNITS_TIME, "2\r\033]0;title\007 s"},
        {UNITS_COUNT, "7\177"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = -1.0;
        char err[200] = "";
        bool ok = units_parse(cases[i].kind, cases[i].text, &v, err, sizeof err);
        assert_false(ok);
        assert_true(v == -1.0);
        int at = first_control(err);
        if (at >= 0)
            print_error("units.c (model): case %zu: control byte 0x%02x at %d of the reason "
                        "\"%s\"; echo user text escaped\n",
                        i, (unsigned char)err[at], at, err);
        assert_int_equal(at, -1);
        assert_true(strlen(err) > 0);
    }
}

/* fuzz_units, found while writing the harness: a failed parse with a short
 * error buffer must stay inside it and a success must leave err alone. */
static void test_regressions_units_short_err_buffer(void **state)
{
    (void)state;
    char tiny[8];
    memset(tiny, 'X', sizeof tiny);
    double v = 0;
    assert_false(units_parse(UNITS_BANDWIDTH, "1.8 TB", &v, tiny, 5));
    assert_true(tiny[5] == 'X' && tiny[6] == 'X' && tiny[7] == 'X');
    assert_true(strlen(tiny) <= 4);
    memset(tiny, 'X', sizeof tiny);
    assert_true(units_parse(UNITS_COUNT, "0", &v, tiny, 5));
    assert_true(v == 0.0);
    assert_true(tiny[0] == 'X'); /* untouched on success */
    assert_false(units_parse(UNITS_COUNT, "", &v, NULL, 0));
}

/* fuzz_units (check_format) and `scalelab eval --params 1e300`, which
 * printed "step time 118334395028207668853553221364111830381...": units.h
 * promises "buf_len of 32 is always enough", but a huge value printed as a
 * 130-digit number (cut at 31 bytes in a 32-byte buffer), and the smallest
 * subnormal (4.94e-324) printed as "-nan B/s". A finite value should print
 * finitely and readably in 32 bytes (e-notation or "> 1000 EB/s"). */
static void test_regressions_units_format_extremes(void **state)
{
    (void)state;
    static const double values[] = {
        1e300, -1e300, 1e40, 1e25, 4.9406564584124654e-324, 2.2250738585072014e-308};
    for (int k = UNITS_BANDWIDTH; k <= UNITS_FLOPS; k++)
        for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
            char small[32], big[256];
            units_format((UnitsKind)k, values[i], false, small, sizeof small);
            units_format((UnitsKind)k, values[i], false, big, sizeof big);
            bool cut = strcmp(small, big) != 0, nan = strstr(big, "nan") != NULL;
            if (cut || nan)
                print_error("units.c (model): units_format(kind %d, %g) = \"%s\" (%zu bytes)%s\n",
                            k, values[i], big, strlen(big), nan ? ": nan for a finite value" : "");
            assert_false(cut);
            assert_false(nan);
        }
}

/* fuzz_markup, input: canvas 80x56, text "-(\xc2\x93..." — a C1 control
 * (U+0080..U+009F, UTF-8 C2 80..C2 9F) was stored in a cell as a glyph and
 * so reaches the terminal through canvas_to_text/canvas_to_ansi and the UI.
 * xterm obeys C1 controls encoded in UTF-8 (U+009B is CSI, U+009D OSC), so a
 * lesson page could move the cursor or set the window title. C0 controls
 * and DEL already draw as '?'; C1 should too (canvas.c next_char). */
static void test_regressions_markup_no_c1_control_in_cells(void **state)
{
    (void)state;
    Canvas *c = canvas_new(40, 4);
    text_draw_markup(c, 0, 0, 40, 4,
                     "a\xc2\x9b"
                     "31m red \xc2\x9d"
                     "0;t\xc2\x9c b \xc2\x85",
                     0);
    int bad = 0;
    for (int y = 0; y < canvas_height(c); y++)
        for (int x = 0; x < canvas_width(c); x++) {
            const Cell *cell = canvas_cell(c, x, y);
            unsigned char g0 = (unsigned char)cell->glyph[0];
            unsigned char g1 = (unsigned char)cell->glyph[1];
            if (g0 == 0xC2 && g1 >= 0x80 && g1 < 0xA0) {
                print_error("canvas.c (draw): C1 control U+%04X stored at (%d,%d); draw it "
                            "as '?' like C0\n",
                            g1, x, y);
                bad++;
            }
        }
    assert_int_equal(bad, 0);
    /* The same through canvas_put_text, which lesson titles take. */
    canvas_clear(c);
    canvas_put_text(c, 0, 0, "t\xc2\x9bX", STYLE_NORMAL);
    char *t = canvas_to_text(c);
    assert_null(strstr(t, "\xc2\x9b"));
    free(t);
    canvas_free(c);
}

/* fuzz_markup seeds: a box starting outside the canvas, zero and negative
 * sizes, negative scroll, invalid UTF-8: never a write outside the grid
 * (the sanitizer build checks) and a non-negative line count. */
static void test_regressions_markup_odd_boxes(void **state)
{
    (void)state;
    static const char text[] = "# H\xff\xfe\n\n- \xe6\xbc\xa2\xe5\xad\x97 *x `y\n  - z\n";
    int boxes[][5] = {
        /* x, y, w, h, scroll */
        {-4, -2, 10, 3, 0}, {0, 0, 0, 0, 0},    {0, 0, -5, -5, -3},
        {5, 1, 1, 50, 2},   {0, 0, 1, 1, 1000}, {79, 23, 10, 10, 0},
    };
    for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++) {
        Canvas *c = canvas_new(i == 1 ? 0 : 80, i == 1 ? 0 : 24);
        int n = text_draw_markup(c, boxes[i][0], boxes[i][1], boxes[i][2], boxes[i][3], text,
                                 boxes[i][4]);
        assert_true(n >= 0);
        canvas_free(c);
    }
    assert_int_equal(text_draw_markup(NULL, 0, 0, 10, 10, NULL, 0), 0);
}

/* fuzz_lesson seeds: an error message carrying ESC, CR, LF and a C1 CSI
 * comes out as one escaped line starting with the file name. */
static void test_regressions_lesson_error_is_escaped(void **state)
{
    (void)state;
    SandboxLimits lim = sandbox_limits_catalog();
    Sandbox *sb = sandbox_new("esc.lua", &lim);
    assert_non_null(sb);
    static const char src[] = "error('bad \\27[31mred\\27[0m \\r\\n line \\194\\155 csi')";
    char err[MSG_LEN];
    assert_false(sandbox_run_string(sb, src, strlen(src), err, sizeof err));
    assert_int_equal(first_control(err), -1);
    assert_null(strstr(err, "\xc2\x9b"));
    assert_true(strncmp(err, "esc.lua:1:", 10) == 0);
    sandbox_free(sb);
}

/* badinput, by hand: a lesson whose scenario asks for 10^8 GPUs made
 * `scalelab check` run 157 s and reach 6.2 GB (10^7 GPUs: 3.8 s, 628 MB),
 * all in C (scenario start: per-GPU placement arrays and their
 * evaluation), outside the Lua memory cap and the instruction budget; the
 * same scenario evaluated by `scalelab eval` takes 0.08 s. lesson.h: lessons
 * are untrusted and run "with instruction, time, memory ... limits". Either
 * the loader refuses a scenario that large with a file:line message, or
 * starting it stays cheap; this test takes 10^7 so an unfixed tree costs
 * seconds, not minutes. */
static void test_regressions_lesson_huge_scenario_is_bounded(void **state)
{
    (void)state;
    char path[] = "/tmp/scalelab-regress-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char src[] =
        "return { id = \"huge\", title = \"Huge\", summary = \"s\", track = \"t\",\n"
        "  order = 1, pages = { { kind = \"scenario\", title = \"s\", text = \"x\",\n"
        "    cluster = { system = \"dgx-h100\", gpus = 10000000 },\n"
        "    workload = { model = \"llama3-8b\", batch = 1250000 },\n"
        "    mapping = { tp = 8, pp = 1, dp = 1250000 },\n"
        "    goal = { text = \"g\", check = function(r) return false end },\n"
        "    solution = { \"tp 8\" } } } }\n";
    assert_int_equal(write(fd, src, sizeof src - 1), (int)(sizeof src - 1));
    close(fd);
    char err[MSG_LEN] = "";
    double t0 = clock_now_s();
    Lesson *l = lesson_load(path, err, sizeof err);
    unlink(path); /* before any assertion can leave the test */
    if (l) {
        Scenario *s = lesson_scenario_start(l, 0, err, sizeof err);
        scenario_free(s);
    }
    double took = clock_now_s() - t0, bound = 1.0 * tl_slowdown();
    if (l && took > bound)
        print_error("lesson.c / scenario.c: a 10^7-GPU scenario was accepted and took %.2f s "
                    "to start; refuse it in the loader (file:line) or make the start cheap\n",
                    took);
    assert_true(!l || took <= bound);
    if (!l) {
        assert_true(strncmp(err, path, strlen(path)) == 0);
        assert_int_equal(first_control(err), -1);
    }
    lesson_free(l);
}

/* The hostile-tester round on the sandbox and the loader: each file gets
 * one clear "file:line:" problem within 3 s in `check` (the whole file runs
 * on one budget) and within 0.5 s in the listing's loader, with no control
 * character in any message and no crash. sandbox.h: "one budget per
 * Sandbox, shared by every entry point"; lesson.c: every copy through
 * take_string, every list length through list_len. */
typedef struct {
    int n;
    char first[600];
    bool control;
} RegReport;

static void reg_collect(void *ctx, const char *line)
{
    RegReport *r = ctx;
    if (r->n++ == 0)
        snprintf(r->first, sizeof r->first, "%s", line);
    if (first_control(line) >= 0)
        r->control = true;
}

static void expect_hostile(const char *file, int line, const char *needle)
{
    char path[256], prefix[300];
    snprintf(path, sizeof path, "tests/lessons/hostile/%s", file);
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    RegReport r = {0};
    double t0 = clock_now_s();
    int n = lesson_check_file(path, reg_collect, &r);
    double check_s = clock_now_s() - t0;
    char err[MSG_LEN] = "";
    t0 = clock_now_s();
    Lesson *l = lesson_load_quick(path, err, sizeof err);
    double list_s = clock_now_s() - t0;
    lesson_free(l);
    print_message("%-20s check %.2f s, listing %.2f s: %s\n", file, check_s, list_s, r.first);
    if (n < 1 || strncmp(r.first, prefix, strlen(prefix)) != 0 || !strstr(r.first, needle) ||
        r.control || check_s > 3.0 * tl_slowdown() || list_s > 0.5 * tl_slowdown() ||
        first_control(err) >= 0) {
        print_error("want '%s...%s' within 3 s / 0.5 s; got %d problems: %s\n", prefix, needle, n,
                    r.first);
        fail();
    }
}

static void test_regressions_hostile_round_two(void **state)
{
    (void)state;
    static const struct {
        const char *file; /* under tests/lessons/hostile/ */
        int line;         /* where the first problem is reported */
        const char *needle;
    } hostile[] = {
        {"neg_len.lua", 4, "'pages' must be a list of at most 200"},
        {"neg_len_choices.lua", 4, "'choices' must be a list of at most 64"},
        {"many_goals.lua", 9, "instruction limit reached"},
        {"big_texts.lua", 9, "pass 4 MB in all"},
        {"c_stack.lua", 5, "stack overflow"},
        {"sort_long.lua", 5, "table.sort"},
        {"strict_typo.lua", 2, "undeclared global 'titel'"},
        {"close_attr.lua", 4, "<const> and <close> are not allowed"},
        {"find_storm.lua", 3, "string.find"},
        {"parser_depth.lua", 3, "nesting too deep"},
        {"index_loop.lua", 4, "limit reached"},
        {"load_storm.lua", 3, "load: too costly"},
        {"vararg_fill.lua", 3, "limit reached"},
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++)
        expect_hostile(hostile[i].file, hostile[i].line, hostile[i].needle);
}

/* The largest page text a lesson can make (strings stop at 1 MB) lays out
 * in well under a key press. */
static void test_regressions_big_page_lays_out_fast(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load("tests/lessons/hostile/big_page.lua", err, sizeof err);
    assert_non_null(l);
    Canvas *c = canvas_new(120, 40);
    double t0 = clock_now_s();
    text_draw_markup(c, 0, 0, 120, 40, lesson_page_text(l, 0), 0);
    double dt = clock_now_s() - t0;
    print_message("a %zu-byte page laid out in %.3f s\n", strlen(lesson_page_text(l, 0)), dt);
    assert_true(dt < 0.25 * tl_slowdown());
    canvas_free(c);
    lesson_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regressions_units_reason_is_one_line),
        cmocka_unit_test(test_regressions_units_short_err_buffer),
        cmocka_unit_test(test_regressions_units_format_extremes),
        cmocka_unit_test(test_regressions_markup_no_c1_control_in_cells),
        cmocka_unit_test(test_regressions_markup_odd_boxes),
        cmocka_unit_test(test_regressions_lesson_error_is_escaped),
        cmocka_unit_test(test_regressions_lesson_huge_scenario_is_bounded),
        cmocka_unit_test(test_regressions_hostile_round_two),
        cmocka_unit_test(test_regressions_big_page_lays_out_fast),
    };
    return cmocka_run_group_tests_name("regressions", tests, NULL, NULL);
}
