/* SPDX-License-Identifier: MIT */
/* lineedit: the one-line entry of predict answers, practice and the menu
 * filter. Expected bytes are the UTF-8 encodings worked by hand: µ U+00B5 is
 * C2 B5, μ U+03BC is CE BC (110 01110, 10 111100). */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include "testlib.h"

#include "ui/keys.h"
#include "ui/lineedit.h"

static void test_lineedit_types_ascii_and_two_byte_letters(void **state)
{
    (void)state;
    char buf[16] = "";
    assert_true(lineedit_key(buf, sizeof buf, '4'));
    assert_true(lineedit_key(buf, sizeof buf, 0xb5));
    assert_true(lineedit_key(buf, sizeof buf, 's'));
    assert_string_equal(buf, "4\xc2\xb5s");
    assert_true(lineedit_key(buf, sizeof buf, 0x3bc));
    assert_string_equal(buf, "4\xc2\xb5s\xce\xbc");
    /* Not characters: arrows, Enter, Tab, Esc, a three-byte code point. */
    assert_false(lineedit_key(buf, sizeof buf, UIK_LEFT));
    assert_false(lineedit_key(buf, sizeof buf, UIK_ENTER));
    assert_false(lineedit_key(buf, sizeof buf, UIK_TAB));
    assert_false(lineedit_key(buf, sizeof buf, UIK_ESC));
    assert_false(lineedit_key(buf, sizeof buf, 0x2192)); /* → */
    assert_false(lineedit_key(buf, sizeof buf, 0x9f));   /* a C1 control */
    assert_string_equal(buf, "4\xc2\xb5s\xce\xbc");
}

static void test_lineedit_backspace_drops_one_character(void **state)
{
    (void)state;
    char buf[16] = "4\xc2\xb5s\xce\xbc";
    assert_true(lineedit_key(buf, sizeof buf, UIK_BACKSPACE)); /* μ: two bytes */
    assert_string_equal(buf, "4\xc2\xb5s");
    assert_true(lineedit_key(buf, sizeof buf, 127)); /* DEL */
    assert_string_equal(buf, "4\xc2\xb5");
    assert_true(lineedit_key(buf, sizeof buf, 8)); /* Ctrl-H: µ, two bytes */
    assert_string_equal(buf, "4");
    assert_true(lineedit_key(buf, sizeof buf, UIK_BACKSPACE));
    assert_string_equal(buf, "");
    assert_true(lineedit_key(buf, sizeof buf, UIK_BACKSPACE)); /* empty stays empty */
    assert_string_equal(buf, "");
}

/* Never past size: "ab" in 4 bytes takes 'c' (3 + NUL) but not µ (4 + NUL),
 * and then nothing. */
static void test_lineedit_stops_at_the_buffer_size(void **state)
{
    (void)state;
    char buf[4] = "ab";
    assert_true(lineedit_key(buf, sizeof buf, 0xb5));
    assert_string_equal(buf, "ab");
    assert_true(lineedit_key(buf, sizeof buf, 'c'));
    assert_string_equal(buf, "abc");
    assert_true(lineedit_key(buf, sizeof buf, 'd'));
    assert_string_equal(buf, "abc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lineedit_types_ascii_and_two_byte_letters),
        cmocka_unit_test(test_lineedit_backspace_drops_one_character),
        cmocka_unit_test(test_lineedit_stops_at_the_buffer_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
