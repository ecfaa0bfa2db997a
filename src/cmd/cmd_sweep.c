/* SPDX-License-Identifier: MIT */
/* cmd_sweep — `scalelab sweep [FLAGS]`: the best-mapping search
 * (model/sweep.h) for one cluster and workload, printed as a ranked table
 * with units and an explanation of the winner, or as one JSON object.
 *
 * The cluster and workload flags are the job flags of the one flag table
 * (flags.h), built by evalflags.h as for eval. Mapping flags (--tp, --pp, --dp,
 * --ep, --cp, --etp, --mb, --interleave) pin that degree in the search,
 * which is the same one eval runs for what it is not given; the framework
 * settings (ZeRO, recompute, sequence parallelism, TP overlap) are searched
 * unless given; CP is 1 unless given. This file adds only
 * --top, --json / --format, --chart, --ascii and --help.
 * Bad flags: one line on stderr, exit 2. A search that finds no legal
 * mapping is bad usage too (exit 2, the constraint named); one where nothing
 * fits in memory still ranks (exit 0, every row flagged).
 */
#include "base/msg.h"
#include "base/xmem.h"
#include "cmd/cli.h"
#include "cmd/evalflags.h"
#include "cmd/json.h"
#include "draw/canvas.h"
#include "draw/charts.h"
#include "model/balance.h"
#include "model/hw.h"
#include "model/step.h"
#include "model/sweep.h"
#include "model/units.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWEEP_DEFAULT_TOP 10

static const char sweep_help[] =
    "Usage: scalelab sweep [FLAGS]\n"
    "Searches every legal mapping of a workload on a cluster (TP, PP, DP, EP,\n"
    "micro-batch, interleave; CP 1 unless given) and the placements that matter,\n"
    "ranks them by step time (those that do not fit in memory last, flagged) and\n"
    "explains the winner: which tier each parallel dimension lands on.\n"
    "\n"
    "Cluster and workload flags: the same as 'scalelab eval' (--system, --gpus,\n"
    "--model, --batch, ...; see 'scalelab eval --help'). A mapping flag given\n"
    "(--tp, --pp, --dp, --ep, --cp, --etp, --mb, --interleave) fixes that degree.\n"
    "The framework settings eval can set are searched too unless given: the ZeRO\n"
    "stage and recompute (each mapping takes the cheapest way to fit: ZeRO 1, then\n"
    "ZeRO 2, selective recompute or the cheap parts (norms, activation, Q/KV\n"
    "projections), ZeRO 3 or full recompute, then activations\n"
    "offloaded to the host where the framework does it: JAX on TPU hosts,\n"
    "Megatron over NVLink-C2C), and on the best mappings TP overlap on and\n"
    "sequence parallelism off where faster. --zero, --recompute, --offload,\n"
    "--seq-parallel and --tp-overlap pin them. The table's settings column:\n"
    "Z<stage>, sel/parts/full recompute, +ov TP overlap, -sp no sequence\n"
    "parallelism, +off activations offloaded.\n"
    "\n"
    "Output:\n"
    "  --top N            rows of the ranking (default 10; 'all' for every one)\n"
    "  --json, --format json|text   one JSON object instead of the table\n"
    "  --chart            also draw the best step time against TP degree and against\n"
    "                     the scale-up domain size\n"
    "  --ascii            ASCII only in the chart\n";

typedef struct {
    int top; /* rows, 0 = all */
    bool json, chart, ascii;
} SweepOpts;

/* sweep's own flags from what flags_parse read. Returns CLI_OK or CLI_USAGE
 * after one line. */
static int sweep_opts(const FlagArgs *a, SweepOpts *o)
{
    memset(o, 0, sizeof *o);
    o->top = SWEEP_DEFAULT_TOP;
    o->json = a->set[FLAG_JSON];
    o->chart = a->set[FLAG_CHART];
    o->ascii = a->set[FLAG_ASCII];
    if (a->set[FLAG_FORMAT]) {
        const char *v = a->str[FLAG_FORMAT];
        if (strcmp(v, "json") == 0)
            o->json = true;
        else if (strcmp(v, "text") != 0)
            return cli_usage_error("sweep: --format must be json or text (got '%s')", v);
        else if (a->set[FLAG_JSON])
            return cli_usage_error("sweep: --json and --format text disagree");
    }
    if (a->set[FLAG_TOP]) {
        const char *v = a->str[FLAG_TOP];
        char *end;
        long n = strtol(v, &end, 10);
        if (strcmp(v, "all") == 0)
            o->top = 0;
        else if (*v == '\0' || *end != '\0' || n < 1 || n > 1000000)
            return cli_usage_error("sweep: --top must be a number from 1 to 1000000 or "
                                   "'all' (got '%s')",
                                   v);
        else
            o->top = (int)n;
    }
    return CLI_OK;
}

/* --- output ---------------------------------------------------------------- */

static const char *tier_word(Tier t)
{
    return t == TIER_UP ? "scale-up" : t == TIER_OUT ? "scale-out" : "scale-across";
}

/* As --recompute takes it back (the parts of a selective policy named). */
static const char *recompute_word(const SweepEntry *e, char *buf, size_t len)
{
    evalflags_recompute_text(e->recompute, e->recompute_mods, buf, len);
    return buf;
}

/* The framework settings of an entry in a few characters for the table:
 * "Z1", "Z3 sel", "Z2 parts" (other parts recomputed: the search's norms,
 * activation and Q/KV projections, or those --recompute named), "Z2 full
 * +ov -sp" (TP overlap on, sequence parallelism off although TP > 1), "Z1
 * full:9" (9 layers of each stage recomputed, the rest keep everything),
 * "Z3 full +off" (activations offloaded to the host). */
static void settings_cell(const SweepEntry *e, char *buf, size_t len)
{
    char rc[96], layers[16] = "";
    recompute_word(e, rc, sizeof rc);
    if (e->recompute == WL_RECOMPUTE_FULL && e->recompute_layers > 0)
        snprintf(layers, sizeof layers, ":%d", e->recompute_layers);
    snprintf(buf, len, "Z%d%s%s%s%s%s", e->m.zero,
             strcmp(rc, "none") == 0        ? ""
             : strcmp(rc, "full") == 0      ? " full"
             : strcmp(rc, "selective") == 0 ? " sel"
                                            : " parts",
             layers, e->overlap_on ? " +ov" : "", e->m.tp > 1 && !e->sp_on ? " -sp" : "",
             e->offload & WL_OFFLOAD_ACTIVATIONS ? " +off" : "");
}

static void json_entry(FILE *out, int rank, const SweepEntry *e)
{
    char rc[96];
    fprintf(out,
            "{\"rank\":%d,\"mapping\":{\"tp\":%d,\"cp\":%d,\"pp\":%d,\"dp\":%d,\"ep\":%d,"
            "\"interleave\":%d,\"zero\":%d,\"mb\":%d,\"etp\":%d,\"recompute\":\"%s\","
            "\"recompute_layers\":%d,\"seq_parallel\":%s,\"tp_overlap\":%s},\"placement\":",
            rank, e->m.tp, e->m.cp, e->m.pp, e->m.dp, e->m.ep, e->m.interleave, e->m.zero,
            e->micro_batch, mapping_etp(&e->m), recompute_word(e, rc, sizeof rc),
            e->recompute == WL_RECOMPUTE_FULL ? e->recompute_layers : 0,
            e->sp_on ? "true" : "false", e->overlap_on ? "true" : "false");
    json_string(out, sweep_place_name(e->place));
    json_next_number(out, "step_s", e->step_s);
    json_next_number(out, "tokens_per_s", e->tokens_per_s);
    json_next_number(out, "mfu", e->mfu);
    json_next_number(out, "mem_per_gpu_bytes", e->mem_per_gpu_bytes);
    fprintf(out, ",\"fits\":%s,\"bottleneck_part\":", e->fits ? "true" : "false");
    json_string(out, step_part_name(e->bottleneck_part));
    json_next_string(out, "bottleneck_tier",
                     e->bottleneck_part == STEP_COMPUTE || e->bottleneck_part == STEP_BUBBLE
                         ? ""
                         : tier_word(e->bottleneck_tier));
    fputs(",\"tiers\":{", out);
    static const MappingDim dims[] = {DIM_TP, DIM_CP, DIM_EP, DIM_PP, DIM_DP};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        char key[8];
        snprintf(key, sizeof key, "%s", mapping_dim_name(dims[i]));
        for (char *k = key; *k; k++)
            *k = (char)(*k - 'A' + 'a');
        fprintf(out, "%s\"%s\":", i ? "," : "", key);
        json_string(out, mapping_dim_size(&e->m, dims[i]) > 1
                             ? tier_word(sweep_span_tier(e->span[dims[i]]))
                             : "");
    }
    fputs("}}", out);
}

static void print_json(FILE *out, const Cluster *c, const Workload *w, const SweepResult *r,
                       int top, const char *explain, const StepResult *best)
{
    fputs("{\"system\":", out);
    json_string(out, c->system_id);
    json_next_string(out, "gpu", c->gpu.id);
    fprintf(out, ",\"gpus\":%d,\"domain_gpus\":%d,\"sites\":%d,\"model\":", c->n_gpus,
            c->domain_gpus, c->sites);
    json_string(out, w->id);
    fprintf(out,
            ",\"batch\":%d,\"evaluated\":%d,\"candidates\":%d,\"fit\":%d,\"truncated\":%s,"
            "\"best\":",
            w->global_batch, r->evaluated, r->n, r->n_fit, r->truncated ? "true" : "false");
    json_entry(out, 1, &r->entries[0]);
    json_next_string(out, "explanation", explain);
    json_next_string(out, "bottleneck", best->bottleneck);
    fputs(",\"ranking\":[", out);
    int rows = top == 0 || top > r->n ? r->n : top;
    for (int i = 0; i < rows; i++) {
        if (i)
            fputc(',', out);
        json_entry(out, i + 1, &r->entries[i]);
    }
    fputs("],\"by_tp\":[", out);
    SweepSeries s;
    sweep_series_by_tp(r, &s);
    for (int k = 0; k < s.n; k++) {
        fprintf(out, "%s{\"tp\":%d,\"step_s\":", k ? "," : "", (int)s.x[k]);
        json_number(out, s.y_s[k]);
        fprintf(out, ",\"fits\":%s}", s.valid[k] ? "true" : "false");
    }
    fputs("]}\n", out);
}

static void bottleneck_cell(const SweepEntry *e, char *buf, size_t len)
{
    if (e->bottleneck_part == STEP_COMPUTE || e->bottleneck_part == STEP_BUBBLE)
        snprintf(buf, len, "%s", step_part_name(e->bottleneck_part));
    else
        snprintf(buf, len, "%s %s", step_part_name(e->bottleneck_part),
                 tier_word(e->bottleneck_tier));
}

static void print_row(FILE *out, int rank, const SweepEntry *e)
{
    char map[64], t[32], tok[32], mem[32], bn[48], set[48];
    mapping_format(&e->m, map, sizeof map);
    settings_cell(e, set, sizeof set);
    units_format(UNITS_TIME, e->step_s, true, t, sizeof t);
    units_format_si(e->tokens_per_s, tok, sizeof tok);
    units_format(UNITS_BYTES, e->mem_per_gpu_bytes, true, mem, sizeof mem);
    bottleneck_cell(e, bn, sizeof bn);
    fprintf(out, "%5d  %-22s %4d  %-15s %-15s %9s %9s %5.1f%% %9s%s  %s\n", rank, map,
            e->micro_batch, set, sweep_place_name(e->place), t, tok, 100 * e->mfu, mem,
            e->fits ? " " : "!", bn);
}

/* Draws one series as an 80 x 16 line chart; `mark` is the point drawn as
 * the current one (-1 none). */
static void print_series(FILE *out, const SweepSeries *s, int mark, const char *title,
                         const char *x_label, bool ascii)
{
    ChartSeries cs;
    memset(&cs, 0, sizeof cs);
    cs.title = title;
    cs.x_label = x_label;
    cs.y_label = "step time";
    cs.y_kind = UNITS_TIME;
    cs.n = s->n < CHART_MAX_POINTS ? s->n : CHART_MAX_POINTS;
    for (int k = 0; k < cs.n; k++) {
        cs.x[k] = s->x[k];
        cs.y[k] = s->y_s[k];
        cs.valid[k] = s->valid[k];
    }
    cs.highlight = mark;
    cs.ascii = ascii;
    Canvas *cv = canvas_new(80, 16);
    canvas_set_ascii(cv, ascii);
    chart_line(cv, 0, 0, 80, 16, &cs);
    char *text = canvas_to_text(cv);
    fputs(text, out);
    free(text);
    canvas_free(cv);
}

/* Best step time against TP degree, then against the scale-up domain size
 * (the domain sizes of the presets and their multiples, up to the GPUs). */
static void print_chart(FILE *out, const Cluster *c, const Workload *w, const SweepOptions *so,
                        const SweepResult *r, bool ascii)
{
    SweepSeries s;
    sweep_series_by_tp(r, &s);
    /* the winner's TP is the marked point */
    print_series(out, &s, s.best, "Best step time against TP degree", "TP", ascii);
    static const int sizes[] = {4, 8, 16, 32, 64, 72, 128, 144, 256, 576};
    int domains[sizeof sizes / sizeof sizes[0]], n = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i] <= c->n_gpus)
            domains[n++] = sizes[i];
    if (n < 2)
        return;
    char err[MSG_LEN];
    if (!sweep_series_by_domain(c, w, so, domains, n, &s, err, sizeof err))
        return;
    int mark = -1; /* the cluster's own domain size */
    for (int k = 0; k < s.n; k++)
        if ((int)s.x[k] == c->domain_gpus)
            mark = k;
    fputc('\n', out);
    char title[80];
    snprintf(title, sizeof title, "Best step time against scale-up domain size (%s)",
             hw_noun(&c->gpu, HW_NOUN_MANY));
    print_series(out, &s, mark, title, "domain", ascii);
}

static void print_table(FILE *out, const Cluster *c, const Workload *w, const SweepOptions *so,
                        const SweepResult *r, int top, bool chart, bool ascii, const char *explain,
                        const StepResult *best)
{
    const WorkloadPreset *wp = workload_preset_find(w->id);
    const SystemSpec *sp = hw_system_find(c->system_id);
    fprintf(out, "Best mappings of %s on %d x %s (%s), batch %d\n", wp ? wp->name : "custom model",
            c->n_gpus, c->gpu.name, sp ? sp->name : "custom cluster", w->global_batch);
    fprintf(out, "%d candidates evaluated; %d of the %d ranked fit in memory.\n\n", r->evaluated,
            r->n_fit, r->n);
    char mem[16];
    snprintf(mem, sizeof mem, "mem/%s", hw_noun(&c->gpu, 0));
    fprintf(out, "%5s  %-22s %4s  %-15s %-15s %9s %9s %6s %10s  %s\n", "rank", "mapping", "mb",
            "settings", "placement", "step", "tokens/s", "MFU", mem, "bottleneck");
    int rows = top == 0 || top > r->n ? r->n : top;
    for (int i = 0; i < rows; i++)
        print_row(out, i + 1, &r->entries[i]);
    if (rows < r->n)
        fprintf(out, "  ... %d more (--top all)\n", r->n - rows);
    if (r->n_fit < r->n)
        fputs("  ! does not fit in HBM (ranked after all that fit)\n", out);
    if (r->truncated)
        fprintf(out, "  (the search stopped at %d candidates: pin a degree, e.g. --tp)\n",
                SWEEP_MAX_ENTRIES);

    const SweepEntry *e = &r->entries[0];
    char map[64], t[32], rc[96];
    mapping_format(&e->m, map, sizeof map);
    units_format(UNITS_TIME, e->step_s, true, t, sizeof t);
    fprintf(out, "\nWinner: %s, micro-batch %d, %s per step%s\n", map, e->micro_batch, t,
            e->fits ? "" : " (DOES NOT FIT: nothing does)");
    char layers[48] = "";
    if (e->recompute == WL_RECOMPUTE_FULL && e->recompute_layers > 0)
        snprintf(layers, sizeof layers, " on %d layers of each stage", e->recompute_layers);
    fprintf(out, "  settings: ZeRO %d, recompute %s%s, sequence parallelism %s, TP overlap %s\n",
            e->m.zero, recompute_word(e, rc, sizeof rc), layers, e->sp_on ? "on" : "off",
            e->overlap_on ? "on" : "off");
    cli_print_wrapped(out, explain, 80, "  where: ", 9);
    if (e->place == SWEEP_PLACE_DP_INNER)
        fputs("  placement: data-parallel ranks share a domain, pipeline stages outermost "
              "(TP, EP, DP, PP)\n",
              out);
    else if (e->place == SWEEP_PLACE_BALANCED) {
        /* the worst TP group of the evaluated winner: its smallest part */
        int part = best->span[DIM_TP].min_per_domain;
        char why[160];
        snprintf(why, sizeof why,
                 "TP groups balanced over neighbouring domains, none split with fewer than %d "
                 "on a side (with ranks in order, as few as %d)",
                 part, balance_default_min_part(c->n_gpus, c->domain_gpus, e->m.tp));
        cli_print_wrapped(out, why, 80, "  placement: ", 13);
    } else
        fputs("  placement: the default, TP innermost, then EP, PP, DP\n", out);
    cli_print_wrapped(out, best->bottleneck, 80, "  bottleneck: ", 14);
    /* the runner-up with another TP degree, to show what the choice is worth */
    for (int i = 1; i < r->n; i++) {
        const SweepEntry *x = &r->entries[i];
        if (x->m.tp == e->m.tp || x->fits != e->fits)
            continue;
        char xm[64], xt[32];
        mapping_format(&x->m, xm, sizeof xm);
        units_format(UNITS_TIME, x->step_s, true, xt, sizeof xt);
        fprintf(out, "  best with another TP: %s at %s (%+.1f%%)\n", xm, xt,
                100 * (x->step_s / e->step_s - 1));
        break;
    }
    if (chart) {
        fputc('\n', out);
        print_chart(out, c, w, so, r, ascii);
    }
}

int cmd_sweep(int argc, char **argv)
{
    FlagArgs a;
    SweepOpts o;
    int rc = flags_parse(&flags_sweep, argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    if (a.set[FLAG_HELP]) {
        fputs(sweep_help, stdout);
        return CLI_OK;
    }
    if ((rc = sweep_opts(&a, &o)) != CLI_OK)
        return rc;
    Cluster c;
    Workload w;
    SweepOptions so;
    if (!evalflags_build("sweep", &a, &c, &w, &so))
        return CLI_USAGE;

    SweepResult r = {0};
    char err[MSG_LEN];
    if (!sweep_run(&r, &c, &w, &so, err, sizeof err)) {
        sweep_result_free(&r);
        return cli_usage_error("sweep: %s", err);
    }
    StepResult best;
    if (sweep_entry_eval(&c, &w, &r.entries[0], NULL, &best, err, sizeof err) != STEP_OK) {
        sweep_result_free(&r);
        return cli_usage_error("sweep: %s", err);
    }
    char explain[400];
    sweep_explain(&c, &r.entries[0], explain, sizeof explain);
    if (o.json)
        print_json(stdout, &c, &w, &r, o.top, explain, &best);
    else
        print_table(stdout, &c, &w, &so, &r, o.top, o.chart, o.ascii, explain, &best);
    sweep_result_free(&r);
    return CLI_OK;
}
