/* SPDX-License-Identifier: MIT */
/* units — parse and print bandwidths, sizes, times, FLOP/s and counts.
 *
 * A quantity is a plain decimal number (digits, one optional point, an
 * optional exponent; no sign other than '+', no "nan", "inf" or hex), optional
 * blanks, then a unit. The unit is classified on its own (size, bandwidth,
 * time, FLOP/s, amount of work, bare count) so that a unit of the wrong kind
 * gets a message naming what it is ("'1.8 TB' is a size, not a bandwidth").
 * Conventions are the ones units.h states: decimal SI prefixes, binary ones
 * (KiB, MiB, ...) only where written with the "i", "B" = byte, "b" = bit, and
 * a bare "400G" is a NIC speed in gigabits per second.
 *
 * Pure: no I/O, no allocation, depends on libc only.
 */
#include "model/units.h"
#include "base/msg.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a unit suffix means on its own. */
typedef enum {
    UK_NONE, /* no unit at all */
    UK_BYTES,
    UK_BANDWIDTH,
    UK_TIME,
    UK_FLOPS,
    UK_WORK,  /* "TFLOP": an amount of work, not a rate */
    UK_POWER, /* "kW", "MW" */
    UK_UNKNOWN,
} UnitClass;

/* The longest unit text, with its NUL. */
#define UNIT_MAX 32

#define MICRO_SIGN "\xc2\xb5" /* U+00B5 */
#define GREEK_MU   "\xce\xbc" /* U+03BC */

static bool is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* Length of the number at the start of s (0 when there is none). Accepts
 * [+]digits[.digits][e[+-]digits] with at least one digit in the mantissa. */
static size_t number_len(const char *s)
{
    size_t i = 0, digits = 0;
    if (s[i] == '+')
        i++;
    while (is_digit(s[i])) {
        i++;
        digits++;
    }
    if (s[i] == '.') {
        i++;
        while (is_digit(s[i])) {
            i++;
            digits++;
        }
    }
    if (digits == 0)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (is_digit(s[j])) {
            while (is_digit(s[j]))
                j++;
            i = j;
        }
    }
    return i;
}

/* Decimal prefix value of one letter, 0 when the letter is not a prefix. */
static double decimal_prefix(char ch)
{
    switch (ch) {
    case 'k':
    case 'K':
        return 1e3;
    case 'M':
        return 1e6;
    case 'G':
        return 1e9;
    case 'T':
        return 1e12;
    case 'P':
        return 1e15;
    case 'E':
        return 1e18;
    default:
        return 0;
    }
}

static double binary_prefix(char ch)
{
    switch (ch) {
    case 'k':
    case 'K':
        return 1024.0;
    case 'M':
        return 1048576.0;
    case 'G':
        return 1073741824.0;
    case 'T':
        return 1099511627776.0;
    case 'P':
        return 1125899906842624.0;
    default:
        return 0;
    }
}

static bool eq_any(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

static bool eq_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (char)(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return *a == *b;
}

/* Classifies a unit (already trimmed) and returns its multiplier to the base
 * unit of its class (bytes, bytes/s, seconds, FLOP/s, FLOP, W); *bits tells
 * whether it was written in bits (bits may be NULL). */
static UnitClass classify_bits(const char *u, double *mult, bool *bits);

static UnitClass classify(const char *u, double *mult)
{
    return classify_bits(u, mult, NULL);
}

static UnitClass classify_bits(const char *u, double *mult, bool *bits)
{
    bool dummy;
    if (!bits)
        bits = &dummy;
    *bits = false;
    *mult = 1;
    if (u[0] == '\0')
        return UK_NONE;

    static const char *const t_s[] = {"s", "sec", "secs", "second", "seconds", NULL};
    static const char *const t_ms[] = {"ms", "msec", NULL};
    static const char *const t_us[] = {"us", MICRO_SIGN "s", GREEK_MU "s", "usec", NULL};
    static const char *const t_ns[] = {"ns", "nsec", NULL};
    static const char *const t_min[] = {"min", "mins", "minute", "minutes", NULL};
    static const char *const t_h[] = {"h", "hr", "hour", "hours", NULL};
    static const char *const t_d[] = {"d", "day", "days", NULL};
    if (eq_any(u, t_s))
        return UK_TIME;
    if (eq_any(u, t_ms)) {
        *mult = 1e-3;
        return UK_TIME;
    }
    if (eq_any(u, t_us)) {
        *mult = 1e-6;
        return UK_TIME;
    }
    if (eq_any(u, t_ns)) {
        *mult = 1e-9;
        return UK_TIME;
    }
    if (eq_any(u, t_min)) {
        *mult = 60;
        return UK_TIME;
    }
    if (eq_any(u, t_h)) {
        *mult = 3600;
        return UK_TIME;
    }
    if (eq_any(u, t_d)) {
        *mult = 86400;
        return UK_TIME;
    }

    if (strcmp(u, "W") == 0)
        return UK_POWER;

    /* [prefix][i]base */
    const char *p = u;
    double pre = 1;
    bool binary = false;
    if (decimal_prefix(p[0]) != 0 && p[1] == 'i' && binary_prefix(p[0]) != 0) {
        pre = binary_prefix(p[0]);
        binary = true;
        p += 2;
    } else if (decimal_prefix(p[0]) != 0) {
        /* A prefix letter followed by a known base; a lone "B" or "b" base
         * is tried first so that "B/s" is not read as prefix-less. */
        pre = decimal_prefix(p[0]);
        p += 1;
    }

    if (p == u + 1 && p[0] == '\0' && !binary) {
        /* "400G", "1.6T": a NIC speed in bits per second */
        *mult = pre / 8;
        *bits = true;
        return UK_BANDWIDTH;
    }

    static const char *const b_bytes[] = {"B", "byte", "bytes", NULL};
    static const char *const b_bits[] = {"b", "bit", "bits", NULL};
    static const char *const b_bytes_s[] = {"B/s", "Bps", "B/sec", "byte/s", "bytes/s", NULL};
    static const char *const b_bits_s[] = {"b/s", "bps", "b/sec", "bit/s", "bits/s", NULL};
    if (eq_any(p, b_bytes)) {
        *mult = pre;
        return UK_BYTES;
    }
    if (eq_any(p, b_bits)) {
        *mult = pre / 8;
        *bits = true;
        return UK_BYTES;
    }
    if (eq_any(p, b_bytes_s)) {
        *mult = pre;
        return UK_BANDWIDTH;
    }
    if (eq_any(p, b_bits_s)) {
        *mult = pre / 8;
        *bits = true;
        return UK_BANDWIDTH;
    }
    if (binary)
        return UK_UNKNOWN;
    if (eq_nocase(p, "flop/s") || eq_nocase(p, "flops") || eq_nocase(p, "flop/sec")) {
        *mult = pre;
        return UK_FLOPS;
    }
    if (eq_nocase(p, "flop")) {
        *mult = pre;
        return UK_WORK;
    }
    if (strcmp(p, "W") == 0 && pre >= 1e3) {
        *mult = pre;
        return UK_POWER;
    }
    return UK_UNKNOWN;
}

static const char *class_noun(UnitClass k)
{
    switch (k) {
    case UK_BYTES:
        return "a size";
    case UK_BANDWIDTH:
        return "a bandwidth";
    case UK_TIME:
        return "a time";
    case UK_FLOPS:
        return "a compute rate";
    case UK_WORK:
        return "an amount of work";
    case UK_POWER:
        return "a power";
    default:
        return "a plain number";
    }
}

static const char *kind_noun(UnitsKind k)
{
    switch (k) {
    case UNITS_BANDWIDTH:
        return "a bandwidth";
    case UNITS_BYTES:
        return "a size";
    case UNITS_TIME:
        return "a time";
    case UNITS_FLOPS:
        return "a compute rate";
    case UNITS_COUNT:
        return "a count";
    case UNITS_WORK:
        return "an amount of work";
    case UNITS_POWER:
        return "a power";
    }
    return "a quantity";
}

static const char *kind_example(UnitsKind k)
{
    switch (k) {
    case UNITS_BANDWIDTH:
        return "100 GB/s or 400 Gb/s";
    case UNITS_BYTES:
        return "80 GB";
    case UNITS_TIME:
        return "2 us or 3 ms";
    case UNITS_FLOPS:
        return "989 TFLOP/s";
    case UNITS_COUNT:
        return "72";
    case UNITS_WORK:
        return "3.2 PFLOP";
    case UNITS_POWER:
        return "120 kW";
    }
    return "";
}

/* A printable copy of s for messages: control characters become '?', and
 * long input is cut to 40 bytes with "...". */
static const char *printable(const char *s, char *buf, size_t len)
{
    size_t i = 0;
    for (; s[i] && i + 4 < len && i < 40; i++) {
        unsigned char ch = (unsigned char)s[i];
        buf[i] = (ch < 0x20 || ch == 0x7f) ? '?' : (char)ch;
    }
    if (s[i] && i + 4 <= len)
        memcpy(buf + i, "...", 3), i += 3;
    buf[i] = '\0';
    return buf;
}

/* Reads the number at the start of s (after blanks) into *v, its text into
 * num[64]; returns the rest of s, or NULL with err set. text is the input as
 * shown in messages. */
static const char *units_read_number(UnitsKind kind, const char *s, const char *text, double *v,
                                     char *num, char *err, size_t err_len)
{
    while (is_blank(*s))
        s++;
    if (*s == '\0') {
        msg_set(err, err_len, "empty value: expected %s such as %s", kind_noun(kind),
                kind_example(kind));
        return NULL;
    }
    if (*s == '-') {
        msg_set(err, err_len, "'%s' is negative: %s cannot be below zero", text, kind_noun(kind));
        return NULL;
    }
    size_t n = number_len(s);
    if (n == 0 || n >= 64) {
        msg_set(err, err_len, "'%s' is not a number: expected %s such as %s", text,
                kind_noun(kind), kind_example(kind));
        return NULL;
    }
    memcpy(num, s, n);
    num[n] = '\0';
    errno = 0;
    *v = strtod(num, NULL);
    if (!isfinite(*v)) {
        msg_set(err, err_len, "'%s' is too large to be a real %s", text, kind_noun(kind) + 2);
        return NULL;
    }
    if (errno == ERANGE) {
        msg_set(err, err_len, "'%s' is too small to represent", text);
        return NULL;
    }
    return s + n;
}

/* Copies the unit after a number (u, blanks around it dropped) into
 * unit[UNIT_MAX]; false when it does not fit. */
static bool units_trim_unit(const char *u, char *unit)
{
    while (is_blank(*u))
        u++;
    size_t ulen = strlen(u);
    while (ulen > 0 && is_blank(u[ulen - 1]))
        ulen--;
    if (ulen >= UNIT_MAX)
        return false;
    memcpy(unit, u, ulen);
    unit[ulen] = '\0';
    return true;
}

/* Copies the unit of u into unit[UNIT_MAX]; false with err set when it is
 * too long or text follows it. */
static bool units_read_unit(UnitsKind kind, const char *u, const char *text, char *unit, char *err,
                            size_t err_len)
{
    char ushown[48];
    if (!units_trim_unit(u, unit)) {
        msg_set(err, err_len, "'%s': unknown unit (expected %s such as %s)", text, kind_noun(kind),
                kind_example(kind));
        return false;
    }
    for (size_t i = 0; unit[i]; i++) {
        if (is_blank(unit[i])) {
            double m;
            unit[i] = '\0';
            if (classify(unit, &m) == UK_UNKNOWN)
                msg_set(err, err_len, "'%s': unknown unit '%s'", text,
                        printable(unit, ushown, sizeof ushown));
            else
                msg_set(err, err_len, "'%s': unexpected text after the unit", text);
            return false;
        }
    }
    return true;
}

/* The unit class a kind of quantity is written in. */
static UnitClass units_class_of(UnitsKind kind)
{
    switch (kind) {
    case UNITS_BANDWIDTH:
        return UK_BANDWIDTH;
    case UNITS_BYTES:
        return UK_BYTES;
    case UNITS_TIME:
        return UK_TIME;
    case UNITS_FLOPS:
        return UK_FLOPS;
    case UNITS_WORK:
        return UK_WORK;
    case UNITS_POWER:
        return UK_POWER;
    default:
        return UK_NONE;
    }
}

/* The message for a unit of class cls where kind was wanted. */
static void units_wrong_class(UnitsKind kind, UnitClass cls, const char *text, const char *num,
                              const char *unit, char *err, size_t err_len)
{
    char ushown[48];
    if (cls == UK_UNKNOWN)
        msg_set(err, err_len, "'%s': unknown unit '%s' (expected %s such as %s)", text,
                printable(unit, ushown, sizeof ushown), kind_noun(kind), kind_example(kind));
    else if (cls == UK_NONE)
        msg_set(err, err_len, "'%s' has no unit: write %s with its unit, e.g. %s", text,
                kind_noun(kind), kind_example(kind));
    else if (kind == UNITS_BANDWIDTH && cls == UK_BYTES)
        msg_set(err, err_len, "'%s' is a size, not a bandwidth: did you mean %s %s/s?", text, num,
                unit);
    else if (kind == UNITS_FLOPS && cls == UK_WORK)
        msg_set(err, err_len,
                "'%s' is an amount of work, not a compute rate: did you mean %s %s/s?", text, num,
                unit);
    else
        msg_set(err, err_len, "'%s' is %s, not %s", text, class_noun(cls), kind_noun(kind));
}

bool units_parse(UnitsKind kind, const char *raw, double *out, char *err, size_t err_len)
{
    if (!raw) {
        msg_set(err, err_len, "no value given: expected %s such as %s", kind_noun(kind),
                kind_example(kind));
        return false;
    }
    char shown[48], num[64], unit[UNIT_MAX];
    const char *text = printable(raw, shown, sizeof shown);
    double v;
    const char *rest = units_read_number(kind, raw, text, &v, num, err, err_len);
    if (!rest || !units_read_unit(kind, rest, text, unit, err, err_len))
        return false;
    double mult = 1;
    UnitClass cls = classify(unit, &mult);
    if (cls != units_class_of(kind)) {
        units_wrong_class(kind, cls, text, num, unit, err, err_len);
        return false;
    }
    double value = v * mult;
    if (!isfinite(value)) {
        msg_set(err, err_len, "'%s' is too large to be a real %s", text, kind_noun(kind) + 2);
        return false;
    }
    if (value != 0 && fabs(value) < 1e-300) {
        msg_set(err, err_len, "'%s' is too small to represent", text);
        return false;
    }
    *out = value;
    return true;
}

/* Formats v (scaled into [1, 1000) where a prefix allows) with three
 * significant digits; beyond the largest prefix in scientific notation. */
static int sig3(char *buf, size_t len, double v, const char *unit)
{
    double a = fabs(v);
    if (a >= 999.5) /* beyond the largest prefix: keep it short */
        return snprintf(buf, len, "%.2e %s", v, unit);
    if (a >= 100 || a == 0)
        return snprintf(buf, len, "%.0f %s", v, unit);
    if (a >= 10)
        return snprintf(buf, len, "%.1f %s", v, unit);
    return snprintf(buf, len, "%.2f %s", v, unit);
}

/* Rounds a to three significant digits (so 999.6 becomes 1000 and moves to
 * the next prefix). */
static double round3(double a)
{
    if (a == 0)
        return 0;
    double e = floor(log10(a));
    double scale = pow(10, 2 - e);
    if (!isfinite(scale) || scale == 0) /* subnormal or huge: nothing to round */
        return a;
    return round(a * scale) / scale;
}

/* Scales value by the prefix list (each step x1000) so the mantissa is in
 * [1, 1000). prefixes[0] is the unit itself. */
static char *format_scaled(double value, const char *const *units, int n_units, double first,
                           char *buf, size_t buf_len)
{
    if (!buf || buf_len == 0)
        return buf;
    if (isnan(value)) {
        snprintf(buf, buf_len, "n/a");
        return buf;
    }
    if (isinf(value)) {
        snprintf(buf, buf_len, "%sinfinite", value < 0 ? "-" : "");
        return buf;
    }
    double a = fabs(value) / first;
    int i = 0;
    if (a != 0) {
        while (i < n_units - 1 && round3(a) >= 1000) {
            a /= 1000;
            i++;
        }
    }
    sig3(buf, buf_len, value < 0 ? -round3(a) : round3(a), units[i]);
    return buf;
}

char *units_format(UnitsKind kind, double value, bool ascii, char *buf, size_t buf_len)
{
    static const char *const bw[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s", "EB/s"};
    static const char *const by[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    static const char *const fl[] = {"FLOP/s",  "kFLOP/s", "MFLOP/s", "GFLOP/s",
                                     "TFLOP/s", "PFLOP/s", "EFLOP/s"};
    static const char *const wk[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP"};
    static const char *const pw[] = {"W", "kW", "MW", "GW"};
    static const char *const tm_u[] = {"ns", MICRO_SIGN "s", "ms", "s"};
    static const char *const tm_a[] = {"ns", "us", "ms", "s"};
    if (!buf || buf_len == 0)
        return buf;
    switch (kind) {
    case UNITS_BANDWIDTH:
        return format_scaled(value, bw, 7, 1, buf, buf_len);
    case UNITS_BYTES:
        return format_scaled(value, by, 7, 1, buf, buf_len);
    case UNITS_FLOPS:
        return format_scaled(value, fl, 7, 1, buf, buf_len);
    case UNITS_WORK:
        return format_scaled(value, wk, 7, 1, buf, buf_len);
    case UNITS_POWER:
        return format_scaled(value, pw, 4, 1, buf, buf_len);
    case UNITS_TIME: {
        double a = fabs(value);
        if (value == 0) {
            snprintf(buf, buf_len, "0 s");
            return buf;
        }
        if (!isfinite(value) || round3(a) < 1000)
            return format_scaled(value, ascii ? tm_a : tm_u, 4, 1e-9, buf, buf_len);
        if (round3(a / 60) < 1000)
            sig3(buf, buf_len, value / 60, "min");
        else if (round3(a / 3600) < 1000)
            sig3(buf, buf_len, value / 3600, "h");
        else
            sig3(buf, buf_len, value / 86400, "days");
        return buf;
    }
    case UNITS_COUNT:
        if (isfinite(value) && value == floor(value) && fabs(value) < 1e15)
            snprintf(buf, buf_len, "%.0f", value);
        else if (isfinite(value))
            snprintf(buf, buf_len, "%.3g", value);
        else
            snprintf(buf, buf_len, "n/a");
        return buf;
    }
    buf[0] = '\0';
    return buf;
}

char *units_format_si(double value, char *buf, size_t buf_len)
{
    static const char *const pre[] = {"", " k", " M", " G", " T"};
    if (!buf || buf_len == 0)
        return buf;
    if (!isfinite(value)) {
        snprintf(buf, buf_len, "n/a");
        return buf;
    }
    int i = 0;
    while (i < 4 && fabs(value) >= 999.5) {
        value /= 1000;
        i++;
    }
    if (i == 0 || fabs(value) >= 99.5)
        snprintf(buf, buf_len, "%.0f%s", value, pre[i]);
    else if (fabs(value) >= 9.995)
        snprintf(buf, buf_len, "%.1f%s", value, pre[i]);
    else
        snprintf(buf, buf_len, "%.2f%s", value, pre[i]);
    return buf;
}

char *units_format_bits(double bytes_per_s, char *buf, size_t buf_len)
{
    static const char *const bits[] = {"b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s", "Pb/s", "Eb/s"};
    return format_scaled(bytes_per_s * 8, bits, 7, 1, buf, buf_len);
}

char *units_format_bits_bytes(double bytes_per_s, char *buf, size_t buf_len)
{
    char a[32], b[32];
    if (!buf || buf_len == 0)
        return buf;
    units_format_bits(bytes_per_s, a, sizeof a);
    units_format(UNITS_BANDWIDTH, bytes_per_s, true, b, sizeof b);
    snprintf(buf, buf_len, "%s = %s", a, b);
    return buf;
}

const char *units_kind_noun(UnitsKind kind)
{
    return kind_noun(kind);
}

static UnitsKind kind_of_class(UnitClass c)
{
    switch (c) {
    case UK_BYTES:
        return UNITS_BYTES;
    case UK_BANDWIDTH:
        return UNITS_BANDWIDTH;
    case UK_TIME:
        return UNITS_TIME;
    case UK_FLOPS:
        return UNITS_FLOPS;
    case UK_WORK:
        return UNITS_WORK;
    case UK_POWER:
        return UNITS_POWER;
    default:
        return UNITS_COUNT;
    }
}

/* Classifies the unit written after the number, then lets units_parse do
 * every check of the number and the unit for that kind. */
bool units_parse_quantity(const char *raw, UnitsQuantity *out, char *err, size_t err_len)
{
    UnitsQuantity q = {.kind = UNITS_COUNT};
    const char *s = raw ? raw : "";
    while (is_blank(*s))
        s++;
    size_t n = number_len(s);
    char unit[UNIT_MAX];
    if (n > 0 && units_trim_unit(s + n, unit)) { /* else units_parse says what is wrong */
        double mult;
        UnitClass c = classify_bits(unit, &mult, &q.bits);
        if (c == UK_UNKNOWN) {
            char shown[48], ushown[48];
            msg_set(err, err_len,
                    "'%s': unknown unit '%s' (write it as people do: 0.3 ms, "
                    "450 GB/s, 71 GB, 3.2 Tb/s)",
                    printable(raw ? raw : "", shown, sizeof shown),
                    printable(unit, ushown, sizeof ushown));
            return false;
        }
        q.kind = kind_of_class(c);
    }
    if (!units_parse(q.kind, raw, &q.value, err, err_len))
        return false;
    if (out)
        *out = q;
    return true;
}

char *units_format_count(long long value, char *buf, size_t buf_len)
{
    if (!buf || buf_len == 0)
        return buf;
    char digits[32];
    unsigned long long u =
        value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    int n = snprintf(digits, sizeof digits, "%llu", u);
    char out[48];
    int k = 0;
    if (value < 0)
        out[k++] = '-';
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = '\0';
    snprintf(buf, buf_len, "%s", out);
    return buf;
}
