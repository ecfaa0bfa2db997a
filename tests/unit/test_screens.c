/* SPDX-License-Identifier: MIT */
/* test_screens — the screens without a terminal: keys in, state and canvas
 * text out. Menu tests use hand-made items; page tests load the small test
 * lessons of tests/e2e/lessons (the same ones the tmux suite drives). */
#include "ui/screens.h"

#include "draw/canvas.h"
#include "lesson/lesson.h"
#include "ui/keys.h"
#include "ui/screen_quiz.h"

/* cmocka.h needs these four first. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const MenuItem items[] = {
    {"alpha", "Two ways to grow", "Scale up or scale out.", "Foundations", NULL, 8, PROGRESS_DONE,
     5, 4, 1, false},
    {"beta", "Inside the box", "NVLink and NVSwitch.", "Foundations", NULL, 10, PROGRESS_STARTED,
     0, 0, 0, false},
    {"gamma", "Beyond the rack", "Scale across sites.", "Advanced", NULL, 12, PROGRESS_NEW, 0, 0,
     0, false},
};
#define N_ITEMS 3

static char *draw_menu(MenuState *m, int w, int h, ScreenCursor *cur, bool ascii)
{
    Canvas *c = canvas_new(w, h);
    canvas_set_ascii(c, ascii);
    screen_menu_draw(c, m, cur);
    char *text = canvas_to_text(c);
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

/* Done and mastered read apart without colour, in ASCII, at 80x24: the
 * mark and the words beside the title. */
static void test_screens_menu_tells_done_from_mastered(void **state)
{
    (void)state;
    const MenuItem four[] = {
        {"m", "Mastered lesson", "s", "T", NULL, 8, PROGRESS_DONE, 3, 2, 0, true},
        {"d", "Done lesson", "s", "T", NULL, 8, PROGRESS_DONE, 3, 0, 3, false},
        {"p", "Started lesson", "s", "T", NULL, 8, PROGRESS_STARTED, 2, 1, 1, false},
        {"n", "New lesson", "s", "T", NULL, 8, PROGRESS_NEW, 0, 0, 0, false},
    };
    MenuState m;
    screen_menu_init(&m, four, 4);
    screen_menu_key(&m, 'j'); /* on the done lesson */
    ScreenCursor cur;
    char *text = draw_menu(&m, 80, 24, &cur, true);
    char row[256];
    const char *r = line_of(text, 4, row, sizeof row);
    assert_non_null(strstr(r, "[*] Mastered lesson"));
    assert_non_null(strstr(r, "mastered"));
    assert_null(strstr(r, "first try"));
    r = line_of(text, 5, row, sizeof row);
    assert_non_null(strstr(r, "[x] Done lesson"));
    assert_non_null(strstr(r, "0/3 first try, 3 to review"));
    r = line_of(text, 6, row, sizeof row);
    assert_non_null(strstr(r, "[>] Started lesson"));
    assert_non_null(strstr(r, "1/2 first try, 1 to review"));
    assert_non_null(strstr(line_of(text, 7, row, sizeof row), "[ ] New lesson"));
    assert_non_null(strstr(text, "Done, not mastered: R reviews the 3 questions"));
    assert_non_null(strstr(text, "[x] done  [*] mastered"));
    assert_null(strstr(text, "\xe2")); /* ASCII only */
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
    char titles[N][24];
    for (int i = 0; i < N; i++) {
        snprintf(titles[i], sizeof titles[i], "Lesson %02d", i);
        many[i] = (MenuItem){"x", titles[i], "s", "T", NULL, 1, PROGRESS_NEW, 0, 0, 0, false};
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
    char *text = canvas_to_text(c);
    assert_non_null(strstr(text, "60x20 is too small"));
    assert_non_null(strstr(text, "80x24"));
    free(text);
    canvas_free(c);
    /* A tiny terminal still gets one readable line: the shortest wording. */
    c = canvas_new(10, 1);
    screen_too_small_draw(c, 10, 4);
    text = canvas_to_text(c);
    assert_string_equal(text, "Need 80x24\n");
    free(text);
    canvas_free(c);
}

/* ---- pages, on the test lesson the tmux suite also uses ---- */

#define E2E_LESSON "tests/e2e/lessons/01-e2e-basics.lua"

typedef struct {
    Lesson *lesson;
    Progress *progress;
    PageState page;
} PageFixture;

static int page_setup(void **state)
{
    PageFixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    char err[MSG_LEN] = "";
    f->lesson = lesson_load(E2E_LESSON, err, sizeof err);
    if (!f->lesson) {
        fprintf(stderr, "cannot load %s: %s\n", E2E_LESSON, err);
        free(f);
        return -1;
    }
    f->progress = progress_open(NULL, NULL, 0); /* in memory */
    screen_page_init(&f->page, f->lesson, E2E_LESSON, NULL, f->progress, 0);
    *state = f;
    return 0;
}

static int page_teardown(void **state)
{
    PageFixture *f = *state;
    screen_page_fini(&f->page);
    lesson_free(f->lesson);
    progress_free(f->progress);
    free(f);
    return 0;
}

static char *draw_page(PageState *p, int w, int h, ScreenCursor *cur)
{
    Canvas *c = canvas_new(w, h);
    screen_page_draw(c, p, cur);
    char *text = canvas_to_text(c);
    canvas_free(c);
    return text;
}

static void press(PageState *p, const int *keys)
{
    for (; *keys; keys++)
        screen_page_key(p, *keys);
}

/* The author view (N): the notes the lesson's code made, of this page and
 * outside any page; never drawn until asked for, and any key closes it. */
static void test_screens_page_author_notes(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load("tests/lessons/notes.lua", err, sizeof err);
    assert_non_null(l);
    assert_int_equal(lesson_note_count(l), 3); /* at load; the goal's run in check only */
    Progress *pr = progress_open(NULL, NULL, 0);
    PageState p;
    screen_page_init(&p, l, "tests/lessons/notes.lua", NULL, pr, 0);
    ScreenCursor cur;
    char *text = draw_page(&p, 80, 24, &cur);
    assert_null(strstr(text, "Author notes")); /* a learner sees none */
    assert_null(strstr(text, "dgx-h100"));
    free(text);
    screen_page_key(&p, 'N');
    text = draw_page(&p, 80, 24, &cur);
    assert_non_null(strstr(text, "Author notes (scalelab.note)"));
    assert_non_null(strstr(text, "lesson, line 4: { a = \"dgx-h100\", b = 8, list = {...} }"));
    assert_non_null(strstr(text, "lesson, line 5: target 1.235 s"));
    assert_null(strstr(text, "in a page")); /* page 3's */
    free(text);
    screen_page_key(&p, 'x');
    text = draw_page(&p, 80, 24, &cur);
    assert_null(strstr(text, "Author notes"));
    free(text);
    screen_page_key(&p, 'n');
    screen_page_key(&p, 'n');
    screen_page_key(&p, 'N');
    text = draw_page(&p, 120, 40, &cur);
    assert_non_null(strstr(text, "line 19: in a page"));
    free(text);
    screen_page_key(&p, 'x');
    screen_page_key(&p, '?');
    text = draw_page(&p, 120, 40, &cur);
    assert_non_null(strstr(text, "author view: this page's notes (scalelab.note)"));
    free(text);
    screen_page_fini(&p);
    progress_free(pr);
    lesson_free(l);
}

static void test_screens_page_next_prev_and_back(void **state)
{
    PageFixture *f = *state;
    PageState *p = &f->page;
    ScreenCursor cur;
    char *text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "E2E basics — page 1/3"));
    assert_non_null(strstr(text, "Hello from the test lesson"));
    free(text);
    assert_int_equal(screen_page_key(p, 'n'), SCREEN_NONE);
    assert_int_equal(p->page, 1);
    assert_non_null(p->scn.s);
    assert_int_equal(progress_page(f->progress, "e2e-basics"), 1);
    /* On a scenario page Left moves the cursor, p turns the page. */
    screen_page_key(p, UIK_LEFT);
    assert_int_equal(p->page, 1);
    screen_page_key(p, 'p');
    assert_int_equal(p->page, 0);
    assert_null(p->scn.s);
    screen_page_key(p, UIK_LEFT); /* no page before the first */
    assert_int_equal(p->page, 0);
    assert_int_equal(screen_page_key(p, 'r'), SCREEN_RELOAD);
    assert_int_equal(screen_page_key(p, UIK_ESC), SCREEN_BACK);
}

static void test_screens_scenario_swap_across_domain_and_back(void **state)
{
    PageFixture *f = *state;
    PageState *p = &f->page;
    screen_page_goto(p, 1);
    const StepResult *r = scenario_result(p->scn.s);
    double before = r->step_s;
    assert_int_equal(p->scn.goal, 0);
    /* GPU 3 (TP group 0, server 0) swapped with GPU 11 (server 1). */
    press(p, (const int[]){UIK_RIGHT, UIK_RIGHT, UIK_RIGHT, ' ', UIK_DOWN, 0});
    assert_int_equal(p->scn.cursor, 11);
    assert_int_equal(p->scn.picked, 3);
    screen_page_key(p, UIK_ENTER);
    double across = scenario_result(p->scn.s)->step_s;
    if (!(across > before * 1.05))
        fail_msg("step %.3f s -> %.3f s: crossing the domain should cost", before, across);
    assert_int_equal(p->scn.goal, 1);
    assert_true(progress_scenario_met(f->progress, "e2e-basics", 1));
    assert_non_null(strstr(p->scn.last, "TP all-reduce"));
    ScreenCursor cur;
    char *text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "Debrief:"));
    assert_non_null(strstr(text, "[met"));
    free(text);
    /* And back: the cursor is on GPU 11. */
    press(p, (const int[]){' ', UIK_UP, UIK_ENTER, 0});
    double back = scenario_result(p->scn.s)->step_s;
    if (fabs(back - before) > 1e-9)
        fail_msg("step not restored: %.6f s, then %.6f s", before, back);
    assert_int_equal(p->scn.goal, 0);
    assert_non_null(strstr(p->scn.why, "every TP group is inside one server"));
    /* undo brings the crossing back */
    screen_page_key(p, 'u');
    assert_true(fabs(scenario_result(p->scn.s)->step_s - across) < 1e-9);
}

static void test_screens_scenario_group_pick_and_cycle(void **state)
{
    PageFixture *f = *state;
    PageState *p = &f->page;
    screen_page_goto(p, 1);
    /* TP 8 x PP 1 x DP 2: g cycles through the kinds with more than one
     * rank (TP, DP; PP has one) and wraps */
    screen_page_key(p, 'g');
    assert_int_equal(p->scn.pick_dim, DIM_TP);
    screen_page_key(p, 'g');
    assert_int_equal(p->scn.pick_dim, DIM_DP);
    screen_page_key(p, 'g');
    assert_int_equal(p->scn.pick_dim, DIM_TP);
    screen_page_key(p, UIK_ESC); /* drops the pick, stays on the page */
    assert_int_equal(p->scn.picked, -1);
    assert_int_equal(p->page, 1);
    /* Enter with nothing picked explains itself. */
    screen_page_key(p, UIK_ENTER);
    assert_non_null(strstr(p->scn.msg, "Pick something first"));
}

static void test_screens_scenario_illegal_degree_is_explained(void **state)
{
    PageFixture *f = *state;
    PageState *p = &f->page;
    screen_page_goto(p, 1);
    /* TP 8 -> 16 -> 32: 32 cannot work on 16 GPUs, whatever 16 does. */
    screen_page_key(p, 't');
    screen_page_key(p, 't');
    assert_non_null(strstr(p->scn.msg, "Not possible:"));
    assert_true(strlen(p->scn.msg) > strlen("Not possible: "));
}

static void test_screens_scenario_hints_one_at_a_time_recorded(void **state)
{
    PageFixture *f = *state;
    PageState *p = &f->page;
    screen_page_goto(p, 1);
    screen_page_key(p, 'h');
    assert_int_equal(p->scn.hints, 1);
    assert_int_equal(progress_hints(f->progress, "e2e-basics", 1), 1);
    ScreenCursor cur;
    char *text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "Hint 1/3: Nudge"));
    free(text);
    screen_page_key(p, 'h');
    screen_page_key(p, 'h');
    screen_page_key(p, 'h');
    assert_int_equal(p->scn.hints, 3);
    assert_non_null(strstr(p->scn.msg, "last hint"));
    assert_int_equal(progress_hints(f->progress, "e2e-basics", 1), 3);
}

static void test_screens_scenario_cursor_on_gpu_and_explain(void **state)
{
    PageFixture *f = *state;
    PageState *p = &f->page;
    screen_page_goto(p, 1);
    screen_page_key(p, UIK_DOWN); /* GPU 8: first of server 1, TP group B */
    ScreenCursor cur;
    Canvas *c = canvas_new(80, 24);
    screen_page_draw(c, p, &cur);
    const Cell *cell = canvas_cell(c, cur.x, cur.y);
    assert_non_null(cell);
    assert_string_equal(cell->glyph, "B");
    assert_int_equal(cell->style, STYLE_CURSOR);
    canvas_free(c);
    screen_page_key(p, 'e');
    char *text;
    assert_int_equal(p->scn.explain, STEP_COMPUTE);
    text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "Explain"));
    free(text);
    /* After the six parts: the step sum, then tokens/s with its inputs
     * (test lesson: batch 32 sequences of llama3-8b's 8192 tokens). */
    for (int i = 0; i < 7; i++)
        screen_page_key(p, 'e');
    text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "tokens/s = batch 32 x sequence 8192"));
    free(text);
    screen_page_key(p, 'E');
    assert_int_equal(p->scn.explain, -1);
}

/* The key (1-9) that shows choice `choice` (file order) on this quiz. */
static int quiz_key_of(const PageState *p, int choice)
{
    for (int k = 0; k < p->quiz->n; k++)
        if (p->quiz->order[k] == choice)
            return '1' + k;
    fail();
    return 0;
}

static void test_screens_quiz_answers_and_lesson_done(void **state)
{
    PageFixture *f = *state;
    PageState *p = &f->page;
    screen_page_goto(p, 2);
    assert_non_null(p->quiz);
    /* choice 1 in the file is wrong: only its explanation shows, and the
     * right choice is not marked */
    screen_page_key(p, quiz_key_of(p, 1));
    bool correct = true;
    assert_int_equal(progress_quiz_answer(f->progress, "e2e-basics", 2, &correct), 1);
    assert_false(correct);
    ScreenCursor cur;
    char *text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "A NIC is slower."));
    assert_null(strstr(text, "NVLink is about 9x the NIC."));
    assert_null(strstr(text, "right"));
    free(text);
    /* Past the last page, quiz not answered right: the end of the lesson
     * says what is left, grouped by kind, each kind's pages in order, and
     * the lesson is not done; p comes back to the page. */
    assert_int_equal(screen_page_key(p, 'n'), SCREEN_NONE);
    assert_true(p->finished);
    text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "Not finished yet: 2 pages left"));
    assert_non_null(strstr(text, "Pages left: 2 scenario; 3 quiz"));
    free(text);
    assert_int_equal(progress_status(f->progress, "e2e-basics"), PROGRESS_STARTED);
    assert_int_equal(screen_page_key(p, 'p'), SCREEN_NONE);
    assert_false(p->finished);
    assert_int_equal(p->page, 2);
    screen_page_key(p, quiz_key_of(p, 0));
    assert_int_equal(progress_quiz_answer(f->progress, "e2e-basics", 2, &correct), 0);
    assert_true(correct);
    text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "NVLink is about 9x the NIC."));
    free(text);
    /* Scenario not solved: not done; Enter goes to it, the first page left. */
    assert_int_equal(screen_page_key(p, 'n'), SCREEN_NONE);
    text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "Pages left: 2 scenario"));
    assert_null(strstr(text, "quiz"));
    assert_non_null(strstr(text, "Enter goes to page 2, the first page left."));
    free(text);
    assert_int_equal(progress_status(f->progress, "e2e-basics"), PROGRESS_STARTED);
    assert_int_equal(screen_page_key(p, UIK_ENTER), SCREEN_NONE);
    assert_false(p->finished);
    assert_int_equal(p->page, 1);
    assert_true(screen_scenario_apply(p, "swap 3 11"));
    screen_page_goto(p, 2);
    assert_int_equal(screen_page_key(p, 'n'), SCREEN_NONE);
    assert_int_equal(progress_status(f->progress, "e2e-basics"), PROGRESS_DONE);
    text = draw_page(p, 80, 24, &cur);
    assert_non_null(strstr(text, "Lesson done ✓ Not mastered yet: 1 to review")); /* wrong first */
    assert_non_null(strstr(text, "Pages left: none"));
    free(text);
    /* No next lesson (a file opened alone): Enter and Esc go back. */
    assert_int_equal(screen_page_key(p, UIK_ENTER), SCREEN_BACK);
}

static void test_screens_review_replays_missed(void **state)
{
    PageFixture *f = *state;
    PageState *p = &f->page;
    assert_false(screen_page_start_review(p)); /* nothing missed yet */
    assert_non_null(strstr(p->message, "Nothing to review"));
    screen_page_goto(p, 2);
    screen_page_key(p, quiz_key_of(p, 1)); /* wrong first */
    screen_page_key(p, quiz_key_of(p, 0));
    screen_page_goto(p, 0);
    assert_true(screen_page_start_review(p));
    assert_true(p->review);
    assert_int_equal(p->page, 2);
    assert_true(p->quiz->review && !p->quiz->solved);
    screen_page_key(p, quiz_key_of(p, 0));                  /* right at once this time */
    assert_int_equal(screen_page_key(p, 'n'), SCREEN_BACK); /* the review's last page */
    ProgressExercise e;
    assert_true(progress_exercise(f->progress, "e2e-basics", 2, &e));
    assert_int_equal(e.first, 0);
    assert_int_equal(e.reviews, 1);
    assert_false(progress_needs_review(f->progress, "e2e-basics", 2));
    assert_int_equal(progress_status(f->progress, "e2e-basics"), PROGRESS_STARTED);
}

static void test_screens_search_refused_unless_allowed(void **state)
{
    PageFixture *f = *state;
    PageState *p = &f->page;
    screen_page_goto(p, 1); /* the e2e scenario names no "search" in allow */
    assert_non_null(p->scn.s);
    assert_int_equal(screen_page_key(p, 's'), SCREEN_NONE);
    assert_null(p->scn.sweep);
    assert_non_null(strstr(p->scn.msg, "Search is off"));
    assert_false(p->scn.used_search);
}

static void test_screens_page_shows_load_error(void **state)
{
    (void)state;
    PageState p;
    screen_page_init(&p, NULL, "x.lua", "x.lua:3: unexpected symbol near 'oops'", NULL, 0);
    ScreenCursor cur;
    char *text = draw_page(&p, 80, 24, &cur);
    assert_non_null(strstr(text, "x.lua:3: unexpected symbol"));
    assert_non_null(strstr(text, "press r to reload"));
    free(text);
    assert_int_equal(screen_page_key(&p, 'r'), SCREEN_RELOAD);
    assert_int_equal(screen_page_key(&p, UIK_ESC), SCREEN_BACK);
    screen_page_fini(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_screens_menu_moves_and_stops_at_ends),
        cmocka_unit_test(test_screens_menu_filter_by_words),
        cmocka_unit_test(test_screens_menu_draws_tracks_marks_and_cursor),
        cmocka_unit_test(test_screens_menu_tells_done_from_mastered),
        cmocka_unit_test(test_screens_menu_help_opens_and_any_key_closes),
        cmocka_unit_test(test_screens_menu_scrolls_to_keep_selection_visible),
        cmocka_unit_test(test_screens_too_small_is_one_line),
        cmocka_unit_test(test_screens_page_author_notes),
        cmocka_unit_test_setup_teardown(test_screens_page_next_prev_and_back, page_setup,
                                        page_teardown),
        cmocka_unit_test_setup_teardown(test_screens_scenario_swap_across_domain_and_back,
                                        page_setup, page_teardown),
        cmocka_unit_test_setup_teardown(test_screens_scenario_group_pick_and_cycle, page_setup,
                                        page_teardown),
        cmocka_unit_test_setup_teardown(test_screens_scenario_illegal_degree_is_explained,
                                        page_setup, page_teardown),
        cmocka_unit_test_setup_teardown(test_screens_scenario_hints_one_at_a_time_recorded,
                                        page_setup, page_teardown),
        cmocka_unit_test_setup_teardown(test_screens_scenario_cursor_on_gpu_and_explain,
                                        page_setup, page_teardown),
        cmocka_unit_test_setup_teardown(test_screens_review_replays_missed, page_setup,
                                        page_teardown),
        cmocka_unit_test_setup_teardown(test_screens_search_refused_unless_allowed, page_setup,
                                        page_teardown),
        cmocka_unit_test_setup_teardown(test_screens_quiz_answers_and_lesson_done, page_setup,
                                        page_teardown),
        cmocka_unit_test(test_screens_page_shows_load_error),
    };
    return cmocka_run_group_tests_name("screens", tests, NULL, NULL);
}
