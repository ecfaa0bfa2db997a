/* SPDX-License-Identifier: MIT */
/* job — the defaults a training job starts from and the one check of its
 * mapping, shared by every front end: eval, sweep, render and play (through
 * cmd/evalflags.c), lessons (lesson_api.c's readers and scalelab.step),
 * practice and scenarios. A setting a user does not give takes the value
 * here, and a mapping one front end refuses every other refuses with the
 * same words.
 *
 * The defaults (eval --help and lessons/AUTHORING.md state them):
 *   ZeRO          1: the optimizer state sharded over DP (Megatron-Core's
 *                 distributed optimizer, which NeMo's and Megatron-Bridge's
 *                 recipes turn on; ZeRO, Rajbhandari et al. SC20)
 *   interleave    1: plain 1F1B, no virtual pipeline stages
 *   TP, CP, PP, EP, ETP   1 (eval and sweep search the ones not given)
 *   DP            the rest of the GPUs: GPUs / (TP x CP x PP)
 *   recompute, micro-batch, precision   the workload preset's own
 *   sequence parallelism, TP/PP/DP/EP overlap, fused loss   auto
 *                 (WL_AUTO), which step.c resolves for the framework
 *                 (its header comment states each)
 *   framework     auto: JAX on chips programmed through XLA only; PyTorch
 *                 (FSDP) on GPUs when ZeRO 2 or 3 runs a dense model
 *                 without a pipeline; Megatron otherwise (job_framework)
 *   across_lat    1 ms one way between sites when sites > 1 (light in
 *                 fibre at ~5 us/km: sites ~200 km apart [U]); `across`
 *                 is the whole site-to-site link per direction, shared by
 *                 every GPU of a site, not a per-GPU figure
 *
 * Pure: no I/O, no allocation.
 */
#ifndef SCALELAB_MODEL_JOB_H
#define SCALELAB_MODEL_JOB_H

#include "model/cluster.h"
#include "model/mapping.h"
#include "model/workload.h"

#include <stdbool.h>
#include <stddef.h>

#define JOB_DEFAULT_ZERO         1
#define JOB_DEFAULT_INTERLEAVE   1
#define JOB_DEFAULT_ACROSS_LAT_S 1e-3

/* TP = CP = PP = EP = ETP = 1, DP 0 (the rest of the GPUs, job_check
 * derives it), interleave and ZeRO the defaults, no sharding group. */
Mapping job_mapping_default(void);

/* Splits c over `sites` sites with the default latency between them
 * (sites > 1); an explicit latency is set after this. */
void job_set_sites(Cluster *c, int sites);

/* The framework a job runs under when w leaves it WL_FW_AUTO, by the rule
 * above: zero and pp as given (pp 0: not given, no pipeline assumed). */
void job_framework(Workload *w, const Cluster *c, int zero, int pp);

/* The degrees a user gave against the GPUs (0 = not given; 1 is never
 * named): all of TP, PP and DP given multiply to n_gpus, fewer divide it
 * ("TP 7 does not divide the 64 GPUs", "TP 8 x DP 3 = 24 does not divide
 * the 64 GPUs"). False with those words in err. */
bool job_check_degrees(int n_gpus, int tp, int cp, int pp, int dp, char *err, size_t err_len);

/* The one check of a whole mapping: m->dp 0 is derived (the rest of the
 * GPUs), the degrees checked as job_check_degrees, then mapping_check and
 * the precision the GPU can run (step_check_precision). False with the
 * reason in err (m->dp may then be set). */
bool job_check(Mapping *m, const Cluster *c, const Workload *w, char *err, size_t err_len);

#endif
