/* SPDX-License-Identifier: MIT */
/* test_canvas — the cell grid: clipping, wide glyphs, line joins, text and
 * ANSI dumps. Expected dumps are written out by hand below. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include "draw/canvas.h"

#include <stdlib.h>
#include <string.h>

static void test_canvas_new_is_blank(void **state)
{
    (void)state;
    Canvas *c = canvas_new(3, 2);
    assert_int_equal(canvas_width(c), 3);
    assert_int_equal(canvas_height(c), 2);
    const Cell *t = canvas_cell(c, 2, 1);
    assert_non_null(t);
    assert_string_equal(t->glyph, " ");
    assert_int_equal(t->width, 1);
    assert_int_equal(t->style, STYLE_NORMAL);
    assert_null(canvas_cell(c, 3, 0));
    assert_null(canvas_cell(c, -1, 0));
    assert_null(canvas_cell(c, 0, 2));
    tl_assert_dump(c, false, "\n\n"); /* blank rows are trimmed to nothing */
    canvas_free(c);
    canvas_free(NULL);
}

static void test_canvas_text_clips_silently(void **state)
{
    (void)state;
    Canvas *c = canvas_new(5, 2);
    /* "hello world" from x = -2: columns -2,-1 drop "he", 0..4 keep "llo w" */
    int cols = canvas_put_text(c, -2, 0, "hello world", STYLE_BOLD);
    assert_int_equal(cols, 11);
    canvas_put_text(c, 0, 5, "off the grid", STYLE_NORMAL);
    canvas_put_text(c, 3, 1, "ab\ncd", STYLE_NORMAL); /* stops at newline */
    tl_assert_dump(c, false, "llo w\n   ab\n");
    assert_int_equal(canvas_cell(c, 0, 0)->style, STYLE_BOLD);
    canvas_free(c);
}

static void test_canvas_wide_glyph_takes_two_cells(void **state)
{
    (void)state;
    Canvas *c = canvas_new(5, 1);
    /* 表 (U+8868) is East-Asian wide: cell 1 holds it, cell 2 is its right half */
    assert_int_equal(canvas_put_text(c, 1, 0, "表x", STYLE_NORMAL), 3);
    assert_int_equal(canvas_cell(c, 1, 0)->width, 2);
    assert_int_equal(canvas_cell(c, 2, 0)->width, 0);
    assert_string_equal(canvas_cell(c, 3, 0)->glyph, "x");
    tl_assert_dump(c, false, " 表x\n");
    tl_assert_dump(c, true, " ??x\n");
    /* overwriting the right half blanks the left half too */
    canvas_put_glyph(c, 2, 0, "y", STYLE_NORMAL);
    tl_assert_dump(c, false, "  yx\n");
    /* a wide glyph that would straddle the right edge is not drawn */
    canvas_put_glyph(c, 4, 0, "表", STYLE_NORMAL);
    tl_assert_dump(c, false, "  yx\n");
    canvas_free(c);
}

static void test_canvas_invalid_utf8_draws_question_mark(void **state)
{
    (void)state;
    Canvas *c = canvas_new(4, 1);
    assert_int_equal(canvas_put_text(c, 0, 0,
                                     "a\xff"
                                     "b",
                                     STYLE_NORMAL),
                     3);
    tl_assert_dump(c, false, "a?b\n");
    canvas_free(c);
}

static void test_canvas_controls_draw_as_question_marks(void **state)
{
    (void)state;
    Canvas *c = canvas_new(6, 1);
    /* tab (C0), DEL, and U+009B (C1 CSI, bytes C2 9B): each one '?' */
    canvas_put_text(c, 0, 0,
                    "a\t\x7f\xc2\x9b"
                    "b",
                    STYLE_NORMAL);
    tl_assert_dump(c, false, "a???b\n");
    canvas_free(c);
}

static void test_canvas_box_corners_join(void **state)
{
    (void)state;
    Canvas *c = canvas_new(5, 3);
    canvas_box(c, 0, 0, 5, 3, LINE_LIGHT, STYLE_FRAME);
    canvas_vline(c, 2, 0, 3, LINE_LIGHT, STYLE_FRAME);
    tl_assert_dump(c, false, "┌─┬─┐\n│ │ │\n└─┴─┘\n");
    canvas_free(c);
}

static void test_canvas_crossing_lines_join(void **state)
{
    (void)state;
    Canvas *c = canvas_new(3, 3);
    canvas_hline(c, 0, 1, 3, LINE_LIGHT, STYLE_FRAME);
    canvas_vline(c, 1, 0, 3, LINE_LIGHT, STYLE_FRAME);
    tl_assert_dump(c, false, " │\n─┼─\n │\n");
    tl_assert_dump(c, true, " |\n-+-\n |\n");
    canvas_free(c);
}

static void test_canvas_mixed_kinds_join(void **state)
{
    (void)state;
    Canvas *c = canvas_new(3, 3);
    /* double horizontal (scale-up) crossed by a light vertical (scale-out) */
    canvas_hline(c, 0, 1, 3, LINE_DOUBLE, STYLE_UP_LINK);
    canvas_vline(c, 1, 0, 3, LINE_LIGHT, STYLE_OUT_LINK);
    tl_assert_dump(c, false, " │\n═╪═\n │\n");
    canvas_free(c);
    c = canvas_new(3, 2);
    canvas_box(c, 0, 0, 3, 2, LINE_DOUBLE, STYLE_UP_LINK);
    tl_assert_dump(c, false, "╔═╗\n╚═╝\n");
    canvas_free(c);
}

static void test_canvas_ascii_lines_keep_tiers_apart(void **state)
{
    (void)state;
    Canvas *c = canvas_new(4, 3);
    canvas_set_ascii(c, true);
    canvas_hline(c, 0, 0, 4, LINE_DOUBLE, STYLE_UP_LINK);
    canvas_hline(c, 0, 1, 4, LINE_LIGHT, STYLE_OUT_LINK);
    canvas_hline(c, 0, 2, 4, LINE_DASHED, STYLE_ACROSS_LINK);
    tl_assert_dump(c, true, "====\n----\n~~~~\n");
    canvas_free(c);
    /* the same drawn in UTF-8 and dumped as ASCII gives the same text */
    c = canvas_new(4, 3);
    canvas_hline(c, 0, 0, 4, LINE_DOUBLE, STYLE_UP_LINK);
    canvas_hline(c, 0, 1, 4, LINE_LIGHT, STYLE_OUT_LINK);
    canvas_hline(c, 0, 2, 4, LINE_DASHED, STYLE_ACROSS_LINK);
    tl_assert_dump(c, false, "════\n────\n┄┄┄┄\n");
    tl_assert_dump(c, true, "====\n----\n~~~~\n");
    canvas_free(c);
}

static void test_canvas_text_over_line_clears_join(void **state)
{
    (void)state;
    Canvas *c = canvas_new(3, 1);
    canvas_hline(c, 0, 0, 3, LINE_LIGHT, STYLE_FRAME);
    canvas_put_glyph(c, 1, 0, "X", STYLE_NORMAL);
    assert_int_equal(canvas_cell(c, 1, 0)->lines, 0);
    canvas_vline(c, 1, 0, 1, LINE_LIGHT, STYLE_FRAME);
    tl_assert_dump(c, false, "─│─\n"); /* joins only what was drawn since */
    canvas_free(c);
}

static void test_canvas_put_text_max_ellipsis(void **state)
{
    (void)state;
    Canvas *c = canvas_new(10, 2);
    /* 8 columns of room for "scale-out fabric": 7 characters and '…' */
    assert_int_equal(canvas_put_text_max(c, 0, 0, 8, "scale-out fabric", STYLE_NORMAL), 8);
    assert_int_equal(canvas_put_text_max(c, 0, 1, 8, "fits", STYLE_NORMAL), 4);
    tl_assert_dump(c, false, "scale-o…\nfits\n");
    tl_assert_dump(c, true, "scale-o~\nfits\n");
    canvas_free(c);
}

/* One look-alike table for the canvas and the terminal: the tiers keep
 * their own ASCII glyphs whichever converts them. */
static void test_canvas_one_ascii_table(void **state)
{
    (void)state;
    assert_string_equal(canvas_ascii_glyph("═"), "=");
    assert_string_equal(canvas_ascii_glyph("─"), "-");
    assert_string_equal(canvas_ascii_glyph("┄"), "~");
    assert_string_equal(canvas_ascii_glyph("…"), "~");
    assert_string_equal(canvas_ascii_glyph("✓"), "+");
    assert_string_equal(canvas_ascii_glyph("x"), "x");
    assert_string_equal(canvas_ascii_glyph("表"), "?");
    /* text written on an ASCII canvas is converted as it is written */
    Canvas *c = canvas_new(6, 1);
    canvas_set_ascii(c, true);
    canvas_put_text(c, 0, 0, "a═…µ", STYLE_NORMAL);
    assert_string_equal(canvas_cell(c, 1, 0)->glyph, "=");
    tl_assert_dump(c, false, "a=~u\n");
    canvas_free(c);
}

static void test_canvas_resize_keeps_top_left(void **state)
{
    (void)state;
    Canvas *c = canvas_new(4, 2);
    canvas_put_text(c, 0, 0, "abcd", STYLE_NORMAL);
    canvas_put_text(c, 0, 1, "efgh", STYLE_NORMAL);
    canvas_resize(c, 2, 3);
    tl_assert_dump(c, false, "ab\nef\n\n");
    canvas_clear(c);
    tl_assert_dump(c, false, "\n\n\n");
    canvas_free(c);
}

static void test_canvas_ansi_wraps_styles(void **state)
{
    (void)state;
    Canvas *c = canvas_new(4, 1);
    canvas_put_text(c, 0, 0, "a", STYLE_NORMAL);
    canvas_put_text(c, 1, 0, "b", STYLE_BOLD);
    char *got = canvas_to_ansi(c);
    /* "a" plain, "b" in SGR 0;1, reset at the end of the row */
    assert_string_equal(got, "a\x1b[0;1mb\x1b[0m\n");
    free(got);
    canvas_free(c);
}

static void test_canvas_group_style_cycles(void **state)
{
    (void)state;
    assert_int_equal(canvas_group_style(0), STYLE_GPU_GROUP_0);
    assert_int_equal(canvas_group_style(9), STYLE_GPU_GROUP_1);
    assert_int_equal(canvas_group_style(-1), STYLE_GPU_GROUP_7);
    assert_string_equal(canvas_style_name(STYLE_UP_LINK), "up-link");
    assert_string_equal(canvas_style_name(STYLE_BAR_EP), "bar-ep");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canvas_new_is_blank),
        cmocka_unit_test(test_canvas_text_clips_silently),
        cmocka_unit_test(test_canvas_wide_glyph_takes_two_cells),
        cmocka_unit_test(test_canvas_invalid_utf8_draws_question_mark),
        cmocka_unit_test(test_canvas_controls_draw_as_question_marks),
        cmocka_unit_test(test_canvas_box_corners_join),
        cmocka_unit_test(test_canvas_crossing_lines_join),
        cmocka_unit_test(test_canvas_mixed_kinds_join),
        cmocka_unit_test(test_canvas_ascii_lines_keep_tiers_apart),
        cmocka_unit_test(test_canvas_text_over_line_clears_join),
        cmocka_unit_test(test_canvas_put_text_max_ellipsis),
        cmocka_unit_test(test_canvas_one_ascii_table),
        cmocka_unit_test(test_canvas_resize_keeps_top_left),
        cmocka_unit_test(test_canvas_ansi_wraps_styles),
        cmocka_unit_test(test_canvas_group_style_cycles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
