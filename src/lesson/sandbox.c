/* sandbox — the limited Lua state every lesson runs in (see sandbox.h).
 *
 * Invariants: every piece of Lua that runs goes through sandbox_call or
 * sandbox_protect, which arm the budget and deadline; the hook is installed
 * once on the main thread and coroutines inherit it; once a limit trips,
 * sb->aborting stays set until the next entry point, so every later hook
 * fire, pcall, xpcall and coroutine.resume raises the same message again.
 * No original library table is reachable from the script: the environment
 * and the string method table are fresh tables holding chosen functions.
 * Depends on Lua 5.4 and libc only; never prints.
 */
#include "lesson/sandbox.h"

#include "base/clock.h"
#include "base/file.h"
#include "base/msg.h"
#include "base/xmem.h"

#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HOOK_EVERY 1000     /* instructions between two hook calls */
#define RANGE_MAX  10000000 /* elements table.move/concat/rep may touch in one call */

struct Sandbox {
    lua_State *L;
    SandboxLimits limits;
    char *name;                 /* file name as given, for messages */
    char *chunkname;            /* "@name" */
    char *load_chunkname;       /* "=name [load]": load() cannot choose its own */
    char short_src[LUA_IDSIZE]; /* how Lua prints name in positions */
    size_t mem_used;
    bool mem_tripped; /* the allocator refused a block */
    long budget;      /* instructions left in this entry point */
    double deadline_s; /* clock_now_s() when the entry point runs out of time */
    bool aborting;
    bool armed;      /* inside an entry point */
    double polled_s; /* running time of the last poll (SandboxPollFn) */
    char abort_msg[200];
    char where[LUA_IDSIZE + 16];     /* position of the last error, from the handler */
    char last_line[LUA_IDSIZE + 16]; /* last position the hook saw (memory errors) */
    char *source;                    /* text of the last chunk run, for line lookups */
    size_t source_len;
};

/* Why these limits: a lesson builds a few tables and calls the model a
 * handful of times, well under 1 million instructions and 2 MB in our
 * lessons. 50 million instructions is ~0.2-0.5 s on this VM; the wall
 * clock catches slow machines and sanitizer builds. 64 MB holds any sane
 * lesson; the soft limit (7/8) is checked in the hook so the message
 * names the line. 200 nested Lua calls is far beyond any lesson's needs.
 * 1e8 matcher steps is ~0.3 s for Lua's matcher. */
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
    };
    return lim;
}

/* Listing a folder loads every file: a tenth of the budget each, so 1,000
 * hostile files still list in reasonable time. */
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
static void sb_note_position(Sandbox *sb)
{
    lua_Debug ar;
    for (int level = 0; level < 32 && lua_getstack(sb->L, level, &ar); level++) {
        if (lua_getinfo(sb->L, "Sl", &ar) && ar.currentline > 0) {
            snprintf(sb->last_line, sizeof sb->last_line, "%s:%d", ar.short_src, ar.currentline);
            return;
        }
    }
}

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Sandbox *sb = ud;
    if (!ptr)
        osize = 0; /* osize is a type tag for new blocks */
    if (nsize == 0) {
        free(ptr);
        sb->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize && sb->mem_used - osize + nsize > sb->limits.mem_bytes) {
        if (!sb->mem_tripped && sb->armed)
            sb_note_position(sb);
        sb->mem_tripped = true;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p)
        return NULL;
    sb->mem_used = sb->mem_used - osize + nsize;
    return p;
}

/* ---- limits: the hook ------------------------------------------------ */

static double sb_seconds_left(const Sandbox *sb)
{
    return sb->deadline_s - clock_now_s();
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

/* Seconds since the entry point started: the deadline minus what is left. */
static double sb_running_s(const Sandbox *sb, double left_s)
{
    return sb->limits.seconds - left_s;
}

static void sb_trip(Sandbox *sb, const char *msg)
{
    if (!sb->aborting) {
        sb->aborting = true;
        snprintf(sb->abort_msg, sizeof sb->abort_msg, "%s", msg);
    }
}

static void sb_hook(lua_State *L, lua_Debug *ar)
{
    Sandbox *sb = sandbox_of(L);
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        snprintf(sb->last_line, sizeof sb->last_line, "%s:%d", ar->short_src, ar->currentline);
    if (!sb->aborting) {
        char msg[200];
        lua_Debug deep;
        sb->budget -= HOOK_EVERY;
        double left_s = sb_seconds_left(sb);
        double run_s = sb_running_s(sb, left_s);
        if (sb_poll_fn && run_s >= SANDBOX_BUSY_S && run_s - sb->polled_s >= SANDBOX_POLL_S) {
            sb->polled_s = run_s;
            if (sb_poll_fn(sb_poll_ctx, run_s))
                sb_cancelled = 1;
        }
        if (sb_cancelled) {
            sb_trip(sb, "stopped by the learner (Esc or Ctrl-C) while still running");
        } else if (sb->budget <= 0) {
            snprintf(msg, sizeof msg,
                     "instruction limit reached (%ld million): an endless loop? "
                     "lessons must finish quickly",
                     sb->limits.instructions / 1000000L);
            sb_trip(sb, msg);
        } else if (left_s < 0) {
            snprintf(msg, sizeof msg, "time limit reached (%.2g s): an endless loop?",
                     sb->limits.seconds);
            sb_trip(sb, msg);
        } else if (sb->mem_tripped || sb->mem_used > sb->limits.mem_bytes / 8 * 7) {
            snprintf(msg, sizeof msg, "memory limit reached (%zu MB): unbounded growth?",
                     sb->limits.mem_bytes >> 20);
            sb_trip(sb, msg);
        } else if (lua_getstack(L, sb->limits.depth, &deep)) {
            snprintf(msg, sizeof msg,
                     "stack overflow (more than %d nested calls): endless recursion?",
                     sb->limits.depth);
            sb_trip(sb, msg);
        }
    }
    if (sb->aborting) {
        luaL_where(L, 0);
        lua_pushstring(L, sb->abort_msg);
        lua_concat(L, 2);
        lua_error(L);
    }
}

static void sb_arm(Sandbox *sb)
{
    sb->budget = sb->limits.instructions;
    sb->aborting = false;
    sb_cancelled = 0;
    sb->polled_s = 0;
    sb->armed = true;
    sb->mem_tripped = false;
    sb->where[0] = '\0';
    sb->last_line[0] = '\0';
    sb->deadline_s = clock_now_s() + sb->limits.seconds;
}

/* ---- wrapped base functions ------------------------------------------ */

/* pcall/xpcall continuation: an abort is raised again, never returned. */
/* A memory error caught by the script is an abort too: the cap stands. */
static int sb_raise_memory(lua_State *L)
{
    Sandbox *sb = sandbox_of(L);
    char msg[120];
    snprintf(msg, sizeof msg, "memory limit reached (%zu MB): unbounded growth?",
             sb->limits.mem_bytes >> 20);
    sb_trip(sb, msg);
    if (sb->last_line[0]) { /* where the block was refused, noted by the allocator */
        lua_pushfstring(L, "%s: %s", sb->last_line, sb->abort_msg);
        return lua_error(L);
    }
    return luaL_error(L, "%s", sb->abort_msg);
}

static int sb_finish_pcall(lua_State *L, int status, lua_KContext extra)
{
    if (status != LUA_OK && status != LUA_YIELD) {
        Sandbox *sb = sandbox_of(L);
        if (status == LUA_ERRMEM || sb->mem_tripped)
            return sb_raise_memory(L);
        if (sb->aborting)
            return lua_error(L);
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int sb_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, sb_finish_pcall);
    return sb_finish_pcall(L, status, 0);
}

/* Message handler wrapper. Lua runs hooks off while an error raised by a
 * hook unwinds, and calls the message handler in that state: a looping
 * handler would hang the program. During an abort the script's handler is
 * skipped; otherwise it runs under the hook as usual. */
static int sb_xpcall_handler(lua_State *L)
{
    if (sandbox_of(L)->aborting)
        return 1;
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 1);
    return 1;
}

static int sb_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_xpcall_handler, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, sb_finish_pcall);
    return sb_finish_pcall(L, status, 2);
}

/* coroutine.resume: the original (upvalue 1), then re-raise an abort. */
static int sb_resume(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    Sandbox *sb = sandbox_of(L);
    if (sb->mem_tripped && !lua_toboolean(L, 1))
        return sb_raise_memory(L);
    if (sb->aborting) {
        if (lua_gettop(L) >= 2)
            lua_settop(L, 2);
        return lua_error(L);
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

/* coroutine.close: a coroutine that died of an error keeps its <close>
 * variables unrun (see sb_wrap_call); others close as usual. */
static int sb_close(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
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

static int sb_env_index(lua_State *L)
{
    const char *key = lua_tostring(L, 2);
    if (key && lua_type(L, 2) == LUA_TSTRING)
        for (int i = 0; forbidden_globals[i]; i++)
            if (strcmp(key, forbidden_globals[i]) == 0)
                return luaL_error(L,
                                  "'%s' is not available in lessons: a lesson cannot "
                                  "read files, print or run programs (see AUTHORING.md, "
                                  "\"Sandbox\")",
                                  key);
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

/* ---- guarded string and table functions ------------------------------ */

/* Worst-case steps of Lua's backtracking matcher for pattern p on a subject
 * of ls bytes: each repetition item (* + - %b and back-references) can try
 * every length, each ? doubles, an unanchored search tries every start.
 * Sets *reps and *opts for the message. */
static double pattern_cost(const char *p, size_t lp, size_t ls, bool may_anchor, int *reps,
                           int *opts)
{
    size_t i = 0;
    bool anchored = false;
    *reps = 0;
    *opts = 0;
    if (may_anchor && lp > 0 && p[0] == '^') {
        anchored = true;
        i = 1;
    }
    while (i < lp) {
        char c = p[i];
        if (c == '(' || c == ')') {
            i++;
            continue;
        }
        if (c == '$' && i + 1 == lp) {
            i++;
            continue;
        }
        if (c == '%' && i + 1 < lp) {
            char k = p[i + 1];
            if (k == 'b') {
                (*reps)++;
                i += 4;
                continue;
            }
            if (k >= '1' && k <= '9') {
                (*reps)++;
                i += 2;
                continue;
            }
            if (k == 'f') {
                i += 2;
                if (i < lp && p[i] == '[') {
                    c = '[';
                } else {
                    continue;
                }
            } else {
                i += 2;
                goto quantifier;
            }
        }
        if (c == '[') {
            i++;
            if (i < lp && p[i] == '^')
                i++;
            do { /* the first ']' is a member, not the end */
                if (i >= lp)
                    break;
                if (p[i] == '%')
                    i++;
                i++;
            } while (i < lp && p[i] != ']');
            i++;
        } else {
            i++;
        }
    quantifier:
        if (i < lp) {
            if (p[i] == '*' || p[i] == '+' || p[i] == '-') {
                (*reps)++;
                i++;
            } else if (p[i] == '?') {
                (*opts)++;
                i++;
            }
        }
    }
    double n = (double)ls + 1.0;
    double starts = anchored ? 1.0 : n;
    double per = *reps ? pow(n, *reps) : (double)lp + 1.0;
    return starts * per * pow(2.0, *opts > 60 ? 60 : *opts);
}

static void pattern_guard(lua_State *L, const char *fname, bool is_find, bool may_anchor)
{
    Sandbox *sb = sandbox_of(L);
    size_t ls, lp;
    luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int reps, opts;
    double cost;
    if (is_find && lua_toboolean(L, 4)) {
        reps = opts = 0;
        cost = ((double)ls + 1.0) * ((double)lp + 1.0) / 20.0; /* memchr + memcmp */
    } else {
        cost = pattern_cost(p, lp, ls, may_anchor, &reps, &opts);
    }
    if (cost > sb->limits.pattern_steps) {
        char msg[400];
        snprintf(msg, sizeof msg,
                 "%s: pattern too costly for a %zu-byte text (%d repetitions, %d optional "
                 "items: up to %.1e steps, limit %.0e); anchor it with ^, use fewer * + -, "
                 "split the text first, or use string.find(s, p, 1, true) for plain text",
                 fname, ls, reps, opts, cost, sb->limits.pattern_steps);
        luaL_error(L, "%s", msg);
    }
}

/* Calls the original function (upvalue 1) with all arguments. */
static int call_original(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

static int sb_find(lua_State *L)
{
    pattern_guard(L, "string.find", true, true);
    return call_original(L);
}

static int sb_match(lua_State *L)
{
    pattern_guard(L, "string.match", false, true);
    return call_original(L);
}

static int sb_gmatch(lua_State *L)
{
    pattern_guard(L, "string.gmatch", false, false);
    return call_original(L);
}

static int sb_gsub(lua_State *L)
{
    pattern_guard(L, "string.gsub", false, true);
    return call_original(L);
}

static int sb_rep(lua_State *L)
{
    Sandbox *sb = sandbox_of(L);
    size_t ls, lsep = 0;
    luaL_checklstring(L, 1, &ls);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n > 0) {
        double total = (double)n * (double)(ls + lsep);
        if ((ls + lsep == 0 && n > RANGE_MAX) || total > (double)sb->limits.mem_bytes) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "string.rep: result too large (%.0f bytes from %.0f copies; limit %zu MB)",
                     total, (double)n, sb->limits.mem_bytes >> 20);
            return luaL_error(L, "%s", msg);
        }
    }
    return call_original(L);
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
            luaL_error(L, "%s: not allowed on a table with a %s metamethod in lessons", fname,
                       events[i]);
    }
    lua_pop(L, 1);
}

static void range_guard(lua_State *L, lua_Integer from, lua_Integer to, const char *fname)
{
    if (to >= from && (lua_Unsigned)to - (lua_Unsigned)from >= RANGE_MAX)
        luaL_error(L, "%s: range too large (more than %d elements)", fname, RANGE_MAX);
}

static int sb_concat(lua_State *L)
{
    table_guard(L, 1, "table.concat");
    lua_Integer i = luaL_optinteger(L, 3, 1);
    lua_Integer j =
        lua_isnoneornil(L, 4) ? (lua_Integer)lua_rawlen(L, 1) : luaL_checkinteger(L, 4);
    range_guard(L, i, j, "table.concat");
    return call_original(L);
}

static int sb_move(lua_State *L)
{
    table_guard(L, 1, "table.move");
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    if (!lua_isnoneornil(L, 5))
        table_guard(L, 5, "table.move");
    range_guard(L, f, e, "table.move");
    return call_original(L);
}

static int sb_table_plain(lua_State *L)
{
    table_guard(L, 1, lua_tostring(L, lua_upvalueindex(2)));
    return call_original(L);
}

/* ---- building the environment ---------------------------------------- */

static void copy_fields(lua_State *L, int from, int to, const char *const *names)
{
    for (int i = 0; names[i]; i++) {
        lua_getfield(L, from, names[i]);
        lua_setfield(L, to, names[i]);
    }
}

/* Replaces field name of table t by a C closure of fn over the original
 * (and an optional second upvalue string). */
static void wrap_field(lua_State *L, int t, const char *name, lua_CFunction fn, const char *extra)
{
    lua_getfield(L, t, name);
    int nup = 1;
    if (extra) {
        lua_pushstring(L, extra);
        nup = 2;
    }
    lua_pushcclosure(L, fn, nup);
    lua_setfield(L, t, name);
}

/* Opens a standard library without touching globals; leaves it on the stack. */
static int open_lib(lua_State *L, const char *name, lua_CFunction open)
{
    luaL_requiref(L, name, open, 0);
    return lua_gettop(L);
}

/* The string functions lessons get: fresh table, guarded patterns. */
static void push_string_lib(lua_State *L, int strlib)
{
    static const char *const plain[] = {
        "byte", "char", "format", "len", "lower", "upper", "reverse", "sub", NULL,
    };
    lua_newtable(L);
    int t = lua_gettop(L);
    copy_fields(L, strlib, t, plain);
    static const struct {
        const char *name;
        lua_CFunction fn;
    } guarded[] = {
        {"find", sb_find}, {"match", sb_match}, {"gmatch", sb_gmatch},
        {"gsub", sb_gsub}, {"rep", sb_rep},
    };
    for (size_t i = 0; i < sizeof guarded / sizeof guarded[0]; i++) {
        lua_getfield(L, strlib, guarded[i].name);
        lua_pushcclosure(L, guarded[i].fn, 1);
        lua_setfield(L, t, guarded[i].name);
    }
}

static int sb_build_env(lua_State *L)
{
    Sandbox *sb = lua_touserdata(L, 1);
    (void)sb;
    /* luaopen_base writes into the registry's globals: that table becomes
     * a quarry we copy from, then is replaced by the fresh environment. */
    int base = open_lib(L, "_G", luaopen_base);
    int strlib = open_lib(L, LUA_STRLIBNAME, luaopen_string);
    int tablib = open_lib(L, LUA_TABLIBNAME, luaopen_table);
    int mathlib = open_lib(L, LUA_MATHLIBNAME, luaopen_math);
    int utf8lib = open_lib(L, LUA_UTF8LIBNAME, luaopen_utf8);
    int corolib = open_lib(L, LUA_COLIBNAME, luaopen_coroutine);
    int oslib = open_lib(L, LUA_OSLIBNAME, luaopen_os);

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
        {"pcall", sb_pcall},
        {"xpcall", sb_xpcall},
        {"setmetatable", sb_setmetatable},
        {"collectgarbage", sb_collectgarbage},
        {"load", sb_load},
    };
    for (size_t i = 0; i < sizeof base_own / sizeof base_own[0]; i++) {
        lua_pushcfunction(L, base_own[i].fn);
        lua_setfield(L, env, base_own[i].name);
    }
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

    lua_newtable(L);
    static const char *const tab_names[] = {"pack", NULL};
    copy_fields(L, tablib, lua_gettop(L), tab_names);
    wrap_field(L, tablib, "concat", sb_concat, NULL);
    wrap_field(L, tablib, "move", sb_move, NULL);
    wrap_field(L, tablib, "insert", sb_table_plain, "table.insert");
    wrap_field(L, tablib, "remove", sb_table_plain, "table.remove");
    wrap_field(L, tablib, "sort", sb_table_plain, "table.sort");
    wrap_field(L, tablib, "unpack", sb_table_plain, "table.unpack");
    static const char *const tab_wrapped[] = {"concat", "move",   "insert", "remove",
                                              "sort",   "unpack", NULL};
    copy_fields(L, tablib, lua_gettop(L), tab_wrapped);
    lua_setfield(L, env, "table");

    lua_newtable(L);
    static const char *const math_names[] = {
        "abs",       "ceil", "cos",    "deg",        "exp",  "floor",      "fmod",
        "huge",      "log",  "max",    "maxinteger", "min",  "mininteger", "modf",
        "pi",        "rad",  "random", "randomseed", "sin",  "sqrt",       "tan",
        "tointeger", "type", "ult",    "atan",       "asin", "acos",       NULL,
    };
    copy_fields(L, mathlib, lua_gettop(L), math_names);
    lua_setfield(L, env, "math");
    /* Repeatable randomness: the same lesson shows the same numbers. */
    lua_getfield(L, mathlib, "randomseed");
    lua_pushinteger(L, 42);
    lua_call(L, 1, 0);

    lua_newtable(L);
    static const char *const utf8_names[] = {"char", "charpattern", "codepoint", "codes",
                                             "len",  "offset",      NULL};
    copy_fields(L, utf8lib, lua_gettop(L), utf8_names);
    lua_setfield(L, env, "utf8");

    lua_newtable(L);
    static const char *const co_names[] = {"create", "isyieldable", "running",
                                           "status", "yield",       NULL};
    copy_fields(L, corolib, lua_gettop(L), co_names);
    lua_getfield(L, corolib, "resume");
    lua_pushcclosure(L, sb_resume, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "resume");
    lua_pushcclosure(L, sb_wrap, 1);
    lua_setfield(L, -2, "wrap");
    lua_getfield(L, corolib, "close");
    lua_pushcclosure(L, sb_close, 1);
    lua_setfield(L, -2, "close");
    lua_setfield(L, env, "coroutine");

    lua_newtable(L);
    lua_getfield(L, oslib, "clock");
    lua_setfield(L, -2, "clock");
    lua_newtable(L);
    lua_pushcfunction(L, sb_os_index);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_setfield(L, env, "os");

    lua_newtable(L);
    lua_pushcfunction(L, sb_env_index);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, env);

    lua_pushvalue(L, env);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    /* The full libraries stay only in package.loaded inside the registry,
     * which no script can reach without debug. Clear it anyway. */
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
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

void sandbox_escape(const char *msg, size_t msg_len, char *out, size_t out_len)
{
    if (!out || out_len == 0)
        return;
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)(msg ? msg : "");
    bool cut = false;
    for (size_t i = 0; i < msg_len; i++) {
        char piece[8];
        size_t plen = 0;
        unsigned char c = s[i];
        size_t seq = 0;
        if (c >= 0xc2 && c <= 0xdf)
            seq = 2;
        else if (c >= 0xe0 && c <= 0xef)
            seq = 3;
        else if (c >= 0xf0 && c <= 0xf4)
            seq = 4;
        bool valid = seq > 0 && i + seq <= msg_len;
        for (size_t k = 1; valid && k < seq; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                valid = false;
        if (valid && seq == 2 && c == 0xc2 && s[i + 1] < 0xa0)
            valid = false; /* C1 control characters */
        if (valid && seq == 3 && c == 0xe0 && s[i + 1] < 0xa0)
            valid = false; /* overlong */
        if (valid && seq == 4 && c == 0xf0 && s[i + 1] < 0x90)
            valid = false;
        if (valid) {
            memcpy(piece, s + i, seq);
            plen = seq;
            i += seq - 1;
        } else if (c == '\n') {
            memcpy(piece, "\\n", plen = 2);
        } else if (c == '\t') {
            memcpy(piece, "\\t", plen = 2);
        } else if (c == '\r') {
            memcpy(piece, "\\r", plen = 2);
        } else if (c < 0x20 || c >= 0x7f) {
            plen = (size_t)snprintf(piece, sizeof piece, "\\x%02x", c);
        } else {
            piece[0] = (char)c;
            plen = 1;
        }
        if (o + plen + 4 > out_len) {
            cut = true;
            break;
        }
        memcpy(out + o, piece, plen);
        o += plen;
    }
    if (cut && out_len >= 4) {
        while (o + 4 > out_len)
            o--;
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o < out_len ? o : out_len - 1] = '\0';
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

/* Formats the error object on top of the stack (not popped) into err.
 * Runs no Lua code and allocates nothing in Lua. */
static void sb_format_error(Sandbox *sb, int status, char *err, size_t err_len)
{
    lua_State *L = sb->L;
    char text[1024];
    const char *msg = NULL;
    size_t len = 0;
    int t = lua_type(L, -1);
    if (status == LUA_ERRMEM) {
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
    char escaped[SANDBOX_ERR_LEN];
    sandbox_escape(msg, len, escaped, sizeof escaped);
    char load_src[LUA_IDSIZE + 8];
    snprintf(load_src, sizeof load_src, "%s", sb->load_chunkname + 1);
    if (has_position(escaped, strlen(escaped), sb->short_src) ||
        has_position(escaped, strlen(escaped), load_src)) {
        snprintf(err, err_len, "%s", escaped);
    } else if (sb->where[0] && (strncmp(sb->where, sb->short_src, strlen(sb->short_src)) == 0 ||
                                strncmp(sb->where, load_src, strlen(load_src)) == 0)) {
        snprintf(err, err_len, "%s: %s", sb->where, escaped);
    } else {
        snprintf(err, err_len, "%s: %s", sb->name, escaped);
    }
}

/* ---- life cycle and entry points --------------------------------------- */

Sandbox *sandbox_new(const char *name, const SandboxLimits *limits)
{
    Sandbox *sb = xcalloc(1, sizeof *sb);
    sb->limits = limits ? *limits : sandbox_limits_default();
    char safe[256];
    sandbox_escape(name ? name : "lesson", strlen(name ? name : "lesson"), safe, sizeof safe);
    sb->name = xstrdup(safe);
    sb->chunkname = xmalloc(strlen(safe) + 2);
    sprintf(sb->chunkname, "@%s", safe);
    sb->load_chunkname = xmalloc(strlen(safe) + 10);
    sprintf(sb->load_chunkname, "=%s [load]", safe);
    if (strlen(sb->load_chunkname) >= LUA_IDSIZE)
        sprintf(sb->load_chunkname, "=[load]");
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
    char err[SANDBOX_ERR_LEN];
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
        snprintf(err, err_len, "%s: Lua stack exhausted", sb->name);
        return false;
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
        snprintf(err, err_len, "%s: Lua stack exhausted", sb->name);
        return false;
    }
    lua_pushcfunction(L, fn);
    lua_pushlightuserdata(L, ud);
    return sandbox_call(sb, 1, 0, err, err_len);
}

static bool sb_run_buffer(Sandbox *sb, const char *text, size_t len, char *err, size_t err_len)
{
    if (len > sb->limits.file_bytes) {
        snprintf(err, err_len,
                 "%s:1: file too large (%zu bytes, limit %zu): a lesson is a "
                 "small Lua text file",
                 sb->name, len, sb->limits.file_bytes);
        return false;
    }
    if (len > 0 && text[0] == LUA_SIGNATURE[0]) {
        snprintf(err, err_len,
                 "%s:1: precompiled (binary) chunks are refused: give the Lua "
                 "source text",
                 sb->name);
        return false;
    }
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        snprintf(err, err_len, "%s:%d: NUL byte in the file: a lesson must be a text file",
                 sb->name, line);
        return false;
    }
    free(sb->source);
    sb->source = xmalloc(len + 1);
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
        return false;
    }
    if (!sandbox_call(sb, 0, 1, err, err_len)) {
        lua_settop(L, top);
        return false;
    }
    return true;
}

bool sandbox_run_string(Sandbox *sb, const char *text, size_t len, char *err, size_t err_len)
{
    return sb_run_buffer(sb, text ? text : "", text ? len : 0, err, err_len);
}

bool sandbox_run_file(Sandbox *sb, const char *path, char *err, size_t err_len)
{
    size_t cap = sb->limits.file_bytes;
    size_t len;
    FileProblem why;
    char *buf = file_read(path, cap, &len, &why);
    if (!buf) {
        if (why.status == FILE_NOT_REGULAR)
            msg_set(err, err_len, "%s:1: not a lesson file (%s): give a .lua text file",
                    sb->name, why.kind);
        else if (why.status == FILE_TOO_LARGE)
            msg_set(err, err_len,
                    "%s:1: file too large (%lld bytes, limit %zu): a lesson is a "
                    "small Lua text file",
                    sb->name, why.size, cap);
        else
            msg_set(err, err_len, "%s:1: %s: %s", sb->name,
                    why.status == FILE_CANNOT_READ ? "cannot read" : "cannot open",
                    strerror(why.errnum));
        return false;
    }
    bool ok = sb_run_buffer(sb, buf, len, err, err_len);
    free(buf);
    return ok;
}
