/* SPDX-License-Identifier: MIT */
/* fuzz_lesson — libFuzzer harness for loading an untrusted lesson file.
 *
 * scalelab runs lesson code in a lesson host (a child process); the harness
 * runs the host's side in its own process (lesson_local.h), so the fuzzer
 * sees the coverage, and fuzzes what scalelab reads from a host. The bytes
 * are written to a temporary file and go through, in turn:
 *   1. lesson_load_local with the catalog's tighter limits (a looping input
 *      costs a quarter second): on success every accessor of every page is
 *      read, diagrams built, scenarios started and their goal functions run
 *      in the sandbox; then the lesson is encoded as a host sends it and
 *      read back (lesson_from_wire), which must give the same lesson
 *      (lesson_same);
 *   2. lesson_check_local, what `scalelab check` runs in its host;
 *   3. the raw sandbox (sandbox_run_string): when the chunk returns a table,
 *      every function among its fields and its pages' fields is called like
 *      a goal, with the stack checked after each entry point;
 *   4. the bytes as a host's answer (lesson_from_wire): refused, or a lesson
 *      every accessor reads safely.
 * Checked beyond "no crash, no sanitizer report, no hang past -timeout":
 * every error and every problem line is one non-empty line that starts with
 * the file's name and holds no control character (escape sequences must
 * come out escaped), and the Lua stack is back where it was after every
 * entry point. SCALELAB_ASSETS defaults to ./assets (run from the repo root).
 * Built only by `make fuzz`; includes lua.h only to check the stack.
 */
#include "learn/scenario.h"
#include "lesson/lesson.h"
#include "lesson/lesson_local.h"
#include "lesson/sandbox.h"
#include "lesson/wire.h"
#include "model/mapping.h"

#include <lua.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void check_err(const char *err, const char *name)
{
    size_t n = strnlen(err, MSG_LEN);
    if (n == 0 || n == MSG_LEN || strncmp(err, name, strlen(name)) != 0)
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
            char err[MSG_LEN];
            int before = lua_gettop(L) - 2;
            if (sandbox_call(sb, 1, 1, err, sizeof err))
                lua_pop(L, 1);
            else
                check_err(err, name);
            if (lua_gettop(L) != before)
                abort();
            calls++;
        } else if (lua_type(L, -1) == LUA_TTABLE && depth == 0 && lua_type(L, -2) == LUA_TSTRING &&
                   strcmp(lua_tostring(L, -2), "pages") == 0) {
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

typedef struct {
    char name[64];
    int lines;
} ReportCtx;

static void report(void *ctx, const char *line)
{
    ReportCtx *r = ctx;
    check_err(line, r->name);
    r->lines++;
}

/* Reads everything a screen would read from a loaded lesson. */
static void walk(Lesson *l)
{
    char err[MSG_LEN], why[256];
    (void)lesson_id(l), (void)lesson_title(l), (void)lesson_summary(l), (void)lesson_track(l);
    int n = lesson_page_count(l);
    for (int p = -1; p <= n; p++) {
        PageKind k = lesson_page_kind(l, p);
        if (!lesson_page_title(l, p) || !lesson_page_text(l, p))
            abort();
        if (k == PAGE_DIAGRAM || k == PAGE_COMPARE) {
            for (int side = 0; side < 2; side++) {
                LessonDiagram d;
                memset(&d, 0, sizeof d);
                if (lesson_page_diagram(l, p, side, &d, err, sizeof err))
                    placement_free(d.placement);
                else
                    check_err(err, lesson_path(l));
            }
        } else if (k == PAGE_SCENARIO && p >= 0 && p < n) {
            (void)lesson_scenario_goal_text(l, p);
            for (int i = 0; i < lesson_scenario_hint_count(l, p); i++)
                (void)lesson_scenario_hint(l, p, i);
            (void)lesson_scenario_debrief(l, p);
            Scenario *s = lesson_scenario_start(l, p, err, sizeof err);
            if (!s) {
                check_err(err, lesson_path(l));
                continue;
            }
            for (int i = 0; i < lesson_scenario_solution_count(l, p) && i < 8; i++) {
                const char *mv = lesson_scenario_solution_move(l, p, i);
                if (mv && !scenario_apply_text(s, mv, why, sizeof why))
                    continue;
            }
            int met = lesson_scenario_goal_met(l, p, s, why, sizeof why, err, sizeof err);
            if (met < -1 || met > 1)
                abort();
            if (met < 0)
                check_err(err, lesson_path(l));
            /* the debrief on whatever state the moves reached */
            char out[2048];
            LessonPlay play = {.moves = 3, .hints = 1, .used_search = true};
            if (!lesson_scenario_debrief_for(l, p, s, &play, out, sizeof out, err, sizeof err))
                check_err(err, lesson_path(l));
            (void)lesson_scenario_par(l, p);
            (void)lesson_scenario_target(l, p, NULL);
            scenario_free(s);
        } else if (k == PAGE_PREDICT && p >= 0 && p < n) {
            PredictSpec spec;
            if (!lesson_predict_spec(l, p, &spec) || !predict_spec_check(&spec, why, sizeof why))
                abort(); /* a page that loaded has a valid spec */
            PredictGrade g;
            predict_grade(&spec, lesson_predict_question(l, p), true, &g);
            (void)lesson_predict_formula(l, p);
        } else if (k == PAGE_QUIZ && p >= 0 && p < n) {
            int order[64];
            int m = lesson_quiz_order(l, p, 42, order, 64);
            for (int i = 0; i < m; i++)
                if (order[i] < 0 || order[i] >= m)
                    abort();
            for (int i = 0; i < lesson_quiz_choice_count(l, p); i++) {
                (void)lesson_quiz_choice(l, p, i);
                (void)lesson_quiz_is_correct(l, p, i);
                (void)lesson_quiz_explanation(l, p, i);
            }
        }
    }
}

static void run(const char *name, const uint8_t *data, size_t size, bool from_file)
{
    SandboxLimits lim = sandbox_limits_catalog();
    Sandbox *sb = sandbox_new(name, &lim);
    if (!sb)
        abort();
    lua_State *L = sandbox_state(sb);
    int top = lua_gettop(L);
    char err[MSG_LEN];
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

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("SCALELAB_ASSETS", "assets", 0);
    return 0;
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
    char err[MSG_LEN];
    Lesson *l = lesson_load_local(path, true, err, sizeof err);
    if (l) {
        walk(l);
        Wire w;
        wire_init(&w);
        lesson_to_wire(l, &w);
        WireIn r = wire_in(w.buf, w.len);
        Lesson *back = lesson_from_wire(path, &r, err, sizeof err);
        if (!back || !lesson_same(l, back, err, sizeof err))
            abort(); /* what a host sends of a lesson that loaded must arrive whole */
        lesson_free(back);
        wire_free(&w);
    } else {
        check_err(err, path);
    }
    lesson_free(l);
    /* report() checks each line against the name and counts them. */
    ReportCtx ctx;
    snprintf(ctx.name, sizeof ctx.name, "%s", path);
    ctx.lines = 0;
    int problems =
        lesson_check_local(path, (const char *)data, size, report, report, &ctx, NULL, 0);
    if (problems < 0 || (problems > 0 && ctx.lines == 0))
        abort();
    run("fuzz.lua", data, size, false);
    WireIn answer = wire_in(data, size);
    Lesson *m = lesson_from_wire("answer.lua", &answer, err, sizeof err);
    if (m)
        walk(m); /* no host behind it: its goals say so, as errors */
    lesson_free(m);
    unlink(path);
    return 0;
}
