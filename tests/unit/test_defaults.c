/* SPDX-License-Identifier: MIT */
/* test_defaults — a lesson and `scalelab eval` see one job alike: a table of
 * jobs (one and two sites, ZeRO given and not, an interleaved pipeline,
 * sequence parallelism on with TP > 1 and off with TP 1, ZeRO 3 under the
 * framework rule, a mixture of experts, several systems) run through a
 * lesson's scalelab.step in the sandbox and through eval in-process, with
 * the same step time, memory and ZeRO stage; and a table of bad mappings
 * both refuse, eval's words holding the lesson's.
 */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include "cmd/cli.h"
#include "lesson/lesson_api.h"
#include "lesson/sandbox.h"
#include "model/job.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One job as both front ends take it: 0 (NULL) where not given. */
typedef struct {
    const char *system;
    int gpus, sites;
    const char *across, *across_lat; /* as lesson text and eval flag alike */
    const char *model;
    int batch;
    int tp, pp, dp, ep, interleave;
    int zero; /* -1: not given */
    const char *recompute;
} Job;

static const Job jobs[] = {
    /* the job eval fitted (ZeRO 1) and a lesson did not (ZeRO 0) */
    {"dgx-h100", 64, 0, NULL, NULL, "llama3-70b", 0, 8, 2, 4, 0, 0, -1, NULL},
    {"dgx-h100", 64, 0, NULL, NULL, "llama3-70b", 0, 8, 2, 4, 0, 0, 0, NULL},
    /* two sites: the latency between them not given, then given */
    {"dgx-h100", 64, 2, "3.2 Tb/s", NULL, "gpt3-175b", 0, 8, 8, 1, 0, 0, 1, NULL},
    {"dgx-h100", 64, 2, "3.2 Tb/s", NULL, "llama3-8b", 0, 8, 2, 4, 0, 0, -1, NULL},
    {"dgx-h100", 128, 2, "800 Gb/s", "5 ms", "llama3-70b", 0, 8, 4, 4, 0, 0, -1, NULL},
    /* an interleaved pipeline */
    {"dgx-h100", 128, 0, NULL, NULL, "llama3-70b", 0, 8, 4, 4, 0, 2, -1, NULL},
    /* TP 1 (sequence parallelism off) with ZeRO 3: a dense model without a
     * pipeline runs under PyTorch's FSDP in both */
    {"dgx-h100", 8, 0, NULL, NULL, "llama3-8b", 64, 1, 1, 8, 0, 0, 3, NULL},
    {"gb200-nvl72", 72, 0, NULL, NULL, "llama3-70b", 576, 8, 1, 9, 0, 0, -1, "full"},
    {"dgx-a100", 64, 0, NULL, NULL, "gpt3-175b", 0, 8, 8, 1, 0, 0, 2, NULL},
    /* a mixture of experts under ZeRO 3 (stays on Megatron-Core) */
    {"dgx-b200", 128, 0, NULL, NULL, "deepseek-v3", 256, 1, 1, 128, 64, 0, 3, "full"},
    {"tpu-v5p", 256, 0, NULL, NULL, "llama3-70b", 0, 8, 4, 8, 0, 0, -1, NULL},
};

static int open_api(lua_State *L)
{
    lesson_api_open(L);
    return 0;
}

/* Runs src in the sandbox; the number it returns in *out, else false with
 * the error in err. */
static bool run_lua(const char *src, double out[3], char *err, size_t err_len)
{
    Sandbox *sb = sandbox_new("job.lua", NULL);
    assert_non_null(sb);
    assert_true(sandbox_protect(sb, open_api, NULL, err, err_len));
    bool ok = sandbox_run_string(sb, src, strlen(src), err, err_len);
    if (ok) {
        lua_State *L = sandbox_state(sb);
        for (int i = 0; i < 3; i++) {
            lua_rawgeti(L, -1, i + 1);
            out[i] = lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
    }
    sandbox_free(sb);
    return ok;
}

static void put(char *buf, size_t len, const char *fmt, ...) ATTR_PRINTF(3, 4);
static void put(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* The lesson's scalelab.step call of j, returning step, memory and ZeRO. */
static void lesson_src(const Job *j, char *buf, size_t len)
{
    buf[0] = '\0';
    put(buf, len, "local r = scalelab.step { cluster = { system = '%s', gpus = %d", j->system,
        j->gpus);
    if (j->sites)
        put(buf, len, ", sites = %d, across = '%s'", j->sites, j->across);
    if (j->across_lat)
        put(buf, len, ", across_lat = '%s'", j->across_lat);
    put(buf, len, " }, workload = { model = '%s'", j->model);
    if (j->batch)
        put(buf, len, ", batch = %d", j->batch);
    if (j->recompute)
        put(buf, len, ", recompute = '%s'", j->recompute);
    put(buf, len, " }, mapping = { tp = %d, pp = %d", j->tp, j->pp);
    if (j->dp)
        put(buf, len, ", dp = %d", j->dp);
    if (j->ep)
        put(buf, len, ", ep = %d", j->ep);
    if (j->interleave)
        put(buf, len, ", interleave = %d", j->interleave);
    if (j->zero >= 0)
        put(buf, len, ", zero = %d", j->zero);
    put(buf, len, " } }\nreturn { r.step_s, r.mem_per_gpu_bytes, r.mapping.zero }");
}

/* eval's flags for j in argv (strings in store); returns argc. */
static int eval_args(const Job *j, char *argv[40], char store[20][64])
{
    int argc = 0, s = 0;
    argv[argc++] = (char *)"eval";
#define FLAG_S(name, value) (argv[argc++] = (char *)(name), argv[argc++] = (char *)(value))
#define FLAG_I(name, value) (snprintf(store[s], 64, "%d", (value)), FLAG_S(name, store[s]), s++)
    FLAG_S("--system", j->system);
    FLAG_I("--gpus", j->gpus);
    FLAG_S("--model", j->model);
    if (j->sites) {
        FLAG_I("--sites", j->sites);
        FLAG_S("--across", j->across);
    }
    if (j->across_lat)
        FLAG_S("--across-lat", j->across_lat);
    if (j->batch)
        FLAG_I("--batch", j->batch);
    if (j->recompute)
        FLAG_S("--recompute", j->recompute);
    FLAG_I("--tp", j->tp);
    FLAG_I("--pp", j->pp);
    if (j->dp)
        FLAG_I("--dp", j->dp);
    if (j->ep)
        FLAG_I("--ep", j->ep);
    if (j->interleave)
        FLAG_I("--interleave", j->interleave);
    if (j->zero >= 0)
        FLAG_I("--zero", j->zero);
    argv[argc++] = (char *)"--json";
    argv[argc] = NULL;
#undef FLAG_S
#undef FLAG_I
    return argc;
}

static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

static void test_defaults_lesson_and_eval_agree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
        char src[1024], err[MSG_LEN] = "";
        lesson_src(&jobs[i], src, sizeof src);
        double lesson[3];
        if (!run_lua(src, lesson, err, sizeof err)) {
            print_error("job %zu: lesson failed: %s\n", i, err);
            fail();
        }
        char *argv[40], store[20][64];
        int argc = eval_args(&jobs[i], argv, store);
        const TlRun *r = tl_run(cmd_eval, argc, argv);
        if (r->status != 0) {
            print_error("job %zu: eval failed: %s\n", i, r->err);
            fail();
        }
        double step = tl_json_num(r->out, "step_s"),
               mem = tl_json_num(r->out, "mem_per_gpu_bytes");
        double zero = tl_json_num(r->out, "zero");
        if (!close_to(step, lesson[0]) || !close_to(mem, lesson[1]) || zero != lesson[2]) {
            print_error("job %zu: lesson %.6g s %.6g B ZeRO %g, eval %.6g s %.6g B ZeRO %g\n%s\n",
                        i, lesson[0], lesson[1], lesson[2], step, mem, zero, src);
            fail();
        }
        if (jobs[i].zero < 0)
            assert_int_equal((int)zero, JOB_DEFAULT_ZERO);
    }
}

/* The default latency between sites costs what it should: the two-site job
 * without across_lat equals the one with across_lat = 1 ms. */
static void test_defaults_site_latency(void **state)
{
    (void)state;
    Job j = jobs[2];
    char src[1024], err[MSG_LEN] = "";
    double none[3], one_ms[3], zero_s[3];
    lesson_src(&j, src, sizeof src);
    assert_true(run_lua(src, none, err, sizeof err));
    j.across_lat = "1 ms";
    lesson_src(&j, src, sizeof src);
    assert_true(run_lua(src, one_ms, err, sizeof err));
    j.across_lat = "0 s";
    lesson_src(&j, src, sizeof src);
    assert_true(run_lua(src, zero_s, err, sizeof err));
    assert_true(close_to(none[0], one_ms[0]));
    assert_true(one_ms[0] > zero_s[0] * 1.001); /* the latency shows in this job */
}

/* Bad mappings: a lesson's reason, and eval's line holding it. */
static void test_defaults_same_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *lesson; /* cluster, workload and mapping fields */
        const char *eval[12];
        const char *reason;
    } bad[] = {
        {"cluster = { system = 'dgx-h100', gpus = 64 }, mapping = { tp = 7 }",
         {"--gpus", "64", "--tp", "7"},
         "TP 7 does not divide the 64 GPUs"},
        {"cluster = { system = 'dgx-h100', gpus = 64 }, mapping = { tp = 8, pp = 3 }",
         {"--gpus", "64", "--tp", "8", "--pp", "3"},
         "TP 8 x PP 3 = 24 does not divide the 64 GPUs"},
        {"cluster = { system = 'dgx-h100', gpus = 64 }, mapping = { tp = 8, pp = 1, dp = 4 }",
         {"--gpus", "64", "--tp", "8", "--pp", "1", "--dp", "4"},
         "TP 8 x CP 1 x PP 1 x DP 4 = 32 GPUs, but the cluster has 64"},
        {"cluster = { system = 'dgx-h100', gpus = 64 }, mapping = { tp = 64 }",
         {"--gpus", "64", "--tp", "64"},
         "TP 64 does not divide the 32 attention heads"},
        {"cluster = { system = 'dgx-h100', gpus = 64 }, workload = { model = 'llama3-8b' }, "
         "mapping = { tp = 1, pp = 64 }",
         {"--gpus", "64", "--model", "llama3-8b", "--tp", "1", "--pp", "64"},
         "PP 64 is more pipeline stages than the 32 layers"},
        {"cluster = { system = 'dgx-h100', gpus = 64 }, mapping = { tp = 8, ep = 2 }",
         {"--gpus", "64", "--tp", "8", "--ep", "2"},
         "EP 2 needs a mixture-of-experts model; this one is dense"},
        {"cluster = { system = 'dgx-a100', gpus = 64 }, workload = { model = 'llama3-8b', "
         "precision = 'fp8' }, mapping = { tp = 8 }",
         {"--system", "dgx-a100", "--gpus", "64", "--precision", "fp8", "--tp", "8"},
         "no FP8 tensor cores"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char src[512], err[MSG_LEN] = "";
        snprintf(src, sizeof src, "return scalelab.step { %s }", bad[i].lesson);
        double unused[3];
        if (run_lua(src, unused, err, sizeof err) || !strstr(err, bad[i].reason)) {
            print_error("case %zu: lesson: want '%s', got '%s'\n", i, bad[i].reason, err);
            fail();
        }
        const char *reason = strstr(err, "mapping: ");
        reason = reason ? reason + strlen("mapping: ") : strstr(err, bad[i].reason);
        char *argv[16] = {(char *)"eval"};
        int argc = 1;
        for (int k = 0; bad[i].eval[k]; k++)
            argv[argc++] = (char *)bad[i].eval[k];
        argv[argc] = NULL;
        const TlRun *r = tl_run(cmd_eval, argc, argv);
        if (r->status != CLI_USAGE || !strstr(r->err, reason)) {
            print_error("case %zu: eval rc %d '%s' does not hold the lesson's '%s'\n", i,
                        r->status, r->err, reason);
            fail();
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_lesson_and_eval_agree),
        cmocka_unit_test(test_defaults_site_latency),
        cmocka_unit_test(test_defaults_same_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
