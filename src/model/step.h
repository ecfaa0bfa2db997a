/* SPDX-License-Identifier: MIT */
/* step — the training step time of a workload on a cluster under a mapping,
 * broken down so a learner can see where the time goes.
 *
 *   t_step = compute + exposed TP + exposed PP sends + bubble + exposed DP
 *            + exposed EP + optimizer
 *
 * Compute: FLOPs at an achievable fraction of peak, each GEMM at least the
 * HBM time of its operands (the roofline, at the per-GPU shapes), plus
 * memory-bound non-matmul work at HBM bandwidth. Bubble: (p-1)/(v*m) of the pipelined
 * part (SC21 §2.2). TP: 4 all-reduces of b*s*h per layer per micro-batch,
 * on the critical path (SC21 §3.2). DP: one gradient reduction per step,
 * partly hidden behind backward. EP: 4 all-to-alls per MoE layer per
 * micro-batch. Sources and arithmetic in step.c and MODEL-FACTS.
 *
 * Pure: no I/O, no allocation. Every output is in StepResult.
 */
#ifndef SCALELAB_MODEL_STEP_H
#define SCALELAB_MODEL_STEP_H

#include "model/cluster.h"
#include "model/collective.h"
#include "model/kernel.h"
#include "model/mapping.h"
#include "model/span.h"
#include "model/workload.h"
#include <stdbool.h>
#include <stddef.h>

typedef enum {
    STEP_COMPUTE,
    STEP_TP,
    STEP_PP,
    STEP_BUBBLE,
    STEP_DP,
    STEP_EP,
    STEP_PART_COUNT
} StepPart;

typedef struct {
    double compute_efficiency;      /* > 0: an idealised GPU whose every GEMM and attention
                                     * FLOP runs at this share of peak (no tiles, waves or
                                     * attention kernel: the teaching model); 0 = the
                                     * kernel model (kernel.h) */
    double nonmatmul_bytes_per_act; /* HBM traffic of elementwise ops per activation byte */
    double gemm_overhead_s;         /* fixed time of each GEMM in the idealised model */
    double up_efficiency;           /* achievable busbw / line rate, scale-up */
    double out_efficiency;          /* achievable busbw / line rate, scale-out */
    double dp_overlap;              /* fraction of backward that can hide DP reduction */
    double coll_fixed_s;            /* fixed cost of every collective (see collective.c) */
    double coll_ramp_bytes;         /* buffer at which a collective reaches half its rate */
    bool zero3_per_tensor;          /* ZeRO-3 gathers each weight tensor on its own (DeepSpeed
                                     * 2021) instead of one flat parameter per layer (FSDP) */
} StepParams;

/* How one communicating part was costed, for step_explain and the views. */
typedef struct {
    double count;   /* operations per step (per GPU, critical path) */
    double bytes;   /* buffer of one operation (nccl-tests S) */
    double each_s;  /* time of one operation */
    double total_s; /* count x each_s, before any overlap */
    int group;      /* ranks in the group */
    int domains;    /* scale-up domains the worst group spans */
    Tier tier;      /* slowest tier of one operation */
} StepComm;

/* The calibrated defaults (see step.c for how they were chosen). */
StepParams step_params_default(void);

/* The static training state per parameter, the one rule every count of it
 * uses (step.c, practice, the lesson API): Megatron-LM's mixed precision
 * keeps BF16 weights (2 bytes), FP32 gradients (4) and the FP32 master
 * copy with Adam's two moments (12): 18 bytes (MODEL-FACTS §8). The other
 * frameworks keep 16: PyTorch FSDP/AMP and JAX (MaxText) hold FP32
 * parameters (the master copy is the weight: 4), FP32 gradients (4) and
 * the moments (8), their BF16 copies made per layer as they run (FSDP's
 * gathered units, step.c's buffers); DeepSpeed's ZeRO of 2021 FP16
 * weights and gradients (2 + 2) beside the FP32 master and moments (12). */
typedef struct {
    double weights, grads, optimizer;
} StepStateBytes;
StepStateBytes step_state_bytes_per_param(void); /* Megatron's */
StepStateBytes step_state_bytes_per_param_of(WlFramework f);
/* That state for `params` parameters held by one GPU under ZeRO stage
 * `zero` sharded over `shard` ranks (ZeRO 1: optimizer, 2: + gradients,
 * 3: + weights), Megatron's rule; _of: the framework's. */
StepStateBytes step_state_bytes(double params, int zero, double shard);
StepStateBytes step_state_bytes_of(WlFramework f, double params, int zero, double shard);
/* The same with a workload's own dtypes (Workload.master_bytes, grad_bytes,
 * mu_bytes, nu_bytes; w NULL = the framework's): a framework that keeps a
 * BF16 copy of the weights (Megatron, DeepSpeed) holds 2 bytes of weights
 * and counts an FP32 master with the moments; the others hold the
 * parameters themselves as the weights. */
StepStateBytes step_state_bytes_per_param_w(WlFramework f, const Workload *w);
StepStateBytes step_state_bytes_w(WlFramework f, const Workload *w, double params, int zero,
                                  double shard);

typedef struct {
    double step_s;
    double part_s[STEP_PART_COUNT]; /* exposed time of each part */
    double optimizer_s;
    double tokens_per_s;
    double tflops_per_gpu;    /* model FLOPs (fwd+bwd, no recompute) */
    double hw_tflops_per_gpu; /* counting recomputed forward passes */
    double mfu;               /* model FLOPs / peak (FP8 peak for FP8) */
    int micro_batches;        /* m per pipeline per step */
    /* memory per GPU, bytes */
    double mem_weights, mem_grads, mem_optimizer, mem_activations;
    double mem_per_gpu_bytes;
    double hbm_bytes;
    bool fits;
    /* traffic: bytes each GPU sends per step on each tier */
    double tier_bytes[TIER_COUNT];
    double tier_busy_s[TIER_COUNT]; /* time each tier is busy per step */
    GroupSpan span[DIM_COUNT];      /* worst group span of each dimension */
    StepPart bottleneck_part;       /* largest non-compute part, or compute */
    Tier bottleneck_tier;           /* tier the bottleneck part runs on */
    char bottleneck[160];           /* in words, for the UI and `eval` */
    /* how the parts were computed (step_explain) */
    StepComm comm[STEP_PART_COUNT]; /* TP, PP, DP, EP entries are filled */
    int layers_per_stage;           /* of the slowest (last) stage */
    int layers_per_chunk;           /* largest interleaved chunk (= stage when v = 1) */
    double mb_flops;                /* hardware FLOPs per GPU per micro-batch */
    double mb_hbm_bytes;            /* memory-bound HBM traffic per GPU per micro-batch */
    double mb_compute_s;            /* compute time of one micro-batch on the last stage */
    double mb_stage_s;              /* compute + TP + PP + EP of one micro-batch */
    double mb_fill_s;               /* of a stage the pipeline fills and drains through (the
                                     * pacing stage's layers without the output layer) */
    double peak_flops;              /* peak used (BF16 or FP8) */
    double dp_hidden_s;             /* DP time hidden behind backward */
    double cp_s;                    /* context-parallel K/V exchange (inside part TP) */
    StepParams params;              /* the parameters used (compute_efficiency resolved) */
    /* the framework settings as resolved (Workload WL_AUTO -> default) */
    bool seq_parallel, tp_overlap, pp_overlap, dp_overlap;
    double tp_hidden_s;  /* TP time hidden behind GEMMs (tp_overlap) */
    double pp_hidden_s;  /* PP send time hidden behind compute (pp_overlap) */
    double ep_permute_s; /* MoE token permutation (inside part compute since the kernel model) */

    /* --- the kernel model, overlaps, memory as allocated, offload ---
     * (added with the kernel model; one micro-batch is the last stage's) */
    double mb_gemm_s, mb_attn_s, mb_stream_s; /* kernel time by kind, one micro-batch */
    double mb_recompute_s;                    /* forward work done again, one micro-batch */
    double mb_host_wait_s; /* of mb_compute_s, the GPU waiting on the host (dropless MoE) */
    double clock;          /* sustained clock / nominal (dense clock, power cap) */
    double tp_exposed_s, cp_exposed_s; /* part TP split: TP collectives, CP exchange */
    double pp_exposed_s, dp_exposed_s, ep_exposed_s; /* = part_s of PP, DP, EP */
    double ep_hidden_s;                              /* EP all-to-all hidden (ep_overlap) */
    double comm_slowdown_s; /* compute lost to the SMs overlapped communication takes */
    double fsdp_gather_s;   /* ZeRO-3 all-gathers + reduce-scatters per step, before overlap */
    bool ep_overlap;        /* resolved */
    bool ep_dedup;          /* resolved */
    WlGraphs cuda_graphs;   /* Workload.cuda_graphs */
    /* memory beyond the four static parts, bytes per GPU */
    double mem_fp8_copies; /* FP8 weight copies (Transformer Engine) */
    double mem_buffers;    /* communication buffers and workspaces */
    double mem_reserve;    /* the caching allocator's reserve and fragmentation */
    double mem_logits;     /* the last stage's logits (inside mem_activations) */
    double mem_host_bytes; /* offloaded to host memory */
    double mem_act_mb;     /* activations one micro-batch keeps in the stage */
    double offload_s;      /* host-link time per step not hidden behind compute */
    WlFramework framework; /* resolved */
    /* The memory verdict's figures are mem_per_gpu_bytes (need) and
     * hbm_bytes (have). */
} StepResult;

typedef enum {
    STEP_OK,
    STEP_ERR_CLUSTER,
    STEP_ERR_WORKLOAD,
    STEP_ERR_MAPPING,
    STEP_ERR_PLACEMENT,
} StepStatus;

/* False (with the reason in err) when the cluster's GPU cannot run the
 * workload's precision: FP8 on a GPU without FP8 tensor cores (A100). */
bool step_check_precision(const Cluster *c, const Workload *w, char *err, size_t err_len);

/* Evaluates one step. placement may be NULL (default placement) and params
 * NULL (defaults). On error returns the status and writes the reason to err;
 * *out is then unspecified. A mapping whose memory does not fit still
 * evaluates, with fits = false and the shortfall in bottleneck. */
StepStatus step_eval(const Cluster *c, const Workload *w, const Mapping *m, const Placement *p,
                     const StepParams *params, StepResult *out, char *err, size_t err_len);

/* As step_eval, but with the worst group span of each dimension given
 * (span[DIM_COUNT], and edp_span: the expert-data-parallel group of an MoE
 * model with EP > 1, the DP ranks that share an expert) instead of computed
 * from a placement. For callers that know a placement's spans in closed form
 * (sweep.c: the DP-inner order) and cannot afford an O(GPUs) placement.
 * span NULL: the default placement. */
StepStatus step_eval_spans(const Cluster *c, const Workload *w, const Mapping *m,
                           const GroupSpan span[DIM_COUNT], GroupSpan edp_span,
                           const StepParams *params, StepResult *out, char *err, size_t err_len);

/* What an evaluation derives from the cluster, the workload's shape and the
 * parameters alone, the same for every mapping, micro-batch and framework
 * setting: a search fills it once (step_prepare) instead of once per
 * candidate. The fields are step.c's; callers only hold it. c is borrowed. */
typedef struct {
    const Cluster *c;
    StepParams P;    /* params, or the defaults */
    CollParams cpar; /* P's collective knobs */
    double share;    /* matmul share of peak (compute_efficiency resolved) */
    double layer_params, expert_params, embedding_params, pscale;
    double fwd_avg;        /* forward FLOPs per token per layer (all layers' mean) */
    double model_flops;    /* workload_model_flops */
    WlFramework framework; /* resolved (step_framework) */
    KernelCtx kern;        /* the chip's kernel figures for the framework's stack (kernel.h) */
} StepPrep;

/* Checks the cluster and the workload as step_eval does and fills *prep;
 * false with the reason in err. */
bool step_prepare(StepPrep *prep, const Cluster *c, const Workload *w, const StepParams *params,
                  char *err, size_t err_len);

/* How much of a step step_eval_prepared works out. */
typedef enum {
    STEP_DETAIL_WORDS, /* everything, as step_eval */
    STEP_DETAIL_QUIET, /* everything but bottleneck (the words), for a search that
                        * ranks candidates and prints none; bottleneck_part and
                        * bottleneck_tier are set */
    STEP_DETAIL_FIT,   /* as QUIET when the memory fits; else the memory alone (mem_*,
                        * mem_per_gpu_bytes, hbm_bytes, fits and the sizes and
                        * settings they rest on; every time, rate and span zero):
                        * for a search in which what does not fit rarely counts */
} StepDetail;

/* As step_eval_spans (span given), from a prepared cluster and workload: w
 * is the prepared workload with at most its micro-batch, recompute and
 * framework switches changed, each in range (not checked again; the mapping
 * is). */
StepStatus step_eval_prepared(const StepPrep *prep, const Workload *w, const Mapping *m,
                              const GroupSpan span[DIM_COUNT], GroupSpan edp_span,
                              StepDetail detail, StepResult *out, char *err, size_t err_len);

/* The one table of the parts' names: short ("compute", "TP", "PP",
 * "bubble", "DP", "EP") for bars and keys, and in words ("TP all-reduce",
 * "pipeline bubble", ...) for sentences. */
const char *step_part_name(StepPart part);
const char *step_part_words(StepPart part);

/* The framework a workload runs under on a cluster: its own, or for
 * WL_FW_AUTO JAX on chips programmed through XLA only (TPU, Trainium) and
 * Megatron elsewhere. */
WlFramework step_framework(const Cluster *c, const Workload *w);
/* The kernels a framework launches (kernel.h). */
KernelStack step_kernel_stack(WlFramework f);

/* One line that explains how a part's time was computed, with the current
 * values substituted ("TP: 4 x 96 layers x 8 micro-batches x all-reduce of
 * 16.8 MB over 8 GPUs at 370 GB/s = 0.42 s"). */
char *step_explain(const Cluster *c, const Workload *w, const Mapping *m, const StepResult *r,
                   StepPart part, char *buf, size_t buf_len);

#endif
