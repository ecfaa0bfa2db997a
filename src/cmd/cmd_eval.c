/* cmd_eval — `scalelab eval`: one cluster, workload and mapping from flags or
 * presets, evaluated by the bandwidth model, printed as a small table or as
 * one JSON object.
 *
 * The flags and JSON keys are a contract (issue 3, item 6) that lessons,
 * tests and scripts rely on: add, never rename. Explicit flags override a
 * preset's figures. Bad flags and impossible mappings print one line naming
 * the problem and exit 2; a job that does not fit in memory still evaluates
 * (exit 0, "fits": false).
 *
 * Only this file does I/O for the model; it never includes curses or Lua.
 */
#include "cmd/cli.h"
#include "cmd/json.h"
#include "cmd/evalflags.h"
#include "model/cluster.h"
#include "model/hw.h"
#include "model/mapping.h"
#include "model/step.h"
#include "model/sweep.h"
#include "model/units.h"
#include "model/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVAL_DEFAULT_SYSTEM "dgx-h100"
#define EVAL_DEFAULT_MODEL "llama3-8b"
#define EVAL_MAX_PARAMS 1e18 /* a sanity cap on input, a million times GPT-3 */

/* Every flag; the value kinds say how its text is parsed. */
typedef enum {
    F_SYSTEM, F_GPUS, F_GPU, F_DOMAIN, F_UP, F_OUT, F_OVERSUB, F_SITES, F_ACROSS, F_ACROSS_LAT,
    F_MODEL, F_LAYERS, F_HIDDEN, F_HEADS, F_KV_HEADS, F_FFN, F_SEQ, F_VOCAB, F_PARAMS,
    F_BATCH, F_MB, F_EXPERTS, F_TOPK, F_RECOMPUTE, F_PRECISION, F_SWIGLU, F_FLASH,
    F_TP, F_PP, F_DP, F_EP, F_CP, F_INTERLEAVE, F_ZERO, F_ETP,
    F_JSON, F_FORMAT, F_LIST, F_HELP,
    F_COUNT
} EvalFlag;

typedef enum { V_NONE, V_STRING, V_INT, V_BW, V_RATIO, V_TIME, V_BIG } ValueKind;

static const struct {
    const char *name;
    ValueKind kind;
} flag_table[F_COUNT] = {
    [F_SYSTEM] = {"system", V_STRING},   [F_GPUS] = {"gpus", V_INT},
    [F_GPU] = {"gpu", V_STRING},         [F_DOMAIN] = {"domain", V_INT},
    [F_UP] = {"up", V_BW},               [F_OUT] = {"out", V_BW},
    [F_OVERSUB] = {"oversub", V_RATIO},  [F_SITES] = {"sites", V_INT},
    [F_ACROSS] = {"across", V_BW},       [F_ACROSS_LAT] = {"across-lat", V_TIME},
    [F_MODEL] = {"model", V_STRING},     [F_LAYERS] = {"layers", V_INT},
    [F_HIDDEN] = {"hidden", V_INT},      [F_HEADS] = {"heads", V_INT},
    [F_KV_HEADS] = {"kv-heads", V_INT},  [F_FFN] = {"ffn", V_INT},
    [F_SEQ] = {"seq", V_INT},            [F_VOCAB] = {"vocab", V_INT},
    [F_PARAMS] = {"params", V_BIG},      [F_BATCH] = {"batch", V_INT},
    [F_MB] = {"mb", V_INT},              [F_EXPERTS] = {"experts", V_INT},
    [F_TOPK] = {"topk", V_INT},          [F_RECOMPUTE] = {"recompute", V_STRING},
    [F_PRECISION] = {"precision", V_STRING}, [F_SWIGLU] = {"swiglu", V_STRING},
    [F_FLASH] = {"flash-attention", V_STRING},
    [F_TP] = {"tp", V_INT},              [F_PP] = {"pp", V_INT},
    [F_DP] = {"dp", V_INT},              [F_EP] = {"ep", V_INT},
    [F_CP] = {"cp", V_INT},              [F_INTERLEAVE] = {"interleave", V_INT},
    [F_ZERO] = {"zero", V_INT},          [F_ETP] = {"etp", V_INT},
    [F_JSON] = {"json", V_NONE},
    [F_FORMAT] = {"format", V_STRING},   [F_LIST] = {"list", V_NONE},
    [F_HELP] = {"help", V_NONE},
};

typedef struct {
    bool set[F_COUNT];
    const char *str[F_COUNT];
    double num[F_COUNT];
} EvalArgs;

static const char eval_help[] =
    "Usage: scalelab eval [FLAGS]\n"
    "Evaluates one training step of a workload on a cluster under a mapping.\n"
    "\n"
    "Cluster (explicit flags override the preset's figures):\n"
    "  --system NAME      a system preset (default " EVAL_DEFAULT_SYSTEM "; see --list)\n"
    "  --gpus N           GPUs in the cluster (default: the preset's, or TPxCPxPPxDP)\n"
    "  --gpu NAME         GPU preset (a100-sxm, h100-sxm, h200, b200, gb200, gb300, tpu-v5p)\n"
    "  --domain N         GPUs per scale-up domain\n"
    "  --up BW            scale-up bandwidth per GPU, one direction (\"450 GB/s\")\n"
    "  --out BW           scale-out NIC per GPU, one direction (\"400G\", \"50 GB/s\")\n"
    "  --oversub R        leaf-to-spine oversubscription (1 = full bisection)\n"
    "  --sites N --across BW [--across-lat TIME]   split over N sites joined by BW\n"
    "Workload:\n"
    "  --model NAME       a model preset (default " EVAL_DEFAULT_MODEL "; see --list)\n"
    "  --layers --hidden --heads --kv-heads --ffn --seq --vocab --params   the shape\n"
    "  --batch N          global batch, sequences      --mb N   micro-batch\n"
    "  --experts N --topk K                            mixture of experts\n"
    "  --recompute none|selective|full                 --precision bf16|fp8\n"
    "  --swiglu on|off --flash-attention on|off\n"
    "Mapping (what is not given is searched, as 'scalelab sweep' does: the fastest\n"
    "legal mapping that fits, else the one that needs least memory):\n"
    "  --tp --pp --dp --ep --cp N   --interleave V   --zero 0|1|2|3 (default 1)\n"
    "  --etp N            expert tensor parallelism (default 1); experts fold over the\n"
    "                     TP x CP x DP ranks, so EP x ETP must divide TP x CP x DP\n"
    "Output:\n"
    "  --json, --format json|text   --list (presets with their figures)\n";

static bool parse_value(EvalFlag f, const char *text, EvalArgs *a)
{
    char err[200];
    double v;
    switch (flag_table[f].kind) {
    case V_NONE:
        return true;
    case V_STRING:
        if (!*text) {
            cli_usage_error("eval: --%s needs a value", flag_table[f].name);
            return false;
        }
        a->str[f] = text;
        return true;
    case V_INT:
    case V_BIG:
        if (!units_parse(UNITS_COUNT, text, &v, err, sizeof err)) {
            cli_usage_error("eval: --%s: %s", flag_table[f].name, err);
            return false;
        }
        if (flag_table[f].kind == V_INT) {
            if (v != floor(v)) {
                cli_usage_error("eval: --%s %s: expected a whole number", flag_table[f].name,
                                text);
                return false;
            }
            if (v > CLUSTER_MAX_GPUS && (f == F_GPUS || f == F_DOMAIN || f == F_TP ||
                                         f == F_PP || f == F_DP || f == F_CP || f == F_EP)) {
                cli_usage_error("eval: --%s %s is more than scalelab models (at most %d)",
                                flag_table[f].name, text, CLUSTER_MAX_GPUS);
                return false;
            }
            if (v > 2e9) {
                cli_usage_error("eval: --%s %s is too large", flag_table[f].name, text);
                return false;
            }
        }
        a->num[f] = v;
        return true;
    case V_BW:
        if (!units_parse(UNITS_BANDWIDTH, text, &v, err, sizeof err)) {
            cli_usage_error("eval: --%s: %s", flag_table[f].name, err);
            return false;
        }
        a->num[f] = v;
        return true;
    case V_TIME:
        if (!units_parse(UNITS_TIME, text, &v, err, sizeof err)) {
            cli_usage_error("eval: --%s: %s", flag_table[f].name, err);
            return false;
        }
        a->num[f] = v;
        return true;
    case V_RATIO: {
        /* "3", "3:1" */
        char buf[32];
        snprintf(buf, sizeof buf, "%s", text);
        char *colon = strchr(buf, ':');
        if (colon && strcmp(colon, ":1") == 0)
            *colon = '\0';
        if (!units_parse(UNITS_COUNT, buf, &v, err, sizeof err)) {
            cli_usage_error("eval: --%s: %s", flag_table[f].name, err);
            return false;
        }
        a->num[f] = v;
        return true;
    }
    }
    return false;
}

/* Returns CLI_OK, or CLI_USAGE after printing the one-line reason. */
static int parse_args(int argc, char **argv, EvalArgs *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            return cli_usage_error("eval: unexpected argument '%s' (flags start with --; "
                                   "try 'scalelab eval --help')",
                                   arg);
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        int f = -1;
        for (int k = 0; k < F_COUNT; k++)
            if (strlen(flag_table[k].name) == len && strncmp(flag_table[k].name, name, len) == 0)
                f = k;
        if (f < 0)
            return cli_usage_error("eval: unknown flag '%.*s' (try 'scalelab eval --help')",
                                   (int)(len + 2), arg);
        if (a->set[f])
            return cli_usage_error("eval: --%s given twice", flag_table[f].name);
        const char *value = NULL;
        if (flag_table[f].kind == V_NONE) {
            if (eq)
                return cli_usage_error("eval: --%s takes no value", flag_table[f].name);
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return cli_usage_error("eval: --%s needs a value", flag_table[f].name);
        }
        a->set[f] = true;
        for (const unsigned char *q = (const unsigned char *)value; q && *q; q++)
            if (*q < 0x20 || *q == 0x7f)
                return cli_usage_error("eval: --%s: the value contains a control character",
                                       flag_table[f].name);
        if (value && !parse_value((EvalFlag)f, value, a))
            return CLI_USAGE;
    }
    return CLI_OK;
}

static int as_int(const EvalArgs *a, EvalFlag f)
{
    return (int)a->num[f];
}

/* A positive whole-number flag; prints the reason and returns false if < 1. */
static bool need_positive(const EvalArgs *a, EvalFlag f)
{
    if (a->set[f] && a->num[f] < 1) {
        cli_usage_error("eval: --%s must be at least 1", flag_table[f].name);
        return false;
    }
    return true;
}

static bool on_off(const EvalArgs *a, EvalFlag f, bool *out)
{
    const char *s = a->str[f];
    if (strcmp(s, "on") == 0 || strcmp(s, "yes") == 0 || strcmp(s, "1") == 0)
        *out = true;
    else if (strcmp(s, "off") == 0 || strcmp(s, "no") == 0 || strcmp(s, "0") == 0)
        *out = false;
    else {
        cli_usage_error("eval: --%s must be on or off (got '%s')", flag_table[f].name, s);
        return false;
    }
    return true;
}

static bool build_cluster(const EvalArgs *a, Cluster *c)
{
    char err[300];
    const char *system = a->str[F_SYSTEM];
    if (!system && a->set[F_GPU]) {
        /* a custom cluster around that GPU: start from the first system using it */
        for (int i = 0; i < hw_system_count() && !system; i++)
            if (strcmp(hw_system_at(i)->gpu_id, a->str[F_GPU]) == 0)
                system = hw_system_at(i)->id;
    }
    if (!system)
        system = EVAL_DEFAULT_SYSTEM;
    if (!cluster_from_system(c, system, 0, err, sizeof err)) {
        cli_usage_error("eval: --system: %s", err);
        return false;
    }
    bool custom = false;
    if (a->set[F_GPU]) {
        const GpuSpec *g = hw_gpu_find(a->str[F_GPU]);
        if (!g) {
            char names[200] = "";
            for (int i = 0; i < hw_gpu_count(); i++) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                         hw_gpu_at(i)->id);
            }
            cli_usage_error("eval: unknown GPU '%s' (known: %s)", a->str[F_GPU], names);
            return false;
        }
        if (strcmp(g->id, c->gpu.id) != 0)
            custom = true;
        c->gpu = *g;
    }
    if (!need_positive(a, F_GPUS) || !need_positive(a, F_DOMAIN) || !need_positive(a, F_SITES))
        return false;
    if (a->set[F_GPUS])
        cluster_set_gpus(c, as_int(a, F_GPUS));
    if (a->set[F_DOMAIN]) {
        c->domain_gpus = as_int(a, F_DOMAIN);
        custom = true;
    }
    if (a->set[F_UP]) {
        cluster_set_up_bw(c, a->num[F_UP]);
        custom = true;
    }
    if (a->set[F_OUT]) {
        cluster_set_out_bw(c, a->num[F_OUT]);
        custom = true;
    }
    if (a->set[F_OVERSUB]) {
        c->oversub = a->num[F_OVERSUB];
        custom = true;
    }
    if (a->set[F_SITES]) {
        c->sites = as_int(a, F_SITES);
        /* fibre at ~5 us/km: 1 ms one way is ~200 km apart [U] */
        c->across_lat_s = 1e-3;
    }
    if (a->set[F_ACROSS])
        c->across_bytes_per_s = a->num[F_ACROSS];
    if (a->set[F_ACROSS_LAT])
        c->across_lat_s = a->num[F_ACROSS_LAT];
    if ((a->set[F_ACROSS] || a->set[F_ACROSS_LAT]) && !a->set[F_SITES]) {
        cli_usage_error("eval: --across needs --sites N (how many sites the cluster spans)");
        return false;
    }
    if (custom)
        snprintf(c->system_id, sizeof c->system_id, "custom");
    return true;
}

/* The workload --model names (default EVAL_DEFAULT_MODEL), or a custom
 * shape when --layers, --hidden or --heads come without --model. */
static bool workload_start(const EvalArgs *a, Workload *w)
{
    const bool shape = a->set[F_LAYERS] || a->set[F_HIDDEN] || a->set[F_HEADS];
    const char *model = a->str[F_MODEL];
    if (model || !shape) {
        const WorkloadPreset *p = workload_preset_find(model ? model : EVAL_DEFAULT_MODEL);
        if (!p) {
            char names[200] = "";
            for (int i = 0; i < workload_preset_count(); i++) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                         workload_preset_at(i)->id);
            }
            cli_usage_error("eval: unknown model '%s' (known: %s)", model, names);
            return false;
        }
        *w = p->w;
        return true;
    }
    if (!a->set[F_LAYERS] || !a->set[F_HIDDEN] || !a->set[F_HEADS]) {
        cli_usage_error("eval: a custom model needs --layers, --hidden and --heads "
                        "(or use --model NAME)");
        return false;
    }
    memset(w, 0, sizeof *w);
    snprintf(w->id, sizeof w->id, "custom");
    w->seq = 2048;
    w->vocab = 51200;
    w->global_batch = 512;
    w->micro_batch = 1;
    w->recompute = WL_RECOMPUTE_NONE;
    w->precision = WL_BF16;
    w->flash_attention = true;
    return true;
}

/* The shape flags over the start; a changed shape derives its parameter
 * count again unless --params gives it. */
static bool workload_shape(const EvalArgs *a, Workload *w)
{
    const bool custom = !a->str[F_MODEL];
    const bool shape = a->set[F_LAYERS] || a->set[F_HIDDEN] || a->set[F_HEADS];
    const EvalFlag changes[] = {F_LAYERS, F_HIDDEN, F_HEADS, F_KV_HEADS, F_FFN, F_VOCAB,
                                F_EXPERTS};
    bool changed_shape = false;
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++)
        changed_shape |= a->set[changes[i]];
    if (a->set[F_LAYERS])
        w->layers = as_int(a, F_LAYERS);
    if (a->set[F_HIDDEN]) {
        w->hidden = as_int(a, F_HIDDEN);
        if (!a->set[F_FFN] && shape && custom)
            w->ffn = 4 * w->hidden;
    }
    if (a->set[F_HEADS]) {
        w->heads = as_int(a, F_HEADS);
        if (!a->set[F_KV_HEADS] && custom)
            w->kv_heads = w->heads;
    }
    if (a->set[F_KV_HEADS])
        w->kv_heads = as_int(a, F_KV_HEADS);
    if (a->set[F_FFN])
        w->ffn = as_int(a, F_FFN);
    if (a->set[F_SEQ])
        w->seq = as_int(a, F_SEQ);
    if (a->set[F_VOCAB])
        w->vocab = as_int(a, F_VOCAB);
    if (a->set[F_EXPERTS]) {
        w->experts = as_int(a, F_EXPERTS);
        if (!a->set[F_TOPK] && w->topk < 1 && w->experts > 1)
            w->topk = 1;
    }
    if (a->set[F_TOPK])
        w->topk = as_int(a, F_TOPK);
    if (a->set[F_PARAMS]) {
        if (!(a->num[F_PARAMS] > 0)) {
            cli_usage_error("eval: --params must be positive");
            return false;
        }
        if (a->num[F_PARAMS] > EVAL_MAX_PARAMS) {
            cli_usage_error("eval: --params %g is more than scalelab models (at most %g)",
                            a->num[F_PARAMS], EVAL_MAX_PARAMS);
            return false;
        }
        w->params = a->num[F_PARAMS];
    } else if (changed_shape) {
        w->params = 0; /* derive from the new shape */
    }
    if (changed_shape && !custom)
        snprintf(w->id, sizeof w->id, "custom");
    return true;
}

/* The value of a word flag among words[0..n): its index, or -1 after
 * printing "--flag must be a, b or c (got 'x')". */
static int pick_word(const EvalArgs *a, EvalFlag f, const char *const *words, int n,
                     const char *list)
{
    for (int i = 0; i < n; i++)
        if (strcmp(a->str[f], words[i]) == 0)
            return i;
    cli_usage_error("eval: --%s must be %s (got '%s')", flag_table[f].name, list, a->str[f]);
    return -1;
}

/* How the step runs: batch, micro-batch, recompute, precision, kernels. */
static bool workload_run(const EvalArgs *a, Workload *w)
{
    if (a->set[F_BATCH])
        w->global_batch = as_int(a, F_BATCH);
    if (a->set[F_MB])
        w->micro_batch = as_int(a, F_MB);
    if (a->set[F_RECOMPUTE]) {
        static const char *const words[] = {"none", "selective", "full"};
        static const WlRecompute kinds[] = {WL_RECOMPUTE_NONE, WL_RECOMPUTE_SELECTIVE,
                                                  WL_RECOMPUTE_FULL};
        int k = pick_word(a, F_RECOMPUTE, words, 3, "none, selective or full");
        if (k < 0)
            return false;
        w->recompute = kinds[k];
    }
    if (a->set[F_PRECISION]) {
        static const char *const words[] = {"bf16", "fp8"};
        int k = pick_word(a, F_PRECISION, words, 2, "bf16 or fp8");
        if (k < 0)
            return false;
        w->precision = k == 0 ? WL_BF16 : WL_FP8;
    }
    if (a->set[F_SWIGLU] && !on_off(a, F_SWIGLU, &w->swiglu))
        return false;
    if (a->set[F_FLASH] && !on_off(a, F_FLASH, &w->flash_attention))
        return false;
    return true;
}

static bool build_workload(const EvalArgs *a, Workload *w)
{
    const EvalFlag ints[] = {F_LAYERS, F_HIDDEN, F_HEADS, F_KV_HEADS, F_FFN, F_SEQ,
                             F_VOCAB,  F_BATCH,  F_MB,    F_TOPK};
    if (!workload_start(a, w))
        return false;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (!need_positive(a, ints[i]))
            return false;
    if (!workload_shape(a, w) || !workload_run(a, w))
        return false;
    char err[300];
    if (!workload_check(w, err, sizeof err)) {
        cli_usage_error("eval: %s", err);
        return false;
    }
    return true;
}

/* The degrees the flags give, for the one search (model/sweep.h): 0 where a
 * flag is absent. The micro-batch and interleave are pinned only when given
 * (eval pins them to the workload's and 1 itself); ZeRO is 1 unless given.
 * Sets c->n_gpus when --gpus is absent and TP, PP and DP are all given. */
static bool build_request(const EvalArgs *a, Cluster *c, SweepOptions *o)
{
    const EvalFlag degs[] = {F_TP, F_PP, F_DP, F_EP, F_CP, F_INTERLEAVE, F_ETP};
    for (size_t i = 0; i < sizeof degs / sizeof degs[0]; i++)
        if (!need_positive(a, degs[i]))
            return false;
    *o = sweep_options_default();
    o->tp = a->set[F_TP] ? as_int(a, F_TP) : 0;
    o->pp = a->set[F_PP] ? as_int(a, F_PP) : 0;
    o->dp = a->set[F_DP] ? as_int(a, F_DP) : 0;
    o->ep = a->set[F_EP] ? as_int(a, F_EP) : 0;
    o->cp = a->set[F_CP] ? as_int(a, F_CP) : 0;
    o->etp = a->set[F_ETP] ? as_int(a, F_ETP) : 0;
    o->interleave = a->set[F_INTERLEAVE] ? as_int(a, F_INTERLEAVE) : 0;
    o->micro_batch = a->set[F_MB] ? as_int(a, F_MB) : 0;
    if (a->set[F_ZERO]) {
        o->zero = as_int(a, F_ZERO);
        if (o->zero > 3) {
            cli_usage_error("eval: --zero must be 0, 1, 2 or 3 (got %d)", o->zero);
            return false;
        }
    }
    if (!a->set[F_GPUS] && o->tp && o->pp && o->dp) {
        long long world = (long long)o->tp * (o->cp ? o->cp : 1) * o->pp * o->dp;
        if (world > CLUSTER_MAX_GPUS) {
            cli_usage_error("eval: TP x CP x PP x DP = %lld GPUs is more than scalelab models "
                            "(at most %d)",
                            world, CLUSTER_MAX_GPUS);
            return false;
        }
        c->n_gpus = (int)world;
    }
    char err[300];
    if (!cluster_check(c, err, sizeof err)) {
        cli_usage_error("eval: %s", err);
        return false;
    }
    return true;
}

/* eval's mapping: the degrees given, the rest searched (the fastest legal
 * mapping that fits, else the one needing least memory), with the
 * workload's micro-batch and interleave 1 unless given. */
static bool choose_mapping(const char *cmd, const Cluster *c, const Workload *w,
                           const SweepOptions *given, Mapping *m)
{
    SweepOptions o = *given;
    o.micro_batch = w->micro_batch;
    if (!o.interleave)
        o.interleave = 1;
    char err[300];
    if (!sweep_find_mapping(c, w, &o, m, NULL, err, sizeof err)) {
        cli_usage_error("%s: %s", cmd, err);
        return false;
    }
    return true;
}

/* --- output ---------------------------------------------------------------- */

static void json_key_num(FILE *out, const char *key, double v, bool comma)
{
    fprintf(out, "\"%s\":", key);
    json_number(out, v);
    if (comma)
        fputc(',', out);
}

static void print_json(FILE *out, const Cluster *c, const Workload *w, const Mapping *m,
                       const StepResult *r)
{
    fputc('{', out);
    fputs("\"system\":", out);
    json_string(out, c->system_id);
    fputs(",\"gpu\":", out);
    json_string(out, c->gpu.id);
    fprintf(out, ",\"gpus\":%d,\"domain_gpus\":%d,\"model\":", c->n_gpus, c->domain_gpus);
    json_string(out, w->id);
    fprintf(out,
            ",\"mapping\":{\"tp\":%d,\"cp\":%d,\"pp\":%d,\"dp\":%d,\"ep\":%d,"
            "\"interleave\":%d,\"zero\":%d,\"mb\":%d,\"batch\":%d,\"etp\":%d,\"edp\":%d},",
            m->tp, m->cp, m->pp, m->dp, m->ep, m->interleave, m->zero, w->micro_batch,
            w->global_batch, mapping_etp(m), mapping_edp(m));
    json_key_num(out, "step_s", r->step_s, true);
    json_key_num(out, "tokens_per_s", r->tokens_per_s, true);
    json_key_num(out, "tflops_per_gpu", r->tflops_per_gpu, true);
    json_key_num(out, "hw_tflops_per_gpu", r->hw_tflops_per_gpu, true);
    json_key_num(out, "mfu", r->mfu, true);
    fprintf(out, "\"fits\":%s,", r->fits ? "true" : "false");
    json_key_num(out, "mem_per_gpu_bytes", r->mem_per_gpu_bytes, true);
    json_key_num(out, "hbm_bytes", r->hbm_bytes, true);
    fprintf(out, "\"micro_batches\":%d,", r->micro_batches);
    fputs("\"bottleneck\":", out);
    json_string(out, r->bottleneck);
    fputs(",\"breakdown\":{", out);
    json_key_num(out, "compute_s", r->part_s[STEP_COMPUTE], true);
    json_key_num(out, "tp_s", r->part_s[STEP_TP], true);
    json_key_num(out, "pp_s", r->part_s[STEP_PP], true);
    json_key_num(out, "bubble_s", r->part_s[STEP_BUBBLE], true);
    json_key_num(out, "dp_s", r->part_s[STEP_DP], true);
    json_key_num(out, "ep_s", r->part_s[STEP_EP], true);
    json_key_num(out, "optimizer_s", r->optimizer_s, false);
    fputs("},\"bytes\":{", out);
    json_key_num(out, "scale_up", r->tier_bytes[TIER_UP], true);
    json_key_num(out, "scale_out", r->tier_bytes[TIER_OUT], true);
    json_key_num(out, "scale_across", r->tier_bytes[TIER_ACROSS], false);
    fputs("},\"memory\":{", out);
    json_key_num(out, "weights", r->mem_weights, true);
    json_key_num(out, "grads", r->mem_grads, true);
    json_key_num(out, "optimizer", r->mem_optimizer, true);
    json_key_num(out, "activations", r->mem_activations, false);
    fputs("}}\n", out);
}

static void print_table(FILE *out, const Cluster *c, const Workload *w, const Mapping *m,
                        const StepResult *r)
{
    char a[40], b[40], d[40];
    char map[64];
    const WorkloadPreset *wp = workload_preset_find(w->id);
    const SystemSpec *sp = hw_system_find(c->system_id);
    mapping_format(m, map, sizeof map);
    fprintf(out, "%s on %d x %s (%s), %s, batch %d, micro-batch %d\n",
            wp ? wp->name : "custom model", c->n_gpus, c->gpu.name,
            sp ? sp->name : "custom cluster", map, w->global_batch, w->micro_batch);
    units_format(UNITS_BANDWIDTH, c->up_bytes_per_s, true, a, sizeof a);
    fprintf(out, "  scale-up:  %d GPUs per domain, %s per GPU per direction (%s)\n",
            c->domain_gpus, a, c->up_link);
    units_format_bits_bytes(c->out_bytes_per_s, b, sizeof b);
    fprintf(out, "  scale-out: %s per GPU (%s)\n", b, c->out_link);
    if (c->sites > 1) {
        units_format(UNITS_BANDWIDTH, c->across_bytes_per_s, true, a, sizeof a);
        fprintf(out, "  scale-across: %d sites joined by %s\n", c->sites, a);
    }
    units_format(UNITS_TIME, r->step_s, true, a, sizeof a);
    fprintf(out, "\n  step time        %s\n", a);
    units_format_si(r->tokens_per_s, a, sizeof a);
    fprintf(out, "  tokens/s         %s\n", a);
    fprintf(out, "  TFLOP/s per GPU  %.0f model, %.0f hardware (MFU %.1f%%)\n",
            r->tflops_per_gpu, r->hw_tflops_per_gpu, 100 * r->mfu);
    units_format(UNITS_BYTES, r->mem_per_gpu_bytes, true, a, sizeof a);
    units_format(UNITS_BYTES, r->hbm_bytes, true, b, sizeof b);
    fprintf(out, "  memory per GPU   %s of %s: %s\n", a, b, r->fits ? "fits" : "DOES NOT FIT");
    fprintf(out, "\n  %-9s %10s %7s\n", "part", "time", "share");
    for (int p = 0; p < STEP_PART_COUNT; p++) {
        units_format(UNITS_TIME, r->part_s[p], true, a, sizeof a);
        double share = r->step_s > 0 ? 100 * r->part_s[p] / r->step_s : 0;
        fprintf(out, "  %-9s %10s %6.1f%%\n", step_part_name((StepPart)p), a, share);
    }
    if (r->optimizer_s > 0) {
        units_format(UNITS_TIME, r->optimizer_s, true, a, sizeof a);
        double share = r->step_s > 0 ? 100 * r->optimizer_s / r->step_s : 0;
        fprintf(out, "  %-9s %10s %6.1f%%\n", "optimizer", a, share);
    }
    units_format(UNITS_BYTES, r->tier_bytes[TIER_UP], true, a, sizeof a);
    units_format(UNITS_BYTES, r->tier_bytes[TIER_OUT], true, b, sizeof b);
    units_format(UNITS_BYTES, r->tier_bytes[TIER_ACROSS], true, d, sizeof d);
    fprintf(out, "\n  sent per GPU per step: scale-up %s, scale-out %s, scale-across %s\n", a, b,
            d);
    fprintf(out, "\nbottleneck: %s\n", r->bottleneck);
}

static void print_list(FILE *out)
{
    char a[40], b[64], d[40], e[40];
    fputs("Systems (bandwidths per GPU, per direction):\n", out);
    for (int i = 0; i < hw_system_count(); i++) {
        const SystemSpec *s = hw_system_at(i);
        const GpuSpec *g = hw_gpu_find(s->gpu_id);
        fprintf(out, "\n%s - %s\n  %s\n", s->id, s->name, s->summary);
        fprintf(out, "  domain: %d x %s; default %d GPUs", s->domain_gpus,
                g ? g->name : s->gpu_id, s->default_gpus);
        if (s->domain_power_w > 0)
            fprintf(out, "; %.3g kW, %s cooled\n", s->domain_power_w / 1e3, s->cooling);
        else
            fprintf(out, "; %s cooled\n", s->cooling);
        units_format(UNITS_BANDWIDTH, s->up_bytes_per_s, true, a, sizeof a);
        fprintf(out, "  up:  %s (%s)\n", a, s->up_link);
        units_format_bits_bytes(s->out_bytes_per_s, b, sizeof b);
        fprintf(out, "  out: %s (%s)\n", b, s->out_link);
    }
    fputs("\nGPUs (dense BF16 peak, HBM size and bandwidth):\n", out);
    for (int i = 0; i < hw_gpu_count(); i++) {
        const GpuSpec *g = hw_gpu_at(i);
        units_format(UNITS_FLOPS, g->bf16_flops, true, a, sizeof a);
        units_format(UNITS_BYTES, g->hbm_bytes, true, d, sizeof d);
        units_format(UNITS_BANDWIDTH, g->hbm_bytes_per_s, true, e, sizeof e);
        fprintf(out, "  %-9s %-12s %-8s at %-9s %s\n", g->id, a, d, e, g->name);
    }
    fputs("\nModels:\n", out);
    for (int i = 0; i < workload_preset_count(); i++) {
        const WorkloadPreset *p = workload_preset_at(i);
        const Workload *w = &p->w;
        fprintf(out, "\n%s - %s, %.0fB parameters\n", p->id, p->name,
                workload_params(w) / 1e9);
        fprintf(out, "  %d layers, hidden %d, %d heads, seq %d, batch %d", w->layers,
                w->hidden, w->heads, w->seq, w->global_batch);
        if (workload_is_moe(w))
            fprintf(out, ", %d experts top-%d", w->experts, w->topk);
        fprintf(out, "\n  source: %s\n", p->source);
    }
}

/* evalflags.h: the flags above for another command (sweep, render, play). */
int evalflags_build(int argc, char **argv, Cluster *c, Workload *w, SweepOptions *given)
{
    EvalArgs a;
    int rc = parse_args(argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    const EvalFlag output[] = {F_JSON, F_FORMAT, F_LIST, F_HELP};
    for (size_t i = 0; i < sizeof output / sizeof output[0]; i++)
        if (a.set[output[i]])
            return cli_usage_error("%s: --%s is not a flag of this command", argv[0],
                                   flag_table[output[i]].name);
    if (!build_cluster(&a, c) || !build_workload(&a, w) || !build_request(&a, c, given))
        return CLI_USAGE;
    return CLI_OK;
}

int evalflags_mapping(int argc, char **argv, Cluster *c, Workload *w, Mapping *m)
{
    SweepOptions given;
    int rc = evalflags_build(argc, argv, c, w, &given);
    if (rc != CLI_OK)
        return rc;
    return choose_mapping(argv[0], c, w, &given, m) ? CLI_OK : CLI_USAGE;
}

int cmd_eval(int argc, char **argv)
{
    EvalArgs a;
    int rc = parse_args(argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    if (a.set[F_HELP]) {
        fputs(eval_help, stdout);
        return CLI_OK;
    }
    bool json = a.set[F_JSON];
    if (a.set[F_FORMAT]) {
        if (strcmp(a.str[F_FORMAT], "json") == 0)
            json = true;
        else if (strcmp(a.str[F_FORMAT], "text") != 0)
            return cli_usage_error("eval: --format must be json or text (got '%s')",
                                   a.str[F_FORMAT]);
        else if (a.set[F_JSON])
            return cli_usage_error("eval: --json and --format text disagree");
    }
    if (a.set[F_LIST]) {
        for (int f = 0; f < F_COUNT; f++)
            if (a.set[f] && f != F_LIST)
                return cli_usage_error("eval: --list takes no other flag");
        print_list(stdout);
        return CLI_OK;
    }
    Cluster c;
    Workload w;
    Mapping m;
    SweepOptions given;
    if (!build_cluster(&a, &c) || !build_workload(&a, &w) || !build_request(&a, &c, &given) ||
        !choose_mapping("eval", &c, &w, &given, &m))
        return CLI_USAGE;
    StepResult r;
    char err[300];
    if (step_eval(&c, &w, &m, NULL, NULL, &r, err, sizeof err) != STEP_OK)
        return cli_usage_error("eval: %s", err);
    if (json)
        print_json(stdout, &c, &w, &m, &r);
    else
        print_table(stdout, &c, &w, &m, &r);
    return CLI_OK;
}
