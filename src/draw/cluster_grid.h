/* SPDX-License-Identifier: MIT */
/* cluster_grid — the scenario's cluster view: every scale-up domain framed
 * and labelled, each GPU drawn as the letter of its group (colour repeats
 * the letter, never replaces it), a free GPU as '.', a failed one as 'x', one
 * another job holds as '#', the picked GPU or group as '*', the cursor in
 * reverse, and one line that says where the cursor is ("GPU 7 · server 0 (8
 * GPUs) · site 1 · leaf 3 · rail 7 · TP group A (GPUs 0–7) · PP stage 0").
 *
 * Layouts, roomiest first: boxes with spaced letters, boxes with letters
 * side by side (both with the domain's name in the top frame), and compact
 * rows with a label column ("D12║AAAA…║") that any number of rows fits.
 * A cluster over several sites is laid out site by site, each site under a
 * rule that names it ("── site 1 ──"), so the site boundary is a line on
 * the screen as it is a link in the machine. A view taller than its box
 * scrolls to keep the cursor's row in sight, and the first row shown names
 * the domain it continues, so a domain of 1,024 GPUs or a cluster of
 * 131,072 never leaves its box.
 *
 * Letters: a group's letter is its id (mapping_group_of: A for group 0, B
 * for 1, ...) when there are at most 62 groups of the kind shown, so a group
 * keeps its letter when it moves and the lines that name groups ("TP group
 * C crosses servers") match the picture; with more groups, letters follow
 * first appearance in what is shown (A-Z, a-z, 0-9) and repeat past 62
 * (ClusterShown.letters_repeat says so).
 *
 * Pure: no curses. Inputs are borrowed.
 */
#ifndef SCALELAB_DRAW_CLUSTER_GRID_H
#define SCALELAB_DRAW_CLUSTER_GRID_H

#include "draw/canvas.h"
#include "model/cluster.h"
#include "model/mapping.h"
#include "model/placement.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const Cluster *cluster;
    const Mapping *mapping;
    const Placement *placement; /* NULL: rank r on GPU r */
    MappingDim colour;          /* the groups the letters show */
    int cursor;                 /* GPU under the cursor */
    int picked;                 /* picked GPU, -1 none */
    int pick_dim;               /* -1: one GPU; else the MappingDim of the picked group */
} ClusterView;

typedef struct {
    char cursor_letter; /* the letter the cursor's GPU is drawn with ('.' free) */
    int first_row;      /* first row shown of total_rows */
    int rows;           /* rows shown */
    int total_rows;     /* rows of the whole view at this width */
    bool letters_repeat;
} ClusterShown;

/* A cell of the canvas (the cursor's, for screen readers); -1 when none. */
typedef struct {
    int x, y;
} CanvasPoint;

/* Rows the view takes in w columns when given at most max_h (>= 1). */
int cluster_grid_rows(const ClusterView *v, int w, int max_h);
/* Draws the view into the w x h box at (x, y); cur gets the cursor's cell. */
void cluster_grid_draw(Canvas *c, int x, int y, int w, int h, const ClusterView *v,
                       CanvasPoint *cur, ClusterShown *shown);
/* The cursor line, with the letter the view drew; the domain's size is
 * left out when the line would not fit in width columns. */
void cluster_grid_cursor_line(const ClusterView *v, const ClusterShown *shown, bool ascii,
                              int width, char *buf, size_t n);
/* The letter of group `group` of the kind shown, as the view draws it when
 * letters follow group ids ('?' when they follow appearance instead). */
char cluster_grid_letter(const ClusterView *v, int group);
/* What a domain is called: "server", "rack", "slice" ("servers" ... when
 * plural), by its own size. */
const char *cluster_grid_domain_noun(const Cluster *c, int dom, bool plural);

#endif
