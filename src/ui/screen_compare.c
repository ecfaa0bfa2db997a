/* SPDX-License-Identifier: MIT */
/* screen_compare — two setups of one workload side by side: the sentence
 * that says what differs, both step-time bars on one time scale with a
 * shared legend, and each side's fabric view. Used by compare pages and by
 * `c` on a scenario (see screen_compare.h). Pure: no curses; sides own
 * copies of what they draw.
 */
#include "ui/screen_compare.h"

#include "base/utf8.h"
#include "base/xmem.h"
#include "draw/charts.h"
#include "draw/diagram.h"
#include "draw/text.h"
#include "lesson/lesson.h"
#include "model/hw.h"
#include "model/units.h"
#include "ui/keys.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sides ---- */

void screen_compare_side_set(CompareSide *s, const char *label, const Cluster *c,
                             const Workload *w, const Mapping *m, const Placement *p)
{
    memset(s, 0, sizeof *s);
    snprintf(s->label, sizeof s->label, "%s", label ? label : "");
    s->cluster = *c;
    s->workload = *w;
    s->mapping = *m;
    s->placement = p ? placement_dup(p) : NULL;
    s->ok = step_eval(&s->cluster, &s->workload, &s->mapping, s->placement, NULL, &s->result,
                      s->error, sizeof s->error) == STEP_OK;
}

void screen_compare_side_error(CompareSide *s, const char *label, const char *error)
{
    memset(s, 0, sizeof *s);
    snprintf(s->label, sizeof s->label, "%s", label ? label : "");
    snprintf(s->error, sizeof s->error, "%s", error && *error ? error : "cannot be built");
}

void screen_compare_side_fini(CompareSide *s)
{
    if (!s)
        return;
    placement_free(s->placement);
    s->placement = NULL;
    s->ok = false;
}

/* ---- the sentence ---- */

StepPart screen_compare_main_part(const StepResult *a, const StepResult *b)
{
    StepPart best = STEP_COMPUTE;
    double best_d = 0;
    for (int i = 0; i < STEP_PART_COUNT; i++) {
        double d = fabs(a->part_s[i] - b->part_s[i]);
        if (d > best_d) {
            best_d = d;
            best = (StepPart)i;
        }
    }
    return best;
}

void screen_compare_sentence(const char *label_a, int gpus_a, const StepResult *a,
                             const char *label_b, int gpus_b, const StepResult *b,
                             const char *nouns, char *buf, size_t n)
{
    if (n == 0)
        return;
    if (!nouns)
        nouns = "GPUs";
    char gpus[64];
    if (gpus_a == gpus_b)
        snprintf(gpus, sizeof gpus, "Same %d %s", gpus_a, nouns);
    else
        snprintf(gpus, sizeof gpus, "%d vs %d %s", gpus_a, gpus_b, nouns);
    if (!(a->step_s > 0) || !(b->step_s > 0)) {
        snprintf(buf, n, "%s: no step time to compare.", gpus);
        return;
    }
    bool a_fast = a->step_s <= b->step_s;
    double ratio = a_fast ? b->step_s / a->step_s : a->step_s / b->step_s;
    int used;
    if (ratio < 1.005) {
        used = snprintf(buf, n, "%s: %s and %s take the same time", gpus, label_a, label_b);
    } else {
        used = snprintf(buf, n,
                        ratio < 1.1 ? "%s: %s %.2fx faster than %s; %s is the difference"
                                    : "%s: %s %.1fx faster than %s; %s is the difference",
                        gpus, a_fast ? label_a : label_b, ratio, a_fast ? label_b : label_a,
                        step_part_words(screen_compare_main_part(a, b)));
    }
    if (used < 0 || (size_t)used >= n)
        return;
    if (!a->fits || !b->fits) {
        const char *who = !a->fits && !b->fits ? "neither fits" : NULL;
        if (who)
            used += snprintf(buf + used, n - (size_t)used, "; %s in memory", who);
        else
            used += snprintf(buf + used, n - (size_t)used, "; %s does not fit in memory",
                             !a->fits ? label_a : label_b);
    }
    if (used >= 0 && (size_t)used + 1 < n)
        snprintf(buf + used, n - (size_t)used, ".");
}

/* ---- drawing ---- */

static double screen_compare_total(const StepResult *r)
{
    double t = 0;
    for (int p = 0; p < STEP_PART_COUNT; p++)
        t += r->part_s[p] > 0 ? r->part_s[p] : 0;
    return t;
}

/* One bar: label, segments from x0 at cols_per_s, then the step time. */
static void screen_compare_bar(Canvas *c, int x, int y, int label_w, int bar_w,
                               const CompareSide *s, double cols_per_s, bool ascii)
{
    canvas_put_text_max(c, x, y, label_w, s->label, STYLE_BOLD);
    int x0 = x + label_w + 1;
    if (!s->ok) {
        canvas_put_text_max(c, x0, y, bar_w + 10, s->error, STYLE_BAD);
        return;
    }
    double cum = 0;
    int end = x0;
    for (int p = 0; p < STEP_PART_COUNT; p++) {
        double t = s->result.part_s[p] > 0 ? s->result.part_s[p] : 0;
        int from = x0 + (int)lround(cum * cols_per_s);
        cum += t;
        int to = x0 + (int)lround(cum * cols_per_s);
        if (t > 0 && to == from)
            to = from + 1; /* every part that takes time shows */
        for (int k = from; k < to; k++)
            canvas_put_glyph(c, k, y, chart_part_glyph((StepPart)p, ascii),
                             chart_part_style((StepPart)p));
        if (to > end)
            end = to;
    }
    char t[32];
    units_format(UNITS_TIME, s->result.step_s, ascii, t, sizeof t);
    canvas_put_text(c, end + 1, y, t, s->result.fits ? STYLE_LABEL : STYLE_BAD);
}

/* The legend: each part with both times ("▄ DP 3.65 s | 4.30 s"). Returns
 * the rows used (at most max_rows). */
static int screen_compare_legend(Canvas *c, int x, int y, int w, int max_rows,
                                 const CompareSide sides[2], bool ascii, bool measure)
{
    int col = 0, row = 0;
    const char *sep = ascii ? " | " : " │ ";
    for (int p = 0; p < STEP_PART_COUNT; p++) {
        bool used = p == STEP_COMPUTE;
        for (int k = 0; k < 2; k++)
            used = used || (sides[k].ok && sides[k].result.part_s[p] > 0);
        if (!used)
            continue;
        char item[128], t[2][32];
        for (int k = 0; k < 2; k++) {
            if (sides[k].ok)
                units_format(UNITS_TIME, sides[k].result.part_s[p], ascii, t[k], sizeof t[k]);
            else
                snprintf(t[k], sizeof t[k], "-");
        }
        snprintf(item, sizeof item, " %s %s%s%s", step_part_name((StepPart)p), t[0], sep, t[1]);
        int iw = 1 + utf8_width(item);
        if (col > 0 && col + iw > w) {
            col = 0;
            row++;
        }
        if (row >= max_rows)
            return max_rows;
        if (!measure) {
            canvas_put_glyph(c, x + col, y + row, chart_part_glyph((StepPart)p, ascii),
                             chart_part_style((StepPart)p));
            canvas_put_text_max(c, x + col + 1, y + row, w - col - 1, item, STYLE_LABEL);
        }
        col += iw + 2;
    }
    return row + 1;
}

int screen_compare_domains(Canvas *c, int x, int y, int w, int h, const Cluster *cl,
                           const Mapping *m, const Placement *pl)
{
    int d = cl->domain_gpus > 0 ? cl->domain_gpus : 1;
    if (d > cl->n_gpus)
        d = cl->n_gpus > 0 ? cl->n_gpus : 1;
    int per_row = d < w - 2 ? d : w - 2;
    if (per_row < 1 || h < 3)
        return 0;
    int rows = (d + per_row - 1) / per_row;
    int box_w = per_row + 2, box_h = rows + 2;
    int per_line = (w + 1) / (box_w + 1);
    if (per_line < 1)
        per_line = 1;
    int nd = cluster_domain_count(cl);
    int lines = h / box_h;
    int shown = nd;
    bool count_in_slot = false;   /* "+ N more" in the last box's place */
    bool count_on_border = false; /* ... or on the last box's top border */
    if (lines * per_line < nd) {
        if (per_line > 1 && lines >= 1) {
            shown = lines * per_line - 1;
            count_in_slot = true;
        } else if (lines >= 1 && box_w >= 16) {
            shown = lines * per_line;
            count_on_border = true;
        } else {
            lines = (h - 1) / box_h; /* keep a row for the count */
            shown = lines * per_line;
        }
    }
    int world = mapping_world(m);
    for (int k = 0; k < shown; k++) {
        int bx = x + (k % per_line) * (box_w + 1), by = y + (k / per_line) * box_h;
        canvas_box(c, bx, by, box_w, box_h, LINE_DOUBLE, STYLE_UP_LINK);
        char label[16];
        snprintf(label, sizeof label, "%d", k + 1);
        canvas_put_text_max(c, bx + 1, by, box_w - 2, label, STYLE_LABEL);
        for (int i = 0; i < d; i++) {
            int gpu = k * cl->domain_gpus + i;
            if (gpu >= cl->n_gpus)
                break;
            int rank = pl ? placement_rank_on(pl, gpu) : gpu;
            char glyph[2] = ".";
            Style st = STYLE_DIM;
            if (rank >= 0 && rank < world) {
                int grp = mapping_group_of(m, rank, DIM_TP);
                glyph[0] = (char)('A' + grp % 26);
                st = canvas_group_style(grp);
            }
            canvas_put_text(c, bx + 1 + i % per_row, by + 1 + i / per_row, glyph, st);
        }
    }
    int used = ((shown + per_line - 1) / per_line) * box_h;
    if (shown < nd) {
        char more[64];
        snprintf(more, sizeof more, "+ %d more", nd - shown);
        if (count_on_border) {
            int k = shown - 1;
            int bx = x + (k % per_line) * (box_w + 1), by = y + (k / per_line) * box_h;
            char tag[72];
            snprintf(tag, sizeof tag, " %s ", more);
            int tw = utf8_width(tag);
            canvas_put_text_max(c, bx + box_w - 1 - tw, by, tw, tag, STYLE_DIM);
        } else if (count_in_slot) {
            int sx = x + (shown % per_line) * (box_w + 1);
            int sy = y + (shown / per_line) * box_h + box_h / 2;
            canvas_put_text_max(c, sx, sy, x + w - sx, more, STYLE_DIM);
            used = lines * box_h;
        } else {
            canvas_put_text_max(c, x, y + used, w, more, STYLE_DIM);
            used++;
        }
    }
    return used;
}

void screen_compare_draw(Canvas *c, int x, int y, int w, int h, const CompareSide sides[2])
{
    bool ascii = canvas_is_ascii(c);
    if (w < 20 || h < 3)
        return;
    int bottom = y + h;
    /* 1. The difference in words. */
    char sentence[600];
    /* one noun for both sides when they agree ("chips" for two TPU
     * slices), else the neutral word */
    const GpuSpec *ga = &sides[0].cluster.gpu, *gb = &sides[1].cluster.gpu;
    const char *nouns =
        strcmp(hw_noun(ga, 0), hw_noun(gb, 0)) == 0 ? hw_noun(ga, HW_NOUN_MANY) : "accelerators";
    if (sides[0].ok && sides[1].ok)
        screen_compare_sentence(sides[0].label, sides[0].cluster.n_gpus, &sides[0].result,
                                sides[1].label, sides[1].cluster.n_gpus, &sides[1].result, nouns,
                                sentence, sizeof sentence);
    else
        snprintf(sentence, sizeof sentence, "One side cannot be evaluated: see its bar.");
    int sh = text_wrap_count(sentence, w);
    if (sh > 3)
        sh = 3;
    text_draw_wrapped(c, x, y, w, sh, sentence, STYLE_EMPH);
    int row = y + sh + 1;
    /* 2. Both bars on one time scale. */
    int label_w = 0;
    for (int k = 0; k < 2; k++) {
        int lw = utf8_width(sides[k].label);
        if (lw > label_w)
            label_w = lw;
    }
    if (label_w > w / 4)
        label_w = w / 4;
    int bar_w = w - label_w - 1 - 11; /* room for " 12.3 ms" after the longer bar */
    double slowest = 0;
    for (int k = 0; k < 2; k++)
        if (sides[k].ok && screen_compare_total(&sides[k].result) > slowest)
            slowest = screen_compare_total(&sides[k].result);
    double cols_per_s = slowest > 0 ? bar_w / slowest : 0;
    for (int k = 0; k < 2 && row < bottom; k++)
        screen_compare_bar(c, x, row++, label_w, bar_w, &sides[k], cols_per_s, ascii);
    if (row < bottom)
        row += screen_compare_legend(c, x, row, w, bottom - row, sides, ascii, false);
    row++;
    /* 3. The diagrams in what is left. */
    int left = bottom - row;
    if (left < 5)
        return;
    /* Side by side when each half has room for a view (40 columns, more
     * is better); one above the other when the height allows it. */
    bool stacked = (w - 2) / 2 < 56 && left >= 24;
    if (!stacked && (w - 2) / 2 < 40) {
        /* Too narrow for two views: each side's domains, one above the
         * other, when both get a label and a row of boxes (else neither). */
        if (left < 8 || !sides[0].ok || !sides[1].ok)
            return;
        int half = left / 2;
        for (int k = 0; k < 2; k++) {
            int sy = row + k * half;
            canvas_put_text_max(c, x, sy, w, sides[k].label, STYLE_BOLD);
            screen_compare_domains(c, x, sy + 1, w, half - 1, &sides[k].cluster, &sides[k].mapping,
                                   sides[k].placement);
        }
        return;
    }
    for (int k = 0; k < 2; k++) {
        int dx = x, dy = row, dw = w, dh = left;
        if (stacked) {
            dh = left / 2;
            dy = row + k * dh;
        } else {
            dw = (w - 2) / 2;
            dx = x + k * (dw + 2);
        }
        canvas_put_text_max(c, dx, dy, dw, sides[k].label, STYLE_BOLD);
        if (!sides[k].ok && sides[k].cluster.n_gpus <= 0) {
            text_draw_wrapped(c, dx, dy + 1, dw, dh - 1, sides[k].error, STYLE_BAD);
            continue;
        }
        char err[MSG_LEN] = "";
        Diagram d = diagram_of(VIEW_FABRIC, &sides[k].cluster);
        d.workload = &sides[k].workload;
        d.mapping = &sides[k].mapping;
        d.placement = sides[k].placement;
        if (!diagram_draw(c, dx, dy + 1, dw, dh - 1, &d, err, sizeof err))
            text_draw_wrapped(c, dx, dy + 1, dw, dh - 1, err, STYLE_BAD);
    }
}

/* ---- the compare view of a scenario ---- */

static struct ScreenCompare *screen_compare_get(PageState *p)
{
    if (!p->scn.compare)
        p->scn.compare = xmem_calloc(1, sizeof *p->scn.compare);
    return p->scn.compare;
}

static void screen_compare_label(const Scenario *s, const char *what, char *buf, size_t n)
{
    char mp[48];
    mapping_format(scenario_mapping(s), mp, sizeof mp);
    snprintf(buf, n, "%.20s (%.40s)", what, mp);
}

void screen_compare_mark(PageState *p)
{
    screen_compare_mark_named(p, "reference");
}

void screen_compare_mark_named(PageState *p, const char *name)
{
    if (!p->scn.s)
        return;
    struct ScreenCompare *sc = screen_compare_get(p);
    const Scenario *s = p->scn.s;
    char label[64];
    snprintf(sc->ref_name, sizeof sc->ref_name, "%s", name ? name : "reference");
    screen_compare_label(s, sc->ref_name, label, sizeof label);
    screen_compare_side_fini(&sc->side[0]);
    screen_compare_side_set(&sc->side[0], label, scenario_cluster(s), scenario_workload(s),
                            scenario_mapping(s), scenario_placement(s));
    sc->has_ref = true;
}

void screen_compare_open(PageState *p)
{
    if (!p->scn.s)
        return;
    struct ScreenCompare *sc = screen_compare_get(p);
    char label[64];
    if (!sc->has_ref) {
        char err[MSG_LEN] = "";
        Scenario *start = lesson_scenario_start(p->lesson, p->page, err, sizeof err);
        screen_compare_side_fini(&sc->side[0]);
        if (start) {
            screen_compare_label(start, "start", label, sizeof label);
            screen_compare_side_set(&sc->side[0], label, scenario_cluster(start),
                                    scenario_workload(start), scenario_mapping(start),
                                    scenario_placement(start));
        } else {
            screen_compare_side_error(&sc->side[0], "start", err);
        }
        scenario_free(start);
    }
    const Scenario *s = p->scn.s;
    screen_compare_label(s, "now", label, sizeof label);
    screen_compare_side_fini(&sc->side[1]);
    screen_compare_side_set(&sc->side[1], label, scenario_cluster(s), scenario_workload(s),
                            scenario_mapping(s), scenario_placement(s));
    sc->open = true;
}

bool screen_compare_is_open(const PageState *p)
{
    return p->scn.compare && p->scn.compare->open;
}

ScreenAction screen_compare_key(PageState *p, int key)
{
    struct ScreenCompare *sc = p->scn.compare;
    switch (key) {
    case 'c':
    case 'q':
    case ' ':
    case UIK_ESC:
    case UIK_ENTER:
        sc->open = false;
        return SCREEN_NONE;
    case 'n':
    case 'p':
        sc->open = false;
        return SCREEN_PASS;
    case UIK_RESIZE:
        return SCREEN_NONE;
    default:
        snprintf(p->scn.msg, sizeof p->scn.msg, "c or Esc goes back to the scenario.");
        return SCREEN_NONE;
    }
}

void screen_compare_draw_scenario(Canvas *c, PageState *p, int top, int bottom)
{
    bool ascii = canvas_is_ascii(c);
    struct ScreenCompare *sc = p->scn.compare;
    int w = canvas_width(c);
    char head[200], what[48];
    if (!sc->has_ref || strcmp(sc->ref_name, "start") == 0)
        snprintf(what, sizeof what, "the start");
    else if (strcmp(sc->ref_name, "reference") == 0)
        snprintf(what, sizeof what, "the reference (b)");
    else
        snprintf(what, sizeof what, "the %s", sc->ref_name);
    snprintf(head, sizeof head, "Compare: %s against now %s c or Esc: back to the scenario", what,
             ascii ? "-" : "—");
    canvas_put_text_max(c, 2, top - 1, w - 4, head, STYLE_HEADING);
    if (p->scn.msg[0])
        canvas_put_text_max(c, 2, bottom - 1, w - 4, p->scn.msg, STYLE_WARNING);
    screen_compare_draw(c, 2, top + 1, w - 4, bottom - top - 2, sc->side);
}

void screen_compare_free(struct ScreenCompare *sc)
{
    if (!sc)
        return;
    screen_compare_side_fini(&sc->side[0]);
    screen_compare_side_fini(&sc->side[1]);
    free(sc);
}
