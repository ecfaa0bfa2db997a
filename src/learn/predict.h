/* SPDX-License-Identifier: MIT */
/* predict — grading a number a learner types against the model's answer.
 *
 * A predict page asks for one quantity (a time, a size, a bandwidth, ...).
 * The learner types it as people write it ("0.3 ms", "450 GB/s", "3.2 Tb/s");
 * units_parse_quantity reads it, and predict_grade says whether it is within
 * the page's relative tolerance of the answer, or else too high or too low
 * and by how much, names the slip a wrong figure most likely comes from
 * (bits for bytes, both directions for one, per GPU for per server or per
 * rack, FP32 for BF16 bytes: the answer off by that factor, or by two of
 * them at once), and names the term that dominates the answer.
 *
 * Slips are named only where the question involves them: bits for bytes on
 * every bandwidth page by itself, the rest (and bits on a time, size or
 * count page where a Gb/s figure is in play) where the page declares them.
 * A memory question with no bits in it never hears "bits for bytes?".
 *
 * A share may be typed as a percentage on a count page ("87.5%" = 0.875).
 *
 * Units of a page: "s", "B", "B/s", "b/s", "FLOP/s", "FLOP", "W" or "" (a
 * plain count). The answer is always in scalelab's base units: seconds,
 * bytes, bytes per second (also for "b/s", which only says the answer is
 * shown and expected in bits), FLOP/s, FLOP, watts.
 *
 * Pure: no I/O, no allocation; used by the lesson screens, `render`, tests
 * and any other exercise that grades a typed number.
 */
#ifndef SCALELAB_LEARN_PREDICT_H
#define SCALELAB_LEARN_PREDICT_H

#include "model/units.h"

#include <stdbool.h>
#include <stddef.h>

#define PREDICT_TOLERANCE_DEFAULT 0.2
#define PREDICT_TRIES             3 /* tries before the answer is shown */

typedef struct {
    const char *name; /* "latency", "bandwidth", ... */
    double value;     /* in the answer's base unit, >= 0 */
} PredictTerm;

/* The slips a page can name. Each multiplies or divides the answer by its
 * factor: 8 (bits), 2 (directions, FP32), the GPUs of a server or rack;
 * the complement, on a share (a count below 1), is 1 - x for x. */
typedef enum {
    PREDICT_SLIP_BITS,       /* bits for bytes: a Gb/s figure not divided by 8 */
    PREDICT_SLIP_DIRECTIONS, /* both directions added where one is meant */
    PREDICT_SLIP_FP32,       /* 4 bytes per value (FP32) where BF16 holds 2 */
    PREDICT_SLIP_SERVER,     /* per GPU and per server mixed up */
    PREDICT_SLIP_RACK,       /* per GPU and per rack mixed up */
    PREDICT_SLIP_COMPLEMENT, /* a share: the other part (1 - x) for x */
    PREDICT_SLIP_KIND_COUNT
} PredictSlipKind;

#define PREDICT_MAX_SLIPS 8

typedef struct {
    PredictSlipKind kind;
    double factor; /* > 1; for SERVER and RACK the GPUs of one, else 0 = the kind's own */
} PredictSlip;

typedef struct {
    const char *unit; /* one of the units above */
    double answer;    /* > 0, base units */
    double tolerance; /* relative, in (0, 1]; 0 means PREDICT_TOLERANCE_DEFAULT */
    const PredictTerm *terms;
    int n_terms;
    const PredictSlip *slips; /* the slips the question involves (bits is implied on a
                               * bandwidth page); at most PREDICT_MAX_SLIPS */
    int n_slips;
} PredictSpec;

typedef enum {
    PREDICT_RIGHT, /* within the tolerance */
    PREDICT_TOO_HIGH,
    PREDICT_TOO_LOW,
    PREDICT_SLIP,       /* within the tolerance of the answer moved by one or two slips */
    PREDICT_UNREADABLE, /* not a number, no unit, or a unit of another kind */
} PredictVerdict;

typedef struct {
    PredictVerdict verdict;
    double value;            /* what was typed, in base units (0 when unreadable) */
    double ratio;            /* value / answer (0 when unreadable) */
    PredictSlipKind slip[2]; /* PREDICT_SLIP: the slips named, n_slip of them */
    int slip_dir[2];         /* +1: that slip made the figure higher, -1 lower */
    int n_slip;
    char msg[480]; /* one line for the learner; never reveals the answer */
} PredictGrade;

/* The name a lesson writes for a slip ("bits", "directions", "fp32",
 * "per_server", "per_rack", "complement"), and back (-1 when unknown). */
const char *predict_slip_name(PredictSlipKind k);
int predict_slip_find(const char *name);
/* Whether a slip kind takes a count (per_server = 8, per_rack = 72). */
bool predict_slip_takes_count(PredictSlipKind k);
/* Whether p names slip k: declared, or bits on a bandwidth page. */
bool predict_slip_in_play(const PredictSpec *p, PredictSlipKind k);

/* True for the units listed above; *kind gets the quantity kind. */
bool predict_unit_known(const char *unit, UnitsKind *kind);
/* Checks a page's fields (unit known, answer finite and > 0, tolerance in
 * (0, 1], terms named with finite values >= 0, slips known, each once, a
 * server or rack of 2 GPUs or more, the complement only on a share).
 * False with a reason. */
bool predict_spec_check(const PredictSpec *p, char *err, size_t err_len);
/* Grades typed against p (p must pass predict_spec_check). Returns the
 * verdict, also stored in out with a message. */
PredictVerdict predict_grade(const PredictSpec *p, const char *typed, bool ascii,
                             PredictGrade *out);
/* Whether a verdict uses up one of the tries (an unreadable entry does not). */
bool predict_counts_as_try(PredictVerdict v);
/* Index of the largest term, -1 with fewer than two terms or when none is
 * clearly largest (PREDICT_DOMINANT times every other: equal halves name
 * nothing). */
#define PREDICT_DOMINANT 1.25
int predict_dominant_term(const PredictSpec *p);
/* value (base units) in the page's unit as people write it: "0.30 ms",
 * "800 Gb/s" for a "b/s" page, "0.75 (75%)" for a share. Returns buf; 32
 * bytes are enough. */
char *predict_format(const PredictSpec *p, double value, bool ascii, char *buf, size_t buf_len);

#endif
