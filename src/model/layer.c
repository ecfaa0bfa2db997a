/* SPDX-License-Identifier: MIT */
/* layer — one transformer layer's kernels on one GPU for one micro-batch:
 * its GEMMs at their per-GPU shapes (kernel.h), attention as its own
 * kernel, the element-wise work, the FP8 casts, the activations it keeps
 * for backward and what recompute does again.
 *
 * Shapes (T = b x s/CP tokens, t = TP, d the head widths; GEMMs as
 * [M x K] x [K x N]):
 *   QKV    T x h  by h x (q_dim + kv_heads (d_qk + d_v)) / t
 *          MLA: h -> q_lora -> heads d_qk / t; h -> kv_lora + 64 (not split)
 *          -> heads (d_qk - 64 + d_v) / t (DeepSeek-V3 §2.1.1)
 *   attention  b heads / t of s/CP queries against s keys (causal)
 *   O      T x v_dim/t  by v_dim/t x h
 *   MLP    T x h by h x gF/t, T x F/t by F/t x h (g = 2 gated)
 *   MoE    router T x h by h x E; E/EP local experts as one grouped GEMM of
 *          T_e = T k EP ETP / (E t) tokens each, ETP-split: with a capacity
 *          factor (>= 1), T_e x the factor (every expert padded to the
 *          capacity, tokens past it dropped), a dense batched GEMM;
 *          dropless, the grouped kernel over T_e + its padding rows at its
 *          own share (kernel.c); shared experts as a dense MLP
 * Backward runs each GEMM twice more (data gradient [M x N] x [N x K],
 * weight gradient [K x M] x [M x N]) and attention's backward kernel.
 *
 * Element-wise work (norms, activations, residuals, rotary, dropout,
 * softmax without FlashAttention) moves nonmatmul_bytes_per_act x the
 * activation bytes a layer produces through HBM over forward and backward
 * (MODEL-FACTS §9), a third of it in forward. FP8 (Transformer Engine):
 * only the linear layers' GEMMs run in FP8; every FP8 GEMM casts its input
 * and, in backward, its output gradient, writing an FP8 copy and a
 * transposed one (~5 bytes moved per element with the scaling's amax pass,
 * TE "Using FP8" [R][D]); attention and element-wise work stay BF16.
 *
 * Activations kept (Korthikanti et al. 2022 Table 2, 16-bit, generalised
 * to GQA, head widths and SwiGLU): per token, replicated over TP unless
 * sequence parallel: the layer input 2h, norm outputs 2h + 2h, the residual
 * 2h, dropout masks 2h (GPT); split over TP: Q, K, V, the attention output,
 * the MLP's first GEMM output and its activation; 5 a s for the scores
 * without FlashAttention. FP8 keeps each GEMM input in FP8 (1 byte).
 * Recompute drops the parts it redoes (workload.h's WL_RC_*), full keeps
 * only the layer input.
 */
#include "model/step_work.h"

#include <math.h>
#include <string.h>

typedef struct {
    const KernelCtx *k;
    KernelPrec lin; /* precision of the linear layers' GEMMs */
    double in_b;    /* bytes of their inputs */
    bool fp8;
    double cast_bytes; /* FP8 cast traffic accumulated */
    double flops;      /* accumulated */
} Gemms;

typedef double (*GemmFn)(const KernelCtx *, double, double, double, int, KernelPrec, double,
                         double);

/* A GEMM's three passes: *f the forward, *b data and weight gradients; the
 * kernel computes `rows` rows where M are useful (FLOPs and casts count M). */
static void gemm3_in(Gemms *g, GemmFn gemm, double M, double rows, double N, double K, int groups,
                     double *f, double *b)
{
    *f = gemm(g->k, rows, N, K, groups, g->lin, g->in_b, 2.0);
    /* the weight gradient accumulates into FP32 main_grad (Megatron's
     * gradient-accumulation fusion); the idealised chip counts BF16 */
    *b = gemm(g->k, rows, K, N, groups, g->lin, g->in_b, 2.0) +
         gemm(g->k, K, N, rows, groups, g->lin, g->in_b, g->k->flat ? 2.0 : 4.0);
    g->flops += 6.0 * M * N * K * groups;
    if (g->fp8)
        g->cast_bytes += 5.0 * groups * (M * K + M * N);
}

static void gemm3(Gemms *g, double M, double N, double K, int groups, double *f, double *b)
{
    gemm3_in(g, kernel_gemm_s, M, M, N, K, groups, f, b);
}

/* A dropless MoE's experts as one grouped kernel: M tokens routed to each
 * of `groups` experts on this GPU, and the rows its tiles compute past them
 * (kernel.h). */
static void gemm3_grouped(Gemms *g, double M, double N, double K, int groups, double *f, double *b)
{
    gemm3_in(g, kernel_grouped_gemm_s, M, M + g->k->a.gmm_pad_rows, N, K, groups, f, b);
}

/* A GEMM outside the FP8 recipe (router, output layer): BF16. */
static void gemm3_bf16(Gemms *g, double M, double N, double K, double *f, double *b)
{
    *f = kernel_gemm_s(g->k, M, N, K, 1, KERNEL_BF16, 2.0, 2.0);
    *b = kernel_gemm_s(g->k, M, K, N, 1, KERNEL_BF16, 2.0, 2.0) +
         kernel_gemm_s(g->k, K, N, M, 1, KERNEL_BF16, 2.0, g->k->flat ? 2.0 : 4.0);
    g->flops += 6.0 * M * N * K;
}

/* Activation bytes per token of one layer, by what recompute can drop. */
typedef struct {
    double input, norm, resid, drop; /* replicated over TP (or split with SP) */
    double q, kv, core, fc1, act;    /* split over TP */
    double act_eager;                /* kept with act, moved by no kernel of its own */
    double moe_out; /* the routed copies' expert outputs, where backward needs them
                     * (WL_T_MLP_OUT: JAX); written and read by the permutation's
                     * passes, so in no element-wise total */
} ActBytes;

/* The query/key/value projections; fills the QKV part and slot 0. */
static void attn_proj(const Step *S, Gemms *g, LayerCost *lc, double *bwd)
{
    const Workload *w = S->w;
    double T = S->b * S->s_loc, h = S->h, t = S->t;
    double q = workload_q_dim(w), v = workload_v_dim(w), dqk = q / w->heads, dv = v / w->heads;
    double f = 0, b = 0, f1, b1;
    if (w->kv_lora > 0) {
        if (w->q_lora > 0) {
            gemm3(g, T, w->q_lora, h, 1, &f1, &b1), f += f1, b += b1;
            gemm3(g, T, q / t, w->q_lora, 1, &f1, &b1), f += f1, b += b1;
        } else {
            gemm3(g, T, q / t, h, 1, &f1, &b1), f += f1, b += b1;
        }
        double fq = f;
        gemm3(g, T, w->kv_lora + 64.0, h, 1, &f1, &b1), f += f1, b += b1;
        gemm3(g, T, w->heads * (dqk - 64 + dv) / t, w->kv_lora, 1, &f1, &b1), f += f1, b += b1;
        lc->q_share = f > 0 ? fq / f : 0;
    } else { /* one fused GEMM: the queries' share by width */
        double kvh = w->kv_heads / t > 1 ? w->kv_heads / t : 1;
        gemm3(g, T, q / t + kvh * (dqk + dv), h, 1, &f, &b);
        lc->q_share = (q / t) / (q / t + kvh * (dqk + dv));
    }
    lc->part_fwd_s[LP_QKV] = f;
    lc->tp_gemm_s[0][0] = f, lc->tp_gemm_s[1][0] = b;
    *bwd += b;
}

/* Attention itself: FlashAttention (its own kernel) or, without it, the
 * score GEMMs at the linear rate with the softmax as element-wise work. */
static void attn_core(const Step *S, const Gemms *g, LayerCost *lc, double *bwd)
{
    const Workload *w = S->w;
    double q = workload_q_dim(w), v = workload_v_dim(w);
    double dqk = q / w->heads, dv = v / w->heads, cp = S->m->cp;
    double bh = S->b * w->heads / S->t, fl = 0;
    if (w->flash_attention && !g->k->flat) {
        /* context parallelism runs CP ring steps of s/CP keys each */
        double f =
            kernel_attention_s(g->k, bh * cp, S->s_loc, S->s / cp, dqk, dv, true, false, &fl) +
            (cp - 1) * g->k->a.launch_s;
        double b =
            kernel_attention_s(g->k, bh * cp, S->s_loc, S->s / cp, dqk, dv, true, true, NULL) +
            (cp - 1) * g->k->a.launch_s;
        int local = workload_local_layer_count(w, S->s);
        if (local > 0) { /* local layers: the kernels skip the blocks past the window
                          * and compute the blocks it touches (kernel_window_keys);
                          * CP runs only the ring steps that reach back a window;
                          * the layer is the mean of local and global ones */
            double keys = kernel_window_keys(g->k, S->s, w->window), fl_loc;
            double steps = fmin(cp, 1.0 + ceil(w->window / (S->s / cp)));
            double f_loc =
                kernel_attention_s(g->k, bh, S->s_loc, keys, dqk, dv, false, false, &fl_loc) +
                (steps - 1) * g->k->a.launch_s;
            double b_loc =
                kernel_attention_s(g->k, bh, S->s_loc, keys, dqk, dv, false, true, NULL) +
                (steps - 1) * g->k->a.launch_s;
            fl_loc *= workload_causal_keys(w, S->s, true) / keys; /* the useful FLOPs */
            double u = (double)local / w->layers;
            f += u * (f_loc - f);
            b += u * (b_loc - b);
            fl += u * (fl_loc - fl);
        }
        lc->part_fwd_s[LP_CORE] = f;
        lc->attn_s = f + b;
        lc->flops += 3.5 * fl;
        *bwd += b;
        return;
    }
    /* 2021-era: Q K^T and scores x V as batched GEMMs of the full square */
    int groups = bh >= 1 ? (int)bh : 1;
    double f = kernel_gemm_s(g->k, S->s_loc, S->s, dqk, groups, KERNEL_BF16, 2.0, 2.0) +
               kernel_gemm_s(g->k, S->s_loc, dv, S->s, groups, KERNEL_BF16, 2.0, 2.0);
    lc->part_fwd_s[LP_CORE] = f;
    lc->attn_s = 3.0 * f;
    lc->flops += 6.0 * S->s_loc * S->s * (dqk + dv) * bh;
    *bwd += 2.0 * f;
}

/* The MLP of a dense layer or the MoE block; fills the MLP part and slots 2, 3. */
static void mlp(const Step *S, Gemms *g, bool moe, LayerCost *lc, double *bwd)
{
    const Workload *w = S->w;
    double T = S->b * S->s_loc, h = S->h, t = S->t, gf = w->swiglu ? 2.0 : 1.0;
    double f1, b1, f2, b2, f = 0, b = 0;
    if (!moe) {
        double F = w->dense_ffn > 0 && workload_is_moe(w) ? w->dense_ffn : w->ffn;
        gemm3(g, T, gf * F / t, h, 1, &f1, &b1);
        gemm3(g, T, h, F / t, 1, &f2, &b2);
        lc->tp_gemm_s[0][2] = f1, lc->tp_gemm_s[1][2] = b1;
        lc->tp_gemm_s[0][3] = f2, lc->tp_gemm_s[1][3] = b2;
        lc->part_fwd_s[LP_MLP] = f1;
        lc->part_fwd_s[LP_MLP_OUT] = f2;
        *bwd += b1 + b2;
        return;
    }
    double E = w->experts, etp = mapping_etp(S->m), local = E / S->e;
    double cf = w->capacity_factor > 1 ? w->capacity_factor : 1.0;
    double Te = T * w->topk * S->e * etp / (E * t) * cf;
    gemm3_bf16(g, T / (S->sp ? t : 1), E, h, &f1, &b1); /* router */
    f += f1, b += b1;
    int groups = local >= 1 ? (int)local : 1;
    if (w->capacity_factor >= 1) { /* a capacity: each expert padded to it, a batched GEMM */
        gemm3(g, Te, gf * w->ffn / etp, h, groups, &f1, &b1);
        gemm3(g, Te, h, w->ffn / etp, groups, &f2, &b2);
    } else {
        gemm3_grouped(g, Te, gf * w->ffn / etp, h, groups, &f1, &b1);
        gemm3_grouped(g, Te, h, w->ffn / etp, groups, &f2, &b2);
    }
    double fo = f2;
    f += f1, b += b1 + b2;
    lc->tp_gemm_s[0][2] = f1, lc->tp_gemm_s[1][2] = b1;
    lc->tp_gemm_s[0][3] = f2, lc->tp_gemm_s[1][3] = b2;
    if (w->shared_experts > 0) {
        double Fs = (double)w->ffn * w->shared_experts;
        gemm3(g, T, gf * Fs / t, h, 1, &f1, &b1);
        gemm3(g, T, h, Fs / t, 1, &f2, &b2);
        f += f1, fo += f2, b += b1 + b2;
    }
    lc->part_fwd_s[LP_MLP] = f;
    lc->part_fwd_s[LP_MLP_OUT] = fo;
    *bwd += b;
}

/* Activation bytes per token by part (see the header); the dropout masks
 * only with dropout (Workload.dropout). */
static ActBytes layer_act(const Step *S, bool moe)
{
    const Workload *w = S->w;
    double h = S->h, t = S->t, rep = S->sp ? t : 1;
    double in = S->fp8 ? 0.5 : 1.0; /* GEMM inputs kept in FP8 */
    double q = workload_q_dim(w), v = workload_v_dim(w), dqk = q / w->heads, dv = v / w->heads;
    double kvh = w->kv_heads / t > 1 ? w->kv_heads / t : 1;
    ActBytes a;
    a.input = 2.0 * h / rep;
    a.norm = 2.0 * (2.0 * h * in) / rep;
    a.resid = 2.0 * h / rep;
    a.drop = S->dropout ? 2.0 * h / rep : 0;
    a.q = 2.0 * q / t;
    a.kv = 2.0 * kvh * (dqk + dv);
    if (w->kv_lora > 0) { /* the latents, inputs of the up GEMMs */
        a.q += 2.0 * w->q_lora * in;
        a.kv += 2.0 * w->kv_lora * in;
    }
    a.core = 2.0 * v / t * in;
    if (!w->flash_attention)
        a.core += 5.0 * w->heads * S->s / t; /* scores, softmax, dropout mask */
    double F = moe ? w->ffn : (w->dense_ffn > 0 && workload_is_moe(w) ? w->dense_ffn : w->ffn);
    double copies = moe ? (double)w->topk + w->shared_experts : 1.0;
    /* expert tokens per local token: top-k copies over t (see mlp) */
    a.fc1 = 2.0 * (w->swiglu ? 2.0 : 1.0) * F * copies / t;
    a.act = 2.0 * F * in * copies / t;
    if (moe) /* the dispatched copies of each token and their routing probabilities */
        a.fc1 += (2.0 * h * w->topk + 4.0 * w->experts) / rep;
    a.moe_out = moe && S->xla ? 2.0 * h * w->topk / rep : 0;
    /* eager PyTorch's SwiGLU, silu(x W1) * (x W3) as two ops (torchtitan,
     * nanotron): the multiply keeps SiLU's output too, where a fused kernel
     * recomputes it from x W1 */
    a.act_eager = S->f->kern.stack == KERNEL_EAGER && w->swiglu ? 2.0 * F * copies / t : 0;
    return a;
}

/* What eager PyTorch moves through HBM beyond the fused kernels, per token
 * of one layer's forward (backward twice that), by part [D from the ops
 * torchtitan's Llama runs; the fused kernel reads and writes each tensor
 * once]: RMSNorm as x.float(), pow, mean, x * rsqrt, type_as, * weight: 36
 * bytes per element against 4 (x 2 norms); rotary embedding as float,
 * complex multiply, type_as: 20 against 4 (queries and keys); SwiGLU as
 * silu then mul: 10 against 6 per FFN element; the attention output made
 * contiguous again after SDPA: 4. GPT-style layers (LayerNorm, GeLU, learned
 * positions: one aten kernel each) add only that copy. Gated models are
 * taken to be Llama-style. */
typedef struct {
    double norm, act; /* bytes per token: norms, rotary and copies; the MLP activation */
} EagerBytes;

static EagerBytes eager_bytes(const Step *S, bool moe)
{
    EagerBytes x = {0, 0};
    if (S->f->kern.stack != KERNEL_EAGER)
        return x;
    const Workload *w = S->w;
    double t = S->t, rep = S->sp ? t : 1, q = workload_q_dim(w), v = workload_v_dim(w);
    double kvh = w->kv_heads / t > 1 ? w->kv_heads / t : 1;
    x.norm = 4.0 * v / t;
    if (w->swiglu) {
        double F = moe ? (double)w->ffn * (w->topk + w->shared_experts) : w->ffn;
        if (!moe && w->dense_ffn > 0 && workload_is_moe(w))
            F = w->dense_ffn;
        x.norm += 2.0 * 32.0 * S->h / rep + 16.0 * (q / t + kvh * q / w->heads);
        x.act = 4.0 * F / t;
    }
    return x;
}

/* What the recompute mask keeps of a, on the device and (offloading
 * activations) in host memory: a kept tensor named in host (WL_T_*, every
 * one when host is -1) goes there. Full recompute keeps the layer input;
 * torchtitan's per-op policy the input, attention and every other matmul's
 * output; otherwise every tensor but the dropped parts' (the whole
 * attention or MLP module drops its norm's output too). */
typedef struct {
    double dev, host;
    int host_mask;
} Kept;

static void keep(Kept *k, double bytes, int tensor)
{
    if (k->host_mask == -1 || (tensor && (k->host_mask & tensor)))
        k->host += bytes;
    else
        k->dev += bytes;
}

static Kept kept_bytes(const ActBytes *a, int mask, bool full, int host_mask)
{
    Kept k = {0, 0, host_mask};
    keep(&k, a->input, WL_T_INPUT);
    if (full)
        return k;
    bool attn = mask & WL_RC_ATTN, mlpw = mask & WL_RC_MLP;
    if ((mask & WL_RC_OP) && !attn && !mlpw) { /* the input, attention, every other matmul */
        keep(&k, a->core, WL_T_CONTEXT);
        keep(&k, 0.5 * (a->q + a->kv + a->fc1 + a->resid), 0);
        return k;
    }
    keep(&k, a->drop, 0);
    if (!(mask & WL_RC_OPROJ))
        keep(&k, a->resid, WL_T_OUT);
    if (!(mask & WL_RC_NORM))
        keep(&k, (attn ? 0 : 0.5 * a->norm) + (mlpw ? 0 : 0.5 * a->norm), 0);
    if (!attn && !(mask & WL_RC_Q))
        keep(&k, a->q, WL_T_Q);
    if (!attn && !(mask & WL_RC_KV))
        keep(&k, a->kv, WL_T_KV);
    if (!attn && !(mask & WL_RC_CORE_ATTN))
        keep(&k, a->core, WL_T_CONTEXT);
    if (!mlpw && !(mask & WL_RC_MLP_IN))
        keep(&k, a->fc1, WL_T_MLP_IN);
    if (!mlpw && !(mask & WL_RC_MLP_ACT))
        keep(&k, a->act + a->act_eager, 0);
    if (!mlpw && !(mask & WL_RC_MLP_OUT))
        keep(&k, a->moe_out, WL_T_MLP_OUT);
    return k;
}

static double act_total(const ActBytes *a)
{
    return a->input + a->norm + a->resid + a->drop + a->q + a->kv + a->core + a->fc1 + a->act;
}

/* The forward time recompute adds to backward, from what the mask drops
 * (see kept_bytes): each dropped tensor's part runs again (a dropped query
 * or key/value projection its share of the fused GEMM); a module that
 * reruns whole (S->rerun) also redoes its last GEMM, whose output backward
 * does not need (the output projection of attention, the MLP's second
 * GEMM), which XLA prunes. Full recompute is the whole forward, or under
 * XLA all but the MLP's second GEMM, which a MoE layer under JAX keeps
 * (its combine weights the expert outputs: WL_T_MLP_OUT) and reruns when
 * they are dropped. */
static double recompute_s(const Step *S, const LayerCost *lc, bool moe)
{
    const double *p = lc->part_fwd_s;
    int m = S->rc_mask;
    /* the second GEMM's output is needed where the combine weights it */
    bool out = S->rerun || (moe && S->xla);
    if (S->full)
        return lc->fwd_s - (out ? 0 : p[LP_MLP_OUT]);
    bool attn = m & WL_RC_ATTN, mlpw = m & WL_RC_MLP;
    if ((m & WL_RC_OP) && !attn && !mlpw) /* see kept_bytes */
        return p[LP_NORM] + p[LP_ACT] +
               0.5 * (p[LP_QKV] + p[LP_OPROJ] + p[LP_MLP] + p[LP_MLP_OUT]);
    double rc = 0;
    if (attn || (m & WL_RC_Q))
        rc += lc->q_share * p[LP_QKV];
    if (attn || (m & WL_RC_KV))
        rc += (1 - lc->q_share) * p[LP_QKV];
    if (attn || (m & WL_RC_CORE_ATTN))
        rc += p[LP_CORE];
    if ((attn && S->rerun) || (m & WL_RC_OPROJ))
        rc += p[LP_OPROJ];
    if (mlpw || (m & WL_RC_MLP_IN))
        rc += p[LP_MLP];
    if (mlpw || (m & WL_RC_MLP_ACT))
        rc += p[LP_ACT];
    if ((mlpw && out) || (moe && S->xla && (m & WL_RC_MLP_OUT)))
        rc += p[LP_MLP_OUT];
    if (m & WL_RC_NORM)
        rc += p[LP_NORM];
    return rc;
}

/* One layer of a kind. */
static void layer_cost(const Step *S, const KernelCtx *k, bool moe, LayerCost *lc)
{
    const Workload *w = S->w;
    double T = S->b * S->s_loc;
    Gemms g = {k, S->fp8 ? KERNEL_FP8 : KERNEL_BF16, S->fp8 ? 1.0 : 2.0, S->fp8, 0, 0};
    double bwd = 0, f, b;
    attn_proj(S, &g, lc, &bwd);
    attn_core(S, &g, lc, &bwd);
    gemm3(&g, T, S->h, workload_v_dim(w) / S->t, 1, &f, &b); /* O */
    lc->part_fwd_s[LP_OPROJ] = f;
    lc->tp_gemm_s[0][1] = f, lc->tp_gemm_s[1][1] = b;
    bwd += b;
    mlp(S, &g, moe, lc, &bwd);
    lc->gemm_s = lc->part_fwd_s[LP_QKV] + lc->part_fwd_s[LP_OPROJ] + lc->part_fwd_s[LP_MLP] +
                 lc->part_fwd_s[LP_MLP_OUT] + bwd - (lc->attn_s - lc->part_fwd_s[LP_CORE]);
    lc->flops += g.flops;
    /* element-wise: a third forward, two thirds backward; the activation's
     * share and the rest (norms, residuals) apart for recompute */
    ActBytes a = layer_act(S, moe);
    double per_act = S->P.nonmatmul_bytes_per_act * T / 3.0;
    EagerBytes x = eager_bytes(S, moe);
    double e_act = kernel_stream_s(k, per_act * (a.fc1 + a.act) + T * x.act);
    double e_all = kernel_stream_s(k, per_act * act_total(&a) + T * (x.norm + x.act));
    double permute = 0;
    if (moe) { /* permute and un-permute: the routed copies read and written, each way;
                * after the all-to-all, with more than one local expert, sorted by
                * expert and back (Megatron-Core's alltoall dispatcher "permutation 2",
                * sort_chunks_by_idxs; MaxText's local permute), which a dispatch
                * that lands tokens by expert (DeepEP, ep_dedup) does not need */
        double passes = S->ep_sort ? 8.0 : 4.0;
        permute = kernel_stream_s(k, passes * T * w->topk * S->h * S->act_b / (S->sp ? S->t : 1));
    }
    double cast = kernel_stream_s(k, g.cast_bytes) / 3.0; /* a third in forward */
    lc->part_fwd_s[LP_ACT] = e_act;
    lc->part_fwd_s[LP_NORM] = e_all - e_act + cast;
    lc->part_fwd_s[LP_MLP] += 0.5 * permute;
    lc->part_fwd_s[LP_MLP_OUT] += 0.5 * permute;
    lc->stream_s = 3.0 * (e_all + cast) + 2.0 * permute;
    lc->fwd_s = 0;
    for (int i = 0; i < LP_COUNT; i++)
        lc->fwd_s += lc->part_fwd_s[i];
    lc->bwd_s = bwd + 2.0 * (e_all + cast) + permute;
    lc->recompute_s = recompute_s(S, lc, moe);
}

void layer_memory(Step *S)
{
    double T = S->b * S->s_loc;
    S->stored_dense = S->full_dense = S->stored_moe = S->full_moe = 0;
    S->host_dense = S->host_moe = 0;
    int host = !(S->w->offload & WL_OFFLOAD_ACTIVATIONS) ? 0
               : S->w->act_host                          ? S->w->act_host
                                                         : -1;
    if (S->dense_in_stage > 0 || !S->moe) {
        ActBytes a = layer_act(S, false);
        Kept k = kept_bytes(&a, S->rc_mask, S->full, host);
        S->full_dense = T * (act_total(&a) + a.act_eager);
        S->stored_dense = T * (k.dev + k.host);
        S->host_dense = T * k.host;
    }
    if (S->moe) {
        ActBytes a = layer_act(S, true);
        Kept k = kept_bytes(&a, S->rc_mask, S->full, host);
        S->full_moe = T * (act_total(&a) + a.act_eager + a.moe_out);
        S->stored_moe = T * (k.dev + k.host);
        S->host_moe = T * k.host;
    }
}

void layer_compute(Step *S, StepResult *r)
{
    const Workload *w = S->w;
    const KernelCtx *k = &S->f->kern;
    memset(&S->dense, 0, sizeof S->dense);
    memset(&S->moe_cost, 0, sizeof S->moe_cost);
    if (S->dense_in_stage > 0)
        layer_cost(S, k, false, &S->dense);
    if (S->moe_in_stage > 0)
        layer_cost(S, k, true, &S->moe_cost);
    /* the output layer (BF16, TE keeps it out of FP8) and its loss: the fp32
     * logits go through HBM as every other activation (MODEL-FACTS §9) */
    double T = S->b * S->s_loc, f, b;
    Gemms g = {k, KERNEL_BF16, 2.0, false, 0, 0};
    gemm3_bf16(&g, T, S->V / S->t, S->h, &f, &b);
    S->logits_s = f + b + kernel_stream_s(k, S->P.nonmatmul_bytes_per_act * S->logits);
    double frac = S->rc_layers / S->Ls; /* layers that recompute */
    double per_dense = S->dense.fwd_s + S->dense.bwd_s + frac * S->dense.recompute_s;
    double per_moe = S->moe_cost.fwd_s + S->moe_cost.bwd_s + frac * S->moe_cost.recompute_s;
    r->mb_host_wait_s = 0;
    if (per_moe < S->moe_host_s) { /* a host-bound layer (step.c) */
        r->mb_host_wait_s = S->moe_in_stage * (S->moe_host_s - per_moe);
        per_moe = S->moe_host_s;
    }
    r->mb_compute_s = S->dense_in_stage * per_dense + S->moe_in_stage * per_moe + S->logits_s;
    r->mb_flops =
        S->dense_in_stage * S->dense.flops + S->moe_in_stage * S->moe_cost.flops + g.flops;
    r->mb_hbm_bytes =
        (S->dense_in_stage * S->dense.stream_s + S->moe_in_stage * S->moe_cost.stream_s) *
        k->hbm_bps;
    r->peak_flops = S->fp8 && S->c->gpu.fp8_flops > 0 ? S->c->gpu.fp8_flops : S->c->gpu.bf16_flops;
    (void)w;
}
