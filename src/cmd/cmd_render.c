/* cmd_render — `scalelab render VIEW [FLAGS]`: one view (rack, fabric, bar
 * or chart) of a cluster, workload and mapping, printed to stdout as UTF-8,
 * ASCII or ANSI-coloured text, as a plain description (--describe), as a
 * JSON description (--format json: the same facts as data) or as an SVG file
 * (--svg FILE, "-" for stdout; svg.h draws the same canvas with the same
 * layout and colours).
 *
 * The cluster/workload/mapping flags are exactly eval's (evalflags.h); this
 * file only adds the output flags. Colour: --color auto (the default) colours
 * only when stdout is a terminal and NO_COLOR is unset. Width: --width, else
 * the terminal's, else 80. Bad flags: one line on stderr, exit 2.
 */
#include "base/file.h"
#include "base/xmem.h"
#include "cmd/cli.h"
#include "cmd/evalflags.h"
#include "cmd/json.h"
#include "draw/canvas.h"
#include "draw/charts.h"
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

#define RENDER_MIN_W 40
#define RENDER_MAX_W 400
#define RENDER_MAX_H 200
#define RENDER_DEFAULT_H 60

static const char render_help[] =
    "Usage: scalelab render VIEW [FLAGS]\n"
    "Prints a diagram or chart of a cluster to stdout.\n"
    "\n"
    "Views: rack, fabric, bar (step-time breakdown), chart (step time against a sweep).\n"
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

typedef struct {
    int view;
    int width, height;
    bool ascii, describe, load, help, json;
    const char *svg; /* --svg FILE, NULL: none */
    int color; /* 0 auto, 1 always, 2 never */
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
        cli_usage_error("render: --%s must be a whole number from %d to %d (got '%s')", flag,
                        lo, hi, text);
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
                            "(got '%s')", CHART_MAX_POINTS, text);
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

static int render_dim(const char *s)
{
    static const char *const names[DIM_COUNT] = {"tp", "cp", "ep", "pp", "dp"};
    for (int d = 0; d < DIM_COUNT; d++)
        if (strcmp(s, names[d]) == 0)
            return d;
    return -1;
}

/* Splits argv into render's own flags (into o) and eval's (into ev, which
 * starts with "render"). Returns CLI_OK or CLI_USAGE. */
static int render_parse(int argc, char **argv, RenderOpts *o, int *ev_argc, char **ev)
{
    memset(o, 0, sizeof *o);
    o->cursor = -1;
    o->select = -1;
    o->group_by = DIM_TP;
    o->sweep = "tp";
    *ev_argc = 0;
    ev[(*ev_argc)++] = argv[0];
    int i = 1;
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        o->help = true;
        return CLI_OK;
    }
    if (argc < 2 || argv[1][0] == '-')
        return cli_usage_error("render: which view? rack, fabric, bar or chart "
                               "(try 'scalelab render --help')");
    o->view = view_kind_parse(argv[1]);
    if (o->view < 0)
        return cli_usage_error("render: unknown view '%s' (rack, fabric, bar or chart)", argv[1]);
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        char name[32];
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        snprintf(name, sizeof name, "%.*s", (int)(len < 31 ? len : 31), a);
        static const char *const with_value[] = {"--width", "--height", "--color", "--colour",
                                                 "--cursor", "--group-by", "--sweep",
                                                 "--values", "--select", "--svg",
                                                 "--format"};
        bool ours_value = false;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            if (strcmp(name, with_value[k]) == 0)
                ours_value = true;
        if (ours_value) {
            const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v)
                return cli_usage_error("render: %s needs a value", name);
            if (strcmp(name, "--width") == 0) {
                if (!render_int("width", v, RENDER_MIN_W, RENDER_MAX_W, &o->width))
                    return CLI_USAGE;
            } else if (strcmp(name, "--height") == 0) {
                if (!render_int("height", v, 10, RENDER_MAX_H, &o->height))
                    return CLI_USAGE;
            } else if (strcmp(name, "--cursor") == 0) {
                if (!render_int("cursor", v, 0, CLUSTER_MAX_GPUS, &o->cursor))
                    return CLI_USAGE;
            } else if (strcmp(name, "--select") == 0) {
                if (!render_int("select", v, 0, CLUSTER_MAX_GPUS, &o->select))
                    return CLI_USAGE;
            } else if (strcmp(name, "--group-by") == 0) {
                int d = render_dim(v);
                if (d < 0)
                    return cli_usage_error("render: --group-by must be tp, cp, ep, pp or dp "
                                           "(got '%s')", v);
                o->group_by = (MappingDim)d;
            } else if (strcmp(name, "--sweep") == 0) {
                if (!series_param_known(v))
                    return cli_usage_error("render: --sweep must be tp, pp, cp, ep, dp, mb, "
                                           "domain or gpus (got '%s')", v);
                o->sweep = v;
            } else if (strcmp(name, "--values") == 0) {
                if (!render_values(v, o))
                    return CLI_USAGE;
            } else if (strcmp(name, "--svg") == 0) {
                if (!*v)
                    return cli_usage_error("render: --svg needs a file name ('-': stdout)");
                o->svg = v;
            } else if (strcmp(name, "--format") == 0) {
                if (strcmp(v, "json") == 0)
                    o->json = true;
                else if (strcmp(v, "text") == 0)
                    o->json = false;
                else
                    return cli_usage_error("render: --format must be text or json (got '%s')",
                                           v);
            } else {
                if (strcmp(v, "auto") == 0)
                    o->color = 0;
                else if (strcmp(v, "always") == 0)
                    o->color = 1;
                else if (strcmp(v, "never") == 0)
                    o->color = 2;
                else
                    return cli_usage_error("render: --color must be auto, always or never "
                                           "(got '%s')", v);
            }
            continue;
        }
        if (strcmp(a, "--ascii") == 0)
            o->ascii = true;
        else if (strcmp(a, "--describe") == 0)
            o->describe = true;
        else if (strcmp(a, "--load") == 0)
            o->load = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            o->help = true;
        else if (strncmp(a, "--", 2) != 0)
            return cli_usage_error("render: unexpected argument '%s' (flags start with --)", a);
        else {
            /* eval's flag: pass it on with its value */
            ev[(*ev_argc)++] = argv[i];
            if (!eq && i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0)
                ev[(*ev_argc)++] = argv[++i];
        }
    }
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
    fprintf(out, ", \"gpus\": %d, \"domain_gpus\": %d, \"domains\": %d, \"leaves\": %d, "
                 "\"spines\": %d, \"sites\": %d, \"oversub\": ",
            c->n_gpus, c->domain_gpus, cluster_domain_count(c), cluster_leaf_count(c),
            cluster_spine_count(c), c->sites);
    json_number(out, c->oversub);
    fputs("},\n \"tiers\": [", out);
    render_json_tier(out, TIER_UP, c->up_link, c->up_bytes_per_s, c->up_lat_s, r);
    fputs(",\n   ", out);
    render_json_tier(out, TIER_OUT, c->out_link, c->out_bytes_per_s, c->out_lat_s, r);
    if (c->sites > 1) {
        fputs(",\n   ", out);
        render_json_tier(out, TIER_ACROSS, "site-to-site", c->across_bytes_per_s,
                         c->across_lat_s, r);
    }
    fputs("],\n \"workload\": ", out);
    json_string(out, w->id);
    fprintf(out, ",\n \"mapping\": {\"tp\": %d, \"cp\": %d, \"ep\": %d, \"pp\": %d, "
                 "\"dp\": %d},\n \"groups\": [",
            m->tp, m->cp, m->ep, m->pp, m->dp);
    for (int d = 0; d < DIM_COUNT; d++) {
        GroupSpan g = span_worst(m, c, NULL, (MappingDim)d);
        int size = mapping_dim_size(m, (MappingDim)d);
        fprintf(out, "%s{\"dim\": \"%s\", \"size\": %d, \"count\": %d, \"domains\": %d, "
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

int cmd_render(int argc, char **argv)
{
    RenderOpts o;
    int ev_argc;
    char **ev = xcalloc((size_t)argc + 1, sizeof *ev);
    int rc = render_parse(argc, argv, &o, &ev_argc, ev);
    if (rc != CLI_OK || o.help) {
        if (o.help && rc == CLI_OK)
            fputs(render_help, stdout);
        free(ev);
        return rc;
    }
    Cluster c;
    Workload w;
    Mapping m;
    rc = evalflags_mapping(ev_argc, ev, &c, &w, &m);
    free(ev);
    if (rc != CLI_OK)
        return rc;
    if (o.cursor >= c.n_gpus)
        return cli_usage_error("render: --cursor %d is not a GPU of this cluster (0 to %d)",
                               o.cursor, c.n_gpus - 1);
    bool colour = o.color == 1 || (o.color == 0 && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
    int width = o.width ? o.width : render_terminal_width();
    if (width < RENDER_MIN_W)
        width = RENDER_MIN_W;
    if (width > RENDER_MAX_W)
        width = RENDER_MAX_W;
    int height = o.height ? o.height : RENDER_DEFAULT_H;

    StepResult r;
    char err[300];
    bool need_result = o.view == VIEW_BAR || o.load;
    bool have_result = false;
    if (need_result || o.json) {
        have_result = step_eval(&c, &w, &m, NULL, NULL, &r, err, sizeof err) == STEP_OK;
        if (need_result && !have_result)
            return cli_usage_error("render: %s", err);
    }
    ViewInput in = view_input_default(&c);
    in.mapping = &m;
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
    int rows;
    switch (o.view) {
    case VIEW_RACK:
        rows = view_rack_draw(cv, 0, 0, width, height, &in);
        break;
    case VIEW_FABRIC:
        rows = view_fabric_draw(cv, 0, 0, width, height, &in);
        break;
    case VIEW_BAR: {
        char head[200], ms[64];
        snprintf(head, sizeof head, "Step time of %s on %d %s %s, %s", w.id, c.n_gpus,
                 o.ascii ? "x" : "×", c.name, mapping_format(&m, ms, sizeof ms));
        canvas_put_text_max(cv, 0, 0, width, head, STYLE_HEADING);
        rows = 2 + chart_step_bar(cv, 0, 2, width, &r, NULL);
        if (r.bottleneck[0])
            rows += text_draw_wrapped(cv, 0, rows, width, 3, r.bottleneck, STYLE_LABEL);
        break;
    }
    default: {
        int h = o.height ? o.height : 16;
        if (h > height)
            h = height;
        rows = chart_line(cv, 0, 0, width, h, &series);
        break;
    }
    }
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
