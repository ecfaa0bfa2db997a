/* SPDX-License-Identifier: MIT */
/* test_compare — the compare view without a terminal: the sentence worked
 * by hand from results built by hand, the bars on one time scale, and `c`
 * on a scenario page (the start against now) of the e2e test lesson. */
#include "ui/screen_compare.h"

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
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static StepResult result(double compute, double tp, double dp)
{
    StepResult r;
    memset(&r, 0, sizeof r);
    r.part_s[STEP_COMPUTE] = compute;
    r.part_s[STEP_TP] = tp;
    r.part_s[STEP_DP] = dp;
    r.step_s = compute + tp + dp;
    r.fits = true;
    return r;
}

static void test_compare_sentence_ratio_and_part(void **state)
{
    (void)state;
    char buf[300];
    /* racks: 0.5 + 0.3 + 0.2 = 1.0 s; servers: 0.5 + 1.2 + 0.2 = 1.9 s.
     * 1.9 / 1.0 = 1.9x; TP differs by 0.9 s, the others by 0. */
    StepResult racks = result(0.5, 0.3, 0.2), servers = result(0.5, 1.2, 0.2);
    screen_compare_sentence("NVL72 racks", 512, &racks, "8-GPU servers", 512, &servers, NULL, buf,
                            sizeof buf);
    assert_string_equal(buf, "Same 512 GPUs: NVL72 racks 1.9x faster than 8-GPU servers; "
                             "TP all-reduce is the difference.");
    /* The other order names the same winner. */
    screen_compare_sentence("8-GPU servers", 512, &servers, "NVL72 racks", 512, &racks, NULL, buf,
                            sizeof buf);
    assert_non_null(strstr(buf, "NVL72 racks 1.9x faster than 8-GPU servers"));
    /* A: 0.5 + 0.3 + 0.24 = 1.04 s, B: 1.00 s: 1.04x (under 1.1x: two
     * decimals); DP differs by 0.04 s, the largest. Counts differ. */
    StepResult a = result(0.5, 0.3, 0.24), b = result(0.5, 0.3, 0.2);
    screen_compare_sentence("A", 512, &a, "B", 576, &b, NULL, buf, sizeof buf);
    assert_string_equal(buf, "512 vs 576 GPUs: B 1.04x faster than A; DP gradient reduction "
                             "is the difference.");
    /* 1.003 s against 1.000 s: within 0.5%, the same time. */
    StepResult c = result(0.503, 0.3, 0.2);
    screen_compare_sentence("A", 8, &c, "B", 8, &b, NULL, buf, sizeof buf);
    assert_string_equal(buf, "Same 8 GPUs: A and B take the same time.");
    /* Two TPU slices count chips. */
    screen_compare_sentence("A", 8, &c, "B", 8, &b, "chips", buf, sizeof buf);
    assert_string_equal(buf, "Same 8 chips: A and B take the same time.");
    /* A side that does not fit is named. */
    servers.fits = false;
    screen_compare_sentence("racks", 72, &racks, "servers", 72, &servers, NULL, buf, sizeof buf);
    assert_non_null(strstr(buf, "; servers does not fit in memory."));
    /* A buffer too small is cut, never overrun. */
    char tiny[8];
    screen_compare_sentence("racks", 72, &racks, "servers", 72, &servers, NULL, tiny, sizeof tiny);
    assert_int_equal(strlen(tiny), 7);
}

static int count_bar_cells(const Canvas *c, int row)
{
    int n = 0;
    for (int x = 0; x < canvas_width(c); x++) {
        const Cell *cell = canvas_cell(c, x, row);
        if (cell->style == STYLE_BAR_COMPUTE || cell->style == STYLE_BAR_TP ||
            cell->style == STYLE_BAR_DP)
            n++;
    }
    return n;
}

static void test_compare_bars_share_one_time_scale(void **state)
{
    (void)state;
    CompareSide sides[2];
    memset(sides, 0, sizeof sides);
    snprintf(sides[0].label, sizeof sides[0].label, "fast");
    snprintf(sides[1].label, sizeof sides[1].label, "slow");
    sides[0].ok = sides[1].ok = true;
    sides[0].result = result(0.5, 0.3, 0.2); /* 1.0 s */
    sides[1].result = result(0.5, 1.2, 0.2); /* 1.9 s */
    sides[0].cluster.n_gpus = sides[1].cluster.n_gpus = 512;
    /* 8 rows: the sentence (1 row at 100 columns) and a blank, two bars, the
     * legend, a blank: 1 row left, too few for diagrams. Labels 4 wide: bar
     * area 100 - 4 - 1 - 11 = 84 columns for the slower 1.9 s, so the faster
     * bar ends at lround(1.0 * 84 / 1.9) = lround(44.2) = 44 columns. */
    Canvas *c = canvas_new(100, 8);
    screen_compare_draw(c, 0, 0, 100, 8, sides);
    char *text = canvas_to_text(c);
    assert_non_null(strstr(text, "fast 1.9x faster than slow"));
    assert_int_equal(count_bar_cells(c, 2), 44);
    assert_int_equal(count_bar_cells(c, 3), 84);
    assert_non_null(strstr(text, "TP 300 ms │ 1.20 s"));
    free(text);
    canvas_free(c);
}

static void test_compare_domains_strip_counts_what_is_hidden(void **state)
{
    (void)state;
    Cluster cl;
    char err[256];
    assert_true(cluster_from_system(&cl, "dgx-h100", 128, err, sizeof err));
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 16, .ep = 1, .interleave = 1};
    /* 16 servers of 8: boxes 8 + 2 = 10 wide, (76 + 1) / 11 = 7 per line.
     * 3 rows hold one line of boxes: 6 boxes and "+ 10 more" in the 7th place. */
    Canvas *c = canvas_new(76, 3);
    canvas_set_ascii(c, true);
    assert_int_equal(screen_compare_domains(c, 0, 0, 76, 3, &cl, &m, NULL), 3);
    char *text = canvas_to_text(c);
    assert_string_equal(text,
                        "+1=======+ +2=======+ +3=======+ +4=======+ +5=======+ +6=======+\n"
                        "#AAAAAAAA# #BBBBBBBB# #CCCCCCCC# #DDDDDDDD# #EEEEEEEE# #FFFFFFFF# "
                        "+ 10 more\n"
                        "+========+ +========+ +========+ +========+ +========+ +========+\n");
    free(text);
    canvas_free(c);
}

#define E2E_LESSON "tests/e2e/lessons/01-e2e-basics.lua"

static void test_compare_scenario_c_against_start(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(E2E_LESSON, err, sizeof err);
    assert_non_null(l);
    PageState p;
    screen_page_init(&p, l, E2E_LESSON, NULL, NULL, 1);
    assert_non_null(p.scn.s);
    assert_true(screen_scenario_apply(&p, "swap 3 11"));
    assert_int_equal(screen_page_key(&p, 'c'), SCREEN_NONE);
    assert_true(screen_compare_is_open(&p));
    Canvas *c = canvas_new(120, 40);
    ScreenCursor cur;
    screen_page_draw(c, &p, &cur);
    char *text = canvas_to_text(c);
    /* The swap puts TP traffic on the network: the start is faster, and
     * the TP all-reduce is what differs. */
    assert_non_null(strstr(text, "Compare: the start against now"));
    assert_non_null(strstr(text, "Same 16 GPUs: start (TP8 PP1 DP2)"));
    assert_non_null(strstr(text, "TP all-reduce is the difference"));
    free(text);
    /* b marks the reference; c compares with it (same state: same time). */
    screen_page_key(&p, UIK_ESC);
    assert_false(screen_compare_is_open(&p));
    screen_page_key(&p, 'b');
    screen_page_key(&p, 'c');
    screen_page_draw(c, &p, &cur);
    text = canvas_to_text(c);
    assert_non_null(strstr(text, "the reference (b) against now"));
    assert_non_null(strstr(text, "take the same time"));
    free(text);
    canvas_free(c);
    screen_page_fini(&p);
    lesson_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_sentence_ratio_and_part),
        cmocka_unit_test(test_compare_bars_share_one_time_scale),
        cmocka_unit_test(test_compare_domains_strip_counts_what_is_hidden),
        cmocka_unit_test(test_compare_scenario_c_against_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
