/* SPDX-License-Identifier: MIT */
/* scenario_view — the scenario screen as a drawing (see scenario_view.h).
 *
 * Layout, top to bottom on a narrow screen: the briefing (at most 2 rows,
 * 6 on a tall screen), the cluster view with its cursor line and legend, the
 * result (bar, figures, bottleneck) and the feedback, which scrolls (j/k)
 * when it needs more rows than are left. The cluster view, the bottleneck
 * and the briefing shrink before the feedback gives up a row. From 120
 * columns the cluster (and a fabric view when there is room) sits on the
 * left and the result and feedback on the right.
 */
#include "draw/scenario_view.h"

#include "base/utf8.h"
#include "base/xmem.h"
#include "draw/charts.h"
#include "draw/diagram.h"
#include "draw/text.h"
#include "model/hw.h"
#include "model/span.h"
#include "model/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ScenarioScreen scenario_view_state(const Scenario *s)
{
    ScenarioScreen v;
    memset(&v, 0, sizeof v);
    v.s = s;
    v.picked = -1;
    v.pick_dim = -1;
    v.explain = -1;
    return v;
}

static char *view_time(double s, bool ascii, char *buf)
{
    return units_format(UNITS_TIME, s, ascii, buf, 32);
}

MappingDim scenario_view_colour(const Scenario *s, int pick_dim)
{
    if (pick_dim >= 0)
        return (MappingDim)pick_dim;
    const Mapping *m = scenario_mapping(s);
    static const MappingDim order[] = {DIM_TP, DIM_EP, DIM_CP, DIM_PP, DIM_DP};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (mapping_dim_size(m, order[i]) > 1)
            return order[i];
    return DIM_TP;
}

/* ---- why the goal is not met ------------------------------------------- */

/* Appends to buf at *used (keeps it a string). */
static void add(char *buf, size_t n, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
    if (*used >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, n - *used, fmt, ap);
    va_end(ap);
    *used += w > 0 ? (size_t)w : 0;
    if (*used >= n)
        *used = n - 1;
}

/* The groups of d that cross `what`, named: "TP groups C and G", "TP group
 * A", "TP groups A, B, C and 5 more", or by a GPU when the letters follow
 * appearance ("the TP group of GPU 7", with a count). 0 when none crosses. */
static int crossing_names(const Scenario *s, MappingDim d, SpanCross what, char *buf, size_t n)
{
    const Mapping *m = scenario_mapping(s);
    const Cluster *c = scenario_cluster(s);
    const Placement *p = scenario_placement(s);
    int ids[4];
    int k = span_crossing_groups(m, c, p, d, what, ids, 4);
    if (k == 0)
        return 0;
    ClusterView cv = {c, m, p, d, 0, -1, -1};
    const char *dim = mapping_dim_name(d);
    size_t used = 0;
    buf[0] = '\0';
    if (cluster_grid_letter(&cv, ids[0]) == '?') {
        int rank = 0;
        for (int r = 0; r < mapping_world(m); r++)
            if (mapping_group_of(m, r, d) == ids[0]) {
                rank = r;
                break;
            }
        add(buf, n, &used, "%d %s groups, the first that of %s %d", k, dim, hw_noun(&c->gpu, 0),
            placement_gpu_of(p, rank));
        return k;
    }
    add(buf, n, &used, "%s group%s ", dim, k == 1 ? "" : "s");
    int shown = k <= 4 ? k : 3;
    for (int i = 0; i < shown; i++)
        add(buf, n, &used, "%s%c",
            i == 0       ? ""
            : i == k - 1 ? " and "
                         : ", ",
            cluster_grid_letter(&cv, ids[i]));
    if (k > shown)
        add(buf, n, &used, " and %d more", k - shown);
    return k;
}

/* The memory verdict, from need and have. */
static bool why_memory(const Scenario *s, bool ascii, char *buf, size_t n, size_t *used)
{
    const ServeResult *sr = scenario_serve(s);
    const StepResult *r = scenario_result(s);
    bool fits = sr ? sr->fits : r->fits;
    if (fits)
        return false;
    char need[32], have[32];
    units_format(UNITS_BYTES, sr ? sr->mem_per_gpu_bytes : r->mem_per_gpu_bytes, ascii, need,
                 sizeof need);
    units_format(UNITS_BYTES, sr ? sr->hbm_bytes : r->hbm_bytes, ascii, have, sizeof have);
    add(buf, n, used, "%sit does not fit in memory: it needs %s per %s, which has %s",
        *used ? "; " : "", need, hw_noun(&scenario_cluster(s)->gpu, 0), have);
    return true;
}

void scenario_view_why(const Scenario *s, const char *reason, bool ascii, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    if (reason && *reason)
        add(buf, n, &used, "%s", reason);
    why_memory(s, ascii, buf, n, &used);
    const Cluster *c = scenario_cluster(s);
    char names[160], up[32], out[32];
    units_format(UNITS_BANDWIDTH, c->out_bytes_per_s, ascii, out, sizeof out);
    units_format(UNITS_BANDWIDTH, c->up_bytes_per_s, ascii, up, sizeof up);
    static const struct {
        MappingDim d;
        const char *coll;
    } talky[] = {{DIM_TP, "all-reduces"}, {DIM_EP, "all-to-alls"}};
    for (size_t i = 0; i < sizeof talky / sizeof talky[0]; i++) {
        int k = crossing_names(s, talky[i].d, SPAN_CROSS_DOMAIN, names, sizeof names);
        if (k)
            add(buf, n, &used, "%s%s cross%s %s: %s %s run at %s instead of %s", used ? "; " : "",
                names, k == 1 ? "es" : "", cluster_grid_domain_noun(c, -1, true),
                k == 1 ? "its" : "their", talky[i].coll, out, up);
    }
    static const MappingDim outer[] = {DIM_TP, DIM_EP, DIM_CP, DIM_PP, DIM_DP};
    for (size_t i = 0; c->sites > 1 && i < sizeof outer / sizeof outer[0]; i++) {
        int k = crossing_names(s, outer[i], SPAN_CROSS_SITE, names, sizeof names);
        if (k)
            add(buf, n, &used, "%s%s cross%s the site link", used ? "; " : "", names,
                k == 1 ? "es" : "");
    }
    for (size_t i = 3; c->oversub > 1 && i < sizeof outer / sizeof outer[0]; i++) {
        int k = crossing_names(s, outer[i], SPAN_CROSS_SPINE, names, sizeof names);
        if (k)
            add(buf, n, &used, "%s%s climb%s to the %.0f:1 spine", used ? "; " : "", names,
                k == 1 ? "s" : "", c->oversub);
    }
    if (!used)
        add(buf, n, &used, "%s", scenario_serve(s) ? "" : scenario_result(s)->bottleneck);
}

/* ---- the effect of the last move ---------------------------------------- */

void scenario_view_effect(const Scenario *s, bool ascii, char *buf, size_t n)
{
    const ServeResult *sa = scenario_serve_previous(s), *sb = scenario_serve(s);
    GuessMove m =
        sb ? guess_move_serve(sa, sb) : guess_move_step(scenario_previous(s), scenario_result(s));
    int best = -1;
    double best_d = 1e-12;
    for (int i = 0; i < m.n_parts; i++)
        if (fabs(m.delta_s[i]) > best_d) {
            best_d = fabs(m.delta_s[i]);
            best = i;
        }
    char t0[32], t1[32];
    const char *what = sb ? "token" : "step";
    double pct = m.before_s > 0 ? (m.after_s / m.before_s - 1.0) * 100.0 : 0.0;
    if (best < 0) {
        snprintf(buf, n, "%s unchanged at %s", what, view_time(m.after_s, ascii, t1));
        return;
    }
    double before = sb ? sa->part_s[best] : scenario_previous(s)->part_s[best];
    double after = before + m.delta_s[best];
    snprintf(buf, n, "%s %s %s %s, %s %+.0f%%",
             sb ? serve_part_name((ServePart)best) : step_part_words((StepPart)best),
             view_time(before, ascii, t0), ascii ? "->" : "→", view_time(after, ascii, t1), what,
             pct);
}

/* ---- explain ------------------------------------------------------------- */

/* After the parts: the step (or token), tokens/s, then MFU (training). */
int scenario_view_explain_count(const Scenario *s)
{
    return scenario_serve(s) ? SERVE_PART_COUNT + 2 : STEP_PART_COUNT + 3;
}

static void explain_serve(const Scenario *s, int which, bool ascii, char *buf, size_t n)
{
    const ServeResult *r = scenario_serve(s);
    ServeLoad load;
    scenario_serving_load(s, &load);
    char t[32], a[32];
    if (which < SERVE_PART_COUNT) {
        serve_explain(scenario_cluster(s), scenario_workload(s), scenario_mapping(s), load, r,
                      (ServePart)which, ascii, buf, n);
        return;
    }
    if (which == SERVE_PART_COUNT) {
        size_t used = 0;
        add(buf, n, &used, "token =");
        for (int i = 0; i < SERVE_PART_COUNT; i++)
            if (r->part_s[i] > 0)
                add(buf, n, &used, " %s%s %s", used > 7 ? "+ " : "", serve_part_name((ServePart)i),
                    view_time(r->part_s[i], ascii, t));
        add(buf, n, &used, " = %s", view_time(r->token_s, ascii, t));
        return;
    }
    snprintf(buf, n, "tokens/s = %d replicas x batch %d / token %s = %s", r->replicas, load.batch,
             view_time(r->token_s, ascii, t), units_format_si(r->tokens_per_s, a, sizeof a));
}

void scenario_view_explain(const Scenario *s, int which, bool ascii, char *buf, size_t n)
{
    if (scenario_serve(s)) {
        explain_serve(s, which, ascii, buf, n);
        return;
    }
    const Cluster *c = scenario_cluster(s);
    const Workload *w = scenario_workload(s);
    const StepResult *r = scenario_result(s);
    char t[32], a[32];
    if (which < STEP_PART_COUNT) {
        step_explain(c, w, scenario_mapping(s), r, (StepPart)which, buf, n);
        return;
    }
    if (which == STEP_PART_COUNT) {
        size_t used = 0;
        add(buf, n, &used, "step =");
        for (int i = 0; i < STEP_PART_COUNT; i++)
            if (r->part_s[i] > 0)
                add(buf, n, &used, " %s%s %s", used > 7 ? "+ " : "", step_part_name((StepPart)i),
                    view_time(r->part_s[i], ascii, t));
        if (r->optimizer_s > 0)
            add(buf, n, &used, " + optimizer %s", view_time(r->optimizer_s, ascii, t));
        add(buf, n, &used, " = %s (exposed times)", view_time(r->step_s, ascii, t));
        return;
    }
    if (which == STEP_PART_COUNT + 1) {
        snprintf(buf, n, "tokens/s = batch %d x sequence %d tokens / step %s = %s",
                 w->global_batch, w->seq, view_time(r->step_s, ascii, t),
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

/* ---- the feedback area --------------------------------------------------- */

/* One paragraph of feedback: a bold lead-in and wrapped text (inline
 * markup rendered, as on pages). */
typedef struct {
    const char *lead;
    const char *text;
    Style st;
} ViewPara;

#define VIEW_PARAS 11

/* The bottleneck in words, false when there is none to tell. */
static bool view_bottleneck(const ScenarioScreen *v, char *buf, size_t n)
{
    const ServeResult *sr = scenario_serve(v->s);
    if (sr) {
        serve_bottleneck(sr, buf, n);
        return true;
    }
    snprintf(buf, n, "%s", scenario_result(v->s)->bottleneck);
    return buf[0] != '\0';
}

static bool view_fits(const ScenarioScreen *v)
{
    const ServeResult *sr = scenario_serve(v->s);
    return sr ? sr->fits : scenario_result(v->s)->fits;
}
/* Rows a narrow screen keeps for the feedback below the result when there
 * is a goal (it scrolls when it needs more); free play keeps what its
 * feedback needs. */
#define SCENARIO_FEEDBACK_ROWS 8

/* The paragraphs in the order a learner reads them: the answer to the last
 * key (its message, the graded prediction), once met the debrief, a hint or
 * an explanation just asked for, the effect of the last move, the goal and
 * why it is not met; then a hint or an explanation asked for earlier. */
static int view_paras(const ScenarioScreen *v, bool ascii, bool bneck, ViewPara *out, char *bufs,
                      size_t buf_len)
{
    int n = 0;
    size_t part = buf_len / 4;
    if (v->msg && v->msg[0])
        out[n++] = (ViewPara){"", v->msg, STYLE_WARNING};
    if (v->guess_verdict && v->guess_verdict[0])
        out[n++] = (ViewPara){"Your prediction: ", v->guess_verdict, STYLE_EMPH};
    ViewPara hint = {NULL, NULL, STYLE_NORMAL}, explain = hint;
    if (v->hint && v->hint_count > 0 && v->goal != 1) {
        snprintf(bufs, 32, "Hint %d/%d: ", v->hint_no, v->hint_count);
        hint = (ViewPara){bufs, v->hint, STYLE_NORMAL};
    }
    if (v->explain >= 0 && !v->guessing) {
        scenario_view_explain(v->s, v->explain, ascii, bufs + part, part);
        explain = (ViewPara){"Explain (e next, E close): ", bufs + part, STYLE_LABEL};
    }
    bool hint_first = v->fresh == SCENARIO_FRESH_HINT,
         explain_first = v->fresh == SCENARIO_FRESH_EXPLAIN;
    /* once met, the debrief is what the screen is for: it comes next */
    bool debrief = v->met && v->goal == 1 && !v->guessing && v->debrief && v->debrief[0];
    if (debrief)
        out[n++] = (ViewPara){"Debrief: ", v->debrief, STYLE_GOOD};
    if (hint.text && hint_first)
        out[n++] = hint;
    if (explain.text && explain_first)
        out[n++] = explain;
    if (v->last && v->last[0] && !v->guessing)
        out[n++] = (ViewPara){"Last move: ", v->last, STYLE_NORMAL};
    if (v->goal_text && v->goal_text[0]) {
        const char *state = v->guessing    ? "[?]"
                            : v->goal == 1 ? (ascii ? "[met]" : "[met ✓]")
                            : v->goal < 0  ? "[goal error]"
                                           : "[not yet]";
        char keys[64] = "";
        if (v->par > 0)
            snprintf(keys, sizeof keys, "%skeys %d, par %d", ascii ? " | " : " · ",
                     scenario_presses(v->s), v->par);
        snprintf(bufs + 2 * part, part, "%s  %s%s", v->goal_text, state, keys);
        out[n++] = (ViewPara){"Goal: ", bufs + 2 * part,
                              v->goal == 1 && !v->guessing ? STYLE_GOOD : STYLE_NORMAL};
        if (v->goal != 1 && !v->guessing && v->why && v->why[0])
            out[n++] = (ViewPara){"Why not: ", v->why, v->goal < 0 ? STYLE_BAD : STYLE_WARNING};
    }
    /* on a narrow screen the bottleneck is a paragraph here, not a line of
     * the result: it never pushes the cluster view around */
    if (bneck && !v->guessing && view_bottleneck(v, bufs + 3 * part, part))
        out[n++] =
            (ViewPara){"Bottleneck: ", bufs + 3 * part, view_fits(v) ? STYLE_NORMAL : STYLE_BAD};
    if (hint.text && !hint_first)
        out[n++] = hint;
    if (explain.text && !explain_first)
        out[n++] = explain;
    return n;
}

/* Draws the paragraphs from row 0 of c (c NULL: only counts). Returns the
 * rows they need. */
static int view_draw_paras(Canvas *c, int w, const ViewPara *paras, int n)
{
    int row = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(paras[i].lead) + strlen(paras[i].text) + 1;
        char *buf = xmem_alloc(len);
        snprintf(buf, len, "%s%s", paras[i].lead, paras[i].text);
        int need = text_inline_count(buf, w);
        if (c) {
            text_draw_inline(c, 0, row, w, need, buf, paras[i].st);
            int lw = utf8_width(paras[i].lead);
            canvas_set_style(c, 0, row, lw < w ? lw : w, 1, STYLE_BOLD);
        }
        free(buf);
        row += need;
    }
    return row;
}

static int view_feedback_rows(const ScenarioScreen *v, int w, bool ascii, bool bneck)
{
    ViewPara paras[VIEW_PARAS];
    char bufs[2400];
    int n = view_paras(v, ascii, bneck, paras, bufs, sizeof bufs);
    return view_draw_paras(NULL, w, paras, n);
}

/* The feedback in the w x h box at (x, y): scrolled by v->scroll when it
 * needs more rows, with a marker line saying so. */
static void view_feedback(Canvas *c, int x, int y, int w, int h, const ScenarioScreen *v,
                          bool bneck, ScenarioDrawn *out)
{
    bool ascii = canvas_is_ascii(c);
    ViewPara paras[VIEW_PARAS];
    char bufs[2400];
    int n = view_paras(v, ascii, bneck, paras, bufs, sizeof bufs);
    int need = view_draw_paras(NULL, w, paras, n);
    out->lines = need;
    out->scroll = 0;
    if (h < 1 || need == 0)
        return;
    bool scrolls = need > h;
    int shown = scrolls && h > 1 ? h - 1 : h;
    int scroll = v->scroll > need - shown ? (need - shown > 0 ? need - shown : 0) : v->scroll;
    scroll = scroll < 0 ? 0 : scroll;
    out->scroll = scroll;
    Canvas *all = canvas_new(w, need);
    canvas_set_ascii(all, ascii);
    view_draw_paras(all, w, paras, n);
    Canvas *win = canvas_new(w, shown);
    canvas_blit(win, 0, -scroll, all);
    canvas_blit(c, x, y, win);
    canvas_free(win);
    canvas_free(all);
    if (scrolls && h > 1) {
        char more[96];
        snprintf(more, sizeof more, "%s lines %d-%d of %d: j/k scrolls",
                 scroll + shown < need ? (ascii ? "v more," : "▼ more,")
                                       : (ascii ? "^ end," : "▲ end,"),
                 scroll + 1, scroll + shown, need);
        canvas_put_text_max(c, x, y + shown, w, more, STYLE_DIM);
    }
}

/* ---- the result: the bar, the figures, the bottleneck -------------------- */

/* What a short screen leaves out, in this order: the bottleneck sentence,
 * the change against the start (the two bars carry their times), the
 * cluster view's legend line. */
typedef struct {
    int bneck;   /* rows of the bottleneck sentence, at most */
    bool change; /* the change line under the bars */
    bool legend; /* the legend under the cluster view */
} ViewLean;
static const ViewLean VIEW_ALL = {2, true, true};

/* The prediction's question and choices, in place of the result. */
static int view_question(Canvas *c, int x, int y, int w, const ScenarioScreen *v)
{
    bool serving = scenario_serve(v->s) != NULL;
    const char *labels[GUESS_MAX_CHOICES];
    int k = guess_choices(v->ask, serving, labels, GUESS_MAX_CHOICES), row = 0;
    const char *q = guess_question(v->ask, serving);
    row += text_draw_wrapped(c, x, y + row, w, 2, q, STYLE_EMPH);
    char line[200] = "", item[80];
    for (int i = 0; i < k; i++) {
        snprintf(item, sizeof item, "%d %s", i + 1, labels[i]);
        if (line[0] && utf8_width(line) + 3 + utf8_width(item) > w) {
            if (c)
                canvas_put_text_max(c, x, y + row, w, line, STYLE_BOLD);
            row++;
            line[0] = '\0';
        }
        size_t used = strlen(line);
        snprintf(line + used, sizeof line - used, "%s%s", used ? "   " : "", item);
    }
    if (line[0] && c)
        canvas_put_text_max(c, x, y + row, w, line, STYLE_BOLD);
    return row + (line[0] ? 1 : 0);
}

/* The bar of the state: the step's parts or a served token's. */
static int view_bar(Canvas *c, int x, int y, int w, const ScenarioScreen *v, ViewLean lean)
{
    const Scenario *s = v->s;
    const ServeResult *sr = scenario_serve(s);
    /* a goal that is met is never told "slower"; nor is a change against a
     * start that did not fit */
    bool start_fits = sr ? scenario_serve_start(s)->fits : scenario_reference(s)->fits;
    bool judge = v->goal != 1 && start_fits;
    ChartParts now = sr ? chart_parts_serve(sr) : chart_parts_step(scenario_result(s));
    ChartParts ref =
        sr ? chart_parts_serve(scenario_serve_start(s)) : chart_parts_step(scenario_reference(s));
    return chart_parts_bar(c, x, y, w, &now, &ref, v->target_s,
                           (judge ? CHART_JUDGE : 0) | (lean.change ? 0 : CHART_NO_CHANGE));
}

/* "step 1.24 s · 3.39 M tokens/s · MFU 39% · TP8 PP1 DP64 mb1 · DGX H100",
 * or for serving "token 9.28 ms · 108 tokens/s per user · 862 tokens/s". */
static void view_figures(const ScenarioScreen *v, int w, bool ascii, char *line, size_t n)
{
    const Scenario *s = v->s;
    const StepResult *r = scenario_result(s);
    const ServeResult *sr = scenario_serve(s);
    char t[32], tok[32], mp[64];
    mapping_format(scenario_mapping(s), mp, sizeof mp);
    const char *sep = ascii ? " | " : " · ";
    if (sr)
        snprintf(line, n, "token %s%s%.0f tokens/s per user%s%s tokens/s%s%s%s%s",
                 view_time(sr->token_s, ascii, t), sep, sr->user_tokens_per_s, sep,
                 units_format_si(sr->tokens_per_s, tok, sizeof tok), sep, mp, sep,
                 scenario_cluster(s)->name);
    else
        snprintf(line, n, "step %s%s%s tokens/s%sMFU %.0f%%%s%s mb%d%s%s",
                 view_time(r->step_s, ascii, t), sep,
                 units_format_si(r->tokens_per_s, tok, sizeof tok), sep, r->mfu * 100.0, sep, mp,
                 scenario_workload(s)->micro_batch, sep, scenario_cluster(s)->name);
    /* the cluster's name goes first when the line is too long: the view
     * below names the cluster too, the figures are the point */
    size_t cut = strlen(scenario_cluster(s)->name) + strlen(sep);
    if (utf8_width(line) > w && strlen(line) > cut)
        line[strlen(line) - cut] = '\0';
}

/* Draws the bar and the figures line at (x, y); c NULL: only counts.
 * lean: what is left out.
 * Returns the rows used. */
static int view_result(Canvas *c, int x, int y, int w, const ScenarioScreen *v, ViewLean lean,
                       bool ascii)
{
    Canvas *scratch = c ? NULL : canvas_new(w, 8);
    Canvas *to = c ? c : scratch;
    if (scratch)
        canvas_set_ascii(scratch, ascii);
    int row = y;
    if (v->guessing) {
        /* the question takes the result's rows, no fewer: the cluster view
         * above keeps its layout while the learner answers */
        row += view_question(to, x, row, w, v);
        canvas_free(scratch);
        ScenarioScreen shown = *v;
        shown.guessing = false;
        int result = view_result(NULL, x, y, w, &shown, lean, ascii);
        return row - y > result ? row - y : result;
    }
    row += view_bar(to, x, row, w, v, lean);
    canvas_free(scratch);
    char line[400];
    view_figures(v, w, ascii, line, sizeof line);
    /* still too wide (a side column): two lines, never a cut figure */
    int lines = text_wrap_count(line, w) > 1 ? 2 : 1;
    if (c)
        text_draw_wrapped(c, x, row, w, lines, line, STYLE_BOLD);
    row += lines;
    char b[400];
    if (lean.bneck > 0 && view_bottleneck(v, b, sizeof b)) {
        char said[420];
        snprintf(said, sizeof said, "Bottleneck: %s", b);
        int need = text_wrap_count(said, w);
        need = need < lean.bneck ? need : lean.bneck;
        if (c) {
            text_draw_wrapped(c, x, row, w, need, said, view_fits(v) ? STYLE_NORMAL : STYLE_BAD);
            canvas_set_style(c, x, row, 11, 1, STYLE_BOLD);
        }
        row += need;
    }
    return row - y;
}

/* ---- the cluster view with its cursor line and legend -------------------- */

static ClusterView view_cluster(const ScenarioScreen *v)
{
    ClusterView cv = {scenario_cluster(v->s),
                      scenario_mapping(v->s),
                      scenario_placement(v->s),
                      scenario_view_colour(v->s, v->pick_dim),
                      v->cursor,
                      v->picked,
                      v->pick_dim};
    return cv;
}

/* The legend: what the letters mean and both tiers' bandwidths, in the
 * longest wording that fits w. */
static void view_legend(Canvas *c, int x, int y, int w, const ScenarioScreen *v,
                        const ClusterShown *shown)
{
    bool ascii = canvas_is_ascii(c);
    const Cluster *cl = scenario_cluster(v->s);
    char up[32], out[32], rows[48] = "", lines[5][300], down[48] = "";
    units_format(UNITS_BANDWIDTH, cl->up_bytes_per_s, ascii, up, sizeof up);
    units_format(UNITS_BANDWIDTH, cl->out_bytes_per_s, ascii, out, sizeof out);
    const char *dim = mapping_dim_name(scenario_view_colour(v->s, v->pick_dim));
    const char *rep = shown->letters_repeat ? ", letters repeat" : "";
    bool failed = false, busy = false;
    for (int i = 0; i < cl->n_down; i++) {
        failed |= cl->down[i].state == CLUSTER_GPU_FAILED;
        busy |= cl->down[i].state == CLUSTER_GPU_BUSY;
    }
    if (cluster_machine_gpus(cl) > cl->n_gpus)
        snprintf(down, sizeof down, "; %s%s. free", failed ? "x failed, " : "",
                 busy ? "# busy, " : "");
    if (shown->rows < shown->total_rows)
        snprintf(rows, sizeof rows, "rows %d-%d of %d%s", shown->first_row + 1,
                 shown->first_row + shown->rows, shown->total_rows, ascii ? " | " : " · ");
    snprintf(lines[0], sizeof lines[0],
             "%s%s groups by letter%s%s; %s %s per %s in a domain, %s between domains", rows, dim,
             rep, down, cl->up_link, up, hw_noun(&cl->gpu, 0), out);
    snprintf(lines[1], sizeof lines[1], "%s%s groups by letter%s%s; %s in a domain, %s between",
             rows, dim, rep, down, up, out);
    snprintf(lines[2], sizeof lines[2], "%sletters: %s groups%s%s; in %s, out %s", rows, dim, rep,
             down, up, out);
    snprintf(lines[3], sizeof lines[3], "%s%s groups%s%s; in %s, out %s", rows, dim, rep, down, up,
             out);
    snprintf(lines[4], sizeof lines[4], "%s%s groups%s%s", rows, dim, rep, down);
    int pick = 0;
    while (pick < 4 && utf8_width(lines[pick]) > w)
        pick++;
    canvas_put_text_max(c, x, y, w, lines[pick], STYLE_DIM);
}

/* Rows the cursor line takes at width w (1, or 2 when it wraps). */
static int view_cursor_rows(const ScenarioScreen *v, int w, bool ascii)
{
    ClusterView cv = view_cluster(v);
    ClusterShown any = {'A', 0, 0, 0, false};
    char line[400];
    cluster_grid_cursor_line(&cv, &any, ascii, w, line, sizeof line);
    return text_wrap_count(line, w) > 1 ? 2 : 1;
}

/* The cluster view, its cursor line and (lean.legend) its legend in h rows. */
static void view_grid(Canvas *c, int x, int y, int w, int h, const ScenarioScreen *v,
                      ViewLean lean, CanvasPoint *cur)
{
    bool ascii = canvas_is_ascii(c);
    ClusterView cv = view_cluster(v);
    ClusterShown shown;
    int cr = view_cursor_rows(v, w, ascii);
    cluster_grid_draw(c, x, y, w, h - lean.legend - cr, &cv, cur, &shown);
    char line[400];
    cluster_grid_cursor_line(&cv, &shown, ascii, w, line, sizeof line);
    text_draw_wrapped(c, x, y + shown.rows, w, cr, line, STYLE_BOLD);
    if (lean.legend)
        view_legend(c, x, y + shown.rows + cr, w, v, &shown);
}

/* Rows the cluster view takes (with its lines) given at most max_h. */
static int view_grid_rows(const ScenarioScreen *v, int w, int max_h, ViewLean lean, bool ascii)
{
    ClusterView cv = view_cluster(v);
    int lines = lean.legend + view_cursor_rows(v, w, ascii);
    return cluster_grid_rows(&cv, w, max_h - lines) + lines;
}

/* ---- the whole screen ---------------------------------------------------- */

/* Wide screens: the cluster (and a fabric view when there is room) on the
 * left, the result and the feedback on the right. */
static void view_wide(Canvas *c, const ScenarioScreen *v, int y, int bottom, ScenarioDrawn *out)
{
    int w = canvas_width(c);
    int gw = w / 2 - 3, rx = w / 2 + 1, rw = w - rx - 2;
    int gh = view_grid_rows(v, gw, bottom - y, VIEW_ALL, canvas_is_ascii(c));
    view_grid(c, 2, y, gw, gh, v, VIEW_ALL, &out->cursor);
    int ly = y + gh;
    const Cluster *cl = scenario_cluster(v->s);
    if (bottom - ly - 1 >= 12 && cl->n_runs == 0) {
        char err[256];
        Diagram d = diagram_of(VIEW_FABRIC, cl);
        d.workload = scenario_workload(v->s);
        d.mapping = scenario_mapping(v->s);
        d.placement = scenario_placement(v->s);
        d.colour_by = scenario_view_colour(v->s, v->pick_dim);
        diagram_draw(c, 2, ly + 1, gw, bottom - ly - 1, &d, err, sizeof err);
    }
    int ry = y + view_result(c, rx, y, rw, v, VIEW_ALL, canvas_is_ascii(c));
    view_feedback(c, rx, ry, rw, bottom - ry, v, false, out);
}

void scenario_view_draw(Canvas *c, const ScenarioScreen *v, int top, int bottom,
                        ScenarioDrawn *out)
{
    ScenarioDrawn none = {{-1, -1}, 0, 0};
    *out = none;
    if (!v || !v->s)
        return;
    bool ascii = canvas_is_ascii(c);
    int w = canvas_width(c), h = canvas_height(c);
    const char *brief = v->brief ? v->brief : "";
    int y = top - 1, avail = bottom - y;
    int tw = w - 4;
    /* What each part needs. The brief stays whole (up to its cap; a
     * longer one ends in an ellipsis), the cluster view keeps at least its
     * compact form (up to 4 rows of GPUs, scrolled past that), what
     * ViewLean lists goes when rows are short, and the feedback scrolls
     * with j/k before anything else is cut. */
    int brief_need = *brief ? text_wrap_count(brief, tw) : 0;
    int brief_cap = h >= 40 ? 6 : 2;
    int brief_h = brief_need < brief_cap ? brief_need : brief_cap;
    bool wide = w >= 120;
    /* The rows kept for the feedback do not follow what it says now, so
     * the cluster view keeps its layout from one key to the next. */
    int fb_keep = v->goal_text && v->goal_text[0] ? SCENARIO_FEEDBACK_ROWS
                  : wide                          ? 0
                                                  : view_feedback_rows(v, tw, ascii, true);
    ViewLean lean = VIEW_ALL;
    lean.bneck = 0; /* a paragraph of the feedback instead */
    int res_h = 0, grid_min = 0;
    for (int step = 1; !wide; step++) {
        res_h = view_result(NULL, 2, 0, tw, v, lean, ascii);
        int most = 4 + lean.legend + view_cursor_rows(v, tw, ascii);
        grid_min = view_grid_rows(v, tw, most, lean, ascii);
        if (avail - brief_h - res_h - grid_min >= fb_keep || step == 3)
            break;
        if (step == 1)
            lean.change = false;
        else
            lean.legend = false;
    }
    if (brief_h)
        text_draw_markup(c, 2, y, tw, brief_h, brief, 0);
    if (brief_need > brief_h)
        canvas_put_text(c, 2 + tw - 1, y + brief_h - 1, ascii ? "~" : "…", STYLE_DIM);
    y += brief_h + (brief_h && h >= 30 ? 1 : 0);
    if (wide) {
        view_wide(c, v, y, bottom, out);
        return;
    }
    int room = bottom - y - res_h;
    int grid_h =
        view_grid_rows(v, tw, room - fb_keep > grid_min ? room - fb_keep : grid_min, lean, ascii);
    view_grid(c, 2, y, tw, grid_h, v, lean, &out->cursor);
    y += grid_h;
    y += view_result(c, 2, y, tw, v, lean, ascii);
    view_feedback(c, 2, y, tw, bottom - y, v, true, out);
}
