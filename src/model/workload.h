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
/* Parts of a layer recomputed in backward instead of stored (Megatron-Core
 * --recompute-modules; torchtitan's selective checkpointing), combined with
 * |. SELECTIVE is WL_RC_CORE_ATTN; FULL recomputes everything and keeps
 * only the layer's input. */
enum {
    WL_RC_CORE_ATTN = 1 << 0, /* attention scores/softmax (Korthikanti's selective) */
    WL_RC_NORM = 1 << 1,      /* the two norms' outputs (the GEMM inputs they feed) */
    WL_RC_MLP_ACT = 1 << 2,   /* the MLP activation (GeLU / SwiGLU output) */
    WL_RC_MLP = 1 << 3,       /* the whole MLP: only its input is kept */
    WL_RC_ATTN = 1 << 4,      /* the whole attention block: only its input is kept */
    WL_RC_OP = 1 << 5,        /* PyTorch's per-op selective checkpointing (torchtitan's
                               * "op" policy): every element-wise op and every other
                               * matmul redone, attention and the other matmuls kept */
    /* Finer parts, as MaxText's remat policies name the tensors a layer saves
     * (its query_proj, key_proj, value_proj, out_proj and mlpwi): the tensor
     * dropped and the GEMM that made it run again in backward */
    WL_RC_Q = 1 << 6,        /* the query projection */
    WL_RC_KV = 1 << 7,       /* the key and value projections */
    WL_RC_OPROJ = 1 << 8,    /* the attention block's output: its GEMM again for the residual */
    WL_RC_MLP_IN = 1 << 9,   /* the MLP's first GEMM outputs: that GEMM again, not the second */
    WL_RC_MLP_OUT = 1 << 10, /* a MoE layer's expert outputs where backward needs them
                              * (JAX, below): the experts' second GEMM again */
};
#define WL_RC_ALL_PARTS ((WL_RC_MLP_OUT << 1) - 1)
/* The parts a search recomputes before core attention or whole layers: the
 * norms, the MLP activation and the query and key/value projections, what
 * NVIDIA's Megatron-Bridge performance configs pick for their MoE models
 * (recompute_modules "layernorm", "moe_act", "mla_up_proj": DeepSeek-V3
 * and GPT-OSS at v0.2.1 and v0.4.2). Element-wise work and two small GEMMs
 * again, for the largest tensors a layer keeps besides its input. */
#define WL_RC_CHEAP_PARTS (WL_RC_NORM | WL_RC_MLP_ACT | WL_RC_Q | WL_RC_KV)
/* The tensors a layer keeps for backward by MaxText's names, for
 * Workload.act_host: which of those kept go to host memory when activations
 * are offloaded (the others stay on the device). */
enum {
    WL_T_INPUT = 1 << 0,   /* decoder_layer_input: the layer's input */
    WL_T_Q = 1 << 1,       /* query_proj */
    WL_T_KV = 1 << 2,      /* key_proj, value_proj */
    WL_T_CONTEXT = 1 << 3, /* context: attention's output */
    WL_T_OUT = 1 << 4,     /* out_proj: the attention block's output */
    WL_T_MLP_IN = 1 << 5,  /* mlpwi: the MLP's first GEMM outputs */
    WL_T_MLP_OUT = 1 << 6, /* mlpwo: a MoE layer's expert outputs, one per routed copy.
                            * MaxText's sparse MoE weights them in the combine
                            * (moe.py, unpermute with the routing weights), so the
                            * weights' gradient needs them; Megatron-Core weights the
                            * activation instead (its weighted SwiGLU) and keeps none */
};
#define WL_T_ALL ((WL_T_MLP_OUT << 1) - 1)
/* What lives in host memory instead of HBM (offload over the host link),
 * combined with |. */
enum {
    WL_OFFLOAD_OPTIMIZER = 1 << 0,   /* FP32 master and Adam moments; the step on the CPU */
    WL_OFFLOAD_WEIGHTS = 1 << 1,     /* parameters streamed in per layer */
    WL_OFFLOAD_ACTIVATIONS = 1 << 2, /* stored activations, back for backward */
};
/* A framework setting: WL_AUTO (0, what a zeroed Workload holds) takes the
 * framework's default, stated where each setting is resolved (step.c). */
typedef enum { WL_AUTO, WL_ON, WL_OFF } WlSwitch;
/* What CUDA graphs capture (Megatron-Core's cuda_graph_scope): nothing, the
 * attention block, or the whole iteration. */
typedef enum { WL_GRAPHS_NONE, WL_GRAPHS_ATTN, WL_GRAPHS_FULL } WlGraphs;
/* The software that runs the step, for the kernels it launches (kernel.h's
 * stacks) and how it shards: WL_FW_AUTO (0) is Megatron on GPUs and JAX on
 * TPUs and Trainium (step.c). */
typedef enum {
    WL_FW_AUTO,
    WL_FW_MEGATRON,  /* Megatron-LM/Core, NeMo, Megatron-Bridge with Transformer Engine (also
                      * Megatron-DeepSpeed, MegaScale): fused kernels */
    WL_FW_PYTORCH,   /* eager PyTorch (torchtitan, FSDP/FSDP2, Composer, nanotron): one kernel
                      * per element-wise op, FlashAttention-2 through SDPA */
    WL_FW_COMPILE,   /* PyTorch under torch.compile: element-wise work fused by the compiler */
    WL_FW_JAX,       /* JAX/XLA (MaxText, Paxml): fused by the compiler, no eager dispatch */
    WL_FW_DEEPSPEED, /* DeepSpeed with Megatron's kernels (Megatron-DeepSpeed: BLOOM, MT-NLG;
                      * SC21's ZeRO-3): its pipeline engine sends whole activations, its
                      * ZeRO-3 gathers each weight tensor on its own and waits for it */
    WL_FW_COUNT
} WlFramework;

typedef struct {
    char id[32]; /* preset id or "custom" */
    int layers;
    int hidden;
    int heads;
    int kv_heads;   /* == heads without GQA */
    int head_dim;   /* query/key width of one head; 0 = hidden / heads */
    int v_head_dim; /* value width of one head; 0 = head_dim */
    /* Sliding-window attention: a local layer's query sees only the last
     * `window` keys (0 = every layer attends to the whole sequence); with a
     * window, every global_every-th layer still attends globally (Gemma 3
     * and 4: 6, five local layers and one global; GPT-OSS: 2, alternating;
     * 0 = every layer local, as Mistral 7B v0.1). */
    int window, global_every;
    /* Multi-head latent attention (DeepSeek-V2/V3): queries and keys/values
     * through low-rank projections of these ranks (0 = plain attention);
     * keys carry a shared 64-wide rotary part. */
    int q_lora, kv_lora;
    int ffn;     /* feed-forward width; per expert for MoE */
    bool swiglu; /* gated MLP: 3 matrices instead of 2 */
    int seq;     /* sequence length, tokens */
    int vocab;
    double params;          /* total parameters; 0 = derive with workload_params */
    int global_batch;       /* sequences per step */
    int micro_batch;        /* sequences per micro-batch */
    int experts;            /* 0 or 1 = dense */
    int topk;               /* experts per token */
    int shared_experts;     /* always-on experts per MoE layer */
    int moe_layers;         /* layers that are MoE (rest dense), 0 = all when experts > 1 */
    int dense_ffn;          /* FFN width of the dense layers of an MoE model, 0 = ffn */
    double capacity_factor; /* >= 1: token dropping, each expert takes at most this
                             * times the mean and is padded to it (MaxText's
                             * capacity_factor, Megatron's moe_expert_capacity_factor
                             * with padding); 0: dropless, tokens as routed */
    bool flash_attention;   /* attention scores never stored in HBM (FlashAttention);
                             * false for 2021-era Megatron, whose softmax and dropout
                             * read and write the b*a*s*s score matrix */
    int flash_version;      /* with flash_attention: 0 = the framework's kernel (kernel.h),
                             * 1, 2, 3 = FlashAttention-1 (and the Triton kernels of its
                             * time), -2, or -3 (FA3 / cuDNN: the chip's best) */
    WlRecompute recompute;
    int recompute_mods;   /* WL_RC_* parts recomputed; 0 = what recompute says */
    int recompute_layers; /* with full recompute: layers per stage recomputed (the rest
                           * store everything); 0 = all */
    int offload;          /* WL_OFFLOAD_* */
    int act_host;         /* with WL_OFFLOAD_ACTIVATIONS: the kept WL_T_* tensors that go to
                           * host memory (0 = every kept activation) */
    int offload_layers;   /* with WL_OFFLOAD_ACTIVATIONS: layers per stage that send them
                           * (Megatron's cpu_offloading_num_layers); 0 = all */
    WlPrecision precision;
    /* The training state's bytes per parameter, 0 = the framework's (step.h,
     * step_state_bytes_per_param_of): the parameters the optimizer updates
     * (4: an FP32 master; 2: BF16 with no master copy, MaxText
     * weight_dtype=bfloat16), their gradients, Adam's two moments (MaxText
     * mu_dtype, Megatron-Core --exp-avg-dtype and --exp-avg-sq-dtype). */
    double master_bytes, grad_bytes, mu_bytes, nu_bytes;
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
    /* The MoE dispatch/combine all-to-alls run under another micro-batch's
     * compute (DeepSeek-V3's DualPipe; Megatron-Core
     * --overlap-moe-expert-parallel-comm); WL_AUTO = off. */
    WlSwitch ep_overlap;
    /* With ep_overlap: DeepSeek-V3's DualPipe, which hides a forward-backward
     * pair's exchange whole and halves the warm-up; false: Megatron-Core's
     * combined 1F1B, in its fixed order (step.c) */
    bool ep_dualpipe;
    /* The dispatch sends a token once to each remote domain that holds one
     * of its experts, which forwards it over scale-up links (DeepEP and
     * HybridEP: Megatron-Core's flex dispatcher, DeepSeek-V3 §3.2.2);
     * WL_AUTO = off, NCCL's all-to-all (Megatron-Core's default
     * moe_token_dispatcher_type alltoall; recipes pick per system). */
    WlSwitch ep_dedup;
    /* CUDA graphs replay what they capture without the host issuing it
     * (the host floor of a dropless MoE layer, step.c); WL_GRAPHS_NONE. */
    WlGraphs cuda_graphs;
    /* The loss computed in place over the logits (Megatron's
     * --cross-entropy-loss-fusion, flash-attn's CrossEntropyLoss that MPT
     * uses); WL_AUTO = the framework's (fused in Megatron and XLA, PyTorch's
     * own cross entropy otherwise). */
    WlSwitch fused_loss;
    /* Dropout after attention and the MLP (its masks kept for backward);
     * WL_AUTO = on for GPT-style layers (Megatron's hidden-dropout 0.1),
     * off for gated ones and under JAX (MaxText's dropout_rate 0). */
    WlSwitch dropout;
    /* How the layers are cut into pipeline stages: WL_AUTO (0) evenly
     * (Megatron: ceil(L/p) on the slowest, the short stages at the ends);
     * WL_ON by compute cost with the output layer counted (nanotron's
     * get_block_compute_costs: a layer its linear weights, the output layer
     * V x h), so the last stage holds fewer layers. */
    WlSwitch pp_by_cost;
    /* The output layer and loss run over this many chunks of the tokens, so
     * one chunk's logits are ever held (MaxText num_vocab_tiling, chunked
     * cross-entropy kernels); 0 or 1 = all at once. */
    int loss_chunks;
    WlFramework framework;
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
/* Whether layer (0-based) attends in a window shorter than the sequence
 * (the pattern's last layer of each global_every is the global one); how
 * many layers attend in a window shorter than s tokens (the training
 * sequence, or a served context); and the keys a query of a causal layer attends to on
 * average over a sequence of s: s/2, or w - w^2/(2s) in a window w < s. */
bool workload_layer_is_local(const Workload *w, int layer);
int workload_local_layer_count(const Workload *w, double s);
double workload_causal_keys(const Workload *w, double s, bool local);
/* Weight tensors of one layer (parameters a framework gathers one by one
 * under ZeRO-3): GPT with biases and LayerNorm 12 (QKV, projection, two MLP
 * matrices, their 4 biases, 2 norms x scale and bias); SwiGLU without biases
 * and with RMSNorm 9 (Q, K, V, output, 3 MLP matrices, 2 norm scales); an MoE
 * layer adds its router and counts each local expert's matrices as one
 * gathered group. */
int workload_layer_tensors(const Workload *w, int layer);
/* How many layers are MoE layers (0 for a dense model). */
int workload_moe_layer_count(const Workload *w);
/* Attention widths: the query (and key) width of all heads, heads x
 * head_dim, and the value width, heads x v_head_dim. */
double workload_q_dim(const Workload *w);
double workload_v_dim(const Workload *w);
/* Values one token keeps in a layer's KV cache on one of tp ranks: the keys
 * and values of the KV heads it holds (a head is not split, so past tp =
 * kv_heads each rank keeps one), or multi-head latent attention's latent
 * and rotary key, which every rank keeps whole (DeepSeek-V2 §2.1). */
double workload_kv_values_per_token(const Workload *w, int tp);
/* The WL_RC_* parts the policy recomputes (recompute_mods, else SELECTIVE
 * = core attention, FULL = every part). */
int workload_recompute_mask(const Workload *w);

/* The words eval's flags and lesson files name a setting's values by, one
 * list per setting, a value's word at its index: WlRecompute ("none",
 * "selective", "full"), WlPrecision ("bf16", "fp8"), WlGraphs ("none",
 * "attn", "full") and the parts of an offload list ("optimizer", "weights",
 * "activations": part i is the bit 1 << i of WL_OFFLOAD_*) and WlFramework
 * ("auto", "megatron", "pytorch", "pytorch-compile", "jax", "deepspeed"). */
typedef enum {
    WL_WORDS_RECOMPUTE,
    WL_WORDS_PRECISION,
    WL_WORDS_GRAPHS,
    WL_WORDS_OFFLOAD,
    WL_WORDS_FRAMEWORK
} WlWords;
/* value's word ("?" out of range) */
const char *workload_word(WlWords set, int value);
/* the value whose word is word, or -1 */
int workload_word_parse(WlWords set, const char *word);
/* the words as a sentence for an error, each between quote (0 for none):
 * "\"none\", \"attn\" or \"full\"" */
void workload_word_list(WlWords set, char quote, char *buf, size_t len);

/* Bytes per element of activations and weights in compute (2 for BF16;
 * FP8 training keeps master weights and most activations in BF16, so 2). */
double workload_act_bytes(const Workload *w);

/* Checks the workload on its own (positive sizes, heads divide hidden, ...).
 * Returns true when valid; else writes a one-line reason to err. */
bool workload_check(const Workload *w, char *err, size_t err_len);

#endif
