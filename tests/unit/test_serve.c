/* SPDX-License-Identifier: MIT */
/* test_serve — the decode step of serving (model/serve.c) against figures
 * worked by hand and against a published measurement it was not tuned on:
 * what each part reads, how TP and PP change a token's time, the KV heads
 * a wide TP group must replicate, what crossing a domain adds, an MoE
 * batch that reads few experts, and bad input. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "draw/canvas.h"
#include "model/serve.h"
#include "testlib.h"

#include <string.h>

static Mapping map(int tp, int pp, int dp)
{
    Mapping m = {.tp = tp, .cp = 1, .pp = pp, .dp = dp, .ep = 1, .interleave = 1};
    return m;
}

/* The decode step of m on a cluster of the system with m's GPUs. */
static ServeResult serve_ok(const char *system, const Workload *w, Mapping m, int batch,
                            int context)
{
    Cluster cl = tl_preset(system, m.tp * m.pp * m.dp);
    const Cluster *c = &cl;
    ServeResult r;
    char err[200] = "";
    ServeLoad load = {batch, context};
    bool ok = serve_eval(c, w, &m, NULL, load, &r, err, sizeof err);
    if (!ok)
        print_error("serve_eval: %s\n", err);
    assert_true(ok);
    return r;
}

static Workload fp8(const char *id)
{
    Workload w = tl_model(id);
    w.precision = WL_FP8;
    return w;
}

/* Llama 3 70B in FP8 on 4 H100s (TP 4), batch 64, context 1,152 (128 in,
 * then on average half of 2,048 out). By hand: 70.6e9 parameters x 1 byte /
 * 4 = 17.6 GB per GPU at 3.35 TB/s = 5.27 ms; KV per token 2 (K, V) x 128
 * (head dim) x 8/4 KV heads x 80 layers = 40,960 bytes, x 64 x 1,152 =
 * 3.02 GB = 0.90 ms. TensorRT-LLM's published H100 FP8 table (Llama 2 70B,
 * the same 80 layers of 8,192 with 8 KV heads; TP 4, batch 64, 128 in, 2,048
 * out) reads 2,616 tokens/s over the 4 GPUs: 64 / 2,616 = 24.5 ms a step.
 * The model is a floor (no kernel launch or scheduling time): below the
 * measurement, but within 4x of it. */
static void test_serve_llama70b_against_trtllm(void **state)
{
    (void)state;
    Workload w = fp8("llama3-70b");
    ServeResult r = serve_ok("dgx-h100", &w, map(4, 1, 1), 64, 1152);
    NEAR(r.part_s[SERVE_WEIGHTS], 5.27e-3, 0.02);
    NEAR(r.part_s[SERVE_KV], 0.90e-3, 0.02);
    NEAR(r.kv_bytes, 40960.0 * 64 * 1152, 1e-9);
    assert_true(r.token_s < 24.5e-3);
    assert_true(r.token_s > 24.5e-3 / 4);
    assert_true(r.fits);
    assert_int_equal(r.bottleneck, SERVE_WEIGHTS);
    char buf[160];
    CONTAINS(serve_bottleneck(&r, buf, sizeof buf), "reading the weights from HBM");
}

/* The parts add up to the step; throughput is replicas x batch per step. */
static void test_serve_parts_add_up(void **state)
{
    (void)state;
    Workload w = fp8("llama3-70b");
    ServeResult r = serve_ok("dgx-h100", &w, map(8, 1, 2), 32, 4096);
    double sum = 0;
    for (int i = 0; i < SERVE_PART_COUNT; i++) {
        assert_true(r.part_s[i] >= 0);
        sum += r.part_s[i];
    }
    NEAR(r.token_s, sum, 1e-12);
    NEAR(r.tokens_per_s, 2 * 32 / r.token_s, 1e-12);
    NEAR(r.user_tokens_per_s, 1 / r.token_s, 1e-12);
    assert_int_equal(r.replicas, 2);
}

/* TP divides the weights each GPU reads; PP does not shorten a token: the
 * stages run one after another, each reading its share. */
static void test_serve_tp_splits_reads_pp_does_not(void **state)
{
    (void)state;
    Workload w = fp8("llama3-70b");
    ServeResult t4 = serve_ok("gb200-nvl72", &w, map(4, 1, 1), 16, 2048);
    ServeResult t8 = serve_ok("gb200-nvl72", &w, map(8, 1, 1), 16, 2048);
    ServeResult p2 = serve_ok("gb200-nvl72", &w, map(4, 2, 1), 16, 2048);
    NEAR(t8.part_s[SERVE_WEIGHTS], t4.part_s[SERVE_WEIGHTS] / 2, 1e-9);
    NEAR(p2.part_s[SERVE_WEIGHTS], t4.part_s[SERVE_WEIGHTS], 1e-9);
    NEAR(p2.weight_bytes, t4.weight_bytes / 2, 1e-9); /* memory does halve */
}

/* Llama 3 70B has 8 KV heads: TP 16 cannot split them further, so each GPU
 * keeps one head's cache, as at TP 8, while its weights halve again. */
static void test_serve_kv_heads_replicate_past_tp8(void **state)
{
    (void)state;
    Workload w = fp8("llama3-70b");
    ServeResult t8 = serve_ok("gb200-nvl72", &w, map(8, 1, 1), 16, 2048);
    ServeResult t16 = serve_ok("gb200-nvl72", &w, map(16, 1, 1), 16, 2048);
    NEAR(t16.kv_bytes, t8.kv_bytes, 1e-12);
    NEAR(t16.weight_bytes, t8.weight_bytes / 2, 1e-9);
}

/* The cache follows the attention the workload states. Llama 3 70B's
 * layers with 256-wide heads keep twice the 40,960 bytes a token of the
 * TP 4 test above; a window of 1,024 on five layers of six (Gemma's
 * pattern: 80 - 80/6 = 67 local layers, 13 global) over a context of
 * 4,096 keeps 13 x 4,096 + 67 x 1,024 of 80 x 4,096 token-layers; MLA
 * (DeepSeek-V3: latent 512 + rotary 64 per token and layer, FP8 1 byte,
 * 61 layers) keeps 576 x 61 = 35,136 bytes a token whatever the TP. */
static void test_serve_kv_follows_heads_windows_and_mla(void **state)
{
    (void)state;
    Workload w = fp8("llama3-70b");
    ServeResult base = serve_ok("dgx-h100", &w, map(4, 1, 1), 8, 4096);
    w.head_dim = 256;
    ServeResult wide = serve_ok("dgx-h100", &w, map(4, 1, 1), 8, 4096);
    NEAR(wide.kv_bytes, 2 * base.kv_bytes, 1e-12);
    w.head_dim = 0, w.window = 1024, w.global_every = 6;
    ServeResult local = serve_ok("dgx-h100", &w, map(4, 1, 1), 8, 4096);
    NEAR(local.kv_bytes, base.kv_bytes * (13.0 * 4096 + 67.0 * 1024) / (80.0 * 4096), 1e-12);
    Workload ds = fp8("deepseek-v3");
    ServeResult t8 = serve_ok("gb200-nvl72", &ds, map(8, 1, 1), 4, 2048);
    ServeResult t16 = serve_ok("gb200-nvl72", &ds, map(16, 1, 1), 4, 2048);
    NEAR(t8.kv_bytes, 35136.0 * 4 * 2048, 1e-12);
    NEAR(t16.kv_bytes, t8.kv_bytes, 1e-12);
}

/* A TP group inside one NVLink domain pays no network; TP 16 over two
 * 8-GPU servers does, on every one of its 160 all-reduces per token. The same TP 16 inside an
 * NVL72 rack pays none. */
static void test_serve_crossing_a_domain_costs_the_network(void **state)
{
    (void)state;
    Workload w = fp8("llama3-70b");
    ServeResult in = serve_ok("dgx-h100", &w, map(8, 1, 2), 16, 2048);
    ServeResult across = serve_ok("dgx-h100", &w, map(16, 1, 1), 16, 2048);
    assert_int_equal(in.tp_domains, 1);
    assert_true(in.part_s[SERVE_NETWORK] == 0);
    assert_int_equal(across.tp_domains, 2);
    assert_true(across.part_s[SERVE_NETWORK] > 0.5 * across.part_s[SERVE_TP]);
    /* half the weights read, yet slower: the network costs more than TP
     * 16 saves (by the model: 4.60 ms at TP 8, 4.97 ms at TP 16) */
    assert_true(across.token_s > in.token_s);
    ServeResult wide = serve_ok("gb200-nvl72", &w, map(16, 1, 1), 16, 2048);
    assert_int_equal(wide.tp_domains, 1);
    assert_true(wide.part_s[SERVE_NETWORK] == 0);
    assert_true(wide.token_s < across.token_s);
}

/* DeepSeek-V3 (256 routed experts, 8 per token): one sequence reads 8
 * experts a layer, far below the weights the GPUs hold; a batch of 64
 * (512 picks) may touch them all and reads everything. */
static void test_serve_moe_reads_the_experts_picked(void **state)
{
    (void)state;
    Workload w = fp8("deepseek-v3");
    ServeResult one = serve_ok("gb200-nvl72", &w, map(8, 1, 1), 1, 1024);
    ServeResult many = serve_ok("gb200-nvl72", &w, map(8, 1, 1), 64, 1024);
    double read_one = one.read_bytes - one.kv_bytes, read_many = many.read_bytes - many.kv_bytes;
    assert_true(read_one < 0.2 * one.weight_bytes);
    NEAR(read_many, many.weight_bytes, 1e-9);
}

/* Memory: weights and the batch's KV cache against the HBM. Llama 3 405B
 * in BF16 on one H100 (810 GB of weights) does not fit. */
static void test_serve_memory_can_fall_short(void **state)
{
    (void)state;
    Workload w = tl_model("llama3-405b");
    w.precision = WL_BF16;
    ServeResult r = serve_ok("dgx-h100", &w, map(1, 1, 8), 1, 1024);
    assert_false(r.fits);
    assert_true(r.mem_per_gpu_bytes > r.hbm_bytes);
    NEAR(r.mem_per_gpu_bytes, r.weight_bytes + r.kv_bytes, 1e-12);
}

static void test_serve_refuses_bad_input(void **state)
{
    (void)state;
    Cluster c = tl_preset("dgx-h100", 8);
    Workload w = fp8("llama3-70b");
    Mapping m = map(8, 1, 1);
    ServeResult r;
    char err[200] = "";
    assert_false(serve_eval(&c, &w, &m, NULL, (ServeLoad){0, 1024}, &r, err, sizeof err));
    CONTAINS(err, "batch");
    Mapping ep = m;
    ep.ep = 2;
    ep.tp = 4;
    assert_false(serve_eval(&c, &w, &ep, NULL, (ServeLoad){8, 1024}, &r, err, sizeof err));
    CONTAINS(err, "EP");
    Mapping big = map(16, 1, 1); /* 16 GPUs on a cluster of 8 */
    assert_false(serve_eval(&c, &w, &big, NULL, (ServeLoad){8, 1024}, &r, err, sizeof err));
    assert_true(err[0] != '\0');
    assert_false(serve_eval(&c, &w, &m, NULL, (ServeLoad){8, 1024}, NULL, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serve_llama70b_against_trtllm),
        cmocka_unit_test(test_serve_parts_add_up),
        cmocka_unit_test(test_serve_tp_splits_reads_pp_does_not),
        cmocka_unit_test(test_serve_kv_heads_replicate_past_tp8),
        cmocka_unit_test(test_serve_kv_follows_heads_windows_and_mla),
        cmocka_unit_test(test_serve_crossing_a_domain_costs_the_network),
        cmocka_unit_test(test_serve_moe_reads_the_experts_picked),
        cmocka_unit_test(test_serve_memory_can_fall_short),
        cmocka_unit_test(test_serve_refuses_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
