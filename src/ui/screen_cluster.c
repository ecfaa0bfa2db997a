/* SPDX-License-Identifier: MIT */
/* screen_cluster — the scenario screen's cluster view (see screen_cluster.h).
 * The view is a column of virtual rows (bands of domains side by side, each
 * band box_h rows); a window of h rows around the cursor's row is drawn.
 * Only the GPUs of the window are visited, so the work is bounded by the
 * cells shown. Pure: no curses.
 */
#include "ui/screen_cluster.h"

#include "base/utf8.h"
#include "base/xmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char screen_cluster_letters[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
#define SCREEN_CLUSTER_LETTERS 62

typedef struct {
    int dom;      /* GPUs per domain */
    int nd;       /* domains */
    int per_row;  /* GPUs per row inside a domain */
    int rows;     /* rows of GPUs per domain */
    int cell_w;   /* columns per GPU: 2 spaced, 1 side by side */
    int label_w;  /* compact: the label column ("D123 ") */
    int box_w;    /* columns of one domain, frame and label included */
    int box_h;    /* rows of one domain, frame included */
    int per_line; /* domains side by side */
    bool compact; /* no top and bottom frame: a label column instead */
} ClusterLayout;

/* mode 0: boxes with spaced letters; 1: boxes, letters side by side;
 * 2: compact rows with a label column. */
static ClusterLayout screen_cluster_layout(const Cluster *c, int w, int mode)
{
    ClusterLayout g;
    g.nd = cluster_domain_count(c);
    g.dom = c->domain_gpus > 0 ? c->domain_gpus : 1;
    if (g.dom > c->n_gpus)
        g.dom = c->n_gpus > 0 ? c->n_gpus : 1;
    g.compact = mode == 2;
    g.cell_w = mode == 0 ? 2 : 1;
    char label[16];
    g.label_w = g.compact ? snprintf(label, sizeof label, "D%d", g.nd - 1) : 0;
    int pad = g.compact ? g.label_w + 2 : mode == 0 ? 3 : 4;
    int max_inner = w - pad > 1 ? w - pad : 1;
    g.per_row = g.dom;
    if (g.per_row * g.cell_w > max_inner) {
        /* prefer a divisor of the domain size so rows are even */
        int best = max_inner / g.cell_w;
        for (int k = best; k >= best / 2 && k > 0; k--)
            if (g.dom % k == 0) {
                best = k;
                break;
            }
        g.per_row = best > 0 ? best : 1;
    }
    g.rows = (g.dom + g.per_row - 1) / g.per_row;
    g.box_w = g.per_row * g.cell_w + pad;
    g.box_h = g.compact ? g.rows : g.rows + 2;
    g.per_line = (w + 1) / (g.box_w + 1);
    if (g.per_line < 1)
        g.per_line = 1;
    return g;
}

static int screen_cluster_total(const ClusterLayout *g)
{
    return (g->nd + g->per_line - 1) / g->per_line * g->box_h;
}

/* The roomiest boxed layout that fits in h rows whole, else compact rows. */
static ClusterLayout screen_cluster_pick(const Cluster *c, int w, int h)
{
    for (int mode = 0; mode < 2; mode++) {
        ClusterLayout g = screen_cluster_layout(c, w, mode);
        if (screen_cluster_total(&g) <= h)
            return g;
    }
    return screen_cluster_layout(c, w, 2);
}

int screen_cluster_rows(const ClusterView *v, int w, int max_h)
{
    if (max_h < 1)
        max_h = 1;
    ClusterLayout g = screen_cluster_pick(v->cluster, w, max_h);
    int total = screen_cluster_total(&g);
    return total < max_h ? total : max_h;
}

static int screen_cluster_rank(const ClusterView *v, int gpu)
{
    int rank = v->placement ? placement_rank_on(v->placement, gpu) : gpu;
    return rank >= 0 && rank < mapping_world(v->mapping) ? rank : -1;
}

/* The group letters in order of first appearance; groups[] maps a group id
 * to 1 + its letter index (0: not seen yet). */
typedef struct {
    int *seen;
    int n_seen;
    int n_groups;
} ClusterLetters;

static char screen_cluster_letter(ClusterLetters *l, int group)
{
    if (group < 0 || group >= l->n_groups)
        return '?';
    if (!l->seen[group])
        l->seen[group] = ++l->n_seen;
    return screen_cluster_letters[(l->seen[group] - 1) % SCREEN_CLUSTER_LETTERS];
}

/* The virtual row of the cursor's GPU. */
static int screen_cluster_cursor_row(const ClusterView *v, const ClusterLayout *g)
{
    int d = cluster_domain_of(v->cluster, v->cursor);
    if (d < 0)
        return 0;
    int k = v->cursor - d * g->dom;
    return d / g->per_line * g->box_h + (g->compact ? 0 : 1) + k / g->per_row;
}

static bool screen_cluster_is_picked(const ClusterView *v, int gpu, int rank, int picked_rank)
{
    if (v->picked < 0)
        return false;
    if (v->pick_dim < 0 || picked_rank < 0 || rank < 0)
        return gpu == v->picked;
    MappingDim d = (MappingDim)v->pick_dim;
    return mapping_group_of(v->mapping, rank, d) == mapping_group_of(v->mapping, picked_rank, d);
}

/* One row of GPUs of domain d (row k of its rows) at (x, y). */
static void screen_cluster_gpu_row(Canvas *c, int x, int y, const ClusterView *v,
                                   const ClusterLayout *g, int d, int k, ClusterLetters *l,
                                   ScreenCursor *cur, ClusterShown *shown)
{
    int picked_rank = v->picked >= 0 ? screen_cluster_rank(v, v->picked) : -1;
    for (int i = 0; i < g->per_row; i++) {
        int slot = k * g->per_row + i;
        int gpu = d * g->dom + slot;
        if (slot >= g->dom || gpu >= v->cluster->n_gpus)
            break;
        int rank = screen_cluster_rank(v, gpu);
        char glyph[2] = ".";
        Style st = STYLE_DIM;
        if (rank >= 0) {
            int grp = mapping_group_of(v->mapping, rank, v->colour);
            glyph[0] = screen_cluster_letter(l, grp);
            st = canvas_group_style(grp);
        }
        if (gpu == v->cursor)
            shown->cursor_letter = glyph[0];
        if (screen_cluster_is_picked(v, gpu, rank, picked_rank)) {
            glyph[0] = '*'; /* the pick differs from the cursor by glyph, not only by colour */
            st = STYLE_SELECTED;
        }
        int gx = x + i * g->cell_w;
        if (gpu == v->cursor) {
            st = STYLE_CURSOR;
            cur->x = gx;
            cur->y = y;
        }
        canvas_put_text(c, gx, y, glyph, st);
    }
}

/* Virtual row r of the view, drawn at screen row y; first: the window's
 * first row (a domain continued from above is named again there). */
static void screen_cluster_row(Canvas *c, int x, int y, int r, bool first, const ClusterView *v,
                               const ClusterLayout *g, ClusterLetters *l, ScreenCursor *cur,
                               ClusterShown *shown)
{
    int band = r / g->box_h, k = r % g->box_h;
    for (int col = 0; col < g->per_line; col++) {
        int d = band * g->per_line + col;
        if (d >= g->nd)
            break;
        int bx = x + col * (g->box_w + 1);
        char label[24];
        if (g->compact) {
            if (k == 0 || first) {
                snprintf(label, sizeof label, "D%d", d);
                canvas_put_text(c, bx, y, label, k == 0 ? STYLE_LABEL : STYLE_DIM);
            }
            canvas_vline(c, bx + g->label_w, y, 1, LINE_DOUBLE, STYLE_UP_LINK);
            canvas_vline(c, bx + g->box_w - 1, y, 1, LINE_DOUBLE, STYLE_UP_LINK);
            screen_cluster_gpu_row(c, bx + g->label_w + 1, y, v, g, d, k, l, cur, shown);
            continue;
        }
        if (k == 0 || k == g->box_h - 1) {
            canvas_hline(c, bx, y, g->box_w, LINE_DOUBLE, STYLE_UP_LINK);
            canvas_vline(c, bx, y + (k == 0 ? 0 : -1), 2, LINE_DOUBLE, STYLE_UP_LINK);
            canvas_vline(c, bx + g->box_w - 1, y + (k == 0 ? 0 : -1), 2, LINE_DOUBLE,
                         STYLE_UP_LINK);
            if (k == 0) {
                snprintf(label, sizeof label, g->box_w >= 14 ? " domain %d " : " D%d ", d);
                canvas_put_text_max(c, bx + 1, y, g->box_w - 2, label, STYLE_LABEL);
            }
            continue;
        }
        canvas_vline(c, bx, y - 1, 2, LINE_DOUBLE, STYLE_UP_LINK);
        canvas_vline(c, bx + g->box_w - 1, y - 1, 2, LINE_DOUBLE, STYLE_UP_LINK);
        screen_cluster_gpu_row(c, bx + 2, y, v, g, d, k - 1, l, cur, shown);
    }
}

void screen_cluster_draw(Canvas *c, int x, int y, int w, int h, const ClusterView *v,
                         ScreenCursor *cur, ClusterShown *shown)
{
    memset(shown, 0, sizeof *shown);
    shown->cursor_letter = '.';
    if (h < 1 || w < 1)
        return;
    ClusterLayout g = screen_cluster_pick(v->cluster, w, h);
    int total = screen_cluster_total(&g);
    int rows = total < h ? total : h;
    int want = screen_cluster_cursor_row(v, &g) - (rows - 1) / 2;
    int first = want < 0 ? 0 : want > total - rows ? total - rows : want;
    if (!g.compact)
        first = 0; /* boxed layouts are only picked when they fit whole */
    ClusterLetters l = {xmem_calloc((size_t)mapping_world(v->mapping) + 1, sizeof(int)), 0,
                        mapping_world(v->mapping)};
    /* A window of its own: a box's frame drawn half outside clips there. */
    Canvas *win = canvas_new(w, rows);
    canvas_set_ascii(win, canvas_is_ascii(c));
    ScreenCursor wc = {-1, -1};
    for (int r = 0; r < rows; r++)
        screen_cluster_row(win, 0, r, first + r, r == 0, v, &g, &l, &wc, shown);
    canvas_blit(c, x, y, win);
    canvas_free(win);
    if (wc.x >= 0) {
        cur->x = x + wc.x;
        cur->y = y + wc.y;
    }
    shown->first_row = first;
    shown->rows = rows;
    shown->total_rows = total;
    shown->letters_repeat = l.n_seen > SCREEN_CLUSTER_LETTERS;
    free(l.seen);
}

/* "0–7", "0–6, 72", or "0–3, 8–11, … (64 GPUs)": the sorted GPU ids; many
 * is the cluster's plural noun. */
static void screen_cluster_ranges(const int *gpus, int n, const char *many, bool ascii, char *buf,
                                  size_t len)
{
    size_t used = 0;
    int ranges = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + 24 < len; i++) {
        int j = i;
        while (j + 1 < n && gpus[j + 1] == gpus[j] + 1)
            j++;
        if (ranges == 4) {
            snprintf(buf + used, len - used, ", %s (%d %s)", ascii ? "..." : "…", n, many);
            return;
        }
        int wrote = j > i ? snprintf(buf + used, len - used, "%s%d%s%d", ranges ? ", " : "",
                                     gpus[i], ascii ? "-" : "–", gpus[j])
                          : snprintf(buf + used, len - used, "%s%d", ranges ? ", " : "", gpus[i]);
        used += wrote > 0 ? (size_t)wrote : 0;
        ranges++;
        i = j;
    }
}

static void screen_cluster_cursor_text(const ClusterView *v, const ClusterShown *shown, bool ascii,
                                       bool size, char *buf, size_t n);

static int screen_cluster_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void screen_cluster_cursor_line(const ClusterView *v, const ClusterShown *shown, bool ascii,
                                int width, char *buf, size_t n)
{
    /* the domain's size when the line still fits on one row */
    screen_cluster_cursor_text(v, shown, ascii, true, buf, n);
    if (utf8_width(buf) > width)
        screen_cluster_cursor_text(v, shown, ascii, false, buf, n);
}

static void screen_cluster_cursor_text(const ClusterView *v, const ClusterShown *shown, bool ascii,
                                       bool size, char *buf, size_t n)
{
    const char *sep = ascii ? " | " : " · ";
    int gpu = v->cursor, rank = screen_cluster_rank(v, gpu);
    const char *many = hw_noun(&v->cluster->gpu, HW_NOUN_MANY);
    int len = snprintf(buf, n, "%s %d%sdomain %d", hw_noun(&v->cluster->gpu, HW_NOUN_CAP), gpu,
                       sep, cluster_domain_of(v->cluster, gpu));
    if (size && len > 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, " (%d %s)", v->cluster->domain_gpus, many);
    if (rank < 0 || len < 0 || (size_t)len >= n) {
        if (rank < 0 && len >= 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, "%sidle (no rank)", sep);
        return;
    }
    /* The lettered group and its GPUs. */
    const Mapping *m = v->mapping;
    int world = mapping_world(m), grp = mapping_group_of(m, rank, v->colour), k = 0;
    int *gpus = xmem_alloc((size_t)world * sizeof *gpus);
    for (int r = 0; r < world; r++)
        if (mapping_group_of(m, r, v->colour) == grp)
            gpus[k++] = v->placement ? placement_gpu_of(v->placement, r) : r;
    qsort(gpus, (size_t)k, sizeof *gpus, screen_cluster_cmp);
    char ranges[160];
    screen_cluster_ranges(gpus, k, many, ascii, ranges, sizeof ranges);
    free(gpus);
    len += snprintf(buf + len, n - (size_t)len, "%s%s group %c (%s %s)", sep,
                    mapping_dim_name(v->colour), shown->cursor_letter,
                    hw_noun(&v->cluster->gpu, k > 1 ? HW_NOUN_MANY : 0), ranges);
    /* Where it sits along the other dimensions. */
    static const struct {
        MappingDim d;
        const char *what;
    } dims[] = {{DIM_TP, "TP rank"},
                {DIM_PP, "PP stage"},
                {DIM_DP, "DP rank"},
                {DIM_EP, "EP rank"},
                {DIM_CP, "CP rank"}};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        bool always = dims[i].d == DIM_PP || dims[i].d == DIM_DP;
        if (dims[i].d == v->colour || (!always && mapping_dim_size(m, dims[i].d) <= 1))
            continue;
        if (len < 0 || (size_t)len >= n)
            return;
        len += snprintf(buf + len, n - (size_t)len, "%s%s %d", sep, dims[i].what,
                        mapping_coord(m, rank, dims[i].d));
    }
}
