/* SPDX-License-Identifier: MIT */
/* test_charts — the stacked step bar (segment lengths, legend, delta) and the
 * line chart (axes, ticks, invalid and current points). Segment lengths are
 * worked by hand from the cumulative-rounding rule in charts.c. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "draw/charts.h"

#include <stdlib.h>
#include <string.h>

static StepResult result(double compute, double tp, double bubble, double dp)
{
    StepResult r;
    memset(&r, 0, sizeof r);
    r.part_s[STEP_COMPUTE] = compute;
    r.part_s[STEP_TP] = tp;
    r.part_s[STEP_BUBBLE] = bubble;
    r.part_s[STEP_DP] = dp;
    r.step_s = compute + tp + bubble + dp;
    return r;
}

static int count_in_row(const Canvas *c, int y, int from, const char *glyph)
{
    int n = 0;
    for (int x = from; x < canvas_width(c); x++)
        n += strcmp(canvas_cell(c, x, y)->glyph, glyph) == 0;
    return n;
}

static char *row_text(const Canvas *c, int y)
{
    char *all = canvas_to_text(c);
    char *p = all;
    for (int i = 0; i < y; i++)
        p = strchr(p, '\n') + 1;
    char *nl = strchr(p, '\n');
    char *out = strndup(p, nl ? (size_t)(nl - p) : strlen(p));
    assert_non_null(out);
    free(all);
    return out;
}

static void test_charts_bar_segments_add_up(void **state)
{
    (void)state;
    StepResult r = result(0.8, 0.2, 0.1, 0.1); /* 1.2 s */
    Canvas *c = canvas_new(80, 6);
    canvas_set_ascii(c, true);
    int rows = chart_step_bar(c, 0, 0, 80, &r, NULL);
    assert_int_equal(rows, 2); /* bar + one legend row */
    /* label 9 columns, bar 71: compute ends at round(0.8/1.2*71) = round(47.33) = 47,
     * TP at round(1.0/1.2*71) = round(59.17) = 59 -> 12, bubble at round(65.08) = 65
     * -> 6, DP at 71 -> 6 */
    assert_int_equal(count_in_row(c, 0, 9, "#"), 47);
    assert_int_equal(count_in_row(c, 0, 9, "T"), 12);
    assert_int_equal(count_in_row(c, 0, 9, "."), 6);
    assert_int_equal(count_in_row(c, 0, 9, "D"), 6);
    assert_int_equal(canvas_cell(c, 9, 0)->style, STYLE_BAR_COMPUTE);
    assert_int_equal(canvas_cell(c, 79, 0)->style, STYLE_BAR_DP);
    char *legend = row_text(c, 1);
    /* parts with no time (PP, EP) are left out of the legend */
    assert_string_equal(legend, "# compute 800 ms  T TP 200 ms  . bubble 100 ms  D DP 100 ms");
    free(legend);
    canvas_free(c);
}

static void test_charts_bar_delta_against_start(void **state)
{
    (void)state;
    StepResult now = result(0.8, 0.2, 0.1, 0.1);   /* 1.2 s */
    StepResult start = result(0.8, 0.5, 0.1, 0.1); /* 1.5 s */
    Canvas *c = canvas_new(80, 6);
    canvas_set_ascii(c, true);
    int rows = chart_step_bar(c, 0, 0, 80, &now, &start);
    assert_int_equal(rows, 4); /* now, start, legend, delta */
    /* both bars on the 1.5 s scale over 80 - 15 = 65 columns: the start bar is
     * full (65), the current one ends at round(1.2/1.5*65) = 52 */
    assert_int_equal(65 - count_in_row(c, 0, 15, " "), 52);
    assert_int_equal(count_in_row(c, 1, 15, " "), 0);
    /* 1.2 - 1.5 = -0.3 s = -300 ms; -0.3 / 1.5 = -20% */
    char *delta = row_text(c, 3);
    assert_string_equal(delta, "-300 ms (-20%) against the start: faster.");
    free(delta);
    assert_int_equal(canvas_cell(c, 0, 3)->style, STYLE_GOOD);
    canvas_free(c);
}

static void test_charts_bar_target_mark(void **state)
{
    (void)state;
    StepResult r = result(0.8, 0.2, 0.1, 0.1); /* 1.2 s */
    Canvas *c = canvas_new(80, 6);
    canvas_set_ascii(c, true);
    /* goal 0.9 s, inside the bar: scale stays 1.2 s over 71 columns, the mark at
     * 9 + round(0.9 / 1.2 * 71) = 9 + round(53.25) = 9 + 53 = 62 */
    int rows = chart_step_bar_target(c, 0, 0, 80, &r, NULL, 0.9);
    assert_int_equal(rows, 2);
    assert_int_equal(count_in_row(c, 0, 9, "|"), 1);
    assert_string_equal(canvas_cell(c, 62, 0)->glyph, "|");
    char *legend = row_text(c, 1);
    assert_non_null(strstr(legend, "| goal 900 ms"));
    free(legend);
    /* goal 2 s, beyond the bar: scale 2.1 s, compute ends at round(0.8/2.1*71) = 27,
     * the bar at round(1.2/2.1*71) = 41, the mark at 9 + round(2/2.1*71) = 9 + 68 */
    canvas_clear(c);
    chart_step_bar_target(c, 0, 0, 80, &r, NULL, 2.0);
    assert_int_equal(count_in_row(c, 0, 9, "#"), 27);
    assert_string_equal(canvas_cell(c, 77, 0)->glyph, "|");
    assert_string_equal(canvas_cell(c, 9 + 41, 0)->glyph, " ");
    /* no goal: the plain bar, no mark */
    canvas_clear(c);
    chart_step_bar_target(c, 0, 0, 80, &r, NULL, 0);
    assert_int_equal(count_in_row(c, 0, 9, "|"), 0);
    canvas_free(c);
}

static void test_charts_bar_null_draws_nothing(void **state)
{
    (void)state;
    Canvas *c = canvas_new(20, 2);
    assert_int_equal(chart_step_bar(c, 0, 0, 20, NULL, NULL), 0);
    canvas_free(c);
}

static void test_charts_line_axes_and_points(void **state)
{
    (void)state;
    ChartSeries s = {.title = "Step time against TP degree",
                     .x_label = "TP",
                     .y_label = "step time",
                     .y_kind = UNITS_TIME,
                     .n = 3,
                     .highlight = 1,
                     .ascii = true};
    double xs[] = {1, 2, 4}, ys[] = {0, 2.0, 1.0};
    bool ok[] = {false, true, true};
    for (int i = 0; i < 3; i++) {
        s.x[i] = xs[i];
        s.y[i] = ys[i];
        s.valid[i] = ok[i];
    }
    Canvas *c = canvas_new(40, 10);
    canvas_set_ascii(c, true);
    assert_int_equal(chart_line(c, 0, 0, 40, 10, &s), 10);
    char *text = canvas_to_text(c);
    /* top tick = 1.1 x the largest valid y = 2.2 s; middle 1.1 s */
    assert_non_null(strstr(text, "2.20 s"));
    assert_non_null(strstr(text, "1.10 s"));
    assert_non_null(strstr(text, "[2]")); /* the current point's label */
    assert_non_null(strstr(text, "x"));   /* TP 1 is not valid: an x on the axis */
    free(text);
    char *d = chart_line_describe(&s);
    assert_non_null(strstr(d, "1          not valid"));
    assert_non_null(strstr(d, "2          2.00 s   (current)"));
    assert_non_null(strstr(d, "Lowest at TP = 4."));
    free(d);
    canvas_free(c);
}

static void test_charts_part_glyphs_differ(void **state)
{
    (void)state;
    for (int a = 0; a < STEP_PART_COUNT; a++)
        for (int b = a + 1; b < STEP_PART_COUNT; b++) {
            assert_string_not_equal(chart_part_glyph((StepPart)a, false),
                                    chart_part_glyph((StepPart)b, false));
            assert_string_not_equal(chart_part_glyph((StepPart)a, true),
                                    chart_part_glyph((StepPart)b, true));
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_charts_bar_segments_add_up),
        cmocka_unit_test(test_charts_bar_delta_against_start),
        cmocka_unit_test(test_charts_bar_target_mark),
        cmocka_unit_test(test_charts_bar_null_draws_nothing),
        cmocka_unit_test(test_charts_line_axes_and_points),
        cmocka_unit_test(test_charts_part_glyphs_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
