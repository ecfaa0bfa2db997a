/* SPDX-License-Identifier: MIT */
/* test_lessons — the shipped lesson track (lessons/NN-slug.lua) as a learner
 * meets it: every lesson loads in the sandbox, has the shape a lesson needs
 * (5-12 pages, a diagram, a summary, a closing quiz; an interactive page,
 * a predict page and a calculation quiz in every lesson; twelve or more
 * scenarios and predict pages in the track), every page draws headlessly through the UI's page
 * screen at 80x24 and 160x50 without an error, an empty body, text that needs scrolling, or a
 * number wrapped away from its unit; the menu lists the lessons in file order; and every
 * scenario's reference solution, replayed move by move through the model and through the scenario
 * screen, meets its goal while the start does not (test_solve.c proves each par: no shorter
 * sequence of keys meets it).
 *
 * Runs from the repository root (scripts/run-unit-tests cds there) and reads
 * lessons/ and assets/ from it. Depends on lesson, ui/screens, draw/canvas
 * and model/scenario; nothing here touches a terminal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

// clang-format off
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include "draw/canvas.h"
#include "learn/scenario.h"
#include "lesson/catalog.h"
#include "lesson/lesson.h"
#include "ui/screens.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LESSONS_DIR      "lessons"
#define MAX_LESSONS      64
#define EXPECTED_LESSONS 12

typedef struct {
    int n;
    char path[MAX_LESSONS][300];
    Lesson *lesson[MAX_LESSONS];
} Track;

static int track_setup(void **state)
{
    /* The loader finds presets through $SCALELAB_ASSETS (catalog.h). */
    setenv("SCALELAB_ASSETS", "assets", 1);
    Track *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->n = tl_lesson_files(LESSONS_DIR, t->path, MAX_LESSONS);
    if (t->n < 0) {
        free(t);
        return -1;
    }
    for (int i = 0; i < t->n; i++) {
        char err[MSG_LEN] = "";
        t->lesson[i] = lesson_load(t->path[i], err, sizeof err);
        if (!t->lesson[i])
            print_message("load failed: %s\n", err);
    }
    *state = t;
    return 0;
}

static int track_teardown(void **state)
{
    Track *t = *state;
    for (int i = 0; t && i < t->n; i++)
        lesson_free(t->lesson[i]);
    free(t);
    return 0;
}

/* The lesson at i; fails the test (instead of crashing) when it did not load. */
static Lesson *track_lesson(Track *t, int i)
{
    if (!t->lesson[i])
        print_error("%s did not load\n", t->path[i]);
    assert_non_null(t->lesson[i]);
    return t->lesson[i];
}

/* ---- shape of the track ---- */

static void test_lessons_all_load(void **state)
{
    Track *t = *state;
    assert_int_equal(t->n, EXPECTED_LESSONS);
    for (int i = 0; i < t->n; i++) {
        if (!t->lesson[i])
            print_error("%s did not load\n", t->path[i]);
        assert_non_null(t->lesson[i]);
    }
}

static void test_lessons_ids_unique_and_ordered(void **state)
{
    Track *t = *state;
    for (int i = 0; i < t->n; i++) {
        /* Files are NN-slug.lua and the NN is the lesson's order. */
        const char *base = strrchr(t->path[i], '/') + 1;
        assert_int_equal(lesson_order(track_lesson(t, i)), atoi(base));
        for (int j = 0; j < i; j++)
            assert_string_not_equal(lesson_id(t->lesson[i]), lesson_id(track_lesson(t, j)));
    }
}

static void test_lessons_tracks_are_the_three(void **state)
{
    Track *t = *state;
    /* Numbered so the menu, which sorts tracks by name, shows them in order. */
    static const char *const tracks[] = {"Part 1: Foundations", "Part 2: Parallelism on hardware",
                                         "Part 3: Beyond the rack"};
    for (int i = 0; i < t->n; i++) {
        const char *tr = lesson_track(track_lesson(t, i));
        bool known = false;
        for (size_t k = 0; k < sizeof tracks / sizeof tracks[0]; k++)
            known = known || strcmp(tr, tracks[k]) == 0;
        if (!known)
            print_error("%s: unknown track '%s'\n", t->path[i], tr);
        assert_true(known);
    }
}

/* The menu (catalog order: track name, then order) lists the lessons in the
 * order of their file numbers, so a learner meets them 1 to 12. */
static void test_lessons_menu_order_follows_numbers(void **state)
{
    Track *t = *state;
    char err[256] = "";
    Catalog *c = catalog_load(LESSONS_DIR, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(catalog_count(c), t->n);
    for (int i = 0; i < t->n; i++) {
        const CatalogEntry *e = catalog_entry(c, i);
        if (strcmp(e->id, lesson_id(track_lesson(t, i))) != 0)
            print_error("menu position %d shows %s, file order has %s\n", i + 1, e->id,
                        lesson_id(t->lesson[i]));
        assert_string_equal(e->id, lesson_id(t->lesson[i]));
    }
    catalog_free(c);
}

/* The key presses that type a scenario's reference solution. */
static int solution_presses(Lesson *l, int p)
{
    char err[MSG_LEN] = "";
    Scenario *s = lesson_scenario_start(l, p, err, sizeof err);
    assert_non_null(s);
    int total = 0;
    for (int m = 0; m < lesson_scenario_solution_count(l, p); m++) {
        int typed = 0;
        if (!scenario_type_text(s, lesson_scenario_solution_move(l, p, m), &typed, err,
                                sizeof err))
            print_error("page %d: '%s' cannot be typed: %s\n", p + 1,
                        lesson_scenario_solution_move(l, p, m), err);
        total += typed;
    }
    scenario_free(s);
    return total;
}

/* 5-12 pages, a diagram or compare page, a "Summary" text page, a quiz last,
 * quizzes with at least one right and one wrong choice, an interactive page
 * (scenario or predict), a predict page and a calc quiz in every lesson; in
 * the track at least twelve scenarios, each with par = the key presses that
 * type its solution (at least 2), and at least twelve predict pages. */
static void test_lessons_shape(void **state)
{
    Track *t = *state;
    int scenarios = 0, predicts = 0;
    for (int i = 0; i < t->n; i++) {
        Lesson *l = track_lesson(t, i);
        int n = lesson_page_count(l);
        assert_in_range(n, 5, 12);
        bool diagram = false, summary = false, predict = false, calc = false;
        for (int p = 0; p < n; p++) {
            PageKind k = lesson_page_kind(l, p);
            diagram = diagram || k == PAGE_DIAGRAM || k == PAGE_COMPARE;
            summary =
                summary || (k == PAGE_TEXT && strcmp(lesson_page_title(l, p), "Summary") == 0);
            if (k == PAGE_SCENARIO) {
                scenarios++;
                int presses = solution_presses(l, p);
                if (lesson_scenario_par(l, p) != presses || presses < 2)
                    print_error("%s page %d: par %d, solution %d key presses\n", t->path[i], p + 1,
                                lesson_scenario_par(l, p), presses);
                assert_int_equal(lesson_scenario_par(l, p), presses);
                assert_true(presses >= 2);
                assert_true(lesson_scenario_hint_count(l, p) >= 2);
            }
            if (k == PAGE_PREDICT) {
                predict = true;
                predicts++;
            }
            if (k == PAGE_QUIZ) {
                int right = 0, c = lesson_quiz_choice_count(l, p);
                for (int j = 0; j < c; j++) {
                    right += lesson_quiz_is_correct(l, p, j);
                    assert_true(strlen(lesson_quiz_explanation(l, p, j)) > 0);
                }
                assert_true(right >= 1 && right < c);
                calc = calc || lesson_quiz_is_calc(l, p);
            }
        }
        if (!diagram || !summary || !predict || !calc)
            print_error("%s: diagram %d summary %d predict %d calc quiz %d\n", t->path[i], diagram,
                        summary, predict, calc);
        assert_true(diagram);
        assert_true(summary);
        assert_true(predict);
        assert_true(calc);
        assert_int_equal(lesson_page_kind(l, n - 1), PAGE_QUIZ);
    }
    assert_true(scenarios >= 12);
    assert_true(predicts >= 12);
}

/* ---- every page, drawn headlessly ---- */

static bool canvas_row_blank(const char *text, int row)
{
    const char *p = text;
    for (int r = 0; r < row && p; r++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return true;
    for (; *p && *p != '\n'; p++)
        if (*p != ' ')
            return false;
    return true;
}

/* A row of wrapped text that starts with a unit ("GB/s going out ...") means
 * a number was split from its unit by the wrap: an awkward break. */
static bool row_starts_with_unit(const char *row, size_t len)
{
    static const char *const units[] = {"GB/s", "TB/s", "Gb/s", "Tb/s", "GB", "TB",
                                        "MB",   "ms",   "us",   "s",    "kW", "PFLOP/s"};
    size_t i = 0;
    while (i < len && row[i] == ' ')
        i++;
    if (i + 2 <= len && (row[i] == '-' || row[i] == '*') && row[i + 1] == ' ')
        i += 2;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t n = strlen(units[u]);
        if (i + n <= len && strncmp(row + i, units[u], n) == 0 &&
            (i + n == len || row[i + n] == ' ' || row[i + n] == ',' || row[i + n] == '.' ||
             row[i + n] == ';' || row[i + n] == ')'))
            return true;
    }
    return false;
}

static int count_unit_breaks(const char *text)
{
    int n = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        n += row_starts_with_unit(p, len);
        p = e ? e + 1 : p + len;
    }
    return n;
}

/* Text cut by the canvas ends in an ellipsis; "…║" is a domain's "more
 * GPUs than drawn" mark, not a cut. */
static bool text_is_cut(const char *text)
{
    for (const char *q = strstr(text, "…"); q; q = strstr(q + 1, "…"))
        if (strncmp(q + strlen("…"), "║", strlen("║")) != 0)
            return true;
    return false;
}

static void walk_pages(Track *t, int w, int h, bool must_fit)
{
    Canvas *c = canvas_new(w, h);
    canvas_set_ascii(c, true);
    assert_non_null(c);
    for (int i = 0; i < t->n; i++) {
        Lesson *l = track_lesson(t, i);
        for (int p = 0; p < lesson_page_count(l); p++) {
            PageState ps;
            ScreenCursor cur;
            screen_page_init(&ps, l, t->path[i], NULL, NULL, p);
            screen_page_draw(c, &ps, &cur);
            char *text = canvas_to_text(c);
            assert_non_null(text);
            bool error = ps.page_error[0] || strstr(text, ".lua:") != NULL;
            /* The body starts on row 4 (title, rule, page title, gap). */
            int filled = 0;
            for (int row = 4; row < h - 3; row++)
                filled += !canvas_row_blank(text, row);
            bool scrolls = strstr(text, "(Up/Down)") != NULL;
            /* Only pages whose every word is the lesson's own markup. */
            PageKind k = lesson_page_kind(l, p);
            int breaks = k == PAGE_TEXT || k == PAGE_QUIZ ? count_unit_breaks(text) : 0;
            if (error || filled < 2 || (must_fit && scrolls) || breaks)
                print_error("%s page %d at %dx%d: error %d, %d body rows, scrolls %d, "
                            "%d number/unit breaks\n%s\n",
                            t->path[i], p + 1, w, h, error, filled, scrolls, breaks, text);
            free(text);
            /* Nothing a learner needs is cut: the page, drawn in UTF-8, has
             * no ellipsis of the kind the canvas puts on cut text. */
            canvas_set_ascii(c, false);
            screen_page_draw(c, &ps, &cur);
            text = canvas_to_text(c);
            canvas_set_ascii(c, true);
            bool cut = text_is_cut(text);
            if (cut)
                print_error("%s page %d at %dx%d: text cut\n%s\n", t->path[i], p + 1, w, h, text);
            free(text);
            screen_page_fini(&ps);
            assert_false(cut);
            assert_false(error);
            assert_true(filled >= 2);
            assert_int_equal(breaks, 0);
            if (must_fit)
                assert_false(scrolls);
        }
    }
    canvas_free(c);
}

static void test_lessons_pages_draw_at_80x24(void **state)
{
    walk_pages(*state, 80, 24, true);
}

static void test_lessons_pages_draw_at_160x50(void **state)
{
    walk_pages(*state, 160, 50, true);
}

static void test_lessons_pages_draw_at_120x40(void **state)
{
    walk_pages(*state, 120, 40, true);
}

/* ---- scenarios: the reference solution meets the goal, the start does not ---- */

static void test_lessons_solutions_meet_goals(void **state)
{
    Track *t = *state;
    int scenarios = 0;
    for (int i = 0; i < t->n; i++) {
        Lesson *l = track_lesson(t, i);
        for (int p = 0; p < lesson_page_count(l); p++) {
            if (lesson_page_kind(l, p) != PAGE_SCENARIO)
                continue;
            scenarios++;
            char err[MSG_LEN] = "", why[256] = "";
            Scenario *s = lesson_scenario_start(l, p, err, sizeof err);
            if (!s)
                print_error("%s page %d: %s\n", t->path[i], p + 1, err);
            assert_non_null(s);
            int met = lesson_scenario_goal_met(l, p, s, why, sizeof why, err, sizeof err);
            if (met != 0)
                print_error("%s page %d: goal at the start = %d (%s)\n", t->path[i], p + 1, met,
                            err);
            assert_int_equal(met, 0);
            for (int m = 0; m < lesson_scenario_solution_count(l, p); m++) {
                const char *move = lesson_scenario_solution_move(l, p, m);
                bool ok = scenario_apply_text(s, move, err, sizeof err);
                if (!ok)
                    print_error("%s page %d: move '%s': %s\n", t->path[i], p + 1, move, err);
                assert_true(ok);
            }
            met = lesson_scenario_goal_met(l, p, s, why, sizeof why, err, sizeof err);
            if (met != 1)
                print_error("%s page %d: goal after the solution = %d (%s%s)\n", t->path[i], p + 1,
                            met, why, err);
            assert_int_equal(met, 1);
            /* The debrief, string or function of the final state, says something. */
            char debrief[2048] = "";
            LessonPlay play = {lesson_scenario_solution_count(l, p), 0, false};
            bool ok = lesson_scenario_debrief_for(l, p, s, &play, debrief, sizeof debrief, err,
                                                  sizeof err);
            if (!ok)
                print_error("%s page %d: debrief: %s\n", t->path[i], p + 1, err);
            assert_true(ok);
            assert_true(strlen(debrief) > 40);
            scenario_free(s);
        }
    }
    assert_true(scenarios >= 6);
}

/* A scenario page's screen at the three sizes: nothing cut; returns
 * whether `want` shows at every size (NULL: no check). */
static bool scenario_shows(PageState *ps, const char *where, const char *want)
{
    static const int sizes[][2] = {{80, 24}, {120, 40}, {160, 50}};
    bool all = true;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        Canvas *c = canvas_new(sizes[k][0], sizes[k][1]);
        ScreenCursor cur;
        screen_page_draw(c, ps, &cur);
        char *text = canvas_to_text(c);
        if (text_is_cut(text))
            fail_msg("%s at %dx%d: text cut\n%s", where, sizes[k][0], sizes[k][1], text);
        if (want && !strstr(text, want)) {
            print_error("%s at %dx%d: no \"%s\"\n%s\n", where, sizes[k][0], sizes[k][1], want,
                        text);
            all = false;
        }
        free(text);
        canvas_free(c);
    }
    return all;
}

/* The same replay through the scenario screen, as keys would do it: the
 * page's own goal state flips to met and the debrief is shown. Every state
 * on the way (the start, a hint, the prediction's question, each move, the
 * debrief) draws at 80x24, 120x40 and 160x50 with nothing cut, and the
 * question and the debrief show without scrolling. */
static void test_lessons_solutions_through_the_screen(void **state)
{
    Track *t = *state;
    for (int i = 0; i < t->n; i++) {
        Lesson *l = track_lesson(t, i);
        for (int p = 0; p < lesson_page_count(l); p++) {
            if (lesson_page_kind(l, p) != PAGE_SCENARIO)
                continue;
            PageState ps;
            char where[340];
            snprintf(where, sizeof where, "%s page %d", t->path[i], p + 1);
            screen_page_init(&ps, l, t->path[i], NULL, NULL, p);
            assert_non_null(ps.scn.s);
            assert_int_equal(ps.scn.goal, 0);
            assert_true(scenario_shows(&ps, where, "Goal: "));
            screen_page_key(&ps, 'h');
            assert_true(scenario_shows(&ps, where, "Hint 1/"));
            for (int m = 0; m < lesson_scenario_solution_count(l, p); m++) {
                assert_true(screen_scenario_apply(&ps, lesson_scenario_solution_move(l, p, m)));
                if (ps.scn.guessing) { /* a prediction first: any answer shows the result */
                    assert_true(scenario_shows(&ps, where, "Before you see it:"));
                    screen_page_key(&ps, '1');
                    assert_true(scenario_shows(&ps, where, "Your prediction: "));
                }
                assert_false(ps.scn.guessing);
                scenario_shows(&ps, where, NULL);
            }
            if (ps.scn.goal != 1)
                print_error("%s: screen goal %d: %s\n", where, ps.scn.goal, ps.scn.why);
            assert_int_equal(ps.scn.goal, 1);
            assert_true(scenario_shows(&ps, where, "Debrief: "));
            screen_page_fini(&ps);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lessons_all_load),
        cmocka_unit_test(test_lessons_ids_unique_and_ordered),
        cmocka_unit_test(test_lessons_tracks_are_the_three),
        cmocka_unit_test(test_lessons_menu_order_follows_numbers),
        cmocka_unit_test(test_lessons_shape),
        cmocka_unit_test(test_lessons_pages_draw_at_80x24),
        cmocka_unit_test(test_lessons_pages_draw_at_160x50),
        cmocka_unit_test(test_lessons_pages_draw_at_120x40),
        cmocka_unit_test(test_lessons_solutions_meet_goals),
        cmocka_unit_test(test_lessons_solutions_through_the_screen),
    };
    return cmocka_run_group_tests(tests, track_setup, track_teardown);
}
