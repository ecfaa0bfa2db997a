/* SPDX-License-Identifier: MIT */
/* test_sandbox — hostile scripts against the lesson sandbox.
 *
 * Each case runs a script in a fresh Sandbox and checks: it is refused or
 * stopped, the message is "hostile.lua:LINE: ..." with the expected words,
 * it took less than BOUND_S seconds, nothing crashed, and the Lua stack is
 * back to where it was (0 after a failure). The limits are the defaults
 * lessons run with, so the times measured here are the real ones.
 */
#include "base/clock.h"
#include "base/escape.h"
#include "lesson/sandbox.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h> /* after the three above, which it needs */

#include "testlib.h"

#include <fcntl.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Default limits stop a script in 2 s of wall clock at most. */
#define BOUND_S (5.0 * tl_slowdown())

/* Runs src as "hostile.lua"; expects failure at line with needle in the
 * message. Returns the seconds it took. */
static double expect_refused(const char *src, int line, const char *needle)
{
    Sandbox *sb = sandbox_new("hostile.lua", NULL);
    assert_non_null(sb);
    char err[MSG_LEN] = "";
    double t0 = clock_now_s();
    bool ok = sandbox_run_string(sb, src, strlen(src), err, sizeof err);
    double dt = clock_now_s() - t0;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "hostile.lua:%d: ", line);
    if (ok || strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, needle) || dt > BOUND_S ||
        lua_gettop(sandbox_state(sb)) != 0) {
        print_error("script: %s\nwant '%s...%s' in %.1f s, got ok=%d top=%d after %.3f s:\n"
                    "%s\n",
                    src, prefix, needle, BOUND_S, ok, lua_gettop(sandbox_state(sb)), dt, err);
        fail();
    }
    for (const char *p = err; *p; p++)
        assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
    sandbox_free(sb);
    return dt;
}

static void expect_ok(const char *src)
{
    Sandbox *sb = sandbox_new("fine.lua", NULL);
    char err[MSG_LEN] = "";
    bool ok = sandbox_run_string(sb, src, strlen(src), err, sizeof err);
    if (!ok)
        print_error("script: %s\nfailed: %s\n", src, err);
    assert_true(ok);
    assert_int_equal(lua_gettop(sandbox_state(sb)), 1);
    sandbox_free(sb);
}

static void test_sandbox_loop_at_load(void **state)
{
    (void)state;
    double dt = expect_refused("local n = 0\nwhile true do n = n + 1 end", 2, "limit reached");
    print_message("endless loop at load stopped in %.3f s\n", dt);
}

static void test_sandbox_loop_in_function_call(void **state)
{
    (void)state;
    /* A goal-like function called later, each call with a fresh budget. */
    Sandbox *sb = sandbox_new("hostile.lua", NULL);
    const char *src = "return function(r)\n  while true do end\nend";
    char err[MSG_LEN];
    assert_true(sandbox_run_string(sb, src, strlen(src), err, sizeof err));
    lua_State *L = sandbox_state(sb);
    for (int i = 0; i < 2; i++) {
        lua_pushvalue(L, 1);
        lua_newtable(L);
        double t0 = clock_now_s();
        assert_false(sandbox_call(sb, 1, 1, err, sizeof err));
        double dt = clock_now_s() - t0;
        assert_true(dt < BOUND_S);
        assert_non_null(strstr(err, "hostile.lua:2: ") && strstr(err, "limit reached"));
        assert_int_equal(lua_gettop(L), 1);
    }
    sandbox_free(sb);
}

static void test_sandbox_loop_inside_pcall(void **state)
{
    (void)state;
    expect_refused("while true do\n pcall(function() while true do end end)\nend", 2,
                   "limit reached");
    expect_refused("local ok = xpcall(function()\n while true do end end,\n"
                   " function(m) return m end)\nreturn ok",
                   2, "limit reached");
    /* The handler itself loops. */
    expect_refused("xpcall(error, function()\n while true do end end)", 2, "limit reached");
}

static void test_sandbox_loop_in_coroutine(void **state)
{
    (void)state;
    expect_refused("local co = coroutine.create(function()\n coroutine.yield()\n"
                   " while true do end\nend)\ncoroutine.resume(co)\n"
                   "while true do coroutine.resume(co) end",
                   3, "limit reached");
    expect_refused("local f = coroutine.wrap(function()\n while true do end end)\nf()", 2,
                   "limit reached");
    /* Created at load, resumed later from another entry point (as a goal
     * function would): the thread inherited the hook. */
    Sandbox *sb = sandbox_new("hostile.lua", NULL);
    const char *src = "local co = coroutine.create(function()\n coroutine.yield()\n"
                      " while true do end\nend)\ncoroutine.resume(co)\n"
                      "return function() return coroutine.resume(co) end";
    char err[MSG_LEN];
    assert_true(sandbox_run_string(sb, src, strlen(src), err, sizeof err));
    lua_State *L = sandbox_state(sb);
    double t0 = clock_now_s();
    assert_false(sandbox_call(sb, 0, 2, err, sizeof err));
    double dt = clock_now_s() - t0;
    print_message("coroutine resumed later stopped in %.3f s\n", dt);
    assert_true(dt < BOUND_S);
    assert_non_null(strstr(err, "hostile.lua:3: ") && strstr(err, "limit reached"));
    assert_int_equal(lua_gettop(L), 0);
    sandbox_free(sb);
}

static void test_sandbox_loop_in_close_handler(void **state)
{
    (void)state;
    /* <close> variables are refused before anything runs (Lua 5.4.4 bugs:
     * coroutine.close nested in __close overflows the C stack; 'break' may
     * skip a close), and <const> with them (wrong code in 5.4.4). */
    expect_refused("local co = coroutine.create(function()\n"
                   " local x <close> = setmetatable({}, {__close = function()\n"
                   "  while true do end end})\n while true do end\nend)\n",
                   2, "<const> and <close> are not allowed");
    expect_refused("local x\nlocal k < const > = 3", 2, "not allowed in lessons");
    expect_ok("local a, b = 1, 2\nreturn a <b, 'x<close' .. 'd>'");
    /* The same through load(): refused with the load chunk's position. */
    expect_refused("local f, e = load('local z <' .. 'close> = nil')\n"
                   "if not f and e:find('[load]:1: ', 1, true) and e:find('not allowed') then\n"
                   " error('refused') end",
                   3, "refused");
}

static void test_sandbox_costly_patterns(void **state)
{
    (void)state;
    double dt = expect_refused("local s = ('a'):rep(200)\n"
                               "return string.find(s, ('a*'):rep(6) .. 'b')",
                               2, "pattern too costly");
    assert_true(dt < 0.1); /* refused before starting */
    expect_refused("local s = ('a'):rep(200)\nreturn s:find(('a*'):rep(6) .. 'b')", 2,
                   "string.find: pattern too costly");
    expect_refused("local s = ('x'):rep(100000)\nreturn s:match('.*y')", 2,
                   "string.match: pattern too costly");
    expect_refused("local s = ('x'):rep(100000)\nfor w in s:gmatch('x*y') do end", 2,
                   "string.gmatch");
    expect_refused("local s = ('x'):rep(100000)\nreturn s:gsub('x-y', '')", 2, "string.gsub");
    /* The message tells the author what to do. */
    expect_refused("return ('a'):rep(200000):find('a*b')", 1, "use string.find(s, p, 1, true)");
    /* Ordinary use still works. */
    expect_ok("local s = ('word '):rep(100)\nlocal n = 0\n"
              "for w in s:gmatch('%a+') do n = n + 1 end\n"
              "assert(n == 100)\nassert(('  x  '):match('^%s*(.-)%s*$') == 'x')\n"
              "return ('a'):rep(200000):find('b', 1, true)");
}

static void test_sandbox_gc_finalizer_refused(void **state)
{
    (void)state;
    expect_refused("local t = {}\nsetmetatable(t, {__gc = function() while true do end end})", 2,
                   "__gc finalizers are not allowed");
}

static void test_sandbox_unbounded_growth(void **state)
{
    (void)state;
    double dt =
        expect_refused("local s = 'x'\nwhile true do\n  s = s .. s\nend", 3, "memory limit");
    print_message("string growth stopped in %.3f s\n", dt);
    dt = expect_refused("local t = {}\nlocal i = 0\nwhile true do\n i = i + 1\n"
                        " t[i] = {i}\nend",
                        5, "memory limit");
    print_message("table growth stopped in %.3f s\n", dt);
    expect_refused("return ('x'):rep(1e9)", 1, "string.rep: result too large");
    expect_refused("return string.rep('', 1e15)", 1, "string.rep: result too large");
    /* Caught by pcall: the abort is raised again. */
    expect_refused("pcall(function()\n local s = 'x'\n while true do s = s .. s end end)\n"
                   "return 1",
                   3, "memory limit");
}

static void test_sandbox_deep_recursion(void **state)
{
    (void)state;
    expect_refused("local function f(n)\n return 1 + f(n + 1)\nend\nreturn f(1)", 2,
                   "stack overflow");
    expect_refused("local t = setmetatable({}, {})\ngetmetatable(t).__index = "
                   "function(s, k) return s[k .. 'x'] end\nreturn t.a",
                   2, "stack overflow");
}

static void test_sandbox_unpack_huge(void **state)
{
    (void)state;
    expect_refused("return table.unpack({}, 1, 1e8)", 1, "range too large");
    expect_refused("return table.unpack({}, 1, 1e6)", 1, "too many results");
    expect_refused("return table.move({}, 1, 1 << 60, 2)", 1, "range too large");
    expect_refused("local t = setmetatable({}, {__len = function() return 1 << 60 end})\n"
                   "table.remove(t, 1)",
                   2, "__len metamethod");
}

typedef struct {
    char data[4096];
    size_t len;
} DumpBuf;

static int dump_writer(lua_State *L, const void *p, size_t sz, void *ud)
{
    (void)L;
    DumpBuf *b = ud;
    if (b->len + sz > sizeof b->data)
        return 1;
    memcpy(b->data + b->len, p, sz);
    b->len += sz;
    return 0;
}

static void test_sandbox_binary_chunks(void **state)
{
    (void)state;
    expect_refused("return load(string.dump(function() end))", 1,
                   "attempt to call a nil value (field 'dump')");
    expect_refused("local f, e = load('\\27Lua\\x54\\0')\nerror(e, 0)", 2,
                   "attempt to load a binary chunk");
    /* A real precompiled chunk made by an unrestricted Lua. */
    lua_State *L = luaL_newstate();
    assert_int_equal(luaL_loadstring(L, "return 1"), LUA_OK);
    DumpBuf bin = {.len = 0};
    assert_int_equal(lua_dump(L, dump_writer, &bin, 0), 0);
    lua_close(L);
    assert_true(bin.len > 4);
    Sandbox *sb = sandbox_new("hostile.lua", NULL);
    char err[MSG_LEN];
    assert_false(sandbox_run_string(sb, bin.data, bin.len, err, sizeof err));
    assert_non_null(strstr(err, "hostile.lua:1: precompiled (binary) chunks are refused"));
    assert_int_equal(lua_gettop(sandbox_state(sb)), 0);
    sandbox_free(sb);
}

static void test_sandbox_forbidden_access(void **state)
{
    (void)state;
    expect_refused("local x = 1\nreturn io.open('/etc/passwd')", 2, "'io' is not available");
    expect_refused("os.execute('touch /tmp/scalelab-pwned')", 1, "'os.execute' is not");
    expect_refused("os.exit(3)", 1, "'os.exit' is not available");
    expect_refused("require('os')", 1, "'require' is not available");
    expect_refused("debug.sethook()", 1, "'debug' is not available");
    expect_refused("return dofile('/etc/passwd')", 1, "'dofile' is not available");
    expect_refused("return loadfile('/etc/passwd')", 1, "'loadfile' is not available");
    expect_refused("collectgarbage('stop')", 1, "only collectgarbage(\"count\")");
    expect_refused("collectgarbage()", 1, "only collectgarbage(\"count\")");
    expect_ok("assert(collectgarbage('count') > 0)\nassert(os.clock() >= 0)\n"
              "assert(_G.string and rawget(_G, 'print') == nil)\nreturn true");
    assert_true(access("/tmp/scalelab-pwned", F_OK) != 0);
}

static void test_sandbox_string_metatable_guarded(void **state)
{
    (void)state;
    expect_refused("local mt = getmetatable('')\nmt.__index.upper = nil", 2,
                   "attempt to index a boolean value");
    expect_refused("setmetatable('', {})", 1, "bad argument #1 to 'setmetatable'");
    /* Changing the global table does not change methods. */
    expect_ok("string.upper = function() return 'pwned' end\n"
              "assert(('abc'):upper() == 'ABC')\n"
              "string.find = nil\nassert(('abc'):find('b') == 2)\nreturn 1");
}

static void test_sandbox_escape_sequences_shown_escaped(void **state)
{
    (void)state;
    expect_refused("error('\\27[2J\\27]0;pwned\\7 and \\r\\n')", 1,
                   "\\x1b[2J\\x1b]0;pwned\\x07 and \\r\\n");
    char out[64];
    const char *mixed = "caf\xc3\xa9 \xc2\x9b[31m \xff";
    escape_text(mixed, strlen(mixed), out, sizeof out);
    assert_string_equal(out, "caf\xc3\xa9 \\xc2\\x9b[31m \\xff");
    /* Long messages are cut with "...". */
    char big[2000];
    memset(big, 'a', sizeof big);
    escape_text(big, sizeof big, out, sizeof out);
    assert_int_equal(strlen(out), 63);
    assert_string_equal(out + 60, "...");
}

static void test_sandbox_table_error_objects(void **state)
{
    (void)state;
    expect_refused("local e = setmetatable({}, {__tostring = function()\n"
                   " while true do end end})\nerror(e)",
                   3, "error object is a table value");
    expect_refused("error()", 1, "error object is a nil value");
    expect_refused("error(42)", 1, "42");
}

static void test_sandbox_spoofed_positions(void **state)
{
    (void)state;
    /* A message cannot pretend to come from another file. */
    expect_refused("\nerror('other.lua:9: fake', 0)", 2, "other.lua:9: fake");
    /* load cannot choose its chunk name. */
    Sandbox *sb = sandbox_new("hostile.lua", NULL);
    const char *src = "local f = load('\\n\\nerror(\"boom\")', '=/etc/passwd')\nf()";
    char err[MSG_LEN];
    assert_false(sandbox_run_string(sb, src, strlen(src), err, sizeof err));
    assert_string_equal(err, "hostile.lua [load]:3: boom");
    sandbox_free(sb);
    expect_refused("load(function() return 'x' end)", 1, "only a string of Lua source");
    expect_refused("load(('x'):rep(100000))", 1, "load: text too long");
}

static void test_sandbox_syntax_error_names_line(void **state)
{
    (void)state;
    expect_refused("local a = 1\nlocal b = = 2\n", 2, "unexpected symbol near '='");
    expect_refused("local s = [[\nunfinished", 2, "unfinished long string (starting at line 1)");
}

static void test_sandbox_api_objects_protected(void **state)
{
    (void)state;
    /* The protected-metatable rule, on a table the script locked itself. */
    expect_refused("local t = setmetatable({}, {__metatable = 'locked'})\n"
                   "setmetatable(t, {})",
                   2, "cannot change a protected metatable");
}

static void test_sandbox_hostile_files(void **state)
{
    (void)state;
    char dir[64];
    assert_true(tl_tmpdir_make(dir, sizeof dir, "sb"));
    char path[256];
    char err[MSG_LEN];
    Sandbox *sb = sandbox_new("hostile.lua", NULL);

    /* 10 MB file. */
    snprintf(path, sizeof path, "%s/big.lua", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 10 * 1024; i++)
        fprintf(f, "%-1023s\n", "-- padding");
    fclose(f);
    double t0 = clock_now_s();
    assert_false(sandbox_run_file(sb, path, err, sizeof err));
    assert_true(clock_now_s() - t0 < 0.5);
    assert_non_null(strstr(err, "hostile.lua:1: file too large"));

    /* Random bytes (fixed seed), NUL bytes. */
    snprintf(path, sizeof path, "%s/random.lua", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    srand(7);
    for (int i = 0; i < 4096; i++)
        fputc(1 + rand() % 255, f);
    fclose(f);
    assert_false(sandbox_run_file(sb, path, err, sizeof err));
    assert_non_null(strstr(err, "hostile.lua:"));
    for (const char *p = err; *p; p++)
        assert_true((unsigned char)*p >= 0x20);

    snprintf(path, sizeof path, "%s/nul.lua", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    fwrite("return 1\n-- \0 hidden\n", 1, 21, f);
    fclose(f);
    assert_false(sandbox_run_file(sb, path, err, sizeof err));
    assert_non_null(strstr(err, "hostile.lua:2: NUL byte"));

    /* A directory and a FIFO (must not block waiting for a writer). */
    assert_false(sandbox_run_file(sb, dir, err, sizeof err));
    assert_non_null(strstr(err, "hostile.lua:1: not a lesson file (a directory)"));
    snprintf(path, sizeof path, "%s/fifo.lua", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    t0 = clock_now_s();
    assert_false(sandbox_run_file(sb, path, err, sizeof err));
    assert_true(clock_now_s() - t0 < 0.5);
    assert_non_null(strstr(err, "hostile.lua:1: not a lesson file (a FIFO)"));
    unlink(path);

    snprintf(path, sizeof path, "%s/missing.lua", dir);
    assert_false(sandbox_run_file(sb, path, err, sizeof err));
    assert_non_null(strstr(err, "hostile.lua:1: cannot open"));
    assert_int_equal(lua_gettop(sandbox_state(sb)), 0);

    sandbox_free(sb);
    assert_true(tl_tmpdir_remove(dir));
}

/* Lua's own stack errors are limits: the hook may never run when the stack
 * is full, so a script's pcall must not swallow them and loop on. */
static void test_sandbox_stack_errors_not_catchable(void **state)
{
    (void)state;
    /* "C stack overflow" from an __index chain, caught in a loop */
    expect_refused("local t = setmetatable({}, {})\n"
                   "getmetatable(t).__index = function(t, k) return t[k] end\n"
                   "while true do pcall(function() return t.x end) end",
                   3, "stack overflow");
    /* recursion through a C function (gsub calling back) */
    expect_refused("local function f(s) return (s:gsub('.', f)) end\n"
                   "while true do pcall(f, 'ab') end",
                   1, "stack overflow");
    /* an error handler that overflows while handling an overflow (Lua
     * 5.4.4: 'Lua-stack overflow when C stack overflows while handling an
     * error') */
    expect_refused("local function loop() assert(pcall(loop)) end\n"
                   "xpcall(loop, loop)\nreturn 1",
                   1, "stack overflow");
    /* the Lua stack itself, filled by nested calls with many values */
    expect_refused("local function f(...) return 1 + f(1, 2, 3, 4, 5, 6, 7, 8, ...) end\n"
                   "for i = 1, 100 do pcall(f) end\nreturn 1",
                   1, "stack overflow");
}

/* Every allowed C function is charged before it runs: the escapes found so
 * far, each stopped with a message naming the function, quickly. */
static void test_sandbox_c_calls_bounded(void **state)
{
    (void)state;
    /* a large [set]: each character tested against 20,000 members */
    expect_refused("local s = ('a'):rep(100000)\nlocal set = '[' .. ('b'):rep(20000) .. ']'\n"
                   "for i = 1, 1000 do s:find(set) end",
                   3, "string.find: pattern too costly");
    /* a literal after a repetition */
    expect_refused("local s = ('a'):rep(200000)\n"
                   "for i = 1, 1000 do s:find('a*' .. ('a'):rep(2000) .. 'b') end",
                   2, "string.find: pattern too costly");
    /* gsub's replacement copied once per match */
    expect_refused("local s = ('a'):rep(500000)\n"
                   "for i = 1, 1000 do local r = s:gsub('a', ('x'):rep(1000)) end",
                   2, "string.gsub");
    /* table.sort over long strings (byte-wise comparisons) */
    expect_refused("local base = ('a'):rep(900000)\nlocal t = {}\n"
                   "for i = 1, 60 do t[i] = base .. string.char(65 + i % 26) end\n"
                   "for i = 1, 100 do table.sort(t) end",
                   4, "table.sort");
    /* table.move over a huge range, again and again */
    expect_refused("local t = {}\nwhile true do table.move(t, 1, 9000000, 2) end", 2,
                   "table.move");
    /* many cheap-looking plain finds between two hook calls */
    expect_refused("local s = ('a'):rep(1000000)\nwhile true do s:find('b', 1, true) end", 2,
                   "string.find");
    /* gmatch's iterator: the whole walk is charged when it is made */
    expect_refused("local s = ('a'):rep(100000)\n"
                   "for i = 1, 100 do for w in s:gmatch('a*a*a*b') do end end",
                   2, "string.gmatch");
    /* concatenation in the VM: allocation is charged */
    expect_refused("local s = ('a'):rep(900000)\nwhile true do local t = s .. 'b' end", 2,
                   "limit reached");
    /* a string longer than the cap */
    expect_refused("local s = ('a'):rep(1000000)\nlocal t = s .. s", 2, "memory limit");
    /* utf8.codes with a stray continuation byte (Lua 5.4.4 accepts it) */
    expect_refused("for p, c in utf8.codes('a\\x80b') do end", 1, "invalid UTF-8");
}

/* One budget per file: a loop in every entry point stops at the file's
 * limit, and later entry points fail at once instead of each taking it. */
static void test_sandbox_one_budget_per_file(void **state)
{
    (void)state;
    Sandbox *sb = sandbox_new("hostile.lua", NULL);
    const char *src = "return function() while true do end end";
    char err[MSG_LEN];
    assert_true(sandbox_run_string(sb, src, strlen(src), err, sizeof err));
    lua_State *L = sandbox_state(sb);
    double t0 = clock_now_s();
    for (int i = 0; i < 20; i++) {
        lua_pushvalue(L, 1);
        assert_false(sandbox_call(sb, 0, 0, err, sizeof err));
        assert_non_null(strstr(err, "limit reached"));
    }
    double dt = clock_now_s() - t0;
    print_message("20 looping calls on one budget: %.3f s\n", dt);
    assert_true(dt < BOUND_S);
    sandbox_renew(sb); /* the UI's fresh budget for a learner's move */
    lua_pushvalue(L, 1);
    t0 = clock_now_s();
    assert_false(sandbox_call(sb, 0, 0, err, sizeof err));
    assert_true(clock_now_s() - t0 > 0.01); /* it ran again */
    assert_int_equal(lua_gettop(L), 1);
    assert_true(sandbox_copy_charge(sb, 1000));
    assert_false(sandbox_copy_charge(sb, sandbox_limits_default().copy_bytes));
    sandbox_free(sb);
}

/* Strict globals, as redis does: a typo in a global name is a file:line
 * error, not a silent nil or a silent new global. */
static void test_sandbox_strict_globals(void **state)
{
    (void)state;
    expect_refused("local t = {}\ntitel = 'oops'\nreturn t", 2,
                   "assignment to undeclared global 'titel'");
    expect_refused("local x = 1\nreturn undefined_name + x", 2, "unknown global 'undefined_name'");
    expect_refused("return _G.nope", 1, "unknown global 'nope'");
    expect_ok(
        "local g = _G\nreturn rawget(g, 'nope') == nil and type(string.format) == 'function'");
    /* a function defined at load and called later still sees strict globals */
    Sandbox *sb = sandbox_new("hostile.lua", NULL);
    const char *src = "return function() later = 1 end";
    char err[MSG_LEN];
    assert_true(sandbox_run_string(sb, src, strlen(src), err, sizeof err));
    lua_pushvalue(sandbox_state(sb), 1);
    assert_false(sandbox_call(sb, 0, 0, err, sizeof err));
    assert_non_null(strstr(err, "hostile.lua:1: assignment to undeclared global 'later'"));
    sandbox_free(sb);
}

/* math.randomseed() returns nothing (5.4.4 returns the clock and an
 * address) and seeds a fixed sequence: two runs show the same numbers. */
static void test_sandbox_random_repeatable(void **state)
{
    (void)state;
    const char *src = "local a, b = math.randomseed()\n"
                      "assert(a == nil and b == nil)\n"
                      "return math.random(1 << 40)";
    long long got[2];
    for (int i = 0; i < 2; i++) {
        Sandbox *sb = sandbox_new("fine.lua", NULL);
        char err[MSG_LEN];
        assert_true(sandbox_run_string(sb, src, strlen(src), err, sizeof err));
        got[i] = (long long)lua_tointeger(sandbox_state(sb), -1);
        sandbox_free(sb);
    }
    assert_true(got[0] == got[1]);
}

static void test_sandbox_state_reusable_after_abort(void **state)
{
    (void)state;
    Sandbox *sb = sandbox_new("hostile.lua", NULL);
    const char *src = "return function(x) if x then while true do end end return 7 end";
    char err[MSG_LEN];
    assert_true(sandbox_run_string(sb, src, strlen(src), err, sizeof err));
    lua_State *L = sandbox_state(sb);
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 1);
    assert_false(sandbox_call(sb, 1, 1, err, sizeof err));
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 0);
    assert_true(sandbox_call(sb, 1, 1, err, sizeof err));
    assert_int_equal(lua_tointeger(L, -1), 7);
    assert_int_equal(lua_gettop(L), 2);
    sandbox_free(sb);
}

/* The UI's poll: counts calls, asks to stop after 0.3 s of running. */
static int poll_calls;
static double poll_first_s;
static bool poll_stop_after(void *ctx, double running_s)
{
    (void)ctx;
    if (poll_calls++ == 0)
        poll_first_s = running_s;
    return running_s >= 0.3;
}
static bool poll_cancel_flag(void *ctx, double running_s)
{
    (void)ctx;
    (void)running_s;
    sandbox_cancel(); /* as a signal handler would */
    return false;
}

/* A goal function that loops under a long deadline: the poll starts after
 * SANDBOX_BUSY_S, comes back about every SANDBOX_POLL_S, and stopping it
 * ends the call with file:line well before the deadline; the next call runs
 * normally (the flag is cleared at each entry point). */
static void test_sandbox_cancel_stops_a_running_script(void **state)
{
    (void)state;
    SandboxLimits lim = sandbox_limits_default();
    lim.seconds = 20.0;
    lim.instructions = 1L << 62; /* only the poll can stop it */
    Sandbox *sb = sandbox_new("slow.lua", &lim);
    const char *src = "return function(loop)\n  while loop do end\n  return 7\nend";
    char err[MSG_LEN] = "";
    assert_true(sandbox_run_string(sb, src, strlen(src), err, sizeof err));
    lua_State *L = sandbox_state(sb);
    poll_calls = 0;
    sandbox_set_poll(poll_stop_after, NULL);
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 1);
    double t0 = clock_now_s();
    assert_false(sandbox_call(sb, 1, 1, err, sizeof err));
    double dt = clock_now_s() - t0;
    print_message("stopped after %.3f s, %d polls, first at %.3f s: %s\n", dt, poll_calls,
                  poll_first_s, err);
    assert_non_null(strstr(err, "slow.lua:2: stopped by the learner (Esc or Ctrl-C)"));
    assert_true(dt >= 0.3 && dt < 1.0);
    assert_true(poll_first_s >= SANDBOX_BUSY_S && poll_first_s < SANDBOX_BUSY_S + 0.05);
    /* 0.1 s of polling at one per 0.05 s: 2 to 3 calls, never one per hook */
    assert_in_range(poll_calls, 2, 4);
    assert_int_equal(lua_gettop(L), 1);

    /* sandbox_cancel (async-signal-safe) from inside the poll stops it too */
    sandbox_set_poll(poll_cancel_flag, NULL);
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 1);
    assert_false(sandbox_call(sb, 1, 1, err, sizeof err));
    assert_non_null(strstr(err, "stopped by the learner"));

    /* a cancel left over from before does not stop the next call */
    sandbox_set_poll(NULL, NULL);
    sandbox_cancel();
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 0);
    assert_true(sandbox_call(sb, 1, 1, err, sizeof err));
    assert_int_equal((int)lua_tointeger(L, -1), 7);
    lua_pop(L, 1);
    sandbox_free(sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sandbox_loop_at_load),
        cmocka_unit_test(test_sandbox_cancel_stops_a_running_script),
        cmocka_unit_test(test_sandbox_loop_in_function_call),
        cmocka_unit_test(test_sandbox_loop_inside_pcall),
        cmocka_unit_test(test_sandbox_loop_in_coroutine),
        cmocka_unit_test(test_sandbox_loop_in_close_handler),
        cmocka_unit_test(test_sandbox_costly_patterns),
        cmocka_unit_test(test_sandbox_gc_finalizer_refused),
        cmocka_unit_test(test_sandbox_unbounded_growth),
        cmocka_unit_test(test_sandbox_deep_recursion),
        cmocka_unit_test(test_sandbox_unpack_huge),
        cmocka_unit_test(test_sandbox_binary_chunks),
        cmocka_unit_test(test_sandbox_forbidden_access),
        cmocka_unit_test(test_sandbox_string_metatable_guarded),
        cmocka_unit_test(test_sandbox_escape_sequences_shown_escaped),
        cmocka_unit_test(test_sandbox_table_error_objects),
        cmocka_unit_test(test_sandbox_spoofed_positions),
        cmocka_unit_test(test_sandbox_syntax_error_names_line),
        cmocka_unit_test(test_sandbox_api_objects_protected),
        cmocka_unit_test(test_sandbox_hostile_files),
        cmocka_unit_test(test_sandbox_state_reusable_after_abort),
        cmocka_unit_test(test_sandbox_stack_errors_not_catchable),
        cmocka_unit_test(test_sandbox_c_calls_bounded),
        cmocka_unit_test(test_sandbox_one_budget_per_file),
        cmocka_unit_test(test_sandbox_strict_globals),
        cmocka_unit_test(test_sandbox_random_repeatable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
