/* SPDX-License-Identifier: MIT */
/* testlib — the plumbing the cmocka unit programs share, so that each test
 * file holds only what it tests. Include it after <cmocka.h> (which needs
 * <setjmp.h>, <stdarg.h>, <stddef.h> and <stdint.h> before it).
 *
 * Checks that name the caller's file and line:
 *   NEAR(got, want, rel)   |got - want| <= rel * |want|, else prints the
 *                          expression, both values and the tolerance
 *   CONTAINS(s, part)      strstr(s, part), else prints both strings
 *   tl_assert_dump(c, ascii, want)   a canvas as text equals want
 *   tl_same_as_file(got, path) text equals a reviewed file (golden);
 *                          prints the first differing line and returns false
 * Running code that prints:
 *   tl_run(fn, argc, argv)  runs a command's entry point (cli_run, cmd_eval,
 *                          ...) with stdout and stderr captured (tl_run_into
 *                          to keep several results)
 * Files and fixtures:
 *   tl_read_file(path)     a whole file, NULL when it cannot be read
 *   tl_write_file(path, text), tl_tmpdir_make(dir, n, name),
 *   tl_tmpdir_remove(dir)  a scratch folder under /tmp and its removal
 *   tl_lesson_files(dir, paths, max)  the .lua files of a folder, sorted
 * Model fixtures (each fails the test, with the reason, when it cannot):
 *   tl_preset(system, gpus), tl_model(id)   a system or model preset
 *   tl_eval_ok(c, w, m, p, params)          step_eval that must succeed
 *   tl_gpt(layers, hidden, heads, batch, mb) a GPT of SC21's shape family
 *   tl_tiny_cluster(n, domain), tl_tiny_workload(), TL_TINY_PARAMS
 *                          the tiny job whose terms test_step works by hand
 * Time bounds:
 *   tl_slowdown()          the factor wall-clock bounds stretch by under
 *                          valgrind (`make memcheck` sets
 *                          SCALELAB_SANDBOX_SLOWDOWN)
 *   tl_slow_run()          true under valgrind (the slowdown is set)
 *   tl_cases(all, few)     how many of a loop's like cases run (few under
 *                          valgrind)
 *
 * Everything is static inline: a program pays only for what it uses.
 */
#ifndef SCALELAB_TESTLIB_H
#define SCALELAB_TESTLIB_H

#include "base/file.h"
#include "draw/canvas.h"
#include "model/step.h"

#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- checks ---- */

static inline void tl_near(double got, double want, double rel, const char *what, const char *file,
                           int line)
{
    if (!(fabs(got - want) <= rel * fabs(want))) {
        print_error("%s:%d: %s = %.12g, want %.12g (within %.3g%%)\n", file, line, what, got, want,
                    rel * 100);
        fail();
    }
}
#define NEAR(got, want, rel) tl_near((got), (want), (rel), #got, __FILE__, __LINE__)

/* The number after "key": in JSON text (its first occurrence); fails the
 * test when the key is missing. */
static inline double tl_json_num(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(text, pat);
    if (!p) {
        print_error("key %s missing in %.200s\n", key, text);
        fail();
    }
    return strtod(p + strlen(pat), NULL);
}

static inline void tl_contains(const char *s, const char *part, const char *file, int line)
{
    if (!s || !strstr(s, part)) {
        print_error("%s:%d: \"%s\"\n  does not contain \"%s\"\n", file, line, s ? s : "(null)",
                    part);
        fail();
    }
}
#define CONTAINS(s, part) tl_contains((s), (part), __FILE__, __LINE__)

/* A canvas dump equals want; prints both on failure. */
static inline void tl_assert_dump(const Canvas *c, bool ascii, const char *want)
{
    /* With ascii: the dump of a copy on an ASCII canvas (c is left as it is). */
    Canvas *copy = canvas_new(canvas_width(c), canvas_height(c));
    canvas_set_ascii(copy, ascii);
    canvas_blit(copy, 0, 0, c);
    char *got = canvas_to_text(copy);
    canvas_free(copy);
    if (strcmp(got, want) != 0)
        print_error("canvas dump differs:\n--- got ---\n%s--- want ---\n%s", got, want);
    assert_string_equal(got, want);
    free(got);
}

/* ---- files and fixtures ---- */

/* The whole file at path (caller frees), or NULL. */
static inline char *tl_read_file(const char *path)
{
    size_t len;
    return file_read(path, (size_t)64 << 20, &len, NULL);
}

static inline void tl_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        print_error("cannot write %s\n", path);
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Makes a fresh folder /tmp/scalelab-NAME-XXXXXX into dir; false on failure. */
static inline bool tl_tmpdir_make(char *dir, size_t n, const char *name)
{
    snprintf(dir, n, "/tmp/scalelab-%s-XXXXXX", name);
    return mkdtemp(dir) != NULL;
}

static inline int tl_cmp_path(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* The .lua files of dir as "dir/name", sorted by name, into paths (at most
 * max); returns how many, -1 when dir cannot be read. */
static inline int tl_lesson_files(const char *dir, char (*paths)[300], int max)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".lua") == 0)
            snprintf(paths[n++], 300, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(paths, (size_t)n, sizeof paths[0], tl_cmp_path);
    return n;
}

/* Removes path and, for a folder, everything below it (links are removed,
 * not followed). */
static inline bool tl_tmpdir_remove(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return false;
    bool ok = true;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d)
            return false;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            size_t n = strlen(path) + strlen(e->d_name) + 2;
            char *sub = malloc(n);
            assert_non_null(sub);
            snprintf(sub, n, "%s/%s", path, e->d_name);
            ok = tl_tmpdir_remove(sub) && ok;
            free(sub);
        }
        closedir(d);
    }
    return remove(path) == 0 && ok;
}

/* Text equals the reviewed file at path. Otherwise prints that the file is
 * missing or the first line where the two differ, and returns false: the
 * caller decides whether to go on. */
static inline bool tl_same_as_file(const char *got, const char *path)
{
    char *want = tl_read_file(path);
    if (!want) {
        print_error("%s is missing: run `make golden` and review it\n", path);
        return false;
    }
    bool same = strcmp(got, want) == 0;
    if (!same) {
        int line = 1;
        const char *g = got, *w = want;
        for (;;) {
            size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");
            if (gl != wl || memcmp(g, w, gl) != 0 || !g[gl] || !w[wl])
                break;
            g += gl + 1;
            w += wl + 1;
            line++;
        }
        print_error("%s: first difference at line %d\n  want: %.*s\n  got:  %.*s\n", path, line,
                    (int)strcspn(w, "\n"), w, (int)strcspn(g, "\n"), g);
    }
    free(want);
    return same;
}

/* ---- model fixtures ---- */

/* The cluster of a system preset with gpus GPUs. */
static inline Cluster tl_preset(const char *system, int gpus)
{
    Cluster c;
    char err[200] = "";
    bool ok = cluster_from_system(&c, system, gpus, err, sizeof err);
    if (!ok)
        print_error("cluster %s x %d: %s\n", system, gpus, err);
    assert_true(ok);
    return c;
}

/* The workload of a model preset. */
static inline Workload tl_model(const char *id)
{
    const WorkloadPreset *p = workload_preset_find(id);
    if (!p)
        print_error("no model preset %s\n", id);
    assert_non_null(p);
    return p->w;
}

/* step_eval that must succeed; p and params may be NULL (the default
 * placement, the calibrated parameters). */
static inline StepResult tl_eval_ok(const Cluster *c, const Workload *w, const Mapping *m,
                                    const Placement *p, const StepParams *params)
{
    StepResult r;
    char err[200] = "";
    StepStatus st = step_eval(c, w, m, p, params, &r, err, sizeof err);
    if (st != STEP_OK)
        print_error("step_eval: %s\n", err);
    assert_int_equal(st, STEP_OK);
    return r;
}

/* A GPT as SC21 Table 1 shapes them (Narayanan et al. SC21: ffn 4h,
 * sequence 2048, vocabulary 51200, as many KV heads as heads); the other
 * settings are Workload's zero defaults. */
static inline Workload tl_gpt(int layers, int hidden, int heads, int batch, int micro_batch)
{
    Workload w = {.id = "gpt",
                  .layers = layers,
                  .hidden = hidden,
                  .heads = heads,
                  .kv_heads = heads,
                  .ffn = 4 * hidden,
                  .seq = 2048,
                  .vocab = 51200,
                  .global_batch = batch,
                  .micro_batch = micro_batch};
    return w;
}

/* The tiny job, small enough to work every term by hand (test_step does):
 * GPUs of 100 TFLOP/s, 1 TB/s HBM, 80 GB; domains and leaves of `domain`
 * GPUs; scale-up 100 GB/s, NIC 10 GB/s, no latencies. */
static inline Cluster tl_tiny_cluster(int n_gpus, int domain)
{
    Cluster c;
    memset(&c, 0, sizeof c);
    strcpy(c.system_id, "custom");
    strcpy(c.up_link, "NVLink 4");
    strcpy(c.out_link, "InfiniBand");
    c.gpu.bf16_flops = 100e12;
    c.gpu.hbm_bytes = 80e9;
    c.gpu.hbm_bytes_per_s = 1e12;
    c.n_gpus = n_gpus;
    c.domain_gpus = domain;
    c.up_bytes_per_s = 100e9;
    c.out_bytes_per_s = 10e9;
    c.oversub = 1;
    c.gpus_per_leaf = domain;
    c.sites = 1;
    return c;
}

/* GPT, 2 layers, h 1024, 8 heads, ffn 4096, s 1024, V 1000, FlashAttention,
 * no recompute, global batch 8, micro-batch 1. */
static inline Workload tl_tiny_workload(void)
{
    Workload w = tl_gpt(2, 1024, 8, 8, 1);
    w.seq = 1024;
    w.vocab = 1000;
    w.flash_attention = true;
    w.tp_overlap = WL_OFF; /* worked by hand with TP on the critical path */
    return w;
}

/* Matmuls at 50% of peak, no memory-bound term, links at line rate, no
 * fixed collective cost, no DP overlap. */
static const StepParams TL_TINY_PARAMS = {.compute_efficiency = 0.5,
                                          .nonmatmul_bytes_per_act = 0,
                                          .up_efficiency = 1,
                                          .out_efficiency = 1,
                                          .dp_overlap = 0,
                                          .coll_fixed_s = 0};

/* ---- running code that prints ---- */

typedef int (*TlMain)(int argc, char **argv);

#define TL_OUT_MAX 65536
#define TL_ERR_MAX 8192

typedef struct {
    int status;
    char out[TL_OUT_MAX]; /* what it wrote to stdout */
    char err[TL_ERR_MAX]; /* what it wrote to stderr */
} TlRun;

/* What was written to f into buf[n]; more than fits fails the test. */
static inline void tl_slurp(FILE *f, char *buf, size_t n, const char *stream)
{
    rewind(f);
    size_t got = fread(buf, 1, n, f);
    if (got == n) {
        print_error("the run wrote more than %zu bytes to %s\n", n - 1, stream);
        fail();
    }
    buf[got] = '\0';
}

/* Runs fn(argc, argv) with stdout and stderr going to temporary files, into
 * *r (72 KiB: a few fit on the stack). */
static inline void tl_run_into(TlRun *r, TlMain fn, int argc, char **argv)
{
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    r->status = fn(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, STDOUT_FILENO);
    dup2(saved_err, STDERR_FILENO);
    close(saved_out);
    close(saved_err);
    tl_slurp(out, r->out, sizeof r->out, "stdout");
    tl_slurp(err, r->err, sizeof r->err, "stderr");
    fclose(out);
    fclose(err);
}

/* tl_run_into for one run at a time: the result stays valid until the next
 * tl_run. */
static inline const TlRun *tl_run(TlMain fn, int argc, char **argv)
{
    static TlRun r;
    tl_run_into(&r, fn, argc, argv);
    return &r;
}

/* ---- time bounds ---- */

static inline double tl_slowdown(void)
{
    const char *v = getenv("SCALELAB_SANDBOX_SLOWDOWN");
    double f = v ? atof(v) : 1.0;
    return f >= 1.0 && f <= 1000.0 ? f : 1.0;
}

/* A run under valgrind (`make memcheck`), told by the slowdown it sets. */
static inline bool tl_slow_run(void)
{
    return tl_slowdown() > 1.0;
}

/* How many of a loop's like cases to run: all, or few under valgrind,
 * where memcheck looks for memory errors on each path and 50x slower code
 * would take the run past CI's hour. Every case still runs in `make test`
 * and under the sanitizers. */
static inline int tl_cases(int all, int few)
{
    return tl_slow_run() ? few : all;
}

#endif
