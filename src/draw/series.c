/* SPDX-License-Identifier: MIT */
/* series — step time against a swept parameter; see series.h. Each point is a
 * full step_eval of a copy of the base with one field changed. */
#include "draw/series.h"

#include "base/msg.h"
#include "model/step.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const series_params[] = {"tp", "pp", "cp", "ep", "dp", "mb", "domain", "gpus"};

bool series_param_known(const char *param)
{
    for (size_t i = 0; param && i < sizeof series_params / sizeof series_params[0]; i++)
        if (strcmp(param, series_params[i]) == 0)
            return true;
    return false;
}

/* Applies one value; false when it cannot be expressed (DP not whole). */
static bool series_apply(const char *param, int v, Cluster *c, Workload *w, Mapping *m)
{
    int world = mapping_world(m);
    if (v < 1)
        return false;
    if (strcmp(param, "tp") == 0 || strcmp(param, "pp") == 0 || strcmp(param, "cp") == 0) {
        MappingDim d = param[0] == 't' ? DIM_TP : param[0] == 'p' ? DIM_PP : DIM_CP;
        if (!mapping_set_degree(m, world, d, v, NULL, 0))
            return false;
        if (m->dp % m->ep != 0)
            m->ep = 1;
        return true;
    }
    if (strcmp(param, "ep") == 0) {
        m->ep = v;
        return m->dp % v == 0;
    }
    if (strcmp(param, "mb") == 0) {
        w->micro_batch = v;
        return true;
    }
    if (strcmp(param, "dp") == 0 || strcmp(param, "gpus") == 0) {
        /* the cluster grows or shrinks with DP; the model-parallel part stays */
        int mp = m->tp * m->cp * m->pp;
        if (param[0] == 'd')
            m->dp = v;
        else if (v % mp == 0)
            m->dp = v / mp;
        else
            return false;
        if (m->dp % m->ep != 0)
            m->ep = 1;
        c->n_gpus = mp * m->dp;
        return true;
    }
    c->domain_gpus = v;
    return true;
}

static int series_current(const char *param, const Cluster *c, const Workload *w, const Mapping *m)
{
    if (strcmp(param, "tp") == 0)
        return m->tp;
    if (strcmp(param, "pp") == 0)
        return m->pp;
    if (strcmp(param, "cp") == 0)
        return m->cp;
    if (strcmp(param, "ep") == 0)
        return m->ep;
    if (strcmp(param, "mb") == 0)
        return w->micro_batch;
    if (strcmp(param, "dp") == 0)
        return m->dp;
    if (strcmp(param, "gpus") == 0)
        return c->n_gpus;
    return c->domain_gpus;
}

bool series_step_time(ChartSeries *s, const Cluster *c, const Workload *w, const Mapping *m,
                      const char *param, const double *values, int n, bool ascii, char *err,
                      size_t err_len)
{
    if (!series_param_known(param)) {
        msg_set(err, err_len, "cannot sweep '%s' (tp, pp, cp, ep, dp, mb, domain or gpus)",
                param ? param : "");
        return false;
    }
    if (n < 1 || n > CHART_MAX_POINTS) {
        msg_set(err, err_len, "a sweep takes 1 to %d values (got %d)", CHART_MAX_POINTS, n);
        return false;
    }
    static const struct {
        const char *param, *title, *x_label;
    } names[] = {
        {"tp", "Step time against TP degree", "TP"},
        {"pp", "Step time against PP degree", "PP"},
        {"cp", "Step time against CP degree", "CP"},
        {"ep", "Step time against EP degree", "EP"},
        {"mb", "Step time against micro-batch size", "micro-batch"},
        {"domain", "Step time against scale-up domain size", "domain"},
        {"dp", "Step time against DP degree (GPUs grow with it)", "DP"},
        {"gpus", "Step time against cluster size", "GPUs"},
    };
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].param, param) == 0) {
            s->title = names[i].title;
            s->x_label = names[i].x_label;
        }
    s->y_label = "step time";
    s->y_kind = UNITS_TIME;
    s->n = n;
    s->highlight = -1;
    s->ascii = ascii;
    int cur = series_current(param, c, w, m);
    for (int i = 0; i < n; i++) {
        Cluster cc = *c;
        Workload ww = *w;
        Mapping mm = *m;
        int v = (int)lround(values[i]);
        s->x[i] = v;
        if (v == cur && s->highlight < 0)
            s->highlight = i;
        StepResult r;
        char why[MSG_LEN];
        bool ok = series_apply(param, v, &cc, &ww, &mm) && cluster_check(&cc, why, sizeof why) &&
                  mapping_check(&mm, &cc, &ww, why, sizeof why) &&
                  step_eval(&cc, &ww, &mm, NULL, NULL, &r, why, sizeof why) == STEP_OK;
        s->valid[i] = ok && r.fits;
        s->y[i] = ok ? r.step_s : 0;
    }
    return true;
}
