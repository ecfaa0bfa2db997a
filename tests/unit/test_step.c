/* SPDX-License-Identifier: MIT */
/* test_step — the step model on a tiny hand-made job whose every term is
 * worked by hand below.
 *
 * Cluster: 8 GPUs in one 8-GPU domain; 100 TFLOP/s, 1 TB/s HBM, 80 GB;
 * scale-up 100 GB/s, NIC 10 GB/s, no latencies. Parameters: matmuls at 50%
 * of peak, no memory-bound term, links at line rate, no fixed collective cost,
 * no DP overlap (unless a test says so).
 * Workload: GPT, 2 layers, h 1024, 8 heads, ffn 4096, s 1024, V 1000,
 * FlashAttention, no recompute, global batch 8, micro-batch 1.
 *   forward per token per layer = 24h^2 + 4sh = 25,165,824 + 4,194,304
 *                               = 29,360,128; logit 2hV = 2,048,000
 *   parameters per layer 12h^2 + 13h = 12,596,224; embeddings (V + s)h
 *                               = 2,072,576 (SC21 Eq. 2)
 * Mapping TP 2, DP 4 (m = 8 / 4 = 2 micro-batches) unless a test says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

// clang-format off
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/hw.h"
#include "model/kernel.h"
#include "model/step.h"

static void test_step_tiny_job_by_hand(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_int_equal(r.micro_batches, 2);
    /* Compute per micro-batch: (2 x 29,360,128 + 2,048,000) x 3 = 182,304,768
     * FLOPs per token x 1024 tokens / TP 2 = 93,340,041,216 per GPU, at
     * 50 TFLOP/s = 1.86680082432e-3 s; 2 micro-batches = 3.73360164864e-3. */
    NEAR(r.mb_flops, 93340041216.0, 1e-12);
    NEAR(r.part_s[STEP_COMPUTE], 3.73360164864e-3, 1e-9);
    /* TP: all-reduce of b*s*h*2 = 2,097,152 bytes over 2 GPUs moves
     * 2 x 1/2 x S = S at 100 GB/s = 2.097152e-5 s; 4 per layer x 2 layers x
     * 2 micro-batches = 16 -> 3.3554432e-4 s. */
    NEAR(r.comm[STEP_TP].count, 16, 1e-12);
    NEAR(r.comm[STEP_TP].bytes, 2097152.0, 1e-12);
    NEAR(r.part_s[STEP_TP], 3.3554432e-4, 1e-9);
    /* DP: (2 x 12,596,224 + 2,072,576) / TP 2 = 13,632,512 parameters per
     * GPU, fp32 gradients 54,530,048 bytes, all-reduce over 4 GPUs of one
     * domain: 2 x 3/4 x 54,530,048 / 100e9 = 8.1795072e-4 s, none hidden. */
    NEAR(r.comm[STEP_DP].bytes, 54530048.0, 1e-12);
    NEAR(r.part_s[STEP_DP], 8.1795072e-4, 1e-9);
    /* Optimizer: 30 bytes x 13,632,512 / 1e12 = 4.0897536e-4 s. */
    NEAR(r.optimizer_s, 4.0897536e-4, 1e-9);
    assert_true(r.part_s[STEP_PP] == 0 && r.part_s[STEP_BUBBLE] == 0 && r.part_s[STEP_EP] == 0);
    /* Step = 3.73360164864 + 0.33554432 + 0.81795072 + 0.40897536 ms. */
    NEAR(r.step_s, 5.29607204864e-3, 1e-9);
    /* 8 x 1024 tokens / step = 1,546,804.6 tokens/s. */
    NEAR(r.tokens_per_s, 8192.0 / 5.29607204864e-3, 1e-9);
    /* Model FLOPs 182,304,768 x 8192 = 1.493440659456e12 over 8 GPUs x step
     * x 100 TFLOP/s: MFU 0.352481; 35.25 TFLOP/s per GPU. */
    NEAR(r.mfu, 1.493440659456e12 / (5.29607204864e-3 * 8 * 100e12), 1e-9);
    NEAR(r.tflops_per_gpu, 1.493440659456e12 / 5.29607204864e-3 / 8 / 1e12, 1e-9);
    NEAR(r.hw_tflops_per_gpu, r.tflops_per_gpu, 1e-12);
    /* Traffic per GPU: TP 16 x 2,097,152 + DP 2 x 3/4 x 54,530,048 all on NVLink. */
    NEAR(r.tier_bytes[TIER_UP], 16 * 2097152.0 + 1.5 * 54530048.0, 1e-12);
    assert_true(r.tier_bytes[TIER_OUT] == 0);
    /* Gradients kept in BF16 (Megatron's grad_reduce_in_fp32 off) reduce in
     * BF16: half the bytes, 27,265,024, and half the time, 4.0897536e-4 s. */
    Workload bf = w;
    bf.grad_bytes = 2;
    StepResult h = tl_eval_ok(&c, &bf, &m, NULL, &TL_TINY_PARAMS);
    NEAR(h.comm[STEP_DP].bytes, 27265024.0, 1e-12);
    NEAR(h.part_s[STEP_DP], 4.0897536e-4, 1e-9);
    NEAR(h.mem_grads, 27265024.0, 1e-12);
    /* Memory: weights 2 x 13,632,512 = 27,265,024; gradients 4x = 54,530,048;
     * Adam 12x = 163,590,144. Activations with sequence parallelism
     * (FlashAttention, TP 2): s*b*h*34/t = 17,825,792 per layer x 2 layers;
     * the last stage (here the only one) adds fp32 logits 1024 x 1000 / 2 x 4
     * = 2,048,000: 37,699,584. Tensors 283,084,800 bytes; as allocated, 5%
     * more for the caching allocator (14,154,240) and 1.5 GiB of context,
     * NCCL buffers and workspaces: 1,907,851,776. */
    NEAR(r.mem_weights, 27265024.0, 1e-12);
    NEAR(r.mem_grads, 54530048.0, 1e-12);
    NEAR(r.mem_optimizer, 163590144.0, 1e-12);
    NEAR(r.mem_activations, 37699584.0, 1e-12);
    NEAR(r.mem_reserve, 0.05 * 283084800.0, 1e-12);
    NEAR(r.mem_buffers, 1.5 * 1073741824.0, 1e-12);
    NEAR(r.mem_per_gpu_bytes, 283084800.0 * 1.05 + 1.5 * 1073741824.0, 1e-12);
    assert_true(r.fits);
    /* DP is 0.818 / 5.296 = 15.4% of the step, the largest non-compute part. */
    assert_int_equal(r.bottleneck_part, STEP_DP);
    assert_non_null(strstr(r.bottleneck,
                           "data-parallel gradient reduction stays on the "
                           "scale-up links, not hidden by backward: 15% of the step"));
}

/* GEMMs with a thin side run at HBM speed (the roofline). The tiny job with
 * 16-token sequences, TP 2: at 50 TFLOP/s and 1 TB/s the ridge is 50 FLOP
 * per byte, and every GEMM is under it. Per layer, M = 16 tokens:
 *   QKV [16 x 1024] x [1024 x 1536]: 2MNK = 50,331,648 FLOP = 1.00663296 us;
 *     2 (MK + KN + MN) = 3,227,648 B = 3.227648 us: 2.22101504 us more
 *   projection [16 x 512] x [512 x 1024]: 0.33554432 us against 1.097728 us
 *   MLP in and out [16 x 1024] x [1024 x 2048] and [16 x 2048] x [2048 x
 *     1024]: 1.34217728 us against 4.292608 us each
 * = 8.88406016 us per layer, x 2 layers x 3 passes = 53.30436096 us; the
 * logit GEMM [16 x 1024] x [1024 x 500]: 3 x (1.072768 - 0.32768) us =
 * 2.235264 us. FLOPs 16 tokens x (3 x 2 x (24h^2 + 4 x 16 h) + 3 x 2hV) / 2
 * = 1,260,257,280 = 25.2051456 us. The attention GEMMs, batched over the
 * 4 local heads, are thin too: Q K^T [16 x 128] x [128 x 16] and scores x V
 * move 4 x 2 x 4,352 = 34,816 B each (0.034816 us) for 0.00524288 us of
 * FLOPs: 0.02957312 us more each, x 2 per forward x 3 passes x 2 layers =
 * 0.35487744 us. Compute 81.099648 us per micro-batch.
 * With 1,024-token sequences every GEMM is over the ridge and nothing is
 * added (test_step_tiny_job_by_hand). */
static void test_step_thin_gemms_are_memory_bound(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    w.seq = 16;
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mb_flops, 1260257280.0, 1e-12);
    NEAR(r.mb_compute_s, 81.099648e-6, 1e-9);
}

static void test_step_memory_bound_term_and_overlap(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    StepResult base = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    /* Memory-bound term, 2 bytes of HBM traffic per activation byte: per
     * micro-batch 2 x (17,825,792 x 2 layers + 2,048,000 logits) / 1e12
     * = 7.5399168e-5 s; 2 micro-batches = 1.50798336e-4 s more compute. */
    StepParams p = TL_TINY_PARAMS;
    p.nonmatmul_bytes_per_act = 2;
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &p);
    NEAR(r.part_s[STEP_COMPUTE] - base.part_s[STEP_COMPUTE], 1.50798336e-4, 1e-6);
    /* Overlap: gradients reduce in buckets of 40M parameters (Megatron-Core
     * DDP) and the last bucket always shows; this model's 13.6M parameters
     * are one bucket, so however much backward there is, nothing hides. */
    p = TL_TINY_PARAMS;
    p.dp_overlap = 1;
    r = tl_eval_ok(&c, &w, &m, NULL, &p);
    NEAR(r.part_s[STEP_DP], 8.1795072e-4, 1e-9);
    assert_true(r.dp_hidden_s == 0);
    /* 64 layers (436M parameters per GPU): all but the last bucket's
     * reduction hides behind the last micro-batch's backward. */
    Workload big = w;
    big.layers = 64;
    StepResult none = tl_eval_ok(&c, &big, &m, NULL, &TL_TINY_PARAMS);
    r = tl_eval_ok(&c, &big, &m, NULL, &p);
    assert_true(r.dp_hidden_s > 0.8 * none.part_s[STEP_DP]);
    assert_true(r.part_s[STEP_DP] < 0.2 * none.part_s[STEP_DP] && r.part_s[STEP_DP] > 0);
}

static void test_step_pipeline_bubble_and_sends(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    /* TP 2, PP 2, DP 2: m = 8 / 2 = 4, one layer per stage. Last stage per
     * micro-batch: (3 x 29,360,128 + 3 x 2,048,000) x 1024 / 2 =
     * 48,242,884,608 FLOPs = 9.6485769216e-4 s; TP 4 x 2.097152e-5 =
     * 8.388608e-5 s; PP: stride 2 keeps both stages in the domain, 2 sends
     * of b*s*h*2/t = 1,048,576 bytes at 100 GB/s = 2.097152e-5 s. Stage time
     * 1.06971529216e-3 s; bubble (p-1)/v = 1 stage time less the output
     * layer only the last stage runs (the fill and drain pass the first):
     * 3 x 2,048,000 x 1024 / 2 = 3,145,728,000 FLOPs = 6.291456e-5 s, so
     * 1.00680073216e-3 s. */
    Mapping m = {.tp = 2, .cp = 1, .pp = 2, .dp = 2, .ep = 1, .interleave = 1};
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_int_equal(r.micro_batches, 4);
    assert_int_equal(r.layers_per_stage, 1);
    NEAR(r.part_s[STEP_PP], 4 * 2.097152e-5, 1e-9);
    NEAR(r.mb_stage_s, 1.06971529216e-3, 1e-9);
    NEAR(r.part_s[STEP_BUBBLE], 1.00680073216e-3, 1e-9);
    const double head = 6.291456e-5;
    /* Memory with uneven stages: 10 layers on PP 4 = 3, 3, 2, 2; the short
     * stages go to the ends (Llama 3 §3.3.2), so the first holds 2 layers
     * with min(m, p) = min(4, 4) = 4 micro-batches in flight (1F1B,
     * Korthikanti et al. 2022 §4.2.3): 17,825,792 x 2 x 4 = 142,606,336
     * bytes; the last 2 layers + logits = 37,699,584. TP 2 PP 4 DP 1. */
    w.layers = 10;
    Mapping m4 = {.tp = 2, .cp = 1, .pp = 4, .dp = 1, .ep = 1, .interleave = 1};
    r = tl_eval_ok(&c, &w, &m4, NULL, &TL_TINY_PARAMS);
    assert_int_equal(r.micro_batches, 8);
    NEAR(r.mem_activations, 142606336.0, 1e-12);
    /* Interleaved, v = 2 (4 layers, 1 per chunk): bubble (p-1)/v of a stage
     * without its output layer. */
    w.layers = 4;
    m.interleave = 2;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.part_s[STEP_BUBBLE], (r.mb_stage_s - head) / 2, 1e-12);
    /* and twice the sends: 2 v = 4 per micro-batch. */
    NEAR(r.comm[STEP_PP].count, 4.0 * 4, 1e-12);
    /* Uneven chunks (as Llama 3 405B's 126 layers on PP 16): 10 layers, PP 2,
     * v = 4: 8 chunks of 2 or 1 layers, a stage holds 5; the largest chunk
     * (2 layers) paces each of the p-1 = 1 bubble slots: bubble = 1 x 2/5 of
     * a stage, not (p-1)/v = 1/4. */
    w.layers = 10;
    m.interleave = 4;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_int_equal(r.layers_per_stage, 5);
    assert_int_equal(r.layers_per_chunk, 2);
    NEAR(r.part_s[STEP_BUBBLE], (r.mb_stage_s - head) * 2.0 / 5.0, 1e-12);
    char why[400];
    step_explain(&c, &w, &m, &r, STEP_BUBBLE, why, sizeof why);
    assert_non_null(strstr(why, "the slowest sets the pace"));
    /* Cut by cost (nanotron): a layer costs 4 h^2 + 2 F h = 12,582,912, the
     * output layer V h with V = 49,152 is 4 layers; 16 layers + 4 = 20 over
     * PP 2: the first stage closes once the sum passes 10 (10 layers), the
     * last holds 6 + the output layer. The 10-layer stage paces the pipe:
     * 10 x 29,360,128 FLOPs a token (as above) against the even cut's
     * 8 x 29,360,128 + 2 V h = 100,663,296: 0.875 of its compute. */
    w.layers = 16;
    w.vocab = 49152;
    w.global_batch = 16;
    m.interleave = 1;
    StepResult even = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_int_equal(even.layers_per_stage, 8);
    w.pp_by_cost = WL_ON;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_int_equal(r.layers_per_stage, 6);
    NEAR(r.mb_compute_s, even.mb_compute_s * 0.875, 1e-9);
    /* the pacing stage has no output layer: the bubble is one whole stage */
    NEAR(r.part_s[STEP_BUBBLE], r.mb_stage_s, 1e-12);
}

static void test_step_recompute_and_zero(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    w.recompute = WL_RECOMPUTE_FULL;
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    /* Hardware / model FLOPs = (182,304,768 + 58,720,256) / 182,304,768
     * = 1.3221030; TP repeats its forward all-reduces: 6 per layer, 24. */
    NEAR(r.hw_tflops_per_gpu / r.tflops_per_gpu, 241025024.0 / 182304768.0, 1e-9);
    NEAR(r.comm[STEP_TP].count, 24, 1e-12);
    /* Full recompute with sequence parallelism (on by default at TP 2)
     * stores each layer's input sharded, 2*s*b*h/t = 1,048,576 bytes, plus
     * one layer's activations while it is recomputed: 34*s*b*h/t =
     * 17,825,792 (Korthikanti Table 2); the last stage adds logits
     * 2,048,000: 2 x 1,048,576 + 17,825,792 + 2,048,000. */
    NEAR(r.mem_activations, 2097152.0 + 17825792.0 + 2048000.0, 1e-12);
    /* ZeRO-1 shards Adam over DP 4: 163,590,144 / 4 = 40,897,536; ZeRO-2
     * also gradients: 54,530,048 / 4; ZeRO-3 also weights: 27,265,024 / 4. */
    w.recompute = WL_RECOMPUTE_NONE;
    m.zero = 1;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mem_optimizer, 40897536.0, 1e-12);
    NEAR(r.mem_grads, 54530048.0, 1e-12);
    m.zero = 3;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mem_grads, 54530048.0 / 4, 1e-12);
    NEAR(r.mem_weights, 27265024.0 / 4, 1e-12);
    /* ZeRO-3 collectives per step: m = 2 micro-batches x 2 layers, each a
     * reduce-scatter and 2 gathers (forward, backward): 12; with full
     * recompute a third gather: 16. One per weight tensor (DeepSpeed 2021):
     * x 12 tensors per GPT layer = 144, the same bytes (no latency here). */
    NEAR(r.comm[STEP_DP].count, 12, 1e-12);
    double t_layer = r.comm[STEP_DP].total_s;
    StepParams pt = TL_TINY_PARAMS;
    pt.zero3_per_tensor = true;
    r = tl_eval_ok(&c, &w, &m, NULL, &pt);
    NEAR(r.comm[STEP_DP].count, 144, 1e-12);
    NEAR(r.comm[STEP_DP].total_s, t_layer, 1e-9);
    w.recompute = WL_RECOMPUTE_FULL;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.comm[STEP_DP].count, 16, 1e-12);
    w.recompute = WL_RECOMPUTE_NONE;
    /* ZeRO-1 reduce-scatters fp32 gradients (3/4 x 54,530,048 / 100e9) and
     * all-gathers BF16 weights (3/4 x 27,265,024 / 100e9): 6.1346304e-4 s. */
    m.zero = 1;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.part_s[STEP_DP], 0.75 * (54530048.0 + 27265024.0) / 100e9, 1e-9);
}

/* MaxText's remat policies on the tiny job under JAX (TP 2 with sequence
 * parallelism, no dropout under XLA). Bytes kept per token of a layer:
 * input 2h/2 = 1,024, the two norm outputs 2,048, the residual (the
 * attention block's output) 1,024, Q 2 x 1024/2 = 1,024, K and V 2 x 4
 * heads x 256 = 2,048, attention's output 1,024, the MLP's first GEMM
 * 2 x 4096/2 = 4,096 and its activation 4,096.
 *   minimal (recomputes attention, norms, activation): 1,024 + 1,024 +
 *     1,024 + 2,048 + 4,096 = 9,216
 *   save_qkv_proj (also the output projection and the MLP's first GEMM):
 *     1,024 + 1,024 + 2,048 = 4,096; full: the input, 1,024
 * x 1,024 tokens x 2 layers. Recomputed forward at 50 TFLOP/s, per layer:
 * attention 2 x (2 x 1024 x 1024 x 128 x 4 heads) = 2,147,483,648 FLOP =
 * 42.94967296 us, the output projection 2 x 1024 x 1024 x 512 = 21.47483648
 * us, the MLP's first GEMM 85.89934592 us, QKV 2 x 1024 x 1024 x 1536 =
 * 64.42450944 us, the MLP's second 85.89934592 us. Full under XLA skips the
 * second MLP GEMM (backward never needs its output); Megatron reruns the
 * whole layer. */
static void test_step_remat_policies(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    w.framework = WL_FW_JAX;
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    const double us = 1e-6, attn = 42.94967296 * us, oproj = 21.47483648 * us;
    const double fc = 85.89934592 * us, qkv = 64.42450944 * us;
    w.recompute = WL_RECOMPUTE_SELECTIVE;
    w.recompute_mods = WL_RC_CORE_ATTN | WL_RC_NORM | WL_RC_MLP_ACT; /* minimal */
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mem_act_mb, 9216.0 * 1024 * 2, 1e-12);
    NEAR(r.mb_recompute_s, 2 * attn, 1e-9);
    w.recompute_mods |= WL_RC_OPROJ | WL_RC_MLP_IN; /* save_qkv_proj */
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mem_act_mb, 4096.0 * 1024 * 2, 1e-12);
    NEAR(r.mb_recompute_s, 2 * (attn + oproj + fc), 1e-9);
    w.recompute = WL_RECOMPUTE_FULL;
    w.recompute_mods = 0;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mem_act_mb, 1024.0 * 1024 * 2, 1e-12);
    NEAR(r.mb_recompute_s, 2 * (qkv + attn + oproj + fc), 1e-9);
    w.framework = WL_FW_MEGATRON;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mb_recompute_s, 2 * (qkv + attn + oproj + 2 * fc), 1e-9);
    /* Custom: the layer input to host, Q, K and V kept on the device (4
     * layers, so two of them stay on the device): the device keeps 3,072
     * bytes a token of every layer and the input of two; the host the
     * input of the other two. Recomputed: attention, the output
     * projection, the MLP's first GEMM. */
    w.framework = WL_FW_JAX;
    w.layers = 4;
    w.recompute = WL_RECOMPUTE_SELECTIVE;
    w.recompute_mods = WL_RC_CORE_ATTN | WL_RC_NORM | WL_RC_MLP_ACT | WL_RC_OPROJ | WL_RC_MLP_IN;
    w.offload = WL_OFFLOAD_ACTIVATIONS;
    w.act_host = WL_T_INPUT;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mem_host_bytes, 1024.0 * 1024 * 2, 1e-12);
    NEAR(r.mem_activations - r.mem_logits, (3072.0 * 4 + 1024.0 * 2) * 1024, 1e-12);
    NEAR(r.mb_recompute_s, 4 * (attn + oproj + fc), 1e-9);
    assert_true(r.fits);
    /* Megatron's cpu_offloading_num_layers: 2 of the 4 layers send their
     * input; on average half a layer input each, of which two layers'
     * worth stays on the device: half as much in host memory, and the
     * device keeps 1,024 bytes a token more */
    w.offload_layers = 2;
    StepResult half = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(half.mem_host_bytes, 1024.0 * 1024, 1e-12);
    NEAR(half.mem_activations - half.mem_logits, (3072.0 * 4 + 1024.0 * 3) * 1024, 1e-12);
    w.offload_layers = 0;
    /* with 1 MB of host memory per GPU the 2.1 MB sent there do not fit, and
     * the reason names host memory, not HBM */
    c.host_mem_bytes = 1e6;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_false(r.fits);
    CONTAINS(r.bottleneck, "does not fit: offloads 2.10 MB per GPU to host memory, 1.10 MB more "
                           "than the 1.00 MB of host memory it has");
}

/* The training state's dtypes: JAX's default is 4 + 4 + 8 bytes per
 * parameter (FP32 parameters, gradients, moments); MaxText's
 * weight_dtype=bfloat16 with its moments inheriting it, 2 + 2 + 4;
 * Megatron with BF16 first moments (--exp-avg-dtype bf16) 2 + 4 + (4 master
 * + 2 + 4). A loss over 4 chunks holds a quarter of the logits: under XLA
 * 1,024 tokens x 1000/2 x 2 bytes = 1,024,000. Per GPU 13,632,512
 * parameters (test_step_tiny_job_by_hand). */
static void test_step_state_dtypes_and_loss_chunks(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    const double n = 13632512.0;
    w.framework = WL_FW_JAX;
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mem_weights + r.mem_grads + r.mem_optimizer, 16 * n, 1e-12);
    NEAR(r.mem_logits, 1024000.0, 1e-12);
    w.master_bytes = 2, w.mu_bytes = 2, w.nu_bytes = 2, w.loss_chunks = 4;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mem_weights, 2 * n, 1e-12);
    NEAR(r.mem_grads, 2 * n, 1e-12);
    NEAR(r.mem_optimizer, 4 * n, 1e-12);
    NEAR(r.mem_logits, 1024000.0 / 4, 1e-12);
    w = tl_tiny_workload();
    w.mu_bytes = 2;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mem_weights, 2 * n, 1e-12);
    NEAR(r.mem_grads, 4 * n, 1e-12);
    NEAR(r.mem_optimizer, 10 * n, 1e-12);
    /* Adam reads the master, gradient and moments and writes the master,
     * moments and BF16 copy: 2 x 4 + 4 + 2 x 6 + 2 = 26 bytes at 1 TB/s */
    NEAR(r.optimizer_s, 26 * n / 1e12, 1e-9);
}

static void test_step_expert_all_to_all(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    w.experts = 4, w.topk = 2;
    /* TP 1, DP 8, EP 2: m = 1. Per MoE layer 4 all-to-alls of
     * b*s*topk*h*2 = 1024 x 2 x 1024 x 2 = 4,194,304 bytes over 2 GPUs of one
     * domain: half leaves the GPU, 2,097,152 / 100e9 = 2.097152e-5 s;
     * 2 layers x 4 = 8 -> 1.6777216e-4 s. The permutation before and after
     * is element-wise work in compute: the routed tokens read and written
     * by the permute and the un-permute, and with 2 local experts per GPU
     * again by the sort by expert after the all-to-all and its undoing,
     * each way: 2 layers x 2 ways x 4 passes x 2 x 4,194,304 / 1e12 =
     * 1.34217728e-4 s. */
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = 8, .ep = 2, .interleave = 1};
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.comm[STEP_EP].bytes, 4194304.0, 1e-12);
    NEAR(r.part_s[STEP_EP], 1.6777216e-4, 1e-9);
    assert_true(r.ep_permute_s == 0);
    NEAR(r.mb_stream_s, 1.34217728e-4, 1e-9); /* TL_TINY_PARAMS: no other element-wise */
    /* a capacity factor of 1.5: the busiest rank's share sets the pace */
    w.capacity_factor = 1.5;
    StepResult cf = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(cf.part_s[STEP_EP], 1.5 * 1.6777216e-4, 1e-9);
    assert_true(cf.part_s[STEP_COMPUTE] > r.part_s[STEP_COMPUTE]);
    /* the once-per-domain dispatch changes nothing inside one domain ... */
    w.capacity_factor = 0;
    w.ep_dedup = WL_ON;
    StepResult in = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_true(in.ep_dedup && !r.ep_dedup);
    NEAR(in.part_s[STEP_EP], r.part_s[STEP_EP], 1e-15);
    /* and its tokens land sorted by expert: half the permutation traffic */
    NEAR(in.mb_stream_s, 6.7108864e-5, 1e-9);
    /* ... and sends less over the NICs when EP spans two domains of 4: a
     * token's 2 copies reach 1 x (1 - (1/2)^2) = 0.75 other domains on
     * average, against 2 x 1/2 = 1 remote copy */
    Cluster c2 = tl_tiny_cluster(8, 4);
    Mapping m8 = {.tp = 1, .cp = 1, .pp = 1, .dp = 8, .ep = 8, .interleave = 1};
    w.experts = 8;
    StepResult once = tl_eval_ok(&c2, &w, &m8, NULL, &TL_TINY_PARAMS);
    w.ep_dedup = WL_AUTO;
    StepResult plain = tl_eval_ok(&c2, &w, &m8, NULL, &TL_TINY_PARAMS);
    /* 8 all-to-alls of 4,194,304 bytes, half of each to the other domain:
     * 16,777,216 bytes over the NICs plain, a quarter of it fewer once */
    NEAR(plain.tier_bytes[TIER_OUT] - once.tier_bytes[TIER_OUT], 0.25 * 16777216.0, 1e-9);
    assert_true(once.part_s[STEP_EP] < plain.part_s[STEP_EP]);
}

/* A small MoE of one GPU's shape for the dropless tests: `layers` layers
 * of width h, 4 experts of ffn h, top-1, seq tokens, no recompute. */
static Workload small_moe(int layers, int h, int heads, int seq)
{
    Workload w = tl_gpt(layers, h, heads, 1, 1);
    w.seq = seq;
    w.ffn = h;
    w.experts = 4, w.topk = 1;
    w.recompute = WL_RECOMPUTE_NONE;
    return w;
}

/* The same job at 2 and at 4 layers (w.layers is left at 4). */
static void two_and_four_layers(const Cluster *c, Workload *w, const Mapping *m, StepResult *two,
                                StepResult *four)
{
    w->layers = 2;
    *two = tl_eval_ok(c, w, m, NULL, NULL);
    w->layers = 4;
    *four = tl_eval_ok(c, w, m, NULL, NULL);
}

/* A dropless MoE runs its experts as one grouped kernel (kernel.h). One MoE
 * layer, h 1024, 4 experts of ffn 1024 (no SwiGLU), top-1, s 8192 on one
 * chip: each expert is routed T_e = 8192 / 4 = 2,048 tokens.
 * - On Hopper the kernel tiles each expert on its own, 128-row tiles, and
 *   computes half a tile past its tokens on average: 2,048 + 64 = 2,112
 *   rows, the same GEMMs as a capacity of 2,112 / 2,048 = 1.03125, which
 *   pads every expert to 2,112: no difference at all (a capacity of 1
 *   drops to 2,048 rows and is faster).
 * - On TPU7x MaxText's kernel visits a 512-row tile once more for each
 *   expert border inside it, on each of the chip's 2 TensorCores: 2,048 +
 *   1,024 = 3,072 rows, as a capacity of 1.5 pads them, but at 0.67 of the
 *   dense dot's share. Tiles 256 x 256 on 8 MXUs; one tile's unit of work
 *   tu = 2 x 256 x 256 x 8 / (2,307 TFLOP/s x 0.74) s, its fixed work 256
 *   units at the dense rate. Per expert GEMM (up and down alike here):
 *   forward and data gradient 12 x 4 x 4 experts = 192 tiles, 24 waves of
 *   (1,024 K elements + 256) units, dense; grouped 24 x (1,024 / 0.67 + 256);
 *   weight gradient 4 x 4 x 4 = 64 tiles, 8 waves over K = 3,072 rows:
 *   8 x (3,072 + 256) dense, 8 x (3,072 / 0.67 + 256) grouped. The grouped
 *   kernel takes 2 x (2 x 24 x 1,024 + 8 x 3,072) x (1 / 0.67 - 1) =
 *   147,456 x 0.492537 = 72,627.58 tu more: 4.4608e-5 s per micro-batch
 *   (8.7 ns a tu). Every GEMM here is over the roofline's
 *   ridge (the largest moves 67 MB, 10 us, against 26 us of compute). */
static void test_step_dropless_experts_grouped_kernel(void **state)
{
    (void)state;
    Workload w = small_moe(1, 1024, 8, 8192);
    w.swiglu = false;
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = 1, .ep = 1, .interleave = 1};
    Cluster h100 = tl_preset("dgx-h100", 1);
    StepResult dropless = tl_eval_ok(&h100, &w, &m, NULL, NULL);
    w.capacity_factor = 1.03125;
    StepResult padded = tl_eval_ok(&h100, &w, &m, NULL, NULL);
    NEAR(dropless.mb_gemm_s, padded.mb_gemm_s, 1e-12);
    /* a capacity of exactly 1 drops tokens too: 2,048 rows, 16 tiles of
     * 128 per expert, 2 waves over 132 SMs where the 17 tiles take 3 */
    w.capacity_factor = 1;
    StepResult at_one = tl_eval_ok(&h100, &w, &m, NULL, NULL);
    assert_true(at_one.mb_gemm_s < dropless.mb_gemm_s);
    Cluster tpu = tl_preset("tpu7x", 1);
    w.capacity_factor = 0;
    w.framework = WL_FW_JAX;
    dropless = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    w.capacity_factor = 1.5;
    padded = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    double tu = 2.0 * 256 * 256 * 8 / (2307e12 * 0.74);
    NEAR(dropless.mb_gemm_s - padded.mb_gemm_s, 147456.0 * (1 / 0.67 - 1) * tu, 1e-9);
}

/* MaxText's sparse MoE weights each routed copy's expert output in the
 * combine, so backward keeps those outputs (its mlpwo: 2 bytes x h x top-k
 * a token); Megatron-Core weights the activation and keeps none. Four MoE
 * layers, h 1,024, top-1, 8,192 tokens on one TPU7x, every tensor dropped
 * but the layer input (MaxText's custom policy): naming mlpwo keeps
 * 8,192 x 2 x 1,024 = 16,777,216 bytes more a layer, 67,108,864 in all;
 * offloading it sends as much as the input's to the host (all but the two
 * layers' worth that stay on the device: 2 x 16,777,216 for the input
 * alone, twice that with mlpwo); dropping it reruns the experts' second
 * GEMM in backward. Under Megatron the part changes nothing. */
static void test_step_jax_moe_keeps_expert_outputs(void **state)
{
    (void)state;
    Workload w = small_moe(4, 1024, 8, 8192);
    w.swiglu = false;
    w.framework = WL_FW_JAX;
    w.recompute = WL_RECOMPUTE_SELECTIVE;
    int dropped = WL_RC_NORM | WL_RC_MLP_ACT | WL_RC_Q | WL_RC_KV | WL_RC_CORE_ATTN | WL_RC_OPROJ |
                  WL_RC_MLP_IN;
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = 1, .ep = 1, .interleave = 1};
    Cluster tpu = tl_preset("tpu7x", 1);
    w.recompute_mods = dropped;
    StepResult kept = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    w.recompute_mods = dropped | WL_RC_MLP_OUT;
    StepResult redone = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    NEAR(kept.mem_activations - redone.mem_activations, 4 * 16777216.0, 1e-3);
    assert_true(redone.mb_recompute_s > kept.mb_recompute_s);
    w.recompute_mods = dropped;
    w.offload = WL_OFFLOAD_ACTIVATIONS;
    w.act_host = WL_T_INPUT;
    StepResult input_off = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    w.act_host = WL_T_INPUT | WL_T_MLP_OUT;
    StepResult both_off = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    NEAR(input_off.mem_host_bytes, 2 * 16777216.0, 1e-3);
    NEAR(both_off.mem_host_bytes, 4 * 16777216.0, 1e-3);
    w.offload = 0, w.act_host = 0;
    w.framework = WL_FW_MEGATRON;
    Cluster h100 = tl_preset("dgx-h100", 1);
    w.recompute_mods = dropped;
    StepResult mk = tl_eval_ok(&h100, &w, &m, NULL, NULL);
    w.recompute_mods = dropped | WL_RC_MLP_OUT;
    StepResult mr = tl_eval_ok(&h100, &w, &m, NULL, NULL);
    NEAR(mk.mem_activations, mr.mem_activations, 1e-9);
    NEAR(mk.mb_recompute_s, mr.mb_recompute_s, 1e-15);
}

/* A dropless MoE layer under Megatron waits on the host for its routing
 * counts each forward, so it takes at least the host's 7.7 ms per layer and
 * micro-batch to issue (step.c). A small MoE on one H100 (h 256, 4 experts
 * of ffn 256, top-1, 512 tokens) runs each layer's kernels in far less, so
 * two more MoE layers add exactly 2 x 7.7 ms to a micro-batch (2 x 7.7 x
 * 2/3 ms with attention in CUDA graphs); token dropping at a capacity
 * (fixed shapes, no sync), a whole-iteration graph, XLA and eager PyTorch
 * without expert parallelism add only their kernels. */
static void test_step_dropless_moe_host_floor(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 1);
    Workload w = small_moe(2, 256, 4, 512);
    w.framework = WL_FW_MEGATRON;
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = 1, .ep = 1, .interleave = 1};
    StepResult two, four;
    two_and_four_layers(&c, &w, &m, &two, &four);
    NEAR(four.mb_compute_s - two.mb_compute_s, 2 * 7.7e-3, 1e-12);
    assert_true(two.mb_host_wait_s > 0 && four.mb_host_wait_s > two.mb_host_wait_s);
    char why[512];
    step_explain(&c, &w, &m, &four, STEP_COMPUTE, why, sizeof why);
    CONTAINS(why, "waiting on the host, which reads the tokens per expert before each MoE layer");
    NEAR(two.mb_compute_s - two.mb_host_wait_s, two.mb_gemm_s + two.mb_attn_s + two.mb_stream_s,
         1e-9);
    w.capacity_factor = 1;
    StepResult dropped = tl_eval_ok(&c, &w, &m, NULL, NULL);
    assert_true(dropped.mb_host_wait_s == 0 && dropped.mb_compute_s < 0.1 * four.mb_compute_s);
    w.capacity_factor = 0;
    w.framework = WL_FW_JAX;
    StepResult xla = tl_eval_ok(&c, &w, &m, NULL, NULL);
    assert_true(xla.mb_host_wait_s == 0 && xla.mb_compute_s < 0.1 * four.mb_compute_s);
    /* CUDA graphs around attention: the host issues two thirds of a layer;
     * around the whole iteration: nothing */
    w.framework = WL_FW_MEGATRON;
    w.cuda_graphs = WL_GRAPHS_ATTN;
    StepResult g2, g4;
    two_and_four_layers(&c, &w, &m, &g2, &g4);
    NEAR(g4.mb_compute_s - g2.mb_compute_s, 2 * 7.7e-3 * 2.0 / 3.0, 1e-12);
    w.cuda_graphs = WL_GRAPHS_FULL;
    StepResult whole = tl_eval_ok(&c, &w, &m, NULL, NULL);
    assert_true(whole.mb_host_wait_s == 0 && whole.mb_compute_s < 0.1 * four.mb_compute_s);
    /* eager PyTorch's grouped matmul takes its offsets on the device: no
     * wait on one GPU; its all-to-all over EP 2 takes split sizes on the host */
    w.cuda_graphs = WL_GRAPHS_NONE;
    w.framework = WL_FW_PYTORCH;
    StepResult torch1 = tl_eval_ok(&c, &w, &m, NULL, NULL);
    assert_true(torch1.mb_host_wait_s == 0);
    Cluster c2 = tl_preset("dgx-h100", 2);
    Mapping m2 = {.tp = 1, .cp = 1, .pp = 1, .dp = 2, .ep = 2, .interleave = 1};
    w.global_batch = 2;
    StepResult torch2 = tl_eval_ok(&c2, &w, &m2, NULL, NULL);
    assert_true(torch2.mb_host_wait_s > 0);
}

/* Eager PyTorch's SwiGLU multiplies silu(x W1) by x W3 as two ops, so
 * autograd keeps SiLU's output beside the two GEMM outputs: 2 F bytes more
 * per token and layer than a fused kernel (or torch.compile) keeps. Two
 * more layers of the tiny GPT made gated (F 4096, 1,024 tokens, TP 1):
 * 2 x 2 x 4,096 x 1,024 = 16,777,216 bytes more under eager PyTorch than
 * under torch.compile; and no more element-wise time for it. */
static void test_step_eager_swiglu_keeps_silu_output(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 8);
    Workload w = tl_tiny_workload();
    w.swiglu = true;
    w.recompute = WL_RECOMPUTE_NONE;
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = 8, .ep = 1, .interleave = 1};
    double grow[2] = {0, 0}, stream[2] = {0, 0};
    WlFramework fw[2] = {WL_FW_PYTORCH, WL_FW_COMPILE};
    StepResult two, four;
    for (int i = 0; i < 2; i++) {
        w.framework = fw[i];
        two_and_four_layers(&c, &w, &m, &two, &four);
        grow[i] = four.mem_activations - two.mem_activations;
        stream[i] = four.mb_stream_s - two.mb_stream_s;
    }
    NEAR(grow[0] - grow[1], 16777216.0, 1e-12);
    assert_true(stream[0] > stream[1]); /* eager's own passes, counted before */
    /* GPT-style (one GeLU kernel): nothing more kept per layer */
    w.swiglu = false;
    for (int i = 0; i < 2; i++) {
        w.framework = fw[i];
        two_and_four_layers(&c, &w, &m, &two, &four);
        grow[i] = four.mem_activations - two.mem_activations;
    }
    NEAR(grow[0], grow[1], 1e-12);
}

/* The EP exposed under --ep-overlap (ep_pair_s, ep_unpaired_share): a MoE
 * of 4 layers, h 2,048, 8 experts top-2, s 4,096, 8 micro-batches. With EP 8
 * inside one DGX H100 each exchange is shorter than every kernel it pairs
 * with, so only the chunks without a partner show their whole exchange: the
 * first forward and the last backward without pipelining, one micro-batch's
 * worth of the 8 (1/8 of what shows with no overlap); with 4 stages 1F1B
 * warms up 3 forwards and so leaves 4 of 8 unpaired, DualPipe 2 (half the
 * stages). With h 256, 16 experts and EP 16 over two servers (4
 * micro-batches) the kernels shrink 64-fold and the exchange crosses the
 * network: under Megatron's fixed order part of each pair's exchange shows
 * too (0.0016 s against 0.0012); DualPipe still hides it whole, a quarter
 * of the exchange showing. What is not exposed is hidden. Either holds one
 * more micro-batch's activations in flight. */
static void test_step_ep_overlap_pairs(void **state)
{
    (void)state;
    Workload w = tl_gpt(4, 2048, 16, 64, 1);
    w.seq = 4096, w.experts = 8, w.topk = 2, w.ffn = 2048;
    w.recompute = WL_RECOMPUTE_NONE;
    w.framework = WL_FW_MEGATRON;
    Cluster one = tl_preset("dgx-h100", 8), four = tl_preset("dgx-h100", 32);
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = 8, .ep = 8, .interleave = 1};
    const double share[3][2] = {{1.0 / 8, 1.0 / 8}, {4.0 / 8, 2.0 / 8}};
    for (int pp = 0; pp < 2; pp++) {
        Cluster *c = pp ? &four : &one;
        m.pp = pp ? 4 : 1;
        w.ep_overlap = WL_OFF, w.ep_dualpipe = false;
        StepResult off = tl_eval_ok(c, &w, &m, NULL, NULL);
        assert_true(off.part_s[STEP_EP] > 0);
        for (int dp = 0; dp < 2; dp++) {
            w.ep_overlap = WL_ON, w.ep_dualpipe = dp;
            StepResult on = tl_eval_ok(c, &w, &m, NULL, NULL);
            NEAR(on.part_s[STEP_EP], share[pp][dp] * off.part_s[STEP_EP], 1e-9);
            NEAR(on.ep_hidden_s + on.part_s[STEP_EP], off.part_s[STEP_EP], 1e-9);
        }
    }
    w.hidden = 256, w.ffn = 256, w.heads = w.kv_heads = 2, w.experts = 16;
    m.pp = 1, m.dp = 16, m.ep = 16;
    Cluster two = tl_preset("dgx-h100", 16);
    w.ep_overlap = WL_OFF, w.ep_dualpipe = false;
    StepResult off = tl_eval_ok(&two, &w, &m, NULL, NULL);
    w.ep_overlap = WL_ON;
    StepResult megatron = tl_eval_ok(&two, &w, &m, NULL, NULL);
    w.ep_dualpipe = true;
    StepResult dualpipe = tl_eval_ok(&two, &w, &m, NULL, NULL);
    NEAR(dualpipe.part_s[STEP_EP], off.part_s[STEP_EP] / 4, 1e-9);
    assert_true(megatron.part_s[STEP_EP] > 1.05 * dualpipe.part_s[STEP_EP]);
    assert_true(megatron.part_s[STEP_EP] < off.part_s[STEP_EP]);
    /* Megatron-Core pairs the forward's layer i with the backward's last
     * unreleased layer and frees it after the pair: 8 layers on 2 stages,
     * the first stage's 2 micro-batches of 4 layers in flight and one layer
     * more, 9 layers' worth where 1F1B holds 8 (a micro-batch more, 12,
     * would double-count the layers the backward has released) */
    w = tl_gpt(8, 2048, 16, 64, 1);
    w.seq = 4096, w.experts = 8, w.topk = 2, w.ffn = 2048;
    w.recompute = WL_RECOMPUTE_NONE;
    w.framework = WL_FW_MEGATRON;
    Mapping m2 = {.tp = 1, .cp = 1, .pp = 2, .dp = 8, .ep = 8, .interleave = 1};
    w.ep_overlap = WL_OFF, w.ep_dualpipe = false;
    off = tl_eval_ok(&two, &w, &m2, NULL, NULL);
    w.ep_overlap = WL_ON;
    StepResult held = tl_eval_ok(&two, &w, &m2, NULL, NULL);
    NEAR(held.mem_activations - off.mem_activations, off.mem_act_mb / 4, 1e-9);
}

/* A systolic array contracts in whole blocks (kernel.c gemm_s): on TPU7x
 * (256 x 256 MXUs) a K of 2,880 takes twelve 256-wide passes, as long as a
 * K of 3,072, where a GPU's tiles walk K as it is: on H100 the 2,880 GEMM
 * takes (2,880 + k0) / (3,072 + k0) of the 3,072 one, k0 = 256 (the fixed
 * work of a tile), 0.942308. M 8,192 and N 3,072 keep both compute-bound. */
static void test_step_mxu_pads_the_contraction(void **state)
{
    (void)state;
    const char *systems[] = {"tpu7x", "dgx-h100"};
    const double want[] = {1.0, 3136.0 / 3328.0};
    for (int i = 0; i < 2; i++) {
        Cluster c = tl_preset(systems[i], 1);
        KernelCtx k;
        kernel_ctx_init(&k, &c.gpu, 0, KERNEL_XLA, 0);
        double l = k.a.launch_s;
        double narrow = kernel_gemm_s(&k, 8192, 3072, 2880, 1, KERNEL_BF16, 2, 2) - l;
        double wide = kernel_gemm_s(&k, 8192, 3072, 3072, 1, KERNEL_BF16, 2, 2) - l;
        NEAR(narrow / wide, want[i], 1e-9);
    }
}

/* CDNA 3's GEMM rate is AMD's published max-achievable one ("Measuring
 * Max-Achievable FLOPs - Part 2", 2025): 708 TFLOP/s BF16 and 1,273 FP8 on
 * MI300X at 750 W, 843 and 1,519 on MI325X at 1,000 W, the same compute
 * units at a higher held clock. M 4,096 x N 4,864 is 16 x 19 tiles of 256,
 * one whole wave on 304 CUs, and K 32,896 leaves the fixed work of a tile
 * ~1%; AMD's FP8 shape (N 3,648) is a whole wave of 256 x 192 tiles, which
 * the model does not pick, so both precisions are asked at the BF16 shape. */
static void test_step_cdna3_max_achievable(void **state)
{
    (void)state;
    const char *gpus[] = {"mi300x", "mi325x"};
    const double bf16[] = {708e12, 843e12}, fp8[] = {1273e12, 1519e12};
    double f = 2.0 * 4096 * 4864 * 32896;
    for (int i = 0; i < 2; i++) {
        KernelCtx k;
        kernel_ctx_init(&k, hw_gpu_find(gpus[i]), 0, KERNEL_FUSED, 0);
        NEAR(f / kernel_gemm_s(&k, 4096, 4864, 32896, 1, KERNEL_BF16, 2, 2) / bf16[i], 1.0, 0.02);
        NEAR(f / kernel_gemm_s(&k, 4096, 4864, 32896, 1, KERNEL_FP8, 1, 1) / fp8[i], 1.0, 0.02);
    }
}

/* Blackwell Ultra doubles the units that compute the softmax's
 * exponentials, which Blackwell's attention waits on: NVIDIA measures ~35%
 * more attention forward throughput on GB300 than on GB200 (kernel.c). The
 * same shape on both, 185 (batch x heads) x 32 query blocks = 5,920 tiles,
 * whole waves on 148 and on 160 SMs, at the same BF16 peak: forward and
 * backward take 1 / 1.35 as long past the launch, within the share's
 * rounding. */
static void test_step_blackwell_ultra_attention(void **state)
{
    (void)state;
    double t[2][2];
    const char *systems[] = {"gb200-nvl72", "gb300-nvl72"};
    for (int i = 0; i < 2; i++) {
        Cluster c = tl_preset(systems[i], 1);
        KernelCtx k;
        kernel_ctx_init(&k, &c.gpu, 0, KERNEL_FUSED, 0);
        for (int bwd = 0; bwd < 2; bwd++)
            t[i][bwd] =
                kernel_attention_s(&k, 185, 4096, 4096, 128, 128, true, bwd, NULL) - k.a.launch_s;
    }
    NEAR(t[0][0] / t[1][0], 1.35, 0.01);
    NEAR(t[0][1] / t[1][1], 1.35, 0.01);
}

/* Attention's share falls with the head width (kernel_attention_s). Two
 * layers of h 1,024, s 4,096: 8 heads of 128 or 16 of 64, the same FLOPs.
 * On H100 the width term d / (d + 48), against 128 at the share's d = 128:
 * (64 / 112) / (128 / 176) = 0.785714, so the 64-wide heads take 1.272727
 * as long past the launches. A systolic array contracts over the head
 * width: 64 of a TPU's 256 (v6e) or 128 (v5p) rows busy against 128, half
 * as much work a cycle, twice as long. */
static void test_step_attention_head_width(void **state)
{
    (void)state;
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = 1, .ep = 1, .interleave = 1};
    const char *systems[] = {"dgx-h100", "tpu-v6e", "tpu-v5p"};
    const double launch[] = {2e-6, 1e-6, 1e-6}, want[] = {1.272727, 2.0, 2.0};
    for (int i = 0; i < 3; i++) {
        Cluster c = tl_preset(systems[i], 1);
        Workload w = tl_gpt(2, 1024, 8, 1, 1);
        w.seq = 4096;
        w.recompute = WL_RECOMPUTE_NONE;
        w.flash_attention = true;
        w.framework = i ? WL_FW_JAX : WL_FW_MEGATRON;
        StepResult wide = tl_eval_ok(&c, &w, &m, NULL, NULL);
        w.heads = w.kv_heads = 16;
        StepResult narrow = tl_eval_ok(&c, &w, &m, NULL, NULL);
        double l = 2 * 2 * launch[i];
        NEAR((narrow.mb_attn_s - l) / (wide.mb_attn_s - l), want[i], 1e-5);
    }
}

/* Sliding-window attention (kernel_window_keys). Two layers of h 1024, 8
 * heads (q + v width 2,048), s 4096, window 256, on one H100 (128-key
 * blocks): a local query is computed against ceil(256/128) x 128 + 64 = 320
 * keys where a causal one counts 2,048, FLOPs x 0.15625. The kernel's ramp
 * over key blocks, n / (n + 3), is 16/19 at 16 blocks and 2.5/5.5 at 2.5,
 * so each local kernel takes 0.15625 x (16/19) x (5.5/2.5) = 0.289474 of the
 * full one past its 2 us launch (forward and backward alike). On TPU v6e
 * the splash blocks are 1,024: a 128-token window over s 8192 computes
 * 1,024 + 512 = 1,536 keys of 4,096, x 0.375, ramps 32/35 and 12/15: 0.428571.
 * Model FLOPs count the keys a query sees, w - w^2/(2s) = 248 of s/2 = 2,048:
 * a local layer's forward has 2 x 2,048 x (4,096 - 2 x 248) = 14,745,600
 * FLOPs a token fewer than a global one. */
static void test_step_sliding_window_attention(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 1);
    Workload w = tl_gpt(2, 1024, 8, 1, 1);
    w.seq = 4096;
    w.recompute = WL_RECOMPUTE_NONE;
    w.flash_attention = true;
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = 1, .ep = 1, .interleave = 1};
    StepResult full = tl_eval_ok(&c, &w, &m, NULL, NULL);
    w.window = 256;
    StepResult local = tl_eval_ok(&c, &w, &m, NULL, NULL);
    double launches = 2 * 2 * 2e-6;
    NEAR(local.mb_attn_s - launches, 0.289474 * (full.mb_attn_s - launches), 1e-5);
    NEAR(local.mb_gemm_s, full.mb_gemm_s, 1e-12);
    w.global_every = 2; /* one local layer, one global */
    StepResult half = tl_eval_ok(&c, &w, &m, NULL, NULL);
    NEAR(half.mb_attn_s, 0.5 * (full.mb_attn_s + local.mb_attn_s), 1e-12);
    assert_true(workload_layer_is_local(&w, 0) && !workload_layer_is_local(&w, 1));
    NEAR(workload_layer_fwd_flops_per_token(&w, 1) - workload_layer_fwd_flops_per_token(&w, 0),
         14745600.0, 1e-12);
    double per_token = workload_logit_fwd_flops_per_token(&w) +
                       workload_layer_fwd_flops_per_token(&w, 0) +
                       workload_layer_fwd_flops_per_token(&w, 1);
    NEAR(workload_model_flops(&w), 3.0 * per_token * w.global_batch * w.seq, 1e-12);
    w.window = 4096; /* a window as long as the sequence is no window */
    StepResult none = tl_eval_ok(&c, &w, &m, NULL, NULL);
    NEAR(none.mb_attn_s, full.mb_attn_s, 1e-12);
    Cluster tpu = tl_preset("tpu-v6e", 1);
    w.seq = 8192, w.window = 0, w.global_every = 0;
    w.framework = WL_FW_JAX;
    full = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    w.window = 128;
    local = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    launches = 2 * 2 * 1e-6;
    NEAR(local.mb_attn_s - launches, 0.428571 * (full.mb_attn_s - launches), 1e-5);
    w.flash_attention = false; /* unfused attention masks the whole square */
    StepResult unfused = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    w.window = 0;
    StepResult unfused_full = tl_eval_ok(&tpu, &w, &m, NULL, NULL);
    NEAR(unfused.mb_attn_s, unfused_full.mb_attn_s, 1e-12);
    char err[200];
    w.global_every = 2;
    assert_false(workload_check(&w, err, sizeof err));
    assert_non_null(strstr(err, "global-every needs an attention window"));
    w.window = 128, w.global_every = 3; /* more than the 2 layers */
    assert_false(workload_check(&w, err, sizeof err));
}

/* Sequence parallelism (Korthikanti et al. 2022): on by default at TP > 1;
 * off, the replicated 10*s*b*h of each layer is no longer split. Tiny GPT
 * layer (h 1024, s 1024, b 1, t 2, FlashAttention): 34/2 = 17 vs 10 + 24/2 = 22
 * bytes per token and hidden unit. The overlaps hide time and say so. */
static void test_step_seq_parallel_and_overlaps(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    StepResult on = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    w.seq_parallel = WL_OFF;
    StepResult off = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_true(on.seq_parallel && !off.seq_parallel);
    /* no recompute: 2 layers x s*b*h x (17 or 22) + logits 2,048,000 */
    NEAR(on.mem_activations, 2 * 1048576.0 * 17 + 2048000.0, 1e-12);
    NEAR(off.mem_activations, 2 * 1048576.0 * 22 + 2048000.0, 1e-12);
    /* the same bytes either way: RS + AG of S moves what one all-reduce does */
    NEAR(on.part_s[STEP_TP], off.part_s[STEP_TP], 1e-9);
    /* TP overlap: every collective is shorter than the GEMM beside it, so
     * half of it hides (the chunked pipeline's first transfer and last GEMM
     * show); the GEMMs lose the 8% of SMs the communication takes for as
     * long as it runs. */
    w.seq_parallel = WL_AUTO;
    w.tp_overlap = WL_ON;
    StepResult ov = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_true(ov.tp_overlap && !on.tp_overlap);
    NEAR(ov.part_s[STEP_TP], 0.5 * on.part_s[STEP_TP], 1e-9);
    NEAR(ov.tp_hidden_s, 0.5 * on.part_s[STEP_TP], 1e-9);
    NEAR(ov.part_s[STEP_COMPUTE] - on.part_s[STEP_COMPUTE], 0.08 * on.part_s[STEP_TP], 1e-9);
    /* DP overlap off: nothing hidden (TL_TINY_PARAMS already has dp_overlap 0) */
    assert_true(on.dp_overlap);
    w.dp_overlap = WL_OFF;
    assert_false(tl_eval_ok(&c, &w, &m, NULL, NULL).dp_overlap);
}

static void test_step_fp8_and_uneven_stages(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    c.gpu.fp8_flops = 200e12;
    Workload w = tl_tiny_workload();
    w.precision = WL_FP8;
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    /* FP8 only for the linear layers' GEMMs, at 50% of 200 TFLOP/s: all in
     * FP8 would be half the BF16 compute, 3.73360164864e-3 / 2 =
     * 1.86680082432e-3 s. Attention stays BF16: 2 micro-batches x 2 layers
     * x 3 x 4 s h s b / t = 6,442,450,944 FLOP at 50 TFLOP/s instead of 100
     * = 2.57698037760e-4 s more; so does the output layer, 2 x 3 x 2 s h V / t
     * = 6,291,456,000 FLOP: 6.291456e-5 s more. Each FP8 GEMM casts its
     * input and output gradient, ~5 bytes moved per element: per layer
     * 5 x 1024 x (1024 + 1536 + 512 + 1024 + 1024 + 2048 + 2048 + 1024) =
     * 52,428,800 B, x 2 layers x 2 micro-batches at 1 TB/s = 2.097152e-4 s.
     * Total 2.39712862208e-3 s; MFU against the FP8 peak. */
    NEAR(r.part_s[STEP_COMPUTE], 2.39712862208e-3, 1e-9);
    NEAR(r.mfu, 1.493440659456e12 / (r.step_s * 8 * 200e12), 1e-9);
    /* Sequence parallelism under FP8: Transformer Engine gathers the cast
     * input, one byte an element, and reduce-scatters in BF16: per pair
     * 1/2 x 2,097,152 / 100 GB/s + 1/2 x 1,048,576 / 100 GB/s =
     * 1.572864e-5 s where BF16 takes 2.097152e-5; 16 pairs. */
    assert_true(r.seq_parallel);
    NEAR(r.part_s[STEP_TP], 16 * 1.572864e-5, 1e-9);
    /* A GPU without FP8 (A100) refuses an FP8 run, naming the GPU. */
    Cluster a100 = c;
    a100.gpu.fp8_flops = 0;
    char err[200] = "";
    StepResult bad;
    assert_int_equal(step_eval(&a100, &w, &m, NULL, &TL_TINY_PARAMS, &bad, err, sizeof err),
                     STEP_ERR_WORKLOAD);
    assert_non_null(strstr(err, "no FP8"));
    a100.gpu.name = "A100 SXM 80GB";
    assert_int_equal(step_eval(&a100, &w, &m, NULL, &TL_TINY_PARAMS, &bad, err, sizeof err),
                     STEP_ERR_WORKLOAD);
    assert_non_null(strstr(err, "A100 SXM 80GB has no FP8"));
    /* 3 layers over PP 2: the slowest stage holds 2, and says so. */
    w = tl_tiny_workload();
    w.layers = 3;
    Mapping p2 = {.tp = 2, .cp = 1, .pp = 2, .dp = 2, .ep = 1, .interleave = 1};
    r = tl_eval_ok(&c, &w, &p2, NULL, &TL_TINY_PARAMS);
    assert_int_equal(r.layers_per_stage, 2);
    char buf[300];
    step_explain(&c, &w, &p2, &r, STEP_COMPUTE, buf, sizeof buf);
    assert_non_null(strstr(buf, "3 layers over 2 stages: the slowest holds 2"));
}

static void test_step_context_parallel(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    /* CP 2, DP 4: each GPU holds s/2 = 512 tokens of a sequence, whose
     * queries still see all 1024 keys, so its FLOPs are those of TP 2 above:
     * 182,304,768 x 512 = 93,340,041,216 per micro-batch. K and V of the whole
     * sequence are gathered per layer: 2 x b*s*h*(kv/heads) x 2 bytes =
     * 4,194,304 bytes, half of it from the other GPU: 2,097,152 / 100e9 =
     * 2.097152e-5 s; one all-gather forward and one reduce-scatter backward
     * per layer, 2 layers, 2 micro-batches: 8 x 2.097152e-5 = 1.6777216e-4,
     * all of it under the attention kernels (Megatron-Core's ring) of
     * 2 x 3 x 2 x 2 x 512 x 1024 x 1024 x 2 layers FLOP = 5.1539607552e-4 s a
     * micro-batch at 50 TFLOP/s; 8% of SMs lost while it runs. */
    Mapping m = {.tp = 1, .cp = 2, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    NEAR(r.mb_flops, 93340041216.0, 1e-12);
    assert_true(r.cp_s == 0 && r.part_s[STEP_TP] == 0);
    NEAR(r.comm_slowdown_s, 0.08 * 1.6777216e-4, 1e-9);
    /* the exchange is traffic all the same: 4 per micro-batch... */
    NEAR(r.tier_bytes[TIER_UP], 8 * 2097152.0 + r.tier_bytes[TIER_UP] - 8 * 2097152.0, 1e-12);
    /* ... and shows when attention is too short to cover it (1/100 the rate) */
    Cluster slow = c;
    slow.up_bytes_per_s = 1e9;
    StepResult s2 = tl_eval_ok(&slow, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_true(s2.cp_s > 0 && s2.part_s[STEP_TP] == s2.cp_s);
}

static void test_step_errors_and_shortfall(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 2, .ep = 1, .interleave = 1};
    StepResult r;
    char err[200] = "";
    assert_int_equal(step_eval(&c, &w, &m, NULL, NULL, &r, err, sizeof err), STEP_ERR_MAPPING);
    assert_non_null(strstr(err, "but the cluster has 8"));
    m.dp = 4;
    Workload bad = w;
    bad.heads = 3;
    assert_int_equal(step_eval(&c, &bad, &m, NULL, NULL, &r, err, sizeof err), STEP_ERR_WORKLOAD);
    Cluster nc = c;
    nc.up_bytes_per_s = 0;
    assert_int_equal(step_eval(&nc, &w, &m, NULL, NULL, &r, err, sizeof err), STEP_ERR_CLUSTER);
    Placement *p = placement_new(4);
    assert_int_equal(step_eval(&c, &w, &m, p, NULL, &r, err, sizeof err), STEP_ERR_PLACEMENT);
    placement_free(p);
    assert_int_equal(step_eval(NULL, &w, &m, NULL, NULL, &r, err, sizeof err), STEP_ERR_CLUSTER);
    /* 100 MB of HBM cannot hold 283 MB: evaluated, fits = false, shortfall
     * named. */
    c.gpu.hbm_bytes = 100e6;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    assert_false(r.fits);
    assert_true(strncmp(r.bottleneck, "does not fit: needs ", 20) == 0);
    assert_non_null(strstr(r.bottleneck, "more than the"));
}

static void test_step_explain_substitutes_numbers(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    Workload w = tl_tiny_workload();
    Mapping m = {.tp = 2, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1};
    StepResult r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    char buf[300];
    step_explain(&c, &w, &m, &r, STEP_TP, buf, sizeof buf);
    /* sequence parallelism is on by default at TP > 1 */
    assert_non_null(strstr(buf, "TP: 16 reduce-scatter + all-gather pairs"));
    assert_non_null(strstr(buf, "over 2 GPUs in 1 domain"));
    w.seq_parallel = WL_OFF;
    r = tl_eval_ok(&c, &w, &m, NULL, &TL_TINY_PARAMS);
    step_explain(&c, &w, &m, &r, STEP_TP, buf, sizeof buf);
    assert_non_null(strstr(buf, "TP: 16 all-reduces of"));
    step_explain(&c, &w, &m, &r, STEP_COMPUTE, buf, sizeof buf);
    assert_non_null(strstr(buf, "compute: 2 micro-batches x "));
    assert_non_null(strstr(buf, "93.3 GFLOP at 50"));
    step_explain(&c, &w, &m, &r, STEP_PP, buf, sizeof buf);
    assert_string_equal(buf, "PP: none (PP 1)");
    step_explain(&c, &w, &m, &r, STEP_DP, buf, sizeof buf);
    assert_non_null(strstr(buf, "DP: 1 x all-reduce of"));
    assert_non_null(strstr(buf, " each ("));
    assert_string_equal(step_part_name(STEP_BUBBLE), "bubble");
}

/* A 131,072-GPU cluster evaluates with the default placement, again and
 * again, with the same result (how fast is `make bench`'s figure). */
static void test_step_eval_at_131072_gpus_is_repeatable(void **state)
{
    (void)state;
    Cluster c = tl_tiny_cluster(8, 8);
    c.n_gpus = 131072;
    c.gpus_per_leaf = 32;
    Workload w = tl_tiny_workload();
    w.layers = 128;
    w.global_batch = 8192;
    Mapping m = {.tp = 8, .cp = 1, .pp = 16, .dp = 1024, .ep = 1, .interleave = 1};
    StepResult first, r;
    assert_int_equal(step_eval(&c, &w, &m, NULL, NULL, &first, NULL, 0), STEP_OK);
    /* TP 8 sits inside one 8-GPU domain; DP 1024 spans 1024 domains. */
    assert_int_equal(first.span[DIM_TP].domains, 1);
    assert_int_equal(first.span[DIM_DP].domains, 1024);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(step_eval(&c, &w, &m, NULL, NULL, &r, NULL, 0), STEP_OK);
        assert_true(r.step_s == first.step_s);
    }
}

/* A TP group that spans two servers crosses the scale-out network, even when
 * the slower half of its hierarchical all-reduce is the part inside each
 * server: the sentence must not say it stays on the scale-up links. DGX H100
 * preset, 64 GPUs, Llama 3 8B at TP 16 (two servers per group). */
/* One job on a preset with a domain of d GPUs; false when it does not run. */
static bool step_with_domain(Cluster c, int d, const Workload *w, const Mapping *m, StepResult *r)
{
    char err[200];
    c.domain_gpus = d;
    return step_eval(&c, w, m, NULL, NULL, r, err, sizeof err) == STEP_OK;
}

/* A domain of c x D GPUs can be run as c domains of D (NVSwitch or ICI joins
 * any subset), so it is never slower: for every preset, four models, TP, PP
 * and EP degrees on 96 and 128 GPUs, every domain size 1..72 and the preset's
 * own, the step at a multiple of D is at most the step at D. Growing by other
 * amounts can be slower, and truly: TP 8 on 96 GPUs fits 12 domains of 8
 * whole, but 8 domains of 12 hold only 8 whole groups, so four straddle
 * whatever the placement (test_step_gpt3_domain_sizes). */
static void test_step_larger_domain_never_slower(void **state)
{
    (void)state;
    static const char *models[] = {"gpt3-175b", "llama3-8b", "llama3-70b", "deepseek-v3"};
    static const int gpus[] = {96, 128}, tps[] = {1, 2, 4, 8, 16}, pps[] = {1, 4, 12};
    enum { MAX_D = 73 };
    int pairs = 0;
    for (int si = 0; si < hw_system_count(); si++)
        for (size_t mi = 0; mi < sizeof models / sizeof *models; mi++)
            for (size_t ni = 0; ni < 2; ni++)
                for (size_t ti = 0; ti < sizeof tps / sizeof *tps; ti++)
                    for (size_t pi = 0; pi < sizeof pps / sizeof *pps; pi++)
                        for (int ep = 1; ep <= 8; ep *= 8) {
                            Cluster c = tl_preset(hw_system_at(si)->id, gpus[ni]);
                            Workload w = tl_model(models[mi]);
                            char err[200];
                            Mapping m = {tps[ti], 1, pps[pi], 1, ep, 1, 1, 0, 0};
                            if (gpus[ni] % (m.tp * m.pp) != 0)
                                continue;
                            m.dp = gpus[ni] / (m.tp * m.pp);
                            if (c.sites > 1 || !mapping_check(&m, &c, &w, err, sizeof err))
                                continue;
                            /* sizes[MAX_D - 1] is the preset's own domain */
                            double t[MAX_D + 1];
                            int sizes[MAX_D + 1];
                            for (int d = 1; d < MAX_D; d++)
                                sizes[d] = d;
                            sizes[MAX_D] = hw_system_at(si)->domain_gpus;
                            StepResult r;
                            for (int i = 1; i <= MAX_D; i++)
                                t[i] = step_with_domain(c, sizes[i], &w, &m, &r) ? r.step_s : -1;
                            for (int i = 1; i <= MAX_D; i++)
                                for (int j = 1; j <= MAX_D; j++) {
                                    if (sizes[j] <= sizes[i] || sizes[j] % sizes[i] != 0 ||
                                        t[i] < 0 || t[j] < 0)
                                        continue;
                                    pairs++;
                                    if (t[j] > t[i] * (1 + 1e-12)) {
                                        print_error("%s %s x %d TP%d PP%d EP%d: domain %d "
                                                    "%.6g s, domain %d %.6g s\n",
                                                    hw_system_at(si)->id, models[mi], gpus[ni],
                                                    m.tp, m.pp, m.ep, sizes[j], t[j], sizes[i],
                                                    t[i]);
                                        fail();
                                    }
                                }
                        }
    assert_true(pairs > 10000);
}

/* GPT-3 175B, TP 8 PP 12 on 96 A100s. Domains of 8, 16, 24 or 48 hold every
 * TP group whole (8 divides them) and every pipeline still crosses a domain,
 * so the step is the same; one domain of 96 is faster. A domain of 12 holds one group of 8 whole
 * and 4 GPUs over: 8 domains, 12 groups, so at least 4 groups straddle, and the best any placement
 * can do is 4 + 4 (pieces of 4 and 8 are the only ones that fill a 12 exactly): the contiguous
 * default does that. A domain of 9 cannot give every group 4 or more per domain (4s and 8s never
 * sum to 9), so it is slower than 12, and the contiguous default splits one group 8 + 1 | 7
 * (GPUs 8..15 over domains 0 and 1): its lone GPU sends the whole buffer over the NIC, the flat
 * ring. */
static void test_step_gpt3_domain_sizes(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-a100", 96);
    Workload w = tl_model("gpt3-175b");
    w.tp_overlap = WL_OFF; /* the TP collectives themselves, on the critical path */
    Mapping m = {8, 1, 12, 1, 1, 1, 1, 0, 0};
    StepResult r8, r, r9, r12, r1;
    assert_true(step_with_domain(c, 8, &w, &m, &r8));
    assert_int_equal(r8.span[DIM_TP].domains, 1);
    int whole[] = {16, 24, 48};
    for (int i = 0; i < 3; i++) {
        assert_true(step_with_domain(c, whole[i], &w, &m, &r));
        assert_int_equal(r.span[DIM_TP].domains, 1);
        NEAR(r.step_s, r8.step_s, 1e-12);
    }
    /* one domain of 96: the pipeline sends stay on NVLink too */
    assert_true(step_with_domain(c, 96, &w, &m, &r));
    assert_true(r.step_s < r8.step_s);
    assert_true(step_with_domain(c, 12, &w, &m, &r12));
    assert_int_equal(r12.span[DIM_TP].domains, 2);
    assert_int_equal(r12.span[DIM_TP].min_per_domain, 4);
    assert_true(step_with_domain(c, 9, &w, &m, &r9));
    assert_int_equal(r9.span[DIM_TP].domains, 2);
    assert_int_equal(r9.span[DIM_TP].min_per_domain, 1);
    assert_true(step_with_domain(c, 1, &w, &m, &r1));
    assert_true(r8.step_s < r12.step_s);
    assert_true(r12.step_s < r9.step_s);
    /* 8 + 1 | 7 moves the bytes of eight one-GPU domains over the NICs (the
     * flat ring) with fewer network latency steps (at NCCL's Simple-protocol
     * latency for these large buffers): 5% less at most */
    NEAR(r9.part_s[STEP_TP], r1.part_s[STEP_TP], 5e-2);
    assert_true(r9.part_s[STEP_TP] <= r1.part_s[STEP_TP]);
    assert_true(r9.step_s <= r1.step_s);
}

static void test_step_bottleneck_names_the_crossing(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 64);
    Workload w = tl_model("llama3-8b");
    char err[256];
    w.global_batch = 64;
    w.micro_batch = 1;
    Mapping m = {.tp = 16, .cp = 1, .pp = 1, .dp = 4, .ep = 1, .interleave = 1, .zero = 1};
    StepResult r;
    assert_int_equal(step_eval(&c, &w, &m, NULL, NULL, &r, err, sizeof err), STEP_OK);
    assert_int_equal(r.bottleneck_part, STEP_TP);
    assert_int_equal(r.span[DIM_TP].domains, 2);
    assert_null(strstr(r.bottleneck, "scale-up"));
    assert_non_null(strstr(r.bottleneck, "cross the scale-out network"));
    assert_int_equal(r.bottleneck_tier, TIER_OUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_tiny_job_by_hand),
        cmocka_unit_test(test_step_bottleneck_names_the_crossing),
        cmocka_unit_test(test_step_thin_gemms_are_memory_bound),
        cmocka_unit_test(test_step_memory_bound_term_and_overlap),
        cmocka_unit_test(test_step_pipeline_bubble_and_sends),
        cmocka_unit_test(test_step_recompute_and_zero),
        cmocka_unit_test(test_step_remat_policies),
        cmocka_unit_test(test_step_state_dtypes_and_loss_chunks),
        cmocka_unit_test(test_step_expert_all_to_all),
        cmocka_unit_test(test_step_dropless_experts_grouped_kernel),
        cmocka_unit_test(test_step_jax_moe_keeps_expert_outputs),
        cmocka_unit_test(test_step_attention_head_width),
        cmocka_unit_test(test_step_mxu_pads_the_contraction),
        cmocka_unit_test(test_step_cdna3_max_achievable),
        cmocka_unit_test(test_step_blackwell_ultra_attention),
        cmocka_unit_test(test_step_ep_overlap_pairs),
        cmocka_unit_test(test_step_dropless_moe_host_floor),
        cmocka_unit_test(test_step_eager_swiglu_keeps_silu_output),
        cmocka_unit_test(test_step_sliding_window_attention),
        cmocka_unit_test(test_step_fp8_and_uneven_stages),
        cmocka_unit_test(test_step_seq_parallel_and_overlaps),
        cmocka_unit_test(test_step_context_parallel),
        cmocka_unit_test(test_step_errors_and_shortfall),
        cmocka_unit_test(test_step_explain_substitutes_numbers),
        cmocka_unit_test(test_step_eval_at_131072_gpus_is_repeatable),
        cmocka_unit_test(test_step_larger_domain_never_slower),
        cmocka_unit_test(test_step_gpt3_domain_sizes),
    };
    return cmocka_run_group_tests_name("step", tests, NULL, NULL);
}
