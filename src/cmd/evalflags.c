/* SPDX-License-Identifier: MIT */
/* evalflags — the cluster, workload and mapping that the job flags of the
 * flag table (flags.h) describe, for eval, sweep, render and play alike:
 * presets first, explicit flags over them, the degrees given as pins of the
 * one mapping search (model/sweep.h). Errors: one line through cli_error,
 * named by the command that failed.
 */
#include "cmd/evalflags.h"

#include "base/strbuf.h"
#include "cmd/cli.h"
#include "model/hw.h"
#include "model/job.h"
#include "model/kernel.h"
#include "model/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVAL_MAX_PARAMS 1e18 /* a sanity cap on input, a million times GPT-3 */

/* A positive whole-number flag; prints the reason and returns false if < 1. */
static bool need_positive(const char *cmd, const FlagArgs *a, FlagId f)
{
    if (a->set[f] && a->num[f] < 1) {
        cli_usage_error("%s: --%s must be at least 1", cmd, flags_name(f));
        return false;
    }
    return true;
}

static bool on_off(const char *cmd, const FlagArgs *a, FlagId f, bool *out)
{
    const char *s = a->str[f];
    if (strcmp(s, "on") == 0 || strcmp(s, "yes") == 0 || strcmp(s, "1") == 0)
        *out = true;
    else if (strcmp(s, "off") == 0 || strcmp(s, "no") == 0 || strcmp(s, "0") == 0)
        *out = false;
    else {
        cli_usage_error("%s: --%s must be on or off (got '%s')", cmd, flags_name(f), s);
        return false;
    }
    return true;
}

/* --hbm "96 GB" or "96 GB, 2.4 TB/s" (also "96GB@2.4TB/s" or "96 GB at
 * 2.4 TB/s"): the capacity, and the bandwidth when given. */
static bool parse_hbm(const char *cmd, const char *text, Cluster *c)
{
    char buf[128], err[200];
    snprintf(buf, sizeof buf, "%s", text);
    char *bw = strchr(buf, ',');
    if (!bw)
        bw = strchr(buf, '@');
    if (!bw) {
        char *at = strstr(buf, " at ");
        if (at) {
            *at = '\0';
            bw = at + 3;
        }
    } else {
        *bw++ = '\0';
    }
    double cap, rate = 0;
    if (!units_parse(UNITS_BYTES, buf, &cap, err, sizeof err) || !(cap >= 1e9)) {
        cli_usage_error("%s: --hbm must be a capacity such as \"96 GB\", optionally with a "
                        "bandwidth: \"96 GB, 2.4 TB/s\"",
                        cmd);
        return false;
    }
    if (bw && (!units_parse(UNITS_BANDWIDTH, bw, &rate, err, sizeof err) || !(rate >= 1e9))) {
        cli_usage_error("%s: --hbm: the bandwidth after the capacity must be such as "
                        "\"2.4 TB/s\" (%s)",
                        cmd, err);
        return false;
    }
    c->gpu.hbm_bytes = cap;
    if (rate > 0)
        c->gpu.hbm_bytes_per_s = rate;
    return true;
}

static bool build_cluster(const char *cmd, const FlagArgs *a, Cluster *c)
{
    char err[300];
    const char *system = a->str[FLAG_SYSTEM];
    if (!system && a->set[FLAG_GPU]) {
        /* a custom cluster around that GPU: start from the first system using it */
        for (int i = 0; i < hw_system_count() && !system; i++)
            if (strcmp(hw_system_at(i)->gpu_id, a->str[FLAG_GPU]) == 0)
                system = hw_system_at(i)->id;
    }
    if (!system)
        system = EVAL_DEFAULT_SYSTEM;
    if (!cluster_from_system(c, system, 0, err, sizeof err)) {
        cli_usage_error("%s: --system: %s", cmd, err);
        return false;
    }
    bool custom = false;
    if (a->set[FLAG_GPU]) {
        const GpuSpec *g = hw_gpu_find(a->str[FLAG_GPU]);
        if (!g) {
            char *names = strbuf_join(hw_gpu_count(), hw_gpu_id_at, NULL);
            cli_usage_error("%s: unknown GPU '%s' (known: %s)", cmd, a->str[FLAG_GPU], names);
            free(names);
            return false;
        }
        if (strcmp(g->id, c->gpu.id) != 0)
            custom = true;
        c->gpu = *g;
    }
    if (!need_positive(cmd, a, FLAG_GPUS) || !need_positive(cmd, a, FLAG_DOMAIN) ||
        !need_positive(cmd, a, FLAG_SITES))
        return false;
    if (a->set[FLAG_GPUS])
        cluster_set_gpus(c, flags_int(a, FLAG_GPUS));
    if (a->set[FLAG_DOMAIN]) {
        c->domain_gpus = flags_int(a, FLAG_DOMAIN);
        custom = true;
    }
    if (a->set[FLAG_UP]) {
        cluster_set_up_bw(c, a->num[FLAG_UP]);
        custom = true;
    }
    if (a->set[FLAG_OUT]) {
        cluster_set_out_bw(c, a->num[FLAG_OUT]);
        custom = true;
    }
    if (a->set[FLAG_OVERSUB]) {
        c->oversub = a->num[FLAG_OVERSUB];
        custom = true;
    }
    if (a->set[FLAG_RAILS]) {
        bool rails;
        if (!on_off(cmd, a, FLAG_RAILS, &rails))
            return false;
        custom |= rails != c->rail_optimized;
        c->rail_optimized = rails;
    }
    if (a->set[FLAG_HBM]) {
        if (!parse_hbm(cmd, a->str[FLAG_HBM], c))
            return false;
        custom = true;
    }
    if (a->set[FLAG_POWER]) {
        double w;
        char why[200];
        if (!units_parse(UNITS_POWER, a->str[FLAG_POWER], &w, why, sizeof why) || !(w >= 50)) {
            cli_usage_error("%s: --power must be a board power such as \"500 W\" (at least 50 W)",
                            cmd);
            return false;
        }
        c->power_cap_w = w;
        custom = true;
    }
    if (a->set[FLAG_SITES])
        job_set_sites(c, flags_int(a, FLAG_SITES)); /* with the default latency (job.h) */
    if (a->set[FLAG_ACROSS])
        c->across_bytes_per_s = a->num[FLAG_ACROSS];
    if (a->set[FLAG_ACROSS_LAT])
        c->across_lat_s = a->num[FLAG_ACROSS_LAT];
    if ((a->set[FLAG_ACROSS] || a->set[FLAG_ACROSS_LAT]) && !a->set[FLAG_SITES]) {
        cli_usage_error("%s: --across needs --sites N (how many sites the cluster spans)", cmd);
        return false;
    }
    if (custom)
        snprintf(c->system_id, sizeof c->system_id, "custom");
    return true;
}

/* The workload --model names (default EVAL_DEFAULT_MODEL), or a custom
 * shape when --layers, --hidden or --heads come without --model. */
static bool workload_start(const char *cmd, const FlagArgs *a, Workload *w)
{
    const bool shape = a->set[FLAG_LAYERS] || a->set[FLAG_HIDDEN] || a->set[FLAG_HEADS];
    const char *model = a->str[FLAG_MODEL];
    if (model || !shape) {
        const WorkloadPreset *p = workload_preset_find(model ? model : EVAL_DEFAULT_MODEL);
        if (!p) {
            char *names = strbuf_join(workload_preset_count(), workload_preset_id_at, NULL);
            cli_usage_error("%s: unknown model '%s' (known: %s)", cmd, model, names);
            free(names);
            return false;
        }
        *w = p->w;
        return true;
    }
    if (!a->set[FLAG_LAYERS] || !a->set[FLAG_HIDDEN] || !a->set[FLAG_HEADS]) {
        cli_usage_error("%s: a custom model needs --layers, --hidden and --heads "
                        "(or use --model NAME)",
                        cmd);
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
static bool workload_shape(const char *cmd, const FlagArgs *a, Workload *w)
{
    const bool custom = !a->str[FLAG_MODEL];
    const bool shape = a->set[FLAG_LAYERS] || a->set[FLAG_HIDDEN] || a->set[FLAG_HEADS];
    const FlagId changes[] = {FLAG_LAYERS,     FLAG_HIDDEN,    FLAG_HEADS,   FLAG_KV_HEADS,
                              FLAG_FFN,        FLAG_VOCAB,     FLAG_EXPERTS, FLAG_HEAD_DIM,
                              FLAG_V_HEAD_DIM, FLAG_Q_LORA,    FLAG_KV_LORA, FLAG_SHARED_EXPERTS,
                              FLAG_MOE_LAYERS, FLAG_DENSE_FFN, FLAG_TOPK};
    bool changed_shape = false;
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++)
        changed_shape |= a->set[changes[i]];
    if (a->set[FLAG_LAYERS])
        w->layers = flags_int(a, FLAG_LAYERS);
    if (a->set[FLAG_HIDDEN]) {
        w->hidden = flags_int(a, FLAG_HIDDEN);
        if (!a->set[FLAG_FFN] && shape && custom)
            w->ffn = 4 * w->hidden;
    }
    if (a->set[FLAG_HEADS]) {
        w->heads = flags_int(a, FLAG_HEADS);
        if (!a->set[FLAG_KV_HEADS] && custom)
            w->kv_heads = w->heads;
    }
    if (a->set[FLAG_KV_HEADS])
        w->kv_heads = flags_int(a, FLAG_KV_HEADS);
    if (a->set[FLAG_FFN])
        w->ffn = flags_int(a, FLAG_FFN);
    if (a->set[FLAG_SEQ])
        w->seq = flags_int(a, FLAG_SEQ);
    if (a->set[FLAG_VOCAB])
        w->vocab = flags_int(a, FLAG_VOCAB);
    if (a->set[FLAG_EXPERTS]) {
        w->experts = flags_int(a, FLAG_EXPERTS);
        if (!a->set[FLAG_TOPK] && w->topk < 1 && w->experts > 1)
            w->topk = 1;
    }
    if (a->set[FLAG_TOPK])
        w->topk = flags_int(a, FLAG_TOPK);
    const FlagId more[] = {FLAG_HEAD_DIM,  FLAG_V_HEAD_DIM,     FLAG_Q_LORA,
                           FLAG_KV_LORA,   FLAG_SHARED_EXPERTS, FLAG_MOE_LAYERS,
                           FLAG_DENSE_FFN, FLAG_WINDOW,         FLAG_GLOBAL_EVERY};
    int *slot[] = {&w->head_dim,   &w->v_head_dim, &w->q_lora, &w->kv_lora,     &w->shared_experts,
                   &w->moe_layers, &w->dense_ffn,  &w->window, &w->global_every};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        if (a->set[more[i]])
            *slot[i] = flags_int(a, more[i]);
    if (a->set[FLAG_PARAMS]) {
        if (!(a->num[FLAG_PARAMS] > 0)) {
            cli_usage_error("%s: --params must be positive", cmd);
            return false;
        }
        if (a->num[FLAG_PARAMS] > EVAL_MAX_PARAMS) {
            cli_usage_error("%s: --params %g is more than scalelab models (at most %g)", cmd,
                            a->num[FLAG_PARAMS], EVAL_MAX_PARAMS);
            return false;
        }
        w->params = a->num[FLAG_PARAMS];
    } else if (changed_shape) {
        w->params = 0; /* derive from the new shape */
    }
    if (changed_shape && !custom)
        snprintf(w->id, sizeof w->id, "custom");
    return true;
}

/* The value of a word flag among words[0..n): its index, or -1 after
 * printing "--flag must be a, b or c (got 'x')". */
static int pick_word(const char *cmd, const FlagArgs *a, FlagId f, const char *const *words, int n,
                     const char *list)
{
    for (int i = 0; i < n; i++)
        if (strcmp(a->str[f], words[i]) == 0)
            return i;
    cli_usage_error("%s: --%s must be %s (got '%s')", cmd, flags_name(f), list, a->str[f]);
    return -1;
}

/* --F one of the words of set (workload_word); -1 after the one-line error. */
static int pick_set_word(const char *cmd, const FlagArgs *a, FlagId f, WlWords set)
{
    int k = workload_word_parse(set, a->str[f]);
    if (k < 0) {
        char list[96];
        workload_word_list(set, 0, list, sizeof list);
        cli_usage_error("%s: --%s must be %s (got '%s')", cmd, flags_name(f), list, a->str[f]);
    }
    return k;
}

/* The words of a comma-separated list, each one of names[0..n) (bits[i]
 * for names[i]), ORed into *out; false after the one-line error. */
static bool parse_words(const char *cmd, const char *flag, const char *text,
                        const char *const *names, const int *bits, int n, const char *list,
                        int *out)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    *out = 0;
    for (char *p = buf, *e; p && *p; p = e) {
        e = strchr(p, ',');
        if (e)
            *e++ = '\0';
        int k = -1;
        for (int i = 0; i < n && k < 0; i++)
            if (strcmp(p, names[i]) == 0)
                k = i;
        if (k < 0) {
            cli_usage_error("%s: --%s must be %s (got '%s')", cmd, flag, list, text);
            return false;
        }
        *out |= bits[k];
    }
    return true;
}

/* MaxText's remat policies (maxtext layers/decoders.py get_remat_policy)
 * as the parts they recompute: each lets JAX save the named GEMM outputs
 * and recomputes the rest from the layer input; norms and the activation are
 * never saved by name. JAX saves only what backward needs, so the MLP's
 * output (mlpwo), named by some policies, is never kept: the next layer's
 * input is. The *_offloaded ones send what they save to host. */
typedef struct {
    const char *name;
    int mask;
    bool host;
} RematPolicy;

#define RC_MAXTEXT (WL_RC_NORM | WL_RC_MLP_ACT) /* never named, so always redone */
static const RematPolicy remat_policies[] = {
    {"minimal", RC_MAXTEXT | WL_RC_CORE_ATTN, false},
    {"minimal_with_context", RC_MAXTEXT, false},
    {"minimal_flash", RC_MAXTEXT, false},
    {"minimal_offloaded", RC_MAXTEXT | WL_RC_CORE_ATTN, true},
    {"save_dot_with_context_except_mlp", RC_MAXTEXT | WL_RC_MLP_IN, false},
    {"save_dot_except_mlpwi", RC_MAXTEXT | WL_RC_CORE_ATTN | WL_RC_MLP_IN, false},
    {"save_dot_except_mlp", RC_MAXTEXT | WL_RC_CORE_ATTN | WL_RC_MLP_IN, false},
    {"save_qkv_proj", RC_MAXTEXT | WL_RC_CORE_ATTN | WL_RC_OPROJ | WL_RC_MLP_IN, false},
    {"qkv_proj_offloaded", RC_MAXTEXT | WL_RC_CORE_ATTN | WL_RC_OPROJ | WL_RC_MLP_IN, true},
    {"save_out_proj", RC_MAXTEXT | WL_RC_Q | WL_RC_KV | WL_RC_CORE_ATTN | WL_RC_MLP_IN, false},
};

/* MaxText's custom policy, "custom:NAME=device|offload|remat,...": every
 * tensor not named is recomputed but the layer input (device unless
 * named). */
static bool parse_remat_custom(const char *cmd, const char *text, Workload *w)
{
    static const char *const names[] = {"decoder_layer_input",
                                        "query_proj",
                                        "key_proj",
                                        "value_proj",
                                        "kv_proj",
                                        "qkv_proj",
                                        "context",
                                        "out_proj",
                                        "mlpwi",
                                        "mlpwi_0",
                                        "mlpwi_1",
                                        "mlpwo"};
    static const int tensor[] = {WL_T_INPUT,  WL_T_Q,           WL_T_KV,      WL_T_KV,
                                 WL_T_KV,     WL_T_Q | WL_T_KV, WL_T_CONTEXT, WL_T_OUT,
                                 WL_T_MLP_IN, WL_T_MLP_IN,      WL_T_MLP_IN,  WL_T_MLP_OUT};
    int saved = WL_T_INPUT, host = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *p = buf, *e; p && *p; p = e) {
        e = strchr(p, ',');
        if (e)
            *e++ = '\0';
        char *where = strchr(p, '=');
        int k = -1, n = (int)(sizeof names / sizeof names[0]);
        if (where)
            *where++ = '\0';
        for (int i = 0; i < n && k < 0; i++)
            if (strcmp(p, names[i]) == 0)
                k = i;
        bool dev = where && strcmp(where, "device") == 0,
             off = where && strcmp(where, "offload") == 0;
        if (k < 0 || !(dev || off || (where && strcmp(where, "remat") == 0))) {
            cli_usage_error("%s: --recompute custom: each item must be NAME=device|offload|remat "
                            "with NAME one of MaxText's decoder_layer_input, query_proj, "
                            "key_proj, value_proj, qkv_proj, context, out_proj, mlpwi, mlpwo "
                            "(got '%s')",
                            cmd, text);
            return false;
        }
        saved = dev || off ? saved | tensor[k] : saved & ~tensor[k];
        host = off ? host | tensor[k] : host & ~tensor[k];
    }
    if (!(saved & WL_T_INPUT)) {
        cli_usage_error("%s: --recompute custom: decoder_layer_input cannot be recomputed", cmd);
        return false;
    }
    const struct {
        int t, part;
    } drop[] = {
        {WL_T_Q, WL_RC_Q},       {WL_T_KV, WL_RC_KV},         {WL_T_CONTEXT, WL_RC_CORE_ATTN},
        {WL_T_OUT, WL_RC_OPROJ}, {WL_T_MLP_IN, WL_RC_MLP_IN}, {WL_T_MLP_OUT, WL_RC_MLP_OUT}};
    int mask = RC_MAXTEXT;
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
        if (!(saved & drop[i].t))
            mask |= drop[i].part;
    w->recompute = WL_RECOMPUTE_SELECTIVE;
    w->recompute_mods = mask;
    w->act_host = host;
    if (host)
        w->offload |= WL_OFFLOAD_ACTIVATIONS;
    return true;
}

/* The parts --recompute names, by their WL_RC_* bits. */
static const char *const rc_parts[] = {"core_attn", "norm", "act",   "mlp",    "attn",   "op",
                                       "q",         "kv",   "oproj", "mlp_in", "mlp_out"};
static const int rc_bits[] = {WL_RC_CORE_ATTN, WL_RC_NORM,   WL_RC_MLP_ACT, WL_RC_MLP,
                              WL_RC_ATTN,      WL_RC_OP,     WL_RC_Q,       WL_RC_KV,
                              WL_RC_OPROJ,     WL_RC_MLP_IN, WL_RC_MLP_OUT};
#define RC_PARTS ((int)(sizeof rc_bits / sizeof rc_bits[0]))

void evalflags_recompute_text(WlRecompute r, int mods, char *buf, size_t len)
{
    if (r != WL_RECOMPUTE_SELECTIVE || mods == 0 || mods == WL_RC_CORE_ATTN) {
        snprintf(buf, len, "%s",
                 r == WL_RECOMPUTE_FULL        ? "full"
                 : r == WL_RECOMPUTE_SELECTIVE ? "selective"
                                               : "none");
        return;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < RC_PARTS && at < len; i++)
        if (mods & rc_bits[i]) {
            int n = snprintf(buf + at, len - at, "%s%s", at ? "," : "", rc_parts[i]);
            at += n > 0 ? (size_t)n : 0;
        }
}

/* --recompute none|selective|full, the parts recomputed: core_attn (=
 * selective), norm, act, mlp, attn, op, q, kv, oproj, mlp_in, mlp_out,
 * comma-separated (Megatron-Core's --recompute-modules and finer), one of
 * MaxText's remat policies, or its custom policy (parse_remat_custom). */
static bool parse_recompute(const char *cmd, const char *text, Workload *w)
{
    w->act_host = 0;
    int kind = workload_word_parse(WL_WORDS_RECOMPUTE, text);
    if (kind >= 0) {
        w->recompute = (WlRecompute)kind;
        w->recompute_mods = 0;
        return true;
    }
    if (strncmp(text, "custom:", 7) == 0)
        return parse_remat_custom(cmd, text + 7, w);
    for (size_t i = 0; i < sizeof remat_policies / sizeof remat_policies[0]; i++)
        if (strcmp(text, remat_policies[i].name) == 0) {
            w->recompute = WL_RECOMPUTE_SELECTIVE;
            w->recompute_mods = remat_policies[i].mask;
            if (remat_policies[i].host)
                w->offload |= WL_OFFLOAD_ACTIVATIONS;
            return true;
        }
    int mask;
    if (!parse_words(
            cmd, "recompute", text, rc_parts, rc_bits, RC_PARTS,
            "none, selective, full, parts from core_attn,norm,act,mlp,attn,op,q,kv,"
            "oproj,mlp_in,mlp_out, a MaxText remat policy (minimal, save_qkv_proj, ...) or "
            "custom:NAME=device|offload|remat,...",
            &mask))
        return false;
    w->recompute = WL_RECOMPUTE_SELECTIVE;
    w->recompute_mods = mask;
    return true;
}

/* --optimizer-state weights=fp32|bf16,grads=...,mu=...,nu=... (any of
 * them): the dtypes of the training state, the rest the framework's. */
static bool parse_opt_state(const char *cmd, const char *text, Workload *w)
{
    static const char *const names[] = {"weights", "grads", "mu", "nu", "moments"};
    double *slot[] = {&w->master_bytes, &w->grad_bytes, &w->mu_bytes, &w->nu_bytes, NULL};
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *p = buf, *e; p && *p; p = e) {
        e = strchr(p, ',');
        if (e)
            *e++ = '\0';
        char *dt = strchr(p, '=');
        int k = -1;
        if (dt)
            *dt++ = '\0';
        for (int i = 0; i < 5 && k < 0; i++)
            if (strcmp(p, names[i]) == 0)
                k = i;
        double b = !dt ? 0 : strcmp(dt, "fp32") == 0 ? 4.0 : strcmp(dt, "bf16") == 0 ? 2.0 : 0;
        if (k < 0 || b == 0) {
            cli_usage_error("%s: --optimizer-state must be items NAME=fp32|bf16 with NAME "
                            "weights, grads, mu, nu or moments (got '%s')",
                            cmd, text);
            return false;
        }
        if (slot[k])
            *slot[k] = b;
        else
            w->mu_bytes = w->nu_bytes = b;
    }
    return true;
}

/* --offload none or optimizer,weights,activations. */
static bool parse_offload(const char *cmd, const char *text, Workload *w)
{
    if (strcmp(text, "none") == 0) {
        w->offload = 0;
        return true;
    }
    const char *parts[3];
    int bits[3];
    for (int i = 0; i < 3; i++)
        parts[i] = workload_word(WL_WORDS_OFFLOAD, i), bits[i] = 1 << i;
    char list[96];
    snprintf(list, sizeof list, "none or parts from %s,%s,%s", parts[0], parts[1], parts[2]);
    return parse_words(cmd, "offload", text, parts, bits, 3, list, &w->offload);
}

/* How the step runs: batch, micro-batch, recompute, precision, kernels. */
static bool workload_run(const char *cmd, const FlagArgs *a, Workload *w)
{
    if (a->set[FLAG_BATCH])
        w->global_batch = flags_int(a, FLAG_BATCH);
    if (a->set[FLAG_MB])
        w->micro_batch = flags_int(a, FLAG_MB);
    if (a->set[FLAG_RECOMPUTE] && !parse_recompute(cmd, a->str[FLAG_RECOMPUTE], w))
        return false;
    if (a->set[FLAG_RECOMPUTE_LAYERS])
        w->recompute_layers = flags_int(a, FLAG_RECOMPUTE_LAYERS);
    int policy_offload = w->offload & WL_OFFLOAD_ACTIVATIONS; /* a remat policy's own */
    if (a->set[FLAG_OFFLOAD] && !parse_offload(cmd, a->str[FLAG_OFFLOAD], w))
        return false;
    w->offload |= policy_offload;
    if (a->set[FLAG_OFFLOAD_LAYERS])
        w->offload_layers = flags_int(a, FLAG_OFFLOAD_LAYERS);
    if (a->set[FLAG_OPT_STATE] && !parse_opt_state(cmd, a->str[FLAG_OPT_STATE], w))
        return false;
    if (a->set[FLAG_LOSS_CHUNKS]) {
        if (!need_positive(cmd, a, FLAG_LOSS_CHUNKS))
            return false;
        w->loss_chunks = flags_int(a, FLAG_LOSS_CHUNKS);
    }
    if (a->set[FLAG_CAPACITY]) {
        w->capacity_factor = a->num[FLAG_CAPACITY];
        if (!(w->capacity_factor >= 1 && w->capacity_factor <= 64)) {
            cli_usage_error("%s: --capacity-factor must be between 1 and 64 (got %g)", cmd,
                            w->capacity_factor);
            return false;
        }
    }
    if (a->set[FLAG_PRECISION]) {
        int k = pick_set_word(cmd, a, FLAG_PRECISION, WL_WORDS_PRECISION);
        if (k < 0)
            return false;
        w->precision = (WlPrecision)k;
    }
    if (a->set[FLAG_SWIGLU] && !on_off(cmd, a, FLAG_SWIGLU, &w->swiglu))
        return false;
    if (a->set[FLAG_PP_SPLIT]) {
        static const char *const words[] = {"even", "cost"};
        int k = pick_word(cmd, a, FLAG_PP_SPLIT, words, 2, "even or cost");
        if (k < 0)
            return false;
        w->pp_by_cost = k == 1 ? WL_ON : WL_OFF;
    }
    if (a->set[FLAG_FRAMEWORK]) {
        int k = pick_set_word(cmd, a, FLAG_FRAMEWORK, WL_WORDS_FRAMEWORK);
        if (k < 0)
            return false;
        w->framework = (WlFramework)k;
    }
    if (a->set[FLAG_FLASH]) { /* on, off, or the version: 1, 2, 3 */
        const char *v = a->str[FLAG_FLASH];
        if (v[0] >= '1' && v[0] <= '3' && v[1] == '\0') {
            w->flash_attention = true;
            w->flash_version = v[0] - '0';
        } else if (!on_off(cmd, a, FLAG_FLASH, &w->flash_attention)) {
            return false;
        } else {
            w->flash_version = 0;
        }
    }
    if (a->set[FLAG_CUDA_GRAPHS]) {
        int k = pick_set_word(cmd, a, FLAG_CUDA_GRAPHS, WL_WORDS_GRAPHS);
        if (k < 0)
            return false;
        w->cuda_graphs = (WlGraphs)k;
    }
    /* the framework switches: on, off, or auto (the default stated in step.c) */
    static const char *const sw_words[] = {"auto", "on", "off", "dualpipe"};
    static const WlSwitch sw_values[] = {WL_AUTO, WL_ON, WL_OFF, WL_ON};
    const FlagId sw_flags[] = {FLAG_SEQ_PARALLEL, FLAG_TP_OVERLAP, FLAG_PP_OVERLAP,
                               FLAG_DP_OVERLAP,   FLAG_EP_OVERLAP, FLAG_EP_DEDUP,
                               FLAG_FUSED_LOSS,   FLAG_DROPOUT};
    WlSwitch *sw_slot[] = {&w->seq_parallel, &w->tp_overlap, &w->pp_overlap, &w->dp_overlap,
                           &w->ep_overlap,   &w->ep_dedup,   &w->fused_loss, &w->dropout};
    for (size_t i = 0; i < sizeof sw_flags / sizeof sw_flags[0]; i++) {
        if (!a->set[sw_flags[i]])
            continue;
        /* --ep-overlap dualpipe: on, as DeepSeek-V3's schedule runs it */
        bool ep = sw_flags[i] == FLAG_EP_OVERLAP;
        int k = pick_word(cmd, a, sw_flags[i], sw_words, ep ? 4 : 3,
                          ep ? "on, off, auto or dualpipe" : "on, off or auto");
        if (k < 0)
            return false;
        *sw_slot[i] = sw_values[k];
        if (ep)
            w->ep_dualpipe = k == 3;
    }
    return true;
}

static bool build_workload(const char *cmd, const FlagArgs *a, Workload *w)
{
    const FlagId ints[] = {FLAG_LAYERS,  FLAG_HIDDEN,    FLAG_HEADS,    FLAG_KV_HEADS,
                           FLAG_FFN,     FLAG_SEQ,       FLAG_VOCAB,    FLAG_BATCH,
                           FLAG_MB,      FLAG_TOPK,      FLAG_HEAD_DIM, FLAG_V_HEAD_DIM,
                           FLAG_KV_LORA, FLAG_DENSE_FFN, FLAG_WINDOW,   FLAG_GLOBAL_EVERY};
    if (!workload_start(cmd, a, w))
        return false;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (!need_positive(cmd, a, ints[i]))
            return false;
    if (!workload_shape(cmd, a, w) || !workload_run(cmd, a, w))
        return false;
    char err[300];
    if (!workload_check(w, err, sizeof err)) {
        cli_usage_error("%s: %s", cmd, err);
        return false;
    }
    return true;
}

/* The degrees the flags give, for the one search (model/sweep.h): 0 where a
 * flag is absent. The micro-batch and interleave are pinned only when given
 * (eval pins them to the workload's and 1 itself); ZeRO, recompute,
 * sequence parallelism and TP overlap are SWEEP_FREE unless given.
 * Sets c->n_gpus when --gpus is absent and TP, PP and DP are all given. */
static bool build_request(const char *cmd, const FlagArgs *a, Cluster *c, SweepOptions *o)
{
    const FlagId degs[] = {FLAG_TP, FLAG_PP,         FLAG_DP,  FLAG_EP,
                           FLAG_CP, FLAG_INTERLEAVE, FLAG_ETP, FLAG_SHARD};
    for (size_t i = 0; i < sizeof degs / sizeof degs[0]; i++)
        if (!need_positive(cmd, a, degs[i]))
            return false;
    *o = sweep_options_default();
    o->tp = a->set[FLAG_TP] ? flags_int(a, FLAG_TP) : 0;
    o->pp = a->set[FLAG_PP] ? flags_int(a, FLAG_PP) : 0;
    o->dp = a->set[FLAG_DP] ? flags_int(a, FLAG_DP) : 0;
    o->ep = a->set[FLAG_EP] ? flags_int(a, FLAG_EP) : 0;
    o->cp = a->set[FLAG_CP] ? flags_int(a, FLAG_CP) : 0;
    o->etp = a->set[FLAG_ETP] ? flags_int(a, FLAG_ETP) : 0;
    o->shard = a->set[FLAG_SHARD] ? flags_int(a, FLAG_SHARD) : 0;
    o->interleave = a->set[FLAG_INTERLEAVE] ? flags_int(a, FLAG_INTERLEAVE) : 0;
    o->micro_batch = a->set[FLAG_MB] ? flags_int(a, FLAG_MB) : 0;
    /* the framework settings given are pinned (the workload holds them);
     * those not given are free for the search to choose */
    o->zero = SWEEP_FREE;
    o->recompute = a->set[FLAG_RECOMPUTE] ? SWEEP_KEEP : SWEEP_FREE;
    o->seq_parallel = a->set[FLAG_SEQ_PARALLEL] ? SWEEP_KEEP : SWEEP_FREE;
    o->tp_overlap = a->set[FLAG_TP_OVERLAP] ? SWEEP_KEEP : SWEEP_FREE;
    if (a->set[FLAG_ZERO]) {
        o->zero = flags_int(a, FLAG_ZERO);
        if (o->zero > 3) {
            cli_usage_error("%s: --zero must be 0, 1, 2 or 3 (got %d)", cmd, o->zero);
            return false;
        }
    }
    if (!a->set[FLAG_GPUS] && o->tp && o->pp && o->dp) {
        long long world = (long long)o->tp * (o->cp ? o->cp : 1) * o->pp * o->dp;
        if (world > CLUSTER_MAX_GPUS) {
            cli_usage_error("%s: TP x CP x PP x DP = %lld GPUs is more than scalelab models "
                            "(at most %d)",
                            cmd, world, CLUSTER_MAX_GPUS);
            return false;
        }
        c->n_gpus = (int)world;
    }
    char err[300];
    if (!cluster_check(c, err, sizeof err)) {
        cli_usage_error("%s: %s", cmd, err);
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
    evalflags_pin_as_eval(w, &o);
    char err[300];
    if (!sweep_find_mapping(c, w, &o, m, NULL, err, sizeof err)) {
        cli_usage_error("%s: %s", cmd, err);
        return false;
    }
    return true;
}

void evalflags_pin_as_eval(const Workload *w, SweepOptions *o)
{
    o->micro_batch = w->micro_batch;
    if (!o->interleave)
        o->interleave = JOB_DEFAULT_INTERLEAVE;
    if (o->zero == SWEEP_FREE)
        o->zero = JOB_DEFAULT_ZERO;
    o->recompute = o->seq_parallel = o->tp_overlap = SWEEP_KEEP; /* eval runs what it is told */
}

/* --framework not given: the software the run's own settings point to
 * (job_framework's rule, which lessons follow too). */
static void infer_framework(const FlagArgs *a, const Cluster *c, Workload *w)
{
    if (!a->set[FLAG_FRAMEWORK] && a->set[FLAG_ZERO])
        job_framework(w, c, flags_int(a, FLAG_ZERO), a->set[FLAG_PP] ? flags_int(a, FLAG_PP) : 0);
}

bool evalflags_build(const char *cmd, const FlagArgs *a, Cluster *c, Workload *w,
                     SweepOptions *given)
{
    if (!(build_cluster(cmd, a, c) && build_workload(cmd, a, w) &&
          build_request(cmd, a, c, given)))
        return false;
    infer_framework(a, c, w);
    return true;
}

bool evalflags_mapping(const char *cmd, const FlagArgs *a, Cluster *c, Workload *w, Mapping *m)
{
    SweepOptions given;
    return evalflags_build(cmd, a, c, w, &given) && choose_mapping(cmd, c, w, &given, m);
}
