/* SPDX-License-Identifier: MIT */
/* presets_doc — the presets' lists in lessons/AUTHORING.md and the man page,
 * made from the compiled-in tables (model/hw.h, model/workload.h) so the
 * docs name every system, GPU and model the program knows, with the figures
 * `eval --list` prints. `scalelab eval --list --format markdown|man` writes
 * them; scripts/update-preset-docs puts them between the marker lines of
 * both files, and tests/suites/docs.sh fails when the files drift.
 */
#include "cmd/presets_doc.h"

#include "model/hw.h"
#include "model/units.h"
#include "model/workload.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Text as a roff line needs it: '-' as \-, a backslash doubled, \& in
 * front of a leading '.' or '\'' (a request otherwise), and the space after
 * a number unbreakable, so that "200 Gb/s" stays on one line. */
static void presets_doc_roff(FILE *out, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", out);
    for (const char *c = s; *c; c++) {
        if (*c == '-' || *c == '\\' || (*c == ' ' && c > s && isdigit((unsigned char)c[-1])))
            fputc('\\', out);
        fputc(*c, out);
    }
}

/* One system's figures: "8 x H100 SXM", "450 GB/s (NVLink 4)",
 * "400 Gb/s = 50.0 GB/s (ConnectX-7 ...)". */
typedef struct {
    char domain[96], up[96], out[128];
} SystemText;

static SystemText presets_doc_system(const SystemSpec *s)
{
    SystemText t;
    char a[40], b[64];
    const GpuSpec *g = hw_gpu_find(s->gpu_id);
    snprintf(t.domain, sizeof t.domain, "%d x %s", s->domain_gpus, g ? g->name : s->gpu_id);
    units_format(UNITS_BANDWIDTH, s->up_bytes_per_s, true, a, sizeof a);
    snprintf(t.up, sizeof t.up, "%s (%s)", a, s->up_link);
    units_format_bits_bytes(s->out_bytes_per_s, b, sizeof b);
    snprintf(t.out, sizeof t.out, "%s (%s)", b, s->out_link);
    return t;
}

/* One GPU's figures: "990 TFLOP/s", "85.9 GB", "3.35 TB/s". */
typedef struct {
    char flops[40], hbm[40], hbm_bw[40];
} GpuText;

static GpuText presets_doc_gpu(const GpuSpec *g)
{
    GpuText t;
    units_format(UNITS_FLOPS, g->bf16_flops, true, t.flops, sizeof t.flops);
    units_format(UNITS_BYTES, g->hbm_bytes, true, t.hbm, sizeof t.hbm);
    units_format(UNITS_BANDWIDTH, g->hbm_bytes_per_s, true, t.hbm_bw, sizeof t.hbm_bw);
    return t;
}

/* "96 layers, hidden 12288, 96 heads, seq 2048, batch 1536[, 256 experts top-8]" */
static void presets_doc_shape(const Workload *w, char *buf, size_t n)
{
    int k = snprintf(buf, n, "%d layers, hidden %d, %d heads, seq %d, batch %d", w->layers,
                     w->hidden, w->heads, w->seq, w->global_batch);
    if (workload_is_moe(w) && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ", %d experts top-%d", w->experts, w->topk);
}

static void presets_doc_markdown(FILE *out)
{
    fputs("Systems (bandwidths per GPU, each way):\n\n"
          "| system | name | scale-up domain | scale-up | scale-out |\n"
          "| --- | --- | --- | --- | --- |\n",
          out);
    for (int i = 0; i < hw_system_count(); i++) {
        const SystemSpec *s = hw_system_at(i);
        SystemText t = presets_doc_system(s);
        fprintf(out, "| `%s` | %s | %s | %s | %s |\n", s->id, s->name, t.domain, t.up, t.out);
    }
    fputs("\nGPUs:\n\n| GPU | name | dense BF16 | HBM | HBM bandwidth |\n"
          "| --- | --- | --- | --- | --- |\n",
          out);
    for (int i = 0; i < hw_gpu_count(); i++) {
        const GpuSpec *g = hw_gpu_at(i);
        GpuText t = presets_doc_gpu(g);
        fprintf(out, "| `%s` | %s | %s | %s | %s |\n", g->id, g->name, t.flops, t.hbm, t.hbm_bw);
    }
    fputs("\nWorkloads:\n\n| model | name | parameters | shape |\n| --- | --- | --- | --- |\n",
          out);
    for (int i = 0; i < workload_preset_count(); i++) {
        const WorkloadPreset *p = workload_preset_at(i);
        char shape[160];
        presets_doc_shape(&p->w, shape, sizeof shape);
        fprintf(out, "| `%s` | %s | %.0fB | %s |\n", p->id, p->name, workload_params(&p->w) / 1e9,
                shape);
    }
}

/* One .TP entry: the id in bold, then the text. */
static void presets_doc_man_entry(FILE *out, const char *id, const char *text)
{
    fputs(".TP\n.B ", out);
    presets_doc_roff(out, id);
    fputc('\n', out);
    presets_doc_roff(out, text);
    fputc('\n', out);
}

static void presets_doc_man(FILE *out)
{
    char line[400];
    fputs(".SS Systems\nBandwidths are per GPU, each way.\n", out);
    for (int i = 0; i < hw_system_count(); i++) {
        const SystemSpec *s = hw_system_at(i);
        SystemText t = presets_doc_system(s);
        snprintf(line, sizeof line, "%s: %s per domain; scale-up %s; scale-out %s.", s->name,
                 t.domain, t.up, t.out);
        presets_doc_man_entry(out, s->id, line);
    }
    fputs(".SS GPUs\n", out);
    for (int i = 0; i < hw_gpu_count(); i++) {
        const GpuSpec *g = hw_gpu_at(i);
        GpuText t = presets_doc_gpu(g);
        snprintf(line, sizeof line, "%s: %s dense BF16, %s of HBM at %s.", g->name, t.flops, t.hbm,
                 t.hbm_bw);
        presets_doc_man_entry(out, g->id, line);
    }
    fputs(".SS Models\n", out);
    for (int i = 0; i < workload_preset_count(); i++) {
        const WorkloadPreset *p = workload_preset_at(i);
        char shape[160];
        presets_doc_shape(&p->w, shape, sizeof shape);
        snprintf(line, sizeof line, "%s, %.0fB parameters: %s.", p->name,
                 workload_params(&p->w) / 1e9, shape);
        presets_doc_man_entry(out, p->id, line);
    }
}

bool presets_doc_write(FILE *out, const char *format)
{
    if (strcmp(format, "markdown") == 0)
        presets_doc_markdown(out);
    else if (strcmp(format, "man") == 0)
        presets_doc_man(out);
    else
        return false;
    return true;
}
