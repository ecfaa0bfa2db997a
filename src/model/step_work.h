/* SPDX-License-Identifier: MIT */
/* step_work — what step.c and layer.c share while they evaluate one step:
 * the inputs, the resolved settings, the per-GPU sizes and the cost of one
 * layer of each kind. Private to those two files.
 */
#ifndef SCALELAB_MODEL_STEP_WORK_H
#define SCALELAB_MODEL_STEP_WORK_H

#include "model/kernel.h"
#include "model/step.h"

/* The parts of a layer's forward, for recompute (workload.h's WL_RC_*). */
typedef enum {
    LP_NORM, /* the two norms, residual adds, rotary (element-wise) */
    LP_QKV,  /* the query/key/value projections (MLA: its five GEMMs but O) */
    LP_CORE, /* attention itself (FlashAttention, or scores and softmax) */
    LP_OPROJ,
    LP_ACT,     /* the MLP activation (element-wise) */
    LP_MLP,     /* the MLP's first GEMMs; MoE: router, permutation, experts', shared experts' */
    LP_MLP_OUT, /* the MLP's second GEMM; MoE: the experts' and shared experts', un-permutation */
    LP_COUNT
} LayerPart;

/* One layer of one kind (dense or MoE) on one GPU, one micro-batch. */
typedef struct {
    double part_fwd_s[LP_COUNT]; /* forward time of each part */
    double fwd_s, bwd_s;         /* the whole layer, no recompute */
    /* the GEMMs the TP collectives of the layer can run under (TP comm
     * overlap): [0] forward, [1] backward; per collective slot */
    double tp_gemm_s[2][4];
    double gemm_s, attn_s, stream_s; /* fwd + bwd totals by kernel kind */
    double flops;                    /* FLOPs done, fwd + bwd */
    double recompute_s;              /* forward time of the parts recomputed */
    double q_share;                  /* the query projections' share of LP_QKV */
} LayerCost;

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
    int L_other; /* layers of the other stages' largest, when cut by cost (else 0) */
    double act_b;
    double gather_b; /* bytes per parameter the ZeRO/FSDP weight all-gather moves */
    bool full, selective, moe, sp, fp8;
    int rc_mask;           /* WL_RC_* recomputed */
    double rc_layers;      /* layers of the stage that recompute (the rest keep all) */
    double moe_layers;     /* MoE layers of the model */
    double moe_in_stage;   /* MoE layers of the last stage */
    double dense_in_stage; /* dense layers of the last stage */
    LayerCost dense, moe_cost;
    /* activations one layer keeps per micro-batch: under the recompute
     * policy (stored, of which host goes to host memory when activations
     * are offloaded) and with none (full), dense and MoE */
    double stored_dense, full_dense, stored_moe, full_moe, host_dense, host_moe;
    double host_act_mb; /* of one micro-batch's activations in the stage, the offloaded ones */
    bool xla;           /* JAX/XLA runs it (its buffers, pruned recompute) */
    bool dropout;       /* resolved (Workload.dropout) */
    bool ep_sort;       /* the routed tokens are sorted by local expert after the
                         * all-to-all and back before it (layer.c) */
    bool rerun;         /* recompute reruns whole modules (PyTorch's checkpoint, Megatron's),
                         * not only what backward needs (XLA prunes the rest) */
    double logits_s;    /* the output layer and loss, fwd + bwd */
    double moe_host_s;  /* a dropless MoE layer's host time per micro-batch, fwd + bwd
                         * (step.c: the GPU cannot run ahead of it), 0 = none */
    double head_pace_s; /* of it, what the stage that paces the pipeline runs */
    double logits;      /* bytes of the last stage's logits, per micro-batch */
    double logits_held; /* of those, held at once (one chunk of a chunked loss) */
    double n_dense, n_expert; /* parameters held by one GPU */
    double t_tp, t_pp, t_ep;  /* exposed TP (+CP), PP and EP time of one micro-batch */
    double comm_slow_s;       /* compute lost to the SMs that overlapped communication takes */
} Step;

/* Fills S->dense, S->moe_cost, S->logits_s and the stage's compute in r
 * (mb_compute_s, mb_flops, mb_hbm_bytes, peak_flops). */
void layer_compute(Step *S, StepResult *r);
/* Fills the activation bytes of S (stored_*, full_*): no kernel times. */
void layer_memory(Step *S);

#endif
