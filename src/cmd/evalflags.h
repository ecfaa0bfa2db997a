/* evalflags — the cluster, workload and mapping flags of `scalelab eval`,
 * shared so that `render` (and any later command) accepts exactly the same
 * flags, defaults and messages as `eval`. The one flag table lives in
 * cmd_eval.c, which implements this function next to it.
 *
 * argv[0] is the calling command's name; argv[1..argc) are flags only
 * (--system, --gpus, --tp, ...; not --json, --format, --list or --help).
 * Returns CLI_OK with c, w and m filled in, or CLI_USAGE after printing one
 * line on stderr.
 */
#ifndef SCALELAB_CMD_EVALFLAGS_H
#define SCALELAB_CMD_EVALFLAGS_H

#include "model/cluster.h"
#include "model/mapping.h"
#include "model/workload.h"

int evalflags_build(int argc, char **argv, Cluster *c, Workload *w, Mapping *m);

#endif
