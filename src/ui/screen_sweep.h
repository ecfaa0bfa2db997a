/* SPDX-License-Identifier: MIT */
/* screen_sweep — the best-mapping search inside a scenario or free play
 * (`s`): runs sweep_run on the scenario's cluster and workload, searching
 * only what the scenario lets the learner change (degrees, micro-batch,
 * placement; interleave and ZeRO stay as they are, since no move changes
 * them), and shows the ranked top mappings, the explanation of the winner
 * and a chart of the best step time against TP degree. Enter applies the
 * selected mapping as one move (undo takes it back); Esc goes back.
 *
 * Pure: no curses. The SweepView owns its SweepResult (its buffer is reused
 * by the next search); screen_sweep_fini frees it and accepts NULL.
 */
#ifndef SCALELAB_UI_SCREEN_SWEEP_H
#define SCALELAB_UI_SCREEN_SWEEP_H

#include "draw/canvas.h"
#include "learn/scenario.h"
#include "model/sweep.h"
#include "ui/screens.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct SweepView {
    bool open;       /* the search result is on screen */
    SweepResult r;   /* owned */
    SweepSeries tp;  /* best step time against TP */
    int sel;         /* selected row of the ranking */
    double ms;       /* wall time of the search, milliseconds */
    char err[300];   /* the search found nothing: why */
    char scope[200]; /* what was searched ("degrees and micro-batch; placement kept") */
} SweepView;

typedef enum {
    SWEEP_KEY_NONE,  /* handled, stay */
    SWEEP_KEY_BACK,  /* close the search */
    SWEEP_KEY_APPLY, /* apply the selected entry (screen_sweep_apply), then close */
} SweepKey;

/* Runs the search for s (its cluster, workload and allowed changes) and
 * opens the view. False (view open, err set) when nothing legal was found. */
bool screen_sweep_run(SweepView *v, const Scenario *s);
void screen_sweep_fini(SweepView *v);
SweepKey screen_sweep_key(SweepView *v, int key);
/* Applies the selected entry to s as one move. False + err on refusal. */
bool screen_sweep_apply(const SweepView *v, Scenario *s, char *err, size_t err_len);
/* Draws the view in the w x h box at (x, y); cur (may be NULL) gets the
 * selected row, where the hardware cursor rests for screen readers. */
void screen_sweep_draw(Canvas *c, const SweepView *v, const Scenario *s, int x, int y, int w,
                       int h, ScreenCursor *cur);

#endif
