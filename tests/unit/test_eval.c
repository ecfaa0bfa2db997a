/* SPDX-License-Identifier: MIT */
/* test_eval — `scalelab eval` called in-process: the JSON contract (keys,
 * valid JSON, finite numbers), flag handling (derived DP and GPU count,
 * overrides of a preset), one-line errors with exit 2 for bad flags and
 * impossible mappings, --list, and the model time of every preset pair. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "model/cluster.h"
#include "model/hw.h"
#include "model/step.h"
#include "model/workload.h"

#define OUT_MAX TL_OUT_MAX

static const char *out_buf = "", *err_buf = "";

/* Runs cmd_eval with the NULL-terminated arguments after "eval"; stdout and
 * stderr land in out_buf and err_buf. */
static int run_eval(const char *first, ...)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"eval";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 63; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;

    const TlRun *r = tl_run(cmd_eval, argc, argv);
    out_buf = r->out;
    err_buf = r->err;
    return r->status;
}

/* --- a small JSON syntax checker (RFC 8259 grammar, no extensions) -------- */

static const char *js_value(const char *p);

static const char *js_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static const char *js_string(const char *p)
{
    if (*p != '"')
        return NULL;
    for (p++; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
                        return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *js_number(const char *p)
{
    const char *s = p;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return NULL;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return p > s ? p : NULL;
}

static const char *js_value(const char *p)
{
    p = js_ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        bool obj = *p == '{';
        p = js_ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (obj) {
                p = js_string(js_ws(p));
                if (!p)
                    return NULL;
                p = js_ws(p);
                if (*p++ != ':')
                    return NULL;
            }
            p = js_value(p);
            if (!p)
                return NULL;
            p = js_ws(p);
            if (*p == ',') {
                p++;
                continue;
            }
            return *p == close ? p + 1 : NULL;
        }
    }
    if (*p == '"')
        return js_string(p);
    if (strncmp(p, "true", 4) == 0)
        return p + 4;
    if (strncmp(p, "false", 5) == 0)
        return p + 5;
    if (strncmp(p, "null", 4) == 0)
        return p + 4;
    return js_number(p);
}

static bool json_valid(const char *text)
{
    const char *end = js_value(text);
    return end && *js_ws(end) == '\0';
}

/* Exactly one line on stderr, starting "scalelab eval:", containing want;
 * nothing on stdout. */
static void check_usage_error(int rc, const char *want)
{
    size_t n = strlen(err_buf);
    bool one_line = n > 0 && err_buf[n - 1] == '\n' && strchr(err_buf, '\n') == err_buf + n - 1;
    if (rc != 2 || !one_line || strncmp(err_buf, "scalelab eval: ", 15) != 0 ||
        !strstr(err_buf, want) || out_buf[0] != '\0') {
        print_error("want exit 2 and one line with '%s'; got rc=%d stderr='%s' stdout='%.80s'\n",
                    want, rc, err_buf, out_buf);
        fail();
    }
}

static void test_eval_json_has_contract_keys(void **state)
{
    (void)state;
    int rc = run_eval("--system", "dgx-h100", "--model", "llama3-70b", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_true(json_valid(out_buf));
    const char *keys[] = {"\"step_s\":",
                          "\"tokens_per_s\":",
                          "\"tflops_per_gpu\":",
                          "\"hw_tflops_per_gpu\":",
                          "\"mfu\":",
                          "\"fits\":",
                          "\"mem_per_gpu_bytes\":",
                          "\"bottleneck\":\"",
                          "\"breakdown\":{",
                          "\"compute_s\":",
                          "\"tp_s\":",
                          "\"pp_s\":",
                          "\"bubble_s\":",
                          "\"dp_s\":",
                          "\"ep_s\":",
                          "\"bytes\":{",
                          "\"scale_up\":",
                          "\"scale_out\":",
                          "\"scale_across\":"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (!strstr(out_buf, keys[i])) {
            print_error("missing %s in %s\n", keys[i], out_buf);
            fail();
        }
    }
    assert_null(strstr(out_buf, "nan"));
    assert_null(strstr(out_buf, "inf"));
    assert_true(tl_json_num(out_buf, "step_s") > 0);
    /* one object on one line */
    assert_int_equal(strchr(out_buf, '\n') - out_buf, (long)strlen(out_buf) - 1);

    char first[OUT_MAX];
    snprintf(first, sizeof first, "%s", out_buf);
    rc = run_eval("--system", "dgx-h100", "--model", "llama3-70b", "--format", "json", NULL);
    assert_int_equal(rc, 0);
    assert_string_equal(out_buf, first); /* --format json is --json */
}

/* TP 8 in domains of 9 (GPT-3, 96 A100s, PP 12): eval runs the balanced
 * placement, says so in the table and in JSON, and is faster than ranks in
 * order would be (test_balance works the parts by hand). Domains of 8 keep
 * the default placement and print no placement line. */
static void test_eval_balances_tp_groups_that_straddle(void **state)
{
    (void)state;
    int rc = run_eval("--system", "dgx-a100", "--gpus", "96", "--model", "gpt3-175b", "--tp", "8",
                      "--pp", "12", "--domain", "9", NULL);
    assert_int_equal(rc, 0);
    CONTAINS(out_buf, "placement: balanced, no TP group split with fewer than 2 GPUs on a side");
    CONTAINS(out_buf, "a split group keeps as few as 1)");
    rc = run_eval("--system", "dgx-a100", "--gpus", "96", "--model", "gpt3-175b", "--tp", "8",
                  "--pp", "12", "--domain", "9", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_true(json_valid(out_buf));
    CONTAINS(out_buf, "\"placement\":\"balanced\"");
    double balanced = tl_json_num(out_buf, "step_s");
    Cluster c = tl_preset("dgx-a100", 96);
    c.domain_gpus = 9;
    Workload w = tl_model("gpt3-175b");
    Mapping m = {.tp = 8, .cp = 1, .pp = 12, .dp = 1, .ep = 1, .interleave = 1, .zero = 1};
    StepResult flat = tl_eval_ok(&c, &w, &m, NULL, NULL);
    assert_true(balanced < 0.85 * flat.step_s);
    rc = run_eval("--system", "dgx-a100", "--gpus", "96", "--model", "gpt3-175b", "--tp", "8",
                  "--pp", "12", "--domain", "8", NULL);
    assert_int_equal(rc, 0);
    assert_null(strstr(out_buf, "placement:"));
    rc = run_eval("--system", "dgx-a100", "--gpus", "96", "--model", "gpt3-175b", "--tp", "8",
                  "--pp", "12", "--domain", "8", "--json", NULL);
    CONTAINS(out_buf, "\"placement\":\"default\"");
}

static void test_eval_json_checker_can_fail(void **state)
{
    (void)state;
    assert_true(json_valid("{\"a\":[1,2.5e3,true,null,\"x\\n\"]}"));
    assert_false(json_valid("{\"a\":nan}"));
    assert_false(json_valid("{\"a\":1,}"));
    assert_false(json_valid("{\"a\":\"tab\there\"}"));
    assert_false(json_valid("{\"a\":1} x"));
}

static void test_eval_derives_dp_and_gpus(void **state)
{
    (void)state;
    /* 64 GPUs / (TP 8 x CP 1 x PP 2) = DP 4 */
    int rc = run_eval("--system", "dgx-a100", "--gpus", "64", "--model", "gpt3-175b", "--tp", "8",
                      "--pp", "2", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_int_equal((int)tl_json_num(out_buf, "dp"), 4);
    assert_int_equal((int)tl_json_num(out_buf, "gpus"), 64);
    /* no --gpus: TP 8 x PP 4 x DP 2 = 64 GPUs */
    rc = run_eval("--system", "dgx-a100", "--model", "gpt3-175b", "--tp", "8", "--pp", "4", "--dp",
                  "2", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_int_equal((int)tl_json_num(out_buf, "gpus"), 64);
    assert_int_equal((int)tl_json_num(out_buf, "pp"), 4);
    /* --pp and --dp without --tp: TP = 64 / (1 x 4) = 16 */
    rc = run_eval("--system", "dgx-a100", "--gpus", "64", "--model", "gpt3-175b", "--pp", "1",
                  "--dp", "4", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_int_equal((int)tl_json_num(out_buf, "tp"), 16);
    /* --dp without --pp: PP = 64 / (8 x 1 x 4) = 2 */
    rc = run_eval("--system", "dgx-a100", "--gpus", "64", "--model", "gpt3-175b", "--tp", "8",
                  "--dp", "4", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_int_equal((int)tl_json_num(out_buf, "pp"), 2);
    /* nothing given but batch 1: the one search finds DP 1 (TP x PP = 128;
     * TP spilling out of 2-GPU domains is slow, not illegal) */
    rc = run_eval("--gpus", "128", "--batch", "1", "--model", "llama3-8b", "--domain", "2",
                  "--json", NULL);
    assert_int_equal(rc, 0);
    assert_int_equal((int)tl_json_num(out_buf, "dp"), 1);
    assert_int_equal((int)(tl_json_num(out_buf, "tp") * tl_json_num(out_buf, "pp")), 128);
    /* experts fold over TP x DP: EP 64 x ETP 1 divides TP 2 x DP 32 = 64
     * (EP 64 does not divide DP 32); EDP = 64 / 64 = 1 */
    rc = run_eval("--gpus", "64", "--model", "deepseek-v3", "--ep", "64", "--tp", "2", "--dp",
                  "32", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_int_equal((int)tl_json_num(out_buf, "ep"), 64);
    assert_int_equal((int)tl_json_num(out_buf, "etp"), 1);
    assert_int_equal((int)tl_json_num(out_buf, "edp"), 1);
    check_usage_error(run_eval("--gpus", "64", "--model", "deepseek-v3", "--ep", "64", "--tp", "2",
                               "--dp", "32", "--etp", "2", NULL),
                      "EP 64 x ETP 2 = 128 does not divide TP 2 x CP 1 x DP 32 = 64");
    /* the framework switches are flags; SP is on with TP > 1 unless turned
     * off, and Megatron overlaps TP with it as NVIDIA's recipes do; eager
     * PyTorch does not */
    rc = run_eval("--tp", "8", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_buf, "\"seq_parallel\":true,\"tp_overlap\":true"));
    rc = run_eval("--tp", "8", "--framework", "pytorch", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_buf, "\"seq_parallel\":true,\"tp_overlap\":false"));
    rc = run_eval("--tp", "8", "--seq-parallel", "on", "--tp-overlap=on", "--recompute", "full",
                  "--json", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_buf, "\"recompute\":\"full\",\"recompute_layers\":0,"
                                    "\"seq_parallel\":true,\"tp_overlap\":true"));
    rc = run_eval("--recompute", "full", "--recompute-layers", "3", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_buf, "\"recompute\":\"full\",\"recompute_layers\":3,"));
    /* parts come back as --recompute takes them, in its order; core_attn
     * alone is selective */
    rc = run_eval("--recompute", "mlp_out,kv,q", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_buf, "\"recompute\":\"q,kv,mlp_out\""));
    rc = run_eval("--recompute", "core_attn", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_buf, "\"recompute\":\"selective\""));
    /* Megatron-Core overlaps TP communication only with sequence parallelism */
    rc = run_eval("--tp", "8", "--seq-parallel", "off", "--tp-overlap=on", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_buf, "\"seq_parallel\":false,\"tp_overlap\":false"));
    rc = run_eval("--tp", "1", "--seq-parallel", "on", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_buf, "\"seq_parallel\":false")); /* nothing to shard at TP 1 */
    check_usage_error(run_eval("--tp-overlap", "maybe", NULL), "on, off or auto");
}

static void test_eval_flags_override_preset(void **state)
{
    (void)state;
    /* 128 GB200 GPUs in 2 NVL72 racks (72 + 56); TP 8 groups sit inside a rack
     * (72 = 9 x 8) and DP = 128 / 8 = 16 divides the batch of 1024. */
    int rc = run_eval("--system", "gb200-nvl72", "--gpus", "128", "--model", "llama3-70b", "--tp",
                      "8", "--pp", "1", "--json", NULL);
    assert_int_equal(rc, 0);
    double inside = tl_json_num(out_buf, "step_s");
    assert_int_equal((int)tl_json_num(out_buf, "domain_gpus"), 72);
    /* --domain 4 overrides the preset: every TP 8 group now spans 2 domains
     * and runs its all-reduces over the 50 GB/s NICs, not 900 GB/s NVLink */
    rc = run_eval("--system", "gb200-nvl72", "--gpus", "128", "--model", "llama3-70b", "--tp", "8",
                  "--pp", "1", "--domain", "4", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_int_equal((int)tl_json_num(out_buf, "domain_gpus"), 4);
    assert_non_null(strstr(out_buf, "\"system\":\"custom\""));
    assert_true(tl_json_num(out_buf, "step_s") > 1.3 * inside);

    /* --out 100G: 100 Gb/s = 12.5 GB/s shows in the table */
    rc = run_eval("--system", "dgx-h100", "--out", "100G", "--model", "llama3-8b", NULL);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_buf, "100 Gb/s = 12.5 GB/s"));
    assert_non_null(strstr(out_buf, "bottleneck: "));
    assert_non_null(strstr(out_buf, "step time"));

    /* --rails off on a 2:1 DGX H100 fabric: the DP groups of TP 8 (GPU i of
     * every server, one rail leaf each) now climb to the spine, so DP's
     * scale-out phase takes twice as long; --rails maybe is refused. */
    rc = run_eval("--system", "dgx-h100", "--gpus", "256", "--oversub", "2", "--model",
                  "llama3-8b", "--tp", "8", "--pp", "1", "--json", NULL);
    assert_int_equal(rc, 0);
    double dp_rails = tl_json_num(out_buf, "dp_s");
    rc = run_eval("--system", "dgx-h100", "--gpus", "256", "--oversub", "2", "--rails", "off",
                  "--model", "llama3-8b", "--tp", "8", "--pp", "1", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_true(tl_json_num(out_buf, "dp_s") > 1.5 * dp_rails);
    rc = run_eval("--system", "dgx-h100", "--rails", "maybe", NULL);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(err_buf, "--rails must be on or off (got 'maybe')"));

    /* --gpu swaps the accelerator: same cluster, H200 has 141 GB */
    rc = run_eval("--system", "dgx-h100", "--gpu", "h200", "--model", "llama3-8b", "--json", NULL);
    assert_int_equal(rc, 0);
    assert_true(tl_json_num(out_buf, "hbm_bytes") == 141e9);
}

static void test_eval_bad_flags_exit_2_with_one_line(void **state)
{
    (void)state;
    static const struct {
        const char *args[4]; /* the flags after `eval` (NULL after the last) */
        const char *want;    /* what the one line on stderr says */
    } bad[] = {
        {{"--bogus"}, "unknown flag '--bogus'"},
        {{"--tp"}, "--tp needs a value"},
        {{"--tp", "two"}, "not a number"},
        {{"--tp", "2.5"}, "whole number"},
        {{"--gpus", "1e9"}, "more than scalelab models"},
        {{"--gpus", "0"}, "--gpus must be at least 1"},
        {{"--up", "1.8 TB"}, "did you mean 1.8 TB/s"},
        {{"--out", "fast"}, "not a number"},
        {{"--system", "dgx-h1000"}, "unknown system 'dgx-h1000'"},
        {{"--model", "gpt5"}, "unknown model 'gpt5'"},
        {{"--gpu", "h300"}, "unknown GPU 'h300'"},
        {{"--recompute", "some"}, "none, selective, full, parts from"},
        {{"--precision", "fp4"}, "bf16 or fp8"},
        {{"--format", "xml"}, "json or text"},
        {{"--zero", "4"}, "0, 1, 2 or 3"},
        {{"--tp", "8", "--tp", "4"}, "given twice"},
        {{"--across", "1 TB/s"}, "needs --sites"},
        {{"--sites", "2"}, "scale-across bandwidth"},
        {{"--layers", "12"}, "--layers, --hidden and --heads"},
        {{"extra"}, "unexpected argument 'extra'"},
        {{"--list", "--json"}, "--list takes no other flag"},
        {{"--params", "1e300"}, "--params 1e+300 is more than"},
        {{"--system", "dgx\033[2J"}, "control character"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *const *a = bad[i].args;
        check_usage_error(run_eval(a[0], a[1], a[2], a[3], NULL), bad[i].want);
    }
}

static void test_eval_impossible_mappings_name_the_constraint(void **state)
{
    (void)state;
    /* TP x PP x DP != GPUs: 8 x 2 x 2 = 32 on 64 */
    check_usage_error(run_eval("--system", "dgx-a100", "--gpus", "64", "--tp", "8", "--pp", "2",
                               "--dp", "2", NULL),
                      "= 32 GPUs, but the cluster has 64");
    /* degrees given alone must divide the GPUs: 64 / 3 and 64 / (8 x 3) are not whole */
    check_usage_error(run_eval("--gpus", "64", "--dp", "3", NULL),
                      "DP 3 does not divide the 64 GPUs");
    check_usage_error(run_eval("--gpus", "64", "--tp", "8", "--dp", "3", NULL),
                      "TP 8 x DP 3 = 24 does not divide the 64 GPUs");
    /* Llama 3 8B has 32 layers */
    check_usage_error(run_eval("--gpus", "64", "--pp", "64", NULL),
                      "PP 64 is more pipeline stages than the 32 layers");
    /* TP 3 does not divide 64 GPUs */
    check_usage_error(run_eval("--gpus", "64", "--tp", "3", NULL), "does not divide the 64 GPUs");
    /* TP 64 does not divide GPT-3's 96 heads */
    check_usage_error(run_eval("--system", "dgx-a100", "--gpus", "64", "--model", "gpt3-175b",
                               "--tp", "64", "--pp", "1", NULL),
                      "TP 64 does not divide the 96 attention heads");
    /* EP 3 does not divide DeepSeek-V3's 256 experts (24 GPUs / TP 8 = DP 3) */
    check_usage_error(run_eval("--system", "dgx-h100", "--gpus", "24", "--model", "deepseek-v3",
                               "--tp", "8", "--pp", "1", "--ep", "3", NULL),
                      "EP 3 does not divide the 256 experts");
    /* batch 100 over DP 8 x micro-batch 1: 100 / 8 is not whole */
    check_usage_error(run_eval("--gpus", "64", "--tp", "8", "--pp", "1", "--batch", "100", NULL),
                      "global batch 100 is not a multiple of DP 8");
}

static void test_eval_list_prints_presets(void **state)
{
    (void)state;
    assert_int_equal(run_eval("--list", NULL), 0);
    for (int i = 0; i < hw_system_count(); i++)
        assert_non_null(strstr(out_buf, hw_system_at(i)->id));
    for (int i = 0; i < workload_preset_count(); i++)
        assert_non_null(strstr(out_buf, workload_preset_at(i)->id));
    assert_non_null(strstr(out_buf, "800 Gb/s = 100 GB/s")); /* GB300's ConnectX-8 */
    assert_non_null(strstr(out_buf, "up:  900 GB/s (NVLink 5)"));
    assert_int_equal(run_eval("--help", NULL), 0);
    assert_non_null(strstr(out_buf, "--interleave"));
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Every system preset with every model preset: eval answers (exit 0) with
 * its searched default mapping, and one step_eval of that mapping takes
 * under a millisecond of CPU time (mean of 20 runs; thread CPU time, so the
 * load of the shared machine does not count). */
static void test_eval_every_preset_pair_answers(void **state)
{
    (void)state;
    double worst = 0;
    const char *worst_pair = "";
    static char pair[64];
    for (int i = 0; i < hw_system_count(); i++) {
        for (int j = 0; j < workload_preset_count(); j++) {
            const char *sys = hw_system_at(i)->id, *model = workload_preset_at(j)->id;
            int rc = run_eval("--system", sys, "--model", model, "--json", NULL);
            const GpuSpec *g = hw_gpu_find(hw_system_at(i)->gpu_id);
            if (workload_preset_at(j)->w.precision == WL_FP8 && !(g->fp8_flops > 0)) {
                /* FP8 on a GPU without FP8 (A100) is refused, not run as BF16 */
                assert_int_not_equal(rc, 0);
                assert_non_null(strstr(err_buf, "no FP8"));
                continue;
            }
            if (rc != 0) {
                print_error("%s x %s: rc %d: %s\n", sys, model, rc, err_buf);
                fail();
            }
            assert_true(json_valid(out_buf));
            Cluster c;
            assert_true(cluster_from_system(&c, sys, 0, NULL, 0));
            const Workload *w = &workload_preset_at(j)->w;
            Mapping m = {.tp = (int)tl_json_num(out_buf, "tp"),
                         .cp = (int)tl_json_num(out_buf, "cp"),
                         .pp = (int)tl_json_num(out_buf, "pp"),
                         .dp = (int)tl_json_num(out_buf, "dp"),
                         .ep = (int)tl_json_num(out_buf, "ep"),
                         .interleave = 1,
                         .zero = (int)tl_json_num(out_buf, "zero")};
            StepResult r;
            double t0 = thread_cpu_s();
            for (int k = 0; k < 20; k++)
                assert_int_equal(step_eval(&c, w, &m, NULL, NULL, &r, NULL, 0), STEP_OK);
            double each = (thread_cpu_s() - t0) / 20;
            if (each > worst) {
                worst = each;
                snprintf(pair, sizeof pair, "%s x %s", sys, model);
                worst_pair = pair;
            }
        }
    }
    print_message("slowest preset pair: %s, %.1f us of model time per evaluation "
                  "(the target is `make bench`'s)\n",
                  worst_pair, worst * 1e6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_json_has_contract_keys),
        cmocka_unit_test(test_eval_json_checker_can_fail),
        cmocka_unit_test(test_eval_balances_tp_groups_that_straddle),
        cmocka_unit_test(test_eval_derives_dp_and_gpus),
        cmocka_unit_test(test_eval_flags_override_preset),
        cmocka_unit_test(test_eval_bad_flags_exit_2_with_one_line),
        cmocka_unit_test(test_eval_impossible_mappings_name_the_constraint),
        cmocka_unit_test(test_eval_list_prints_presets),
        cmocka_unit_test(test_eval_every_preset_pair_answers),
    };
    return cmocka_run_group_tests_name("eval", tests, NULL, NULL);
}
