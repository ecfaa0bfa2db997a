/* SPDX-License-Identifier: MIT */
/* lesson_api — the `scalelab` table lessons call: presets as plain tables,
 * scalelab.cluster objects (userdata: a built cluster stays consistent, its
 * fields are read-only), scalelab.step returning a plain result table, units,
 * and page helpers. Also the readers of cluster/workload/mapping tables that
 * lesson.c uses for pages.
 *
 * Rules: arguments are checked first (luaL_check*), every model struct is a
 * value on the C stack or inside a userdata, so a Lua error never skips a
 * free. Presets come from the compiled-in tables (src/model/hw.c and
 * workload.c), which a unit test keeps equal to assets/presets.lua.
 * Depends on the model and Lua; nothing here prints.
 */
#include "lesson/lesson_api.h"

#include "base/msg.h"
#include "base/names.h"
#include "base/strbuf.h"
#include "learn/scenario.h"
#include "lesson/sandbox.h"
#include "model/hw.h"
#include "model/job.h"
#include "model/serve.h"
#include "model/units.h"

#include <float.h>
#include <lauxlib.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLUSTER_MT "scalelab.cluster"

/* ---- small helpers ---------------------------------------------------- */

static void set_num(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void set_str(lua_State *L, const char *k, const char *v)
{
    lua_pushstring(L, v ? v : "");
    lua_setfield(L, -2, k);
}

static void set_bool(lua_State *L, const char *k, bool v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
}

/* Reads integer field k of the table at idx; returns dflt when nil. */
static int opt_int_field(lua_State *L, int idx, const char *what, const char *k, int dflt, int lo,
                         int hi)
{
    int t = lua_getfield(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return dflt;
    }
    int isnum = 0;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (t != LUA_TNUMBER) /* "64" would convert: a type is a type */
        sandbox_error(L, "%s: '%s' must be a whole number, not a %s", what, k, lua_typename(L, t));
    if (!isnum)
        sandbox_error(L, "%s: '%s' must be a whole number", what, k);
    if (v < lo || v > hi)
        sandbox_error(L, "%s.%s = %I is out of range (%d to %d)", what, k, v, lo, hi);
    return (int)v;
}

/* A quantity field: a number in base units or text like "800 Gb/s". */
static bool opt_quantity_field(lua_State *L, int idx, const char *what, const char *k,
                               UnitsKind kind, double *out)
{
    int t = lua_getfield(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    if (t == LUA_TNUMBER) {
        *out = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!(*out > 0) || !isfinite(*out))
            sandbox_error(L, "%s.%s must be a positive number", what, k);
        return true;
    }
    if (t != LUA_TSTRING)
        sandbox_error(L, "%s.%s must be a number or text like \"800 Gb/s\"", what, k);
    char err[MSG_LEN];
    bool ok = units_parse(kind, lua_tostring(L, -1), out, err, sizeof err);
    lua_pop(L, 1);
    if (!ok)
        sandbox_error(L, "%s.%s: %s", what, k, err);
    return true;
}

static const char *opt_str_field(lua_State *L, int idx, const char *what, const char *k, char *buf,
                                 size_t n)
{
    int t = lua_getfield(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return NULL;
    }
    if (t != LUA_TSTRING) {
        lua_pop(L, 1);
        sandbox_error(L, "%s.%s must be a string, not a %s", what, k, lua_typename(L, t));
    }
    snprintf(buf, n, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return buf;
}

/* ---- fields a reader does not know --------------------------------------- */

/* The "known: a, b, c" list of an unknown name (base/strbuf.h), whole, in
 * a userdata the Lua error that follows leaves to the collector. */
static const char *joined(lua_State *L, int count, StrBufNameAt name_at, const void *ctx)
{
    size_t n = strbuf_join_into(NULL, 0, count, name_at, ctx);
    char *s = lua_newuserdatauv(L, n + 1, 0);
    strbuf_join_into(s, n + 1, count, name_at, ctx);
    return s;
}

const char *lesson_api_known_at(int i, const void *ctx)
{
    return ((const char *const *)ctx)[i];
}

int lesson_api_known_count(const char *const *known)
{
    int n = 0;
    while (known[n])
        n++;
    return n;
}

static const char FIELD_SINK_KEY[] = "scalelab.field_sink";

/* A sink (C struct the caller keeps) in the registry under key; NULL: none. */
static void sink_set(lua_State *L, const char *key, const void *sink)
{
    if (sink)
        lua_pushlightuserdata(L, (void *)sink);
    else
        lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, key);
}

static const void *sink_get(lua_State *L, const char *key)
{
    lua_getfield(L, LUA_REGISTRYINDEX, key);
    const void *sink = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return sink;
}

void lesson_api_set_field_sink(lua_State *L, const LessonFieldSink *sink)
{
    sink_set(L, FIELD_SINK_KEY, sink);
}

/* Rejects fields the reader does not know, so a typo never passes
 * silently: each goes to the field sink (a lesson's pages being read:
 * every one is reported at its line and reading goes on), or else the
 * first raises, with the nearest known name. */
void lesson_api_check_known(lua_State *L, int idx, const char *what, const char *const *known)
{
    idx = lua_absindex(L, idx);
    const LessonFieldSink *sink = sink_get(L, FIELD_SINK_KEY);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        sandbox_charge(L, 4, what); /* a table of a million keys is a million steps */
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            sandbox_error(L, "%s: keys must be names", what);
        const char *key = lua_tostring(L, -1);
        bool found = false;
        for (int i = 0; known[i] && !found; i++)
            found = strcmp(key, known[i]) == 0;
        if (found)
            continue;
        const char *near = names_nearest(key, known);
        if (sink) {
            sink->unknown(sink->ctx, what, key, near, known);
            continue;
        }
        if (near)
            sandbox_error(L, "%s: unknown field '%s': did you mean '%s'?", what, key, near);
        const char *list = joined(L, lesson_api_known_count(known), lesson_api_known_at, known);
        sandbox_error(L, "%s: unknown field '%s' (known: %s)", what, key, list);
    }
}

/* ---- presets as plain tables ------------------------------------------ */

static void push_gpu(lua_State *L, const GpuSpec *g)
{
    lua_createtable(L, 0, 8);
    set_str(L, "id", g->id);
    set_str(L, "name", g->name);
    set_str(L, "noun", hw_noun(g, 0));
    set_str(L, "nouns", hw_noun(g, HW_NOUN_MANY));
    set_num(L, "bf16_flops", g->bf16_flops);
    set_num(L, "fp8_flops", g->fp8_flops);
    set_num(L, "hbm_bytes", g->hbm_bytes);
    set_num(L, "hbm_bytes_per_s", g->hbm_bytes_per_s);
}

static void push_system(lua_State *L, const SystemSpec *s)
{
    lua_createtable(L, 0, 20);
    set_str(L, "id", s->id);
    set_str(L, "name", s->name);
    set_str(L, "gpu_id", s->gpu_id);
    const GpuSpec *g = hw_gpu_find(s->gpu_id);
    if (g) {
        push_gpu(L, g);
        lua_setfield(L, -2, "gpu");
    }
    set_int(L, "domain_gpus", s->domain_gpus);
    set_int(L, "default_gpus", s->default_gpus);
    set_str(L, "up_kind", s->up_kind == HW_UP_TORUS ? "torus" : "switched");
    set_str(L, "up_link", s->up_link);
    set_num(L, "up_bytes_per_s", s->up_bytes_per_s);
    set_num(L, "up_lat_s", s->up_lat_s);
    set_int(L, "up_switches", s->up_switches);
    lua_createtable(L, 3, 0);
    for (int i = 0; i < 3; i++) {
        lua_pushinteger(L, s->torus[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "torus");
    set_str(L, "out_link", s->out_link);
    set_num(L, "out_bytes_per_s", s->out_bytes_per_s);
    set_num(L, "out_lat_s", s->out_lat_s);
    set_num(L, "oversub", s->oversub);
    set_int(L, "gpus_per_leaf", s->gpus_per_leaf);
    set_bool(L, "rail_optimized", s->rail_optimized);
    set_num(L, "domain_power_w", s->domain_power_w);
    set_str(L, "cooling", s->cooling);
    set_str(L, "summary", s->summary);
}

static void push_workload(lua_State *L, const Workload *w, const char *name, const char *source)
{
    lua_createtable(L, 0, 24);
    set_str(L, "id", w->id);
    if (name)
        set_str(L, "name", name);
    if (source)
        set_str(L, "source", source);
    set_int(L, "layers", w->layers);
    set_int(L, "hidden", w->hidden);
    set_int(L, "heads", w->heads);
    set_int(L, "kv_heads", w->kv_heads);
    set_int(L, "ffn", w->ffn);
    set_bool(L, "swiglu", w->swiglu);
    set_int(L, "seq", w->seq);
    set_int(L, "vocab", w->vocab);
    set_num(L, "params", workload_params(w));
    set_num(L, "active_params", workload_active_params(w));
    set_int(L, "batch", w->global_batch);
    set_int(L, "mb", w->micro_batch);
    set_int(L, "experts", w->experts);
    set_int(L, "topk", w->topk);
    set_int(L, "head_dim", w->head_dim);
    set_int(L, "window", w->window);
    set_int(L, "global_every", w->global_every);
    set_int(L, "shared_experts", w->shared_experts);
    set_int(L, "moe_layers", w->moe_layers);
    set_bool(L, "moe", workload_is_moe(w));
    set_str(L, "recompute", workload_word(WL_WORDS_RECOMPUTE, (int)w->recompute));
    set_str(L, "precision", workload_word(WL_WORDS_PRECISION, (int)w->precision));
    set_num(L, "model_flops", workload_model_flops(w));
}

static int unknown_id(lua_State *L, const char *kind, const char *id, int count,
                      StrBufNameAt id_at)
{
    return luaL_error(L, "unknown %s '%s' (known: %s)", kind, id, joined(L, count, id_at, NULL));
}

static int api_gpu(lua_State *L)
{
    const char *id = luaL_checkstring(L, 1);
    const GpuSpec *g = hw_gpu_find(id);
    if (!g)
        return unknown_id(L, "GPU", id, hw_gpu_count(), hw_gpu_id_at);
    push_gpu(L, g);
    return 1;
}

static int api_system(lua_State *L)
{
    const char *id = luaL_checkstring(L, 1);
    const SystemSpec *s = hw_system_find(id);
    if (!s)
        return unknown_id(L, "system", id, hw_system_count(), hw_system_id_at);
    push_system(L, s);
    return 1;
}

static int api_model(lua_State *L)
{
    const char *id = luaL_checkstring(L, 1);
    const WorkloadPreset *p = workload_preset_find(id);
    if (!p)
        return unknown_id(L, "model", id, workload_preset_count(), workload_preset_id_at);
    push_workload(L, &p->w, p->name, p->source);
    return 1;
}

static int push_id_list(lua_State *L, int count, StrBufNameAt id_at)
{
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        lua_pushstring(L, id_at(i, NULL));
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int api_gpus(lua_State *L)
{
    return push_id_list(L, hw_gpu_count(), hw_gpu_id_at);
}
static int api_systems(lua_State *L)
{
    return push_id_list(L, hw_system_count(), hw_system_id_at);
}
static int api_models(lua_State *L)
{
    return push_id_list(L, workload_preset_count(), workload_preset_id_at);
}

/* ---- readers ------------------------------------------------------------ */

/* One entry of failed = { 8, 9, "12-15" }: a GPU id or a range "A-B". */
static void read_down_entry(lua_State *L, const char *what, const char *k, lua_Integer i,
                            int *first, int *last)
{
    int isnum;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    if (isnum && lua_type(L, -1) == LUA_TNUMBER) {
        *first = *last = (int)(v < 0 ? -1 : v > CLUSTER_MAX_GPUS ? CLUSTER_MAX_GPUS : v);
        return;
    }
    const char *t = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    char *end;
    long a = t ? strtol(t, &end, 10) : -1, b = a;
    if (t && *end == '-')
        b = strtol(end + 1, &end, 10);
    if (!t || *end || a < 0 || b < a || b > CLUSTER_MAX_GPUS)
        sandbox_error(L, "%s.%s[%I] must be a GPU id or a range like \"8-11\"", what, k, i);
    *first = (int)a;
    *last = (int)b;
}

/* failed = {...} or busy = {...}: GPUs that run no rank of the job. */
static void read_down(lua_State *L, int idx, const char *what, const char *k,
                      ClusterGpuState state, Cluster *c)
{
    int t = lua_getfield(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE)
        sandbox_error(L, "%s.%s must be a list of GPU ids or ranges, like { 8, 9, \"12-15\" }",
                      what, k);
    lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = 1; i <= len; i++) {
        int first, last;
        lua_rawgeti(L, -1, i);
        read_down_entry(L, what, k, i, &first, &last);
        lua_pop(L, 1);
        char err[MSG_LEN];
        /* consecutive ids join the range before them */
        ClusterDown *prev = c->n_down > 0 ? &c->down[c->n_down - 1] : NULL;
        if (prev && prev->state == state && prev->first + prev->count == first)
            prev->count += last - first + 1;
        else if (!cluster_add_down(c, first, last - first + 1, state, err, sizeof err))
            sandbox_error(L, "%s.%s[%I]: %s", what, k, i, err);
    }
    lua_pop(L, 1);
}

/* The machine around the job: machine_gpus, failed, busy and domains (a
 * list of domain sizes in GPU order, for a mixed machine). */
static void read_machine(lua_State *L, int idx, const char *what, Cluster *c)
{
    if (lua_getfield(L, idx, "domains") == LUA_TTABLE) {
        lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
        long long total = 0;
        int widest = 0;
        for (lua_Integer i = 1; i <= len; i++) {
            int isnum;
            lua_rawgeti(L, -1, i);
            lua_Integer v = lua_tointegerx(L, -1, &isnum);
            lua_pop(L, 1);
            if (!isnum || v < 1 || v > CLUSTER_MAX_GPUS)
                sandbox_error(L, "%s.domains[%I] must be a number of GPUs", what, i);
            ClusterRun *last = c->n_runs ? &c->runs[c->n_runs - 1] : NULL;
            if (last && last->gpus == v)
                last->domains++;
            else if (c->n_runs == CLUSTER_RUNS_MAX)
                sandbox_error(L, "%s.domains: at most %d runs of equal domains", what,
                              CLUSTER_RUNS_MAX);
            else
                c->runs[c->n_runs++] = (ClusterRun){1, (int)v};
            total += v;
            widest = v > widest ? (int)v : widest;
        }
        if (total > CLUSTER_MAX_GPUS)
            sandbox_error(L, "%s.domains hold too many GPUs", what);
        c->domain_gpus = widest;
        c->machine_gpus = (int)total;
    } else if (!lua_isnil(L, -1)) {
        sandbox_error(L, "%s.domains must be a list of domain sizes, like { 72, 8, 8 }", what);
    }
    lua_pop(L, 1);
    int machine = opt_int_field(L, idx, what, "machine_gpus", 0, 1, CLUSTER_MAX_GPUS);
    if (machine)
        c->machine_gpus = machine;
    /* without machine_gpus, the down GPUs come on top of the job's */
    bool sized = c->machine_gpus > 0;
    if (!sized)
        c->machine_gpus = CLUSTER_MAX_GPUS; /* room while the lists are read */
    read_down(L, idx, what, "failed", CLUSTER_GPU_FAILED, c);
    read_down(L, idx, what, "busy", CLUSTER_GPU_BUSY, c);
    if (!sized) {
        int down = 0;
        for (int i = 0; i < c->n_down; i++)
            down += c->down[i].count;
        c->machine_gpus = c->n_gpus + down;
    }
    if (c->machine_gpus == c->n_gpus && c->n_down == 0 && c->n_runs == 0)
        c->machine_gpus = 0;
}

void lesson_api_cluster(lua_State *L, int idx, const char *what, Cluster *out)
{
    idx = lua_absindex(L, idx);
    Cluster *ud = luaL_testudata(L, idx, CLUSTER_MT);
    if (ud) {
        *out = *ud;
        return;
    }
    if (lua_type(L, idx) != LUA_TTABLE)
        sandbox_error(L, "%s must be a table like { system = \"dgx-h100\", gpus = 64 }", what);
    static const char *const known[] = {"system",        "gpus",    "domain",       "up",
                                        "out",           "oversub", "sites",        "across",
                                        "gpus_per_leaf", "rails",   "machine_gpus", "failed",
                                        "busy",          "domains", "across_lat",   NULL};
    lesson_api_check_known(L, idx, what, known);
    char sys[64];
    if (!opt_str_field(L, idx, what, "system", sys, sizeof sys))
        sandbox_error(L, "%s.system is missing (one of the system presets, e.g. \"dgx-h100\")",
                      what);
    int gpus = opt_int_field(L, idx, what, "gpus", 0, 1, CLUSTER_MAX_GPUS);
    char err[MSG_LEN];
    Cluster c;
    if (!cluster_from_system(&c, sys, gpus, err, sizeof err))
        sandbox_error(L, "%s: %s", what, err);
    c.domain_gpus = opt_int_field(L, idx, what, "domain", c.domain_gpus, 1, CLUSTER_MAX_GPUS);
    job_set_sites(&c, opt_int_field(L, idx, what, "sites", c.sites, 1, 1000));
    c.gpus_per_leaf =
        opt_int_field(L, idx, what, "gpus_per_leaf", c.gpus_per_leaf, 1, CLUSTER_MAX_GPUS);
    int rails = lua_getfield(L, idx, "rails");
    if (rails != LUA_TNIL && rails != LUA_TBOOLEAN)
        sandbox_error(L, "%s.rails must be true or false (rail-optimized leaves)", what);
    if (rails == LUA_TBOOLEAN)
        c.rail_optimized = lua_toboolean(L, -1);
    lua_pop(L, 1);
    double v;
    if (opt_quantity_field(L, idx, what, "up", UNITS_BANDWIDTH, &v))
        c.up_bytes_per_s = v;
    if (opt_quantity_field(L, idx, what, "out", UNITS_BANDWIDTH, &v))
        c.out_bytes_per_s = v;
    if (opt_quantity_field(L, idx, what, "across", UNITS_BANDWIDTH, &v))
        c.across_bytes_per_s = v;
    if (opt_quantity_field(L, idx, what, "across_lat", UNITS_TIME, &v))
        c.across_lat_s = v;
    if (opt_quantity_field(L, idx, what, "oversub", UNITS_COUNT, &v)) {
        if (v < 1)
            sandbox_error(L, "%s.oversub must be at least 1", what);
        c.oversub = v;
    }
    if (c.sites > 1 && !(c.across_bytes_per_s > 0))
        sandbox_error(L, "%s: sites = %d needs across = \"...\" (the site-to-site bandwidth)",
                      what, c.sites);
    read_machine(L, idx, what, &c);
    if (!cluster_check(&c, err, sizeof err))
        sandbox_error(L, "%s: %s", what, err);
    *out = c;
}

/* A framework switch: true or false pins it, nil leaves the framework's
 * default (step.c); `extra`, when given, is one more word it takes
 * (ep_overlap's "dualpipe"), reported through *extra_set. */
static void opt_switch_field(lua_State *L, int idx, const char *what, const char *k,
                             WlSwitch *slot, const char *extra, bool *extra_set)
{
    int t = lua_getfield(L, idx, k);
    if (t == LUA_TBOOLEAN)
        *slot = lua_toboolean(L, -1) ? WL_ON : WL_OFF;
    else if (extra && t == LUA_TSTRING && strcmp(lua_tostring(L, -1), extra) == 0)
        *slot = WL_ON, *extra_set = true;
    else if (t != LUA_TNIL) {
        if (extra)
            sandbox_error(L, "%s.%s must be true, false or \"%s\"", what, k, extra);
        sandbox_error(L, "%s.%s must be true or false", what, k);
    }
    lua_pop(L, 1);
}

/* key = one of the words of set (workload_word), or dflt when absent. */
static int opt_word_field(lua_State *L, int idx, const char *what, const char *key, WlWords set,
                          int dflt)
{
    char buf[32];
    if (!opt_str_field(L, idx, what, key, buf, sizeof buf))
        return dflt;
    int k = workload_word_parse(set, buf);
    if (k < 0) {
        char list[96];
        workload_word_list(set, '"', list, sizeof list);
        sandbox_error(L, "%s.%s must be %s", what, key, list);
    }
    return k;
}

/* offload = { "optimizer", "weights", "activations" }: a list of parts. */
static int opt_offload_field(lua_State *L, int idx, const char *what, int dflt)
{
    int t = lua_getfield(L, idx, "offload");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return dflt;
    }
    if (t != LUA_TTABLE)
        sandbox_error(L, "%s.offload must be a list like { \"optimizer\", \"activations\" }",
                      what);
    int v = 0, n = (int)lua_rawlen(L, -1);
    for (int i = 1; i <= n && i <= 8; i++) {
        const char *s = lua_rawgeti(L, -1, i) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        int k = workload_word_parse(WL_WORDS_OFFLOAD, s);
        if (k < 0) {
            char list[96];
            workload_word_list(WL_WORDS_OFFLOAD, '"', list, sizeof list);
            sandbox_error(L, "%s.offload[%d] must be %s", what, i, list);
        }
        v |= 1 << k;
        lua_pop(L, 1);
    }
    if (n > 8)
        sandbox_error(L, "%s.offload lists %d parts (at most the 3 there are)", what, n);
    lua_pop(L, 1);
    return v;
}

/* How the framework runs the workload: the software, its switches, CUDA
 * graphs and offload, as eval's flags of the same names set them. */
static void read_run_settings(lua_State *L, int idx, const char *what, Workload *w)
{
    char buf[32];
    if (opt_str_field(L, idx, what, "framework", buf, sizeof buf)) {
        int k = workload_word_parse(WL_WORDS_FRAMEWORK, buf);
        if (k <= WL_FW_AUTO) /* a lesson names the framework it means */
            sandbox_error(L,
                          "%s.framework must be \"megatron\", \"pytorch\", "
                          "\"pytorch-compile\", \"jax\" or \"deepspeed\" (got '%s')",
                          what, buf);
        w->framework = (WlFramework)k;
    }
    static const char *const names[] = {"seq_parallel", "tp_overlap", "pp_overlap", "dp_overlap",
                                        "ep_dedup"};
    WlSwitch *slots[] = {&w->seq_parallel, &w->tp_overlap, &w->pp_overlap, &w->dp_overlap,
                         &w->ep_dedup};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        opt_switch_field(L, idx, what, names[i], slots[i], NULL, NULL);
    bool dualpipe = false;
    opt_switch_field(L, idx, what, "ep_overlap", &w->ep_overlap, "dualpipe", &dualpipe);
    w->ep_dualpipe = dualpipe;
    w->cuda_graphs = (WlGraphs)opt_word_field(L, idx, what, "cuda_graphs", WL_WORDS_GRAPHS,
                                              (int)w->cuda_graphs);
    w->offload = opt_offload_field(L, idx, what, w->offload);
    w->offload_layers =
        opt_int_field(L, idx, what, "offload_layers", w->offload_layers, 0, 100000);
}

void lesson_api_workload(lua_State *L, int idx, const char *what, Workload *out)
{
    idx = lua_absindex(L, idx);
    const WorkloadPreset *p;
    if (lua_isnoneornil(L, idx)) {
        p = workload_preset_find("llama3-8b");
        if (!p)
            sandbox_error(L, "%s: no default workload preset", what);
        *out = p->w;
        return;
    }
    if (lua_type(L, idx) != LUA_TTABLE)
        sandbox_error(L, "%s must be a table like { model = \"llama3-70b\", batch = 512 }", what);
    static const char *const known[] = {
        "model",      "batch",          "mb",         "seq",          "layers",
        "hidden",     "heads",          "kv_heads",   "ffn",          "vocab",
        "experts",    "topk",           "recompute",  "precision",    "head_dim",
        "window",     "global_every",   "framework",  "seq_parallel", "tp_overlap",
        "pp_overlap", "dp_overlap",     "ep_overlap", "ep_dedup",     "cuda_graphs",
        "offload",    "offload_layers", NULL,
    };
    lesson_api_check_known(L, idx, what, known);
    char id[64];
    if (!opt_str_field(L, idx, what, "model", id, sizeof id))
        sandbox_error(L,
                      "%s.model is missing (one of the workload presets, e.g. "
                      "\"llama3-70b\")",
                      what);
    p = workload_preset_find(id);
    if (!p)
        sandbox_error(L, "unknown model '%s' (known: %s)", id,
                      joined(L, workload_preset_count(), workload_preset_id_at, NULL));
    Workload w = p->w;
    const int big = 1 << 30;
    w.global_batch = opt_int_field(L, idx, what, "batch", w.global_batch, 1, big);
    w.micro_batch = opt_int_field(L, idx, what, "mb", w.micro_batch, 1, big);
    w.seq = opt_int_field(L, idx, what, "seq", w.seq, 1, big);
    int layers = opt_int_field(L, idx, what, "layers", w.layers, 1, 100000);
    int hidden = opt_int_field(L, idx, what, "hidden", w.hidden, 1, big);
    if (layers != w.layers || hidden != w.hidden)
        w.params = 0; /* derive from the new shape */
    w.layers = layers;
    w.hidden = hidden;
    w.heads = opt_int_field(L, idx, what, "heads", w.heads, 1, big);
    w.kv_heads = opt_int_field(L, idx, what, "kv_heads", w.kv_heads, 1, big);
    w.ffn = opt_int_field(L, idx, what, "ffn", w.ffn, 1, big);
    w.vocab = opt_int_field(L, idx, what, "vocab", w.vocab, 1, big);
    w.experts = opt_int_field(L, idx, what, "experts", w.experts, 0, 100000);
    w.topk = opt_int_field(L, idx, what, "topk", w.topk, 0, 100000);
    w.head_dim = opt_int_field(L, idx, what, "head_dim", w.head_dim, 0, 65536);
    w.window = opt_int_field(L, idx, what, "window", w.window, 0, 1 << 24);
    w.global_every = opt_int_field(L, idx, what, "global_every", w.global_every, 0, 100000);
    w.recompute = (WlRecompute)opt_word_field(L, idx, what, "recompute", WL_WORDS_RECOMPUTE,
                                              (int)w.recompute);
    w.precision = (WlPrecision)opt_word_field(L, idx, what, "precision", WL_WORDS_PRECISION,
                                              (int)w.precision);
    read_run_settings(L, idx, what, &w);
    char err[MSG_LEN];
    if (!workload_check(&w, err, sizeof err))
        sandbox_error(L, "%s: %s", what, err);
    *out = w;
}

void lesson_api_mapping(lua_State *L, int idx, const char *what, const Cluster *c,
                        const Workload *w, Mapping *out)
{
    idx = lua_absindex(L, idx);
    Mapping m = job_mapping_default();
    if (!lua_isnoneornil(L, idx)) {
        if (lua_type(L, idx) != LUA_TTABLE)
            sandbox_error(L, "%s must be a table like { tp = 8, pp = 1, dp = 9 }", what);
        static const char *const known[] = {"tp",         "pp",   "dp",  "ep", "cp",
                                            "interleave", "zero", "etp", NULL};
        lesson_api_check_known(L, idx, what, known);
        const int big = CLUSTER_MAX_GPUS;
        m.tp = opt_int_field(L, idx, what, "tp", 1, 1, big);
        m.pp = opt_int_field(L, idx, what, "pp", 1, 1, big);
        m.cp = opt_int_field(L, idx, what, "cp", 1, 1, big);
        m.ep = opt_int_field(L, idx, what, "ep", 1, 1, big);
        m.dp = opt_int_field(L, idx, what, "dp", 0, 1, big);
        m.interleave = opt_int_field(L, idx, what, "interleave", m.interleave, 1, 1000);
        m.zero = opt_int_field(L, idx, what, "zero", m.zero, 0, 3);
        m.etp = opt_int_field(L, idx, what, "etp", 1, 1, big);
    }
    char err[MSG_LEN];
    if (!job_check(&m, c, w, err, sizeof err))
        sandbox_error(L, "%s: %s", what, err);
    *out = m;
}

/* ---- results ------------------------------------------------------------ */

/* Result tables are strict: reading a field they do not have is an error
 * that names the table, the nearest field and every field it has ("r.breakdown
 * has no field 'bubble': did you mean 'bubble_s'?"), where a plain table
 * would give nil and a later "attempt to compare nil with number". The
 * fields only some r tables carry (start in goals, serve in serving
 * scenarios, what the learner did in debriefs) read as nil where absent, so
 * `if r.serve then` keeps working. */
static const char STRICT_KEY[] = "scalelab.strict";
static const char *const optional_fields[] = {"start", "serve",  "moves", "par",
                                              "hints", "search", NULL};

static int strict_index(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    const char *name = "r";
    if (lua_getmetatable(L, 1) && lua_getfield(L, -1, "name") == LUA_TSTRING)
        name = lua_tostring(L, -1);
    bool top = strcmp(name, "r") == 0 || strcmp(name, "r.start") == 0;
    for (int i = 0; k && top && optional_fields[i]; i++)
        if (strcmp(k, optional_fields[i]) == 0)
            k = NULL;
    if (!k) {
        lua_pushnil(L);
        return 1;
    }
    const char *keys[64];
    int n = 0;
    lua_pushnil(L);
    while (n < 63 && lua_next(L, 1)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING) {
            int j = n++;
            for (; j > 0 && strcmp(keys[j - 1], lua_tostring(L, -1)) > 0; j--)
                keys[j] = keys[j - 1];
            keys[j] = lua_tostring(L, -1); /* the key stays in the table: the string lives */
        }
    }
    keys[n] = NULL;
    char near[80] = "";
    const char *list = joined(L, n, lesson_api_known_at, keys);
    const char *best = names_nearest(k, keys);
    if (best)
        snprintf(near, sizeof near, ": did you mean '%s'?", best);
    return luaL_error(L, "%s has no field '%s'%s (fields: %s)", name, k, near, list);
}

/* Makes the table on top strict, named name in messages. */
static void strict(lua_State *L, const char *name)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, STRICT_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, STRICT_KEY);
    }
    if (lua_getfield(L, -1, name) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 2);
        lua_pushcfunction(L, strict_index);
        lua_setfield(L, -2, "__index");
        lua_pushstring(L, name);
        lua_setfield(L, -2, "name");
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, name);
    }
    lua_setmetatable(L, -3);
    lua_pop(L, 1);
}

/* Sets field k of the table below the top to the table on top, strict and
 * named prefix.k. */
static void set_strict(lua_State *L, const char *prefix, const char *k)
{
    char name[64];
    snprintf(name, sizeof name, "%s.%s", prefix, k);
    strict(L, name);
    lua_setfield(L, -2, k);
}

static void push_span(lua_State *L, GroupSpan s)
{
    lua_createtable(L, 0, 5);
    set_int(L, "size", s.size);
    set_int(L, "domains", s.domains);
    set_int(L, "min_per_domain", s.min_per_domain);
    set_int(L, "sites", s.sites);
    set_bool(L, "crosses_leaf", s.crosses_leaf);
}

static void push_plain_result(lua_State *L, const StepResult *r, const char *name)
{
    lua_createtable(L, 0, 16);
    strict(L, name);
    set_num(L, "step_s", r->step_s);
    set_num(L, "tokens_per_s", r->tokens_per_s);
    set_num(L, "tflops_per_gpu", r->tflops_per_gpu);
    set_num(L, "hw_tflops_per_gpu", r->hw_tflops_per_gpu);
    set_num(L, "mfu", r->mfu);
    set_bool(L, "fits", r->fits);
    set_num(L, "mem_per_gpu_bytes", r->mem_per_gpu_bytes);
    set_num(L, "hbm_bytes", r->hbm_bytes);
    set_num(L, "optimizer_s", r->optimizer_s);
    set_int(L, "micro_batches", r->micro_batches);
    set_str(L, "bottleneck", r->bottleneck);
    set_str(L, "bottleneck_part", step_part_name(r->bottleneck_part));
    set_str(L, "bottleneck_tier", tier_name(r->bottleneck_tier));
    lua_createtable(L, 0, 6);
    set_num(L, "compute_s", r->part_s[STEP_COMPUTE]);
    set_num(L, "tp_s", r->part_s[STEP_TP]);
    set_num(L, "pp_s", r->part_s[STEP_PP]);
    set_num(L, "bubble_s", r->part_s[STEP_BUBBLE]);
    set_num(L, "dp_s", r->part_s[STEP_DP]);
    set_num(L, "ep_s", r->part_s[STEP_EP]);
    set_strict(L, name, "breakdown");
    lua_createtable(L, 0, 3);
    set_num(L, "scale_up", r->tier_bytes[TIER_UP]);
    set_num(L, "scale_out", r->tier_bytes[TIER_OUT]);
    set_num(L, "scale_across", r->tier_bytes[TIER_ACROSS]);
    set_strict(L, name, "bytes");
    lua_createtable(L, 0, 4);
    set_num(L, "weights", r->mem_weights);
    set_num(L, "grads", r->mem_grads);
    set_num(L, "optimizer", r->mem_optimizer);
    set_num(L, "activations", r->mem_activations);
    set_strict(L, name, "memory");
    static const struct {
        const char *name;
        MappingDim d;
    } dims[] = {{"tp", DIM_TP}, {"pp", DIM_PP}, {"dp", DIM_DP}, {"ep", DIM_EP}, {"cp", DIM_CP}};
    char span[48];
    snprintf(span, sizeof span, "%s.span", name);
    lua_createtable(L, 0, 5);
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        push_span(L, r->span[dims[i].d]);
        set_strict(L, span, dims[i].name);
    }
    set_strict(L, name, "span");
}

/* r.cluster: what the machine is, so a goal can weigh the system a learner
 * picked (power budget, cooling). Power scales with the GPUs used, at the
 * preset's power per GPU (its domain_power_w over its own domain size), so
 * re-partitioning the scale-up domain does not change it. */
static void push_cluster(lua_State *L, const Cluster *c)
{
    const SystemSpec *spec = hw_system_find(c->system_id);
    double per_gpu_w =
        spec && spec->domain_gpus > 0 ? spec->domain_power_w / spec->domain_gpus : 0.0;
    lua_createtable(L, 0, 9);
    set_str(L, "system", c->system_id);
    set_str(L, "name", c->name);
    set_str(L, "noun", hw_noun(&c->gpu, 0));
    set_str(L, "nouns", hw_noun(&c->gpu, HW_NOUN_MANY));
    set_int(L, "gpus", c->n_gpus);
    set_int(L, "domain_gpus", c->domain_gpus);
    set_int(L, "domains", cluster_domain_count(c));
    set_num(L, "power_w", per_gpu_w * c->n_gpus);
    set_str(L, "cooling", c->cooling);
    set_strict(L, "r", "cluster");
}

void lesson_api_push_result(lua_State *L, const StepResult *r, const Cluster *c, const Mapping *m,
                            int mb, const StepResult *start)
{
    push_plain_result(L, r, "r");
    if (c)
        push_cluster(L, c);
    if (m) {
        lua_createtable(L, 0, 9);
        set_int(L, "tp", m->tp);
        set_int(L, "pp", m->pp);
        set_int(L, "dp", m->dp);
        set_int(L, "ep", m->ep);
        set_int(L, "cp", m->cp);
        set_int(L, "interleave", m->interleave);
        set_int(L, "zero", m->zero);
        set_int(L, "etp", mapping_etp(m));
        set_int(L, "mb", mb);
        set_strict(L, "r", "mapping");
    }
    if (start) {
        push_plain_result(L, start, "r.start");
        lua_setfield(L, -2, "start");
    }
}

/* What one scalelab.step costs beyond the meter's charge for its arguments:
 * building the cluster and a step evaluation take about 10 us, some 2,500
 * instructions' time. */
#define STEP_UNITS         2500.0
#define SCENARIO_GPU_UNITS 200.0

void lesson_api_push_serve(lua_State *L, const ServeResult *r, const char *name)
{
    lua_createtable(L, 0, 12);
    strict(L, name);
    set_num(L, "token_s", r->token_s);
    set_num(L, "tokens_per_s", r->tokens_per_s);
    set_num(L, "user_tokens_per_s", r->user_tokens_per_s);
    set_int(L, "replicas", r->replicas);
    set_bool(L, "fits", r->fits);
    set_num(L, "mem_per_gpu_bytes", r->mem_per_gpu_bytes);
    set_num(L, "weight_bytes", r->weight_bytes);
    set_num(L, "kv_bytes", r->kv_bytes);
    set_num(L, "hbm_bytes", r->hbm_bytes);
    set_int(L, "tp_domains", r->tp_domains);
    set_str(L, "bottleneck_part", serve_part_name(r->bottleneck));
    lua_createtable(L, 0, SERVE_PART_COUNT);
    for (int i = 0; i < SERVE_PART_COUNT; i++)
        set_num(L, serve_part_key((ServePart)i), r->part_s[i]);
    set_strict(L, name, "parts");
}

/* scalelab.step{cluster=, workload=, mapping=} */
#define STEP_MOVES_MAX 64

/* The cluster, workload and mapping of the table at 1 (fn names the caller
 * in errors). */
static void read_job(lua_State *L, const char *fn, Cluster *c, Workload *w, Mapping *m)
{
    lua_getfield(L, 1, "cluster");
    if (lua_isnil(L, -1))
        sandbox_error(L, "%s: cluster is missing", fn);
    lesson_api_cluster(L, -1, "cluster", c);
    lua_getfield(L, 1, "workload");
    lesson_api_workload(L, -1, "workload", w);
    lua_getfield(L, 1, "mapping");
    lesson_api_mapping(L, -1, "mapping", c, w, m);
    lua_pop(L, 3);
    job_framework(w, c, m->zero, m->pp);
}

/* moves = { "group tp 68 to 132", ... } of scalelab.step, copied out before
 * any C heap is held (a bad entry raises here). Returns the count. */
static int step_moves(lua_State *L, char moves[][64])
{
    int t = lua_getfield(L, 1, "moves");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (t != LUA_TTABLE)
        sandbox_error(L, "scalelab.step: moves must be a list of moves like { \"swap 3 12\" }");
    lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
    if (len > STEP_MOVES_MAX)
        sandbox_error(L, "scalelab.step: at most %d moves", STEP_MOVES_MAX);
    for (lua_Integer i = 1; i <= len; i++) {
        if (lua_rawgeti(L, -1, i) != LUA_TSTRING || lua_rawlen(L, -1) >= 64)
            sandbox_error(L, "scalelab.step: moves[%I] must be a move like \"swap 3 12\"", i);
        snprintf(moves[i - 1], 64, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return (int)len;
}

/* The job and the moves of {cluster=, workload=, mapping=, moves=} at 1;
 * returns how many moves. */
static int api_job_moves(lua_State *L, const char *name, Cluster *c, Workload *w, Mapping *m,
                         char (*moves)[64])
{
    luaL_checktype(L, 1, LUA_TTABLE);
    sandbox_charge(L, STEP_UNITS, name);
    static const char *const known[] = {"cluster", "workload", "mapping", "moves", NULL};
    lesson_api_check_known(L, 1, name, known);
    read_job(L, name, c, w, m);
    int n = step_moves(L, moves);
    /* Moves need a scenario: a placement of every GPU, made and changed per
     * move (about 0.8 us, 200 instructions' time, per GPU). */
    if (n > 0)
        sandbox_charge(L, SCENARIO_GPU_UNITS * cluster_machine_gpus(c) * (n + 1.0), name);
    return n;
}

/* The scenario the job starts after its moves, made as typed keys (their
 * presses added to *presses) or as moves; a bad job or move raises name's
 * error (nothing is left allocated). */
static Scenario *api_run_moves(lua_State *L, const char *name, const Cluster *c, const Workload *w,
                               const Mapping *m, char (*moves)[64], int n, bool typed,
                               int *presses)
{
    char err[MSG_LEN] = "";
    Scenario *s = scenario_new(c, w, m, NULL, SCN_ALLOW_ALL, err, sizeof err);
    for (int i = 0; s && i < n; i++) {
        char why[MSG_LEN];
        int k = 0;
        bool ok = typed ? scenario_type_text(s, moves[i], &k, why, sizeof why)
                        : scenario_apply_text(s, moves[i], why, sizeof why);
        if (!ok) {
            msg_set(err, sizeof err, "move %d '%s': %s", i + 1, moves[i], why);
            scenario_free(s);
            s = NULL;
        } else if (presses) {
            *presses += k;
        }
    }
    if (!s)
        sandbox_error(L, "%s: %s", name, err);
    return s;
}

/* scalelab.step{cluster=, workload=, mapping=, moves=}: moves, when given,
 * are made on the scenario these start, as a learner would make them (the
 * way to compute a target that needs GPUs moved). */
static int api_step(lua_State *L)
{
    Cluster c;
    Workload w;
    Mapping m;
    char moves[STEP_MOVES_MAX][64];
    int n_moves = api_job_moves(L, "scalelab.step", &c, &w, &m, moves);
    char err[MSG_LEN] = "";
    if (n_moves == 0) { /* no placement to hold: the model's closed forms */
        StepResult r;
        if (step_eval(&c, &w, &m, NULL, NULL, &r, err, sizeof err) != STEP_OK)
            return luaL_error(L, "scalelab.step: %s", err);
        lesson_api_push_result(L, &r, &c, &m, w.micro_batch, NULL);
        return 1;
    }
    Scenario *s = api_run_moves(L, "scalelab.step", &c, &w, &m, moves, n_moves, false, NULL);
    StepResult r = *scenario_result(s);
    Cluster sc = *scenario_cluster(s);
    Mapping sm = *scenario_mapping(s);
    int mb = scenario_workload(s)->micro_batch;
    scenario_free(s);
    lesson_api_push_result(L, &r, &sc, &sm, mb, NULL);
    return 1;
}

/* scalelab.presses{cluster=, workload=, mapping=, moves=}: the key presses
 * that type the moves from that start, as a scenario counts them (for a
 * par computed from moves a lesson works out itself). */
static int api_presses(lua_State *L)
{
    Cluster c;
    Workload w;
    Mapping m;
    char moves[STEP_MOVES_MAX][64];
    int n_moves = api_job_moves(L, "scalelab.presses", &c, &w, &m, moves), total = 0;
    Scenario *s = api_run_moves(L, "scalelab.presses", &c, &w, &m, moves, n_moves, true, &total);
    scenario_free(s);
    lua_pushinteger(L, total);
    return 1;
}

/* scalelab.serve{cluster=, workload=, mapping=, batch=, context=}: one
 * decode step (serve.h), as the table r.serve of a serving scenario. */
static int api_serve(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    sandbox_charge(L, STEP_UNITS, "scalelab.serve");
    static const char *const known[] = {"cluster", "workload", "mapping",
                                        "batch",   "context",  NULL};
    lesson_api_check_known(L, 1, "scalelab.serve", known);
    Cluster c;
    Workload w;
    Mapping m;
    lua_getfield(L, 1, "cluster");
    if (lua_isnil(L, -1))
        sandbox_error(L, "scalelab.serve: cluster is missing");
    lesson_api_cluster(L, -1, "cluster", &c);
    lua_getfield(L, 1, "workload");
    lesson_api_workload(L, -1, "workload", &w);
    lua_pop(L, 2);
    ServeLoad load = {opt_int_field(L, 1, "scalelab.serve", "batch", 1, 1, 1000000),
                      opt_int_field(L, 1, "scalelab.serve", "context", w.seq, 1, 100000000)};
    /* the training rules on the global batch do not apply to serving */
    Workload one = w;
    lua_getfield(L, 1, "mapping");
    one.global_batch = c.n_gpus;
    one.micro_batch = 1;
    lesson_api_mapping(L, -1, "mapping", &c, &one, &m);
    lua_pop(L, 1);
    ServeResult r;
    char err[MSG_LEN];
    if (!serve_eval(&c, &w, &m, NULL, load, &r, err, sizeof err))
        return luaL_error(L, "scalelab.serve: %s", err);
    lesson_api_push_serve(L, &r, "r");
    return 1;
}

/* ---- notes ---------------------------------------------------------------- */

static const char NOTE_SINK_KEY[] = "scalelab.note_sink";

void lesson_api_set_note_sink(lua_State *L, const LessonNoteSink *sink)
{
    sink_set(L, NOTE_SINK_KEY, sink);
}

/* Value at idx as a note shows it: as tostring does, but a table shallowly,
 * "{ 1, 2, a = 3, b = {...} }" (its list part, then its names in order). */
static void lua_rawget_name(lua_State *L, int idx, const char *k)
{
    lua_pushstring(L, k);
    lua_rawget(L, idx);
}

/* An entry of a table a note shows: strings quoted, tables not opened. */
static void note_entry(lua_State *L, luaL_Buffer *b)
{
    if (lua_type(L, -1) == LUA_TTABLE)
        lua_pushliteral(L, "{...}");
    else if (lua_type(L, -1) == LUA_TSTRING)
        lua_pushfstring(L, "\"%s\"", lua_tostring(L, -1));
    else
        luaL_tolstring(L, -1, NULL);
    lua_remove(L, -2);
    luaL_addvalue(b);
}

static void note_value(lua_State *L, int idx, luaL_Buffer *b)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE || luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
        if (lua_type(L, idx) == LUA_TTABLE)
            lua_pop(L, 1);
        luaL_tolstring(L, idx, NULL);
        luaL_addvalue(b);
        return;
    }
    luaL_addstring(b, "{");
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    int shown = 0;
    for (lua_Integer i = 1; i <= n && shown < 32; i++, shown++) {
        luaL_addstring(b, shown ? ", " : " ");
        lua_rawgeti(L, idx, i);
        note_entry(L, b);
    }
    const char *names[33];
    int k = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) { /* the stack as it was when it ends: the buffer's rule */
        sandbox_charge(L, 4, "scalelab.note");
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING) {
            int j = k++;
            for (; j > 0 && strcmp(names[j - 1], lua_tostring(L, -1)) > 0; j--)
                names[j] = names[j - 1];
            names[j] = lua_tostring(L, -1); /* a key of the table: the string lives */
        }
        if (k == 32) {
            lua_pop(L, 1);
            break;
        }
    }
    for (int i = 0; i < k; i++, shown++) {
        lua_pushfstring(L, "%s%s = ", shown ? ", " : " ", names[i]);
        luaL_addvalue(b);
        lua_rawget_name(L, idx, names[i]);
        note_entry(L, b);
    }
    luaL_addstring(b, shown ? " }" : "}");
}

/* scalelab.note(fmt, ...) or scalelab.note(value): a line for the author
 * (`scalelab check --notes`, the program's author view), never shown to a
 * learner; recorded with the line of the call. */
static int api_note(lua_State *L)
{
    int n = lua_gettop(L);
    if (n == 0)
        return luaL_error(L, "scalelab.note: give a value, or a format and its values");
    if (n >= 2 && lua_type(L, 1) == LUA_TSTRING) {
        lua_getglobal(L, "string");
        if (lua_type(L, -1) != LUA_TTABLE || lua_getfield(L, -1, "format") != LUA_TFUNCTION)
            return luaL_error(L, "scalelab.note: string.format is gone");
        lua_insert(L, 1);
        lua_pop(L, 1);
        lua_call(L, n, 1);
    } else {
        luaL_Buffer b;
        lua_settop(L, 1);
        luaL_buffinit(L, &b);
        note_value(L, 1, &b);
        luaL_pushresult(&b);
    }
    lua_Debug ar;
    int line = 0; /* of the Lua code that called (past the meter's C wrapper) */
    for (int level = 1; line <= 0 && level < 4 && lua_getstack(L, level, &ar); level++)
        if (lua_getinfo(L, "l", &ar))
            line = ar.currentline;
    const LessonNoteSink *sink = sink_get(L, NOTE_SINK_KEY);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    if (sink && text)
        sink->note(sink->ctx, line, text, len);
    return 0;
}

/* ---- units ------------------------------------------------------------- */

static UnitsKind check_kind(lua_State *L, int arg)
{
    static const char *const names[] = {"bandwidth", "bytes", "time",  "flops",
                                        "count",     "work",  "power", NULL};
    static const UnitsKind kinds[] = {UNITS_BANDWIDTH, UNITS_BYTES, UNITS_TIME, UNITS_FLOPS,
                                      UNITS_COUNT,     UNITS_WORK,  UNITS_POWER};
    return kinds[luaL_checkoption(L, arg, NULL, names)];
}

static int api_units_parse(lua_State *L)
{
    UnitsKind kind = check_kind(L, 1);
    const char *text = luaL_checkstring(L, 2);
    double v;
    char err[MSG_LEN];
    if (!units_parse(kind, text, &v, err, sizeof err))
        return luaL_error(L, "scalelab.units.parse: %s", err);
    lua_pushnumber(L, v);
    return 1;
}

static int api_units_format(lua_State *L)
{
    UnitsKind kind = check_kind(L, 1);
    double v = luaL_checknumber(L, 2);
    bool ascii = lua_toboolean(L, 3);
    char buf[64];
    lua_pushstring(L, units_format(kind, v, ascii, buf, sizeof buf));
    return 1;
}

/* scalelab.units.bits(bytes_per_s) -> "800 Gb/s" */
static int api_units_bits(lua_State *L)
{
    double v = luaL_checknumber(L, 1);
    char buf[64];
    lua_pushstring(L, units_format_bits(v, buf, sizeof buf));
    return 1;
}

static bool fill_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* scalelab.fill(text, values): each {name} (letters, digits, '_') becomes
 * tostring(values[name]); a name without a value is an error at the
 * caller's line. "{" not followed by a name and "}" stays as written. */
static int api_fill(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < len;) {
        size_t j = i + 1;
        while (s[i] == '{' && j < len && fill_name_char(s[j]))
            j++;
        if (s[i] != '{' || j == i + 1 || j >= len || s[j] != '}') {
            luaL_addchar(&b, s[i++]);
            continue;
        }
        lua_pushlstring(L, s + i + 1, j - i - 1); /* the name */
        if (lua_gettable(L, 2) == LUA_TNIL)
            return luaL_error(L, "scalelab.fill: text names {%s} but no value is given",
                              lua_pushlstring(L, s + i + 1, j - i - 1));
        luaL_tolstring(L, -1, NULL);
        lua_remove(L, -2);
        luaL_addvalue(&b);
        i = j + 1;
    }
    luaL_pushresult(&b);
    return 1;
}

/* ---- scenario design helpers ------------------------------------------ */

/* scalelab.moves(verb, from, to): the moves "verb N" that take a degree from
 * `from` to `to` the way the keys do, each press doubling or halving it. */
static int api_moves(lua_State *L)
{
    luaL_checkstring(L, 1);
    lua_Integer from = luaL_checkinteger(L, 2), to = luaL_checkinteger(L, 3);
    lua_Integer lo = from < to ? from : to, hi = from < to ? to : from;
    if (lo < 1 || hi % lo != 0 || ((hi / lo) & (hi / lo - 1)) != 0)
        return luaL_error(L, "scalelab.moves: %I is not %I doubled or halved", to, from);
    lua_newtable(L);
    for (int n = 1; from != to; n++) {
        from = to > from ? from * 2 : from / 2;
        lua_pushfstring(L, "%s %I", lua_tostring(L, 1), from);
        lua_rawseti(L, -2, n);
    }
    return 1;
}

/* Steps charged for each call pair_target makes into cost (the call from C
 * and its result; what cost runs is charged by cost itself). */
#define PAIR_CALL_STEPS 20.0

/* The step time of the set-up setup(a, b) returns (the function at index
 * 8), math.huge when it cannot be built, does not fit in memory or
 * accept(r) (index 9, may be nil) says no: what lessons used to write by
 * hand around pcall(scalelab.step, ...). */
static double pair_setup_cost(lua_State *L, int a, int b)
{
    lua_pushcfunction(L, api_step);
    lua_pushvalue(L, 8);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1); /* the set-up table: an error in setup is the author's */
    if (lua_type(L, -1) != LUA_TTABLE)
        sandbox_error(L,
                      "scalelab.pair_target: setup must return a table { cluster =, workload =, "
                      "mapping = }, not %s",
                      luaL_typename(L, -1));
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) { /* an illegal set-up: no candidate */
        lua_pop(L, 1);
        return HUGE_VAL;
    }
    lua_getfield(L, -1, "fits");
    bool fits = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (fits && !lua_isnil(L, 9)) {
        lua_pushvalue(L, 9);
        lua_pushvalue(L, -2);
        lua_call(L, 1, 1);
        fits = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    lua_getfield(L, -1, "step_s");
    double t = fits ? lua_tonumber(L, -1) : HUGE_VAL;
    lua_pop(L, 2);
    return t;
}

/* cost(a, b) for the function at index 2 (or setup at 8) and the values at
 * indexes a, b. */
static double pair_cost(lua_State *L, int a, int b)
{
    if (lua_isnil(L, 2))
        return pair_setup_cost(L, a, b);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    if (lua_type(L, -1) != LUA_TNUMBER)
        sandbox_error(L,
                      "scalelab.pair_target: cost must return a number (math.huge where "
                      "the set-up fails), not %s",
                      luaL_typename(L, -1));
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* The margin by which the best pair of changes must beat every single
 * change, so that the goal between them needs both. */
#define PAIR_MARGIN 0.97

/* scalelab.pair_target{cost =, a =, b =, start = {a0, b0}}: the best single
 * change (a with b0, or b with a0), the best pair (both changed, first found
 * on ties, a outer), and a target between them, their geometric mean. */
static int api_pair_target(lua_State *L)
{
    static const char *const known[] = {"cost", "setup", "accept", "a", "b", "start", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    lesson_api_check_known(L, 1, "scalelab.pair_target", known);
    lua_settop(L, 1);
    lua_getfield(L, 1, "cost");   /* 2 */
    lua_getfield(L, 1, "a");      /* 3 */
    lua_getfield(L, 1, "b");      /* 4 */
    lua_getfield(L, 1, "start");  /* 5 */
    lua_rawgeti(L, 5, 1);         /* 6: a0 */
    lua_rawgeti(L, 5, 2);         /* 7: b0 */
    lua_getfield(L, 1, "setup");  /* 8 */
    lua_getfield(L, 1, "accept"); /* 9 */
    bool one_way = lua_type(L, 2) == LUA_TFUNCTION
                       ? lua_isnil(L, 8)
                       : lua_isnil(L, 2) && lua_type(L, 8) == LUA_TFUNCTION;
    if (!one_way || lua_type(L, 3) != LUA_TTABLE || lua_type(L, 4) != LUA_TTABLE ||
        lua_type(L, 5) != LUA_TTABLE || (!lua_isnil(L, 9) && lua_type(L, 9) != LUA_TFUNCTION))
        return luaL_error(L, "scalelab.pair_target: needs cost or setup (one function), a and b "
                             "(lists), start ({a, b}), and optionally accept (a function)");
    if (lua_isnil(L, 6) || lua_isnil(L, 7))
        return luaL_error(L, "scalelab.pair_target: start must be {a, b}");
    lua_Integer na = (lua_Integer)lua_rawlen(L, 3), nb = (lua_Integer)lua_rawlen(L, 4);
    /* (na + 1) x (nb + 1) calls from this C loop: charged before it starts. */
    sandbox_charge(L, ((double)na + 1.0) * ((double)nb + 1.0) * PAIR_CALL_STEPS,
                   "scalelab.pair_target");
    double single = HUGE_VAL, pair = HUGE_VAL;
    lua_Integer pa = 0, pb = 0;
    for (lua_Integer j = 1; j <= nb; j++) {
        lua_rawgeti(L, 4, j);
        if (!lua_rawequal(L, -1, 7))
            single = fmin(single, pair_cost(L, 6, lua_gettop(L)));
        lua_pop(L, 1);
    }
    for (lua_Integer i = 1; i <= na; i++) {
        lua_rawgeti(L, 3, i);
        int a = lua_gettop(L);
        if (!lua_rawequal(L, a, 6)) {
            single = fmin(single, pair_cost(L, a, 7));
            for (lua_Integer j = 1; j <= nb; j++) {
                lua_rawgeti(L, 4, j);
                if (!lua_rawequal(L, -1, 7)) {
                    double t = pair_cost(L, a, lua_gettop(L));
                    if (t < pair)
                        pair = t, pa = i, pb = j;
                }
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
    if (pa == 0 || !isfinite(single) || !isfinite(pair))
        return luaL_error(L, "scalelab.pair_target: no single change or no pair of changes has a "
                             "finite cost: re-tune the scenario");
    if (!(pair < single * PAIR_MARGIN))
        return luaL_error(L,
                          "scalelab.pair_target: one change alone (%f) comes within 3%% of the "
                          "best pair (%f): re-tune the scenario",
                          single, pair);
    lua_createtable(L, 0, 5);
    set_num(L, "target", sqrt(single * pair));
    set_num(L, "single", single);
    set_num(L, "pair", pair);
    lua_rawgeti(L, 3, pa);
    lua_setfield(L, -2, "a");
    lua_rawgeti(L, 4, pb);
    lua_setfield(L, -2, "b");
    return 1;
}

/* scalelab.fits_under(r, target_s [, note]): a goal's usual verdict. */
static int api_fits_under(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    double target_s = luaL_checknumber(L, 2);
    const char *note = luaL_optstring(L, 3, NULL);
    lua_getfield(L, 1, "fits");
    lua_getfield(L, 1, "step_s");
    if (lua_type(L, -1) != LUA_TNUMBER)
        return luaL_error(L, "scalelab.fits_under: r.step_s is not a number (give the goal's r)");
    double step_s = lua_tonumber(L, -1);
    if (!lua_toboolean(L, -2) || step_s < target_s) {
        lua_pushboolean(L, lua_toboolean(L, -2) && step_s < target_s);
        return 1; /* not fitting needs no reason: the screen says why */
    }
    char got[32], want[32];
    units_format(UNITS_TIME, step_s, false, got, sizeof got);
    units_format(UNITS_TIME, target_s, false, want, sizeof want);
    lua_pushboolean(L, 0);
    if (note)
        lua_pushfstring(L, "step %s, goal %s; %s", got, want, note);
    else
        lua_pushfstring(L, "step %s, goal %s", got, want);
    return 2;
}

/* Field k of the table at idx as a number; an error names what is missing. */
static double facts_num(lua_State *L, int idx, const char *k)
{
    lua_getfield(L, idx, k);
    if (lua_type(L, -1) != LUA_TNUMBER)
        sandbox_error(L, "scalelab.facts: r has no number %s (give it a goal's or debrief's r)",
                      k);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

static void facts_set(lua_State *L, const char *k, UnitsKind kind, double v)
{
    char buf[32];
    set_str(L, k, units_format(kind, v, false, buf, sizeof buf));
}

/* Pushes field k of the table at idx, which must be a table. */
static int facts_table(lua_State *L, int idx, const char *k)
{
    if (lua_getfield(L, idx, k) != LUA_TTABLE)
        sandbox_error(L, "scalelab.facts: r has no table %s (give it a goal's or debrief's r)", k);
    return lua_gettop(L);
}

/* scalelab.facts(r [, more]): a result as the values a debrief fills in,
 * the entries of `more` added over them. */
static int api_facts(lua_State *L)
{
    static const char *const degrees[] = {"tp", "pp", "dp", "ep", "cp", "mb", NULL};
    static const char *const parts[] = {"compute_s", "tp_s", "pp_s", "bubble_s",
                                        "dp_s",      "ep_s", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    if (!lua_isnoneornil(L, 2))
        luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    int mapping = facts_table(L, 1, "mapping");     /* 3 */
    int cluster = facts_table(L, 1, "cluster");     /* 4 */
    int breakdown = facts_table(L, 1, "breakdown"); /* 5 */
    double step_s = facts_num(L, 1, "step_s");
    lua_newtable(L);
    for (int i = 0; degrees[i]; i++) {
        lua_getfield(L, mapping, degrees[i]);
        lua_setfield(L, -2, degrees[i]);
    }
    lua_getfield(L, cluster, "name");
    lua_setfield(L, -2, "sys");
    lua_getfield(L, cluster, "domain_gpus");
    lua_setfield(L, -2, "d");
    facts_set(L, "step", UNITS_TIME, step_s);
    facts_set(L, "mem", UNITS_BYTES, facts_num(L, 1, "mem_per_gpu_bytes"));
    for (int i = 0; parts[i]; i++)
        facts_set(L, parts[i], UNITS_TIME, facts_num(L, breakdown, parts[i]));
    char pct[32];
    snprintf(pct, sizeof pct, "%.0f%%", 100 * facts_num(L, breakdown, "bubble_s") / step_s);
    set_str(L, "bubble_pct", pct);
    if (lua_istable(L, 2)) {
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            sandbox_charge(L, 4, "scalelab.facts");
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, -4);
        }
    }
    return 1;
}

static int api_units_bits_bytes(lua_State *L)
{
    double v = luaL_checknumber(L, 1);
    char buf[96];
    lua_pushstring(L, units_format_bits_bytes(v, buf, sizeof buf));
    return 1;
}

/* ---- scalelab.cluster objects --------------------------------------------- */

static Cluster *check_cluster(lua_State *L, int arg)
{
    return luaL_checkudata(L, arg, CLUSTER_MT);
}

static int api_cluster(lua_State *L)
{
    Cluster c;
    lesson_api_cluster(L, 1, "scalelab.cluster", &c);
    Cluster *ud = lua_newuserdatauv(L, sizeof *ud, 0);
    *ud = c;
    luaL_setmetatable(L, CLUSTER_MT);
    return 1;
}

static int cluster_m_domain_of(lua_State *L)
{
    const Cluster *c = check_cluster(L, 1);
    lua_Integer g = luaL_checkinteger(L, 2);
    if (g < 0 || g >= c->n_gpus)
        return luaL_error(L, "GPU %I is out of range (0 to %d)", g, c->n_gpus - 1);
    lua_pushinteger(L, cluster_domain_of(c, (int)g));
    return 1;
}

static int cluster_m_site_of(lua_State *L)
{
    const Cluster *c = check_cluster(L, 1);
    lua_Integer g = luaL_checkinteger(L, 2);
    if (g < 0 || g >= c->n_gpus)
        return luaL_error(L, "GPU %I is out of range (0 to %d)", g, c->n_gpus - 1);
    lua_pushinteger(L, cluster_site_of(c, (int)g));
    return 1;
}

static int cluster_m_domains(lua_State *L)
{
    lua_pushinteger(L, cluster_domain_count(check_cluster(L, 1)));
    return 1;
}

static int cluster_m_leaves(lua_State *L)
{
    lua_pushinteger(L, cluster_leaf_count(check_cluster(L, 1)));
    return 1;
}

static int cluster_m_spines(lua_State *L)
{
    lua_pushinteger(L, cluster_spine_count(check_cluster(L, 1)));
    return 1;
}

/* Read-only fields: c.gpus, c.domain_gpus, c.up_bytes_per_s, ...; methods
 * come from the table in upvalue 1, whose C functions are metered
 * (lesson_api_open): a method handed out raw could be given to C code that
 * calls it in a loop no hook sees. */
static int cluster_index(lua_State *L)
{
    const Cluster *c = check_cluster(L, 1);
    const char *k = luaL_checkstring(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TFUNCTION)
        return 1;
    lua_pop(L, 1);
    if (strcmp(k, "system") == 0)
        lua_pushstring(L, c->system_id);
    else if (strcmp(k, "name") == 0)
        lua_pushstring(L, c->name);
    else if (strcmp(k, "gpus") == 0)
        lua_pushinteger(L, c->n_gpus);
    else if (strcmp(k, "domain_gpus") == 0)
        lua_pushinteger(L, c->domain_gpus);
    else if (strcmp(k, "up_bytes_per_s") == 0)
        lua_pushnumber(L, c->up_bytes_per_s);
    else if (strcmp(k, "out_bytes_per_s") == 0)
        lua_pushnumber(L, c->out_bytes_per_s);
    else if (strcmp(k, "across_bytes_per_s") == 0)
        lua_pushnumber(L, c->across_bytes_per_s);
    else if (strcmp(k, "oversub") == 0)
        lua_pushnumber(L, c->oversub);
    else if (strcmp(k, "rails") == 0)
        lua_pushboolean(L, cluster_rail_unit_gpus(c) > 0);
    else if (strcmp(k, "sites") == 0)
        lua_pushinteger(L, c->sites);
    else if (strcmp(k, "gpu") == 0)
        push_gpu(L, &c->gpu);
    else if (strcmp(k, "noun") == 0)
        lua_pushstring(L, hw_noun(&c->gpu, 0));
    else if (strcmp(k, "nouns") == 0)
        lua_pushstring(L, hw_noun(&c->gpu, HW_NOUN_MANY));
    else if (strcmp(k, "up_link") == 0)
        lua_pushstring(L, c->up_link);
    else if (strcmp(k, "out_link") == 0)
        lua_pushstring(L, c->out_link);
    else
        return luaL_error(L, "scalelab.cluster has no field '%s'", k);
    return 1;
}

static int cluster_newindex(lua_State *L)
{
    check_cluster(L, 1);
    return luaL_error(L, "scalelab.cluster objects are read-only: build a new one with "
                         "scalelab.cluster{...}");
}

static int cluster_tostring(lua_State *L)
{
    const Cluster *c = check_cluster(L, 1);
    lua_pushfstring(L, "scalelab.cluster(%s, %d %s, domains of %d)", c->system_id, c->n_gpus,
                    hw_noun(&c->gpu, HW_NOUN_MANY), c->domain_gpus);
    return 1;
}

/* ---- page helpers ------------------------------------------------------- */

/* scalelab.diagram(view, t) -> t with kind = "diagram", view = view. */
static int api_page(lua_State *L, const char *kind)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_pushstring(L, kind);
    lua_setfield(L, 1, "kind");
    return 1;
}

static int api_diagram(lua_State *L)
{
    const char *view = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lua_pushstring(L, view);
    lua_setfield(L, 2, "view");
    lua_pushliteral(L, "diagram");
    lua_setfield(L, 2, "kind");
    return 1;
}

static int api_text_page(lua_State *L)
{
    return api_page(L, "text");
}
static int api_quiz_page(lua_State *L)
{
    return api_page(L, "quiz");
}
static int api_scenario_page(lua_State *L)
{
    return api_page(L, "scenario");
}
static int api_compare_page(lua_State *L)
{
    return api_page(L, "compare");
}
static int api_predict_page(lua_State *L)
{
    return api_page(L, "predict");
}

/* The metatable of scalelab.cluster objects. Every C function in it, and
 * every method, is metered like the library's own (sandbox_meter_table):
 * the VM calls metamethods with no hook in between, and a lesson can hold
 * a method as a value. A new kind of API object does the same. */
static void open_cluster_type(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"domain_of", cluster_m_domain_of}, {"site_of", cluster_m_site_of},
        {"domains", cluster_m_domains},     {"leaves", cluster_m_leaves},
        {"spines", cluster_m_spines},       {NULL, NULL},
    };
    luaL_newmetatable(L, CLUSTER_MT);
    luaL_newlib(L, methods);
    sandbox_meter_table(L, -1, CLUSTER_MT);
    lua_pushcclosure(L, cluster_index, 1);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, cluster_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, cluster_tostring);
    lua_setfield(L, -2, "__tostring");
    sandbox_meter_table(L, -1, CLUSTER_MT);
    lua_pushliteral(L, CLUSTER_MT);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

void lesson_api_open(lua_State *L)
{
    open_cluster_type(L);

    static const luaL_Reg api[] = {
        {"gpu", api_gpu},
        {"system", api_system},
        {"model", api_model},
        {"gpus", api_gpus},
        {"systems", api_systems},
        {"models", api_models},
        {"cluster", api_cluster},
        {"step", api_step},
        {"serve", api_serve},
        {"presses", api_presses},
        {"diagram", api_diagram},
        {"text_page", api_text_page},
        {"quiz", api_quiz_page},
        {"scenario", api_scenario_page},
        {"compare", api_compare_page},
        {"predict", api_predict_page},
        {"fill", api_fill},
        {"moves", api_moves},
        {"pair_target", api_pair_target},
        {"fits_under", api_fits_under},
        {"facts", api_facts},
        {"note", api_note},
        {NULL, NULL},
    };
    luaL_newlib(L, api);
    static const luaL_Reg units[] = {
        {"parse", api_units_parse},
        {"format", api_units_format},
        {"bits_bytes", api_units_bits_bytes},
        {"bits", api_units_bits},
        {NULL, NULL},
    };
    luaL_newlib(L, units);
    lua_setfield(L, -2, "units");
    lua_pushglobaltable(L);
    lua_insert(L, -2);
    lua_setfield(L, -2, "scalelab");
    lua_pop(L, 1);
}

/* ---- clusters, workloads and mappings on the wire ------------------------ */

/* A cluster a lesson makes is a system preset with these fields set
 * (lesson_api_cluster), so they are all that crosses from the lesson host:
 * the parent builds the cluster again from them with the model's own code
 * and checks, and nothing the host sends can be a cluster the model would
 * not make. A field lesson_api_cluster sets must be here too; the transport
 * test (test_lesson) compares every byte of every shipped lesson's pages. */
static void cluster_put(Wire *w, const void *value)
{
    const Cluster *c = value;
    wire_u8(w, c->system_id[0] != '\0');
    if (!c->system_id[0])
        return; /* a page without a cluster */
    wire_str(w, c->system_id);
    wire_i32(w, c->n_gpus);
    wire_i32(w, c->domain_gpus);
    wire_i32(w, c->sites);
    wire_i32(w, c->gpus_per_leaf);
    wire_u8(w, c->rail_optimized);
    wire_f64(w, c->up_bytes_per_s);
    wire_f64(w, c->out_bytes_per_s);
    wire_f64(w, c->across_bytes_per_s);
    wire_f64(w, c->oversub);
    wire_f64(w, c->across_lat_s);
    wire_i32(w, c->machine_gpus); /* the machine around the job (read_machine) */
    wire_i32(w, c->n_down);
    for (int i = 0; i < c->n_down; i++) {
        wire_i32(w, c->down[i].first);
        wire_i32(w, c->down[i].count);
        wire_i32(w, (int)c->down[i].state);
    }
    wire_i32(w, c->n_runs);
    for (int i = 0; i < c->n_runs; i++) {
        wire_i32(w, c->runs[i].domains);
        wire_i32(w, c->runs[i].gpus);
    }
}

static bool cluster_get(WireIn *r, void *value)
{
    Cluster *out = value;
    memset(out, 0, sizeof *out);
    if (!wire_get_u8(r, 1))
        return wire_ok(r);
    char *sys = wire_get_str(r, sizeof out->system_id - 1, NULL);
    Cluster c;
    int gpus = wire_get_i32(r, 1, CLUSTER_MAX_GPUS);
    char err[MSG_LEN];
    bool ok = sys && wire_ok(r) && cluster_from_system(&c, sys, gpus, err, sizeof err);
    free(sys);
    if (!ok)
        return false;
    c.domain_gpus = wire_get_i32(r, 1, CLUSTER_MAX_GPUS);
    c.sites = wire_get_i32(r, 1, 1000);
    c.gpus_per_leaf = wire_get_i32(r, 1, CLUSTER_MAX_GPUS);
    c.rail_optimized = wire_get_u8(r, 1) != 0;
    c.up_bytes_per_s = wire_get_f64(r, DBL_MIN, DBL_MAX);
    c.out_bytes_per_s = wire_get_f64(r, DBL_MIN, DBL_MAX);
    c.across_bytes_per_s = wire_get_f64(r, 0, DBL_MAX);
    c.oversub = wire_get_f64(r, 1, DBL_MAX);
    c.across_lat_s = wire_get_f64(r, 0, DBL_MAX);
    c.machine_gpus = wire_get_i32(r, 0, CLUSTER_MAX_GPUS);
    c.n_down = wire_get_i32(r, 0, CLUSTER_DOWN_MAX);
    for (int i = 0; i < c.n_down && wire_ok(r); i++) {
        c.down[i].first = wire_get_i32(r, 0, CLUSTER_MAX_GPUS);
        c.down[i].count = wire_get_i32(r, 1, CLUSTER_MAX_GPUS);
        c.down[i].state = (ClusterGpuState)wire_get_i32(r, CLUSTER_GPU_FAILED, CLUSTER_GPU_BUSY);
    }
    c.n_runs = wire_get_i32(r, 0, CLUSTER_RUNS_MAX);
    for (int i = 0; i < c.n_runs && wire_ok(r); i++) {
        c.runs[i].domains = wire_get_i32(r, 1, CLUSTER_MAX_GPUS);
        c.runs[i].gpus = wire_get_i32(r, 1, CLUSTER_MAX_GPUS);
    }
    /* cluster_check holds the machine together: down ranges inside it and
     * apart, runs that add up, enough usable GPUs for the job. */
    if (!wire_ok(r) || (c.sites > 1 && !(c.across_bytes_per_s > 0)) ||
        !cluster_check(&c, err, sizeof err))
        return false;
    *out = c;
    return true;
}

/* A workload is a preset with these fields set (lesson_api_workload),
 * each an int, an enum or a bool, and the range the parent's side accepts;
 * built again the same way there. One list for both directions. */
#define WIRE_BIG (1 << 30)
#define WL_WIRE(f, lo, hi)                                                                        \
    {                                                                                             \
        offsetof(Workload, f), sizeof(((Workload *)0)->f), lo, hi                                 \
    }
static const struct {
    size_t off, size;
    int lo, hi;
} workload_wire[] = {
    WL_WIRE(global_batch, 1, WIRE_BIG),
    WL_WIRE(micro_batch, 1, WIRE_BIG),
    WL_WIRE(seq, 1, WIRE_BIG),
    WL_WIRE(layers, 1, 100000),
    WL_WIRE(hidden, 1, WIRE_BIG),
    WL_WIRE(heads, 1, WIRE_BIG),
    WL_WIRE(kv_heads, 1, WIRE_BIG),
    WL_WIRE(ffn, 1, WIRE_BIG),
    WL_WIRE(vocab, 1, WIRE_BIG),
    WL_WIRE(experts, 0, 100000),
    WL_WIRE(topk, 0, 100000),
    WL_WIRE(recompute, WL_RECOMPUTE_NONE, WL_RECOMPUTE_FULL),
    WL_WIRE(precision, WL_BF16, WL_FP8),
    WL_WIRE(head_dim, 0, 65536),
    WL_WIRE(window, 0, 1 << 24),
    WL_WIRE(global_every, 0, 100000),
    WL_WIRE(framework, WL_FW_AUTO, WL_FW_COUNT - 1),
    WL_WIRE(seq_parallel, WL_AUTO, WL_OFF),
    WL_WIRE(tp_overlap, WL_AUTO, WL_OFF),
    WL_WIRE(pp_overlap, WL_AUTO, WL_OFF),
    WL_WIRE(dp_overlap, WL_AUTO, WL_OFF),
    WL_WIRE(ep_overlap, WL_AUTO, WL_OFF),
    WL_WIRE(ep_dualpipe, 0, 1),
    WL_WIRE(ep_dedup, WL_AUTO, WL_OFF),
    WL_WIRE(cuda_graphs, WL_GRAPHS_NONE, WL_GRAPHS_FULL),
    WL_WIRE(offload, 0, WL_OFFLOAD_OPTIMIZER | WL_OFFLOAD_WEIGHTS | WL_OFFLOAD_ACTIVATIONS),
    WL_WIRE(offload_layers, 0, 100000),
};
#undef WL_WIRE
/* the fields are read and written as an int or as a bool */
_Static_assert(sizeof(WlRecompute) == sizeof(int) && sizeof(WlPrecision) == sizeof(int) &&
                   sizeof(WlFramework) == sizeof(int) && sizeof(WlSwitch) == sizeof(int) &&
                   sizeof(WlGraphs) == sizeof(int),
               "workload enums are int-sized");
#define WL_WIRE_COUNT (sizeof workload_wire / sizeof workload_wire[0])

static int wire_field(const Workload *x, size_t i)
{
    const char *at = (const char *)x + workload_wire[i].off;
    if (workload_wire[i].size == sizeof(bool)) {
        bool b;
        memcpy(&b, at, sizeof b);
        return b;
    }
    int v;
    memcpy(&v, at, sizeof v);
    return v;
}

static void wire_field_set(Workload *x, size_t i, int v)
{
    char *at = (char *)x + workload_wire[i].off;
    if (workload_wire[i].size == sizeof(bool)) {
        bool b = v != 0;
        memcpy(at, &b, sizeof b);
    } else {
        memcpy(at, &v, sizeof v);
    }
}

static void workload_put(Wire *w, const void *value)
{
    const Workload *x = value;
    wire_u8(w, x->id[0] != '\0');
    if (!x->id[0])
        return;
    wire_str(w, x->id);
    for (size_t i = 0; i < WL_WIRE_COUNT; i++)
        wire_i32(w, wire_field(x, i));
}

static bool workload_get(WireIn *r, void *value)
{
    Workload *out = value;
    memset(out, 0, sizeof *out);
    if (!wire_get_u8(r, 1))
        return wire_ok(r);
    char *id = wire_get_str(r, sizeof out->id - 1, NULL);
    const WorkloadPreset *p = id ? workload_preset_find(id) : NULL;
    free(id);
    if (!p)
        return false;
    Workload w = p->w;
    for (size_t i = 0; i < WL_WIRE_COUNT; i++)
        wire_field_set(&w, i, wire_get_i32(r, workload_wire[i].lo, workload_wire[i].hi));
    if (w.layers != p->w.layers || w.hidden != p->w.hidden)
        w.params = 0; /* derived from the new shape, as lesson_api_workload does */
    char err[MSG_LEN];
    if (!wire_ok(r) || !workload_check(&w, err, sizeof err))
        return false;
    *out = w;
    return true;
}

/* A mapping is its eight degrees, each in range here; whether they fit the
 * page's cluster and workload is the page's check (lesson.c). */
static void mapping_put(Wire *w, const void *value)
{
    const Mapping *m = value;
    const int v[] = {m->tp, m->cp, m->pp, m->dp, m->ep, m->interleave, m->zero, m->etp};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        wire_i32(w, v[i]);
}

static bool mapping_get(WireIn *r, void *value)
{
    Mapping *m = value;
    const int big = CLUSTER_MAX_GPUS;
    m->tp = wire_get_i32(r, 0, big);
    m->cp = wire_get_i32(r, 0, big);
    m->pp = wire_get_i32(r, 0, big);
    m->dp = wire_get_i32(r, 0, big);
    m->ep = wire_get_i32(r, 0, big);
    m->interleave = wire_get_i32(r, 0, 1000);
    m->zero = wire_get_i32(r, 0, 3);
    m->etp = wire_get_i32(r, 0, big);
    return wire_ok(r);
}

const WireCodec lesson_api_cluster_codec = {cluster_put, cluster_get};
const WireCodec lesson_api_workload_codec = {workload_put, workload_get};
const WireCodec lesson_api_mapping_codec = {mapping_put, mapping_get};
