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
    /* Quiz: one reveal (the answer), then the next page. */
    screen_present_goto(&ps, 3);
    assert_int_equal(screen_present_step_count(&ps), 1);
    screen_present_key(&ps, ' ');
    screen_present_key(&ps, ' ');
    assert_int_equal(ps.page, 4);
    /* Predict, the last page: its second paragraph, the answer, the
     * formula; then the end. */
    assert_int_equal(screen_present_step_count(&ps), 3);
    for (int i = 0; i < 3; i++)
        screen_present_key(&ps, ' ');
    assert_int_equal(ps.step, 3);
    screen_present_key(&ps, ' ');
    assert_int_equal(ps.page, 4);
    assert_non_null(strstr(ps.message, "The end"));
    screen_present_key(&ps, UIK_LEFT);
    assert_int_equal(ps.page, 3);
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

/* The canvas of page `page` after `step` reveals, as text (caller frees). */
static char *present_shot(PresentState *ps, int page, int step, int w, int h)
{
    screen_present_goto(ps, page);
    for (int i = 0; i < step; i++)
        screen_present_key(ps, ' ');
    Canvas *c = canvas_new(w, h);
    screen_present_draw(c, ps);
    char *text = canvas_to_text(c);
    canvas_free(c);
    return text;
}

/* A predict page is revealed one key at a time: the question once the
 * situation is all shown, then the model's answer, then the formula; none
 * of them earlier. The same on a lesson that ships. */
static void test_present_predict_reveals_step_by_step(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(DEMO, err, sizeof err);
    assert_non_null(l);
    PresentState ps;
    screen_present_init(&ps, l, 0);
    const char *q = "How long does the copy take?", *a = "The model's answer: 2.22 ms";
    const char *f = "time = bytes / bandwidth = 1.00 GB / 450 GB/s = 2.22 ms";
    char *t0 = present_shot(&ps, 4, 0, 80, 24), *t1 = present_shot(&ps, 4, 1, 80, 24);
    char *t2 = present_shot(&ps, 4, 2, 80, 24), *t3 = present_shot(&ps, 4, 3, 80, 24);
    assert_null(strstr(t0, q)); /* the second paragraph comes first */
    assert_null(strstr(t0, "Copy 1.00 GB"));
    CONTAINS(t1, "Copy 1.00 GB");
    CONTAINS(t1, q);
    assert_null(strstr(t1, a));
    CONTAINS(t2, a);
    CONTAINS(t2, " ms\n"); /* the unit in plain text beside the big number */
    assert_null(strstr(t2, f));
    CONTAINS(t3, f);
    free(t0), free(t1), free(t2), free(t3);
    screen_present_fini(&ps);
    lesson_free(l);
    /* A shipped lesson's predict page (no steps): question at once. */
    l = lesson_load("lessons/11-beyond-the-rack.lua", err, sizeof err);
    assert_non_null(l);
    screen_present_init(&ps, l, 0);
    int page = -1;
    for (int i = 0; i < lesson_page_count(l) && page < 0; i++)
        if (lesson_page_kind(l, i) == PAGE_PREDICT)
            page = i;
    assert_true(page >= 0);
    t0 = present_shot(&ps, page, 0, 80, 24);
    t1 = present_shot(&ps, page, 1, 80, 24);
    t2 = present_shot(&ps, page, 2, 80, 24);
    CONTAINS(t0, lesson_predict_question(l, page));
    assert_null(strstr(t0, "The model's answer"));
    CONTAINS(t1, "The model's answer");
    assert_null(strstr(t1, lesson_predict_formula(l, page)));
    CONTAINS(t2, lesson_predict_formula(l, page));
    free(t0), free(t1), free(t2);
    screen_present_fini(&ps);
    lesson_free(l);
}

/* A scenario's briefing shows whole, its last line too, at 80x24 and at a
 * size where the fabric view also fits. */
static void test_present_briefing_never_cut(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(DEMO, err, sizeof err);
    assert_non_null(l);
    PresentState ps;
    screen_present_init(&ps, l, 0);
    static const int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *t = present_shot(&ps, 1, 0, sizes[i][0], sizes[i][1]);
        CONTAINS(t, "must show too.");
        free(t);
    }
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
        cmocka_unit_test(test_present_predict_reveals_step_by_step),
        cmocka_unit_test(test_present_briefing_never_cut),
        cmocka_unit_test(test_present_golden_renders),
        cmocka_unit_test(test_present_bad_usage_exits_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
