/* SPDX-License-Identifier: MIT */
/* test_svg — a canvas as SVG: size from the grid, one x per character (wide
 * glyphs two cells apart), escaping, lines as strokes, bars as rectangles,
 * the colour table. Expected coordinates are worked by hand from svg.h:
 * cell (col, row) starts at x = 8 + 9 col, y = 8 + 18 row; text baseline
 * 13 below the cell top. XML validity of whole documents is checked by
 * tests/suites/svg.sh with xmllint. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "draw/canvas.h"
#include "draw/svg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Asserts that needle occurs in svg, printing the document on failure. */
static void assert_has(const char *svg, const char *needle)
{
    if (!strstr(svg, needle))
        print_error("SVG lacks '%s':\n%s\n", needle, svg);
    assert_non_null(strstr(svg, needle));
}

static void assert_lacks(const char *svg, const char *needle)
{
    if (strstr(svg, needle))
        print_error("SVG should not contain '%s':\n%s\n", needle, svg);
    assert_null(strstr(svg, needle));
}

static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_svg_size_follows_grid(void **state)
{
    (void)state;
    Canvas *c = canvas_new(10, 3);
    char *s = svg_from_canvas(c, 0, NULL);
    /* width 2*8 + 10*9 = 106; height 2*8 + 3*18 = 70 */
    assert_has(s, "width=\"106\" height=\"70\" viewBox=\"0 0 106 70\"");
    assert_has(s, "<title>scalelab</title>");
    assert_int_equal(strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44), 0);
    assert_has(s, "</svg>\n");
    free(s);
    /* rows = 2 keeps two rows: 16 + 2*18 = 52; rows past the height keep all */
    s = svg_from_canvas(c, 2, "t");
    assert_has(s, "height=\"52\"");
    free(s);
    s = svg_from_canvas(c, 99, "t");
    assert_has(s, "height=\"70\"");
    free(s);
    canvas_free(c);
}

static void test_svg_text_has_one_x_per_cell(void **state)
{
    (void)state;
    Canvas *c = canvas_new(20, 2);
    canvas_put_text(c, 3, 1, "ab", STYLE_WARNING);
    char *s = svg_from_canvas(c, 0, "t");
    /* col 3 → 8 + 27 = 35, col 4 → 44; row 1 baseline 8 + 18 + 13 = 39 */
    assert_has(s, "<text class=\"s-warning\" y=\"39\" x=\"35 44\">ab</text>");
    free(s);
    canvas_free(c);
}

static void test_svg_run_splits_at_style_change(void **state)
{
    (void)state;
    Canvas *c = canvas_new(10, 1);
    canvas_put_text(c, 0, 0, "ab", STYLE_GOOD);
    canvas_put_text(c, 2, 0, "c d", STYLE_BAD);
    char *s = svg_from_canvas(c, 0, "t");
    /* baseline 8 + 13 = 21; cols 0,1 → 8,17; cols 2,3,4 → 26,35,44 (space kept) */
    assert_has(s, "<text class=\"s-good\" y=\"21\" x=\"8 17\">ab</text>");
    assert_has(s, "<text class=\"s-bad\" y=\"21\" x=\"26 35 44\">c d</text>");
    assert_int_equal(count_of(s, "<text"), 2);
    free(s);
    canvas_free(c);
}

static void test_svg_wide_glyph_takes_two_cells(void **state)
{
    (void)state;
    Canvas *c = canvas_new(6, 1);
    canvas_put_text(c, 0, 0, "中x", STYLE_NORMAL);
    char *s = svg_from_canvas(c, 0, "t");
    /* 中 at col 0 (x 8) covers cols 0-1; x at col 2 → 8 + 18 = 26 */
    assert_has(s, "x=\"8 26\">中x</text>");
    free(s);
    /* a highlight on the right half alone draws no empty <text> */
    canvas_set_style(c, 1, 0, 1, 1, STYLE_BAD);
    s = svg_from_canvas(c, 0, "t");
    assert_lacks(s, "x=\"\"");
    assert_lacks(s, "s-bad\" y");
    free(s);
    canvas_free(c);
}

static void test_svg_escapes_text_and_title(void **state)
{
    (void)state;
    Canvas *c = canvas_new(12, 1);
    canvas_put_text(c, 0, 0, "a&b<c>\"'", STYLE_NORMAL);
    char *s = svg_from_canvas(c, 0, "<T&\"x\">");
    assert_has(s, ">a&amp;b&lt;c&gt;&quot;&apos;</text>");
    assert_has(s, "<title>&lt;T&amp;&quot;x&quot;&gt;</title>");
    free(s);
    canvas_free(c);
}

static void test_svg_escape_drops_controls_and_bad_bytes(void **state)
{
    (void)state;
    /* ESC, 0x01, DEL, C1 NEL (C2 85), a lone 0xFF: each one '?'; é and → kept */
    char *e = svg_escape("x\x1b[1m\x01\x7f\xc2\x85\xff é→");
    assert_string_equal(e, "x?[1m???? é→");
    free(e);
    /* invalid UTF-8 is one '?' per bad byte: overlong C0 AF (2), truncated
     * E2 94 (2), a surrogate ED A0 80 (3), past U+10FFFF F4 90 80 80 (4);
     * U+FFFE (EF BF BE), valid UTF-8 but not an XML character, is one '?' */
    e = svg_escape("\xc0\xaf|\xe2\x94|\xed\xa0\x80|\xf4\x90\x80\x80|\xef\xbf\xbe");
    assert_string_equal(e, "??|??|???|????|?");
    free(e);
    e = svg_escape(NULL);
    assert_string_equal(e, "");
    free(e);
    /* a whole document never holds a control byte other than '\n' */
    Canvas *c = canvas_new(8, 1);
    canvas_put_text(c, 0, 0, "\x01\x1b\t", STYLE_NORMAL);
    char *s = svg_from_canvas(c, 0, "a\tb\x1b");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
            fail_msg("control byte 0x%02x at offset %d", *p, (int)(p - (unsigned char *)s));
    free(s);
    canvas_free(c);
}

static void test_svg_lines_become_strokes(void **state)
{
    (void)state;
    Canvas *c = canvas_new(6, 3);
    canvas_box(c, 0, 0, 6, 3, LINE_DOUBLE, STYLE_UP_LINK);
    canvas_hline(c, 0, 1, 6, LINE_DASHED, STYLE_ACROSS_LINK);
    char *s = svg_from_canvas(c, 0, "t");
    /* no box glyph is written as text: they are paths in the tier's colour */
    assert_lacks(s, "═");
    assert_lacks(s, "<text");
    assert_has(s, "<path fill=\"none\" stroke=\"#98c379\" stroke-width=\"1.2\" d=\"M");
    assert_has(s, "stroke=\"#c678dd\" stroke-width=\"1.4\" stroke-dasharray=");
    /* the top-left corner ╔ (cell 0,0; centre 12.5, 17): outer strokes start
     * gap 2 behind the centre, inner ones 2 past it */
    assert_has(s, "M10.5 15H17"); /* right, outer (top) stroke at y 17-2, from x 12.5-2 */
    assert_has(s, "M14.5 19H17"); /* right, inner (bottom) stroke at y 17+2, from 12.5+2 */
    free(s);
    /* drawn in ASCII, the same lines stay text */
    canvas_clear(c);
    canvas_set_ascii(c, true);
    canvas_hline(c, 0, 0, 3, LINE_LIGHT, STYLE_FRAME);
    s = svg_from_canvas(c, 0, "t");
    assert_has(s, ">---</text>");
    assert_lacks(s, "<path");
    free(s);
    canvas_free(c);
}

static void test_svg_bars_become_rectangles(void **state)
{
    (void)state;
    Canvas *c = canvas_new(10, 1);
    canvas_fill(c, 0, 0, 5, 1, "█", STYLE_BAR_COMPUTE);
    canvas_fill(c, 5, 0, 2, 1, "░", STYLE_BAR_BUBBLE);
    char *s = svg_from_canvas(c, 0, "t");
    /* 5 cells from x 8: width 45; then 2 cells from 8 + 45 = 53: width 18 */
    assert_has(s, "<rect x=\"8\" y=\"8\" width=\"45\" height=\"18\" fill=\"#98c379\"/>");
    assert_has(s, "<rect x=\"53\" y=\"8\" width=\"18\" height=\"18\" fill=\"#7f848e\" "
                  "fill-opacity=\"0.25\"/>");
    assert_lacks(s, "<text");
    free(s);
    canvas_free(c);
}

static void test_svg_selected_is_inverse(void **state)
{
    (void)state;
    Canvas *c = canvas_new(4, 1);
    canvas_put_text(c, 1, 0, "A", STYLE_SELECTED);
    char *s = svg_from_canvas(c, 0, "t");
    /* a background in the foreground colour behind col 1 (x 17), text in the
     * background colour */
    assert_has(s, "<rect x=\"17\" y=\"8\" width=\"9\" height=\"18\" fill=\"#d8d8d8\"/>");
    assert_has(s, ".s-selected{fill:#1d1f21}");
    assert_has(s, "<text class=\"s-selected\" y=\"21\" x=\"17\">A</text>");
    free(s);
    canvas_free(c);
}

static void test_svg_colours_keep_tiers_and_groups_apart(void **state)
{
    (void)state;
    const char *up = svg_style_colour(STYLE_UP_LINK);
    const char *out = svg_style_colour(STYLE_OUT_LINK);
    const char *across = svg_style_colour(STYLE_ACROSS_LINK);
    assert_string_not_equal(up, out);
    assert_string_not_equal(up, across);
    assert_string_not_equal(out, across);
    for (int a = 0; a < STYLE_GPU_GROUPS; a++)
        for (int b = a + 1; b < STYLE_GPU_GROUPS; b++)
            assert_string_not_equal(svg_style_colour(canvas_group_style(a)),
                                    svg_style_colour(canvas_group_style(b)));
    /* the warning is yellow as on screen (SGR 1;33) */
    assert_string_equal(svg_style_colour(STYLE_WARNING), "#e5c07b");
    assert_string_equal(svg_style_colour((Style)999), "#d8d8d8");
}

static void test_svg_null_and_write(void **state)
{
    (void)state;
    char *s = svg_from_canvas(NULL, 0, NULL);
    assert_has(s, "width=\"16\" height=\"16\"");
    free(s);
    assert_false(svg_write_canvas(NULL, 0, "t", NULL));

    Canvas *c = canvas_new(5, 2);
    canvas_put_text(c, 0, 0, "hi", STYLE_NORMAL);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_true(svg_write_canvas(c, 0, "t", f));
    long len = ftell(f);
    char *want = svg_from_canvas(c, 0, "t");
    assert_int_equal(len, (long)strlen(want));
    rewind(f);
    char *got = calloc((size_t)len + 1, 1);
    assert_int_equal(fread(got, 1, (size_t)len, f), (size_t)len);
    assert_string_equal(got, want);
    free(got);
    free(want);
    fclose(f);
    canvas_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_svg_size_follows_grid),
        cmocka_unit_test(test_svg_text_has_one_x_per_cell),
        cmocka_unit_test(test_svg_run_splits_at_style_change),
        cmocka_unit_test(test_svg_wide_glyph_takes_two_cells),
        cmocka_unit_test(test_svg_escapes_text_and_title),
        cmocka_unit_test(test_svg_escape_drops_controls_and_bad_bytes),
        cmocka_unit_test(test_svg_lines_become_strokes),
        cmocka_unit_test(test_svg_bars_become_rectangles),
        cmocka_unit_test(test_svg_selected_is_inverse),
        cmocka_unit_test(test_svg_colours_keep_tiers_and_groups_apart),
        cmocka_unit_test(test_svg_null_and_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
