/* SPDX-License-Identifier: MIT */
/* test_fidelity — the bandwidth model against published measurements.
 *
 * Two sets of published runs (the case table below, each with its source):
 * the TUNED set chose the calibration constants of step.c and collective.c
 * (SC21 Table 1 for A100; one Llama 3 405B run for Hopper BF16; one NeMo
 * GPT-3 run for Hopper FP8; two Megatron-Bridge GB200 runs for Blackwell;
 * two nccl-tests figures for collectives), the HELD-OUT set never chose
 * anything and is only checked: at least 75% of it within 15% and a mean
 * error of at most 12%, and every run of either set fits in memory, since
 * it trained. SCALELAB_FIDELITY=1 prints every case, its error and where
 * its time goes.
 *
 * The behaviour tests after the table check published orderings rather
 * than figures:
 *   SC21 §5.4.1 Fig. 13 (GPT 162B on 64 A100: TP 8 best, TP 16 and 32
 *   worse), §5.4.3 Fig. 15 (GPT 5.9B on 64 A100: TP 16 across two nodes
 *   roughly halves TP 8's throughput), the bubble law (SC21 §2.2), NCCL's
 *   small- and large-message figures, SC21 Table 2's ZeRO-3 collapse, and
 *   the seed articles' rules (TP across racks, MoE in racks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

// clang-format off
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "model/step.h"

static bool verbose(void)
{
    const char *v = getenv("SCALELAB_FIDELITY");
    return v && *v == '1';
}

/* SC21's GPT as Megatron ran it in 2021: full recompute, BF16, no
 * FlashAttention, no sequence parallelism. */
static Workload megatron_gpt(int layers, int hidden, int heads, int batch, int mb)
{
    Workload w = tl_gpt(layers, hidden, heads, batch, mb);
    w.recompute = WL_RECOMPUTE_FULL;
    w.precision = WL_BF16;
    w.flash_attention = false;
    w.seq_parallel = WL_OFF;
    return w;
}

static double sc21_hw_tflops(int layers, int hidden, int heads, int tp, int pp, int gpus,
                             int batch, int mb, int v)
{
    Cluster c = tl_preset("dgx-a100", gpus);
    Workload w = megatron_gpt(layers, hidden, heads, batch, mb);
    Mapping m = {.tp = tp, .cp = 1, .pp = pp, .dp = gpus / (tp * pp), .ep = 1, .interleave = v};
    return tl_eval_ok(&c, &w, &m, NULL, NULL).hw_tflops_per_gpu;
}

/* --- published runs: the tuned set and the held-out set ------------------
 *
 * Each case: the run as published (system, GPUs, model shape, batch,
 * parallelism, framework settings) and one published figure. TUNED cases
 * chose the calibration constants of step.c and collective.c; HELD cases
 * were never used to choose anything and are only checked. Figures:
 *   HW   hardware TFLOP/s per GPU (counting recomputed forward passes, SC21 Eq. 3)
 *   MFL  model TFLOP/s per GPU (no recomputation)
 *   TOK  tokens per second per GPU (independent of how FLOPs are counted)
 *   SEC  seconds per iteration
 * Settings as the source's framework ran them: Megatron 2021 (SC21, MT-NLG,
 * BLOOM) without sequence parallelism or FlashAttention, full recompute;
 * NeMo and Megatron-Bridge recipes with sequence parallelism, FlashAttention,
 * the distributed optimizer (ZeRO 1), TP comm overlap, no recompute; FSDP in
 * their tables is ZeRO 3 here. */
typedef enum { HW, MFL, TOK, SEC } Metric;
/* MEG21: Megatron of 2021, no FlashAttention, no sequence parallelism, no
 * overlaps but DP's. LLAMA: Meta's stack (FlashAttention, sequence
 * parallelism). NEMO: NeMo / Megatron-Bridge recipes (FlashAttention,
 * sequence parallelism, TP comm overlap). */
typedef enum { MEG21, LLAMA, NEMO } Framework;
typedef enum { HELD, TUNED } CaseSet;

typedef struct {
    int layers, hidden, heads, kv, ffn;
    bool swiglu;
    int seq, vocab;
    int experts, topk, shared, moe_layers, dense_ffn;
    double params;
} Shape;

/* Shapes from each model's paper or config (named beside each). */
#define GPT(l, h, a, v)                                                                           \
    {                                                                                             \
        l, h, a, a, 4 * (h), false, 2048, v, 0, 0, 0, 0, 0, 0                                     \
    }
/* SC21 Table 1 (layers, hidden, heads; vocab 51200) */
static const Shape T1_1_7B = GPT(24, 2304, 24, 51200);
static const Shape T1_3_6B = GPT(30, 3072, 32, 51200);
static const Shape T1_7_5B = GPT(36, 4096, 32, 51200);
static const Shape T1_18_4B = GPT(40, 6144, 48, 51200);
static const Shape T1_39_1B = GPT(48, 8192, 64, 51200);
static const Shape T1_76_1B = GPT(60, 10240, 80, 51200);
static const Shape T1_145_6B = GPT(80, 12288, 96, 51200);
static const Shape T1_310_1B = GPT(96, 16384, 128, 51200);
static const Shape T1_529_6B = GPT(105, 20480, 128, 51200);
static const Shape T1_1008B = GPT(128, 25600, 160, 51200);
static const Shape GPT3_175B = GPT(96, 12288, 96, 51200);    /* Brown et al. 2020; SC21 */
static const Shape GPT_530B = GPT(105, 20480, 128, 51200);   /* SC21 Table 1; MT-NLG §3 */
static const Shape BLOOM_176B = GPT(70, 14336, 112, 250880); /* BLOOM paper Table 3 */
static const Shape NEMO_GPT3_5B = GPT(24, 4096, 32, 50304);  /* NeMo gpt3 5b config */
static const Shape NEMO_GPT3_20B = GPT(44, 6144, 48, 50304); /* NeMo gpt3 20b config */
static const Shape LLAMA2_7B = {32, 4096, 32, 32, 11008, true, 4096, 32000, 0, 0, 0, 0, 0, 0};
static const Shape LLAMA2_13B = {40, 5120, 40, 40, 13824, true, 4096, 32000, 0, 0, 0, 0, 0, 0};
static const Shape LLAMA2_70B = {80, 8192, 64, 8, 28672, true, 4096, 32000, 0, 0, 0, 0, 0, 0};
static const Shape LLAMA3_8B = {32, 4096, 32, 8, 14336, true, 8192, 128256, 0, 0, 0, 0, 0, 0};
static const Shape LLAMA3_70B = {80, 8192, 64, 8, 28672, true, 8192, 128256, 0, 0, 0, 0, 0, 0};
static const Shape LLAMA3_405B = {126,    16384, 128, 8, 53248, true, 8192,
                                  128256, 0,     0,   0, 0,     0,    0}; /* Llama 3 Table 3 */
/* Nemotron-4 340B: 96 layers, 18432, 96 / 8 heads, squared-ReLU MLP 73728,
 * vocab 256000 (Nemotron-4 340B technical report Table 1). */
static const Shape NEMOTRON_340B = {96,     18432, 96, 8, 73728, false, 4096,
                                    256000, 0,     0,  0, 0,     0,     0};
/* DeepSeek-V3 as the preset (MLA as plain attention of the same width). */
static const Shape DEEPSEEK_V3 = {61,     7168, 128, 128, 2048, true,  4096,
                                  129280, 256,  8,   1,   58,   18432, 671e9};
/* Qwen3-235B-A22B: 94 layers, 4096, 64 / 4 heads, 128 experts of 1536, top-8,
 * no shared expert, vocab 151936 (Qwen3 technical report Table 2). */
static const Shape QWEN3_235B = {94,     4096, 64, 4, 1536, true, 4096,
                                 151936, 128,  8,  0, 94,   0,    235e9};

typedef struct {
    const char *name;
    const char *source;
    CaseSet set;
    const char *system;
    int gpus;
    double out_bytes_per_s; /* 0 = the preset's NIC */
    int domain;             /* 0 = the preset's domain */
    const Shape *shape;
    int gbs, mbs;
    WlRecompute rc;
    WlPrecision prec;
    Framework fw;
    int seq; /* 0 = the shape's */
    int tp, cp, pp, dp, ep, v, zero;
    Metric metric;
    double published;
    /* A benchmark row that does not fit under the table's settings as read
     * here (no recompute, no offload): the table does not give the recipe's
     * memory settings, so its fit is reported, not asserted. */
    bool memory_unpublished;
} Case;

#define SC21     "Narayanan et al. SC21"
#define NEMO2407 "NVIDIA/NeMo docs performance_summary.md (NeMo 24.07, DGX-H100, FP8)"
#define MB2511   "NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md (25.11)"

/* One macro per source: what all of its runs share is written once, in the
 * macro; a row gives the rest, in the order of the macro's parameters. */
/* SC21: Megatron 2021 on DGX A100, full recompute, BF16, no CP, EP or ZeRO;
 * hardware TFLOP/s per GPU. */
#define SC21_RUN(set, table, name, gpus, shape, gbs, mbs, tp, pp, dp, v, tflops)                  \
    {                                                                                             \
        name, SC21 " " table, set, "dgx-a100", gpus, 0, 0, &shape, gbs, mbs, WL_RECOMPUTE_FULL,   \
            WL_BF16, MEG21, 0, tp, 1, pp, dp, 1, v, 0, HW, tflops, false                          \
    }
/* MT-NLG 530B: Megatron 2021 on DGX A100, TP 8, PP 35, ZeRO 1, batch 1920;
 * seconds per iteration. */
#define MTNLG_RUN(name, gpus, dp, seconds)                                                        \
    {                                                                                             \
        name, "Smith et al. 2022 (MT-NLG)", HELD, "dgx-a100", gpus, 0, 0, &GPT_530B, 1920, 1,     \
            WL_RECOMPUTE_FULL, WL_BF16, MEG21, 0, 8, 1, 35, dp, 1, 1, 1, SEC, seconds, false      \
    }
/* Llama 3 405B: Meta's stack on DGX H100, BF16, no recompute, TP 8, PP 16,
 * v 4, ZeRO 2; model TFLOP/s per GPU. */
#define LLAMA3_RUN(set, name, gpus, gbs, seq, cp, dp, tflops)                                     \
    {                                                                                             \
        name, "Llama 3 paper Table 4", set, "dgx-h100", gpus, 0, 0, &LLAMA3_405B, gbs, 1,         \
            WL_RECOMPUTE_NONE, WL_BF16, LLAMA, seq, 8, cp, 16, dp, 1, 4, 2, MFL, tflops, false    \
    }
/* NeMo 24.07: DGX H100, FP8, no recompute, no EP, ZeRO 1; tokens/s per GPU. */
#define NEMO24_RUN(set, name, gpus, shape, gbs, mbs, tp, cp, pp, dp, v, tokens, unfit)            \
    {                                                                                             \
        name, NEMO2407, set, "dgx-h100", gpus, 0, 0, &shape, gbs, mbs, WL_RECOMPUTE_NONE, WL_FP8, \
            NEMO, 0, tp, cp, pp, dp, 1, v, 1, TOK, tokens, unfit                                  \
    }
/* Megatron-Bridge 25.11, dense models: FP8, no recompute, no EP; tokens/s
 * per GPU. */
#define MB_DENSE_RUN(set, name, system, gpus, shape, gbs, mbs, tp, cp, pp, dp, v, zero, tokens,   \
                     unfit)                                                                       \
    {                                                                                             \
        name, MB2511, set, system, gpus, 0, 0, &shape, gbs, mbs, WL_RECOMPUTE_NONE, WL_FP8, NEMO, \
            0, tp, cp, pp, dp, 1, v, zero, TOK, tokens, unfit                                     \
    }
/* Megatron-Bridge 25.11, MoE models: 256 GPUs in domains of 64, BF16, no
 * recompute, TP 1, CP 1, ZeRO 1; tokens/s per GPU. */
#define MB_MOE_RUN(set, name, system, shape, gbs, mbs, pp, dp, ep, v, tokens)                     \
    {                                                                                             \
        name, MB2511, set, system, 256, 0, 64, &shape, gbs, mbs, WL_RECOMPUTE_NONE, WL_BF16,      \
            NEMO, 0, 1, 1, pp, dp, ep, v, 1, TOK, tokens, false                                   \
    }

static const Case cases[] = {
    /* SC21 Table 1 (tuned): micro-batch and interleave from NVIDIA/Megatron-LM
     * examples/sc21/run_table_1.sh. */
    SC21_RUN(TUNED, "Table 1", "T1 1.7B", 32, T1_1_7B, 512, 16, 1, 1, 32, 1, 137),
    SC21_RUN(TUNED, "Table 1", "T1 3.6B", 64, T1_3_6B, 512, 16, 2, 1, 32, 1, 138),
    SC21_RUN(TUNED, "Table 1", "T1 7.5B", 128, T1_7_5B, 512, 16, 4, 1, 32, 1, 142),
    SC21_RUN(TUNED, "Table 1", "T1 18.4B", 256, T1_18_4B, 1024, 8, 8, 1, 32, 1, 135),
    SC21_RUN(TUNED, "Table 1", "T1 39.1B", 512, T1_39_1B, 1536, 4, 8, 2, 32, 1, 138),
    SC21_RUN(TUNED, "Table 1", "T1 76.1B", 1024, T1_76_1B, 1792, 2, 8, 4, 32, 3, 140),
    SC21_RUN(TUNED, "Table 1", "T1 145.6B", 1536, T1_145_6B, 2304, 2, 8, 8, 24, 2, 148),
    SC21_RUN(TUNED, "Table 1", "T1 310.1B", 1920, T1_310_1B, 2160, 1, 8, 16, 15, 2, 155),
    SC21_RUN(TUNED, "Table 1", "T1 529.6B", 2520, T1_529_6B, 2520, 1, 8, 35, 9, 3, 163),
    SC21_RUN(TUNED, "Table 1", "T1 1008B", 3072, T1_1008B, 3072, 1, 8, 64, 6, 1, 163),
    /* SC21 Table 2, PTD-P rows (held out): GPT-3 175B at model-parallel size
     * 96 (TP 8 x PP 12), 530B at 280 (TP 8 x PP 35), micro-batch 1; the
     * paper does not give v: 2 and 3 as Table 1's nearest rows. */
    SC21_RUN(HELD, "Table 2", "T2 175B 384", 384, GPT3_175B, 1536, 1, 8, 12, 4, 2, 153),
    SC21_RUN(HELD, "Table 2", "T2 175B 768", 768, GPT3_175B, 1536, 1, 8, 12, 8, 2, 149),
    SC21_RUN(HELD, "Table 2", "T2 175B 1536", 1536, GPT3_175B, 1536, 1, 8, 12, 16, 2, 141),
    SC21_RUN(HELD, "Table 2", "T2 530B 560", 560, GPT_530B, 2240, 1, 8, 35, 2, 3, 171),
    SC21_RUN(HELD, "Table 2", "T2 530B 1120", 1120, GPT_530B, 2240, 1, 8, 35, 4, 3, 167),
    SC21_RUN(HELD, "Table 2", "T2 530B 2240", 2240, GPT_530B, 2240, 1, 8, 35, 8, 3, 159),
    /* MT-NLG 530B (Smith et al. 2022, §3 and its throughput table): Selene,
     * TP 8, PP 35, batch 1920, 1F1B, seconds per iteration. */
    MTNLG_RUN("MT-NLG 280 nodes", 2240, 8, 60.1),
    MTNLG_RUN("MT-NLG 350 nodes", 2800, 10, 50.2),
    MTNLG_RUN("MT-NLG 420 nodes", 3360, 12, 44.4),
    /* BLOOM 176B (BigScience 2022 §3.4): 384 A100 80 GB on Jean Zay, 4 x 100
     * Gb/s Omni-Path per 8-GPU node (6.25 GB/s per GPU), TP 4, PP 12, DP 8,
     * ZeRO 1, batch 2048 x 2048 tokens, micro-batch 2: 156 TFLOP/s. */
    {"BLOOM 176B",
     "BigScience, BLOOM paper §3.4",
     HELD,
     "dgx-a100",
     384,
     400e9 / 8 / 8,
     0,
     &BLOOM_176B,
     2048,
     2,
     WL_RECOMPUTE_FULL,
     WL_BF16,
     MEG21,
     0,
     4,
     1,
     12,
     8,
     1,
     1,
     1,
     HW,
     156,
     false},
    /* Llama 3 405B (Llama 3 paper Table 4), BF16, 16M tokens per step, FSDP
     * sharding optimizer and gradients (ZeRO 2); v not given (4 assumed). */
    LLAMA3_RUN(TUNED, "Llama3 405B 8K 8192", 8192, 2048, 0, 1, 64, 430),
    LLAMA3_RUN(HELD, "Llama3 405B 8K 16384", 16384, 2048, 0, 1, 128, 400),
    LLAMA3_RUN(HELD, "Llama3 405B 128K 16384", 16384, 128, 131072, 16, 8, 380),
    /* NeMo 24.07 on DGX-H100, FP8 (held out but the MLPerf-sized GPT-3 row,
     * which tuned Hopper's FP8 share). */
    NEMO24_RUN(HELD, "NeMo GPT3-5B", 64, NEMO_GPT3_5B, 2048, 4, 1, 1, 1, 64, 1, 22521, false),
    NEMO24_RUN(HELD, "NeMo GPT3-20B", 64, NEMO_GPT3_20B, 256, 2, 2, 1, 1, 32, 1, 5851, false),
    NEMO24_RUN(HELD, "NeMo GPT3-175B 128", 128, GPT3_175B, 256, 1, 4, 1, 8, 4, 6, 726, false),
    NEMO24_RUN(TUNED, "NeMo GPT3-175B 512", 512, GPT3_175B, 2048, 2, 4, 1, 8, 16, 6, 782, false),
    NEMO24_RUN(HELD, "NeMo Llama2-7B", 8, LLAMA2_7B, 128, 1, 1, 1, 1, 8, 1, 16847, false),
    NEMO24_RUN(HELD, "NeMo Llama2-13B", 16, LLAMA2_13B, 128, 1, 1, 1, 4, 4, 10, 8646, false),
    NEMO24_RUN(HELD, "NeMo Llama2-70B", 64, LLAMA2_70B, 128, 1, 4, 1, 4, 4, 20, 1707, false),
    NEMO24_RUN(HELD, "NeMo Nemotron-340B", 128, NEMOTRON_340B, 32, 1, 8, 1, 8, 2, 12, 322, true),
    NEMO24_RUN(HELD, "NeMo Llama3-8B", 8, LLAMA3_8B, 128, 1, 1, 2, 1, 4, 1, 12036, false),
    NEMO24_RUN(HELD, "NeMo Llama3-70B", 64, LLAMA3_70B, 128, 1, 4, 2, 4, 2, 5, 1533, false),
    /* Megatron-Bridge 25.11 (held out but the Llama 3 8B FP8 and DeepSeek-V3
     * BF16 rows of GB200 and of GB300, which tuned Blackwell and Blackwell
     * Ultra). FP8-CS rows as
     * FP8. MoE rows: EP groups of 64 fill a 72-GPU rack's first 64 GPUs
     * (domain 64 here), as a rack-aware launcher places them. */
    MB_DENSE_RUN(TUNED, "MB Llama3-8B GB300", "gb300-nvl72", 8, LLAMA3_8B, 128, 2, 1, 1, 1, 8, 1,
                 1, 37556, false),
    MB_DENSE_RUN(TUNED, "MB Llama3-8B GB200", "gb200-nvl72", 8, LLAMA3_8B, 128, 2, 1, 1, 1, 8, 1,
                 1, 31508, false),
    MB_DENSE_RUN(HELD, "MB Llama3-8B B200", "dgx-b200", 8, LLAMA3_8B, 128, 2, 1, 1, 1, 8, 1, 1,
                 30624, false),
    MB_DENSE_RUN(HELD, "MB Llama3-8B H100", "dgx-h100", 8, LLAMA3_8B, 128, 1, 1, 1, 1, 8, 1, 3,
                 14451, false),
    MB_DENSE_RUN(HELD, "MB Llama3-70B GB300", "gb300-nvl72", 64, LLAMA3_70B, 256, 2, 1, 1, 1, 64,
                 1, 3, 4520, true),
    MB_DENSE_RUN(HELD, "MB Llama3-70B GB200", "gb200-nvl72", 64, LLAMA3_70B, 256, 2, 1, 1, 1, 64,
                 1, 3, 4312, true),
    MB_DENSE_RUN(HELD, "MB Llama3-70B H100", "dgx-h100", 64, LLAMA3_70B, 128, 1, 4, 1, 8, 2, 5, 1,
                 1602, false),
    MB_DENSE_RUN(HELD, "MB Llama3.1-405B GB300", "gb300-nvl72", 256, LLAMA3_405B, 1536, 1, 2, 2, 8,
                 8, 4, 1, 999, true),
    MB_DENSE_RUN(HELD, "MB Llama3.1-405B GB200", "gb200-nvl72", 256, LLAMA3_405B, 1536, 1, 4, 1,
                 16, 4, 4, 1, 813, false),
    MB_DENSE_RUN(HELD, "MB Llama3.1-405B B200", "dgx-b200", 128, LLAMA3_405B, 64, 1, 4, 2, 8, 2, 8,
                 1, 661, false),
    MB_DENSE_RUN(HELD, "MB Llama3.1-405B H100", "dgx-h100", 1024, LLAMA3_405B, 512, 1, 8, 2, 8, 8,
                 8, 1, 292, false),
    MB_MOE_RUN(TUNED, "MB DeepSeek-V3 GB300 BF16", "gb300-nvl72", DEEPSEEK_V3, 4096, 1, 2, 128, 32,
               4, 3848),
    MB_MOE_RUN(TUNED, "MB DeepSeek-V3 GB200 BF16", "gb200-nvl72", DEEPSEEK_V3, 4096, 1, 4, 64, 64,
               4, 3139),
    MB_MOE_RUN(HELD, "MB Qwen3-235B GB300 BF16", "gb300-nvl72", QWEN3_235B, 8192, 2, 4, 64, 16, 12,
               6131),
    MB_MOE_RUN(HELD, "MB Qwen3-235B GB200 BF16", "gb200-nvl72", QWEN3_235B, 8192, 1, 8, 32, 32, 3,
               4916),
    /* DeepSeek-V3 (technical report §1, §3): 2,048 H800, 180K GPU hours per
     * trillion tokens = 1e12 / (180e3 x 3600) / 1 = 1,543 tokens/s per GPU;
     * PP 16 (DualPipe, taken as 1F1B here), EP 64 over 8 nodes, ZeRO 1,
     * FP8, batch 15360 x 4096. */
    {"DeepSeek-V3 2048 H800",
     "DeepSeek-V3 Technical Report §1, §3",
     HELD,
     "dgx-h800",
     2048,
     0,
     0,
     &DEEPSEEK_V3,
     15360,
     1,
     WL_RECOMPUTE_NONE,
     WL_FP8,
     NEMO,
     0,
     1,
     1,
     16,
     128,
     64,
     1,
     1,
     TOK,
     1543,
     false},
};

static Workload case_workload(const Case *k)
{
    const Shape *s = k->shape;
    Workload w = {.id = "case",
                  .layers = s->layers,
                  .hidden = s->hidden,
                  .heads = s->heads,
                  .kv_heads = s->kv,
                  .ffn = s->ffn,
                  .swiglu = s->swiglu,
                  .seq = k->seq ? k->seq : s->seq,
                  .vocab = s->vocab,
                  .params = s->params,
                  .global_batch = k->gbs,
                  .micro_batch = k->mbs,
                  .experts = s->experts,
                  .topk = s->topk,
                  .shared_experts = s->shared,
                  .moe_layers = s->moe_layers,
                  .dense_ffn = s->dense_ffn,
                  .flash_attention = k->fw != MEG21,
                  .recompute = k->rc,
                  .precision = k->prec,
                  .seq_parallel = k->fw == MEG21 ? WL_OFF : WL_ON,
                  .tp_overlap = k->fw == NEMO ? WL_ON : WL_OFF};
    return w;
}

static Cluster case_cluster(const Case *k)
{
    Cluster c = tl_preset(k->system, k->gpus);
    if (k->out_bytes_per_s > 0)
        cluster_set_out_bw(&c, k->out_bytes_per_s);
    if (k->domain > 0)
        c.domain_gpus = k->domain;
    return c;
}

static StepResult case_eval(const Case *k)
{
    Cluster c = case_cluster(k);
    Workload w = case_workload(k);
    Mapping m = {.tp = k->tp,
                 .cp = k->cp,
                 .pp = k->pp,
                 .dp = k->dp,
                 .ep = k->ep,
                 .interleave = k->v,
                 .zero = k->zero};
    StepResult r;
    char err[200] = "";
    if (step_eval(&c, &w, &m, NULL, NULL, &r, err, sizeof err) != STEP_OK) {
        print_error("%s: step_eval: %s\n", k->name, err);
        fail();
    }
    return r;
}

static double case_figure(const Case *k, const StepResult *r)
{
    switch (k->metric) {
    case HW:
        return r->hw_tflops_per_gpu;
    case MFL:
        return r->tflops_per_gpu;
    case TOK:
        return r->tokens_per_s / k->gpus;
    default:
        return r->step_s;
    }
}

typedef struct {
    int n, within;
    double sum_abs, worst;
} Score;

static Score score_set(CaseSet set)
{
    Score sc = {0, 0, 0, 0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Case *k = &cases[i];
        if (k->set != set)
            continue;
        StepResult r = case_eval(k);
        double got = case_figure(k, &r), err = got / k->published - 1;
        sc.n++;
        sc.within += fabs(err) <= 0.15;
        sc.sum_abs += fabs(err);
        sc.worst = fmax(sc.worst, fabs(err));
        if (verbose())
            printf("%-5s %-28s published %8.1f model %8.1f %+6.1f%%  %s%s\n",
                   set == TUNED ? "tuned" : "held", k->name, k->published, got, 100 * err,
                   r.fits ? "" : "DOES NOT FIT ", r.bottleneck);
    }
    if (verbose() && sc.n)
        printf("%s: %d cases, %d within 15%% (%.0f%%), mean error %.1f%%, worst %.1f%%\n",
               set == TUNED ? "tuned" : "held-out", sc.n, sc.within, 100.0 * sc.within / sc.n,
               100 * sc.sum_abs / sc.n, 100 * sc.worst);
    return sc;
}

/* The tuned set is what the constants were chosen on: every case within 15%. */
static void test_fidelity_tuned_set(void **state)
{
    (void)state;
    Score sc = score_set(TUNED);
    assert_true(sc.n >= 10);
    assert_int_equal(sc.within, sc.n);
}

/* The held-out set was never used to choose anything: at least 75% of its
 * cases within 15% and a mean error of at most 12%. */
static void test_fidelity_held_out_set(void **state)
{
    (void)state;
    Score sc = score_set(HELD);
    assert_true(sc.n >= 30);
    if (4 * sc.within < 3 * sc.n || sc.sum_abs / sc.n > 0.12) {
        print_error("held out: %d of %d within 15%%, mean error %.1f%%\n", sc.within, sc.n,
                    100 * sc.sum_abs / sc.n);
        fail();
    }
}

/* Every published configuration trained, so it fits in the GPU's memory. */
static void test_fidelity_published_runs_fit(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        StepResult r = case_eval(&cases[i]);
        if (verbose() || !r.fits)
            printf("fit %-28s %6.1f GiB of %5.1f (w %.1f g %.1f o %.1f a %.1f)\n", cases[i].name,
                   r.mem_per_gpu_bytes / 1073741824.0, r.hbm_bytes / 1073741824.0,
                   r.mem_weights / 1073741824.0, r.mem_grads / 1073741824.0,
                   r.mem_optimizer / 1073741824.0, r.mem_activations / 1073741824.0);
        bad += !r.fits && !cases[i].memory_unpublished;
    }
    assert_int_equal(bad, 0);
}

/* SC21 Table 2, ZeRO-3 without model parallelism: GPT-3 175B, batch 1536
 * fixed, on 384 / 768 / 1536 A100 with micro-batch 4 / 2 / 1 (one
 * micro-batch per GPU). */
static double sc21_zero3_tflops(int gpus, const StepParams *params)
{
    Cluster c = tl_preset("dgx-a100", gpus);
    Workload w = megatron_gpt(96, 12288, 96, 1536, 1536 / gpus);
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = gpus, .ep = 1, .interleave = 1, .zero = 3};
    return tl_eval_ok(&c, &w, &m, NULL, params).hw_tflops_per_gpu;
}

static void test_fidelity_sc21_zero3_collapses(void **state)
{
    (void)state;
    static const int gpus[3] = {384, 768, 1536};
    static const double paper[3] = {144, 88, 44};
    StepParams ds = step_params_default();
    ds.zero3_per_tensor = true; /* DeepSpeed 2021: one all_gather per parameter */
    ds.dp_overlap = 0;          /* ... waited for before the module runs */
    double fsdp[3], dsp[3];
    for (int i = 0; i < 3; i++) {
        fsdp[i] = sc21_zero3_tflops(gpus[i], NULL);
        dsp[i] = sc21_zero3_tflops(gpus[i], &ds);
        if (verbose())
            printf("zero3 %4d GPUs: paper %3.0f, DeepSpeed-2021 model %6.1f (%+5.1f%%), "
                   "default (per-layer, overlapped) %6.1f\n",
                   gpus[i], paper[i], dsp[i], 100 * (dsp[i] / paper[i] - 1), fsdp[i]);
    }
    /* The collapse: every doubling slower per GPU, 1536 at most half of 384
     * (paper 0.31). */
    for (int i = 1; i < 3; i++)
        assert_true(dsp[i] < 0.85 * dsp[i - 1]);
    assert_true(dsp[2] <= 0.5 * dsp[0]);
    /* Where compute still dominates (384 GPUs) within the Table 1 tolerance. */
    assert_true(fabs(dsp[0] / paper[0] - 1) <= 0.15);
    /* Never faster than the paper by more than half: the remaining gap is
     * the latency per ring step (see the header). */
    for (int i = 0; i < 3; i++)
        assert_true(dsp[i] <= 1.5 * paper[i] && dsp[i] >= 0.85 * paper[i]);
    /* With the defaults (one flat parameter per layer, prefetched behind
     * compute, as FSDP does) the ring latency still shows at 1,536 ranks. */
    assert_true(fsdp[2] <= 0.95 * fsdp[0]);
}

static void test_fidelity_sc21_tensor_vs_pipeline(void **state)
{
    (void)state;
    for (int batch = 32; batch <= 128; batch *= 4) {
        double tf[6] = {0};
        for (int k = 1, tp = 2; tp <= 32; tp *= 2, k++)
            tf[k] = sc21_hw_tflops(32, 20480, 128, tp, 64 / tp, 64, batch, 1, 1);
        if (verbose())
            printf("fig13 batch %3d: TP2 %.1f TP4 %.1f TP8 %.1f TP16 %.1f TP32 %.1f\n", batch,
                   tf[1], tf[2], tf[3], tf[4], tf[5]);
        /* tf[3] is TP 8, the node size. */
        assert_true(tf[3] > tf[1] && tf[3] > tf[2] && tf[3] > tf[4] && tf[3] > tf[5]);
        assert_true(tf[4] <= 0.95 * tf[3]);
        assert_true(tf[5] <= 0.80 * tf[3]);
    }
}

static void test_fidelity_sc21_tensor_vs_data(void **state)
{
    (void)state;
    for (int batch = 32; batch <= 512; batch *= 4) {
        double tf[6] = {0};
        for (int k = 1, tp = 2; tp <= 32; tp *= 2, k++)
            tf[k] = sc21_hw_tflops(32, 3840, 32, tp, 1, 64, batch, 1, 1);
        double ratio = tf[4] / tf[3];
        if (verbose())
            printf("fig15 batch %3d: TP2 %.1f TP4 %.1f TP8 %.1f TP16 %.1f TP32 %.1f "
                   "TP16/TP8 %.2f\n",
                   batch, tf[1], tf[2], tf[3], tf[4], tf[5], ratio);
        if (ratio < 0.40 || ratio > 0.70) {
            print_error("batch %d: TP16/TP8 = %.2f, want about 0.5\n", batch, ratio);
            fail();
        }
        /* Monotone: every doubling of TP past the node costs throughput. */
        for (int k = 1; k < 5; k++)
            assert_true(tf[k + 1] < tf[k]);
    }
}

static double tokens_per_s(int batch, int v)
{
    Cluster c = tl_preset("dgx-a100", 32);
    Workload w = megatron_gpt(64, 8192, 64, batch, 1);
    Mapping m = {.tp = 8, .cp = 1, .pp = 4, .dp = 1, .ep = 1, .interleave = v};
    return tl_eval_ok(&c, &w, &m, NULL, NULL).tokens_per_s;
}

static void test_fidelity_bubble_law(void **state)
{
    (void)state;
    /* No DP (its once-per-step reduction would not shrink with m): batch 4
     * gives m = 4, batch 16 gives m = 16. Law, p = 4:
     * (1 + 3/4) / (1 + 3/16) = 1.75 / 1.1875 = 1.47368; interleaving v = 2 at
     * m = 4: (1 + 3/4) / (1 + 3/8) = 1.27273. */
    double more_mb = tokens_per_s(16, 1) / tokens_per_s(4, 1);
    double interleaved = tokens_per_s(4, 2) / tokens_per_s(4, 1);
    if (verbose())
        printf("bubble: m4->m16 %.4f (law 1.4737), v1->v2 %.4f (law 1.2727)\n", more_mb,
               interleaved);
    assert_true(fabs(more_mb / 1.47368 - 1) < 0.03);
    assert_true(fabs(interleaved / 1.27273 - 1) < 0.03);
}

static void test_fidelity_ring_busbw(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 8);
    double first = 0;
    for (int n = 2; n <= 8; n *= 2) {
        GroupSpan s = {n, 1, n, 1, false};
        double bytes = 8e9;
        CollCost a = collective_cost(COLL_ALL_REDUCE, bytes, s, &c);
        double busbw = bytes * 2.0 * (n - 1) / n / a.time_s;
        double share = busbw / c.up_bytes_per_s;
        if (verbose())
            printf("busbw n=%d: %.0f GB/s = %.1f%% of %.0f GB/s\n", n, busbw / 1e9, 100 * share,
                   c.up_bytes_per_s / 1e9);
        assert_true(share > 0.75 && share < 0.85);
        if (first == 0)
            first = busbw;
        assert_true(fabs(busbw / first - 1) < 0.01);
    }
}

static void test_fidelity_seeds_tp_across_domains(void **state)
{
    (void)state;
    Cluster c = tl_preset("gb200-nvl72", 144);
    Workload w = tl_model("llama3-70b");
    w.global_batch = 18 * 4;
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 18, .ep = 1, .interleave = 1};
    StepResult inside = tl_eval_ok(&c, &w, &m, NULL, NULL);
    /* Move ranks 4..7 of TP group 0 into the second rack (GPUs 72..75). */
    Placement *p = placement_new(144);
    for (int i = 4; i < 8; i++)
        assert_true(placement_swap_gpus(p, i, 72 + i - 4));
    StepResult split = tl_eval_ok(&c, &w, &m, p, NULL);
    placement_free(p);
    if (verbose())
        printf("seeds TP: inside %.3f s, split %.3f s (%.2fx): %s\n", inside.step_s, split.step_s,
               split.step_s / inside.step_s, split.bottleneck);
    assert_true(split.step_s >= 1.25 * inside.step_s);
    assert_int_equal(split.bottleneck_part, STEP_TP);
    assert_int_equal(split.bottleneck_tier, TIER_OUT);
    /* DP across the two racks versus one (hypothetical) 144-GPU domain. */
    Cluster one = c;
    one.domain_gpus = 144;
    StepResult dp_one = tl_eval_ok(&one, &w, &m, NULL, NULL);
    if (verbose())
        printf("seeds DP: two racks %.3f s, one domain %.3f s\n", inside.step_s, dp_one.step_s);
    assert_true(inside.step_s <= 1.05 * dp_one.step_s);
    assert_true(inside.span[DIM_DP].domains == 2);
}

static void test_fidelity_seeds_moe_in_racks(void **state)
{
    (void)state;
    Workload w = tl_model("deepseek-v3");
    Mapping m = {.tp = 1, .cp = 1, .pp = 16, .dp = 64, .ep = 64, .interleave = 1};
    Cluster rack = tl_preset("gb200-nvl72", 1024);
    rack.domain_gpus = 64; /* 64 of each rack's 72 GPUs train, 8 are spares */
    Cluster servers = tl_preset("dgx-b200", 1024);
    StepResult r = tl_eval_ok(&rack, &w, &m, NULL, NULL);
    StepResult s = tl_eval_ok(&servers, &w, &m, NULL, NULL);
    if (verbose())
        printf("seeds MoE: NVL72 %.2f s, DGX B200 %.2f s (%.2fx): %s\n", r.step_s, s.step_s,
               s.step_s / r.step_s, s.bottleneck);
    assert_int_equal(r.span[DIM_EP].domains, 1);
    assert_int_equal(s.span[DIM_EP].domains, 8);
    assert_true(s.step_s >= 2.0 * r.step_s);
    assert_int_equal(s.bottleneck_part, STEP_EP);
}

/* NCCL at small sizes (MODEL-FACTS §3): a 2 KB all-reduce on the 8 A100 of
 * one DGX takes about 34 us in nccl-tests (NVIDIA/nccl-tests#123), not
 * hundreds; with 2 GPUs about 10 us. Tuned on those two. Held out: an 8-GPU
 * Hopper all-reduce of 32 KB takes ~19 us and of 16 MB ~121 us in
 * nccl-tests (kvcache-ai/Mooncake#3484); within a factor the model's
 * alpha-beta terms must land (the small end is NVLS/LL there, which the
 * model does not have: asserted within 2x). */
static void test_fidelity_nccl_small_messages(void **state)
{
    (void)state;
    Cluster a = tl_preset("dgx-a100", 8);
    GroupSpan s8 = {8, 1, 8, 1, false}, s2 = {2, 1, 2, 1, false};
    double t8 = collective_cost(COLL_ALL_REDUCE, 2048, s8, &a).time_s;
    double t2 = collective_cost(COLL_ALL_REDUCE, 2048, s2, &a).time_s;
    Cluster h = tl_preset("dgx-h100", 8);
    double h16 = collective_cost(COLL_ALL_REDUCE, 16777216, s8, &h).time_s;
    double h32k = collective_cost(COLL_ALL_REDUCE, 32768, s8, &h).time_s;
    if (verbose())
        printf("nccl: 2 KB all-reduce A100 x8 %.1f us (34), x2 %.1f us (10); H100 x8 32 KB "
               "%.1f us (19), 16 MB %.1f us (121)\n",
               t8 * 1e6, t2 * 1e6, h32k * 1e6, h16 * 1e6);
    assert_true(t8 >= 30e-6 && t8 <= 40e-6);
    assert_true(t2 >= 7e-6 && t2 <= 13e-6);
    assert_true(fabs(h16 / 121e-6 - 1) <= 0.15);
    assert_true(h32k <= 2 * 19e-6);
}

/* MoE orderings (issue-free wording: published by DeepSeek and NVIDIA): on
 * the same 8-GPU servers EP 64 across servers is much slower than EP 8
 * inside one; inside an NVL72 rack EP 64 beats both. DeepSeek-V3 on 1,024
 * Blackwell GPUs, PP 16, DP 64. */
static void test_fidelity_moe_orderings(void **state)
{
    (void)state;
    Workload w = tl_model("deepseek-v3");
    Mapping m64 = {.tp = 1, .cp = 1, .pp = 16, .dp = 64, .ep = 64, .interleave = 1, .zero = 1};
    Mapping m8 = m64;
    m8.ep = 8;
    Cluster servers = tl_preset("dgx-b200", 1024);
    Cluster rack = tl_preset("gb200-nvl72", 1024);
    rack.domain_gpus = 64; /* 64 of each rack's 72 GPUs train */
    double across = tl_eval_ok(&servers, &w, &m64, NULL, NULL).step_s;
    double inside = tl_eval_ok(&servers, &w, &m8, NULL, NULL).step_s;
    double racked = tl_eval_ok(&rack, &w, &m64, NULL, NULL).step_s;
    if (verbose())
        printf("MoE: EP 64 across servers %.2f s, EP 8 inside %.2f s, EP 64 in racks %.2f s\n",
               across, inside, racked);
    assert_true(across >= 1.5 * inside);
    assert_true(racked < inside && racked < across);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fidelity_tuned_set),
        cmocka_unit_test(test_fidelity_held_out_set),
        cmocka_unit_test(test_fidelity_published_runs_fit),
        cmocka_unit_test(test_fidelity_sc21_zero3_collapses),
        cmocka_unit_test(test_fidelity_sc21_tensor_vs_pipeline),
        cmocka_unit_test(test_fidelity_sc21_tensor_vs_data),
        cmocka_unit_test(test_fidelity_bubble_law),
        cmocka_unit_test(test_fidelity_ring_busbw),
        cmocka_unit_test(test_fidelity_nccl_small_messages),
        cmocka_unit_test(test_fidelity_seeds_tp_across_domains),
        cmocka_unit_test(test_fidelity_seeds_moe_in_racks),
        cmocka_unit_test(test_fidelity_moe_orderings),
    };
    return cmocka_run_group_tests_name("fidelity", tests, NULL, NULL);
}
