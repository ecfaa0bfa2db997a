/* SPDX-License-Identifier: MIT */
/* test_fidelity — the bandwidth model against published measurements.
 *
 * Two sets of published runs (tests/fidelity/cases.tsv, each with its
 * source): the TUNED set chose the calibration constants of kernel.c,
 * step.c and collective.c (SC21 Table 1 for A100; one Llama 3 405B run for
 * Hopper BF16; one NeMo GPT-3 run for Hopper FP8; four Megatron-Bridge
 * GB200/GB300 runs for Blackwell; the torchtitan family for the TP
 * overlap's exposed share; two nccl-tests figures for collectives), the
 * HELD-OUT groups never chose anything and are only checked against guards
 * (test_fidelity_held_out_sets). SCALELAB_FIDELITY=1 prints every case and
 * its error, 2 also where its time goes and the residuals by source,
 * generation x size and feature; SCALELAB_FIDELITY_AUTO=1 drops every
 * case's --framework (what a tester who never names it gets).
 *
 * The behaviour tests after the table check published orderings rather
 * than figures: H100 over A100 by model size, FSDP per-GPU throughput
 * against its nodes, the FP8 and async-TP gains (pairs of cases of one
 * source), and
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

#include "cmd/cli.h"
#include "cmd/evalflags.h"
#include "cmd/flags.h"
#include "model/step.h"
#include "model/sweep.h"

/* SCALELAB_FIDELITY=1 prints every case, 2 also where each one's time
 * goes and the residuals by source, generation, size and feature. */
static int verbosity(void)
{
    const char *v = getenv("SCALELAB_FIDELITY");
    return v ? atoi(v) : 0;
}

static bool verbose(void)
{
    return verbosity() >= 1;
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

/* --- published runs: tests/fidelity/cases.tsv ---------------------------
 *
 * Each line is one published run as `scalelab eval` flags (the file's header
 * says the columns), so every case is what a user types. TUNED runs chose a
 * calibration constant (kernel.c names them); HELD runs never chose anything
 * and are grouped as the project's hidden sets are: (a) Megatron/NeMo/vendor
 * runs on A100/H100/H200, (b) other open frameworks and papers on
 * A100/H100/H200, (c) TPUs and Blackwell. Whole sources are held out.
 * What a source does not state (the recompute policy, most often) is left
 * to the search, which takes the cheapest policy that fits, as a user
 * tuning a run would.
 *
 * `make fidelity` (SCALELAB_FIDELITY=1) prints every case with its error
 * and each table's means. */
#define CASES_TSV "tests/fidelity/cases.tsv"
#define MAX_CASES 600
#define MAX_ARGS  96

typedef struct {
    char id[8], source[32], group, set[8], metric[8], model[40];
    double published, mem_gib;
    char flags[1024];
} Case;

static Case cases[MAX_CASES];
static int n_cases;

static void load_cases(void)
{
    if (n_cases)
        return;
    FILE *f = fopen(CASES_TSV, "r");
    assert_non_null(f);
    char line[2048];
    while (fgets(line, sizeof line, f) && n_cases < MAX_CASES) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        Case *k = &cases[n_cases];
        char *field[9];
        int n = 0;
        for (char *p = line; p && n < 9; n++) {
            field[n] = p;
            char *tab = strchr(p, '\t');
            if (tab)
                *tab = '\0';
            p = tab ? tab + 1 : NULL;
        }
        assert_int_equal(n, 9);
        snprintf(k->id, sizeof k->id, "%s", field[0]);
        snprintf(k->source, sizeof k->source, "%s", field[1]);
        k->group = field[2][0];
        snprintf(k->set, sizeof k->set, "%s", field[3]);
        snprintf(k->metric, sizeof k->metric, "%s", field[4]);
        k->published = atof(field[5]);
        k->mem_gib = strcmp(field[6], "-") == 0 ? 0 : atof(field[6]);
        snprintf(k->model, sizeof k->model, "%s", field[7]);
        snprintf(k->flags, sizeof k->flags, "%s", field[8]);
        n_cases++;
    }
    fclose(f);
}

/* The run of a case: its flags through the eval flag table and the one
 * search (degrees given pinned; the recompute policy searched when the
 * source does not give it). False when the flags do not describe a legal
 * run. */
static bool case_eval(const Case *k, StepResult *r, Cluster *c, Workload *w, Mapping *m)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", k->flags);
    char *argv[MAX_ARGS];
    int argc = 0;
    argv[argc++] = "eval";
    /* SCALELAB_FIDELITY_AUTO=1: every case as a tester who never names the
     * framework would write it (--framework dropped, the default decides) */
    const char *strip = getenv("SCALELAB_FIDELITY_AUTO");
    bool drop_fw = strip && *strip == '1', skip = false;
    for (char *t = strtok(buf, " "); t && argc < MAX_ARGS - 1; t = strtok(NULL, " ")) {
        if (skip) {
            skip = false;
            continue;
        }
        if (drop_fw && strcmp(t, "--framework") == 0) {
            skip = true;
            continue;
        }
        argv[argc++] = t;
    }
    argv[argc] = NULL;
    FlagArgs a;
    SweepOptions o;
    if (flags_parse(&flags_eval, argc, argv, &a) != CLI_OK ||
        !evalflags_build("fidelity", &a, c, w, &o))
        return false;
    evalflags_pin_as_eval(w, &o);
    if (!a.set[FLAG_INTERLEAVE])
        o.interleave = 0;
    if (!a.set[FLAG_RECOMPUTE])
        o.recompute = SWEEP_FREE;
    if (!a.set[FLAG_OFFLOAD] && !a.set[FLAG_RECOMPUTE]) /* a stated policy states its offload */
        o.offload = SWEEP_FREE;
    o.alt_top = 0;
    char err[300];
    SweepResult sr = {0};
    bool ok = sweep_run(&sr, c, w, &o, err, sizeof err) && sweep_choice(&sr);
    if (ok) {
        const SweepEntry *e = sweep_choice(&sr);
        *m = e->m;
        *w = sweep_entry_workload(w, e);
    } else if (verbose()) {
        printf("%s %s: %s\n", k->id, k->source, err);
    }
    sweep_result_free(&sr);
    return ok && step_eval(c, w, m, NULL, NULL, r, err, sizeof err) == STEP_OK;
}

static double case_figure(const Case *k, const StepResult *r, int gpus)
{
    if (strcmp(k->metric, "HW") == 0)
        return r->hw_tflops_per_gpu;
    if (strcmp(k->metric, "MFL") == 0)
        return r->tflops_per_gpu;
    if (strcmp(k->metric, "TOK") == 0)
        return r->tokens_per_s / gpus;
    if (strcmp(k->metric, "MFU") == 0)
        return 100 * r->mfu;
    return r->step_s;
}

typedef struct {
    int n, within, unfit, failed;
    double sum_abs, worst;
} Score;

/* Error of a case: > 0 when the model is faster than the run was. */
static double case_error(const Case *k, double got)
{
    return strcmp(k->metric, "SEC") == 0 ? k->published / got - 1 : got / k->published - 1;
}

/* Every case evaluated once (the tables below read these). */
typedef struct {
    bool ok;
    double got, err;
    StepResult r;
    Cluster c;
    Workload w;
    Mapping m;
} Outcome;

static Outcome outcomes[MAX_CASES];
static bool evaluated;

static void evaluate_all(void)
{
    load_cases();
    if (evaluated)
        return;
    for (int i = 0; i < n_cases; i++) {
        Outcome *o = &outcomes[i];
        o->ok = case_eval(&cases[i], &o->r, &o->c, &o->w, &o->m);
        if (o->ok) {
            o->got = case_figure(&cases[i], &o->r, o->c.n_gpus);
            o->err = case_error(&cases[i], o->got);
        }
    }
    evaluated = true;
}

/* Where one micro-batch's and one step's time goes (SCALELAB_FIDELITY=2). */
static void print_breakdown(const Outcome *o)
{
    const StepResult *r = &o->r;
    char map[64];
    mapping_format(&o->m, map, sizeof map);
    printf("      %s z%d mb%d m%d | mb: gemm %.3g attn %.3g elem %.3g rc %.3g s | step %.3g: "
           "comp %.3g tp %.3g pp %.3g bub %.3g dp %.3g ep %.3g opt %.3g off %.3g | mem %.1f GiB "
           "(act %.1f)\n",
           map, o->m.zero, o->w.micro_batch, r->micro_batches, r->mb_gemm_s, r->mb_attn_s,
           r->mb_stream_s, r->mb_recompute_s, r->step_s, r->part_s[STEP_COMPUTE],
           r->part_s[STEP_TP], r->part_s[STEP_PP], r->part_s[STEP_BUBBLE], r->part_s[STEP_DP],
           r->part_s[STEP_EP], r->optimizer_s, r->offload_s, r->mem_per_gpu_bytes / 1073741824.0,
           r->mem_activations / 1073741824.0);
}

/* The cases of one set (TUNED or HELD), group ('a', 'b', 'c'; 0 = all)
 * and source (NULL = all). */
static Score score(const char *set, char group, const char *source)
{
    evaluate_all();
    Score sc = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < n_cases; i++) {
        const Case *k = &cases[i];
        if (strcmp(k->set, set) != 0 || (group && k->group != group) ||
            (source && strcmp(k->source, source) != 0))
            continue;
        const Outcome *o = &outcomes[i];
        if (!o->ok) {
            sc.failed++;
            continue;
        }
        double got = o->got, err = o->err;
        sc.n++;
        sc.within += fabs(err) <= 0.15;
        sc.unfit += !o->r.fits;
        sc.sum_abs += fabs(err);
        sc.worst = fmax(sc.worst, fabs(err));
        if (verbose()) {
            printf("%-5s %c %s %-22s %-18s %-3s published %9.1f model %9.1f %+6.1f%%", set,
                   k->group, k->id, k->source, k->model, k->metric, k->published, got, 100 * err);
            if (k->mem_gib > 0)
                printf("  memory %.1f GiB, model %.1f", k->mem_gib,
                       o->r.mem_per_gpu_bytes / 1073741824.0);
            printf("%s\n", o->r.fits ? "" : "  DOES NOT FIT");
            if (verbosity() >= 2)
                print_breakdown(o);
        }
    }
    if (verbose() && sc.n)
        printf("%s group %c%s%s: %d cases, %d within 15%% (%.0f%%), mean error %.1f%%, worst "
               "%.1f%%, %d not fitting, %d not expressible\n\n",
               set, group ? group : '*', source ? " " : "", source ? source : "", sc.n, sc.within,
               100.0 * sc.within / sc.n, 100 * sc.sum_abs / sc.n, 100 * sc.worst, sc.unfit,
               sc.failed);
    return sc;
}

/* --- residuals by kind (SCALELAB_FIDELITY=2) ----------------------------
 * Mean signed error per source, per GPU generation x model size, and per
 * feature of the run as evaluated: where the model is systematically fast
 * (> 0) or slow (< 0). */
typedef struct {
    char key[48];
    int n, within;
    double sum, sum_abs;
} Bucket;

#define MAX_BUCKETS 160

static void bucket_add(Bucket *b, int *nb, const char *key, double err)
{
    int i = 0;
    while (i < *nb && strcmp(b[i].key, key) != 0)
        i++;
    if (i == *nb) {
        if (*nb == MAX_BUCKETS)
            return;
        memset(&b[i], 0, sizeof b[i]);
        snprintf(b[i].key, sizeof b[i].key, "%s", key);
        (*nb)++;
    }
    b[i].n++;
    b[i].within += fabs(err) <= 0.15;
    b[i].sum += err;
    b[i].sum_abs += fabs(err);
}

static void buckets_print(const char *title, const Bucket *b, int nb)
{
    printf("%s\n", title);
    for (int i = 0; i < nb; i++)
        printf("  %-34s %4d runs  signed %+6.1f%%  mean |err| %5.1f%%  within 15%% %3.0f%%\n",
               b[i].key, b[i].n, 100 * b[i].sum / b[i].n, 100 * b[i].sum_abs / b[i].n,
               100.0 * b[i].within / b[i].n);
    printf("\n");
}

static const char *size_bucket(double params)
{
    return params < 3e9 ? "<3B" : params < 15e9 ? "3-15B" : params < 100e9 ? "15-100B" : ">100B";
}

static void print_residuals(void)
{
    evaluate_all();
    static Bucket src[MAX_BUCKETS], gen[MAX_BUCKETS], feat[MAX_BUCKETS];
    int ns = 0, ng = 0, nf = 0;
    for (int i = 0; i < n_cases; i++) {
        const Case *k = &cases[i];
        const Outcome *o = &outcomes[i];
        if (!o->ok)
            continue;
        char key[48];
        snprintf(key, sizeof key, "%s %c %s", k->set, k->group, k->source);
        bucket_add(src, &ns, key, o->err);
        if (strcmp(k->set, "HELD") != 0)
            continue;
        const char *arch = o->c.gpu.arch ? o->c.gpu.arch : "?";
        snprintf(key, sizeof key, "%s %s", arch, size_bucket(workload_params(&o->w)));
        bucket_add(gen, &ng, key, o->err);
        const Mapping *m = &o->m;
        const struct {
            bool on;
            const char *name;
        } f[] = {
            {m->zero >= 3, "FSDP/ZeRO-3"},
            {m->tp > 1, "TP>1"},
            {m->pp > 1, "PP>1"},
            {m->cp > 1, "CP>1"},
            {workload_is_moe(&o->w), "MoE"},
            {o->w.precision == WL_FP8, "FP8"},
            {o->w.recompute != WL_RECOMPUTE_NONE, "recompute"},
            {o->w.seq >= 16384, "seq>=16K"},
            {o->c.n_gpus > o->c.domain_gpus, "beyond one domain"},
        };
        for (size_t j = 0; j < sizeof f / sizeof f[0]; j++)
            if (f[j].on)
                bucket_add(feat, &nf, f[j].name, o->err);
    }
    buckets_print("residuals by source (set, group, source):", src, ns);
    buckets_print("held-out residuals by architecture and model size:", gen, ng);
    buckets_print("held-out residuals by feature (a run counts under each it has):", feat, nf);
}

/* The tuned set is what the constants were chosen on. */
static void test_fidelity_tuned_set(void **state)
{
    (void)state;
    if (verbosity() >= 2)
        print_residuals();
    Score sc = score("TUNED", 0, NULL);
    assert_true(sc.n >= 16);
    if (sc.sum_abs / sc.n > 0.085) {
        print_error("tuned: mean error %.1f%%\n", 100 * sc.sum_abs / sc.n);
        fail();
    }
}

/* Each held-out group as it stands (README "Fidelity" gives the figures):
 * the bars are guards against regressions, a little short of where the
 * model stands and, in groups b and c, of the project's targets (80%
 * within 15%, mean at most 10%). Every published configuration that is
 * expressible must fit but for the one README names. With every
 * --framework dropped (SCALELAB_FIDELITY_AUTO) the figures are printed,
 * not judged: the bars are for the rows as stated. */
static void test_fidelity_held_out_sets(void **state)
{
    (void)state;
    const char groups[3] = {'a', 'b', 'c'};
    const double bar[3] = {0.105, 0.155, 0.14}, share[3] = {0.80, 0.76, 0.76};
    const int unfit[3] = {1, 1, 2};
    const char *autos = getenv("SCALELAB_FIDELITY_AUTO");
    bool judge = !(autos && *autos == '1');
    bool failed = false; /* every group scored (and printed) before failing */
    for (int g = 0; g < 3; g++) {
        Score sc = score("HELD", groups[g], NULL);
        assert_true(sc.n >= 30);
        if (sc.sum_abs / sc.n > bar[g] || sc.within < share[g] * sc.n || sc.unfit > unfit[g]) {
            print_error("held out (%c): %d of %d within 15%%, mean error %.1f%%\n", groups[g],
                        sc.within, sc.n, 100 * sc.sum_abs / sc.n);
            failed = judge;
        }
    }
    if (failed)
        fail();
}

/* Calculon's validation set (Korthikanti et al. 2022 Table 5, 8 jobs). */
static void test_fidelity_sp22_calculon_set(void **state)
{
    (void)state;
    Score sc = score("HELD", 'a', "korthikanti22");
    assert_int_equal(sc.n, 8);
    if (verbose())
        printf("SP22 (Calculon's set): mean error %.1f%% (Calculon's own: 3.7%%)\n\n",
               100 * sc.sum_abs / sc.n);
    assert_true(sc.sum_abs / sc.n <= 0.037); /* issue 25: at most Calculon's 3.7% */
}

/* --- published orderings between cases of the table ---------------------
 * Each compares two runs of one source that differ in one thing, so the
 * source's own counting cancels: the model must order them as the source
 * does, by about as much. */

/* The case with this id, evaluated (fails the test when absent or not
 * expressible). */
static const Outcome *outcome_of(const char *id, const Case **k)
{
    evaluate_all();
    for (int i = 0; i < n_cases; i++)
        if (strcmp(cases[i].id, id) == 0) {
            if (!outcomes[i].ok) {
                print_error("case %s does not evaluate\n", id);
                fail();
            }
            if (k)
                *k = &cases[i];
            return &outcomes[i];
        }
    print_error("no case %s in %s\n", id, CASES_TSV);
    fail();
    return NULL;
}

/* Model and published ratio of case a's throughput over case b's (a step
 * time metric inverts). */
static void ratio_of(const char *a, const char *b, double *model, double *published)
{
    const Case *ka = NULL, *kb = NULL;
    const Outcome *oa = outcome_of(a, &ka), *ob = outcome_of(b, &kb);
    *model = *published = 0;
    if (!oa || !ob || !ka || !kb) /* outcome_of has failed the test */
        return;
    bool sec = strcmp(ka->metric, "SEC") == 0;
    *model = sec ? ob->got / oa->got : oa->got / ob->got;
    *published = sec ? kb->published / ka->published : ka->published / kb->published;
    if (verbose())
        printf("%s / %s: model %.3f, published %.3f\n", a, b, *model, *published);
}

/* H100 over A100, same framework and configuration (llm-foundry's MPT at
 * 2K context on 8 and 64 GPUs): well below the 3.17x of the dense BF16
 * peaks, and lower for a small model (its GEMMs are thinner, its
 * element-wise and attention work weigh more) than for a large one
 * (published 2.29x for 7B, 2.53x for 70B). */
static void test_fidelity_h100_over_a100_by_size(void **state)
{
    (void)state;
    double m7, p7, m70, p70;
    ratio_of("R228", "R250", &m7, &p7);
    ratio_of("R230", "R255", &m70, &p70);
    assert_true(fabs(m7 / p7 - 1) <= 0.15);
    assert_true(fabs(m70 / p70 - 1) <= 0.15);
    assert_true(m7 < 0.97 * m70);
    assert_true(m70 < 989.0 / 312.0);
}

/* Per-GPU throughput falls as FSDP spans more nodes: torchtitan's Llama 3
 * 8B from 1 to 16 nodes (published -2.7%), llm-foundry's MPT-7B from 16 to
 * 64 nodes (-7.7%); the model's rings grow with the nodes and so does the
 * compute they slow (step.c comm_sm_share). */
static void test_fidelity_fsdp_per_gpu_falls_with_nodes(void **state)
{
    (void)state;
    double m, p;
    ratio_of("R279", "R276", &m, &p); /* 128 GPUs over 8 */
    assert_true(p < 1 && m < 0.99 && m > 0.90);
    ratio_of("R216", "R214", &m, &p); /* 512 GPUs over 128 */
    assert_true(p < 1 && m < 0.985 && m > 0.85);
}

/* FP8 against BF16, same configuration: NVIDIA's NeMo recipes on H100
 * (Llama 3 8B 1.33x, 70B 1.34x, GPT-3 175B 1.51x end to end) and
 * torchtitan's torchao float8 (1.28x): 1.2-1.5x, not the 2x of the peaks,
 * since attention and element-wise work stay in BF16. */
static void test_fidelity_fp8_gain(void **state)
{
    (void)state;
    static const char *pairs[][2] = {
        {"R154", "R151"}, {"R160", "R157"}, {"R172", "R169"}, {"R278", "R277"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        double m, p;
        ratio_of(pairs[i][0], pairs[i][1], &m, &p);
        assert_true(fabs(m / p - 1) <= 0.10);
        assert_true(m > 1.15 && m < 1.6);
    }
}

/* Async TP against vanilla TP 8 in torchtitan on H100 (BF16): +9.2% for
 * Llama 3 70B, +9.9% for 8B end to end; the overlap hides part of the TP
 * time, not all of it. */
static void test_fidelity_async_tp_gain(void **state)
{
    (void)state;
    static const char *pairs[][2] = {{"R295", "R294"}, {"R301", "R300"}};
    for (size_t i = 0; i < 2; i++) {
        double m, p;
        ratio_of(pairs[i][0], pairs[i][1], &m, &p);
        assert_true(m > 1.04 && m < 1.15);
        assert_true(fabs((m - 1) / (p - 1) - 1) <= 0.5);
    }
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
    /* Where compute still dominates (384 GPUs) within 20% (+15.4% today: the
     * kernel model's A100 GEMMs at micro-batch 4 without model parallelism
     * are a little fast for DeepSpeed's 2021 kernels). */
    assert_true(fabs(dsp[0] / paper[0] - 1) <= 0.20);
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
        cmocka_unit_test(test_fidelity_held_out_sets),
        cmocka_unit_test(test_fidelity_sp22_calculon_set),
        cmocka_unit_test(test_fidelity_sc21_zero3_collapses),
        cmocka_unit_test(test_fidelity_sc21_tensor_vs_pipeline),
        cmocka_unit_test(test_fidelity_sc21_tensor_vs_data),
        cmocka_unit_test(test_fidelity_bubble_law),
        cmocka_unit_test(test_fidelity_ring_busbw),
        cmocka_unit_test(test_fidelity_nccl_small_messages),
        cmocka_unit_test(test_fidelity_seeds_tp_across_domains),
        cmocka_unit_test(test_fidelity_seeds_moe_in_racks),
        cmocka_unit_test(test_fidelity_moe_orderings),
        cmocka_unit_test(test_fidelity_h100_over_a100_by_size),
        cmocka_unit_test(test_fidelity_fsdp_per_gpu_falls_with_nodes),
        cmocka_unit_test(test_fidelity_fp8_gain),
        cmocka_unit_test(test_fidelity_async_tp_gain),
    };
    return cmocka_run_group_tests_name("fidelity", tests, NULL, NULL);
}
