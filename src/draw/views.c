/* SPDX-License-Identifier: MIT */
/* views — the rack and fabric views of a cluster and their descriptions; see
 * views.h.
 *
 * Each view draws into a scratch canvas of its own box size and blits it, so
 * nothing leaves the box. Work is bounded by what is drawn: a domain box
 * shows at most DOMAIN_MAX_ROWS rows of GPUs, the fabric view draws as many
 * domains as fit and one aggregate box ("× 228 racks") for the rest, and
 * group letters are looked up only for GPUs that are drawn (O(1) each with
 * the default placement).
 *
 * Figures come from the Cluster fields (which carry the preset's sources)
 * and are printed with units_format. Depends on canvas, text, strbuf and the
 * model headers; no curses, no Lua.
 */
#include "draw/views.h"

#include "base/strbuf.h"
#include "base/utf8.h"
#include "draw/text.h"
#include "model/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOMAIN_MAX_ROWS 4
#define DOMAIN_MAX_COLS 18

ViewInput view_input_default(const Cluster *c)
{
    ViewInput in = {0};
    in.cluster = c;
    in.cursor_gpu = -1;
    in.cursor_group = -1;
    in.colour_by = DIM_TP;
    return in;
}

static const char *const view_names[VIEW_COUNT] = {"rack", "fabric", "bar", "chart"};

const char *view_kind_name(ViewKind k)
{
    return (unsigned)k < VIEW_COUNT ? view_names[k] : "?";
}

int view_kind_parse(const char *name)
{
    for (int i = 0; name && i < VIEW_COUNT; i++)
        if (strcmp(view_names[i], name) == 0)
            return i;
    return -1;
}

/* --- shared helpers ----------------------------------------------------- */

static int view_domain_size(const Cluster *c)
{
    return c->domain_gpus < c->n_gpus ? c->domain_gpus : c->n_gpus;
}

/* The rank on a GPU, or -1 (a free, failed or busy GPU, or none). Without
 * a placement, ranks fill the usable GPUs in order, as the scheduler does. */
static int view_rank_on(const ViewInput *in, int gpu)
{
    const Cluster *c = in->cluster;
    if (gpu < 0 || gpu >= cluster_machine_gpus(c))
        return -1;
    if (in->placement)
        return placement_rank_on(in->placement, gpu);
    if (cluster_gpu_state(c, gpu) != CLUSTER_GPU_UP)
        return -1;
    int rank = gpu;
    for (int i = 0; i < c->n_down && c->down[i].first < gpu; i++)
        rank -= c->down[i].count;
    return rank < c->n_gpus ? rank : -1;
}

/* Group id of the GPU's rank along colour_by, -1 without a mapping. */
static int view_group_of(const ViewInput *in, int gpu)
{
    if (!in->mapping)
        return -1;
    int rank = view_rank_on(in, gpu);
    if (rank < 0 || rank >= mapping_world(in->mapping))
        return -1;
    return mapping_group_of(in->mapping, rank, in->colour_by);
}

char view_gpu_letter(const ViewInput *in, int gpu)
{
    if (!in || !in->cluster || gpu < 0 || gpu >= cluster_machine_gpus(in->cluster))
        return '.';
    if (view_rank_on(in, gpu) < 0) { /* runs no rank: why */
        ClusterGpuState st = cluster_gpu_state(in->cluster, gpu);
        return st == CLUSTER_GPU_FAILED ? 'x' : st == CLUSTER_GPU_BUSY ? '#' : '.';
    }
    int g = view_group_of(in, gpu);
    if (g < 0)
        return 'G';
    return (char)('A' + g % 26);
}

static Style view_gpu_style(const ViewInput *in, int gpu)
{
    if (gpu == in->cursor_gpu)
        return STYLE_CURSOR;
    if (view_rank_on(in, gpu) < 0)
        return cluster_gpu_state(in->cluster, gpu) == CLUSTER_GPU_FAILED ? STYLE_BAD : STYLE_DIM;
    int g = view_group_of(in, gpu);
    if (g >= 0 && g == in->cursor_group)
        return STYLE_SELECTED;
    return g < 0 ? STYLE_GPU : canvas_group_style(g);
}

/* Draws one GPU as its group letter (the cursor also gets brackets when
 * there is room, so it shows without colour). */
static void view_put_gpu(Canvas *cv, int x, int y, const ViewInput *in, int gpu)
{
    char s[2] = {view_gpu_letter(in, gpu), '\0'};
    if (in->cursor_group >= 0 && view_group_of(in, gpu) == in->cursor_group)
        s[0] = (char)(s[0] - 'A' + 'a'); /* selected without colour: lower case */
    canvas_put_text(cv, x, y, s, view_gpu_style(in, gpu));
}

typedef enum { LOAD_NONE, LOAD_IDLE, LOAD_BUSY, LOAD_BOTTLENECK } LoadLevel;

static double view_tier_share(const StepResult *r, Tier t)
{
    if (!r || !(r->step_s > 0))
        return 0;
    return r->tier_busy_s[t] / r->step_s;
}

static LoadLevel view_tier_load(const StepResult *r, Tier t)
{
    if (!r)
        return LOAD_NONE;
    if (r->bottleneck_part != STEP_COMPUTE && r->bottleneck_tier == t)
        return LOAD_BOTTLENECK;
    return view_tier_share(r, t) >= 0.05 ? LOAD_BUSY : LOAD_IDLE;
}

static Style view_link_style(const ViewInput *in, Tier t)
{
    switch (view_tier_load(in->result, t)) {
    case LOAD_IDLE:
        return STYLE_LOAD_IDLE;
    case LOAD_BUSY:
        return STYLE_LOAD_BUSY;
    case LOAD_BOTTLENECK:
        return STYLE_LOAD_BOTTLENECK;
    default:
        return t == TIER_UP ? STYLE_UP_LINK : t == TIER_OUT ? STYLE_OUT_LINK : STYLE_ACROSS_LINK;
    }
}

static const char *view_load_word(LoadLevel l)
{
    return l == LOAD_BOTTLENECK ? "bottleneck" : l == LOAD_BUSY ? "busy" : "idle";
}

static const char *view_domain_noun(const Cluster *c, bool plural)
{
    if (c->up_kind == HW_UP_TORUS)
        return plural ? "slices" : "slice"; /* a TPU slice is one ICI domain */
    if (c->domain_gpus > 16)
        return plural ? "racks" : "rack";
    return plural ? "servers" : "server";
}

static const char *view_bw(double v, bool ascii, char *buf, size_t n)
{
    return units_format(UNITS_BANDWIDTH, v, ascii, buf, n);
}

/* "NVLink 4 1.80 TB/s per GPU (900 GB/s each way)" */
static void view_up_figure(const Cluster *c, bool ascii, char *buf, size_t n)
{
    char both[32], one[32];
    view_bw(2 * c->up_bytes_per_s, ascii, both, sizeof both);
    view_bw(c->up_bytes_per_s, ascii, one, sizeof one);
    snprintf(buf, n, "%s: %s per %s (%s each way)", c->up_link, both, hw_noun(&c->gpu, 0), one);
}

/* "800 Gb/s = 100 GB/s per GPU" */
static void view_out_figure(const Cluster *c, char *buf, size_t n)
{
    char bb[64];
    units_format_bits_bytes(c->out_bytes_per_s, bb, sizeof bb);
    snprintf(buf, n, "%s per %s", bb, hw_noun(&c->gpu, 0));
}

/* "18x" — the drop in per-GPU bandwidth when traffic leaves the domain. */
static double view_drop(const Cluster *c)
{
    return c->out_bytes_per_s > 0 ? c->up_bytes_per_s / c->out_bytes_per_s : 0;
}

static void view_ratio(double r, char *buf, size_t n)
{
    if (r >= 10 || fabs(r - round(r)) < 0.05)
        snprintf(buf, n, "%.0fx", r);
    else
        snprintf(buf, n, "%.1fx", r);
}

/* A line of styled text that is clipped with an ellipsis to w. */
static void view_text(Canvas *cv, int x, int y, int w, const char *s, Style st)
{
    canvas_put_text_max(cv, x, y, w - x, s, st);
}

/* One sentence about the groups of in->colour_by: which letters, and
 * whether the worst group spills out of its domain. Returns true when it
 * spills (the caller styles the line as a warning). */
static bool view_group_sentence(const ViewInput *in, char *buf, size_t n)
{
    const Mapping *m = in->mapping;
    buf[0] = '\0';
    if (!m)
        return false;
    const char *dim = mapping_dim_name(in->colour_by);
    char ms[64];
    int used = snprintf(buf, n, "%s. ", mapping_format(m, ms, sizeof ms));
    if (used < 0 || (size_t)used >= n)
        used = 0;
    buf += used;
    n -= (size_t)used;
    int size = mapping_dim_size(m, in->colour_by);
    GroupSpan sp = span_worst(m, in->cluster, in->placement, in->colour_by);
    int groups = size > 0 ? mapping_world(m) / size : 0;
    /* 26 letters: beyond them a letter names every 26th group, and says so */
    const char *rep = groups > 26 ? ", letters A-Z again after Z" : "";
    const char *them = hw_noun(&in->cluster->gpu, HW_NOUN_MANY | HW_NOUN_CAP);
    if (sp.domains > 1) {
        snprintf(buf, n,
                 "%s are lettered by %s group (%d group%s of %d%s). A %s group spans "
                 "%d %s: its traffic leaves %s.",
                 them, dim, groups, groups == 1 ? "" : "s", size, rep, dim, sp.domains,
                 view_domain_noun(in->cluster, true), in->cluster->up_link);
        return true;
    }
    snprintf(buf, n, "%s are lettered by %s group (%d group%s of %d%s); each fits in one %s.",
             them, dim, groups, groups == 1 ? "" : "s", size, rep,
             view_domain_noun(in->cluster, false));
    return false;
}

/* The load line: "Load: scale-up busy 35% of the step, scale-out ..." */
static void view_load_sentence(const ViewInput *in, char *buf, size_t n)
{
    const StepResult *r = in->result;
    buf[0] = '\0';
    if (!r)
        return;
    size_t used = (size_t)snprintf(buf, n, "Load over one step:");
    for (int t = 0; t < TIER_COUNT && used < n; t++) {
        if (t == TIER_ACROSS && in->cluster->sites < 2)
            continue;
        used += (size_t)snprintf(buf + used, n - used, "%s %s %s %.0f%%", t ? "," : "",
                                 tier_name((Tier)t), view_load_word(view_tier_load(r, (Tier)t)),
                                 100 * view_tier_share(r, (Tier)t));
    }
}

/* The mapping's group sentence and the load line, wrapped into w columns
 * from (x, y); returns the next free row. */
static int view_mapping_lines(Canvas *cv, int x, int y, int w, const ViewInput *in)
{
    char buf[1024];
    if (in->mapping) {
        bool spills = view_group_sentence(in, buf, sizeof buf);
        y += text_draw_wrapped(cv, x, y, w, 2, buf, spills ? STYLE_WARNING : STYLE_LABEL);
    }
    if (in->result) {
        view_load_sentence(in, buf, sizeof buf);
        y += text_draw_wrapped(cv, x, y, w, 2, buf, STYLE_LABEL);
    }
    return y;
}

/* Draws the legend/label lines from row y; returns the next free row. */
static int view_labels(Canvas *cv, int x, int y, int w, const ViewInput *in)
{
    const Cluster *c = in->cluster;
    bool a = canvas_is_ascii(cv);
    char buf[1024], fig[160], r[16], b1[32], b2[32];
    const char *noun = view_domain_noun(c, false);
    view_up_figure(c, a, fig, sizeof fig);
    snprintf(buf, sizeof buf, "%s scale-up inside a %s, %s", a ? "=" : "═", noun, fig);
    y += text_draw_wrapped(cv, x, y, w - x, 2, buf, view_link_style(in, TIER_UP));
    view_out_figure(c, fig, sizeof fig);
    if (cluster_rail_unit_gpus(c) > 0)
        snprintf(buf, sizeof buf,
                 "%s scale-out to rail leaves, GPU i of each %s on leaf i of its %lld-%s unit: "
                 "%s (%s)",
                 a ? "-" : "─", noun, cluster_rail_unit_gpus(c) / c->domain_gpus, noun, fig,
                 c->out_link);
    else
        snprintf(buf, sizeof buf, "%s scale-out to the leaf switches, %s (%s)", a ? "-" : "─", fig,
                 c->out_link);
    y += text_draw_wrapped(cv, x, y, w - x, 2, buf, view_link_style(in, TIER_OUT));
    if (c->sites > 1) {
        snprintf(buf, sizeof buf, "%s scale-across between %d sites, %s each way in all",
                 a ? "~" : "┄", c->sites, view_bw(c->across_bytes_per_s, a, b1, sizeof b1));
        y += text_draw_wrapped(cv, x, y, w - x, 2, buf, view_link_style(in, TIER_ACROSS));
    }
    view_ratio(view_drop(c), r, sizeof r);
    snprintf(buf, sizeof buf, "Leaving the %s, bandwidth per %s drops %s (%s %s %s).", noun,
             hw_noun(&c->gpu, 0), r, view_bw(c->up_bytes_per_s, a, b1, sizeof b1), a ? "->" : "→",
             view_bw(c->out_bytes_per_s, a, b2, sizeof b2));
    y += text_draw_wrapped(cv, x, y, w - x, 2, buf, STYLE_WARNING);
    y = view_mapping_lines(cv, x, y, w - x, in);
    if (in->mapping && in->cursor_group >= 0) {
        snprintf(buf, sizeof buf, "Selected: %s group %c, drawn in lower case",
                 mapping_dim_name(in->colour_by), 'A' + in->cursor_group % 26);
        view_text(cv, x, y++, w, buf, STYLE_SELECTED);
    }
    if (in->cursor_gpu >= 0 && in->cursor_gpu < cluster_machine_gpus(c)) {
        int g = in->cursor_gpu;
        snprintf(buf, sizeof buf, "%s cursor: %s %d, %s %d, leaf %d", a ? "^" : "▲",
                 hw_noun(&c->gpu, HW_NOUN_CAP), g, noun, cluster_domain_of(c, g),
                 cluster_leaf_of(c, g));
        size_t l = strlen(buf);
        if (cluster_rail_unit_gpus(c) > 0)
            snprintf(buf + l, sizeof buf - l, " (rail %d)", g % c->domain_gpus);
        l = strlen(buf);
        if (c->sites > 1)
            snprintf(buf + l, sizeof buf - l, ", site %d", cluster_site_of(c, g));
        view_text(cv, x, y++, w, buf, STYLE_CURSOR);
    }
    return y;
}

/* --- rack view ---------------------------------------------------------- */

/* The domain the rack view shows: the cursor's, else the first. */
static int view_rack_domain(const ViewInput *in)
{
    int d = cluster_domain_of(in->cluster, in->cursor_gpu);
    return d < 0 ? 0 : d;
}

static void view_rack_title(Canvas *cv, int w, const ViewInput *in, int dom, const char *what)
{
    const Cluster *c = in->cluster;
    char buf[1024];
    int domains = cluster_domain_count(c);
    if (domains > 1)
        snprintf(buf, sizeof buf, "%s, %s %d of %d: %s", c->name, view_domain_noun(c, false),
                 dom + 1, domains, what);
    else
        snprintf(buf, sizeof buf, "%s: %s", c->name, what);
    /* A title that does not fit loses its last parenthesis before any word. */
    char *paren = strrchr(buf, '(');
    if (utf8_width(buf) > w && paren && paren > buf + 1)
        paren[-1] = '\0';
    view_text(cv, 0, 0, w, buf, STYLE_HEADING);
}

/* Power and cooling, "" when unknown. */
static void view_power(const Cluster *c, char *buf, size_t n)
{
    buf[0] = '\0';
    if (c->domain_power_w > 0)
        snprintf(buf, n, "Power about %.3g kW per %s%s%s%s", c->domain_power_w / 1000,
                 view_domain_noun(c, false), c->cooling[0] ? ", " : "", c->cooling,
                 c->cooling[0] ? "-cooled" : "");
    else if (c->cooling[0])
        snprintf(buf, n, "Cooling: %s", c->cooling);
}

/* An 8-GPU server: half the GPUs above the NVSwitch chips, half below, each
 * with its NIC out to the leaf switches. */
static int view_rack_server(Canvas *cv, int w, int h, const ViewInput *in, int dom)
{
    const Cluster *c = in->cluster;
    bool a = canvas_is_ascii(cv);
    int n = c->domain_gpus;
    int first = cluster_domain_first(c, dom);
    int top = (n + 1) / 2, pitch = 7, bx = 2;
    char buf[1024];
    const SystemSpec *sys = hw_system_find(c->system_id);
    int chips = sys ? sys->up_switches : 0;
    snprintf(buf, sizeof buf, "%d %s %s around %d NVSwitch chip%s", n, a ? "x" : "×", c->gpu.name,
             chips, chips == 1 ? "" : "s");
    view_rack_title(cv, w, in, dom, buf);
    Style up = view_link_style(in, TIER_UP), out = view_link_style(in, TIER_OUT);
    int y0 = 2;
    /* rows: 0 NIC line, 1 "NIC", 2-4 top GPUs, 5 bus, 6-8 switches, 9 bus,
     * 10-12 bottom GPUs, 13 "NIC", 14 NIC line */
    int span = (top - 1) * pitch + 5;
    for (int i = 0; i < n; i++) {
        bool upper = i < top;
        int col = upper ? i : i - top;
        int x = bx + col * pitch;
        int gy = y0 + (upper ? 2 : 10);
        int gpu = first + i;
        canvas_box(cv, x, gy, 5, 3, LINE_LIGHT, STYLE_FRAME);
        char label[24];
        char letter = view_gpu_letter(in, gpu);
        if (in->cursor_group >= 0 && view_group_of(in, gpu) == in->cursor_group)
            letter = (char)(letter - 'A' + 'a');
        snprintf(label, sizeof label, "%c%d", letter, i);
        if (gpu >= cluster_machine_gpus(c))
            snprintf(label, sizeof label, "--");
        else if (view_rank_on(in, gpu) < 0)
            snprintf(label, sizeof label, "%c%c", letter, letter);
        bool cur = gpu == in->cursor_gpu;
        if (cur)
            canvas_put_text(cv, x + 1, gy + 1, ">", STYLE_CURSOR);
        canvas_put_text_max(cv, x + 1 + cur, gy + 1, 3 - cur, label, view_gpu_style(in, gpu));
        /* NIC above the top row, below the bottom row */
        int ny = upper ? y0 + 1 : y0 + 13;
        canvas_put_text(cv, x + 1, ny, "NIC", STYLE_NIC);
        canvas_vline(cv, x + 2, upper ? y0 : y0 + 14, 1, LINE_LIGHT, out);
        canvas_put_text(cv, x + 2, upper ? y0 : y0 + 14,
                        a ? (upper ? "^" : "v") : (upper ? "↑" : "↓"), out);
        /* NVLink from the GPU to the switch bus */
        canvas_vline(cv, x + 2, upper ? gy + 2 : gy - 1, 2, LINE_DOUBLE, up);
    }
    canvas_hline(cv, bx, y0 + 5, span, LINE_DOUBLE, up);
    canvas_hline(cv, bx, y0 + 9, span, LINE_DOUBLE, up);
    /* The NVSwitch chips between the buses: under GPU columns when there are
     * no more chips than columns (so links run straight), else spread. */
    bool aligned = chips >= 1 && chips <= top;
    int sw_w = aligned ? 5 : chips > 0 ? (span - (chips - 1)) / chips : span;
    int chips_real = chips;
    if (chips < 1 || sw_w < 4) {
        chips = 1;
        sw_w = span;
        aligned = false;
    }
    for (int s = 0; s < chips; s++) {
        int col = chips > 1 ? (s * (top - 1) + (chips - 1) / 2) / (chips - 1) : 0;
        int x = aligned ? bx + col * pitch : bx + s * (sw_w + 1);
        canvas_box(cv, x, y0 + 6, sw_w, 3, LINE_LIGHT, STYLE_SWITCH);
        canvas_vline(cv, x + sw_w / 2, y0 + 5, 2, LINE_DOUBLE, up);
        canvas_vline(cv, x + sw_w / 2, y0 + 8, 2, LINE_DOUBLE, up);
        char sw_label[48];
        if (chips == 1 && chips_real > 1)
            snprintf(sw_label, sizeof sw_label, "%d NVSwitch chips", chips_real);
        else
            snprintf(sw_label, sizeof sw_label, "%s", sw_w >= 10 ? "NVSwitch" : "NVS");
        canvas_put_text_max(cv, x + 1, y0 + 7, sw_w - 2, sw_label, STYLE_SWITCH);
    }
    /* Labels: right of the picture when there is room, else below it. */
    int lx = bx + span + 3, ly = y0;
    int lw = w - lx;
    if (lw < 36) {
        lx = 0;
        ly = y0 + 16;
        lw = w;
    }
    char fig[160], r[16];
    view_up_figure(c, a, fig, sizeof fig);
    int yy = ly;
    view_text(cv, lx, yy++, w, "Scale-up (inside the server):", STYLE_BOLD);
    yy += text_draw_wrapped(cv, lx + 2, yy, lw - 2, 2, fig, up);
    snprintf(buf, sizeof buf, "every %s one hop from every other through the switch%s",
             hw_noun(&c->gpu, 0), chips_real == 1 ? "" : "es");
    yy += text_draw_wrapped(cv, lx + 2, yy, lw - 2, 2, buf, STYLE_LABEL);
    yy++;
    view_text(cv, lx, yy++, w, "Scale-out (to the leaf switches):", STYLE_BOLD);
    view_out_figure(c, fig, sizeof fig);
    yy += text_draw_wrapped(cv, lx + 2, yy, lw - 2, 2, fig, out);
    view_ratio(view_drop(c), r, sizeof r);
    snprintf(buf, sizeof buf, "one NIC per %s (%s), %s less than NVLink", hw_noun(&c->gpu, 0),
             c->out_link, r);
    yy += text_draw_wrapped(cv, lx + 2, yy, lw - 2, 3, buf, STYLE_LABEL);
    view_power(c, buf, sizeof buf);
    if (buf[0]) {
        yy++;
        yy += text_draw_wrapped(cv, lx, yy, lw, 2, buf, STYLE_LABEL);
    }
    int bottom = ly == y0 ? y0 + 15 : yy;
    if (yy > bottom)
        bottom = yy;
    int ry = bottom + 1;
    ry = view_mapping_lines(cv, 0, ry, w, in);
    (void)h;
    return ry;
}

/* An NVL72-style rack: compute trays of 4 GPUs above and below the NVLink
 * switch trays, all joined by the copper spine. Drawn sideways so it fits:
 * top trays on the left, switch trays in the middle, bottom trays right. */
static int view_rack_nvl(Canvas *cv, int w, int h, const ViewInput *in, int dom)
{
    const Cluster *c = in->cluster;
    bool a = canvas_is_ascii(cv);
    int n = c->domain_gpus, per_tray = 4;
    int trays = (n + per_tray - 1) / per_tray;
    const SystemSpec *sys = hw_system_find(c->system_id);
    int chips = sys && sys->up_switches > 0 ? sys->up_switches : 2 * ((trays + 1) / 2);
    int sw_trays = (chips + 1) / 2;
    int left = (trays + 1) / 2 + (trays % 2 == 0 && trays > sw_trays ? 1 : 0);
    if (left > trays)
        left = trays;
    int right = trays - left;
    int rows = left > sw_trays ? left : sw_trays;
    if (right > rows)
        rows = right;
    int first = cluster_domain_first(c, dom);
    char buf[1024];
    snprintf(buf, sizeof buf, "one rack = one NVLink domain of %d %s %s", n, a ? "x" : "×",
             c->gpu.name);
    view_rack_title(cv, w, in, dom, buf);
    Style up = view_link_style(in, TIER_UP);
    /* columns: tray  "01 [A A A A]" = 13, link 3, spine, switch tray 14, spine, link 3 */
    int xl = 0, tray_w = 2 + 1 + 2 * per_tray + 1;
    int spine_l = xl + tray_w + 3;
    int sw_x = spine_l + 2, sw_w = 15;
    int spine_r = sw_x + sw_w + 1;
    int xr = spine_r + 4;
    int y0 = 3;
    view_text(cv, xl, 1, w, "top trays", STYLE_BOLD);
    view_text(cv, sw_x, 1, w, "switch trays", STYLE_BOLD);
    view_text(cv, xr + 2, 1, w, "bottom trays", STYLE_BOLD);
    view_text(cv, spine_l - 2, 2, w, "copper spine (NVLink cables)", STYLE_DIM);
    canvas_vline(cv, spine_l, y0, left > sw_trays ? left : sw_trays, LINE_DOUBLE, up);
    canvas_vline(cv, spine_r, y0, right > sw_trays ? right : sw_trays, LINE_DOUBLE, up);
    for (int t = 0; t < trays; t++) {
        bool on_left = t < left;
        int row = on_left ? t : t - left;
        int ty = y0 + row;
        int tx = on_left ? xl : xr + 3;
        snprintf(buf, sizeof buf, "%02d", t + 1);
        if (on_left)
            canvas_put_text(cv, tx, ty, buf, STYLE_DIM);
        else
            canvas_put_text(cv, tx + 2 * per_tray + 1, ty, buf, STYLE_DIM);
        int gx = on_left ? tx + 3 : tx - 1;
        canvas_put_text(cv, gx, ty, "[", STYLE_FRAME);
        for (int k = 0; k < per_tray; k++) {
            int gpu = first + t * per_tray + k;
            if (t * per_tray + k >= n)
                break;
            view_put_gpu(cv, gx + 1 + 2 * k, ty, in, gpu);
            if (gpu == in->cursor_gpu)
                canvas_put_text(cv, gx + 2 * k, ty, ">", STYLE_CURSOR);
        }
        canvas_put_text(cv, gx + 2 * per_tray, ty, "]", STYLE_FRAME);
        if (on_left)
            canvas_hline(cv, gx + 2 * per_tray + 1, ty, spine_l - (gx + 2 * per_tray + 1) + 1,
                         LINE_DOUBLE, up);
        else
            canvas_hline(cv, spine_r, ty, gx - spine_r, LINE_DOUBLE, up);
    }
    for (int s = 0; s < sw_trays; s++) {
        int ty = y0 + s;
        canvas_hline(cv, spine_l, ty, 2, LINE_DOUBLE, up);
        canvas_hline(cv, spine_r - 1, ty, 2, LINE_DOUBLE, up);
        int k = chips - 2 * s >= 2 ? 2 : 1;
        snprintf(buf, sizeof buf, "[sw %d: %d chip%s]", s + 1, k, k == 1 ? "" : "s");
        canvas_put_text_max(cv, sw_x, ty, sw_w, buf, STYLE_SWITCH);
    }
    int yy = y0 + rows + 1;
    char fig[160], tot[32], r[16];
    view_up_figure(c, a, fig, sizeof fig);
    snprintf(buf, sizeof buf, "%s scale-up  %s", a ? "=" : "═", fig);
    yy += text_draw_wrapped(cv, 0, yy, w, 2, buf, up);
    snprintf(buf, sizeof buf, "%s in the rack (%d %s %s) through %d NVSwitch chips",
             view_bw(2 * c->up_bytes_per_s * n, a, tot, sizeof tot), n, a ? "x" : "×",
             view_bw(2 * c->up_bytes_per_s, a, r, sizeof r), chips);
    yy += text_draw_wrapped(cv, 2, yy, w - 2, 2, buf, STYLE_LABEL);
    view_out_figure(c, fig, sizeof fig);
    view_ratio(view_drop(c), r, sizeof r);
    snprintf(buf, sizeof buf, "%s scale-out %s: one %s NIC per %s, %s less than NVLink",
             a ? "-" : "─", fig, c->out_link, hw_noun(&c->gpu, 0), r);
    yy += text_draw_wrapped(cv, 0, yy, w, 2, buf, view_link_style(in, TIER_OUT));
    view_power(c, buf, sizeof buf);
    if (buf[0])
        yy += text_draw_wrapped(cv, 0, yy, w, 1, buf, STYLE_LABEL);
    yy = view_mapping_lines(cv, 0, yy, w, in);
    (void)h;
    return yy;
}

/* The torus shape of one domain as {x, y, z}, and how many of its axes
 * are real (a v6e pod is a 2D 16x16 torus: z = 1): the preset's shape,
 * else a guess with the preset's number of axes. */
static int view_torus_shape(const Cluster *c, int dims[3])
{
    const SystemSpec *sys = hw_system_find(c->system_id);
    int axes = 0;
    for (int i = 0; sys && i < 3; i++)
        axes += sys->torus[i] > 1;
    if (axes == 0)
        axes = 3;
    if (sys && sys->torus[0] > 0 &&
        sys->torus[0] * sys->torus[1] * sys->torus[2] == c->domain_gpus) {
        memcpy(dims, sys->torus, 3 * sizeof dims[0]);
        return axes;
    }
    /* A slice smaller than the preset's: grow the shortest axis by each
     * prime factor in turn, as Google's slice shapes do (64 = 4x4x4,
     * 256 = 4x8x8, 6,144 = 16x16x24; 2D: 64 = 8x8). */
    dims[0] = dims[1] = dims[2] = 1;
    int n = c->domain_gpus > 0 ? c->domain_gpus : 1;
    for (int f = 2; n > 1;) {
        if (n % f != 0) {
            f++;
            continue;
        }
        n /= f;
        int a = 0;
        for (int i = 1; i < axes; i++)
            if (dims[i] < dims[a])
                a = i;
        dims[a] *= f;
    }
    for (int i = 0; i < axes - 1; i++) /* ascending, as Google writes shapes */
        for (int j = 0; j < axes - 1 - i; j++)
            if (dims[j] > dims[j + 1]) {
                int t = dims[j];
                dims[j] = dims[j + 1];
                dims[j + 1] = t;
            }
    return axes;
}

/* How many distinct chips one chip of the torus links to: two along an
 * axis longer than 2, one along an axis of 2 (both ways reach the same
 * chip), none along an axis of 1. */
static int view_torus_neighbours(const int dims[3])
{
    int n = 0;
    for (int i = 0; i < 3; i++)
        n += dims[i] > 2 ? 2 : dims[i] - 1;
    return n;
}

/* The torus legend's two lines: the scale-up links and the scale-out
 * figure between slices, against the link's own name ("ICI"). */
static void view_torus_legend(const Cluster *c, bool a, const int d[3], int axes, char *up,
                              char *out, size_t n)
{
    char fig[160], r[16];
    view_up_figure(c, a, fig, sizeof fig);
    snprintf(up, n,
             "%s scale-up  %s; each %s links to %d neighbours (%s), "
             "edges wrap around, so far %s are several hops apart",
             a ? "=" : "═", fig, hw_noun(&c->gpu, 0), view_torus_neighbours(d),
             axes == 2 ? "x, y" : "x, y, z", hw_noun(&c->gpu, HW_NOUN_MANY));
    view_out_figure(c, fig, sizeof fig);
    view_ratio(view_drop(c), r, sizeof r);
    /* the link's name without its note: "ICI", "NeuronLink-v3" */
    char link[32];
    snprintf(link, sizeof link, "%s", c->up_link);
    link[strcspn(link, "(")] = '\0';
    if (strlen(link) > 1 && link[strlen(link) - 1] == ' ')
        link[strlen(link) - 1] = '\0';
    snprintf(out, n, "%s scale-out %s (%s) between %s, %s less than %s", a ? "-" : "─", fig,
             c->out_link, view_domain_noun(c, true), r, link);
}

/* A TPU slice: each z layer as an x-y grid of chips joined by ICI links,
 * with wrap-around stubs at the edges; layers side by side. */
static int view_rack_torus(Canvas *cv, int w, int h, const ViewInput *in, int dom)
{
    const Cluster *c = in->cluster;
    bool a = canvas_is_ascii(cv);
    int d[3];
    int axes = view_torus_shape(c, d);
    char buf[1024], shape[48];
    if (axes == 2)
        snprintf(shape, sizeof shape, "%dx%d", d[0], d[1]);
    else
        snprintf(shape, sizeof shape, "%dx%dx%d", d[0], d[1], d[2]);
    bool an = shape[0] == '8' || !strncmp(shape, "11x", 3) || !strncmp(shape, "18x", 3);
    snprintf(buf, sizeof buf, "%s %s torus of %d %s %s", an ? "an" : "a", shape, c->domain_gpus,
             c->gpu.name, hw_noun(&c->gpu, HW_NOUN_MANY));
    view_rack_title(cv, w, in, dom, buf);
    Style up = view_link_style(in, TIER_UP);
    int lw = 2 * d[0] + 1, lh = 2 * d[1] + 1, gap = 3;
    int fit = (w + gap) / (lw + gap);
    if (fit < 1)
        fit = 1;
    int shown = d[2] < fit ? d[2] : fit;
    if (shown < d[2] && shown > 1)
        shown--; /* room for the "× more" note */
    /* The legend below the grid (scale-up, scale-out, groups, load) is
     * what the picture means: measure it first, give the grid the rest. */
    char up_line[1024], out_line[1024];
    view_torus_legend(c, a, d, axes, up_line, out_line, sizeof up_line);
    Canvas *scratch = canvas_new(w, 16);
    int tail = text_wrap_count(up_line, w) + text_wrap_count(out_line, w) +
               view_mapping_lines(scratch, 0, 0, w, in);
    canvas_free(scratch);
    int rows_fit = h - 3 - tail - 2; /* title rows, "(rows not drawn)" and a gap */
    int grid_rows = d[1];
    if (lh > rows_fit)
        grid_rows = rows_fit >= 3 ? (rows_fit - 1) / 2 : 1;
    int first = cluster_domain_first(c, dom), y0 = 3;
    for (int z = 0; z < shown; z++) {
        int x0 = z * (lw + gap);
        snprintf(buf, sizeof buf, "z=%d", z);
        if (axes == 3)
            canvas_put_text(cv, x0 + 1, 1, buf, STYLE_DIM);
        for (int yy = 0; yy < grid_rows; yy++) {
            canvas_hline(cv, x0, y0 + 2 * yy, lw, LINE_DOUBLE, up);
            if (yy == 0)
                canvas_vline(cv, x0 + 1, y0 - 1, 1, LINE_DOUBLE, up);
        }
        for (int xx = 0; xx < d[0]; xx++)
            canvas_vline(cv, x0 + 1 + 2 * xx, y0 - 1, 2 * grid_rows + 1, LINE_DOUBLE, up);
        for (int yy = 0; yy < grid_rows; yy++)
            for (int xx = 0; xx < d[0]; xx++) {
                int gpu = first + z * d[0] * d[1] + yy * d[0] + xx;
                view_put_gpu(cv, x0 + 1 + 2 * xx, y0 + 2 * yy, in, gpu);
                if (gpu == in->cursor_gpu)
                    canvas_put_text(cv, x0 + 2 * xx, y0 + 2 * yy, ">", STYLE_CURSOR);
            }
    }
    int note_x = shown * (lw + gap);
    if (shown < d[2]) {
        snprintf(buf, sizeof buf, "%s %d more layers", a ? "x" : "×", d[2] - shown);
        canvas_put_text_max(cv, note_x, y0 + grid_rows - 1, w - note_x, buf, STYLE_DIM);
    }
    int yy = y0 + 2 * grid_rows + 1;
    if (grid_rows < d[1]) {
        const char *of = axes == 3 ? " of each layer" : "";
        if (grid_rows == d[1] - 1)
            snprintf(buf, sizeof buf, "(row %d%s not drawn)", grid_rows, of);
        else
            snprintf(buf, sizeof buf, "(rows %d-%d%s not drawn)", grid_rows, d[1] - 1, of);
        view_text(cv, 0, yy++, w, buf, STYLE_DIM);
    }
    yy += text_draw_wrapped(cv, 0, yy, w, 3, up_line, up);
    yy += text_draw_wrapped(cv, 0, yy, w, 2, out_line, view_link_style(in, TIER_OUT));
    yy = view_mapping_lines(cv, 0, yy, w, in);
    return yy;
}

/* Views draw only clusters whose shape makes sense (cluster_check passes
 * the rest); a bad one draws nothing rather than dividing by zero. */
static bool view_cluster_ok(const Cluster *c)
{
    return c && c->n_gpus >= 1 && c->domain_gpus >= 1 && c->gpus_per_leaf >= 1 && c->sites >= 1 &&
           c->n_gpus <= CLUSTER_MAX_GPUS;
}

static int view_rack_pair(Canvas *cv, int w, const ViewInput *in);

int view_rack_draw(Canvas *c, int x, int y, int w, int h, const ViewInput *in)
{
    if (!c || !in || !view_cluster_ok(in->cluster) || w <= 0 || h <= 0)
        return 0;
    Canvas *cv = canvas_new(w, h);
    canvas_set_ascii(cv, canvas_is_ascii(c));
    int dom = view_rack_domain(in);
    int used;
    if (cluster_domain_count(in->cluster) == 2 && in->cluster->sites <= 1)
        used = view_rack_pair(cv, w, in); /* a page about two units shows both */
    else if (in->cluster->up_kind == HW_UP_TORUS)
        used = view_rack_torus(cv, w, h, in, dom);
    else if (in->cluster->domain_gpus > 16)
        used = view_rack_nvl(cv, w, h, in, dom);
    else
        used = view_rack_server(cv, w, h, in, dom);
    canvas_blit(c, x, y, cv);
    canvas_free(cv);
    return used < h ? used : h;
}

/* --- fabric view -------------------------------------------------------- */

typedef struct {
    int cols, rows; /* GPU letters inside a domain box */
    int box_w, box_h;
    bool truncated; /* domain has more GPUs than cols*rows */
} DomainShape;

static DomainShape view_domain_shape(const Cluster *c, int max_w)
{
    DomainShape s;
    int n = view_domain_size(c);
    int cols = n <= 16 ? n : DOMAIN_MAX_COLS;
    /* a width that divides the domain evenly reads best (64 = 4 x 16) */
    for (int k = DOMAIN_MAX_COLS; n > 16 && k >= 12; k--)
        if (n % k == 0 && n / k <= DOMAIN_MAX_ROWS) {
            cols = k;
            break;
        }
    if (cols > max_w - 2)
        cols = max_w - 2;
    if (cols < 1)
        cols = 1;
    int rows = (n + cols - 1) / cols;
    s.truncated = rows > DOMAIN_MAX_ROWS;
    if (s.truncated)
        rows = DOMAIN_MAX_ROWS;
    s.cols = cols;
    s.rows = rows;
    s.box_w = cols + 2;
    s.box_h = rows + 2;
    return s;
}

/* A domain box: double frame (scale-up), its number, GPU letters inside. */
static void view_draw_domain(Canvas *cv, int x, int y, const DomainShape *s, int dom,
                             const ViewInput *in)
{
    const Cluster *c = in->cluster;
    canvas_box(cv, x, y, s->box_w, s->box_h, LINE_DOUBLE, view_link_style(in, TIER_UP));
    char num[16];
    snprintf(num, sizeof num, "%d", dom);
    if ((int)strlen(num) <= s->box_w - 4)
        canvas_put_text(cv, x + 1, y, num, STYLE_DIM);
    int first = cluster_domain_first(c, dom);
    int n = c->domain_gpus;
    for (int i = 0; i < s->cols * s->rows && i < n; i++) {
        int gx = x + 1 + i % s->cols, gy = y + 1 + i / s->cols;
        if (s->truncated && i == s->cols * s->rows - 1) {
            canvas_put_text(cv, gx, gy, "…", STYLE_DIM);
            break;
        }
        view_put_gpu(cv, gx, gy, in, first + i);
        if (first + i == in->cursor_gpu)
            canvas_put_text(cv, gx, y + s->box_h - 1, "▲", STYLE_CURSOR);
    }
}

/* Two units side by side with the scale-out link between them and its
 * figure on it: the picture of the cliff. Returns the rows used. */
static int view_rack_pair(Canvas *cv, int w, const ViewInput *in)
{
    const Cluster *c = in->cluster;
    bool a = canvas_is_ascii(cv);
    const char *noun = view_domain_noun(c, false);
    char buf[256], up[32], out[32], r[16];
    snprintf(buf, sizeof buf, "%s: 2 %s of %d %s, joined by the scale-out network", c->name,
             view_domain_noun(c, true), c->domain_gpus, hw_noun(&c->gpu, HW_NOUN_MANY));
    view_text(cv, 0, 0, w, buf, STYLE_HEADING);
    DomainShape s = view_domain_shape(c, (w - 14) / 2);
    int link = w - 2 * s.box_w;
    link = link > 36 ? 36 : link;
    int x1 = s.box_w + link, y = 2, mid = y + 1 + s.box_h / 2;
    for (int d = 0; d < 2; d++) {
        int bx = d ? x1 : 0;
        snprintf(buf, sizeof buf, "%s %d", noun, d);
        view_text(cv, bx, y, w, buf, STYLE_BOLD);
        view_draw_domain(cv, bx, y + 1, &s, d, in);
    }
    canvas_hline(cv, s.box_w, mid, link, LINE_LIGHT, view_link_style(in, TIER_OUT));
    view_bw(c->out_bytes_per_s, a, out, sizeof out);
    snprintf(buf, sizeof buf, " %s per %s ", out, hw_noun(&c->gpu, 0));
    canvas_put_text_max(cv, s.box_w + 1, mid - 1, link - 2, buf, STYLE_LABEL);
    view_ratio(view_drop(c), r, sizeof r);
    snprintf(buf, sizeof buf, " %s less ", r);
    canvas_put_text_max(cv, s.box_w + 1, mid + 1, link - 2, buf, STYLE_WARNING);
    view_bw(c->up_bytes_per_s, a, up, sizeof up);
    return view_labels(cv, 0, y + 1 + s.box_h, w, in);
}

/* Which domains of a site to draw: the first ones, and the cursor's domain
 * when it lies beyond them. out[] gets up to max ids, returns the count. */
static int view_pick_domains(int first, int count, int max, int cursor_dom, int *out)
{
    int n = count < max ? count : max;
    for (int i = 0; i < n; i++)
        out[i] = first + i;
    if (cursor_dom >= first + n && cursor_dom < first + count && n > 0)
        out[n - 1] = cursor_dom;
    return n;
}

#define FABRIC_MAX_DOMAINS 64

/* One site's row of domains as drawn: the domains (and the aggregate box
 * for those not drawn, when there are more than fit) with the leaf range
 * each hangs from. Item nd is the aggregate when there is one. */
typedef struct {
    int nd, count;                       /* domains drawn; items (+1 aggregate) */
    int ids[FABRIC_MAX_DOMAINS + 1];     /* domain ids (the aggregate: its first) */
    int x[FABRIC_MAX_DOMAINS + 1];       /* left column of each item */
    int leaf_lo[FABRIC_MAX_DOMAINS + 1]; /* first and last leaf of each item */
    int leaf_hi[FABRIC_MAX_DOMAINS + 1];
    int total_w; /* columns from x0 to the last item's end */
    DomainShape s;
} FabricRow;

/* The leaves GPUs [g0, g1] hang from. */
static void view_leaf_range(const Cluster *c, int g0, int g1, int *lo, int *hi)
{
    if (g1 >= cluster_machine_gpus(c))
        g1 = cluster_machine_gpus(c) - 1;
    *lo = cluster_leaf_of(c, g0);
    *hi = cluster_leaf_of(c, g1);
    if (*lo < 0 || *lo > *hi)
        *lo = *hi;
}

/* The aggregate box of the domains not drawn: "× 224 more racks". */
static void view_fabric_aggregate(Canvas *cv, int ax, int y, int aw, int rest,
                                  const DomainShape *s, const ViewInput *in)
{
    const Cluster *c = in->cluster;
    const char *times = canvas_is_ascii(cv) ? "x" : "×";
    char buf[128];
    canvas_box(cv, ax, y, aw, s->box_h, LINE_DOUBLE, view_link_style(in, TIER_UP));
    if (s->box_h > 3) {
        snprintf(buf, sizeof buf, "%s %d", times, rest);
        canvas_put_text_max(cv, ax + 2, y + 1, aw - 3, buf, STYLE_BOLD);
        snprintf(buf, sizeof buf, "more %s", view_domain_noun(c, rest != 1));
        canvas_put_text_max(cv, ax + 2, y + 2, aw - 3, buf, STYLE_LABEL);
        return;
    }
    snprintf(buf, sizeof buf, "%s %d more %s", times, rest, view_domain_noun(c, rest != 1));
    if (utf8_width(buf) > aw - 2)
        snprintf(buf, sizeof buf, "%s %d more", times, rest);
    if (utf8_width(buf) > aw - 2)
        snprintf(buf, sizeof buf, "%s%d", times, rest);
    canvas_put_text_max(cv, ax + 1, y + 1, aw - 2, buf, STYLE_BOLD);
}

/* Lays out and draws the domains of `site` in [x0, x0+w) at row y_dom. */
static void view_fabric_domains(Canvas *cv, int x0, int y_dom, int w, const ViewInput *in,
                                int site, FabricRow *row)
{
    const Cluster *c = in->cluster;
    int domains = cluster_domain_count(c);
    int per_site = domains / (c->sites > 0 ? c->sites : 1);
    if (per_site < 1)
        per_site = 1; /* an unchecked cluster with more sites than domains */
    int first = site * per_site;
    if (first + per_site > domains)
        per_site = domains - first > 0 ? domains - first : 1;
    DomainShape s = view_domain_shape(c, w);
    int pitch = s.box_w + 1;
    if (per_site * (pitch - 1) <= w && per_site * pitch - 1 > w)
        pitch = s.box_w; /* boxes touch rather than leave one out */
    int fit = (w + (pitch > s.box_w ? 1 : 0)) / pitch;
    int drawn_max = fit < 1 ? 1 : fit;
    bool aggregate = per_site > drawn_max;
    if (aggregate) /* keep room for the aggregate box ("× 224 more racks" fits in 16) */
        drawn_max = (w + 1 - 17) / pitch < 1 ? 1 : (w + 1 - 17) / pitch;
    if (drawn_max > FABRIC_MAX_DOMAINS)
        drawn_max = FABRIC_MAX_DOMAINS;
    row->s = s;
    row->nd = view_pick_domains(first, per_site, drawn_max, cluster_domain_of(c, in->cursor_gpu),
                                row->ids);
    for (int i = 0; i < row->nd; i++) {
        row->x[i] = x0 + i * pitch;
        view_draw_domain(cv, row->x[i], y_dom, &s, row->ids[i], in);
        int g0 = cluster_domain_first(c, row->ids[i]);
        view_leaf_range(c, g0, g0 + view_domain_size(c) - 1, &row->leaf_lo[i], &row->leaf_hi[i]);
        if (i > 0 && row->ids[i] != row->ids[i - 1] + 1)
            canvas_put_text(cv, row->x[i] - 1, y_dom + s.box_h / 2, "…", STYLE_DIM);
    }
    row->count = row->nd;
    row->total_w = row->nd * pitch - 1;
    if (!aggregate)
        return;
    int nd = row->nd, ax = x0 + nd * pitch, aw = w - nd * pitch > 24 ? 24 : w - nd * pitch;
    view_fabric_aggregate(cv, ax, y_dom, aw, per_site - nd, &s, in);
    row->ids[nd] = row->ids[nd - 1] + 1;
    row->x[nd] = ax;
    /* The aggregate holds the domains from the first one not drawn: when the
     * cursor's domain took the last slot, that is the slot's own domain. */
    int rest = first + nd - (row->ids[nd - 1] != first + nd - 1 ? 1 : 0);
    view_leaf_range(c, rest * c->domain_gpus, (first + per_site) * c->domain_gpus - 1,
                    &row->leaf_lo[nd], &row->leaf_hi[nd]);
    row->count = nd + 1;
    row->total_w = ax + aw - x0;
}

#define FABRIC_MAX_LEAF_BOXES 256

/* The rails of one scalable unit over the run of items [i, j] in [lx, lx +
 * bw): one box per leaf, labelled by its rail ("rail 3", "r3" or "3", as
 * room allows), each linked down to a bus that every item of the run hangs
 * from (every server has a GPU on every rail). False, drawing nothing, when
 * the boxes would not fit. mid[] gets the box centres from *n on. */
static bool view_fabric_rails(Canvas *cv, int lx, int bw, int y_leaf, int y_dom,
                              const FabricRow *row, int i, int j, int lo, int hi,
                              const ViewInput *in, int *mid, int *n)
{
    const Cluster *c = in->cluster;
    int nr = hi - lo + 1, pitch = (bw + 1) / nr, box_w = pitch - 1;
    if (nr < 2 || box_w < 3 || lo / c->domain_gpus != hi / c->domain_gpus ||
        *n + nr > FABRIC_MAX_LEAF_BOXES)
        return false;
    static const char *const forms[] = {"rail %d", "r%d", "%d"};
    int form = 0;
    char buf[32];
    for (; form < 2; form++) {
        snprintf(buf, sizeof buf, forms[form], hi % c->domain_gpus);
        if ((int)strlen(buf) <= box_w - 2)
            break;
    }
    snprintf(buf, sizeof buf, forms[form], hi % c->domain_gpus);
    if ((int)strlen(buf) > box_w - 2)
        return false;
    Style out = view_link_style(in, TIER_OUT);
    int x = lx + (bw + 1 - nr * pitch) / 2, y_bus = y_dom - 1;
    int bus_l = x + box_w / 2, bus_r = bus_l;
    for (int r = 0; r < nr; r++, x += pitch) {
        canvas_box(cv, x, y_leaf, box_w, 3, LINE_LIGHT, STYLE_SWITCH);
        snprintf(buf, sizeof buf, forms[form], (lo + r) % c->domain_gpus);
        canvas_put_text(cv, x + 1 + (box_w - 2 - (int)strlen(buf)) / 2, y_leaf + 1, buf,
                        STYLE_SWITCH);
        canvas_vline(cv, x + box_w / 2, y_leaf + 2, y_bus - (y_leaf + 2) + 1, LINE_LIGHT, out);
        bus_r = x + box_w / 2;
        mid[(*n)++] = x + box_w / 2;
    }
    for (int k = i; k <= j; k++) {
        int iw = k < row->nd ? row->s.box_w : lx + bw - row->x[k];
        int ix = row->x[k] + iw / 2;
        canvas_vline(cv, ix, y_bus, 2, LINE_LIGHT, out);
        bus_l = ix < bus_l ? ix : bus_l;
        bus_r = ix > bus_r ? ix : bus_r;
    }
    canvas_hline(cv, bus_l, y_bus, bus_r - bus_l + 1, LINE_LIGHT, out);
    return true;
}

/* Leaves: one box over each run of items whose leaves overlap (a domain
 * that straddles two leaves joins the boxes of both, so no leaf is named
 * twice), a link from each item up to its box; on a rail-optimized
 * fabric a unit's run shows its rails instead where they fit. Returns the
 * number of boxes; mid[] (FABRIC_MAX_LEAF_BOXES) gets their centres. */
static int view_fabric_leaves(Canvas *cv, int x0, int y_leaf, int y_dom, const FabricRow *row,
                              const ViewInput *in, int *mid)
{
    Style out = view_link_style(in, TIER_OUT);
    bool rails = cluster_rail_unit_gpus(in->cluster) > 0;
    char buf[64];
    int n = 0;
    for (int i = 0; i < row->count && n < FABRIC_MAX_LEAF_BOXES;) {
        /* the run reaches the last item sharing a leaf with it, so no leaf
         * is named by two boxes (the aggregate shares leaves with the
         * domains drawn on either side of the cursor's) */
        int j = i, lo = row->leaf_lo[i], hi = row->leaf_hi[i];
        for (int k = i + 1; k < row->count; k++) {
            if (row->leaf_lo[k] > hi || row->leaf_hi[k] < lo)
                continue;
            while (j < k) {
                j++;
                lo = row->leaf_lo[j] < lo ? row->leaf_lo[j] : lo;
                hi = row->leaf_hi[j] > hi ? row->leaf_hi[j] : hi;
            }
        }
        int lx = row->x[i];
        int rx = j < row->nd ? row->x[j] + row->s.box_w - 1 : x0 + row->total_w - 1;
        int bw = rx - lx + 1;
        if (rails &&
            view_fabric_rails(cv, lx, bw, y_leaf, y_dom, row, i, j, lo, hi, in, mid, &n)) {
            i = j + 1;
            continue;
        }
        canvas_box(cv, lx, y_leaf, bw, 3, LINE_LIGHT, STYLE_SWITCH);
        /* several whole rail units: say so where it fits */
        int rails_per = in->cluster->domain_gpus, units = hi / rails_per - lo / rails_per + 1;
        bool whole = rails && units > 1 && lo % rails_per == 0 && hi % rails_per == rails_per - 1;
        snprintf(buf, sizeof buf, "leaves %d-%d: rails 0-%d of %d units", lo, hi, rails_per - 1,
                 units);
        if (!whole || (int)strlen(buf) > bw - 2)
            snprintf(buf, sizeof buf, "leaves %d-%d", lo, hi);
        if (rails && units == 1 && lo / rails_per == 0) /* the first unit: leaf i is rail i */
            snprintf(buf, sizeof buf, "rails %d-%d", lo, hi);
        if (hi == lo)
            snprintf(buf, sizeof buf, "leaf %d", hi);
        canvas_put_text_max(cv, lx + 1, y_leaf + 1, bw - 2, buf, STYLE_SWITCH);
        for (int k = i; k <= j; k++) {
            int iw = k < row->nd ? row->s.box_w : x0 + row->total_w - row->x[k];
            canvas_vline(cv, row->x[k] + iw / 2, y_leaf + 2, y_dom - (y_leaf + 2) + 1, LINE_LIGHT,
                         out);
        }
        mid[n++] = lx + bw / 2;
        i = j + 1;
    }
    return n;
}

/* Spines: as many boxes as fit over the leaves, joined to every leaf by
 * the bus (a Clos: every leaf links to every spine). Returns the centre of
 * the spine row. */
static int view_fabric_spines(Canvas *cv, int x0, int y_spine, const FabricRow *row,
                              const ViewInput *in, int site, const int *leaf_mid, int n_leaf)
{
    const Cluster *c = in->cluster;
    Style out = view_link_style(in, TIER_OUT);
    int spines = cluster_spine_count(c) / (c->sites > 0 ? c->sites : 1);
    if (spines < 1)
        spines = 1;
    int last = (site + 1) * spines; /* the widest number this site draws */
    int digits = last >= 100 ? 3 : last >= 10 ? 2 : 1;
    int sp_w = 8 + digits, sp_pitch = sp_w + 2;
    int sp_fit = (row->total_w + 2) / sp_pitch;
    int sp_drawn = spines <= sp_fit ? spines : sp_fit < 1 ? 1 : sp_fit;
    int sp_total = sp_drawn * sp_pitch - 2;
    int sx0 = x0 + (row->total_w - sp_total) / 2 > x0 ? x0 + (row->total_w - sp_total) / 2 : x0;
    /* a row without leaves (a site past the last domain) has no bus to span */
    int bus_l = n_leaf > 0 ? leaf_mid[0] : sx0 + sp_w / 2;
    int bus_r = n_leaf > 0 ? leaf_mid[n_leaf - 1] : bus_l, y_bus = y_spine + 3;
    char buf[32];
    for (int k = 0; k < sp_drawn; k++) {
        int sx = sx0 + k * sp_pitch, mx = sx + sp_w / 2;
        canvas_box(cv, sx, y_spine, sp_w, 3, LINE_LIGHT, STYLE_SWITCH);
        if (k == sp_drawn - 1 && sp_drawn < spines)
            snprintf(buf, sizeof buf, "%s %d", canvas_is_ascii(cv) ? "x" : "×",
                     spines - sp_drawn + 1);
        else
            snprintf(buf, sizeof buf, "spine %d",
                     site * spines + k); /* numbered on across sites */
        canvas_put_text_max(cv, sx + 1, y_spine + 1, sp_w - 2, buf, STYLE_SWITCH);
        canvas_vline(cv, mx, y_spine + 2, 2, LINE_LIGHT, out);
        bus_l = mx < bus_l ? mx : bus_l;
        bus_r = mx > bus_r ? mx : bus_r;
    }
    for (int k = 0; k < n_leaf; k++)
        canvas_vline(cv, leaf_mid[k], y_bus, 2, LINE_LIGHT, out);
    if (bus_r > bus_l) /* one spine over one leaf: the two links meet, no bus */
        canvas_hline(cv, bus_l, y_bus, bus_r - bus_l + 1, LINE_LIGHT, out);
    return sx0 + sp_total / 2;
}

/* One site of the fabric in the box [x0, x0+w): spines, leaves, domains.
 * Returns the row below the domains. */
static int view_fabric_site(Canvas *cv, int x0, int y0, int w, const ViewInput *in, int site,
                            int *spine_mid_x)
{
    const Cluster *c = in->cluster;
    /* One leaf holding every GPU needs no spine: leave out its rows. */
    bool no_spine = cluster_spine_count(c) < 1 && c->sites <= 1;
    int lift = no_spine ? 4 : 0;
    int y_leaf = y0 + 4 - lift, y_dom = y0 + 8 - lift;
    FabricRow row;
    view_fabric_domains(cv, x0, y_dom, w, in, site, &row);
    int leaf_mid[FABRIC_MAX_LEAF_BOXES];
    int n_leaf = view_fabric_leaves(cv, x0, y_leaf, y_dom, &row, in, leaf_mid);
    int mid = !no_spine    ? view_fabric_spines(cv, x0, y0, &row, in, site, leaf_mid, n_leaf)
              : n_leaf > 0 ? leaf_mid[0]
                           : x0 + w / 2;
    if (spine_mid_x)
        *spine_mid_x = mid;
    return y_dom + row.s.box_h;
}

/* "DGX H100: 256 GPUs = 32 servers of 8, 8 leaves, 4 spines (1:1), 2 sites",
 * "GB200 NVL72: 128 of 216 GPUs in 3 racks of 72, ..." for a job on part of a machine,
 * with or without the system's name and the oversubscription ratio. */
static void view_fabric_title(const Cluster *cl, bool name, bool ratio, char *buf, size_t n)
{
    int domains = cluster_domain_count(cl);
    int leaves = cluster_leaf_count(cl), spines = cluster_spine_count(cl);
    char r[32] = "", sites[32] = "";
    if (ratio)
        snprintf(r, sizeof r, " (%g:1)", cl->oversub);
    if (cl->sites > 1)
        snprintf(sites, sizeof sites, ", %d sites", cl->sites);
    /* a job on part of a machine: "128 of 216 GPUs in 3 racks of 72" */
    char count[64];
    int machine = cluster_machine_gpus(cl);
    if (machine > cl->n_gpus)
        snprintf(count, sizeof count, "%d of %d %s in", cl->n_gpus, machine,
                 hw_noun(&cl->gpu, HW_NOUN_MANY));
    else
        snprintf(count, sizeof count, "%d %s =", cl->n_gpus, hw_noun(&cl->gpu, HW_NOUN_MANY));
    snprintf(buf, n, "%s%s%s %d %s of %d, %d lea%s, %d spine%s%s%s", name ? cl->name : "",
             name ? ": " : "", count, domains, view_domain_noun(cl, domains != 1), cl->domain_gpus,
             leaves, leaves == 1 ? "f" : "ves", spines, spines == 1 ? "" : "s", r, sites);
}

int view_fabric_draw(Canvas *c, int x, int y, int w, int h, const ViewInput *in)
{
    if (!c || !in || !view_cluster_ok(in->cluster) || w <= 0 || h <= 0)
        return 0;
    const Cluster *cl = in->cluster;
    bool a = canvas_is_ascii(c);
    Canvas *cv = canvas_new(w, h);
    canvas_set_ascii(cv, canvas_is_ascii(c));
    char buf[1024];
    /* A narrow column (a compare page's side) drops, in turn, a 1:1 ratio
     * (no oversubscription to speak of) and the system's name, before the
     * counts are cut. */
    bool ratio = cl->oversub > 1;
    view_fabric_title(cl, true, true, buf, sizeof buf);
    if (utf8_width(buf) > w)
        view_fabric_title(cl, true, ratio, buf, sizeof buf);
    if (utf8_width(buf) > w)
        view_fabric_title(cl, false, ratio, buf, sizeof buf);
    view_text(cv, 0, 0, w, buf, STYLE_HEADING);
    int sites_drawn = cl->sites > 1 ? 2 : 1;
    int gap = 6;
    int site_w = sites_drawn == 1 ? w : (w - gap) / 2;
    int bottom = 0, mid[2] = {0, 0};
    for (int s = 0; s < sites_drawn; s++) {
        int site = s == 1 ? cl->sites - 1 : 0;
        int sx = s * (site_w + gap);
        if (sites_drawn > 1) {
            snprintf(buf, sizeof buf, "site %d", site);
            view_text(cv, sx, 1, w, buf, STYLE_BOLD);
        }
        int b = view_fabric_site(cv, sx, sites_drawn > 1 ? 2 : 1, site_w, in, site, &mid[s]);
        if (b > bottom)
            bottom = b;
    }
    if (sites_drawn > 1) {
        /* the scale-across link between the two sites' spine layers */
        int ya = (sites_drawn > 1 ? 2 : 1) + 1;
        int xa = site_w - 1, xb = site_w + gap;
        canvas_hline(cv, xa + 1, ya, xb - xa - 1, LINE_DASHED, view_link_style(in, TIER_ACROSS));
        if (cl->sites > 2) {
            snprintf(buf, sizeof buf, "%s%d", a ? "x" : "×", cl->sites - 2);
            canvas_put_text(cv, xa + 2, ya - 1, buf, STYLE_DIM);
        }
    }
    int yy = view_labels(cv, 0, bottom, w, in);
    canvas_blit(c, x, y, cv);
    canvas_free(cv);
    return yy < h ? yy : h;
}

/* --- descriptions ------------------------------------------------------- */

static void desc_row(StrBuf *b, const char *k, const char *v)
{
    strbuf_addf(b, "  %-22s %s\n", k, v);
}

char *view_describe(ViewKind k, const ViewInput *in, int width, bool ascii)
{
    StrBuf b = {0};
    if (!in || !view_cluster_ok(in->cluster))
        return strbuf_take(&b);
    if (width < 40)
        width = 40;
    const Cluster *c = in->cluster;
    bool a = ascii;
    char s[1024], fig[160], v[160], r[16], t1[32], t2[32];
    int domains = cluster_domain_count(c);
    if (k == VIEW_RACK) {
        int dom = view_rack_domain(in);
        snprintf(s, sizeof s,
                 "Rack view of %s, %s %d of %d. One scale-up domain holds %d %s "
                 "%s.",
                 c->name, view_domain_noun(c, false), dom + 1, domains, c->domain_gpus,
                 c->gpu.name, hw_noun(&c->gpu, HW_NOUN_MANY));
    } else {
        snprintf(s, sizeof s,
                 "Fabric view of %s: %d %s in %d scale-up %s of %d %s, under "
                 "%d leaf switches and %d spine switches (oversubscription %g:1)%s.",
                 c->name, c->n_gpus, hw_noun(&c->gpu, HW_NOUN_MANY), domains,
                 view_domain_noun(c, domains != 1), c->domain_gpus, hw_noun(&c->gpu, HW_NOUN_MANY),
                 cluster_leaf_count(c), cluster_spine_count(c), c->oversub,
                 c->sites > 1 ? ", spread over several sites" : "");
    }
    text_wrap_append(&b, s, width, 0, 0);
    view_up_figure(c, a, fig, sizeof fig);
    units_format_bits_bytes(c->out_bytes_per_s, v, sizeof v);
    view_ratio(view_drop(c), r, sizeof r);
    snprintf(s, sizeof s,
             "Inside a %s, %s talk over %s. Leaving it, each %s has %s (%s), "
             "%s less.",
             view_domain_noun(c, false), hw_noun(&c->gpu, HW_NOUN_MANY), fig, hw_noun(&c->gpu, 0),
             v, c->out_link, r);
    text_wrap_append(&b, s, width, 0, 0);
    if (c->sites > 1) {
        snprintf(s, sizeof s, "The %d sites are joined by a scale-across link of %s each way.",
                 c->sites, view_bw(c->across_bytes_per_s, a, t1, sizeof t1));
        text_wrap_append(&b, s, width, 0, 0);
    }
    if (in->mapping) {
        view_group_sentence(in, s, sizeof s);
        text_wrap_append(&b, s, width, 0, 0);
    }
    if (in->result) {
        view_load_sentence(in, s, sizeof s);
        strcat(s, ".");
        text_wrap_append(&b, s, width, 0, 0);
    }
    if (in->cursor_gpu >= 0 && in->cursor_gpu < cluster_machine_gpus(c)) {
        snprintf(s, sizeof s, "The cursor is on %s %d in %s %d, under leaf %d.",
                 hw_noun(&c->gpu, 0), in->cursor_gpu, view_domain_noun(c, false),
                 cluster_domain_of(c, in->cursor_gpu), cluster_leaf_of(c, in->cursor_gpu));
        text_wrap_append(&b, s, width, 0, 0);
    }
    snprintf(v, sizeof v, "Per %s, each way", hw_noun(&c->gpu, 0));
    strbuf_addf(&b, "\nTier          %-20sReach\n", v);
    snprintf(v, sizeof v, "%d %s in one %s", c->domain_gpus, hw_noun(&c->gpu, HW_NOUN_MANY),
             view_domain_noun(c, false));
    strbuf_addf(&b, "scale-up      %-19s %s\n", view_bw(c->up_bytes_per_s, a, t1, sizeof t1), v);
    snprintf(v, sizeof v, "%d %s per leaf, %d leaves", c->gpus_per_leaf,
             hw_noun(&c->gpu, HW_NOUN_MANY), cluster_leaf_count(c));
    strbuf_addf(&b, "scale-out     %-19s %s\n", view_bw(c->out_bytes_per_s, a, t1, sizeof t1), v);
    if (c->sites > 1) {
        double per = c->across_bytes_per_s / (c->n_gpus / c->sites);
        snprintf(v, sizeof v, "%d sites (%s shared per site pair)", c->sites,
                 view_bw(c->across_bytes_per_s, a, t2, sizeof t2));
        strbuf_addf(&b, "scale-across  %-19s %s\n", view_bw(per, a, t1, sizeof t1), v);
    }
    strbuf_add(&b, "\n");
    desc_row(&b, "system", c->name);
    snprintf(v, sizeof v, "%s", c->gpu.name);
    desc_row(&b, hw_noun(&c->gpu, HW_NOUN_CAP), v);
    snprintf(v, sizeof v, "%d", c->n_gpus);
    desc_row(&b, hw_noun(&c->gpu, HW_NOUN_MANY | HW_NOUN_CAP), v);
    snprintf(v, sizeof v, "%d of %d %s", domains, c->domain_gpus, hw_noun(&c->gpu, HW_NOUN_MANY));
    desc_row(&b, "scale-up domains", v);
    if (c->domain_power_w > 0) {
        snprintf(v, sizeof v, "%.3g kW per %s, %s", c->domain_power_w / 1000,
                 view_domain_noun(c, false), c->cooling[0] ? c->cooling : "cooling unknown");
        desc_row(&b, "power", v);
    }
    if (in->mapping) {
        desc_row(&b, "mapping", mapping_format(in->mapping, v, sizeof v));
        for (int d = 0; d < DIM_COUNT; d++) {
            if (mapping_dim_size(in->mapping, (MappingDim)d) <= 1)
                continue;
            GroupSpan sp = span_worst(in->mapping, c, in->placement, (MappingDim)d);
            snprintf(v, sizeof v, "group of %d spans %d %s%s", sp.size, sp.domains,
                     view_domain_noun(c, sp.domains != 1),
                     sp.sites > 1 ? " and crosses sites" : "");
            snprintf(s, sizeof s, "%s groups", mapping_dim_name((MappingDim)d));
            desc_row(&b, s, v);
        }
    }
    return strbuf_take(&b);
}
