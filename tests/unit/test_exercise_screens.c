/* SPDX-License-Identifier: MIT */
/* test_exercise_screens — the quiz and predict pages as a learner meets
 * them, driven through their key functions on tests/lessons/exercises.lua
 * (page 1: a quiz whose right choice is written first; page 2: a predict
 * page, 1 GB over NVLink 4 at 450 GB/s plus 2 us = 2.224 ms), and the
 * practice screen's tier and placement exercises and its q key. No terminal.
 */
#include "learn/quiz.h"
#include "learn/scenario.h"
#include "lesson/lesson.h"
#include "store/progress.h"
#include "ui/keys.h"
#include "ui/screen_practice.h"
#include "ui/screen_predict.h"
#include "ui/screen_quiz.h"

// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <string.h>

#define EXERCISES "tests/lessons/exercises.lua"
#define QUIZ      0
#define PREDICT   1

static int setup(void **state)
{
    char err[MSG_LEN];
    Lesson *l = lesson_load(EXERCISES, err, sizeof err);
    if (!l)
        return -1;
    *state = l;
    return 0;
}

static int teardown(void **state)
{
    lesson_free(*state);
    return 0;
}

/* The key (1-9) of the choice written at index `choice` in the file. */
static int key_of(const QuizView *q, int choice)
{
    for (int k = 0; k < q->n; k++)
        if (q->order[k] == choice)
            return '1' + k;
    fail();
    return 0;
}

static void test_quiz_order_is_the_learners(void **state)
{
    Lesson *l = *state;
    Progress *pr = progress_open(NULL, NULL, 0);
    QuizView q;
    screen_quiz_open(&q, l, QUIZ, pr, false);
    int want[4];
    quiz_order(progress_seed(pr), lesson_id(l), QUIZ, 4, want);
    assert_int_equal(q.n, 4);
    assert_memory_equal(q.order, want, sizeof want);
    QuizView again;
    screen_quiz_open(&again, l, QUIZ, pr, false);
    assert_memory_equal(again.order, q.order, sizeof want); /* a reload keeps it */
    progress_free(pr);
}

static void test_quiz_wrong_then_reveal_then_right(void **state)
{
    Lesson *l = *state;
    Progress *pr = progress_open(NULL, NULL, 0);
    QuizView q;
    screen_quiz_open(&q, l, QUIZ, pr, false);
    /* choice 1 in the file is wrong ("That counts bits as bytes") */
    assert_int_equal(screen_quiz_key(&q, l, QUIZ, pr, key_of(&q, 1)), SCREEN_NONE);
    assert_false(q.solved || q.revealed);
    assert_true(q.tried[1]);
    assert_non_null(strstr(q.msg, "try another"));
    ProgressExercise e;
    assert_true(progress_exercise(pr, lesson_id(l), QUIZ, &e));
    assert_int_equal(e.first, 0);
    /* a is refused before two wrong tries */
    assert_int_equal(screen_quiz_key(&q, l, QUIZ, pr, 'a'), SCREEN_NONE);
    assert_false(q.revealed);
    screen_quiz_key(&q, l, QUIZ, pr, key_of(&q, 2));
    assert_int_equal(q.n_wrong, 2);
    assert_non_null(strstr(q.msg, "press a"));
    screen_quiz_key(&q, l, QUIZ, pr, 'a');
    assert_true(q.revealed && !q.solved);
    /* revealing is not answering: the lesson still needs the right answer */
    assert_true(progress_exercise(pr, lesson_id(l), QUIZ, &e));
    assert_false(e.solved);
    screen_quiz_key(&q, l, QUIZ, pr, key_of(&q, 0));
    assert_true(q.solved);
    assert_true(progress_exercise(pr, lesson_id(l), QUIZ, &e));
    assert_true(e.solved);
    assert_int_equal(e.first, 0);
    assert_int_equal(e.tries, 3);
    assert_true(progress_needs_review(pr, lesson_id(l), QUIZ));
    /* once solved, Enter and n belong to the page */
    assert_int_equal(screen_quiz_key(&q, l, QUIZ, pr, UIK_ENTER), SCREEN_PASS);
    assert_int_equal(screen_quiz_key(&q, l, QUIZ, pr, 'n'), SCREEN_PASS);
    /* a later visit opens solved */
    QuizView later;
    screen_quiz_open(&later, l, QUIZ, pr, false);
    assert_true(later.solved);
    /* a review records a review, not a try */
    QuizView rev;
    screen_quiz_open(&rev, l, QUIZ, pr, true);
    assert_false(rev.solved);
    screen_quiz_key(&rev, l, QUIZ, pr, key_of(&rev, 0));
    assert_true(progress_exercise(pr, lesson_id(l), QUIZ, &e));
    assert_int_equal(e.tries, 3);
    assert_int_equal(e.reviews, 1);
    assert_false(progress_needs_review(pr, lesson_id(l), QUIZ));
    progress_free(pr);
}

static void test_quiz_right_at_first_try(void **state)
{
    Lesson *l = *state;
    Progress *pr = progress_open(NULL, NULL, 0);
    QuizView q;
    screen_quiz_open(&q, l, QUIZ, pr, false);
    screen_quiz_key(&q, l, QUIZ, pr, key_of(&q, 0));
    assert_true(q.solved);
    assert_non_null(strstr(q.msg, "first try"));
    assert_int_equal(progress_first_tries(pr, lesson_id(l), NULL), 1);
    int right = 0;
    progress_first_tries(pr, lesson_id(l), &right);
    assert_int_equal(right, 1);
    progress_free(pr);
}

static void type(PredictView *v, Lesson *l, Progress *pr, const char *text)
{
    for (const char *c = text; *c; c++)
        assert_int_equal(screen_predict_key(v, l, PREDICT, pr, (unsigned char)*c), SCREEN_NONE);
}

static void test_predict_wrong_then_right(void **state)
{
    Lesson *l = *state;
    Progress *pr = progress_open(NULL, NULL, 0);
    PredictView v;
    screen_predict_open(&v, l, PREDICT, pr, false);
    /* once an answer is begun, every printable key types, even n and q */
    type(&v, l, pr, "2nq");
    assert_string_equal(v.input, "2nq");
    screen_predict_key(&v, l, PREDICT, pr, UIK_BACKSPACE);
    screen_predict_key(&v, l, PREDICT, pr, UIK_BACKSPACE);
    screen_predict_key(&v, l, PREDICT, pr, UIK_BACKSPACE);
    assert_string_equal(v.input, "");
    /* no unit: explained (naming what was typed), no try used, the entry
     * cleared for the next one */
    type(&v, l, pr, "2.2");
    screen_predict_key(&v, l, PREDICT, pr, UIK_ENTER);
    assert_int_equal(v.grade.verdict, PREDICT_UNREADABLE);
    assert_int_equal(v.tries, 0);
    assert_false(progress_exercise(pr, lesson_id(l), PREDICT, NULL));
    assert_string_equal(v.input, "");
    assert_string_equal(v.typed, "2.2");
    assert_non_null(strstr(v.grade.msg, "'2.2'"));
    /* 20 us: 2.224 ms / 20 us = 111x too low; bandwidth dominates */
    type(&v, l, pr, "20 us");
    screen_predict_key(&v, l, PREDICT, pr, UIK_ENTER);
    assert_int_equal(v.grade.verdict, PREDICT_TOO_LOW);
    assert_non_null(strstr(v.grade.msg, "bandwidth"));
    assert_int_equal(v.tries, 1);
    assert_false(v.shown);
    assert_string_equal(v.input, "");
    /* 2.2 ms: within 20% */
    type(&v, l, pr, "2.2 ms");
    screen_predict_key(&v, l, PREDICT, pr, UIK_ENTER);
    assert_int_equal(v.grade.verdict, PREDICT_RIGHT);
    assert_true(v.solved && v.shown);
    ProgressExercise e;
    assert_true(progress_exercise(pr, lesson_id(l), PREDICT, &e));
    assert_int_equal(e.first, 0);
    assert_int_equal(e.tries, 2);
    assert_true(e.solved);
    /* the answer shown: keys go to the page */
    assert_int_equal(screen_predict_key(&v, l, PREDICT, pr, 'n'), SCREEN_PASS);
    PredictView later;
    screen_predict_open(&later, l, PREDICT, pr, false);
    assert_true(later.shown && later.solved);
    progress_free(pr);
}

static void test_predict_three_misses_show_the_answer(void **state)
{
    Lesson *l = *state;
    Progress *pr = progress_open(NULL, NULL, 0);
    PredictView v;
    screen_predict_open(&v, l, PREDICT, pr, false);
    const char *misses[] = {"1 s", "17.8 ms", "1 us"}; /* x450, x8 (a time has no bits), /2224 */
    for (int i = 0; i < 3; i++) {
        assert_false(v.shown);
        type(&v, l, pr, misses[i]);
        screen_predict_key(&v, l, PREDICT, pr, UIK_ENTER);
    }
    assert_true(v.shown);
    assert_false(v.solved);
    assert_non_null(strstr(v.msg, "Out of tries"));
    ProgressExercise e;
    assert_true(progress_exercise(pr, lesson_id(l), PREDICT, &e));
    assert_int_equal(e.tries, 3);
    assert_false(e.solved);
    /* Tab and Esc always belong to the page */
    PredictView w;
    screen_predict_open(&w, l, PREDICT, NULL, false);
    assert_int_equal(screen_predict_key(&w, l, PREDICT, NULL, UIK_TAB), SCREEN_PASS);
    assert_int_equal(screen_predict_key(&w, l, PREDICT, NULL, UIK_ESC), SCREEN_PASS);
    /* On an empty entry n and p turn the page; once typing, they type */
    assert_int_equal(screen_predict_key(&w, l, PREDICT, NULL, 'n'), SCREEN_PASS);
    assert_int_equal(screen_predict_key(&w, l, PREDICT, NULL, 'p'), SCREEN_PASS);
    assert_string_equal(w.input, "");
    /* µ types as UTF-8 */
    screen_predict_key(&w, l, PREDICT, NULL, '2');
    screen_predict_key(&w, l, PREDICT, NULL, 0xb5);
    screen_predict_key(&w, l, PREDICT, NULL, 's');
    assert_string_equal(w.input, "2\xc2\xb5s");
    assert_int_equal(screen_predict_key(&w, l, PREDICT, NULL, 'n'), SCREEN_NONE);
    assert_string_equal(w.input, "2\xc2\xb5sn");
    screen_predict_key(&w, l, PREDICT, NULL, UIK_BACKSPACE);
    screen_predict_key(&w, l, PREDICT, NULL, UIK_BACKSPACE);
    screen_predict_key(&w, l, PREDICT, NULL, UIK_BACKSPACE);
    assert_string_equal(w.input, "2");
    progress_free(pr);
}

/* ---- practice ---- */

/* q and Esc leave practice for the menu it was opened from; opened by
 * `scalelab practice` they end the program; Ctrl-C always does. */
static void test_practice_q_goes_back_to_the_menu(void **state)
{
    (void)state;
    Progress *pr = progress_open(NULL, NULL, 0);
    PracticeScreen ps;
    screen_practice_init(&ps, pr, 5, true, PRACTICE_TIER, 1);
    assert_true(ps.have);
    ps.from_menu = true;
    assert_int_equal(screen_practice_key(&ps, 'q'), SCREEN_BACK);
    assert_int_equal(screen_practice_key(&ps, UIK_ESC), SCREEN_BACK);
    assert_int_equal(screen_practice_key(&ps, UIK_CTRL_C), SCREEN_QUIT);
    ps.from_menu = false;
    assert_int_equal(screen_practice_key(&ps, 'q'), SCREEN_QUIT);
    screen_practice_fini(&ps);
    progress_free(pr);
}

/* A tier exercise: a wrong choice explains itself and is marked; the right
 * one passes (not at the first try), and the run counts it. */
static void test_practice_tier_through_the_screen(void **state)
{
    (void)state;
    Progress *pr = progress_open(NULL, NULL, 0);
    PracticeScreen ps;
    screen_practice_init(&ps, pr, 21, true, PRACTICE_TIER, 3);
    assert_true(ps.have);
    int right = (int)ps.ex.tier, wrong = (right + 1) % PRACTICE_TIER_COUNT;
    screen_practice_key(&ps, '1' + wrong);
    assert_true(ps.wrong[wrong]);
    assert_false(ps.done);
    assert_non_null(strstr(ps.feedback, "Not the"));
    screen_practice_key(&ps, '1' + right);
    assert_true(ps.done && ps.passed);
    assert_false(ps.first_try);
    assert_int_equal(progress_practice(pr, "tier").tried, 1);
    assert_int_equal(progress_practice(pr, "tier").first_try, 0);
    screen_practice_fini(&ps);
    progress_free(pr);
}

/* A placement exercise: moves the learner makes on the scenario are graded
 * by the spans; undoing the scheduler's swaps passes, within par. */
static void test_practice_placement_through_the_screen(void **state)
{
    (void)state;
    Progress *pr = progress_open(NULL, NULL, 0);
    PracticeScreen ps;
    screen_practice_init(&ps, pr, 8, true, PRACTICE_PLACEMENT, 3);
    assert_true(ps.have && ps.page_open);
    /* degrees are the exercise's: refused */
    screen_practice_key(&ps, 't');
    assert_false(ps.done);
    char err[200], move[64];
    for (int i = ps.ex.n_swaps - 1; i >= 0; i--) {
        assert_false(ps.done);
        snprintf(move, sizeof move, "swap %d %d", ps.ex.swaps[i][0], ps.ex.swaps[i][1]);
        assert_true(scenario_apply_text(ps.page.scn.s, move, err, sizeof err));
        ps.page.scn.moves++;
        screen_practice_key(&ps, UIK_LEFT); /* any key: the screen grades after it */
    }
    assert_true(ps.done && ps.passed && ps.first_try);
    assert_non_null(strstr(ps.feedback, "whole in one domain"));
    screen_practice_fini(&ps);
    progress_free(pr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quiz_order_is_the_learners),
        cmocka_unit_test(test_quiz_wrong_then_reveal_then_right),
        cmocka_unit_test(test_quiz_right_at_first_try),
        cmocka_unit_test(test_predict_wrong_then_right),
        cmocka_unit_test(test_predict_three_misses_show_the_answer),
        cmocka_unit_test(test_practice_q_goes_back_to_the_menu),
        cmocka_unit_test(test_practice_tier_through_the_screen),
        cmocka_unit_test(test_practice_placement_through_the_screen),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
