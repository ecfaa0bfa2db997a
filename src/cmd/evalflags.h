/* evalflags — the cluster, workload and mapping flags of `scalelab eval`,
 * shared so that `sweep`, `render` and `play` accept exactly the same flags,
 * defaults and messages as `eval`. The one flag table lives in cmd_eval.c,
 * which implements these functions next to it.
 *
 * argv[0] is the calling command's name; argv[1..argc) are flags only
 * (--system, --gpus, --tp, ...; not --json, --format, --list or --help).
 * Both return CLI_OK with their outputs filled in, or CLI_USAGE after
 * printing one line on stderr.
 */
#ifndef SCALELAB_CMD_EVALFLAGS_H
#define SCALELAB_CMD_EVALFLAGS_H

#include "model/cluster.h"
#include "model/mapping.h"
#include "model/sweep.h"
#include "model/workload.h"

/* The cluster, the workload and the degrees the flags give, as options of
 * the one mapping search (model/sweep.h): 0 where a flag is absent (--tp,
 * --pp, --dp, --ep, --cp, --mb, --interleave), ZeRO 1 unless --zero. */
int evalflags_build(int argc, char **argv, Cluster *c, Workload *w, SweepOptions *given);

/* As evalflags_build, then eval's mapping: the degrees given, the rest found
 * by the search with the workload's micro-batch and interleave 1 unless
 * given (sweep_find_mapping). */
int evalflags_mapping(int argc, char **argv, Cluster *c, Workload *w, Mapping *m);

#endif
