/* SPDX-License-Identifier: MIT */
/* test_present — presenter mode without a terminal: the block-letter font,
 * the steps of a page (paragraphs of text, a quiz's answer, a scenario's
 * moves), the keys that walk them, --script parsing and checking, and the
 * golden renders of tests/golden/present-cases.txt (made by `make golden`,
 * compared here byte for byte through `present --shot` run in-process). */
#include "ui/screen_present.h"

#include "cmd/cli.h"
#include "draw/canvas.h"
#include "lesson/lesson.h"
#include "ui/keys.h"

/* cmocka.h needs these four first. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEMO "tests/present/demo.lua"

static void test_present_banner_draws_the_font(void **state)
{
    (void)state;
    Canvas *c = canvas_new(20, 5);
    canvas_set_ascii(c, true);
    /* "AB": 2 letters x 4 columns - 1 = 7 wide, centred in 20: x = 6. */
    assert_int_equal(screen_present_banner(c, 0, 0, 20, "Ab"), 5);
    char *text = canvas_to_text(c);
    assert_string_equal(text, "       #  ##\n"
                              "      # # # #\n"
                              "      ### ##\n"
                              "      # # # #\n"
                              "      # # ##\n");
    free(text);
    canvas_clear(c);
    canvas_set_ascii(c, false);
    /* UTF-8: rows 0+1, 2+3, 4 as half blocks: A is ▄▀▄ / █▀█ / ▀ ▀. */
    assert_int_equal(screen_present_banner(c, 0, 0, 3, "A"), 3);
    text = canvas_to_text(c);
    assert_string_equal(text, "▄▀▄\n█▀█\n▀ ▀\n\n\n"); /* 5-row canvas */
    free(text);
    /* Too wide, or a character outside the font: nothing drawn. */
    canvas_clear(c);
    assert_int_equal(screen_present_banner(c, 0, 0, 6, "ABC"), 0);
    assert_int_equal(screen_present_banner(c, 0, 0, 20, "A~B"), 0);
    text = canvas_to_text(c);
    assert_string_equal(text, "\n\n\n\n\n");
    free(text);
    canvas_free(c);
}

static void test_present_steps_split_and_walk(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(DEMO, err, sizeof err);
    assert_non_null(l);
    /* Page 1's text has three paragraphs (blank lines between them). */
    assert_int_equal(lesson_page_step_count(l, 0), 3);
    assert_string_equal(lesson_page_step(l, 0, 1), "Between servers, traffic takes the network.");
    assert_string_equal(lesson_page_step(l, 0, 2), "- The boundary is where bandwidth drops.");
    assert_string_equal(lesson_page_step(l, 0, 3), "");
    PresentState ps;
    screen_present_init(&ps, l, 0);
    assert_int_equal(screen_present_step_count(&ps), 2); /* the first piece shows at once */
    screen_present_key(&ps, ' ');
    screen_present_key(&ps, UIK_RIGHT);
    assert_int_equal(ps.page, 0);
    assert_int_equal(ps.step, 2);
    screen_present_key(&ps, 'u');
    assert_int_equal(ps.step, 1);
    screen_present_key(&ps, ' ');
    screen_present_key(&ps, ' '); /* all revealed: the next page */
    assert_int_equal(ps.page, 1);
    assert_int_equal(ps.step, 0);
    /* The scenario: two moves, swap 3 11 and back. */
    assert_int_equal(screen_present_step_count(&ps), 2);
    double start = scenario_result(ps.s)->step_s;
    screen_present_key(&ps, ' ');
    double across = scenario_result(ps.s)->step_s;
    if (!(across > start * 1.05))
        fail_msg("swap 3 11 should put TP on the network: %.3f s -> %.3f s", start, across);
    assert_non_null(strstr(ps.effect, "swap 3 11: TP all-reduce"));
    screen_present_key(&ps, ' ');
    assert_true(scenario_result(ps.s)->step_s == start);
    screen_present_key(&ps, 'u');
    assert_true(scenario_result(ps.s)->step_s == across);
    screen_present_key(&ps, '0');
    assert_int_equal(ps.step, 0);
    assert_true(scenario_result(ps.s)->step_s == start);
    /* Quiz: one reveal (the answer); the last page says the end. */
    screen_present_goto(&ps, 3);
    assert_int_equal(screen_present_step_count(&ps), 1);
    screen_present_key(&ps, ' ');
    screen_present_key(&ps, ' ');
    assert_int_equal(ps.page, 3);
    assert_non_null(strstr(ps.message, "The end"));
    screen_present_key(&ps, UIK_LEFT);
    assert_int_equal(ps.page, 2);
    assert_int_equal(screen_present_key(&ps, 'q'), SCREEN_QUIT);
    screen_present_fini(&ps);
    lesson_free(l);
}

static void test_present_script_parsed_and_checked(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(DEMO, err, sizeof err);
    assert_non_null(l);
    PresentState ps;
    screen_present_init(&ps, l, 1);
    /* Comments and blanks skipped; moves before "page" go to the first
     * scenario page (page 2); the script replaces the page's steps. */
    assert_true(
        screen_present_script(&ps, "# demo\n\n  swap 0 8  # across\ntp 4\n", err, sizeof err));
    assert_int_equal(screen_present_step_count(&ps), 2);
    assert_string_equal(screen_present_move(&ps, 0), "swap 0 8");
    assert_string_equal(screen_present_move(&ps, 1), "tp 4");
    /* A bad move names its line; "page N" must be a scenario page. */
    assert_false(screen_present_script(&ps, "page 2\nswap 3 11\nswap 3 99\n", err, sizeof err));
    assert_non_null(strstr(err, "script:3: 'swap 3 99' on page 2"));
    assert_false(screen_present_script(&ps, "page 1\nswap 3 11\n", err, sizeof err));
    assert_non_null(strstr(err, "script:1:"));
    screen_present_fini(&ps);
    lesson_free(l);
}

/* ---- golden renders ---- */

static void test_present_golden_renders(void **state)
{
    (void)state;
    FILE *cases = fopen("tests/golden/present-cases.txt", "r");
    assert_non_null(cases);
    char line[300];
    int checked = 0;
    while (fgets(line, sizeof line, cases)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *argv[16] = {"present", DEMO, "--shot", NULL, "--clock", "10:30"};
        int argc = 6;
        char *name = strtok(line, " \n");
        argv[3] = strtok(NULL, " \n");
        char *tok;
        while (argc < 15 && (tok = strtok(NULL, " \n")))
            argv[argc++] = tok;
        const TlRun *r = tl_run(cmd_present, argc, argv);
        assert_int_equal(r->status, 0);
        char path[200];
        snprintf(path, sizeof path, "tests/golden/%s.txt", name);
        if (!tl_same_as_file(r->out, path)) {
            fprintf(stderr, "present golden %s differs; got:\n%s", name, r->out);
            fail_msg("%s differs from `present --shot %s`", path, argv[3]);
        }
        checked++;
    }
    fclose(cases);
    assert_true(checked >= 6);
}

static void test_present_bad_usage_exits_2(void **state)
{
    (void)state;
    assert_int_equal(tl_run(cmd_present, 1, (char *[]){"present", NULL})->status, CLI_USAGE);
    assert_int_equal(
        tl_run(cmd_present, 4, (char *[]){"present", DEMO, "--shot", "9", NULL})->status,
        CLI_USAGE);
    assert_int_equal(
        tl_run(cmd_present, 6, (char *[]){"present", DEMO, "--shot", "1", "--size", "10x10", NULL})
            ->status,
        CLI_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_present_banner_draws_the_font),
        cmocka_unit_test(test_present_steps_split_and_walk),
        cmocka_unit_test(test_present_script_parsed_and_checked),
        cmocka_unit_test(test_present_golden_renders),
        cmocka_unit_test(test_present_bad_usage_exits_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
