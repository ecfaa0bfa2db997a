/* SPDX-License-Identifier: MIT */
/* cmd_eval — `scalelab eval`: one cluster, workload and mapping from flags or
 * presets, evaluated by the bandwidth model, printed as a small table or as
 * one JSON object.
 *
 * The flags and JSON keys are a contract that lessons,
 * tests and scripts rely on: add, never rename. Explicit flags override a
 * preset's figures. Bad flags and impossible mappings print one line naming
 * the problem and exit 2; a job that does not fit in memory still evaluates
 * (exit 0, "fits": false).
 *
 * The flags are the job flags of the one flag table (flags.h) plus --json,
 * --format and --list; evalflags.c turns them into a cluster, a workload
 * and a mapping. Only this file prints eval's output; it never includes
 * curses or Lua.
 */
#include "cmd/cli.h"
#include "cmd/evalflags.h"
#include "cmd/json.h"
#include "cmd/presets_doc.h"
#include "model/balance.h"
#include "model/cluster.h"
#include "model/hw.h"
#include "model/mapping.h"
#include "model/serve.h"
#include "model/step.h"
#include "model/sweep.h"
#include "model/units.h"
#include "model/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char eval_help[] =
    "Usage: scalelab eval [FLAGS]\n"
    "Evaluates one training step of a workload on a cluster under a mapping.\n"
    "\n"
    "Cluster (explicit flags override the preset's figures):\n"
    "  --system NAME      a system preset (default " EVAL_DEFAULT_SYSTEM "; see --list)\n"
    "  --gpus N           GPUs in the cluster (default: the preset's, or TPxCPxPPxDP)\n"
    "  --gpu NAME         GPU preset (see --list)\n"
    "  --domain N         GPUs per scale-up domain\n"
    "  --up BW            scale-up bandwidth per GPU, one direction (\"450 GB/s\")\n"
    "  --out BW           scale-out NIC per GPU, one direction (\"400G\", \"50 GB/s\")\n"
    "  --oversub R        leaf-to-spine oversubscription (1 = full bisection)\n"
    "  --rails on|off     rail-optimized leaves (GPU i of every server on leaf i)\n"
    "  --sites N --across BW [--across-lat TIME]   split over N sites joined by one\n"
    "                     link of BW per direction, shared by the whole site (not per\n"
    "                     GPU); TIME one way (default 1 ms, ~200 km of fibre)\n"
    "Workload:\n"
    "  --model NAME       a model preset (default " EVAL_DEFAULT_MODEL "; see --list)\n"
    "  --layers --hidden --heads --kv-heads --ffn --seq --vocab --params   the shape\n"
    "  --batch N          global batch, sequences      --mb N   micro-batch\n"
    "  --experts N --topk K                            mixture of experts\n"
    "  --recompute none|selective|full (default: the model preset's, none for a\n"
    "                     custom shape)   --precision bf16|fp8 (default: the preset's)\n"
    "  --framework NAME   what runs it: megatron (Megatron-Core/NeMo with Transformer\n"
    "                     Engine: fused kernels), pytorch (eager: torchtitan, FSDP,\n"
    "                     Composer, nanotron), pytorch-compile, jax (MaxText, Paxml),\n"
    "                     deepspeed (Megatron-DeepSpeed, its ZeRO-3 of 2021). Default:\n"
    "                     jax on TPUs; pytorch when --zero 2|3 is given without a\n"
    "                     pipeline on a dense model (FSDP's sharding); megatron\n"
    "                     otherwise\n"
    "  --seq-parallel, --tp-overlap, --pp-overlap, --dp-overlap on|off|auto\n"
    "                     sequence parallelism and the overlaps (auto: the framework's\n"
    "                     defaults: SP on with TP > 1, TP overlap on under Megatron as\n"
    "                     NVIDIA's recipes run it, PP overlap with interleave, DP on)\n"
    "  --swiglu on|off    --ep-overlap on|off|dualpipe (on: Megatron-Core's combined\n"
    "                     1F1B; dualpipe: DeepSeek-V3's schedule)\n"
    "  --ep-dedup on|off  the MoE dispatch sends a token once to each other domain\n"
    "                     holding its experts, which forwards it over scale-up links\n"
    "                     (DeepEP, HybridEP); off: NCCL's all-to-all (the default)\n"
    "  --cuda-graphs none|attn|full   what CUDA graphs capture: the host need not\n"
    "                     issue it (a dropless MoE layer waits on the host otherwise)\n"
    "  --flash-attention on|off|1|2|3   the attention kernel: on = the framework's\n"
    "                     (cuDNN/FlashAttention-3 class under Megatron and JAX,\n"
    "                     FlashAttention-2 under PyTorch); 1, 2, 3 name the version\n"
    "  --fused-loss on|off|auto   cross entropy in place over the logits (auto: the\n"
    "                     framework's: fused under Megatron and JAX)\n"
    "  --recompute PARTS  core_attn,norm,act,mlp,attn,q,kv,oproj,mlp_in,mlp_out, or\n"
    "                     op (PyTorch's per-op selective checkpointing)\n"
    "                     --recompute-layers N\n"
    "  --head-dim --v-head-dim --q-lora --kv-lora     attention widths, latent attention\n"
    "  --window N --global-every K   sliding-window attention: a query sees the last N\n"
    "                     keys; every Kth layer attends to the whole sequence\n"
    "  --shared-experts --moe-layers --dense-ffn --capacity-factor   MoE shape, token drop\n"
    "  --offload optimizer,weights,activations        to host memory over the host link\n"
    "                     --offload-layers N: activations of N layers per stage only\n"
    "  --hbm \"96 GB, 2.4 TB/s\" --power 500W          the GPUs the run used\n"

    "Mapping (what is not given is searched, as 'scalelab sweep' does: the fastest\n"
    "legal mapping that fits, else the one that needs least memory):\n"
    "  --tp --pp --dp --ep --cp N   --interleave V (default 1)   --zero 0|1|2|3\n"
    "                     (default 1: the optimizer sharded over DP, Megatron's\n"
    "                     distributed optimizer); lessons take the same defaults\n"
    "  --shard N          hybrid sharding: ZeRO inside groups of N DP x CP ranks\n"
    "  --etp N            expert tensor parallelism (default 1); experts fold over the\n"
    "                     TP x CP x DP ranks, so EP x ETP must divide TP x CP x DP\n"
    "Placement: rank r on GPU r, except where TP does not divide the domain and\n"
    "balancing helps: then each TP group stays whole or is split between two\n"
    "neighbouring domains with as many GPUs on each side as can be (the table says so)\n"
    "Serving (--serve): one decode step instead of a training step:\n"
    "  --serve            each sequence of a batch gets its next token: the time per\n"
    "                     token (weights and KV cache read from HBM, TP all-reduces,\n"
    "                     the network where a group crosses a domain) and tokens/s\n"
    "  --batch N          sequences decoded together per replica (default 1)\n"
    "  --context N        tokens of KV cache per sequence (default: the model's seq)\n"
    "                     TP not given: the widest that divides the heads and fits a\n"
    "                     domain; PP 1; DP (replicas) the rest\n"
    "Output:\n"
    "  --json, --format json|text   --list (presets with their figures; with\n"
    "                     --format markdown or man: the lists the docs carry)\n";

/* --- output ---------------------------------------------------------------- */

/* "tp":{"hidden_s":..,"exposed_s":..} (first: no comma before it). */
static void print_overlap(FILE *out, const char *name, double hidden, double exposed, bool first)
{
    fprintf(out, "%s\"%s\":{\"hidden_s\":", first ? "" : ",", name);
    json_number(out, hidden);
    json_next_number(out, "exposed_s", exposed);
    fputc('}', out);
}

/* balanced: the fewest ranks a split TP group keeps in one domain with the
 * balanced placement (balance.h), or 0 with the default placement. */
static void print_json(FILE *out, const Cluster *c, const Workload *w, const Mapping *m,
                       const StepResult *r, int balanced)
{
    char rc[96];
    evalflags_recompute_text(w->recompute, w->recompute_mods, rc, sizeof rc);
    fputs("{\"system\":", out);
    json_string(out, c->system_id);
    json_next_string(out, "gpu", c->gpu.id);
    fprintf(out, ",\"gpus\":%d,\"domain_gpus\":%d", c->n_gpus, c->domain_gpus);
    json_next_string(out, "model", w->id);
    fprintf(out,
            ",\"mapping\":{\"tp\":%d,\"cp\":%d,\"pp\":%d,\"dp\":%d,\"ep\":%d,"
            "\"interleave\":%d,\"zero\":%d,\"mb\":%d,\"batch\":%d,\"etp\":%d,\"edp\":%d,"
            "\"recompute\":\"%s\",\"recompute_layers\":%d,\"seq_parallel\":%s,"
            "\"tp_overlap\":%s}",
            m->tp, m->cp, m->pp, m->dp, m->ep, m->interleave, m->zero, w->micro_batch,
            w->global_batch, mapping_etp(m), mapping_edp(m), rc,
            w->recompute == WL_RECOMPUTE_FULL ? w->recompute_layers : 0,
            r->seq_parallel ? "true" : "false", r->tp_overlap ? "true" : "false");
    json_next_number(out, "step_s", r->step_s);
    json_next_number(out, "tokens_per_s", r->tokens_per_s);
    json_next_number(out, "tflops_per_gpu", r->tflops_per_gpu);
    json_next_number(out, "hw_tflops_per_gpu", r->hw_tflops_per_gpu);
    json_next_number(out, "mfu", r->mfu);
    fprintf(out, ",\"fits\":%s", r->fits ? "true" : "false");
    json_next_number(out, "mem_per_gpu_bytes", r->mem_per_gpu_bytes);
    json_next_number(out, "hbm_bytes", r->hbm_bytes);
    fprintf(out, ",\"micro_batches\":%d", r->micro_batches);
    json_next_string(out, "placement", balanced ? "balanced" : "default");
    json_next_string(out, "bottleneck", r->bottleneck);
    fputs(",\"breakdown\":{\"compute_s\":", out);
    json_number(out, r->part_s[STEP_COMPUTE]);
    json_next_number(out, "tp_s", r->part_s[STEP_TP]);
    json_next_number(out, "pp_s", r->part_s[STEP_PP]);
    json_next_number(out, "bubble_s", r->part_s[STEP_BUBBLE]);
    json_next_number(out, "dp_s", r->part_s[STEP_DP]);
    json_next_number(out, "ep_s", r->part_s[STEP_EP]);
    json_next_number(out, "optimizer_s", r->optimizer_s);
    fputs("},\"bytes\":{\"scale_up\":", out);
    json_number(out, r->tier_bytes[TIER_UP]);
    json_next_number(out, "scale_out", r->tier_bytes[TIER_OUT]);
    json_next_number(out, "scale_across", r->tier_bytes[TIER_ACROSS]);
    fprintf(out,
            "},\"settings\":{\"seq_parallel\":%s,\"tp_overlap\":%s,\"pp_overlap\":%s,"
            "\"dp_overlap\":%s",
            r->seq_parallel ? "true" : "false", r->tp_overlap ? "true" : "false",
            r->pp_overlap ? "true" : "false", r->dp_overlap ? "true" : "false");
    json_next_number(out, "tp_hidden_s", r->tp_hidden_s);
    json_next_number(out, "pp_hidden_s", r->pp_hidden_s);
    json_next_number(out, "dp_hidden_s", r->dp_hidden_s);
    fprintf(out,
            ",\"ep_overlap\":%s,\"ep_schedule\":\"%s\",\"ep_dedup\":%s,\"cuda_graphs\":\"%s\","
            "\"framework\":\"%s\",\"kernels\":\"%s\"",
            r->ep_overlap ? "true" : "false",
            !r->ep_overlap   ? ""
            : w->ep_dualpipe ? "dualpipe"
                             : "combined-1f1b",
            r->ep_dedup ? "true" : "false", workload_word(WL_WORDS_GRAPHS, (int)r->cuda_graphs),
            workload_word(WL_WORDS_FRAMEWORK, (int)r->framework),
            kernel_stack_name(step_kernel_stack(r->framework)));
    fputs("},\"memory\":{\"weights\":", out);
    json_number(out, r->mem_weights);
    json_next_number(out, "grads", r->mem_grads);
    json_next_number(out, "optimizer", r->mem_optimizer);
    json_next_number(out, "activations", r->mem_activations);
    json_next_number(out, "logits", r->mem_logits);
    json_next_number(out, "fp8_copies", r->mem_fp8_copies);
    json_next_number(out, "buffers", r->mem_buffers);
    json_next_number(out, "allocator_reserve", r->mem_reserve);
    json_next_number(out, "offloaded_to_host", r->mem_host_bytes);
    fputs("},\"kernels\":{\"micro_batch_s\":", out);
    json_number(out, r->mb_compute_s);
    json_next_number(out, "gemm_s", r->mb_gemm_s);
    json_next_number(out, "attention_s", r->mb_attn_s);
    json_next_number(out, "elementwise_s", r->mb_stream_s);
    json_next_number(out, "recompute_s", r->mb_recompute_s);
    json_next_number(out, "host_wait_s", r->mb_host_wait_s);
    json_next_number(out, "flops", r->mb_flops);
    json_next_number(out, "clock", r->clock);
    fputs("},\"overlap\":{", out);
    print_overlap(out, "tp", r->tp_hidden_s, r->tp_exposed_s, true);
    print_overlap(out, "cp", 0, r->cp_exposed_s, false);
    print_overlap(out, "pp", r->pp_hidden_s, r->pp_exposed_s, false);
    print_overlap(out, "dp", r->dp_hidden_s, r->dp_exposed_s, false);
    print_overlap(out, "ep", r->ep_hidden_s, r->ep_exposed_s, false);
    json_next_number(out, "compute_lost_to_comm_s", r->comm_slowdown_s);
    json_next_number(out, "offload_exposed_s", r->offload_s);
    fputs("}}\n", out);
}

static void print_table(FILE *out, const Cluster *c, const Workload *w, const Mapping *m,
                        const StepResult *r, int balanced)
{
    char a[40], b[40], d[40];
    char map[64];
    const WorkloadPreset *wp = workload_preset_find(w->id);
    const SystemSpec *sp = hw_system_find(c->system_id);
    mapping_format(m, map, sizeof map);
    fprintf(out, "%s on %d x %s (%s), %s, batch %d, micro-batch %d\n",
            wp ? wp->name : "custom model", c->n_gpus, c->gpu.name,
            sp ? sp->name : "custom cluster", map, w->global_batch, w->micro_batch);
    units_format(UNITS_BANDWIDTH, c->up_bytes_per_s, true, a, sizeof a);
    const char *one = hw_noun(&c->gpu, 0);
    fprintf(out, "  scale-up:  %d %s per domain, %s per %s per direction (%s)\n", c->domain_gpus,
            hw_noun(&c->gpu, HW_NOUN_MANY), a, one, c->up_link);
    units_format_bits_bytes(c->out_bytes_per_s, b, sizeof b);
    fprintf(out, "  scale-out: %s per %s (%s)\n", b, one, c->out_link);
    if (c->sites > 1) {
        units_format(UNITS_BANDWIDTH, c->across_bytes_per_s, true, a, sizeof a);
        fprintf(out, "  scale-across: %d sites joined by %s\n", c->sites, a);
    }
    if (balanced)
        fprintf(out,
                "  placement: balanced, no TP group split with fewer than %d %s on a side\n"
                "             (with ranks in order, a split group keeps as few as %d)\n",
                balanced, hw_noun(&c->gpu, HW_NOUN_MANY),
                balance_default_min_part(c->n_gpus, c->domain_gpus, m->tp));
    units_format(UNITS_TIME, r->step_s, true, a, sizeof a);
    fprintf(out, "\n  step time        %s\n", a);
    units_format_si(r->tokens_per_s, a, sizeof a);
    fprintf(out, "  tokens/s         %s\n", a);
    snprintf(d, sizeof d, "TFLOP/s per %s", one);
    fprintf(out, "  %-16s %.0f model, %.0f hardware (MFU %.1f%%)\n", d, r->tflops_per_gpu,
            r->hw_tflops_per_gpu, 100 * r->mfu);
    units_format(UNITS_BYTES, r->mem_per_gpu_bytes, true, a, sizeof a);
    units_format(UNITS_BYTES, r->hbm_bytes, true, b, sizeof b);
    snprintf(d, sizeof d, "memory per %s", one);
    bool host_full = c->host_mem_bytes > 0 && r->mem_host_bytes > c->host_mem_bytes;
    fprintf(out, "  %-16s %s of %s: %s\n", d, a, b,
            r->mem_per_gpu_bytes <= r->hbm_bytes ? "fits" : "DOES NOT FIT");
    if (r->mem_host_bytes > 0) { /* what offload sends to host memory */
        units_format(UNITS_BYTES, r->mem_host_bytes, true, a, sizeof a);
        units_format(UNITS_BYTES, c->host_mem_bytes, true, b, sizeof b);
        fprintf(out, "  %-16s %s of %s: %s\n", "host memory", a, b,
                host_full ? "DOES NOT FIT" : "fits");
    }
    fprintf(out, "\n  %-9s %10s %7s\n", "part", "time", "share");
    for (int p = 0; p < STEP_PART_COUNT; p++) {
        units_format(UNITS_TIME, r->part_s[p], true, a, sizeof a);
        double share = r->step_s > 0 ? 100 * r->part_s[p] / r->step_s : 0;
        fprintf(out, "  %-9s %10s %6.1f%%\n", step_part_name((StepPart)p), a, share);
    }
    if (r->optimizer_s > 0) {
        units_format(UNITS_TIME, r->optimizer_s, true, a, sizeof a);
        double share = r->step_s > 0 ? 100 * r->optimizer_s / r->step_s : 0;
        fprintf(out, "  %-9s %10s %6.1f%%\n", "optimizer", a, share);
    }
    units_format(UNITS_BYTES, r->tier_bytes[TIER_UP], true, a, sizeof a);
    units_format(UNITS_BYTES, r->tier_bytes[TIER_OUT], true, b, sizeof b);
    units_format(UNITS_BYTES, r->tier_bytes[TIER_ACROSS], true, d, sizeof d);
    fprintf(out, "\n  sent per %s per step: scale-up %s, scale-out %s, scale-across %s\n", one, a,
            b, d);
    fprintf(out, "\nbottleneck: %s\n", r->bottleneck);
}

static void print_list(FILE *out)
{
    char a[40], b[64], d[40], e[40];
    fputs("Systems (bandwidths per GPU, per direction):\n", out);
    for (int i = 0; i < hw_system_count(); i++) {
        const SystemSpec *s = hw_system_at(i);
        const GpuSpec *g = hw_gpu_find(s->gpu_id);
        fprintf(out, "\n%s - %s\n  %s\n", s->id, s->name, s->summary);
        fprintf(out, "  domain: %d x %s; default %d %s", s->domain_gpus, g ? g->name : s->gpu_id,
                s->default_gpus, hw_noun(g, HW_NOUN_MANY));
        if (s->domain_power_w > 0)
            fprintf(out, "; %.3g kW, %s cooled\n", s->domain_power_w / 1e3, s->cooling);
        else
            fprintf(out, "; %s cooled\n", s->cooling);
        units_format(UNITS_BANDWIDTH, s->up_bytes_per_s, true, a, sizeof a);
        fprintf(out, "  up:  %s (%s)\n", a, s->up_link);
        units_format_bits_bytes(s->out_bytes_per_s, b, sizeof b);
        fprintf(out, "  out: %s (%s)\n", b, s->out_link);
    }
    fputs("\nGPUs (dense BF16 peak, HBM size and bandwidth):\n", out);
    for (int i = 0; i < hw_gpu_count(); i++) {
        const GpuSpec *g = hw_gpu_at(i);
        units_format(UNITS_FLOPS, g->bf16_flops, true, a, sizeof a);
        units_format(UNITS_BYTES, g->hbm_bytes, true, d, sizeof d);
        units_format(UNITS_BANDWIDTH, g->hbm_bytes_per_s, true, e, sizeof e);
        fprintf(out, "  %-9s %-12s %-8s at %-9s %s\n", g->id, a, d, e, g->name);
    }
    fputs("\nModels:\n", out);
    for (int i = 0; i < workload_preset_count(); i++) {
        const WorkloadPreset *p = workload_preset_at(i);
        const Workload *w = &p->w;
        fprintf(out, "\n%s - %s, %.0fB parameters\n", p->id, p->name, workload_params(w) / 1e9);
        fprintf(out, "  %d layers, hidden %d, %d heads, seq %d, batch %d", w->layers, w->hidden,
                w->heads, w->seq, w->global_batch);
        if (workload_is_moe(w))
            fprintf(out, ", %d experts top-%d", w->experts, w->topk);
        fprintf(out, "\n  source: %s\n", p->source);
    }
}

/* --- serving ---------------------------------------------------------------- */

/* The serving mapping: the degrees given; TP not given is the widest that
 * divides the heads and the hidden size and fits one domain (the lowest
 * latency that stays on the scale-up links); PP 1; DP the rest. */
static bool serve_mapping(const FlagArgs *a, const Cluster *c, const Workload *w, Mapping *m)
{
    memset(m, 0, sizeof *m);
    m->cp = m->ep = m->interleave = m->etp = 1;
    m->pp = a->set[FLAG_PP] ? flags_int(a, FLAG_PP) : 1;
    m->tp = a->set[FLAG_TP] ? flags_int(a, FLAG_TP) : 1;
    for (int t = 2; !a->set[FLAG_TP] && t <= c->domain_gpus && t <= c->n_gpus / m->pp; t++)
        if (w->heads % t == 0 && w->hidden % t == 0 && (c->n_gpus / m->pp) % t == 0)
            m->tp = t;
    char err[300];
    if (a->set[FLAG_DP]) {
        m->dp = flags_int(a, FLAG_DP);
        return true;
    }
    if (!mapping_derive_dp(m, c->n_gpus, err, sizeof err)) {
        cli_usage_error("eval: %s", err);
        return false;
    }
    return true;
}

static void print_serve_json(FILE *out, const Cluster *c, const Workload *w, const Mapping *m,
                             ServeLoad load, const ServeResult *r)
{
    fputs("{\"system\":", out);
    json_string(out, c->system_id);
    fprintf(out, ",\"gpus\":%d,\"domain_gpus\":%d", c->n_gpus, c->domain_gpus);
    json_next_string(out, "model", w->id);
    fprintf(out, ",\"mapping\":{\"tp\":%d,\"pp\":%d,\"dp\":%d},\"batch\":%d,\"context\":%d", m->tp,
            m->pp, m->dp, load.batch, load.context);
    json_next_number(out, "token_s", r->token_s);
    json_next_number(out, "tokens_per_s", r->tokens_per_s);
    json_next_number(out, "user_tokens_per_s", r->user_tokens_per_s);
    fprintf(out, ",\"replicas\":%d,\"fits\":%s", r->replicas, r->fits ? "true" : "false");
    json_next_number(out, "mem_per_gpu_bytes", r->mem_per_gpu_bytes);
    json_next_number(out, "weight_bytes", r->weight_bytes);
    json_next_number(out, "kv_bytes", r->kv_bytes);
    json_next_number(out, "hbm_bytes", r->hbm_bytes);
    fprintf(out, ",\"tp_domains\":%d", r->tp_domains);
    json_next_string(out, "bottleneck", serve_part_name(r->bottleneck));
    fputs(",\"parts\":{", out);
    for (int i = 0; i < SERVE_PART_COUNT; i++) {
        fprintf(out, "%s\"%s\":", i ? "," : "", serve_part_key((ServePart)i));
        json_number(out, r->part_s[i]);
    }
    fputs("}}\n", out);
}

static void print_serve_table(FILE *out, const Cluster *c, const Workload *w, const Mapping *m,
                              ServeLoad load, const ServeResult *r)
{
    char a[40], b[40], why[200];
    const WorkloadPreset *wp = workload_preset_find(w->id);
    fprintf(out, "Serving %s on %d x %s: TP %d x PP %d, %d replica%s, batch %d, context %d\n",
            wp ? wp->name : "custom model", c->n_gpus, c->gpu.name, m->tp, m->pp, r->replicas,
            r->replicas == 1 ? "" : "s", load.batch, load.context);
    units_format(UNITS_TIME, r->token_s, true, a, sizeof a);
    fprintf(out, "\n  time per token   %s (%.0f tokens/s per user)\n", a, r->user_tokens_per_s);
    units_format_si(r->tokens_per_s, a, sizeof a);
    fprintf(out, "  tokens/s         %s over all replicas\n", a);
    units_format(UNITS_BYTES, r->mem_per_gpu_bytes, true, a, sizeof a);
    units_format(UNITS_BYTES, r->hbm_bytes, true, b, sizeof b);
    fprintf(out, "  memory per %-5s %s of %s: %s\n", hw_noun(&c->gpu, 0), a, b,
            r->fits ? "fits" : "DOES NOT FIT");
    fprintf(out, "\n  %-13s %10s %7s\n", "part", "time", "share");
    for (int p = 0; p < SERVE_PART_COUNT; p++) {
        units_format(UNITS_TIME, r->part_s[p], true, a, sizeof a);
        double share = r->token_s > 0 ? 100 * r->part_s[p] / r->token_s : 0;
        fprintf(out, "  %-13s %10s %6.1f%%\n", serve_part_name((ServePart)p), a, share);
    }
    fprintf(out, "\nbottleneck: %s\n", serve_bottleneck(r, why, sizeof why));
}

static int eval_serve(const FlagArgs *a, bool json)
{
    Cluster c;
    Workload w;
    SweepOptions given;
    if (!evalflags_build("eval", a, &c, &w, &given))
        return CLI_USAGE;
    Mapping m;
    if (!serve_mapping(a, &c, &w, &m))
        return CLI_USAGE;
    ServeLoad load = {a->set[FLAG_BATCH] ? flags_int(a, FLAG_BATCH) : 1,
                      a->set[FLAG_CONTEXT] ? flags_int(a, FLAG_CONTEXT) : w.seq};
    ServeResult r;
    char err[300];
    if (!serve_eval(&c, &w, &m, NULL, load, &r, err, sizeof err))
        return cli_usage_error("eval: %s", err);
    if (json)
        print_serve_json(stdout, &c, &w, &m, load, &r);
    else
        print_serve_table(stdout, &c, &w, &m, load, &r);
    return CLI_OK;
}

int cmd_eval(int argc, char **argv)
{
    FlagArgs a;
    int rc = flags_parse(&flags_eval, argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    if (a.set[FLAG_HELP]) {
        fputs(eval_help, stdout);
        return CLI_OK;
    }
    if (a.set[FLAG_LIST]) {
        static const FlagId alone[] = {FLAG_LIST, FLAG_FORMAT, FLAG_COUNT};
        const char *fmt = a.str[FLAG_FORMAT];
        if (flags_any_set(&a, alone))
            return cli_usage_error("eval: --list takes no other flag but --format");
        if (fmt && strcmp(fmt, "text") != 0 && !presets_doc_write(stdout, fmt))
            return cli_usage_error("eval: --list --format must be text, markdown or man "
                                   "(got '%s')",
                                   fmt);
        if (!fmt || strcmp(fmt, "text") == 0)
            print_list(stdout);
        return CLI_OK;
    }
    bool json = a.set[FLAG_JSON];
    if (a.set[FLAG_FORMAT]) {
        if (strcmp(a.str[FLAG_FORMAT], "json") == 0)
            json = true;
        else if (strcmp(a.str[FLAG_FORMAT], "text") != 0)
            return cli_usage_error("eval: --format must be json or text (got '%s')",
                                   a.str[FLAG_FORMAT]);
        else if (a.set[FLAG_JSON])
            return cli_usage_error("eval: --json and --format text disagree");
    }
    if (a.set[FLAG_CONTEXT] && !a.set[FLAG_SERVE])
        return cli_usage_error("eval: --context needs --serve");
    if (a.set[FLAG_SERVE])
        return eval_serve(&a, json);
    Cluster c;
    Workload w;
    Mapping m;
    if (!evalflags_mapping("eval", &a, &c, &w, &m))
        return CLI_USAGE;
    StepResult r;
    char err[300];
    int part = 0;
    Placement *p = balance_job_placement(&c, &w, &m, NULL, &part, &r);
    if (!p && step_eval(&c, &w, &m, NULL, NULL, &r, err, sizeof err) != STEP_OK)
        return cli_usage_error("eval: %s", err);
    placement_free(p);
    if (json)
        print_json(stdout, &c, &w, &m, &r, part);
    else
        print_table(stdout, &c, &w, &m, &r, part);
    return CLI_OK;
}
