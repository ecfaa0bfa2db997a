/* SPDX-License-Identifier: MIT */
/* test_lesson — loading lessons, reading pages, goals, `check` problems, and
 * the hostile lesson files of tests/lessons/hostile/ (each refused with
 * file:line, in bounded time, Lua stack balanced). The example lesson is
 * what `scalelab new` writes from assets/new-lesson.lua, made once for the
 * whole program; the guide's copies of it and of tests/lessons/exercises.lua
 * are kept equal to their files.
 */
#include "base/clock.h"
#include "cmd/cli.h"
#include "learn/quiz.h"
#include "lesson/lesson.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h> /* after the three above, which it needs */

#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOSTILE "tests/lessons/hostile/"

/* The skeleton as `scalelab new DIR/skeleton.lua` writes it: id "skeleton",
 * title "Skeleton". */
static char example_dir[64], EXAMPLE[96];

static int make_example(void **state)
{
    (void)state;
    setenv("SCALELAB_ASSETS", "assets", 1);
    if (!tl_tmpdir_make(example_dir, sizeof example_dir, "lesson"))
        return -1;
    snprintf(EXAMPLE, sizeof EXAMPLE, "%s/skeleton.lua", example_dir);
    char *argv[] = {"new", EXAMPLE, NULL};
    const TlRun *r = tl_run(cmd_new, 2, argv);
    if (r->status != 0)
        print_error("scalelab new: %s\n", r->err);
    return r->status;
}

static int remove_example(void **state)
{
    (void)state;
    return tl_tmpdir_remove(example_dir) ? 0 : -1;
}

static void test_lesson_example_header_and_pages(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(EXAMPLE, err, sizeof err);
    if (!l)
        print_error("%s\n", err);
    assert_non_null(l);
    assert_string_equal(lesson_id(l), "skeleton");
    assert_string_equal(lesson_title(l), "Skeleton");
    assert_string_equal(lesson_track(l), "Drafts");
    assert_int_equal(lesson_order(l), 100);
    assert_int_equal(lesson_minutes(l), 5);
    assert_int_equal(lesson_page_count(l), 6);
    assert_int_equal(lesson_page_kind(l, 0), PAGE_TEXT);
    assert_int_equal(lesson_page_kind(l, 1), PAGE_DIAGRAM);
    assert_int_equal(lesson_page_kind(l, 2), PAGE_SCENARIO);
    assert_int_equal(lesson_page_kind(l, 3), PAGE_QUIZ);
    assert_int_equal(lesson_page_kind(l, 4), PAGE_PREDICT);
    assert_int_equal(lesson_page_kind(l, 5), PAGE_TEXT);
    /* Text computed by the lesson: NVLink 4 is 900 GB/s both ways = 450 GB/s
     * per direction; a 400 Gb/s NIC is 50 GB/s (presets, MODEL-FACTS). */
    assert_non_null(strstr(lesson_page_text(l, 0), "450 GB/s per direction"));
    assert_non_null(strstr(lesson_page_text(l, 0), "50.0 GB/s"));
    /* Page lines: the `kind =` of each page in the file. */
    assert_int_equal(lesson_page_line(l, 0), 36);
    assert_int_equal(lesson_page_line(l, 3), 78);
    /* Out of range is safe. */
    assert_string_equal(lesson_page_title(l, 99), "");
    assert_string_equal(lesson_page_text(l, -1), "");
    assert_int_equal(lesson_debug_stack_top(l), 0);
    lesson_free(l);
    lesson_free(NULL);
}

static void test_lesson_diagram_page(void **state)
{
    (void)state;
    char err[MSG_LEN];
    Lesson *l = lesson_load(EXAMPLE, err, sizeof err);
    assert_non_null(l);
    LessonDiagram d;
    assert_true(lesson_page_diagram(l, 1, 0, &d, err, sizeof err));
    assert_int_equal(d.view, PAGE_VIEW_FABRIC);
    assert_int_equal(d.cluster.n_gpus, 16);
    assert_int_equal(d.cluster.domain_gpus, 8); /* DGX H100: 8 GPUs per server */
    assert_null(d.placement);
    assert_false(lesson_page_diagram(l, 1, 1, &d, err, sizeof err)); /* no side 1 */
    assert_false(lesson_page_diagram(l, 0, 0, &d, err, sizeof err)); /* text page */
    lesson_free(l);
}

static void test_lesson_quiz_page(void **state)
{
    (void)state;
    char err[MSG_LEN];
    Lesson *l = lesson_load(EXAMPLE, err, sizeof err);
    assert_int_equal(lesson_quiz_choice_count(l, 3), 3);
    assert_string_equal(lesson_quiz_choice(l, 3, 0), "Inside one NVLink domain");
    assert_true(lesson_quiz_is_correct(l, 3, 0));
    assert_false(lesson_quiz_is_correct(l, 3, 1));
    assert_false(lesson_quiz_is_correct(l, 3, 2));
    assert_false(lesson_quiz_is_correct(l, 3, 3));
    assert_non_null(strstr(lesson_quiz_explanation(l, 3, 1), "NICs"));
    assert_int_equal(lesson_quiz_choice_count(l, 0), 0);
    lesson_free(l);
}

static void test_lesson_scenario_goal(void **state)
{
    (void)state;
    char err[MSG_LEN], why[200];
    Lesson *l = lesson_load(EXAMPLE, err, sizeof err);
    assert_int_equal(lesson_scenario_hint_count(l, 2), 3);
    assert_string_equal(lesson_scenario_hint(l, 2, 2), "Try TP 8 and PP 2.");
    assert_int_equal(lesson_scenario_solution_count(l, 2), 2);
    assert_string_equal(lesson_scenario_solution_move(l, 2, 0), "tp 8");
    assert_non_null(strstr(lesson_scenario_goal_text(l, 2), "Step under"));
    assert_string_equal(lesson_scenario_debrief(l, 2), ""); /* a function */
    Scenario *s = lesson_scenario_start(l, 2, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(scenario_mapping(s)->tp, 16);
    /* At the start TP 16 crosses servers: not met, with the lesson's reason. */
    assert_int_equal(lesson_scenario_goal_met(l, 2, s, why, sizeof why, err, sizeof err), 0);
    assert_non_null(strstr(why, "step is "));
    assert_int_equal(lesson_debug_stack_top(l), 0);
    for (int i = 0; i < lesson_scenario_solution_count(l, 2); i++)
        assert_true(
            scenario_apply_text(s, lesson_scenario_solution_move(l, 2, i), err, sizeof err));
    assert_int_equal(lesson_scenario_goal_met(l, 2, s, why, sizeof why, err, sizeof err), 1);
    char debrief[512];
    LessonPlay play = {.moves = 2};
    assert_true(
        lesson_scenario_debrief_for(l, 2, s, &play, debrief, sizeof debrief, err, sizeof err));
    CONTAINS(debrief, "TP 8 now stays on NVLink; only PP 2 sends cross servers.");
    /* Many calls leave the stack balanced. */
    for (int i = 0; i < 200; i++)
        lesson_scenario_goal_met(l, 2, s, why, sizeof why, err, sizeof err);
    assert_int_equal(lesson_debug_stack_top(l), 0);
    scenario_free(s);
    /* Not a scenario page. */
    assert_null(lesson_scenario_start(l, 0, err, sizeof err));
    assert_int_equal(lesson_scenario_goal_met(l, 0, NULL, why, sizeof why, err, sizeof err), -1);
    lesson_free(l);
}

static void test_lesson_goal_loop_stopped(void **state)
{
    (void)state;
    char err[MSG_LEN], why[200];
    Lesson *l = lesson_load(HOSTILE "goals.lua", err, sizeof err);
    assert_non_null(l);
    Scenario *s = lesson_scenario_start(l, 3, err, sizeof err); /* the loop in pcall */
    assert_non_null(s);
    for (int i = 0; i < 2; i++) { /* the state stays usable after an abort */
        double t0 = clock_now_s();
        assert_int_equal(lesson_scenario_goal_met(l, 3, s, why, sizeof why, err, sizeof err), -1);
        double dt = clock_now_s() - t0;
        print_message("goal loop in pcall stopped in %.3f s\n", dt);
        assert_true(dt < 5.0 * tl_slowdown());
        assert_string_equal(err, HOSTILE "goals.lua:23: page 4 goal: instruction limit reached "
                                         "(50 million): an endless loop? lessons must finish "
                                         "quickly");
        assert_int_equal(lesson_debug_stack_top(l), 0);
    }
    scenario_free(s);
    lesson_free(l);
}

typedef struct {
    char lines[8][MSG_LEN];
    int n;
} Report;

static void collect(void *ctx, const char *line)
{
    Report *r = ctx;
    if (r->n < 8)
        snprintf(r->lines[r->n], sizeof r->lines[0], "%s", line);
    r->n++;
}

/* `check` on one hostile file, in bounded time: problem k (from 0) of
 * each expected one starts with "FILE:LINE: " and contains its needle, and
 * no problem carries a control character. */
typedef struct {
    int line;
    const char *needle;
} Problem;

static void expect_problems(const char *file, const Problem *want, int n_want)
{
    char path[256];
    snprintf(path, sizeof path, HOSTILE "%s", file);
    Report r = {.n = 0};
    double t0 = clock_now_s();
    int n = lesson_check_file(path, collect, &r);
    double dt = clock_now_s() - t0;
    print_message("%-22s %.3f s  %s\n", file, dt, n ? r.lines[0] : "(no problem)");
    if (dt > 10.0 * tl_slowdown()) {
        print_error("%s: check took %.1f s\n", file, dt);
        fail();
    }
    for (int k = 0; k < n_want; k++) {
        char prefix[300];
        snprintf(prefix, sizeof prefix, "%s:%d: ", path, want[k].line);
        const char *got = k < n && k < 8 ? r.lines[k] : "";
        if (strncmp(got, prefix, strlen(prefix)) != 0 || !strstr(got, want[k].needle)) {
            print_error("problem %d: want '%s...%s', got %d problems: %s\n", k, prefix,
                        want[k].needle, n, got);
            fail();
        }
    }
    for (int k = 0; k < n && k < 8; k++)
        for (const char *p = r.lines[k]; *p; p++)
            assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
}

static void expect_problem(const char *file, int line, const char *needle)
{
    expect_problems(file, &(Problem){line, needle}, 1);
}

static void test_lesson_hostile_files(void **state)
{
    (void)state;
    static const Problem goals[] = {
        {19, "string.find: pattern too costly"},
        {21, "\\x1b[2J\\x1b]0;pwned\\x07 cleared"},
        {22, "limit reached"}, /* the instruction or the time limit: on a loaded */
        {23, "limit reached"}, /* machine or under a sanitizer, time trips first */
    };
    expect_problems("goals.lua", goals, 4);
    expect_problem("wrong_type.lua", 2, "must return a table");
    expect_problem("syntax.lua", 4, "'}' expected (to close '{' at line 1) near 'pages'");
    expect_problem("gc.lua", 2, "__gc finalizers are not allowed");
    expect_problem(
        "api_tricks.lua", 9,
        "bad argument #1 to 'scalelab.cluster.domain_of' (scalelab.cluster expected, got table)");
    expect_problem("deep.lua", 1, "stack overflow");
    expect_problem("grow.lua", 2, "memory limit reached");
}

/* Every problem of a file, each on the line that holds the mistake. */
static void test_lesson_check_points_at_lines(void **state)
{
    (void)state;
    Report r = {.n = 0};
    assert_int_equal(lesson_check_file("tests/lessons/typos.lua", collect, &r), 4);
    static const char *const want[] = {
        "tests/lessons/typos.lua:2: lesson: 'title' is missing",
        "tests/lessons/typos.lua:7: pages[1].cluster: unknown field 'domian'",
        "tests/lessons/typos.lua:11: pages[2].mapping: TP 3 does not divide the 16 GPUs",
        "tests/lessons/typos.lua:12: pages[3]: a quiz needs 2 to 64 choices (has 1)",
    };
    for (int i = 0; i < 4; i++)
        if (strncmp(r.lines[i], want[i], strlen(want[i])) != 0) {
            print_error("problem %d: want '%s...', got '%s'\n", i, want[i], r.lines[i]);
            fail();
        }
}

static void test_lesson_load_reports_first_problem(void **state)
{
    (void)state;
    char err[MSG_LEN];
    assert_null(lesson_load(HOSTILE "wrong_type.lua", err, sizeof err));
    assert_string_equal(err, HOSTILE "wrong_type.lua:2: the file must return a table { id =, "
                                     "title =, pages = {...} } (it returned string)");
    assert_null(lesson_load("tests/lessons/no-such-file.lua", err, sizeof err));
    assert_non_null(strstr(err, "no-such-file.lua:1: cannot open"));
    assert_null(lesson_load("tests/lessons", err, sizeof err));
    assert_non_null(strstr(err, "tests/lessons:1: not a lesson file (a directory)"));
}

static void test_lesson_check_example_passes(void **state)
{
    (void)state;
    Report r = {.n = 0};
    assert_int_equal(lesson_check_file(EXAMPLE, collect, &r), 0);
    assert_int_equal(lesson_check_file("tests/lessons/exercises.lua", collect, &r), 0);
}

/* Each example in AUTHORING.md is its file, byte for byte, between the
 * marker and the closing fence. */
static void authoring_example_is(const char *path)
{
    char *guide = tl_read_file("lessons/AUTHORING.md");
    char *example = tl_read_file(path);
    assert_non_null(guide);
    assert_non_null(example);
    char marker[128];
    snprintf(marker, sizeof marker, "<!-- example: %s -->\n```lua\n", path);
    char *start = strstr(guide, marker);
    assert_non_null(start);
    start += strlen(marker);
    char *end = strstr(start, "```\n");
    assert_non_null(end);
    *end = '\0';
    if (strcmp(start, example) != 0) {
        print_error("lessons/AUTHORING.md and %s differ: copy the file into the guide\n", path);
        fail();
    }
    free(guide);
    free(example);
}

static void test_lesson_authoring_example_in_step(void **state)
{
    (void)state;
    authoring_example_is("assets/new-lesson.lua");
    authoring_example_is("tests/lessons/exercises.lua");
}

#define EXERCISES "tests/lessons/exercises.lua"

static void test_lesson_exercise_pages(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(EXERCISES, err, sizeof err);
    if (!l)
        print_error("%s\n", err);
    assert_non_null(l);
    /* quiz: calc, order as quiz_order gives it */
    assert_int_equal(lesson_page_kind(l, 0), PAGE_QUIZ);
    assert_true(lesson_quiz_is_calc(l, 0));
    int got[8], want[4];
    assert_int_equal(lesson_quiz_order(l, 0, 99, got, 8), 4);
    quiz_order(99, "example-exercises", 0, 4, want);
    assert_memory_equal(got, want, sizeof want);
    assert_int_equal(lesson_quiz_order(l, 0, 99, got, 2), 0); /* too small a buffer */
    assert_int_equal(lesson_quiz_order(l, 1, 99, got, 8), 0); /* not a quiz */
    /* predict: 1 GB over 450 GB/s NVLink 4 = 2.222 ms, plus 2 us latency */
    assert_int_equal(lesson_page_kind(l, 1), PAGE_PREDICT);
    PredictSpec p;
    assert_true(lesson_predict_spec(l, 1, &p));
    assert_string_equal(p.unit, "s");
    assert_true(fabs(p.answer - (2e-6 + 1e9 / 450e9)) < 1e-12);
    assert_true(p.tolerance == 0.2);
    assert_int_equal(p.n_terms, 2);
    assert_string_equal(p.terms[1].name, "bandwidth");
    assert_string_equal(lesson_predict_question(l, 1), "How long does the copy take?");
    assert_non_null(strstr(lesson_page_text(l, 1), "1.00 GB between two GPUs"));
    assert_non_null(strstr(lesson_predict_formula(l, 1), "latency + bytes / bandwidth"));
    assert_int_equal(predict_grade(&p, "2.2 ms", true, NULL), PREDICT_RIGHT);
    assert_false(lesson_predict_spec(l, 0, &p));
    /* scenario: par, target, search allowed */
    assert_int_equal(lesson_scenario_par(l, 2), 2);
    LessonTarget t;
    assert_true(lesson_scenario_target(l, 2, &t));
    assert_true(t.step_s > 0 && t.tokens_per_s == 0);
    Scenario *s = lesson_scenario_start(l, 2, err, sizeof err);
    assert_non_null(s);
    assert_true(scenario_allowed(s) & SCN_ALLOW_SEARCH);
    scenario_free(s);
    lesson_free(l);
}

static void test_lesson_search_off_unless_allowed(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    /* page 1: allow lists all but search; no par, no target */
    Lesson *l = lesson_load("tests/e2e/lessons/01-e2e-basics.lua", err, sizeof err);
    assert_non_null(l);
    Scenario *s = lesson_scenario_start(l, 1, err, sizeof err);
    assert_non_null(s);
    assert_false(scenario_allowed(s) & SCN_ALLOW_SEARCH);
    assert_int_equal(lesson_scenario_par(l, 1), 0);
    assert_false(lesson_scenario_target(l, 1, NULL));
    scenario_free(s);
    lesson_free(l);
    assert_false(SCN_ALLOW_LESSON_DEFAULT & SCN_ALLOW_SEARCH);
    assert_true(SCN_ALLOW_ALL & SCN_ALLOW_SEARCH); /* free play keeps search */
}

static void test_lesson_debrief_from_final_state(void **state)
{
    (void)state;
    char err[MSG_LEN] = "", out[1024];
    Lesson *l = lesson_load(EXERCISES, err, sizeof err);
    assert_non_null(l);
    Scenario *s = lesson_scenario_start(l, 2, err, sizeof err);
    assert_non_null(s);
    char why[200];
    assert_true(scenario_apply_text(s, "swap 0 8", why, sizeof why));
    LessonPlay play = {.moves = 5, .hints = 1, .used_search = true};
    assert_true(lesson_scenario_debrief_for(l, 2, s, &play, out, sizeof out, err, sizeof err));
    /* the lesson's words from the final state, then the engine's line */
    assert_non_null(strstr(out, "You ended at TP 8 PP 2"));
    assert_non_null(strstr(out, "5 moves."));
    /* the engine counts key presses against par */
    assert_non_null(strstr(out, "5 key presses, par 2: over par by 3."));
    assert_non_null(strstr(out, "You used search"));
    play = (LessonPlay){.moves = 2};
    assert_true(lesson_scenario_debrief_for(l, 2, s, &play, out, sizeof out, err, sizeof err));
    assert_non_null(strstr(out, "2 key presses: on par."));
    assert_null(strstr(out, "search"));
    play = (LessonPlay){.moves = 1};
    assert_true(lesson_scenario_debrief_for(l, 2, s, &play, out, sizeof out, err, sizeof err));
    assert_non_null(strstr(out, "1 key press, par 2: you beat par by 1!"));
    assert_int_equal(lesson_debug_stack_top(l), 0);
    scenario_free(s);
    lesson_free(l);
}

/* Writes src to a temporary lesson file and returns check's problems. */
static int check_source(const char *src, char *first, size_t first_len);

static void first_line(void *ctx, const char *line)
{
    char *buf = ctx;
    if (!buf[0])
        snprintf(buf, 512, "%s", line);
}

static int check_source(const char *src, char *first, size_t first_len)
{
    char path[] = "/tmp/scalelab-test-XXXXXX.lua";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(src, f);
    fclose(f);
    char buf[512] = "";
    int n = lesson_check_file(path, first_line, buf);
    remove(path);
    const char *colon = strchr(buf, ':'); /* drop the temporary name */
    snprintf(first, first_len, "%s", colon ? colon + 1 : buf);
    return n;
}

static void test_lesson_check_par_and_predict(void **state)
{
    (void)state;
    char first[512];
    static const char head[] =
        "return { id = 'x', title = 'X', pages = {\n"
        "{ kind = 'scenario', title = 's', text = 't',\n"
        "  cluster = { system = 'dgx-h100', gpus = 16 },\n"
        "  workload = { model = 'llama3-70b', batch = 64, mb = 1 },\n"
        "  mapping = { tp = 16, pp = 1, dp = 1 },\n"
        "  goal = { text = 'g', check = function(r) return r.mapping.tp == 8 end },\n";
    char src[2048];
    snprintf(src, sizeof src, "%s  par = 3,\n  solution = { 'tp 8', 'pp 2' } } } }", head);
    assert_int_equal(check_source(src, first, sizeof first), 1);
    /* tp 16 -> 8 is one press of T, pp 1 -> 2 one of y */
    assert_string_equal(first,
                        "7: par = 3 but the reference solution takes 2 key presses to type");
    snprintf(src, sizeof src, "%s  par = 1,\n  solution = { 'tp 8' } } } }", head);
    assert_int_equal(check_source(src, first, sizeof first), 1);
    assert_non_null(strstr(first, "7: par = 1: a scenario needs at least two key presses"));
    snprintf(src, sizeof src,
             "%s  par = 2, solution = { 'tp 8', 'pp 2' },\n"
             "  debrief = function(r) return nil end } } }",
             head);
    assert_int_equal(check_source(src, first, sizeof first), 1);
    assert_string_equal(first, "8: page 1 debrief: debrief must return a string (got nil)");
    snprintf(src, sizeof src,
             "%s  par = 2, allow = { 'seach' },\n"
             "  solution = { 'tp 8', 'pp 2' } } } }",
             head);
    assert_int_equal(check_source(src, first, sizeof first), 1);
    assert_string_equal(first, "7: pages[1]: allow[1] = 'seach': did you mean 'search'?");
    static const char predict[] = "return { id = 'x', title = 'X', pages = {\n"
                                  "{ kind = 'predict', title = 'p', text = 't',\n"
                                  "  question = 'q?',\n"
                                  "  %s } } }";
    static const struct {
        const char *fields, *want;
    } cases[] = {
        {"unit = 'GB', answer = 1", "4: pages[1]: unit 'GB' is not one of"},
        {"unit = 's',\n answer = 0", "5: pages[1]: 'answer' must be a finite number above 0"},
        {"unit = 's', answer = 1,\n tolerance = 1.5", "5: pages[1]: 'tolerance' must be"},
        {"unit = 's', answer = 1,\n tolerance = 0", "5: pages[1]: 'tolerance' must be"},
        {"unit = 's'", "2: pages[1]: 'answer' is missing"},
        {"unit = 's', answer = 1, terms = {\n { name = 'a' } }",
         "2: pages[1]: terms[1]: 'value' is missing"},
        {"unit = 's', answer = 1, terms = {\n { name = 'a', value = -1 } }",
         "5: pages[1]: terms[1] 'a' needs a finite value >= 0"},
        {"unit = 'b/s', answer = 1e9, terms = { { name = 'a', value = 1 } }", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(src, sizeof src, predict, cases[i].fields);
        int n = check_source(src, first, sizeof first);
        if (n != (cases[i].want[0] ? 1 : 0) ||
            strncmp(first, cases[i].want, strlen(cases[i].want))) {
            print_error("case %zu: %d problems, first '%s', want '%s'\n", i, n, first,
                        cases[i].want);
            fail();
        }
    }
}

/* Bytes a terminal acts on: C0 and DEL, C1 (as UTF-8), and the Unicode
 * bidirectional controls escape_text escapes. */
static bool has_raw_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) ||
            (p[0] == 0xd8 && p[1] == 0x9c))
            return true;
        if (p[0] == 0xe2 && p[1] == 0x80 && p[2] &&
            (p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xaa && p[2] <= 0xae)))
            return true;
        if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
            return true;
    }
    return false;
}

/* Whether s holds one of the '|'-separated words of alternatives. */
static bool has_one_of(const char *s, const char *alternatives)
{
    char words[200];
    snprintf(words, sizeof words, "%s", alternatives);
    for (char *w = strtok(words, "|"); w; w = strtok(NULL, "|"))
        if (strstr(s, w))
            return true;
    return !alternatives[0];
}

/* The third round of hostile files: each through `check` (within 3 s) and
 * the listing's loader (within 2 s), its first problem at its line with
 * its words (line 0: the file passes), no raw control or bidirectional
 * byte in any message. Every message here was read and judged by hand. */
static void test_lesson_hostile_round_three(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *needle;
    } cases[] = {
        {"close_chain.lua", 14, "C stack overflow (calls nested too deep through C"},
        {"pair_method.lua", 7, "scalelab.pair_target: too costly for the time left"},
        {"pair_small_calls.lua", 6, "too costly for the time left"},
        {"charset.lua", 4, "string.find: pattern too costly for a 100000-byte text"},
        {"charset_many.lua", 0, ""},
        {"const_comment.lua", 3, "<const> and <close> are not allowed in lessons"},
        {"close_newline.lua", 2, "<const> and <close> are not allowed in lessons"},
        {"const_in_string.lua", 0, ""},
        {"bidi_error.lua", 3, "file \\xe2\\x80\\xaegpj.exe\\xe2\\x80\\xac \\xe2\\x81\\xa6x"},
        {"bidi_title.lua", 0, ""},
        {"sort_nested.lua", 3, "stack overflow (more than 200 nested calls)"},
        {"gsub_nested.lua", 3, "stack overflow (more than 200 nested calls)"},
        {"tostring_self.lua", 3, "stack overflow (more than 200 nested calls)"},
        {"resume_nest.lua", 5, "stack overflow (more than 200 nested calls)"},
        {"pcall_chain.lua", 5, "stack overflow (more than 200 nested calls)"},
        {"tail_forever.lua", 2, "limit reached"},
        {"api_huge_strings.lua", 17, "memory limit reached (64 MB)"},
        {"index_trap_cluster.lua", 3, "limit reached"},
        {"tostring_trap_fill.lua", 2, "limit reached"},
        {"result_meta.lua", 7, "stack overflow (more than 200 nested calls)"},
        {"traps_compare.lua", 3, "limit reached"},
        {"concat_bomb.lua", 9, "a string may hold at most 1 MB"},
        {"len_traps.lua", 5, "pages[2] must be a table"},
        {"goal_strange.lua", 12, "the goal is already met at the start"},
        {"goal_coroutines.lua", 14, "page 1 goal: attempt to yield from outside a coroutine"},
        {"rep_bomb.lua", 8, "string.rep: result too large (2097152 bytes from 2 copies"},
        {"format_bomb.lua", 5, "a string may hold at most 1 MB"},
        {"gsub_bomb.lua", 5, "string.gsub: too costly for the time left"},
        {"sort_hostile.lua", 6, "limit reached"},
        {"sort_mutate.lua", 7, "limit reached"},
        {"concat_range.lua", 5, "table.concat: too costly for the time left"},
        {"utf8_ranges.lua", 12, "invalid UTF-8 code"},
        {"load_huge.lua", 4, "load: too costly for the time left"},
        {"load_tricks.lua", 10, "C stack overflow"},
        {"error_objects.lua", 8, "error object is a table value"},
        {"error_table_goal.lua", 10, "page 1 goal: error object is a table value"},
        {"gc_late.lua", 0, ""},
        {"raw_functions.lua", 10, "table.sort: too costly for the time left"},
        {"env_tricks.lua", 0, ""},
        {"escape_routes.lua", 7, "'os.execute' is not available in lessons"},
        {"wrap_flood.lua", 3, "memory limit reached (64 MB)"},
        {"byte_slice.lua", 4, "stack overflow (string slice too long): more values at once"},
        {"cluster_tostring_loop.lua", 4, "tostring: too costly|time limit"},
        {"pages_4mb.lua", 4, /* where the pages get their text */
         "pages[195]: 'text': the lesson's texts pass 4 MB in all"},
        {"huge_diagrams.lua", 0, ""},
        {"scenario_too_big.lua", 4, "131080 GPUs is too many for a scenario"},
        {"chart_nan.lua", 6, /* the values */ "chart.values[2] is not a finite number"},
        {"predict_extremes.lua", 6, "terms[2] 'b' needs a finite value >= 0"},
        {"moves_junk.lua", 6, "start move 1 'tp 3'"},
        {"debrief_strange.lua", 14, "page 2 debrief: debrief must return a string (got table)"},
        {"math_extremes.lua", 9, "attempt to perform 'n%0'"},
        {"closure_bomb.lua", 6, "memory limit reached (64 MB)"},
        {"numeric_fields.lua", 3, "lesson: 'order' must be a whole number"},
        {"newindex_global_loop.lua", 2, "limit reached"},
    };
    double slowest_check = 0, slowest_list = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256], want[300], err[MSG_LEN] = "";
        snprintf(path, sizeof path, HOSTILE "%s", cases[i].file);
        Report r = {.n = 0};
        double t0 = clock_now_s();
        int n = lesson_check_file(path, collect, &r);
        double check_s = clock_now_s() - t0;
        t0 = clock_now_s();
        Lesson *l = lesson_load_quick(path, err, sizeof err);
        double list_s = clock_now_s() - t0;
        lesson_free(l);
        slowest_check = check_s > slowest_check ? check_s : slowest_check;
        slowest_list = list_s > slowest_list ? list_s : slowest_list;
        snprintf(want, sizeof want, "%s:%d: ", path, cases[i].line);
        bool ok = cases[i].line == 0 ? n == 0
                                     : n > 0 && strncmp(r.lines[0], want, strlen(want)) == 0 &&
                                           has_one_of(r.lines[0], cases[i].needle);
        for (int k = 0; k < n && k < 8; k++)
            ok = ok && !has_raw_control(r.lines[k]);
        ok = ok && !has_raw_control(err) && check_s < 3.0 * tl_slowdown() &&
             list_s < 2.0 * tl_slowdown();
        if (!ok) {
            print_error("%s: want %s...%s; %d problems after %.3f s (list %.3f s): %s\n",
                        cases[i].file, want, cases[i].needle, n, check_s, list_s,
                        n ? r.lines[0] : "(none)");
            fail();
        }
    }
    print_message("%zu files: slowest check %.3f s, slowest listing load %.3f s\n",
                  sizeof cases / sizeof cases[0], slowest_check, slowest_list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson_example_header_and_pages),
        cmocka_unit_test(test_lesson_diagram_page),
        cmocka_unit_test(test_lesson_quiz_page),
        cmocka_unit_test(test_lesson_scenario_goal),
        cmocka_unit_test(test_lesson_goal_loop_stopped),
        cmocka_unit_test(test_lesson_hostile_files),
        cmocka_unit_test(test_lesson_hostile_round_three),
        cmocka_unit_test(test_lesson_check_points_at_lines),
        cmocka_unit_test(test_lesson_load_reports_first_problem),
        cmocka_unit_test(test_lesson_check_example_passes),
        cmocka_unit_test(test_lesson_authoring_example_in_step),
        cmocka_unit_test(test_lesson_exercise_pages),
        cmocka_unit_test(test_lesson_search_off_unless_allowed),
        cmocka_unit_test(test_lesson_debrief_from_final_state),
        cmocka_unit_test(test_lesson_check_par_and_predict),
    };
    return cmocka_run_group_tests(tests, make_example, remove_example);
}
