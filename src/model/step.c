/* step — one training step of a workload on a cluster under a mapping.
 *
 * Per GPU of the slowest (last) pipeline stage, for one micro-batch of b
 * sequences (s_loc = s/CP tokens each; t = TP, p = PP, v = interleave,
 * d = DP, e = EP, m = global batch / (d*b) micro-batches, L_s = ceil(L/p)):
 *
 *   compute   hardware FLOPs / (peak * compute_efficiency)
 *             + memory-bound HBM traffic / HBM bandwidth.
 *             FLOPs: L_s layers (3 x forward, 4 x with full recompute) plus
 *             the logit layer (the last stage holds it), divided by t*CP.
 *             Traffic: nonmatmul_bytes_per_act x the activation bytes a layer
 *             produces (Korthikanti et al. 2022: s*b*h*(10 + 24/t) plus
 *             5*a*s*s*b/t for the attention scores unless FlashAttention keeps
 *             them on chip; 34/t instead of 10 + 24/t with sequence
 *             parallelism, taken on with FlashAttention). Elementwise ops,
 *             norms, softmax and dropout are memory-bound: without this term
 *             SC21 Table 1 cannot be fitted (MODEL-FACTS §9).
 *   TP        4 all-reduces of b*s_loc*h*2 bytes per layer (6 with full
 *             recompute, whose extra forward repeats them), on the critical
 *             path (SC21 §3.2). CP adds an all-gather of K and V per layer
 *             forward and a reduce-scatter backward (Llama 3 §3.3.2).
 *   PP        2*v sends of b*s_loc*h*2/t bytes (SC21 §4.1 scatter/gather).
 *   EP        4 all-to-alls per MoE layer (6 with full recompute) of
 *             (b*s_loc/t) * top-k * h * 2 bytes.
 *   bubble    (p-1) x L_c/L_s x one micro-batch's stage time, L_c = ceil(L/(p*v))
 *             the largest chunk: (p-1)/v when the chunks are even (SC21
 *             §2.2); uneven chunks (Llama 3 405B: 126 layers on PP 16,
 *             §3.3.2) let the largest set the pace of every warm-up and
 *             cool-down slot. The interleaved schedule needs m to be a
 *             multiple of p (SC21 §2.2.2; mapping_check enforces it).
 *   DP        once per step: all-reduce of the stage's fp32 gradients
 *             (ZeRO 1-2: reduce-scatter + all-gather of BF16 weights) over
 *             the DP group, expert gradients over the expert-data-parallel
 *             group; dp_overlap x the last micro-batch's backward hides it.
 *             ZeRO-3 gathers each weight tensor for forward, recompute and
 *             backward and reduce-scatters its gradient every micro-batch,
 *             one collective per tensor, none of it hidden.
 *   optimizer Adam reads and writes ~30 bytes per local parameter at HBM
 *             bandwidth.
 *   step = m x (compute + TP + PP + EP) + bubble + exposed DP + optimizer.
 *
 * Memory per GPU (Megatron mixed precision): BF16 weights 2 bytes, fp32
 * gradients 4, Adam 12 (fp32 master, m, v) per local parameter, sharded over
 * DP by ZeRO stage (1: optimizer, 2: + gradients, 3: + weights); activations
 * of the first stage: min(m, p) micro-batches in flight x floor(L/p) layers
 * (x (1 + (p-1)/(p*v)) interleaved; short stages sit at the ends), per
 * layer as above with no recompute, without the score term with selective
 * recompute, 2*s*b*h with full recompute; the last stage adds its fp32
 * logits.
 *
 * Pure: no I/O, no allocation with the default placement.
 */
#include "model/step.h"

#include "base/msg.h"
#include "model/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The one global calibration. compute_efficiency (matmul share of peak) and
 * nonmatmul_bytes_per_act were chosen together on Megatron SC21 Table 1 (ten
 * rows, 1.7B-1T on DGX A100, full recompute, every other figure from the
 * presets): a grid over 0.40-0.95 x 0-30 minimising the worst row's error
 * gives 0.71 and 8, worst row 2.5% (test_fidelity.c lists all ten). With no
 * memory-bound term the best single efficiency (0.53) misses a row by 20%:
 * the small TP = 1 models spend a larger share of their time in softmax,
 * dropout and layer norms over the s*s score matrix, which no matmul
 * efficiency captures. Both values are physical: large BF16 GEMMs run at
 * 70-80% of an A100's peak (Calculon's table gives 0.9 for the largest ops,
 * 0.6 for ~1 GFLOP ones), and unfused elementwise kernels read and write each
 * activation byte a few times forward and again backward. The link
 * efficiencies are NCCL's measured busbw shares (collective.c). DP overlap:
 * the whole backward of the last micro-batch can hide the gradient reduction
 * (Megatron --overlap-grad-reduce, torch DDP buckets). */
StepParams step_params_default(void)
{
    CollParams cp = collective_params_default();
    StepParams p = {
        .compute_efficiency = 0.71,
        .nonmatmul_bytes_per_act = 8.0,
        .up_efficiency = cp.up_efficiency,
        .out_efficiency = cp.out_efficiency,
        .dp_overlap = 1.0,
        .coll_fixed_s = cp.fixed_s,
        .zero3_per_tensor = false, /* FSDP: one flat parameter per layer */
    };
    return p;
}

const char *step_part_name(StepPart part)
{
    static const char *names[STEP_PART_COUNT] = {"compute", "TP", "PP", "bubble", "DP", "EP"};
    return (part >= 0 && part < STEP_PART_COUNT) ? names[part] : "?";
}

#define ERR(code, ...)                                                                            \
    do {                                                                                          \
        if (err && err_len)                                                                       \
            snprintf(err, err_len, __VA_ARGS__);                                                  \
        return code;                                                                              \
    } while (0)

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

static void bottleneck_words(StepResult *r, const Mapping *m)
{
    int best = -1;
    for (int i = STEP_TP; i < STEP_PART_COUNT; i++)
        if (best < 0 || r->part_s[i] > r->part_s[best])
            best = i;
    double share = r->step_s > 0 ? r->part_s[best] / r->step_s : 0;
    if (share < 0.15) {
        r->bottleneck_part = STEP_COMPUTE;
        r->bottleneck_tier = TIER_UP;
        snprintf(r->bottleneck, sizeof r->bottleneck,
                 "compute-bound: matmuls and memory-bound layers take %.0f%% of the step",
                 100.0 * r->part_s[STEP_COMPUTE] / r->step_s);
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
    const char *where = tier == TIER_UP    ? "stay on the scale-up links"
                        : tier == TIER_OUT ? "cross the scale-out network"
                                           : "cross the scale-across link between sites";
    const char *where1 = tier == TIER_UP    ? "stays on the scale-up links"
                         : tier == TIER_OUT ? "crosses the scale-out network"
                                            : "crosses the scale-across link between sites";
    int pct = (int)lround(100.0 * share);
    switch ((StepPart)best) {
    case STEP_TP:
        snprintf(r->bottleneck, sizeof r->bottleneck,
                 "tensor-parallel all-reduces %s: %d%% of the step", where, pct);
        break;
    case STEP_PP:
        snprintf(r->bottleneck, sizeof r->bottleneck,
                 "pipeline sends between stages %s: %d%% of the step", where, pct);
        break;
    case STEP_BUBBLE:
        r->bottleneck_tier = TIER_UP;
        snprintf(r->bottleneck, sizeof r->bottleneck,
                 "pipeline bubble, (p-1)/(v*m) = %d/%d: %d%% of the step", m->pp - 1,
                 m->interleave * r->micro_batches, pct);
        break;
    case STEP_DP:
        snprintf(r->bottleneck, sizeof r->bottleneck,
                 "data-parallel gradient reduction %s, not hidden by backward: %d%% of the step",
                 where1, pct);
        break;
    case STEP_EP:
        snprintf(r->bottleneck, sizeof r->bottleneck, "expert all-to-alls %s: %d%% of the step",
                 where, pct);
        break;
    default:
        break;
    }
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

/* step_eval and step_eval_spans: spans NULL computes them from the placement. */
static StepStatus step_eval_impl(const Cluster *c, const Workload *w, const Mapping *m,
                                 const Placement *p, const GroupSpan *spans,
                                 const GroupSpan *edp_given, const StepParams *params,
                                 StepResult *out, char *err, size_t err_len)
{
    if (!out)
        ERR(STEP_ERR_MAPPING, "no result to fill");
    if (!c)
        ERR(STEP_ERR_CLUSTER, "no cluster");
    if (!cluster_check(c, err, err_len))
        return STEP_ERR_CLUSTER;
    if (!w)
        ERR(STEP_ERR_WORKLOAD, "no workload");
    if (!workload_check(w, err, err_len))
        return STEP_ERR_WORKLOAD;
    if (!step_check_precision(c, w, err, err_len))
        return STEP_ERR_WORKLOAD;
    if (!m)
        ERR(STEP_ERR_MAPPING, "no mapping");
    if (!mapping_check(m, c, w, err, err_len))
        return STEP_ERR_MAPPING;
    if (p && placement_size(p) != c->n_gpus)
        ERR(STEP_ERR_PLACEMENT, "placement has %d ranks but the cluster %d GPUs",
            placement_size(p), c->n_gpus);

    StepParams P = params ? *params : step_params_default();
    CollParams cpar = {P.up_efficiency, P.out_efficiency, P.coll_fixed_s, 0};
    StepResult *r = out;
    memset(r, 0, sizeof *r);
    r->params = P;

    const double t = m->tp, cpn = m->cp, pp = m->pp, d = m->dp, e = m->ep, v = m->interleave;
    const double b = w->micro_batch, s = w->seq, h = w->hidden, L = w->layers, V = w->vocab;
    const double s_loc = s / cpn;
    const double mb = (double)w->global_batch / (d * b);
    const int Ls = (w->layers + m->pp - 1) / m->pp;
    const int Lc = (w->layers + m->pp * m->interleave - 1) / (m->pp * m->interleave);
    const double act_b = workload_act_bytes(w);
    const bool full = w->recompute == WL_RECOMPUTE_FULL;
    const bool moe = workload_is_moe(w);
    r->micro_batches = (int)mb;
    r->layers_per_stage = Ls;
    r->layers_per_chunk = Lc;

    for (int dim = 0; dim < DIM_COUNT; dim++)
        r->span[dim] = spans ? spans[dim] : span_worst(m, c, p, (MappingDim)dim);

    /* Per-layer averages over the model (dense and MoE layers mixed). */
    /* All dense layers are alike and so are all MoE layers (dense first). */
    double moe_layers = workload_moe_layer_count(w), dense_layers = L - moe_layers;
    double fwd_sum = 0, layer_params = 0, expert_params = 0;
    if (dense_layers > 0) {
        fwd_sum += dense_layers * workload_layer_fwd_flops_per_token(w, 0);
        layer_params += dense_layers * workload_layer_params(w, 0);
    }
    if (moe_layers > 0) {
        fwd_sum += moe_layers * workload_layer_fwd_flops_per_token(w, w->layers - 1);
        layer_params += moe_layers * workload_layer_params(w, w->layers - 1);
        expert_params += moe_layers * workload_layer_expert_params(w, w->layers - 1);
    }
    double derived = layer_params + workload_embedding_params(w);
    double pscale = w->params > 0 ? w->params / derived : 1.0;
    double fwd_avg = fwd_sum / L;

    /* Compute of one micro-batch on the last stage. */
    double per_token = 3.0 * fwd_avg;
    if (full)
        per_token += fwd_avg;
    else if (w->recompute == WL_RECOMPUTE_SELECTIVE)
        per_token += 4.0 * s * h;
    per_token *= Ls;
    per_token += 3.0 * workload_logit_fwd_flops_per_token(w);
    r->mb_flops = b * s_loc * per_token / t;
    r->peak_flops = w->precision == WL_FP8 ? c->gpu.fp8_flops : c->gpu.bf16_flops;
    const bool sp = w->flash_attention && m->tp > 1;
    double act_base = s_loc * b * h * (sp ? 34.0 / t : 10.0 + 24.0 / t);
    double act_scores = w->flash_attention ? 0 : 5.0 * w->heads * s_loc * s * b / t;
    double act_layer = act_base + act_scores; /* bytes a layer produces, fp16 */
    double logits = b * s_loc * V / t * 4.0;  /* fp32 logits of the last stage */
    r->mb_hbm_bytes = P.nonmatmul_bytes_per_act * (act_layer * Ls * (full ? 4.0 / 3 : 1) + logits);
    double t_mm = r->mb_flops / (r->peak_flops * P.compute_efficiency);
    double t_nm = r->mb_hbm_bytes / c->gpu.hbm_bytes_per_s;
    r->mb_compute_s = t_mm + t_nm;

    /* TP (and CP) collectives of one micro-batch. */
    double t_tp_mb = 0, t_cp_mb = 0;
    if (m->tp > 1) {
        double bytes = b * s_loc * h * act_b, n = (full ? 6.0 : 4.0) * Ls;
        CollCost one = collective_cost_with(COLL_ALL_REDUCE, bytes, r->span[DIM_TP], c, &cpar);
        t_tp_mb = n * one.time_s;
        r->comm[STEP_TP] = make_comm(n * mb, bytes, &one, r->span[DIM_TP]);
        add_traffic(r, &one, n * mb);
    }
    if (m->cp > 1) {
        double bytes = 2.0 * b * s * h * ((double)w->kv_heads / w->heads) * act_b / t;
        double n = (full ? 3.0 : 2.0) * Ls;
        CollCost one = collective_cost_with(COLL_ALL_GATHER, bytes, r->span[DIM_CP], c, &cpar);
        t_cp_mb = n * one.time_s;
        add_traffic(r, &one, n * mb);
    }

    /* Pipeline sends of one micro-batch. */
    double t_pp_mb = 0;
    if (m->pp > 1) {
        double bytes = b * s_loc * h * act_b / t, n = 2.0 * v;
        CollParams pq = cpar;
        pq.across_sharers = c->n_gpus / pp;
        GroupSpan pair = pair_span(r->span[DIM_PP]);
        CollCost one = collective_cost_with(COLL_SEND_RECV, bytes, pair, c, &pq);
        t_pp_mb = n * one.time_s;
        r->comm[STEP_PP] = make_comm(n * mb, bytes, &one, r->span[DIM_PP]);
        add_traffic(r, &one, n * mb);
    }

    /* Expert all-to-alls of one micro-batch. */
    double t_ep_mb = 0;
    if (moe && m->ep > 1) {
        double moe_per_stage = Ls * moe_layers / L;
        double bytes = b * s_loc / t * w->topk * h * act_b;
        double n = (full ? 6.0 : 4.0) * moe_per_stage;
        CollCost one = collective_cost_with(COLL_ALL_TO_ALL, bytes, r->span[DIM_EP], c, &cpar);
        t_ep_mb = n * one.time_s;
        r->comm[STEP_EP] = make_comm(n * mb, bytes, &one, r->span[DIM_EP]);
        add_traffic(r, &one, n * mb);
    }

    r->mb_stage_s = r->mb_compute_s + t_tp_mb + t_cp_mb + t_pp_mb + t_ep_mb;
    r->part_s[STEP_COMPUTE] = mb * r->mb_compute_s;
    r->part_s[STEP_TP] = mb * (t_tp_mb + t_cp_mb);
    r->cp_s = mb * t_cp_mb;
    r->part_s[STEP_PP] = mb * t_pp_mb;
    r->part_s[STEP_EP] = mb * t_ep_mb;
    r->part_s[STEP_BUBBLE] = (pp - 1) * ((double)Lc / Ls) * r->mb_stage_s;

    /* Parameters held by one GPU of the last stage. */
    double dense_layer = (layer_params - expert_params) / L * pscale;
    double expert_layer = expert_params / L * pscale;
    double emb = m->pp > 1 ? V * h : workload_embedding_params(w);
    double n_dense = (Ls * dense_layer + emb * pscale) / t;
    double n_expert = Ls * expert_layer / (t * e);
    double edp = d / e; /* expert-data-parallel group size */

    /* Data-parallel reduction. */
    GroupSpan dp_span = r->span[DIM_DP];
    GroupSpan edp_span = dp_span;
    if (moe && m->ep > 1 && edp_given) {
        edp_span = *edp_given;
    } else if (moe && m->ep > 1) {
        edp_span = span_worst_expert(m, c, p, SPAN_EXPERT_DP);
    }
    double t_dp = 0, dp_count = 0, dp_bytes = 0;
    CollCost dp_one = {0, {0, 0, 0}, {0, 0, 0}, TIER_UP};
    for (int part = 0; part < 2; part++) {
        double n_par = part == 0 ? n_dense : n_expert;
        GroupSpan span = part == 0 ? dp_span : edp_span;
        if (n_par <= 0 || span.size <= 1)
            continue;
        CollCost a, g;
        double times = m->zero == 3 ? mb : 1.0;
        if (m->zero == 0) {
            a = collective_cost_with(COLL_ALL_REDUCE, 4.0 * n_par, span, c, &cpar);
            t_dp += a.time_s;
            add_traffic(r, &a, 1);
            if (part == 0) {
                dp_one = a;
                dp_bytes = 4.0 * n_par;
                dp_count = 1;
            }
            continue;
        }
        /* ZeRO 1-2: one reduce-scatter of the gradients and one all-gather
         * of the updated weights per step. ZeRO-3: per micro-batch, each
         * layer's weights are gathered for forward, again for the recomputed
         * forward under full recompute, and for backward, and its gradients
         * reduce-scattered: one flat parameter per layer (FSDP), or with
         * zero3_per_tensor one collective per weight tensor (DeepSpeed's
         * _allgather_param of 2021: one all_gather per parameter), Ls x
         * workload_layer_tensors of them. Each pays the ring latency over
         * the whole DP group (collective.c), linear in its size. */
        double per_layer = P.zero3_per_tensor ? workload_layer_tensors(w, w->layers - 1) : 1;
        double pieces = m->zero == 3 ? Ls * per_layer : 1.0;
        a = collective_cost_with(COLL_REDUCE_SCATTER, 4.0 * n_par / pieces, span, c, &cpar);
        g = collective_cost_with(COLL_ALL_GATHER, act_b * n_par / pieces, span, c, &cpar);
        double gathers = m->zero == 3 ? (full ? 3.0 : 2.0) : 1.0;
        double n_ops = times * pieces;
        t_dp += n_ops * (a.time_s + gathers * g.time_s);
        add_traffic(r, &a, n_ops);
        add_traffic(r, &g, n_ops * gathers);
        if (part == 0) {
            dp_one = a;
            dp_bytes = 4.0 * n_par / pieces;
            dp_count = n_ops * (1 + gathers);
        }
    }
    double bwd_frac = full ? 3.0 / 4 : 2.0 / 3;
    if (m->zero == 3) {
        /* Prefetching the next tensors hides ZeRO-3 traffic behind compute
         * (FSDP), up to dp_overlap of it. With dp_overlap = 0 nothing hides:
         * a tensor is gathered just before the kernel that needs it, as
         * DeepSpeed's ZeRO-3 of 2021 did (SC21 Table 2: from 768 to 1,536
         * A100s compute per GPU halves, the step stays at 67 s). Either way
         * per-tensor rings over a large DP group are latency-bound. */
        r->dp_hidden_s = fmin(t_dp, mb * P.dp_overlap * r->mb_compute_s);
    } else {
        r->dp_hidden_s = fmin(t_dp, P.dp_overlap * bwd_frac * r->mb_compute_s);
    }
    r->part_s[STEP_DP] = t_dp - r->dp_hidden_s;
    if (dp_count > 0) {
        r->comm[STEP_DP] = make_comm(dp_count, dp_bytes, &dp_one, dp_span);
        r->comm[STEP_DP].total_s = t_dp;
    }

    /* Optimizer: Adam over the locally updated parameters. */
    double opt_dense = m->zero >= 1 ? n_dense / d : n_dense;
    double opt_expert = m->zero >= 1 ? n_expert / edp : n_expert;
    r->optimizer_s = 30.0 * (opt_dense + opt_expert) / c->gpu.hbm_bytes_per_s;

    r->step_s = r->optimizer_s;
    for (int i = 0; i < STEP_PART_COUNT; i++)
        r->step_s += r->part_s[i];

    /* Memory per GPU. */
    r->mem_weights =
        act_b * (n_dense / (m->zero >= 3 ? d : 1) + n_expert / (m->zero >= 3 ? edp : 1));
    r->mem_grads = 4.0 * (n_dense / (m->zero >= 2 ? d : 1) + n_expert / (m->zero >= 2 ? edp : 1));
    r->mem_optimizer = 12.0 * (opt_dense + opt_expert);
    double stored = full ? 2.0 * s_loc * b * h
                         : (w->recompute == WL_RECOMPUTE_SELECTIVE ? act_base : act_layer);
    /* 1F1B keeps min(m, p) micro-batches in flight on the first stage, each
     * with that stage's layers: p x L/p = L layers' worth, Korthikanti et al.
     * 2022 §4.2.3 (34*s*b*h*L/t bytes with sequence parallelism and
     * selective recompute, their Table 2). Uneven stages put the short ones
     * at the ends, where memory peaks (first: in flight; last: logits), as
     * Llama 3 does (§3.3.2: 126 layers on PP 16, one layer fewer on the first
     * and the last stage): the first holds floor(L/p), the last too when at
     * least two stages are short. */
    const int rem = w->layers % m->pp;
    const int L_first = w->layers / m->pp;
    const int L_last = (rem == 0 || m->pp - rem >= 2) ? w->layers / m->pp : Ls;
    double in_flight = fmin(mb, pp);
    double first =
        stored * L_first * in_flight * (m->interleave > 1 ? 1 + (pp - 1) / (pp * v) : 1);
    double last = stored * L_last + logits;
    if (full) {
        first += act_layer; /* the layer being recomputed */
        last += act_layer;
    }
    r->mem_activations = fmax(first, last);
    r->mem_per_gpu_bytes = r->mem_weights + r->mem_grads + r->mem_optimizer + r->mem_activations;
    r->hbm_bytes = c->gpu.hbm_bytes;
    r->fits = r->mem_per_gpu_bytes <= r->hbm_bytes;

    /* Rates. */
    double n_gpus = c->n_gpus;
    r->tokens_per_s = (double)w->global_batch * s / r->step_s;
    r->tflops_per_gpu = workload_model_flops(w) / r->step_s / n_gpus / 1e12;
    r->hw_tflops_per_gpu = workload_hw_flops(w) / r->step_s / n_gpus / 1e12;
    /* Against the peak of the precision the matmuls run in, so MFU stays
     * below compute_efficiency (an FP8 run is not "140% MFU"). */
    r->mfu = workload_model_flops(w) / (r->step_s * n_gpus * r->peak_flops);

    bottleneck_words(r, m);
    if (!r->fits) {
        char need[32], more[32], have[32];
        units_format(UNITS_BYTES, r->mem_per_gpu_bytes, true, need, sizeof need);
        units_format(UNITS_BYTES, r->mem_per_gpu_bytes - r->hbm_bytes, true, more, sizeof more);
        units_format(UNITS_BYTES, r->hbm_bytes, true, have, sizeof have);
        snprintf(r->bottleneck, sizeof r->bottleneck,
                 "does not fit: needs %s per GPU, %s more than the %s of HBM", need, more, have);
    }
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
    return step_eval_impl(c, w, m, p, NULL, NULL, params, out, err, err_len);
}

StepStatus step_eval_spans(const Cluster *c, const Workload *w, const Mapping *m,
                           const GroupSpan span[DIM_COUNT], GroupSpan edp_span,
                           const StepParams *params, StepResult *out, char *err, size_t err_len)
{
    if (!span)
        return step_eval_impl(c, w, m, NULL, NULL, NULL, params, out, err, err_len);
    return step_eval_impl(c, w, m, NULL, span, &edp_span, params, out, err, err_len);
}

char *step_explain(const Cluster *c, const Workload *w, const Mapping *m, const StepResult *r,
                   StepPart part, char *buf, size_t buf_len)
{
    if (!buf || buf_len == 0)
        return buf;
    buf[0] = '\0';
    if (!c || !w || !m || !r)
        return buf;
    char a[32], b2[32], c3[32], d4[32];
    const StepComm *sc = (part >= 0 && part < STEP_PART_COUNT) ? &r->comm[part] : NULL;
    units_format(UNITS_TIME, r->part_s[part >= 0 && part < STEP_PART_COUNT ? part : 0], true, d4,
                 sizeof d4);
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
                 "TP: %.0f all-reduces of %s over %d GPUs in %d domain%s (%s each, %s) = %s%s",
                 sc->count, a, sc->group, sc->domains, sc->domains == 1 ? "" : "s", b2,
                 tier_name(sc->tier), d4, m->cp > 1 ? " (with CP K/V exchange)" : "");
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
                 "DP: %s of %s of gradients over %d GPUs in %d domains = %s, %s hidden "
                 "behind backward, %s exposed",
                 m->zero == 0 ? "all-reduce" : "reduce-scatter + all-gather", a, sc->group,
                 sc->domains, b2, c3, d4);
        break;
    case STEP_EP:
        if (m->ep <= 1) {
            snprintf(buf, buf_len, "EP: none (EP 1)");
            break;
        }
        units_format(UNITS_BYTES, sc->bytes, true, a, sizeof a);
        units_format(UNITS_TIME, sc->each_s, true, b2, sizeof b2);
        snprintf(buf, buf_len,
                 "EP: %.0f all-to-alls of %s over %d GPUs in %d domains (%s each, %s) = %s",
                 sc->count, a, sc->group, sc->domains, b2, tier_name(sc->tier), d4);
        break;
    default:
        break;
    }
    return buf;
}
