/* SPDX-License-Identifier: MIT */
/* predict — grading a number a learner types against the model's answer.
 *
 * A predict page asks for one quantity (a time, a size, a bandwidth, ...).
 * The learner types it as people write it ("0.3 ms", "450 GB/s", "3.2 Tb/s");
 * units_parse_quantity reads it, and predict_grade says whether it is within
 * the page's relative tolerance of the answer, or else too high or too low
 * and by how much, names a bits-for-bytes slip (off by 8 either way on a
 * size or bandwidth), and names the term that dominates the answer.
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

typedef struct {
    const char *unit; /* one of the units above */
    double answer;    /* > 0, base units */
    double tolerance; /* relative, in (0, 1]; 0 means PREDICT_TOLERANCE_DEFAULT */
    const PredictTerm *terms;
    int n_terms;
} PredictSpec;

typedef enum {
    PREDICT_RIGHT, /* within the tolerance */
    PREDICT_TOO_HIGH,
    PREDICT_TOO_LOW,
    PREDICT_BITS_BYTES, /* within the tolerance of 8x or 1/8 of the answer */
    PREDICT_UNREADABLE, /* not a number, no unit, or a unit of another kind */
} PredictVerdict;

typedef struct {
    PredictVerdict verdict;
    double value;  /* what was typed, in base units (0 when unreadable) */
    double ratio;  /* value / answer (0 when unreadable) */
    char msg[320]; /* one line for the learner; never reveals the answer */
} PredictGrade;

/* True for the units listed above; *kind gets the quantity kind. */
bool predict_unit_known(const char *unit, UnitsKind *kind);
/* Checks a page's fields (unit known, answer finite and > 0, tolerance in
 * (0, 1], terms named with finite values >= 0). False with a reason. */
bool predict_spec_check(const PredictSpec *p, char *err, size_t err_len);
/* Grades typed against p (p must pass predict_spec_check). Returns the
 * verdict, also stored in out with a message. */
PredictVerdict predict_grade(const PredictSpec *p, const char *typed, bool ascii,
                             PredictGrade *out);
/* Whether a verdict uses up one of the tries (an unreadable entry does not). */
bool predict_counts_as_try(PredictVerdict v);
/* Index of the largest term, -1 with fewer than two terms. */
int predict_dominant_term(const PredictSpec *p);
/* value (base units) in the page's unit as people write it: "0.30 ms",
 * "800 Gb/s" for a "b/s" page. Returns buf; 32 bytes are enough. */
char *predict_format(const PredictSpec *p, double value, bool ascii, char *buf, size_t buf_len);

#endif
