/* SPDX-License-Identifier: MIT */
/* sweep — the one mapping search: for one cluster and workload, every legal
 * (TP, PP, DP, EP, micro-batch, interleave) with CP fixed (1 unless given),
 * each evaluated by step_eval, ranked, and the winner explained tier by
 * tier. `sweep`, `eval` (degrees not given), `render`, `play` and the UI's
 * search screen all run this search, each pinning what its user fixed.
 *
 * Enumeration (pruned before any evaluation): TP and PP run over the
 * divisors of GPUs / CP only; TP must divide the heads and the FFN width
 * and agree with the KV heads; PP is at most the layers; DP = GPUs / (TP x PP)
 * must divide the global batch; EP runs over the divisors of
 * gcd(TP x CP x DP / ETP, experts) (the experts fold over those ranks; 1 for a
 * dense model); the micro-batch over the divisors of batch / DP, up to the
 * first that does not fit once anything fits (memory grows with the
 * micro-batch, so no larger one fits, and they would rank after every fit);
 * interleave v > 1 only where PP >= 2, v divides ceil(layers / PP) (the
 * largest chunk is 1/v of a stage; PP x v at most the layers) and the
 * micro-batch count is a multiple of PP (mapping_check's rules); a pinned
 * interleave is tried as given.
 *
 * Framework settings, where free (SWEEP_FREE), are searched without
 * multiplying the candidates: memory first, each candidate climbs a ladder
 * of ways to save memory in the order they cost time, and keeps the first
 * rung that fits (else the last, the least memory): ZeRO 1 without
 * recompute; ZeRO 2 (same traffic, gradients sharded); selective recompute
 * or the cheap parts (WL_RC_CHEAP_PARTS: norms, activation, Q/KV projections);
 * ZeRO 3 or full recompute (both tried, the faster kept); ZeRO 3 with full
 * recompute. Where offload is free, each level also tries the activations
 * of the level below it offloaded to host memory (worth it where the host
 * link keeps up with compute: NVLink-C2C on Grace systems), the faster
 * rung of a level kept. A rung that does not fit costs only its memory
 * (STEP_DETAIL_FIT); when none fits, the one kept is evaluated in full.
 * Then on the best SWEEP_TUNE_TOP candidates that recompute every layer,
 * full recompute on the fewest layers of each stage that fit (Megatron-Core's
 * recompute_num_layers, NeMo's activations_checkpoint_num_layers; the others
 * keep everything), and on the best SWEEP_TUNE_TOP with TP > 1, TP
 * communication overlap on and sequence parallelism off are tried and kept
 * where faster (and still fitting). So a search costs at most a few times
 * the evaluations of one with the settings pinned. Degrees given must divide the GPUs on their
 * own, and all of TP, PP and DP given must multiply to them: that is said before any search.
 *
 * Placements: every candidate is evaluated with the default placement (TP,
 * CP, EP, PP, DP innermost to outermost). The one alternative that can differ,
 * data-parallel ranks inside the domain before pipeline stages (TP, CP, EP,
 * DP, PP: pipeline stages spread over domains, leaves or sites), is evaluated
 * too where it can change a group's span (PP > 1, DP/EP > 1, and room left in
 * the domain or leaf after TP x EP, or several sites), with its group spans
 * in closed form (step_eval_spans), so it costs what a default evaluation
 * costs; skipped unevaluated when its spans are the default's, and kept only
 * when its step time differs. TP always stays innermost:
 * its all-reduces sit on the critical path of every layer. Where TP does
 * not divide the domain, the balanced placement (balance.h: each TP group
 * whole or split between two neighbouring domains, no part smaller than it
 * must be) is evaluated on the best SWEEP_BALANCE_TOP default-placement
 * candidates (fewer when alt_top says so), exactly (O(GPUs) each, hence the
 * cap), and kept where faster.
 *
 * Ranking: mappings whose memory fits first, by step time; then those that
 * do not fit (flagged), by step time. Ties break on the smaller TP, PP, EP,
 * micro-batch, interleave, then the default placement, so the order is
 * deterministic.
 *
 * Cost: no allocation per candidate (the entry array grows by doubling and
 * is reused by the next search); a full search at 131,072 GPUs takes a few
 * milliseconds (make bench). Pure: no I/O. Caller owns the
 * entries of a SweepResult (sweep_result_free accepts NULL).
 */
#ifndef SCALELAB_MODEL_SWEEP_H
#define SCALELAB_MODEL_SWEEP_H

#include "model/cluster.h"
#include "model/mapping.h"
#include "model/step.h"
#include "model/workload.h"
#include <stdbool.h>
#include <stddef.h>

typedef enum {
    SWEEP_PLACE_DEFAULT,  /* TP, CP, EP, PP, DP innermost to outermost (rank r on GPU r) */
    SWEEP_PLACE_DP_INNER, /* TP, CP, EP, DP, PP: DP ranks share a domain, PP spreads out */
    SWEEP_PLACE_BALANCED, /* TP groups balanced over neighbouring domains (balance.h) */
    SWEEP_PLACE_COUNT
} SweepPlace;

typedef struct {
    int tp, pp, dp, ep;       /* 0 = search; > 0 = only this degree */
    int micro_batch;          /* 0 = search the divisors of batch / DP; > 0 = only this */
    int interleave;           /* 0 = search the legal ones; > 0 = only this */
    int zero;                 /* ZeRO stage of every candidate, 0..3; SWEEP_FREE: searched */
    int alt_top;              /* try the alternative placement on this many of the best
                               * default-placement candidates; < 0 (default): on all */
    const StepParams *params; /* NULL: step_params_default() */
    int cp;                   /* context parallelism of every candidate; 0 = 1 (not searched) */
    int etp;                  /* expert-TP of every candidate; 0 = 1 (not searched) */
    /* The framework settings: SWEEP_KEEP (the default) runs every candidate
     * with the workload's own, SWEEP_FREE searches them, any other value
     * (a WlRecompute, a WlSwitch) pins it. */
    int recompute, seq_parallel, tp_overlap;
    int shard; /* ZeRO sharding group of every candidate (hybrid sharding); 0 = all DP x CP */
    /* Offload of activations to host memory: SWEEP_KEEP (the default) runs
     * the workload's own offload, SWEEP_FREE lets the memory ladder try it */
    int offload;
} SweepOptions;

#define SWEEP_FREE (-1) /* searched */
#define SWEEP_KEEP (-2) /* the workload's own setting */

/* The degrees free, ZeRO 1, the workload's framework settings, the
 * alternative placement tried on every candidate. */
SweepOptions sweep_options_default(void);

/* One evaluated candidate: the figures a ranked table and the explanation need. */
typedef struct {
    Mapping m; /* m.zero: the ZeRO stage it ran with */
    int micro_batch;
    WlRecompute recompute; /* the framework settings it ran with */
    int recompute_mods;    /* with SELECTIVE: the WL_RC_* parts (0: core attention) */
    int recompute_layers;  /* with FULL: layers of a stage recomputed (0: all) */
    int offload;           /* WL_OFFLOAD_* */
    WlSwitch seq_parallel, tp_overlap;
    bool sp_on, overlap_on; /* what those came to (step.h: on only with TP > 1) */
    SweepPlace place;
    double step_s;
    double part_s[STEP_PART_COUNT];
    double optimizer_s;
    double tokens_per_s;
    double mfu;
    double mem_per_gpu_bytes;
    double hbm_bytes;
    bool fits;
    GroupSpan span[DIM_COUNT]; /* worst group span of each dimension */
    StepPart bottleneck_part;
    Tier bottleneck_tier;
} SweepEntry;

typedef struct {
    SweepEntry *entries; /* ranked; n of them */
    int n;
    int cap;        /* allocated entries (reused by the next sweep_run) */
    int n_fit;      /* entries[0..n_fit) fit in memory */
    int evaluated;  /* evaluations asked for, refused mappings included; a
                     * ladder rung that stopped at its memory (it does not
                     * fit) is not counted */
    bool truncated; /* stopped at SWEEP_MAX_ENTRIES candidates */
} SweepResult;

#define SWEEP_TUNE_TOP    32     /* candidates whose overlap and SP are tried */
#define SWEEP_BALANCE_TOP 32     /* candidates whose balanced placement is tried */
#define SWEEP_MAX_ENTRIES 100000 /* 25 MB of entries; real jobs stay under 10,000 */

/* Runs the search; r must be zeroed ({0}) or come from an earlier sweep_run,
 * whose buffer is reused. Returns false with a reason in err when the
 * cluster or workload is invalid, an option is out of range, or no legal
 * mapping exists (r->n == 0; err names the first constraint that failed).
 * When degrees exist but no DP they give splits the global batch, err says
 * so in one line and names the nearest batches that work, below and above
 * ("no mapping of 16,416 GPUs splits a global batch of 2,048 sequences; the
 * nearest batches that work are 2,043 and 2,052"). */
bool sweep_run(SweepResult *r, const Cluster *c, const Workload *w, const SweepOptions *o,
               char *err, size_t err_len);

void sweep_result_free(SweepResult *r); /* frees the entries, keeps r itself; NULL ok */

/* The one mapping a command picks from a finished search: the fastest that
 * fits (entries[0]), or when nothing fits the one that needs the least
 * memory (the closest to fitting). NULL when the search found nothing. */
const SweepEntry *sweep_choice(const SweepResult *r);

/* The search as `eval` and `play` use it when degrees are not all given:
 * sweep_run with the default placement only, then sweep_choice. Fills *m and
 * (when not NULL) *micro_batch; false with sweep_run's reason in err. */
bool sweep_find_mapping(const Cluster *c, const Workload *w, const SweepOptions *o, Mapping *m,
                        int *micro_batch, char *err, size_t err_len);

/* The winner (entries[0]), or NULL when the search found nothing. */
const SweepEntry *sweep_best(const SweepResult *r);

/* The workload with the entry's micro-batch and framework settings. */
Workload sweep_entry_workload(const Workload *w, const SweepEntry *e);

/* The placement an entry was evaluated with: NULL for the default one, else
 * a new placement the caller frees. */
Placement *sweep_entry_placement(const Cluster *c, const SweepEntry *e);

/* Re-evaluates one entry in full (breakdown, step_explain material). */
StepStatus sweep_entry_eval(const Cluster *c, const Workload *w, const SweepEntry *e,
                            const StepParams *params, StepResult *out, char *err, size_t err_len);

/* The tier a group with this span runs its slowest traffic on. */
Tier sweep_span_tier(GroupSpan s);

/* "TP 8 inside the NVLink 4 domain (scale-up); PP 4 and DP 16 across the
 * scale-out fabric": where each dimension larger than 1 lands. Returns buf. */
char *sweep_explain(const Cluster *c, const SweepEntry *e, char *buf, size_t buf_len);

/* "TP, EP, PP, DP" (innermost first), for tables and JSON. */
const char *sweep_place_name(SweepPlace p);

#define SWEEP_SERIES_MAX 64

/* y against x for a chart: the best step time at each x (valid = something
 * fits there; otherwise y is the best step time that does not fit, or 0). */
typedef struct {
    int n;
    double x[SWEEP_SERIES_MAX];
    double y_s[SWEEP_SERIES_MAX];
    bool valid[SWEEP_SERIES_MAX];
    int best; /* index of the fastest valid point, -1 none */
} SweepSeries;

/* Best step time against TP degree, from a finished search (every TP the
 * search reached, ascending). */
void sweep_series_by_tp(const SweepResult *r, SweepSeries *s);

/* Best step time against the scale-up domain size: one search per value
 * (alternative placements off), scratch reused. n in 1..SWEEP_SERIES_MAX.
 * A domain size whose search finds nothing is an invalid point with y 0. */
bool sweep_series_by_domain(const Cluster *c, const Workload *w, const SweepOptions *o,
                            const int *domain_gpus, int n, SweepSeries *s, char *err,
                            size_t err_len);

#endif
