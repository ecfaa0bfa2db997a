/* SPDX-License-Identifier: MIT */
/* test_play — free play, the search view and the SVG key without a terminal:
 * the lesson text free play writes passes `check` and loads back to the same
 * state (placement included), the search view searches only what a scenario
 * allows and applies its pick as one undoable move, stays interactive at
 * 131,072 GPUs, q asks before losing moves, files are never overwritten. */
#include "ui/screen_play.h"

#include "draw/canvas.h"
#include "lesson/lesson.h"
#include "model/sweep.h"
#include "ui/keys.h"
#include "ui/screen_sweep.h"
#include "ui/screens.h"

/* cmocka.h needs these four first. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void assert_close(double a, double b, double rel, const char *what)
{
    if (fabs(a - b) > rel * fabs(b)) {
        fprintf(stderr, "%s: got %.9g, want %.9g (rel %g)\n", what, a, b, rel);
        fail();
    }
}

/* 64 H100s in 8-GPU servers, Llama 3 70B, TP 4 PP 8 DP 2. */
static Scenario *make_scenario(unsigned allow, int gpus, const char *system, const char *model)
{
    Cluster c;
    char err[300];
    assert_true(cluster_from_system(&c, system, gpus, err, sizeof err));
    const WorkloadPreset *wp = workload_preset_find(model);
    assert_non_null(wp);
    Workload w = wp->w;
    Mapping m = {0};
    m.tp = 4;
    m.pp = 8;
    m.cp = 1;
    m.ep = 1;
    m.interleave = 1;
    m.zero = 1;
    m.dp = gpus / 32;
    Scenario *s = scenario_new(&c, &w, &m, NULL, allow, err, sizeof err);
    if (!s)
        fprintf(stderr, "scenario_new: %s\n", err);
    assert_non_null(s);
    return s;
}

static void count_problem(void *ctx, const char *line)
{
    fprintf(stderr, "check: %s\n", line);
    (*(int *)ctx)++;
}

static char tmpdir[64];

static int setup_dir(void **state)
{
    (void)state;
    return tl_tmpdir_make(tmpdir, sizeof tmpdir, "play") ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    return tl_tmpdir_remove(tmpdir) ? 0 : -1;
}

/* The written lesson passes check and loads back as the same state: same
 * mapping, micro-batch, domain size and every GPU's rank. */
static void test_play_lua_passes_check_and_round_trips(void **state)
{
    (void)state;
    Scenario *s = make_scenario(SCN_ALLOW_ALL, 64, "dgx-h100", "llama3-70b");
    char err[300], note[200];
    /* a placement that is not the default: two swaps and a group move */
    assert_true(scenario_apply_text(s, "swap 3 12", err, sizeof err));
    assert_true(scenario_apply_text(s, "swap 0 63", err, sizeof err));
    assert_true(scenario_apply_text(s, "mb 2", err, sizeof err));
    assert_true(scenario_apply_text(s, "domain 4", err, sizeof err));
    char *lua = screen_play_lua(s, "20260101-000000", note, sizeof note, err, sizeof err);
    assert_non_null(lua);
    assert_string_equal(note, "");
    assert_non_null(strstr(lua, "domain = 4"));
    assert_non_null(strstr(lua, "mb = 2"));
    assert_non_null(strstr(lua, "\"swap 0 63\""));
    char path[128];
    snprintf(path, sizeof path, "%s/round.lua", tmpdir);
    tl_write_file(path, lua);
    free(lua);
    int problems = 0;
    assert_int_equal(lesson_check_file(path, count_problem, &problems), 0);
    assert_int_equal(problems, 0);

    Scenario *back = screen_play_load(path, err, sizeof err);
    if (!back)
        fprintf(stderr, "load: %s\n", err);
    assert_non_null(back);
    assert_int_equal(scenario_allowed(back), SCN_ALLOW_ALL);
    assert_int_equal(scenario_cluster(back)->domain_gpus, 4);
    assert_int_equal(scenario_workload(back)->micro_batch, 2);
    assert_int_equal(scenario_mapping(back)->tp, 4);
    assert_int_equal(scenario_mapping(back)->pp, 8);
    for (int g = 0; g < 64; g++)
        assert_int_equal(placement_rank_on(scenario_placement(back), g),
                         placement_rank_on(scenario_placement(s), g));
    assert_close(scenario_result(back)->step_s, scenario_result(s)->step_s, 1e-12, "step");
    scenario_free(back);
    scenario_free(s);
}

/* A file that is not a lesson, or has no scenario, is refused with a reason. */
static void test_play_load_refuses_a_lesson_without_scenario(void **state)
{
    (void)state;
    char path[128], err[600] = "";
    snprintf(path, sizeof path, "%s/text.lua", tmpdir);
    tl_write_file(path, "return { id = \"t\", title = \"T\", summary = \"s\", pages = {\n"
                        "  { kind = \"text\", title = \"x\", text = \"hello\" } } }\n");
    assert_null(screen_play_load(path, err, sizeof err));
    assert_non_null(strstr(err, "no scenario page"));
}

/* w twice in one second: two files, the first kept. */
static void test_play_write_never_overwrites(void **state)
{
    (void)state;
    PlayState ps;
    screen_play_init(&ps, make_scenario(SCN_ALLOW_ALL, 64, "dgx-h100", "llama3-70b"), NULL);
    char a[600], b[600];
    assert_true(screen_play_write(&ps, tmpdir, a, sizeof a));
    assert_true(screen_play_write(&ps, tmpdir, b, sizeof b));
    assert_string_not_equal(a, b);
    struct stat st;
    assert_int_equal(stat(a, &st), 0);
    assert_int_equal(stat(b, &st), 0);
    int problems = 0;
    assert_int_equal(lesson_check_file(b, count_problem, &problems), 0);
    screen_play_fini(&ps);
}

/* q with unwritten moves asks; q again quits; w clears the question. */
static void test_play_q_asks_when_moves_are_not_written(void **state)
{
    (void)state;
    PlayState ps;
    screen_play_init(&ps, make_scenario(SCN_ALLOW_ALL, 64, "dgx-h100", "llama3-70b"), NULL);
    assert_int_equal(screen_play_key(&ps, 'q'), SCREEN_QUIT); /* nothing to lose */
    assert_int_equal(screen_play_key(&ps, 't'), SCREEN_NONE); /* TP 4 -> 8 */
    assert_int_equal(scenario_mapping(ps.page.scn.s)->tp, 8);
    assert_int_equal(screen_play_key(&ps, 'q'), SCREEN_NONE);
    assert_non_null(strstr(ps.page.scn.msg, "Quit without writing the 1 move"));
    assert_int_equal(screen_play_key(&ps, 'j'), SCREEN_NONE); /* any key: stay */
    assert_int_equal(screen_play_key(&ps, 'q'), SCREEN_NONE); /* asks again */
    assert_int_equal(screen_play_key(&ps, 'q'), SCREEN_QUIT);
    screen_play_fini(&ps);
}

/* A page showing scenario s, as screen_scenario_open leaves one. */
static void scenario_page(PageState *p, Scenario *s)
{
    memset(p, 0, sizeof *p);
    p->scn.picked = p->scn.pick_dim = p->scn.explain = -1;
    p->scn.s = s;
}

/* In a lesson scenario (no lesson here: goal never met), q asks once moves
 * were made, then passes q on to the page (which leaves). */
static void test_play_scenario_q_asks_after_moves(void **state)
{
    (void)state;
    PageState p;
    scenario_page(&p, make_scenario(SCN_ALLOW_ALL, 64, "dgx-h100", "llama3-70b"));
    assert_int_equal(screen_scenario_key(&p, 'q'), SCREEN_PASS);
    assert_int_equal(screen_scenario_key(&p, 'y'), SCREEN_NONE); /* PP 8 -> 16 */
    assert_int_equal(screen_scenario_key(&p, 'q'), SCREEN_NONE);
    assert_non_null(strstr(p.scn.msg, "Leave with 1 move made"));
    assert_int_equal(screen_scenario_key(&p, 'q'), SCREEN_PASS);
    screen_scenario_close(&p);
}

/* s, Enter: the winner becomes the state in one move; u takes it back. */
static void test_play_sweep_applies_the_winner_as_one_move(void **state)
{
    (void)state;
    PageState p;
    /* start from a poor mapping: TP 16 spills out of the 8-GPU servers */
    scenario_page(&p, make_scenario(SCN_ALLOW_ALL, 64, "dgx-h100", "llama3-70b"));
    char err[300];
    assert_true(scenario_apply_text(p.scn.s, "pp 4", err, sizeof err));
    assert_true(scenario_apply_text(p.scn.s, "tp 16", err, sizeof err));
    double before = scenario_result(p.scn.s)->step_s;
    assert_int_equal(screen_scenario_key(&p, 's'), SCREEN_NONE);
    assert_non_null(p.scn.sweep);
    assert_true(p.scn.sweep->open);
    assert_true(p.scn.sweep->r.n > 1);
    SweepEntry win = p.scn.sweep->r.entries[0];
    assert_true(win.fits);
    /* The ranking is by step time among those that fit. */
    for (int i = 1; i < p.scn.sweep->r.n_fit; i++)
        assert_true(p.scn.sweep->r.entries[i].step_s >= p.scn.sweep->r.entries[i - 1].step_s);
    /* Any TP beyond the 8-GPU server is slower than the winner (TP stays on NVLink). */
    assert_true(win.m.tp <= 8);
    assert_int_equal(screen_scenario_key(&p, UIK_ENTER), SCREEN_NONE);
    assert_false(p.scn.sweep->open);
    const Mapping *m = scenario_mapping(p.scn.s);
    assert_int_equal(m->tp, win.m.tp);
    assert_int_equal(m->pp, win.m.pp);
    assert_int_equal(m->dp, win.m.dp);
    assert_int_equal(scenario_workload(p.scn.s)->micro_batch, win.micro_batch);
    assert_close(scenario_result(p.scn.s)->step_s, win.step_s, 1e-9, "applied step");
    assert_true(win.step_s < before);
    assert_non_null(strstr(p.scn.msg, "Applied the search's #1"));
    assert_int_equal(screen_scenario_key(&p, 'u'), SCREEN_NONE);
    assert_int_equal(scenario_mapping(p.scn.s)->tp, 16);
    assert_close(scenario_result(p.scn.s)->step_s, before, 1e-12, "undone step");
    /* Esc leaves the search without a change. */
    assert_int_equal(screen_scenario_key(&p, 's'), SCREEN_NONE);
    assert_int_equal(screen_scenario_key(&p, UIK_ESC), SCREEN_NONE);
    assert_false(p.scn.sweep->open);
    assert_int_equal(scenario_mapping(p.scn.s)->tp, 16);
    screen_scenario_close(&p);
}

/* A scenario that allows only moves searches no degree or micro-batch:
 * every row keeps TP 4 PP 8 DP 2 and micro-batch 1, placements may differ. */
static void test_play_sweep_searches_only_what_is_allowed(void **state)
{
    (void)state;
    Scenario *s = make_scenario(SCN_ALLOW_MOVE, 64, "dgx-h100", "llama3-70b");
    SweepView v;
    memset(&v, 0, sizeof v);
    assert_true(screen_sweep_run(&v, s));
    assert_true(v.r.n >= 1 && v.r.n <= SWEEP_PLACE_COUNT);
    for (int i = 0; i < v.r.n; i++) {
        assert_int_equal(v.r.entries[i].m.tp, 4);
        assert_int_equal(v.r.entries[i].m.pp, 8);
        assert_int_equal(v.r.entries[i].m.dp, 2);
        assert_int_equal(v.r.entries[i].micro_batch, 1);
    }
    assert_non_null(strstr(v.scope, "nothing this scenario lets you change"));
    /* TP 4 x DP 2 fill an 8-GPU server: the DP-inside placement is a row,
     * and a moves-only scenario can take it (a placement change). */
    int alt = -1;
    for (int i = 0; i < v.r.n; i++)
        if (v.r.entries[i].place == SWEEP_PLACE_DP_INNER)
            alt = i;
    assert_true(alt >= 0);
    v.sel = alt;
    char err[300] = "";
    bool ok = screen_sweep_apply(&v, s, err, sizeof err);
    if (!ok)
        fprintf(stderr, "apply: %s\n", err);
    assert_true(ok);
    assert_false(placement_is_default(scenario_placement(s)));
    assert_int_equal(scenario_mapping(s)->tp, 4);
    assert_close(scenario_result(s)->step_s, v.r.entries[alt].step_s, 1e-9, "alt step");
    /* applying it again is refused with a reason, not silently */
    assert_false(screen_sweep_apply(&v, s, err, sizeof err));
    assert_string_equal(err, "this is already the current mapping");
    screen_sweep_fini(&v);
    scenario_free(s);
}

/* 131,072 GB200s: the search stays interactive (well under 200 ms) and its
 * view draws at 80x24 with the winner's explanation. */
static void test_play_sweep_is_interactive_at_131072_gpus(void **state)
{
    (void)state;
    Cluster c;
    char err[300];
    assert_true(cluster_from_system(&c, "gb200-nvl72", 131072, err, sizeof err));
    Workload w = workload_preset_find("llama3-405b")->w;
    w.global_batch = 16384; /* divisible by the DP degrees a 2^17 cluster gives */
    Mapping m = {.tp = 8, .pp = 16, .cp = 1, .ep = 1, .dp = 1024, .interleave = 1, .zero = 1};
    Scenario *s = scenario_new(&c, &w, &m, NULL, SCN_ALLOW_ALL, err, sizeof err);
    if (!s)
        fprintf(stderr, "scenario_new: %s\n", err);
    assert_non_null(s);
    SweepView v;
    memset(&v, 0, sizeof v);
    assert_true(screen_sweep_run(&v, s));
    fprintf(stderr, "sweep at 131072 GPUs: %.1f ms, %d candidates, %d evaluated\n", v.ms, v.r.n,
            v.r.evaluated);
    assert_true(v.ms < 200.0);
    assert_true(v.r.n > 10);
    Canvas *cv = canvas_new(80, 24);
    ScreenCursor cur = {-1, -1};
    screen_sweep_draw(cv, &v, s, 0, 0, 80, 20, &cur);
    /* on the selected row: title, counts (two lines at 80 columns), header, row 1 */
    assert_int_equal(cur.x, 0);
    assert_int_equal(cur.y, 4);
    char *text = canvas_to_text(cv);
    assert_non_null(strstr(text, "Best mappings: GB200 NVL72, 131072 GPUs"));
    assert_non_null(strstr(text, "#1 lands: TP "));
    assert_non_null(strstr(text, "Enter apply"));
    /* 20 rows at 80 columns still hold the chart, under fewer rows */
    assert_non_null(strstr(text, "Best step time against TP degree"));
    free(text);
    /* the explanation follows the selection */
    assert_int_equal(screen_sweep_key(&v, UIK_DOWN), SWEEP_KEY_NONE);
    canvas_clear(cv);
    screen_sweep_draw(cv, &v, s, 0, 0, 80, 20, &cur);
    text = canvas_to_text(cv);
    assert_non_null(strstr(text, "#2 lands: TP "));
    assert_int_equal(cur.y, 5);
    free(text);
    canvas_free(cv);
    screen_sweep_fini(&v);
    scenario_free(s);
}

/* A search that no batch split allows shows the model's one line, with the
 * nearest batches (worked in tests/suites/eval.sh: 2,043 and 2,052), on the
 * search screen at 80 columns. */
static void test_play_sweep_shows_the_batch_advice(void **state)
{
    (void)state;
    Scenario *s = make_scenario(SCN_ALLOW_ALL, 64, "dgx-h100", "llama3-70b");
    SweepView v;
    memset(&v, 0, sizeof v);
    v.open = true;
    Cluster c;
    assert_true(cluster_from_system(&c, "gb200-nvl72", 16416, NULL, 0));
    Workload w = workload_preset_find("llama3-405b")->w;
    w.global_batch = 2048;
    assert_false(sweep_run(&v.r, &c, &w, NULL, v.err, sizeof v.err));
    Canvas *cv = canvas_new(80, 24);
    ScreenCursor cur = {-1, -1};
    screen_sweep_draw(cv, &v, s, 0, 0, 80, 20, &cur);
    char *text = canvas_to_text(cv);
    assert_non_null(strstr(text, "no mapping of 16,416 GPUs splits a global batch of 2,048"));
    assert_non_null(strstr(text, "2,043 and 2,052"));
    free(text);
    canvas_free(cv);
    screen_sweep_fini(&v);
    scenario_free(s);
}

/* The free-play screen at 80x24: its title, no goal line, the keys. */
static void test_play_draw_names_the_keys(void **state)
{
    (void)state;
    PlayState ps;
    screen_play_init(&ps, make_scenario(SCN_ALLOW_ALL, 64, "dgx-h100", "llama3-70b"), NULL);
    Canvas *cv = canvas_new(80, 24);
    canvas_set_ascii(cv, true);
    ScreenCursor cur;
    screen_play_draw(cv, &ps, &cur);
    char *text = canvas_to_text(cv);
    assert_non_null(strstr(text, "Free play - DGX H100, 64 GPUs"));
    assert_non_null(strstr(text, "s search"));
    assert_non_null(strstr(text, "w write"));
    assert_null(strstr(text, "Goal:"));
    assert_true(cur.x >= 0 && cur.y >= 0);
    free(text);
    canvas_free(cv);
    screen_play_fini(&ps);
}

/* A TPU's chips are called chips on the free-play screen: the title, the
 * cursor line (written out by hand from its pattern "Chip N · domain D · TP
 * group X (chips a-b)") and a pick's message; "GPU" appears nowhere (the
 * footer's words name no accelerator), at 80x24 and 200x60, in UTF-8 and
 * ASCII. */
static void test_play_tpu_says_chips(void **state)
{
    (void)state;
    PlayState ps;
    screen_play_init(&ps, make_scenario(SCN_ALLOW_ALL, 256, "tpu-v5p", "llama3-8b"), NULL);
    assert_int_equal(screen_play_key(&ps, ' '), SCREEN_NONE); /* pick chip 0 */
    static const int size[2][2] = {{80, 24}, {200, 60}};
    for (int i = 0; i < 2; i++)
        for (int ascii = 0; ascii < 2; ascii++) {
            Canvas *cv = canvas_new(size[i][0], size[i][1]);
            canvas_set_ascii(cv, ascii);
            ScreenCursor cur;
            screen_play_draw(cv, &ps, &cur);
            char *text = canvas_to_text(cv);
            if (strstr(text, "GPU"))
                fail_msg("\"GPU\" on a TPU screen:\n%s", text);
            assert_non_null(strstr(text, "TPU v5p pod slice, 256 chips"));
            assert_non_null(strstr(text, ascii ? "Chip 0 | slice 0" : "Chip 0 · slice 0"));
            assert_non_null(
                strstr(text, ascii ? "TP group A (chips 0-3)" : "TP group A (chips 0–3)"));
            assert_non_null(strstr(text, "Chip 0 picked: move to another chip"));
            free(text);
            canvas_free(cv);
        }
    /* the ? overlay, made from the key tables, names no GPU either */
    screen_play_key(&ps, '?');
    Canvas *cv = canvas_new(80, 24);
    ScreenCursor cur;
    screen_play_draw(cv, &ps, &cur);
    char *text = canvas_to_text(cv);
    assert_non_null(strstr(text, "pick the one under the cursor"));
    if (strstr(text, "GPU"))
        fail_msg("\"GPU\" in a TPU scenario's help:\n%s", text);
    free(text);
    canvas_free(cv);
    screen_play_fini(&ps);
}

/* S: a well-formed SVG file of the canvas, named on return. */
static void test_play_export_svg_writes_a_new_file(void **state)
{
    (void)state;
    Canvas *cv = canvas_new(20, 3);
    canvas_put_text(cv, 0, 0, "TP <8> & PP", STYLE_BOLD);
    char where[600];
    assert_true(screen_play_export_svg(cv, "t", tmpdir, where, sizeof where));
    FILE *f = fopen(where, "r");
    assert_non_null(f);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    assert_non_null(strstr(buf, "<svg"));
    assert_non_null(strstr(buf, "&lt;8&gt; &amp;"));
    assert_non_null(strstr(buf, "</svg>"));
    char again[600];
    assert_true(screen_play_export_svg(cv, "t", tmpdir, again, sizeof again));
    assert_string_not_equal(where, again);
    assert_false(screen_play_export_svg(cv, "t", "/nonexistent/dir", where, sizeof where));
    assert_non_null(strstr(where, "cannot write"));
    canvas_free(cv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_lua_passes_check_and_round_trips),
        cmocka_unit_test(test_play_load_refuses_a_lesson_without_scenario),
        cmocka_unit_test(test_play_write_never_overwrites),
        cmocka_unit_test(test_play_q_asks_when_moves_are_not_written),
        cmocka_unit_test(test_play_scenario_q_asks_after_moves),
        cmocka_unit_test(test_play_sweep_applies_the_winner_as_one_move),
        cmocka_unit_test(test_play_sweep_searches_only_what_is_allowed),
        cmocka_unit_test(test_play_sweep_is_interactive_at_131072_gpus),
        cmocka_unit_test(test_play_sweep_shows_the_batch_advice),
        cmocka_unit_test(test_play_draw_names_the_keys),
        cmocka_unit_test(test_play_tpu_says_chips),
        cmocka_unit_test(test_play_export_svg_writes_a_new_file),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
