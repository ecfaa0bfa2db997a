/* test_screens — the screens without a terminal: keys in, state and canvas
 * text out. Menu tests use hand-made items; page tests load the small test
 * lessons of tests/e2e/lessons (the same ones the tmux suite drives). */
#include "ui/screens.h"

#include "draw/canvas.h"
#include "ui/keys.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const MenuItem items[] = {
    {"alpha", "Two ways to grow", "Scale up or scale out.", "Foundations", NULL, 8,
     PROGRESS_DONE},
    {"beta", "Inside the box", "NVLink and NVSwitch.", "Foundations", NULL, 10,
     PROGRESS_STARTED},
    {"gamma", "Beyond the rack", "Scale across sites.", "Advanced", NULL, 12, PROGRESS_NEW},
};
#define N_ITEMS 3

static char *draw_menu(MenuState *m, int w, int h, ScreenCursor *cur, bool ascii)
{
    Canvas *c = canvas_new(w, h);
    screen_menu_draw(c, m, ascii, cur);
    char *text = canvas_to_text(c, false);
    canvas_free(c);
    return text;
}

/* The row'th line of text (0-based), copied into buf. */
static const char *line_of(const char *text, int row, char *buf, size_t n)
{
    const char *s = text;
    for (int i = 0; i < row && s; i++) {
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    if (!s)
        return "";
    size_t len = strcspn(s, "\n");
    if (len >= n)
        len = n - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return buf;
}

static void test_screens_menu_moves_and_stops_at_ends(void **state)
{
    (void)state;
    MenuState m;
    screen_menu_init(&m, items, N_ITEMS);
    assert_int_equal(m.sel, 0);
    assert_int_equal(screen_menu_key(&m, 'k'), SCREEN_NONE);
    assert_int_equal(m.sel, 0);
    screen_menu_key(&m, 'j');
    assert_int_equal(m.sel, 1);
    screen_menu_key(&m, UIK_DOWN);
    screen_menu_key(&m, UIK_DOWN);
    assert_int_equal(m.sel, 2);
    screen_menu_key(&m, UIK_HOME);
    assert_int_equal(m.sel, 0);
    assert_int_equal(screen_menu_key(&m, UIK_ENTER), SCREEN_OPEN);
    assert_int_equal(screen_menu_key(&m, 'q'), SCREEN_QUIT);
}

static void test_screens_menu_filter_by_words(void **state)
{
    (void)state;
    MenuState m;
    screen_menu_init(&m, items, N_ITEMS);
    screen_menu_key(&m, '/');
    assert_true(m.filtering);
    const char *typed = "RACK acr";
    for (const char *k = typed; *k; k++)
        screen_menu_key(&m, *k);
    /* Both words must match (case-insensitive): only "Beyond the rack". */
    assert_false(screen_menu_matches(&m, 0));
    assert_false(screen_menu_matches(&m, 1));
    assert_true(screen_menu_matches(&m, 2));
    assert_int_equal(m.sel, 2);
    screen_menu_key(&m, UIK_ENTER); /* keep the filter, leave typing */
    assert_false(m.filtering);
    assert_string_equal(m.filter, "RACK acr");
    /* j/k now move among visible items only: there is one. */
    screen_menu_key(&m, 'k');
    assert_int_equal(m.sel, 2);
    screen_menu_key(&m, UIK_ESC); /* clears */
    assert_string_equal(m.filter, "");
    assert_true(screen_menu_matches(&m, 0));
    /* A filter that matches nothing leaves no selection and Enter opens nothing. */
    screen_menu_key(&m, '/');
    screen_menu_key(&m, 'z');
    screen_menu_key(&m, 'z');
    screen_menu_key(&m, UIK_ENTER);
    assert_int_equal(m.sel, -1);
    assert_int_equal(screen_menu_key(&m, UIK_ENTER), SCREEN_NONE);
    /* Backspace edits the filter. */
    screen_menu_key(&m, '/');
    screen_menu_key(&m, UIK_BACKSPACE);
    assert_string_equal(m.filter, "z");
}

static void test_screens_menu_draws_tracks_marks_and_cursor(void **state)
{
    (void)state;
    MenuState m;
    screen_menu_init(&m, items, N_ITEMS);
    screen_menu_key(&m, 'j');
    ScreenCursor cur;
    char *text = draw_menu(&m, 80, 24, &cur, true);
    assert_non_null(strstr(text, "scalelab - lessons"));
    assert_non_null(strstr(text, "Foundations"));
    assert_non_null(strstr(text, "Advanced"));
    assert_non_null(strstr(text, "[x] Two ways to grow"));
    assert_non_null(strstr(text, "[>] Inside the box"));
    assert_non_null(strstr(text, "[ ] Beyond the rack"));
    assert_non_null(strstr(text, "10 min"));
    /* The hardware cursor rests on the selected lesson's row. */
    char row[256];
    assert_non_null(strstr(line_of(text, cur.y, row, sizeof row), "Inside the box"));
    assert_int_equal(cur.x, 3);
    /* Track headings come before their lessons: Foundations, 2 items, Advanced. */
    assert_true(strstr(text, "Foundations") < strstr(text, "Two ways to grow"));
    assert_true(strstr(text, "Inside the box") < strstr(text, "Advanced"));
    /* Every line fits in 80 columns. */
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        assert_true(len <= 80);
        s += len + (s[len] ? 1 : 0);
    }
    free(text);
}

static void test_screens_menu_help_opens_and_any_key_closes(void **state)
{
    (void)state;
    MenuState m;
    screen_menu_init(&m, items, N_ITEMS);
    screen_menu_key(&m, '?');
    ScreenCursor cur;
    char *text = draw_menu(&m, 80, 24, &cur, false);
    assert_non_null(strstr(text, "Lesson menu keys"));
    free(text);
    /* The closing key does nothing else: q closes help, not the program. */
    assert_int_equal(screen_menu_key(&m, 'q'), SCREEN_NONE);
    assert_false(m.help);
}

static void test_screens_menu_scrolls_to_keep_selection_visible(void **state)
{
    (void)state;
    enum { N = 40 };
    MenuItem many[N];
    char titles[N][16];
    for (int i = 0; i < N; i++) {
        snprintf(titles[i], sizeof titles[i], "Lesson %02d", i);
        many[i] = (MenuItem){"x", titles[i], "s", "T", NULL, 1, PROGRESS_NEW};
    }
    MenuState m;
    screen_menu_init(&m, many, N);
    screen_menu_key(&m, UIK_END);
    assert_int_equal(m.sel, N - 1);
    ScreenCursor cur;
    char *text = draw_menu(&m, 80, 24, &cur, true);
    assert_non_null(strstr(text, "Lesson 39"));
    assert_null(strstr(text, "Lesson 00"));
    assert_true(cur.y > 2 && cur.y < 24);
    free(text);
}

static void test_screens_too_small_is_one_line(void **state)
{
    (void)state;
    assert_false(screen_size_ok(79, 24));
    assert_false(screen_size_ok(80, 23));
    assert_true(screen_size_ok(80, 24));
    Canvas *c = canvas_new(60, 1);
    screen_too_small_draw(c, 60, 20);
    char *text = canvas_to_text(c, false);
    assert_non_null(strstr(text, "60x20 is too small"));
    assert_non_null(strstr(text, "80x24"));
    free(text);
    canvas_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_screens_menu_moves_and_stops_at_ends),
        cmocka_unit_test(test_screens_menu_filter_by_words),
        cmocka_unit_test(test_screens_menu_draws_tracks_marks_and_cursor),
        cmocka_unit_test(test_screens_menu_help_opens_and_any_key_closes),
        cmocka_unit_test(test_screens_menu_scrolls_to_keep_selection_visible),
        cmocka_unit_test(test_screens_too_small_is_one_line),
    };
    return cmocka_run_group_tests_name("screens", tests, NULL, NULL);
}
