/* SPDX-License-Identifier: MIT */
/* test_text — UTF-8 widths without a locale, word wrapping and markup. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include "base/utf8.h"
#include "draw/text.h"

#include <stdlib.h>
#include <string.h>

static void test_text_decode_valid_and_invalid(void **state)
{
    (void)state;
    uint32_t cp;
    assert_int_equal(utf8_decode("A", &cp), 1);
    assert_int_equal(cp, 0x41);
    assert_int_equal(utf8_decode("µ", &cp), 2); /* C2 B5 */
    assert_int_equal(cp, 0xB5);
    assert_int_equal(utf8_decode("─", &cp), 3); /* E2 94 80 */
    assert_int_equal(cp, 0x2500);
    assert_int_equal(utf8_decode("\xF0\x9F\x98\x80", &cp), 4);
    assert_int_equal(cp, 0x1F600);
    assert_int_equal(utf8_decode("\xC0\x80", &cp), 1); /* overlong NUL */
    assert_int_equal(cp, 0xFFFD);
    assert_int_equal(utf8_decode("\xED\xA0\x80", &cp), 1); /* surrogate */
    assert_int_equal(cp, 0xFFFD);
    assert_int_equal(utf8_decode("\xE2\x94", &cp), 1); /* truncated */
    assert_int_equal(utf8_decode("", &cp), 0);
}

static void test_text_width_east_asian_and_combining(void **state)
{
    (void)state;
    assert_int_equal(utf8_width("abc"), 3);
    assert_int_equal(utf8_width("1.8 TB/s"), 8);
    assert_int_equal(utf8_width("850 µs"), 6);    /* µ is narrow */
    assert_int_equal(utf8_width("═╪─"), 3);       /* box drawing is narrow */
    assert_int_equal(utf8_width("日本語"), 6);    /* CJK: 3 x 2 */
    assert_int_equal(utf8_width("ｘ"), 2);        /* fullwidth x */
    assert_int_equal(utf8_width("e\xCC\x81"), 1); /* e + combining acute */
    assert_int_equal(utf8_width("a\xE2\x80\x8B"
                                "b"),
                     2);                                 /* zero-width space */
    assert_int_equal(utf8_width("\xF0\x9F\x98\x80"), 2); /* emoji is wide */
    assert_int_equal(utf8_width("a\xff\xfe"
                                "b"),
                     4); /* 2 bad bytes, 1 each */
    assert_int_equal(utf8_width(NULL), 0);
    assert_int_equal(utf8_width_n("abcdef", 2), 2);
}

static void test_text_wrap_breaks_at_spaces(void **state)
{
    (void)state;
    const char *s = "scale up then scale out";
    size_t next;
    /* width 10: "scale up" (8) fits, "scale up then" (13) does not */
    assert_int_equal(text_wrap_line(s, 10, &next), 8);
    assert_int_equal(next, 9);                              /* "then ..." starts at byte 9 */
    assert_int_equal(text_wrap_line(s + 9, 10, &next), 10); /* "then scale" */
    assert_int_equal(text_wrap_count(s, 10), 3);            /* scale up | then scale | out */
    assert_int_equal(text_wrap_count(s, 80), 1);
    assert_int_equal(text_wrap_count("", 10), 1);
}

static void test_text_wrap_long_word_and_newline(void **state)
{
    (void)state;
    size_t next;
    /* a 12-letter word in 5 columns is cut: abcde | fghij | kl */
    assert_int_equal(text_wrap_line("abcdefghijkl", 5, &next), 5);
    assert_int_equal(next, 5);
    assert_int_equal(text_wrap_count("abcdefghijkl", 5), 3);
    /* a newline ends the line even with room left */
    assert_int_equal(text_wrap_line("ab\ncd", 10, &next), 2);
    assert_int_equal(next, 3);
    /* wide characters count 2: 日本 (4) fits in 5, 日本語 (6) does not */
    assert_int_equal(text_wrap_line("日本語", 5, &next), 6); /* 2 chars x 3 bytes */
}

static void test_text_draw_wrapped_counts_all_lines(void **state)
{
    (void)state;
    Canvas *c = canvas_new(10, 2);
    /* 3 lines needed, 2 drawn */
    int n = text_draw_wrapped(c, 0, 0, 10, 2, "scale up then scale out", STYLE_NORMAL);
    assert_int_equal(n, 3);
    tl_assert_dump(c, false, "scale up\nthen scale\n");
    canvas_free(c);
}

static void test_text_markup_heading_emphasis_code(void **state)
{
    (void)state;
    Canvas *c = canvas_new(20, 3);
    int n = text_draw_markup(c, 0, 0, 20, 3, "# Title\nA *big* `nv` link.", 0);
    assert_int_equal(n, 2);
    tl_assert_dump(c, false, "Title\nA big nv link.\n\n");
    assert_int_equal(canvas_cell(c, 0, 0)->style, STYLE_HEADING);
    assert_int_equal(canvas_cell(c, 2, 1)->style, STYLE_EMPH);   /* b of big */
    assert_int_equal(canvas_cell(c, 6, 1)->style, STYLE_CODE);   /* n of nv */
    assert_int_equal(canvas_cell(c, 9, 1)->style, STYLE_NORMAL); /* l of link */
    canvas_free(c);
}

static void test_text_markup_bullets_hang(void **state)
{
    (void)state;
    Canvas *c = canvas_new(12, 5);
    /* width 12, bullet "• " takes 2: text wraps in 10 and hangs under itself */
    int n = text_draw_markup(c, 0, 0, 12, 5, "- one two three four\n- five", 0);
    assert_int_equal(n, 3);
    tl_assert_dump(c, false, "• one two\n  three four\n• five\n\n\n");
    canvas_clear(c);
    canvas_set_ascii(c, true); /* an ASCII canvas bullets with '-' */
    text_draw_markup(c, 0, 0, 12, 5, "- one two three four\n- five", 0);
    tl_assert_dump(c, false, "- one two\n  three four\n- five\n\n\n");
    canvas_free(c);
}

static void test_text_markup_paragraphs_and_scroll(void **state)
{
    (void)state;
    Canvas *c = canvas_new(20, 2);
    const char *m = "first line\njoined\n\n\nsecond para";
    /* lines: "first line joined", "", "second para" = 3 (blank lines collapse) */
    assert_int_equal(text_draw_markup(c, 0, 0, 20, 2, m, 0), 3);
    tl_assert_dump(c, false, "first line joined\n\n");
    canvas_clear(c);
    assert_int_equal(text_draw_markup(c, 0, 0, 20, 2, m, 1), 3);
    tl_assert_dump(c, false, "\nsecond para\n");
    canvas_free(c);
}

static void test_text_markup_lone_star_is_literal(void **state)
{
    (void)state;
    Canvas *c = canvas_new(20, 1);
    text_draw_markup(c, 0, 0, 20, 1, "8 * 9 = 72", 0);
    tl_assert_dump(c, false, "8 * 9 = 72\n");
    canvas_free(c);
}

/* A hint's running text: the markers vanish, the emphasis keeps its style
 * across the wrap, the rest keeps the style given, and the count without a
 * canvas is the lines drawn. "Press *g* on the group, then `Enter`." in 16
 * columns: "Press g on the" / "group, then" / "Enter." */
static void test_text_inline_hint(void **state)
{
    (void)state;
    const char *hint = "Press *g* on the group, then `Enter`.";
    Canvas *c = canvas_new(16, 4);
    int n = text_draw_inline(c, 0, 0, 16, 4, hint, STYLE_DIM);
    assert_int_equal(n, 3);
    assert_int_equal(text_inline_count(hint, 16), 3);
    tl_assert_dump(c, false, "Press g on the\ngroup, then\nEnter.\n\n");
    assert_int_equal(canvas_cell(c, 6, 0)->style, STYLE_EMPH); /* g */
    assert_int_equal(canvas_cell(c, 0, 0)->style, STYLE_DIM);
    assert_int_equal(canvas_cell(c, 0, 2)->style, STYLE_CODE); /* E of Enter */
    assert_int_equal(canvas_cell(c, 5, 2)->style, STYLE_DIM);  /* the full stop */
    /* h = 1 draws one line but counts all */
    canvas_clear(c);
    assert_int_equal(text_draw_inline(c, 0, 0, 16, 1, hint, STYLE_DIM), 3);
    tl_assert_dump(c, false, "Press g on the\n\n\n\n");
    /* a lone star is a star */
    canvas_clear(c);
    text_draw_inline(c, 0, 0, 16, 4, "8 * 9 = 72", STYLE_NORMAL);
    tl_assert_dump(c, false, "8 * 9 = 72\n\n\n\n");
    canvas_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_inline_hint),
        cmocka_unit_test(test_text_decode_valid_and_invalid),
        cmocka_unit_test(test_text_width_east_asian_and_combining),
        cmocka_unit_test(test_text_wrap_breaks_at_spaces),
        cmocka_unit_test(test_text_wrap_long_word_and_newline),
        cmocka_unit_test(test_text_draw_wrapped_counts_all_lines),
        cmocka_unit_test(test_text_markup_heading_emphasis_code),
        cmocka_unit_test(test_text_markup_bullets_hang),
        cmocka_unit_test(test_text_markup_paragraphs_and_scroll),
        cmocka_unit_test(test_text_markup_lone_star_is_literal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
