/* SPDX-License-Identifier: MIT */
/* evalflags — the cluster, workload and mapping that the job flags of the
 * one flag table (flags.h) describe, shared so that eval, sweep, render and
 * play accept exactly the same flags, defaults and messages.
 *
 * cmd names the command in errors; a holds what flags_parse read. Both
 * return true with their outputs filled in, or false after printing one
 * line on stderr (exit status CLI_USAGE).
 */
#ifndef SCALELAB_CMD_EVALFLAGS_H
#define SCALELAB_CMD_EVALFLAGS_H

#include "cmd/flags.h"
#include "model/cluster.h"
#include "model/mapping.h"
#include "model/sweep.h"
#include "model/workload.h"

#include <stdbool.h>

#define EVAL_DEFAULT_SYSTEM "dgx-h100"
#define EVAL_DEFAULT_MODEL  "llama3-8b"

/* The cluster, the workload and the degrees the flags give, as options of
 * the one mapping search: 0 where a flag is absent (--tp, --pp, --dp, --ep,
 * --cp, --etp, --mb, --interleave); ZeRO, recompute, sequence parallelism
 * and TP overlap SWEEP_FREE unless given (then pinned). Sets c->n_gpus
 * when --gpus is absent and TP, PP and DP are all given. */
bool evalflags_build(const char *cmd, const FlagArgs *a, Cluster *c, Workload *w,
                     SweepOptions *given);

/* A recompute setting as --recompute takes it: none, selective, full, or
 * the parts a selective policy drops (norm,act,q,kv). */
void evalflags_recompute_text(WlRecompute r, int mods, char *buf, size_t len);

/* Pins what eval does not search in the options evalflags_build gave: the
 * workload's micro-batch, interleave 1 unless given, ZeRO 1 unless given,
 * and the workload's own framework settings (SWEEP_KEEP). */
void evalflags_pin_as_eval(const Workload *w, SweepOptions *o);

/* As evalflags_build, then eval's mapping: the degrees given, the rest found
 * by the search (the fastest legal mapping that fits, else the one needing
 * least memory) with the workload's micro-batch and interleave 1 unless
 * given (sweep_find_mapping). */
bool evalflags_mapping(const char *cmd, const FlagArgs *a, Cluster *c, Workload *w, Mapping *m);

#endif
