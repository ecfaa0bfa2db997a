/* SPDX-License-Identifier: MIT */
/* kernel — how long the kernels of a training step take on one accelerator:
 * GEMMs from their shape and the machine, attention as its own kernel,
 * memory-bound element-wise work at the achievable HBM rate.
 *
 * GEMM (NVIDIA, "Matrix Multiplication Background User's Guide",
 * DU-09799-001, ch. 2-3; MODEL-FACTS §11): the output M x N is cut into
 * tiles of the library's large-GEMM kernel (tm x tn); tiles run in waves of
 * one per SM, so
 *   waves = ceil(ceil(M/tm) x ceil(N/tn) x split / SMs)
 *   t     = max(waves x 2 tm tn (K/split / (peak/SMs x share)
 *                                + k0 / (peak_bf16/SMs x share_bf16)),
 *               bytes / HBM rate) + launch
 * Tile quantization (edge tiles past M or N) and wave quantization (a last
 * wave that fills few SMs costs a whole one) come from the ceilings; k0 is
 * each tile's fixed work (prologue, epilogue) in units of K at the BF16
 * rate: filling the pipeline and writing the BF16 output tile take the same
 * time whatever the inputs' precision, so an FP8 main loop, twice as fast,
 * loses twice the share of it, and a short K loses more; the roofline's memory side reads both
 * inputs and writes the output; split-K (split > 1) spreads a GEMM of few tiles and a long K over
 * idle SMs. One share per architecture and precision is the calibration
 * (kernel.c says on what); everything else is the shape and the chip.
 *
 * Attention (FlashAttention-2, Dao 2023; FlashAttention-3, Shah et al.
 * 2024): 4 b h_q s s_kv d FLOPs forward (QK^T and PV, d the head width),
 * half with a causal mask, 2.5 x that backward; at the published share of
 * the BF16 peak for the architecture at head width 128, scaled by
 * d / (d + 48) for other widths, and by n / (n + 3) for n key blocks of 128
 * per query block (short sequences lose), with its own wave quantization
 * over (batch x heads x query blocks).
 *
 * Pure: no I/O, no allocation.
 */
#ifndef SCALELAB_MODEL_KERNEL_H
#define SCALELAB_MODEL_KERNEL_H

#include "model/hw.h"
#include <stdbool.h>

/* One architecture's kernel figures (kernel.c: each with its source). */
typedef struct {
    const char *arch;     /* GpuSpec.arch */
    const char *gemm_lib; /* "cuBLAS 256x128", for step_explain */
    int tile_m, tile_n;   /* output tile of the large-GEMM kernel (per SM) */
    double tile_k0;       /* fixed work of one tile, in elements of K */
    double share_bf16;    /* a full-wave long-K BF16 GEMM's share of the BF16 peak */
    double share_fp8;     /* the same for FP8 GEMMs, of the FP8 peak (0: no FP8) */
    double attn_share;    /* attention forward's share of the BF16 peak, d = 128, long s:
                           * the best kernel the fused stack calls (cuDNN, FlashAttention-3) */
    double attn_bwd;      /* backward's share / forward's */
    double fa2_share;     /* the same for FlashAttention-2 (what PyTorch's SDPA runs) */
    double fa2_bwd;
    double fa1_share; /* the same for FlashAttention-1 and the Triton kernels of 2022-23 */
    double fa1_bwd;
    double launch_s;     /* fixed time of one kernel (launch, ramp) */
    double hbm_share;    /* achievable share of the HBM bandwidth (streaming kernels) */
    bool compiled_only;  /* programmed through a compiler only (XLA: TPU, Trainium) */
    const char *source;  /* where the shares come from, in words */
    double gmm_share;    /* a dropless MoE's grouped GEMM kernel: its share / the dense share */
    double gmm_pad_rows; /* and the rows it computes in vain per expert per chip, past the
                          * tokens routed to it (tile edges at the experts' borders) */
    double attn_block;   /* query and key block of the attention kernel: a sliding window
                          * computes the whole blocks it touches */
} KernelArch;

/* How a framework runs its kernels (step.c maps each WlFramework to one):
 *   FUSED     Megatron-Core with Transformer Engine: norms fused into the
 *             GEMMs beside them, fused rotary, SwiGLU and cross-entropy,
 *             attention by cuDNN or FlashAttention-3 where the chip has them
 *   EAGER     PyTorch eager: every element-wise op its own kernel (RMSNorm
 *             and rotary embeddings written as a chain of fp32 ops),
 *             attention by FlashAttention-2 through SDPA
 *   COMPILED  torch.compile: eager's attention, element-wise chains fused
 *   XLA       JAX/XLA: fused by the compiler, attention by cuDNN on GPUs
 *             and the chip's own kernel (splash attention) on TPUs */
typedef enum { KERNEL_FUSED, KERNEL_EAGER, KERNEL_COMPILED, KERNEL_XLA } KernelStack;

/* The architecture's entry (an unknown one takes Hopper's, said so). */
const KernelArch *kernel_arch(const GpuSpec *g);
/* True when g's architecture has an entry of its own. */
bool kernel_arch_known(const GpuSpec *g);
/* "fused", "eager", "compiled", "xla". */
const char *kernel_stack_name(KernelStack s);

typedef enum { KERNEL_BF16, KERNEL_FP8 } KernelPrec;

/* What the kernels need of one chip, derived once (kernel_ctx_init). */
typedef struct {
    KernelArch a; /* the architecture's figures (a copy: the context may be copied) */
    double sms;
    double tile_s[2];     /* time of one tile's unit of work (2 tm tn FLOPs per K element) */
    double gmm_tile_s[2]; /* the same in the grouped kernel of a dropless MoE */
    double tile_fixed_s;  /* a tile's prologue and epilogue: k0 at the BF16 rate, any precision */
    double peak[2];       /* peak FLOP/s at the sustained clock, BF16 / FP8 */
    double attn_flops;    /* attention forward FLOP/s at d = 128, long sequences */
    double hbm_bps;       /* achievable HBM bytes/s */
    double attn_bwd;      /* attention backward's share / forward's, for that kernel */
    double clock;         /* sustained clock / the clock the peak is quoted at (power cap) */
    KernelStack stack;    /* the framework's kernels */
    bool flat;            /* the idealised chip (kernel_ctx_flat) */
    double inv_tile_m, inv_tile_n, inv_sms, inv_hbm_bps; /* for kernel_gemm_s */
} KernelCtx;

/* The sustained clock under a board-power cap (0 or >= tdp: no cap), of the
 * dense clock where the GPU states one (GpuSpec.dense_clock): dynamic power
 * ~ f V^2 with V ~ f in the DVFS range, so with a static share p0 of the
 * board power, f = ((cap - p0 tdp) / (tdp - p0 tdp))^(1/3) [D, U]. */
double kernel_clock_at_power(const GpuSpec *g, double cap_w);

/* flash_version: the attention kernel (Workload.flash_version: 0 = the
 * stack's own, 1-3 = FlashAttention-1, -2, -3/cuDNN). */
void kernel_ctx_init(KernelCtx *k, const GpuSpec *g, double power_cap_w, KernelStack stack,
                     int flash_version);

/* The idealised chip the teaching model and hand-checked tests use: every
 * GEMM FLOP at `share` of the peak with no tile or wave quantization (a
 * 1 x 1 tile, one unit), `launch_s` per GEMM, HBM at its full rate;
 * attention is then left to the caller's GEMMs (kernel_attention_s is not
 * used on it). */
void kernel_ctx_flat(KernelCtx *k, const GpuSpec *g, double share, double launch_s,
                     double power_cap_w);

/* One GEMM of an [M x K] by a [K x N] matrix, inputs in `in_bytes` per
 * element, output in `out_bytes`. groups > 1: a grouped GEMM (MoE experts):
 * `groups` independent problems of that shape in one launch. */
double kernel_gemm_s(const KernelCtx *k, double M, double N, double K, int groups, KernelPrec p,
                     double in_bytes, double out_bytes);

/* The same for the grouped kernel of a dropless MoE (MegaBlocks-style:
 * each expert's tokens as they were routed, no capacity): the kernel's own
 * share (KernelArch.gmm_share). M already holds gmm_pad_rows. */
double kernel_grouped_gemm_s(const KernelCtx *k, double M, double N, double K, int groups,
                             KernelPrec p, double in_bytes, double out_bytes);

/* Attention over bh = batch x heads (local), s_q queries and s_kv keys of
 * head widths d_qk and d_v; causal halves the work; backward is the
 * backward kernel (2.5 x the forward FLOPs). FLOPs actually done go to
 * *flops when not NULL. */
double kernel_attention_s(const KernelCtx *k, double bh, double s_q, double s_kv, double d_qk,
                          double d_v, bool causal, bool backward, double *flops);

/* The keys a query of a causal sliding window w over s keys is computed
 * against: the whole key blocks it touches (kernel.c). */
double kernel_window_keys(const KernelCtx *k, double s, double w);

/* Memory-bound work moving `bytes` through HBM. */
double kernel_stream_s(const KernelCtx *k, double bytes);

#endif
