/* SPDX-License-Identifier: MIT */
/* screen_scenario — the interactive scenario page: the cluster as boxes of
 * scale-up domains with each GPU drawn as the letter of its parallel group
 * (colour repeats the letter, never replaces it), a cursor, picking a GPU or
 * a whole TP/PP/DP group and dropping it into another domain, keys for the
 * degrees, micro-batch, domain size and system, undo/reset/reference, and
 * the live result: stacked bar, step time, tokens/s, MFU, bottleneck, the
 * effect of the last move, the goal with why it is not met in model terms,
 * hints one at a time and "explain" for the formula behind each part.
 *
 * Every illegal move is explained in msg (the scenario's own reason), never
 * silently refused. Pure: no curses; the Scenario is owned by the PageState.
 */
#include "ui/screens.h"

#include "base/utf8.h"
#include "base/xmem.h"
#include "draw/charts.h"
#include "draw/diagram.h"
#include "draw/text.h"
#include "lesson/lesson.h"
#include "model/hw.h"
#include "model/units.h"
#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/screen_cluster.h"
#include "ui/screen_compare.h"
#include "ui/screen_sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Explain entries: each step part, then the step, tokens/s and MFU. */
enum {
    SCREEN_EXPLAIN_STEP = STEP_PART_COUNT,
    SCREEN_EXPLAIN_TOKENS,
    SCREEN_EXPLAIN_MFU,
    SCREEN_EXPLAIN_COUNT
};

static char *screen_scenario_time(double s, bool ascii, char *buf)
{
    return units_format(UNITS_TIME, s, ascii, buf, 32);
}

/* Why the goal is not met, in terms of the model: a TP/EP group that spans
 * domains pays scale-out bandwidth; else the memory or the bottleneck. */
static void screen_scenario_model_why(const ScenarioView *v, bool ascii, char *buf, size_t n)
{
    const Scenario *s = v->s;
    const Cluster *c = scenario_cluster(s);
    const Mapping *m = scenario_mapping(s);
    const Placement *pl = scenario_placement(s);
    const StepResult *r = scenario_result(s);
    const StepResult *st = scenario_start_result(s);
    static const struct {
        MappingDim dim;
        StepPart part;
        const char *coll;
    } spill[] = {{DIM_TP, STEP_TP, "all-reduce"}, {DIM_EP, STEP_EP, "all-to-all"}};
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof spill / sizeof spill[0]; i++) {
        MappingDim d = spill[i].dim;
        if (mapping_dim_size(m, d) <= 1 || r->span[d].domains <= 1)
            continue;
        int world = mapping_world(m);
        for (int rank = 0; rank < world; rank++) {
            if (mapping_coord(m, rank, d) != 0)
                continue;
            GroupSpan sp = span_of_group(m, c, pl, d, rank);
            if (sp.domains <= 1)
                continue;
            char out[32], up[32], dt[32];
            double delta = r->part_s[spill[i].part] - st->part_s[spill[i].part];
            units_format(UNITS_BANDWIDTH, c->out_bytes_per_s, ascii, out, sizeof out);
            units_format(UNITS_BANDWIDTH, c->up_bytes_per_s, ascii, up, sizeof up);
            int gpu = pl ? placement_gpu_of(pl, rank) : rank;
            int len = snprintf(buf, n,
                               "the %s group of %s %d spans %d domains: its %s runs at %s "
                               "instead of %s",
                               mapping_dim_name(d), hw_noun(&c->gpu, 0), gpu, sp.domains,
                               spill[i].coll, out, up);
            if (delta > 1e-9 && len > 0 && (size_t)len < n)
                snprintf(buf + len, n - (size_t)len, ", +%s against the start",
                         screen_scenario_time(delta, ascii, dt));
            return;
        }
    }
    if (!r->fits) {
        const char *b = r->bottleneck;
        if (strncmp(b, "does not fit: ", 14) == 0)
            b += 14;
        snprintf(buf, n, "it does not fit in memory: %s", b);
    }
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
        LessonPlay play = {v->moves, v->hints, v->used_search};
        char derr[MSG_LEN] = "";
        if (!lesson_scenario_debrief_for(p->lesson, p->page, v->s, &play, v->debrief,
                                         sizeof v->debrief, derr, sizeof derr) &&
            derr[0])
            snprintf(v->why, sizeof v->why, "%s", derr);
        if (!v->met && p->progress) {
            progress_set_moves(p->progress, lesson_id(p->lesson), p->page, v->moves, NULL, 0);
            progress_set_scenario_met(p->progress, lesson_id(p->lesson), p->page, NULL, 0);
        }
        if (!v->met)
            snprintf(v->msg, sizeof v->msg, "Goal met! Read the debrief; n goes on.");
        v->met = true;
        return;
    }
    char model[300];
    screen_scenario_model_why(v, p->ascii, model, sizeof model);
    const char *mem = "it does not fit in memory: ";
    if (why[0] && strncmp(model, mem, strlen(mem)) == 0)
        snprintf(v->why, sizeof v->why, "%s: %s", why, model + strlen(mem));
    else if (why[0] && model[0])
        snprintf(v->why, sizeof v->why, "%s: %s", why, model);
    else if (why[0])
        snprintf(v->why, sizeof v->why, "%s", why);
    else
        snprintf(v->why, sizeof v->why, "%s",
                 model[0] ? model : scenario_result(v->s)->bottleneck);
}

/* The effect of the last move: the part that changed most, and the step. */
static void screen_scenario_effect(ScenarioView *v, bool ascii)
{
    const StepResult *a = scenario_previous(v->s), *b = scenario_result(v->s);
    if (!a || !b) {
        v->last[0] = '\0';
        return;
    }
    int best = -1;
    double best_d = 1e-12;
    for (int i = 0; i < STEP_PART_COUNT; i++) {
        double d = fabs(b->part_s[i] - a->part_s[i]);
        if (d > best_d) {
            best_d = d;
            best = i;
        }
    }
    char t0[32], t1[32];
    double pct = a->step_s > 0 ? (b->step_s / a->step_s - 1.0) * 100.0 : 0.0;
    if (best < 0) {
        snprintf(v->last, sizeof v->last, "step unchanged at %s",
                 screen_scenario_time(b->step_s, ascii, t1));
        return;
    }
    snprintf(v->last, sizeof v->last, "%s %s %s %s, step %+.0f%%",
             screen_compare_part_words((StepPart)best),
             screen_scenario_time(a->part_s[best], ascii, t0), ascii ? "->" : "→",
             screen_scenario_time(b->part_s[best], ascii, t1), pct);
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

static void screen_scenario_after(PageState *p, bool ok, const char *err)
{
    ScenarioView *v = &p->scn;
    if (!ok) {
        snprintf(v->msg, sizeof v->msg, "Not possible: %s", err && *err ? err : "refused");
        return;
    }
    v->msg[0] = '\0';
    v->moves++;
    screen_scenario_effect(v, p->ascii);
    screen_scenario_check(p);
}

bool screen_scenario_apply(PageState *p, const char *move)
{
    if (!p->scn.s)
        return false;
    char err[256] = "";
    bool ok = scenario_apply_text(p->scn.s, move, err, sizeof err);
    screen_scenario_after(p, ok, err);
    return ok;
}

static bool screen_scenario_allows(ScenarioView *v, unsigned bit, const char *what)
{
    if (scenario_allowed(v->s) & bit)
        return true;
    snprintf(v->msg, sizeof v->msg, "This scenario does not let you change %s.", what);
    return false;
}

static void screen_scenario_degree(PageState *p, MappingDim d, bool up)
{
    ScenarioView *v = &p->scn;
    if (!screen_scenario_allows(v, SCN_ALLOW_DEGREES, "the parallel degrees"))
        return;
    int cur = mapping_dim_size(scenario_mapping(v->s), d);
    int want = up ? cur * 2 : cur / 2;
    if (want < 1) {
        snprintf(v->msg, sizeof v->msg, "%s is already 1.", mapping_dim_name(d));
        return;
    }
    char err[256] = "";
    bool ok = scenario_set_degree(v->s, d, want, err, sizeof err);
    screen_scenario_after(p, ok, err);
}

static void screen_scenario_micro(PageState *p, bool up)
{
    ScenarioView *v = &p->scn;
    if (!screen_scenario_allows(v, SCN_ALLOW_MICRO, "the micro-batch"))
        return;
    int cur = scenario_workload(v->s)->micro_batch;
    int want = up ? cur * 2 : cur / 2;
    if (want < 1) {
        snprintf(v->msg, sizeof v->msg, "The micro-batch is already 1 sequence.");
        return;
    }
    char err[256] = "";
    bool ok = scenario_set_micro_batch(v->s, want, err, sizeof err);
    screen_scenario_after(p, ok, err);
}

static void screen_scenario_domain(PageState *p, bool up)
{
    static const int sizes[] = {1, 2, 4, 8, 16, 32, 36, 64, 72, 128, 144, 256, 288, 512, 576};
    const int ns = (int)(sizeof sizes / sizeof sizes[0]);
    ScenarioView *v = &p->scn;
    if (!screen_scenario_allows(v, SCN_ALLOW_DOMAIN, "the scale-up domain size"))
        return;
    int cur = scenario_cluster(v->s)->domain_gpus;
    char err[256] = "", first[400] = "";
    for (int k = 0; k < ns; k++) {
        int i = up ? k : ns - 1 - k;
        if ((up && sizes[i] <= cur) || (!up && sizes[i] >= cur))
            continue;
        if (scenario_set_domain(v->s, sizes[i], err, sizeof err)) {
            screen_scenario_after(p, true, NULL);
            return;
        }
        if (!first[0])
            snprintf(first, sizeof first, "%s", err);
    }
    if (!first[0] && up)
        snprintf(first, sizeof first, "the domain is as big as it gets");
    else if (!first[0])
        snprintf(first, sizeof first, "the domain is already 1 %s",
                 hw_noun(&scenario_cluster(v->s)->gpu, 0));
    screen_scenario_after(p, false, first);
}

static void screen_scenario_system(PageState *p, int dir)
{
    ScenarioView *v = &p->scn;
    if (!screen_scenario_allows(v, SCN_ALLOW_SYSTEM, "the system"))
        return;
    int n = hw_system_count(), idx = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(hw_system_at(i)->id, scenario_cluster(v->s)->system_id) == 0)
            idx = i;
    char err[256] = "", first[400] = "";
    for (int k = 1; k < n; k++) {
        const SystemSpec *sys = hw_system_at(((idx + dir * k) % n + n) % n);
        if (scenario_set_system(v->s, sys->id, err, sizeof err)) {
            screen_scenario_after(p, true, NULL);
            snprintf(v->msg, sizeof v->msg, "System: %s.", sys->name);
            return;
        }
        if (!first[0])
            snprintf(first, sizeof first, "%s: %s", sys->name, err);
    }
    screen_scenario_after(p, false, first[0] ? first : "no other system fits");
}

static void screen_scenario_drop(PageState *p)
{
    ScenarioView *v = &p->scn;
    const Cluster *c = scenario_cluster(v->s);
    if (v->picked < 0) {
        snprintf(v->msg, sizeof v->msg,
                 "Pick something first: Space picks the %s under the cursor, g its group.",
                 hw_noun(&c->gpu, 0));
        return;
    }
    char what[32];
    snprintf(what, sizeof what, "where %s sit", hw_noun(&c->gpu, HW_NOUN_MANY));
    if (!screen_scenario_allows(v, SCN_ALLOW_MOVE, what))
        return;
    char err[256] = "";
    bool ok;
    if (v->pick_dim < 0) {
        if (v->picked == v->cursor) {
            v->picked = -1;
            return;
        }
        ok = scenario_swap_gpus(v->s, v->picked, v->cursor, err, sizeof err);
    } else {
        int dom = cluster_domain_of(scenario_cluster(v->s), v->cursor);
        ok = scenario_move_group(v->s, v->picked, (MappingDim)v->pick_dim, dom, err, sizeof err);
    }
    if (ok) {
        v->picked = -1;
        v->pick_dim = -1;
    }
    screen_scenario_after(p, ok, err);
}

/* ---- keys: one handler per row of the table below ---- */

static int screen_scenario_key_cursor(void *st, int key)
{
    ScenarioView *v = &((PageState *)st)->scn;
    const Cluster *c = scenario_cluster(v->s);
    int n = c->n_gpus, dom = c->domain_gpus > 0 ? c->domain_gpus : 1;
    if ((key == UIK_LEFT || key == 'H') && v->cursor > 0)
        v->cursor--;
    else if ((key == UIK_RIGHT || key == 'L') && v->cursor + 1 < n)
        v->cursor++;
    else if ((key == UIK_UP || key == 'K') && v->cursor - dom >= 0)
        v->cursor -= dom;
    else if (key == UIK_DOWN || key == 'J') {
        if (v->cursor + dom < n)
            v->cursor += dom;
        else if (cluster_domain_of(c, n - 1) != cluster_domain_of(c, v->cursor))
            v->cursor = n - 1;
    }
    return SCREEN_NONE;
}

static int screen_scenario_key_pick(void *st, int key)
{
    (void)key;
    ScenarioView *v = &((PageState *)st)->scn;
    if (v->picked == v->cursor && v->pick_dim < 0) {
        v->picked = -1;
        return SCREEN_NONE;
    }
    v->picked = v->cursor;
    v->pick_dim = -1;
    const Cluster *c = scenario_cluster(v->s);
    snprintf(v->msg, sizeof v->msg,
             "%s %d picked: move to another %s and press Enter to swap them.",
             hw_noun(&c->gpu, HW_NOUN_CAP), v->cursor, hw_noun(&c->gpu, 0));
    return SCREEN_NONE;
}

/* g: the cursor GPU's TP group, then PP, DP and EP (where EP > 1). */
static int screen_scenario_key_group(void *st, int key)
{
    (void)key;
    ScenarioView *v = &((PageState *)st)->scn;
    static const MappingDim cycle[] = {DIM_TP, DIM_PP, DIM_DP, DIM_EP};
    int n = mapping_dim_size(scenario_mapping(v->s), DIM_EP) > 1 ? 4 : 3;
    int next = 0;
    if (v->picked == v->cursor && v->pick_dim >= 0)
        for (int i = 0; i < n; i++)
            if ((int)cycle[i] == v->pick_dim)
                next = (i + 1) % n;
    v->picked = v->cursor;
    v->pick_dim = (int)cycle[next];
    snprintf(v->msg, sizeof v->msg,
             "The %s group of %s %d is picked (g again: next kind). Move to a domain, Enter.",
             mapping_dim_name(cycle[next]), hw_noun(&scenario_cluster(v->s)->gpu, 0), v->cursor);
    return SCREEN_NONE;
}

static int screen_scenario_key_drop(void *st, int key)
{
    (void)key;
    screen_scenario_drop(st);
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

static int screen_scenario_key_domain(void *st, int key)
{
    screen_scenario_domain(st, key == '+' || key == '=');
    return SCREEN_NONE;
}

static int screen_scenario_key_degree(void *st, int key)
{
    static const char keys[] = "tyxd";
    static const MappingDim dims[] = {DIM_TP, DIM_PP, DIM_EP, DIM_DP};
    const char *at = strchr(keys, key | 0x20);
    screen_scenario_degree(st, dims[at - keys], key >= 'a');
    return SCREEN_NONE;
}

static int screen_scenario_key_micro(void *st, int key)
{
    screen_scenario_micro(st, key == 'm');
    return SCREEN_NONE;
}

static int screen_scenario_key_system(void *st, int key)
{
    screen_scenario_system(st, key == ']' ? 1 : -1);
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
    if (!v->sweep)
        v->sweep = xmem_calloc(1, sizeof *v->sweep);
    screen_sweep_run(v->sweep, v->s);
    return SCREEN_NONE;
}

static void screen_scenario_undo(PageState *p)
{
    if (scenario_undo(p->scn.s)) {
        screen_scenario_after(p, true, NULL);
        p->scn.moves--; /* taking a move back is not a move */
        snprintf(p->scn.msg, sizeof p->scn.msg, "Undone.");
    } else {
        snprintf(p->scn.msg, sizeof p->scn.msg, "Nothing to undo.");
    }
}

static void screen_scenario_reset(PageState *p)
{
    scenario_reset(p->scn.s);
    p->scn.picked = -1;
    p->scn.last[0] = '\0';
    screen_scenario_check(p);
    snprintf(p->scn.msg, sizeof p->scn.msg, "Back to the start.");
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
    screen_compare_open(st);
    return SCREEN_NONE;
}

static int screen_scenario_key_explain(void *st, int key)
{
    ScenarioView *v = &((PageState *)st)->scn;
    if (key == 'E')
        v->explain = -1;
    else
        v->explain = v->explain + 1 >= SCREEN_EXPLAIN_COUNT ? -1 : v->explain + 1;
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
    {{'g'}, "g", "pick its TP group; again: PP, DP, EP", "g group", 3, screen_scenario_key_group},
    {{UIK_ENTER},
     "Enter",
     "drop: swap places, or move the picked group here",
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
     "undo, reset to the start, mark as the reference",
     "u undo",
     4,
     screen_scenario_key_history},
    {{'t', 'T', 'y', 'Y', 'd', 'D', 'x', 'X'},
     "t/T y/Y d/D x/X",
     "TP, PP, DP, EP degree up (x2) / down (/2)",
     "t/y/d/x degrees",
     4,
     screen_scenario_key_degree},
    {{'m', 'M'}, "m/M", "micro-batch up / down", "m/M mb", 5, screen_scenario_key_micro},
    {{'+', '=', '-', '_'},
     "+ / -",
     "bigger / smaller scale-up domain",
     "+/- domain",
     5,
     screen_scenario_key_domain},
    {{']', '['},
     "] / [",
     "next / previous system preset",
     "]/[ system",
     6,
     screen_scenario_key_system},
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

ScreenAction screen_scenario_key(PageState *p, int key)
{
    ScenarioView *v = &p->scn;
    char err[256] = "";
    if (!v->s)
        return SCREEN_PASS;
    if (key == UIK_RESIZE)
        return SCREEN_NONE;
    if (v->sweep && v->sweep->open) {
        SweepKey sk = screen_sweep_key(v->sweep, key);
        if (sk == SWEEP_KEY_APPLY) {
            char map[64];
            bool ok = screen_sweep_apply(v->sweep, v->s, err, sizeof err);
            if (ok && !v->used_search) {
                v->used_search = true;
                if (p->progress && p->lesson)
                    progress_set_search_used(p->progress, lesson_id(p->lesson), p->page, NULL, 0);
            }
            screen_scenario_after(p, ok, err);
            if (ok) {
                char said[sizeof v->msg]; /* "Goal met!" when the pick met it */
                snprintf(said, sizeof said, "%s", v->msg);
                snprintf(v->msg, sizeof v->msg,
                         "Applied the search's #%d: %s, mb%d (u undoes it).%s%.200s",
                         v->sweep->sel + 1,
                         mapping_format(scenario_mapping(v->s), map, sizeof map),
                         scenario_workload(v->s)->micro_batch, said[0] ? " " : "", said);
            }
        }
        return SCREEN_NONE;
    }
    if (screen_compare_is_open(p))
        return screen_compare_key(p, key);
    v->msg[0] = '\0';
    const KeyBinding *b = keymap_find(&screen_scenario_keys, key);
    if (key != 'q')
        v->confirm_quit = false;
    if (b && b->fn != screen_scenario_key_scroll)
        p->scroll = 0; /* what the key says shows from the top */
    return b ? (ScreenAction)b->fn(p, key) : SCREEN_PASS;
}

/* ---- drawing ---- */

/* The groups the letters show: the picked kind, else the first dimension
 * with more than one rank among TP, EP, PP, DP. */
static MappingDim screen_scenario_colour_dim(const ScenarioView *v)
{
    if (v->pick_dim >= 0)
        return (MappingDim)v->pick_dim;
    const Mapping *m = scenario_mapping(v->s);
    static const MappingDim order[] = {DIM_TP, DIM_EP, DIM_CP, DIM_PP, DIM_DP};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (mapping_dim_size(m, order[i]) > 1)
            return order[i];
    return DIM_TP;
}

static void screen_scenario_explain(const Scenario *s, int which, bool ascii, char *buf, size_t n)
{
    const Cluster *c = scenario_cluster(s);
    const Workload *w = scenario_workload(s);
    const StepResult *r = scenario_result(s);
    char t[32], a[32];
    if (which < STEP_PART_COUNT) {
        step_explain(c, w, scenario_mapping(s), r, (StepPart)which, buf, n);
        return;
    }
    if (which == SCREEN_EXPLAIN_STEP) {
        size_t used = (size_t)snprintf(buf, n, "step =");
        for (int i = 0; i < STEP_PART_COUNT && used < n; i++) {
            if (r->part_s[i] <= 0)
                continue;
            used += (size_t)snprintf(buf + used, n - used, " %s%s %s", used > 7 ? "+ " : "",
                                     step_part_name((StepPart)i),
                                     screen_scenario_time(r->part_s[i], ascii, t));
        }
        if (used < n && r->optimizer_s > 0)
            used += (size_t)snprintf(buf + used, n - used, " + optimizer %s",
                                     screen_scenario_time(r->optimizer_s, ascii, t));
        if (used < n)
            snprintf(buf + used, n - used, " = %s (exposed times)",
                     screen_scenario_time(r->step_s, ascii, t));
        return;
    }
    if (which == SCREEN_EXPLAIN_TOKENS) {
        snprintf(buf, n, "tokens/s = batch %d x sequence %d tokens / step %s = %s",
                 w->global_batch, w->seq, screen_scenario_time(r->step_s, ascii, t),
                 units_format_si(r->tokens_per_s, a, sizeof a));
        return;
    }
    double peak =
        w->precision == WL_FP8 && c->gpu.fp8_flops > 0 ? c->gpu.fp8_flops : c->gpu.bf16_flops;
    snprintf(buf, n,
             "MFU = model FLOPs per %s per second %.0f TFLOP/s / peak of the %s %.0f TFLOP/s "
             "= %.0f%%",
             hw_noun(&c->gpu, 0), r->tflops_per_gpu, c->gpu.name, peak / 1e12, r->mfu * 100.0);
}

/* ---- the feedback area: what answers the learner, always on screen ---- */

/* One paragraph of feedback: a bold lead-in and wrapped text. */
typedef struct {
    const char *lead;
    const char *text;
    Style st;
} ScenarioPara;

/* The paragraphs in the order a learner reads them: the answer to the last
 * key, the hint asked for, the formula explained, the goal and why it is
 * not met, the effect of the last move, and once met the debrief. */
static int screen_scenario_paras(PageState *p, bool ascii, ScenarioPara *out, char *bufs,
                                 size_t buf_len)
{
    ScenarioView *v = &p->scn;
    int n = 0;
    size_t part = buf_len / 3;
    if (v->msg[0])
        out[n++] = (ScenarioPara){"", v->msg, STYLE_WARNING};
    /* what the move just made did comes first: when the box is too short
     * for everything (a hint shown at 80x24) the rest scrolls, not this */
    if (v->last[0])
        out[n++] = (ScenarioPara){"Last move: ", v->last, STYLE_NORMAL};
    int hc = p->lesson ? lesson_scenario_hint_count(p->lesson, p->page) : 0;
    if (v->hints > 0 && hc > 0 && v->goal != 1) {
        snprintf(bufs, 32, "Hint %d/%d: ", v->hints, hc);
        out[n++] = (ScenarioPara){bufs, lesson_scenario_hint(p->lesson, p->page, v->hints - 1),
                                  STYLE_EMPH};
    }
    if (v->explain >= 0) {
        screen_scenario_explain(v->s, v->explain, ascii, bufs + part, part);
        out[n++] = (ScenarioPara){"Explain (e next, E close): ", bufs + part, STYLE_LABEL};
    }
    const char *goal = p->lesson ? lesson_scenario_goal_text(p->lesson, p->page) : "";
    if (goal && *goal) {
        const char *state = v->goal == 1  ? (ascii ? "[met]" : "[met ✓]")
                            : v->goal < 0 ? "[goal error]"
                                          : "[not yet]";
        int par = lesson_scenario_par(p->lesson, p->page);
        char moves[64] = "";
        if (par > 0)
            snprintf(moves, sizeof moves, "%smoves %d, par %d", ascii ? " | " : " · ", v->moves,
                     par);
        snprintf(bufs + 2 * part, part, "%s  %s%s", goal, state, moves);
        out[n++] =
            (ScenarioPara){"Goal: ", bufs + 2 * part, v->goal == 1 ? STYLE_GOOD : STYLE_NORMAL};
        if (v->goal != 1 && v->why[0])
            out[n++] =
                (ScenarioPara){"Why not: ", v->why, v->goal < 0 ? STYLE_BAD : STYLE_WARNING};
    }
    if (v->met && v->goal == 1 && v->debrief[0])
        out[n++] = (ScenarioPara){"Debrief: ", v->debrief, STYLE_GOOD};
    return n;
}

/* Draws the paragraphs from row 0 of c (a canvas as tall as they need, or
 * shorter: rows below are clipped). Returns the rows they need. */
static int screen_scenario_draw_paras(Canvas *c, int w, const ScenarioPara *paras, int n)
{
    int row = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(paras[i].lead) + strlen(paras[i].text) + 1;
        char *buf = xmem_alloc(len);
        snprintf(buf, len, "%s%s", paras[i].lead, paras[i].text);
        int need = text_wrap_count(buf, w);
        if (c) {
            text_draw_wrapped(c, 0, row, w, need, buf, paras[i].st);
            int lw = utf8_width(paras[i].lead);
            canvas_set_style(c, 0, row, lw < w ? lw : w, 1, STYLE_BOLD);
        }
        free(buf);
        row += need;
    }
    return row;
}

/* Rows the feedback needs at width w. */
static int screen_scenario_feedback_rows(PageState *p, int w, bool ascii)
{
    ScenarioPara paras[8];
    char bufs[1800];
    int n = screen_scenario_paras(p, ascii, paras, bufs, sizeof bufs);
    return screen_scenario_draw_paras(NULL, w, paras, n);
}

/* The feedback in the w x h box at (x, y): scrolled by p->scroll (j/k)
 * when it needs more rows, with a marker line saying so. */
static void screen_scenario_feedback(Canvas *c, int x, int y, int w, int h, PageState *p)
{
    bool ascii = canvas_is_ascii(c);
    ScenarioPara paras[8];
    char bufs[1800];
    int n = screen_scenario_paras(p, ascii, paras, bufs, sizeof bufs);
    int need = screen_scenario_draw_paras(NULL, w, paras, n);
    p->lines = need;
    if (h < 1 || need == 0)
        return;
    bool scrolls = need > h;
    int shown = scrolls && h > 1 ? h - 1 : h;
    if (p->scroll > need - shown)
        p->scroll = need - shown > 0 ? need - shown : 0;
    Canvas *all = canvas_new(w, need);
    canvas_set_ascii(all, ascii);
    screen_scenario_draw_paras(all, w, paras, n);
    Canvas *win = canvas_new(w, shown);
    canvas_blit(win, 0, -p->scroll, all);
    canvas_blit(c, x, y, win);
    canvas_free(win);
    canvas_free(all);
    if (scrolls && h > 1) {
        char more[96];
        snprintf(more, sizeof more, "%s lines %d-%d of %d: j/k scrolls",
                 p->scroll + shown < need ? "▼ more," : "▲ end,", p->scroll + 1, p->scroll + shown,
                 need);
        canvas_put_text_max(c, x, y + shown, w, more, STYLE_DIM);
    }
}

/* ---- the result: the bar, the figures, the bottleneck ---- */

/* Draws the step bar and the figures line at (x, y); c NULL: only counts.
 * bottleneck_rows: at most that many rows of the bottleneck sentence.
 * Returns the rows used. */
static int screen_scenario_result(Canvas *c, int x, int y, int w, PageState *p,
                                  int bottleneck_rows, bool ascii)
{
    const Scenario *s = p->scn.s;
    const StepResult *r = scenario_result(s);
    int row = y;
    Canvas *scratch = c ? NULL : canvas_new(w, 8);
    LessonTarget target = {0};
    lesson_scenario_target(p->lesson, p->page, &target);
    row +=
        chart_step_bar_target(c ? c : scratch, x, row, w, r, scenario_reference(s), target.step_s);
    canvas_free(scratch);
    char t[32], tok[32], mp[64], line[400];
    mapping_format(scenario_mapping(s), mp, sizeof mp);
    const char *sep = ascii ? " | " : " · ";
    snprintf(line, sizeof line, "step %s%s%s tokens/s%sMFU %.0f%%%s%s mb%d%s%s",
             screen_scenario_time(r->step_s, ascii, t), sep,
             units_format_si(r->tokens_per_s, tok, sizeof tok), sep, r->mfu * 100.0, sep, mp,
             scenario_workload(s)->micro_batch, sep, scenario_cluster(s)->name);
    /* the cluster's name goes first when the line is too long: the view
     * below names the cluster too, the figures are the point */
    if (utf8_width(line) > w)
        line[strlen(line) - strlen(scenario_cluster(s)->name) - strlen(sep)] = '\0';
    /* still too wide (a side column): two lines, never a cut figure */
    int lines = text_wrap_count(line, w) > 1 ? 2 : 1;
    if (c)
        text_draw_wrapped(c, x, row, w, lines, line, STYLE_BOLD);
    row += lines;
    if (bottleneck_rows > 0 && r->bottleneck[0]) {
        char b[400];
        snprintf(b, sizeof b, "Bottleneck: %s", r->bottleneck);
        int need = text_wrap_count(b, w);
        need = need < bottleneck_rows ? need : bottleneck_rows;
        if (c) {
            text_draw_wrapped(c, x, row, w, need, b, r->fits ? STYLE_NORMAL : STYLE_BAD);
            canvas_set_style(c, x, row, 11, 1, STYLE_BOLD);
        }
        row += need;
    }
    return row - y;
}

/* ---- the cluster view with its cursor line and legend ---- */

static ClusterView screen_scenario_cluster_view(const ScenarioView *v)
{
    ClusterView cv = {scenario_cluster(v->s),
                      scenario_mapping(v->s),
                      scenario_placement(v->s),
                      screen_scenario_colour_dim(v),
                      v->cursor,
                      v->picked,
                      v->pick_dim};
    return cv;
}

/* The legend: what the letters mean and both tiers' bandwidths, in the
 * longest wording that fits w. */
static void screen_scenario_legend(Canvas *c, int x, int y, int w, const ScenarioView *v,
                                   const ClusterShown *shown)
{
    bool ascii = canvas_is_ascii(c);
    const Cluster *cl = scenario_cluster(v->s);
    char up[32], out[32], rows[48] = "", lines[4][300];
    units_format(UNITS_BANDWIDTH, cl->up_bytes_per_s, ascii, up, sizeof up);
    units_format(UNITS_BANDWIDTH, cl->out_bytes_per_s, ascii, out, sizeof out);
    const char *dim = mapping_dim_name(screen_scenario_colour_dim(v));
    const char *rep = shown->letters_repeat ? ", letters repeat" : "";
    if (shown->rows < shown->total_rows)
        snprintf(rows, sizeof rows, "rows %d-%d of %d%s", shown->first_row + 1,
                 shown->first_row + shown->rows, shown->total_rows, ascii ? " | " : " · ");
    snprintf(lines[0], sizeof lines[0],
             "%s%s groups by letter%s; %s %s per %s in a domain, %s between domains", rows, dim,
             rep, cl->up_link, up, hw_noun(&cl->gpu, 0), out);
    snprintf(lines[1], sizeof lines[1], "%s%s groups by letter%s; %s in a domain, %s between",
             rows, dim, rep, up, out);
    snprintf(lines[2], sizeof lines[2], "%sletters: %s groups%s; in %s, out %s", rows, dim, rep,
             up, out);
    snprintf(lines[3], sizeof lines[3], "%s%s groups%s; in %s, out %s", rows, dim, rep, up, out);
    int pick = 0;
    while (pick < 3 && utf8_width(lines[pick]) > w)
        pick++;
    canvas_put_text_max(c, x, y, w, lines[pick], STYLE_DIM);
}

/* Rows the cursor line takes at width w (1, or 2 when it wraps). */
static int screen_scenario_cursor_rows(const ScenarioView *v, int w, bool ascii)
{
    ClusterView cv = screen_scenario_cluster_view(v);
    ClusterShown any = {'A', 0, 0, 0, false};
    char line[400];
    screen_cluster_cursor_line(&cv, &any, ascii, w, line, sizeof line);
    return text_wrap_count(line, w) > 1 ? 2 : 1;
}

/* The cluster view, its cursor line and its legend in h rows (>= 3). */
static void screen_scenario_cluster(Canvas *c, int x, int y, int w, int h, const ScenarioView *v,
                                    ScreenCursor *cur)
{
    bool ascii = canvas_is_ascii(c);
    ClusterView cv = screen_scenario_cluster_view(v);
    ClusterShown shown;
    int cr = screen_scenario_cursor_rows(v, w, ascii);
    screen_cluster_draw(c, x, y, w, h - 1 - cr, &cv, cur, &shown);
    char line[400];
    screen_cluster_cursor_line(&cv, &shown, ascii, w, line, sizeof line);
    text_draw_wrapped(c, x, y + shown.rows, w, cr, line, STYLE_BOLD);
    screen_scenario_legend(c, x, y + shown.rows + cr, w, v, &shown);
}

/* Rows the cluster view takes (with its two lines) given at most max_h. */
static int screen_scenario_cluster_rows(const ScenarioView *v, int w, int max_h, bool ascii)
{
    ClusterView cv = screen_scenario_cluster_view(v);
    int lines = 1 + screen_scenario_cursor_rows(v, w, ascii);
    return screen_cluster_rows(&cv, w, max_h - lines) + lines;
}

/* ---- the whole screen ---- */

/* Wide screens: the cluster (and a fabric view when there is room) on the
 * left, the result and the feedback on the right. */
static void screen_scenario_draw_wide(Canvas *c, PageState *p, int y, int bottom,
                                      ScreenCursor *cur)
{
    ScenarioView *v = &p->scn;
    int w = canvas_width(c);
    int gw = w / 2 - 3, rx = w / 2 + 1, rw = w - rx - 2;
    int gh = screen_scenario_cluster_rows(v, gw, bottom - y, canvas_is_ascii(c));
    screen_scenario_cluster(c, 2, y, gw, gh, v, cur);
    int ly = y + gh;
    if (bottom - ly - 1 >= 12) {
        char err[256];
        Diagram d = diagram_of(VIEW_FABRIC, scenario_cluster(v->s));
        d.workload = scenario_workload(v->s);
        d.mapping = scenario_mapping(v->s);
        d.placement = scenario_placement(v->s);
        d.colour_by = screen_scenario_colour_dim(v);
        diagram_draw(c, 2, ly + 1, gw, bottom - ly - 1, &d, err, sizeof err);
    }
    int ry = y + screen_scenario_result(c, rx, y, rw, p, 2, canvas_is_ascii(c));
    screen_scenario_feedback(c, rx, ry, rw, bottom - ry, p);
}

void screen_scenario_draw(Canvas *c, PageState *p, int top, int bottom, ScreenCursor *cur)
{
    ScenarioView *v = &p->scn;
    if (!v->s)
        return;
    bool ascii = canvas_is_ascii(c);
    int w = canvas_width(c), h = canvas_height(c);
    if (v->sweep && v->sweep->open) {
        screen_sweep_draw(c, v->sweep, v->s, 2, top - 1, w - 4, bottom - top + 1, cur);
        return;
    }
    if (screen_compare_is_open(p)) {
        screen_compare_draw_scenario(c, p, top, bottom);
        return;
    }
    const char *brief = p->lesson ? lesson_page_text(p->lesson, p->page) : "";
    int y = top - 1, avail = bottom - y;
    int tw = w - 4;
    /* What each part needs, then shrink the cluster view (and the brief
     * and bottleneck lines) before the feedback gives up any row. */
    int brief_h = *brief ? text_wrap_count(brief, tw) : 0;
    int brief_cap = h >= 40 ? 6 : 2;
    brief_h = brief_h < brief_cap ? brief_h : brief_cap;
    bool wide = w >= 120;
    int res_h = wide ? 0 : screen_scenario_result(NULL, 2, 0, tw, p, 2, ascii);
    int fb_h = wide ? 0 : screen_scenario_feedback_rows(p, tw, ascii);
    int grid_min = 3 + (wide ? 0 : 0);
    int bneck = 2;
    for (int tries = 0; !wide && tries < 3; tries++) {
        int grid_room = avail - brief_h - res_h - fb_h;
        if (grid_room >= screen_scenario_cluster_rows(v, tw, avail, ascii) ||
            grid_room >= grid_min + 2)
            break;
        if (bneck > 0) { /* the bottleneck sentence first, then the brief */
            res_h -= bneck;
            bneck = 0;
        } else if (brief_h > 1) {
            brief_h = 1;
        }
    }
    if (brief_h)
        text_draw_markup(c, 2, y, tw, brief_h, brief, 0);
    y += brief_h + (brief_h && h >= 30 ? 1 : 0);
    if (wide) {
        screen_scenario_draw_wide(c, p, y, bottom, cur);
        return;
    }
    int room = bottom - y - res_h;
    int grid_h = screen_scenario_cluster_rows(
        v, tw, room - fb_h > grid_min ? room - fb_h : grid_min, ascii);
    screen_scenario_cluster(c, 2, y, tw, grid_h, v, cur);
    y += grid_h;
    y += screen_scenario_result(c, 2, y, tw, p, bneck, ascii);
    screen_scenario_feedback(c, 2, y, tw, bottom - y, p);
}

const ScreenPageKind screen_kind_scenario = {
    "scenario",           screen_scenario_open,  NULL, screen_scenario_key,
    screen_scenario_draw, &screen_scenario_keys, 2,
};
