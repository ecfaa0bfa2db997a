/* SPDX-License-Identifier: MIT */
/* kernel — GEMM, attention and streaming-kernel time per architecture; the
 * formulas are in kernel.h.
 *
 * The table below has one row per architecture. Tiles: the output tile of
 * the library kernel that large BF16 GEMMs run (cuBLAS/CUTLASS: 256 x 128
 * on Ampere, 128 x 256 warp-specialized on Hopper, a 256 x 256 pair of SMs,
 * i.e. 128 x 256 per SM, on Blackwell; CUTLASS 3.x profiler defaults, the
 * NVIDIA GEMM guide's ch. 3 examples) [R]. k0: a tile's prologue and
 * epilogue (loading the pipeline, writing the output tile) take about the
 * time of 128-256 K elements of its main loop; Calculon's A100 efficiency
 * table (0.6 of peak near 1 GFLOP, 0.9 above 16 GFLOP, MODEL-FACTS §4.4)
 * is matched by k0 = 128 on Ampere [D]; Hopper's and Blackwell's main loops
 * are 3.2x and 7x as fast per SM for similar epilogues, so k0 = 256 [U].
 * k0 is work at the BF16 rate in every precision (the pipeline's fill and
 * the BF16 output tile's write do not speed up with FP8 inputs).
 * launch: 2 us per kernel (Calculon's table again [D]). hbm_share: STREAM-
 * like kernels reach ~90% of the HBM peak (NVIDIA's nvbandwidth and
 * BabelStream figures quoted in MODEL-FACTS §1.1 terms) [S].
 *
 * Shares, the one calibration per architecture, each on the named tuning
 * runs only (tests/fidelity/cases.tsv marks them TUNED; nothing else chose
 * a number):
 *   ampere      Megatron SC21 Table 1 (10 runs of 1.7B-1T GPT on DGX A100)
 *   hopper      Llama 3 405B on 8,192 H100 (Llama 3 paper Table 4, BF16);
 *               FP8: NeMo 24.07 GPT-3 175B on 512 H100 (the torchtitan rows,
 *               also TUNED, chose no share: they fit the eager stack's
 *               element-wise passes and the TP overlap, layer.c and step.c)
 *   blackwell   Megatron-Bridge 25.11 Llama 3 8B FP8 on 8 GB200 and
 *               DeepSeek-V3 BF16 on 256 GB200
 *   blackwell-ultra  the same two rows on GB300
 *   tpu-v6e     MaxText Llama 3 8B on 64 v6e (tpu-recipes; its 70B on 32
 *               chips lands at the same share: 0.67 either way)
 *   other TPUs  only the dropless MoE's grouped kernel (TPU_GMM_SHARE below):
 *               MaxText DeepSeek-V3 BF16 on 256 TPU7x
 * Attention shares are the papers' and not tuned: FlashAttention-2 reaches
 * 50-73% of the A100 peak forward (Dao 2023, abstract), its backward about
 * 0.85 of that; FlashAttention-3 / cuDNN reach ~66% forward on H100 at head
 * width 128 (Shah et al. 2024 §4: 640-660 TFLOP/s of 989), backward ~0.8 of
 * it; FlashAttention-2 on H100 ~35% forward and about the same backward
 * (the same paper's FlashAttention-2 bars, 330-350 TFLOP/s), FlashAttention-1
 * ~20% (its A100 share over the 3.2x peak). On B200 FlashAttention-4 reaches 71% of the BF16
 * peak forward, up to 1.3x cuDNN 9.13 (Zadouri et al. 2025, abstract), so cuDNN, which the
 * frameworks of 2025 call, ~55% [S]. Blackwell's forward waits on the exponentials of the
 * softmax, not the tensor cores (the same paper); Blackwell Ultra doubles the units that
 * compute them, and NVIDIA measures ~35% more attention forward throughput than GB200 on
 * DeepSeek-V3's shapes in FP8 ("Making Softmax More Efficient with NVIDIA Blackwell Ultra",
 * 2026) [S]: 0.55 x 1.35 = ~74%, taken for BF16 too, whose forward is bound the same way;
 * backward keeps its 0.8 of forward, since it computes the exponentials again. CDNA 3
 * (MI300X, MI325X) is not tuned either: AMD publishes the clock its GPUs hold under
 * hipBLASLt's dense GEMMs (GpuSpec.dense_clock) and what the GEMM reaches at it, 708
 * TFLOP/s BF16 and 1,273 FP8 on MI300X at 1,207 MHz ("Measuring Max-Achievable FLOPs -
 * Part 2", 2025) [P]: 94% and 85% of the peaks at that clock [D], taken as its shares (a
 * training run's large GEMMs reach about what the library's best shape does, as the tuned
 * Hopper share sits close to cuBLAS's own large-GEMM rate [U]); its attention shares
 * are the guesses they were of the quoted peak, now of the dense clock's (0.45 / 0.575)
 * [U]. CDNA 4 and 5, TPUs other than v6e and Trainium have no tuning run for their dense
 * shares: those are stated guesses [U] checked against the held-out runs, never tuned on
 * them.
 */
#include "model/kernel.h"

#include <math.h>
#include <string.h>

/* A dropless MoE runs its experts as one grouped kernel over the tokens as
 * routed (MegaBlocks, Gale et al. 2022). Its tiles end at the experts'
 * borders, so it computes rows past each expert's tokens (gmm_pad_rows, per
 * expert and chip): CUTLASS's and Transformer Engine's grouped GEMMs tile
 * each expert on its own and leave half of the last 128-row tile (256 on
 * Ampere and AMD) empty on average [D]; the TPU kernels MaxText runs
 * (megablox, tokamax's ragged_dot, whose group metadata computes a whole
 * tile for each border inside it) visit one 512-row tile more per expert
 * (MaxText base.yml, wi_/wo_tile_*_batch_seq) on each TensorCore that is a
 * device of its own, two on TPU7x (v5p's pair is one megacore device) [R].
 * On GPUs the grouped kernel keeps the dense share: MegaBlocks' block-sparse
 * kernels run close to cuBLAS's batched GEMM on that paper's benchmarks
 * [S]. On TPUs the Pallas kernel reaches 0.67 of XLA's dense dot [U; tuned
 * on one run, MaxText's DeepSeek-V3 BF16 on 256 TPU7x, cases.tsv R493,
 * TUNED], in line with a coarse MoE layer reaching half the v5p peak under
 * it (50.4% MFU, MaxText issue #1256) [S]. With a capacity factor every expert
 * is padded to the capacity and the experts run as a dense batched GEMM. */
#define TPU_GMM_SHARE 0.67

/* Columns: arch, library, tile m x n, k0, BF16 and FP8 GEMM shares, the
 * fused stack's attention (forward share, backward / forward), FlashAttention-2
 * and -1 (the same), launch, HBM share, compiled only, what the shares rest on,
 * the grouped kernel's share and pad rows, and the attention block: 128 query
 * rows and keys on GPUs (FlashAttention-2 and -3's tiles, Dao 2023 and Shah et
 * al. 2024) [D]; 1,024 on TPU v6e and TPU7x (the splash-attention blocks
 * sa_block_q and sa_block_kv the tpu-recipes and MaxText's Trillium configs
 * set), 512 on v5p (MaxText base.yml's default) [R]; 128 on AMD and Trainium [U]. */
// clang-format off
static const KernelArch archs[] = {
    {"ampere", "cuBLAS 256x128 tiles", 256, 128, 128, 0.76, 0, 0.70, 0.85, 0.70, 0.85, 0.37, 0.68,
     2e-6, 0.90, false, "SC21 Table 1", 1.0, 128, 128},
    {"hopper", "cuBLAS 128x256 tiles", 128, 256, 256, 0.74, 0.62, 0.64, 0.80, 0.355, 0.97, 0.20,
     0.68, 2e-6, 0.90, false, "Llama 3 405B, NeMo GPT-3 FP8", 1.0, 64, 128},
    {"blackwell", "cuBLAS 256x256 SM-pair tiles", 128, 256, 256, 0.66, 0.60, 0.55, 0.80, 0.175,
     0.97, 0.098, 0.68, 2e-6, 0.90, false, "Megatron-Bridge 25.11 on GB200", 1.0, 64, 128},
    {"blackwell-ultra", "cuBLAS 256x256 SM-pair tiles", 128, 256, 256, 0.68, 0.66, 0.74, 0.80,
     0.175, 0.97, 0.098, 0.68, 2e-6, 0.90, false, "Megatron-Bridge 25.11 on GB300", 1.0, 64, 128},
    {"rubin", "as Blackwell Ultra", 128, 256, 256, 0.68, 0.66, 0.74, 0.80, 0.175, 0.97, 0.098,
     0.68, 2e-6, 0.90, false, "Blackwell Ultra's [U]", 1.0, 64, 128},
    {"cdna3", "hipBLASLt 256x256 tiles", 256, 256, 256, 0.94, 0.85, 0.78, 0.80, 0.78, 0.80, 0.52,
     0.68, 3e-6, 0.85, false, "AMD's max-achievable FLOPs", 1.0, 128, 128},
    {"cdna4", "hipBLASLt 256x256 tiles", 256, 256, 256, 0.62, 0.58, 0.50, 0.80, 0.50, 0.80, 0.30,
     0.68, 3e-6, 0.85, false, "not tuned [U]", 1.0, 128, 128},
    {"cdna5", "hipBLASLt 256x256 tiles", 256, 256, 256, 0.62, 0.58, 0.50, 0.80, 0.50, 0.80, 0.30,
     0.68, 3e-6, 0.85, false, "not tuned [U]", 1.0, 128, 128},
    {"tpu-v5p", "XLA on 128x128 MXUs", 128, 128, 128, 0.80, 0.80, 0.55, 0.80, 0.55, 0.80, 0.55,
     0.80, 1e-6, 0.90, true, "not tuned [U]", TPU_GMM_SHARE, 512, 512},
    {"tpu-v6e", "XLA on 256x256 MXUs", 256, 256, 256, 0.67, 0.67, 0.55, 0.80, 0.55, 0.80, 0.55,
     0.80, 1e-6, 0.90, true, "MaxText Llama 3 8B on 64 v6e", TPU_GMM_SHARE, 512,
     1024},
    {"tpu7x", "XLA on 256x256 MXUs", 256, 256, 256, 0.74, 0.70, 0.55, 0.80, 0.55, 0.80, 0.55, 0.80,
     1e-6, 0.90, true, "not tuned [U]", TPU_GMM_SHARE, 1024, 1024},
    {"trainium2", "NKI on 128x128 tensor engines", 128, 128, 128, 0.60, 0.55, 0.45, 0.80, 0.45,
     0.80, 0.45, 0.80, 2e-6, 0.85, true, "not tuned [U]", 1.0, 64, 128},
};
// clang-format on

#define N_ARCHS ((int)(sizeof archs / sizeof archs[0]))

static const KernelArch *find_arch(const GpuSpec *g)
{
    if (g && g->arch)
        for (int i = 0; i < N_ARCHS; i++)
            if (strcmp(archs[i].arch, g->arch) == 0)
                return &archs[i];
    return NULL;
}

const KernelArch *kernel_arch(const GpuSpec *g)
{
    const KernelArch *a = find_arch(g);
    return a ? a : &archs[1];
}

bool kernel_arch_known(const GpuSpec *g)
{
    return find_arch(g) != NULL;
}

/* The static share of board power: leakage and the memory system draw
 * about a quarter of a GPU's power at full load [U]. */
#define STATIC_POWER_SHARE 0.25

double kernel_clock_at_power(const GpuSpec *g, double cap_w)
{
    double dense = g && g->dense_clock > 0 ? g->dense_clock : 1.0;
    if (!g || !(g->tdp_w > 0) || !(cap_w > 0) || cap_w >= g->tdp_w)
        return dense;
    double p0 = STATIC_POWER_SHARE * g->tdp_w;
    double dyn = (cap_w - p0) / (g->tdp_w - p0);
    return dense * (dyn > 0.05 ? cbrt(dyn) : cbrt(0.05));
}

/* The reciprocals kernel_gemm_s multiplies by. */
static void kernel_ctx_reciprocals(KernelCtx *k)
{
    k->inv_tile_m = 1.0 / k->a.tile_m;
    k->inv_tile_n = 1.0 / k->a.tile_n;
    k->inv_sms = 1.0 / k->sms;
    k->inv_hbm_bps = k->hbm_bps > 0 ? 1.0 / k->hbm_bps : 0;
}

const char *kernel_stack_name(KernelStack s)
{
    static const char *const names[] = {"fused", "eager", "compiled", "xla"};
    return s >= KERNEL_FUSED && s <= KERNEL_XLA ? names[s] : "?";
}

void kernel_ctx_init(KernelCtx *k, const GpuSpec *g, double power_cap_w, KernelStack stack,
                     int flash_version)
{
    const KernelArch *a = kernel_arch(g);
    k->a = *a;
    k->sms = g->sms > 0 ? g->sms : 100;
    k->clock = kernel_clock_at_power(g, power_cap_w);
    k->peak[KERNEL_BF16] = g->bf16_flops * k->clock;
    k->peak[KERNEL_FP8] = (g->fp8_flops > 0 ? g->fp8_flops : g->bf16_flops) * k->clock;
    double share8 = a->share_fp8 > 0 ? a->share_fp8 : a->share_bf16;
    double per_tile = 2.0 * a->tile_m * a->tile_n;
    k->tile_s[KERNEL_BF16] = per_tile * k->sms / (k->peak[KERNEL_BF16] * a->share_bf16);
    k->tile_s[KERNEL_FP8] = per_tile * k->sms / (k->peak[KERNEL_FP8] * share8);
    k->tile_fixed_s = a->tile_k0 * k->tile_s[KERNEL_BF16];
    for (int p = 0; p < 2; p++)
        k->gmm_tile_s[p] = k->tile_s[p] / (a->gmm_share > 0 ? a->gmm_share : 1.0);
    /* PyTorch's SDPA runs FlashAttention-2 (eager and compiled alike); the
     * fused stack and XLA the chip's best */
    int v = flash_version;
    if (v < 1 || v > 3)
        v = stack == KERNEL_EAGER || stack == KERNEL_COMPILED ? 2 : 3;
    const double fwd[4] = {0, a->fa1_share, a->fa2_share, a->attn_share};
    const double bwd[4] = {0, a->fa1_bwd, a->fa2_bwd, a->attn_bwd};
    k->attn_flops = k->peak[KERNEL_BF16] * fwd[v];
    k->attn_bwd = bwd[v];
    k->hbm_bps = g->hbm_bytes_per_s * a->hbm_share;
    k->stack = stack;
    k->flat = false;
    kernel_ctx_reciprocals(k);
}

void kernel_ctx_flat(KernelCtx *k, const GpuSpec *g, double share, double launch_s,
                     double power_cap_w)
{
    KernelArch flat = {"ideal",
                       "every FLOP at one share",
                       1,
                       1,
                       0,
                       share,
                       share,
                       share,
                       1.0,
                       share,
                       1.0,
                       share,
                       1.0,
                       launch_s,
                       1.0,
                       false,
                       "StepParams.compute_efficiency",
                       1.0,
                       0,
                       128};
    k->a = flat;
    k->sms = 1;
    k->clock = kernel_clock_at_power(g, power_cap_w);
    k->peak[KERNEL_BF16] = g->bf16_flops * k->clock;
    k->peak[KERNEL_FP8] = (g->fp8_flops > 0 ? g->fp8_flops : g->bf16_flops) * k->clock;
    k->tile_s[KERNEL_BF16] = 2.0 / (k->peak[KERNEL_BF16] * share);
    k->tile_s[KERNEL_FP8] = 2.0 / (k->peak[KERNEL_FP8] * share);
    k->tile_fixed_s = 0;
    k->gmm_tile_s[KERNEL_BF16] = k->tile_s[KERNEL_BF16];
    k->gmm_tile_s[KERNEL_FP8] = k->tile_s[KERNEL_FP8];
    k->attn_flops = k->peak[KERNEL_BF16] * share;
    k->attn_bwd = 1.0;
    k->hbm_bps = g->hbm_bytes_per_s;
    k->stack = KERNEL_FUSED;
    k->flat = true;
    kernel_ctx_reciprocals(k);
}

/* ceil and floor of a positive double below 2^53 without libm (these run
 * in every GEMM of every evaluation: make bench's < 2 us per step) */
static double up(double x)
{
    double f = (double)(long long)x;
    return f < x ? f + 1 : f;
}

static double down(double x)
{
    return (double)(long long)x;
}

static double gemm_s(const KernelCtx *k, const double *tile_s, double M, double N, double K,
                     int groups, KernelPrec p, double in_bytes, double out_bytes)
{
    if (!(M > 0) || !(N > 0) || !(K > 0) || groups < 1)
        return 0;
    const KernelArch *a = &k->a;
    double tiles = up(M * k->inv_tile_m) * up(N * k->inv_tile_n) * groups;
    /* split-K: a GEMM of fewer tiles than SMs and a long K spreads K over
     * the idle SMs (cuBLAS heuristics), in chunks of at least 1,024 */
    double split = 1;
    if (tiles < k->sms) {
        split = down(k->sms / tiles);
        double most = down(K * (1.0 / 1024));
        split = split < most ? split : most;
        if (split < 1)
            split = 1;
    }
    double waves = up(tiles * split * k->inv_sms);
    /* a systolic array holds a tile x tile block of the weights and streams
     * the rows through it: the contraction, too, runs in whole blocks, so a
     * K of 2,880 takes twelve 256-wide passes, not 11.25 (the MXU's weight-
     * stationary dataflow, Jouppi et al. 2017; XLA pads to it) [D] */
    double Kc = a->compiled_only ? up(K * k->inv_tile_m) * a->tile_m : K;
    double compute = waves * ((split > 1 ? Kc / split : Kc) * tile_s[p] + k->tile_fixed_s);
    double bytes = groups * (in_bytes * (M * K + K * N) + out_bytes * M * N);
    if (split > 1) /* fp32 partial sums written and read back */
        bytes += groups * 8.0 * M * N * split;
    double memory = bytes * k->inv_hbm_bps;
    return (compute > memory ? compute : memory) + a->launch_s;
}

double kernel_gemm_s(const KernelCtx *k, double M, double N, double K, int groups, KernelPrec p,
                     double in_bytes, double out_bytes)
{
    return gemm_s(k, k->tile_s, M, N, K, groups, p, in_bytes, out_bytes);
}

double kernel_grouped_gemm_s(const KernelCtx *k, double M, double N, double K, int groups,
                             KernelPrec p, double in_bytes, double out_bytes)
{
    return gemm_s(k, k->gmm_tile_s, M, N, K, groups, p, in_bytes, out_bytes);
}

double kernel_attention_s(const KernelCtx *k, double bh, double s_q, double s_kv, double d_qk,
                          double d_v, bool causal, bool backward, double *flops)
{
    if (flops)
        *flops = 0;
    if (!(bh > 0) || !(s_q > 0) || !(s_kv > 0))
        return 0;
    const KernelArch *a = &k->a;
    double f = 2.0 * bh * s_q * s_kv * (d_qk + d_v) * (causal ? 0.5 : 1.0);
    if (backward)
        f *= 2.5;
    if (flops)
        *flops = f;
    /* key blocks of 128 per query block: n / (n + 3) of the long-sequence share */
    double n = s_kv / 128 * (causal ? 0.5 : 1.0);
    double ramp = n / (n + 3);
    double d = 0.5 * (d_qk + d_v);
    double width = (d / (d + 48)) / (128.0 / (128 + 48));
    /* a systolic array (TPU MXUs, Trainium's tensor engine: compiled_only)
     * contracts Q K^T over the head width and writes P V's head-wide
     * output: a head narrower than the array leaves its rows idle, d / M
     * of it busy, against 128 / M at the share's d = 128 [D: a 256 x 256
     * MXU on v6e and TPU7x, 128 x 128 on v5p, Google Cloud TPU docs] */
    if (a->compiled_only && d < 128)
        width = fmin(d, a->tile_m) / fmin(128.0, a->tile_m);
    /* wave quantization over the query blocks of every (batch, head) */
    double ctas = bh * ceil(s_q / 128);
    double waves = ceil(ctas / k->sms);
    double fill = ctas / (waves * k->sms);
    double share = ramp * width * fill * (backward ? k->attn_bwd : 1.0);
    return f / (k->attn_flops * share) + a->launch_s;
}

/* A kernel visits whole blocks of B keys: a query block reaches ceil(w/B)
 * blocks back besides its own diagonal block, half of which the causal
 * count (s/2) already holds, since the attention shares were measured on
 * causal kernels with it. Never more than the causal count. */
double kernel_window_keys(const KernelCtx *k, double s, double w)
{
    double b = k->a.attn_block;
    return fmin(ceil(w / b) * b + 0.5 * b, 0.5 * s);
}

double kernel_stream_s(const KernelCtx *k, double bytes)
{
    return bytes > 0 ? bytes / k->hbm_bps : 0;
}
