/* SPDX-License-Identifier: MIT */
/* predict — grading a typed quantity against an answer (see predict.h).
 *
 * Order of the checks: the text must read as a quantity of the page's kind
 * (else PREDICT_UNREADABLE, which costs no try; on a count page "87.5%"
 * reads as 0.875, and 87.5 typed for a share of 0.875 is sent back as
 * unreadable with the hint to write the percent sign); within the tolerance
 * is right; within the tolerance of the answer moved by one slip in play
 * (times or divided by its factor), then by two at once, is that slip;
 * anything else is too high or too low. A miss says by how much: a
 * percentage under a factor of 2, a factor above.
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

/* Each slip: the name a lesson writes, its factor (0: a count the page
 * gives), the slip in a few words when the typed figure is too high and
 * when it is too low, why it is a slip, and that in a few words (for two
 * slips at once). */
static const struct {
    const char *name;
    double factor;
    const char *high, *low;
    const char *why, *brief;
} predict_slips[PREDICT_SLIP_KIND_COUNT] = {
    [PREDICT_SLIP_BITS] = {"bits", 8, "bits for bytes", "bits for bytes",
                           "a rate in bits (Gb/s) is 8 times the same rate in bytes (GB/s): "
                           "network cards are sold in bits",
                           "a byte is 8 bits"},
    [PREDICT_SLIP_DIRECTIONS] = {"directions", 2, "both directions for one",
                                 "one direction for both",
                                 "a figure that adds both directions is twice what each "
                                 "direction carries",
                                 "both ways is twice one way"},
    [PREDICT_SLIP_FP32] = {"fp32", 2, "FP32 for BF16 bytes", "too few bytes per value",
                           "a BF16 value takes 2 bytes, an FP32 value 4 (FP8 takes 1)",
                           "FP32 is 4 bytes, BF16 2, FP8 1"},
    [PREDICT_SLIP_SERVER] = {"per_server", 0, "per server for per GPU", "per GPU for per server",
                             NULL, NULL},
    [PREDICT_SLIP_RACK] = {"per_rack", 0, "per rack for per GPU", "per GPU for per rack", NULL,
                           NULL},
    [PREDICT_SLIP_COMPLEMENT] = {"complement", 0, "the other part of the whole",
                                 "the other part of the whole",
                                 "the two parts add up to the whole, and the question asks "
                                 "for the other one",
                                 NULL},
};

const char *predict_slip_name(PredictSlipKind k)
{
    return (int)k >= 0 && k < PREDICT_SLIP_KIND_COUNT ? predict_slips[k].name : "?";
}

int predict_slip_find(const char *name)
{
    for (int k = 0; name && k < PREDICT_SLIP_KIND_COUNT; k++)
        if (strcmp(name, predict_slips[k].name) == 0)
            return k;
    return -1;
}

bool predict_slip_takes_count(PredictSlipKind k)
{
    return k == PREDICT_SLIP_SERVER || k == PREDICT_SLIP_RACK;
}

static bool predict_is_bandwidth(const PredictSpec *p)
{
    return p->unit && (strcmp(p->unit, "B/s") == 0 || strcmp(p->unit, "b/s") == 0);
}

bool predict_slip_in_play(const PredictSpec *p, PredictSlipKind k)
{
    if (k == PREDICT_SLIP_BITS && predict_is_bandwidth(p))
        return true;
    for (int i = 0; i < p->n_slips; i++)
        if (p->slips[i].kind == k)
            return true;
    return false;
}

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
    if (p->n_slips < 0 || p->n_slips > PREDICT_MAX_SLIPS || (p->n_slips && !p->slips)) {
        msg_set(err, err_len, "'slips' names at most %d slips", PREDICT_MAX_SLIPS);
        return false;
    }
    for (int i = 0; i < p->n_slips; i++) {
        const PredictSlip *sl = &p->slips[i];
        if ((int)sl->kind < 0 || sl->kind >= PREDICT_SLIP_KIND_COUNT) {
            msg_set(err, err_len, "slips[%d] is not a known slip", i + 1);
            return false;
        }
        for (int j = 0; j < i; j++)
            if (p->slips[j].kind == sl->kind) {
                msg_set(err, err_len, "slip '%s' is named twice", predict_slip_name(sl->kind));
                return false;
            }
        if (sl->kind == PREDICT_SLIP_COMPLEMENT && !(p->unit && !p->unit[0] && p->answer < 1)) {
            msg_set(err, err_len, "slip 'complement' needs a share: a count answer below 1");
            return false;
        }
        if (predict_slip_takes_count(sl->kind) &&
            !(isfinite(sl->factor) && sl->factor >= 2 && sl->factor <= 1e6)) {
            msg_set(err, err_len, "slip '%s' needs the GPUs of one (2 or more, got %g)",
                    predict_slip_name(sl->kind), sl->factor);
            return false;
        }
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
    for (int i = 0; i < p->n_terms; i++) /* equal halves: no term to name */
        if (i != best && p->terms[i].value * PREDICT_DOMINANT > p->terms[best].value)
            return -1;
    return best;
}

char *predict_format(const PredictSpec *p, double value, bool ascii, char *buf, size_t buf_len)
{
    UnitsKind kind = UNITS_COUNT;
    predict_unit_known(p->unit, &kind);
    if (p->unit && strcmp(p->unit, "b/s") == 0)
        return units_format_bits(value, buf, buf_len);
    if (kind == UNITS_COUNT) { /* a share also as a percentage: "0.75 (75%)" */
        if (buf && buf_len && value > 0 && value < 1)
            snprintf(buf, buf_len, "%.3g (%.3g%%)", value, 100 * value);
        else if (buf && buf_len)
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

/* One slip in play, with its factor. */
typedef struct {
    PredictSlipKind kind;
    double factor;
} PlaySlip;

/* The slips p names, bits first when the page is a bandwidth or the
 * learner wrote bits (typed_bits: "71 Gb" on a size page). */
static int predict_slips_in_play(const PredictSpec *p, bool typed_bits, PlaySlip *out)
{
    int n = 0;
    bool bits = predict_is_bandwidth(p) || typed_bits;
    if (bits)
        out[n++] = (PlaySlip){PREDICT_SLIP_BITS, 8};
    for (int i = 0; i < p->n_slips && n < PREDICT_MAX_SLIPS + 1; i++) {
        PredictSlipKind k = p->slips[i].kind;
        if (k == PREDICT_SLIP_BITS && bits)
            continue;
        double f = predict_slip_takes_count(k) ? p->slips[i].factor : predict_slips[k].factor;
        out[n++] = (PlaySlip){k, f};
    }
    return n;
}

/* The slip in words, by the side it errs on: a typed figure a server's
 * times too high took "per server for per GPU", one that much too low
 * "per GPU for per server". */
static const char *predict_slip_words(const PlaySlip *s, bool high)
{
    return high ? predict_slips[s->kind].high : predict_slips[s->kind].low;
}

static void predict_slip_why(const PlaySlip *s, bool high, bool brief, char *buf, size_t n)
{
    if (!predict_slip_takes_count(s->kind)) {
        snprintf(buf, n, "%s", brief ? predict_slips[s->kind].brief : predict_slips[s->kind].why);
        return;
    }
    const char *what = s->kind == PREDICT_SLIP_SERVER ? "server" : "rack";
    if (brief)
        snprintf(buf, n, "a %s is %.0f GPUs", what, s->factor);
    else if (high)
        snprintf(buf, n, "one %s holds %.0f GPUs and the question asks about one of them", what,
                 s->factor);
    else
        snprintf(buf, n, "the question counts all %.0f GPUs of one %s", s->factor, what);
}

/* The factor of a miss, as people say it: "8x", "2.25x". */
static void predict_factor_words(double f, char *buf, size_t n)
{
    snprintf(buf, n, "%.3gx", f);
}

/* The slip or pair of slips that explains value, if any: fills g. */
static bool predict_match_slips(const PredictSpec *p, const UnitsQuantity *q, double tol,
                                PredictGrade *g)
{
    PlaySlip in[PREDICT_MAX_SLIPS + 1];
    int n = predict_slips_in_play(p, q->bits, in);
    double value = q->value;
    for (int i = 0; i < n; i++)
        if (in[i].kind == PREDICT_SLIP_COMPLEMENT && fabs(1 - 2 * p->answer) > tol * p->answer &&
            within(value, 1 - p->answer, tol)) {
            g->slip[0] = in[i].kind;
            g->slip_dir[0] = value > p->answer ? 1 : -1;
            g->n_slip = 1;
            return true;
        }
    for (int i = 0; i < n; i++)
        for (int sgn = 1; in[i].kind != PREDICT_SLIP_COMPLEMENT && sgn >= -1; sgn -= 2)
            if (within(value, p->answer * pow(in[i].factor, sgn), tol)) {
                g->slip[0] = in[i].kind;
                g->slip_dir[0] = sgn;
                g->n_slip = 1;
                return true;
            }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && in[i].kind != PREDICT_SLIP_COMPLEMENT; j++)
            for (int a = 1; in[j].kind != PREDICT_SLIP_COMPLEMENT && a >= -1; a -= 2)
                for (int b = 1; b >= -1; b -= 2) {
                    double f = pow(in[i].factor, a) * pow(in[j].factor, b);
                    if (fabs(f - 1) > tol && within(value, p->answer * f, tol)) {
                        g->slip[0] = in[i].kind;
                        g->slip[1] = in[j].kind;
                        g->slip_dir[0] = a;
                        g->slip_dir[1] = b;
                        g->n_slip = 2;
                        return true;
                    }
                }
    return false;
}

static const PlaySlip *predict_find_play(const PlaySlip *in, int n, PredictSlipKind k)
{
    for (int i = 0; i < n; i++)
        if (in[i].kind == k)
            return &in[i];
    return NULL;
}

/* The message of a slip verdict: "2x too high: both directions for one? A
 * figure that adds both directions is twice what each direction carries." */
static void predict_slip_msg(const PredictSpec *p, const UnitsQuantity *q, const char *shown,
                             bool ascii, PredictGrade *g)
{
    bool high = g->ratio > 1;
    if (g->n_slip == 1 && g->slip[0] == PREDICT_SLIP_BITS &&
        (predict_is_bandwidth(p) || q->bits)) {
        predict_bits_words(p, q, shown, ascii, g->msg, sizeof g->msg);
        return;
    }
    PlaySlip in[PREDICT_MAX_SLIPS + 1];
    int n = predict_slips_in_play(p, q->bits, in);
    char f[24], y0[160], y1[160];
    const PlaySlip *s0 = predict_find_play(in, n, g->slip[0]);
    if (g->n_slip == 1 && s0->kind == PREDICT_SLIP_COMPLEMENT) {
        predict_slip_why(s0, high, false, y0, sizeof y0);
        snprintf(g->msg, sizeof g->msg, "Too %s: %s? %c%s.", high ? "high" : "low",
                 predict_slip_words(s0, high),
                 y0[0] >= 'a' && y0[0] <= 'z' ? y0[0] - 'a' + 'A' : y0[0], y0 + 1);
        return;
    }
    if (g->n_slip == 1) {
        /* The nominal factor, not the typed ratio: "8x", never "7.6x". */
        predict_factor_words(s0->factor, f, sizeof f);
        predict_slip_why(s0, high, false, y0, sizeof y0);
        snprintf(g->msg, sizeof g->msg, "%s too %s: %s? %c%s.", f, high ? "high" : "low",
                 predict_slip_words(s0, high),
                 y0[0] >= 'a' && y0[0] <= 'z' ? y0[0] - 'a' + 'A' : y0[0], y0 + 1);
        return;
    }
    const PlaySlip *s1 = predict_find_play(in, n, g->slip[1]);
    predict_factor_words(high ? g->ratio : 1 / g->ratio, f, sizeof f);
    bool h0 = g->slip_dir[0] > 0, h1 = g->slip_dir[1] > 0;
    predict_slip_why(s0, h0, true, y0, sizeof y0);
    predict_slip_why(s1, h1, true, y1, sizeof y1);
    snprintf(g->msg, sizeof g->msg, "About %s too %s: %s, and %s? Two slips at once: %s; %s.", f,
             high ? "high" : "low", predict_slip_words(s0, h0), predict_slip_words(s1, h1), y0,
             y1);
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

/* A count page's "87.5%": the text before the sign into buf, true when
 * there was one. */
static bool predict_drop_percent(const char *shown, char *buf, size_t n)
{
    snprintf(buf, n, "%s", shown);
    size_t len = strlen(buf);
    if (len == 0 || buf[len - 1] != '%')
        return false;
    buf[--len] = '\0';
    while (len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == '\t'))
        buf[--len] = '\0';
    return true;
}

/* A share (answer below 1) typed as a percentage without its sign: "87.5"
 * for 0.875 reads as 87.5 times the whole. Sent back, costing no try. */
static bool predict_share_without_sign(const PredictSpec *p, const UnitsQuantity *q, bool percent,
                                       double tol, const char *shown, PredictGrade *g)
{
    if (percent || p->answer >= 1 || !within(q->value / 100, p->answer, tol))
        return false;
    g->verdict = PREDICT_UNREADABLE;
    snprintf(g->msg, sizeof g->msg,
             "'%s' reads as %s times the whole; a share is written with its sign (%s%%) or "
             "as a fraction.",
             shown, shown, shown);
    return true;
}

static void predict_grade_value(const PredictSpec *p, const UnitsQuantity *q, const char *shown,
                                bool ascii, PredictGrade *g)
{
    double tol = predict_tolerance(p);
    g->value = q->value;
    g->ratio = q->value / p->answer;
    if (within(q->value, p->answer, tol)) {
        g->verdict = PREDICT_RIGHT;
        char as_page[40];
        predict_format(p, q->value, ascii, as_page, sizeof as_page);
        snprintf(g->msg, sizeof g->msg, "Right: %s is within %.0f%% of the model's answer.",
                 as_page, tol * 100);
    } else if (predict_match_slips(p, q, tol, g)) {
        g->verdict = PREDICT_SLIP;
        predict_slip_msg(p, q, shown, ascii, g);
    } else {
        g->verdict = g->ratio > 1 ? PREDICT_TOO_HIGH : PREDICT_TOO_LOW;
        predict_miss_words(g->ratio, g->msg, sizeof g->msg);
        predict_add_term(p, g->msg, sizeof g->msg);
    }
}

PredictVerdict predict_grade(const PredictSpec *p, const char *typed, bool ascii,
                             PredictGrade *out)
{
    PredictGrade g = {.verdict = PREDICT_UNREADABLE};
    UnitsKind kind = UNITS_COUNT;
    predict_unit_known(p->unit, &kind);
    char shown[48], err[MSG_LEN], plain[48], bare[48];
    predict_trim(typed ? typed : "", shown, sizeof shown);
    bool percent = false;
    typed = shown;
    if (kind == UNITS_COUNT) { /* a ratio as people write it: "9x", "9 ×", "9 times"; "87.5%" */
        percent = predict_drop_percent(shown, bare, sizeof bare);
        typed = percent ? bare : predict_drop_times(shown, plain, sizeof plain);
    }
    UnitsQuantity q;
    if (!units_parse_quantity(typed, &q, err, sizeof err)) {
        predict_unreadable(p, &q, err, shown, kind, &g);
    } else if (q.kind != kind) {
        predict_unreadable(p, &q, NULL, shown, kind, &g);
    } else {
        if (percent)
            q.value /= 100;
        if (!predict_share_without_sign(p, &q, percent, predict_tolerance(p), shown, &g))
            predict_grade_value(p, &q, shown, ascii, &g);
    }
    if (out)
        *out = g;
    return g.verdict;
}
