/* SPDX-License-Identifier: MIT */
/* sandbox — the limited Lua state every lesson runs in (see sandbox.h).
 *
 * Invariants: every piece of Lua that runs goes through sandbox_call or
 * sandbox_protect; the budget and deadline belong to the file (armed by
 * sandbox_new and sandbox_renew only), so the entry points of one file share
 * them; the hook is installed once on the main thread and coroutines inherit
 * it; every C function the script can reach runs behind sb_metered, which
 * charges its estimated cost before it starts; once a limit trips,
 * sb->aborting stays set until the next entry point, so every later hook
 * fire, metered call, pcall, xpcall and coroutine.resume raises the same
 * message again, and Lua's own stack-overflow errors trip it too.
 * No original library table is reachable from the script: the environment
 * and the string method table are fresh tables holding chosen functions.
 * Depends on Lua 5.4 and libc only; never prints.
 */
#include "lesson/sandbox.h"

#include "base/clock.h"
#include "base/escape.h"
#include "base/file.h"
#include "base/msg.h"
#include "base/xmem.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Instructions between two hook calls. Some instructions cost far more
 * than one step (a vararg call copies up to a full Lua stack, a string
 * comparison up to a whole string), so the hook runs often enough that
 * the deadline and Esc are seen within a fraction of a second even then. */
#define HOOK_EVERY 250
#define RANGE_MAX  10000000 /* elements table.move/concat/rep may touch in one call */
/* Cost units are VM instructions. Byte-wise C work (copying, comparing,
 * scanning) runs ~16 bytes in the time of one instruction; a matcher step
 * of the pattern functions about one; a byte allocated is charged too, so
 * string building inside VM instructions (.., tostring) is bounded as well. */
#define BYTES_PER_UNIT       16.0
#define ALLOC_BYTES_PER_UNIT 16
/* What a metered call costs before its own work: the wrapper's checks, the
 * call and its results take about 200 ns, some 40 instructions' time. */
#define CALL_UNITS 40.0

struct Sandbox {
    lua_State *L;
    SandboxLimits limits;
    char *name;                 /* file name as given, for messages */
    char *chunkname;            /* "@name" */
    char *load_chunkname;       /* "=name [load]": load() cannot choose its own */
    char short_src[LUA_IDSIZE]; /* how Lua prints name in positions */
    size_t mem_used;
    bool mem_tripped;  /* the allocator refused a block */
    long budget;       /* instructions left for this file (or since sandbox_renew) */
    double deadline_s; /* clock_now_s() when the file's time runs out */
    double entry_s;    /* clock_now_s() when the current entry point started */
    size_t copied;     /* bytes C copied out (sandbox_copy_charge) */
    bool strict;       /* globals locked: set when the file's chunk starts */
    int in_handler;    /* xpcall message handlers running */
    bool aborting;
    bool armed;      /* inside an entry point */
    double polled_s; /* running time of the last poll (SandboxPollFn) */
    char abort_msg[200];
    char where[LUA_IDSIZE + 16];     /* position of the last error, from the handler */
    char last_line[LUA_IDSIZE + 16]; /* last position the hook saw (memory errors) */
    char *source;                    /* text of the last chunk run, for line lookups */
    size_t source_len;
    unsigned hooks;                      /* hook calls, for sampling the line (sb_hook) */
    uintptr_t cstack_base;               /* C stack address when the entry point started */
    size_t cstack_max;                   /* C stack an entry point may use (sb_cstack_deep) */
    lua_CFunction raw_error, raw_assert; /* handed out unmetered on purpose (sb_meter_results) */
};

/* Why these limits: a lesson builds a few tables and calls the model a
 * handful of times, well under 1 million instructions and 2 MB in our
 * lessons. 50 million instructions is ~0.2-0.5 s on this VM; the wall
 * clock (2 s for the whole file) catches slow machines and sanitizer
 * builds, and keeps `check` of any file under 3 s. 64 MB holds any sane
 * lesson; the soft limit (7/8) is checked in the hook so the message
 * names the line. 200 nested calls is far beyond any lesson's needs and
 * below Lua's own C-stack limit (LUAI_MAXCCALLS, 200 C levels). No string
 * longer than 1 MB (a lesson file's size): page texts are a few KB. C
 * copies at most 4 MB of strings out of one lesson. */
/* Wall-clock limits stretch by SCALELAB_SANDBOX_SLOWDOWN (1 to 1000) for
 * instrumented runs such as `make memcheck` under valgrind, where 2 s of
 * wall clock would stop a script long before its instruction budget. Only
 * the clock stretches: the instruction, memory, depth and pattern limits
 * stay, so a script is still stopped. A lesson cannot set the environment. */
static double sandbox_slowdown(void)
{
    const char *v = getenv("SCALELAB_SANDBOX_SLOWDOWN");
    double f = v ? atof(v) : 1.0;
    return f >= 1.0 && f <= 1000.0 ? f : 1.0;
}

SandboxLimits sandbox_limits_default(void)
{
    SandboxLimits lim = {
        .instructions = 50000000L,
        .seconds = 2.0 * sandbox_slowdown(),
        .mem_bytes = 64u << 20,
        .depth = 200,
        .file_bytes = 1u << 20,
        .load_bytes = 64u << 10,
        .pattern_steps = 1e8,
        .string_bytes = 1u << 20,
        .copy_bytes = 4u << 20,
    };
    return lim;
}

/* Listing a folder loads every file: a tenth of the budget each, so 1,000
 * hostile files still list in reasonable time (0.25 s each at most). */
SandboxLimits sandbox_limits_catalog(void)
{
    SandboxLimits lim = sandbox_limits_default();
    lim.instructions = 5000000L;
    lim.seconds = 0.25 * sandbox_slowdown();
    lim.mem_bytes = 16u << 20;
    return lim;
}

Sandbox *sandbox_of(lua_State *L)
{
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return ud;
}

lua_State *sandbox_state(Sandbox *sb)
{
    return sb ? sb->L : NULL;
}
const char *sandbox_name(const Sandbox *sb)
{
    return sb ? sb->name : "";
}
size_t sandbox_mem_used(const Sandbox *sb)
{
    return sb ? sb->mem_used : 0;
}

const char *sandbox_source(const Sandbox *sb, size_t *len)
{
    if (len)
        *len = sb && sb->source ? sb->source_len : 0;
    return sb && sb->source ? sb->source : "";
}

/* ---- allocator ------------------------------------------------------- */

/* Remembers the line of the innermost Lua function of the main thread, for
 * memory errors (Lua calls no message handler for them). Called from the
 * allocator before it refuses a block: nothing has moved yet, and 'S' and
 * 'l' read only saved program counters and prototypes, allocating nothing. */
static void sb_note_position(Sandbox *sb, lua_State *L)
{
    lua_Debug ar;
    for (int level = 0; level < 32 && lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            snprintf(sb->last_line, sizeof sb->last_line, "%s:%d", ar.short_src, ar.currentline);
            return;
        }
    }
}

static void sb_trip(Sandbox *sb, const char *msg)
{
    if (!sb->aborting) {
        sb->aborting = true;
        snprintf(sb->abort_msg, sizeof sb->abort_msg, "%s", msg);
    }
}

static void sb_trip_memory(Sandbox *sb)
{
    char msg[120];
    snprintf(msg, sizeof msg, "memory limit reached (%zu MB): unbounded growth?",
             sb->limits.mem_bytes >> 20);
    sb_trip(sb, msg);
}

static void sb_trip_budget(Sandbox *sb)
{
    char msg[160];
    snprintf(msg, sizeof msg,
             "instruction limit reached (%ld million): an endless loop? lessons must finish "
             "quickly",
             sb->limits.instructions / 1000000L);
    sb_trip(sb, msg);
}

/* Why a block is refused, or NULL. Only inside an entry point: the string
 * cap (a new block tagged LUA_TSTRING) and the budget, charged per byte. */
static bool sb_refuse(Sandbox *sb, size_t tag, size_t osize, size_t nsize)
{
    if (sb->mem_used - osize + nsize > sb->limits.mem_bytes) {
        sb_trip_memory(sb);
        return true;
    }
    if (!sb->armed)
        return false;
    if (tag == LUA_TSTRING && nsize > sb->limits.string_bytes + 64) {
        char msg[120];
        snprintf(msg, sizeof msg,
                 "memory limit reached (a string may hold at most %zu MB): unbounded growth?",
                 sb->limits.string_bytes >> 20);
        sb_trip(sb, msg);
        return true;
    }
    sb->budget -= (long)((nsize - osize) / ALLOC_BYTES_PER_UNIT);
    if (sb->budget < 0 && !sb->aborting) {
        sb_trip_budget(sb);
        return true;
    }
    return false;
}

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Sandbox *sb = ud;
    size_t tag = ptr ? 0 : osize; /* osize is a type tag for new blocks */
    if (!ptr)
        osize = 0;
    if (nsize == 0) {
        free(ptr);
        sb->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize && sb_refuse(sb, tag, osize, nsize)) {
        if (!sb->mem_tripped && sb->armed)
            sb_note_position(sb, sb->L);
        sb->mem_tripped = true;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p)
        return NULL;
    sb->mem_used = sb->mem_used - osize + nsize;
    return p;
}

/* ---- limits: the hook and the meter ------------------------------------ */

_Noreturn void sandbox_error(lua_State *L, const char *fmt, ...)
{
    va_list ap;
    luaL_where(L, 1);
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_concat(L, 2);
    lua_error(L);
    abort(); /* lua_error longjmps: never reached */
}

double sandbox_seconds_left(const Sandbox *sb)
{
    return sb ? sb->deadline_s - clock_now_s() : 0.0;
}

static volatile sig_atomic_t sb_cancelled;
static SandboxPollFn sb_poll_fn;
static void *sb_poll_ctx;

void sandbox_cancel(void)
{
    sb_cancelled = 1;
}

void sandbox_set_poll(SandboxPollFn fn, void *ctx)
{
    sb_poll_fn = fn;
    sb_poll_ctx = ctx;
}

void sandbox_cancel_clear(void)
{
    sb_cancelled = 0;
}

bool sandbox_poll_now(double running_s)
{
    if (!sb_cancelled && sb_poll_fn && sb_poll_fn(sb_poll_ctx, running_s))
        sb_cancelled = 1;
    return sb_cancelled != 0;
}

/* Where the script runs, for the lesson host (host.c): the line of the
 * lesson file last seen by the hook or a metered call, so a host that dies
 * inside a C call can be reported at its line; and a test hook run at each
 * metered call. Both NULL outside a host. */
static volatile int *sb_line_sink;
static void (*sb_call_hook)(const char *name);

void sandbox_set_line_sink(volatile int *line)
{
    sb_line_sink = line;
}

void sandbox_set_call_hook(void (*fn)(const char *name))
{
    sb_call_hook = fn;
}

/* Stores the line of stack level `level` when it is in the lesson file. */
static void sb_note_line(Sandbox *sb, lua_State *L, lua_Debug *ar, int level)
{
    lua_Debug mine;
    if (!ar) {
        if (!lua_getstack(L, level, &mine))
            return;
        ar = &mine;
    }
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0 && ar->source &&
        strcmp(ar->source, sb->chunkname) == 0)
        *sb_line_sink = ar->currentline;
}

/* Every limit but the budget charge itself: the deadline, Esc (through the
 * poll), memory, nesting. Trips the first one found. */
static void sb_check(Sandbox *sb, lua_State *L)
{
    if (sb->aborting)
        return;
    char msg[200];
    lua_Debug deep;
    double run_s = clock_now_s() - sb->entry_s;
    if (sb_poll_fn && run_s >= SANDBOX_BUSY_S && run_s - sb->polled_s >= SANDBOX_POLL_S) {
        sb->polled_s = run_s;
        if (sb_poll_fn(sb_poll_ctx, run_s))
            sb_cancelled = 1;
    }
    if (sb_cancelled) {
        sb_trip(sb, "stopped by the learner (Esc or Ctrl-C) while still running");
    } else if (sb->budget <= 0) {
        sb_trip_budget(sb);
    } else if (sandbox_seconds_left(sb) < 0) {
        snprintf(msg, sizeof msg, "time limit reached (%.2g s): an endless loop?",
                 sb->limits.seconds);
        sb_trip(sb, msg);
    } else if (sb->mem_tripped || sb->mem_used > sb->limits.mem_bytes / 8 * 7) {
        sb_trip_memory(sb);
    } else if (lua_getstack(L, sb->limits.depth, &deep)) {
        snprintf(msg, sizeof msg, "stack overflow (more than %d nested calls): endless recursion?",
                 sb->limits.depth);
        sb_trip(sb, msg);
    }
}

/* lua_error, visibly never returning (for the compiler and the analyzers). */
_Noreturn static void sb_throw(lua_State *L)
{
    lua_error(L);
    abort(); /* lua_error longjmps: never reached */
}

/* Raises the abort message at the position of stack level `level`. */
_Noreturn static void sb_raise_abort(lua_State *L, int level)
{
    Sandbox *sb = sandbox_of(L);
    luaL_where(L, level);
    if (!lua_tostring(L, -1)[0] && !sb->last_line[0])
        sb_note_position(sb, L);
    if (!lua_tostring(L, -1)[0] && sb->last_line[0]) {
        lua_pop(L, 1);
        lua_pushfstring(L, "%s: ", sb->last_line);
    }
    lua_pushstring(L, sb->abort_msg);
    lua_concat(L, 2);
    sb_throw(L);
}

static void sb_hook(lua_State *L, lua_Debug *ar)
{
    Sandbox *sb = sandbox_of(L);
    if (sb_line_sink && (++sb->hooks & 15) == 0) /* every 4,000 instructions */
        sb_note_line(sb, L, ar, 0);
    sb->budget -= HOOK_EVERY;
    sb_check(sb, L);
    if (sb->aborting) {
        if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
            snprintf(sb->last_line, sizeof sb->last_line, "%s:%d", ar->short_src, ar->currentline);
        sb_raise_abort(L, 0);
    }
}

/* Charges cost units for the C function fname about to run (called from
 * its wrapper, so level 1 is the script's line). A call that would cost
 * more than the budget left is refused before it starts. */
static void sb_charge(lua_State *L, double cost, const char *fname)
{
    Sandbox *sb = sandbox_of(L);
    if (!sb->aborting) {
        if (cost >= (double)sb->budget) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "%s: too costly for the time left (about %.2g steps for these arguments, "
                     "%.2g left of this lesson's budget)",
                     fname, cost, (double)(sb->budget > 0 ? sb->budget : 0));
            sb_trip(sb, msg);
        } else {
            sb->budget -= (long)cost + 1;
            sb_check(sb, L);
        }
    }
    if (sb->aborting)
        sb_raise_abort(L, 1);
}

void sandbox_renew(Sandbox *sb)
{
    if (!sb)
        return;
    sb->budget = sb->limits.instructions;
    sb->deadline_s = clock_now_s() + sb->limits.seconds;
}

void sandbox_charge(lua_State *L, double units, const char *fname)
{
    sb_charge(L, units, fname);
}

bool sandbox_copy_charge(Sandbox *sb, size_t n)
{
    if (!sb || n > sb->limits.copy_bytes - sb->copied)
        return false;
    sb->copied += n;
    return true;
}

static void sb_arm(Sandbox *sb)
{
    sb->cstack_base = (uintptr_t)__builtin_frame_address(0);
    sb->aborting = false;
    sb_cancelled = 0;
    sb->polled_s = 0;
    sb->armed = true;
    sb->mem_tripped = false;
    sb->in_handler = 0;
    sb->where[0] = '\0';
    sb->last_line[0] = '\0';
    sb->entry_s = clock_now_s();
}

/* C stack used since the entry point started, measured from frame
 * addresses (a sanitizer's fake stack moves locals, not frames). Lua bounds
 * the C calls of one thread itself (LUAI_MAXCCALLS), but 5.4.4's
 * coroutine.close starts the closed thread's count at zero, so __close
 * handlers that close coroutines nest without end (lua.org/bugs.html):
 * every wrapper that can nest measures the stack as well. */
static bool sb_cstack_deep(const Sandbox *sb)
{
    uintptr_t a = (uintptr_t)__builtin_frame_address(0);
    size_t used = a < sb->cstack_base ? sb->cstack_base - a : a - sb->cstack_base;
    return used > sb->cstack_max;
}

/* What the C stack may grow by in one entry point: 1 MiB (200 nested Lua
 * calls through metamethods and wrappers use a fifth of it), less under a
 * small stack limit. */
static size_t sb_cstack_allowed(void)
{
    struct rlimit rl;
    size_t max = 1u << 20;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < max)
        max = (size_t)rl.rlim_cur / 4;
    return max;
}

/* ---- wrapped base functions ------------------------------------------ */

/* Errors Lua raises itself when a stack fills: "stack overflow" (Lua
 * stack), "C stack overflow", luaL_checkstack's "stack overflow (...)" and
 * LUA_ERRERR. They are limits like the budget: the hook may never have run
 * (it needs stack room itself), so they must not be caught by the script. */
static bool sb_is_overflow(lua_State *L, int status, int idx)
{
    if (status == LUA_ERRERR)
        return true;
    if (lua_type(L, idx) != LUA_TSTRING)
        return false;
    const char *m = lua_tostring(L, idx);
    return strstr(m, "stack overflow") != NULL;
}

/* A full stack as a limit. why is Lua's message when there is one: its
 * luaL_checkstack form, "stack overflow (string slice too long)", names
 * values asked for at once, not nesting, and keeps its words. */
static void sb_trip_overflow(Sandbox *sb, const char *why)
{
    char msg[200];
    const char *at = why ? strstr(why, "stack overflow (") : NULL;
    const char *end = at ? strchr(at, ')') : NULL;
    if (at && end && end - at < 120)
        snprintf(msg, sizeof msg, "%.*s: more values at once than the Lua stack holds",
                 (int)(end - at + 1), at);
    else
        snprintf(msg, sizeof msg, "stack overflow (more than %d nested calls): endless recursion?",
                 sb->limits.depth);
    sb_trip(sb, msg);
}

/* Nesting through C (sb_cstack_deep) as a limit. */
static void sb_trip_cstack(Sandbox *sb)
{
    sb_trip(sb, "C stack overflow (calls nested too deep through C: coroutines closing "
                "coroutines, callbacks calling back): endless recursion?");
}

/* A memory error caught by the script is an abort too: the cap stands. */
_Noreturn static void sb_raise_memory(lua_State *L)
{
    Sandbox *sb = sandbox_of(L);
    sb_trip_memory(sb);
    if (sb->last_line[0]) { /* where the block was refused, noted by the allocator */
        lua_pushfstring(L, "%s: %s", sb->last_line, sb->abort_msg);
        sb_throw(L);
    }
    sandbox_error(L, "%s", sb->abort_msg);
}

/* After a protected call or resume failed with the error at idx: raises
 * again when it was a limit; returns normally otherwise. */
static void sb_reraise_limits(lua_State *L, int status, int idx)
{
    Sandbox *sb = sandbox_of(L);
    if (status == LUA_ERRMEM || sb->mem_tripped)
        sb_raise_memory(L);
    if (!sb->aborting && sb_is_overflow(L, status, idx))
        sb_trip_overflow(sb, lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL);
    if (sb->aborting) {
        lua_pushvalue(L, idx);
        if (!strstr(lua_tostring(L, -1) ? lua_tostring(L, -1) : "", sb->abort_msg)) {
            lua_pop(L, 1);
            sb_raise_abort(L, 1);
        }
        sb_throw(L);
    }
}

/* pcall/xpcall continuation: an abort is raised again, never returned. */
static int sb_finish_pcall(lua_State *L, int status, lua_KContext extra)
{
    if (status != LUA_OK && status != LUA_YIELD) {
        sb_reraise_limits(L, status, -1);
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

/* Nesting through the wrappers below is checked before they start, so a
 * deep pcall(pcall, ...) chain stops at the sandbox's depth, never at
 * Lua's C-stack limit. */
static void sb_check_depth(lua_State *L)
{
    Sandbox *sb = sandbox_of(L);
    lua_Debug deep;
    if (!sb->aborting && lua_getstack(L, sb->limits.depth, &deep))
        sb_trip_overflow(sb, NULL);
    else if (!sb->aborting && sb_cstack_deep(sb))
        sb_trip_cstack(sb);
    if (sb->aborting)
        sb_raise_abort(L, 1);
}

static int sb_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    sb_check_depth(L);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, sb_finish_pcall);
    return sb_finish_pcall(L, status, 0);
}

/* Message handler wrapper. Lua runs hooks off while an error raised by a
 * hook unwinds, and calls the message handler in that state: a looping
 * handler would hang the program. The script's handler is skipped during
 * an abort, for stack overflows and for an error inside a handler (Lua
 * 5.4.4 can overflow its stack handling an error while the C stack is
 * full); otherwise it runs protected, under the hook as usual. */
static int sb_xpcall_handler(lua_State *L)
{
    Sandbox *sb = sandbox_of(L);
    lua_Debug deep;
    if (sb->aborting || sb->in_handler > 0 || sb_is_overflow(L, LUA_ERRRUN, 1) ||
        lua_getstack(L, sb->limits.depth / 2, &deep))
        return 1;
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    sb->in_handler++;
    int status = lua_pcall(L, n, 1, 0);
    sb->in_handler--;
    (void)status; /* the handler's own error becomes the result */
    return 1;
}

static int sb_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    sb_check_depth(L);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_xpcall_handler, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, sb_finish_pcall);
    return sb_finish_pcall(L, status, 2);
}

/* coroutine.resume: the original (upvalue 1), then re-raise a limit. */
static int sb_resume(lua_State *L)
{
    int n = lua_gettop(L);
    sb_check_depth(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    if (!lua_toboolean(L, 1)) {
        lua_settop(L, 2);
        sb_reraise_limits(L, LUA_ERRRUN, 2);
    } else if (sandbox_of(L)->aborting) {
        sb_raise_abort(L, 1);
    }
    return lua_gettop(L);
}

/* coroutine.wrap without the original's close-on-error: a coroutine stopped
 * by a limit still has hooks off (Lua leaves them so after an error raised
 * in a hook), so its <close> handlers must never run. Upvalues: the
 * coroutine, the wrapped resume. */
static int sb_wrap_call(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_rotate(L, 1, 2);
    lua_call(L, n + 1, LUA_MULTRET);
    if (!lua_toboolean(L, 1)) {
        lua_settop(L, 2);
        return lua_error(L);
    }
    return lua_gettop(L) - 1;
}

static int sb_wrap(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, sb_wrap_call, 2);
    return 1;
}

/* coroutine.close: a coroutine that died of an error keeps its to-be-closed
 * values unclosed (see sb_wrap_call); others close as usual. Lessons cannot
 * declare <close> variables (sb_check_source), but a generic for's fourth
 * value is to be closed too, and its __close may close another coroutine
 * whose own __close closes a third: the nesting is checked here (C stack,
 * sb_cstack_deep) and a limit tripped inside a handler, which the original
 * returns as (false, message), is raised again. */
static int sb_close(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    sb_check_depth(L);
    int st = lua_status(co);
    if (st != LUA_OK && st != LUA_YIELD) {
        luaL_pushfail(L);
        lua_pushliteral(L, "coroutine stopped by an error; its <close> handlers are not run "
                           "in lessons");
        return 2;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    if (sandbox_of(L)->aborting)
        sb_raise_abort(L, 1);
    return lua_gettop(L);
}

static int sb_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int gc = lua_rawget(L, 2);
        lua_pop(L, 1);
        if (gc != LUA_TNIL)
            return luaL_error(L, "setmetatable: __gc finalizers are not allowed in lessons "
                                 "(they would run outside the time limit)");
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

static int sb_collectgarbage(lua_State *L)
{
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") != 0)
        return luaL_error(L, "collectgarbage: only collectgarbage(\"count\") is allowed in "
                             "lessons");
    size_t used = sandbox_of(L)->mem_used;
    lua_pushnumber(L, (lua_Number)used / 1024.0);
    return 1;
}

/* The level of a long bracket at s[i] ("[[" 0, "[==[" 2), -1 when none. */
static int sb_long_bracket(const char *s, size_t len, size_t i)
{
    size_t j = i + 1;
    while (j < len && s[j] == '=')
        j++;
    return j < len && s[j] == '[' ? (int)(j - i - 1) : -1;
}

/* Skips a long string or comment opening at s[i] with the given level; returns
 * the index after its close (len when it never closes), counting lines. */
static size_t sb_skip_long(const char *s, size_t len, size_t i, int level, int *line)
{
    for (i += (size_t)level + 2; i < len; i++) {
        if (s[i] == '\n')
            (*line)++;
        if (s[i] != ']')
            continue;
        size_t j = i + 1;
        while (j < len && s[j] == '=')
            j++;
        if (j < len && s[j] == ']' && j - i - 1 == (size_t)level)
            return j + 1;
    }
    return len;
}

static bool sb_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Lua 5.4.4 bugs reachable from source text (lua.org/bugs.html): wrong code
 * for <const> locals (with _ENV and in bitwise operations) and a 'break' that
 * skips closing a <close> variable. Lessons need neither attribute, so the
 * tokens '<' const '>' and '<' close '>' are refused wherever Lua's lexer
 * would see them: white space, line breaks and comments between them
 * included, words inside strings and comments not. The scan is Lua's lexer
 * reduced to what tells tokens apart (names, strings, long brackets,
 * comments; numbers are names here). Returns the line of the '<', 0 when
 * there is none. */
static int sb_check_source(const char *s, size_t len)
{
    int line = 1, state = 0, at = 0; /* state: 1 after '<', 2 after '<' const */
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            line += c == '\n';
            i++;
        } else if (c == '-' && i + 1 < len && s[i + 1] == '-') {
            int level = i + 2 < len && s[i + 2] == '[' ? sb_long_bracket(s, len, i + 2) : -1;
            if (level >= 0) {
                i = sb_skip_long(s, len, i + 2, level, &line);
            } else {
                while (i < len && s[i] != '\n')
                    i++;
            }
        } else if (c == '[' && sb_long_bracket(s, len, i) >= 0) {
            i = sb_skip_long(s, len, i, sb_long_bracket(s, len, i), &line);
            state = 0;
        } else if (c == '"' || c == '\'') {
            for (i++; i < len && s[i] != c && s[i] != '\n'; i++)
                if (s[i] == '\\' && i + 1 < len) {
                    line += s[i + 1] == '\n';
                    i++;
                }
            i++;
            state = 0;
        } else if (sb_name_char(c)) {
            size_t j = i;
            while (j < len && (sb_name_char(s[j]) || s[j] == '.' ||
                               ((s[j] == '+' || s[j] == '-') && strchr("eEpP", s[j - 1]) &&
                                s[i] >= '0' && s[i] <= '9')))
                j++;
            bool attr =
                j - i == 5 && (memcmp(s + i, "const", 5) == 0 || memcmp(s + i, "close", 5) == 0);
            state = state == 1 && attr ? 2 : 0;
            i = j;
        } else {
            bool two = i + 1 < len && (s[i + 1] == '=' || s[i + 1] == c);
            if (c == '>' && state == 2 && !two)
                return at;
            state = c == '<' && !two ? 1 : 0;
            if (state == 1)
                at = line;
            i += two && (c == '<' || c == '>' || c == '=' || c == '~' || c == '/' || c == ':' ||
                         c == '.')
                     ? 2
                     : 1;
        }
    }
    return 0;
}

static int sb_load(lua_State *L)
{
    Sandbox *sb = sandbox_of(L);
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "load: lessons may load only a string of Lua source text");
    size_t len;
    const char *text = lua_tolstring(L, 1, &len);
    if (len > sb->limits.load_bytes)
        return luaL_error(L, "load: text too long (%d bytes, limit %d)", (int)len,
                          (int)sb->limits.load_bytes);
    sb_charge(L, (double)len * 8.0, "load"); /* parsing: about 8 instructions a byte */
    int bad = sb_check_source(text, len);
    if (bad) {
        luaL_pushfail(L);
        lua_pushfstring(L, "%s:%d: <const> and <close> are not allowed in lessons",
                        sb->load_chunkname + 1, bad);
        return 2;
    }
    int env = !lua_isnone(L, 4) ? 4 : 0;
    int status = luaL_loadbufferx(L, text, len, sb->load_chunkname, "t");
    if (status != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (env) {
        lua_pushvalue(L, env);
        if (!lua_setupvalue(L, -2, 1))
            lua_pop(L, 1);
    }
    return 1;
}

/* Names a lesson might reach for, with the reason they are missing. */
static const char *const forbidden_globals[] = {
    "io",    "require",    "debug",  "dofile",  "loadfile", "package",
    "print", "loadstring", "module", "setfenv", "getfenv",  NULL,
};

/* Strict globals (as redis does for its scripts): reading a global that
 * does not exist is an error, and so is creating one while the file runs. */
static int sb_env_index(lua_State *L)
{
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    if (key)
        for (int i = 0; forbidden_globals[i]; i++)
            if (strcmp(key, forbidden_globals[i]) == 0)
                return luaL_error(L,
                                  "'%s' is not available in lessons: a lesson cannot "
                                  "read files, print or run programs (see AUTHORING.md, "
                                  "\"Sandbox\")",
                                  key);
    if (!sandbox_of(L)->strict)
        return 0;
    if (key)
        return luaL_error(L,
                          "unknown global '%s' (a typo? declare your variables with "
                          "'local')",
                          key);
    return luaL_error(L, "unknown global of type %s", luaL_typename(L, 2));
}

static int sb_env_newindex(lua_State *L)
{
    if (sandbox_of(L)->strict) {
        if (lua_type(L, 2) == LUA_TSTRING)
            return luaL_error(L,
                              "assignment to undeclared global '%s' (a typo? declare it "
                              "with 'local')",
                              lua_tostring(L, 2));
        return luaL_error(L, "assignment to an undeclared global");
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 0;
}

static int sb_os_index(lua_State *L)
{
    const char *key = lua_tostring(L, 2);
    if (key && lua_type(L, 2) == LUA_TSTRING)
        return luaL_error(L,
                          "'os.%s' is not available in lessons: only os.clock is (see "
                          "AUTHORING.md, \"Sandbox\")",
                          key);
    return 0;
}

/* ---- the meter: a cost estimate for every C function ------------------- */

/* Lua's pattern matcher (lstrlib.c) costs what this section estimates:
 * each single-character class is a set of bytes (ByteSet, built in one pass
 * over the class however long it is), each repetition tries every length up
 * to the longest run of subject bytes in its set, and each try walks the
 * pattern again, a [set] byte by byte. */
typedef struct {
    uint8_t bit[32];
} ByteSet;

static void bs_add(ByteSet *b, int c)
{
    b->bit[c >> 3] |= (uint8_t)(1u << (c & 7));
}

static bool bs_has(const ByteSet *b, int c)
{
    return (b->bit[c >> 3] >> (c & 7)) & 1u;
}

/* The classes %a, %d, ... (lstrlib's match_class, same <ctype.h>). */
static bool pc_class(int c, int cl)
{
    bool res;
    switch (tolower(cl)) {
    case 'a':
        res = isalpha(c);
        break;
    case 'c':
        res = iscntrl(c);
        break;
    case 'd':
        res = isdigit(c);
        break;
    case 'g':
        res = isgraph(c);
        break;
    case 'l':
        res = islower(c);
        break;
    case 'p':
        res = ispunct(c);
        break;
    case 's':
        res = isspace(c);
        break;
    case 'u':
        res = isupper(c);
        break;
    case 'w':
        res = isalnum(c);
        break;
    case 'x':
        res = isxdigit(c);
        break;
    default:
        return cl == c;
    }
    return isupper(cl) ? !res : res;
}

typedef struct {
    ByteSet cls[256]; /* %X as a set, computed at the first use in one estimate */
    bool have[256];
} ClassCache;

static void bs_or_class(ByteSet *b, ClassCache *k, int cl)
{
    if (!k->have[cl]) {
        memset(&k->cls[cl], 0, sizeof k->cls[cl]);
        for (int c = 0; c < 256; c++)
            if (pc_class(c, cl))
                bs_add(&k->cls[cl], c);
        k->have[cl] = true;
    }
    for (int i = 0; i < 32; i++)
        b->bit[i] |= k->cls[cl].bit[i];
}

/* The bytes the single-character class p..ep matches (lstrlib's
 * singlematch and matchbracketclass for every byte at once). */
static void pc_set_of(const char *p, const char *ep, ByteSet *out, ClassCache *k)
{
    memset(out, 0, sizeof *out);
    if (*p == '.') {
        memset(out, 0xff, sizeof *out);
        return;
    }
    if (*p == '%') {
        if (p + 1 < ep)
            bs_or_class(out, k, (unsigned char)p[1]);
        return;
    }
    if (*p != '[') {
        bs_add(out, (unsigned char)*p);
        return;
    }
    const char *end = ep - 1; /* the closing ']' */
    bool neg = false;
    if (p + 1 < end && p[1] == '^') {
        neg = true;
        p++;
    }
    while (++p < end) {
        if (*p == '%' && p + 1 < end) {
            p++;
            bs_or_class(out, k, (unsigned char)*p);
        } else if (p + 2 < end && p[1] == '-') {
            for (int c = (unsigned char)*p; c <= (unsigned char)p[2]; c++)
                bs_add(out, c);
            p += 2;
        } else {
            bs_add(out, (unsigned char)*p);
        }
    }
    if (neg)
        for (int i = 0; i < 32; i++)
            out->bit[i] = (uint8_t)~out->bit[i];
}

static size_t pc_longest_run(const char *s, size_t ls, const ByteSet *set)
{
    size_t best = 0, run = 0;
    for (size_t i = 0; i < ls; i++) {
        run = bs_has(set, (unsigned char)s[i]) ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    return best;
}

/* End of the single-character class at p (lstrlib's classEnd, clipped). */
static const char *pc_class_end(const char *p, const char *pe)
{
    if (*p == '%')
        return p + 2 <= pe ? p + 2 : pe;
    if (*p == '[') {
        p++;
        if (p < pe && *p == '^')
            p++;
        do { /* the first ']' is a member, not the end */
            if (p >= pe)
                return pe;
            if (*p == '%')
                p++;
            p++;
        } while (p < pe && *p != ']');
        return p < pe ? p + 1 : pe;
    }
    return p + 1;
}

typedef struct {
    double per_start; /* worst-case steps of one match attempt */
    double starts;    /* start positions tried */
    int reps, opts;
} PatternCost;

/* Worst-case steps of Lua's backtracking matcher for pattern p on subject
 * s: every item is tried at every start (an unanchored search whose
 * pattern opens with a plain character starts only where it occurs); a
 * repetition tries every length up to the longest run its class matches
 * (%b and back-references up to the whole subject); each ? doubles; each
 * combination walks the whole pattern, which covers the length of sets.
 * With measure false only the repetitions and options are counted, in one
 * pass over the pattern: what measuring will cost is known before it runs
 * (each repetition's run scans the subject once). */
static PatternCost pattern_cost(const char *s, size_t ls, const char *p, size_t lp,
                                bool may_anchor, bool measure, ClassCache *k)
{
    PatternCost pc = {1.0, (double)ls + 1.0, 0, 0};
    const char *pe = p + lp, *q = p;
    if (may_anchor && q < pe && *q == '^') {
        pc.starts = 1.0;
        q++;
    }
    const char *first = q;
    while (first < pe && *first == '(')
        first++;
    if (measure && pc.starts > 1.0 && first < pe && !strchr("^$*+?.([%-)", *first) &&
        (first + 1 >= pe || !strchr("*+?-", first[1]))) {
        double n = 1.0;
        for (const char *hit = s; (hit = memchr(hit, *first, ls - (size_t)(hit - s))) != NULL;
             hit++)
            n++;
        pc.starts = n;
    }
    double combos = 1.0;
    while (q < pe) {
        if (*q == '(' || *q == ')' || (*q == '$' && q + 1 == pe)) {
            q++;
            continue;
        }
        if (*q == '%' && q + 1 < pe && (q[1] == 'b' || (q[1] >= '0' && q[1] <= '9'))) {
            combos *= (double)ls + 1.0;
            pc.reps++;
            q += q[1] == 'b' ? 4 : 2;
            continue;
        }
        if (*q == '%' && q + 1 < pe && q[1] == 'f') {
            q += 2;
            if (q < pe)
                q = pc_class_end(q, pe);
            continue;
        }
        const char *ep = pc_class_end(q, pe);
        if (ep < pe && (*ep == '*' || *ep == '+' || *ep == '-')) {
            if (measure) {
                ByteSet set;
                pc_set_of(q, ep, &set, k);
                combos *= (double)pc_longest_run(s, ls, &set) + 1.0;
            }
            pc.reps++;
            ep++;
        } else if (ep < pe && *ep == '?') {
            pc.opts++;
            ep++;
        }
        q = ep;
    }
    pc.per_start = combos * ((double)lp + 1.0) * pow(2.0, pc.opts > 60 ? 60 : pc.opts);
    return pc;
}

/* Refuses a pattern call above the per-call cap with advice, then charges
 * its worst case (plus extra, e.g. gsub's replacement work). The estimate's
 * own work (a scan of the subject per repetition, a pass over each class,
 * up to 256 bytes per range) is bounded and charged first. */
static void pattern_guard(lua_State *L, const char *fname, bool is_find, bool may_anchor,
                          double extra)
{
    Sandbox *sb = sandbox_of(L);
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    double cost;
    PatternCost pc = {0, 0, 0, 0};
    if (is_find && lua_toboolean(L, 4)) {
        cost = ((double)ls + 1.0) * ((double)lp + 1.0) / BYTES_PER_UNIT; /* memchr + memcmp */
    } else {
        pc = pattern_cost(s, ls, p, lp, may_anchor, false, NULL);
        double scans = ((double)ls * (pc.reps + 1) + (double)lp * 256.0) / BYTES_PER_UNIT;
        if (scans > sb->limits.pattern_steps) {
            cost = scans;
        } else {
            sb_charge(L, scans, fname);
            ClassCache *k = xmem_alloc(sizeof *k);
            memset(k->have, 0, sizeof k->have);
            pc = pattern_cost(s, ls, p, lp, may_anchor, true, k);
            free(k);
            cost = pc.starts * pc.per_start;
        }
    }
    if (cost > sb->limits.pattern_steps) {
        char msg[400];
        snprintf(msg, sizeof msg,
                 "%s: pattern too costly for a %zu-byte text (%d repetitions, %d optional "
                 "items: up to %.1e steps, limit %.0e); anchor it with ^, use fewer * + -, "
                 "split the text first, or use string.find(s, p, 1, true) for plain text",
                 fname, ls, pc.reps, pc.opts, cost, sb->limits.pattern_steps);
        sandbox_error(L, "%s", msg);
    }
    sb_charge(L, cost + extra, fname);
}

static int sb_metered(lua_State *L);
static int sb_randomseed(lua_State *L);

/* The C functions handed out unmetered on purpose: the wrappers, which
 * check depth and limits themselves, and error and assert, whose level 1
 * must stay the script's line. */
static bool sb_own_wrapper(const Sandbox *sb, lua_CFunction f)
{
    return f == sb_metered || f == sb_pcall || f == sb_xpcall || f == sb_resume || f == sb_wrap ||
           f == sb_wrap_call || f == sb_close || f == sb_randomseed || f == sb->raw_error ||
           f == sb->raw_assert;
}

/* Every C function a metered call hands back (pairs' next, the iterators of
 * ipairs, gmatch and utf8.codes, an API object's method) is metered too,
 * under the name of the call that made it: a raw C function given to C
 * code that calls it in a loop (a cost function, a sort comparison) would
 * run with no hook to see it and nothing charged. */
static int sb_meter_results(lua_State *L)
{
    Sandbox *sb = sandbox_of(L);
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        lua_CFunction f = lua_tocfunction(L, i);
        if (!f || sb_own_wrapper(sb, f))
            continue;
        luaL_checkstack(L, 3, "metering a returned function");
        lua_pushvalue(L, i);
        lua_pushlightuserdata(L, NULL);
        lua_pushvalue(L, lua_upvalueindex(3));
        lua_pushcclosure(L, sb_metered, 3);
        lua_replace(L, i);
    }
    return n;
}

/* Calls the original function (upvalue 1) with all arguments; a yield in
 * it (coroutine.yield itself, or a yield across) comes back here. */
static int call_original_k(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    return sb_meter_results(L);
}

static int call_original(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_callk(L, n, LUA_MULTRET, 0, call_original_k);
    return sb_meter_results(L);
}

static double str_len_arg(lua_State *L, int i)
{
    size_t n = 0;
    if (lua_type(L, i) == LUA_TSTRING)
        lua_tolstring(L, i, &n);
    return (double)n;
}

/* Cost estimates, in instructions, from the arguments (argument checks for
 * the main ones here, so their messages name the function). */
typedef double (*CostFn)(lua_State *L);

static double cost_args(lua_State *L) /* linear in the arguments' sizes */
{
    double bytes = 0;
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++)
        bytes += str_len_arg(L, i);
    return (double)n + bytes / BYTES_PER_UNIT;
}

static double cost_find(lua_State *L)
{
    pattern_guard(L, "string.find", true, true, 0);
    return 0;
}

static double cost_match(lua_State *L)
{
    pattern_guard(L, "string.match", false, true, 0);
    return 0;
}

/* gmatch's iterator walks the subject once from left to right, so its whole
 * iteration is the unanchored worst case, charged when it is made. */
static double cost_gmatch(lua_State *L)
{
    pattern_guard(L, "string.gmatch", false, false, 0);
    return 0;
}

/* gsub also builds the result: a string replacement is copied once per
 * match (at most one match per subject byte, or max_n). */
static double cost_gsub(lua_State *L)
{
    size_t ls = 0;
    luaL_checklstring(L, 1, &ls);
    double matches = (double)ls + 1.0;
    if (lua_type(L, 4) == LUA_TNUMBER && lua_tonumber(L, 4) < matches)
        matches = lua_tonumber(L, 4) > 0 ? lua_tonumber(L, 4) : 0;
    double repl = str_len_arg(L, 3) + 1.0;
    pattern_guard(L, "string.gsub", false, true, matches * repl / BYTES_PER_UNIT * 4);
    return 0;
}

static double cost_rep(lua_State *L)
{
    Sandbox *sb = sandbox_of(L);
    size_t ls, lsep = 0;
    luaL_checklstring(L, 1, &ls);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0)
        return 1;
    double total = (double)n * (double)(ls + lsep);
    if ((ls + lsep == 0 && n > RANGE_MAX) || total > (double)sb->limits.string_bytes) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "string.rep: result too large (%.0f bytes from %.0f copies; limit %zu MB)", total,
                 (double)n, sb->limits.string_bytes >> 20);
        sandbox_error(L, "%s", msg);
    }
    return (double)n / 4.0 + total / BYTES_PER_UNIT; /* n memcpy calls */
}

static double cost_byte(lua_State *L)
{
    size_t ls;
    luaL_checklstring(L, 1, &ls);
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer j = luaL_optinteger(L, 3, i);
    (void)j;
    return (double)ls / 2.0 + 1.0; /* up to one pushed value per byte */
}

static double cost_format(lua_State *L)
{
    luaL_checkstring(L, 1);
    return cost_args(L) * 2.0; /* %q escapes can double the copy */
}

/* table.* on tables whose metamethods C would call in a loop no hook sees. */
static void table_guard(lua_State *L, int arg, const char *fname)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    if (!lua_getmetatable(L, arg))
        return;
    static const char *const events[] = {"__index", "__newindex", "__len"};
    for (int i = 0; i < 3; i++) {
        lua_pushstring(L, events[i]);
        int t = lua_rawget(L, -2);
        lua_pop(L, 1);
        if (t != LUA_TNIL)
            sandbox_error(L, "%s: not allowed on a table with a %s metamethod in lessons", fname,
                          events[i]);
    }
    lua_pop(L, 1);
}

/* Elements in from..to, each about per instructions (a lua_geti and a
 * lua_seti through the API). */
static double range_cost(lua_State *L, lua_Integer from, lua_Integer to, const char *fname,
                         double per)
{
    if (to < from)
        return 1;
    if ((lua_Unsigned)to - (lua_Unsigned)from >= RANGE_MAX)
        sandbox_error(L, "%s: range too large (more than %d elements)", fname, RANGE_MAX);
    return ((double)(to - from) + 1.0) * per;
}

static double cost_concat(lua_State *L)
{
    table_guard(L, 1, "table.concat");
    size_t lsep = 0;
    luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    lua_Integer j =
        lua_isnoneornil(L, 4) ? (lua_Integer)lua_rawlen(L, 1) : luaL_checkinteger(L, 4);
    double n = range_cost(L, i, j, "table.concat", 4.0);
    if (n >= (double)sandbox_of(L)->budget)
        return n; /* refused as it is: no need to measure the strings */
    double bytes = n * (double)lsep;
    for (lua_Integer k = i; k <= j && n > 1; k++) {
        size_t len = 0;
        if (lua_rawgeti(L, 1, k) == LUA_TSTRING)
            lua_tolstring(L, -1, &len);
        lua_pop(L, 1);
        bytes += (double)len;
    }
    return n + bytes / BYTES_PER_UNIT * 2.0; /* copied into the buffer, then the result */
}

static double cost_move(lua_State *L)
{
    table_guard(L, 1, "table.move");
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    if (!lua_isnoneornil(L, 5))
        table_guard(L, 5, "table.move");
    return range_cost(L, f, e, "table.move", 8.0);
}

static double cost_unpack(lua_State *L)
{
    table_guard(L, 1, "table.unpack");
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer j =
        lua_isnoneornil(L, 3) ? (lua_Integer)lua_rawlen(L, 1) : luaL_checkinteger(L, 3);
    return range_cost(L, i, j, "table.unpack", 2.0);
}

static double cost_shift(lua_State *L) /* insert and remove move the tail */
{
    table_guard(L, 1, lua_tostring(L, lua_upvalueindex(3)));
    return (double)lua_rawlen(L, 1) * 8.0 + 1.0;
}

/* n log n comparisons; without a comparison function each compares two
 * strings byte by byte (strcoll), so the longest string counts too. */
static double cost_sort(lua_State *L)
{
    table_guard(L, 1, "table.sort");
    double n = (double)lua_rawlen(L, 1);
    double longest = 0;
    if (lua_isnoneornil(L, 2) && n < (double)sandbox_of(L)->budget) {
        for (lua_Integer k = 1; k <= (lua_Integer)n; k++) {
            size_t len = 0;
            if (lua_rawgeti(L, 1, k) == LUA_TSTRING)
                lua_tolstring(L, -1, &len);
            lua_pop(L, 1);
            if ((double)len > longest)
                longest = (double)len;
        }
    }
    double cmps = n * (log2(n + 1.0) + 1.0) * 2.0;
    return n + cmps * (1.0 + longest / BYTES_PER_UNIT);
}

/* utf8.codes in Lua 5.4.4 accepts stray continuation bytes (lua.org bug);
 * the sandbox checks the string first, as 5.4.6 does. */
static double cost_codes(lua_State *L)
{
    size_t ls;
    const unsigned char *s = (const unsigned char *)luaL_checklstring(L, 1, &ls);
    for (size_t i = 0; i < ls;) {
        unsigned c = s[i];
        size_t n = c < 0x80                ? 1
                   : c >= 0xc0 && c < 0xe0 ? 2
                   : c >= 0xe0 && c < 0xf0 ? 3
                   : c >= 0xf0 && c < 0xf8 ? 4
                                           : 0;
        if (n == 0 || i + n > ls)
            sandbox_error(L, "invalid UTF-8 code");
        for (size_t k = 1; k < n; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                sandbox_error(L, "invalid UTF-8 code");
        i += n;
    }
    return (double)ls / BYTES_PER_UNIT + 1.0;
}

/* math.randomseed() without arguments would seed from the clock and an
 * address and return them; in lessons it seeds with the fixed 42 and, like
 * any call, returns nothing, so numbers repeat from one run to the next. */
static int sb_randomseed(lua_State *L)
{
    sb_charge(L, 1, "math.randomseed");
    if (lua_isnone(L, 1))
        lua_pushinteger(L, 42);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
}

/* The wrapper every reachable C function runs behind. Upvalues: the
 * original, the cost function (light userdata, NULL: one step), the name. */
static int sb_metered(lua_State *L)
{
    CostFn cost = (CostFn)(uintptr_t)lua_touserdata(L, lua_upvalueindex(2));
    const char *name = lua_tostring(L, lua_upvalueindex(3));
    sb_check_depth(L);
    if (sb_line_sink)
        sb_note_line(sandbox_of(L), L, NULL, 1);
    double units = (cost ? cost(L) : (double)lua_gettop(L) + 1.0) + CALL_UNITS;
    sb_charge(L, units, name);
    if (sb_call_hook)
        sb_call_hook(name);
    return call_original(L);
}

/* Replaces t[name] (a C function) by its metered wrapper. The original is
 * also listed in the registry's "loaded" table under lib.name (that table
 * holds nothing else), so Lua's argument errors raised inside it still name
 * it ("bad argument #1 to 'setmetatable'"). */
static void meter_field(lua_State *L, int t, const char *lib, const char *name, CostFn cost)
{
    if (lua_getfield(L, t, name) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return;
    }
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    luaL_getsubtable(L, -1, *lib ? lib : LUA_GNAME);
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, name);
    lua_pop(L, 2);
    lua_pushlightuserdata(L, (void *)(uintptr_t)cost);
    lua_pushfstring(L, "%s%s%s", lib, *lib ? "." : "", name);
    lua_pushcclosure(L, sb_metered, 3);
    lua_setfield(L, t, name);
}

/* Meters every C function in table t (the API tables too), with the
 * estimates named in costs and cost_args for the rest. */
typedef struct {
    const char *name;
    CostFn cost;
} MeterCost;

static void meter_table(lua_State *L, int t, const char *lib, const MeterCost *costs)
{
    t = lua_absindex(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        bool fn = lua_iscfunction(L, -1) && lua_type(L, -2) == LUA_TSTRING;
        lua_pop(L, 1);
        if (!fn)
            continue;
        const char *name = lua_tostring(L, -1);
        CostFn cost = cost_args;
        for (int i = 0; costs && costs[i].name; i++)
            if (strcmp(costs[i].name, name) == 0)
                cost = costs[i].cost;
        lua_pushvalue(L, -1); /* meter_field's setfield during lua_next is an
                                 assignment to an existing key: allowed */
        const char *key = lua_tostring(L, -1);
        meter_field(L, t, lib, key, cost);
        lua_pop(L, 1);
    }
}

void sandbox_meter_table(lua_State *L, int t, const char *lib)
{
    meter_table(L, t, lib, NULL);
}

/* ---- building the environment ---------------------------------------- */

static void copy_fields(lua_State *L, int from, int to, const char *const *names)
{
    for (int i = 0; names[i]; i++) {
        lua_getfield(L, from, names[i]);
        lua_setfield(L, to, names[i]);
    }
}

/* Opens a standard library without touching globals; leaves it on the stack. */
static int open_lib(lua_State *L, const char *name, lua_CFunction open)
{
    luaL_requiref(L, name, open, 0);
    return lua_gettop(L);
}

/* The string functions lessons get: fresh table, metered. */
static void push_string_lib(lua_State *L, int strlib)
{
    static const char *const names[] = {
        "byte", "char", "format", "len",    "lower", "upper", "reverse",
        "sub",  "find", "match",  "gmatch", "gsub",  "rep",   NULL,
    };
    static const MeterCost costs[] = {
        {"find", cost_find}, {"match", cost_match}, {"gmatch", cost_gmatch}, {"gsub", cost_gsub},
        {"rep", cost_rep},   {"byte", cost_byte},   {"format", cost_format}, {NULL, NULL},
    };
    lua_newtable(L);
    int t = lua_gettop(L);
    copy_fields(L, strlib, t, names);
    meter_table(L, t, "string", costs);
}

static void push_table_lib(lua_State *L, int tablib)
{
    static const char *const names[] = {"pack",   "concat", "move",   "insert",
                                        "remove", "sort",   "unpack", NULL};
    static const MeterCost costs[] = {
        {"concat", cost_concat},
        {"move", cost_move},
        {"insert", cost_shift},
        {"remove", cost_shift},
        {"sort", cost_sort},
        {"unpack", cost_unpack},
        {NULL, NULL},
    };
    lua_newtable(L);
    int t = lua_gettop(L);
    copy_fields(L, tablib, t, names);
    meter_table(L, t, "table", costs);
    /* cost_shift names its function through the third upvalue */
}

static void push_math_lib(lua_State *L, int mathlib)
{
    static const char *const names[] = {
        "abs",  "ceil",       "cos",       "deg",        "exp",  "floor", "fmod", "huge",   "log",
        "max",  "maxinteger", "min",       "mininteger", "modf", "pi",    "rad",  "random", "sin",
        "sqrt", "tan",        "tointeger", "type",       "ult",  "atan",  "asin", "acos",   NULL,
    };
    lua_newtable(L);
    int t = lua_gettop(L);
    copy_fields(L, mathlib, t, names);
    meter_table(L, t, "math", NULL);
    lua_getfield(L, mathlib, "randomseed");
    lua_pushcclosure(L, sb_randomseed, 1);
    lua_setfield(L, t, "randomseed");
    /* Repeatable randomness: the same lesson shows the same numbers. */
    lua_getfield(L, mathlib, "randomseed");
    lua_pushinteger(L, 42);
    lua_call(L, 1, 0);
}

static void push_coroutine_lib(lua_State *L, int corolib)
{
    static const char *const names[] = {"create", "isyieldable", "running",
                                        "status", "yield",       NULL};
    lua_newtable(L);
    int t = lua_gettop(L);
    copy_fields(L, corolib, t, names);
    meter_table(L, t, "coroutine", NULL);
    lua_getfield(L, corolib, "resume");
    lua_pushcclosure(L, sb_resume, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, t, "resume");
    lua_pushcclosure(L, sb_wrap, 1);
    lua_setfield(L, t, "wrap");
    lua_getfield(L, corolib, "close");
    lua_pushcclosure(L, sb_close, 1);
    lua_setfield(L, t, "close");
}

static void push_small_libs(lua_State *L, int env, int utf8lib, int oslib)
{
    lua_newtable(L);
    static const char *const utf8_names[] = {"char", "charpattern", "codepoint", "codes",
                                             "len",  "offset",      NULL};
    static const MeterCost utf8_costs[] = {{"codes", cost_codes}, {NULL, NULL}};
    copy_fields(L, utf8lib, lua_gettop(L), utf8_names);
    meter_table(L, -1, "utf8", utf8_costs);
    lua_setfield(L, env, "utf8");

    lua_newtable(L);
    lua_getfield(L, oslib, "clock");
    lua_setfield(L, -2, "clock");
    meter_table(L, -1, "os", NULL);
    lua_newtable(L);
    lua_pushcfunction(L, sb_os_index);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0); /* getmetatable(os) hands out no C function */
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_setfield(L, env, "os");
}

static int sb_build_env(lua_State *L)
{
    /* luaopen_base writes into the registry's globals: that table becomes
     * a quarry we copy from, then is replaced by the fresh environment. */
    int base = open_lib(L, "_G", luaopen_base);
    int strlib = open_lib(L, LUA_STRLIBNAME, luaopen_string);
    int tablib = open_lib(L, LUA_TABLIBNAME, luaopen_table);
    int mathlib = open_lib(L, LUA_MATHLIBNAME, luaopen_math);
    int utf8lib = open_lib(L, LUA_UTF8LIBNAME, luaopen_utf8);
    int corolib = open_lib(L, LUA_COLIBNAME, luaopen_coroutine);
    int oslib = open_lib(L, LUA_OSLIBNAME, luaopen_os);
    /* The full libraries stay on this stack only; the registry's "loaded"
     * table gets just the originals behind the metered functions. */
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);

    lua_newtable(L);
    int env = lua_gettop(L);
    static const char *const base_names[] = {
        "assert", "error",  "getmetatable", "ipairs",   "next",     "pairs", "rawequal", "rawget",
        "rawlen", "rawset", "select",       "tonumber", "tostring", "type",  "_VERSION", NULL,
    };
    copy_fields(L, base, env, base_names);
    static const struct {
        const char *name;
        lua_CFunction fn;
    } base_own[] = {
        {"setmetatable", sb_setmetatable},
        {"collectgarbage", sb_collectgarbage},
        {"load", sb_load},
    };
    for (size_t i = 0; i < sizeof base_own / sizeof base_own[0]; i++) {
        lua_pushcfunction(L, base_own[i].fn);
        lua_setfield(L, env, base_own[i].name);
    }
    meter_table(L, env, "", NULL);
    /* error and assert stay as they are: O(1), and their position (level 1,
     * the caller) must be the script's line, not the meter's. */
    lua_getfield(L, base, "error");
    sandbox_of(L)->raw_error = lua_tocfunction(L, -1);
    lua_setfield(L, env, "error");
    lua_getfield(L, base, "assert");
    sandbox_of(L)->raw_assert = lua_tocfunction(L, -1);
    lua_setfield(L, env, "assert");
    /* pcall and xpcall check depth and re-raise limits themselves; metering
     * them too would double their C-stack use. */
    lua_pushcfunction(L, sb_pcall);
    lua_setfield(L, env, "pcall");
    lua_pushcfunction(L, sb_xpcall);
    lua_setfield(L, env, "xpcall");
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");

    /* string: a table for the global, another for methods on strings,
     * reachable only through the hidden string metatable. */
    push_string_lib(L, strlib);
    lua_setfield(L, env, "string");
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    push_string_lib(L, strlib);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);

    push_table_lib(L, tablib);
    lua_setfield(L, env, "table");
    push_math_lib(L, mathlib);
    lua_setfield(L, env, "math");
    push_coroutine_lib(L, corolib);
    lua_setfield(L, env, "coroutine");
    push_small_libs(L, env, utf8lib, oslib);

    lua_newtable(L);
    lua_pushcfunction(L, sb_env_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, sb_env_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0); /* nor getmetatable(_G): strict globals stay on */
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, env);

    lua_pushvalue(L, env);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    return 0;
}
/* ---- errors ---------------------------------------------------------- */

static int sb_msgh(lua_State *L)
{
    Sandbox *sb = sandbox_of(L);
    lua_Debug ar;
    sb->where[0] = '\0';
    for (int level = 0; level < sb->limits.depth + 50 && lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            snprintf(sb->where, sizeof sb->where, "%s:%d", ar.short_src, ar.currentline);
            break;
        }
    }
    return 1;
}

/* Does msg start with "PREFIX:<digits>:"? */
static bool has_position(const char *msg, size_t len, const char *prefix)
{
    size_t pl = strlen(prefix);
    if (len <= pl + 2 || memcmp(msg, prefix, pl) != 0 || msg[pl] != ':')
        return false;
    size_t i = pl + 1;
    size_t digits = 0;
    while (i < len && msg[i] >= '0' && msg[i] <= '9') {
        i++;
        digits++;
    }
    return digits > 0 && i < len && msg[i] == ':';
}

/* Lua names a file of more than LUA_IDSIZE bytes by its tail ("...lessons/
 * x.lua:3:"); messages name it as given, so editors and scripts find it. */
static void sb_full_name(const Sandbox *sb, char *err, size_t err_len)
{
    size_t n = strlen(sb->short_src);
    if (strcmp(sb->short_src, sb->name) == 0 || strncmp(err, sb->short_src, n) != 0 ||
        err[n] != ':')
        return;
    char full[MSG_LEN + 256];
    snprintf(full, sizeof full, "%s%s", sb->name, err + n);
    msg_set(err, err_len, "%s", full);
}

/* Formats the error object on top of the stack (not popped) into err.
 * Runs no Lua code and allocates nothing in Lua. */
static void sb_format_error(Sandbox *sb, int status, char *err, size_t err_len)
{
    lua_State *L = sb->L;
    char text[1024];
    const char *msg = NULL;
    size_t len = 0;
    int t = lua_type(L, -1);
    if (sb->aborting && !(t == LUA_TSTRING && strstr(lua_tostring(L, -1), sb->abort_msg))) {
        /* a limit, whatever the object says (a refused block, an overflow) */
        snprintf(text, sizeof text, "%s", sb->abort_msg);
        msg = text;
        len = strlen(text);
        if (sb->last_line[0] && !sb->where[0])
            snprintf(sb->where, sizeof sb->where, "%s", sb->last_line);
    } else if (status == LUA_ERRMEM) {
        snprintf(text, sizeof text, "memory limit reached (%zu MB): unbounded growth?",
                 sb->limits.mem_bytes >> 20);
        msg = text;
        len = strlen(text);
        if (sb->last_line[0] && !sb->where[0])
            snprintf(sb->where, sizeof sb->where, "%s", sb->last_line);
    } else if (t == LUA_TSTRING) {
        msg = lua_tolstring(L, -1, &len);
    } else if (t == LUA_TNUMBER) {
        if (lua_isinteger(L, -1))
            snprintf(text, sizeof text, "%lld", (long long)lua_tointeger(L, -1));
        else
            snprintf(text, sizeof text, "%.14g", (double)lua_tonumber(L, -1));
        msg = text;
        len = strlen(text);
    } else {
        snprintf(text, sizeof text, "error object is a %s value (use error(\"text\"))",
                 t == LUA_TNIL ? "nil" : lua_typename(L, t));
        msg = text;
        len = strlen(text);
    }
    char escaped[MSG_LEN];
    escape_text(msg, len, escaped, sizeof escaped);
    char load_src[LUA_IDSIZE + 8];
    snprintf(load_src, sizeof load_src, "%s", sb->load_chunkname + 1);
    if (has_position(escaped, strlen(escaped), sb->short_src) ||
        has_position(escaped, strlen(escaped), load_src)) {
        msg_set(err, err_len, "%s", escaped);
    } else if (sb->where[0] && (strncmp(sb->where, sb->short_src, strlen(sb->short_src)) == 0 ||
                                strncmp(sb->where, load_src, strlen(load_src)) == 0)) {
        msg_set(err, err_len, "%s: %s", sb->where, escaped);
    } else {
        msg_set(err, err_len, "%s: %s", sb->name, escaped);
    }
    sb_full_name(sb, err, err_len);
}

/* ---- life cycle and entry points --------------------------------------- */

Sandbox *sandbox_new(const char *name, const SandboxLimits *limits)
{
    Sandbox *sb = xmem_calloc(1, sizeof *sb);
    sb->limits = limits ? *limits : sandbox_limits_default();
    char safe[256];
    escape_text(name ? name : "lesson", strlen(name ? name : "lesson"), safe, sizeof safe);
    sb->name = xmem_strdup(safe);
    sb->chunkname = xmem_alloc(strlen(safe) + 2);
    sprintf(sb->chunkname, "@%s", safe);
    sb->load_chunkname = xmem_alloc(strlen(safe) + 10);
    sprintf(sb->load_chunkname, "=%s [load]", safe);
    if (strlen(sb->load_chunkname) >= LUA_IDSIZE)
        sprintf(sb->load_chunkname, "=[load]");
    sb->cstack_max = sb_cstack_allowed();
    sb->L = lua_newstate(sb_alloc, sb);
    if (!sb->L) {
        sandbox_free(sb);
        return NULL;
    }
    /* short_src as Lua prints it for "@name" (long names lose their head). */
    size_t n = strlen(safe);
    if (n < LUA_IDSIZE) {
        memcpy(sb->short_src, safe, n + 1);
    } else {
        memcpy(sb->short_src, "...", 3);
        memcpy(sb->short_src + 3, safe + n - (LUA_IDSIZE - 4), LUA_IDSIZE - 3);
    }
    lua_sethook(sb->L, sb_hook, LUA_MASKCOUNT, HOOK_EVERY);
    sandbox_renew(sb);
    char err[MSG_LEN];
    if (!sandbox_protect(sb, sb_build_env, sb, err, sizeof err)) {
        sandbox_free(sb);
        return NULL;
    }
    return sb;
}

void sandbox_free(Sandbox *sb)
{
    if (!sb)
        return;
    if (sb->L)
        lua_close(sb->L);
    free(sb->name);
    free(sb->chunkname);
    free(sb->load_chunkname);
    free(sb->source);
    free(sb);
}

bool sandbox_call(Sandbox *sb, int nargs, int nresults, char *err, size_t err_len)
{
    lua_State *L = sb->L;
    int base = lua_gettop(L) - nargs;
    if (!lua_checkstack(L, 4)) {
        lua_settop(L, base - 1);
        return msg_fail(err, err_len, "%s: Lua stack exhausted", sb->name);
    }
    lua_pushcfunction(L, sb_msgh);
    lua_insert(L, base);
    sb_arm(sb);
    int status = lua_pcall(L, nargs, nresults, base);
    sb->armed = false;
    if (status != LUA_OK) {
        sb_format_error(sb, status, err, err_len);
        lua_pop(L, 1);
        lua_remove(L, base);
        sb->aborting = false;
        return false;
    }
    lua_remove(L, base);
    sb->aborting = false;
    return true;
}

bool sandbox_protect(Sandbox *sb, int (*fn)(lua_State *L), void *ud, char *err, size_t err_len)
{
    lua_State *L = sb->L;
    if (!lua_checkstack(L, 4)) {
        return msg_fail(err, err_len, "%s: Lua stack exhausted", sb->name);
    }
    lua_pushcfunction(L, fn);
    lua_pushlightuserdata(L, ud);
    return sandbox_call(sb, 1, 0, err, err_len);
}

/* The line where brackets first nest 100 deep (the parser's C-stack limit
 * is 200 levels), else 1: a lexical guess for errors that carry no line. */
static int sb_deep_line(const char *text, size_t len)
{
    int depth = 0, line = 1;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        line += c == '\n';
        depth += (c == '(' || c == '{' || c == '[') - (c == ')' || c == '}' || c == ']');
        if (depth > 100)
            return line;
    }
    return 1;
}

static bool sb_run_buffer(Sandbox *sb, const char *text, size_t len, char *err, size_t err_len)
{
    if (len > sb->limits.file_bytes) {
        return msg_fail(err, err_len,
                        "%s:1: file too large (%zu bytes, limit %zu): a lesson is a "
                        "small Lua text file",
                        sb->name, len, sb->limits.file_bytes);
    }
    if (len > 0 && text[0] == LUA_SIGNATURE[0]) {
        return msg_fail(err, err_len,
                        "%s:1: precompiled (binary) chunks are refused: give the Lua "
                        "source text",
                        sb->name);
    }
    int attr = sb_check_source(text, len);
    if (attr) {
        return msg_fail(
            err, err_len,
            "%s:%d: <const> and <close> are not allowed in lessons (Lua 5.4.4 compiles "
            "them wrongly in places)",
            sb->name, attr);
    }
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        return msg_fail(err, err_len, "%s:%d: NUL byte in the file: a lesson must be a text file",
                        sb->name, line);
    }
    free(sb->source);
    sb->source = xmem_alloc(len + 1);
    memcpy(sb->source, text, len);
    sb->source[len] = '\0';
    sb->source_len = len;
    lua_State *L = sb->L;
    int top = lua_gettop(L);
    sb_arm(sb);
    int status = luaL_loadbufferx(L, text, len, sb->chunkname, "t");
    sb->armed = false;
    if (status != LUA_OK) {
        sb->where[0] = '\0';
        sb_format_error(sb, status, err, err_len);
        lua_settop(L, top);
        if (!has_position(err, strlen(err), sb->name)) {
            /* the parser's own limit ("C stack overflow") names no line */
            char msg[MSG_LEN];
            const char *m = err + strlen(sb->name);
            snprintf(msg, sizeof msg, "%s:%d: %s (nesting too deep)", sb->name,
                     sb_deep_line(text, len), *m == ':' ? m + 2 : m);
            msg_set(err, err_len, "%s", msg);
        }
        return false;
    }
    sb->strict = true; /* from here on, for the goals called later too */
    bool ok = sandbox_call(sb, 0, 1, err, err_len);
    if (!ok) {
        lua_settop(L, top);
        return false;
    }
    return true;
}

bool sandbox_run_string(Sandbox *sb, const char *text, size_t len, char *err, size_t err_len)
{
    return sb_run_buffer(sb, text ? text : "", text ? len : 0, err, err_len);
}

char *sandbox_read_file(const char *name, const char *path, size_t cap, size_t *len, char *err,
                        size_t err_len)
{
    FileProblem why;
    char *buf = file_read(path, cap, len, &why);
    if (buf)
        return buf;
    if (why.status == FILE_NOT_REGULAR)
        msg_set(err, err_len, "%s:1: not a lesson file (%s): give a .lua text file", name,
                why.kind);
    else if (why.status == FILE_TOO_LARGE)
        msg_set(err, err_len,
                "%s:1: file too large (%lld bytes, limit %zu): a lesson is a "
                "small Lua text file",
                name, why.size, cap);
    else
        msg_set(err, err_len, "%s:1: %s: %s", name,
                why.status == FILE_CANNOT_READ ? "cannot read" : "cannot open",
                strerror(why.errnum));
    return NULL;
}

bool sandbox_run_file(Sandbox *sb, const char *path, char *err, size_t err_len)
{
    size_t len;
    char *buf = sandbox_read_file(sb->name, path, sb->limits.file_bytes, &len, err, err_len);
    if (!buf)
        return false;
    bool ok = sb_run_buffer(sb, buf, len, err, err_len);
    free(buf);
    return ok;
}
