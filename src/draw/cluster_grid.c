/* SPDX-License-Identifier: MIT */
/* cluster_grid — the scenario's cluster view (see cluster_grid.h). The view
 * is a column of virtual rows: per site (a rule row first when there are
 * several), bands of domains side by side, each band box_h rows; a window
 * of h rows around the cursor's row is drawn. Only the GPUs of the window
 * are visited, so the work is bounded by the cells shown. Pure: no curses.
 */
#include "draw/cluster_grid.h"

#include "base/utf8.h"
#include "base/xmem.h"
#include "model/hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char grid_letters[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
#define GRID_LETTERS 62

typedef struct {
    int dom;       /* GPUs of the widest domain */
    int nd;        /* domains */
    int sites;     /* sites (1: no rule rows) */
    int per_site;  /* domains per site */
    int bands;     /* bands of one site */
    int per_row;   /* GPUs per row inside a domain */
    int rows;      /* rows of GPUs per domain */
    int cell_w;    /* columns per GPU: 2 spaced, 1 side by side */
    int label_w;   /* compact: the label column ("D123 ") */
    int box_w;     /* columns of one domain, frame and label included */
    int box_h;     /* rows of one domain, frame included */
    int per_line;  /* domains side by side */
    int site_rows; /* rows of one site, its rule included */
    bool compact;  /* no top and bottom frame: a label column instead */
} GridLayout;

/* mode 0: boxes with spaced letters; 1: boxes, letters side by side;
 * 2: compact rows with a label column. */
static GridLayout grid_layout(const Cluster *c, int w, int mode)
{
    GridLayout g;
    int n = cluster_machine_gpus(c);
    g.nd = cluster_domain_count(c);
    g.dom = c->domain_gpus > 0 ? c->domain_gpus : 1;
    if (g.dom > n)
        g.dom = n > 0 ? n : 1;
    g.sites = c->sites > 1 ? c->sites : 1;
    g.per_site = (g.nd + g.sites - 1) / g.sites;
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
    g.bands = (g.per_site + g.per_line - 1) / g.per_line;
    g.site_rows = g.bands * g.box_h + (g.sites > 1 ? 1 : 0);
    return g;
}

static int grid_total(const GridLayout *g)
{
    return g->sites * g->site_rows;
}

/* The roomiest boxed layout that fits in h rows whole, else compact rows. */
static GridLayout grid_pick(const Cluster *c, int w, int h)
{
    for (int mode = 0; mode < 2; mode++) {
        GridLayout g = grid_layout(c, w, mode);
        if (grid_total(&g) <= h)
            return g;
    }
    return grid_layout(c, w, 2);
}

int cluster_grid_rows(const ClusterView *v, int w, int max_h)
{
    if (max_h < 1)
        max_h = 1;
    GridLayout g = grid_pick(v->cluster, w, max_h);
    int total = grid_total(&g);
    return total < max_h ? total : max_h;
}

static int grid_rank(const ClusterView *v, int gpu)
{
    int rank = v->placement ? placement_rank_on(v->placement, gpu) : gpu;
    return rank >= 0 && rank < mapping_world(v->mapping) ? rank : -1;
}

/* Letters by group id, or by first appearance (seen[] maps a group id to 1 +
 * its letter index, 0: not seen yet). */
typedef struct {
    int *seen;
    int n_seen;
    int n_groups;
    bool by_id;
} GridLetters;

static int groups_of(const Mapping *m, MappingDim d)
{
    int size = mapping_dim_size(m, d);
    return size > 0 ? mapping_world(m) / size : 0;
}

char cluster_grid_letter(const ClusterView *v, int group)
{
    if (group < 0 || groups_of(v->mapping, v->colour) > GRID_LETTERS)
        return '?';
    return grid_letters[group % GRID_LETTERS];
}

static char grid_letter(GridLetters *l, int group)
{
    if (group < 0 || group >= l->n_groups)
        return '?';
    if (l->by_id)
        return grid_letters[group % GRID_LETTERS];
    if (!l->seen[group])
        l->seen[group] = ++l->n_seen;
    return grid_letters[(l->seen[group] - 1) % GRID_LETTERS];
}

/* The virtual row of the cursor's GPU. */
static int grid_cursor_row(const ClusterView *v, const GridLayout *g)
{
    int d = cluster_domain_of(v->cluster, v->cursor);
    if (d < 0)
        return 0;
    int site = d / g->per_site, in_site = d % g->per_site;
    int k = v->cursor - cluster_domain_first(v->cluster, d);
    return site * g->site_rows + (g->sites > 1 ? 1 : 0) + in_site / g->per_line * g->box_h +
           (g->compact ? 0 : 1) + k / g->per_row;
}

static bool grid_is_picked(const ClusterView *v, int gpu, int rank, int picked_rank)
{
    if (v->picked < 0)
        return false;
    if (v->pick_dim < 0 || picked_rank < 0 || rank < 0)
        return gpu == v->picked;
    MappingDim d = (MappingDim)v->pick_dim;
    return mapping_group_of(v->mapping, rank, d) == mapping_group_of(v->mapping, picked_rank, d);
}

/* The glyph and style of one GPU. */
static void grid_glyph(const ClusterView *v, int gpu, GridLetters *l, char *glyph, Style *st)
{
    int rank = grid_rank(v, gpu);
    ClusterGpuState state = cluster_gpu_state(v->cluster, gpu);
    glyph[1] = '\0';
    if (rank >= 0) {
        int grp = mapping_group_of(v->mapping, rank, v->colour);
        glyph[0] = grid_letter(l, grp);
        *st = canvas_group_style(grp);
    } else if (state == CLUSTER_GPU_FAILED) {
        glyph[0] = 'x';
        *st = STYLE_BAD;
    } else if (state == CLUSTER_GPU_BUSY) {
        glyph[0] = '#';
        *st = STYLE_DIM;
    } else {
        glyph[0] = '.';
        *st = STYLE_DIM;
    }
}

/* One row of GPUs of domain d (row k of its rows) at (x, y). */
static void grid_gpu_row(Canvas *c, int x, int y, const ClusterView *v, const GridLayout *g, int d,
                         int k, GridLetters *l, CanvasPoint *cur, ClusterShown *shown)
{
    int picked_rank = v->picked >= 0 ? grid_rank(v, v->picked) : -1;
    int first = cluster_domain_first(v->cluster, d), size = cluster_domain_size(v->cluster, d);
    for (int i = 0; i < g->per_row; i++) {
        int slot = k * g->per_row + i;
        if (slot >= size)
            break;
        int gpu = first + slot;
        char glyph[2];
        Style st;
        grid_glyph(v, gpu, l, glyph, &st);
        if (gpu == v->cursor)
            shown->cursor_letter = glyph[0];
        if (grid_is_picked(v, gpu, grid_rank(v, gpu), picked_rank)) {
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

/* The rule that starts a site: "── site 1: servers 4-7 ──────". */
static void grid_site_rule(Canvas *c, int y, int w, const GridLayout *g, const Cluster *cl,
                           int site)
{
    char label[64];
    int d0 = site * g->per_site, d1 = d0 + g->per_site - 1;
    if (d1 >= g->nd)
        d1 = g->nd - 1;
    if (d0 == d1)
        snprintf(label, sizeof label, " site %d: %s %d ", site,
                 cluster_grid_domain_noun(cl, d0, false), d0);
    else
        snprintf(label, sizeof label, " site %d: %s %d-%d ", site,
                 cluster_grid_domain_noun(cl, d0, true), d0, d1);
    canvas_hline(c, 0, y, w, LINE_LIGHT, STYLE_ACROSS_LINK);
    canvas_put_text_max(c, 2, y, w - 4, label, STYLE_LABEL);
}

/* Band row k of band `band` of site `site`, drawn at screen row y; first:
 * the window's first row (a domain continued from above is named again). */
static void grid_band_row(Canvas *c, int x, int y, int site, int band, int k, bool first,
                          const ClusterView *v, const GridLayout *g, GridLetters *l,
                          CanvasPoint *cur, ClusterShown *shown)
{
    for (int col = 0; col < g->per_line; col++) {
        int in_site = band * g->per_line + col, d = site * g->per_site + in_site;
        if (in_site >= g->per_site || d >= g->nd)
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
            grid_gpu_row(c, bx + g->label_w + 1, y, v, g, d, k, l, cur, shown);
            continue;
        }
        if (k == 0 || k == g->box_h - 1) {
            canvas_hline(c, bx, y, g->box_w, LINE_DOUBLE, STYLE_UP_LINK);
            canvas_vline(c, bx, y + (k == 0 ? 0 : -1), 2, LINE_DOUBLE, STYLE_UP_LINK);
            canvas_vline(c, bx + g->box_w - 1, y + (k == 0 ? 0 : -1), 2, LINE_DOUBLE,
                         STYLE_UP_LINK);
            if (k == 0) {
                if (g->box_w >= 14)
                    snprintf(label, sizeof label, " %s %d ",
                             cluster_grid_domain_noun(v->cluster, d, false), d);
                else
                    snprintf(label, sizeof label, " D%d ", d);
                canvas_put_text_max(c, bx + 1, y, g->box_w - 2, label, STYLE_LABEL);
            }
            continue;
        }
        canvas_vline(c, bx, y - 1, 2, LINE_DOUBLE, STYLE_UP_LINK);
        canvas_vline(c, bx + g->box_w - 1, y - 1, 2, LINE_DOUBLE, STYLE_UP_LINK);
        grid_gpu_row(c, bx + 2, y, v, g, d, k - 1, l, cur, shown);
    }
}

/* Virtual row r of the view, drawn at screen row y. */
static void grid_row(Canvas *c, int x, int y, int w, int r, bool first, const ClusterView *v,
                     const GridLayout *g, GridLetters *l, CanvasPoint *cur, ClusterShown *shown)
{
    int site = r / g->site_rows, in = r % g->site_rows;
    if (g->sites > 1) {
        if (in == 0) {
            grid_site_rule(c, y, w, g, v->cluster, site);
            return;
        }
        in--;
    }
    grid_band_row(c, x, y, site, in / g->box_h, in % g->box_h, first, v, g, l, cur, shown);
}

void cluster_grid_draw(Canvas *c, int x, int y, int w, int h, const ClusterView *v,
                       CanvasPoint *cur, ClusterShown *shown)
{
    memset(shown, 0, sizeof *shown);
    shown->cursor_letter = '.';
    if (h < 1 || w < 1)
        return;
    GridLayout g = grid_pick(v->cluster, w, h);
    int total = grid_total(&g);
    int rows = total < h ? total : h;
    int want = grid_cursor_row(v, &g) - (rows - 1) / 2;
    int first = want < 0 ? 0 : want > total - rows ? total - rows : want;
    if (!g.compact)
        first = 0; /* boxed layouts are only picked when they fit whole */
    int groups = groups_of(v->mapping, v->colour);
    GridLetters l = {xmem_calloc((size_t)groups + 1, sizeof(int)), 0, groups,
                     groups <= GRID_LETTERS};
    /* A window of its own: a box's frame drawn half outside clips there. */
    Canvas *win = canvas_new(w, rows);
    canvas_set_ascii(win, canvas_is_ascii(c));
    CanvasPoint wc = {-1, -1};
    for (int r = 0; r < rows; r++)
        grid_row(win, 0, r, w, first + r, r == 0, v, &g, &l, &wc, shown);
    canvas_blit(c, x, y, win);
    canvas_free(win);
    if (wc.x >= 0) {
        cur->x = x + wc.x;
        cur->y = y + wc.y;
    }
    shown->first_row = first;
    shown->rows = rows;
    shown->total_rows = total;
    shown->letters_repeat = !l.by_id && l.n_seen > GRID_LETTERS;
    free(l.seen);
}

const char *cluster_grid_domain_noun(const Cluster *c, int dom, bool plural)
{
    int size = dom >= 0 ? cluster_domain_size(c, dom) : c->domain_gpus;
    if (c->up_kind == HW_UP_TORUS)
        return plural ? "slices" : "slice"; /* a TPU slice is one ICI domain */
    /* the preset's own unit (a server's 8 GPUs, a rack's 72) by its name; a
     * domain re-partitioned to another size is just a domain */
    const SystemSpec *sys = hw_system_find(c->system_id);
    if ((!sys || size != sys->domain_gpus) && c->n_runs == 0)
        return plural ? "domains" : "domain";
    if (size > 16)
        return plural ? "racks" : "rack";
    return plural ? "servers" : "server";
}

/* "0–7", "0–6, 72", or "0–3, 8–11, … (64 GPUs)": the sorted GPU ids; many
 * is the cluster's plural noun. */
static void grid_ranges(const int *gpus, int n, const char *many, bool ascii, char *buf,
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

static int grid_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Where the cursor's GPU sits: "GPU 7 · rack 0 (72 GPUs) · site 1 · leaf 3 ·
 * rail 7", and what it is when it runs nothing. Returns the length. */
static int grid_cursor_place(const ClusterView *v, bool ascii, int detail, char *buf, size_t n)
{
    bool size = detail >= 3, fabric = detail >= 1;
    const char *sep = ascii ? " | " : " · ";
    const Cluster *c = v->cluster;
    int gpu = v->cursor, dom = cluster_domain_of(c, gpu);
    const char *many = hw_noun(&c->gpu, HW_NOUN_MANY);
    int len = snprintf(buf, n, "%s %d%s%s %d", hw_noun(&c->gpu, HW_NOUN_CAP), gpu, sep,
                       cluster_grid_domain_noun(c, dom, false), dom);
    if (size && len > 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, " (%d %s)", cluster_domain_size(c, dom), many);
    if (c->sites > 1 && len > 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, "%ssite %d", sep, cluster_site_of(c, gpu));
    bool leaves = fabric && cluster_leaf_count(c) > 1;
    if (leaves && len > 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, "%sleaf %d", sep, cluster_leaf_of(c, gpu));
    if (fabric && cluster_rail_of(c, gpu) >= 0 && len > 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, "%srail %d", sep, cluster_rail_of(c, gpu));
    ClusterGpuState st = cluster_gpu_state(c, gpu);
    if (grid_rank(v, gpu) < 0 && len >= 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, "%s%s", sep,
                        st == CLUSTER_GPU_FAILED ? "failed: runs nothing"
                        : st == CLUSTER_GPU_BUSY ? "another job's"
                                                 : "free (no rank)");
    return len;
}

static void grid_cursor_text(const ClusterView *v, const ClusterShown *shown, bool ascii,
                             int detail, char *buf, size_t n)
{
    const char *sep = ascii ? " | " : " · ";
    int len = grid_cursor_place(v, ascii, detail, buf, n);
    int rank = grid_rank(v, v->cursor);
    if (rank < 0 || len < 0 || (size_t)len >= n)
        return;
    /* The lettered group and its GPUs. */
    const Mapping *m = v->mapping;
    const char *many = hw_noun(&v->cluster->gpu, HW_NOUN_MANY);
    int world = mapping_world(m), grp = mapping_group_of(m, rank, v->colour), k = 0;
    int *gpus = xmem_alloc((size_t)world * sizeof *gpus);
    for (int r = 0; r < world; r++)
        if (mapping_group_of(m, r, v->colour) == grp)
            gpus[k++] = v->placement ? placement_gpu_of(v->placement, r) : r;
    qsort(gpus, (size_t)k, sizeof *gpus, grid_cmp);
    char ranges[160];
    grid_ranges(gpus, k, many, ascii, ranges, sizeof ranges);
    free(gpus);
    len += snprintf(buf + len, n - (size_t)len, "%s%s group %c", sep, mapping_dim_name(v->colour),
                    shown->cursor_letter);
    if (detail >= 2 && len > 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, " (%s %s)",
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

void cluster_grid_cursor_line(const ClusterView *v, const ClusterShown *shown, bool ascii,
                              int width, char *buf, size_t n)
{
    /* all there is when it fits one row: the domain's size goes first,
     * then the group's GPU ids (the letters show them), then the leaf and
     * rail; the site always stays */
    for (int detail = 3; detail >= 0; detail--) {
        grid_cursor_text(v, shown, ascii, detail, buf, n);
        if (utf8_width(buf) <= width)
            return;
    }
}
