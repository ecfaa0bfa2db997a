/* SPDX-License-Identifier: MIT */
/* host — the lesson host: a child process that runs lesson code for
 * scalelab, and the parent's side of talking to it.
 *
 * The in-process sandbox (sandbox.h) is the first line of defence; the host
 * is the second, for what no Lua hook sees (work inside one C call) and for
 * bugs of the interpreter itself. The child is forked from the caller and
 * before it serves anything it: resets every signal, leaves the terminal's
 * process group, dies with its parent, keeps no descriptor but its end of
 * one socket pair (fd 0), and runs under OS limits: RLIMIT_CPU (per
 * request), RLIMIT_AS (its size at the fork plus HOST_AS_EXTRA), RLIMIT_FSIZE
 * 0, RLIMIT_NOFILE 1, RLIMIT_NPROC 0, RLIMIT_CORE 0, and on Linux a seccomp
 * filter that allows only what the Lua VM and the socket need (memory, the
 * clock, reads and writes of fd 0, raising a signal on itself); any other
 * system call kills it. Under AddressSanitizer and valgrind, whose runtimes
 * need more, the seccomp filter and RLIMIT_AS are left out and stderr kept.
 *
 * Messages: each way a length (4 bytes) then that many bytes; a request
 * starts with its wall-clock allowance (a double). The parent bounds every
 * length before it allocates, sends and reads without blocking, and holds a
 * deadline per request: past it, or when the poll function (sandbox_set_poll)
 * asks to stop, the child gets SIGKILL. A child that dies, overruns or sends
 * what the parent cannot read is reaped and described in one phrase ("it
 * crashed (SIGSEGV)"); the caller words the line and starts a fresh host if
 * it needs one. The child trusts the parent; the parent trusts nothing the
 * child sends (see wire.h).
 *
 * Tests only: with SCALELAB_TEST_FAULTS=1 in the environment, host_fault
 * makes the child fail on purpose (a real SIGSEGV, a hang in C, a forbidden
 * system call...). Nothing a lesson file can do sets the environment.
 */
#ifndef SCALELAB_LESSON_HOST_H
#define SCALELAB_LESSON_HOST_H

#include "lesson/wire.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct Host Host;

/* Answers one request: reads it from req, writes the answer into reply.
 * Runs in the child only; it may keep state between requests. */
typedef void (*HostServeFn)(WireIn *req, Wire *reply);

/* The largest request (a lesson file and its name) and answer (a loaded
 * lesson's pages) a message may hold. */
#define HOST_MAX_REQUEST (2u << 20)
#define HOST_MAX_REPLY   (16u << 20)
/* Address space the child may add to what it had when forked. */
#define HOST_AS_EXTRA ((size_t)512 << 20)

/* Starts a child that answers requests with serve. NULL with err when no
 * process or socket can be made. */
Host *host_start(HostServeFn serve, char *err, size_t err_len);

/* Sends req and waits at most seconds of wall clock for the answer, running
 * sandbox_poll_now every SANDBOX_POLL_S once SANDBOX_BUSY_S have passed, so
 * a UI answers keys meanwhile. True: *reply holds the answer (wire_free it).
 * False: the child is gone (killed and reaped), why says how ("it ran past
 * its time limit (2.4 s)"), *line is the line of the lesson file it last ran
 * (0 when unknown) and *stopped is true when the poll function asked. */
bool host_call(Host *h, const Wire *req, double seconds, Wire *reply, int *line, bool *stopped,
               char *why, size_t why_len);

/* Whether hosts run under the seccomp filter and RLIMIT_AS: false when
 * built without libseccomp, under AddressSanitizer or under valgrind. */
bool host_filters(void);

bool host_alive(const Host *h);
int host_pid(const Host *h); /* the child's pid, 0 when gone */
/* Kills and reaps the child, frees h (NULL accepted). */
void host_free(Host *h);

/* Tests only (SCALELAB_TEST_FAULTS=1): makes the child fail as kind says:
 * "segv" (a real SIGSEGV), "abort", "spin" (loops in C), "stall" (waits
 * for a byte that never comes), "exit", "syscall" (opens a file), "exec",
 * "fork", "kill" (signals the parent), "mmap-exec", "oom" (allocates
 * without end), "garbage" (answers bytes no request asked for), "huge"
 * (announces an answer of 4 GB). Called in the child; does nothing when the
 * variable is not set or kind is unknown. */
void host_fault(const char *kind);
/* Whether SCALELAB_TEST_FAULTS=1 was set when the child started. */
bool host_faults_enabled(void);

#endif
