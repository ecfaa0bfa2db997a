/* SPDX-License-Identifier: MIT */
/* charts — the stacked step-time bar and line charts of a swept parameter.
 *
 * chart_step_bar: one horizontal bar split into compute, TP, PP, bubble, DP
 * and EP (each with its own fill glyph and letter, not only a colour), the
 * total time, a legend with each part's time, and the change against a
 * reference result when one is given ("+0.42 s (+35%) against the start").
 *
 * chart_line: y against x with both axes, ticks labelled through
 * units_format (y) and the series' x labels, points marked '●' ('*'), points
 * that are not valid (e.g. does not fit in memory) marked '×' ('x').
 *
 * Pure C: depends on canvas, text and model/step, model/units. No curses.
 */
#ifndef SCALELAB_DRAW_CHARTS_H
#define SCALELAB_DRAW_CHARTS_H

#include "draw/canvas.h"
#include "model/serve.h"
#include "model/step.h"
#include "model/sweep.h"
#include "model/units.h"
#include <stdbool.h>

/* The style and fill glyph of each step part (same order as StepPart). */
Style chart_part_style(StepPart part);
const char *chart_part_glyph(StepPart part, bool ascii);

/* A stacked bar's parts: the training step's (chart_parts_step) or the
 * parts of a served token (chart_parts_serve), each with its name, fill
 * glyph (UTF-8, ASCII) and style, and the bar's total. */
#define CHART_PARTS_MAX 8
typedef struct {
    int n;
    double total_s;
    double part_s[CHART_PARTS_MAX];
    const char *name[CHART_PARTS_MAX];
    const char *glyph[CHART_PARTS_MAX][2]; /* [0] UTF-8, [1] ASCII */
    Style style[CHART_PARTS_MAX];
} ChartParts;
ChartParts chart_parts_step(const StepResult *r);
ChartParts chart_parts_serve(const ServeResult *r);
/* The bar of any parts (as chart_step_bar_target). Flags: CHART_JUDGE tells
 * the change against the start as "faster" or "slower" (without it, no
 * verdict: a goal that is met is never called slower); CHART_NO_CHANGE
 * leaves the change line out (the two bars carry their times). */
enum { CHART_JUDGE = 1, CHART_NO_CHANGE = 2 };
int chart_parts_bar(Canvas *c, int x, int y, int w, const ChartParts *r, const ChartParts *ref,
                    double target_s, int flags);

/* Draws the bar at (x, y), w columns wide. Returns the rows used (the bar,
 * its legend and the delta line; 3 to 5 rows depending on w). r NULL: draws
 * nothing and returns 0. */
int chart_step_bar(Canvas *c, int x, int y, int w, const StepResult *r, const StepResult *ref);
/* The same bar with a goal: a mark where target_s falls on the time scale
 * (widened to show it when the bars are shorter) and "goal 1.20 s" in the
 * legend. target_s <= 0 draws chart_step_bar's bar. */
int chart_step_bar_target(Canvas *c, int x, int y, int w, const StepResult *r,
                          const StepResult *ref, double target_s);
const char *chart_target_glyph(bool ascii); /* "┃", "|" in ASCII */

/* The model's series length (sweep.h): one limit for every chart. */
#define CHART_MAX_POINTS SWEEP_SERIES_MAX

typedef struct {
    const char *title;          /* "Step time against TP degree" */
    const char *x_label;        /* "TP" */
    const char *y_label;        /* "step time" */
    UnitsKind y_kind;           /* how y tick labels are formatted */
    int n;                      /* points, <= CHART_MAX_POINTS */
    double x[CHART_MAX_POINTS]; /* plotted at equal spacing in order given */
    double y[CHART_MAX_POINTS];
    bool valid[CHART_MAX_POINTS]; /* false: drawn as 'x' on the axis */
    int highlight;                /* index of the current point, -1 none */
    bool ascii;                   /* ASCII only in chart_line_describe */
} ChartSeries;

/* Draws the chart in the w x h box at (x, y). Returns the rows used. */
int chart_line(Canvas *c, int x, int y, int w, int h, const ChartSeries *s);

/* Plain-text descriptions for --describe. Caller frees. */
char *chart_step_bar_describe(const StepResult *r, const StepResult *ref, bool ascii);
char *chart_line_describe(const ChartSeries *s);

#endif
