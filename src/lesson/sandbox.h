/* SPDX-License-Identifier: MIT */
/* sandbox — one fresh, limited Lua 5.4 state for one untrusted lesson file.
 *
 * The environment is built from an allow-list (never stripped from the full
 * one): safe base functions, string without dump, table, math, utf8, os.clock,
 * coroutine. load is text-only with a size cap and a chunk name the script
 * cannot choose; collectgarbage answers "count" only; setmetatable refuses
 * __gc; the string metatable is hidden so string methods cannot be changed.
 *
 * Limits, enforced around an unpatched Lua: an instruction budget and a
 * wall-clock deadline per lesson file, checked by a count hook that keeps
 * raising once tripped (pcall, xpcall and coroutine.resume re-raise an
 * abort, so a script cannot swallow it); call depth checked in the hook
 * ("stack overflow"); a memory cap in the allocator with a lower soft limit
 * checked in the hook so the message keeps its file:line; every C function
 * the script can reach is metered: its worst-case cost, estimated from its
 * arguments, is charged to the same budget before it runs, because hooks
 * never fire inside C functions; allocations are charged too, and no string
 * may pass limits.string_bytes. Globals are strict once the file runs: reading
 * an unknown global or creating a new one is an error.
 *
 * Every error comes out as one line "file:line: message" with control
 * characters escaped and the length cut. Entry points leave the Lua stack
 * as they found it (plus documented results). This header does not include
 * lua.h on purpose for C callers outside src/lesson; lesson code includes
 * lua.h itself.
 */
#ifndef SCALELAB_LESSON_SANDBOX_H
#define SCALELAB_LESSON_SANDBOX_H

#include "base/msg.h"

#include <stdbool.h>
#include <stddef.h>

struct lua_State;

typedef struct {
    long instructions;    /* VM instructions per entry point */
    double seconds;       /* wall-clock deadline per entry point */
    size_t mem_bytes;     /* hard cap on the state's memory */
    int depth;            /* nested Lua calls */
    size_t file_bytes;    /* largest lesson file */
    size_t load_bytes;    /* largest text given to load() */
    double pattern_steps; /* worst-case matcher steps one pattern call may cost */
    size_t string_bytes;  /* longest string the script may make */
    size_t copy_bytes;    /* total bytes C may copy out of the state (sandbox_copy_charge) */
} SandboxLimits;

/* The limits lesson files run with (see sandbox.c for why these values). */
SandboxLimits sandbox_limits_default(void);
/* Tighter limits for listing a folder of lessons (catalog). */
SandboxLimits sandbox_limits_catalog(void);

typedef struct Sandbox Sandbox;

/* A fresh state with the allow-listed environment. name is the file name
 * used in messages. NULL only when Lua cannot allocate the bare state. */
Sandbox *sandbox_new(const char *name, const SandboxLimits *limits);
void sandbox_free(Sandbox *sb);
struct lua_State *sandbox_state(Sandbox *sb);
const char *sandbox_name(const Sandbox *sb);
size_t sandbox_mem_used(const Sandbox *sb);
/* The text of the last chunk sandbox_run_* accepted for loading (NUL
 * terminated, never NULL), so callers can point at lines of the file. */
const char *sandbox_source(const Sandbox *sb, size_t *len);

/* Reads path (regular file only, size cap, text only) and runs it under the
 * limits. On success pushes the chunk's first result and returns true; on
 * failure pushes nothing and writes "file:line: message" into err. */
bool sandbox_run_file(Sandbox *sb, const char *path, char *err, size_t err_len);
/* Same for a chunk held in memory (the lesson host, which gets the file's
 * text from its parent; tests). */
bool sandbox_run_string(Sandbox *sb, const char *text, size_t len, char *err, size_t err_len);
/* The file reading of sandbox_run_file alone: the text of path (at most cap
 * bytes, a regular file, opened without blocking), or NULL with
 * "name:1: why" in err. The caller frees it. */
char *sandbox_read_file(const char *name, const char *path, size_t cap, size_t *len, char *err,
                        size_t err_len);

/* Calls the function below nargs arguments on the stack with nresults
 * results, under the file's budget and deadline (one budget per Sandbox,
 * shared by every entry point until sandbox_renew). On success the results
 * replace function and arguments; on failure function and arguments are
 * popped and err says "file:line: message". */
bool sandbox_call(Sandbox *sb, int nargs, int nresults, char *err, size_t err_len);

/* Runs a C function fn in protected mode under the limits: fn gets ud as a
 * light userdata at index 1 and may raise Lua errors; they come back in err.
 * Use it for every Lua API sequence that can raise (allocation included),
 * so no error longjmps over C code that holds heap memory. Stack unchanged. */
bool sandbox_protect(Sandbox *sb, int (*fn)(struct lua_State *L), void *ud, char *err,
                     size_t err_len);

/* Gives the state a fresh instruction budget and deadline (the UI calls it
 * before each learner-driven goal check; loading and `check` never do, so a
 * whole file runs on one budget). */
void sandbox_renew(Sandbox *sb);
/* Seconds left of the file's deadline (negative once passed), so C work done
 * for the lesson between entry points (scenario set-up, model runs) can stop
 * on the same clock. */
double sandbox_seconds_left(const Sandbox *sb);
/* Counts n bytes that C is about to copy out of the state against the
 * per-file total (limits.copy_bytes); false once the total would pass it. */
bool sandbox_copy_charge(Sandbox *sb, size_t n);

/* Stopping a long script from outside (the UI's "running… Esc to stop"):
 * sandbox_cancel sets one volatile flag (async-signal-safe) that the count
 * hook checks; the script then stops with "file:line: stopped by the learner (Esc)..." like
 * any limit. Each entry point clears the flag when it starts. */
void sandbox_cancel(void);
/* A function the count hook calls every SANDBOX_POLL_S seconds once an
 * entry point has run for SANDBOX_BUSY_S (it shows that a script runs and
 * reads Esc); returning true stops the script as sandbox_cancel does. It
 * must not call into Lua. NULL: none. Global: one UI, one poll. */
typedef bool (*SandboxPollFn)(void *ctx, double running_s);
void sandbox_set_poll(SandboxPollFn fn, void *ctx);
#define SANDBOX_BUSY_S 0.2
#define SANDBOX_POLL_S 0.05

/* For C functions of the API: charges units (VM instructions) to the budget
 * as the meter does before a call, for work a C loop does call by call
 * (scalelab.pair_target's cost calls, a scan of a table's keys); raises the
 * limit's message when the budget is spent. */
void sandbox_charge(struct lua_State *L, double units, const char *fname);

/* luaL_error for helpers that return no int: raises "position: message"
 * (lua_pushfstring's formats) and never returns, so the compiler and the
 * analyzers see control end there. Lua C functions write
 * `return luaL_error(...)`. */
_Noreturn void sandbox_error(struct lua_State *L, const char *fmt, ...);

/* For the lesson host (host.c), in its child process only. The line of the
 * lesson file last seen by the hook or a metered call goes to *line (NULL:
 * nowhere), so a host that dies inside a C call is reported at its line;
 * fn runs before each metered call with the call's name (tests' fault
 * points; NULL: none). */
void sandbox_set_line_sink(volatile int *line);
void sandbox_set_call_hook(void (*fn)(const char *name));

/* For the host's parent, which waits on the child instead of running the
 * script: clears the flag of sandbox_cancel, and runs the poll function
 * (sandbox_set_poll) now; true when it or sandbox_cancel asks to stop. */
void sandbox_cancel_clear(void);
bool sandbox_poll_now(double running_s);

/* Meters every C function of the table at index t (named lib.NAME in
 * messages): each call is charged to the budget by its arguments' sizes
 * before it runs. The lesson API's tables go through it after they open. */
void sandbox_meter_table(struct lua_State *L, int t, const char *lib);

/* For the API (lesson_api.c): the Sandbox that owns L. */
Sandbox *sandbox_of(struct lua_State *L);

#endif
