/* SPDX-License-Identifier: MIT */
/* keymap: one table drives dispatch, the footer words and the ? overlay. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include "testlib.h"

#include "base/utf8.h"
#include "ui/keymap.h"
#include "ui/screens.h"

#include <string.h>

static int key_a(void *st, int key)
{
    (void)st;
    return key;
}

static const KeyBinding front_rows[] = {
    {{'w'}, "w", "write", "w write", 1, key_a},
    {{'q', 'Q'}, "q", "quit here", "q quit", 0, key_a},
    {{'h'}, "h", NULL, NULL, 0, key_a}, /* answers h, says nothing */
};
static const KeyTable front = KEYMAP_TABLE("Front keys", front_rows);

static const KeyBinding back_rows[] = {
    {{'q'}, "q", "quit there", "q leave", 0, key_a}, /* q is front's */
    {{'h', 'H'}, "h/H", "hint", "h hint", 0, key_a}, /* H is still its own */
    {{'h'}, "h", "hint again", NULL, 0, key_a},      /* h is front's */
    {{0}, "Marks", "a note, no key", NULL, 0, NULL}, /* answers no key */
    {{'?'}, "?", "this help", NULL, 0, key_a},
};
static const KeyTable back = KEYMAP_TABLE("Back keys", back_rows);

static void test_keymap_find_any_code_of_a_row(void **state)
{
    (void)state;
    assert_ptr_equal(keymap_find(&front, 'Q'), &front_rows[1]);
    assert_ptr_equal(keymap_find(&back, 'H'), &back_rows[1]);
    assert_null(keymap_find(&front, 'x'));
    /* A note row answers no key, not even the 0 that ends its codes. */
    assert_null(keymap_find(&back, 0));
}

/* Overlay lines: front's two rows with help (h has none), then a heading and
 * back's rows but the ones whose every key front answers: "quit there" (q)
 * and "hint again" (h) are gone, "hint" stays for H, the note stays. Keys are
 * padded to the widest listed ("Marks", 5 columns) plus three spaces. */
static void test_keymap_help_leaves_out_rows_an_earlier_table_answers(void **state)
{
    (void)state;
    const KeyTable *tables[2] = {&front, &back};
    const char *lines[20];
    char buf[4096];
    int n = keymap_help_lines(tables, 2, lines, 20, buf, sizeof buf);
    const char *want[] = {"w       write",    "q       quit here", "",
                          "Back keys",        "h/H     hint",      "Marks   a note, no key",
                          "?       this help"};
    assert_int_equal(n, 7);
    for (int i = 0; i < 7; i++)
        assert_string_equal(lines[i], want[i]);
    assert_null(lines[7]);
}

/* Footer: words chosen by priority (q quit 0, then w write 1), laid in the
 * tables' order; back's q and h words are left out because front answers
 * their first key. */
static void test_keymap_footer_says_help_only_when_a_row_answers_it(void **state)
{
    (void)state;
    char out[2][400];
    const KeyTable *both[2] = {&front, &back};
    keymap_footer(both, 2, 78, 1, false, out);
    assert_string_equal(out[0], "w write · q quit · ? help");
    keymap_footer(both, 2, 78, 1, true, out);
    assert_string_equal(out[0], "w write | q quit | ? help");
    /* Without back, nothing answers ?: no "? help". */
    const KeyTable *one[1] = {&front};
    keymap_footer(one, 1, 78, 1, false, out);
    assert_string_equal(out[0], "w write · q quit");
    /* Too narrow for both words: the lower priority one (w, 1) goes. */
    keymap_footer(both, 2, 17, 1, false, out);
    assert_string_equal(out[0], "q quit · ? more");
}

/* The lesson page's and the scenario's ? rows fit the overlay at 80x24:
 * the box is 78 columns wide with 2 of padding on each side, so 74 are left
 * for a row; a longer one is cut with an ellipsis. */
static void test_keymap_help_rows_fit_80_columns(void **state)
{
    (void)state;
    const KeyTable *sets[][2] = {{&screen_page_keys, NULL},
                                 {&screen_scenario_keys, &screen_page_keys}};
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        const char *lines[80];
        char buf[16384];
        int n = keymap_help_lines(sets[k], sets[k][1] ? 2 : 1, lines, 80, buf, sizeof buf);
        assert_true(n > 5);
        for (int i = 0; i < n; i++)
            if (utf8_width(lines[i]) > 74) {
                print_error("%d columns: '%s'\n", utf8_width(lines[i]), lines[i]);
                fail();
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keymap_find_any_code_of_a_row),
        cmocka_unit_test(test_keymap_help_leaves_out_rows_an_earlier_table_answers),
        cmocka_unit_test(test_keymap_help_rows_fit_80_columns),
        cmocka_unit_test(test_keymap_footer_says_help_only_when_a_row_answers_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
