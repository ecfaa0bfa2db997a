/* SPDX-License-Identifier: MIT */
/* screen_play — free play: the scenario part of a page (screen_scenario.c)
 * with no lesson behind it, its own frame and keys (w write, q quit with a
 * question when unwritten moves would be lost), the Lua writer that turns
 * the state into a lesson `scalelab check` accepts, and the file writers of
 * the w and S keys (never overwriting: a new name per write).
 */
#include "ui/screen_play.h"

#include "base/file.h"
#include "base/msg.h"
#include "base/strbuf.h"
#include "base/xdg.h"
#include "base/xmem.h"
#include "draw/svg.h"
#include "draw/text.h"
#include "lesson/lesson.h"
#include "model/hw.h"
#include "model/units.h"
#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/screen_compare.h"
#include "ui/screen_sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void screen_play_init(PlayState *ps, Scenario *s, const char *from)
{
    memset(ps, 0, sizeof *ps);
    screen_page_init(&ps->page, NULL, "", "", NULL, 0);
    screen_scenario_close(&ps->page);
    ps->page.scn.s = s;
    /* No lesson to rebuild the start from: c compares against the start,
     * kept as a reference mark named "start" (b moves the mark). */
    screen_compare_mark_named(&ps->page, "start");
    snprintf(ps->from, sizeof ps->from, "%s", from ? from : "");
}

void screen_play_fini(PlayState *ps)
{
    if (ps)
        screen_page_fini(&ps->page);
}

Scenario *screen_play_load(const char *path, char *err, size_t err_len)
{
    Lesson *l = lesson_load(path, err, err_len);
    if (!l)
        return NULL;
    int page = -1;
    for (int i = 0; i < lesson_page_count(l) && page < 0; i++)
        if (lesson_page_kind(l, i) == PAGE_SCENARIO)
            page = i;
    if (page < 0) {
        msg_set(err, err_len, "%s: no scenario page to play", path);
        lesson_free(l);
        return NULL;
    }
    Scenario *s0 = lesson_scenario_start(l, page, err, err_len);
    lesson_free(l);
    if (!s0)
        return NULL;
    Scenario *s = scenario_new(scenario_cluster(s0), scenario_workload(s0), scenario_mapping(s0),
                               scenario_placement(s0), SCN_ALLOW_ALL, err, err_len);
    scenario_free(s0);
    return s;
}

/* ---- the Lua writer ---- */

static bool screen_play_differs(double a, double b)
{
    return fabs(a - b) > 1e-9 * (fabs(a) > fabs(b) ? fabs(a) : fabs(b));
}

static const char *screen_play_recompute(WlRecompute r)
{
    return r == WL_RECOMPUTE_FULL ? "full" : r == WL_RECOMPUTE_SELECTIVE ? "selective" : "none";
}

/* The cluster and workload tables: the preset plus what differs from it. */
static bool screen_play_tables(StrBuf *b, const Cluster *c, const Workload *w, char *err,
                               size_t err_len)
{
    Cluster base;
    char e[300];
    if (!cluster_from_system(&base, c->system_id, c->n_gpus, e, sizeof e)) {
        msg_set(err, err_len, "the cluster is not from a system preset (%s)", e);
        return false;
    }
    const WorkloadPreset *wp = workload_preset_find(w->id);
    if (!wp) {
        msg_set(err, err_len, "the workload '%s' is not a model preset", w->id);
        return false;
    }
    strbuf_addf(b, "local cluster = { system = \"%s\", gpus = %d", c->system_id, c->n_gpus);
    if (c->domain_gpus != base.domain_gpus)
        strbuf_addf(b, ", domain = %d", c->domain_gpus);
    if (screen_play_differs(c->up_bytes_per_s, base.up_bytes_per_s))
        strbuf_addf(b, ", up = %.17g", c->up_bytes_per_s);
    if (screen_play_differs(c->out_bytes_per_s, base.out_bytes_per_s))
        strbuf_addf(b, ", out = %.17g", c->out_bytes_per_s);
    if (screen_play_differs(c->oversub, base.oversub))
        strbuf_addf(b, ", oversub = %.17g", c->oversub);
    if (c->gpus_per_leaf != base.gpus_per_leaf)
        strbuf_addf(b, ", gpus_per_leaf = %d", c->gpus_per_leaf);
    if (c->rail_optimized != base.rail_optimized)
        strbuf_addf(b, ", rails = %s", c->rail_optimized ? "true" : "false");
    if (c->sites > 1)
        strbuf_addf(b, ", sites = %d, across = %.17g", c->sites, c->across_bytes_per_s);
    strbuf_addf(b, " }\n");
    const Workload *p = &wp->w;
    strbuf_addf(b, "local workload = { model = \"%s\", batch = %d, mb = %d", w->id,
                w->global_batch, w->micro_batch);
    static const char *const names[] = {"seq", "layers", "hidden",  "heads", "kv_heads",
                                        "ffn", "vocab",  "experts", "topk"};
    const int mine[] = {w->seq, w->layers, w->hidden,  w->heads, w->kv_heads,
                        w->ffn, w->vocab,  w->experts, w->topk};
    const int theirs[] = {p->seq, p->layers, p->hidden,  p->heads, p->kv_heads,
                          p->ffn, p->vocab,  p->experts, p->topk};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (mine[i] != theirs[i])
            strbuf_addf(b, ", %s = %d", names[i], mine[i]);
    if (w->recompute != p->recompute)
        strbuf_addf(b, ", recompute = \"%s\"", screen_play_recompute(w->recompute));
    if (w->precision != p->precision)
        strbuf_addf(b, ", precision = \"%s\"", w->precision == WL_FP8 ? "fp8" : "bf16");
    strbuf_addf(b, " }\n");
    return true;
}

/* Swaps that turn the default placement into pl, written to b when there
 * are at most max of them; returns how many are needed. Each GPU in turn
 * gets its rank from whichever GPU holds it so far (placement_swap_gpus on
 * a default placement), so n - 1 swaps at most. */
static int screen_play_swaps(StrBuf *b, const Placement *pl, int n, int max)
{
    if (!pl || placement_is_default(pl))
        return 0;
    Placement *q = placement_new(n);
    if (!q)
        return 0;
    StrBuf moves = {0};
    int count = 0;
    for (int g = 0; g < n; g++) {
        int want = placement_rank_on(pl, g);
        if (want < 0 || placement_rank_on(q, g) == want)
            continue;
        int h = placement_gpu_of(q, want);
        if (count < max)
            strbuf_addf(&moves, "%s\"swap %d %d\"",
                        count == 0       ? "\n        "
                        : count % 6 == 0 ? ",\n        "
                                         : ", ",
                        g, h);
        placement_swap_gpus(q, g, h);
        count++;
    }
    if (count <= max && moves.s)
        strbuf_add(b, moves.s);
    strbuf_free(&moves);
    placement_free(q);
    return count;
}

/* One move that changes the step time, for the placeholder goal's reference
 * solution; "" when none of the tried ones does. */
static void screen_play_solution(const Scenario *s, char *move, size_t n)
{
    const Cluster *c = scenario_cluster(s);
    const Mapping *m = scenario_mapping(s);
    const Workload *w = scenario_workload(s);
    char cand[12][48];
    int k = 0;
    snprintf(cand[k++], 48, "tp %d", m->tp * 2);
    snprintf(cand[k++], 48, "tp %d", m->tp / 2);
    snprintf(cand[k++], 48, "pp %d", m->pp * 2);
    snprintf(cand[k++], 48, "pp %d", m->pp / 2);
    snprintf(cand[k++], 48, "mb %d", w->micro_batch * 2);
    snprintf(cand[k++], 48, "mb %d", w->micro_batch / 2);
    snprintf(cand[k++], 48, "swap 0 %d", c->domain_gpus < c->n_gpus ? c->domain_gpus : 0);
    snprintf(cand[k++], 48, "domain %d", c->domain_gpus * 2);
    snprintf(cand[k++], 48, "domain %d", c->domain_gpus / 2);
    move[0] = '\0';
    double t0 = scenario_result(s)->step_s;
    for (int i = 0; i < k && !move[0]; i++) {
        char e[300];
        Scenario *t = scenario_new(c, w, m, scenario_placement(s), SCN_ALLOW_ALL, e, sizeof e);
        if (!t)
            return;
        if (scenario_apply_text(t, cand[i], e, sizeof e) &&
            screen_play_differs(scenario_result(t)->step_s, t0))
            snprintf(move, n, "%.47s", cand[i]);
        scenario_free(t);
    }
}

char *screen_play_lua(const Scenario *s, const char *stamp, char *note, size_t note_len, char *err,
                      size_t err_len)
{
    if (note && note_len)
        note[0] = '\0';
    if (!s) {
        msg_set(err, err_len, "no scenario");
        return NULL;
    }
    const Cluster *c = scenario_cluster(s);
    const Workload *w = scenario_workload(s);
    const Mapping *m = scenario_mapping(s);
    char sol[48];
    screen_play_solution(s, sol, sizeof sol);
    if (!sol[0]) {
        msg_set(err, err_len,
                "no single move changes this state's step time, so the "
                "placeholder goal could not get a solution");
        return NULL;
    }
    StrBuf b = {0};
    char map[64], t[32];
    mapping_format(m, map, sizeof map);
    units_format(UNITS_TIME, scenario_result(s)->step_s, true, t, sizeof t);
    strbuf_addf(&b,
                "-- A scalelab free-play state, written by 'scalelab play' (%s).\n"
                "-- It is a lesson with one scenario page that starts where the play\n"
                "-- stopped: %s on %d x %s, %s, step %s.\n"
                "-- Edit the title, text, goal, hints and debrief, then run\n"
                "-- 'scalelab check FILE'; 'scalelab play FILE' opens it in free play.\n"
                "-- The format: lessons/AUTHORING.md.\n",
                stamp, map, c->n_gpus, c->name, w->id, t);
    if (!screen_play_tables(&b, c, w, err, err_len)) {
        strbuf_free(&b);
        return NULL;
    }
    strbuf_addf(&b,
                "\nreturn {\n"
                "  id = \"play-%s\",\n"
                "  title = \"Free play %s\",\n"
                "  summary = \"A state found in free play: %s on %d %s.\",\n"
                "  track = \"Drafts\",\n"
                "  order = 100,\n"
                "  pages = {\n"
                "    { kind = \"scenario\", title = \"%s on %s\",\n"
                "      text = \"Briefing: say what the learner should look for.\",\n"
                "      cluster = cluster, workload = workload,\n"
                "      mapping = { tp = %d, pp = %d, dp = %d, ep = %d, cp = %d, "
                "interleave = %d, zero = %d },\n",
                stamp, stamp, w->id, c->n_gpus, hw_noun(&c->gpu, HW_NOUN_MANY), map, c->name,
                m->tp, m->pp, m->dp, m->ep, m->cp, m->interleave > 0 ? m->interleave : 1, m->zero);
    size_t mark = b.len;
    strbuf_addf(&b, "      start = {");
    int swaps = screen_play_swaps(&b, scenario_placement(s), c->n_gpus, PLAY_MAX_SWAPS);
    if (swaps > PLAY_MAX_SWAPS) {
        b.len = mark;
        b.s[b.len] = '\0';
        if (note && note_len)
            msg_set(note, note_len,
                    "the placement needs %d swaps (more than %d): written with the default one",
                    swaps, PLAY_MAX_SWAPS);
        strbuf_addf(&b, "      -- the placement was not kept: it needs %d swaps\n", swaps);
    } else if (swaps == 0) {
        b.len = mark;
        b.s[b.len] = '\0';
    } else {
        strbuf_addf(&b, " },  -- the placement, as swaps from the default\n");
    }
    strbuf_addf(&b,
                "      allow = { \"move\", \"degrees\", \"micro\", \"domain\", \"system\" },\n"
                "      -- A placeholder goal: replace it with the one your lesson teaches.\n"
                "      goal = { text = \"Change the step time (placeholder: edit this "
                "goal).\",\n"
                "               check = function(r)\n"
                "                 if math.abs(r.step_s - r.start.step_s) > 1e-9 * "
                "r.start.step_s then\n"
                "                   return true\n"
                "                 end\n"
                "                 return false, \"the step time has not changed yet\"\n"
                "               end },\n"
                "      hints = { \"Edit this hint.\" },\n"
                "      debrief = \"Edit this debrief.\",\n"
                "      solution = { \"%s\" } },  -- meets the placeholder goal\n"
                "  },\n"
                "}\n",
                sol);
    return strbuf_take(&b);
}

/* ---- files ---- */

static void screen_play_stamp(char *buf, size_t n)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(buf, n, "%Y%m%d-%H%M%S", &tm);
}

/* The state folder: $XDG_STATE_HOME/scalelab or ~/.local/state/scalelab
 * (xdg.h), created when missing. False when there is none. */
static bool screen_play_state_dir(char *buf, size_t n)
{
    return xdg_path(XDG_STATE, NULL, buf, n) && xdg_mkdirs(buf, NULL, 0);
}

/* Writes through fn into a new file dir/prefix-STAMP[-k].ext, never over
 * an existing one; path gets the name tried last. Returns 0 or the errno of
 * the failure. */
static int screen_play_write_new(const char *dir, const char *prefix, const char *ext,
                                 FileWriteFn fn, const void *ctx, char *path, size_t n)
{
    char stamp[32];
    screen_play_stamp(stamp, sizeof stamp);
    for (int k = 1; k < 100; k++) {
        if (k == 1)
            snprintf(path, n, "%s/%s-%s.%s", dir, prefix, stamp, ext);
        else
            snprintf(path, n, "%s/%s-%s-%d.%s", dir, prefix, stamp, k, ext);
        if (file_write(path, FILE_NEW, fn, ctx, NULL, 0))
            return 0;
        if (errno != EEXIST)
            return errno;
    }
    return EEXIST;
}

/* Writes through fn into a new file in dir, or in the state folder when
 * dir is NULL and the current folder refuses. */
static bool screen_play_write_file(const char *dir, const char *prefix, const char *ext,
                                   FileWriteFn fn, const void *ctx, char *where, size_t n)
{
    char path[1100], sdir[600];
    int e = screen_play_write_new(dir ? dir : ".", prefix, ext, fn, ctx, path, sizeof path);
    if (e && !dir && screen_play_state_dir(sdir, sizeof sdir))
        e = screen_play_write_new(sdir, prefix, ext, fn, ctx, path, sizeof path);
    if (e) {
        msg_set(where, n, "cannot write %s: %s", path, strerror(e));
        return false;
    }
    const char *shown = strncmp(path, "./", 2) == 0 ? path + 2 : path;
    msg_set(where, n, "%s", shown);
    return true;
}

static bool screen_play_put_text(FILE *f, const void *ctx)
{
    return fputs((const char *)ctx, f) >= 0;
}

bool screen_play_write(PlayState *ps, const char *dir, char *where, size_t where_len)
{
    char stamp[32], note[200], err[MSG_LEN];
    screen_play_stamp(stamp, sizeof stamp);
    char *lua = screen_play_lua(ps->page.scn.s, stamp, note, sizeof note, err, sizeof err);
    if (!lua) {
        msg_set(where, where_len, "%s", err);
        return false;
    }
    bool ok = screen_play_write_file(dir, "scalelab-play", "lua", screen_play_put_text, lua, where,
                                     where_len);
    free(lua);
    if (ok && note[0]) {
        size_t len = strlen(where);
        snprintf(where + len, where_len - len, " (%s)", note);
    }
    return ok;
}

typedef struct {
    const Canvas *c;
    const char *title;
} PlaySvg;

static bool screen_play_put_svg(FILE *f, const void *ctx)
{
    const PlaySvg *s = ctx;
    return svg_write_canvas(s->c, 0, s->title, f);
}

bool screen_play_export_svg(const Canvas *c, const char *title, const char *dir, char *where,
                            size_t where_len)
{
    PlaySvg s = {c, title};
    return screen_play_write_file(dir, "scalelab", "svg", screen_play_put_svg, &s, where,
                                  where_len);
}

/* ---- keys and drawing ---- */

static int screen_play_key_quit(void *st, int key)
{
    (void)key;
    PlayState *ps = st;
    ScenarioView *v = &ps->page.scn;
    if (v->moves > ps->saved_moves && !ps->confirm_quit) {
        ps->confirm_quit = true;
        snprintf(v->msg, sizeof v->msg,
                 "Quit without writing the %d move%s made? q again quits; w writes "
                 "the state first.",
                 v->moves - ps->saved_moves, v->moves - ps->saved_moves == 1 ? "" : "s");
        return SCREEN_NONE;
    }
    return SCREEN_QUIT;
}

static int screen_play_key_help(void *st, int key)
{
    (void)key;
    ((PlayState *)st)->help = true;
    return SCREEN_NONE;
}

static int screen_play_key_write(void *st, int key)
{
    (void)key;
    PlayState *ps = st;
    ScenarioView *v = &ps->page.scn;
    char where[600];
    if (screen_play_write(ps, NULL, where, sizeof where)) {
        ps->saved_moves = v->moves;
        snprintf(ps->saved, sizeof ps->saved, "%.590s", where);
        snprintf(v->msg, sizeof v->msg,
                 "Wrote %.300s: a lesson with this scenario "
                 "('scalelab check' it, edit its goal).",
                 where);
    } else {
        snprintf(v->msg, sizeof v->msg, "Not written: %.380s", where);
    }
    return SCREEN_NONE;
}

static int screen_play_key_esc(void *st, int key)
{
    PlayState *ps = st;
    if (screen_scenario_key(&ps->page, key) == SCREEN_PASS)
        snprintf(ps->page.scn.msg, sizeof ps->page.scn.msg, "q quits free play.");
    return SCREEN_NONE;
}

static int screen_play_key_nothing(void *st, int key)
{
    (void)st;
    (void)key;
    return SCREEN_NONE;
}

/* In front of the scenario keys (screen_scenario_keys), which do the rest;
 * these rows hide the scenario rows they answer from the ? overlay (Esc
 * drops a pick as there, but never leaves; ? and the dead keys need no
 * line). S is the program's (app.c writes the SVG): listed here, run there. */
static const KeyBinding screen_play_rows[] = {
    {{'w'},
     "w",
     "write this state as a lesson file (scenario page)",
     "w write",
     4,
     screen_play_key_write},
    {{'S'}, "S", "save this screen as SVG", "S SVG", 9, NULL},
    {{UIK_ESC}, "Esc", NULL, NULL, 0, screen_play_key_esc},
    {{'q', UIK_CTRL_C},
     "q",
     "quit (asks when moves are not written)",
     "q quit",
     1,
     screen_play_key_quit},
    {{'?'}, "?", NULL, NULL, 0, screen_play_key_help},
    /* no pages, no file to reload, no hints */
    {{'n', 'p', 'r', 'h'}, "", NULL, NULL, 0, screen_play_key_nothing},
};
static const KeyTable screen_play_keys = KEYMAP_TABLE("Free play keys", screen_play_rows);

ScreenAction screen_play_key(PlayState *ps, int key)
{
    ScenarioView *v = &ps->page.scn;
    if (ps->help) {
        ps->help = false;
        return SCREEN_NONE;
    }
    if (key == UIK_RESIZE)
        return SCREEN_NONE;
    bool sub_open = (v->sweep && v->sweep->open) || screen_compare_is_open(&ps->page);
    if (!sub_open) {
        if (key != 'q' && key != UIK_CTRL_C)
            ps->confirm_quit = false;
        const KeyBinding *b = keymap_find(&screen_play_keys, key);
        if (b && b->fn)
            return (ScreenAction)b->fn(ps, key);
    }
    screen_scenario_key(&ps->page, key);
    return SCREEN_NONE;
}

void screen_play_draw(Canvas *c, PlayState *ps, ScreenCursor *cur)
{
    bool ascii = canvas_is_ascii(c);
    int w = canvas_width(c);
    canvas_clear(c);
    cur->x = cur->y = -1;
    ps->page.ascii = ascii;
    const Scenario *s = ps->page.scn.s;
    char title[300];
    const Cluster *cl = scenario_cluster(s);
    snprintf(title, sizeof title, "Free play %s %s, %d %s %s %s", ascii ? "-" : "—", cl->name,
             cl->n_gpus, hw_noun(&cl->gpu, HW_NOUN_MANY), ascii ? "-" : "·",
             scenario_workload(s)->id);
    const KeyTable *tables[2] = {&screen_play_keys, &screen_scenario_keys};
    char foot[2][400];
    keymap_footer(tables, 2, w - 2, 2, ascii, foot);
    int top = screen_frame(c, title, ps->saved[0] ? "written" : "free play", foot[0], foot[1]);
    canvas_put_text_max(c, 1, top, w - 2,
                        ps->from[0] ? ps->from : "Change anything: there is no goal.", STYLE_BOLD);
    screen_scenario_draw(c, &ps->page, top + 2, canvas_height(c) - 3, cur);
    if (cur->x < 0) {
        cur->x = 1;
        cur->y = 2;
    }
    if (ps->help)
        keymap_help_draw(c, tables, 2);
}
