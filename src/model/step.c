/* SPDX-License-Identifier: MIT */
/* step — one training step of a workload on a cluster under a mapping.
 *
 * Per GPU of the slowest (last) pipeline stage, for one micro-batch of b
 * sequences (s_loc = s/CP tokens each; t = TP, p = PP, v = interleave,
 * d = DP, e = EP, m = global batch / (d*b) micro-batches, L_s = ceil(L/p)):
 *
 *   step = m x (compute + TP + PP + EP) + bubble + exposed DP + optimizer
 *          + exposed offload
 *
 * compute is layer.c's (the kernels of each layer at their shapes, kernel.h);
 * each communicating term has a function below headed by its formula, its
 * overlap and its source: step_tp, step_pp, step_ep, step_bubble, step_dp,
 * step_optimizer, step_offload and step_memory. step_setup derives the
 * sizes they share.
 *
 * Overlap, as frameworks achieve it (each reported hidden and exposed):
 *   TP   Megatron-Core / Transformer Engine userbuffers split each GEMM next
 *        to a sequence-parallel all-gather or reduce-scatter into chunks and
 *        pipeline the collective under it: what the GEMM cannot cover shows,
 *        plus half the smaller of the two (the pipeline's first transfer and
 *        last GEMM; overlap_under), and the GEMM loses the share of compute
 *        the communication takes while they overlap (comm_sm_share)
 *   CP   the ring's key/value exchange runs under the attention kernel
 *   PP   sends under the next chunk's compute (interleaved schedule)
 *   DP   gradient reduce-scatter in 40M-parameter buckets under the last
 *        micro-batch's backward (Megatron-Core DDP bucket_size) [R]: the
 *        last bucket always shows; the parameter all-gather under the
 *        first micro-batch's forward (--overlap-param-gather) [R]
 *   ZeRO-3 / FSDP  per layer: all-gather (FP8 weights in FP8 runs, but for
 *        DeepSpeed and XLA) before its forward and again
 *        before its backward, reduce-scatter of its gradients after,
 *        prefetched one layer ahead (PyTorch FSDP, Zhao et al. VLDB 2023
 *        §3-4) [P]: per layer what the compute cannot cover shows, and the
 *        first gather and last reduce-scatter of every micro-batch
 *   EP   the all-to-alls only with ep_overlap: Megatron-Core's combined
 *        1F1B or DualPipe (ep_pair_s; DeepSeek-V3 §3.2.1: 20 of 132 SMs
 *        kept for communication) [P]
 *
 * Framework settings (Workload, WL_AUTO = the default stated here):
 *   sequence parallelism  on when TP > 1, as Megatron-Core recipes run it
 *                         (Korthikanti et al. 2022); off for 2021-era runs
 *   TP comm overlap       on under Megatron with sequence parallelism, as
 *                         NVIDIA's performance recipes run it (Megatron-LM's
 *                         --tp-comm-overlap itself is opt-in: 2021-era runs
 *                         say off); off in the other frameworks
 *   PP send overlap       on with the interleaved schedule, off for plain
 *                         1F1B (Megatron-LM overlap_p2p_comm applies to the
 *                         interleaved schedule)
 *   DP overlap            on (--overlap-grad-reduce, which NeMo and
 *                         Megatron-Bridge recipes set)
 *   EP overlap            off (opt-in: Megatron-Core's combined 1F1B, or
 *                         DualPipe with ep_dualpipe)
 *   EP dispatch once per  off: NCCL's all-to-all sends every routed copy
 *   remote domain         (Megatron-Core's default alltoall dispatcher);
 *                         on, a token crosses the network once per domain
 *                         holding its experts and fans out over scale-up
 *                         (DeepEP, HybridEP; DeepSeek-V3 §3.2.2), collective.c
 *
 * Pure: no I/O, no allocation with the default placement.
 */
#include "model/step.h"

#include "base/msg.h"
#include "model/step_work.h"
#include "model/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The global parameters. nonmatmul_bytes_per_act (memory-bound element-wise
 * work: norms, activations, residuals, softmax, dropout; MODEL-FACTS §9) is
 * tuned with the Ampere GEMM share on SC21 Table 1 (kernel.c). The link
 * efficiencies, fixed cost and ramp are collective.c's. DP overlap: the
 * backward of the last micro-batch can hide the gradient reduction
 * (Megatron --overlap-grad-reduce, torch DDP buckets). */
StepParams step_params_default(void)
{
    CollParams cp = collective_params_default();
    StepParams p = {
        .compute_efficiency = 0,
        .nonmatmul_bytes_per_act = 6.0,
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

/* Frameworks that keep a BF16 copy of the weights beside an FP32 master
 * (Megatron's mixed precision, DeepSpeed's ZeRO); FSDP2 and JAX make their
 * BF16 copies per layer as they run and keep only the parameters. */
static bool keeps_copy(WlFramework f)
{
    return f == WL_FW_MEGATRON || f == WL_FW_AUTO || f == WL_FW_DEEPSPEED;
}

/* The parameters' and moments' bytes: the workload's, or FP32. */
static double dtype_or_fp32(const Workload *w, double bytes)
{
    return w && bytes > 0 ? bytes : 4.0;
}

StepStateBytes step_state_bytes_per_param_w(WlFramework f, const Workload *w)
{
    double master = dtype_or_fp32(w, w ? w->master_bytes : 0);
    double mu = dtype_or_fp32(w, w ? w->mu_bytes : 0), nu = dtype_or_fp32(w, w ? w->nu_bytes : 0);
    /* gradients: Megatron's FP32 main_grad, DeepSpeed's FP16 of 2021, the
     * parameters' own dtype in FSDP2 and JAX */
    double grads = f == WL_FW_DEEPSPEED ? 2.0 : keeps_copy(f) ? 4.0 : master;
    if (w && w->grad_bytes > 0)
        grads = w->grad_bytes;
    StepStateBytes b = {master, grads, mu + nu};
    if (keeps_copy(f)) { /* the BF16 weights; the master, when FP32, beside the moments */
        b.weights = 2.0;
        b.optimizer += master > 2.0 ? master : 0;
    }
    return b;
}

StepStateBytes step_state_bytes_per_param_of(WlFramework f)
{
    return step_state_bytes_per_param_w(f, NULL);
}

StepStateBytes step_state_bytes_per_param(void)
{
    return step_state_bytes_per_param_of(WL_FW_MEGATRON);
}

StepStateBytes step_state_bytes(double params, int zero, double shard)
{
    return step_state_bytes_of(WL_FW_MEGATRON, params, zero, shard);
}

StepStateBytes step_state_bytes_of(WlFramework f, double params, int zero, double shard)
{
    return step_state_bytes_w(f, NULL, params, zero, shard);
}

StepStateBytes step_state_bytes_w(WlFramework f, const Workload *w, double params, int zero,
                                  double shard)
{
    StepStateBytes b = step_state_bytes_per_param_w(f, w);
    double n = shard >= 1 ? shard : 1;
    b.weights *= params / (zero >= 3 ? n : 1);
    b.grads *= params / (zero >= 2 ? n : 1);
    b.optimizer *= params / (zero >= 1 ? n : 1);
    return b;
}

/* The share of compute a collective's kernels take while compute runs
 * beside them. Calculon gives 15% for NVLink collectives and 2% for the
 * network (calculon-ai/calculon systems/a100_80g.json processor_usage) [R].
 * Inside one domain 8% (about 11 of 132 SMs, NCCL's usual NVLink channel
 * count), so a bigger scale-up domain never costs time [D][U]. A ring that
 * crosses the network runs two channels per NIC (NCCL's default
 * NCCL_NCHANNELS_PER_NET_PEER), 16 CTAs on an 8-NIC server (12% of an
 * H100's SMs), and its copies through HBM at NIC and NVLink rates slow the
 * kernels beside them too: 20% [D][U; chosen with torchtitan's 8- and
 * 128-GPU FSDP rows in view, which are TUNED]. This is what makes FSDP's
 * per-GPU throughput fall as its rings span more nodes (torchtitan 1 to 16
 * nodes -2.7%; llm-foundry's 16 to 64 nodes -7.7%, never tuned on, is the
 * check): the rings' time, latency included, grows with the nodes and so
 * does the compute they slow. */
static double comm_sm_share(const CollCost *c)
{
    return c->tier_bytes[TIER_OUT] > 0 || c->tier_bytes[TIER_ACROSS] > 0 ? 0.20 : 0.08;
}
static const struct {
    const char *name, *words;
} step_parts[STEP_PART_COUNT] = {
    {"compute", "compute"},        {"TP", "TP all-reduce"},         {"PP", "PP sends"},
    {"bubble", "pipeline bubble"}, {"DP", "DP gradient reduction"}, {"EP", "EP all-to-all"},
};

const char *step_part_name(StepPart part)
{
    return (part >= 0 && part < STEP_PART_COUNT) ? step_parts[part].name : "?";
}

const char *step_part_words(StepPart part)
{
    return (part >= 0 && part < STEP_PART_COUNT) ? step_parts[part].words : "?";
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

WlFramework step_framework(const Cluster *c, const Workload *w)
{
    if (w && w->framework != WL_FW_AUTO)
        return w->framework;
    return c && kernel_arch(&c->gpu)->compiled_only ? WL_FW_JAX : WL_FW_MEGATRON;
}

KernelStack step_kernel_stack(WlFramework f)
{
    switch (f) {
    case WL_FW_PYTORCH:
        return KERNEL_EAGER;
    case WL_FW_COMPILE:
        return KERNEL_COMPILED;
    case WL_FW_JAX:
        return KERNEL_XLA;
    default:
        return KERNEL_FUSED;
    }
}

static bool on_or(WlSwitch sw, bool dflt)
{
    return sw == WL_AUTO ? dflt : sw == WL_ON;
}

/* A dropless MoE layer under an eagerly launched framework sizes its
 * grouped GEMM and its all-to-all from the routing on the host: Transformer
 * Engine's GroupedLinear takes the tokens per expert as a Python list and
 * Megatron-Core's dispatchers copy them to the host and wait
 * (_maybe_dtoh_and_synchronize); PyTorch's grouped matmul takes its offsets
 * on the device, but an all-to-all over EP > 1 takes its split sizes on the
 * host (torchtitan's expert parallelism) [R]. Each layer's forward drains
 * the GPU's queue, so the CPU can no longer run ahead, and a layer takes at
 * least the host's time to issue it: MOE_HOST_S per layer and micro-batch,
 * forward and backward [U; tuned on one run, Megatron-Bridge 26.04
 * Qwen3-30B-A3B on 16 H100 at micro-batch 1, tests/fidelity/cases.tsv R139,
 * TUNED]. The host's work does not grow with the layer's width, so the
 * floor binds at small micro-batches and narrow experts, as published:
 * Megatron-Bridge runs Qwen3-30B-A3B on 8 B200 at 9,299 tokens/s per GPU at
 * micro-batch 1 (25.11) and 27,136 at 4 (26.04). A capacity (token
 * dropping, padded: fixed shapes) needs no sync, and XLA compiles the step
 * whole. CUDA graphs replay what they capture without
 * the host: the attention block (Megatron-Core cuda_graph_scope "attn")
 * takes a third of the floor away, five of a layer's fifteen or so module
 * calls (norm and QKV, rotary, core attention, projection, residual against
 * the MoE block's norm, router, dispatch, two grouped GEMMs, activation,
 * combine and residual) [U]; the router and its preprocessing, graphed
 * too, keep the sync that follows them; a whole-iteration graph (fixed
 * capacities per rank) has none. */
#define MOE_HOST_S          7.7e-3
#define MOE_HOST_ATTN_SHARE (1.0 / 3.0)

static double moe_host_floor(const Step *S)
{
    WlFramework fw = S->f->framework;
    bool eager = fw == WL_FW_MEGATRON || fw == WL_FW_DEEPSPEED || fw == WL_FW_AUTO ||
                 ((fw == WL_FW_PYTORCH || fw == WL_FW_COMPILE) && S->m->ep > 1);
    bool dropless = !(S->w->capacity_factor >= 1);
    if (!S->moe || S->moe_in_stage <= 0 || !eager || !dropless || S->f->kern.flat ||
        S->w->cuda_graphs == WL_GRAPHS_FULL)
        return 0;
    return MOE_HOST_S * (S->w->cuda_graphs == WL_GRAPHS_ATTN ? 1.0 - MOE_HOST_ATTN_SHARE : 1.0);
}

/* nanotron's cut by cost (models/base.py): blocks in order, each with its
 * cost (a layer 4 a d h + 3 F h, the output layer V h, the rest 0), go to
 * the current stage, which closes once the running sum passes (r+1)/p of
 * the total. The last stage then holds the layers past (p-1)/p of it; the
 * others share the rest. */
static void stages_by_cost(Step *S)
{
    const Workload *w = S->w;
    double d = workload_q_dim(w) / w->heads, F = w->dense_ffn > 0 ? w->dense_ffn : w->ffn;
    double layer = 4.0 * w->heads * d * w->hidden + (w->swiglu ? 3.0 : 2.0) * F * w->hidden;
    double out = (double)w->vocab * w->hidden, total = w->layers * layer + out;
    double cut = total * (S->pp - 1) / S->pp; /* the last threshold before the last stage */
    int last = w->layers - (int)floor(cut / layer);
    if (last < 1)
        last = 1;
    if (last > w->layers - (S->pp - 1))
        last = w->layers - (int)(S->pp - 1);
    S->Ls = last;
    S->L_other = (w->layers - last + (int)S->pp - 2) / ((int)S->pp - 1);
    S->Lc = S->Ls;
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
    if (m->pp > 1 && m->interleave == 1 && w->pp_by_cost == WL_ON)
        stages_by_cost(S);
    S->act_b = workload_act_bytes(w);
    S->full = w->recompute == WL_RECOMPUTE_FULL;
    S->selective = w->recompute == WL_RECOMPUTE_SELECTIVE;
    S->fp8 = w->precision == WL_FP8;
    /* FP8 runs gather the weights in FP8: Transformer Engine's FP8
     * parameters (NeMo fp8_params, Megatron --fp8-param-gather) and torchao's
     * float8 FSDP all-gather (torchtitan's enable_fsdp_float8_all_gather, on
     * in its Llama 3.1 405B preset); DeepSpeed and XLA gather BF16 */
    WlFramework fw = S->f->framework;
    S->gather_b = S->fp8 && fw != WL_FW_DEEPSPEED && fw != WL_FW_JAX ? 1.0 : S->act_b;
    S->rc_mask = workload_recompute_mask(w);
    S->xla = S->f->framework == WL_FW_JAX;
    S->rerun = !S->xla;
    S->dropout = on_or(w->dropout, !w->swiglu && !S->xla);
    S->rc_layers = S->rc_mask == 0                                          ? 0
                   : w->recompute_layers > 0 && w->recompute_layers < S->Ls ? w->recompute_layers
                                                                            : S->Ls;
    S->moe = workload_is_moe(w);
    S->moe_layers = workload_moe_layer_count(w);
    /* dense layers come first: the last stage holds MoE layers first */
    S->moe_in_stage = S->moe_layers < S->Ls ? S->moe_layers : S->Ls;
    S->dense_in_stage = S->Ls - S->moe_in_stage;
    S->moe_host_s = moe_host_floor(S);
    S->sp = m->tp > 1 && on_or(w->seq_parallel, true);
    r->seq_parallel = S->sp;
    /* Megatron-Core's performance recipes (NeMo, Megatron-Bridge, NVIDIA's
     * DGX Cloud benchmarks) turn userbuffer TP overlap on whenever TP > 1
     * (their configs: tp_comm_overlap / ub_tp_comm_overlap true) [R] */
    r->tp_overlap = m->tp > 1 && S->sp && on_or(w->tp_overlap, S->f->framework == WL_FW_MEGATRON);
    r->pp_overlap = m->pp > 1 && on_or(w->pp_overlap, m->interleave > 1);
    r->dp_overlap = on_or(w->dp_overlap, true);
    r->ep_overlap = S->moe && m->ep > 1 && on_or(w->ep_overlap, false);
    r->ep_dedup = S->moe && m->ep > 1 && on_or(w->ep_dedup, false);
    r->cuda_graphs = w->cuda_graphs;
    S->ep_sort = S->moe && m->ep > 1 && !r->ep_dedup && w->experts / m->ep > 1;
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
    /* the last stage's logits: 4 bytes each with a fused loss (Megatron's
     * vocab-parallel cross entropy in FP32, flash-attn's in-place Triton
     * loss); 2 under XLA, whose BF16 logits (MaxText's dtype, its
     * logits_dot_in_fp32 off) take their gradient in the same buffer;
     * PyTorch's own cross entropy (autocast runs it in FP32) holds the BF16
     * logits, their FP32 copy and its log-softmax at its peak (2 + 4 + 4),
     * torch.compile the BF16 logits and an FP32 log-softmax (2 + 4) [D from
     * the ops, U] */
    KernelStack ks = S->f->kern.stack;
    bool fused_loss = on_or(w->fused_loss, ks == KERNEL_FUSED || ks == KERNEL_XLA);
    double logit_b = fused_loss ? (S->xla ? 2.0 : 4.0) : ks == KERNEL_COMPILED ? 6.0 : 10.0;
    S->logits = S->b * S->s_loc * S->V / S->t * logit_b;
    S->logits_held = S->logits / (w->loss_chunks > 1 ? w->loss_chunks : 1);
}

/* compute = the stage's layers (layer.c) + the output layer and loss, one
 * micro-batch; x m micro-batches in part compute. */
static void step_compute(Step *S, StepResult *r)
{
    layer_compute(S, r);
    const double nd = S->dense_in_stage, nm = S->moe_in_stage, frac = S->rc_layers / S->Ls;
    r->mb_gemm_s = nd * S->dense.gemm_s + nm * S->moe_cost.gemm_s;
    r->mb_attn_s = nd * S->dense.attn_s + nm * S->moe_cost.attn_s;
    r->mb_stream_s = nd * S->dense.stream_s + nm * S->moe_cost.stream_s;
    r->mb_recompute_s = frac * (nd * S->dense.recompute_s + nm * S->moe_cost.recompute_s);
    r->mb_gemm_s += S->logits_s;
    /* cut by cost, a stage without the output layer may pace the pipeline */
    S->head_pace_s = S->logits_s;
    if (S->L_other > 0) {
        double other = S->L_other * (r->mb_compute_s - S->logits_s) / S->Ls;
        if (other > r->mb_compute_s)
            r->mb_compute_s = other, S->head_pace_s = 0;
    }
    r->clock = S->f->kern.clock;
    r->params.compute_efficiency = S->f->P.compute_efficiency;
}

/* A collective of cost c (each of n) under GEMMs of g seconds: the exposed
 * part, the hidden part and the compute the overlap costs (see the header).
 * In a chunked overlap the first chunk's communication waits before any
 * GEMM runs and the last chunk's GEMM after the last transfer: half the
 * smaller of the two shows, what torchtitan's async-TP pairs measure (TP 8
 * on H100: +9-10% end to end in BF16; the model gives +8.5%) [tuned on
 * those pairs, stated in tests/fidelity/cases.tsv]. */
static double overlap_under(double c, double g, const CollCost *cost, double *hidden, double *slow)
{
    double exposed = (c > g ? c - g : 0) + 0.5 * (c < g ? c : g);
    if (exposed > c)
        exposed = c;
    *hidden += c - exposed;
    *slow += comm_sm_share(cost) * (c < g ? c : g);
    return exposed;
}

/* The TP collectives of one layer of a kind (fwd + bwd, + fwd again with
 * full recompute): each all-reduce, or with sequence parallelism an
 * all-gather and a reduce-scatter of the same buffer (Korthikanti et al.
 * 2022 §4.2.2: the same bytes, twice the latency), 4 slots per pass. */
static double tp_layer(const Step *S, const LayerCost *lc, const CollCost *one, bool overlap,
                       double *hidden, double *slow)
{
    double passes = S->full ? 3.0 : 2.0, exposed = 0;
    if (!overlap)
        return passes * 2.0 * one->time_s; /* 2 per pass: attention and MLP */
    for (int pass = 0; pass < (S->full ? 3 : 2); pass++)
        for (int slot = 0; slot < 4; slot++) {
            double g = lc->tp_gemm_s[pass == 1 ? 1 : 0][slot];
            exposed += overlap_under(0.5 * one->time_s, g, one, hidden, slow);
        }
    return exposed;
}

/* TP: see tp_layer; on the critical path unless TP comm overlap (step.c
 * header). CP adds the key/value exchange of the ring per layer forward and
 * its gradients backward (Llama 3 §3.3.2; Megatron-Core's ring), under the
 * attention kernel. */
static void step_tp(Step *S, StepResult *r)
{
    const Mapping *m = S->m;
    double t_tp = 0, t_cp = 0, hidden = 0, slow = 0;
    if (m->tp > 1) {
        double bytes = S->b * S->s_loc * S->h * S->act_b;
        CollCost one;
        if (S->sp) {
            /* the all-gather costs what a reduce-scatter of its bytes does
             * (collective.h); under FP8, Transformer Engine casts a
             * sequence-parallel input before it gathers it (a Float8Tensor
             * all-gather, and the output gradient's in backward), one byte
             * an element; the reduce-scatters stay BF16 [R] */
            CollCost rs = collective_cost_with(COLL_REDUCE_SCATTER, bytes, r->span[DIM_TP], S->c,
                                               &S->f->cpar);
            bool te = S->f->framework == WL_FW_MEGATRON || S->f->framework == WL_FW_AUTO;
            CollCost ag = S->fp8 && te
                              ? collective_cost_with(COLL_REDUCE_SCATTER, bytes / S->act_b,
                                                     r->span[DIM_TP], S->c, &S->f->cpar)
                              : rs;
            one = rs;
            one.time_s += ag.time_s;
            for (int k = 0; k < TIER_COUNT; k++) {
                one.tier_s[k] += ag.tier_s[k];
                one.tier_bytes[k] += ag.tier_bytes[k];
            }
        } else {
            one = collective_cost_with(COLL_ALL_REDUCE, bytes, r->span[DIM_TP], S->c, &S->f->cpar);
        }
        double hd = 0, sd = 0, hm = 0, sm = 0;
        t_tp = S->dense_in_stage * tp_layer(S, &S->dense, &one, r->tp_overlap, &hd, &sd) +
               S->moe_in_stage * tp_layer(S, &S->moe_cost, &one, r->tp_overlap, &hm, &sm);
        hidden = S->dense_in_stage * hd + S->moe_in_stage * hm;
        slow = S->dense_in_stage * sd + S->moe_in_stage * sm;
        double n = (S->full ? 6.0 : 4.0) * S->Ls;
        r->comm[STEP_TP] = make_comm(n * S->mb, bytes, &one, r->span[DIM_TP]);
        add_traffic(r, &one, n * S->mb);
    }
    if (m->cp > 1) {
        const Workload *w = S->w;
        double kv = 2.0 * S->b * S->s * (double)w->kv_heads * workload_q_dim(w) / w->heads;
        double bytes = kv * S->act_b / S->t;
        CollCost one =
            collective_cost_with(COLL_ALL_GATHER, bytes, r->span[DIM_CP], S->c, &S->f->cpar);
        double attn = S->dense_in_stage * S->dense.attn_s + S->moe_in_stage * S->moe_cost.attn_s;
        double comm = (S->full ? 3.0 : 2.0) * S->Ls * one.time_s;
        t_cp = comm > attn ? comm - attn : 0;
        slow += comm_sm_share(&one) * (comm < attn ? comm : attn);
        add_traffic(r, &one, (S->full ? 3.0 : 2.0) * S->Ls * S->mb);
    }
    r->tp_hidden_s = S->mb * hidden;
    r->cp_s = S->mb * t_cp;
    r->tp_exposed_s = S->mb * t_tp;
    r->cp_exposed_s = S->mb * t_cp;
    S->comm_slow_s += slow;
    S->t_tp = t_tp + t_cp;
}

/* PP = 2*v sends of b*s_loc*h*2/t bytes per micro-batch (forward
 * activations, backward gradients; SC21 §4.1 scatter/gather, b*s_loc*h*2
 * under DeepSpeed's pipeline engine, and the
 * interleaved schedule sends v times as often, §2.2.2). With overlap they run
 * under the next chunk's compute; what exceeds it shows. */
static void step_pp(Step *S, StepResult *r)
{
    if (S->m->pp <= 1)
        return;
    /* DeepSpeed's pipeline engine (Megatron-DeepSpeed: BLOOM, MT-NLG) sends
     * each TP rank's whole activation; Megatron splits it over the TP ranks
     * (scatter/gather, SC21 §4.1; with SP it is split already) */
    bool whole = S->f->framework == WL_FW_DEEPSPEED && !S->sp;
    double bytes = S->b * S->s_loc * S->h * S->act_b / (whole ? 1.0 : S->t), n = 2.0 * S->v;
    CollParams pq = S->f->cpar;
    pq.across_sharers = S->c->n_gpus / S->pp;
    GroupSpan pair = pair_span(r->span[DIM_PP]);
    CollCost one = collective_cost_with(COLL_SEND_RECV, bytes, pair, S->c, &pq);
    double t = n * one.time_s;
    double hidden = r->pp_overlap ? fmin(t, r->mb_compute_s) : 0;
    r->pp_hidden_s = S->mb * hidden;
    S->t_pp = t - hidden;
    r->pp_exposed_s = S->mb * S->t_pp;
    r->comm[STEP_PP] = make_comm(n * S->mb, bytes, &one, r->span[DIM_PP]);
    add_traffic(r, &one, n * S->mb);
}

/* How much of a MoE layer's all-to-alls the overlapped schedule leaves
 * exposed. Megatron-Core's combined 1F1B (--overlap-moe-expert-parallel-comm)
 * runs one micro-batch's forward beside another's backward, layer by layer,
 * on a compute and a communication stream in this order (its EP-overlap
 * design notes, model_chunk_schedule_plan.py) [D], as DeepSeek-V3's DualPipe
 * pairs its chunks (§3.2.1):
 *   communication: combine bwd | dispatch fwd, dispatch bwd        | combine fwd
 *   compute:       attn fwd    | mlp dgrad, mlp wgrad, mlp fwd      | attn bwd
 * each all-to-all waiting for the tensor it carries and each kernel for its
 * input; af/mf the attention block's and the MLP's forward, ab/mb their
 * backward (dgrad then wgrad, half each), a_f and a_b one all-to-all of each
 * direction (full recompute sends the forward's again in backward). Returns
 * the pair's time per layer; what exceeds af + mf + ab + mb is exposed. */
static double ep_pair_s(const LayerCost *lc, double a_f, double a_b)
{
    const double *p = lc->part_fwd_s;
    double af = p[LP_NORM] + p[LP_QKV] + p[LP_CORE] + p[LP_OPROJ];
    double mf = p[LP_ACT] + p[LP_MLP] + p[LP_MLP_OUT];
    double bwd = lc->bwd_s + lc->recompute_s;
    double ab = af + mf > 0 ? bwd * af / (af + mf) : 0, mb = bwd - ab;
    double start = fmax(af, a_b); /* attn fwd, combine bwd */
    double dgrad = start + 0.5 * mb, wgrad = dgrad + 0.5 * mb;
    double dispatch_f = start + a_f; /* needs the attention's output */
    double dispatch_b = fmax(dispatch_f, dgrad) + a_b;
    double mlp_f = fmax(wgrad, dispatch_f) + mf; /* needs its tokens dispatched */
    double combine_f = fmax(dispatch_b, mlp_f) + a_f;
    double attn_b = fmax(mlp_f, dispatch_b) + ab; /* needs its gradient dispatched back */
    return fmax(combine_f, attn_b);
}

/* The share of a stage's micro-batch chunks with no partner: the forwards
 * of the warm-up and the backwards of the cool-down. Megatron's interleaved
 * schedule warms up 2(p - 1) + (v - 1) p chunks on the first stage, 1F1B
 * p - 1, and one more, as the first forward and the last backward of a
 * schedule without pipelining run alone. DualPipe feeds micro-batches from
 * both ends of the pipeline, which halves the warm-up: p / 2 slots (its
 * bubble, (p/2 - 1) of them, DeepSeek-V3 Table 2, and the first). */
static double ep_unpaired_share(const Step *S, bool dualpipe)
{
    double chunks = S->mb * S->v, warm;
    if (dualpipe)
        warm = fmax(1.0, 0.5 * S->pp);
    else
        warm = (S->v > 1 ? 2 * (S->pp - 1) + (S->v - 1) * S->pp : S->pp - 1) + 1;
    return chunks > 0 ? fmin(1.0, warm / chunks) : 1.0;
}

/* EP = 4 all-to-alls per MoE layer (dispatch and combine, forward and
 * backward; 6 with full recompute) of (b*s_loc/t) * top-k * h * 2 bytes x
 * the capacity factor (the busiest rank's share sets the pace), split by
 * collective.c over the tiers the EP group spans (scale-up share inside the
 * domain, the rest over the NICs; with ep_dedup once per remote domain,
 * collective.c). The permutation around them is
 * element-wise work in compute (layer.c). With ep_overlap the exchange runs
 * under another micro-batch's compute (ep_pair_s: what the paired kernels
 * cannot cover, and the unpaired chunks' whole exchange, stay exposed),
 * which loses the SMs the exchange keeps: DeepSeek-V3 kept 20 of 132 for it
 * (§3.2.2) [P]. */
static void step_ep(Step *S, StepResult *r)
{
    if (!S->moe || S->m->ep <= 1)
        return;
    const Workload *w = S->w;
    double cf = w->capacity_factor > 1 ? w->capacity_factor : 1.0;
    double bytes = S->b * S->s_loc / S->t * w->topk * S->h * S->act_b * cf;
    double n = (S->full ? 6.0 : 4.0) * S->moe_in_stage;
    CollParams dp = S->f->cpar;
    if (r->ep_dedup)
        dp.dispatch_topk = w->topk;
    CollCost one = collective_cost_with(COLL_ALL_TO_ALL, bytes, r->span[DIM_EP], S->c, &dp);
    double t = n * one.time_s, hidden = 0;
    if (r->ep_overlap) {
        /* Megatron-Core's combined 1F1B in its fixed order, or DualPipe,
         * whose finer chunks and SM split hide a pair's all-to-alls whole
         * (DeepSeek-V3 §3.2.1) [P] */
        bool dualpipe = S->w->ep_dualpipe;
        const LayerCost *lc = &S->moe_cost;
        double a_b = (S->full ? 2.0 : 1.0) * one.time_s;
        double comp = lc->fwd_s + lc->bwd_s + lc->recompute_s;
        double paired = dualpipe ? 0 : fmax(0, ep_pair_s(lc, one.time_s, a_b) - comp);
        double u = ep_unpaired_share(S, dualpipe);
        double exposed = S->moe_in_stage * ((1 - u) * paired + u * 2 * (one.time_s + a_b));
        hidden = fmax(0, t - exposed);
        S->comm_slow_s += (20.0 / 132) * hidden;
    }
    r->ep_permute_s = 0;
    r->ep_hidden_s = S->mb * hidden;
    S->t_ep = t - hidden;
    r->ep_exposed_s = S->mb * S->t_ep;
    r->comm[STEP_EP] = make_comm(n * S->mb, bytes, &one, r->span[DIM_EP]);
    add_traffic(r, &one, n * S->mb);
}

/* bubble = (p-1) x L_c/L_s x one micro-batch's stage time, L_c =
 * ceil(L/(p*v)) the largest chunk: (p-1)/v when chunks are even (SC21 §2.2);
 * uneven chunks (Llama 3 405B: 126 layers on PP 16, §3.3.2; DeepSeek-V3: 61
 * on 16) let the largest set the pace of every warm-up and cool-down slot.
 * The stage time is the layers' alone: the output layer runs on the last
 * stage only, which the fill and drain never wait for (step = m x T_last +
 * (p-1) x T_other).
 * The compute the overlapped communication costs is added to compute. */
static void step_bubble(Step *S, StepResult *r)
{
    r->mb_compute_s += S->comm_slow_s;
    r->mb_stage_s = r->mb_compute_s + S->t_tp + S->t_pp + S->t_ep;
    r->part_s[STEP_COMPUTE] = S->mb * r->mb_compute_s;
    r->part_s[STEP_TP] = S->mb * S->t_tp;
    r->part_s[STEP_PP] = S->mb * S->t_pp;
    r->part_s[STEP_EP] = S->mb * S->t_ep;
    /* cut by cost, the other stages hold L_other layers each */
    double other = S->L_other > 0 && S->head_pace_s > 0 ? (double)S->L_other / S->Ls : 1.0;
    r->mb_fill_s = other * (r->mb_stage_s - S->head_pace_s);
    r->part_s[STEP_BUBBLE] = (S->pp - 1) * ((double)S->Lc / S->Ls) * r->mb_fill_s;
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

/* The span of a group of `size` ranks made of the innermost ranks of a
 * group with span g (a sharding group inside the DP x CP ranks), and of the
 * group of its replicas across g. Closed form from g's ranks per domain. */
static GroupSpan sub_span(GroupSpan g, int size)
{
    GroupSpan s = g;
    if (size >= g.size)
        return g;
    double per = g.domains > 0 ? (double)g.size / g.domains : g.size;
    s.size = size;
    s.domains = (int)ceil(size / per);
    if (s.domains < 1)
        s.domains = 1;
    s.min_per_domain = size < g.min_per_domain ? size : g.min_per_domain;
    if (s.domains == 1) {
        s.min_per_domain = size;
        s.crosses_leaf = false;
    }
    s.sites = s.sites < s.domains ? s.sites : s.domains;
    return s;
}

static GroupSpan replica_span(GroupSpan g, GroupSpan shard)
{
    GroupSpan s = g;
    s.size = g.size / (shard.size > 0 ? shard.size : 1);
    s.domains = g.domains / (shard.domains > 0 ? shard.domains : 1);
    if (s.domains < 1)
        s.domains = 1;
    if (s.domains > s.size)
        s.domains = s.size;
    s.min_per_domain = s.size / s.domains;
    return s;
}

/* The DP x CP ranks that hold the same parameters (Megatron reduces
 * gradients over the data-parallel group with context parallelism). */
static GroupSpan dp_cp_span(const StepResult *r, const Mapping *m)
{
    GroupSpan d = r->span[DIM_DP], c = r->span[DIM_CP];
    if (m->cp <= 1)
        return d;
    GroupSpan u = d;
    u.size = d.size * c.size;
    u.domains = d.domains * c.domains;
    if (u.domains > u.size)
        u.domains = u.size;
    u.min_per_domain = d.min_per_domain * c.min_per_domain;
    u.sites = d.sites > c.sites ? d.sites : c.sites;
    u.crosses_leaf = d.crosses_leaf || c.crosses_leaf;
    return u;
}

/* What the DP collectives of one step add up to. */
typedef struct {
    double grad_s, param_s;      /* gradient reduction, parameter all-gather (once per step) */
    double bucket_s;             /* the last bucket's reduction, never hidden */
    double share;                /* SM share of the collectives (comm_sm_share) */
    double per_layer_ag_s;       /* ZeRO-3: one layer's all-gather */
    double per_layer_rs_s;       /* ZeRO-3: one layer's reduce-scatter */
    double count, bytes, each_s; /* for step_explain: the gradient collectives */
    CollCost one;
    int group;
} DpCost;

#define DDP_BUCKET_PARAMS 40e6 /* Megatron-Core DDP bucket_size (40M parameters) [R] */

/* ZeRO-3 under a pipeline: PyTorch's pipelining gathers a stage's
 * parameters once per step and keeps them for every micro-batch
 * (reshard_after_forward off), accumulates unsharded gradients and
 * reduce-scatters them after the last micro-batch (torchtitan's FSDP + PP),
 * so its collectives are the once-per-step ones of ZeRO 1 and 2. */
static bool fsdp_keeps_stage(const Step *S)
{
    return S->m->zero >= 3 && S->m->pp > 1;
}

/* DeepSpeed's ZeRO-3 of 2021 gathers each weight tensor on its own and
 * waits for it before the module runs (SC21 Table 2's ZeRO-3 rows); the
 * StepParams switch asks for the same under any framework. */
static bool zero3_per_tensor(const Step *S)
{
    return S->P.zero3_per_tensor || S->f->framework == WL_FW_DEEPSPEED;
}

/* One parameter set (dense, or the experts over their EDP group) of n
 * parameters on this GPU, sharded (ZeRO >= 1) over `shard` of the span g. */
static void dp_add(const Step *S, StepResult *r, double n, GroupSpan g, int shard, DpCost *dc)
{
    const Mapping *m = S->m;
    if (n <= 0 || g.size <= 1)
        return;
    const CollParams *cp = &S->f->cpar;
    GroupSpan sh = sub_span(g, shard), rep = replica_span(g, sh);
    bool hybrid = m->zero >= 1 && sh.size < g.size;
    /* gradients reduce in the dtype they are kept in (Megatron's FP32
     * main_grad unless grad_reduce_in_fp32 is off: --optimizer-state grads=bf16) */
    double gb = step_state_bytes_per_param_w(S->f->framework, S->w).grads;
    double grad = gb * n, bucket = gb * (n < DDP_BUCKET_PARAMS ? n : DDP_BUCKET_PARAMS);
    CollCost a, b, ag;
    if (m->zero == 0) {
        a = collective_cost_with(COLL_ALL_REDUCE, grad, g, S->c, cp);
        b = collective_cost_with(COLL_ALL_REDUCE, bucket, g, S->c, cp);
        dc->grad_s += a.time_s;
        dc->bucket_s += b.time_s;
        add_traffic(r, &a, 1);
        dc->one = a, dc->bytes = grad, dc->count = 1, dc->group = g.size;
        dc->share = comm_sm_share(&a);
        return;
    }
    a = collective_cost_with(COLL_REDUCE_SCATTER, grad, sh, S->c, cp);
    ag = collective_cost_with(COLL_ALL_GATHER, S->gather_b * n, sh, S->c, cp);
    b = collective_cost_with(COLL_REDUCE_SCATTER, bucket, sh, S->c, cp);
    dc->share = comm_sm_share(&a);
    dc->group = sh.size;
    if (hybrid) { /* the shard's gradients all-reduced across the replicas */
        CollCost x = collective_cost_with(COLL_ALL_REDUCE, grad / sh.size, rep, S->c, cp);
        dc->grad_s += x.time_s;
        add_traffic(r, &x, 1);
    }
    if (m->zero < 3 || fsdp_keeps_stage(S)) {
        dc->grad_s += a.time_s;
        dc->param_s += ag.time_s;
        dc->bucket_s += b.time_s;
        add_traffic(r, &a, 1);
        add_traffic(r, &ag, 1);
        dc->one = a, dc->bytes = grad, dc->count = 2, dc->each_s = a.time_s;
        return;
    }
    /* ZeRO-3: per layer, per micro-batch (one flat parameter per layer, or
     * one collective per weight tensor: DeepSpeed's ZeRO-3 of 2021) */
    double pieces =
        S->Ls * (zero3_per_tensor(S) ? workload_layer_tensors(S->w, S->w->layers - 1) : 1);
    CollCost la = collective_cost_with(COLL_ALL_GATHER, S->gather_b * n / pieces, sh, S->c, cp);
    CollCost lr = collective_cost_with(COLL_REDUCE_SCATTER, grad / pieces, sh, S->c, cp);
    double per_layer = pieces / S->Ls, gathers = S->full ? 3.0 : 2.0;
    dc->per_layer_ag_s += per_layer * la.time_s;
    dc->per_layer_rs_s += per_layer * lr.time_s;
    add_traffic(r, &la, S->mb * pieces * gathers);
    add_traffic(r, &lr, S->mb * pieces);
    dc->one = lr, dc->bytes = grad / pieces, dc->count = S->mb * pieces * (1 + gathers);
    dc->each_s = lr.time_s;
    dc->share = comm_sm_share(&la);
}

/* ZeRO-3's exposed time per micro-batch: the first gather, what each
 * layer's compute does not cover of the next layer's gather (forward) or of
 * a gather and a reduce-scatter (backward), the last reduce-scatter. */
static double zero3_exposed(const Step *S, const DpCost *dc, double *hidden, double *slow)
{
    double ag = dc->per_layer_ag_s, rs = dc->per_layer_rs_s, Ls = S->Ls;
    double comm = (S->full ? 3.0 : 2.0) * Ls * ag + Ls * rs;
    if (!(S->P.dp_overlap > 0) || S->f->framework == WL_FW_DEEPSPEED)
        return comm;
    double nd = S->dense_in_stage, nm = S->moe_in_stage, frac = S->rc_layers / S->Ls;
    double fwd = (nd * S->dense.fwd_s + nm * S->moe_cost.fwd_s) / Ls * S->P.dp_overlap;
    double bwd = (nd * (S->dense.bwd_s + frac * S->dense.recompute_s) +
                  nm * (S->moe_cost.bwd_s + frac * S->moe_cost.recompute_s)) /
                 Ls * S->P.dp_overlap;
    double g_b = (S->full ? 2.0 : 1.0) * ag + rs; /* backward: recompute's gather too */
    double exposed = ag + rs + (Ls - 1) * (fmax(0, ag - fwd) + fmax(0, g_b - bwd));
    *hidden += comm - exposed;
    *slow += dc->share * (Ls - 1) * (fmin(ag, fwd) + fmin(g_b, bwd));
    return exposed;
}

/* DP, once per step (ZeRO-3: per micro-batch too): see the header. */
static void step_dp(Step *S, StepResult *r, const GroupSpan *edp_given)
{
    const Mapping *m = S->m;
    GroupSpan g = dp_cp_span(r, m), eg = step_edp_span(S, r, edp_given);
    DpCost dc, ec;
    memset(&dc, 0, sizeof dc);
    memset(&ec, 0, sizeof ec);
    dp_add(S, r, S->n_dense, g, mapping_shard(m), &dc);
    int edp = mapping_edp(m);
    dp_add(S, r, S->n_expert, eg, m->shard > 0 && m->shard < edp ? m->shard : edp, &ec);
    double hidden = 0, slow = 0, exposed = 0, total = 0;
    double mbc = r->mb_compute_s, bwd_frac = S->full ? 3.0 / 4 : 2.0 / 3;
    if (m->zero == 3 && !fsdp_keeps_stage(S)) {
        DpCost both = dc;
        both.per_layer_ag_s += ec.per_layer_ag_s;
        both.per_layer_rs_s += ec.per_layer_rs_s;
        double h1 = 0;
        exposed = S->mb * zero3_exposed(S, &both, &h1, &slow);
        hidden += S->mb * h1;
        slow *= S->mb;
        total = exposed + hidden;
        r->fsdp_gather_s = total;
    }
    /* once per step: the gradient reduction under the last micro-batch's
     * backward, the parameter gather under the first one's forward */
    double grad = dc.grad_s + ec.grad_s, param = dc.param_s + ec.param_s;
    double bucket = dc.bucket_s + ec.bucket_s;
    double hide_g = S->P.dp_overlap * bwd_frac * mbc,
           hide_p = S->P.dp_overlap * (1 - bwd_frac) * mbc;
    double eg_ = S->P.dp_overlap > 0 ? fmax(grad - hide_g, fmin(grad, bucket)) : grad;
    double ep_ = S->P.dp_overlap > 0 ? fmax(param - hide_p, fmin(param, 0.5 * bucket)) : param;
    hidden += (grad - eg_) + (param - ep_);
    slow += dc.share * ((grad - eg_) + (param - ep_));
    exposed += eg_ + ep_;
    total += grad + param;
    r->dp_hidden_s = hidden;
    r->comm_slowdown_s += slow;
    r->part_s[STEP_DP] = exposed + slow;
    r->dp_exposed_s = r->part_s[STEP_DP];
    if (dc.count > 0 || ec.count > 0) {
        const DpCost *k = dc.count > 0 ? &dc : &ec;
        r->comm[STEP_DP] = make_comm(k->count, k->bytes, &k->one, g);
        r->comm[STEP_DP].group = k->group;
        r->comm[STEP_DP].total_s = total;
    }
}

/* optimizer: Adam reads the parameters it updates, their gradients and
 * both moments and writes the parameters and moments back, plus the BF16
 * copy where the framework keeps one: 30 bytes per locally updated
 * parameter under Megatron (fp32 master, m, v, the gradient and the BF16
 * copy), 28 under FSDP2 and JAX, at the achievable HBM rate. Offloaded
 * (ZeRO-Offload; Megatron --optimizer-cpu-offload): the gradients go down
 * (4 bytes) and the new BF16 weights up (2) over the host link, and the CPU
 * runs Adam over host memory at the link's rate again (the host DRAM each
 * GPU's share of a socket can stream, about a PCIe link's worth [U]). */
static void step_optimizer(const Step *S, StepResult *r)
{
    int shard = mapping_shard(S->m), edp = mapping_edp(S->m);
    WlFramework fw = S->f->framework;
    StepStateBytes d = step_state_bytes_w(fw, S->w, S->n_dense, S->m->zero, shard);
    StepStateBytes e = step_state_bytes_w(fw, S->w, S->n_expert, S->m->zero, edp);
    StepStateBytes per = step_state_bytes_per_param_w(fw, S->w);
    /* parameters this GPU updates */
    double opt = (d.optimizer + e.optimizer) / per.optimizer;
    double master = dtype_or_fp32(S->w, S->w->master_bytes);
    double moments = dtype_or_fp32(S->w, S->w->mu_bytes) + dtype_or_fp32(S->w, S->w->nu_bytes);
    bool copy = keeps_copy(fw) && master > per.weights; /* an FP32 master and a BF16 copy */
    double traffic =
        2.0 * (copy ? master : per.weights) + per.grads + 2.0 * moments + (copy ? per.weights : 0);
    r->mem_weights = d.weights + e.weights;
    r->mem_grads = d.grads + e.grads;
    r->mem_optimizer = d.optimizer + e.optimizer;
    if (S->w->offload & WL_OFFLOAD_OPTIMIZER) {
        double host = S->c->host_bytes_per_s > 0 ? S->c->host_bytes_per_s : 32e9;
        r->optimizer_s = (6.0 * opt + traffic * opt) / host;
        r->mem_host_bytes += r->mem_optimizer;
        r->mem_optimizer = 0;
        return;
    }
    r->optimizer_s = kernel_stream_s(&S->f->kern, traffic * opt);
}

/* Offload of weights and activations to host memory over the host link,
 * per micro-batch, under that micro-batch's compute (Megatron-Core
 * --cpu-offloading, ZeRO-Infinity's parameter offload): the activations one
 * micro-batch leaves in the stage go down in forward and come back in
 * backward; offloaded weights come up for forward and again for backward
 * and their gradients (FP32) go down. */
static void step_offload(const Step *S, StepResult *r, double act_bytes)
{
    int off = S->w->offload;
    if (!(off & (WL_OFFLOAD_WEIGHTS | WL_OFFLOAD_ACTIVATIONS)))
        return;
    double host = S->c->host_bytes_per_s > 0 ? S->c->host_bytes_per_s : 32e9, bytes = 0;
    double n = S->n_dense + S->n_expert;
    if (off & WL_OFFLOAD_ACTIVATIONS)
        bytes += 2.0 * act_bytes;
    if (off & WL_OFFLOAD_WEIGHTS)
        bytes += (2.0 * S->act_b + 4.0) * n / (S->m->zero >= 3 ? mapping_shard(S->m) : 1);
    double t = bytes / host, c = r->mb_compute_s;
    r->offload_s = S->mb * (t > c ? t - c : 0);
}

/* The largest weight matrix of a layer on this GPU: a projection, an MLP
 * matrix, or one of the local experts' stacked matrices. */
static double largest_matrix(const Step *S)
{
    const Workload *w = S->w;
    double F = w->dense_ffn > 0 && S->moe ? w->dense_ffn : w->ffn, q = workload_q_dim(w);
    double big = S->h * fmax(q, F) / S->t;
    if (S->moe)
        big = fmax(big, S->h * (double)w->ffn * w->experts / (S->e * mapping_etp(S->m)));
    return big * S->f->pscale;
}

/* Memory per GPU as the framework allocates it: the static state by the one
 * rule (step_state_bytes, ZeRO sharding over the sharding group; expert
 * parameters over the expert-data-parallel group); activations of the first
 * stage: 1F1B keeps min(m, p) micro-batches in flight (under ep_overlap
 * DualPipe one more, Megatron-Core's pairing one layer more), each with that
 * stage's layers, so p x L/p = L layers' worth (Korthikanti et al. 2022
 * §4.2.3), the interleaved schedule 1 + (p-1)/(p*v) times that (same
 * section; Megatron-LM's warm-up of 2(p-1) + (v-1)p chunks of L/(p*v)
 * layers). Uneven stages put the short ones at the ends, where memory peaks
 * (first: in flight; last: logits), as Llama 3 does (§3.3.2): the first
 * holds floor(L/p), the last too when at least two stages are short. Full
 * recompute also holds one layer's whole working set while it recomputes;
 * the last stage adds its fp32 logits. Then what frameworks allocate beside
 * the tensors [U, each a stated estimate]: Transformer Engine's FP8 weights
 * and their transposes in place of the BF16 weights (2 bytes per local
 * parameter), ZeRO-3's two gathered layers in flight, the TP
 * overlap's userbuffers (3 activation buffers), ~1.5 GiB of CUDA context,
 * NCCL buffers and cuBLAS workspaces (0.5 GiB of runtime on TPUs), and
 * the PyTorch caching allocator's fragmentation: 5% of the tensors under
 * Megatron (its buffers are allocated once: gradient buckets, userbuffers),
 * 10% under PyTorch's FSDP, whose per-layer gathers allocate and free as
 * they go (torchtitan's published peaks are its allocator's reserved
 * bytes), none under XLA, which plans its buffers [U]. */
static void step_memory(Step *S, StepResult *r)
{
    const Mapping *m = S->m;
    const Workload *w = S->w;
    const int rem = w->layers % m->pp;
    const double L_first = S->L_other > 0 ? S->L_other : w->layers / m->pp;
    const double L_last =
        S->L_other > 0 || !(rem == 0 || m->pp - rem >= 2) ? S->Ls : w->layers / m->pp;
    /* a forward beside another's backward (ep_overlap): DualPipe holds one
     * micro-batch more, PP + 1 (DeepSeek-V3 Table 2) [P]; Megatron-Core's
     * combined 1F1B pairs the forward's layer i with the backward's last
     * unreleased layer and frees that one after each pair (its warm-up's
     * extra micro-batch is the forward the first pair needs), so it holds
     * what 1F1B holds and one layer more (model_chunk_schedule_plan.py) [R] */
    bool paired = r->ep_overlap && !w->ep_dualpipe;
    double in_flight = fmin(S->mb, S->pp + (r->ep_overlap && w->ep_dualpipe ? 1 : 0));
    double interleave = m->interleave > 1 ? 1 + (S->pp - 1) / (S->pp * S->v) : 1;
    /* per layer of the stage: recomputing layers keep what their policy
     * keeps, the rest everything; dense and MoE layers by their mix */
    double moe_share = S->Ls > 0 ? S->moe_in_stage / S->Ls : 0;
    double rc = S->Ls > 0 ? S->rc_layers / S->Ls : 0;
    double keep_d = rc * S->stored_dense + (1 - rc) * S->full_dense;
    double keep_m = rc * S->stored_moe + (1 - rc) * S->full_moe;
    double per_layer = (1 - moe_share) * keep_d + moe_share * keep_m;
    /* of which offloaded: the host share of what the policy keeps */
    double host_d = S->stored_dense > 0 ? S->host_dense / S->stored_dense : 0;
    double host_m = S->stored_moe > 0 ? S->host_moe / S->stored_moe : 0;
    double host = (1 - moe_share) * keep_d * host_d + moe_share * keep_m * host_m;
    if (w->offload_layers > 0 && w->offload_layers < S->Ls) /* only N layers send theirs */
        host *= (double)w->offload_layers / S->Ls;
    r->mem_act_mb = per_layer * S->Ls; /* one micro-batch through the stage */
    S->host_act_mb = host * S->Ls;
    double working = S->full ? fmax(S->full_dense, S->full_moe) : 0;
    double n_first = L_first * in_flight * interleave + (paired ? 1 : 0);
    /* offloaded tensors: two layers' worth stay on the device */
    double first = (per_layer - host) * n_first + fmin(n_first, 2.0 * in_flight) * host + working;
    double last =
        (per_layer - host) * L_last + fmin(L_last, 2.0) * host + S->logits_held + working;
    r->mem_logits = S->logits_held;
    r->mem_host_bytes += host * fmax(0, fmax(n_first, L_last) - 2.0);
    r->mem_activations = fmax(first, last);
    double n_local = S->n_dense + S->n_expert;
    if (w->offload & WL_OFFLOAD_WEIGHTS) { /* two layers' weights stay on the GPU */
        double keep = 2.0 / (S->Ls > 0 ? S->Ls : 1);
        r->mem_host_bytes += (r->mem_weights + r->mem_grads) * (1 - keep);
        r->mem_weights *= keep;
        r->mem_grads *= keep;
    }
    /* FP8 under Transformer Engine: NVIDIA's recipes keep the weights
     * themselves in FP8 (NeMo's fp8_params, Megatron's --fp8-param-gather,
     * dgxc-benchmarking configure.sh) [R]: a byte per weight and a byte for
     * its transpose take the 2 bytes mem_weights counts, no copy beside
     * them; torchao casts an FP8 copy per GEMM and frees it */
    r->mem_fp8_copies = 0;
    /* ZeRO-3: two layers gathered (the running one and the prefetched one),
     * parameters and their gradients (FSDP's unit is the layer); under a
     * pipeline the whole stage's parameters and FP32 gradients, unsharded
     * (fsdp_keeps_stage). XLA gathers each weight and reduce-scatters each
     * gradient on its own, its scheduler one weight ahead: one layer's
     * weights and its largest matrix again [D from XLA's latency-hiding
     * scheduler, U]. DeepSpeed's ZeRO-3 of 2021 fetches one tensor at a
     * time and waits for it: the largest tensor and its gradient. */
    double layer = n_local / S->Ls, gathered = 0;
    if (fsdp_keeps_stage(S))
        gathered = (S->act_b + 4.0) * n_local;
    else if (m->zero >= 3 && zero3_per_tensor(S))
        gathered = 2.0 * S->act_b * fmin(layer, largest_matrix(S));
    else if (m->zero >= 3 && S->xla)
        gathered = S->act_b * (layer + fmin(layer, largest_matrix(S)));
    else if (m->zero >= 3)
        gathered = 4.0 * S->act_b * layer;
    double ub = r->tp_overlap ? 3.0 * S->b * S->s_loc * S->h * S->act_b : 0;
    /* XLA chips (TPU, Trainium) keep no CUDA context and plan every buffer
     * ahead of the step: a small runtime reserve and no fragmentation [U] */
    bool xla_chip = kernel_arch(&S->c->gpu)->compiled_only;
    r->mem_buffers = (xla_chip ? 0.5 : 1.5) * 1073741824.0 + gathered + ub;
    double tensors =
        r->mem_weights + r->mem_grads + r->mem_optimizer + r->mem_activations + r->mem_fp8_copies;
    KernelStack ks = S->f->kern.stack;
    r->mem_reserve = ks == KERNEL_XLA ? 0 : (ks == KERNEL_FUSED ? 0.05 : 0.10) * tensors;
    r->mem_per_gpu_bytes = tensors + r->mem_buffers + r->mem_reserve;
    r->hbm_bytes = S->c->gpu.hbm_bytes;
    r->fits = r->mem_per_gpu_bytes <= r->hbm_bytes &&
              !(S->c->host_mem_bytes > 0 && r->mem_host_bytes > S->c->host_mem_bytes);
}

/* Throughput, FLOP rates and MFU; the bottleneck in words. */
static void step_rates(const Step *S, StepResult *r)
{
    const Workload *w = S->w;
    r->step_s = r->optimizer_s + r->offload_s;
    for (int i = 0; i < STEP_PART_COUNT; i++)
        r->step_s += r->part_s[i];
    double n_gpus = S->c->n_gpus;
    r->tokens_per_s = (double)w->global_batch * S->s / r->step_s;
    const double model_flops = S->f->model_flops;
    r->tflops_per_gpu = model_flops / r->step_s / n_gpus / 1e12;
    double rc = S->rc_layers / (S->Ls > 0 ? S->Ls : 1);
    r->hw_tflops_per_gpu =
        (model_flops + rc * workload_recompute_flops(w)) / r->step_s / n_gpus / 1e12;
    /* Against the peak of the precision the matmuls run in, so MFU stays
     * below the matmul share (an FP8 run is not "140% MFU"). */
    r->mfu = model_flops / (r->step_s * n_gpus * r->peak_flops);
    r->pp_exposed_s = r->part_s[STEP_PP];
    r->ep_exposed_s = r->part_s[STEP_EP];
    r->dp_exposed_s = r->part_s[STEP_DP];
    bottleneck_words(r, S->m, S->words);
    if (!r->fits && S->words) {
        /* HBM, or else the host memory what is offloaded goes to */
        bool hbm = r->mem_per_gpu_bytes > r->hbm_bytes;
        double used = hbm ? r->mem_per_gpu_bytes : r->mem_host_bytes;
        double cap = hbm ? r->hbm_bytes : S->c->host_mem_bytes;
        char need[32], more[32], have[32];
        units_format(UNITS_BYTES, used, true, need, sizeof need);
        units_format(UNITS_BYTES, used - cap, true, more, sizeof more);
        units_format(UNITS_BYTES, cap, true, have, sizeof have);
        snprintf(r->bottleneck, sizeof r->bottleneck,
                 hbm ? "does not fit: needs %s per %s, %s more than the %s of HBM"
                     : "does not fit: offloads %s per %s to host memory, %s more than the %s "
                       "of host memory it has",
                 need, hw_noun(&S->c->gpu, 0), more, have);
    }
}
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
    CollParams cpar = {
        f->P.up_efficiency, f->P.out_efficiency, f->P.coll_fixed_s, f->P.coll_ramp_bytes, 0, 0};
    f->cpar = cpar;
    f->framework = step_framework(c, w);
    if (f->P.compute_efficiency > 0)
        kernel_ctx_flat(&f->kern, &c->gpu, f->P.compute_efficiency, f->P.gemm_overhead_s,
                        c->power_cap_w);
    else
        kernel_ctx_init(&f->kern, &c->gpu, c->power_cap_w, step_kernel_stack(f->framework),
                        w->flash_version);
    f->share = w->precision == WL_FP8 ? f->kern.a.share_fp8 : f->kern.a.share_bf16;
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
    r->framework = f->framework;
    layer_memory(&S);
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
    r->comm_slowdown_s = S.mb * S.comm_slow_s;
    step_bubble(&S, r);
    step_dp(&S, r, edp_given);
    step_offload(&S, r, S.host_act_mb);
    step_rates(&S, r);
}

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
