/* SPDX-License-Identifier: MIT */
/* predict — grading a typed quantity against an answer (see predict.h).
 *
 * Order of the checks: the text must read as a quantity of the page's kind
 * (else PREDICT_UNREADABLE, which costs no try); within the tolerance is
 * right; within the tolerance of 8x or 1/8 on a size or bandwidth is a
 * bits-for-bytes slip; anything else is too high or too low. A miss says by
 * how much: a percentage under a factor of 2, a factor above.
 *
 * Pure: no I/O, no allocation.
 */
#include "learn/predict.h"

#include "base/msg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *unit;
    UnitsKind kind;
} predict_units[] = {
    {"s", UNITS_TIME},        {"B", UNITS_BYTES},      {"B/s", UNITS_BANDWIDTH},
    {"b/s", UNITS_BANDWIDTH}, {"FLOP/s", UNITS_FLOPS}, {"FLOP", UNITS_WORK},
    {"W", UNITS_POWER},       {"", UNITS_COUNT},
};

bool predict_unit_known(const char *unit, UnitsKind *kind)
{
    for (size_t i = 0; unit && i < sizeof predict_units / sizeof predict_units[0]; i++)
        if (strcmp(unit, predict_units[i].unit) == 0) {
            if (kind)
                *kind = predict_units[i].kind;
            return true;
        }
    return false;
}

static double predict_tolerance(const PredictSpec *p)
{
    return p->tolerance > 0 ? p->tolerance : PREDICT_TOLERANCE_DEFAULT;
}

bool predict_spec_check(const PredictSpec *p, char *err, size_t err_len)
{
    if (!predict_unit_known(p->unit, NULL)) {
        msg_set(err, err_len,
                "unit '%s' is not one of s, B, B/s, b/s, FLOP/s, FLOP, W or \"\" (a count)",
                p->unit ? p->unit : "(none)");
        return false;
    }
    if (!isfinite(p->answer) || p->answer <= 0) {
        msg_set(err, err_len, "'answer' must be a finite number above 0 (got %g)", p->answer);
        return false;
    }
    if (!(p->tolerance >= 0 && p->tolerance <= 1)) {
        msg_set(err, err_len,
                "'tolerance' must be a fraction in (0, 1], e.g. 0.2 for 20%% (got %g)",
                p->tolerance);
        return false;
    }
    for (int i = 0; i < p->n_terms; i++) {
        const PredictTerm *t = &p->terms[i];
        if (!t->name || !t->name[0]) {
            msg_set(err, err_len, "terms[%d] needs a name", i + 1);
            return false;
        }
        if (!isfinite(t->value) || t->value < 0) {
            msg_set(err, err_len, "terms[%d] '%s' needs a finite value >= 0 (got %g)", i + 1,
                    t->name, t->value);
            return false;
        }
    }
    return true;
}

bool predict_counts_as_try(PredictVerdict v)
{
    return v != PREDICT_UNREADABLE;
}

int predict_dominant_term(const PredictSpec *p)
{
    if (p->n_terms < 2)
        return -1;
    int best = 0;
    for (int i = 1; i < p->n_terms; i++)
        if (p->terms[i].value > p->terms[best].value)
            best = i;
    return best;
}

char *predict_format(const PredictSpec *p, double value, bool ascii, char *buf, size_t buf_len)
{
    UnitsKind kind = UNITS_COUNT;
    predict_unit_known(p->unit, &kind);
    if (p->unit && strcmp(p->unit, "b/s") == 0)
        return units_format_bits(value, buf, buf_len);
    if (kind == UNITS_COUNT) {
        if (buf && buf_len)
            snprintf(buf, buf_len, "%.3g", value);
        return buf;
    }
    return units_format(kind, value, ascii, buf, buf_len);
}

static bool within(double value, double target, double tol)
{
    return fabs(value - target) <= tol * target;
}

/* "Too high by about 45%" / "Too low by a factor of about 3.2". */
static int predict_miss_words(double ratio, char *buf, size_t n)
{
    bool high = ratio > 1;
    if (ratio <= 0)
        return snprintf(buf, n, "Too low: the answer is above zero.");
    double f = high ? ratio : 1 / ratio;
    if (f < 2) {
        double pct = high ? (ratio - 1) * 100 : (1 - ratio) * 100;
        return snprintf(buf, n, "Too %s by about %.0f%%.", high ? "high" : "low", pct);
    }
    return snprintf(buf, n, "Too %s by a factor of about %.*f.", high ? "high" : "low",
                    f < 10 ? 1 : 0, f);
}

static void predict_add_term(const PredictSpec *p, char *buf, size_t n)
{
    int d = predict_dominant_term(p);
    size_t len = strlen(buf);
    if (d >= 0 && len < n)
        snprintf(buf + len, n - len, " The largest term here is %s.", p->terms[d].name);
}

static void predict_bits_words(const PredictSpec *p, const UnitsQuantity *q, const char *typed,
                               bool ascii, char *buf, size_t n)
{
    bool page_bits = strcmp(p->unit, "b/s") == 0;
    double ratio = q->value / p->answer;
    char as_page[40];
    predict_format(p, q->value, ascii, as_page, sizeof as_page);
    const char *asked = page_bits ? "bits" : "bytes";
    if (q->bits != page_bits)
        snprintf(buf, n,
                 "8x too %s: bits for bytes? You wrote %s in %s but the question is in %s "
                 "(%.40s = %s; a byte is 8 bits).",
                 ratio > 1 ? "high" : "low", typed, q->bits ? "bits" : "bytes", asked, typed,
                 as_page);
    else
        snprintf(buf, n, "8x too %s: bits for bytes? The question is in %s; a byte is 8 bits.",
                 ratio > 1 ? "high" : "low", asked);
}

/* The typed text without surrounding blanks, cut for messages. */
static void predict_trim(const char *typed, char *buf, size_t n)
{
    while (*typed == ' ' || *typed == '\t')
        typed++;
    size_t len = strlen(typed);
    while (len > 0 && (typed[len - 1] == ' ' || typed[len - 1] == '\t'))
        len--;
    if (len >= n)
        len = n - 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)typed[i];
        buf[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    buf[len] = '\0';
}

/* shown without a trailing "x", "×" or "times" (a count typed as a ratio). */
static const char *predict_drop_times(const char *shown, char *buf, size_t n)
{
    static const char *const ends[] = {"times", "x", "X", "\xc3\x97" /* × */};
    snprintf(buf, n, "%s", shown);
    size_t len = strlen(buf);
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t el = strlen(ends[i]);
        if (len > el && strcmp(buf + len - el, ends[i]) == 0) {
            buf[len - el] = '\0';
            break;
        }
    }
    return buf;
}

static PredictVerdict predict_unreadable(const PredictSpec *p, const UnitsQuantity *q,
                                         const char *err, const char *shown, UnitsKind kind,
                                         PredictGrade *out)
{
    static const char *const examples[] = {
        [UNITS_BANDWIDTH] = "450 GB/s", [UNITS_BYTES] = "71 GB", [UNITS_TIME] = "0.3 ms",
        [UNITS_FLOPS] = "989 TFLOP/s",  [UNITS_COUNT] = "72",    [UNITS_WORK] = "3.2 PFLOP",
        [UNITS_POWER] = "120 kW"};
    const char *ex = strcmp(p->unit, "b/s") == 0 ? "800 Gb/s" : examples[kind];
    out->verdict = PREDICT_UNREADABLE;
    if (err)
        msg_set(out->msg, sizeof out->msg, "%s", err);
    else if (q->kind == UNITS_COUNT)
        msg_set(out->msg, sizeof out->msg, "'%s' needs a unit: %s like %s.", shown,
                units_kind_noun(kind), ex);
    else
        msg_set(out->msg, sizeof out->msg, "'%s' is %s; the question asks for %s, like %s.", shown,
                units_kind_noun(q->kind), units_kind_noun(kind), ex);
    return out->verdict;
}

PredictVerdict predict_grade(const PredictSpec *p, const char *typed, bool ascii,
                             PredictGrade *out)
{
    PredictGrade g = {.verdict = PREDICT_UNREADABLE};
    UnitsKind kind = UNITS_COUNT;
    predict_unit_known(p->unit, &kind);
    char shown[48], err[MSG_LEN], plain[48];
    predict_trim(typed ? typed : "", shown, sizeof shown);
    if (kind == UNITS_COUNT) /* a ratio as people write it: "9x", "9 ×", "9 times" */
        typed = predict_drop_times(shown, plain, sizeof plain);
    UnitsQuantity q;
    if (!units_parse_quantity(typed, &q, err, sizeof err)) {
        predict_unreadable(p, &q, err, shown, kind, &g);
    } else if (q.kind != kind) {
        predict_unreadable(p, &q, NULL, shown, kind, &g);
    } else {
        double tol = predict_tolerance(p);
        g.value = q.value;
        g.ratio = q.value / p->answer;
        bool b = kind == UNITS_BYTES || kind == UNITS_BANDWIDTH;
        if (within(q.value, p->answer, tol)) {
            g.verdict = PREDICT_RIGHT;
            char as_page[40];
            predict_format(p, q.value, ascii, as_page, sizeof as_page);
            snprintf(g.msg, sizeof g.msg, "Right: %s is within %.0f%% of the model's answer.",
                     as_page, tol * 100);
        } else if (b &&
                   (within(q.value, p->answer * 8, tol) || within(q.value, p->answer / 8, tol))) {
            g.verdict = PREDICT_BITS_BYTES;
            predict_bits_words(p, &q, shown, ascii, g.msg, sizeof g.msg);
        } else {
            g.verdict = g.ratio > 1 ? PREDICT_TOO_HIGH : PREDICT_TOO_LOW;
            predict_miss_words(g.ratio, g.msg, sizeof g.msg);
            predict_add_term(p, g.msg, sizeof g.msg);
        }
    }
    if (out)
        *out = g;
    return g.verdict;
}
