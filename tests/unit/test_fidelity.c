/* test_fidelity — the bandwidth model against published measurements, with
 * the one global calibration of step.c (matmuls at 0.71 of peak, 8 bytes of
 * HBM traffic per activation byte for memory-bound layers) and the presets of
 * hw.c. Tolerances are stated per case. Figures below: source value, model
 * value, error (regenerate by running this program with SCALELAB_FIDELITY=1).
 *
 * 1. Megatron SC21 Table 1 (Narayanan et al. 2021), DGX A100 (8 x 200 Gb/s
 *    HDR per node), s 2048, V 51200, full recompute; TP, PP, GPUs, batch from
 *    the paper, micro-batch and interleaving from NVIDIA/Megatron-LM
 *    examples/sc21/run_table_1.sh. Hardware teraFLOP/s per GPU (Eq. 3),
 *    tolerance +-15% each:
 *      model   TP PP  GPUs batch mb v   paper  model   error
 *      1.7B     1  1    32   512 16 1    137   135.5   -1.1%
 *      3.6B     2  1    64   512 16 1    138   137.0   -0.8%
 *      7.5B     4  1   128   512 16 1    142   141.0   -0.7%
 *      18.4B    8  1   256  1024  8 1    135   135.8   +0.6%
 *      39.1B    8  2   512  1536  4 1    138   134.6   -2.5%
 *      76.1B    8  4  1024  1792  2 3    140   142.9   +2.1%
 *      145.6B   8  8  1536  2304  2 2    148   147.0   -0.7%
 *      310.1B   8 16  1920  2160  1 2    155   156.6   +1.1%
 *      529.6B   8 35  2520  2520  1 3    163   165.0   +1.2%
 *      1008B    8 64  3072  3072  1 1    163   159.5   -2.2%
 *
 * 2. SC21 §5.4.1, Fig. 13: GPT 162.2B (32 layers, h 20480, 128 heads) on 64
 *    A100, TP x PP = 64, micro-batch 1 (examples/sc21/run_figure_13.sh). The
 *    paper: TP 8 (one node) is best, TP 16 and 32 spill across nodes and are
 *    worse. Model, teraFLOP/s per GPU:
 *      batch   TP2    TP4    TP8    TP16   TP32
 *        32   89.6  124.6  145.2  135.0  105.6
 *       128  142.2  164.2  168.3  144.6  108.3
 *    Asserted: TP 8 best; TP 16 at least 5% and TP 32 at least 20% below it.
 *    The model's TP 16 penalty (7% and 14%) is milder than the paper's bars
 *    suggest: with hierarchical all-reduce only S/8 crosses the NICs.
 *
 * 3. SC21 §5.4.3, Fig. 15: GPT 5.9B (32 layers, h 3840, 32 heads) on 64
 *    A100, TP x DP = 64, micro-batch 1 (run_figure_15.sh). Going from TP 8 to
 *    TP 16 (across two nodes) roughly halves throughput. Model:
 *      batch   TP2    TP4    TP8   TP16   TP32   TP16/TP8
 *        32  109.1   84.9   63.1   42.8   24.0     0.68
 *       128  128.1  102.5   74.1   44.4   24.1     0.60
 *       512  133.9  108.1   77.5   44.9   24.1     0.58
 *    (the paper's curve falls from about 125 to about 25 over TP 2..32).
 *    Asserted: TP16/TP8 in [0.40, 0.70].
 *
 * 4. Bubble law (SC21 §2.2): throughput is proportional to
 *    1 / (1 + (p-1)/(v*m)). GPT 64 layers h 8192 on 32 A100, TP 8 PP 4 DP 1:
 *      m 4 -> m 16, v 1: law 1.4737, model 1.4891 (+1.0%)
 *      v 1 -> v 2 at m 4: law 1.2727, model 1.2649 (-0.6%)
 *    Tolerance 3% (the per-step optimizer time does not shrink with m).
 *
 * 5. NCCL (nccl-tests PERFORMANCE.md; maintainers in NVIDIA/nccl-tests#212):
 *    ring busbw independent of the group size and about 80% of NVLink line
 *    rate for large messages. 8 GB all-reduce on the dgx-h100 preset:
 *      n = 2: 366 GB/s (81.3%), n = 4: 367 (81.6%), n = 8: 367 (81.6%) of
 *      450 GB/s; source 370 GB/s. Asserted: 75-85% and within 1% of each other.
 *
 * 6. The seeds' rules (../shared/seeds):
 *    a. Llama 3 70B on 144 GB200 (two NVL72 racks), TP 8 x DP 18: moving
 *       half of one TP group into the other rack takes the step from 2.05 s
 *       to 2.89 s (1.41x). Asserted: at least 1.25x slower.
 *    b. The same job with DP spread over both racks versus (hypothetically)
 *       one 144-GPU domain: 2.047 s both (DP hides behind backward).
 *       Asserted: at most 5% slower.
 *    c. DeepSeek-V3 on 1024 GPUs, TP 1 PP 16 DP 64 EP 64: inside NVL72 racks
 *       (64 of the 72 GPUs of each rack in use, so an EP group is one rack)
 *       12.05 s per step; over 8-GPU DGX B200 servers with 400 Gb/s NICs
 *       44.31 s (3.68x). Asserted: at least 2x faster in the racks.
 *
 * 7. SC21 Table 2, ZeRO-3 without model parallelism (DeepSpeed): GPT-3
 *    175B, batch 1536 fixed, micro-batch 4 / 2 / 1 on 384 / 768 / 1536 A100,
 *    full recompute; hardware teraFLOP/s per GPU:
 *      GPUs  paper  model (DeepSpeed 2021)  error   model (defaults)
 *       384   144        148.6              +3.2%        199.8
 *       768    88        109.6             +24.6%        199.8
 *      1536    44         63.1             +43.3%        174.8
 *    The physics: a ZeRO-3 gather is an NCCL ring over the whole DP group,
 *    whose latency is n-1 steps (1,344 NVLink + 191 network steps at 1,536
 *    GPUs, collective.c), while compute per GPU halves with each doubling at
 *    fixed batch. What makes it collapse is the software of the time, given
 *    as two documented parameters, not fitted: DeepSpeed gathered each
 *    parameter with its own all_gather (partition_parameters.py
 *    _allgather_param; 12 tensors per GPT layer, 4,608 collectives per step)
 *    and waited for it before the module ran (dp_overlap 0). Asserted: each
 *    doubling at least 15% slower per GPU, 1536 at most half of 384 (paper
 *    0.31, model 0.42), 384 within 15%, every row within -15% / +50%; with
 *    the defaults (FSDP: one flat parameter per layer, prefetched) at least
 *    5% slower at 1536 than at 384. Not reached: the paper's full collapse.
 *    With NCCL's Simple-protocol step latencies (3.4 us NVLink, 14 us
 *    network, tuning.cc) instead of the presets' LL128 ones the three rows
 *    come to 140 / 94 / 45 (-3% / +6% / +3%), but which protocol NCCL chose
 *    for these gathers is not confirmed, so the presets keep LL128.
 *
 * 8. Llama 3 405B on 8K and 16K H100s: see test_fidelity_llama3_405b.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/step.h"

static bool verbose(void)
{
    const char *v = getenv("SCALELAB_FIDELITY");
    return v && *v == '1';
}

static Cluster preset(const char *system, int gpus)
{
    Cluster c;
    char err[200] = "";
    if (!cluster_from_system(&c, system, gpus, err, sizeof err)) {
        print_error("cluster %s x %d: %s\n", system, gpus, err);
        fail();
    }
    return c;
}

static Workload megatron_gpt(int layers, int hidden, int heads, int batch, int mb)
{
    Workload w = {.id = "sc21",
                  .layers = layers,
                  .hidden = hidden,
                  .heads = heads,
                  .kv_heads = heads,
                  .ffn = 4 * hidden,
                  .seq = 2048,
                  .vocab = 51200,
                  .global_batch = batch,
                  .micro_batch = mb,
                  .recompute = WL_RECOMPUTE_FULL,
                  .precision = WL_BF16,
                  .flash_attention = false};
    return w;
}

static StepResult eval_ok(const Cluster *c, const Workload *w, const Mapping *m,
                          const Placement *p)
{
    StepResult r;
    char err[200] = "";
    if (step_eval(c, w, m, p, NULL, &r, err, sizeof err) != STEP_OK) {
        print_error("step_eval: %s\n", err);
        fail();
    }
    return r;
}

static double sc21_hw_tflops(int layers, int hidden, int heads, int tp, int pp, int gpus,
                             int batch, int mb, int v)
{
    Cluster c = preset("dgx-a100", gpus);
    Workload w = megatron_gpt(layers, hidden, heads, batch, mb);
    Mapping m = {.tp = tp, .cp = 1, .pp = pp, .dp = gpus / (tp * pp), .ep = 1, .interleave = v};
    return eval_ok(&c, &w, &m, NULL).hw_tflops_per_gpu;
}

static void test_fidelity_sc21_table1(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int heads, hidden, layers, tp, pp, gpus, batch, mb, v;
        double paper;
    } rows[] = {
        {"1.7B", 24, 2304, 24, 1, 1, 32, 512, 16, 1, 137},
        {"3.6B", 32, 3072, 30, 2, 1, 64, 512, 16, 1, 138},
        {"7.5B", 32, 4096, 36, 4, 1, 128, 512, 16, 1, 142},
        {"18.4B", 48, 6144, 40, 8, 1, 256, 1024, 8, 1, 135},
        {"39.1B", 64, 8192, 48, 8, 2, 512, 1536, 4, 1, 138},
        {"76.1B", 80, 10240, 60, 8, 4, 1024, 1792, 2, 3, 140},
        {"145.6B", 96, 12288, 80, 8, 8, 1536, 2304, 2, 2, 148},
        {"310.1B", 128, 16384, 96, 8, 16, 1920, 2160, 1, 2, 155},
        {"529.6B", 128, 20480, 105, 8, 35, 2520, 2520, 1, 3, 163},
        {"1008B", 160, 25600, 128, 8, 64, 3072, 3072, 1, 1, 163},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double got =
            sc21_hw_tflops(rows[i].layers, rows[i].hidden, rows[i].heads, rows[i].tp, rows[i].pp,
                           rows[i].gpus, rows[i].batch, rows[i].mb, rows[i].v);
        double err = got / rows[i].paper - 1;
        if (verbose())
            printf("table1 %-7s paper %5.0f model %6.1f %+5.1f%%\n", rows[i].name, rows[i].paper,
                   got, 100 * err);
        if (fabs(err) > 0.15) {
            print_error("SC21 Table 1 %s: model %.1f TFLOP/s, paper %.0f (%+.1f%%)\n",
                        rows[i].name, got, rows[i].paper, 100 * err);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* SC21 Table 2, ZeRO-3 without model parallelism: GPT-3 175B, batch 1536
 * fixed, on 384 / 768 / 1536 A100 with micro-batch 4 / 2 / 1 (one
 * micro-batch per GPU). */
static double sc21_zero3_tflops(int gpus, const StepParams *params)
{
    Cluster c = preset("dgx-a100", gpus);
    Workload w = megatron_gpt(96, 12288, 96, 1536, 1536 / gpus);
    Mapping m = {.tp = 1, .cp = 1, .pp = 1, .dp = gpus, .ep = 1, .interleave = 1, .zero = 3};
    StepResult r;
    char err[200] = "";
    if (step_eval(&c, &w, &m, NULL, params, &r, err, sizeof err) != STEP_OK) {
        print_error("step_eval: %s\n", err);
        fail();
    }
    return r.hw_tflops_per_gpu;
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
    Cluster c = preset("dgx-a100", 32);
    Workload w = megatron_gpt(64, 8192, 64, batch, 1);
    Mapping m = {.tp = 8, .cp = 1, .pp = 4, .dp = 1, .ep = 1, .interleave = v};
    return eval_ok(&c, &w, &m, NULL).tokens_per_s;
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
    Cluster c = preset("dgx-h100", 8);
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
    Cluster c = preset("gb200-nvl72", 144);
    Workload w = workload_preset_find("llama3-70b")->w;
    w.global_batch = 18 * 4;
    Mapping m = {.tp = 8, .cp = 1, .pp = 1, .dp = 18, .ep = 1, .interleave = 1};
    StepResult inside = eval_ok(&c, &w, &m, NULL);
    /* Move ranks 4..7 of TP group 0 into the second rack (GPUs 72..75). */
    Placement *p = placement_new(144);
    for (int i = 4; i < 8; i++)
        assert_true(placement_swap_gpus(p, i, 72 + i - 4));
    StepResult split = eval_ok(&c, &w, &m, p);
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
    StepResult dp_one = eval_ok(&one, &w, &m, NULL);
    if (verbose())
        printf("seeds DP: two racks %.3f s, one domain %.3f s\n", inside.step_s, dp_one.step_s);
    assert_true(inside.step_s <= 1.05 * dp_one.step_s);
    assert_true(inside.span[DIM_DP].domains == 2);
}

static void test_fidelity_seeds_moe_in_racks(void **state)
{
    (void)state;
    Workload w = workload_preset_find("deepseek-v3")->w;
    Mapping m = {.tp = 1, .cp = 1, .pp = 16, .dp = 64, .ep = 64, .interleave = 1};
    Cluster rack = preset("gb200-nvl72", 1024);
    rack.domain_gpus = 64; /* 64 of each rack's 72 GPUs train, 8 are spares */
    Cluster servers = preset("dgx-b200", 1024);
    StepResult r = eval_ok(&rack, &w, &m, NULL);
    StepResult s = eval_ok(&servers, &w, &m, NULL);
    if (verbose())
        printf("seeds MoE: NVL72 %.2f s, DGX B200 %.2f s (%.2fx): %s\n", r.step_s, s.step_s,
               s.step_s / r.step_s, s.bottleneck);
    assert_int_equal(r.span[DIM_EP].domains, 1);
    assert_int_equal(s.span[DIM_EP].domains, 8);
    assert_true(s.step_s >= 2.0 * r.step_s);
    assert_int_equal(s.bottleneck_part, STEP_EP);
}

/* Llama 3 405B (Llama 3 paper, Table 4): 126 layers on DGX-H100-class
 * servers (8 GPUs, 400 Gb/s per GPU), TP 8, PP 16, ZeRO-2-style gradient
 * sharding, 16M tokens per step; model FLOPs (the paper's MFU counts no
 * recomputation). The paper does not give its number of virtual pipeline
 * stages; 4 is assumed here. Model TFLOP/s per GPU (paper / model / error):
 *   8,192 GPUs, DP 64, seq 8K, 2048 seqs:          430 / 441.3 / +2.6%
 *   16,384 GPUs, DP 128, seq 8K, 2048 seqs:        400 / 392.7 / -1.8%
 *   16,384 GPUs, CP 16, DP 8, seq 128K, 128 seqs:  380 / 399.4 / +5.1%
 * Never used for calibration. Asserted: each within 15%, and the paper's
 * ordering of the two 8K runs (more DP, fewer micro-batches each: slower). */
static void test_fidelity_llama3_405b(void **state)
{
    (void)state;
    static const struct {
        int gpus, cp, dp, seq, batch;
        double paper;
    } rows[3] = {
        {8192, 1, 64, 8192, 2048, 430},
        {16384, 1, 128, 8192, 2048, 400},
        {16384, 16, 8, 131072, 128, 380},
    };
    double got[3];
    for (int i = 0; i < 3; i++) {
        Cluster c = preset("dgx-h100", rows[i].gpus);
        Workload w = workload_preset_find("llama3-405b")->w;
        w.seq = rows[i].seq;
        w.global_batch = rows[i].batch;
        w.micro_batch = 1;
        Mapping m = {.tp = 8, .cp = rows[i].cp, .pp = 16, .dp = rows[i].dp, .ep = 1,
                     .interleave = 4, .zero = 2};
        got[i] = eval_ok(&c, &w, &m, NULL).tflops_per_gpu;
        if (verbose())
            printf("llama3-405b %5d GPUs CP %2d: paper %3.0f, model %6.1f (%+5.1f%%)\n",
                   rows[i].gpus, rows[i].cp, rows[i].paper, got[i],
                   100 * (got[i] / rows[i].paper - 1));
        assert_true(fabs(got[i] / rows[i].paper - 1) <= 0.15);
    }
    assert_true(got[1] < got[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fidelity_sc21_table1),
        cmocka_unit_test(test_fidelity_llama3_405b),
        cmocka_unit_test(test_fidelity_sc21_zero3_collapses),
        cmocka_unit_test(test_fidelity_sc21_tensor_vs_pipeline),
        cmocka_unit_test(test_fidelity_sc21_tensor_vs_data),
        cmocka_unit_test(test_fidelity_bubble_law),
        cmocka_unit_test(test_fidelity_ring_busbw),
        cmocka_unit_test(test_fidelity_seeds_tp_across_domains),
        cmocka_unit_test(test_fidelity_seeds_moe_in_racks),
    };
    return cmocka_run_group_tests_name("fidelity", tests, NULL, NULL);
}
