/* SPDX-License-Identifier: MIT */
/* test_page_end — what a lesson page shows at its ends: the end-of-lesson
 * screen past the last page (score, what is left, the next lesson and the
 * keys that go there) and a diagram taller than the page (scrolled, with a
 * marker, so a fabric's scale-across legend is never lost at 80x24). */
#include "ui/screens.h"

#include "lesson/lesson.h"
#include "store/progress.h"
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

#define CLASS "tests/report/lessons/01-class-basics.lua"
#define SITES "tests/lessons/sites-diagram.lua"

static char *draw(PageState *p, int w, int h)
{
    Canvas *c = canvas_new(w, h);
    ScreenCursor cur;
    screen_page_draw(c, p, &cur);
    char *text = canvas_to_text(c);
    canvas_free(c);
    return text;
}

/* Quiz right at the first try, predict wrong once then right, the scenario
 * left: past the last page the screen says 1 of 2, the scenario left,
 * and Enter goes to it; once met, done, and Enter or n open the next. */
static void test_page_end_score_left_and_next(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(CLASS, err, sizeof err);
    assert_non_null(l);
    Progress *pr = progress_open(NULL, NULL, 0);
    assert_true(progress_record_try(pr, "class-basics", 1, 0, true, NULL, 0));
    assert_true(progress_record_try(pr, "class-basics", 3, -1, false, NULL, 0));
    assert_true(progress_record_try(pr, "class-basics", 3, -1, true, NULL, 0));
    assert_true(progress_set_hints(pr, "class-basics", 2, 1, NULL, 0));
    PageState p;
    screen_page_init(&p, l, CLASS, NULL, pr, 4);
    snprintf(p.next_title, sizeof p.next_title, "Class next");
    assert_int_equal(screen_page_key(&p, 'n'), SCREEN_NONE);
    assert_true(p.finished);
    char *t = draw(&p, 80, 24);
    CONTAINS(t, "Class basics — the end");
    CONTAINS(t, "Not finished yet: 1 page left");
    CONTAINS(t, "First try: 1 of 2 questions right (50%)");
    CONTAINS(t, "Scenarios: 0 of 1 goals met, 1 hint used");
    CONTAINS(t, "Pages left: 3 scenario");
    CONTAINS(t, "Missed the first time: page 4 (R in the menu replays it)");
    CONTAINS(t, "Enter goes to page 3, the first page left; n opens the next lesson,\n");
    assert_null(strstr(t, "Never answered right")); /* the predict page came right */
    free(t);
    assert_int_equal(progress_status(pr, "class-basics"), PROGRESS_STARTED);
    assert_int_equal(screen_page_key(&p, UIK_ENTER), SCREEN_NONE);
    assert_false(p.finished);
    assert_int_equal(p.page, 2);
    assert_true(screen_scenario_apply(&p, "swap 3 11"));
    screen_page_goto(&p, 4);
    assert_int_equal(screen_page_key(&p, 'n'), SCREEN_NONE);
    assert_int_equal(progress_status(pr, "class-basics"), PROGRESS_DONE);
    t = draw(&p, 80, 24);
    CONTAINS(t, "Lesson done ✓ Not mastered yet: 1 to review");
    CONTAINS(t, "Pages left: none");
    CONTAINS(t, "Next lesson: Class next. Enter opens it.");
    free(t);
    assert_int_equal(screen_page_key(&p, '?'), SCREEN_NONE); /* help, any key closes it */
    assert_true(p.help);
    screen_page_key(&p, 'x');
    assert_int_equal(screen_page_key(&p, 'n'), SCREEN_NEXT);
    assert_int_equal(screen_page_key(&p, UIK_ENTER), SCREEN_NEXT);
    assert_int_equal(screen_page_key(&p, UIK_ESC), SCREEN_BACK);
    /* Without a next lesson (a file opened alone) n says so and stays. */
    p.next_title[0] = '\0';
    assert_int_equal(screen_page_key(&p, 'n'), SCREEN_NONE);
    CONTAINS(p.message, "last lesson");
    assert_int_equal(screen_page_key(&p, 'p'), SCREEN_NONE);
    assert_false(p.finished);
    assert_int_equal(p.page, 4);
    screen_page_fini(&p);
    progress_free(pr);
    lesson_free(l);
}

/* A predict page out of tries counts toward done but was never right: the
 * end screen names it. */
static void test_page_end_names_questions_never_right(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(CLASS, err, sizeof err);
    assert_non_null(l);
    Progress *pr = progress_open(NULL, NULL, 0);
    assert_true(progress_record_try(pr, "class-basics", 1, 0, true, NULL, 0));
    for (int i = 0; i < PREDICT_TRIES; i++)
        assert_true(progress_record_try(pr, "class-basics", 3, -1, false, NULL, 0));
    assert_true(progress_set_scenario_met(pr, "class-basics", 2, NULL, 0));
    PageState p;
    screen_page_init(&p, l, CLASS, NULL, pr, 4);
    screen_page_key(&p, 'n');
    char *t = draw(&p, 80, 24);
    CONTAINS(t, "Lesson done ✓ Not mastered yet: 1 to review");
    CONTAINS(t, "Never answered right: 4 predict \"One copy\"");
    free(t);
    screen_page_fini(&p);
    progress_free(pr);
    lesson_free(l);
}

/* The two-site fabric needs 23 rows at 80 columns (as `render fabric`
 * prints it); the page has fewer: the top shows with a marker, Down
 * scrolls to the scale-across legend, and no further than the last row. */
static void test_page_end_tall_diagram_scrolls_to_its_legend(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(SITES, err, sizeof err);
    assert_non_null(l);
    PageState p;
    screen_page_init(&p, l, SITES, NULL, NULL, 0);
    char *t = draw(&p, 80, 24);
    CONTAINS(t, "site 1");
    CONTAINS(t, "▼ rows 1-");
    CONTAINS(t, "of 23: Up/Down scroll");
    assert_null(strstr(t, "scale-across between 2 sites"));
    CONTAINS(t, "Four NVL72 racks over two sites."); /* the caption stays */
    free(t);
    for (int i = 0; i < 40; i++)
        screen_page_key(&p, UIK_DOWN);
    t = draw(&p, 80, 24);
    CONTAINS(t, "┄ scale-across between 2 sites, 12.5 TB/s each way in all");
    CONTAINS(t, "▲ rows ");
    CONTAINS(t, "-23 of 23");
    CONTAINS(t, "Four NVL72 racks over two sites.");
    free(t);
    screen_page_key(&p, UIK_UP);
    t = draw(&p, 80, 24);
    CONTAINS(t, "▼ rows ");
    free(t);
    /* Tall enough: the whole view, legend included, and no marker. */
    t = draw(&p, 80, 40);
    CONTAINS(t, "scale-across between 2 sites");
    assert_null(strstr(t, "Up/Down scroll"));
    free(t);
    screen_page_fini(&p);
    lesson_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_page_end_score_left_and_next),
        cmocka_unit_test(test_page_end_names_questions_never_right),
        cmocka_unit_test(test_page_end_tall_diagram_scrolls_to_its_legend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
