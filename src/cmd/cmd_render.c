/* SPDX-License-Identifier: MIT */
/* cmd_render — `scalelab render VIEW [FLAGS]`: one view (rack, fabric, bar
 * or chart) of a cluster, workload and mapping, printed to stdout as UTF-8,
 * ASCII or ANSI-coloured text, as a plain description (--describe), as a
 * JSON description (--format json: the same facts as data) or as an SVG file
 * (--svg FILE, "-" for stdout; svg.h draws the same canvas with the same
 * layout and colours).
 *
 * The cluster/workload/mapping flags are the job flags of the one flag
 * table (flags.h), built by evalflags.h as for eval; this file only reads
 * the output flags' values. Colour: --color auto (the default) colours
 * only when stdout is a terminal and NO_COLOR is unset. Width: --width, else
 * the terminal's, else 80. Bad flags: one line on stderr, exit 2.
 */
#include "base/file.h"
#include "base/msg.h"
#include "base/utf8.h"
#include "base/xmem.h"
#include "cmd/cli.h"
#include "cmd/evalflags.h"
#include "cmd/json.h"
#include "draw/canvas.h"
#include "draw/charts.h"
#include "draw/scenario_view.h"
#include "draw/series.h"
#include "draw/svg.h"
#include "draw/text.h"
#include "draw/views.h"
#include "model/collective.h"
#include "model/step.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define RENDER_MIN_W     40
#define RENDER_MAX_W     400
#define RENDER_MAX_H     200
#define RENDER_DEFAULT_H 60

static const char render_help[] =
    "Usage: scalelab render VIEW [FLAGS]\n"
    "Prints a diagram or chart of a cluster to stdout.\n"
    "\n"
    "Views: rack, fabric, bar (step-time breakdown), chart (step time against a sweep),\n"
    "scenario (the free-play screen, --width x --height, default 80x24).\n"
    "Cluster, workload and mapping flags: the same as 'scalelab eval' (--system, --gpus,\n"
    "--model, --tp, --pp, --dp, ...; see 'scalelab eval --help').\n"
    "\n"
    "Output:\n"
    "  --width N          columns (default: the terminal's, else 80)\n"
    "  --height N         rows at most (default: what the view needs, up to 60)\n"
    "  --ascii            ASCII only (no box drawing or other UTF-8)\n"
    "  --color WHEN       auto (default: only on a terminal, never with NO_COLOR),\n"
    "                     always or never\n"
    "  --describe         plain sentences and a table instead of the picture\n"
    "  --format FMT       text (default) or json: the description as one JSON object\n"
    "  --svg FILE         write the picture as SVG to FILE ('-': stdout)\n"
    "  --cursor GPU       highlight one GPU (rack, fabric)\n"
    "  --select GROUP     highlight one group (0-based id along --group-by), lower case\n"
    "  --group-by DIM     letter GPUs by tp (default), cp, ep, pp or dp groups\n"
    "  --load             colour links by their load in one step (rack, fabric)\n"
    "  --sweep PARAM      chart: tp (default), pp, cp, ep, dp, mb, domain or gpus\n"
    "  --values LIST      chart: comma-separated values (default 1,2,4,8,16,32)\n";

/* render's own view beyond the ViewKinds: the free-play scenario screen of
 * the cluster as the terminal shows it (for golden files and handouts). */
#define RENDER_SCENARIO VIEW_COUNT

typedef struct {
    int view;
    int width, height;
    bool ascii, describe, load, help, json;
    const char *svg; /* --svg FILE, NULL: none */
    int color;       /* 0 auto, 1 always, 2 never */
    int cursor, select;
    MappingDim group_by;
    const char *sweep;
    double values[CHART_MAX_POINTS];
    int n_values;
} RenderOpts;

static bool render_int(const char *flag, const char *text, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (!*text || *end || v < lo || v > hi) {
        cli_usage_error("render: --%s must be a whole number from %d to %d (got '%s')", flag, lo,
                        hi, text);
        return false;
    }
    *out = (int)v;
    return true;
}

static bool render_values(const char *text, RenderOpts *o)
{
    o->n_values = 0;
    const char *p = text;
    while (*p) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || v < 1 || v > 1e7 || (*end && *end != ',') ||
            o->n_values >= CHART_MAX_POINTS) {
            cli_usage_error("render: --values wants up to %d positive numbers like 1,2,4,8 "
                            "(got '%s')",
                            CHART_MAX_POINTS, text);
            return false;
        }
        o->values[o->n_values++] = v;
        p = *end ? end + 1 : end;
    }
    if (o->n_values == 0) {
        cli_usage_error("render: --values is empty");
        return false;
    }
    return true;
}

/* One of the words (index), or -1 after "--flag must be ..." */
static int render_word(const FlagArgs *a, FlagId f, const char *const *words, int n,
                       const char *list)
{
    for (int i = 0; i < n; i++)
        if (strcmp(a->str[f], words[i]) == 0)
            return i;
    cli_usage_error("render: --%s must be %s (got '%s')", flags_name(f), list, a->str[f]);
    return -1;
}

/* The numbers of --width, --height, --cursor and --select. */
static bool render_numbers(const FlagArgs *a, RenderOpts *o)
{
    static const struct {
        FlagId f;
        int lo, hi;
    } num[] = {{FLAG_WIDTH, RENDER_MIN_W, RENDER_MAX_W},
               {FLAG_HEIGHT, 10, RENDER_MAX_H},
               {FLAG_CURSOR, 0, CLUSTER_MAX_GPUS},
               {FLAG_SELECT, 0, CLUSTER_MAX_GPUS}};
    int *slot[] = {&o->width, &o->height, &o->cursor, &o->select};
    for (size_t i = 0; i < sizeof num / sizeof num[0]; i++)
        if (a->set[num[i].f] &&
            !render_int(flags_name(num[i].f), a->str[num[i].f], num[i].lo, num[i].hi, slot[i]))
            return false;
    return true;
}

/* render's own flags (into o) from what flags_parse read; the VIEW is the
 * one operand. Returns CLI_OK or CLI_USAGE. */
static int render_opts(const FlagArgs *a, RenderOpts *o)
{
    memset(o, 0, sizeof *o);
    o->cursor = -1;
    o->select = -1;
    o->group_by = DIM_TP;
    o->sweep = "tp";
    o->help = a->set[FLAG_HELP];
    if (o->help)
        return CLI_OK;
    if (a->n_operands == 0)
        return cli_usage_error("render: which view? rack, fabric, bar or chart "
                               "(try 'scalelab render --help')");
    o->view =
        strcmp(a->operand[0], "scenario") == 0 ? RENDER_SCENARIO : view_kind_parse(a->operand[0]);
    if (o->view < 0)
        return cli_usage_error("render: unknown view '%s' (rack, fabric, bar, chart or "
                               "scenario)",
                               a->operand[0]);
    o->ascii = a->set[FLAG_ASCII] || !utf8_env_is_utf8(); /* as the screen decides */
    o->describe = a->set[FLAG_DESCRIBE];
    o->load = a->set[FLAG_LOAD];
    if (!render_numbers(a, o))
        return CLI_USAGE;
    static const char *const dims[DIM_COUNT] = {"tp", "cp", "ep", "pp", "dp"};
    static const char *const formats[] = {"text", "json"};
    static const char *const colors[] = {"auto", "always", "never"};
    int k;
    if (a->set[FLAG_GROUP_BY]) {
        if ((k = render_word(a, FLAG_GROUP_BY, dims, DIM_COUNT, "tp, cp, ep, pp or dp")) < 0)
            return CLI_USAGE;
        o->group_by = (MappingDim)k;
    }
    if (a->set[FLAG_FORMAT]) {
        if ((k = render_word(a, FLAG_FORMAT, formats, 2, "text or json")) < 0)
            return CLI_USAGE;
        o->json = k == 1;
    }
    if (a->set[FLAG_COLOR]) {
        if ((k = render_word(a, FLAG_COLOR, colors, 3, "auto, always or never")) < 0)
            return CLI_USAGE;
        o->color = k;
    }
    if (a->set[FLAG_SWEEP]) {
        if (!series_param_known(a->str[FLAG_SWEEP]))
            return cli_usage_error("render: --sweep must be tp, pp, cp, ep, dp, mb, domain or "
                                   "gpus (got '%s')",
                                   a->str[FLAG_SWEEP]);
        o->sweep = a->str[FLAG_SWEEP];
    }
    if (a->set[FLAG_VALUES] && !render_values(a->str[FLAG_VALUES], o))
        return CLI_USAGE;
    if (a->set[FLAG_SVG])
        o->svg = a->str[FLAG_SVG];
    if (o->svg && (o->describe || o->json))
        return cli_usage_error("render: --svg draws the picture; it does not go with %s",
                               o->json ? "--format json" : "--describe");
    return CLI_OK;
}

static int render_terminal_width(void)
{
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
#endif
    return 80;
}

/* Prints the first `rows` rows of the canvas. */
static void render_print(const Canvas *cv, int rows, bool colour)
{
    char *text = colour ? canvas_to_ansi(cv) : canvas_to_text(cv);
    /* keep `rows` lines, then drop trailing empty ones */
    char *p = text;
    for (int r = 0; r < rows && *p; r++) {
        char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    *p = '\0';
    size_t len = strlen(text);
    while (len >= 2 && text[len - 1] == '\n' && text[len - 2] == '\n')
        text[--len] = '\0';
    fputs(text, stdout);
    free(text);
}

/* --- --format json ---------------------------------------------------------
 * One object; keys are documented in the man page (render, --format json). */

static void render_json_tier(FILE *out, Tier t, const char *link, double bw, double lat,
                             const StepResult *r)
{
    fputs("{\"tier\": ", out);
    json_string(out, tier_name(t));
    fputs(", \"link\": ", out);
    json_string(out, link);
    fputs(", \"bytes_per_s\": ", out);
    json_number(out, bw);
    fputs(", \"lat_s\": ", out);
    json_number(out, lat);
    if (r) {
        fputs(", \"bytes_per_step\": ", out);
        json_number(out, r->tier_bytes[t]);
        fputs(", \"busy_s\": ", out);
        json_number(out, r->tier_busy_s[t]);
        fputs(", \"load\": ", out);
        json_number(out, r->step_s > 0 ? r->tier_busy_s[t] / r->step_s : 0);
    }
    fputc('}', out);
}

static void render_json(FILE *out, const RenderOpts *o, const Cluster *c, const Workload *w,
                        const Mapping *m, const StepResult *r, const ChartSeries *series)
{
    fputs("{\"view\": ", out);
    json_string(out, view_kind_name((ViewKind)o->view));
    fputs(",\n \"cluster\": {\"system\": ", out);
    json_string(out, c->system_id);
    fputs(", \"name\": ", out);
    json_string(out, c->name);
    fputs(", \"gpu\": ", out);
    json_string(out, c->gpu.id);
    fprintf(out,
            ", \"gpus\": %d, \"domain_gpus\": %d, \"domains\": %d, \"leaves\": %d, "
            "\"spines\": %d, \"sites\": %d, \"oversub\": ",
            c->n_gpus, c->domain_gpus, cluster_domain_count(c), cluster_leaf_count(c),
            cluster_spine_count(c), c->sites);
    json_number(out, c->oversub);
    fprintf(out, ", \"rails\": %s", cluster_rail_unit_gpus(c) > 0 ? "true" : "false");
    fputs("},\n \"tiers\": [", out);
    render_json_tier(out, TIER_UP, c->up_link, c->up_bytes_per_s, c->up_lat_s, r);
    fputs(",\n   ", out);
    render_json_tier(out, TIER_OUT, c->out_link, c->out_bytes_per_s, c->out_lat_s, r);
    if (c->sites > 1) {
        fputs(",\n   ", out);
        render_json_tier(out, TIER_ACROSS, "site-to-site", c->across_bytes_per_s, c->across_lat_s,
                         r);
    }
    fputs("],\n \"workload\": ", out);
    json_string(out, w->id);
    fprintf(out,
            ",\n \"mapping\": {\"tp\": %d, \"cp\": %d, \"ep\": %d, \"pp\": %d, "
            "\"dp\": %d},\n \"groups\": [",
            m->tp, m->cp, m->ep, m->pp, m->dp);
    for (int d = 0; d < DIM_COUNT; d++) {
        GroupSpan g = span_worst(m, c, NULL, (MappingDim)d);
        int size = mapping_dim_size(m, (MappingDim)d);
        fprintf(out,
                "%s{\"dim\": \"%s\", \"size\": %d, \"count\": %d, \"domains\": %d, "
                "\"min_per_domain\": %d, \"sites\": %d, \"crosses_leaf\": %s, "
                "\"letters\": %s}",
                d ? ",\n   " : "", mapping_dim_name((MappingDim)d), size,
                size > 0 ? mapping_world(m) / size : 0, g.domains, g.min_per_domain, g.sites,
                g.crosses_leaf ? "true" : "false", d == (int)o->group_by ? "true" : "false");
    }
    fputc(']', out);
    if (r) {
        fputs(",\n \"step\": {\"step_s\": ", out);
        json_number(out, r->step_s);
        for (int p = 0; p < STEP_PART_COUNT; p++) {
            char key[32];
            snprintf(key, sizeof key, "%s_s", step_part_name((StepPart)p));
            for (char *k = key; *k; k++)
                *k = (char)(*k >= 'A' && *k <= 'Z' ? *k - 'A' + 'a' : *k);
            fprintf(out, ", \"%s\": ", key);
            json_number(out, r->part_s[p]);
        }
        fputs(", \"bottleneck\": ", out);
        json_string(out, r->bottleneck);
        fputc('}', out);
    }
    if (series) {
        fputs(",\n \"chart\": {\"x\": ", out);
        json_string(out, o->sweep);
        fputs(", \"y\": \"step_s\", \"points\": [", out);
        for (int i = 0; i < series->n; i++) {
            fputs(i ? ", {\"x\": " : "{\"x\": ", out);
            json_number(out, series->x[i]);
            fputs(", \"y\": ", out);
            if (series->valid[i])
                json_number(out, series->y[i]);
            else
                fputs("null", out);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fputs("}\n", out);
}

/* --- --svg ---------------------------------------------------------------- */

typedef struct {
    const Canvas *cv;
    int rows;
    const char *title;
} SvgPage;

static bool render_put_svg(FILE *f, const void *ctx)
{
    const SvgPage *p = ctx;
    return svg_write_canvas(p->cv, p->rows, p->title, f);
}

/* Writes the first `rows` rows of cv as SVG to o->svg ("-": stdout) and says
 * where on stdout. Exit 2 with one line when the file cannot be written. */
static int render_svg(const RenderOpts *o, const Canvas *cv, int rows, const char *title)
{
    SvgPage page = {cv, rows, title};
    if (strcmp(o->svg, "-") == 0) {
        if (!render_put_svg(stdout, &page))
            return cli_usage_error("render: cannot write '%s': %s", o->svg, strerror(errno));
        return CLI_OK;
    }
    if (!file_write(o->svg, 0, render_put_svg, &page, NULL, 0))
        return cli_usage_error("render: cannot write '%s': %s", o->svg, strerror(errno));
    printf("wrote %s view to %s\n", view_kind_name((ViewKind)o->view), o->svg);
    return CLI_OK;
}

/* The cluster, workload and mapping of the flags. A rack or fabric picture
 * needs no training batch: when no mapping splits it, the picture is drawn
 * without group letters (have_m false). Everything else needs the mapping
 * and says why there is none. */
static int render_build(const RenderOpts *o, const FlagArgs *a, Cluster *c, Workload *w,
                        Mapping *m, bool *have_m)
{
    SweepOptions given;
    if (!evalflags_build("render", a, c, w, &given))
        return CLI_USAGE;
    evalflags_pin_as_eval(w, &given);
    char err[300];
    *have_m = sweep_find_mapping(c, w, &given, m, NULL, err, sizeof err);
    bool picture = (o->view == VIEW_RACK || o->view == VIEW_FABRIC) && !o->load && !o->json;
    if (!*have_m && !picture)
        return cli_usage_error("render: %s", err);
    if (!*have_m)
        memset(m, 0, sizeof *m);
    return CLI_OK;
}

/* The scenario screen's picture of free play on c, w, m at width x height,
 * as text: its title, then what draw/scenario_view.c draws on the screen
 * (the keys' footer is the terminal's). */
#define RENDER_SCENARIO_MIN_W 80
#define RENDER_SCENARIO_MIN_H 24
#define RENDER_SCENARIO_MAX_W 250
#define RENDER_SCENARIO_MAX_H 70
static int render_scenario(const RenderOpts *o, const Cluster *c, const Workload *w,
                           const Mapping *m)
{
    int width = o->width ? o->width : RENDER_SCENARIO_MIN_W;
    int height = o->height ? o->height : RENDER_SCENARIO_MIN_H;
    if (width < RENDER_SCENARIO_MIN_W || width > RENDER_SCENARIO_MAX_W ||
        height < RENDER_SCENARIO_MIN_H || height > RENDER_SCENARIO_MAX_H)
        return cli_usage_error("render: the scenario screen takes --width %d to %d and "
                               "--height %d to %d",
                               RENDER_SCENARIO_MIN_W, RENDER_SCENARIO_MAX_W, RENDER_SCENARIO_MIN_H,
                               RENDER_SCENARIO_MAX_H);
    char err[300];
    Scenario *s = scenario_new(c, w, m, NULL, SCN_ALLOW_ALL, err, sizeof err);
    if (!s)
        return cli_usage_error("render: %s", err);
    Canvas *cv = canvas_new(width, height);
    canvas_set_ascii(cv, o->ascii);
    char title[300];
    snprintf(title, sizeof title, "Free play %s %s, %d %s %s %s", o->ascii ? "-" : "—", c->name,
             c->n_gpus, hw_noun(&c->gpu, HW_NOUN_MANY), o->ascii ? "-" : "·", w->id);
    int top = text_title_rule(cv, title, "free play");
    canvas_put_text_max(cv, 1, top, width - 2, "Change anything: there is no goal.", STYLE_BOLD);
    ScenarioScreen sv = scenario_view_state(s);
    if (o->cursor >= 0)
        sv.cursor = o->cursor;
    ScenarioDrawn out;
    scenario_view_draw(cv, &sv, top + 2, height - 3, &out);
    render_print(cv, height, false);
    canvas_free(cv);
    scenario_free(s);
    return CLI_OK;
}

/* Draws the view into cv (width x height); returns the rows used. */
static int render_draw(Canvas *cv, const RenderOpts *o, const ViewInput *in, const Cluster *c,
                       const Workload *w, const Mapping *m, const StepResult *r,
                       const ChartSeries *series, int width, int height)
{
    int rows;
    switch (o->view) {
    case VIEW_RACK:
        rows = view_rack_draw(cv, 0, 0, width, height, in);
        break;
    case VIEW_FABRIC:
        rows = view_fabric_draw(cv, 0, 0, width, height, in);
        break;
    case VIEW_BAR: {
        char head[200], ms[64];
        snprintf(head, sizeof head, "Step time of %s on %d %s %s, %s", w->id, c->n_gpus,
                 o->ascii ? "x" : "×", c->name, mapping_format(m, ms, sizeof ms));
        canvas_put_text_max(cv, 0, 0, width, head, STYLE_HEADING);
        rows = 2 + chart_step_bar(cv, 0, 2, width, r, NULL);
        if (r->bottleneck[0])
            rows += text_draw_wrapped(cv, 0, rows, width, 3, r->bottleneck, STYLE_LABEL);
        break;
    }
    default: {
        int h = o->height ? o->height : 16;
        if (h > height)
            h = height;
        rows = chart_line(cv, 0, 0, width, h, series);
        break;
    }
    }
    return rows;
}

int cmd_render(int argc, char **argv)
{
    FlagArgs a;
    RenderOpts o;
    int rc = flags_parse(&flags_render, argc, argv, &a);
    if (rc == CLI_OK)
        rc = render_opts(&a, &o);
    if (rc != CLI_OK)
        return rc;
    if (o.help) {
        fputs(render_help, stdout);
        return CLI_OK;
    }
    Cluster c;
    Workload w;
    Mapping m;
    bool have_m;
    rc = render_build(&o, &a, &c, &w, &m, &have_m);
    if (rc != CLI_OK)
        return rc;
    if (o.cursor >= c.n_gpus)
        return cli_usage_error("render: --cursor %d is not a %s of this cluster (0 to %d)",
                               o.cursor, hw_noun(&c.gpu, 0), c.n_gpus - 1);
    if (o.view == RENDER_SCENARIO)
        return render_scenario(&o, &c, &w, &m);
    bool colour = o.color == 1 || (o.color == 0 && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
    int width = o.width ? o.width : render_terminal_width();
    if (width < RENDER_MIN_W)
        width = RENDER_MIN_W;
    if (width > RENDER_MAX_W)
        width = RENDER_MAX_W;
    int height = o.height ? o.height : RENDER_DEFAULT_H;

    StepResult r;
    char err[MSG_LEN];
    bool need_result = o.view == VIEW_BAR || o.load;
    bool have_result = false;
    if (need_result || o.json) {
        have_result = step_eval(&c, &w, &m, NULL, NULL, &r, err, sizeof err) == STEP_OK;
        if (need_result && !have_result)
            return cli_usage_error("render: %s", err);
    }
    ViewInput in = view_input_default(&c);
    in.mapping = have_m ? &m : NULL;
    in.result = o.load ? &r : NULL;
    in.cursor_gpu = o.cursor;
    in.cursor_group = o.select;
    in.colour_by = o.group_by;

    ChartSeries series;
    if (o.view == VIEW_CHART) {
        if (o.n_values == 0) {
            static const double def[] = {1, 2, 4, 8, 16, 32};
            memcpy(o.values, def, sizeof def);
            o.n_values = 6;
        }
        if (!series_step_time(&series, &c, &w, &m, o.sweep, o.values, o.n_values, o.ascii, err,
                              sizeof err))
            return cli_usage_error("render: %s", err);
    }

    if (o.json) {
        render_json(stdout, &o, &c, &w, &m, have_result ? &r : NULL,
                    o.view == VIEW_CHART ? &series : NULL);
        return CLI_OK;
    }

    if (o.describe) {
        char *d;
        if (o.view == VIEW_BAR)
            d = chart_step_bar_describe(&r, NULL, o.ascii);
        else if (o.view == VIEW_CHART)
            d = chart_line_describe(&series);
        else
            d = view_describe((ViewKind)o.view, &in, width, o.ascii);
        fputs(d, stdout);
        free(d);
        return CLI_OK;
    }

    Canvas *cv = canvas_new(width, height);
    canvas_set_ascii(cv, o.ascii);
    int rows = render_draw(cv, &o, &in, &c, &w, &m, &r, &series, width, height);
    rc = CLI_OK;
    if (o.svg) {
        char title[256], ms[64];
        snprintf(title, sizeof title, "scalelab %s view: %s on %d %s %s, %s",
                 view_kind_name((ViewKind)o.view), w.id, c.n_gpus, o.ascii ? "x" : "×", c.name,
                 mapping_format(&m, ms, sizeof ms));
        rc = render_svg(&o, cv, rows, title);
    } else {
        render_print(cv, rows, colour);
    }
    canvas_free(cv);
    return rc;
}
