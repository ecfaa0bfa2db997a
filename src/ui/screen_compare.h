/* SPDX-License-Identifier: MIT */
/* screen_compare — two clusters or two mappings of one workload side by
 * side: each side's diagram (fabric view), then both step-time bars on one
 * time scale (a second takes as many columns on either bar, so lengths
 * compare honestly), a legend with both times of each part, and the
 * difference in words derived from the two results ("Same 512 GPUs: NVL72
 * racks 1.9x faster than 8-GPU servers; TP all-reduce is the difference").
 *
 * One drawing for both ways in: a lesson's compare page (screen_page.c) and
 * `c` on a scenario (the current state against the start, or against the
 * reference marked with `b`). Pure: no curses. A CompareSide owns copies of
 * its inputs; screen_compare_side_fini and screen_compare_free accept NULL.
 */
#ifndef SCALELAB_UI_SCREEN_COMPARE_H
#define SCALELAB_UI_SCREEN_COMPARE_H

#include "draw/canvas.h"
#include "model/step.h"
#include "ui/screens.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char label[64];
    Cluster cluster;
    Workload workload;
    Mapping mapping;
    Placement *placement; /* owned; NULL: the default placement */
    bool ok;              /* result is valid; else error says why */
    StepResult result;
    char error[400];
} CompareSide;

/* Copies the inputs (placement may be NULL) and evaluates the step. */
void screen_compare_side_set(CompareSide *s, const char *label, const Cluster *c,
                             const Workload *w, const Mapping *m, const Placement *p);
/* A side that could not be built: drawn as its error. */
void screen_compare_side_error(CompareSide *s, const char *label, const char *error);
void screen_compare_side_fini(CompareSide *s);

/* The part whose exposed time differs most between a and b (compute when
 * nothing differs); step_part_words names it. */
StepPart screen_compare_main_part(const StepResult *a, const StepResult *b);

/* The difference in words, from the two results alone: the accelerator
 * counts in `nouns` ("Same 512 GPUs", "512 vs 576 chips"; NULL: "GPUs"), which side is faster and
 * by what ratio of step times (slower / faster, "1.9x"; "1.04x" under 1.1x), and the part that
 * differs most; a side that does not fit in memory is named. Within 0.5% both take "the same
 * time". Writes at most n bytes. */
void screen_compare_sentence(const char *label_a, int gpus_a, const StepResult *a,
                             const char *label_b, int gpus_b, const StepResult *b,
                             const char *nouns, char *buf, size_t n);

/* Draws the two sides into the w x h box at (x, y): diagrams side by side
 * (one above the other when w < 120 and there is height), the aligned bars,
 * the legend and the sentence. Diagrams are left out when the box is too
 * short for them; the bars and the sentence always come first. */
void screen_compare_draw(Canvas *c, int x, int y, int w, int h, const CompareSide sides[2]);

/* A compact picture for short screens: each scale-up domain as a box of
 * GPU letters (the TP group of the rank on each GPU, as in the views), the
 * boxes side by side and wrapped; domains that do not fit in h rows are
 * counted ("+ 14 more", in the last box's place). Returns the rows used. */
int screen_compare_domains(Canvas *c, int x, int y, int w, int h, const Cluster *cl,
                           const Mapping *m, const Placement *pl);

/* ---- the compare view of a scenario page (`c`, reference `b`) ---- */
struct ScreenCompare {
    bool open;
    bool has_ref;        /* side[0] holds the state marked with b */
    char ref_name[32];   /* what side[0] is called: "reference", "start" */
    CompareSide side[2]; /* 0: the reference (or start), 1: now */
};

/* `b`: keeps a copy of the scenario's current state as the reference. */
void screen_compare_mark(PageState *p);
/* The same under another name (free play marks its start: "start"). */
void screen_compare_mark_named(PageState *p, const char *name);
/* `c`: opens the view (reference or start against now). */
void screen_compare_open(PageState *p);
bool screen_compare_is_open(const PageState *p);
/* Keys while open: c, Esc, q, Enter or Space close it; n/p pass on. */
ScreenAction screen_compare_key(PageState *p, int key);
void screen_compare_draw_scenario(Canvas *c, PageState *p, int top, int bottom);
void screen_compare_free(struct ScreenCompare *sc);

#endif
