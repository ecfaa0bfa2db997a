/* SPDX-License-Identifier: MIT */
/* diagram — one diagram of a cluster, chosen by its ViewKind, drawn into a
 * box: the rack view, the fabric view, the stacked step-time bar, or a line
 * chart of the step time against a swept parameter. The one place where a
 * lesson page, presenter mode and the scenario screen turn a view kind into
 * drawing.
 *
 * Rack and fabric views need no workload: a cluster without a training
 * batch (or whose batch does not divide) still draws, without load marks.
 * The bar and the chart need a workload and a mapping that evaluate.
 *
 * Pure C: depends on views, charts, series and the model. Inputs borrowed.
 */
#ifndef SCALELAB_DRAW_DIAGRAM_H
#define SCALELAB_DRAW_DIAGRAM_H

#include "draw/canvas.h"
#include "draw/views.h"
#include "model/workload.h"
#include <stddef.h>

typedef struct {
    ViewKind view;
    const Cluster *cluster;     /* required */
    const Workload *workload;   /* NULL or no layers: no step result */
    const Mapping *mapping;     /* NULL or tp 0: no groups */
    const Placement *placement; /* NULL: default */
    MappingDim colour_by;       /* the groups GPUs are lettered by (DIM_TP usual) */
    const char *chart_x;        /* a chart: the swept parameter ("tp", "mb", ...) */
    const double *chart_values; /* and its values; n 0: the base point as a bar */
    int chart_n;
} Diagram;

/* A Diagram of cluster cl with everything else empty (view kind k). */
Diagram diagram_of(ViewKind k, const Cluster *cl);

/* Draws d into the w x h box at (x, y). Returns the rows used; on a model
 * error (a bar or chart whose step does not evaluate) writes one line into
 * err and returns 0. */
int diagram_draw(Canvas *c, int x, int y, int w, int h, const Diagram *d, char *err,
                 size_t err_len);

#endif
