/* SPDX-License-Identifier: MIT */
/* test_guess — grading a prediction before a move (learn/guess.c): the
 * change buckets and their edges, the part that changed most (either way),
 * serving's parts, the words lessons write, and the verdict's words. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "learn/guess.h"

#include <string.h>

/* A move from before to after seconds with part k changed by d. */
static GuessMove move(double before, double after, int k, double d)
{
    GuessMove m = {before, after, {0}, STEP_PART_COUNT};
    m.delta_s[k] = d;
    return m;
}

/* Choices: 0 more than 2x slower, 1 slower up to 2x, 2 same within 5%,
 * 3 faster up to 2x, 4 more than 2x faster. */
static void test_guess_change_buckets(void **state)
{
    (void)state;
    GuessMove m = move(10, 4, STEP_TP, -6); /* 2.5x faster */
    assert_int_equal(guess_answer(GUESS_CHANGE, &m), 4);
    assert_true(guess_is_right(GUESS_CHANGE, &m, 4));
    assert_false(guess_is_right(GUESS_CHANGE, &m, 3));
    assert_false(guess_is_right(GUESS_CHANGE, &m, 1)); /* the wrong way */
    m = move(10, 13, STEP_TP, 3);                      /* 1.3x slower */
    assert_int_equal(guess_answer(GUESS_CHANGE, &m), 1);
    assert_false(guess_is_right(GUESS_CHANGE, &m, 3));
    m = move(10, 10.2, STEP_TP, 0.2); /* 2% slower: the same */
    assert_int_equal(guess_answer(GUESS_CHANGE, &m), 2);
    m = move(10, 30, STEP_DP, 20);
    assert_int_equal(guess_answer(GUESS_CHANGE, &m), 0);
    assert_false(guess_is_right(GUESS_CHANGE, &m, -1));
    assert_false(guess_is_right(GUESS_CHANGE, &m, 5));
}

/* A ratio within 5% of a bucket's edge counts for both neighbours: 1.98x
 * faster is "faster by up to 2x" and "more than 2x faster"; 1.6x is not. */
static void test_guess_change_edges_forgive_rounding(void **state)
{
    (void)state;
    GuessMove m = move(9.9, 5, STEP_TP, -4.9);
    assert_true(guess_is_right(GUESS_CHANGE, &m, 3));
    assert_true(guess_is_right(GUESS_CHANGE, &m, 4));
    m = move(8, 5, STEP_TP, -3);
    assert_true(guess_is_right(GUESS_CHANGE, &m, 3));
    assert_false(guess_is_right(GUESS_CHANGE, &m, 4));
    m = move(10, 10.6, STEP_TP, 0.6); /* 6% slower: near the 5% edge */
    assert_true(guess_is_right(GUESS_CHANGE, &m, 1));
    assert_true(guess_is_right(GUESS_CHANGE, &m, 2));
}

/* The part that changed most in time, whichever way; a part within 10% of
 * it counts too; nothing changed: no part is right. */
static void test_guess_part(void **state)
{
    (void)state;
    GuessMove m = move(10, 9, STEP_TP, -3);
    m.delta_s[STEP_BUBBLE] = 2; /* grew, but less than TP fell */
    assert_int_equal(guess_answer(GUESS_PART, &m), STEP_TP);
    assert_true(guess_is_right(GUESS_PART, &m, STEP_TP));
    assert_false(guess_is_right(GUESS_PART, &m, STEP_BUBBLE));
    m.delta_s[STEP_BUBBLE] = 2.8; /* within 10% of 3 */
    assert_true(guess_is_right(GUESS_PART, &m, STEP_BUBBLE));
    assert_false(guess_is_right(GUESS_PART, &m, STEP_PART_COUNT));
    GuessMove none = move(10, 10, STEP_TP, 0);
    for (int k = 0; k < STEP_PART_COUNT; k++)
        assert_false(guess_is_right(GUESS_PART, &none, k));
    char buf[128];
    assert_string_equal(guess_outcome(GUESS_PART, false, &none, true, buf, sizeof buf),
                        "no part changed");
}

/* Serving asks about the parts of a token, from the two results. */
static void test_guess_serving_parts(void **state)
{
    (void)state;
    ServeResult a = {0}, b = {0};
    a.token_s = 10e-3;
    a.part_s[SERVE_WEIGHTS] = 6e-3;
    a.part_s[SERVE_NETWORK] = 4e-3;
    b.token_s = 4e-3;
    b.part_s[SERVE_WEIGHTS] = 4e-3;
    GuessMove m = guess_move_serve(&a, &b);
    assert_int_equal(m.n_parts, SERVE_PART_COUNT);
    assert_int_equal(guess_answer(GUESS_PART, &m), SERVE_NETWORK);
    assert_int_equal(guess_answer(GUESS_CHANGE, &m), 4);
    const char *labels[GUESS_MAX_CHOICES];
    assert_int_equal(guess_choices(GUESS_PART, true, labels, GUESS_MAX_CHOICES), SERVE_PART_COUNT);
    assert_string_equal(labels[SERVE_NETWORK], "network");
    assert_int_equal(guess_choices(GUESS_CHANGE, true, labels, GUESS_MAX_CHOICES), 5);
    char buf[128];
    assert_string_equal(guess_outcome(GUESS_CHANGE, true, &m, true, buf, sizeof buf),
                        "the time per token went 10.0 ms -> 4.00 ms: 2.5x faster");
    assert_string_equal(guess_outcome(GUESS_PART, true, &m, true, buf, sizeof buf),
                        "network changed most: -4.00 ms");
}

/* Training parts from two step results: every part's change. */
static void test_guess_from_steps(void **state)
{
    (void)state;
    StepResult a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.step_s = 16.4;
    a.part_s[STEP_COMPUTE] = 8.4;
    a.part_s[STEP_TP] = 8.0;
    b.step_s = 11.5;
    b.part_s[STEP_COMPUTE] = 8.4;
    b.part_s[STEP_TP] = 3.1;
    GuessMove m = guess_move_step(&a, &b);
    assert_int_equal(guess_answer(GUESS_PART, &m), STEP_TP);
    assert_int_equal(guess_answer(GUESS_CHANGE, &m), 3);
    char buf[128];
    assert_string_equal(guess_outcome(GUESS_CHANGE, false, &m, true, buf, sizeof buf),
                        "the step went 16.4 s -> 11.5 s: 1.4x faster");
}

/* The words a lesson writes. */
static void test_guess_words(void **state)
{
    (void)state;
    const char *at[] = {"any", "group", "swap", "degree", "micro", "domain", "system"};
    for (int i = 0; i < GUESS_AT_COUNT; i++) {
        GuessAt a;
        assert_true(guess_at_parse(at[i], &a));
        assert_int_equal(a, i);
        assert_string_equal(guess_at_name(a), at[i]);
    }
    GuessAt a;
    assert_false(guess_at_parse("Group", &a));
    assert_false(guess_at_parse(NULL, &a));
    GuessAsk k;
    assert_true(guess_ask_parse("part", &k) && k == GUESS_PART);
    assert_true(guess_ask_parse("change", &k) && k == GUESS_CHANGE);
    assert_false(guess_ask_parse("faster", &k));
    assert_true(guess_at_matches(GUESS_AT_ANY, GUESS_AT_SWAP));
    assert_true(guess_at_matches(GUESS_AT_GROUP, GUESS_AT_GROUP));
    assert_false(guess_at_matches(GUESS_AT_GROUP, GUESS_AT_DEGREE));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guess_change_buckets),
        cmocka_unit_test(test_guess_change_edges_forgive_rounding),
        cmocka_unit_test(test_guess_part),
        cmocka_unit_test(test_guess_serving_parts),
        cmocka_unit_test(test_guess_from_steps),
        cmocka_unit_test(test_guess_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
