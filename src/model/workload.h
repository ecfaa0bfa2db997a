/* SPDX-License-Identifier: MIT */
/* workload — what is being trained: a dense or mixture-of-experts
 * transformer, its batch, precision and recomputation policy, and its
 * FLOP and parameter counts.
 *
 * FLOPs follow Narayanan et al., SC21 ("Efficient Large-Scale Language Model
 * Training on GPU Clusters Using Megatron-LM"), Eq. 2-3 and appendix, with the
 * GQA / SwiGLU / MoE generalisation of Megatron-LM's
 * num_floating_point_operations. Pure: no I/O.
 */
#ifndef SCALELAB_MODEL_WORKLOAD_H
#define SCALELAB_MODEL_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { WL_BF16, WL_FP8 } WlPrecision;
typedef enum { WL_RECOMPUTE_NONE, WL_RECOMPUTE_SELECTIVE, WL_RECOMPUTE_FULL } WlRecompute;
/* A framework setting: WL_AUTO (0, what a zeroed Workload holds) takes the
 * framework's default, stated where each setting is resolved (step.c). */
typedef enum { WL_AUTO, WL_ON, WL_OFF } WlSwitch;

typedef struct {
    char id[32]; /* preset id or "custom" */
    int layers;
    int hidden;
    int heads;
    int kv_heads; /* == heads without GQA */
    int ffn;      /* feed-forward width; per expert for MoE */
    bool swiglu;  /* gated MLP: 3 matrices instead of 2 */
    int seq;      /* sequence length, tokens */
    int vocab;
    double params;        /* total parameters; 0 = derive with workload_params */
    int global_batch;     /* sequences per step */
    int micro_batch;      /* sequences per micro-batch */
    int experts;          /* 0 or 1 = dense */
    int topk;             /* experts per token */
    int shared_experts;   /* always-on experts per MoE layer */
    int moe_layers;       /* layers that are MoE (rest dense), 0 = all when experts > 1 */
    int dense_ffn;        /* FFN width of the dense layers of an MoE model, 0 = ffn */
    bool flash_attention; /* attention scores never stored in HBM (FlashAttention);
                           * false for 2021-era Megatron, whose softmax and dropout
                           * read and write the b*a*s*s score matrix */
    WlRecompute recompute;
    WlPrecision precision;
    /* How the framework runs it (Megatron-Core names; defaults in step.c):
     * sequence parallelism (Korthikanti et al. 2022) shards norms and
     * dropout over the TP group and turns each TP all-reduce into a
     * reduce-scatter and an all-gather; the overlaps hide TP collectives
     * behind GEMMs (--tp-comm-overlap), pipeline sends behind compute
     * (--overlap-p2p-communication) and the DP gradient reduction behind
     * backward (--overlap-grad-reduce). */
    WlSwitch seq_parallel;
    WlSwitch tp_overlap;
    WlSwitch pp_overlap;
    WlSwitch dp_overlap;
} Workload;

typedef struct {
    const char *id;     /* "llama3-70b" */
    const char *name;   /* "Llama 3 70B" */
    const char *source; /* where the dimensions come from */
    Workload w;
} WorkloadPreset;

int workload_preset_count(void);
const WorkloadPreset *workload_preset_at(int i);
const WorkloadPreset *workload_preset_find(const char *id); /* NULL when unknown */
/* workload_preset_at(i)->id in the shape strbuf_join takes (ctx unused). */
const char *workload_preset_id_at(int i, const void *ctx);

bool workload_is_moe(const Workload *w);

/* Total parameters (w->params when set, else derived from the shape). */
double workload_params(const Workload *w);
/* Parameters touched per token (MoE: only the top-k and shared experts). */
double workload_active_params(const Workload *w);

/* Model FLOPs of one training step over the whole global batch: forward and
 * backward, no recomputation (what MFU counts). */
double workload_model_flops(const Workload *w);
/* Hardware FLOPs: model FLOPs plus recomputed forward work (SC21 Eq. 3 when
 * recompute is full). */
double workload_hw_flops(const Workload *w);
/* The recomputed forward work alone: hardware minus model FLOPs (0 without
 * recompute). */
double workload_recompute_flops(const Workload *w);

/* Forward FLOPs per token of one layer's matmuls (layer < layers; dense and
 * MoE layers differ), of the attention scores, and of the logit layer. */
double workload_layer_fwd_flops_per_token(const Workload *w, int layer);
double workload_logit_fwd_flops_per_token(const Workload *w);
/* Parameters of one layer (all experts included) and of the embeddings. */
double workload_layer_params(const Workload *w, int layer);
double workload_embedding_params(const Workload *w);
/* The expert (routed) parameters of one layer; 0 for a dense layer. */
double workload_layer_expert_params(const Workload *w, int layer);
bool workload_layer_is_moe(const Workload *w, int layer);
/* Weight tensors of one layer (parameters a framework gathers one by one
 * under ZeRO-3): GPT with biases and LayerNorm 12 (QKV, projection, two MLP
 * matrices, their 4 biases, 2 norms x scale and bias); SwiGLU without biases
 * and with RMSNorm 9 (Q, K, V, output, 3 MLP matrices, 2 norm scales); an MoE
 * layer adds its router and counts each local expert's matrices as one
 * gathered group. */
int workload_layer_tensors(const Workload *w, int layer);
/* How many layers are MoE layers (0 for a dense model). */
int workload_moe_layer_count(const Workload *w);
/* Bytes per element of activations and weights in compute (2 for BF16;
 * FP8 training keeps master weights and most activations in BF16, so 2). */
double workload_act_bytes(const Workload *w);

/* Checks the workload on its own (positive sizes, heads divide hidden, ...).
 * Returns true when valid; else writes a one-line reason to err. */
bool workload_check(const Workload *w, char *err, size_t err_len);

#endif
