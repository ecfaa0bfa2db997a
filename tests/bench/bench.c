/* SPDX-License-Identifier: MIT */
/* bench — the figures of README.md's Performance section, one line each,
 * medians of repeated runs, each compared with its target (PASS / MISS). Run by `make bench`
 * (scripts/run-bench), which names the binary in SCALELAB_BIN.
 *
 *   model    step_eval per evaluation: 8, 16,384 and 131,072 GPUs, an MoE
 *            job, and explicit per-GPU placements at 131,072 GPUs (one swap,
 *            and every GPU shuffled: the linear worst case); each the median
 *            over batches of evaluations of the mapping a sweep picks.
 *   sweep    sweep_run over every legal mapping: 1,024, 16,384, 131,072 GPUs.
 *   frame    one full frame onto a kept canvas (clear, rack or fabric view
 *            with loads, step-time bar, a wrapped text line) at 80x24 and
 *            250x70, for one NVL72 rack and a 16,384-GPU fabric.
 *   start-up the real binary on a pseudo-terminal of 80x24: from fork/exec
 *            to the last byte of the first burst of output (a burst ends after
 *            50 ms of silence), i.e. the first full frame; and fork/exec to
 *            exit of `scalelab --list` with output to /dev/null.
 *   memory   ru_maxrss from wait4 of a child: the UI with the largest lesson
 *            file open, and the largest sweep (the most candidates of the jobs
 *            above: DeepSeek-V3 on 1,024 GB200) run by `scalelab sweep`.
 *   host     the lesson host (src/lesson/host.h): a goal check's round trip
 *            through it (wall clock, the first scenario of the shipped
 *            lessons, against the same goal run in this process), and the
 *            menu's catalog of lessons/ from the header cache (no host runs)
 *            and without it (one host per lesson).
 *
 * Lines whose subject cannot run yet (a command not wired) say "n/a" and
 * why, never a made-up figure. Not a unit test: timing belongs here only.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* wait4, struct rusage */
#endif
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* posix_openpt */
#endif

#include "draw/canvas.h"
#include "draw/charts.h"
#include "draw/text.h"
#include "draw/views.h"
#include "lesson/catalog.h"
#include "lesson/lesson.h"
#include "lesson/lesson_local.h"
#include "model/cluster.h"
#include "model/mapping.h"
#include "model/span.h"
#include "model/step.h"
#include "model/sweep.h"
#include "model/workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define REPEATS 7

static int misses;

/* Wall-clock time, for what involves other processes (start-up, exit). */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* CPU time of this thread, for in-process figures: on a shared machine other
 * processes delay the wall clock but not the work measured here. */
static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "2.31 us", "14.2 ms": a duration for people. */
static void fmt_time(double s, char *buf, size_t len)
{
    if (s < 1e-6)
        snprintf(buf, len, "%.0f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, len, "%.3g us", s * 1e6);
    else if (s < 1)
        snprintf(buf, len, "%.3g ms", s * 1e3);
    else
        snprintf(buf, len, "%.3g s", s);
}

/* One figure: what, value, target, verdict. */
static void line(const char *what, const char *value, const char *target, bool pass)
{
    printf("%-60s %20s  target %-7s %s\n", what, value, target, pass ? "PASS" : "MISS");
    if (!pass)
        misses++;
    fflush(stdout);
}

static void line_na(const char *what, const char *why)
{
    printf("%-60s %20s  (%s)\n", what, "n/a", why);
    fflush(stdout);
}

static void cpu_line(void)
{
    char name[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char buf[512];
        while (fgets(buf, sizeof buf, f)) {
            if (strncmp(buf, "model name", 10) == 0) {
                char *colon = strchr(buf, ':');
                if (colon) {
                    snprintf(name, sizeof name, "%s", colon + 2);
                    name[strcspn(name, "\n")] = '\0';
                }
                break;
            }
        }
        fclose(f);
    }
    char load[64] = "?";
    FILE *l = fopen("/proc/loadavg", "r");
    if (l) {
        if (fgets(load, sizeof load, l))
            load[strcspn(load, " ")] = '\0';
        fclose(l);
    }
    printf("scalelab bench on %s, %ld cores, load %s; medians of %d runs "
           "(in-process: thread CPU time; start-up: wall clock)\n",
           name, sysconf(_SC_NPROCESSORS_ONLN), load, REPEATS);
}

typedef struct {
    Cluster c;
    Workload w;
    Mapping m;
} Job;

/* A cluster from a preset, a model preset, and the mapping a sweep picks. */
static bool job_make(Job *j, const char *sys, int n, const char *model)
{
    char err[300];
    if (!cluster_from_system(&j->c, sys, n, err, sizeof err)) {
        fprintf(stderr, "bench: %s\n", err);
        return false;
    }
    const WorkloadPreset *p = workload_preset_find(model);
    if (!p) {
        fprintf(stderr, "bench: no model %s\n", model);
        return false;
    }
    j->w = p->w;
    SweepResult r = {0};
    if (!sweep_run(&r, &j->c, &j->w, NULL, err, sizeof err)) {
        fprintf(stderr, "bench: sweep %s %d %s: %s\n", sys, n, model, err);
        return false;
    }
    j->m = r.entries[0].m;
    j->w.micro_batch = r.entries[0].micro_batch;
    sweep_result_free(&r);
    return true;
}

/* Median seconds per step_eval, batches sized to take ~20 ms. */
static double time_eval(const Job *j, const Placement *p)
{
    StepResult r;
    double t0 = cpu_s();
    step_eval(&j->c, &j->w, &j->m, p, NULL, &r, NULL, 0);
    double one = cpu_s() - t0;
    int batch = one > 0 ? (int)(0.02 / one) : 10000;
    if (batch < 1)
        batch = 1;
    if (batch > 200000)
        batch = 200000;
    double per[REPEATS];
    for (int k = 0; k < REPEATS; k++) {
        t0 = cpu_s();
        for (int i = 0; i < batch; i++)
            step_eval(&j->c, &j->w, &j->m, p, NULL, &r, NULL, 0);
        per[k] = (cpu_s() - t0) / batch;
    }
    return median(per, REPEATS);
}

typedef enum { PLACE_DEFAULT, PLACE_ONE_SWAP, PLACE_SHUFFLED } BenchPlace;

static void bench_eval(const char *what, const char *sys, int n, const char *model,
                       BenchPlace place)
{
    const bool explicit_placement = place != PLACE_DEFAULT;
    Job j;
    if (!job_make(&j, sys, n, model)) {
        line_na(what, "job could not be built");
        return;
    }
    Placement *p = NULL;
    if (explicit_placement) {
        /* one swap: the least explicit placement; shuffled: every GPU holds a
         * pseudo-random rank (fixed seed), so every group must be walked */
        p = placement_new(j.c.n_gpus);
        if (place == PLACE_ONE_SWAP) {
            placement_swap_gpus(p, 0, j.c.n_gpus - 1);
        } else {
            unsigned long long x = 88172645463325252ULL;
            for (int g = j.c.n_gpus - 1; g > 0; g--) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                placement_swap_gpus(p, g, (int)(x % (unsigned long long)(g + 1)));
            }
        }
    }
    double t = time_eval(&j, p);
    placement_free(p);
    char ms[64], value[64], full[160];
    mapping_format(&j.m, ms, sizeof ms);
    fmt_time(t, value, sizeof value);
    char rate[32];
    snprintf(rate, sizeof rate, "%.3g/s", 1 / t);
    snprintf(full, sizeof full, "%s, %s", what, ms);
    char both[128];
    snprintf(both, sizeof both, "%s %s", rate, value);
    line(full, both, explicit_placement ? "< 1 ms" : "< 2 us",
         t < (explicit_placement ? 1e-3 : 2e-6));
}

/* Every system preset with every model preset, on the mapping the
 * search picks for it; the figure is the slowest pair's median evaluation. */
static void bench_every_pair(void)
{
    double worst = 0;
    char pair[96] = "";
    for (int i = 0; i < hw_system_count(); i++) {
        for (int k = 0; k < workload_preset_count(); k++) {
            const char *sys = hw_system_at(i)->id, *model = workload_preset_at(k)->id;
            const GpuSpec *g = hw_gpu_find(hw_system_at(i)->gpu_id);
            if (workload_preset_at(k)->w.precision == WL_FP8 && !(g && g->fp8_flops > 0))
                continue; /* FP8 on a GPU without FP8 is refused, not timed */
            Job j;
            if (!job_make(&j, sys, 0, model))
                continue;
            double t = time_eval(&j, NULL);
            if (t > worst) {
                worst = t;
                snprintf(pair, sizeof pair, "%s x %s", sys, model);
            }
        }
    }
    char value[64], what[160];
    fmt_time(worst, value, sizeof value);
    snprintf(what, sizeof what, "eval: slowest preset pair (%s)", pair);
    line(what, value, "< 1 ms", worst < 1e-3);
}

/* settings: search the framework settings as `scalelab sweep` does (ZeRO,
 * recompute, sequence parallelism, TP overlap free); else pin them (the
 * search the UI and practice run). */
static void bench_sweep(const char *what, const char *sys, int n, const char *model, bool settings)
{
    Cluster c;
    char err[300];
    const WorkloadPreset *p = workload_preset_find(model);
    if (!p || !cluster_from_system(&c, sys, n, err, sizeof err)) {
        line_na(what, "job could not be built");
        return;
    }
    SweepResult r = {0};
    SweepOptions o = sweep_options_default();
    if (settings)
        o.zero = o.recompute = o.seq_parallel = o.tp_overlap = SWEEP_FREE;
    double t[REPEATS];
    sweep_run(&r, &c, &p->w, &o, err, sizeof err); /* warm-up: buffer and caches */
    for (int k = 0; k < REPEATS; k++) {
        double t0 = cpu_s();
        sweep_run(&r, &c, &p->w, &o, err, sizeof err);
        t[k] = cpu_s() - t0;
    }
    char value[64], full[160];
    fmt_time(median(t, REPEATS), value, sizeof value);
    snprintf(full, sizeof full, "%s%s (%d evals)", what, settings ? ", settings searched" : "",
             r.evaluated);
    line(full, value, "< 50 ms", median(t, REPEATS) < 50e-3);
    sweep_result_free(&r);
}

static void frame_draw(Canvas *cv, int w, int h, const ViewInput *in, bool rack,
                       const StepResult *r)
{
    canvas_clear(cv);
    int view_h = h - 8;
    if (rack)
        view_rack_draw(cv, 0, 0, w, view_h, in);
    else
        view_fabric_draw(cv, 0, 0, w, view_h, in);
    chart_step_bar(cv, 0, view_h, w, r, NULL);
    text_draw_wrapped(cv, 0, h - 3, w, 3, r->bottleneck, STYLE_LABEL);
}

static void bench_frame(const char *what, const char *sys, int n, const char *model, int w, int h,
                        bool rack)
{
    Job j;
    if (!job_make(&j, sys, n, model)) {
        line_na(what, "job could not be built");
        return;
    }
    StepResult r;
    step_eval(&j.c, &j.w, &j.m, NULL, NULL, &r, NULL, 0);
    ViewInput in = view_input_default(&j.c);
    in.mapping = &j.m;
    in.result = &r;
    Canvas *cv = canvas_new(w, h);
    frame_draw(cv, w, h, &in, rack, &r);
    double t0 = cpu_s();
    frame_draw(cv, w, h, &in, rack, &r);
    double one = cpu_s() - t0;
    int batch = one > 0 ? (int)(0.02 / one) : 1000;
    if (batch < 1)
        batch = 1;
    double per[REPEATS];
    for (int k = 0; k < REPEATS; k++) {
        t0 = cpu_s();
        for (int i = 0; i < batch; i++)
            frame_draw(cv, w, h, &in, rack, &r);
        per[k] = (cpu_s() - t0) / batch;
    }
    canvas_free(cv);
    double t = median(per, REPEATS);
    char value[64];
    fmt_time(t, value, sizeof value);
    line(what, value, "< 1 ms", t < 1e-3);
}

/* --- the real binary ------------------------------------------------------ */

typedef struct {
    int status;           /* from wait4 */
    double first_frame_s; /* fork to the end of the first burst of output, < 0: none */
    long maxrss_kb;
    double cpu_s;   /* user + system CPU of the child, start to exit */
    char head[256]; /* the first output, for messages */
} PtyRun;

static double ru_cpu_s(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec * 1e-6 +
           (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec * 1e-6;
}

/* Runs argv on a new 80x24 pseudo-terminal. After the first burst of output
 * (or 3 s) and hold_s more seconds, sends `keys`, then waits up to 2 s for
 * the exit before SIGTERM. */
static bool pty_run(char *const argv[], const char *keys, double hold_s, PtyRun *out)
{
    memset(out, 0, sizeof *out);
    out->first_frame_s = -1;
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) || unlockpt(master))
        return false;
    char *slave_name = ptsname(master);
    if (!slave_name)
        return false;
    struct winsize ws = {24, 80, 0, 0};
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        setsid();
        int s = open(slave_name, O_RDWR);
        if (s < 0)
            _exit(127);
        ioctl(s, TIOCSCTTY, 0);
        ioctl(s, TIOCSWINSZ, &ws);
        dup2(s, 0);
        dup2(s, 1);
        dup2(s, 2);
        if (s > 2)
            close(s);
        close(master);
        setenv("TERM", "xterm-256color", 1);
        setenv("LANG", "C.UTF-8", 1);
        setenv("XDG_STATE_HOME", "/tmp/scalelab-bench-state", 1);
        execv(argv[0], argv);
        _exit(127);
    }
    char buf[4096];
    size_t head_len = 0;
    double last = -1;
    bool sent = false, done = false;
    double deadline = t0 + 3.0, hold_end = 0;
    while (!done) {
        struct pollfd pf = {master, POLLIN, 0};
        int wait_ms = last < 0 || now_s() < hold_end ? (int)((deadline - now_s()) * 1000) : 50;
        if (wait_ms < 0)
            wait_ms = 0;
        int k = poll(&pf, 1, wait_ms);
        if (k > 0 && (pf.revents & POLLIN)) {
            ssize_t got = read(master, buf, sizeof buf);
            if (got <= 0)
                break;
            if (!sent)
                last = now_s();
            if (head_len + 1 < sizeof out->head) {
                size_t take = (size_t)got;
                if (take > sizeof out->head - 1 - head_len)
                    take = sizeof out->head - 1 - head_len;
                memcpy(out->head + head_len, buf, take);
                head_len += take;
            }
            continue;
        }
        if (k > 0) /* POLLHUP: the child closed the terminal */
            break;
        if (!sent && last >= 0 && hold_s > 0) { /* the first frame is out: hold */
            out->first_frame_s = last - t0;
            hold_end = now_s() + hold_s;
            deadline = hold_end;
            hold_s = 0;
        }
        if (!sent && now_s() >= hold_end && (last >= 0 || now_s() >= deadline)) {
            if (last >= 0 && out->first_frame_s < 0)
                out->first_frame_s = last - t0;
            if (keys && write(master, keys, strlen(keys)) < 0)
                break;
            sent = true;
            deadline = now_s() + 2.0;
            last = 0;
        } else if (sent && now_s() >= deadline) {
            done = true;
        }
    }
    if (!sent && last >= 0)
        out->first_frame_s = last - t0;
    struct rusage ru;
    int st = 0;
    double end = now_s() + 2.0;
    pid_t w;
    while ((w = wait4(pid, &st, WNOHANG, &ru)) == 0 && now_s() < end)
        usleep(10000);
    if (w == 0) {
        kill(pid, SIGTERM);
        w = wait4(pid, &st, 0, &ru);
    }
    close(master);
    out->status = st;
    out->maxrss_kb = w > 0 ? ru.ru_maxrss : 0;
    out->cpu_s = w > 0 ? ru_cpu_s(&ru) : 0;
    return w > 0;
}

/* Runs argv with output to /dev/null; seconds from fork to exit. */
static double run_quiet(char *const argv[], int *status, long *maxrss_kb, double *cpu)
{
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    struct rusage ru;
    int st = 0;
    wait4(pid, &st, 0, &ru);
    double t = now_s() - t0;
    if (status)
        *status = st;
    if (maxrss_kb)
        *maxrss_kb = ru.ru_maxrss;
    if (cpu)
        *cpu = ru_cpu_s(&ru);
    return t;
}

static bool exited_ok(int st)
{
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void one_line_head(const char *head, char *buf, size_t len)
{
    size_t k = 0;
    for (const char *p = head; *p && k + 1 < len; p++)
        if (*p >= 0x20 && *p < 0x7f)
            buf[k++] = *p;
        else if (*p == '\n' && k > 0)
            break;
    buf[k] = '\0';
}

/* "46.2 ms (CPU 7.9 ms)": wall clock, and the child's own CPU time, which
 * other processes on a busy machine do not inflate. */
static void fmt_wall_cpu(double wall, double cpu, char *buf, size_t len)
{
    char a[24], b[24];
    fmt_time(wall, a, sizeof a);
    fmt_time(cpu, b, sizeof b);
    snprintf(buf, len, "%s (CPU %s)", a, b);
}

static void bench_startup(const char *bin)
{
    /* what fork + exec + exit costs on this machine right now */
    char *true_argv[] = {"/bin/true", NULL};
    double t[REPEATS], cpu[REPEATS];
    for (int k = 0; k < REPEATS; k++)
        t[k] = run_quiet(true_argv, NULL, NULL, &cpu[k]);
    char value[96];
    fmt_time(median(t, REPEATS), value, sizeof value);
    printf("%-60s %20s  (baseline, no target)\n", "start-up: exec to exit of /bin/true", value);

    char *argv[] = {(char *)bin, NULL};
    int got = 0;
    PtyRun pr;
    for (int k = 0; k < REPEATS; k++) {
        if (!pty_run(argv, "q", 0, &pr) || pr.first_frame_s < 0)
            break;
        bool ui = !(WIFEXITED(pr.status) && WEXITSTATUS(pr.status) == 2);
        if (!ui)
            break;
        t[got] = pr.first_frame_s;
        cpu[got++] = pr.cpu_s;
    }
    const char *w1 = "start-up: exec to first full frame (menu, 80x24 pty)";
    if (got < REPEATS) {
        char why[200], head[120];
        one_line_head(pr.head, head, sizeof head);
        snprintf(why, sizeof why, "the menu did not start: \"%.80s\"", head);
        line_na(w1, why);
    } else {
        double m = median(t, REPEATS);
        fmt_wall_cpu(m, median(cpu, REPEATS), value, sizeof value);
        line(w1, value, "< 30 ms", m < 30e-3);
    }

    char *list[] = {(char *)bin, "--list", NULL};
    char *alt[] = {(char *)bin, "eval", "--list", NULL};
    char *const *use = list;
    int st;
    run_quiet(list, &st, NULL, NULL);
    const char *what = "start-up: exec to exit of `scalelab --list`";
    if (!exited_ok(st)) {
        run_quiet(alt, &st, NULL, NULL);
        if (!exited_ok(st)) {
            line_na(what, "--list is not wired yet");
            return;
        }
        use = alt;
        what = "start-up: exec to exit of `scalelab eval --list`";
    }
    for (int k = 0; k < REPEATS; k++)
        t[k] = run_quiet(use, NULL, NULL, &cpu[k]);
    double m = median(t, REPEATS);
    fmt_wall_cpu(m, median(cpu, REPEATS), value, sizeof value);
    line(what, value, "< 30 ms", m < 30e-3);
}

/* The biggest *.lua in lessons/ (by bytes). */
static bool largest_lesson(char *path, size_t len)
{
    DIR *d = opendir("lessons");
    if (!d)
        return false;
    struct dirent *e;
    off_t best = -1;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".lua") != 0)
            continue;
        char p[512];
        snprintf(p, sizeof p, "lessons/%s", e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && st.st_size > best) {
            best = st.st_size;
            snprintf(path, len, "%s", p);
        }
    }
    closedir(d);
    return best >= 0;
}

/* Idle CPU with a lesson open: the UI checks the file once a second (a
 * key-read timeout, no other wake-up). The CPU of a run held open IDLE_S
 * seconds after its first frame, less that of a run that leaves at once. */
#define IDLE_S 3.0
static void bench_idle(const char *bin)
{
    char lesson[512], what[600];
    if (!largest_lesson(lesson, sizeof lesson)) {
        line_na("idle CPU: UI with a lesson open", "no lessons/ folder");
        return;
    }
    snprintf(what, sizeof what, "idle CPU: UI with %s open, %.0f s", lesson, IDLE_S);
    char *argv[] = {(char *)bin, lesson, NULL};
    PtyRun quick, held;
    if (!pty_run(argv, "\033", 0, &quick) || !pty_run(argv, "\033", IDLE_S, &held) ||
        quick.first_frame_s < 0 || held.first_frame_s < 0) {
        line_na(what, "the lesson did not open");
        return;
    }
    double share = (held.cpu_s - quick.cpu_s) / IDLE_S;
    char value[64];
    snprintf(value, sizeof value, "%.2f%% of a core", 100 * (share > 0 ? share : 0));
    line(what, value, "< 1%", share < 0.01);
}

static void bench_memory(const char *bin)
{
    char lesson[512], what[600];
    if (!largest_lesson(lesson, sizeof lesson)) {
        line_na("peak memory: UI with the largest lesson open", "no lessons/ folder");
    } else {
        snprintf(what, sizeof what, "peak memory: UI with %s open", lesson);
        char *argv[] = {(char *)bin, lesson, NULL};
        PtyRun pr;
        bool ok = pty_run(argv, "\033q", 0, &pr);
        bool ui =
            ok && pr.first_frame_s >= 0 && !(WIFEXITED(pr.status) && WEXITSTATUS(pr.status) == 2);
        if (!ui) {
            char why[200], head[120];
            one_line_head(pr.head, head, sizeof head);
            snprintf(why, sizeof why, "the lesson did not open: \"%.80s\"", head);
            line_na(what, why);
        } else {
            char value[64];
            snprintf(value, sizeof value, "%.1f MB", pr.maxrss_kb / 1024.0);
            line(what, value, "< 16 MB", pr.maxrss_kb < 16 * 1024);
        }
    }

    char *sweep[] = {(char *)bin, "sweep",       "--system", "gb200-nvl72", "--gpus", "1024",
                     "--model",   "deepseek-v3", "--top",    "1",           NULL};
    int st;
    long kb;
    run_quiet(sweep, &st, &kb, NULL);
    const char *w2 = "peak memory: `scalelab sweep`, 1,024 GB200, DeepSeek-V3";
    if (!exited_ok(st)) {
        line_na(w2, "`scalelab sweep` is not wired yet");
        return;
    }
    char value[64];
    snprintf(value, sizeof value, "%.1f MB", kb / 1024.0);
    line(w2, value, "< 16 MB", kb < 16 * 1024);
}

/* The first scenario page of the shipped lessons, by file name. */
static bool first_scenario(char *path, size_t len, int *page)
{
    for (int i = 1; i < 100; i++) {
        char pattern[64];
        snprintf(pattern, sizeof pattern, "lessons/%02d-", i);
        DIR *d = opendir("lessons");
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (strncmp(e->d_name, pattern + 8, 3) == 0) {
                char p[512], err[600];
                snprintf(p, sizeof p, "lessons/%s", e->d_name);
                Lesson *l = lesson_load_local(p, false, err, sizeof err);
                for (int k = 0; l && k < lesson_page_count(l); k++)
                    if (lesson_page_kind(l, k) == PAGE_SCENARIO) {
                        snprintf(path, len, "%s", p);
                        *page = k;
                        lesson_free(l);
                        closedir(d);
                        return true;
                    }
                lesson_free(l);
            }
        if (d)
            closedir(d);
    }
    return false;
}

/* Median seconds per goal check of page over REPEATS batches of n calls. */
static double time_goals(Lesson *l, int page, const Scenario *s, int n, bool wall)
{
    char why[600], err[600];
    double t[REPEATS];
    for (int k = 0; k < REPEATS; k++) {
        double t0 = wall ? now_s() : cpu_s();
        for (int i = 0; i < n; i++)
            lesson_scenario_goal_met(l, page, s, why, sizeof why, err, sizeof err);
        t[k] = ((wall ? now_s() : cpu_s()) - t0) / n;
    }
    return median(t, REPEATS);
}

static void bench_host(void)
{
    char path[512], err[600], what[700], value[64];
    int page;
    if (!first_scenario(path, sizeof path, &page)) {
        line_na("host: goal check round trip", "no scenario in lessons/");
        return;
    }
    Lesson *local = lesson_load_local(path, false, err, sizeof err);
    Lesson *remote = lesson_load(path, err, sizeof err);
    Scenario *s = local ? lesson_scenario_start(local, page, err, sizeof err) : NULL;
    if (!remote || !s) {
        line_na("host: goal check round trip", err);
    } else {
        double in = time_goals(local, page, s, 200, false);
        double through = time_goals(remote, page, s, 200, true);
        fmt_time(in, value, sizeof value);
        snprintf(what, sizeof what, "host: the same goal in this process (%s p%d)", path + 8,
                 page + 1);
        printf("%-60s %20s  (baseline, no target)\n", what, value);
        fmt_time(through, value, sizeof value);
        line("host: goal check round trip through the lesson host", value, "< 1 ms",
             through < 1e-3);
    }
    scenario_free(s);
    lesson_free(local);
    lesson_free(remote);

    char cache[] = "/tmp/scalelab-bench-cache-XXXXXX";
    if (!mkdtemp(cache)) {
        line_na("host: menu start from the cache", "no temporary folder");
        return;
    }
    setenv("XDG_CACHE_HOME", cache, 1);
    double t[REPEATS];
    int n = 0;
    for (int k = 0; k < REPEATS; k++) {
        char file[600];
        snprintf(file, sizeof file, "%s/scalelab/catalog", cache);
        unlink(file); /* cold: every lesson loaded in a host of its own */
        double t0 = now_s();
        Catalog *c = catalog_load("lessons", err, sizeof err);
        t[k] = now_s() - t0;
        n = catalog_count(c);
        catalog_free(c);
    }
    double cold = median(t, REPEATS);
    for (int k = 0; k < REPEATS; k++) {
        double t0 = now_s();
        Catalog *c = catalog_load("lessons", err, sizeof err);
        t[k] = now_s() - t0;
        catalog_free(c);
    }
    double warm = median(t, REPEATS);
    snprintf(what, sizeof what, "host: menu start, catalog of %d lessons from the cache", n);
    fmt_time(warm, value, sizeof value);
    line(what, value, "< 2 ms", warm < 2e-3);
    snprintf(what, sizeof what, "host: menu start, %d lessons without the cache (hosts)", n);
    fmt_time(cold, value, sizeof value);
    line(what, value, "< 250 ms", cold < 0.25);
    char rm[700];
    snprintf(rm, sizeof rm, "rm -rf '%s'", cache);
    if (system(rm) != 0)
        fprintf(stderr, "bench: could not remove %s\n", cache);
    unsetenv("XDG_CACHE_HOME");
}

int main(void)
{
    const char *bin = getenv("SCALELAB_BIN");
    if (!bin || !*bin)
        bin = "./scalelab";
    cpu_line();
    static const struct {
        const char *what, *sys;
        int n;
        const char *model;
        BenchPlace place;
    } evals[] = {
        {"eval: 8 H100, Llama 3 8B", "dgx-h100", 8, "llama3-8b", PLACE_DEFAULT},
        {"eval: 16,384 GB200, Llama 3 70B", "gb200-nvl72", 16384, "llama3-70b", PLACE_DEFAULT},
        {"eval: 131,072 GB200, Llama 3 405B", "gb200-nvl72", 131072, "llama3-405b", PLACE_DEFAULT},
        {"eval: MoE, 16,384 GB200, DeepSeek-V3", "gb200-nvl72", 16384, "deepseek-v3",
         PLACE_DEFAULT},
        {"eval: one GPU swapped, 131,072 GB200, 405B", "gb200-nvl72", 131072, "llama3-405b",
         PLACE_ONE_SWAP},
        {"eval: all GPUs shuffled, 131,072 GB200, 405B", "gb200-nvl72", 131072, "llama3-405b",
         PLACE_SHUFFLED},
    };
    for (size_t i = 0; i < sizeof evals / sizeof evals[0]; i++)
        bench_eval(evals[i].what, evals[i].sys, evals[i].n, evals[i].model, evals[i].place);
    bench_every_pair();
    static const struct {
        const char *what, *sys;
        int n;
        const char *model;
    } sweeps[] = {
        {"sweep: 1,024 GB200, DeepSeek-V3", "gb200-nvl72", 1024, "deepseek-v3"},
        {"sweep: 16,384 GB200, DeepSeek-V3", "gb200-nvl72", 16384, "deepseek-v3"},
        {"sweep: 131,072 GB200, DeepSeek-V3", "gb200-nvl72", 131072, "deepseek-v3"},
        {"sweep: 131,072 H100, Llama 3 405B", "dgx-h100", 131072, "llama3-405b"},
    };
    for (int settings = 0; settings < 2; settings++)
        for (size_t i = 0; i < sizeof sweeps / sizeof sweeps[0]; i++)
            bench_sweep(sweeps[i].what, sweeps[i].sys, sweeps[i].n, sweeps[i].model, settings);
    static const struct {
        const char *what, *sys;
        int n;
        const char *model;
        int w, h;
        bool rack;
    } frames[] = {
        {"frame 80x24: NVL72 rack view + step bar + text", "gb200-nvl72", 72, "llama3-8b", 80, 24,
         true},
        {"frame 250x70: NVL72 rack view + step bar + text", "gb200-nvl72", 72, "llama3-8b", 250,
         70, true},
        {"frame 80x24: 16,384-GPU fabric + step bar + text", "dgx-h100", 16384, "llama3-70b", 80,
         24, false},
        {"frame 250x70: 16,384-GPU fabric + step bar + text", "dgx-h100", 16384, "llama3-70b", 250,
         70, false},
    };
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++)
        bench_frame(frames[i].what, frames[i].sys, frames[i].n, frames[i].model, frames[i].w,
                    frames[i].h, frames[i].rack);
    bench_startup(bin);
    bench_idle(bin);
    bench_memory(bin);
    bench_host();
    printf("%d target%s missed\n", misses, misses == 1 ? "" : "s");
    return 0;
}
