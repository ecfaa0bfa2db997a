/* SPDX-License-Identifier: MIT */
/* mapping — legality of a TP x CP x PP x DP split with experts folded as
 * ETP x EP x EDP, rebalancing after one degree changes, and rank coordinates.
 *
 * Rank layout, innermost first: TP, CP, the inner part of DP (dpi =
 * mapping_dp_inner), PP, the rest of DP (dp = dpi * dpr):
 *   rank = tp_i + tp*(cp_i + cp*(dpi_i + dpi*(pp_i + pp*dpr_i)))
 * The DP coordinate of a rank is dpi_i + dpi*dpr_i, so a DP group holds the
 * ranks that share (tp_i, cp_i, pp_i). The expert view numbers the
 * TP x CP x DP ranks of a stage by L = tp_i + tp*(cp_i + cp*dp_i) and splits
 * L as etp_i + etp*(ep_i + ep*edp_i) (Megatron-Core's folding order: expert-TP,
 * EP, expert-DP). Because ETP x EP divides B = tp*cp*dpi, an EP group stays
 * inside one block of B consecutive GPUs: with the default placement it is
 * the progression of stride ETP and size EP. With ETP = TP and CP = 1 this
 * is the layout of EP carved out of DP (dpi = EP).
 *
 * The rebalance rule (mapping_set_degree) is here once; the scenario, the
 * lesson API, chart series and the command-line flags all use it.
 *
 * Pure: no I/O, no allocation.
 */
#include "model/mapping.h"

#include "base/msg.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

char *mapping_format(const Mapping *m, char *buf, size_t buf_len)
{
    if (!buf || buf_len == 0)
        return buf;
    if (!m) {
        snprintf(buf, buf_len, "(none)");
        return buf;
    }
    int n = snprintf(buf, buf_len, "TP%d", m->tp);
    if (m->cp > 1 && n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, " CP%d", m->cp);
    if (n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, " PP%d", m->pp);
    if (m->interleave > 1 && n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, "x%d", m->interleave);
    if (n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, " DP%d", m->dp);
    if (m->ep > 1 && n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, " EP%d", m->ep);
    if (mapping_etp(m) > 1 && n >= 0 && (size_t)n < buf_len)
        n += snprintf(buf + n, buf_len - (size_t)n, " ETP%d", m->etp);
    if (m->shard > 0 && m->shard < m->dp * m->cp && n >= 0 && (size_t)n < buf_len)
        snprintf(buf + n, buf_len - (size_t)n, " shard%d", m->shard);
    return buf;
}

int mapping_shard(const Mapping *m)
{
    if (!m)
        return 1;
    int all = m->dp * m->cp;
    return m->shard > 0 && m->shard < all ? m->shard : all;
}

int mapping_world(const Mapping *m)
{
    if (!m)
        return 0;
    long long w = (long long)m->tp * m->cp * m->pp * m->dp;
    return (w > 0 && w <= INT_MAX) ? (int)w : 0;
}

bool mapping_check(const Mapping *m, const Cluster *c, const Workload *w, char *err,
                   size_t err_len)
{
    if (!m)
        return msg_fail(err, err_len, "no mapping");
    if (m->tp < 1 || m->cp < 1 || m->pp < 1 || m->dp < 1 || m->ep < 1)
        return msg_fail(
            err, err_len,
            "TP, CP, PP, DP and EP must be at least 1 (got TP %d CP %d PP %d DP %d EP %d)", m->tp,
            m->cp, m->pp, m->dp, m->ep);
    if (m->interleave < 1)
        return msg_fail(err, err_len, "interleave must be at least 1 (got %d)", m->interleave);
    if (m->zero < 0 || m->zero > 3)
        return msg_fail(err, err_len, "ZeRO stage must be 0, 1, 2 or 3 (got %d)", m->zero);
    if (m->shard < 0 || (m->shard > 0 && (long long)m->dp * m->cp % m->shard != 0))
        return msg_fail(err, err_len,
                        "the sharding group of %d does not divide DP x CP = %d (hybrid "
                        "sharding shards inside a group and replicates across groups)",
                        m->shard, m->dp * m->cp);
    if (m->shard > 0 && m->shard < m->dp * m->cp && m->zero == 0)
        return msg_fail(err, err_len, "a sharding group needs ZeRO 1, 2 or 3 (--zero)");
    long long world = (long long)m->tp * m->cp * m->pp * m->dp;
    if (world > CLUSTER_MAX_GPUS)
        return msg_fail(err, err_len, "TP %d x CP %d x PP %d x DP %d = %lld GPUs is too many",
                        m->tp, m->cp, m->pp, m->dp, world);
    if (c && world != c->n_gpus)
        return msg_fail(err, err_len,
                        "TP %d x CP %d x PP %d x DP %d = %lld GPUs, but the cluster has %d", m->tp,
                        m->cp, m->pp, m->dp, world, c->n_gpus);
    if (m->etp < 0)
        return msg_fail(err, err_len, "ETP must be at least 1 (got %d)", m->etp);
    if (mapping_edp(m) == 0)
        return msg_fail(
            err, err_len,
            "EP %d x ETP %d = %lld does not divide TP %d x CP %d x DP %d = %lld (the experts "
            "fold over the ranks attention splits by TP, CP and DP)",
            m->ep, mapping_etp(m), (long long)m->ep * mapping_etp(m), m->tp, m->cp, m->dp,
            (long long)m->tp * m->cp * m->dp);
    if (!w)
        return true;
    if (w->heads % m->tp != 0)
        return msg_fail(err, err_len, "TP %d does not divide the %d attention heads", m->tp,
                        w->heads);
    if (w->kv_heads % m->tp != 0 && m->tp % w->kv_heads != 0)
        return msg_fail(err, err_len, "TP %d and the %d KV heads do not divide one another", m->tp,
                        w->kv_heads);
    if (w->ffn % m->tp != 0)
        return msg_fail(err, err_len, "TP %d does not divide the feed-forward width %d", m->tp,
                        w->ffn);
    if (w->seq % m->cp != 0)
        return msg_fail(err, err_len, "CP %d does not divide the sequence length %d", m->cp,
                        w->seq);
    if (m->pp > w->layers)
        return msg_fail(err, err_len, "PP %d is more pipeline stages than the %d layers", m->pp,
                        w->layers);
    if (m->ep > 1 && !workload_is_moe(w))
        return msg_fail(err, err_len, "EP %d needs a mixture-of-experts model; this one is dense",
                        m->ep);
    if (mapping_etp(m) > 1 && !workload_is_moe(w))
        return msg_fail(err, err_len, "ETP %d needs a mixture-of-experts model; this one is dense",
                        m->etp);
    if (workload_is_moe(w) && w->ffn % mapping_etp(m) != 0)
        return msg_fail(err, err_len, "ETP %d does not divide the expert feed-forward width %d",
                        m->etp, w->ffn);
    if (workload_is_moe(w) && w->experts % m->ep != 0)
        return msg_fail(err, err_len, "EP %d does not divide the %d experts", m->ep, w->experts);
    long long per_step = (long long)m->dp * w->micro_batch;
    if (w->global_batch % per_step != 0)
        return msg_fail(err, err_len,
                        "global batch %d is not a multiple of DP %d x micro-batch %d = %lld",
                        w->global_batch, m->dp, w->micro_batch, per_step);
    if (m->interleave > 1) {
        long long mb = w->global_batch / per_step;
        if (m->pp < 2)
            return msg_fail(err, err_len, "interleave %d needs pipeline parallelism (PP >= 2)",
                            m->interleave);
        /* Chunks may be uneven, as stages may (Llama 3 405B: 126 layers on
         * PP 16, §3.3.2); step.c charges the largest. Each needs a layer. */
        if ((long long)m->pp * m->interleave > w->layers)
            return msg_fail(
                err, err_len,
                "interleave: PP %d x %d chunks = %lld is more chunks than the %d layers", m->pp,
                m->interleave, (long long)m->pp * m->interleave, w->layers);
        if (mb % m->pp != 0)
            return msg_fail(err, err_len,
                            "interleave needs the %lld micro-batches to be a multiple of PP %d",
                            mb, m->pp);
    }
    return true;
}

int mapping_dim_size(const Mapping *m, MappingDim d)
{
    if (!m)
        return 0;
    switch (d) {
    case DIM_TP:
        return m->tp;
    case DIM_CP:
        return m->cp;
    case DIM_EP:
        return m->ep;
    case DIM_PP:
        return m->pp;
    case DIM_DP:
        return m->dp;
    default:
        return 0;
    }
}

const char *mapping_dim_name(MappingDim d)
{
    static const char *names[DIM_COUNT] = {"TP", "CP", "EP", "PP", "DP"};
    return (d >= 0 && d < DIM_COUNT) ? names[d] : "?";
}

/* The five radix digits of a rank: tp, cp, dp-inner, pp, dp-rest. */
enum { R_TP, R_CP, R_DPI, R_PP, R_DPR, R_COUNT };

long long mapping_gcd(long long a, long long b)
{
    while (b) {
        long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int mapping_etp(const Mapping *m)
{
    return m && m->etp > 1 ? m->etp : 1;
}

int mapping_edp(const Mapping *m)
{
    if (!m || m->ep < 1)
        return 0;
    long long ranks = (long long)m->tp * m->cp * m->dp,
              experts = (long long)m->ep * mapping_etp(m);
    return ranks > 0 && ranks % experts == 0 ? (int)(ranks / experts) : 0;
}

int mapping_dp_inner(const Mapping *m)
{
    if (!m || m->ep < 1 || m->tp < 1 || m->cp < 1)
        return 1;
    long long k = (long long)m->ep * mapping_etp(m), b = (long long)m->tp * m->cp;
    return (int)(k / mapping_gcd(k, b));
}

static void radix_sizes(const Mapping *m, int size[R_COUNT])
{
    int dpi = mapping_dp_inner(m);
    size[R_TP] = m->tp;
    size[R_CP] = m->cp;
    size[R_DPI] = dpi;
    size[R_PP] = m->pp;
    size[R_DPR] = m->dp / dpi;
}

bool mapping_has_layout(const Mapping *m)
{
    return m && m->tp >= 1 && m->cp >= 1 && m->ep >= 1 && m->pp >= 1 && m->dp >= 1 &&
           m->etp >= 0 && mapping_edp(m) > 0 && mapping_world(m) > 0;
}

static void rank_digits(const Mapping *m, int rank, int dig[R_COUNT])
{
    int size[R_COUNT];
    radix_sizes(m, size);
    for (int i = 0; i < R_COUNT; i++) {
        dig[i] = rank % size[i];
        rank /= size[i];
    }
}

/* The expert-view coordinates of a rank: etp_i, ep_i and edp_i (see top). */
static void expert_coords(const Mapping *m, const int dig[R_COUNT], int *etp_i, int *ep_i,
                          int *edp_i)
{
    int dpi = mapping_dp_inner(m), etp = mapping_etp(m);
    long long b = dig[R_TP] + (long long)m->tp * (dig[R_CP] + (long long)m->cp * dig[R_DPI]);
    long long l = b + (long long)m->tp * m->cp * dpi * dig[R_DPR];
    *etp_i = (int)(l % etp);
    *ep_i = (int)((l / etp) % m->ep);
    *edp_i = (int)(l / ((long long)etp * m->ep));
}

int mapping_coord(const Mapping *m, int rank, MappingDim d)
{
    if (!mapping_has_layout(m) || rank < 0 || rank >= mapping_world(m))
        return -1;
    int dig[R_COUNT], etp_i, ep_i, edp_i;
    rank_digits(m, rank, dig);
    switch (d) {
    case DIM_TP:
        return dig[R_TP];
    case DIM_CP:
        return dig[R_CP];
    case DIM_EP:
        expert_coords(m, dig, &etp_i, &ep_i, &edp_i);
        return ep_i;
    case DIM_PP:
        return dig[R_PP];
    case DIM_DP:
        return dig[R_DPI] + mapping_dp_inner(m) * dig[R_DPR];
    default:
        return -1;
    }
}

/* Whether radix digit i varies inside a group of dimension d (not EP). */
static bool digit_in_dim(MappingDim d, int i)
{
    switch (d) {
    case DIM_TP:
        return i == R_TP;
    case DIM_CP:
        return i == R_CP;
    case DIM_PP:
        return i == R_PP;
    case DIM_DP:
        return i == R_DPI || i == R_DPR;
    default:
        return false;
    }
}

int mapping_group_of(const Mapping *m, int rank, MappingDim d)
{
    if (!mapping_has_layout(m) || rank < 0 || rank >= mapping_world(m) || d < 0 || d >= DIM_COUNT)
        return -1;
    int dig[R_COUNT], size[R_COUNT];
    rank_digits(m, rank, dig);
    radix_sizes(m, size);
    if (d == DIM_EP) { /* ranks sharing etp_i, edp_i and the stage */
        int etp_i, ep_i, edp_i;
        expert_coords(m, dig, &etp_i, &ep_i, &edp_i);
        return etp_i + mapping_etp(m) * (edp_i + mapping_edp(m) * dig[R_PP]);
    }
    int g = 0;
    for (int i = R_COUNT - 1; i >= 0; i--)
        if (!digit_in_dim(d, i))
            g = g * size[i] + dig[i];
    return g;
}

bool mapping_derive_dp(Mapping *m, int n_gpus, char *err, size_t err_len)
{
    long long model = (long long)m->tp * m->cp * m->pp;
    if (model < 1 || n_gpus % model != 0) {
        msg_set(err, err_len,
                "TP %d x CP %d x PP %d = %lld does not divide the %d GPUs, so DP would not be "
                "whole",
                m->tp, m->cp, m->pp, model, n_gpus);
        return false;
    }
    m->dp = (int)(n_gpus / model);
    return true;
}

bool mapping_set_degree(Mapping *m, int n_gpus, MappingDim d, int value, char *err, size_t err_len)
{
    Mapping next = *m;
    switch (d) {
    case DIM_TP:
        next.tp = value;
        break;
    case DIM_CP:
        next.cp = value;
        break;
    case DIM_PP:
        next.pp = value;
        break;
    case DIM_EP:
        next.ep = value;
        break;
    case DIM_DP:
        next.dp = value;
        break;
    default:
        msg_set(err, err_len, "unknown parallel dimension");
        return false;
    }
    if (value < 1) {
        msg_set(err, err_len, "%s must be at least 1 (got %d)", mapping_dim_name(d), value);
        return false;
    }
    if (d == DIM_DP) {
        long long rest = (long long)next.tp * next.cp * next.dp;
        if (n_gpus % rest != 0) {
            msg_set(err, err_len,
                    "TP %d x CP %d x DP %d = %lld does not divide the %d GPUs, so PP would "
                    "not be whole",
                    next.tp, next.cp, next.dp, rest, n_gpus);
            return false;
        }
        next.pp = (int)(n_gpus / rest);
    } else if (d != DIM_EP && !mapping_derive_dp(&next, n_gpus, err, err_len)) {
        return false;
    }
    *m = next;
    return true;
}
