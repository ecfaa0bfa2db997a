/* SPDX-License-Identifier: MIT */
/* host — the lesson host process and the parent's side of its socket (see
 * host.h).
 *
 * Invariants: the child never returns into the caller's code (it ends with
 * _exit, so no stdio buffer or atexit handler of the parent runs twice); the
 * parent never blocks on the child (its socket is non-blocking, every wait is
 * a poll with the request's deadline) and never gets SIGPIPE from it
 * (MSG_NOSIGNAL); every child is reaped by the call that ends it. Linux
 * only in places (prctl, seccomp, close_range), like the rest of scalelab.
 */
#include "lesson/host.h"

#include "base/clock.h"
#include "base/msg.h"
#include "base/xmem.h"
#include "lesson/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef SCALELAB_SECCOMP
#include <seccomp.h>
#endif

/* Valgrind's core makes system calls of its own on the child's behalf, so
 * the filter would kill it: its client request says whether it runs us. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>
#define HOST_VALGRIND() (RUNNING_ON_VALGRIND != 0)
/* A request carries model structs as they are, padding included: bytes
 * nobody reads, which memcheck would report as sent undefined. */
#define HOST_DEFINED(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#endif
#endif
#ifndef HOST_VALGRIND
#define HOST_VALGRIND()    false
#define HOST_DEFINED(p, n) ((void)(p), (void)(n))
#endif

#if defined(__SANITIZE_ADDRESS__)
#define HOST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOST_SANITIZED 1
#endif
#endif
#ifndef HOST_SANITIZED
#define HOST_SANITIZED 0
#endif

/* CPU seconds a long-lived host may use in all (a learner's session of
 * goals); each request is held to its own allowance besides. */
#define HOST_CPU_TOTAL_S 600

/* What the child leaves for the parent to read after it died. */
typedef struct {
    volatile int line; /* the lesson line it last ran, 0: unknown */
} HostShared;

struct Host {
    int pid;
    int fd;
    HostShared *shared;
};

/* ---- the child --------------------------------------------------------- */

static bool host_faults_on;

static bool host_read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        p += got;
        n -= (size_t)got;
    }
    return true;
}

static bool host_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t put = write(fd, p, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return false;
        p += put;
        n -= (size_t)put;
    }
    return true;
}

static bool host_under_valgrind(void)
{
    return HOST_VALGRIND();
}

/* Every signal back to its default, none blocked: the parent's handlers
 * (the terminal's restore, Ctrl-C) are not the child's. */
static void host_child_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            sigaction(sig, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    stack_t ss = {.ss_flags = SS_DISABLE};
    sigaltstack(&ss, NULL);
}

/* The socket becomes fd 0; every other descriptor is closed (stderr kept
 * under a sanitizer, for its reports). */
static void host_child_fds(int sock)
{
    if (sock != 0) {
        dup2(sock, 0);
        close(sock);
    }
    int first = HOST_SANITIZED || host_under_valgrind() ? 3 : 1;
    if (first == 3)
        close(1);
#ifdef SYS_close_range
    bool closed = syscall(SYS_close_range, (unsigned)first, ~0u, 0u) == 0;
#else
    bool closed = false;
#endif
    if (!closed) {
        struct rlimit rl;
        long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
                           rl.rlim_cur < 65536
                       ? (long)rl.rlim_cur
                       : 65536;
        for (long fd = first; fd < max; fd++)
            close((int)fd);
    }
}

static void host_limit(int resource, rlim_t soft, rlim_t hard)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) == 0 && rl.rlim_max != RLIM_INFINITY && hard > rl.rlim_max)
        hard = rl.rlim_max; /* an unprivileged process can only lower */
    rl.rlim_cur = soft < hard ? soft : hard;
    rl.rlim_max = hard;
    setrlimit(resource, &rl);
}

/* The child's address space now (from /proc/self/statm), 0 when unknown. */
static size_t host_vm_size(void)
{
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char buf[64] = "";
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    long pages = n > 0 ? atol(buf) : 0;
    return pages > 0 ? (size_t)pages * (size_t)sysconf(_SC_PAGESIZE) : 0;
}

static void host_child_limits(void)
{
    bool instrumented = HOST_SANITIZED || host_under_valgrind();
    size_t vm = host_vm_size();
    if (!instrumented && vm > 0) /* ASan's shadow memory needs terabytes of it */
        host_limit(RLIMIT_AS, vm + HOST_AS_EXTRA, vm + HOST_AS_EXTRA);
    host_limit(RLIMIT_CPU, HOST_CPU_TOTAL_S, HOST_CPU_TOTAL_S + 1);
    host_limit(RLIMIT_FSIZE, 0, 0);
    host_limit(RLIMIT_CORE, 0, 0);
    host_limit(RLIMIT_NPROC, 0, 0);
    host_limit(RLIMIT_NOFILE, instrumented ? 3 : 1, instrumented ? 3 : 1);
}

/* Holds the next request to its own CPU time: what the child has used so
 * far plus the request's allowance, rounded up, plus one second. */
static void host_cpu_for(double seconds)
{
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0)
        return;
    double allow = (double)t.tv_sec + 1.0 + ceil(seconds > 0 && seconds < 1e6 ? seconds : 1e6);
    struct rlimit rl;
    if (getrlimit(RLIMIT_CPU, &rl) != 0)
        return;
    rl.rlim_cur =
        rl.rlim_max != RLIM_INFINITY && (rlim_t)allow > rl.rlim_max ? rl.rlim_max : (rlim_t)allow;
    setrlimit(RLIMIT_CPU, &rl);
}

#ifdef SCALELAB_SECCOMP
/* What the Lua VM and the socket need, nothing else: memory (never
 * executable), the clock, reads and writes of the socket (and of stderr,
 * which is closed, so glibc's last words before abort fail instead of
 * killing), reading its limits and lowering its CPU time, signals to
 * itself (abort), and the end. */
static bool host_seccomp(void)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!ctx)
        return false;
    int self = getpid();
    int rc = 0;
    static const int plain[] = {
        SCMP_SYS(brk),          SCMP_SYS(munmap),         SCMP_SYS(mremap),
        SCMP_SYS(madvise),      SCMP_SYS(clock_gettime),  SCMP_SYS(clock_getres),
        SCMP_SYS(gettimeofday), SCMP_SYS(getpid),         SCMP_SYS(gettid),
        SCMP_SYS(getrlimit),    SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn),
        SCMP_SYS(exit),         SCMP_SYS(exit_group),     SCMP_SYS(restart_syscall),
    };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, plain[i], 0);
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
                           SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
                           SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(read), 1, SCMP_A0(SCMP_CMP_EQ, 0, 0));
    static const int writes[] = {SCMP_SYS(write), SCMP_SYS(writev)};
    for (size_t i = 0; i < 2; i++) {
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, writes[i], 1, SCMP_A0(SCMP_CMP_EQ, 0, 0));
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, writes[i], 1, SCMP_A0(SCMP_CMP_EQ, 2, 0));
    }
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 2, SCMP_A0(SCMP_CMP_EQ, 0, 0),
                           SCMP_A1(SCMP_CMP_EQ, RLIMIT_CPU, 0));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 2, SCMP_A0(SCMP_CMP_EQ, 0, 0),
                           SCMP_A2(SCMP_CMP_EQ, 0, 0)); /* reading a limit */
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
                           SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)self, 0));
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    return rc == 0;
}
#endif

/* Sets the child up (see host.h); false when a step that must hold did not. */
static bool host_child_setup(int sock, int parent)
{
    host_child_signals();
    setpgid(0, 0); /* no Ctrl-C or Ctrl-Z from the terminal */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        return false;
    const char *faults = getenv("SCALELAB_TEST_FAULTS");
    host_faults_on = faults && strcmp(faults, "1") == 0;
    sandbox_set_poll(NULL, NULL); /* the parent's key poll: not here */
    host_child_fds(sock);
    host_child_limits();
#ifdef SCALELAB_SECCOMP
    if (!HOST_SANITIZED && !host_under_valgrind() && !host_seccomp())
        return false;
#endif
    return true;
}

_Noreturn static void host_child_main(int sock, int parent, HostServeFn serve, HostShared *shared)
{
    if (!host_child_setup(sock, parent))
        _exit(126);
    sandbox_set_line_sink(&shared->line);
    for (;;) {
        uint32_t n;
        if (!host_read_all(0, &n, sizeof n))
            _exit(0); /* the parent closed its end */
        if (n < sizeof(double) || n > HOST_MAX_REQUEST + sizeof(double))
            _exit(125);
        unsigned char *buf = xmem_alloc(n);
        if (!host_read_all(0, buf, n))
            _exit(0);
        double seconds;
        memcpy(&seconds, buf, sizeof seconds);
        host_cpu_for(seconds);
        shared->line = 0;
        WireIn req = wire_in(buf + sizeof seconds, n - sizeof seconds);
        Wire reply;
        wire_init(&reply);
        serve(&req, &reply);
        free(buf);
        uint32_t len = (uint32_t)reply.len;
        if (!host_write_all(0, &len, sizeof len) || !host_write_all(0, reply.buf, reply.len))
            _exit(0);
        wire_free(&reply);
    }
}

/* ---- faults, for tests --------------------------------------------------- */

static volatile int host_sink; /* keeps the spin loop and the fault writes */

bool host_faults_enabled(void)
{
    return host_faults_on;
}

void host_fault(const char *kind)
{
    if (!host_faults_on || !kind)
        return;
    if (strcmp(kind, "segv") == 0) {
        volatile uintptr_t nowhere = 16; /* an address no process maps */
        *(volatile int *)nowhere = 1;
    } else if (strcmp(kind, "abort") == 0) {
        abort();
    } else if (strcmp(kind, "spin") == 0) {
        for (;;)
            host_sink++;
    } else if (strcmp(kind, "stall") == 0) {
        char c;
        for (;;)
            if (read(0, &c, 1) <= 0)
                _exit(0);
    } else if (strcmp(kind, "exit") == 0) {
        _exit(3);
    } else if (strcmp(kind, "syscall") == 0) {
        host_sink = open("/etc/passwd", O_RDONLY);
    } else if (strcmp(kind, "exec") == 0) {
        char *argv[] = {"/bin/sh", NULL};
        execv(argv[0], argv);
    } else if (strcmp(kind, "fork") == 0) {
        host_sink = (int)fork();
    } else if (strcmp(kind, "kill") == 0) {
        kill(getppid(), SIGKILL);
    } else if (strcmp(kind, "mmap-exec") == 0) {
        void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        host_sink = p != MAP_FAILED;
    } else if (strcmp(kind, "oom") == 0) {
        static void *kept; /* each block links the last: all reachable, none leaked */
        for (;;) {         /* address space, touched a page per MB: RLIMIT_AS ends it */
            void **p = malloc(1u << 20);
            if (!p)
                abort();
            *p = kept;
            kept = p;
            host_sink++;
        }
    } else if (strcmp(kind, "garbage") == 0) {
        uint32_t len = 7;
        host_write_all(0, &len, sizeof len);
        host_write_all(0, "\x01\x02garbage", 7);
    } else if (strcmp(kind, "huge") == 0) {
        uint32_t len = 0xfffffff0u;
        host_write_all(0, &len, sizeof len);
        for (;;)
            host_write_all(0, "x", 1);
    }
}

/* ---- the parent ---------------------------------------------------------- */

Host *host_start(HostServeFn serve, char *err, size_t err_len)
{
    /* Children must stay waitable: an inherited SIG_IGN would reap them
     * before the parent learns how they ended. */
    struct sigaction old;
    if (sigaction(SIGCHLD, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        signal(SIGCHLD, SIG_DFL);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        msg_set(err, err_len, "cannot start the lesson host: %s", strerror(errno));
        return NULL;
    }
    HostShared *shared =
        mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        msg_set(err, err_len, "cannot start the lesson host: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return NULL;
    }
    shared->line = 0;
    int parent = (int)getpid();
    pid_t pid = fork();
    if (pid < 0) {
        msg_set(err, err_len, "cannot start the lesson host: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        munmap(shared, sizeof *shared);
        return NULL;
    }
    if (pid == 0) {
        close(sv[0]);
        host_child_main(sv[1], parent, serve, shared);
    }
    close(sv[1]);
    int fl = fcntl(sv[0], F_GETFL);
    fcntl(sv[0], F_SETFL, (fl < 0 ? 0 : fl) | O_NONBLOCK);
    Host *h = xmem_calloc(1, sizeof *h);
    h->pid = (int)pid;
    h->fd = sv[0];
    h->shared = shared;
    return h;
}

bool host_filters(void)
{
#ifdef SCALELAB_SECCOMP
    return !HOST_SANITIZED && !host_under_valgrind();
#else
    return false;
#endif
}

bool host_alive(const Host *h)
{
    return h && h->pid > 0;
}

int host_pid(const Host *h)
{
    return h ? h->pid : 0;
}

static const char *host_signal_name(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGILL, "SIGILL"},   {SIGFPE, "SIGFPE"},
        {SIGABRT, "SIGABRT"}, {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
        {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGPIPE, "SIGPIPE"}, {SIGTRAP, "SIGTRAP"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return "a signal";
}

/* How a child that ended by itself ended, in one phrase. */
static void host_describe(int st, char *why, size_t n)
{
    if (WIFEXITED(st)) {
        msg_set(why, n, "it exited unexpectedly (status %d)", WEXITSTATUS(st));
        return;
    }
    int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    const char *name = host_signal_name(sig);
    switch (sig) {
    case SIGSEGV:
    case SIGBUS:
    case SIGILL:
    case SIGFPE:
    case SIGTRAP:
        msg_set(why, n, "it crashed (%s)", name);
        break;
    case SIGABRT:
        msg_set(why, n, "it aborted (SIGABRT: out of memory, or a failed check)");
        break;
    case SIGSYS:
        msg_set(why, n, "it made a system call lessons may not make (SIGSYS)");
        break;
    case SIGXCPU:
        msg_set(why, n, "it used up its CPU time (SIGXCPU)");
        break;
    case SIGKILL:
        msg_set(why, n, "it was killed (SIGKILL: out of memory?)");
        break;
    default:
        msg_set(why, n, "it was killed by signal %d (%s)", sig, name);
    }
}

/* Ends the child (SIGKILL, harmless when it is already dead) and reaps it;
 * ours, when given, is why we ended it, else the way it ended is told. */
static void host_end(Host *h, const char *ours, char *why, size_t n)
{
    if (h->pid <= 0)
        return;
    kill(h->pid, SIGKILL);
    int st = 0;
    while (waitpid(h->pid, &st, 0) < 0 && errno == EINTR)
        ;
    bool killed_by_us = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
    if (ours && killed_by_us)
        msg_set(why, n, "%s", ours);
    else
        host_describe(st, why, n);
    h->pid = 0;
    close(h->fd);
    h->fd = -1;
}

void host_free(Host *h)
{
    if (!h)
        return;
    char why[MSG_LEN] = "";
    host_end(h, "freed", why, sizeof why);
    munmap(h->shared, sizeof *h->shared);
    free(h);
}

typedef struct {
    Host *h;
    double start_s, deadline_s, seconds, polled_s;
    bool *stopped;
    const char *ours; /* why we end the child, set when we do */
    char ours_buf[96];
} HostWait;

/* Waits until fd is ready for events or the request must end; false when
 * it must (w->ours says why). */
static bool host_wait(HostWait *w, short events)
{
    for (;;) {
        double now = clock_now_s();
        double run = now - w->start_s;
        if (run >= SANDBOX_BUSY_S && run - w->polled_s >= SANDBOX_POLL_S) {
            w->polled_s = run;
            if (sandbox_poll_now(run)) {
                *w->stopped = true;
                w->ours = "stopped by the learner (Esc or Ctrl-C) while still running";
                return false;
            }
        }
        if (now >= w->deadline_s) {
            snprintf(w->ours_buf, sizeof w->ours_buf, "it ran past its time limit (%.2g s)",
                     w->seconds);
            w->ours = w->ours_buf;
            return false;
        }
        double next = run < SANDBOX_BUSY_S ? w->start_s + SANDBOX_BUSY_S : now + SANDBOX_POLL_S;
        if (next > w->deadline_s)
            next = w->deadline_s;
        int ms = (int)ceil((next - now) * 1000.0);
        struct pollfd p = {.fd = w->h->fd, .events = events};
        int r = poll(&p, 1, ms < 1 ? 1 : ms);
        if (r > 0)
            return true;
        if (r < 0 && errno != EINTR) {
            w->ours = "its socket failed";
            return false;
        }
    }
}

static bool host_send(HostWait *w, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t put = send(w->h->fd, p, n, MSG_NOSIGNAL);
        if (put > 0) {
            p += put;
            n -= (size_t)put;
        } else if (put < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            if (!host_wait(w, POLLOUT))
                return false;
        } else {
            w->ours = NULL; /* it died: say how */
            return false;
        }
    }
    return true;
}

/* Reads n bytes; false on EOF, error or the end of the wait. */
static bool host_recv(HostWait *w, unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t got = recv(w->h->fd, p, n, 0);
        if (got > 0) {
            p += got;
            n -= (size_t)got;
        } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            if (!host_wait(w, POLLIN))
                return false;
        } else {
            w->ours = NULL; /* closed: it died or quit */
            return false;
        }
    }
    return true;
}

bool host_call(Host *h, const Wire *req, double seconds, Wire *reply, int *line, bool *stopped,
               char *why, size_t why_len)
{
    wire_init(reply);
    bool stop_flag = false;
    if (stopped)
        *stopped = false;
    if (line)
        *line = 0;
    if (why && why_len)
        why[0] = '\0';
    if (!host_alive(h)) {
        msg_set(why, why_len, "it is not running");
        return false;
    }
    HostWait w = {.h = h, .seconds = seconds, .stopped = stopped ? stopped : &stop_flag};
    w.start_s = clock_now_s();
    w.deadline_s = w.start_s + seconds;
    sandbox_cancel_clear();
    h->shared->line = 0;
    Wire frame;
    wire_init(&frame);
    wire_u32(&frame, (uint32_t)(sizeof seconds + req->len));
    wire_f64(&frame, seconds);
    wire_put(&frame, req->buf, req->len);
    HOST_DEFINED(frame.buf, frame.len);
    bool ok = req->len <= HOST_MAX_REQUEST && host_send(&w, frame.buf, frame.len);
    wire_free(&frame);
    uint32_t n = 0;
    ok = ok && host_recv(&w, (unsigned char *)&n, sizeof n);
    if (ok && n > HOST_MAX_REPLY) {
        w.ours = "it sent a malformed answer (too long)";
        ok = false;
    }
    if (ok) {
        reply->buf = xmem_alloc(n ? n : 1);
        reply->cap = n;
        reply->len = n;
        ok = host_recv(&w, reply->buf, n);
    }
    if (ok)
        return true;
    wire_free(reply);
    char buf[MSG_LEN] = "";
    int last = h->shared->line;
    host_end(h, w.ours, buf, sizeof buf);
    if (line)
        *line = last > 0 && last < 100000000 ? last : 0;
    msg_set(why, why_len, "%s", buf);
    return false;
}
