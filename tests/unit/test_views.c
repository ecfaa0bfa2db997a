/* SPDX-License-Identifier: MIT */
/* test_views — rack and fabric views drawn from real presets: group letters,
 * figures in labels, aggregation of large clusters, the cursor, fitting in
 * the box, and drawing time for 16,384 GPUs. Expected figures are worked by
 * hand in the comments. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "base/utf8.h"
#include "base/xmem.h"
#include "draw/cluster_grid.h"
#include "draw/text.h"
#include "draw/views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static Cluster make_cluster(const char *sys, int gpus)
{
    Cluster c;
    char err[200];
    if (!cluster_from_system(&c, sys, gpus, err, sizeof err))
        fail_msg("cluster %s: %s", sys, err);
    return c;
}

/* Draws a view and returns its text (caller frees). */
static char *draw(ViewKind k, const ViewInput *in, int w, int h, bool ascii, int *rows)
{
    Canvas *cv = canvas_new(w, h);
    canvas_set_ascii(cv, ascii);
    int used =
        k == VIEW_RACK ? view_rack_draw(cv, 0, 0, w, h, in) : view_fabric_draw(cv, 0, 0, w, h, in);
    if (rows)
        *rows = used;
    char *t = canvas_to_text(cv);
    canvas_free(cv);
    return t;
}

/* Sentences may wrap: newlines in text count as spaces. */
static void assert_contains(const char *text, const char *want)
{
    char *flat = strdup(text);
    assert_non_null(flat);
    for (char *p = flat; *p; p++)
        if (*p == '\n')
            *p = ' ';
    bool found = strstr(flat, want) != NULL;
    free(flat);
    if (!found)
        fail_msg("expected \"%s\" in:\n%s", want, text);
}

/* Every line at most w columns wide. */
static void assert_fits(const char *text, int w)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (utf8_width_n(p, n) > w)
            fail_msg("line wider than %d: %.*s", w, (int)n, p);
        p = nl ? nl + 1 : p + n;
    }
}

static void test_views_letters_follow_tp_groups(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 64);
    Mapping m = {.tp = 16, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    ViewInput in = view_input_default(&c);
    in.mapping = &m;
    /* TP innermost: rank r is in TP group r / 16; GPU 17 -> group 1 -> 'B' */
    assert_int_equal(view_gpu_letter(&in, 0), 'A');
    assert_int_equal(view_gpu_letter(&in, 17), 'B');
    assert_int_equal(view_gpu_letter(&in, 63), 'D');
    assert_int_equal(view_gpu_letter(&in, 64), '.'); /* not a GPU */
    /* swapping GPUs 0 and 17 moves rank 17 (group B) onto GPU 0 */
    Placement *p = placement_new(64);
    assert_true(placement_swap_gpus(p, 0, 17));
    in.placement = p;
    assert_int_equal(view_gpu_letter(&in, 0), 'B');
    assert_int_equal(view_gpu_letter(&in, 17), 'A');
    placement_free(p);
    in.placement = NULL;
    in.mapping = NULL;
    assert_int_equal(view_gpu_letter(&in, 0), 'G');
}

static void test_views_selected_group_is_lower_case(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 64);
    Mapping m = {.tp = 16, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    ViewInput in = view_input_default(&c);
    in.mapping = &m;
    in.cursor_group = 1;
    char *t = draw(VIEW_FABRIC, &in, 80, 24, false, NULL);
    /* group 1 = ranks 16..31 = servers 3 and 4 (8 GPUs each): lower case b */
    assert_contains(t, "║bbbbbbbb║║bbbbbbbb║");
    assert_contains(t, "Selected: TP group B");
    assert_null(strstr(t, "BBBBBBBB")); /* no upper-case B left in the boxes */
    free(t);
}

static void test_views_kind_names(void **state)
{
    (void)state;
    assert_int_equal(view_kind_parse("rack"), VIEW_RACK);
    assert_int_equal(view_kind_parse("chart"), VIEW_CHART);
    assert_int_equal(view_kind_parse("pie"), -1);
    assert_int_equal(view_kind_parse(NULL), -1);
    assert_string_equal(view_kind_name(VIEW_FABRIC), "fabric");
}

static void test_views_server_rack_figures(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 8);
    ViewInput in = view_input_default(&c);
    char *t = draw(VIEW_RACK, &in, 80, 24, false, NULL);
    /* NVLink 4: 900 GB/s both ways = 450 GB/s each way; NIC 400 Gb/s / 8 = 50 GB/s;
     * 450 / 50 = 9x */
    assert_contains(t, "900 GB/s per GPU (450 GB/s each way)");
    assert_contains(t, "400 Gb/s = 50.0 GB/s per GPU");
    assert_contains(t, "9x less than NVLink");
    assert_contains(t, "NVSwitch");
    assert_fits(t, 80);
    free(t);
}

static void test_views_nvl72_rack_total(void **state)
{
    (void)state;
    Cluster c = make_cluster("gb200-nvl72", 72);
    ViewInput in = view_input_default(&c);
    char *t = draw(VIEW_RACK, &in, 80, 24, false, NULL);
    /* 72 GPUs x 1.8 TB/s = 129.6 TB/s, printed with 3 digits as 130 TB/s */
    assert_contains(t, "130 TB/s in the rack");
    assert_contains(t, "18 ");             /* compute tray 18 is drawn */
    assert_contains(t, "[sw 9: 2 chips]"); /* 18 NVSwitch chips in 9 trays */
    assert_contains(t, "liquid");
    assert_fits(t, 80);
    free(t);
}

static void test_views_torus_slice(void **state)
{
    (void)state;
    Cluster c = make_cluster("tpu-v5p", 64);
    ViewInput in = view_input_default(&c);
    char *t = draw(VIEW_RACK, &in, 80, 24, true, NULL);
    assert_contains(t, "4x4x4 torus of 64");
    assert_contains(t, "z=3");
    /* a 4x4x4 torus: two neighbours along each of three axes */
    assert_contains(t, "6 neighbours (x, y, z)");
    for (const char *p = t; *p; p++)
        assert_true((unsigned char)*p < 0x80);
    free(t);
}

/* TPU v6e is a 2D torus: a 64-chip slice is 8x8 (not the 3D guess
 * 4x4x4), each chip has 4 neighbours, and there are no z layers. */
static void test_views_torus_2d(void **state)
{
    (void)state;
    Cluster c = make_cluster("tpu-v6e", 64);
    ViewInput in = view_input_default(&c);
    char *t = draw(VIEW_RACK, &in, 80, 30, false, NULL);
    assert_contains(t, "an 8x8 torus of 64");
    assert_contains(t, "4 neighbours (x, y)");
    assert_null(strstr(t, "z=0"));
    assert_null(strstr(t, "6 neighbours"));
    free(t);
    Cluster pod = make_cluster("tpu-v6e", 256);
    in = view_input_default(&pod);
    t = draw(VIEW_RACK, &in, 80, 30, false, NULL);
    assert_contains(t, "a 16x16 torus of 256");
    free(t);
}

/* A short box (a lesson page at 80x24 leaves the diagram about 16 rows)
 * shrinks the grid, never the legend: both tiers' figures and what the
 * letters mean stay, and nothing is drawn past the box. */
static void test_views_torus_keeps_legend_when_short(void **state)
{
    (void)state;
    Cluster c = make_cluster("tpu-v5p", 6144);
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = 6144, .ep = 1, .interleave = 1};
    ViewInput in = view_input_default(&c);
    in.mapping = &m;
    int rows;
    char *t = draw(VIEW_RACK, &in, 80, 16, false, &rows);
    assert_contains(t, "each chip links to 6");
    assert_contains(t, "less than ICI");
    assert_contains(t, "lettered by TP group");
    assert_true(rows <= 16);
    free(t);
}

/* In a narrow column the fabric's title drops "(1:1)" and the system's name
 * before it cuts a count: at 50 columns the whole count line fits. */
static void test_views_fabric_title_fits_narrow(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-b200", 128);
    ViewInput in = view_input_default(&c);
    char *t = draw(VIEW_FABRIC, &in, 50, 30, false, NULL);
    *strchr(t, '\n') = '\0';
    assert_string_equal(t, "128 GPUs = 16 servers of 8, 8 leaves, 4 spines");
    free(t);
    t = draw(VIEW_FABRIC, &in, 80, 30, false, NULL);
    *strchr(t, '\n') = '\0';
    assert_string_equal(t, "DGX B200: 128 GPUs = 16 servers of 8, 8 leaves, 4 spines (1:1)");
    free(t);
}

/* Two sites: site 1's switches carry their own numbers (18 spines, 9 a
 * site, counted from 0: site 1 starts at spine 9; 36 leaves, 18 a site),
 * never site 0's. */
static void test_views_fabric_sites_number_their_own_switches(void **state)
{
    (void)state;
    Cluster c = make_cluster("gb200-nvl72", 1152);
    c.sites = 2;
    c.across_bytes_per_s = 1e13;
    ViewInput in = view_input_default(&c);
    char *t = draw(VIEW_FABRIC, &in, 120, 30, false, NULL);
    assert_contains(t, "36 leaves, 18 spines");
    assert_contains(t, "spine 9");
    assert_contains(t, "leaves 18-35");
    assert_contains(t, "leaves 0-17");
    assert_null(strstr(t, "spine 18"));
    free(t);
}

/* One group is "1 group", not "1 groups". */
static void test_views_one_group_is_singular(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 8);
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 1, .ep = 1, .interleave = 1};
    ViewInput in = view_input_default(&c);
    in.mapping = &m;
    char *t = draw(VIEW_FABRIC, &in, 100, 30, false, NULL);
    assert_contains(t, "lettered by TP group (1 group of 8)");
    free(t);
}

static void test_views_fabric_spill_is_named(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 64);
    Mapping m = {.tp = 16, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    ViewInput in = view_input_default(&c);
    in.mapping = &m;
    int rows;
    char *t = draw(VIEW_FABRIC, &in, 80, 24, false, &rows);
    /* TP 16 on 8-GPU servers: each group spans 16 / 8 = 2 servers */
    assert_contains(t, "A TP group spans 2 servers");
    assert_contains(t, "AAAAAAAA");
    assert_contains(t, "drops 9x");
    assert_true(rows <= 24);
    assert_fits(t, 80);
    free(t);
    m = (Mapping){.tp = 8, .cp = 1, .pp = 1, .dp = 8, .ep = 1, .interleave = 1};
    t = draw(VIEW_FABRIC, &in, 80, 24, false, NULL);
    assert_contains(t, "each fits in one server");
    free(t);
}

static void test_views_fabric_aggregates_large_cluster(void **state)
{
    (void)state;
    Cluster c = make_cluster("gb200-nvl72", 16384);
    ViewInput in = view_input_default(&c);
    in.cursor_gpu = 5000;
    int rows;
    char *t = draw(VIEW_FABRIC, &in, 80, 24, false, &rows);
    /* 16384 / 72 = 227.6 -> 228 racks. A rack box is 18 + 2 = 20 wide, pitch 21;
     * the aggregate box needs 13 columns: (80 + 1 - 13) / 21 = 3 racks drawn,
     * 228 - 3 = 225 aggregated. The cursor GPU 5000 is in rack 5000 / 72 = 69
     * (counted from 0), which replaces the third drawn rack. */
    assert_contains(t, "228 racks");
    assert_contains(t, "× 225");
    assert_contains(t, "╔69");
    assert_contains(t, "cursor: GPU 5000, rack 69");
    assert_contains(t, "▲");
    assert_true(rows <= 24);
    assert_fits(t, 80);
    free(t);
}

static void test_views_fabric_sites_joined(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 128);
    c.sites = 2;
    c.across_bytes_per_s = 1.25e12; /* 10 Tb/s = 1.25 TB/s */
    ViewInput in = view_input_default(&c);
    char *t = draw(VIEW_FABRIC, &in, 120, 30, false, NULL);
    assert_contains(t, "site 0");
    assert_contains(t, "site 1");
    assert_null(strstr(t, "site 2"));
    assert_contains(t, "┄");
    assert_contains(t, "between 2 sites, 1.25 TB/s each way");
    free(t);
}

static void test_views_describe_has_table(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 64);
    Mapping m = {.tp = 16, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    ViewInput in = view_input_default(&c);
    in.mapping = &m;
    char *d = view_describe(VIEW_FABRIC, &in, 80, false);
    assert_contains(d, "64 GPUs in 8 scale-up servers");
    assert_contains(d, "scale-up      450 GB/s");
    assert_contains(d, "scale-out     50.0 GB/s");
    assert_contains(d, "TP groups");
    assert_fits(d, 80);
    free(d);
}

/* Odd inputs never write outside the box or crash (run under SANITIZE=1):
 * tiny boxes, more sites than domains, a cluster smaller than one domain,
 * a zero domain (draws nothing). */
static void test_views_odd_inputs_stay_in_the_box(void **state)
{
    (void)state;
    Cluster base = make_cluster("gb200-nvl72", 36);
    Cluster odd[4] = {base, base, base, base};
    odd[1].sites = 5;
    odd[2].n_gpus = 1;
    odd[3].domain_gpus = 0;
    Canvas *cv = canvas_new(30, 12);
    for (int k = 0; k < 4; k++)
        for (int w = 0; w <= 30; w += 3)
            for (int h = 0; h <= 12; h += 4) {
                ViewInput in = view_input_default(&odd[k]);
                in.cursor_gpu = 0;
                canvas_clear(cv);
                view_rack_draw(cv, 2, 1, w, h, &in);
                view_fabric_draw(cv, -3, -2, w, h, &in);
                /* nothing right of x + w = 2 + w for the rack drawn at x = 2 */
                for (int y = 0; y < 12; y++)
                    for (int x = 2 + w; x < 30; x++)
                        assert_string_equal(canvas_cell(cv, x, y)->glyph, " ");
            }
    ViewInput in = view_input_default(&odd[3]);
    char *d = view_describe(VIEW_FABRIC, &in, 80, false);
    assert_string_equal(d, "");
    free(d);
    canvas_free(cv);
}

static void test_views_16k_cluster_draws_aggregated(void **state)
{
    (void)state;
    Cluster c = make_cluster("gb200-nvl72", 16384);
    Mapping m = {.tp = 8, .cp = 1, .pp = 4, .dp = 512, .ep = 1, .interleave = 1};
    ViewInput in = view_input_default(&c);
    in.mapping = &m;
    in.cursor_gpu = 9999;
    Canvas *cv = canvas_new(200, 60);
    view_fabric_draw(cv, 0, 0, 200, 60, &in);
    char *t = canvas_to_text(cv);
    /* 16,384 GPUs = 228 NVL72 racks: drawn aggregated ("× N" racks not shown). */
    assert_non_null(strstr(t, "×"));
    free(t);
    canvas_free(cv);
}

/* Two DGX H100 servers wired plain fit under one 32-GPU leaf: a leaf-spine
 * Clos needs no spine then, so none is drawn (and the header says 0
 * spines); 64 GPUs take two leaves and one spine. */
static void test_views_one_leaf_draws_no_spine(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 16);
    c.rail_optimized = false;
    ViewInput in = view_input_default(&c);
    char *t = draw(VIEW_FABRIC, &in, 80, 24, false, NULL);
    assert_contains(t, "1 leaf, 0 spines");
    assert_null(strstr(t, "spine 0"));
    assert_contains(t, "leaf 0");
    free(t);
    c = make_cluster("dgx-h100", 64);
    c.rail_optimized = false;
    in = view_input_default(&c);
    t = draw(VIEW_FABRIC, &in, 80, 24, false, NULL);
    assert_contains(t, "2 leaves, 1 spine");
    assert_contains(t, "spine 0");
    assert_null(strstr(t, "spine 1"));
    assert_null(strstr(t, "rail"));
    free(t);
}

/* DGX H100 is cabled by rail: one unit of 32 servers on 8 leaves, GPU i of
 * each server on leaf i. 256 GPUs at 80 columns: a box per rail, "rail 0"
 * to "rail 7" (counted from 0, as GPUs and servers are), each named once;
 * the legend says how they are cabled; the cursor's GPU 17 (GPU 1 of
 * server 2) on leaf 1, rail 1. At 40 columns the boxes shrink to "r0"...,
 * never cut. */
static void test_views_fabric_draws_rails(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 256);
    ViewInput in = view_input_default(&c);
    in.cursor_gpu = 17;
    int rows;
    char *t = draw(VIEW_FABRIC, &in, 80, 24, false, &rows);
    for (int r = 0; r < 8; r++) {
        char want[32];
        snprintf(want, sizeof want, "│rail %d │", r);
        const char *at = strstr(t, want);
        assert_non_null(at);
        assert_null(strstr(at + 1, want));
    }
    assert_null(strstr(t, "rail 8"));
    assert_contains(t, "8 leaves");
    assert_contains(t, "scale-out to rail leaves, GPU i of each server on leaf i of its "
                       "32-server unit: 400 Gb/s");
    assert_contains(t, "cursor: GPU 17, server 2, leaf 1 (rail 1)");
    assert_true(rows <= 24);
    assert_fits(t, 80);
    free(t);
    t = draw(VIEW_FABRIC, &in, 40, 24, false, NULL);
    assert_contains(t, "│r0│");
    assert_contains(t, "│r7│");
    assert_null(strstr(t, "…│"));
    assert_fits(t, 40);
    free(t);
}

/* The aggregate box stands for the domains not drawn. With the cursor's
 * server 125 of 0-127 drawn in the last slot (plain wiring, 32-GPU leaves):
 * drawn are servers 0-3 (leaf 0) and 125 (GPUs 1000-1007: leaf 31); the
 * aggregate holds servers 4-124, 126, 127 (leaves 1-31), so one box names
 * leaves 1-31 over server 125 and the aggregate, and no leaf is named
 * twice. (It used to read the last leaf alone, as if the aggregate were
 * only the two servers after the cursor's.) */
static void test_views_aggregate_names_its_own_leaves(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 1024);
    c.rail_optimized = false;
    ViewInput in = view_input_default(&c);
    in.cursor_gpu = 1000;
    char *t = draw(VIEW_FABRIC, &in, 80, 24, false, NULL);
    assert_contains(t, "╔125");
    assert_contains(t, "× 123 more servers");
    assert_contains(t, "│leaf 0 ");
    assert_contains(t, "│leaves 1-31 ");
    assert_null(strstr(t, "│leaf 31"));
    free(t);
    /* On rails the aggregate reaches back into the first unit: one box for
     * all 32 leaves, never rails 0-7 named twice. */
    c.rail_optimized = true;
    t = draw(VIEW_FABRIC, &in, 80, 24, false, NULL);
    assert_contains(t, "│leaves 0-31: rails 0-7 of 4 units");
    assert_null(strstr(t, "│rail 0"));
    assert_null(strstr(t, "│r0│"));
    assert_contains(t, "server 125, leaf 24 (rail 0)"); /* the last unit: leaves 24-31 */
    free(t);
}

/* Every drawing and description of c with a TP 8 mapping, the cursor on
 * accelerator 3 and TP group 0 selected, at 80 and 200 columns, UTF-8 and
 * ASCII, one after the other (caller frees). */
static char *every_view(const Cluster *c)
{
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = c->n_gpus / 8, .ep = 1, .interleave = 1};
    ViewInput in = view_input_default(c);
    in.mapping = &m;
    in.cursor_gpu = 3;
    in.cursor_group = 0;
    size_t len = 0;
    char *all = calloc(1, 1);
    static const int widths[] = {80, 200};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 2; i++)
            for (int ascii = 0; ascii < 2; ascii++) {
                char *parts[2] = {draw((ViewKind)k, &in, widths[i], 60, ascii, NULL),
                                  view_describe((ViewKind)k, &in, widths[i], ascii)};
                for (int j = 0; j < 2; j++) {
                    size_t n = strlen(parts[j]);
                    all = xmem_realloc(all, len + n + 1);
                    memcpy(all + len, parts[j], n + 1);
                    len += n;
                    free(parts[j]);
                }
            }
    return all;
}

/* Views name the accelerators as their preset does: a TPU or Trainium
 * system's chips are never called GPUs (the word does not appear at all,
 * so "GPUs", "per GPU" and "GPU 3" are all caught), and a GPU system's
 * views say GPU. Trn2 at 128 chips is two UltraServers (the two-unit
 * picture); tpu-v5p at 512 chips over 2 sites draws both sites. The
 * expected phrases are the views' sentences with the noun put in by hand:
 * "per chip" (bandwidth figures), "Chips are lettered" (a sentence start),
 * "cursor: Chip 3", "The cursor is on chip 3" (the cursor lines). */
/* A machine with holes: 128 ranks on two GB300 racks (144 GPUs), GPUs
 * 16-19 failed, 140-143 held by another job. The default fill skips the
 * holes: ranks 0-15 on GPUs 0-15 (TP group A), ranks 16-31 on GPUs 20-35
 * (group B), rank 127 on GPU 131; GPUs 132-139 free. */
static Cluster holed_gb300(void)
{
    Cluster c = make_cluster("gb300-nvl72", 128);
    char err[200];
    c.machine_gpus = 144;
    assert_true(cluster_add_down(&c, 16, 4, CLUSTER_GPU_FAILED, err, sizeof err));
    assert_true(cluster_add_down(&c, 140, 4, CLUSTER_GPU_BUSY, err, sizeof err));
    assert_true(cluster_check(&c, err, sizeof err));
    return c;
}

static void test_views_machine_draws_down_gpus(void **state)
{
    (void)state;
    Cluster c = holed_gb300();
    Mapping m = {.tp = 16, .cp = 1, .pp = 1, .dp = 8, .ep = 1, .interleave = 1};
    ViewInput in = view_input_default(&c);
    in.mapping = &m;
    assert_int_equal(view_gpu_letter(&in, 15), 'A');
    for (int g = 16; g < 20; g++)
        assert_int_equal(view_gpu_letter(&in, g), 'x');
    assert_int_equal(view_gpu_letter(&in, 20), 'B');
    assert_int_equal(view_gpu_letter(&in, 131), 'H');
    assert_int_equal(view_gpu_letter(&in, 132), '.');
    assert_int_equal(view_gpu_letter(&in, 140), '#');
    /* the same with the machine's placement, and in the drawn rack pair:
     * row 1 of rack 1 is GPUs 0-17, row 2 GPUs 18-35 */
    Placement *p = placement_for_machine(&c);
    in.placement = p;
    assert_int_equal(view_gpu_letter(&in, 20), 'B');
    assert_int_equal(view_gpu_letter(&in, 18), 'x');
    char *t = draw(VIEW_FABRIC, &in, 100, 30, true, NULL);
    assert_contains(t, "GB300 NVL72: 128 of 144 GPUs in 2 racks of 72");
    assert_contains(t, "AAAAAAAAAAAAAAAAxx");
    assert_contains(t, "xxBBBBBBBBBBBBBBBB");
    assert_contains(t, "........####");
    free(t);
    placement_free(p);
}

/* Draws the scenario grid; returns its text (caller frees). */
static char *grid(const ClusterView *v, int w, int h, ClusterShown *shown)
{
    Canvas *cv = canvas_new(w, h);
    CanvasPoint cur;
    cluster_grid_draw(cv, 0, 0, w, h, v, &cur, shown);
    char *t = canvas_to_text(cv);
    canvas_free(cv);
    return t;
}

static void test_views_grid_draws_holes_and_names_them(void **state)
{
    (void)state;
    Cluster c = holed_gb300();
    Mapping m = {.tp = 16, .cp = 1, .pp = 1, .dp = 8, .ep = 1, .interleave = 1};
    Placement *p = placement_for_machine(&c);
    ClusterView v = {&c, &m, p, DIM_TP, 17, -1, -1};
    ClusterShown shown;
    char *t = grid(&v, 80, 10, &shown);
    assert_contains(t, "A A x x x x B B");
    assert_contains(t, "H H . . . . . . . . # # # #");
    free(t);
    char line[256];
    cluster_grid_cursor_line(&v, &shown, true, 80, line, sizeof line);
    assert_contains(line, "GPU 17");
    assert_contains(line, "failed: runs nothing");
    v.cursor = 141;
    cluster_grid_cursor_line(&v, &shown, true, 80, line, sizeof line);
    assert_contains(line, "another job's");
    v.cursor = 20; /* a working GPU names its group by the letter drawn */
    free(grid(&v, 80, 10, &shown));
    cluster_grid_cursor_line(&v, &shown, true, 80, line, sizeof line);
    assert_contains(line, "TP group B (GPUs 20-35)");
    placement_free(p);
}

/* Two sites of three DGX H100 servers, leaves of 16 GPUs: each site under
 * its own rule, and the leaves restart at the site boundary (a leaf never
 * spans two data centres): site 0 has leaves of GPUs 0-15 and 16-23, site
 * 1 of 24-39 and 40-47. The cursor line names the site and the leaf. */
static void test_views_grid_sites_are_ruled_and_named(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-a100", 48);
    assert_int_equal(cluster_rail_unit_gpus(&c), 0); /* leaves by blocks, not rails */
    c.sites = 2;
    c.gpus_per_leaf = 16;
    c.across_bytes_per_s = 400e9; /* 3.2 Tb/s between the sites */
    c.across_lat_s = 50e-6;
    char err[200];
    if (!cluster_check(&c, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(cluster_leaf_of(&c, 16), cluster_leaf_of(&c, 23));
    assert_true(cluster_leaf_of(&c, 23) != cluster_leaf_of(&c, 24));
    assert_int_equal(cluster_leaf_of(&c, 24), cluster_leaf_of(&c, 39));
    assert_true(cluster_leaf_of(&c, 39) != cluster_leaf_of(&c, 40));
    assert_int_equal(cluster_leaf_count(&c), 4);
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 6, .ep = 1, .interleave = 1};
    ClusterView v = {&c, &m, NULL, DIM_TP, 40, -1, -1};
    ClusterShown shown;
    char *t = grid(&v, 80, 20, &shown);
    char *s1 = strstr(t, "site 0: servers 0-2"), *s2 = strstr(t, "site 1: servers 3-5");
    if (!s1 || !s2)
        fail_msg("no site rules in:\n%s", t);
    assert_true(s1 < s2);
    free(t);
    char line[256];
    cluster_grid_cursor_line(&v, &shown, true, 120, line, sizeof line);
    assert_contains(line, "GPU 40 | server 5");
    assert_contains(line, "site 1");
    char want[32];
    snprintf(want, sizeof want, "leaf %d", cluster_leaf_of(&c, 40));
    assert_contains(line, want);
}

/* A rail-optimized DGX H100 SuperPOD: GPU k of every server in a unit goes
 * to leaf k (rail k). GPUs 0 and 8 share a leaf; 0 and 1 do not; the cursor
 * line names the rail. */
static void test_views_grid_names_the_rail(void **state)
{
    (void)state;
    Cluster c = make_cluster("dgx-h100", 64);
    assert_true(cluster_rail_unit_gpus(&c) > 0);
    assert_int_equal(cluster_leaf_of(&c, 0), cluster_leaf_of(&c, 8));
    assert_true(cluster_leaf_of(&c, 0) != cluster_leaf_of(&c, 1));
    assert_int_equal(cluster_rail_of(&c, 13), 5);
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 8, .ep = 1, .interleave = 1};
    ClusterView v = {&c, &m, NULL, DIM_TP, 13, -1, -1};
    ClusterShown shown;
    free(grid(&v, 80, 20, &shown));
    char line[256];
    cluster_grid_cursor_line(&v, &shown, true, 160, line, sizeof line);
    assert_contains(line, "GPU 13 | server 1");
    assert_contains(line, "rail 5");
}

/* TPU chips are chips: the grid's cursor line says what the preset says. */
static void test_views_grid_names_the_chip(void **state)
{
    (void)state;
    Cluster c = make_cluster("tpu-v5p", 128);
    Mapping m = {.tp = 16, .cp = 1, .pp = 1, .dp = 8, .ep = 1, .interleave = 1};
    ClusterView v = {&c, &m, NULL, DIM_TP, 3, -1, -1};
    ClusterShown shown;
    free(grid(&v, 80, 20, &shown));
    char line[256];
    cluster_grid_cursor_line(&v, &shown, true, 80, line, sizeof line);
    assert_contains(line, "Chip 3 | slice 0 (128 chips)");
    assert_null(strstr(line, "GPU"));
}

static void test_views_accelerators_named_as_preset_says(void **state)
{
    (void)state;
    Cluster chips[3] = {make_cluster("tpu-v5p", 256), make_cluster("trn2-ultraserver", 128),
                        make_cluster("tpu-v5p", 512)};
    chips[2].domain_gpus = 256;
    chips[2].sites = 2;
    chips[2].across_bytes_per_s = 1.25e12;
    for (int i = 0; i < 3; i++) {
        char *t = every_view(&chips[i]);
        if (strstr(t, "GPU"))
            fail_msg("%s (%d chips): \"GPU\" in:\n%s", chips[i].name, chips[i].n_gpus, t);
        assert_contains(t, "per chip");
        assert_contains(t, "Chips are lettered by TP group");
        assert_contains(t, "cursor: Chip 3");
        assert_contains(t, "The cursor is on chip 3");
        free(t);
    }
    Cluster gpus[2] = {make_cluster("dgx-h100", 64), make_cluster("gb200-nvl72", 144)};
    for (int i = 0; i < 2; i++) {
        char *t = every_view(&gpus[i]);
        assert_contains(t, "per GPU");
        assert_contains(t, "GPUs are lettered by TP group");
        assert_contains(t, "cursor: GPU 3");
        assert_contains(t, "The cursor is on GPU 3");
        assert_null(strstr(t, "Chip"));
        free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_letters_follow_tp_groups),
        cmocka_unit_test(test_views_one_leaf_draws_no_spine),
        cmocka_unit_test(test_views_fabric_draws_rails),
        cmocka_unit_test(test_views_aggregate_names_its_own_leaves),
        cmocka_unit_test(test_views_selected_group_is_lower_case),
        cmocka_unit_test(test_views_kind_names),
        cmocka_unit_test(test_views_server_rack_figures),
        cmocka_unit_test(test_views_nvl72_rack_total),
        cmocka_unit_test(test_views_torus_slice),
        cmocka_unit_test(test_views_torus_2d),
        cmocka_unit_test(test_views_fabric_title_fits_narrow),
        cmocka_unit_test(test_views_one_group_is_singular),
        cmocka_unit_test(test_views_fabric_sites_number_their_own_switches),
        cmocka_unit_test(test_views_torus_keeps_legend_when_short),
        cmocka_unit_test(test_views_fabric_spill_is_named),
        cmocka_unit_test(test_views_fabric_aggregates_large_cluster),
        cmocka_unit_test(test_views_fabric_sites_joined),
        cmocka_unit_test(test_views_describe_has_table),
        cmocka_unit_test(test_views_odd_inputs_stay_in_the_box),
        cmocka_unit_test(test_views_16k_cluster_draws_aggregated),
        cmocka_unit_test(test_views_accelerators_named_as_preset_says),
        cmocka_unit_test(test_views_machine_draws_down_gpus),
        cmocka_unit_test(test_views_grid_draws_holes_and_names_them),
        cmocka_unit_test(test_views_grid_sites_are_ruled_and_named),
        cmocka_unit_test(test_views_grid_names_the_chip),
        cmocka_unit_test(test_views_grid_names_the_rail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
