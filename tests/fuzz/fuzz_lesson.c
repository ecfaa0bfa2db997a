/* fuzz_lesson — libFuzzer harness for loading an untrusted lesson file.
 *
 * The bytes are written to a temporary file and loaded the way a lesson is:
 * through the sandbox (sandbox_run_file, with the catalog limits so a
 * looping input costs a quarter second, not two), then, when the chunk
 * returns a table, every function among its first fields and in its pages
 * is called like a goal function (sandbox_call), and the same bytes go
 * through sandbox_run_string. TODO(lesson.c): once lesson_load and
 * lesson_check_file land, call them on the same file as well; they are not
 * in the library yet, so this harness cannot link them.
 *
 * Checked beyond "no crash, no sanitizer report, no hang past -timeout":
 * every error is one non-empty line that starts with the file's name and
 * holds no control character (escape sequences must come out escaped), and
 * the Lua stack is back where it was after every entry point.
 * Built only by `make fuzz`; includes lua.h only to check the stack.
 */
#include "lesson/sandbox.h"

#include <lua.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void check_err(const char *err, const char *name)
{
    size_t n = strnlen(err, SANDBOX_ERR_LEN);
    if (n == 0 || n == SANDBOX_ERR_LEN || strncmp(err, name, strlen(name)) != 0)
        abort();
    for (const unsigned char *p = (const unsigned char *)err; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            abort();
}

/* Calls each function value of the table at the top (at most 8), with the
 * table as argument, then does the same one level down in t.pages. */
static void call_functions(Sandbox *sb, const char *name, int depth)
{
    lua_State *L = sandbox_state(sb);
    int t = lua_gettop(L);
    int calls = 0;
    lua_pushnil(L);
    while (calls < 8 && lua_next(L, t) != 0) {
        /* key at t+1, value at t+2 */
        if (lua_type(L, -1) == LUA_TFUNCTION) {
            lua_pushvalue(L, -1);
            lua_pushvalue(L, t);
            char err[SANDBOX_ERR_LEN];
            int before = lua_gettop(L) - 2;
            if (sandbox_call(sb, 1, 1, err, sizeof err))
                lua_pop(L, 1);
            else
                check_err(err, name);
            if (lua_gettop(L) != before)
                abort();
            calls++;
        } else if (lua_type(L, -1) == LUA_TTABLE && depth == 0 &&
                   lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "pages") == 0) {
            /* rawlen/rawgeti: no metamethod runs outside the sandbox's budget. */
            lua_Unsigned np = lua_rawlen(L, -1);
            for (lua_Unsigned i = 1; i <= np && i <= 8; i++) {
                lua_rawgeti(L, -1, (lua_Integer)i);
                if (lua_type(L, -1) == LUA_TTABLE)
                    call_functions(sb, name, 1);
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
    if (lua_gettop(L) != t)
        abort();
}

static void run(const char *name, const uint8_t *data, size_t size, bool from_file)
{
    SandboxLimits lim = sandbox_limits_catalog();
    Sandbox *sb = sandbox_new(name, &lim);
    if (!sb)
        abort();
    lua_State *L = sandbox_state(sb);
    int top = lua_gettop(L);
    char err[SANDBOX_ERR_LEN];
    bool ok = from_file ? sandbox_run_file(sb, name, err, sizeof err)
                        : sandbox_run_string(sb, (const char *)data, size, err, sizeof err);
    if (ok) {
        if (lua_gettop(L) != top + 1)
            abort();
        if (lua_type(L, -1) == LUA_TTABLE)
            call_functions(sb, name, 0);
        lua_pop(L, 1);
    } else {
        check_err(err, name);
    }
    if (lua_gettop(L) != top)
        abort();
    sandbox_free(sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/scalelab-fuzz-%ld.lua", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    run(path, data, size, true);
    run("fuzz.lua", data, size, false);
    unlink(path);
    return 0;
}
