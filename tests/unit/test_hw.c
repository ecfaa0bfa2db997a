/* SPDX-License-Identifier: MIT */
/* test_hw — the hardware presets: the published figures (MODEL-FACTS.md), the
 * per-direction conversions, and agreement, field by field, between the
 * compiled-in tables and assets/presets.lua (which lessons read). The Lua
 * file is run in a plain lua_State: tests are not under src/, so the layer
 * rule (only src/lesson includes Lua) does not apply here. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "testlib.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/hw.h"
#include "model/workload.h"

#define PRESETS_LUA "assets/presets.lua"

static void test_hw_every_named_preset_exists(void **state)
{
    (void)state;
    const char *gpu_ids[] = {"a100-sxm", "h100-sxm", "h800",    "h200",   "h100-pcie",
                             "h100-nvl", "h20",      "b200",    "b300",   "gb200",
                             "gb300",    "rubin",    "mi300x",  "mi325x", "mi355x",
                             "mi455x",   "tpu-v5p",  "tpu-v6e", "tpu7x",  "trn2"};
    const char *sys_ids[] = {
        "dgx-a100",         "dgx-h100", "hgx-h200",      "dgx-b200", "gb200-nvl72",
        "gb300-nvl72",      "tpu-v5p",  "ethernet-100g", "dgx-h800", "dgx-b300",
        "vera-rubin-nvl72", "mi355x",   "amd-helios",    "tpu-v6e",  "tpu7x",
        "trn2-ultraserver", "hgx-h20",  "pcie-h100",     "mi300x",   "mi325x"};
    for (size_t i = 0; i < sizeof gpu_ids / sizeof gpu_ids[0]; i++) {
        const GpuSpec *g = hw_gpu_find(gpu_ids[i]);
        assert_non_null(g);
        assert_string_equal(g->id, gpu_ids[i]);
    }
    for (size_t i = 0; i < sizeof sys_ids / sizeof sys_ids[0]; i++) {
        const SystemSpec *s = hw_system_find(sys_ids[i]);
        assert_non_null(s);
        assert_non_null(hw_gpu_find(s->gpu_id)); /* every system names a known GPU */
    }
    assert_int_equal(hw_gpu_count(), 20);
    assert_int_equal(hw_system_count(), 20);
    assert_null(hw_gpu_find("h100"));
    assert_null(hw_gpu_find(NULL));
    assert_null(hw_system_find("DGX-H100")); /* ids are exact */
    assert_null(hw_system_at(-1));
    assert_null(hw_system_at(20));
    assert_null(hw_gpu_at(20));
}

static void test_hw_figures_per_direction(void **state)
{
    (void)state;
    const SystemSpec *a = hw_system_find("dgx-a100");
    const SystemSpec *h = hw_system_find("dgx-h100");
    const SystemSpec *b = hw_system_find("dgx-b200");
    const SystemSpec *g2 = hw_system_find("gb200-nvl72");
    const SystemSpec *g3 = hw_system_find("gb300-nvl72");
    const SystemSpec *e = hw_system_find("ethernet-100g");
    /* NVLink 3: 600 GB/s bidir / 2 = 300 GB/s; HDR 200 Gb/s / 8 = 25 GB/s */
    NEAR(a->up_bytes_per_s, 300e9, 1e-12);
    NEAR(a->out_bytes_per_s, 25e9, 1e-12);
    assert_int_equal(a->domain_gpus, 8);
    /* NVLink 4: 900 / 2 = 450 GB/s; NDR 400 Gb/s / 8 = 50 GB/s */
    NEAR(h->up_bytes_per_s, 450e9, 1e-12);
    NEAR(h->out_bytes_per_s, 50e9, 1e-12);
    /* NVLink 5: 1.8 TB/s / 2 = 900 GB/s */
    NEAR(b->up_bytes_per_s, 900e9, 1e-12);
    NEAR(b->out_bytes_per_s, 50e9, 1e-12);
    assert_int_equal(b->domain_gpus, 8);
    NEAR(g2->up_bytes_per_s, 900e9, 1e-12);
    assert_int_equal(g2->domain_gpus, 72);
    /* 72 GPUs x 1.8 TB/s (both directions) = 129.6 TB/s, NVIDIA's "130 TB/s" within 0.5% */
    NEAR(72 * 2 * g2->up_bytes_per_s, 130e12, 0.005); /* the NVL72 domain */
    NEAR(g2->out_bytes_per_s, 50e9, 1e-12);           /* 400 Gb/s / 8 */
    NEAR(g3->out_bytes_per_s, 100e9, 1e-12);          /* 800 Gb/s / 8 */
    NEAR(e->out_bytes_per_s, 12.5e9, 1e-12);          /* 100 Gb/s / 8 */
    /* racks of ~120-135 kW, liquid cooled */
    assert_in_range((long)g2->domain_power_w, 120000, 135000);
    assert_in_range((long)g3->domain_power_w, 120000, 135000);
    assert_string_equal(g2->cooling, "liquid");
    /* H100 dense BF16: 1,979 sparse / 2 = 989.5 TFLOP/s */
    NEAR(hw_gpu_find("h100-sxm")->bf16_flops, 989.5e12, 1e-12);
    /* GB200 and GB300: 2,450 TF BF16 dense in NVIDIA's own tables (not 2.5) */
    NEAR(hw_gpu_find("gb200")->bf16_flops, 2.45e15, 1e-12);
    NEAR(hw_gpu_find("gb300")->bf16_flops, 2.45e15, 1e-12);
    /* "80 GB" A100 and H100 are 80 GiB */
    NEAR(hw_gpu_find("a100-sxm")->hbm_bytes, 85899345920.0, 1e-12);
    NEAR(hw_gpu_find("h100-sxm")->hbm_bytes, 85899345920.0, 1e-12);
    /* TPU v5p: a slice of up to 16x16x24 = 6,144 chips is one ICI domain
     * (OCS-joined cubes), 1,200 GB/s bidir / 2; DCN (50 Gb/s) only between */
    const SystemSpec *t = hw_system_find("tpu-v5p");
    assert_int_equal(t->domain_gpus, 6144);
    assert_int_equal(t->domain_gpus, t->torus[0] * t->torus[1] * t->torus[2]);
    assert_int_equal(t->up_kind, HW_UP_TORUS);
    NEAR(t->up_bytes_per_s, 600e9, 1e-12);
    NEAR(t->out_bytes_per_s, 50e9 / 8, 1e-12);
    /* TPU7x Ironwood: a 9,216-chip pod on ICI */
    assert_int_equal(hw_system_find("tpu7x")->domain_gpus, 9216);
    /* A100 has no FP8; TPUs and Trainium are chips, NVIDIA and AMD parts GPUs */
    assert_true(hw_gpu_find("a100-sxm")->fp8_flops == 0);
    assert_string_equal(hw_gpu_find("tpu-v5p")->noun, "chip");
    assert_string_equal(hw_gpu_find("trn2")->noun, "chip");
    assert_string_equal(hw_gpu_find("mi355x")->noun, "GPU");
    /* the forms text uses; an unknown noun or no GPU reads as GPU */
    const GpuSpec *tpu = hw_gpu_find("tpu-v5p"), *h100 = hw_gpu_find("h100-sxm");
    assert_string_equal(hw_noun(tpu, 0), "chip");
    assert_string_equal(hw_noun(tpu, HW_NOUN_MANY), "chips");
    assert_string_equal(hw_noun(tpu, HW_NOUN_CAP), "Chip");
    assert_string_equal(hw_noun(tpu, HW_NOUN_MANY | HW_NOUN_CAP), "Chips");
    assert_string_equal(hw_noun(h100, HW_NOUN_MANY), "GPUs");
    assert_string_equal(hw_noun(h100, HW_NOUN_MANY | HW_NOUN_CAP), "GPUs");
    assert_string_equal(hw_noun(NULL, HW_NOUN_MANY), "GPUs");
    GpuSpec odd = {.noun = "widget"};
    assert_string_equal(hw_noun(&odd, 0), "GPU");
    /* every preset's noun is one the forms table knows */
    for (int i = 0; i < hw_gpu_count(); i++)
        assert_string_equal(hw_noun(hw_gpu_at(i), 0), hw_gpu_at(i)->noun);
    /* Vera Rubin NVL72: NVLink 6, 3.6 TB/s bidir per GPU */
    NEAR(hw_system_find("vera-rubin-nvl72")->up_bytes_per_s, 1.8e12, 1e-12);
}

static void test_hw_every_figure_is_sane(void **state)
{
    (void)state;
    for (int i = 0; i < hw_system_count(); i++) {
        const SystemSpec *s = hw_system_at(i);
        assert_true(s->domain_gpus >= 1);
        assert_true(s->default_gpus >= s->domain_gpus);
        assert_true(s->up_bytes_per_s > s->out_bytes_per_s); /* scale-up is the fast tier */
        assert_true(s->up_lat_s > 0 && s->up_lat_s < s->out_lat_s + 1e-12);
        assert_true(s->oversub >= 1);
        assert_true(s->gpus_per_leaf >= 1);
        assert_true(strlen(s->summary) > 0 && strlen(s->summary) < 80);
        /* the host path is slower than scale-up and holds no more than a node's DRAM */
        assert_non_null(s->host_link);
        assert_true(s->host_bytes_per_s > 0 && s->host_bytes_per_s < s->up_bytes_per_s);
        assert_true(s->host_mem_bytes >= 0 && s->host_mem_bytes <= 2e12);
    }
    /* every accelerator names an architecture the kernel model knows and has
     * units to spread its tiles over; a board power, where given, is a
     * plausible one (the peak is quoted at it) */
    for (int i = 0; i < hw_gpu_count(); i++) {
        const GpuSpec *g = hw_gpu_at(i);
        assert_non_null(g->arch);
        assert_true(g->sms >= 1 && g->sms <= 1024);
        assert_true(g->tdp_w == 0 || (g->tdp_w >= 300 && g->tdp_w <= 2000));
    }
    /* H100 PCIe: 756.5 TF dense, 114 SMs, 350 W; H100 NVL: 94 GB at 3.9 TB/s */
    NEAR(hw_gpu_find("h100-pcie")->bf16_flops, 756.5e12, 1e-12);
    assert_int_equal(hw_gpu_find("h100-pcie")->sms, 114);
    NEAR(hw_gpu_find("h100-nvl")->hbm_bytes_per_s, 3.9e12, 1e-12);
    /* GB200: NVLink-C2C 900 GB/s bidir per Grace, 2 GPUs each: 225 GB/s per GPU each way */
    NEAR(hw_system_find("gb200-nvl72")->host_bytes_per_s, 225e9, 1e-12);
}

/* --- agreement with assets/presets.lua ---------------------------------- */

static lua_State *load_presets(void)
{
    /* cwd is the repository root (scripts/run-unit-tests); SCALELAB_ASSETS
     * points elsewhere when set, as for the program */
    char path[512];
    const char *dir = getenv("SCALELAB_ASSETS");
    if (dir && *dir)
        snprintf(path, sizeof path, "%s/presets.lua", dir);
    else
        snprintf(path, sizeof path, "%s", PRESETS_LUA);
    lua_State *L = luaL_newstate();
    assert_non_null(L);
    luaL_openlibs(L);
    if (luaL_dofile(L, path) != LUA_OK) {
        print_error("%s: %s\n", PRESETS_LUA, lua_tostring(L, -1));
        lua_close(L);
        fail();
    }
    assert_true(lua_istable(L, -1));
    return L;
}

/* Pushes the entry of list `field` (of the table at the top) whose id is id,
 * or fails. */
static void push_entry(lua_State *L, const char *field, const char *id)
{
    lua_getfield(L, -1, field);
    assert_true(lua_istable(L, -1));
    lua_Integer n = luaL_len(L, -1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        lua_getfield(L, -1, "id");
        const char *s = lua_tostring(L, -1);
        bool match = s && strcmp(s, id) == 0;
        lua_pop(L, 1);
        if (match) {
            lua_remove(L, -2);
            return;
        }
        lua_pop(L, 1);
    }
    print_error("%s: %s has no entry '%s'\n", PRESETS_LUA, field, id);
    fail();
}

static lua_Integer list_len(lua_State *L, const char *field)
{
    lua_getfield(L, -1, field);
    assert_true(lua_istable(L, -1));
    lua_Integer n = luaL_len(L, -1);
    lua_pop(L, 1);
    return n;
}

static void lua_num(lua_State *L, const char *id, const char *key, double want)
{
    lua_getfield(L, -1, key);
    int isnum = 0;
    double got = lua_tonumberx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || !(fabs(got - want) <= 1e-12 * fabs(want))) {
        print_error("%s: %s.%s = %.17g in Lua, %.17g in C\n", PRESETS_LUA, id, key, got, want);
        fail();
    }
}

/* A field Lua may leave out, meaning 0 (GpuSpec.dense_clock). */
static void lua_num_opt(lua_State *L, const char *id, const char *key, double want)
{
    lua_getfield(L, -1, key);
    bool absent = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (absent && want != 0) {
        print_error("%s: %s.%s is missing in Lua, %.17g in C\n", PRESETS_LUA, id, key, want);
        fail();
    } else if (!absent) {
        lua_num(L, id, key, want);
    }
}

static void lua_str(lua_State *L, const char *id, const char *key, const char *want)
{
    lua_getfield(L, -1, key);
    const char *got = lua_tostring(L, -1);
    bool ok = got && want && strcmp(got, want) == 0;
    if (!ok) {
        print_error("%s: %s.%s = '%s' in Lua, '%s' in C\n", PRESETS_LUA, id, key,
                    got ? got : "(nil)", want ? want : "(null)");
        lua_pop(L, 1);
        fail();
    }
    lua_pop(L, 1);
}

static void lua_bool(lua_State *L, const char *id, const char *key, bool want)
{
    lua_getfield(L, -1, key);
    bool got = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (got != want) {
        print_error("%s: %s.%s = %d in Lua, %d in C\n", PRESETS_LUA, id, key, got, want);
        fail();
    }
}

static void test_hw_lua_gpus_agree(void **state)
{
    (void)state;
    lua_State *L = load_presets();
    assert_int_equal(list_len(L, "gpus"), hw_gpu_count());
    for (int i = 0; i < hw_gpu_count(); i++) {
        const GpuSpec *g = hw_gpu_at(i);
        push_entry(L, "gpus", g->id);
        lua_str(L, g->id, "name", g->name);
        lua_str(L, g->id, "noun", g->noun);
        lua_num(L, g->id, "bf16_flops", g->bf16_flops);
        lua_num(L, g->id, "fp8_flops", g->fp8_flops);
        lua_num(L, g->id, "hbm_bytes", g->hbm_bytes);
        lua_num(L, g->id, "hbm_bytes_per_s", g->hbm_bytes_per_s);
        lua_str(L, g->id, "arch", g->arch);
        lua_num(L, g->id, "sms", g->sms);
        lua_num(L, g->id, "tdp_w", g->tdp_w);
        lua_num_opt(L, g->id, "dense_clock", g->dense_clock);
        lua_pop(L, 1);
    }
    lua_close(L);
}

static void test_hw_lua_systems_agree(void **state)
{
    (void)state;
    lua_State *L = load_presets();
    assert_int_equal(list_len(L, "systems"), hw_system_count());
    for (int i = 0; i < hw_system_count(); i++) {
        const SystemSpec *s = hw_system_at(i);
        push_entry(L, "systems", s->id);
        lua_str(L, s->id, "name", s->name);
        lua_str(L, s->id, "gpu_id", s->gpu_id);
        lua_num(L, s->id, "domain_gpus", s->domain_gpus);
        lua_num(L, s->id, "default_gpus", s->default_gpus);
        lua_str(L, s->id, "up_kind", s->up_kind == HW_UP_TORUS ? "torus" : "switched");
        lua_str(L, s->id, "up_link", s->up_link);
        lua_num(L, s->id, "up_bytes_per_s", s->up_bytes_per_s);
        lua_num(L, s->id, "up_lat_s", s->up_lat_s);
        lua_num(L, s->id, "up_switches", s->up_switches);
        lua_getfield(L, -1, "torus");
        assert_true(lua_istable(L, -1));
        for (int k = 0; k < 3; k++) {
            lua_geti(L, -1, k + 1);
            if (lua_tointeger(L, -1) != s->torus[k]) {
                print_error("%s: %s.torus[%d] differs\n", PRESETS_LUA, s->id, k + 1);
                fail();
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        lua_str(L, s->id, "out_link", s->out_link);
        lua_num(L, s->id, "out_bytes_per_s", s->out_bytes_per_s);
        lua_num(L, s->id, "out_lat_s", s->out_lat_s);
        lua_num(L, s->id, "oversub", s->oversub);
        lua_num(L, s->id, "gpus_per_leaf", s->gpus_per_leaf);
        lua_bool(L, s->id, "rail_optimized", s->rail_optimized);
        lua_num(L, s->id, "domain_power_w", s->domain_power_w);
        lua_str(L, s->id, "host_link", s->host_link);
        lua_num(L, s->id, "host_bytes_per_s", s->host_bytes_per_s);
        lua_num(L, s->id, "host_mem_bytes", s->host_mem_bytes);
        lua_str(L, s->id, "cooling", s->cooling);
        lua_str(L, s->id, "summary", s->summary);
        lua_pop(L, 1);
    }
    lua_close(L);
}

static const char *recompute_name(WlRecompute r)
{
    return r == WL_RECOMPUTE_FULL ? "full" : r == WL_RECOMPUTE_SELECTIVE ? "selective" : "none";
}

static void test_hw_lua_workloads_agree(void **state)
{
    (void)state;
    lua_State *L = load_presets();
    assert_int_equal(list_len(L, "workloads"), workload_preset_count());
    for (int i = 0; i < workload_preset_count(); i++) {
        const WorkloadPreset *p = workload_preset_at(i);
        const Workload *w = &p->w;
        push_entry(L, "workloads", p->id);
        lua_str(L, p->id, "name", p->name);
        lua_str(L, p->id, "source", p->source);
        lua_num(L, p->id, "layers", w->layers);
        lua_num(L, p->id, "hidden", w->hidden);
        lua_num(L, p->id, "heads", w->heads);
        lua_num(L, p->id, "kv_heads", w->kv_heads);
        lua_num(L, p->id, "ffn", w->ffn);
        if (w->head_dim > 0)
            lua_num(L, p->id, "head_dim", w->head_dim);
        if (w->v_head_dim > 0)
            lua_num(L, p->id, "v_head_dim", w->v_head_dim);
        if (w->kv_lora > 0) {
            lua_num(L, p->id, "q_lora", w->q_lora);
            lua_num(L, p->id, "kv_lora", w->kv_lora);
        }
        lua_bool(L, p->id, "swiglu", w->swiglu);
        lua_num(L, p->id, "seq", w->seq);
        lua_num(L, p->id, "vocab", w->vocab);
        if (w->params > 0)
            lua_num(L, p->id, "params", w->params);
        lua_num(L, p->id, "global_batch", w->global_batch);
        lua_num(L, p->id, "micro_batch", w->micro_batch);
        if (workload_is_moe(w)) {
            lua_num(L, p->id, "experts", w->experts);
            lua_num(L, p->id, "topk", w->topk);
            lua_num(L, p->id, "shared_experts", w->shared_experts);
            lua_num(L, p->id, "moe_layers", w->moe_layers);
            lua_num(L, p->id, "dense_ffn", w->dense_ffn);
        }
        lua_bool(L, p->id, "flash_attention", w->flash_attention);
        lua_str(L, p->id, "recompute", recompute_name(w->recompute));
        lua_str(L, p->id, "precision", w->precision == WL_FP8 ? "fp8" : "bf16");
        lua_pop(L, 1);
    }
    lua_close(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hw_every_named_preset_exists),
        cmocka_unit_test(test_hw_figures_per_direction),
        cmocka_unit_test(test_hw_every_figure_is_sane),
        cmocka_unit_test(test_hw_lua_gpus_agree),
        cmocka_unit_test(test_hw_lua_systems_agree),
        cmocka_unit_test(test_hw_lua_workloads_agree),
    };
    return cmocka_run_group_tests_name("hw", tests, NULL, NULL);
}
