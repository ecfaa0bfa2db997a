/* SPDX-License-Identifier: MIT */
/* step — one training step of a workload on a cluster under a mapping.
 *
 * Per GPU of the slowest (last) pipeline stage, for one micro-batch of b
 * sequences (s_loc = s/CP tokens each; t = TP, p = PP, v = interleave,
 * d = DP, e = EP, m = global batch / (d*b) micro-batches, L_s = ceil(L/p)):
 *
 *   step = m x (compute + TP + PP + EP) + bubble + exposed DP + optimizer
 *
 * Each term has a function below headed by its formula and source:
 * step_compute, step_tp, step_pp, step_ep, step_bubble, step_dp,
 * step_optimizer and step_memory. step_setup derives the sizes they share.
 *
 * Framework settings (Workload, WL_AUTO = the default stated here):
 *   sequence parallelism  on when TP > 1, as Megatron-Core recipes run it
 *                         (Korthikanti et al. 2022); off for 2021-era runs
 *   TP comm overlap       off (Megatron-Core --tp-comm-overlap is opt-in)
 *   PP send overlap       on with the interleaved schedule, off for plain
 *                         1F1B (Megatron-LM overlap_p2p_comm applies to the
 *                         interleaved schedule)
 *   DP overlap            on (--overlap-grad-reduce, which NeMo and
 *                         Megatron-Bridge recipes set)
 *
 * Pure: no I/O, no allocation with the default placement.
 */
#include "model/step.h"

#include "base/msg.h"
#include "model/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Matmul efficiency per GPU generation: the share of the dense peak a large
 * BF16 GEMM reaches inside a training step, one constant per generation,
 * each tuned on the named published runs and on nothing else
 * (test_fidelity.c keeps the tuned and the held-out cases apart):
 *   Ampere (A100)      Megatron SC21 Table 1, ten rows (with
 *                      nonmatmul_bytes_per_act, a grid minimising the worst
 *                      row's error)
 *   Hopper (H100/H800/H200)  Llama 3 405B on 8,192 H100, 8K context
 *                      (Llama 3 paper Table 4: 430 TFLOP/s BF16)
 *   Blackwell (B200/GB200)  Megatron-Bridge 25.11, DeepSeek-V3 BF16 on 256
 *                      GB200 (3,139 tokens/s per GPU)
 *   Blackwell Ultra (B300/GB300)  the same table, DeepSeek-V3 BF16 on 256
 *                      GB300 (3,848 tokens/s per GPU)
 * FP8 GEMMs run at fp8_share of the FP8 peak: NeMo 24.07 GPT-3 175B FP8 on
 * 512 H100 (782 tokens/s per GPU, the MLPerf configuration) for Hopper;
 * Megatron-Bridge 25.11 Llama 3 8B FP8 on 8 GB200 (31,508) and on 8 GB300
 * (37,556) for Blackwell and Blackwell Ultra. Other accelerators (TPU,
 * Trainium, AMD, Rubin) have no published run here and take Hopper's
 * values [U]. */
typedef struct {
    const char *prefix; /* GpuSpec id prefix */
    double bf16_share, fp8_share;
} GemmCalibration;

static const GemmCalibration gemm_calibration[] = {
    {"a100", 0.685, 0}, /* Ampere: SC21 Table 1 */
    {"h100", 0.64, 0.525}, {"h800", 0.64, 0.525},  {"h200", 0.64, 0.525}, /* Hopper */
    {"b200", 0.45, 0.435}, {"gb200", 0.45, 0.435},                        /* Blackwell */
    {"b300", 0.54, 0.53},  {"gb300", 0.54, 0.53},                         /* Blackwell Ultra */
};

static bool has_prefix(const char *s, const char *prefix)
{
    while (*prefix && *s == *prefix)
        s++, prefix++;
    return *prefix == '\0';
}

static GemmCalibration gemm_share(const GpuSpec *g)
{
    const GemmCalibration *fallback = &gemm_calibration[1];
    if (!g->id)
        return *fallback;
    for (size_t i = 0; i < sizeof gemm_calibration / sizeof gemm_calibration[0]; i++)
        if (has_prefix(g->id, gemm_calibration[i].prefix))
            return gemm_calibration[i];
    return *fallback;
}

/* The global parameters. nonmatmul_bytes_per_act (memory-bound elementwise
 * ops, norms, softmax, dropout; MODEL-FACTS §9) was tuned with the A100
 * efficiency on SC21 Table 1. gemm_overhead_s: Calculon's A100 matrix table
 * (calculon-ai/calculon, MODEL-FACTS §4.4) gives 0.6 of peak for ~1 GFLOP
 * GEMMs and 0.9-0.95 above 16 GFLOP; a fixed 2 us per GEMM on top of the
 * large-GEMM rate reproduces that (1 GFLOP: 4.5 us + 2 us -> 0.69 of the
 * large-GEMM rate; 16 GFLOP: 0.97) [D]. The link efficiencies, fixed cost
 * and ramp are collective.c's. DP overlap: the whole backward of the last
 * micro-batch can hide the gradient reduction (Megatron
 * --overlap-grad-reduce, torch DDP buckets). */
StepParams step_params_default(void)
{
    CollParams cp = collective_params_default();
    StepParams p = {
        .compute_efficiency = 0,
        .nonmatmul_bytes_per_act = 8.0,
        .gemm_overhead_s = 2e-6,
        .up_efficiency = cp.up_efficiency,
        .out_efficiency = cp.out_efficiency,
        .dp_overlap = 1.0,
        .coll_fixed_s = cp.fixed_s,
        .coll_ramp_bytes = cp.ramp_bytes,
        .zero3_per_tensor = false, /* FSDP: one flat parameter per layer */
    };
    return p;
}

const char *step_part_name(StepPart part)
{
    static const char *names[STEP_PART_COUNT] = {"compute", "TP", "PP", "bubble", "DP", "EP"};
    return (part >= 0 && part < STEP_PART_COUNT) ? names[part] : "?";
}

/* Adds `count` operations of cost `one` to the per-tier totals. */
static void add_traffic(StepResult *r, const CollCost *one, double count)
{
    for (int t = 0; t < TIER_COUNT; t++) {
        r->tier_bytes[t] += count * one->tier_bytes[t];
        r->tier_busy_s[t] += count * one->tier_s[t];
    }
}

static StepComm make_comm(double count, double bytes, const CollCost *one, GroupSpan span)
{
    StepComm sc = {count,     bytes,        one->time_s, count * one->time_s,
                   span.size, span.domains, one->slowest};
    return sc;
}

/* A send between neighbouring stages of a pipeline group with this span. */
static GroupSpan pair_span(GroupSpan g)
{
    GroupSpan s = {2, g.domains > 1 ? 2 : 1, 1, g.sites > 1 ? 2 : 1, g.crosses_leaf};
    return s;
}

/* The bottleneck words, written piece by piece: snprintf cost an
 * evaluation as much as all its collectives. Truncates as snprintf does. */
typedef struct {
    char *buf;
    size_t len, used; /* len > 0 */
} Words;

static void words_put(Words *wd, const char *s)
{
    size_t n = strlen(s), room = wd->len - 1 - wd->used;
    n = n < room ? n : room;
    memcpy(wd->buf + wd->used, s, n);
    wd->used += n;
    wd->buf[wd->used] = '\0';
}

static void words_int(Words *wd, long long v)
{
    char digits[24], *d = digits + sizeof digits - 1;
    unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
    *d = '\0';
    do
        *--d = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        *--d = '-';
    words_put(wd, d);
}

/* The bottleneck part and tier; in words too unless !words. */
static void bottleneck_words(StepResult *r, const Mapping *m, bool words)
{
    int best = -1;
    for (int i = STEP_TP; i < STEP_PART_COUNT; i++)
        if (best < 0 || r->part_s[i] > r->part_s[best])
            best = i;
    double share = r->step_s > 0 ? r->part_s[best] / r->step_s : 0;
    Words wd = {r->bottleneck, sizeof r->bottleneck, 0};
    if (share < 0.15) {
        r->bottleneck_part = STEP_COMPUTE;
        r->bottleneck_tier = TIER_UP;
        double pct = 100.0 * r->part_s[STEP_COMPUTE] / r->step_s;
        if (words && pct >= 0 && pct < 1e15) { /* rint: %.0f's rounding, ties to even */
            words_put(&wd, "compute-bound: matmuls and memory-bound layers take ");
            words_int(&wd, (long long)rint(pct));
            words_put(&wd, "% of the step");
        } else if (words) {
            snprintf(r->bottleneck, sizeof r->bottleneck,
                     "compute-bound: matmuls and memory-bound layers take %.0f%% of the step",
                     pct);
        }
        return;
    }
    r->bottleneck_part = (StepPart)best;
    /* Name the widest tier the group crosses, not the slowest half of one
     * operation: a hierarchical all-reduce over two servers may spend longer
     * inside each server, yet its group still crosses the scale-out network. */
    Tier tier = r->comm[best].tier;
    if (tier == TIER_UP && r->comm[best].domains > 1)
        tier = TIER_OUT;
    r->bottleneck_tier = tier;
    if (best == STEP_BUBBLE)
        r->bottleneck_tier = TIER_UP;
    if (!words)
        return;
    const char *where = tier == TIER_UP    ? " stay on the scale-up links"
                        : tier == TIER_OUT ? " cross the scale-out network"
                                           : " cross the scale-across link between sites";
    const char *where1 = tier == TIER_UP    ? " stays on the scale-up links"
                         : tier == TIER_OUT ? " crosses the scale-out network"
                                            : " crosses the scale-across link between sites";
    switch ((StepPart)best) {
    case STEP_TP:
        words_put(&wd, "tensor-parallel all-reduces");
        words_put(&wd, where);
        break;
    case STEP_PP:
        words_put(&wd, "pipeline sends between stages");
        words_put(&wd, where);
        break;
    case STEP_BUBBLE:
        words_put(&wd, "pipeline bubble, (p-1)/(v*m) = ");
        words_int(&wd, m->pp - 1);
        words_put(&wd, "/");
        words_int(&wd, m->interleave * r->micro_batches);
        break;
    case STEP_DP:
        words_put(&wd, "data-parallel gradient reduction");
        words_put(&wd, where1);
        words_put(&wd, ", not hidden by backward");
        break;
    case STEP_EP:
        words_put(&wd, "expert all-to-alls");
        words_put(&wd, where);
        break;
    default:
        return;
    }
    words_put(&wd, ": ");
    words_int(&wd, lround(100.0 * share));
    words_put(&wd, "% of the step");
}

bool step_check_precision(const Cluster *c, const Workload *w, char *err, size_t err_len)
{
    if (c && w && w->precision == WL_FP8 && !(c->gpu.fp8_flops > 0)) {
        msg_set(err, err_len, "%s has no FP8 tensor cores: train it in BF16 (--precision bf16)",
                c->gpu.name ? c->gpu.name : "this GPU");
        return false;
    }
    return true;
}

/* What every term needs: the inputs, the resolved settings and the sizes of
 * one GPU of the last stage. Filled by step_setup. */
typedef struct {
    const Cluster *c;
    const Workload *w;
    const Mapping *m;
    const Placement *p;
    const StepPrep *f; /* what the cluster and the workload's shape give */
    bool words;        /* write the bottleneck in words (not for a search) */
    StepParams P;      /* f's, with dp_overlap 0 when the workload turns it off */
    double t, pp, d, e, v, b, s, h, L, V, s_loc, mb;
    int Ls, Lc;
    double act_b;
    bool full, selective, moe, sp;
    double moe_layers;
    double act_layer;         /* bytes one layer produces per micro-batch (no recompute) */
    double act_stored;        /* bytes one layer keeps for backward under the recompute policy */
    double logits;            /* fp32 logits of the last stage, per micro-batch */
    double n_dense, n_expert; /* parameters held by one GPU */
    double t_mm;              /* matmul time of one micro-batch */
    double t_tp, t_pp, t_ep;  /* exposed TP (+CP), PP and EP time of one micro-batch */
} Step;

static bool on_or(WlSwitch sw, bool dflt)
{
    return sw == WL_AUTO ? dflt : sw == WL_ON;
}

/* Activation bytes per token of one layer (Korthikanti et al. 2022 Table 2,
 * 16-bit, generalised to GQA and SwiGLU the way its terms are built):
 *   replicated over TP  4h (two norm inputs) + 2h (QKV input) + 2h (MLP
 *                       input) + 2h (two dropout masks, GPT only)  = 10h
 *   split over TP       2h (Q) + 4h*kv/a (K, V) + 2h (projection input) +
 *                       MLP inner: GeLU 2F + 2F, SwiGLU 2*2F + 2F  = 24h for
 *                       GPT (F = 4h, kv = a)
 *   attention scores    5*a*s (softmax 2as, dropout mask as, dropout 2as),
 *                       split over TP; none with FlashAttention or selective
 *                       recompute
 * per token: R + S/t, or (R + S)/t with sequence parallelism; the scores
 * (added by step_setup) are split over TP either way. An MoE layer's MLP is its top-k routed
 * experts plus the shared ones, and the dispatched token copies (2h per route). GPT (no SwiGLU) is
 * taken to train with dropout, Llama-style models without. */
static double step_act_per_token(const Step *S)
{
    const Workload *w = S->w;
    double h = S->h, F = w->ffn, kv = (double)w->kv_heads / w->heads;
    bool dropout = !w->swiglu;
    /* FP8 (Transformer Engine) keeps each GEMM's input for backward in FP8,
     * 1 byte: the QKV, projection and both MLP GEMM inputs (DeepSeek-V3
     * §3.3.2 caches them so too). */
    double in = w->precision == WL_FP8 ? 0.5 : 1.0;
    /* MLP inner: GeLU output 2F (GEMM input) after the 2F pre-activation;
     * SwiGLU gate and up 2 x 2F, their product 2F (GEMM input). */
    double inner = (w->swiglu ? 4.0 * F : 2.0 * F) + 2.0 * F * in;
    if (S->moe) { /* the mean over layers: routed top-k plus shared experts */
        double dense_f = w->dense_ffn > 0 ? w->dense_ffn : F;
        double routed = (w->topk + w->shared_experts) * inner + 2.0 * h * w->topk;
        double dense = (w->swiglu ? 4.0 * dense_f : 2.0 * dense_f) + 2.0 * dense_f * in;
        inner = (S->moe_layers * routed + (S->L - S->moe_layers) * dense) / S->L;
    }
    double R = 4.0 * h + 2.0 * h * in * 2 + (dropout ? 2.0 * h : 0);
    double split = 2.0 * h + 2.0 * h * in + 4.0 * h * kv + inner;
    return S->sp ? (R + split) / S->t : R + split / S->t;
}

/* Sizes, settings and parameter counts shared by the terms. */
static void step_setup(Step *S, StepResult *r)
{
    const Workload *w = S->w;
    const Mapping *m = S->m;
    S->t = m->tp, S->pp = m->pp, S->d = m->dp, S->e = m->ep, S->v = m->interleave;
    S->b = w->micro_batch, S->s = w->seq, S->h = w->hidden, S->L = w->layers, S->V = w->vocab;
    S->s_loc = S->s / m->cp;
    S->mb = (double)w->global_batch / (S->d * S->b);
    S->Ls = (w->layers + m->pp - 1) / m->pp;
    S->Lc = (w->layers + m->pp * m->interleave - 1) / (m->pp * m->interleave);
    S->act_b = workload_act_bytes(w);
    S->full = w->recompute == WL_RECOMPUTE_FULL;
    S->selective = w->recompute == WL_RECOMPUTE_SELECTIVE;
    S->moe = workload_is_moe(w);
    S->moe_layers = workload_moe_layer_count(w);
    S->sp = m->tp > 1 && on_or(w->seq_parallel, true);
    r->seq_parallel = S->sp;
    r->tp_overlap = m->tp > 1 && on_or(w->tp_overlap, false);
    r->pp_overlap = m->pp > 1 && on_or(w->pp_overlap, m->interleave > 1);
    r->dp_overlap = on_or(w->dp_overlap, true);
    if (!r->dp_overlap)
        S->P.dp_overlap = 0;
    r->micro_batches = (int)S->mb;
    r->layers_per_stage = S->Ls;
    r->layers_per_chunk = S->Lc;
    /* Parameters held by one GPU of the last stage. */
    const StepPrep *f = S->f;
    double dense_layer = (f->layer_params - f->expert_params) / S->L * f->pscale;
    double expert_layer = f->expert_params / S->L * f->pscale;
    double emb = m->pp > 1 ? S->V * S->h : f->embedding_params;
    S->n_dense = (S->Ls * dense_layer + emb * f->pscale) / S->t;
    /* Experts fold over the TP x CP x DP ranks as ETP x EP x EDP
     * (Megatron-Core parallel folding): each GPU holds 1/(ETP x EP). */
    S->n_expert = S->Ls * expert_layer / ((double)mapping_etp(m) * S->e);

    double tokens = S->b * S->s_loc;
    double base = step_act_per_token(S); /* + the scores, split over TP either way */
    double scores = w->flash_attention ? 0 : 5.0 * w->heads * S->s / S->t;
    S->act_layer = tokens * (base + scores);
    S->act_stored = S->full        ? tokens * 2.0 * S->h / (S->sp ? S->t : 1)
                    : S->selective ? tokens * base
                                   : S->act_layer;
    S->logits = tokens * S->V / S->t * 4.0;
}

/* The time one GEMM, X [M x K] times W [K x N] into [M x N], spends beyond
 * its FLOPs at the calibrated rate when it is memory-bound: it reads both
 * inputs and writes its output, (MK + KN + MN) elements over HBM, and takes
 * the longer of that and 2MNK FLOPs at the rate (the roofline, Williams,
 * Waterman and Patterson, CACM 2009). Zero for the wide GEMMs of training,
 * whose MNK / (MK + KN + MN) is far above the ridge (rate / HBM bandwidth:
 * ~105 FLOP/byte on A100 at its share); it bites where one dimension is
 * small: the few tokens of each of many experts, a short micro-batch. */
static double gemm_memory_excess_s(double M, double N, double K, double elem_bytes,
                                   double flops_per_s, double hbm_bytes_per_s)
{
    if (M <= 0 || N <= 0 || K <= 0)
        return 0;
    double compute = 2 * M * N * K / flops_per_s;
    double memory = elem_bytes * (M * K + K * N + M * N) / hbm_bytes_per_s;
    return memory > compute ? memory - compute : 0;
}

/* The memory-bound excess of one layer's forward GEMMs on one GPU, after
 * TP sharding: QKV [T x h] x [h x h(1 + 2 kv/heads)/t], the projection
 * [T x h/t] x [h/t x h], the MLP [T x h] x [h x gF/t] and [T x F/t] x
 * [F/t x h] (g = 2 with SwiGLU: gate and up in one GEMM). An MoE layer's
 * routed MLP runs E/EP local experts with ETP-sharded matrices, each on the
 * T_e tokens that keep its FLOPs those of step_compute (T x topk x EP x ETP
 * / (E x t)); shared experts run on all T tokens. */
static double layer_gemm_excess_s(const Step *S, bool moe, double rate, double hbm)
{
    const Workload *w = S->w;
    double T = S->b * S->s_loc, h = S->h, t = S->t, g = w->swiglu ? 2.0 : 1.0, e = S->act_b;
    double kv = (double)w->kv_heads / w->heads;
    double x = gemm_memory_excess_s(T, h * (1 + 2 * kv) / t, h, e, rate, hbm) +
               gemm_memory_excess_s(T, h, h / t, e, rate, hbm);
    if (!moe) {
        double F = w->dense_ffn > 0 && workload_is_moe(w) ? w->dense_ffn : w->ffn;
        return x + gemm_memory_excess_s(T, g * F / t, h, e, rate, hbm) +
               gemm_memory_excess_s(T, h, F / t, e, rate, hbm);
    }
    double F = w->ffn, etp = mapping_etp(S->m), local = (double)w->experts / S->e;
    double Te = T * w->topk * S->e * etp / (w->experts * t);
    x += local * (gemm_memory_excess_s(Te, g * F / etp, h, e, rate, hbm) +
                  gemm_memory_excess_s(Te, h, F / etp, e, rate, hbm));
    if (w->shared_experts > 0) {
        double Fs = F * w->shared_experts;
        x += gemm_memory_excess_s(T, g * Fs / t, h, e, rate, hbm) +
             gemm_memory_excess_s(T, h, Fs / t, e, rate, hbm);
    }
    return x;
}

/* compute = GEMM FLOPs / (peak x share) + the GEMMs' memory-bound excess
 *           + n_GEMM x gemm_overhead_s
 *           + nonmatmul_bytes_per_act x activation bytes / HBM bandwidth.
 * FLOPs of one micro-batch: L_s layers, 3 x forward (4 x with full
 * recompute; selective recompute adds the attention scores' 4*s*h per token)
 * plus the logit layer (the last stage holds it), over t (SC21 Eq. 3). GEMMs
 * per layer: 4 forward (QKV, projection, MLP in and out; an MoE layer's
 * routed MLP is 2 per local expert, run as a grouped GEMM whose small
 * per-expert problems pay the fixed cost each), x 3 for forward, data and
 * weight gradients, + 1 forward with full recompute. The memory-bound term
 * is MODEL-FACTS §9's: without it SC21 Table 1 cannot be fitted. */
static void step_compute(Step *S, StepResult *r)
{
    const Workload *w = S->w;
    const Cluster *c = S->c;
    double per_token = (S->full ? 4.0 : 3.0) * S->f->fwd_avg;
    if (S->selective && !w->flash_attention)
        per_token += 4.0 * S->s * S->h;
    per_token *= S->Ls;
    per_token += 3.0 * workload_logit_fwd_flops_per_token(w);
    r->mb_flops = S->b * S->s_loc * per_token / S->t;
    r->peak_flops = w->precision == WL_FP8 ? c->gpu.fp8_flops : c->gpu.bf16_flops;
    double share = S->f->share;
    r->params.compute_efficiency = share;
    double local_experts = S->moe ? (double)w->experts / S->e : 0;
    double moe_share = S->moe_layers / S->L;
    double gemms_fwd = 4.0 * (1 - moe_share) +
                       (2.0 + 2.0 * local_experts + 2.0 * (w->shared_experts > 0)) * moe_share;
    double gemms = S->Ls * gemms_fwd * (S->full ? 4.0 : 3.0) + 3.0;
    /* Each pass (forward, data and weight gradients; a recomputed forward)
     * multiplies the same three matrices in another order: the same FLOPs
     * and bytes, so the same excess. */
    double rate = r->peak_flops * share, hbm = c->gpu.hbm_bytes_per_s;
    double dense_stage = S->Ls * (1 - moe_share), moe_stage = S->Ls * moe_share;
    double excess = dense_stage * layer_gemm_excess_s(S, false, rate, hbm);
    if (moe_stage > 0)
        excess += moe_stage * layer_gemm_excess_s(S, true, rate, hbm);
    excess *= S->full ? 4.0 : 3.0;
    /* the logit GEMM [T x h] x [h x V/t] of the last stage, never recomputed */
    excess += 3.0 * gemm_memory_excess_s(S->b * S->s_loc, S->V / S->t, S->h, S->act_b, rate, hbm);
    S->t_mm = r->mb_flops / rate + excess + gemms * S->P.gemm_overhead_s;
    r->mb_hbm_bytes = S->P.nonmatmul_bytes_per_act *
                      (S->act_layer * S->Ls * (S->full ? 4.0 / 3 : 1) + S->logits);
    r->mb_compute_s = S->t_mm + r->mb_hbm_bytes / c->gpu.hbm_bytes_per_s;
}

/* TP = 4 collectives of b*s_loc*h*2 bytes per layer (6 with full recompute,
 * whose extra forward repeats them), on the critical path (SC21 §3.2): an
 * all-reduce each, or with sequence parallelism a reduce-scatter and an
 * all-gather of the same buffer (Korthikanti et al. 2022 §4.2.2: the same
 * bytes, twice the latency). With TP comm overlap (Megatron-Core
 * userbuffers) the collectives run under the GEMMs they feed: what exceeds
 * the matmul time shows, plus a tenth of what is hidden for the SMs the
 * communication kernels take (Calculon gives NVLink collectives 15% of the
 * SMs [R]; a tenth is assumed [U]). CP adds an all-gather of K and V per
 * layer forward and a reduce-scatter backward (Llama 3 §3.3.2). */
static void step_tp(Step *S, StepResult *r)
{
    const Mapping *m = S->m;
    double t_tp = 0, t_cp = 0;
    if (m->tp > 1) {
        double bytes = S->b * S->s_loc * S->h * S->act_b, n = (S->full ? 6.0 : 4.0) * S->Ls;
        CollCost one;
        if (S->sp) { /* the all-gather costs what the reduce-scatter does (collective.h) */
            CollCost rs = collective_cost_with(COLL_REDUCE_SCATTER, bytes, r->span[DIM_TP], S->c,
                                               &S->f->cpar);
            one = rs;
            one.time_s += rs.time_s;
            for (int k = 0; k < TIER_COUNT; k++) {
                one.tier_s[k] += rs.tier_s[k];
                one.tier_bytes[k] += rs.tier_bytes[k];
            }
        } else {
            one = collective_cost_with(COLL_ALL_REDUCE, bytes, r->span[DIM_TP], S->c, &S->f->cpar);
        }
        t_tp = n * one.time_s;
        r->comm[STEP_TP] = make_comm(n * S->mb, bytes, &one, r->span[DIM_TP]);
        add_traffic(r, &one, n * S->mb);
    }
    if (m->cp > 1) {
        const Workload *w = S->w;
        double bytes =
            2.0 * S->b * S->s * S->h * ((double)w->kv_heads / w->heads) * S->act_b / S->t;
        double n = (S->full ? 3.0 : 2.0) * S->Ls;
        CollCost one =
            collective_cost_with(COLL_ALL_GATHER, bytes, r->span[DIM_CP], S->c, &S->f->cpar);
        t_cp = n * one.time_s;
        add_traffic(r, &one, n * S->mb);
    }
    double hidden = 0;
    if (r->tp_overlap && t_tp > 0) {
        double under = fmin(t_tp, S->t_mm);
        hidden = 0.9 * under;
    }
    r->tp_hidden_s = S->mb * hidden;
    r->cp_s = S->mb * t_cp;
    S->t_tp = t_tp - hidden + t_cp;
}

/* PP = 2*v sends of b*s_loc*h*2/t bytes per micro-batch (forward
 * activations, backward gradients; SC21 §4.1 scatter/gather, and the
 * interleaved schedule sends v times as often, §2.2.2). With overlap they run
 * under the next chunk's compute; what exceeds it shows. */
static void step_pp(Step *S, StepResult *r)
{
    if (S->m->pp <= 1)
        return;
    double bytes = S->b * S->s_loc * S->h * S->act_b / S->t, n = 2.0 * S->v;
    CollParams pq = S->f->cpar;
    pq.across_sharers = S->c->n_gpus / S->pp;
    GroupSpan pair = pair_span(r->span[DIM_PP]);
    CollCost one = collective_cost_with(COLL_SEND_RECV, bytes, pair, S->c, &pq);
    double t = n * one.time_s;
    double hidden = r->pp_overlap ? fmin(t, r->mb_compute_s) : 0;
    r->pp_hidden_s = S->mb * hidden;
    S->t_pp = t - hidden;
    r->comm[STEP_PP] = make_comm(n * S->mb, bytes, &one, r->span[DIM_PP]);
    add_traffic(r, &one, n * S->mb);
}

/* EP = 4 all-to-alls per MoE layer (dispatch and combine, forward and
 * backward; 6 with full recompute) of (b*s_loc/t) * top-k * h * 2 bytes,
 * split by collective.c over the tiers the EP group spans (scale-up share
 * inside the domain, the rest over the NICs), plus the permutation that
 * sorts tokens by expert before dispatch and back after combine: a read and
 * a write of the routed tokens at HBM bandwidth per all-to-all (Megatron-Core
 * token permutation; MoE layers only). */
static void step_ep(Step *S, StepResult *r)
{
    if (!S->moe || S->m->ep <= 1)
        return;
    const Workload *w = S->w;
    double moe_per_stage = S->Ls * S->moe_layers / S->L;
    double bytes = S->b * S->s_loc / S->t * w->topk * S->h * S->act_b;
    double n = (S->full ? 6.0 : 4.0) * moe_per_stage;
    CollCost one =
        collective_cost_with(COLL_ALL_TO_ALL, bytes, r->span[DIM_EP], S->c, &S->f->cpar);
    double permute = n * 2.0 * bytes / S->c->gpu.hbm_bytes_per_s;
    r->ep_permute_s = S->mb * permute;
    S->t_ep = n * one.time_s + permute;
    r->comm[STEP_EP] = make_comm(n * S->mb, bytes, &one, r->span[DIM_EP]);
    add_traffic(r, &one, n * S->mb);
}

/* bubble = (p-1) x L_c/L_s x one micro-batch's stage time, L_c =
 * ceil(L/(p*v)) the largest chunk: (p-1)/v when chunks are even (SC21 §2.2);
 * uneven chunks (Llama 3 405B: 126 layers on PP 16, §3.3.2) let the largest
 * set the pace of every warm-up and cool-down slot. */
static void step_bubble(Step *S, StepResult *r)
{
    r->mb_stage_s = r->mb_compute_s + S->t_tp + S->t_pp + S->t_ep;
    r->part_s[STEP_COMPUTE] = S->mb * r->mb_compute_s;
    r->part_s[STEP_TP] = S->mb * S->t_tp;
    r->part_s[STEP_PP] = S->mb * S->t_pp;
    r->part_s[STEP_EP] = S->mb * S->t_ep;
    r->part_s[STEP_BUBBLE] = (S->pp - 1) * ((double)S->Lc / S->Ls) * r->mb_stage_s;
}

/* The expert-data-parallel group: the DP ranks that hold the same experts. */
static GroupSpan step_edp_span(const Step *S, const StepResult *r, const GroupSpan *edp_given)
{
    const Mapping *m = S->m;
    if (!S->moe || m->ep <= 1)
        return r->span[DIM_DP];
    if (edp_given)
        return *edp_given;
    return span_worst_expert(m, S->c, S->p, SPAN_EXPERT_DP);
}

/* DP, once per step: all-reduce of the stage's fp32 gradients over the DP
 * group (expert gradients over the expert-data-parallel group); ZeRO 1-2
 * (Megatron's distributed optimizer): a reduce-scatter of the gradients and
 * an all-gather of the BF16 weights. dp_overlap x the last micro-batch's
 * backward hides it. ZeRO-3 gathers each layer's weights for forward,
 * recompute and backward and reduce-scatters its gradients every
 * micro-batch: one flat parameter per layer (FSDP) or, with
 * zero3_per_tensor, one collective per weight tensor (DeepSpeed's
 * _allgather_param of 2021), each paying the ring latency over the whole
 * group (collective.c), linear in its size. */
static void step_dp(Step *S, StepResult *r, const GroupSpan *edp_given)
{
    const Mapping *m = S->m;
    GroupSpan dp_span = r->span[DIM_DP], edp_span = step_edp_span(S, r, edp_given);
    double t_dp = 0, dp_count = 0, dp_bytes = 0;
    CollCost dp_one = {0, {0, 0, 0}, {0, 0, 0}, TIER_UP};
    for (int part = 0; part < 2; part++) {
        double n_par = part == 0 ? S->n_dense : S->n_expert;
        GroupSpan span = part == 0 ? dp_span : edp_span;
        if (n_par <= 0 || span.size <= 1)
            continue;
        if (m->zero == 0) {
            CollCost a =
                collective_cost_with(COLL_ALL_REDUCE, 4.0 * n_par, span, S->c, &S->f->cpar);
            t_dp += a.time_s;
            add_traffic(r, &a, 1);
            if (part == 0) {
                dp_one = a;
                dp_bytes = 4.0 * n_par;
                dp_count = 1;
            }
            continue;
        }
        double per_layer =
            S->P.zero3_per_tensor ? workload_layer_tensors(S->w, S->w->layers - 1) : 1;
        double pieces = m->zero == 3 ? S->Ls * per_layer : 1.0;
        CollCost a = collective_cost_with(COLL_REDUCE_SCATTER, 4.0 * n_par / pieces, span, S->c,
                                          &S->f->cpar);
        CollCost g = collective_cost_with(COLL_ALL_GATHER, S->act_b * n_par / pieces, span, S->c,
                                          &S->f->cpar);
        double gathers = m->zero == 3 ? (S->full ? 3.0 : 2.0) : 1.0;
        double n_ops = (m->zero == 3 ? S->mb : 1.0) * pieces;
        t_dp += n_ops * (a.time_s + gathers * g.time_s);
        add_traffic(r, &a, n_ops);
        add_traffic(r, &g, n_ops * gathers);
        if (part == 0) {
            dp_one = a;
            dp_bytes = 4.0 * n_par / pieces;
            dp_count = n_ops * (1 + gathers);
        }
    }
    /* ZeRO-3 prefetches the next tensors behind compute (FSDP), up to
     * dp_overlap of it; with dp_overlap 0 a tensor is gathered just before
     * the kernel that needs it, as DeepSpeed's ZeRO-3 of 2021 did (SC21
     * Table 2). Otherwise the last micro-batch's backward hides it. */
    double bwd_frac = S->full ? 3.0 / 4 : 2.0 / 3;
    r->dp_hidden_s = m->zero == 3 ? fmin(t_dp, S->mb * S->P.dp_overlap * r->mb_compute_s)
                                  : fmin(t_dp, S->P.dp_overlap * bwd_frac * r->mb_compute_s);
    r->part_s[STEP_DP] = t_dp - r->dp_hidden_s;
    if (dp_count > 0) {
        r->comm[STEP_DP] = make_comm(dp_count, dp_bytes, &dp_one, dp_span);
        r->comm[STEP_DP].total_s = t_dp;
    }
}

/* optimizer: Adam reads and writes ~30 bytes per locally updated parameter
 * (fp32 master, m, v, the gradient and the BF16 copy) at HBM bandwidth. */
static void step_optimizer(const Step *S, StepResult *r)
{
    double edp = mapping_edp(S->m), dcp = S->d * S->m->cp;
    double opt = (S->m->zero >= 1 ? S->n_dense / dcp : S->n_dense) +
                 (S->m->zero >= 1 ? S->n_expert / edp : S->n_expert);
    r->optimizer_s = 30.0 * opt / S->c->gpu.hbm_bytes_per_s;
    r->mem_optimizer = 12.0 * opt;
}

/* Memory per GPU as Megatron-LM holds it (its distributed-optimizer docs:
 * BF16 parameters with fp32 gradients take 18 bytes per parameter, 6 + 12/d
 * with the distributed optimizer): BF16 weights 2 bytes, fp32 gradients 4,
 * Adam 12 (fp32 master, m, v) per local parameter; ZeRO 1 shards the 12 over
 * DP (x CP: Megatron's distributed optimizer shards over the data-parallel
 * group with context parallelism), 2 also the gradients, 3 also the weights
 * (expert parameters over the expert-data-parallel group). Activations of the first stage: 1F1B
 * keeps min(m, p) micro-batches in flight, each with that stage's layers, so p x L/p = L layers'
 * worth (Korthikanti et al. 2022 §4.2.3, Table 2: 34*s*b*h*L/t with sequence parallelism and
 * selective recompute); the interleaved schedule scales it by 1 + (p-1)/(p*v) (same section;
 * Megatron-LM's warm-up of 2(p-1) + (v-1)p chunks of L/(p*v) layers). Uneven stages put the short
 * ones at the ends, where memory peaks (first: in flight; last: logits), as
 * Llama 3 does (§3.3.2: 126 layers on PP 16, one layer fewer on the first
 * and the last stage): the first holds floor(L/p), the last too when at
 * least two stages are short. Full recompute also holds one layer's whole
 * working set while it recomputes; the last stage adds its fp32 logits. */
static void step_memory(const Step *S, StepResult *r)
{
    const Mapping *m = S->m;
    double edp = mapping_edp(S->m), dcp = S->d * m->cp;
    r->mem_weights = S->act_b * (S->n_dense / (m->zero >= 3 ? dcp : 1) +
                                 S->n_expert / (m->zero >= 3 ? edp : 1));
    r->mem_grads =
        4.0 * (S->n_dense / (m->zero >= 2 ? dcp : 1) + S->n_expert / (m->zero >= 2 ? edp : 1));
    const int rem = S->w->layers % m->pp;
    const int L_first = S->w->layers / m->pp;
    const int L_last = (rem == 0 || m->pp - rem >= 2) ? S->w->layers / m->pp : S->Ls;
    double in_flight = fmin(S->mb, S->pp);
    double interleave = m->interleave > 1 ? 1 + (S->pp - 1) / (S->pp * S->v) : 1;
    double first = S->act_stored * L_first * in_flight * interleave;
    double last = S->act_stored * L_last + S->logits;
    if (S->full) {
        first += S->act_layer; /* the layer being recomputed */
        last += S->act_layer;
    }
    r->mem_activations = fmax(first, last);
    r->mem_per_gpu_bytes = r->mem_weights + r->mem_grads + r->mem_optimizer + r->mem_activations;
    r->hbm_bytes = S->c->gpu.hbm_bytes;
    r->fits = r->mem_per_gpu_bytes <= r->hbm_bytes;
}

/* Throughput, FLOP rates and MFU; the bottleneck in words. */
static void step_rates(const Step *S, StepResult *r)
{
    const Workload *w = S->w;
    r->step_s = r->optimizer_s;
    for (int i = 0; i < STEP_PART_COUNT; i++)
        r->step_s += r->part_s[i];
    double n_gpus = S->c->n_gpus;
    r->tokens_per_s = (double)w->global_batch * S->s / r->step_s;
    const double model_flops = S->f->model_flops;
    r->tflops_per_gpu = model_flops / r->step_s / n_gpus / 1e12;
    r->hw_tflops_per_gpu = (model_flops + workload_recompute_flops(w)) / r->step_s / n_gpus / 1e12;
    /* Against the peak of the precision the matmuls run in, so MFU stays
     * below the matmul share (an FP8 run is not "140% MFU"). */
    r->mfu = model_flops / (r->step_s * n_gpus * r->peak_flops);
    bottleneck_words(r, S->m, S->words);
    if (!r->fits && S->words) {
        char need[32], more[32], have[32];
        units_format(UNITS_BYTES, r->mem_per_gpu_bytes, true, need, sizeof need);
        units_format(UNITS_BYTES, r->mem_per_gpu_bytes - r->hbm_bytes, true, more, sizeof more);
        units_format(UNITS_BYTES, r->hbm_bytes, true, have, sizeof have);
        snprintf(r->bottleneck, sizeof r->bottleneck,
                 "does not fit: needs %s per %s, %s more than the %s of HBM", need,
                 hw_noun(&S->c->gpu, 0), more, have);
    }
}

/* The cluster and the workload, as step_prepare and step_eval check them. */
static StepStatus step_check_shape(const Cluster *c, const Workload *w, char *err, size_t err_len)
{
    if (!c) {
        msg_set(err, err_len, "no cluster");
        return STEP_ERR_CLUSTER;
    }
    if (!cluster_check(c, err, err_len))
        return STEP_ERR_CLUSTER;
    if (!w) {
        msg_set(err, err_len, "no workload");
        return STEP_ERR_WORKLOAD;
    }
    if (!workload_check(w, err, err_len))
        return STEP_ERR_WORKLOAD;
    if (!step_check_precision(c, w, err, err_len))
        return STEP_ERR_WORKLOAD;
    return STEP_OK;
}

/* The mapping (and placement, when given) of one evaluation. */
static StepStatus step_check_mapping(const Cluster *c, const Workload *w, const Mapping *m,
                                     const Placement *p, char *err, size_t err_len)
{
    if (!m) {
        msg_set(err, err_len, "no mapping");
        return STEP_ERR_MAPPING;
    }
    if (!mapping_check(m, c, w, err, err_len))
        return STEP_ERR_MAPPING;
    if (p && placement_size(p) != c->n_gpus) {
        msg_set(err, err_len, "placement has %d ranks but the cluster %d GPUs", placement_size(p),
                c->n_gpus);
        return STEP_ERR_PLACEMENT;
    }
    return STEP_OK;
}

/* The parts of step_prepare past its checks. All dense layers are alike
 * and so are all MoE layers (dense first). */
static void step_prep_fill(StepPrep *f, const Cluster *c, const Workload *w,
                           const StepParams *params)
{
    f->c = c;
    f->P = params ? *params : step_params_default();
    CollParams cpar = {f->P.up_efficiency, f->P.out_efficiency, f->P.coll_fixed_s,
                       f->P.coll_ramp_bytes, 0};
    f->cpar = cpar;
    GemmCalibration cal = gemm_share(&c->gpu);
    bool fp8 = w->precision == WL_FP8;
    f->share = f->P.compute_efficiency > 0 ? f->P.compute_efficiency
               : fp8 && cal.fp8_share > 0  ? cal.fp8_share
                                           : cal.bf16_share;
    double L = w->layers, moe_layers = workload_moe_layer_count(w);
    double dense_layers = L - moe_layers, fwd_sum = 0;
    f->layer_params = f->expert_params = 0;
    if (dense_layers > 0) {
        fwd_sum += dense_layers * workload_layer_fwd_flops_per_token(w, 0);
        f->layer_params += dense_layers * workload_layer_params(w, 0);
    }
    if (moe_layers > 0) {
        fwd_sum += moe_layers * workload_layer_fwd_flops_per_token(w, w->layers - 1);
        f->layer_params += moe_layers * workload_layer_params(w, w->layers - 1);
        f->expert_params += moe_layers * workload_layer_expert_params(w, w->layers - 1);
    }
    f->embedding_params = workload_embedding_params(w);
    double derived = f->layer_params + f->embedding_params;
    f->pscale = w->params > 0 ? w->params / derived : 1.0;
    f->fwd_avg = fwd_sum / L;
    f->model_flops = workload_model_flops(w);
}

bool step_prepare(StepPrep *prep, const Cluster *c, const Workload *w, const StepParams *params,
                  char *err, size_t err_len)
{
    if (step_check_shape(c, w, err, err_len) != STEP_OK)
        return false;
    step_prep_fill(prep, c, w, params);
    return true;
}

/* One evaluation of checked inputs: spans NULL computes them from the
 * placement p (NULL: the default one). Memory comes first: no other term
 * reads it, and STEP_DETAIL_FIT stops there when it does not fit. */
static void step_run(const StepPrep *f, const Workload *w, const Mapping *m, const Placement *p,
                     const GroupSpan *spans, StepDetail detail, const GroupSpan *edp_given,
                     StepResult *r)
{
    Step S;
    memset(&S, 0, sizeof S);
    S.c = f->c, S.w = w, S.m = m, S.p = p, S.f = f;
    S.words = detail == STEP_DETAIL_WORDS;
    S.P = f->P;
    memset(r, 0, sizeof *r);
    step_setup(&S, r);
    r->params = S.P;
    step_optimizer(&S, r);
    step_memory(&S, r);
    if (detail == STEP_DETAIL_FIT && !r->fits)
        return;
    for (int dim = 0; dim < DIM_COUNT; dim++)
        r->span[dim] = spans ? spans[dim] : span_worst(m, f->c, p, (MappingDim)dim);
    step_compute(&S, r);
    step_tp(&S, r);
    step_pp(&S, r);
    step_ep(&S, r);
    step_bubble(&S, r);
    step_dp(&S, r, edp_given);
    step_rates(&S, r);
}

/* step_eval and step_eval_spans: every input checked, then one run. */
static StepStatus step_eval_checked(const Cluster *c, const Workload *w, const Mapping *m,
                                    const Placement *p, const GroupSpan *spans,
                                    const GroupSpan *edp_given, const StepParams *params,
                                    StepResult *out, char *err, size_t err_len)
{
    if (!out) {
        msg_set(err, err_len, "no result to fill");
        return STEP_ERR_MAPPING;
    }
    StepStatus st = step_check_shape(c, w, err, err_len);
    if (st == STEP_OK)
        st = step_check_mapping(c, w, m, p, err, err_len);
    if (st != STEP_OK)
        return st;
    StepPrep f;
    step_prep_fill(&f, c, w, params);
    step_run(&f, w, m, p, spans, STEP_DETAIL_WORDS, edp_given, out);
    return STEP_OK;
}

/* "93.3 GFLOP": a FLOP count (not a rate) with a decimal prefix. */
static void flop_count_text(double flops, char *buf, size_t len)
{
    static const char *prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    while (flops >= 999.5 && i < 6) {
        flops /= 1000;
        i++;
    }
    snprintf(buf, len, "%.3g %sFLOP", flops, prefix[i]);
}

StepStatus step_eval(const Cluster *c, const Workload *w, const Mapping *m, const Placement *p,
                     const StepParams *params, StepResult *out, char *err, size_t err_len)
{
    return step_eval_checked(c, w, m, p, NULL, NULL, params, out, err, err_len);
}

StepStatus step_eval_spans(const Cluster *c, const Workload *w, const Mapping *m,
                           const GroupSpan span[DIM_COUNT], GroupSpan edp_span,
                           const StepParams *params, StepResult *out, char *err, size_t err_len)
{
    return step_eval_checked(c, w, m, NULL, span, span ? &edp_span : NULL, params, out, err,
                             err_len);
}

StepStatus step_eval_prepared(const StepPrep *prep, const Workload *w, const Mapping *m,
                              const GroupSpan span[DIM_COUNT], GroupSpan edp_span,
                              StepDetail detail, StepResult *out, char *err, size_t err_len)
{
    StepStatus st = step_check_mapping(prep->c, w, m, NULL, err, err_len);
    if (st == STEP_OK)
        step_run(prep, w, m, NULL, span, detail, &edp_span, out);
    return st;
}

char *step_explain(const Cluster *c, const Workload *w, const Mapping *m, const StepResult *r,
                   StepPart part, char *buf, size_t buf_len)
{
    if (!buf || buf_len == 0)
        return buf;
    buf[0] = '\0';
    if (!c || !w || !m || !r || part < 0 || part >= STEP_PART_COUNT)
        return buf;
    char a[32], b2[32], c3[32], d4[32];
    const StepComm *sc = &r->comm[part];
    units_format(UNITS_TIME, r->part_s[part], true, d4, sizeof d4);
    switch (part) {
    case STEP_COMPUTE:
        units_format(UNITS_FLOPS, r->peak_flops * r->params.compute_efficiency, true, a, sizeof a);
        char fl[32];
        flop_count_text(r->mb_flops, fl, sizeof fl);
        units_format(UNITS_BYTES, r->mb_hbm_bytes, true, b2, sizeof b2);
        units_format(UNITS_BANDWIDTH, c->gpu.hbm_bytes_per_s, true, c3, sizeof c3);
        int n = snprintf(buf, buf_len,
                         "compute: %d micro-batches x (%s at %s + %s of memory-bound traffic "
                         "at %s) = %s",
                         r->micro_batches, fl, a, b2, c3, d4);
        if (w->layers % m->pp != 0 && n > 0 && (size_t)n < buf_len)
            snprintf(buf + n, buf_len - (size_t)n,
                     "; %d layers over %d stages: the slowest holds %d", w->layers, m->pp,
                     r->layers_per_stage);
        break;
    case STEP_TP:
        if (m->tp <= 1 && m->cp <= 1) {
            snprintf(buf, buf_len, "TP: none (TP 1)");
            break;
        }
        units_format(UNITS_BYTES, sc->bytes, true, a, sizeof a);
        units_format(UNITS_TIME, sc->each_s, true, b2, sizeof b2);
        snprintf(buf, buf_len,
                 "TP: %.0f %s of %s over %d %s in %d domain%s (%s each, %s) = %s%s%s", sc->count,
                 r->seq_parallel ? "reduce-scatter + all-gather pairs (sequence parallel)"
                                 : "all-reduces",
                 a, sc->group, hw_noun(&c->gpu, HW_NOUN_MANY), sc->domains,
                 sc->domains == 1 ? "" : "s", b2, tier_name(sc->tier), d4,
                 m->cp > 1 ? " (with CP K/V exchange)" : "",
                 r->tp_overlap ? ", the rest hidden under the GEMMs" : "");
        break;
    case STEP_PP:
        if (m->pp <= 1) {
            snprintf(buf, buf_len, "PP: none (PP 1)");
            break;
        }
        units_format(UNITS_BYTES, sc->bytes, true, a, sizeof a);
        units_format(UNITS_TIME, sc->each_s, true, b2, sizeof b2);
        snprintf(buf, buf_len, "PP: %.0f sends of %s between stages (%s each, %s) = %s", sc->count,
                 a, b2, tier_name(sc->tier), d4);
        break;
    case STEP_BUBBLE:
        units_format(UNITS_TIME, r->mb_stage_s, true, a, sizeof a);
        if (r->layers_per_chunk * m->interleave != r->layers_per_stage)
            snprintf(buf, buf_len,
                     "bubble: (%d-1) x %d/%d (the largest chunk's share of the stage's layers: "
                     "uneven chunks, the slowest sets the pace) x %s per micro-batch = %s "
                     "(%d micro-batches)",
                     m->pp, r->layers_per_chunk, r->layers_per_stage, a, d4, r->micro_batches);
        else
            snprintf(buf, buf_len,
                     "bubble: (%d-1)/%d x %s per micro-batch = %s (%d micro-batches)", m->pp,
                     m->interleave, a, d4, r->micro_batches);
        break;
    case STEP_DP:
        if (sc->count <= 0) {
            snprintf(buf, buf_len, "DP: none (DP 1)");
            break;
        }
        units_format(UNITS_BYTES, sc->bytes, true, a, sizeof a);
        units_format(UNITS_TIME, sc->total_s, true, b2, sizeof b2);
        units_format(UNITS_TIME, r->dp_hidden_s, true, c3, sizeof c3);
        snprintf(buf, buf_len,
                 "DP: %s of %s of gradients over %d %s in %d domains = %s, %s hidden "
                 "behind backward, %s exposed",
                 m->zero == 0 ? "all-reduce" : "reduce-scatter + all-gather", a, sc->group,
                 hw_noun(&c->gpu, HW_NOUN_MANY), sc->domains, b2, c3, d4);
        break;
    case STEP_EP:
        if (m->ep <= 1) {
            snprintf(buf, buf_len, "EP: none (EP 1)");
            break;
        }
        units_format(UNITS_BYTES, sc->bytes, true, a, sizeof a);
        units_format(UNITS_TIME, sc->each_s, true, b2, sizeof b2);
        snprintf(buf, buf_len,
                 "EP: %.0f all-to-alls of %s over %d %s in %d domains (%s each, %s) = %s",
                 sc->count, a, sc->group, hw_noun(&c->gpu, HW_NOUN_MANY), sc->domains, b2,
                 tier_name(sc->tier), d4);
        break;
    default:
        break;
    }
    return buf;
}
