/* SPDX-License-Identifier: MIT */
/* test_workload — presets, FLOP and parameter counts against SC21's Eq. 2-3,
 * the published model sizes, and the checks on a hand-made workload.
 * Every expected number is worked by hand in the comment beside it. */
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

#include "model/workload.h"

/* A tiny GPT: 2 layers, h 64, 4 heads, s 32, V 100, batch 1. */
static Workload tiny_gpt(void)
{
    Workload w = tl_gpt(2, 64, 4, 1, 1); /* ffn 4h = 256 */
    w.seq = 32;
    w.vocab = 100;
    return w;
}

static void test_workload_presets_are_valid(void **state)
{
    (void)state;
    const char *ids[] = {"gpt3-175b",   "llama3-8b",   "llama3-70b",
                         "llama3-405b", "megatron-1t", "deepseek-v3"};
    assert_int_equal(workload_preset_count(), 6);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const WorkloadPreset *p = workload_preset_find(ids[i]);
        assert_non_null(p);
        assert_string_equal(p->w.id, ids[i]);
        assert_true(strlen(p->source) > 10);
        char err[160] = "";
        if (!workload_check(&p->w, err, sizeof err)) {
            print_error("%s: %s\n", ids[i], err);
            fail();
        }
    }
    assert_null(workload_preset_find("gpt-5"));
    assert_null(workload_preset_find(NULL));
    assert_null(workload_preset_at(6));
    assert_true(workload_is_moe(&workload_preset_find("deepseek-v3")->w));
    assert_false(workload_is_moe(&workload_preset_find("llama3-405b")->w));
}

static void test_workload_model_flops_tiny_gpt(void **state)
{
    (void)state;
    Workload w = tiny_gpt();
    /* forward per token per layer: 24h^2 + 4sh = 24*4096 + 4*32*64 = 98304 + 8192
     * = 106496; 2 layers = 212992; logit 2hV = 12800; total 225792.
     * model = 3 x 225792 x 32 tokens = 21,676,032.
     * SC21 form: 72*B*s*l*h^2*(1 + s/(6h) + V/(12lh)) = 18,874,368 x 1.1484375. */
    assert_true(fabs(workload_model_flops(&w) - 21676032.0) < 0.5);
    /* No recompute: hardware FLOPs = model FLOPs. */
    assert_true(fabs(workload_hw_flops(&w) - 21676032.0) < 0.5);
    /* Full recompute adds a forward of the layers: 212992 x 32 = 6,815,744, so
     * 28,491,776 = SC21 Eq. 3, 96*B*s*l*h^2*(1 + s/(6h) + V/(16lh))
     * = 25,165,824 x 1.1321614583. */
    w.recompute = WL_RECOMPUTE_FULL;
    assert_true(fabs(workload_hw_flops(&w) - 28491776.0) < 0.5);
    /* Selective recompute adds the score forward only: 4sh x l x tokens
     * = 8192 x 2 x 32 = 524,288. */
    w.recompute = WL_RECOMPUTE_SELECTIVE;
    assert_true(fabs(workload_hw_flops(&w) - (21676032.0 + 524288.0)) < 0.5);
}

static void test_workload_params_match_sc21_table1(void **state)
{
    (void)state;
    /* SC21 Eq. 2: P = 12lh^2 (1 + 13/(12h) + (V+s)/(12lh)), s 2048, V 51200.
     * 1.7B row: 12*24*2304^2 = 1.528823808e9 x (1 + 0.00047 + 0.0802517)
     *           = 1.6522e9 (Table 1 prints 1.7).
     * 145.6B row: 12*80*12288^2 = 1.4495514624e11 x 1.0046030 = 1.45622e11.
     * 1T row: 12*128*25600^2 = 1.00663296e12 x 1.0013965 = 1.008039e12 (1008.0). */
    Workload w = {.layers = 24,
                  .hidden = 2304,
                  .heads = 24,
                  .kv_heads = 24,
                  .ffn = 4 * 2304,
                  .seq = 2048,
                  .vocab = 51200,
                  .global_batch = 512,
                  .micro_batch = 16};
    NEAR(workload_params(&w), 1.6522e9, 1e-3);
    w.layers = 80, w.hidden = 12288, w.heads = 96, w.kv_heads = 96, w.ffn = 4 * 12288;
    NEAR(workload_params(&w), 145.6e9, 1e-3);
    const WorkloadPreset *t = workload_preset_find("megatron-1t");
    NEAR(workload_params(&t->w), 1008.0e9, 1e-3);
    /* GPT-3: 96 layers, 12288: 12*96*12288^2 = 1.73946e11 x (1 + 0.0000882 +
     * 53248/(12*96*12288) = 0.0037615) = 1.74616e11 (SC21 Table 2: 174.6B). */
    NEAR(workload_params(&workload_preset_find("gpt3-175b")->w), 174.6e9, 1e-3);
}

static void test_workload_llama_params_and_gqa_flops(void **state)
{
    (void)state;
    /* Llama 3 8B: attention 2h^2(1 + 8/32) = 41,943,040; SwiGLU 3*4096*14336 =
     * 176,160,768; norms 8192: 218,112,000 per layer x 32 = 6,979,584,000;
     * embeddings 2*128256*4096 + 4096 = 1,050,677,248; total 8,030,261,248. */
    const Workload *w8 = &workload_preset_find("llama3-8b")->w;
    NEAR(workload_params(w8), 8030261248.0, 1e-9);
    /* 70B: per layer 2*8192^2*1.125 + 3*8192*28672 + 16384 = 150,994,944 +
     * 704,643,072 + 16,384 = 855,654,400 x 80 = 68,452,352,000; embeddings
     * 2*128256*8192 + 8192 = 2,101,354,496; total 70.55e9 (paper: 70B). */
    NEAR(workload_params(&workload_preset_find("llama3-70b")->w), 70553706496.0, 1e-9);
    /* 405B: 2*16384^2*1.0625 + 3*16384*53248 + 32768 = 570,425,344 +
     * 2,617,245,696 + 32,768 = 3,187,703,808 x 126 = 401,650,679,808; plus
     * 2*128256*16384 + 16384 = 4,202,708,992 -> 405,853,388,800 (paper: 405B). */
    NEAR(workload_params(&workload_preset_find("llama3-405b")->w), 405853388800.0, 1e-9);
    /* Forward FLOPs per token of an 8B layer: 4h^2(1 + 8/32) = 83,886,080;
     * scores 4*8192*4096 = 134,217,728; SwiGLU 2*3*4096*14336 = 352,321,536;
     * total 570,425,344. */
    assert_true(fabs(workload_layer_fwd_flops_per_token(w8, 0) - 570425344.0) < 0.5);
    /* Dense: active = total. */
    NEAR(workload_active_params(w8), workload_params(w8), 1e-12);
}

static void test_workload_moe_counts(void **state)
{
    (void)state;
    const Workload *ds = &workload_preset_find("deepseek-v3")->w;
    assert_int_equal(workload_moe_layer_count(ds), 58);
    assert_false(workload_layer_is_moe(ds, 2));
    assert_true(workload_layer_is_moe(ds, 3));
    /* Stated total wins: 671B. */
    NEAR(workload_params(ds), 671e9, 1e-12);
    /* Derived from the shape, with MLA (DeepSeek-V3 §2.1.1, §4.2): queries
     * 7168*1536 + 1536*128*192 = 48,758,784; keys and values 7168*(512+64)
     * + 512*128*(192-64+128) = 20,905,984; output 128*128*7168 =
     * 117,440,512: attention 187,105,280 per layer; norms 2*7168 + 1536 +
     * 512 = 16,384. MoE layer: experts 3*7168*2048*(256+1) =
     * 11,318,329,344 + router 7168*256 = 1,835,008: 11,507,286,016, x 58 =
     * 667,422,588,928; dense layer + 3*7168*18432 = 396,361,728:
     * 583,483,392, x 3 = 1,750,450,176; embeddings 2*129280*7168 + 7168 =
     * 1,853,365,248; total 671,026,404,352, within 0.004% of the paper's
     * 671B (plain attention of the same width overcounted it by 0.2%). */
    Workload w = *ds;
    w.params = 0;
    NEAR(workload_params(&w), 671026404352.0, 1e-9);
    /* Active (top-8 + 1 shared): per MoE layer 187,105,280 + 3*7168*2048*9
     * = 396,361,728 + 1,835,008 + 16,384 = 585,318,400 x 58 =
     * 33,948,467,200; + dense 1,750,450,176 + embeddings 1,853,365,248 =
     * 37,552,282,624 (the paper's 37B). */
    NEAR(workload_active_params(ds), 37552282624.0, 1e-9);
    /* Forward FLOPs per token of an MoE layer: projections 2 x 187,105,280
     * = 374,210,560; scores 2*4096*(128*192 + 128*128) = 335,544,320; MLP
     * 2*3*7168*2048*9 = 792,723,456: 1,502,478,336. */
    assert_true(fabs(workload_layer_fwd_flops_per_token(ds, 60) - 1502478336.0) < 0.5);
}

static void check_rejects(Workload w, const char *must_contain, int line)
{
    char err[160] = "";
    if (workload_check(&w, err, sizeof err) || !strstr(err, must_contain)) {
        print_error("line %d: want rejection containing '%s', got '%s'\n", line, must_contain,
                    err);
        fail();
    }
}
#define REJECTS(w, text) check_rejects((w), (text), __LINE__)

static void test_workload_check_rejects_bad_shapes(void **state)
{
    (void)state;
    Workload w = tiny_gpt();
    assert_true(workload_check(&w, NULL, 0));
    Workload b = w;
    b.heads = 5; /* 64 % 5 != 0 */
    REJECTS(b, "5 heads do not divide the hidden size 64");
    b = w;
    b.kv_heads = 3;
    REJECTS(b, "kv-heads");
    b = w;
    b.layers = 0;
    REJECTS(b, "layers must be positive");
    b = w;
    b.micro_batch = 2; /* global batch is 1 */
    REJECTS(b, "micro-batch 2 is larger than the global batch 1");
    b = w;
    b.experts = 8, b.topk = 9;
    REJECTS(b, "top-k must be between 1 and the 8 experts");
    b = w;
    b.params = -1;
    REJECTS(b, "parameter count");
    assert_false(workload_check(NULL, NULL, 0));
    assert_true(workload_params(NULL) == 0);
}

/* Tensors ZeRO-3 gathers one by one (DeepSpeed 2021): GPT-3 layers carry
 * QKV, projection, fc1, fc2, their 4 biases and 2 LayerNorms x (scale, bias)
 * = 12; Llama 3 (SwiGLU, no biases, RMSNorm) Q, K, V, O, 3 MLP matrices and
 * 2 norm scales = 9; a DeepSeek-V3 MoE layer: its 6 attention-side tensors,
 * the router and the experts as one group = 8. */
static void test_workload_layer_tensors(void **state)
{
    (void)state;
    const Workload *g = &workload_preset_find("gpt3-175b")->w;
    const Workload *l = &workload_preset_find("llama3-70b")->w;
    const Workload *d = &workload_preset_find("deepseek-v3")->w;
    assert_int_equal(workload_layer_tensors(g, 0), 12);
    assert_int_equal(workload_layer_tensors(l, 0), 9);
    assert_int_equal(workload_layer_tensors(d, d->layers - 1), 8);
    assert_int_equal(workload_layer_tensors(NULL, 0), 0);
}

/* The words flags and lesson files use: each parses back to its value,
 * an offload part's index is its WL_OFFLOAD_* bit, and the error lists
 * read as a sentence. */
static void test_workload_words(void **state)
{
    (void)state;
    const WlWords sets[] = {WL_WORDS_RECOMPUTE, WL_WORDS_PRECISION, WL_WORDS_GRAPHS,
                            WL_WORDS_OFFLOAD, WL_WORDS_FRAMEWORK};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        for (int v = 0; strcmp(workload_word(sets[i], v), "?") != 0; v++)
            assert_int_equal(workload_word_parse(sets[i], workload_word(sets[i], v)), v);
    assert_int_equal(workload_word_parse(WL_WORDS_RECOMPUTE, "full"), WL_RECOMPUTE_FULL);
    assert_int_equal(workload_word_parse(WL_WORDS_PRECISION, "fp8"), WL_FP8);
    assert_int_equal(workload_word_parse(WL_WORDS_GRAPHS, "attn"), WL_GRAPHS_ATTN);
    assert_int_equal(workload_word_parse(WL_WORDS_FRAMEWORK, "deepspeed"), WL_FW_DEEPSPEED);
    assert_string_equal(workload_word(WL_WORDS_FRAMEWORK, WL_FW_COMPILE), "pytorch-compile");
    assert_int_equal(1 << workload_word_parse(WL_WORDS_OFFLOAD, "weights"), WL_OFFLOAD_WEIGHTS);
    assert_int_equal(1 << workload_word_parse(WL_WORDS_OFFLOAD, "activations"),
                     WL_OFFLOAD_ACTIVATIONS);
    assert_int_equal(workload_word_parse(WL_WORDS_GRAPHS, "Full"), -1);
    assert_int_equal(workload_word_parse(WL_WORDS_PRECISION, NULL), -1);
    assert_string_equal(workload_word(WL_WORDS_GRAPHS, 3), "?");
    assert_string_equal(workload_word(WL_WORDS_PRECISION, -1), "?");
    char buf[64];
    workload_word_list(WL_WORDS_PRECISION, 0, buf, sizeof buf);
    assert_string_equal(buf, "bf16 or fp8");
    workload_word_list(WL_WORDS_RECOMPUTE, '"', buf, sizeof buf);
    assert_string_equal(buf, "\"none\", \"selective\" or \"full\"");
    workload_word_list(WL_WORDS_OFFLOAD, 0, buf, 12); /* cut, still a string */
    assert_string_equal(buf, "optimizer, ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workload_presets_are_valid),
        cmocka_unit_test(test_workload_model_flops_tiny_gpt),
        cmocka_unit_test(test_workload_params_match_sc21_table1),
        cmocka_unit_test(test_workload_llama_params_and_gqa_flops),
        cmocka_unit_test(test_workload_moe_counts),
        cmocka_unit_test(test_workload_check_rejects_bad_shapes),
        cmocka_unit_test(test_workload_layer_tensors),
        cmocka_unit_test(test_workload_words),
    };
    return cmocka_run_group_tests_name("workload", tests, NULL, NULL);
}
