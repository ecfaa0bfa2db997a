/* SPDX-License-Identifier: MIT */
/* workload — transformer presets with their published shapes, and the FLOP
 * and parameter counts the step model is built on.
 *
 * FLOPs (a multiply-add is 2 FLOPs) per token, forward, one layer:
 *   attention projections  4*h^2*(1 + kv/heads)   (Q and O: 2h^2 each; K and V
 *                                                   shrink with GQA)
 *   attention scores       4*s*h                   (Q.K^T and scores.V; SC21
 *                                                   counts the full s*s square,
 *                                                   no causal halving: we do too)
 *   MLP                    2*g*h*ffn per expert used, g = 3 for SwiGLU, 2 plain
 *   logit layer            2*h*V                   (once, after the last layer)
 * Backward is 2x forward, so model FLOPs = 3 x forward. For GPT (kv = heads,
 * ffn = 4h, g = 2) this is SC21's 72*B*s*l*h^2*(1 + s/(6h) + V/(12lh)); full
 * recomputation adds one more forward of the layers (not of the logit layer),
 * giving Eq. 3: 96*B*s*l*h^2*(1 + s/(6h) + V/(16lh)). The GQA, SwiGLU and MoE
 * terms follow Megatron-LM's num_floating_point_operations.
 *
 * Parameters: GPT style (plain MLP) follows SC21 Eq. 2 exactly: 12h^2 + 13h
 * per layer (biases and two LayerNorms) and (V + s)*h of tied token and
 * learned position embeddings. Llama style (SwiGLU) has no biases, two
 * RMSNorm vectors per layer, untied input and output embeddings (2*V*h) and
 * a final norm.
 *
 * Pure: no I/O, no allocation. Depends on libc and base/msg.
 */
#include "model/workload.h"

#include "base/msg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Each preset's shape is from the paper named in its source string. */
static const WorkloadPreset presets[] = {
    {"gpt3-175b",
     "GPT-3 175B",
     /* Brown et al. 2020 Table 2.1 (96 layers, d_model 12288, 96 heads, context
      * 2048); vocab 51200 as Megatron SC21 Table 1 pads it; batch 1536 as in
      * SC21 §5.2 (about GPT-3's 3.2M tokens), micro-batch 1, full recompute. */
     "Brown et al. 2020 Table 2.1; Megatron SC21 §5.2",
     {.id = "gpt3-175b",
      .layers = 96,
      .hidden = 12288,
      .heads = 96,
      .kv_heads = 96,
      .ffn = 4 * 12288,
      .swiglu = false,
      .seq = 2048,
      .vocab = 51200,
      .global_batch = 1536,
      .micro_batch = 1,
      .recompute = WL_RECOMPUTE_FULL,
      .precision = WL_BF16,
      .flash_attention = false}},
    {"llama3-8b",
     "Llama 3 8B",
     /* Llama 3 Herd paper Table 3: 32 layers, 4096, 32 heads / 8 KV heads,
      * FFN 14336, vocab 128256, SwiGLU, context 8192. The paper gives the
      * batch schedule only for 405B (4M -> 8M -> 16M tokens); 8B takes the
      * first step, 4M tokens = 512 sequences of 8192. */
     "Llama 3 Herd of Models (Dubey et al. 2024) Table 3",
     {.id = "llama3-8b",
      .layers = 32,
      .hidden = 4096,
      .heads = 32,
      .kv_heads = 8,
      .ffn = 14336,
      .swiglu = true,
      .seq = 8192,
      .vocab = 128256,
      .global_batch = 512,
      .micro_batch = 1,
      .recompute = WL_RECOMPUTE_SELECTIVE,
      .precision = WL_BF16,
      .flash_attention = true}},
    {"llama3-70b",
     "Llama 3 70B",
     /* Table 3: 80 layers, 8192, 64 / 8 heads, FFN 28672; batch 8M tokens =
      * 1024 sequences of 8192 (the middle step of the 405B schedule). */
     "Llama 3 Herd of Models (Dubey et al. 2024) Table 3",
     {.id = "llama3-70b",
      .layers = 80,
      .hidden = 8192,
      .heads = 64,
      .kv_heads = 8,
      .ffn = 28672,
      .swiglu = true,
      .seq = 8192,
      .vocab = 128256,
      .global_batch = 1024,
      .micro_batch = 1,
      .recompute = WL_RECOMPUTE_SELECTIVE,
      .precision = WL_BF16,
      .flash_attention = true}},
    {"llama3-405b",
     "Llama 3 405B",
     /* Table 3: 126 layers, 16384, 128 / 8 heads, FFN 53248; §3.4.1: final
      * batch 16M tokens = 2048 sequences of 8192. */
     "Llama 3 Herd of Models (Dubey et al. 2024) Table 3, §3.4.1",
     {.id = "llama3-405b",
      .layers = 126,
      .hidden = 16384,
      .heads = 128,
      .kv_heads = 8,
      .ffn = 53248,
      .swiglu = true,
      .seq = 8192,
      .vocab = 128256,
      .global_batch = 2048,
      .micro_batch = 1,
      .recompute = WL_RECOMPUTE_SELECTIVE,
      .precision = WL_BF16,
      .flash_attention = true}},
    {"megatron-1t",
     "Megatron GPT 1T",
     /* Narayanan et al. SC21 Table 1, last row: 128 layers, 25600, 160 heads,
      * seq 2048, vocab 51200, batch 3072; micro-batch 1 and full recompute as
      * in NVIDIA/Megatron-LM examples/sc21/run_table_1.sh. */
     "Narayanan et al. SC21 Table 1; Megatron-LM examples/sc21",
     {.id = "megatron-1t",
      .layers = 128,
      .hidden = 25600,
      .heads = 160,
      .kv_heads = 160,
      .ffn = 4 * 25600,
      .swiglu = false,
      .seq = 2048,
      .vocab = 51200,
      .global_batch = 3072,
      .micro_batch = 1,
      .recompute = WL_RECOMPUTE_FULL,
      .precision = WL_BF16,
      .flash_attention = false}},
    {"deepseek-v3",
     "DeepSeek-V3 (MoE)",
     /* DeepSeek-V3 Technical Report §4.2: 61 layers, hidden 7168, 128 heads,
      * 1 shared + 256 routed experts of width 2048, top-8, first 3 layers
      * dense (FFN 18432), vocab 129280, 671B total / 37B active, seq 4096,
      * batch ramped to 15360 sequences, FP8 mixed precision (§3.3). MLA
      * (§2.1.1, §4.2): 128 heads of 128 + 64 rotary for queries and keys,
      * 128 for values, latent ranks 1536 (queries) and 512 (keys and
      * values). */
     "DeepSeek-V3 Technical Report (2024) §3.3, §4.2",
     {.id = "deepseek-v3",
      .layers = 61,
      .hidden = 7168,
      .heads = 128,
      .kv_heads = 128,
      .head_dim = 192, /* 128 + 64 rotary (§2.1.1: d_h = 128, d_h^R = 64) */
      .v_head_dim = 128,
      .q_lora = 1536, /* d_c' = 1536 (§4.2) */
      .kv_lora = 512, /* d_c = 512 (§4.2) */
      .ffn = 2048,
      .swiglu = true,
      .seq = 4096,
      .vocab = 129280,
      .params = 671e9,
      .global_batch = 15360,
      .micro_batch = 1,
      .experts = 256,
      .topk = 8,
      .shared_experts = 1,
      .moe_layers = 58,
      .dense_ffn = 18432,
      .recompute = WL_RECOMPUTE_SELECTIVE,
      .precision = WL_FP8,
      .flash_attention = true}},
};

#define N_PRESETS ((int)(sizeof presets / sizeof presets[0]))

int workload_preset_count(void)
{
    return N_PRESETS;
}

const WorkloadPreset *workload_preset_at(int i)
{
    return (i >= 0 && i < N_PRESETS) ? &presets[i] : NULL;
}

const char *workload_preset_id_at(int i, const void *ctx)
{
    (void)ctx;
    const WorkloadPreset *p = workload_preset_at(i);
    return p ? p->id : "";
}

const WorkloadPreset *workload_preset_find(const char *id)
{
    if (!id)
        return NULL;
    for (int i = 0; i < N_PRESETS; i++)
        if (strcmp(presets[i].id, id) == 0)
            return &presets[i];
    return NULL;
}

bool workload_is_moe(const Workload *w)
{
    return w && w->experts > 1;
}

int workload_layer_tensors(const Workload *w, int layer)
{
    if (!w)
        return 0;
    int attn = w->swiglu ? 4 + 2 : 2 + 2 + 4; /* SwiGLU: Q K V O + 2 RMSNorm */
    int mlp = w->swiglu ? 3 : 4;              /* GPT: fc1 fc2 + their biases */
    if (workload_layer_is_moe(w, layer))
        mlp = 1 + 1; /* router + the local experts, gathered as one group */
    return attn + mlp;
}

int workload_moe_layer_count(const Workload *w)
{
    if (!workload_is_moe(w))
        return 0;
    return w->moe_layers > 0 ? w->moe_layers : w->layers;
}

bool workload_layer_is_moe(const Workload *w, int layer)
{
    if (!workload_is_moe(w) || layer < 0 || layer >= w->layers)
        return false;
    /* Dense layers come first (DeepSeek-V3: the first 3 of 61). */
    return layer >= w->layers - workload_moe_layer_count(w);
}

static double gate_factor(const Workload *w)
{
    return w->swiglu ? 3.0 : 2.0;
}

static double dense_ffn(const Workload *w)
{
    return (workload_is_moe(w) && w->dense_ffn > 0) ? w->dense_ffn : w->ffn;
}

double workload_q_dim(const Workload *w)
{
    if (!w || w->heads <= 0)
        return 0;
    return (double)w->heads * (w->head_dim > 0 ? w->head_dim : w->hidden / w->heads);
}

double workload_v_dim(const Workload *w)
{
    if (!w || w->heads <= 0)
        return 0;
    double d = w->head_dim > 0 ? w->head_dim : (double)w->hidden / w->heads;
    return (double)w->heads * (w->v_head_dim > 0 ? w->v_head_dim : d);
}

/* The rotary part of an MLA key, shared by all heads (DeepSeek-V3 config:
 * qk_rope_head_dim 64). */
#define MLA_ROPE_DIM 64.0

double workload_kv_values_per_token(const Workload *w, int tp)
{
    if (!w || w->heads <= 0)
        return 0;
    if (w->kv_lora > 0)
        return w->kv_lora + MLA_ROPE_DIM;
    double kv_heads = ceil((double)w->kv_heads / (tp > 0 ? tp : 1));
    return kv_heads * (workload_q_dim(w) + workload_v_dim(w)) / w->heads;
}

/* Weights of the attention projections. Plain: Q h x q_dim, K and V
 * h x kv_heads x d each (GQA shrinks them), O v_dim x h. MLA (DeepSeek-V3
 * §2.1.1): Q through h x q_lora then q_lora x heads*d_qk (direct when
 * q_lora = 0), K and V through h x (kv_lora + 64) then kv_lora x
 * heads*(d_qk - 64 + d_v), O v_dim x h. */
typedef struct {
    double q, kv, o;
} AttnParams;

static AttnParams attn_proj_split(const Workload *w)
{
    double h = w->hidden, q = workload_q_dim(w), v = workload_v_dim(w);
    double dqk = q / w->heads, dv = v / w->heads;
    AttnParams p = {h * q, h * w->kv_heads * (dqk + dv), v * h};
    if (w->kv_lora > 0) {
        p.q = w->q_lora > 0 ? h * w->q_lora + (double)w->q_lora * q : h * q;
        p.kv = h * (w->kv_lora + MLA_ROPE_DIM) +
               (double)w->kv_lora * w->heads * (dqk - MLA_ROPE_DIM + dv);
    }
    return p;
}

static double attn_proj_params(const Workload *w)
{
    AttnParams p = attn_proj_split(w);
    return p.q + p.kv + p.o;
}

bool workload_layer_is_local(const Workload *w, int layer)
{
    if (!w || w->window <= 0 || w->window >= w->seq)
        return false;
    return w->global_every <= 0 || (layer + 1) % w->global_every != 0;
}

int workload_local_layer_count(const Workload *w, double s)
{
    if (!w || w->window <= 0 || w->window >= s || w->global_every == 1)
        return 0;
    return w->global_every > 0 ? w->layers - w->layers / w->global_every : w->layers;
}

double workload_causal_keys(const Workload *w, double s, bool local)
{
    double win = w ? w->window : 0;
    if (!local || !(win > 0) || win >= s)
        return 0.5 * s;
    return win - win * win / (2.0 * s);
}

/* The score FLOPs count every query against the whole sequence, as MFU
 * does (SC21 Eq. 3); a local layer counts its window's share of that
 * (twice the keys a causal query sees). */
static double attn_score_fwd_flops_per_token(const Workload *w, int layer)
{
    double keys = 2.0 * workload_causal_keys(w, w->seq, workload_layer_is_local(w, layer));
    return 2.0 * keys * (workload_q_dim(w) + workload_v_dim(w));
}

double workload_layer_fwd_flops_per_token(const Workload *w, int layer)
{
    if (!w || w->heads <= 0)
        return 0;
    double h = w->hidden;
    double attn_proj = 2.0 * attn_proj_params(w);
    double attn_score = attn_score_fwd_flops_per_token(w, layer);
    double mlp;
    if (workload_layer_is_moe(w, layer))
        mlp = 2.0 * gate_factor(w) * h * w->ffn * (w->topk + w->shared_experts);
    else
        mlp = 2.0 * gate_factor(w) * h * dense_ffn(w);
    return attn_proj + attn_score + mlp;
}

double workload_logit_fwd_flops_per_token(const Workload *w)
{
    return w ? 2.0 * w->hidden * (double)w->vocab : 0;
}

static double layer_params(const Workload *w, int layer, bool active_only)
{
    double h = w->hidden;
    double attn = attn_proj_params(w);
    double g = gate_factor(w);
    double mlp, small;
    if (w->swiglu)
        small = 2.0 * h; /* two RMSNorm weight vectors */
    else
        small = 4.0 * h + 4.0 * h; /* QKV + out biases, two LayerNorms (weight, bias) */
    if (w->kv_lora > 0)
        small += w->q_lora + w->kv_lora; /* MLA's two latent RMSNorms */
    if (workload_layer_is_moe(w, layer)) {
        double experts = active_only ? w->topk : w->experts;
        mlp = g * h * w->ffn * (experts + w->shared_experts);
        mlp += h * w->experts; /* router */
        if (!w->swiglu)
            small += (experts + w->shared_experts) * (w->ffn + h);
    } else {
        mlp = g * h * dense_ffn(w);
        if (!w->swiglu)
            small += dense_ffn(w) + h; /* MLP biases */
    }
    return attn + mlp + small;
}

double workload_layer_params(const Workload *w, int layer)
{
    if (!w || layer < 0 || layer >= w->layers)
        return 0;
    return layer_params(w, layer, false);
}

double workload_layer_expert_params(const Workload *w, int layer)
{
    if (!workload_layer_is_moe(w, layer))
        return 0;
    return gate_factor(w) * w->hidden * (double)w->ffn * w->experts;
}

double workload_embedding_params(const Workload *w)
{
    if (!w)
        return 0;
    double h = w->hidden;
    if (w->swiglu)
        return 2.0 * w->vocab * h + h;      /* untied in/out embeddings, final norm */
    return ((double)w->vocab + w->seq) * h; /* SC21 Eq. 2: tied, learned positions */
}

/* All dense layers are alike and so are all MoE layers: sums over layers
 * need one of each (the dense ones come first, the MoE ones last), unless
 * some attend in a window, whose pattern runs across both kinds. */
static double sum_layers(const Workload *w, double (*f)(const Workload *, int, bool), bool flag)
{
    int moe = workload_moe_layer_count(w), dense = w->layers - moe;
    double sum = 0;
    if (workload_local_layer_count(w, w->seq) > 0) {
        for (int l = 0; l < w->layers; l++)
            sum += f(w, l, flag);
        return sum;
    }
    if (dense > 0)
        sum += dense * f(w, 0, flag);
    if (moe > 0)
        sum += moe * f(w, w->layers - 1, flag);
    return sum;
}

static double derived_params(const Workload *w, bool active_only)
{
    return workload_embedding_params(w) + sum_layers(w, layer_params, active_only);
}

double workload_params(const Workload *w)
{
    if (!w)
        return 0;
    if (w->params > 0)
        return w->params;
    return derived_params(w, false);
}

double workload_active_params(const Workload *w)
{
    if (!w)
        return 0;
    if (!workload_is_moe(w))
        return workload_params(w);
    return derived_params(w, true);
}

static double tokens_per_step(const Workload *w)
{
    return (double)w->global_batch * w->seq;
}

static double layer_fwd(const Workload *w, int layer, bool unused)
{
    (void)unused;
    return workload_layer_fwd_flops_per_token(w, layer);
}

static double fwd_flops_per_token(const Workload *w)
{
    return workload_logit_fwd_flops_per_token(w) + sum_layers(w, layer_fwd, false);
}

double workload_model_flops(const Workload *w)
{
    if (!w)
        return 0;
    return 3.0 * fwd_flops_per_token(w) * tokens_per_step(w);
}

/* Forward FLOPs per token of the recomputed parts of one layer (norms and
 * activations are memory-bound: no FLOPs counted). */
static double layer_recompute_fwd(const Workload *w, int layer, bool unused)
{
    (void)unused;
    int mask = workload_recompute_mask(w);
    if (w->recompute == WL_RECOMPUTE_FULL)
        return workload_layer_fwd_flops_per_token(w, layer);
    double score = attn_score_fwd_flops_per_token(w, layer), f = 0;
    AttnParams p = attn_proj_split(w);
    double mlp = workload_layer_fwd_flops_per_token(w, layer) - 2.0 * attn_proj_params(w) - score;
    if (mask & WL_RC_ATTN) {
        f += 2.0 * attn_proj_params(w) + score;
    } else if ((mask & WL_RC_OP) && !(mask & WL_RC_MLP)) { /* every other matmul */
        return 0.5 * (workload_layer_fwd_flops_per_token(w, layer) - score);
    } else {
        f += (mask & WL_RC_CORE_ATTN ? score : 0) + (mask & WL_RC_Q ? 2.0 * p.q : 0) +
             (mask & WL_RC_KV ? 2.0 * p.kv : 0) + (mask & WL_RC_OPROJ ? 2.0 * p.o : 0);
    }
    if (mask & WL_RC_MLP)
        f += mlp;
    else if (mask & WL_RC_MLP_IN) /* the first GEMMs: 2 of 3 gated, 1 of 2 plain */
        f += mlp * (gate_factor(w) - 1) / gate_factor(w);
    return f;
}

double workload_recompute_flops(const Workload *w)
{
    if (!w || workload_recompute_mask(w) == 0)
        return 0;
    return sum_layers(w, layer_recompute_fwd, false) * tokens_per_step(w);
}

int workload_recompute_mask(const Workload *w)
{
    if (!w)
        return 0;
    if (w->recompute == WL_RECOMPUTE_FULL)
        return WL_RC_CORE_ATTN | WL_RC_NORM | WL_RC_MLP_ACT | WL_RC_MLP | WL_RC_ATTN;
    if (w->recompute_mods)
        return w->recompute_mods;
    return w->recompute == WL_RECOMPUTE_SELECTIVE ? WL_RC_CORE_ATTN : 0;
}

double workload_hw_flops(const Workload *w)
{
    if (!w)
        return 0;
    return workload_model_flops(w) + workload_recompute_flops(w);
}

double workload_act_bytes(const Workload *w)
{
    (void)w;
    return 2.0; /* BF16 activations; FP8 recipes keep most of them in BF16 too */
}

#define WORDS_MAX WL_FW_COUNT
static const char *const word_sets[][WORDS_MAX] = {
    [WL_WORDS_RECOMPUTE] = {"none", "selective", "full", NULL},
    [WL_WORDS_PRECISION] = {"bf16", "fp8", NULL},
    [WL_WORDS_GRAPHS] = {"none", "attn", "full", NULL},
    [WL_WORDS_OFFLOAD] = {"optimizer", "weights", "activations", NULL},
    [WL_WORDS_FRAMEWORK] = {"auto", "megatron", "pytorch", "pytorch-compile", "jax", "deepspeed"},
};

/* the words set has; 0 for a set that is not one */
static int word_count(WlWords set)
{
    int n = 0;
    if (set < WL_WORDS_RECOMPUTE || set > WL_WORDS_FRAMEWORK)
        return 0;
    while (n < WORDS_MAX && word_sets[set][n])
        n++;
    return n;
}

const char *workload_word(WlWords set, int value)
{
    if (value < 0 || value >= word_count(set))
        return "?";
    return word_sets[set][value];
}

int workload_word_parse(WlWords set, const char *word)
{
    int n = word ? word_count(set) : 0;
    for (int i = 0; i < n; i++)
        if (strcmp(word, word_sets[set][i]) == 0)
            return i;
    return -1;
}

void workload_word_list(WlWords set, char quote, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    buf[0] = '\0';
    int n = word_count(set);
    size_t at = 0;
    for (int i = 0; i < n && at < len; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int k =
            quote ? snprintf(buf + at, len - at, "%s%c%s%c", sep, quote, word_sets[set][i], quote)
                  : snprintf(buf + at, len - at, "%s%s", sep, word_sets[set][i]);
        at += k > 0 ? (size_t)k : 0;
    }
}

bool workload_check(const Workload *w, char *err, size_t err_len)
{
    if (!w)
        return msg_fail(err, err_len, "no workload");
    if (w->layers <= 0)
        return msg_fail(err, err_len, "layers must be positive (got %d)", w->layers);
    if (w->hidden <= 0)
        return msg_fail(err, err_len, "hidden size must be positive (got %d)", w->hidden);
    if (w->heads <= 0)
        return msg_fail(err, err_len, "heads must be positive (got %d)", w->heads);
    if (w->head_dim < 0 || w->v_head_dim < 0 || w->head_dim > 65536 || w->v_head_dim > 65536)
        return msg_fail(err, err_len, "head widths must be 0 (derived) or positive");
    if (w->window < 0 || w->window > 1 << 24 || w->global_every < 0 || w->global_every > w->layers)
        return msg_fail(err, err_len,
                        "the attention window must be 0 (none) or positive, and global-every "
                        "between 0 and the %d layers",
                        w->layers);
    if (w->global_every > 0 && w->window == 0)
        return msg_fail(err, err_len, "global-every needs an attention window (--window)");
    if (w->head_dim == 0 && w->hidden % w->heads != 0)
        return msg_fail(err, err_len, "%d heads do not divide the hidden size %d", w->heads,
                        w->hidden);
    if (w->q_lora < 0 || w->kv_lora < 0 || w->q_lora > 4.0 * w->hidden ||
        w->kv_lora > 4.0 * w->hidden)
        return msg_fail(err, err_len, "latent attention ranks must be 0 or positive");
    if (w->kv_lora > 0 && !(workload_q_dim(w) / w->heads > MLA_ROPE_DIM))
        return msg_fail(err, err_len,
                        "latent attention needs a head width above its 64-wide rotary part "
                        "(--head-dim)");
    if (w->kv_heads <= 0 || w->kv_heads > w->heads)
        return msg_fail(err, err_len, "kv-heads must be between 1 and the %d heads (got %d)",
                        w->heads, w->kv_heads);
    if (w->heads % w->kv_heads != 0)
        return msg_fail(err, err_len, "%d kv-heads do not divide the %d heads", w->kv_heads,
                        w->heads);
    if (w->ffn <= 0)
        return msg_fail(err, err_len, "feed-forward width must be positive (got %d)", w->ffn);
    if (w->seq <= 0)
        return msg_fail(err, err_len, "sequence length must be positive (got %d)", w->seq);
    if (w->vocab <= 0)
        return msg_fail(err, err_len, "vocabulary must be positive (got %d)", w->vocab);
    if (!(w->params >= 0) || !isfinite(w->params))
        return msg_fail(err, err_len, "parameter count must be positive or 0 to derive it");
    if (w->global_batch <= 0)
        return msg_fail(err, err_len, "global batch must be positive (got %d)", w->global_batch);
    if (w->micro_batch <= 0)
        return msg_fail(err, err_len, "micro-batch must be positive (got %d)", w->micro_batch);
    if (w->micro_batch > w->global_batch)
        return msg_fail(err, err_len, "micro-batch %d is larger than the global batch %d",
                        w->micro_batch, w->global_batch);
    if (w->experts < 0)
        return msg_fail(err, err_len, "experts must be 0 (dense) or more (got %d)", w->experts);
    if (w->experts > 1) {
        if (w->topk < 1 || w->topk > w->experts)
            return msg_fail(err, err_len, "top-k must be between 1 and the %d experts (got %d)",
                            w->experts, w->topk);
        if (w->moe_layers < 0 || w->moe_layers > w->layers)
            return msg_fail(err, err_len,
                            "MoE layers must be between 0 and the %d layers (got %d)", w->layers,
                            w->moe_layers);
        if (w->shared_experts < 0)
            return msg_fail(err, err_len, "shared experts must be 0 or more (got %d)",
                            w->shared_experts);
        if (w->dense_ffn < 0)
            return msg_fail(err, err_len, "dense feed-forward width must be 0 or more (got %d)",
                            w->dense_ffn);
    }
    if (w->recompute < WL_RECOMPUTE_NONE || w->recompute > WL_RECOMPUTE_FULL)
        return msg_fail(err, err_len, "unknown recompute policy");
    if (w->recompute_mods < 0 || w->recompute_mods > WL_RC_ALL_PARTS)
        return msg_fail(err, err_len, "unknown recompute parts");
    if (w->act_host < 0 || w->act_host > WL_T_ALL)
        return msg_fail(err, err_len, "unknown offloaded tensors");
    const double st[4] = {w->master_bytes, w->grad_bytes, w->mu_bytes, w->nu_bytes};
    for (int i = 0; i < 4; i++)
        if (!(st[i] == 0 || st[i] == 2 || st[i] == 4))
            return msg_fail(err, err_len, "training state bytes must be 2 or 4 (0: default)");
    if (w->loss_chunks < 0)
        return msg_fail(err, err_len, "loss chunks must be 1 or more (0: default)");
    if (w->recompute_layers < 0 || w->recompute_layers > w->layers)
        return msg_fail(err, err_len, "recomputed layers must be between 0 and the %d layers",
                        w->layers);
    if (w->offload_layers < 0 || w->offload_layers > w->layers)
        return msg_fail(err, err_len, "offloaded layers must be between 0 and the %d layers",
                        w->layers);
    if (w->offload_layers > 0 && !(w->offload & WL_OFFLOAD_ACTIVATIONS))
        return msg_fail(err, err_len,
                        "offloaded layers need activations offloaded "
                        "(--offload activations)");
    if (w->offload < 0 || w->offload > 7)
        return msg_fail(err, err_len, "unknown offload");
    if (!(w->capacity_factor >= 0) || w->capacity_factor > 64 ||
        (w->capacity_factor > 0 && w->capacity_factor < 1))
        return msg_fail(err, err_len, "capacity factor must be between 1 and 64 (got %g)",
                        w->capacity_factor);
    if (w->precision != WL_BF16 && w->precision != WL_FP8)
        return msg_fail(err, err_len, "unknown precision");
    const WlSwitch sw[] = {w->seq_parallel, w->tp_overlap, w->pp_overlap,
                           w->dp_overlap,   w->ep_overlap, w->ep_dedup,
                           w->fused_loss,   w->dropout,    w->pp_by_cost};
    for (size_t i = 0; i < sizeof sw / sizeof sw[0]; i++)
        if (sw[i] < WL_AUTO || sw[i] > WL_OFF)
            return msg_fail(err, err_len, "unknown on/off setting");
    if (w->cuda_graphs < WL_GRAPHS_NONE || w->cuda_graphs > WL_GRAPHS_FULL)
        return msg_fail(err, err_len, "unknown CUDA graph scope");
    if (w->flash_version < 0 || w->flash_version > 3)
        return msg_fail(err, err_len, "FlashAttention version must be 1, 2 or 3 (0: default)");
    if (w->framework < WL_FW_AUTO || w->framework >= WL_FW_COUNT)
        return msg_fail(err, err_len, "unknown framework");
    return true;
}
