/* SPDX-License-Identifier: MIT */
/* test_predict — grading typed answers on predict pages, and the order of
 * quiz choices. Every expected verdict is worked by hand in the comment
 * beside it: ratio = typed / answer, right within the tolerance, a slip
 * within the tolerance of the answer times or divided by the slip's factor
 * (8 for bits, 2 for directions and FP32, the GPUs of a server or rack),
 * named only where the page involves it, "by about N%" under a factor of
 * 2, "a factor of" above. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "learn/predict.h"
#include "learn/quiz.h"

static void check_grade(const PredictSpec *p, const char *typed, PredictVerdict want,
                        const char *must_contain, const char *file, int line)
{
    PredictGrade g;
    PredictVerdict v = predict_grade(p, typed, true, &g);
    bool control = false;
    for (const char *q = g.msg; *q; q++)
        control |= (unsigned char)*q < 0x20 || *q == 0x7f;
    if (v != want || g.verdict != v || !g.msg[0] || control ||
        (must_contain && !strstr(g.msg, must_contain))) {
        print_error("%s:%d: '%s': verdict %d want %d, msg '%s' (must contain '%s')\n", file, line,
                    typed, v, want, g.msg, must_contain ? must_contain : "");
        fail();
    }
}
#define GRADE(p, typed, want, text) check_grade(p, typed, want, text, __FILE__, __LINE__)

static void test_predict_time_with_units(void **state)
{
    (void)state;
    PredictSpec p = {.unit = "s", .answer = 0.3e-3, .tolerance = 0.2};
    GRADE(&p, "0.3 ms", PREDICT_RIGHT, "Right");
    GRADE(&p, "300 us", PREDICT_RIGHT, NULL);                   /* same quantity */
    GRADE(&p, " 0.35ms ", PREDICT_RIGHT, NULL);                 /* +16.7% < 20% */
    GRADE(&p, "0.25 ms", PREDICT_RIGHT, NULL);                  /* -16.7% */
    GRADE(&p, "0.37 ms", PREDICT_TOO_HIGH, "by about 23%");     /* 0.37/0.3 = 1.233 */
    GRADE(&p, "0.2 ms", PREDICT_TOO_LOW, "by about 33%");       /* 0.2/0.3 = 0.667 */
    GRADE(&p, "1 ms", PREDICT_TOO_HIGH, "factor of about 3.3"); /* 1/0.3 */
    GRADE(&p, "30 us", PREDICT_TOO_LOW, "factor of about 10");  /* 0.3/0.03 */
    GRADE(&p, "0 s", PREDICT_TOO_LOW, "above zero");
    /* No bits-for-bytes on a time: 2.4 ms is simply 8x too high. */
    GRADE(&p, "2.4 ms", PREDICT_TOO_HIGH, "factor of about 8.0");
}

static void test_predict_unreadable_costs_no_try(void **state)
{
    (void)state;
    PredictSpec p = {.unit = "s", .answer = 0.3e-3};
    GRADE(&p, "0.0003", PREDICT_UNREADABLE, "needs a unit");
    GRADE(&p, "0.3 GB", PREDICT_UNREADABLE, "a size");
    GRADE(&p, "fast", PREDICT_UNREADABLE, "not a number");
    GRADE(&p, "3 parsecs", PREDICT_UNREADABLE, "unknown unit");
    GRADE(&p, "", PREDICT_UNREADABLE, NULL);
    GRADE(&p, "-1 ms", PREDICT_UNREADABLE, "negative");
    GRADE(&p, "1\x1b[2J ms", PREDICT_UNREADABLE, NULL); /* escapes never reach the message */
    assert_false(predict_counts_as_try(PREDICT_UNREADABLE));
    assert_true(predict_counts_as_try(PREDICT_TOO_LOW));
    assert_true(predict_counts_as_try(PREDICT_SLIP));
}

static void test_predict_bits_for_bytes(void **state)
{
    (void)state;
    /* 450 GB/s asked in bytes. */
    PredictSpec p = {.unit = "B/s", .answer = 450e9};
    GRADE(&p, "450 GB/s", PREDICT_RIGHT, NULL);
    GRADE(&p, "3.6 Tb/s", PREDICT_RIGHT, NULL);                         /* 3.6e12 / 8 = 450e9 */
    GRADE(&p, "3600 GB/s", PREDICT_SLIP, "8x too high");                /* x8 */
    GRADE(&p, "450 Gb/s", PREDICT_SLIP, "in bits");                     /* 56.25 GB/s: 1/8 */
    GRADE(&p, "56 GB/s", PREDICT_SLIP, "8x too low");                   /* 450/8 = 56.25 */
    GRADE(&p, "200 GB/s", PREDICT_TOO_LOW, "by a factor of about 2.2"); /* 450/200 */
    GRADE(&p, "71 GB", PREDICT_UNREADABLE, "a size");
    /* 800 Gb/s asked in bits: the answer is still bytes/s (100e9). */
    PredictSpec b = {.unit = "b/s", .answer = 100e9};
    GRADE(&b, "800 Gb/s", PREDICT_RIGHT, "800 Gb/s");
    GRADE(&b, "100 GB/s", PREDICT_RIGHT, NULL);                /* the same, written in bytes */
    GRADE(&b, "800 GB/s", PREDICT_SLIP, "in bytes");           /* 800e9 B/s = x8 */
    GRADE(&b, "400G", PREDICT_TOO_LOW, "factor of about 2.0"); /* 50e9 B/s: 1/2 */
    GRADE(&b, "600 Gb/s", PREDICT_TOO_LOW, "by about 25%");    /* 75e9 / 100e9 */
    char buf[32];
    assert_string_equal(predict_format(&b, 100e9, true, buf, sizeof buf), "800 Gb/s");
    /* Sizes: 71 GB; 66 GiB = 70.87e9 B is within 20%. */
    PredictSpec s = {.unit = "B", .answer = 71e9};
    GRADE(&s, "71 GB", PREDICT_RIGHT, NULL);
    GRADE(&s, "66 GiB", PREDICT_RIGHT, NULL);
    GRADE(&s, "568 Gb", PREDICT_RIGHT, NULL);    /* 568 / 8 = 71 GB, converted right */
    GRADE(&s, "71 Gb", PREDICT_SLIP, "in bits"); /* 8.875 GB: 1/8, and written in bits */
}

/* A memory question with no bits in it never hears "bits for bytes?": 568 GB
 * is 8x 71 GB, but nothing on the page is in bits. */
static void test_predict_no_bits_on_a_memory_page(void **state)
{
    (void)state;
    PredictSpec s = {.unit = "B", .answer = 71e9};
    GRADE(&s, "568 GB", PREDICT_TOO_HIGH, "factor of about 8.0");
    GRADE(&s, "8.9 GB", PREDICT_TOO_LOW, "factor of about 8.0");
    PredictGrade g;
    predict_grade(&s, "568 GB", true, &g);
    assert_null(strstr(g.msg, "bits"));
    assert_false(predict_slip_in_play(&s, PREDICT_SLIP_BITS));
    PredictSpec bw = {.unit = "B/s", .answer = 1};
    assert_true(predict_slip_in_play(&bw, PREDICT_SLIP_BITS)); /* implied on a bandwidth */
}

/* A link time where a Gb/s NIC is in play: 0.5 ms at the right rate; a
 * learner who reads 400 Gb/s as 400 GB/s gets 8x too little time. */
static void test_predict_bits_on_a_time_page(void **state)
{
    (void)state;
    PredictSlip bits[] = {{PREDICT_SLIP_BITS, 0}};
    PredictSpec t = {.unit = "s", .answer = 0.5e-3, .slips = bits, .n_slips = 1};
    GRADE(&t, "62.5 us", PREDICT_SLIP, "8x too low: bits for bytes?"); /* 0.5 ms / 8 */
    GRADE(&t, "4.2 ms", PREDICT_SLIP, "8x too high: bits for bytes?"); /* 8.4x: 5% off 8 */
    GRADE(&t, "0.5 ms", PREDICT_RIGHT, NULL);
    GRADE(&t, "2 ms", PREDICT_TOO_HIGH, "factor of about 4.0"); /* no slip of 4 */
}

/* Ratios: a GB300's 900 GB/s NVLink against its 100 GB/s NIC is 9x; the
 * slips are 18 (both directions over one), 1.125 (900 over 800, bits
 * unconverted), 2.25 (1.8 over 0.8: both at once), 72 (bits the other way). */
static void test_predict_ratio_slips(void **state)
{
    (void)state;
    PredictSlip sl[] = {{PREDICT_SLIP_BITS, 0}, {PREDICT_SLIP_DIRECTIONS, 0}};
    PredictSpec r = {.unit = "", .answer = 9, .tolerance = 0.1, .slips = sl, .n_slips = 2};
    GRADE(&r, "9x", PREDICT_RIGHT, NULL);
    GRADE(&r, "18", PREDICT_SLIP, "2x too high: both directions for one?");
    GRADE(&r, "4.5x", PREDICT_SLIP, "2x too low: one direction for both?");
    GRADE(&r, "1.125", PREDICT_SLIP, "8x too low: bits for bytes?");
    GRADE(&r, "72 times", PREDICT_SLIP, "8x too high: bits for bytes?");
    GRADE(&r, "2.25", PREDICT_SLIP, "bits for bytes, and both directions for one?");
    GRADE(&r, "36", PREDICT_SLIP, "Two slips at once"); /* 9 x 8 / 2 */
    GRADE(&r, "12", PREDICT_TOO_HIGH, "by about 33%");  /* 12 / 9: no slip of 4/3 */
    PredictGrade g;
    predict_grade(&r, "2.25", true, &g);
    assert_int_equal(g.n_slip, 2);
    assert_int_equal(g.slip[0], PREDICT_SLIP_BITS);
    assert_int_equal(g.slip[1], PREDICT_SLIP_DIRECTIONS);
    /* Without the slips declared, 18 is just too high. */
    PredictSpec plain = {.unit = "", .answer = 9, .tolerance = 0.1};
    GRADE(&plain, "18", PREDICT_TOO_HIGH, "factor of about 2.0");
    /* TPU v5p: 600 GB/s ICI over a 50 Gb/s DCN is 96x; 12 forgets the 8. */
    PredictSpec tpu = {.unit = "", .answer = 96, .tolerance = 0.1, .slips = sl, .n_slips = 1};
    GRADE(&tpu, "12", PREDICT_SLIP, "8x too low: bits for bytes?");
}

/* Per GPU against per server or rack, and FP32 against BF16 bytes. */
static void test_predict_group_and_fp32_slips(void **state)
{
    (void)state;
    /* A GB200 NVL72 rack's egress, 72 x 50 GB/s = 3.6 TB/s. */
    PredictSlip rack[] = {{PREDICT_SLIP_RACK, 72}};
    PredictSpec eg = {.unit = "B/s", .answer = 3.6e12, .slips = rack, .n_slips = 1};
    GRADE(&eg, "50 GB/s", PREDICT_SLIP, "72x too low: per GPU for per rack?");
    GRADE(&eg, "400 Gb/s", PREDICT_SLIP, "per GPU for per rack"); /* 50 GB/s, in bits */
    GRADE(&eg, "28.8 TB/s", PREDICT_SLIP, "8x too high: bits for bytes?");
    GRADE(&eg, "3.6 TB/s", PREDICT_RIGHT, NULL);
    /* One GPU's share, 10 GB; a server of 8 holds 80 GB. */
    PredictSlip srv[] = {{PREDICT_SLIP_SERVER, 8}};
    PredictSpec one = {.unit = "B", .answer = 10e9, .slips = srv, .n_slips = 1};
    GRADE(&one, "80 GB", PREDICT_SLIP, "8x too high: per server for per GPU?");
    GRADE(&one, "80 GB", PREDICT_SLIP, "holds 8 GPUs");
    /* Llama 3 70B weights in BF16: 141 GB; 4 bytes each gives 282 GB. */
    PredictSlip fp[] = {{PREDICT_SLIP_FP32, 0}};
    PredictSpec w = {.unit = "B", .answer = 141e9, .tolerance = 0.1, .slips = fp, .n_slips = 1};
    GRADE(&w, "282 GB", PREDICT_SLIP, "2x too high: FP32 for BF16 bytes?");
    GRADE(&w, "1.13 TB", PREDICT_TOO_HIGH, "factor of about 8.0"); /* no bits here */
}

/* Shares: "87.5%" is 0.875; 87.5 alone reads as 87.5 times, sent back
 * without costing a try. */
static void test_predict_percent_for_shares(void **state)
{
    (void)state;
    PredictSpec sh = {.unit = "", .answer = 0.875, .tolerance = 0.1};
    GRADE(&sh, "87.5%", PREDICT_RIGHT, NULL);
    GRADE(&sh, " 88 % ", PREDICT_RIGHT, NULL);
    GRADE(&sh, "0.875", PREDICT_RIGHT, NULL);
    GRADE(&sh, "87.5", PREDICT_UNREADABLE, "87.5%");
    GRADE(&sh, "50%", PREDICT_TOO_LOW, "by about 43%"); /* 0.5 / 0.875 = 0.571 */
    GRADE(&sh, "%", PREDICT_UNREADABLE, NULL);
    GRADE(&sh, "0.9", PREDICT_RIGHT, "0.9 (90%)");
    char buf[32];
    assert_string_equal(predict_format(&sh, 0.875, true, buf, sizeof buf), "0.875 (87.5%)");
    /* The other part of the split: 25% for 75% outside. */
    PredictSlip comp[] = {{PREDICT_SLIP_COMPLEMENT, 0}};
    PredictSpec out = {.unit = "", .answer = 0.75, .tolerance = 0.1, .slips = comp, .n_slips = 1};
    GRADE(&out, "25%", PREDICT_SLIP, "Too low: the other part of the whole?");
    GRADE(&out, "0.26", PREDICT_SLIP, "add up to the whole");
    GRADE(&out, "75%", PREDICT_RIGHT, NULL);
    GRADE(&out, "40%", PREDICT_TOO_LOW, NULL); /* neither 75% nor 25% */
    /* A ratio above 1 typed as a percentage is still that ratio. */
    PredictSpec r = {.unit = "", .answer = 9};
    GRADE(&r, "900%", PREDICT_RIGHT, NULL);
    GRADE(&r, "9", PREDICT_RIGHT, NULL);
    /* Percent signs on other kinds are not quantities. */
    PredictSpec t = {.unit = "s", .answer = 1};
    GRADE(&t, "50%", PREDICT_UNREADABLE, NULL);
}

static void test_predict_other_units_and_tolerance(void **state)
{
    (void)state;
    PredictSpec w = {.unit = "W", .answer = 120e3};
    GRADE(&w, "120 kW", PREDICT_RIGHT, NULL);
    GRADE(&w, "0.12 MW", PREDICT_RIGHT, NULL);
    GRADE(&w, "1.2 MW", PREDICT_TOO_HIGH, "factor of about 10");
    GRADE(&w, "960 kW", PREDICT_TOO_HIGH, NULL); /* x8 but power has no bits */
    PredictSpec f = {.unit = "FLOP", .answer = 3.2e15};
    GRADE(&f, "3.2 PFLOP", PREDICT_RIGHT, NULL);
    GRADE(&f, "3.2 PFLOP/s", PREDICT_UNREADABLE, "compute rate");
    PredictSpec r = {.unit = "FLOP/s", .answer = 989e12};
    GRADE(&r, "989 TFLOPS", PREDICT_RIGHT, NULL);
    PredictSpec n = {.unit = "", .answer = 72};
    GRADE(&n, "72", PREDICT_RIGHT, NULL);
    GRADE(&n, "72 GB", PREDICT_UNREADABLE, NULL);
    GRADE(&n, "72x", PREDICT_RIGHT, NULL); /* a ratio as people write it */
    GRADE(&n, "72 \xc3\x97", PREDICT_RIGHT, NULL);
    GRADE(&n, "36 times", PREDICT_TOO_LOW, "factor of about 2.0");
    GRADE(&n, "x", PREDICT_UNREADABLE, NULL);
    /* Tolerance: default 20%; 5% set by the author. */
    PredictSpec d = {.unit = "s", .answer = 1};
    GRADE(&d, "1.19 s", PREDICT_RIGHT, NULL);
    GRADE(&d, "1.21 s", PREDICT_TOO_HIGH, "21%");
    PredictSpec t = {.unit = "s", .answer = 1, .tolerance = 0.05};
    GRADE(&t, "1.04 s", PREDICT_RIGHT, NULL);
    GRADE(&t, "1.06 s", PREDICT_TOO_HIGH, "6%");
}

static void test_predict_names_dominant_term_never_answer(void **state)
{
    (void)state;
    PredictTerm terms[] = {{"latency", 2e-6}, {"bandwidth", 2.2e-3}};
    PredictSpec p = {.unit = "s", .answer = 2.202e-3, .terms = terms, .n_terms = 2};
    assert_int_equal(predict_dominant_term(&p), 1);
    GRADE(&p, "20 us", PREDICT_TOO_LOW, "largest term here is bandwidth");
    PredictGrade g;
    predict_grade(&p, "20 us", true, &g);
    assert_null(strstr(g.msg, "2.20")); /* the answer is not given away */
    PredictSpec one = {.unit = "s", .answer = 1, .terms = terms, .n_terms = 1};
    assert_int_equal(predict_dominant_term(&one), -1);
    /* Two equal halves (forward and backward): no term is named. */
    PredictTerm halves[] = {{"forward", 1}, {"backward", 1.2}};
    PredictSpec h = {.unit = "s", .answer = 2.2, .terms = halves, .n_terms = 2};
    assert_int_equal(predict_dominant_term(&h), -1); /* 1.2 < 1.25 x 1 */
    predict_grade(&h, "1 ms", true, &g);
    assert_null(strstr(g.msg, "largest"));
    halves[1].value = 1.3;
    assert_int_equal(predict_dominant_term(&h), 1); /* 1.3 >= 1.25 x 1 */
}

static void test_predict_spec_check(void **state)
{
    (void)state;
    char err[200];
    PredictTerm bad[] = {{"latency", -1}};
    PredictTerm noname[] = {{"", 1}};
    PredictSlip twice[] = {{PREDICT_SLIP_BITS, 0}, {PREDICT_SLIP_BITS, 0}};
    PredictSlip small[] = {{PREDICT_SLIP_RACK, 1}};
    PredictSlip unknown[] = {{PREDICT_SLIP_KIND_COUNT, 0}};
    PredictSlip comp[] = {{PREDICT_SLIP_COMPLEMENT, 0}};
    PredictSpec ok = {.unit = "B/s", .answer = 1};
    assert_true(predict_spec_check(&ok, err, sizeof err));
    PredictSpec cases[] = {
        {.unit = "GB", .answer = 1},
        {.unit = "s", .answer = 0},
        {.unit = "s", .answer = NAN},
        {.unit = "s", .answer = INFINITY},
        {.unit = "s", .answer = 1, .tolerance = 1.5},
        {.unit = "s", .answer = 1, .tolerance = -0.1},
        {.unit = "s", .answer = 1, .terms = bad, .n_terms = 1},
        {.unit = "s", .answer = 1, .terms = noname, .n_terms = 1},
        {.unit = NULL, .answer = 1},
        {.unit = "s", .answer = 1, .slips = twice, .n_slips = 2},
        {.unit = "s", .answer = 1, .slips = small, .n_slips = 1},
        {.unit = "s", .answer = 1, .slips = unknown, .n_slips = 1},
        {.unit = "s", .answer = 1, .slips = NULL, .n_slips = 1},
        {.unit = "s", .answer = 0.5, .slips = comp, .n_slips = 1}, /* complement: a share only */
        {.unit = "", .answer = 2, .slips = comp, .n_slips = 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = '\0';
        assert_false(predict_spec_check(&cases[i], err, sizeof err));
        assert_true(err[0] != '\0');
    }
}

static bool is_permutation(const int *o, int n)
{
    int seen[64] = {0};
    for (int i = 0; i < n; i++) {
        if (o[i] < 0 || o[i] >= n || seen[o[i]])
            return false;
        seen[o[i]] = 1;
    }
    return true;
}

static void test_quiz_order_deterministic_per_seed(void **state)
{
    (void)state;
    int a[5], b[5];
    quiz_order(12345, "two-ways-to-grow", 7, 5, a);
    quiz_order(12345, "two-ways-to-grow", 7, 5, b);
    assert_true(is_permutation(a, 5));
    assert_memory_equal(a, b, sizeof a);
    /* Another seed, page or lesson: another order for most of 50 seeds. */
    int same_seed = 0, same_page = 0, same_lesson = 0;
    for (uint64_t s = 1; s <= 50; s++) {
        quiz_order(s, "x", 3, 5, a);
        quiz_order(s + 1000, "x", 3, 5, b);
        same_seed += memcmp(a, b, sizeof a) == 0;
        quiz_order(s, "x", 4, 5, b);
        same_page += memcmp(a, b, sizeof a) == 0;
        quiz_order(s, "y", 3, 5, b);
        same_lesson += memcmp(a, b, sizeof a) == 0;
    }
    /* 120 orders: by chance about 50/120 < 1 would match. */
    assert_true(same_seed <= 3);
    assert_true(same_page <= 3);
    assert_true(same_lesson <= 3);
}

static void test_quiz_order_moves_the_right_choice(void **state)
{
    (void)state;
    /* Choice 0 (where authors tend to write the right one) lands in every
     * position of a 4-choice quiz, roughly evenly, over 400 seeds. */
    int where[4] = {0};
    for (uint64_t s = 0; s < 400; s++) {
        int o[4];
        quiz_order(s * 0x9e3779b9ULL, "lesson", 2, 4, o);
        assert_true(is_permutation(o, 4));
        for (int k = 0; k < 4; k++)
            if (o[k] == 0)
                where[k]++;
    }
    for (int k = 0; k < 4; k++)
        assert_true(where[k] > 60 && where[k] < 140); /* 100 expected */
    int one[1] = {-1};
    quiz_order(1, NULL, 0, 1, one);
    assert_int_equal(one[0], 0);
    quiz_order(1, "x", 0, 0, NULL); /* nothing to do, no crash */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predict_time_with_units),
        cmocka_unit_test(test_predict_unreadable_costs_no_try),
        cmocka_unit_test(test_predict_bits_for_bytes),
        cmocka_unit_test(test_predict_no_bits_on_a_memory_page),
        cmocka_unit_test(test_predict_bits_on_a_time_page),
        cmocka_unit_test(test_predict_ratio_slips),
        cmocka_unit_test(test_predict_group_and_fp32_slips),
        cmocka_unit_test(test_predict_percent_for_shares),
        cmocka_unit_test(test_predict_other_units_and_tolerance),
        cmocka_unit_test(test_predict_names_dominant_term_never_answer),
        cmocka_unit_test(test_predict_spec_check),
        cmocka_unit_test(test_quiz_order_deterministic_per_seed),
        cmocka_unit_test(test_quiz_order_moves_the_right_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
