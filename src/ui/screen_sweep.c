/* SPDX-License-Identifier: MIT */
/* screen_sweep — the search view of a scenario: sweep_run over what the
 * scenario allows, the ranked top rows, where the selected mapping's
 * dimensions land (sweep_explain) and the best step time against TP degree
 * (chart_line). Pure: no curses; the clock is read only to report how long
 * the search took.
 */
#include "ui/screen_sweep.h"

#include "base/clock.h"
#include "base/msg.h"
#include "draw/charts.h"
#include "draw/text.h"
#include "model/units.h"
#include "ui/keys.h"

#include <stdio.h>
#include <string.h>

bool screen_sweep_run(SweepView *v, const Scenario *s)
{
    const Cluster *c = scenario_cluster(s);
    const Workload *w = scenario_workload(s);
    const Mapping *m = scenario_mapping(s);
    unsigned allow = scenario_allowed(s);
    SweepOptions o = sweep_options_default();
    /* Search only what a move could change: no move sets interleave or ZeRO. */
    o.interleave = m->interleave > 0 ? m->interleave : 1;
    o.zero = m->zero;
    const char *what;
    if (!(allow & SCN_ALLOW_DEGREES)) {
        o.tp = m->tp;
        o.pp = m->pp;
        o.dp = m->dp;
        o.ep = m->ep;
    }
    if (!(allow & SCN_ALLOW_MICRO))
        o.micro_batch = w->micro_batch;
    if (!(allow & SCN_ALLOW_MOVE))
        o.alt_top = 0;
    if ((allow & SCN_ALLOW_DEGREES) && (allow & SCN_ALLOW_MICRO))
        what = "TP, PP, DP, EP and micro-batch";
    else if (allow & SCN_ALLOW_DEGREES)
        what = "TP, PP, DP and EP (micro-batch kept)";
    else if (allow & SCN_ALLOW_MICRO)
        what = "the micro-batch only (degrees kept)";
    else
        what = "nothing this scenario lets you change";
    snprintf(v->scope, sizeof v->scope, "searched: %s; interleave %d, ZeRO %d kept%s", what,
             o.interleave, o.zero, o.alt_top == 0 ? "; default placement only" : "");
    v->err[0] = '\0';
    v->sel = 0;
    v->open = true;
    double t0 = clock_now_s();
    bool ok = sweep_run(&v->r, c, w, &o, v->err, sizeof v->err);
    v->ms = (clock_now_s() - t0) * 1e3;
    memset(&v->tp, 0, sizeof v->tp);
    v->tp.best = -1;
    if (!ok || v->r.n == 0) {
        if (!v->err[0])
            snprintf(v->err, sizeof v->err, "no legal mapping");
        return false;
    }
    sweep_series_by_tp(&v->r, &v->tp);
    return true;
}

void screen_sweep_fini(SweepView *v)
{
    if (!v)
        return;
    sweep_result_free(&v->r);
    memset(v, 0, sizeof *v);
}

SweepKey screen_sweep_key(SweepView *v, int key)
{
    int n = v->r.n < 10 ? v->r.n : 10;
    switch (key) {
    case UIK_ESC:
    case 'q':
    case 's':
        v->open = false;
        return SWEEP_KEY_BACK;
    case UIK_ENTER:
        if (v->err[0] || v->r.n == 0)
            return SWEEP_KEY_NONE;
        v->open = false;
        return SWEEP_KEY_APPLY;
    case UIK_UP:
    case 'k':
        if (v->sel > 0)
            v->sel--;
        break;
    case UIK_DOWN:
    case 'j':
        if (v->sel + 1 < n)
            v->sel++;
        break;
    default:
        return SWEEP_KEY_NONE;
    }
    return SWEEP_KEY_NONE;
}

bool screen_sweep_apply(const SweepView *v, Scenario *s, char *err, size_t err_len)
{
    if (v->sel < 0 || v->sel >= v->r.n) {
        msg_set(err, err_len, "nothing to apply");
        return false;
    }
    const SweepEntry *e = &v->r.entries[v->sel];
    const Cluster *c = scenario_cluster(s);
    const Mapping *cur = scenario_mapping(s);
    Mapping m = e->m;
    Placement *pl = sweep_entry_placement(c, e);
    bool same_place = true;
    for (int g = 0; g < c->n_gpus && same_place; g++)
        same_place =
            placement_rank_on(scenario_placement(s), g) == (pl ? placement_rank_on(pl, g) : g);
    if (m.tp == cur->tp && m.pp == cur->pp && m.dp == cur->dp && m.ep == cur->ep &&
        m.cp == cur->cp && same_place && e->micro_batch == scenario_workload(s)->micro_batch) {
        placement_free(pl);
        msg_set(err, err_len, "this is already the current mapping");
        return false;
    }
    bool ok = scenario_set_mapping(s, &m, e->micro_batch, pl, err, err_len);
    placement_free(pl);
    return ok;
}

static void screen_sweep_row(const SweepEntry *e, int rank, bool wide, bool ascii, char *buf,
                             size_t n)
{
    char map[64], t[32], mem[32];
    mapping_format(&e->m, map, sizeof map);
    units_format(UNITS_TIME, e->step_s, ascii, t, sizeof t);
    units_format(UNITS_BYTES, e->mem_per_gpu_bytes, ascii, mem, sizeof mem);
    int len =
        snprintf(buf, n, "%2d %-22s mb%-3d %-14s %9s %4.0f%% %9s%s", rank, map, e->micro_batch,
                 sweep_place_name(e->place), t, 100.0 * e->mfu, mem, e->fits ? "" : " !");
    if (wide && len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, "%s  %s on %s", e->fits ? "  " : "",
                 step_part_name(e->bottleneck_part),
                 e->bottleneck_tier == TIER_UP       ? "scale-up"
                 : e->bottleneck_tier == TIER_ACROSS ? "scale-across"
                                                     : "scale-out");
}

void screen_sweep_draw(Canvas *c, const SweepView *v, const Scenario *s, int x, int y, int w,
                       int h, ScreenCursor *cur)
{
    bool ascii = canvas_is_ascii(c);
    const Cluster *cl = scenario_cluster(s);
    const Workload *wl = scenario_workload(s);
    int end = y + h;
    char line[400];
    snprintf(line, sizeof line, "Best mappings: %s, %d %s, %s", cl->name, cl->n_gpus,
             hw_noun(&cl->gpu, HW_NOUN_MANY), wl->id);
    canvas_put_text_max(c, x, y++, w, line, STYLE_HEADING);
    if (v->err[0]) {
        text_draw_wrapped(c, x, y, w, end - y - 1, v->err, STYLE_BAD);
        canvas_put_text_max(c, x, end - 1, w, "Esc back to the scenario", STYLE_DIM);
        return;
    }
    snprintf(line, sizeof line, "%d legal candidate%s, %d evaluated in %.1f ms (%s)%s", v->r.n,
             v->r.n == 1 ? "" : "s", v->r.evaluated, v->ms, v->scope,
             v->r.truncated ? "; stopped at the cap" : "");
    y += text_draw_wrapped(c, x, y, w, 2, line, STYLE_DIM) > 1 ? 2 : 1;
    bool wide = w >= 110;
    char mem[16];
    snprintf(mem, sizeof mem, "mem/%s", hw_noun(&cl->gpu, 0));
    snprintf(line, sizeof line, " # %-22s %-5s %-14s %9s %5s %9s%s", "mapping", "mb", "placement",
             "step", "MFU", mem, wide ? "    bottleneck" : "");
    canvas_put_text_max(c, x, y++, w, line, STYLE_BOLD);
    /* Where the selected mapping lands, worked out for the row now selected. */
    char para[800], expl[600];
    int sel = v->sel >= 0 && v->sel < v->r.n ? v->sel : 0;
    snprintf(para, sizeof para, "#%d lands: %s", sel + 1,
             sweep_explain(cl, &v->r.entries[sel], expl, sizeof expl));
    int eh = text_wrap_count(para, w);
    if (eh > 3)
        eh = 3;
    /* Rows: up to 10 above the explanation and the keys line; a short
     * terminal keeps an 8-row chart under 3 rows or more. */
    int room = end - y - 1 - eh - (v->r.n_fit == 0 ? 1 : 0);
    int rows = v->r.n < 10 ? v->r.n : 10;
    bool chart = v->tp.n >= 2 && room - 8 >= 3;
    if (chart && rows > room - 8)
        rows = room - 8;
    if (rows > room)
        rows = room > 1 ? room : 1;
    int first = sel >= rows ? sel - rows + 1 : 0;
    for (int i = first; i < first + rows && i < v->r.n; i++) {
        screen_sweep_row(&v->r.entries[i], i + 1, wide, ascii, line, sizeof line);
        Style st = i == sel ? STYLE_SELECTED : v->r.entries[i].fits ? STYLE_NORMAL : STYLE_BAD;
        canvas_put_text_max(c, x, y, w, line, st);
        if (i == sel) {
            canvas_put_text(c, x, y, ascii ? ">" : "▶", STYLE_SELECTED);
            if (cur) {
                cur->x = x;
                cur->y = y;
            }
        }
        y++;
    }
    if (v->r.n_fit == 0)
        canvas_put_text_max(c, x, y++, w, "! nothing fits in memory: every row is flagged",
                            STYLE_BAD);
    text_draw_wrapped(c, x, y, w, eh, para, STYLE_LABEL);
    y += eh;
    int gap = end - y - 1 > 8 ? 1 : 0; /* a blank row above the chart when there is room */
    int chart_h = end - y - 1 - gap;
    if (chart && chart_h >= 8) {
        ChartSeries cs;
        memset(&cs, 0, sizeof cs);
        cs.title = "Best step time against TP degree";
        cs.x_label = "TP";
        cs.y_label = "step time";
        cs.y_kind = UNITS_TIME;
        cs.n = v->tp.n < CHART_MAX_POINTS ? v->tp.n : CHART_MAX_POINTS;
        cs.highlight = -1;
        int sel_tp = v->r.entries[sel].m.tp;
        for (int i = 0; i < cs.n; i++) {
            cs.x[i] = v->tp.x[i];
            cs.y[i] = v->tp.y_s[i];
            cs.valid[i] = v->tp.valid[i];
            if ((int)v->tp.x[i] == sel_tp)
                cs.highlight = i;
        }
        cs.ascii = ascii;
        int cw = w < 100 ? w : 100;
        chart_line(c, x, y + gap, cw, chart_h > 20 ? 20 : chart_h, &cs);
    }
    canvas_put_text_max(c, x, end - 1, w,
                        ascii ? "Up/Down choose - Enter apply (u undoes it) - Esc back"
                              : "↑↓ choose · Enter apply (u undoes it) · Esc back",
                        STYLE_DIM);
}
