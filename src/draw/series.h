/* SPDX-License-Identifier: MIT */
/* series — step time against one swept parameter, as a ChartSeries for
 * chart_line: the data behind `render chart` and lesson chart pages.
 *
 * Parameters: "tp", "pp", "cp" (DP shrinks to keep the GPU count), "ep"
 * (carved out of DP), "mb" (micro-batch), "domain" (scale-up domain size),
 * "dp" and "gpus" (the cluster grows: TP x CP x PP stays, DP follows) — the
 * x names a lesson chart page accepts.
 * A value whose mapping is illegal, or whose step does not fit in memory,
 * is kept as a point with valid = false. Evaluates the model (step_eval);
 * no I/O, no allocation.
 */
#ifndef SCALELAB_DRAW_SERIES_H
#define SCALELAB_DRAW_SERIES_H

#include "draw/charts.h"
#include "model/cluster.h"
#include "model/mapping.h"
#include "model/workload.h"
#include <stdbool.h>
#include <stddef.h>

/* True when param is one of the names above. */
bool series_param_known(const char *param);

/* Fills s (title, labels, points, highlight = the base's own value) from
 * base cluster, workload and mapping. Returns false with a reason in err
 * when param is unknown or n is out of 1..CHART_MAX_POINTS. */
bool series_step_time(ChartSeries *s, const Cluster *c, const Workload *w, const Mapping *m,
                      const char *param, const double *values, int n, bool ascii, char *err,
                      size_t err_len);

#endif
