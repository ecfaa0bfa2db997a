/* SPDX-License-Identifier: MIT */
/* screen_cluster — the scenario screen's cluster view: every scale-up
 * domain framed and labelled, each GPU drawn as the letter of its group,
 * the picked GPU or group as '*', the cursor in reverse, and one line that
 * says where the cursor is ("GPU 7 · domain 0 (8 GPUs) · TP group A
 * (GPUs 0–7) · PP stage 0 · DP rank 0").
 *
 * Layouts, roomiest first: boxes with spaced letters, boxes with letters
 * side by side (both with the domain's name in the top frame), and compact
 * rows with a label column ("D12║AAAA…║") that any number of rows fits.
 * A view taller than its box scrolls to keep the cursor's row in sight,
 * and the first row shown names the domain it continues, so a domain of
 * 1,024 GPUs or a cluster of 131,072 never leaves its box.
 *
 * Letters are given to the groups in the order they first appear in what
 * is shown (A-Z, a-z, 0-9): distinct for up to 62 visible groups; beyond
 * that they repeat and ClusterShown.letters_repeat says so.
 *
 * Pure: no curses. Inputs are borrowed.
 */
#ifndef SCALELAB_UI_SCREEN_CLUSTER_H
#define SCALELAB_UI_SCREEN_CLUSTER_H

#include "draw/canvas.h"
#include "model/cluster.h"
#include "model/mapping.h"
#include "model/placement.h"
#include "ui/screens.h"
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
    char cursor_letter; /* the letter the cursor's GPU is drawn with ('.' idle) */
    int first_row;      /* first row shown of total_rows */
    int rows;           /* rows shown */
    int total_rows;     /* rows of the whole view at this width */
    bool letters_repeat;
} ClusterShown;

/* Rows the view takes in w columns when given at most max_h (>= 1). */
int screen_cluster_rows(const ClusterView *v, int w, int max_h);
/* Draws the view into the w x h box at (x, y); cur gets the cursor's cell. */
void screen_cluster_draw(Canvas *c, int x, int y, int w, int h, const ClusterView *v,
                         ScreenCursor *cur, ClusterShown *shown);
/* The cursor line, with the letter the view drew; the domain's size is
 * left out when the line would not fit in width columns. */
void screen_cluster_cursor_line(const ClusterView *v, const ClusterShown *shown, bool ascii,
                                int width, char *buf, size_t n);

#endif
