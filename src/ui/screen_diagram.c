/* screen_diagram — draws a diagram page's view (rack, fabric, step bar or
 * chart) into a box. Kept apart from screen_page.c so that this file sees
 * draw/views.h and not lesson/lesson.h (both name the view kinds). Pure.
 */
#include "ui/screens.h"

#include "draw/charts.h"
#include "draw/series.h"
#include "draw/views.h"

#include <stdio.h>

int screen_diagram_draw(Canvas *c, int x, int y, int w, int h, int view, const Cluster *cl,
                        const Workload *wl, const Mapping *m, const Placement *pl,
                        const ScreenChart *chart, bool ascii, char *err, size_t err_len)
{
    if (view == VIEW_CHART && chart && chart->n > 0) {
        ChartSeries s;
        if (!series_step_time(&s, cl, wl, m, chart->x, chart->values, chart->n, ascii, err,
                              err_len))
            return 0;
        return chart_line(c, x, y, w, h, &s);
    }
    ViewInput in = view_input_default(cl);
    in.mapping = m && m->tp > 0 ? m : NULL;
    in.placement = pl;
    in.ascii = ascii;
    StepResult r;
    bool have_r = false;
    if (in.mapping && wl && wl->layers > 0) {
        char e[256] = "";
        if (step_eval(cl, wl, m, pl, NULL, &r, e, sizeof e) == STEP_OK) {
            in.result = &r;
            have_r = true;
        } else if (view == VIEW_BAR || view == VIEW_CHART) {
            snprintf(err, err_len, "%s", e);
            return 0;
        }
    }
    switch (view) {
    case VIEW_RACK:
        return view_rack_draw(c, x, y, w, h, &in);
    case VIEW_FABRIC:
        return view_fabric_draw(c, x, y, w, h, &in);
    default:
        /* bar (and a chart page without values: its base point as a bar) */
        if (!have_r) {
            snprintf(err, err_len, "this view needs a workload and a mapping");
            return 0;
        }
        return chart_step_bar(c, x, y, w, &r, NULL, ascii);
    }
}
