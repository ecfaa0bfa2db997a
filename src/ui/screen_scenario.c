/* SPDX-License-Identifier: MIT */
/* screen_scenario — the interactive scenario page: the state a learner
 * changes with keys (a cursor, picking a GPU or a whole TP/PP/DP group and
 * dropping it where the cursor is, the degree, micro-batch, domain and
 * system keys, undo/reset/reference, hints, explain), the goal checked after
 * every move, a prediction before a move the lesson marks, and progress.
 * The picture is draw/scenario_view.c's, from a plain ScenarioScreen made
 * here, so `render` shows what the learner sees.
 *
 * The keys' effects are the scenario's own (learn/scenario.h: scenario_press,
 * scenario_swap_gpus, scenario_move_group), so the par search makes the
 * same moves and counts the same presses. Every illegal move is explained
 * in msg (the scenario's own reason), never silently refused. Pure: no
 * curses; the Scenario is owned by the PageState.
 */
#include "ui/screens.h"

#include "base/xmem.h"
#include "draw/scenario_view.h"
#include "lesson/lesson.h"
#include "model/hw.h"
#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/screen_compare.h"
#include "ui/screen_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool screen_scenario_serving(const ScenarioView *v)
{
    return scenario_serve(v->s) != NULL;
}

/* Runs the goal and records success. */
static void screen_scenario_check(PageState *p)
{
    ScenarioView *v = &p->scn;
    char why[256] = "", err[MSG_LEN] = "";
    if (!p->lesson) { /* free play: no goal */
        v->goal = 0;
        v->why[0] = '\0';
        return;
    }
    int met = lesson_scenario_goal_met(p->lesson, p->page, v->s, why, sizeof why, err, sizeof err);
    v->goal = met;
    v->why[0] = '\0';
    if (met < 0) {
        snprintf(v->why, sizeof v->why, "%s", err);
        return;
    }
    if (met == 1) {
        LessonPlay play = {scenario_presses(v->s), v->hints, v->used_search};
        char derr[MSG_LEN] = "";
        if (!lesson_scenario_debrief_for(p->lesson, p->page, v->s, &play, v->debrief,
                                         sizeof v->debrief, derr, sizeof derr) &&
            derr[0])
            snprintf(v->why, sizeof v->why, "%s", derr);
        if (!v->met && p->progress) {
            progress_set_moves(p->progress, lesson_id(p->lesson), p->page, scenario_presses(v->s),
                               NULL, 0);
            progress_set_scenario_met(p->progress, lesson_id(p->lesson), p->page, NULL, 0);
        }
        if (!v->met)
            snprintf(v->msg, sizeof v->msg, "Goal met! Read the debrief; n goes on.");
        v->met = true;
        return;
    }
    scenario_view_why(v->s, why, p->ascii, v->why, sizeof v->why);
}

void screen_scenario_open(PageState *p)
{
    ScenarioView *v = &p->scn;
    memset(v, 0, sizeof *v);
    v->picked = -1;
    v->pick_dim = -1;
    v->explain = -1;
    char err[MSG_LEN] = "";
    v->s = lesson_scenario_start(p->lesson, p->page, err, sizeof err);
    if (!v->s) {
        snprintf(p->page_error, sizeof p->page_error, "%s", err[0] ? err : "scenario failed");
        return;
    }
    if (p->progress)
        v->hints = progress_hints(p->progress, lesson_id(p->lesson), p->page);
    int hc = lesson_scenario_hint_count(p->lesson, p->page);
    if (v->hints > hc)
        v->hints = hc;
    v->met = p->progress && progress_scenario_met(p->progress, lesson_id(p->lesson), p->page);
    screen_scenario_check(p);
    v->msg[0] = '\0';
}

void screen_scenario_close(PageState *p)
{
    screen_sweep_fini(p->scn.sweep);
    free(p->scn.sweep);
    screen_compare_free(p->scn.compare);
    scenario_free(p->scn.s);
    memset(&p->scn, 0, sizeof p->scn);
    p->scn.picked = -1;
    p->scn.pick_dim = -1;
    p->scn.explain = -1;
}

/* A prediction waits for this move: the lesson marks the first move of a
 * kind, asked once per visit (presenter and free play have no lesson
 * progress to keep it in, but ask all the same when the page has one). */
static bool screen_scenario_asks(const PageState *p, GuessAt made)
{
    GuessSpec g;
    return p->lesson && !p->scn.guessed && lesson_scenario_guess(p->lesson, p->page, &g) &&
           guess_at_matches(g.at, made);
}

static void screen_scenario_after(PageState *p, bool ok, const char *err, GuessAt made)
{
    ScenarioView *v = &p->scn;
    if (!ok) {
        snprintf(v->msg, sizeof v->msg, "Not possible: %s", err && *err ? err : "refused");
        return;
    }
    v->msg[0] = '\0';
    v->verdict[0] = '\0'; /* it answered the move before */
    v->moves++;
    scenario_view_effect(v->s, p->ascii, v->last, sizeof v->last);
    if (screen_scenario_asks(p, made)) {
        v->guessing = true; /* the goal is checked once the answer is in */
        return;
    }
    screen_scenario_check(p);
}

bool screen_scenario_apply(PageState *p, const char *move)
{
    if (!p->scn.s)
        return false;
    char err[256] = "";
    int presses;
    bool ok = scenario_type_text(p->scn.s, move, &presses, err, sizeof err) ||
              scenario_apply_text(p->scn.s, move, err, sizeof err);
    screen_scenario_after(p, ok, err, lesson_move_kind(move));
    return ok;
}

/* The answer to a prediction: graded, kept as the page's first try, and
 * the result shown. */
static void screen_scenario_answer(PageState *p, int choice)
{
    ScenarioView *v = &p->scn;
    GuessSpec g;
    lesson_scenario_guess(p->lesson, p->page, &g);
    bool serving = screen_scenario_serving(v);
    GuessMove m = serving ? guess_move_serve(scenario_serve_previous(v->s), scenario_serve(v->s))
                          : guess_move_step(scenario_previous(v->s), scenario_result(v->s));
    const char *labels[GUESS_MAX_CHOICES];
    guess_choices(g.ask, serving, labels, GUESS_MAX_CHOICES);
    bool right = guess_is_right(g.ask, &m, choice);
    char what[200];
    guess_outcome(g.ask, serving, &m, p->ascii, what, sizeof what);
    if (right)
        snprintf(v->verdict, sizeof v->verdict, "\"%s\": right, %s.", labels[choice], what);
    else
        snprintf(v->verdict, sizeof v->verdict, "\"%s\": not this time: %s (\"%s\").",
                 labels[choice], what, labels[guess_answer(g.ask, &m)]);
    if (p->progress)
        progress_record_prediction(p->progress, lesson_id(p->lesson), p->page, right, NULL, 0);
    v->guessing = false;
    v->guessed = true;
    screen_scenario_check(p);
}

/* While a prediction waits: 1..n answer, u takes the move back, the rest
 * says what is asked. */
static int screen_scenario_key_guessing(PageState *p, int key)
{
    ScenarioView *v = &p->scn;
    GuessSpec g;
    lesson_scenario_guess(p->lesson, p->page, &g);
    int n = guess_choices(g.ask, screen_scenario_serving(v), NULL, GUESS_MAX_CHOICES);
    if (key >= '1' && key < '1' + n) {
        screen_scenario_answer(p, key - '1');
        return SCREEN_NONE;
    }
    if (key == 'u' && scenario_undo(v->s)) {
        v->guessing = false;
        v->moves--;
        v->last[0] = '\0';
        screen_scenario_check(p);
        snprintf(v->msg, sizeof v->msg, "Undone: the next such move asks again.");
        return SCREEN_NONE;
    }
    if (key == '?' || key == 'q' || key == UIK_RESIZE)
        return SCREEN_PASS;
    snprintf(v->msg, sizeof v->msg, "Predict first: press 1 to %d (u takes the move back).", n);
    return SCREEN_NONE;
}

/* ---- keys: one handler per row of the table below ---- */

static int screen_scenario_key_cursor(void *st, int key)
{
    ScenarioView *v = &((PageState *)st)->scn;
    const Cluster *c = scenario_cluster(v->s);
    int n = cluster_machine_gpus(c), dom = cluster_domain_of(c, v->cursor);
    int slot = v->cursor - cluster_domain_first(c, dom);
    if ((key == UIK_LEFT || key == 'H') && v->cursor > 0)
        v->cursor--;
    else if ((key == UIK_RIGHT || key == 'L') && v->cursor + 1 < n)
        v->cursor++;
    else if ((key == UIK_UP || key == 'K' || key == UIK_DOWN || key == 'J')) {
        /* the same place in the domain above or below (its last GPU when
         * that domain is smaller) */
        int to = dom + (key == UIK_UP || key == 'K' ? -1 : 1);
        int size = cluster_domain_size(c, to);
        if (size > 0)
            v->cursor = cluster_domain_first(c, to) + (slot < size ? slot : size - 1);
    }
    return SCREEN_NONE;
}

static int screen_scenario_key_pick(void *st, int key)
{
    (void)key;
    ScenarioView *v = &((PageState *)st)->scn;
    const Cluster *c = scenario_cluster(v->s);
    if (v->picked == v->cursor && v->pick_dim < 0) {
        v->picked = -1;
        return SCREEN_NONE;
    }
    if (!(scenario_allowed(v->s) & SCN_ALLOW_MOVE)) {
        bool groups = scenario_allowed(v->s) & SCN_ALLOW_GROUPS;
        snprintf(v->msg, sizeof v->msg, "This scenario moves %s: %s.",
                 groups ? "whole groups, not single GPUs" : "no GPUs",
                 groups ? "g picks the group under the cursor" : "its keys change the settings");
        return SCREEN_NONE;
    }
    if (cluster_gpu_state(c, v->cursor) != CLUSTER_GPU_UP) {
        snprintf(v->msg, sizeof v->msg, "%s %d is %s: it runs nothing to move.",
                 hw_noun(&c->gpu, HW_NOUN_CAP), v->cursor,
                 cluster_gpu_state(c, v->cursor) == CLUSTER_GPU_BUSY ? "another job's" : "failed");
        return SCREEN_NONE;
    }
    v->picked = v->cursor;
    v->pick_dim = -1;
    snprintf(v->msg, sizeof v->msg,
             "%s %d picked: move to another %s and press Enter to swap them.",
             hw_noun(&c->gpu, HW_NOUN_CAP), v->cursor, hw_noun(&c->gpu, 0));
    return SCREEN_NONE;
}

/* g: the cursor GPU's group of the first kind the scenario lets move, then
 * the next kind on each press (scenario_pick_cycle). */
static int screen_scenario_key_group(void *st, int key)
{
    (void)key;
    ScenarioView *v = &((PageState *)st)->scn;
    const Cluster *c = scenario_cluster(v->s);
    MappingDim cycle[4];
    int n = scenario_pick_cycle(v->s, cycle, 4);
    if (n == 0) {
        snprintf(v->msg, sizeof v->msg, "This scenario does not let you move groups.");
        return SCREEN_NONE;
    }
    if (placement_rank_on(scenario_placement(v->s), v->cursor) < 0) {
        snprintf(v->msg, sizeof v->msg, "%s %d runs no rank: put the cursor on a group first.",
                 hw_noun(&c->gpu, HW_NOUN_CAP), v->cursor);
        return SCREEN_NONE;
    }
    int next = 0;
    if (v->picked == v->cursor && v->pick_dim >= 0)
        for (int i = 0; i < n; i++)
            if ((int)cycle[i] == v->pick_dim)
                next = (i + 1) % n;
    v->picked = v->cursor;
    v->pick_dim = (int)cycle[next];
    snprintf(v->msg, sizeof v->msg,
             "The %s group of %s %d is picked%s. Move to where it goes, Enter.",
             mapping_dim_name(cycle[next]), hw_noun(&c->gpu, 0), v->cursor,
             n > 1 ? " (g again: next kind)" : "");
    return SCREEN_NONE;
}

static int screen_scenario_key_drop(void *st, int key)
{
    (void)key;
    PageState *p = st;
    ScenarioView *v = &p->scn;
    const Cluster *c = scenario_cluster(v->s);
    if (v->picked < 0) {
        snprintf(v->msg, sizeof v->msg,
                 "Pick something first: Space picks the %s under the cursor, g its group.",
                 hw_noun(&c->gpu, 0));
        return SCREEN_NONE;
    }
    if (v->pick_dim < 0 && v->picked == v->cursor) {
        v->picked = -1;
        return SCREEN_NONE;
    }
    char err[256] = "";
    bool ok = v->pick_dim < 0 ? scenario_swap_gpus(v->s, v->picked, v->cursor, err, sizeof err)
                              : scenario_move_group(v->s, v->picked, (MappingDim)v->pick_dim,
                                                    v->cursor, err, sizeof err);
    GuessAt made = v->pick_dim < 0 ? GUESS_AT_SWAP : GUESS_AT_GROUP;
    if (ok) {
        v->picked = -1;
        v->pick_dim = -1;
    }
    screen_scenario_after(p, ok, err, made);
    return SCREEN_NONE;
}

static int screen_scenario_key_esc(void *st, int key)
{
    (void)key;
    ScenarioView *v = &((PageState *)st)->scn;
    if (v->picked >= 0) {
        v->picked = -1;
        v->pick_dim = -1;
    } else if (v->explain >= 0) {
        v->explain = -1;
    } else {
        return SCREEN_PASS;
    }
    return SCREEN_NONE;
}

/* t/T y/Y d/D x/X m/M + - ] [: one press of a setting (scenario_press). */
static int screen_scenario_key_setting(void *st, int key)
{
    PageState *p = st;
    ScenarioView *v = &p->scn;
    int k = 0;
    while (k < SCN_KEY_COUNT && scenario_key_char((ScenarioKey)k) != key)
        k++;
    if (key == '=')
        k = SCN_KEY_DOMAIN_UP;
    else if (key == '_')
        k = SCN_KEY_DOMAIN_DOWN;
    if (k == SCN_KEY_COUNT)
        return SCREEN_PASS;
    char err[256] = "";
    bool ok = scenario_press(v->s, (ScenarioKey)k, err, sizeof err);
    unsigned what = scenario_key_allow((ScenarioKey)k);
    GuessAt made = what == SCN_ALLOW_DEGREES  ? GUESS_AT_DEGREE
                   : what == SCN_ALLOW_MICRO  ? GUESS_AT_MICRO
                   : what == SCN_ALLOW_DOMAIN ? GUESS_AT_DOMAIN
                                              : GUESS_AT_SYSTEM;
    screen_scenario_after(p, ok, err, made);
    /* what the move was (not what it did: that may wait for a prediction) */
    const Cluster *c = scenario_cluster(v->s);
    if (ok && what == SCN_ALLOW_SYSTEM)
        snprintf(v->msg, sizeof v->msg, "System: %s.", c->name);
    else if (ok && what == SCN_ALLOW_DOMAIN)
        snprintf(v->msg, sizeof v->msg, "Scale-up domains of %d %s now: %d of them.",
                 c->domain_gpus, hw_noun(&c->gpu, HW_NOUN_MANY), cluster_domain_count(c));
    return SCREEN_NONE;
}

static int screen_scenario_key_search(void *st, int key)
{
    (void)key;
    ScenarioView *v = &((PageState *)st)->scn;
    if (!(scenario_allowed(v->s) & SCN_ALLOW_SEARCH)) {
        snprintf(v->msg, sizeof v->msg,
                 "Search is off in this scenario: the decisions are yours (h gives a hint).");
        return SCREEN_NONE;
    }
    if (screen_scenario_serving(v)) {
        snprintf(v->msg, sizeof v->msg, "The search ranks training steps; this scenario serves.");
        return SCREEN_NONE;
    }
    if (!v->sweep)
        v->sweep = xmem_calloc(1, sizeof *v->sweep);
    screen_sweep_run(v->sweep, v->s);
    return SCREEN_NONE;
}

static void screen_scenario_undo(PageState *p)
{
    if (scenario_undo(p->scn.s)) {
        p->scn.moves--; /* taking a move back is not a move */
        scenario_view_effect(p->scn.s, p->ascii, p->scn.last, sizeof p->scn.last);
        screen_scenario_check(p);
        snprintf(p->scn.msg, sizeof p->scn.msg, "Undone.");
    } else {
        snprintf(p->scn.msg, sizeof p->scn.msg, "Nothing to undo.");
    }
}

static void screen_scenario_reset(PageState *p)
{
    scenario_reset(p->scn.s);
    p->scn.picked = -1;
    p->scn.pick_dim = -1;
    p->scn.moves = 0;
    p->scn.last[0] = '\0';
    screen_scenario_check(p);
    snprintf(p->scn.msg, sizeof p->scn.msg, "Back to the start: 0 key presses.");
}

static void screen_scenario_mark(PageState *p)
{
    scenario_set_reference(p->scn.s);
    screen_compare_mark(p);
    snprintf(p->scn.msg, sizeof p->scn.msg,
             "This state is now the reference for the change shown.");
}

/* u, 0, b: the history of the page's moves. */
static int screen_scenario_key_history(void *st, int key)
{
    if (key == 'u')
        screen_scenario_undo(st);
    else if (key == '0')
        screen_scenario_reset(st);
    else
        screen_scenario_mark(st);
    return SCREEN_NONE;
}

static int screen_scenario_key_hint(void *st, int key)
{
    (void)key;
    PageState *p = st;
    ScenarioView *v = &p->scn;
    int hc = p->lesson ? lesson_scenario_hint_count(p->lesson, p->page) : 0;
    if (hc == 0) {
        snprintf(v->msg, sizeof v->msg, "This scenario has no hints.");
    } else if (v->hints < hc) {
        v->hints++;
        if (p->progress)
            progress_set_hints(p->progress, lesson_id(p->lesson), p->page, v->hints, NULL, 0);
    } else {
        snprintf(v->msg, sizeof v->msg, "That was the last hint.");
    }
    return SCREEN_NONE;
}

static int screen_scenario_key_compare(void *st, int key)
{
    (void)key;
    PageState *p = st;
    if (screen_scenario_serving(&p->scn)) {
        snprintf(p->scn.msg, sizeof p->scn.msg,
                 "Compare shows training steps; the bar here is already against the start.");
        return SCREEN_NONE;
    }
    screen_compare_open(st);
    return SCREEN_NONE;
}

static int screen_scenario_key_explain(void *st, int key)
{
    ScenarioView *v = &((PageState *)st)->scn;
    int n = scenario_view_explain_count(v->s);
    if (key == 'E')
        v->explain = -1;
    else
        v->explain = v->explain + 1 >= n ? -1 : v->explain + 1;
    return SCREEN_NONE;
}

/* j/k: the feedback area (hints, the debrief) one line down / up. */
static int screen_scenario_key_scroll(void *st, int key)
{
    PageState *p = st;
    if (key == 'j' && p->scroll + 1 < p->lines)
        p->scroll++;
    else if (key == 'k' && p->scroll > 0)
        p->scroll--;
    return SCREEN_NONE;
}

/* q with moves made and the goal not met asks first (q again leaves). */
static int screen_scenario_key_quit(void *st, int key)
{
    (void)key;
    ScenarioView *v = &((PageState *)st)->scn;
    if (v->moves == 0 || v->goal == 1 || v->confirm_quit)
        return SCREEN_PASS;
    v->confirm_quit = true;
    snprintf(v->msg, sizeof v->msg,
             "Leave with %d move%s made and the goal not met? q again leaves, any other key "
             "stays.",
             v->moves, v->moves == 1 ? "" : "s");
    return SCREEN_NONE;
}

/* Footer priorities: 1 the page keys a learner needs first (n/p, Esc, e,
 * c come from here and the page table), then picking, then the degrees. */
static const KeyBinding screen_scenario_rows[] = {
    {{UIK_LEFT, UIK_RIGHT, UIK_UP, UIK_DOWN, 'H', 'L', 'K', 'J'},
     "←↓↑→, H J K L",
     "cursor: left/right one accelerator, up/down domain",
     "←↓↑→ move",
     2,
     screen_scenario_key_cursor},
    {{' '}, "Space", "pick the one under the cursor", "Space pick", 2, screen_scenario_key_pick},
    {{'g'}, "g", "pick its group; again: the next kind", "g group", 2, screen_scenario_key_group},
    {{UIK_ENTER},
     "Enter",
     "drop: swap places, or the picked group goes here",
     "Enter drop",
     2,
     screen_scenario_key_drop},
    {{UIK_ESC},
     "Esc",
     "drop the pick (or close explain); else the menu",
     "Esc menu",
     0,
     screen_scenario_key_esc},
    {{'e', 'E'},
     "e / E",
     "explain the next number: parts, step, MFU (E closes)",
     "e explain",
     1,
     screen_scenario_key_explain},
    {{'c'},
     "c",
     "compare with the start, or the b reference, side by side",
     "c compare",
     1,
     screen_scenario_key_compare},
    {{'h'},
     "h",
     "next hint (nudge, concept, near-solution)",
     "h hint",
     1,
     screen_scenario_key_hint},
    {{'u', '0', 'b'},
     "u / 0 / b",
     "undo, reset to the start (0 presses), mark the reference",
     "u undo",
     4,
     screen_scenario_key_history},
    {{'t', 'T', 'y', 'Y', 'd', 'D', 'x', 'X'},
     "t/T y/Y d/D x/X",
     "TP, PP, DP, EP degree up (x2) / down (/2)",
     "t/y/d/x degrees",
     4,
     screen_scenario_key_setting},
    {{'m', 'M'}, "m/M", "micro-batch up / down", "m/M mb", 5, screen_scenario_key_setting},
    {{'+', '=', '-', '_'},
     "+ / -",
     "bigger / smaller scale-up domain",
     "+/- domain",
     5,
     screen_scenario_key_setting},
    {{']', '['},
     "] / [",
     "next / previous system preset",
     "]/[ system",
     6,
     screen_scenario_key_setting},
    {{'s'},
     "s",
     "search the best mappings (Enter applies one, Esc back)",
     "s search",
     4,
     screen_scenario_key_search},
    {{'j', 'k'},
     "j / k",
     "scroll the feedback (hints, the debrief) down / up",
     NULL,
     0,
     screen_scenario_key_scroll},
    {{'q'},
     "q",
     "leave (asks first when the goal is not met after moves)",
     NULL,
     0,
     screen_scenario_key_quit},
};
const KeyTable screen_scenario_keys = KEYMAP_TABLE("Scenario keys", screen_scenario_rows);

/* The search view's keys; Enter applies the selected mapping. */
static void screen_scenario_sweep_key(PageState *p, int key)
{
    ScenarioView *v = &p->scn;
    char err[256] = "";
    SweepKey sk = screen_sweep_key(v->sweep, key);
    if (sk != SWEEP_KEY_APPLY)
        return;
    char map[64];
    bool ok = screen_sweep_apply(v->sweep, v->s, err, sizeof err);
    if (ok && !v->used_search) {
        v->used_search = true;
        if (p->progress && p->lesson)
            progress_set_search_used(p->progress, lesson_id(p->lesson), p->page, NULL, 0);
    }
    screen_scenario_after(p, ok, err, GUESS_AT_DEGREE);
    if (ok && !v->guessing) {
        char said[sizeof v->msg]; /* "Goal met!" when the pick met it */
        snprintf(said, sizeof said, "%s", v->msg);
        snprintf(v->msg, sizeof v->msg,
                 "Applied the search's #%d: %s, mb%d (u undoes it).%s%.200s", v->sweep->sel + 1,
                 mapping_format(scenario_mapping(v->s), map, sizeof map),
                 scenario_workload(v->s)->micro_batch, said[0] ? " " : "", said);
    }
}

ScreenAction screen_scenario_key(PageState *p, int key)
{
    ScenarioView *v = &p->scn;
    if (!v->s)
        return SCREEN_PASS;
    if (key == UIK_RESIZE)
        return SCREEN_NONE;
    if (v->sweep && v->sweep->open) {
        screen_scenario_sweep_key(p, key);
        return SCREEN_NONE;
    }
    if (screen_compare_is_open(p))
        return screen_compare_key(p, key);
    v->msg[0] = '\0';
    if (v->guessing)
        return (ScreenAction)screen_scenario_key_guessing(p, key);
    const KeyBinding *b = keymap_find(&screen_scenario_keys, key);
    if (key != 'q')
        v->confirm_quit = false;
    if (b && b->fn != screen_scenario_key_scroll) {
        p->scroll = 0; /* what the key says shows from the top */
        v->fresh = b->fn == screen_scenario_key_hint      ? SCENARIO_FRESH_HINT
                   : b->fn == screen_scenario_key_explain ? SCENARIO_FRESH_EXPLAIN
                                                          : SCENARIO_FRESH_NONE;
    }
    return b ? (ScreenAction)b->fn(p, key) : SCREEN_PASS;
}

/* ---- drawing: draw/scenario_view.c over the page's state ---- */

void screen_scenario_draw(Canvas *c, PageState *p, int top, int bottom, ScreenCursor *cur)
{
    ScenarioView *v = &p->scn;
    if (!v->s)
        return;
    int w = canvas_width(c);
    if (v->sweep && v->sweep->open) {
        screen_sweep_draw(c, v->sweep, v->s, 2, top - 1, w - 4, bottom - top + 1, cur);
        return;
    }
    if (screen_compare_is_open(p)) {
        screen_compare_draw_scenario(c, p, top, bottom);
        return;
    }
    ScenarioScreen sv = scenario_view_state(v->s);
    Lesson *l = p->lesson;
    int hc = l ? lesson_scenario_hint_count(l, p->page) : 0;
    LessonTarget target = {0};
    GuessSpec g = {GUESS_AT_ANY, GUESS_CHANGE};
    if (l) {
        sv.brief = lesson_page_text(l, p->page);
        sv.goal_text = lesson_scenario_goal_text(l, p->page);
        sv.par = lesson_scenario_par(l, p->page);
        lesson_scenario_target(l, p->page, &target);
        lesson_scenario_guess(l, p->page, &g);
    }
    sv.target_s = screen_scenario_serving(v) ? target.token_s : target.step_s;
    sv.hint_count = hc;
    sv.hint_no = v->hints;
    sv.hint = v->hints > 0 && hc > 0 ? lesson_scenario_hint(l, p->page, v->hints - 1) : NULL;
    sv.cursor = v->cursor;
    sv.picked = v->picked;
    sv.pick_dim = v->pick_dim;
    sv.goal = v->goal;
    sv.why = v->why;
    sv.msg = v->msg;
    sv.last = v->last;
    sv.debrief = v->debrief;
    sv.met = v->met;
    sv.explain = v->explain;
    sv.guessing = v->guessing;
    sv.ask = g.ask;
    sv.guess_verdict = v->verdict;
    sv.scroll = p->scroll;
    sv.fresh = v->fresh;
    ScenarioDrawn out;
    scenario_view_draw(c, &sv, top, bottom, &out);
    p->lines = out.lines;
    p->scroll = out.scroll;
    if (out.cursor.x >= 0) {
        cur->x = out.cursor.x;
        cur->y = out.cursor.y;
    }
}

const ScreenPageKind screen_kind_scenario = {
    "scenario",           screen_scenario_open,  NULL, screen_scenario_key,
    screen_scenario_draw, &screen_scenario_keys, 2,
};
