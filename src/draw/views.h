/* SPDX-License-Identifier: MIT */
/* views — the rack view and the fabric view of a cluster, and their plain
 * text descriptions.
 *
 * Rack view, generated from the cluster fields: an 8-GPU server (GPUs around
 * NVSwitch chips, NICs out to the fabric), an NVL72-style rack (compute
 * trays, NVLink switch trays, copper spine, power and cooling), or a TPU
 * slice as a torus grid. Fabric view: spines over leaves over scale-up
 * domains over GPUs, sites joined by a scale-across link, with per-GPU link
 * figures and the bandwidth drop at the domain boundary.
 *
 * Colour never carries meaning alone: tiers differ by line glyph (═ vs ─ vs
 * ┄), GPUs are drawn with the letter of their group (A, B, ...) and loads add
 * a mark. Large clusters are aggregated ("× 228 racks"): the work done is
 * bounded by the cells drawn, never by the number of GPUs.
 *
 * Pure C: depends on canvas, text and the model headers; no curses, no Lua.
 * Inputs are borrowed.
 */
#ifndef SCALELAB_DRAW_VIEWS_H
#define SCALELAB_DRAW_VIEWS_H

#include "draw/canvas.h"
#include "model/cluster.h"
#include "model/mapping.h"
#include "model/step.h"
#include <stdbool.h>

typedef enum { VIEW_RACK, VIEW_FABRIC, VIEW_BAR, VIEW_CHART, VIEW_COUNT } ViewKind;

typedef struct {
    const Cluster *cluster;     /* required */
    const Mapping *mapping;     /* NULL: no group colouring */
    const Placement *placement; /* NULL: default placement (rank r on GPU r) */
    const StepResult *result;   /* NULL: no load colouring */
    int cursor_gpu;             /* -1: no cursor */
    int cursor_group;           /* -1: none; else every GPU of this colour_by group is
                                   drawn selected, its letter in lower case */
    MappingDim colour_by;       /* which groups colour the GPUs (DIM_TP usual) */
} ViewInput;

/* A ViewInput with everything empty: cursors -1, colour by TP. */
ViewInput view_input_default(const Cluster *c);

/* "rack", "fabric", "bar", "chart"; view_kind_parse returns -1 when unknown. */
const char *view_kind_name(ViewKind k);
int view_kind_parse(const char *name);

/* Draw into the w x h box at (x, y) (clipped to the canvas). Return the rows
 * used. Nothing is drawn when in or in->cluster is NULL. */
int view_rack_draw(Canvas *c, int x, int y, int w, int h, const ViewInput *in);
int view_fabric_draw(Canvas *c, int x, int y, int w, int h, const ViewInput *in);

/* The letter a GPU is drawn with: 'A' + group % 26 of in->colour_by for the
 * rank on gpu, or 'G' without a mapping ('#'/'?' never used). */
char view_gpu_letter(const ViewInput *in, int gpu);

/* Plain sentences and a table describing the view (rack or fabric): tiers,
 * domains, groups, link figures and loads, for screen readers and handouts.
 * Lines are at most width columns (>= 40), ASCII only when ascii. Caller
 * frees. */
char *view_describe(ViewKind k, const ViewInput *in, int width, bool ascii);

#endif
