/* SPDX-License-Identifier: MIT */
/* test_lesson_content — the checks of understanding in the shipped lessons
 * (lessons/NN-slug.lua) test what they claim to test:
 *
 *   - no quiz or predict page asks for a figure stated earlier: the correct
 *     choice's figures (a number with a unit, "9x", "44%") and a predict
 *     page's answer, written the ways the lessons write numbers (three
 *     significant digits as units_format prints them, trailing zeros
 *     dropped, two significant digits, whole numbers; in bits too for a
 *     bandwidth; "9x", "9 times" and "87.5%" for a count), appear neither
 *     on an earlier page (as the learner sees it drawn at 160x50, plus what
 *     shows later: quiz explanations, predict formulas, goals, hints) nor
 *     in the question itself nor in the lesson's menu line;
 *   - every quiz has at least 4 choices, each explained; the correct choice
 *     is the longest in at most a third of a lesson's quizzes, and when it
 *     gives a reason after a colon, a wrong one does too;
 *   - a miss on every predict page names something: a slip its feedback
 *     recognises (declared, or bits on a bandwidth page) or the largest of
 *     its terms; a page whose text gives a rate in bits (Gb/s) names the
 *     bits slip; a time, size or work answer is split into two or more
 *     terms that add up to it.
 *
 * Runs from the repository root and reads lessons/ and assets/ there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

// clang-format off
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include "base/utf8.h"
#include "draw/canvas.h"
#include "learn/predict.h"
#include "lesson/lesson.h"
#include "model/units.h"
#include "ui/screens.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LESSONS_DIR "lessons"
#define MAX_LESSONS 64
#define MAX_FIGS    64

typedef struct {
    int n;
    char path[MAX_LESSONS][300];
    Lesson *lesson[MAX_LESSONS];
} Track;

static int track_setup(void **state)
{
    setenv("SCALELAB_ASSETS", "assets", 1);
    Track *t = calloc(1, sizeof *t);
    if (!t || (t->n = tl_lesson_files(LESSONS_DIR, t->path, MAX_LESSONS)) < 0) {
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

/* ---- a growing text ---- */

typedef struct {
    char *s;
    size_t len, cap;
} Text;

static void text_add(Text *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n + 2 > b->cap) {
        b->cap = (b->len + n + 2) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len++] = '\n';
    b->s[b->len] = '\0';
}

/* ---- figures: a number and the unit after it ---- */

typedef struct {
    char num[32];
    char unit[12];
} Figure;

/* Longest first, so "GB/s" is taken before "GB". "x" and "%" follow the
 * number directly ("9x", "44%"); the others after a space or not. */
static const char *const fig_units[] = {
    "PFLOP/s", "TFLOP/s", "PFLOP", "TB/s", "GB/s", "MB/s", "Tb/s", "Gb/s", "Mb/s",
    "GiB",     "TiB",     "PB",    "TB",   "GB",   "MB",   "kB",   "ms",   "us",
    "µs",      "ns",      "MW",    "kW",   "W",    "s",    "%",    "x",    NULL};

static bool num_char(char c)
{
    return isdigit((unsigned char)c) || c == '.' || c == ',';
}

/* The unit at s (after the number and at most one space), or NULL; the
 * character after it must end the word. */
static const char *unit_at(const char *s, bool spaced)
{
    for (int u = 0; fig_units[u]; u++) {
        size_t n = strlen(fig_units[u]);
        bool tight = strcmp(fig_units[u], "x") == 0 || strcmp(fig_units[u], "%") == 0;
        if (spaced && tight && fig_units[u][0] == 'x')
            continue;
        if (strncmp(s, fig_units[u], n) != 0)
            continue;
        char after = s[n];
        if (isalnum((unsigned char)after) || after == '/' || (unsigned char)after >= 0x80)
            continue;
        return fig_units[u];
    }
    return NULL;
}

/* The figures of a text: "1.80 TB/s", "9x", "44%". */
static int figures_in(const char *text, Figure *out, int max)
{
    int n = 0;
    for (const char *p = text; *p && n < max; p++) {
        if (!isdigit((unsigned char)*p) ||
            (p > text && (num_char(p[-1]) || isalpha((unsigned char)p[-1]))))
            continue;
        const char *e = p;
        while (isdigit((unsigned char)*e) ||
               ((*e == '.' || *e == ',') && isdigit((unsigned char)e[1])))
            e++;
        const char *u = e;
        bool spaced = *u == ' ';
        if (spaced)
            u++;
        const char *unit = unit_at(u, spaced);
        if (unit && (size_t)(e - p) < sizeof out[0].num) {
            snprintf(out[n].num, sizeof out[n].num, "%.*s", (int)(e - p), p);
            snprintf(out[n].unit, sizeof out[n].unit, "%s", unit);
            n++;
        }
        p = e > p ? e - 1 : p;
    }
    return n;
}

/* Whether text holds number num followed by unit (or "µs" for "us"). */
static bool text_has(const char *text, const char *num, const char *unit)
{
    size_t nl = strlen(num);
    for (const char *p = strstr(text, num); p; p = strstr(p + 1, num)) {
        if (p > text && (num_char(p[-1]) || isalpha((unsigned char)p[-1])))
            continue;
        const char *e = p + nl;
        if (isdigit((unsigned char)*e) ||
            ((*e == '.' || *e == ',') && isdigit((unsigned char)e[1])))
            continue;
        bool spaced = *e == ' ';
        const char *u = unit_at(spaced ? e + 1 : e, spaced);
        if (u && (strcmp(u, unit) == 0 || (strcmp(unit, "us") == 0 && strcmp(u, "µs") == 0) ||
                  (strcmp(unit, "µs") == 0 && strcmp(u, "us") == 0)))
            return true;
        if (strcmp(unit, "x") == 0 && strncmp(e, " times", 6) == 0)
            return true;
    }
    return false;
}

/* A number string in the ways lessons print it: as written, without
 * trailing zeros, to two significant digits, whole. */
static int num_variants(const char *num, char out[4][32])
{
    char plain[32];
    size_t k = 0;
    for (const char *p = num; *p && k + 1 < sizeof plain; p++)
        if (*p != ',')
            plain[k++] = *p;
    plain[k] = '\0';
    int n = 0;
    snprintf(out[n++], 32, "%s", num);
    char trim[32];
    snprintf(trim, sizeof trim, "%s", plain);
    if (strchr(trim, '.')) {
        size_t len = strlen(trim);
        while (len > 0 && trim[len - 1] == '0')
            trim[--len] = '\0';
        if (len > 0 && trim[len - 1] == '.')
            trim[--len] = '\0';
    }
    if (strcmp(trim, num) != 0)
        snprintf(out[n++], 32, "%s", trim);
    double v = atof(plain);
    if (v > 0) {
        int mag = (int)floor(log10(v));
        int dec = 1 - mag > 0 ? 1 - mag : 0;
        double scale = pow(10, mag - 1);
        double r = round(v / scale) * scale;
        snprintf(out[n], 32, "%.*f", dec, r);
        if (strcmp(out[n], trim) != 0 && strcmp(out[n], num) != 0)
            n++;
        if (v >= 10) {
            snprintf(out[n], 32, "%.0f", v);
            bool dup = false;
            for (int i = 0; i < n; i++)
                dup = dup || strcmp(out[i], out[n]) == 0;
            n += !dup;
        }
    }
    return n;
}

/* The first variant of fig found in text, into where; false when none. */
static bool figure_stated(const char *text, const Figure *fig, char *where, size_t n)
{
    char v[4][32];
    int nv = num_variants(fig->num, v);
    for (int i = 0; i < nv; i++)
        if (text_has(text, v[i], fig->unit)) {
            snprintf(where, n, "%s%s%s", v[i],
                     strcmp(fig->unit, "x") && strcmp(fig->unit, "%") ? " " : "", fig->unit);
            return true;
        }
    return false;
}

/* ---- what a learner has seen before page p ---- */

static void page_drawn(Lesson *l, const char *path, int p, bool ascii, Text *out)
{
    Canvas *c = canvas_new(160, 50);
    assert_non_null(c);
    canvas_set_ascii(c, ascii);
    PageState ps;
    ScreenCursor cur;
    screen_page_init(&ps, l, path, NULL, NULL, p);
    screen_page_draw(c, &ps, &cur);
    char *s = canvas_to_text(c);
    assert_non_null(s);
    text_add(out, s);
    free(s);
    screen_page_fini(&ps);
    canvas_free(c);
}

/* What page q shows at some point: drawn as it opens, and what comes later
 * (explanations, the formula, the goal, the hints, a written debrief). */
static void page_seen(Lesson *l, const char *path, int q, Text *out)
{
    page_drawn(l, path, q, false, out);
    page_drawn(l, path, q, true, out);
    text_add(out, lesson_page_text(l, q));
    switch (lesson_page_kind(l, q)) {
    case PAGE_QUIZ:
        for (int i = 0; i < lesson_quiz_choice_count(l, q); i++) {
            text_add(out, lesson_quiz_choice(l, q, i));
            text_add(out, lesson_quiz_explanation(l, q, i));
        }
        break;
    case PAGE_PREDICT: {
        text_add(out, lesson_predict_question(l, q));
        text_add(out, lesson_predict_formula(l, q));
        PredictSpec sp;
        char ans[40];
        if (lesson_predict_spec(l, q, &sp)) {
            text_add(out, predict_format(&sp, sp.answer, true, ans, sizeof ans));
            text_add(out, predict_format(&sp, sp.answer, false, ans, sizeof ans));
        }
        break;
    }
    case PAGE_SCENARIO:
        text_add(out, lesson_scenario_goal_text(l, q));
        for (int i = 0; i < lesson_scenario_hint_count(l, q); i++)
            text_add(out, lesson_scenario_hint(l, q, i));
        text_add(out, lesson_scenario_debrief(l, q));
        break;
    default:
        break;
    }
}

/* Everything shown before page p, the lesson's menu line, and page p's own
 * question (the choices and the answer excluded). */
static void seen_before(Lesson *l, const char *path, int p, Text *out)
{
    text_add(out, lesson_summary(l));
    text_add(out, lesson_title(l));
    for (int q = 0; q < p; q++)
        page_seen(l, path, q, out);
    text_add(out, lesson_page_text(l, p));
    if (lesson_page_kind(l, p) == PAGE_PREDICT)
        text_add(out, lesson_predict_question(l, p));
}

/* ---- the figures of an answer ---- */

static int add_formatted(const char *s, Figure *out, int n, int max)
{
    return n + figures_in(s, out + n, max - n);
}

/* A predict answer written the ways lessons write it. */
static int answer_figures(const PredictSpec *sp, Figure *out, int max)
{
    char buf[64];
    int n = 0;
    n = add_formatted(predict_format(sp, sp->answer, true, buf, sizeof buf), out, n, max);
    n = add_formatted(predict_format(sp, sp->answer, false, buf, sizeof buf), out, n, max);
    if (strcmp(sp->unit, "B/s") == 0 || strcmp(sp->unit, "b/s") == 0) {
        n = add_formatted(units_format_bits(sp->answer, buf, sizeof buf), out, n, max);
        n = add_formatted(units_format(UNITS_BANDWIDTH, sp->answer, true, buf, sizeof buf), out, n,
                          max);
    }
    if (strcmp(sp->unit, "") == 0) {
        static const char *const fmts[] = {"%.3gx", "%.2gx", "%.1fx", "%.0fx"};
        for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
            snprintf(buf, sizeof buf, fmts[i], sp->answer);
            if (!strchr(buf, 'e'))
                n = add_formatted(buf, out, n, max);
        }
        if (sp->answer < 1) {
            static const char *const pct[] = {"%.3g%%", "%.1f%%", "%.0f%%"};
            for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++) {
                snprintf(buf, sizeof buf, pct[i], 100 * sp->answer);
                n = add_formatted(buf, out, n, max);
            }
        }
    }
    return n;
}

/* ---- the checks ---- */

typedef struct {
    int problems;
} Report;

static void problem(Report *r, const char *path, int page, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void problem(Report *r, const char *path, int page, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (page < 0)
        print_error("%s: %s\n", path, msg);
    else
        print_error("%s page %d: %s\n", path, page + 1, msg);
    r->problems++;
}

static void check_no_earlier_figure(Report *r, Lesson *l, const char *path, int p)
{
    Figure figs[MAX_FIGS];
    int n = 0;
    if (lesson_page_kind(l, p) == PAGE_QUIZ) {
        for (int i = 0; i < lesson_quiz_choice_count(l, p); i++)
            if (lesson_quiz_is_correct(l, p, i))
                n += figures_in(lesson_quiz_choice(l, p, i), figs + n, MAX_FIGS - n);
    } else {
        PredictSpec sp;
        assert_true(lesson_predict_spec(l, p, &sp));
        n = answer_figures(&sp, figs, MAX_FIGS);
    }
    if (n == 0)
        return;
    Text seen = {0};
    seen_before(l, path, p, &seen);
    for (int i = 0; i < n; i++) {
        char where[64];
        if (figure_stated(seen.s, &figs[i], where, sizeof where)) {
            problem(r, path, p, "asks for %s, stated earlier in the lesson or the question",
                    where);
            break;
        }
    }
    free(seen.s);
}

static bool has_reason(const char *s)
{
    return strchr(s, ':') || strstr(s, " because ");
}

/* Returns whether the correct choice is the longest (a tie is no cue). */
static bool check_quiz(Report *r, Lesson *l, const char *path, int p)
{
    int n = lesson_quiz_choice_count(l, p);
    if (n < 4)
        problem(r, path, p, "a quiz of %d choices: give at least 4, each a real misconception", n);
    int right_w = 0, wrong_w = 0;
    bool right_reason = false, wrong_reason = false;
    for (int i = 0; i < n; i++) {
        const char *t = lesson_quiz_choice(l, p, i);
        int w = utf8_width(t);
        if (!lesson_quiz_explanation(l, p, i)[0])
            problem(r, path, p, "choice %d has no explanation", i + 1);
        if (lesson_quiz_is_correct(l, p, i)) {
            right_w = w > right_w ? w : right_w;
            right_reason = right_reason || has_reason(t);
        } else {
            wrong_w = w > wrong_w ? w : wrong_w;
            wrong_reason = wrong_reason || has_reason(t);
        }
    }
    if (right_reason && !wrong_reason)
        problem(r, path, p, "only the correct choice gives a reason (after a colon)");
    check_no_earlier_figure(r, l, path, p);
    return right_w > wrong_w;
}

static bool text_has_bit_rate(const char *s)
{
    return strstr(s, "Gb/s") || strstr(s, "Tb/s") || strstr(s, "Mb/s") || strstr(s, "Gbps");
}

static void check_predict(Report *r, Lesson *l, const char *path, int p)
{
    PredictSpec sp;
    assert_true(lesson_predict_spec(l, p, &sp));
    bool any = predict_dominant_term(&sp) >= 0;
    for (int k = 0; k < PREDICT_SLIP_KIND_COUNT; k++)
        any = any || predict_slip_in_play(&sp, (PredictSlipKind)k);
    if (!any)
        problem(r, path, p, "a miss would name nothing: declare its slips or its terms");
    if ((text_has_bit_rate(lesson_page_text(l, p)) ||
         text_has_bit_rate(lesson_predict_question(l, p))) &&
        !predict_slip_in_play(&sp, PREDICT_SLIP_BITS))
        problem(r, path, p, "the page gives a rate in bits but does not name the bits slip");
    bool summed =
        strcmp(sp.unit, "s") == 0 || strcmp(sp.unit, "B") == 0 || strcmp(sp.unit, "FLOP") == 0;
    if (summed) {
        double sum = 0;
        for (int i = 0; i < sp.n_terms; i++)
            sum += sp.terms[i].value;
        if (sp.n_terms < 2 || fabs(sum - sp.answer) > 0.01 * sp.answer)
            problem(r, path, p, "%d terms adding to %g of %g: split the answer into its terms",
                    sp.n_terms, sum, sp.answer);
    }
    check_no_earlier_figure(r, l, path, p);
}

static void test_lesson_content_checks_test(void **state)
{
    Track *t = *state;
    Report r = {0};
    assert_true(t->n > 0);
    for (int i = 0; i < t->n; i++) {
        Lesson *l = t->lesson[i];
        if (!l) {
            problem(&r, t->path[i], -1, "does not load");
            continue;
        }
        int quizzes = 0, longest = 0;
        for (int p = 0; p < lesson_page_count(l); p++) {
            PageKind k = lesson_page_kind(l, p);
            if (k == PAGE_QUIZ) {
                quizzes++;
                longest += check_quiz(&r, l, t->path[i], p);
            } else if (k == PAGE_PREDICT) {
                check_predict(&r, l, t->path[i], p);
            }
        }
        if (longest * 3 > quizzes)
            problem(&r, t->path[i], -1,
                    "the correct choice is the longest in %d of %d quizzes (at most a third)",
                    longest, quizzes);
    }
    assert_int_equal(r.problems, 0);
}

/* The checker itself: figures are found the ways lessons write them, and
 * not inside other numbers. */
static void test_lesson_content_figures(void **state)
{
    (void)state;
    Figure f[8];
    assert_int_equal(figures_in("NVLink 1.80 TB/s, 9x less; 44% idle, DP 8", f, 8), 3);
    assert_string_equal(f[0].num, "1.80");
    assert_string_equal(f[0].unit, "TB/s");
    assert_string_equal(f[1].unit, "x");
    assert_string_equal(f[2].unit, "%");
    assert_int_equal(figures_in("TP 8 x PP 9, 1,152 GPUs, x86", f, 8), 0);
    Figure tb = {"1.80", "TB/s"};
    char where[64];
    assert_true(figure_stated("each GPU has 1.8 TB/s both ways", &tb, where, sizeof where));
    assert_string_equal(where, "1.8 TB/s");
    assert_false(figure_stated("each GPU has 11.8 TB/s", &tb, where, sizeof where));
    assert_false(figure_stated("1.80 TB of HBM", &tb, where, sizeof where));
    Figure gb = {"42.9", "GB"};
    assert_true(figure_stated("about 43 GB per GPU", &gb, where, sizeof where));
    assert_false(figure_stated("about 43 GB/s per GPU", &gb, where, sizeof where));
    Figure x = {"9", "x"};
    assert_true(figure_stated("it drops 9 times", &x, where, sizeof where));
    assert_false(figure_stated("a 9 x 8 grid", &x, where, sizeof where));
    Figure us = {"5.00", "ms"};
    assert_true(figure_stated("about 5 ms one way", &us, where, sizeof where));
    PredictSpec sh = {.unit = "", .answer = 0.875};
    Figure a[MAX_FIGS];
    int n = answer_figures(&sh, a, MAX_FIGS);
    bool pct = false;
    for (int i = 0; i < n; i++)
        pct = pct || (strcmp(a[i].num, "87.5") == 0 && strcmp(a[i].unit, "%") == 0);
    assert_true(pct);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson_content_figures),
        cmocka_unit_test_setup_teardown(test_lesson_content_checks_test, track_setup,
                                        track_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
