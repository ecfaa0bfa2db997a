/* SPDX-License-Identifier: MIT */
/* diagram — a ViewKind drawn into a box (see diagram.h). Pure. */
#include "draw/diagram.h"

#include "base/msg.h"
#include "draw/charts.h"
#include "draw/series.h"

Diagram diagram_of(ViewKind k, const Cluster *cl)
{
    Diagram d = {0};
    d.view = k;
    d.cluster = cl;
    d.colour_by = DIM_TP;
    return d;
}

int diagram_draw(Canvas *c, int x, int y, int w, int h, const Diagram *d, char *err,
                 size_t err_len)
{
    const Mapping *m = d->mapping && d->mapping->tp > 0 ? d->mapping : NULL;
    if (d->view == VIEW_CHART && d->chart_n > 0) {
        ChartSeries s;
        if (!series_step_time(&s, d->cluster, d->workload, m, d->chart_x, d->chart_values,
                              d->chart_n, canvas_is_ascii(c), err, err_len))
            return 0;
        return chart_line(c, x, y, w, h, &s);
    }
    ViewInput in = view_input_default(d->cluster);
    in.mapping = m;
    in.placement = d->placement;
    in.colour_by = d->colour_by;
    StepResult r;
    bool have_r = false;
    if (m && d->workload && d->workload->layers > 0) {
        char e[256] = "";
        if (step_eval(d->cluster, d->workload, m, d->placement, NULL, &r, e, sizeof e) ==
            STEP_OK) {
            in.result = &r;
            have_r = true;
        } else if (d->view == VIEW_BAR || d->view == VIEW_CHART) {
            msg_set(err, err_len, "%s", e);
            return 0;
        }
    }
    switch (d->view) {
    case VIEW_RACK:
        return view_rack_draw(c, x, y, w, h, &in);
    case VIEW_FABRIC:
        return view_fabric_draw(c, x, y, w, h, &in);
    default:
        /* a bar, and a chart page without values: its base point as a bar */
        if (!have_r) {
            msg_set(err, err_len, "this view needs a workload and a mapping");
            return 0;
        }
        return chart_step_bar(c, x, y, w, &r, NULL);
    }
}
