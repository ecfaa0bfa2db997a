/* SPDX-License-Identifier: MIT */
/* serve — one decode step of serving a model: every sequence of a batch
 * gets its next token, and each user waits that long per token.
 *
 * Per step, on every replica (the TP x PP GPUs that hold one copy of the
 * model; DP is the number of replicas):
 *
 *   t_token = weights read + KV-cache read + compute past the weights
 *             + TP all-reduces + network
 *
 * Weights read: each GPU reads its share of the weights from HBM once per
 * step, (parameters read x bytes) / (TP x PP) at the HBM rate, and the PP
 * stages run one after another for a token, so a token waits for all of
 * them: weights / (TP x HBM rate). An MoE layer reads only the experts its
 * batch picked: at most top-k x batch of them (jax-ml/scaling-book
 * inference.md: "Theoretical Min Step Time = (batch x KV cache size +
 * parameter size) / total memory bandwidth", and its MoE remarks).
 * KV-cache read: every sequence attends to its whole context each step,
 * batch x context x 2 (K and V) x head dim x KV heads x layers x bytes,
 * the KV heads split over TP (at least one per GPU: a TP degree beyond the
 * KV heads replicates them) and the layers over PP (scaling book,
 * "KV cache size = 2 x bytes x H x K x L x T"); head widths as the
 * workload sets them, multi-head latent attention's latent and rotary key
 * (kv_lora + 64 per token and layer, whole on every TP rank), and a
 * sliding window's layers reading only their last `window` tokens.
 * Compute past the weights: the matmuls take 2 x active parameters x batch
 * FLOPs; when that takes longer than reading the weights (a large batch),
 * the difference (the scaling book's max(compute, weights read) for the
 * MLP).
 * TP all-reduces: Megatron's 2 per layer (after attention and after the
 * MLP) of batch x hidden x 2 bytes: at this size mostly their latency.
 * Inside an NVSwitch domain serving engines take two steps whatever the
 * GPU count (TensorRT-LLM MultiShot, see serve.c), so wide TP stays cheap
 * there; that is the "TP all-reduce" part. What crossing a domain adds,
 * as collective.c costs the hierarchical all-reduce on the TP group's
 * span, is the "network" part, with the sends between pipeline stages
 * (batch x hidden x 2 bytes per stage boundary, collective.c send-recv on
 * the PP group's span).
 *
 * These are floors: the reads at the datasheet HBM rate, no kernel launch
 * or scheduling time. Engines land above them (TensorRT-LLM's published
 * H100 FP8 table: Llama 2 70B, TP 4, batch 64, 128 in and 2048 out,
 * 2,616 tokens/s over 4 GPUs, about 24.5 ms a step where this floor gives
 * 8.4 ms: NVIDIA/TensorRT-LLM (`docs/source/performance.md`, v0.6.1); test_serve keeps the model
 * below that and within 4x of it.
 *
 * Memory per GPU: its weights plus its KV cache (batch x context).
 *
 * Pure: no I/O, no allocation.
 */
#ifndef SCALELAB_MODEL_SERVE_H
#define SCALELAB_MODEL_SERVE_H

#include "model/cluster.h"
#include "model/mapping.h"
#include "model/placement.h"
#include "model/workload.h"
#include <stdbool.h>
#include <stddef.h>

typedef enum {
    SERVE_WEIGHTS, /* weights read from HBM */
    SERVE_KV,      /* KV cache read from HBM */
    SERVE_COMPUTE, /* matmul time past the weights read (large batches) */
    SERVE_TP,      /* TP all-reduces, as inside one domain */
    SERVE_NETWORK, /* what crossing domains adds: TP over the NIC, PP hops */
    SERVE_PART_COUNT
} ServePart;

typedef struct {
    int batch;   /* sequences decoded together on each replica, >= 1 */
    int context; /* tokens of KV cache per sequence, >= 1 */
} ServeLoad;

typedef struct {
    double token_s;                  /* one decode step: each user's time per token */
    double part_s[SERVE_PART_COUNT]; /* its parts; they add up to token_s */
    double tokens_per_s;             /* all replicas: replicas x batch / token_s */
    double user_tokens_per_s;        /* one user: 1 / token_s */
    int replicas;                    /* DP */
    double weight_bytes;             /* per GPU */
    double kv_bytes;                 /* per GPU */
    double mem_per_gpu_bytes;        /* weights + KV */
    double hbm_bytes;
    bool fits;
    double read_bytes;    /* weights and KV read per GPU per step */
    double flops;         /* matmul FLOPs per GPU per step */
    int tp_domains;       /* domains the worst TP group spans */
    ServePart bottleneck; /* the largest part */
} ServeResult;

/* The decode step of workload w (its shape and precision: FP8 stores one
 * byte per weight and per KV value, BF16 two) on cluster c under mapping m
 * (TP, PP; DP = replicas) and placement p (NULL: the default), for load.
 * False with a reason when an input is not legal. */
bool serve_eval(const Cluster *c, const Workload *w, const Mapping *m, const Placement *p,
                ServeLoad load, ServeResult *out, char *err, size_t err_len);

/* "weights", "KV cache", "compute", "TP all-reduce", "network". */
const char *serve_part_name(ServePart part);
/* The part's key in JSON and Lua tables: "weights_s", "kv_s", "compute_s",
 * "tp_s", "network_s". */
const char *serve_part_key(ServePart part);
/* One line that explains a part with its figures substituted. */
char *serve_explain(const Cluster *c, const Workload *w, const Mapping *m, ServeLoad load,
                    const ServeResult *r, ServePart part, bool ascii, char *buf, size_t n);
/* The bottleneck in words ("reading the weights: 71% of each token"). */
char *serve_bottleneck(const ServeResult *r, char *buf, size_t n);

#endif
