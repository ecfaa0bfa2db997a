/* SPDX-License-Identifier: MIT */
/* charts — the stacked step-time bar and the line chart of a sweep; see
 * charts.h.
 *
 * Bar segments are placed by cumulative rounding (segment k ends at
 * round(sum of parts 0..k / scale * width)), so the segments always add up
 * to the bar's length and two bars drawn on one scale compare by length.
 * Every part has its own fill glyph as well as its own style.
 * Depends on canvas, text, strbuf and the model's step/units headers.
 */
#include "draw/charts.h"

#include "base/strbuf.h"
#include "base/utf8.h"
#include "draw/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const Style part_style[STEP_PART_COUNT] = {
    STYLE_BAR_COMPUTE, STYLE_BAR_TP, STYLE_BAR_PP, STYLE_BAR_BUBBLE, STYLE_BAR_DP, STYLE_BAR_EP,
};
static const char *const part_utf8[STEP_PART_COUNT] = {"█", "▓", "▒", "░", "▄", "▀"};
static const char *const part_ascii[STEP_PART_COUNT] = {"#", "T", "P", ".", "D", "E"};

Style chart_part_style(StepPart part)
{
    return (unsigned)part < STEP_PART_COUNT ? part_style[part] : STYLE_NORMAL;
}

const char *chart_part_glyph(StepPart part, bool ascii)
{
    if ((unsigned)part >= STEP_PART_COUNT)
        return "?";
    return ascii ? part_ascii[part] : part_utf8[part];
}

static const char *chart_time(double s, bool ascii, char *buf, size_t n)
{
    if (s == 0) {
        snprintf(buf, n, "0 s");
        return buf;
    }
    return units_format(UNITS_TIME, s, ascii, buf, n);
}

ChartParts chart_parts_step(const StepResult *r)
{
    ChartParts b;
    memset(&b, 0, sizeof b);
    b.n = STEP_PART_COUNT;
    b.total_s = r->step_s;
    for (int p = 0; p < STEP_PART_COUNT; p++) {
        b.part_s[p] = r->part_s[p];
        b.name[p] = step_part_name((StepPart)p);
        b.glyph[p][0] = part_utf8[p];
        b.glyph[p][1] = part_ascii[p];
        b.style[p] = part_style[p];
    }
    return b;
}

ChartParts chart_parts_serve(const ServeResult *r)
{
    /* weights like compute, the KV cache like the bubble's light fill, the
     * all-reduces like TP, the network like DP: distinct glyphs in one bar */
    static const int look[SERVE_PART_COUNT] = {STEP_COMPUTE, STEP_BUBBLE, STEP_PP, STEP_TP,
                                               STEP_DP};
    ChartParts b;
    memset(&b, 0, sizeof b);
    b.n = SERVE_PART_COUNT;
    b.total_s = r->token_s;
    for (int p = 0; p < SERVE_PART_COUNT; p++) {
        b.part_s[p] = r->part_s[p];
        b.name[p] = serve_part_name((ServePart)p);
        b.glyph[p][0] = part_utf8[look[p]];
        b.glyph[p][1] = part_ascii[look[p]];
        b.style[p] = part_style[look[p]];
    }
    return b;
}

static double chart_parts_total(const ChartParts *r)
{
    double t = 0;
    for (int p = 0; p < r->n; p++)
        t += r->part_s[p] > 0 ? r->part_s[p] : 0;
    return t;
}

/* One bar: label, time, then the segments scaled so that `scale` seconds
 * fill bar_w columns. */
static void chart_bar_row(Canvas *c, int x, int y, int label_w, int bar_w, const char *label,
                          const ChartParts *r, double scale, bool ascii)
{
    char t[32], head[64];
    snprintf(head, sizeof head, "%s%s", label, chart_time(r->total_s, ascii, t, sizeof t));
    canvas_put_text_max(c, x, y, label_w - 1, head, STYLE_BOLD);
    if (!(scale > 0))
        return;
    double cum = 0;
    int prev = 0;
    for (int p = 0; p < r->n; p++) {
        double v = r->part_s[p] > 0 ? r->part_s[p] : 0;
        cum += v;
        int end = (int)lround(cum / scale * bar_w);
        if (end > bar_w)
            end = bar_w;
        canvas_fill(c, x + label_w + prev, y, end - prev, 1, r->glyph[p][ascii], r->style[p]);
        prev = end;
    }
}

/* The goal's mark: one column of the bar rows, where target_s falls. */
static void chart_target_mark(Canvas *c, int x, int y, int rows, int bar_w, double target_s,
                              double scale, bool ascii)
{
    int col = (int)lround(target_s / scale * bar_w);
    if (col >= bar_w)
        col = bar_w - 1;
    for (int i = 0; i < rows; i++)
        canvas_put_glyph(c, x + col, y + i, chart_target_glyph(ascii), STYLE_WARNING);
}

const char *chart_target_glyph(bool ascii)
{
    return ascii ? "|" : "┃";
}

/* Legend: glyph, name, time; parts that take no time are left out (the
 * first is always listed), then the goal's mark. Wraps onto more rows.
 * Returns the rows used. */
/* The legend's items (the parts shown, then the goal's mark) into items;
 * returns how many. */
static int chart_legend_items(const ChartParts *r, const ChartParts *ref, double target_s,
                              bool target, bool ascii, char items[][96], int *part)
{
    int n = 0;
    char t[32];
    for (int p = 0; p < r->n; p++) {
        if (p != 0 && !(r->part_s[p] > 0) && !(ref && ref->part_s[p] > 0))
            continue;
        snprintf(items[n], 96, "%s %s %s", r->glyph[p][ascii], r->name[p],
                 chart_time(r->part_s[p], ascii, t, sizeof t));
        part[n++] = p;
    }
    if (target) {
        snprintf(items[n], 96, "%s goal %s", chart_target_glyph(ascii),
                 chart_time(target_s, ascii, t, sizeof t));
        part[n++] = -1;
    }
    return n;
}

/* Items two spaces apart, one when that keeps them on one row; wraps. */
static int chart_legend(Canvas *c, int x, int y, int w, const ChartParts *r, const ChartParts *ref,
                        double target_s, bool target, bool ascii)
{
    char items[CHART_PARTS_MAX + 1][96];
    int part[CHART_PARTS_MAX + 1];
    int n = chart_legend_items(r, ref, target_s, target, ascii, items, part);
    int total = 0;
    for (int i = 0; i < n; i++)
        total += utf8_width(items[i]) + (i ? 2 : 0);
    int gap = total > w && total - (n - 1) <= w ? 1 : 2;
    int col = 0, lrow = 0;
    for (int i = 0; i < n; i++) {
        int iw = utf8_width(items[i]);
        if (col > 0 && col + iw > w) {
            col = 0;
            lrow++;
        }
        if (part[i] < 0) {
            canvas_put_text_max(c, x + col, y + lrow, w - col, items[i], STYLE_WARNING);
            break;
        }
        int p = part[i];
        canvas_put_glyph(c, x + col, y + lrow, r->glyph[p][ascii], r->style[p]);
        canvas_put_text_max(c, x + col + 1, y + lrow, w - col - 1,
                            items[i] + strlen(r->glyph[p][ascii]), STYLE_LABEL);
        col += iw + gap;
    }
    return lrow + 1;
}

/* "+0.42 s (+35%) against the start: slower." When judge is false (the goal
 * is met, or the start was no fair comparison) the change is told without a
 * verdict. */
static void chart_change(Canvas *c, int x, int y, int w, const ChartParts *r,
                         const ChartParts *ref, bool judge, bool ascii)
{
    double d = r->total_s - ref->total_s;
    double pct = 100 * d / ref->total_s;
    char t[32], line[160];
    chart_time(fabs(d), ascii, t, sizeof t);
    Style st = STYLE_NORMAL;
    if (fabs(pct) < 0.5) {
        snprintf(line, sizeof line, "Same as the start (%s%s).", d < 0 ? "-" : "+", t);
    } else if (!judge) {
        snprintf(line, sizeof line, "%s%s (%+.0f%%) against the start.", d < 0 ? "-" : "+", t,
                 pct);
    } else {
        snprintf(line, sizeof line, "%s%s (%+.0f%%) against the start: %s.", d < 0 ? "-" : "+", t,
                 pct, d < 0 ? "faster" : "slower");
        st = d < 0 ? STYLE_GOOD : STYLE_BAD;
    }
    canvas_put_text_max(c, x, y, w, line, st);
}

int chart_parts_bar(Canvas *c, int x, int y, int w, const ChartParts *r, const ChartParts *ref,
                    double target_s, int flags)
{
    if (!c || !r || w <= 0)
        return 0;
    bool ascii = canvas_is_ascii(c);
    int label_w = ref ? 15 : 9;
    if (label_w > w / 3)
        label_w = w / 3;
    int bar_w = w - label_w;
    double scale = chart_parts_total(r);
    if (ref && chart_parts_total(ref) > scale)
        scale = chart_parts_total(ref);
    bool target = target_s > 0 && isfinite(target_s) && bar_w > 1;
    if (target && target_s * 1.05 > scale) /* room to the right of the mark */
        scale = target_s * 1.05;
    int row = 0;
    chart_bar_row(c, x, y + row++, label_w, bar_w, ref ? "now   " : "", r, scale, ascii);
    if (ref)
        chart_bar_row(c, x, y + row++, label_w, bar_w, "start ", ref, scale, ascii);
    if (target && scale > 0)
        chart_target_mark(c, x + label_w, y, row, bar_w, target_s, scale, ascii);
    row += chart_legend(c, x, y + row, w, r, ref, target_s, target, ascii);
    if (ref && ref->total_s > 0 && !(flags & CHART_NO_CHANGE))
        chart_change(c, x, y + row++, w, r, ref, flags & CHART_JUDGE, ascii);
    return row;
}

static int chart_step_bar_with(Canvas *c, int x, int y, int w, const StepResult *r,
                               const StepResult *ref, double target_s)
{
    if (!r)
        return 0;
    ChartParts now = chart_parts_step(r), start;
    if (ref)
        start = chart_parts_step(ref);
    return chart_parts_bar(c, x, y, w, &now, ref ? &start : NULL, target_s, CHART_JUDGE);
}

int chart_step_bar(Canvas *c, int x, int y, int w, const StepResult *r, const StepResult *ref)
{
    return chart_step_bar_with(c, x, y, w, r, ref, 0);
}

int chart_step_bar_target(Canvas *c, int x, int y, int w, const StepResult *r,
                          const StepResult *ref, double target_s)
{
    return chart_step_bar_with(c, x, y, w, r, ref, target_s);
}

/* --- line chart --------------------------------------------------------- */

static void chart_x_label(double v, char *buf, size_t n)
{
    snprintf(buf, n, "%g", v);
}

int chart_line(Canvas *c, int x, int y, int w, int h, const ChartSeries *s)
{
    if (!c || !s || w < 20 || h < 6)
        return 0;
    bool a = canvas_is_ascii(c);
    int n = s->n < 0 ? 0 : s->n > CHART_MAX_POINTS ? CHART_MAX_POINTS : s->n;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s->title ? s->title : "");
    canvas_put_text_max(c, x, y, w, buf, STYLE_HEADING);
    double ymax = 0;
    for (int i = 0; i < n; i++)
        if (s->valid[i] && s->y[i] > ymax)
            ymax = s->y[i];
    if (!(ymax > 0))
        ymax = 1;
    ymax *= 1.1;
    /* y tick labels: top, middle, bottom (0). */
    char ticks[3][32];
    units_format(s->y_kind, ymax, a, ticks[0], sizeof ticks[0]);
    units_format(s->y_kind, ymax / 2, a, ticks[1], sizeof ticks[1]);
    snprintf(ticks[2], sizeof ticks[2], "0");
    int lab_w = 1;
    for (int i = 0; i < 3; i++)
        if (utf8_width(ticks[i]) > lab_w)
            lab_w = utf8_width(ticks[i]);
    int ax = x + lab_w + 1; /* the y axis column */
    int top = y + 2, axis_y = y + h - 2;
    int plot_h = axis_y - top; /* rows above the axis */
    int plot_x0 = ax + 1, plot_w = x + w - plot_x0;
    if (plot_h < 2 || plot_w < 4)
        return 1;
    {
        /* the y label, then what the marks mean */
        bool any_invalid = false;
        for (int i = 0; i < n; i++)
            any_invalid = any_invalid || !s->valid[i];
        snprintf(buf, sizeof buf, "%s%s%s%s", s->y_label ? s->y_label : "",
                 s->highlight >= 0 && s->highlight < n ? "   [ ] = current" : "",
                 any_invalid ? (a ? "   x = " : "   × = ") : "",
                 any_invalid ? "not legal or does not fit in memory" : "");
        canvas_put_text_max(c, x, y + 1, w, buf, STYLE_LABEL);
    }
    canvas_vline(c, ax, top, axis_y - top + 1, LINE_LIGHT, STYLE_FRAME);
    canvas_hline(c, ax, axis_y, plot_w + 1, LINE_LIGHT, STYLE_FRAME);
    int tick_row[3] = {top, top + plot_h / 2, axis_y};
    for (int i = 0; i < 3; i++) {
        int tw = utf8_width(ticks[i]);
        canvas_put_text(c, ax - 1 - tw, tick_row[i], ticks[i], STYLE_LABEL);
        canvas_hline(c, ax, tick_row[i], 2, LINE_LIGHT, STYLE_FRAME);
    }
    if (s->x_label) {
        int xw = utf8_width(s->x_label);
        canvas_put_text(c, x + w - xw, axis_y - 1, s->x_label, STYLE_LABEL);
    }
    /* point positions */
    int px[CHART_MAX_POINTS], py[CHART_MAX_POINTS];
    for (int i = 0; i < n; i++) {
        px[i] = plot_x0 + (int)((i + 0.5) * plot_w / n);
        double f = s->valid[i] ? s->y[i] / ymax : 0;
        py[i] = axis_y - (int)lround(f * plot_h);
        if (py[i] < top)
            py[i] = top;
    }
    /* connecting dots between consecutive valid points */
    for (int i = 0; i + 1 < n; i++) {
        if (!s->valid[i] || !s->valid[i + 1])
            continue;
        int steps = px[i + 1] - px[i];
        for (int k = 1; k < steps; k++) {
            int yy = py[i] + (int)lround((double)(py[i + 1] - py[i]) * k / steps);
            if (yy < axis_y)
                canvas_put_text(c, px[i] + k, yy, a ? "." : "·", STYLE_DIM);
        }
    }
    for (int i = 0; i < n; i++) {
        bool hi = i == s->highlight;
        Style st = hi ? STYLE_SELECTED : s->valid[i] ? STYLE_EMPH : STYLE_BAD;
        if (s->valid[i])
            canvas_put_text(c, px[i], py[i], a ? "*" : "●", st);
        else
            canvas_put_text(c, px[i], axis_y, a ? "x" : "×", st);
        chart_x_label(s->x[i], buf, sizeof buf);
        char lab[300];
        snprintf(lab, sizeof lab, hi ? "[%s]" : "%s", buf);
        int lw = utf8_width(lab);
        canvas_put_text(c, px[i] - lw / 2, axis_y + 1, lab, hi ? STYLE_SELECTED : STYLE_LABEL);
    }
    return h;
}

/* --- descriptions ------------------------------------------------------- */

char *chart_step_bar_describe(const StepResult *r, const StepResult *ref, bool ascii)
{
    StrBuf b = {0};
    if (!r)
        return strbuf_take(&b);
    char t[32], t2[32];
    strbuf_addf(&b, "Step time %s, split into parts that add up along one bar.\n",
                chart_time(r->step_s, ascii, t, sizeof t));
    strbuf_add(&b, "\nPart       Time        Share");
    if (ref)
        strbuf_add(&b, "   At the start");
    strbuf_add(&b, "\n");
    ChartParts parts = chart_parts_step(r);
    double total = chart_parts_total(&parts);
    for (int p = 0; p < STEP_PART_COUNT; p++) {
        strbuf_addf(&b, "%-10s %-11s %4.0f%%", step_part_name((StepPart)p),
                    chart_time(r->part_s[p], ascii, t, sizeof t),
                    total > 0 ? 100 * r->part_s[p] / total : 0);
        if (ref)
            strbuf_addf(&b, "   %s", chart_time(ref->part_s[p], ascii, t2, sizeof t2));
        strbuf_add(&b, "\n");
    }
    if (r->bottleneck[0])
        strbuf_addf(&b, "\nBottleneck: %s\n", r->bottleneck);
    if (ref && ref->step_s > 0) {
        double d = r->step_s - ref->step_s;
        strbuf_addf(&b, "Against the start (%s): %s%s, %+.0f%%.\n",
                    chart_time(ref->step_s, ascii, t2, sizeof t2), d < 0 ? "-" : "+",
                    chart_time(fabs(d), ascii, t, sizeof t), 100 * d / ref->step_s);
    }
    return strbuf_take(&b);
}

char *chart_line_describe(const ChartSeries *s)
{
    StrBuf b = {0};
    if (!s)
        return strbuf_take(&b);
    int n = s->n < 0 ? 0 : s->n > CHART_MAX_POINTS ? CHART_MAX_POINTS : s->n;
    strbuf_addf(&b, "%s: %s against %s, %d points.\n\n", s->title ? s->title : "Chart",
                s->y_label ? s->y_label : "y", s->x_label ? s->x_label : "x", n);
    strbuf_addf(&b, "%-10s %s\n", s->x_label ? s->x_label : "x", s->y_label ? s->y_label : "y");
    int best = -1;
    for (int i = 0; i < n; i++) {
        char xv[32], yv[32];
        chart_x_label(s->x[i], xv, sizeof xv);
        if (s->valid[i]) {
            units_format(s->y_kind, s->y[i], s->ascii, yv, sizeof yv);
            if (best < 0 || s->y[i] < s->y[best])
                best = i;
        } else {
            snprintf(yv, sizeof yv, "not valid");
        }
        strbuf_addf(&b, "%-10s %s%s\n", xv, yv, i == s->highlight ? "   (current)" : "");
    }
    if (best >= 0) {
        char xv[32];
        chart_x_label(s->x[best], xv, sizeof xv);
        strbuf_addf(&b, "\nLowest at %s = %s.\n", s->x_label ? s->x_label : "x", xv);
    }
    return strbuf_take(&b);
}
