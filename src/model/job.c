/* SPDX-License-Identifier: MIT */
/* job — the defaults of a training job and the one check of its mapping
 * (the table of defaults and their sources is in job.h).
 *
 * Pure: no I/O, no allocation.
 */
#include "model/job.h"

#include "base/msg.h"
#include "model/kernel.h"
#include "model/step.h"

#include <stdio.h>
#include <string.h>

Mapping job_mapping_default(void)
{
    Mapping m = {.tp = 1,
                 .cp = 1,
                 .pp = 1,
                 .dp = 0,
                 .ep = 1,
                 .interleave = JOB_DEFAULT_INTERLEAVE,
                 .zero = JOB_DEFAULT_ZERO,
                 .etp = 1,
                 .shard = 0};
    return m;
}

void job_set_sites(Cluster *c, int sites)
{
    c->sites = sites;
    if (sites > 1)
        c->across_lat_s = JOB_DEFAULT_ACROSS_LAT_S;
}

/* Sharding gradients or weights over the whole data-parallel group (ZeRO 2
 * or 3, FSDP's way) without a pipeline is PyTorch's FSDP on GPUs: Megatron
 * runs shard the optimizer (its distributed optimizer) and pipeline their
 * big models. A mixture-of-experts model stays on Megatron-Core and its
 * expert parallelism ("MoE parallel folding", Liu et al. 2025,
 * arXiv:2504.14960); chips programmed through XLA only run JAX whatever is
 * given (step_framework). */
void job_framework(Workload *w, const Cluster *c, int zero, int pp)
{
    if (w->framework != WL_FW_AUTO || zero < 2 || pp > 1 || workload_is_moe(w))
        return;
    if (!kernel_arch(&c->gpu)->compiled_only)
        w->framework = WL_FW_PYTORCH;
}

bool job_check_degrees(int n_gpus, int tp, int cp, int pp, int dp, char *err, size_t err_len)
{
    if (tp && pp && dp) {
        long long all = (long long)tp * (cp ? cp : 1) * pp * dp;
        if (all != n_gpus)
            return msg_fail(err, err_len,
                            "TP %d x CP %d x PP %d x DP %d = %lld GPUs, but the cluster has %d",
                            tp, cp ? cp : 1, pp, dp, all, n_gpus);
    }
    const int deg[] = {tp, cp, pp, dp};
    const char *dn[] = {"TP", "CP", "PP", "DP"};
    long long given = 1;
    char names[80] = "";
    int named = 0;
    for (int i = 0; i < 4; i++) {
        if (deg[i] <= 1)
            continue;
        given *= deg[i];
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s %d", used ? " x " : "", dn[i], deg[i]);
        named++;
        if (given > n_gpus || n_gpus % given != 0) {
            if (named > 1)
                return msg_fail(err, err_len, "%s = %lld does not divide the %d GPUs", names,
                                given, n_gpus);
            return msg_fail(err, err_len, "%s does not divide the %d GPUs", names, n_gpus);
        }
    }
    return true;
}

bool job_check(Mapping *m, const Cluster *c, const Workload *w, char *err, size_t err_len)
{
    if (!job_check_degrees(c->n_gpus, m->tp, m->cp, m->pp, m->dp, err, err_len))
        return false;
    if (m->dp == 0 && !mapping_derive_dp(m, c->n_gpus, err, err_len))
        return false;
    return mapping_check(m, c, w, err, err_len) && step_check_precision(c, w, err, err_len);
}
