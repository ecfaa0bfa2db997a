/* SPDX-License-Identifier: MIT */
/* test_host — the lesson host, the second line of defence: every lesson runs
 * in a child process, and whatever that child does (crash, hang in C, call
 * what it may not, answer garbage) comes back as one line naming the file,
 * in bounded time, with the caller unharmed and the next lesson served by a
 * fresh host.
 *
 * The failures are real: with SCALELAB_TEST_FAULTS=1 (set here, never by
 * scalelab) a line "scalelab-test-fault: KIND WHEN" in a lesson makes its
 * host raise SIGSEGV, spin in C, open a file, signal its parent... (host.h,
 * lesson_host.c). The child's state is read from outside, in /proc: its
 * descriptors, limits, seccomp mode and process group. And every lesson of
 * the project, loaded in this process and through a host, must hold the same
 * bytes (lesson_same), so a page field that does not cross fails here.
 */
#include "base/clock.h"
#include "lesson/host.h"
#include "lesson/lesson.h"
#include "lesson/lesson_local.h"
#include "lesson/sandbox.h"
#include "lesson/wire.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four above, which it needs */

#include "testlib.h"

#include <dirent.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static int setup(void **state)
{
    (void)state;
    setenv("SCALELAB_TEST_FAULTS", "1", 1);
    return tl_tmpdir_make(dir, sizeof dir, "host") ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    unsetenv("SCALELAB_TEST_FAULTS");
    return tl_tmpdir_remove(dir) ? 0 : -1;
}

/* A small lesson with two scenario pages: page 1's goal calls string.rep
 * on line 14, page 2's does not. fault goes on line 1 ("" for none). */
static const char *lesson_with(const char *name, const char *fault)
{
    static char path[160];
    snprintf(path, sizeof path, "%s/%s.lua", dir, name);
    char text[4096];
    snprintf(text, sizeof text,
             "-- %s\n"
             "local function page(title, check)\n"
             "  return { kind = \"scenario\", title = title, text = \"t\",\n"
             "    cluster = { system = \"dgx-h100\", gpus = 16 },\n"
             "    workload = { model = \"llama3-8b\", batch = 32, mb = 1 },\n"
             "    mapping = { tp = 8, pp = 1, dp = 2 },\n"
             "    goal = { text = \"Span both servers.\", check = check },\n"
             "    solution = { \"swap 3 11\" } }\n"
             "end\n"
             "return { id = \"%s\", title = \"Host test\", pages = {\n"
             "  { kind = \"text\", title = \"T\", text = \"hello\" },\n"
             "  page(\"A\", function(r)\n"
             "    local spans = r.span.tp.domains > 1\n"
             "    local pad = string.rep(\"x\", 3)\n"
             "    return spans, spans and \"\" or \"inside one server\" .. pad end),\n"
             "  page(\"B\", function(r) return r.span.tp.domains > 1, \"not yet\" end),\n"
             "} }\n",
             fault[0] ? fault : "no fault", name);
    tl_write_file(path, text);
    return path;
}

static void fault_text(char *buf, size_t n, const char *kind, const char *when)
{
    snprintf(buf, n, "scalelab-test-fault: %s %s", kind, when);
}

/* ---- the child as the OS sees it ------------------------------------------ */

static char *proc_read(int pid, const char *what)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", pid, what);
    return tl_read_file(path);
}

/* The limit line of /proc/PID/limits whose name starts with name: its soft
 * value as text ("0", "unlimited"). */
static void proc_limit(const char *limits, const char *name, char *out, size_t n)
{
    const char *at = strstr(limits, name);
    out[0] = '\0';
    if (at)
        sscanf(at + strlen(name), "%63s", out);
    (void)n;
}

static void test_host_child_keeps_one_descriptor_and_its_limits(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load(lesson_with("plain", ""), err, sizeof err);
    if (!l)
        print_error("%s\n", err);
    assert_non_null(l);
    int pid = host_pid(lesson_host(l));
    assert_true(pid > 0 && pid != getpid());
    /* Descriptors: only the socket, as fd 0 (stderr too under a sanitizer). */
    char fddir[64], link[400], target[256];
    snprintf(fddir, sizeof fddir, "/proc/%d/fd", pid);
    DIR *d = opendir(fddir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(link, sizeof link, "%s/%s", fddir, e->d_name);
        ssize_t len = readlink(link, target, sizeof target - 1);
        target[len > 0 ? len : 0] = '\0';
        print_message("host fd %s -> %s\n", e->d_name, target);
        if (strcmp(e->d_name, "0") == 0)
            CONTAINS(target, "socket:");
        else if (!host_filters() && atoi(e->d_name) >= 1024)
            continue; /* valgrind's own, above the client's descriptors */
        else
            assert_true(!host_filters() && strcmp(e->d_name, "2") == 0);
        n++;
    }
    closedir(d);
    assert_true(n == 1 || (!host_filters() && n == 2));
    /* Limits, as the kernel reports them. */
    char *limits = proc_read(pid, "limits"), v[64];
    assert_non_null(limits);
    proc_limit(limits, "Max file size", v, sizeof v);
    assert_string_equal(v, "0");
    proc_limit(limits, "Max core file size", v, sizeof v);
    assert_string_equal(v, "0");
    proc_limit(limits, "Max processes", v, sizeof v);
    assert_string_equal(v, "0");
    proc_limit(limits, "Max open files", v, sizeof v);
    if (!tl_slow_run()) /* valgrind keeps its own limit, past the client's */
        assert_string_equal(v, host_filters() ? "1" : "3");
    proc_limit(limits, "Max cpu time", v, sizeof v);
    assert_true(atoi(v) >= 1 && atoi(v) <= 601);
    proc_limit(limits, "Max address space", v, sizeof v);
    if (host_filters())
        assert_true(strcmp(v, "unlimited") != 0 && atoll(v) > (long long)HOST_AS_EXTRA);
    free(limits);
    /* Seccomp in filter mode, no new privileges, its own process group. */
    char *status = proc_read(pid, "status");
    assert_non_null(status);
    if (host_filters()) {
        CONTAINS(status, "Seccomp:\t2");
        CONTAINS(status, "NoNewPrivs:\t1");
    }
    free(status);
    assert_int_equal(getpgid(pid), pid);
    lesson_free(l);
    /* Freed: killed and reaped (no zombie left behind). */
    assert_int_equal(kill(pid, 0), -1);
}

/* ---- a lesson's load that ends badly --------------------------------------- */

typedef struct {
    const char *kind;
    const char *words; /* in the message after "the lesson stopped: " */
    bool filters;      /* needs the seccomp filter and RLIMIT_AS */
} Fault;

static const Fault faults[] = {
    {"segv", "it crashed (SIGSEGV)", false},
    {"abort", "it aborted (SIGABRT", false},
    {"exit", "it exited unexpectedly (status ", false}, /* 3; valgrind makes it 1 */
    {"spin", "it ran past its time limit", false},
    {"stall", "it ran past its time limit", false},
    {"garbage", "it sent a malformed answer", false},
    {"huge", "it sent a malformed answer (too long)", false},
    {"oom", "it aborted (SIGABRT: out of memory", true},
    {"syscall", "it made a system call lessons may not make (SIGSYS)", true},
    {"exec", "it made a system call lessons may not make (SIGSYS)", true},
    {"fork", "it made a system call lessons may not make (SIGSYS)", true},
    {"kill", "it made a system call lessons may not make (SIGSYS)", true},
    {"mmap-exec", "it made a system call lessons may not make (SIGSYS)", true},
};

static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

static void expect_stopped(const char *path, const char *err, const char *words, double dt,
                           double bound_s)
{
    char want[300];
    snprintf(want, sizeof want, "%s: the lesson stopped: ", path);
    if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, words) || dt > bound_s ||
        has_control(err)) {
        print_error("want '%s%s...' within %.2f s, got after %.3f s: %s\n", want, words, bound_s,
                    dt, err);
        fail();
    }
}

/* Every fault at load, through the menu's loader (the catalog's limits),
 * the UI's loader and `check`: one line, in time, and this process (whose
 * child tried to kill it, among others) still here. */
static void test_host_faults_at_load_are_lines(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
        const Fault *f = &faults[i];
        if (f->filters && !host_filters()) {
            print_message("%-9s skipped: no seccomp filter in this build\n", f->kind);
            continue;
        }
        if (strstr(f->words, "time limit") && tl_slow_run()) {
            print_message("%-9s skipped: its deadline is stretched for a slow run\n", f->kind);
            continue;
        }
        char mark[80], err[MSG_LEN] = "";
        fault_text(mark, sizeof mark, f->kind, "load");
        const char *path = lesson_with(f->kind, mark);
        double t0 = clock_now_s();
        Lesson *l = lesson_load_quick(path, err, sizeof err);
        double quick_s = clock_now_s() - t0;
        assert_null(l);
        expect_stopped(path, err, f->words, quick_s, 1.0 * tl_slowdown());
        t0 = clock_now_s();
        l = lesson_load(path, err, sizeof err);
        double load_s = clock_now_s() - t0;
        assert_null(l);
        expect_stopped(path, err, f->words, load_s, 3.0 * tl_slowdown());
        print_message("%-9s list %.3f s, open %.3f s: %s\n", f->kind, quick_s, load_s, err);
    }
}

static void collect_first(void *ctx, const char *line)
{
    char *first = ctx;
    if (!first[0])
        snprintf(first, MSG_LEN, "%s", line);
}

static void test_host_faults_in_check_are_problems(void **state)
{
    (void)state;
    static const char *const kinds[] = {"segv", "spin", "garbage"};
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(kinds[i], "spin") == 0 && tl_slow_run())
            continue; /* its deadline is stretched for a slow run */
        char mark[80], first[MSG_LEN] = "", id[64] = "x";
        fault_text(mark, sizeof mark, kinds[i], "check");
        const char *path = lesson_with(kinds[i], mark);
        double t0 = clock_now_s();
        int n = lesson_check_file_id(path, collect_first, first, id, sizeof id);
        double dt = clock_now_s() - t0;
        assert_int_equal(n, 1);
        assert_string_equal(id, "");
        expect_stopped(path, first, "", dt, 3.0 * tl_slowdown());
        print_message("check %-8s %.3f s: %s\n", kinds[i], dt, first);
    }
}

/* ---- a goal that ends badly ------------------------------------------------ */

/* A SIGSEGV inside a C call of page 1's goal (string.rep, line 14) is
 * reported at that line; page 2's goal then runs in a fresh host, and page
 * 1's crashes again, in yet another. */
static void test_host_goal_crash_names_its_line_then_a_fresh_host(void **state)
{
    (void)state;
    char err[MSG_LEN] = "", why[MSG_LEN];
    const char *path = lesson_with("goalcrash", "scalelab-test-fault: segv call:string.rep");
    Lesson *l = lesson_load(path, err, sizeof err);
    if (!l)
        print_error("%s\n", err);
    assert_non_null(l);
    int first_pid = host_pid(lesson_host(l));
    Scenario *a = lesson_scenario_start(l, 1, err, sizeof err);
    Scenario *b = lesson_scenario_start(l, 2, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(lesson_scenario_goal_met(l, 1, a, why, sizeof why, err, sizeof err), -1);
    char want[300];
    snprintf(want, sizeof want, "%s:14: the lesson stopped: it crashed (SIGSEGV)", path);
    assert_string_equal(err, want);
    assert_false(host_alive(lesson_host(l)));
    assert_int_equal(lesson_scenario_goal_met(l, 2, b, why, sizeof why, err, sizeof err), 0);
    assert_string_equal(why, "not yet");
    int second_pid = host_pid(lesson_host(l));
    assert_true(second_pid > 0 && second_pid != first_pid);
    assert_int_equal(lesson_scenario_goal_met(l, 1, a, why, sizeof why, err, sizeof err), -1);
    assert_string_equal(err, want);
    /* And the next call after that crash starts another host again. */
    char out[MSG_LEN * 2];
    LessonPlay play = {.moves = 1};
    assert_true(lesson_scenario_debrief_for(l, 2, b, &play, out, sizeof out, err, sizeof err));
    assert_string_equal(out, "1 key press.");
    scenario_free(a);
    scenario_free(b);
    lesson_free(l);
}

static int polls;

static bool poll_stop_after_half_a_second(void *ctx, double running_s)
{
    (void)ctx;
    polls++;
    return running_s >= 0.5;
}

/* A goal stuck in C, where no Lua hook runs: the parent still answers its
 * key poll every SANDBOX_POLL_S and stops the host at once when asked. */
static void test_host_poll_stops_a_goal_stuck_in_c(void **state)
{
    (void)state;
    char err[MSG_LEN] = "", why[MSG_LEN];
    const char *path = lesson_with("stuck", "scalelab-test-fault: spin call:string.rep");
    Lesson *l = lesson_load(path, err, sizeof err);
    assert_non_null(l);
    Scenario *a = lesson_scenario_start(l, 1, err, sizeof err);
    polls = 0;
    sandbox_set_poll(poll_stop_after_half_a_second, NULL);
    double t0 = clock_now_s();
    int met = lesson_scenario_goal_met(l, 1, a, why, sizeof why, err, sizeof err);
    double dt = clock_now_s() - t0;
    sandbox_set_poll(NULL, NULL);
    print_message("stuck goal stopped after %.3f s, %d polls: %s\n", dt, polls, err);
    assert_int_equal(met, -1);
    char want[300];
    snprintf(want, sizeof want,
             "%s:14: stopped by the learner (Esc or Ctrl-C) while still running", path);
    assert_string_equal(err, want);
    assert_true(dt >= 0.5 && dt < 0.5 + 0.3 * tl_slowdown());
    assert_true(polls >= 5); /* every 50 ms from 0.2 s on */
    scenario_free(a);
    lesson_free(l);
}

/* ---- what crosses -------------------------------------------------------- */

/* Every lesson file of the project that loads: loaded here and through a
 * host, byte for byte the same (strings and lists by content), and so are
 * the goal's answer at the start and after the reference solution, and the
 * debrief. */
static void same_both_ways(const char *path, bool goals)
{
    char err[MSG_LEN] = "", why[MSG_LEN];
    Lesson *local = lesson_load_local(path, false, err, sizeof err);
    if (!local)
        return; /* a file meant to fail (tests/lessons/typos.lua) */
    Lesson *remote = lesson_load(path, err, sizeof err);
    if (!remote)
        print_error("%s: loads here, not through a host: %s\n", path, err);
    assert_non_null(remote);
    if (!lesson_same(local, remote, why, sizeof why)) {
        print_error("%s: differs through the host at %s\n", path, why);
        fail();
    }
    for (int p = 0; goals && p < lesson_page_count(local); p++) {
        if (lesson_page_kind(local, p) != PAGE_SCENARIO)
            continue;
        Scenario *s = lesson_scenario_start(local, p, err, sizeof err);
        if (!s)
            continue;
        for (int round = 0; round < 2; round++) {
            char w1[MSG_LEN], w2[MSG_LEN], e1[MSG_LEN] = "", e2[MSG_LEN] = "";
            int m1 = lesson_scenario_goal_met(local, p, s, w1, sizeof w1, e1, sizeof e1);
            int m2 = lesson_scenario_goal_met(remote, p, s, w2, sizeof w2, e2, sizeof e2);
            assert_int_equal(m1, m2);
            assert_string_equal(w1, w2);
            assert_string_equal(e1, e2);
            LessonPlay play = {.moves = 3, .hints = 1};
            char d1[MSG_LEN * 2], d2[MSG_LEN * 2];
            lesson_scenario_debrief_for(local, p, s, &play, d1, sizeof d1, e1, sizeof e1);
            lesson_scenario_debrief_for(remote, p, s, &play, d2, sizeof d2, e2, sizeof e2);
            assert_string_equal(d1, d2);
            for (int i = 0; round == 0 && i < lesson_scenario_solution_count(local, p); i++)
                scenario_apply_text(s, lesson_scenario_solution_move(local, p, i), why,
                                    sizeof why);
        }
        scenario_free(s);
    }
    lesson_free(local);
    lesson_free(remote);
}

static void test_host_every_lesson_crosses_whole(void **state)
{
    (void)state;
    static const char *const patterns[] = {
        "lessons/*.lua",
        "tests/lessons/exercises.lua",
        "tests/lessons/typos.lua",
        "tests/lessons/crossing.lua",
        "tests/e2e/lessons/*.lua",
        "tests/present/*.lua",
        "tests/lessons/hostile/*.lua",
    };
    int files = 0, compared = 0, every = tl_cases(1, 8); /* every 8th under valgrind */
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        glob_t g;
        if (glob(patterns[i], 0, NULL, &g) != 0)
            continue;
        for (size_t k = 0; k < g.gl_pathc; k++, files++) {
            const char *path = g.gl_pathv[k];
            if (files % every != 0 && !strstr(path, "crossing.lua")) /* made to cross whole */
                continue;
            /* hostile goals run to their limits: their files are compared */
            same_both_ways(path, !strstr(patterns[i], "hostile"));
            compared++;
        }
        globfree(&g);
    }
    print_message("%d of %d lesson files compared\n", compared, files);
    assert_true(files >= 16 && compared >= files / every);
}

/* The comparison itself can fail: a page text changed on one side, and a
 * member of a struct left out of its field table, are both found. */
typedef struct {
    int a;
    char *s;
    int forgotten;
} Two;

static void test_host_comparison_finds_a_missing_member(void **state)
{
    (void)state;
    static const WireField all[] = {WIRE_F_INT(Two, a, 0, 10), WIRE_F_STR(Two, s, 0),
                                    WIRE_F_INT(Two, forgotten, 0, 10)};
    static const WireField some[] = {WIRE_F_INT(Two, a, 0, 10), WIRE_F_STR(Two, s, 0)};
    Two x, y; /* zeroed whole, padding too, as calloc'ed Lessons are */
    memset(&x, 0, sizeof x);
    x.a = 1;
    x.s = "same";
    x.forgotten = 5;
    Wire w;
    wire_init(&w);
    wire_put_struct(&w, &x, some, WIRE_N(some));
    memset(&y, 0, sizeof y);
    WireIn r = wire_in(w.buf, w.len);
    assert_true(wire_get_struct(&r, &y, some, WIRE_N(some)));
    char why[200];
    assert_false(wire_same_struct(&x, &y, sizeof x, some, WIRE_N(some), why, sizeof why));
    CONTAINS(why, "missing from the field table");
    free(y.s);
    wire_free(&w);
    /* With the member in the table it crosses, and the two are the same. */
    wire_init(&w);
    wire_put_struct(&w, &x, all, WIRE_N(all));
    memset(&y, 0, sizeof y);
    r = wire_in(w.buf, w.len);
    assert_true(wire_get_struct(&r, &y, all, WIRE_N(all)));
    assert_true(wire_same_struct(&x, &y, sizeof x, all, WIRE_N(all), why, sizeof why));
    y.a = 2;
    assert_false(wire_same_struct(&x, &y, sizeof x, all, WIRE_N(all), why, sizeof why));
    assert_string_equal(why, "a differs");
    free(y.s);
    wire_free(&w);
}

/* What a host sends is not trusted: the encoding of a real lesson, cut short
 * anywhere or with any byte changed, is refused or read as a lesson that
 * holds together, never anything else (ASan and UBSan watch the reads). */
static void test_host_mangled_answers_refused(void **state)
{
    (void)state;
    char err[MSG_LEN] = "";
    Lesson *l = lesson_load_local("tests/e2e/lessons/01-e2e-basics.lua", false, err, sizeof err);
    assert_non_null(l);
    Wire w;
    wire_init(&w);
    lesson_to_wire(l, &w);
    lesson_free(l);
    int refused = 0, read = 0;
    for (size_t cut = 0; cut < w.len; cut += 7) {
        WireIn r = wire_in(w.buf, cut);
        Lesson *m = lesson_from_wire("x.lua", &r, err, sizeof err);
        refused += m == NULL;
        lesson_free(m);
    }
    unsigned char *copy = malloc(w.len);
    assert_non_null(copy);
    for (size_t i = 0; i < w.len; i++) {
        static const unsigned char bytes[] = {0x00, 0xff, 0x7f, 0x80, 0x01};
        for (size_t k = 0; k < sizeof bytes; k++) {
            memcpy(copy, w.buf, w.len);
            copy[i] = bytes[k];
            WireIn r = wire_in(copy, w.len);
            Lesson *m = lesson_from_wire("x.lua", &r, err, sizeof err);
            if (m) {
                read++;
                for (int p = 0; p < lesson_page_count(m); p++)
                    (void)strlen(lesson_page_text(m, p)); /* every string terminated */
            } else {
                refused++;
            }
            lesson_free(m);
        }
    }
    free(copy);
    WireIn whole = wire_in(w.buf, w.len);
    Lesson *m = lesson_from_wire("x.lua", &whole, err, sizeof err);
    assert_non_null(m);
    lesson_free(m);
    print_message("%zu-byte lesson: %d mangled copies refused, %d read\n", w.len, refused, read);
    assert_true(refused > 0);
    wire_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_child_keeps_one_descriptor_and_its_limits),
        cmocka_unit_test(test_host_faults_at_load_are_lines),
        cmocka_unit_test(test_host_faults_in_check_are_problems),
        cmocka_unit_test(test_host_goal_crash_names_its_line_then_a_fresh_host),
        cmocka_unit_test(test_host_poll_stops_a_goal_stuck_in_c),
        cmocka_unit_test(test_host_every_lesson_crosses_whole),
        cmocka_unit_test(test_host_comparison_finds_a_missing_member),
        cmocka_unit_test(test_host_mangled_answers_refused),
    };
    return cmocka_run_group_tests_name("host", tests, setup, teardown);
}
