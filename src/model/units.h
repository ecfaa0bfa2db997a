/* SPDX-License-Identifier: MIT */
/* units — parse and print the quantities scalelab teaches, the way engineers
 * write them.
 *
 * Conventions (one place, used everywhere):
 *   - Prefixes are decimal SI: k=1e3, M=1e6, G=1e9, T=1e12, P=1e15. Binary
 *     prefixes (KiB, MiB, GiB, TiB) are accepted for sizes and mean powers of 2.
 *   - "B" is a byte, "b" is a bit. "800 Gb/s" = 100e9 bytes/s. A bare NIC speed
 *     like "400G" means gigabits per second (as in "400G Ethernet").
 *   - Bandwidths are stored in bytes per second, sizes in bytes, times in
 *     seconds, compute in FLOP/s, all as double.
 *   - Every bandwidth in scalelab is per direction unless a name says "bidir".
 *
 * Pure: no I/O, no allocation. Depends on nothing but libc.
 */
#ifndef SCALELAB_MODEL_UNITS_H
#define SCALELAB_MODEL_UNITS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    UNITS_BANDWIDTH, /* bytes/s: "1.8 TB/s", "800 Gb/s", "400G", "100 GB/s" */
    UNITS_BYTES,     /* bytes:   "80 GB", "141GB", "64 MiB" */
    UNITS_TIME,      /* seconds: "2 us", "1.5 µs", "3 ms", "1.2 s" */
    UNITS_FLOPS,     /* FLOP/s:  "989 TFLOP/s", "2.5 PFLOPS" */
    UNITS_COUNT,     /* plain non-negative number: "72", "1e6" */
    UNITS_WORK,      /* FLOP:    "3.2 PFLOP", "1e21 FLOP" (an amount, not a rate) */
    UNITS_POWER,     /* watts:   "120 kW", "1.2 MW", "700 W" */
} UnitsKind;

/* Parses text as a quantity of kind. On success stores the value in *out and
 * returns true. On failure returns false, leaves *out untouched and writes a
 * one-line reason ("'1.8 TB' is a size, not a bandwidth: did you mean 1.8 TB/s?")
 * into err (err may be NULL). Rejects empty, negative, non-finite and
 * overflowing input and units of the wrong kind; never returns a silent 0. */
bool units_parse(UnitsKind kind, const char *text, double *out, char *err, size_t err_len);

/* A quantity of any kind, for answers a learner types: parse first, then
 * compare kinds. */
typedef struct {
    UnitsKind kind; /* UNITS_COUNT when no unit was written */
    double value;   /* in the kind's base unit (bytes, bytes/s, s, FLOP/s, FLOP, W) */
    bool bits;      /* the unit was written in bits ("Gb/s", "Mb", a bare "400G") */
} UnitsQuantity;

/* Parses text as whatever quantity its unit names. False with a one-line
 * reason for bad numbers and unknown units (same checks as units_parse). */
bool units_parse_quantity(const char *text, UnitsQuantity *out, char *err, size_t err_len);

/* The kind's noun for messages: "a bandwidth", "a size", "a time", ... */
const char *units_kind_noun(UnitsKind kind);

/* Prints value in a readable unit with three significant digits
 * ("1.80 TB/s", "100 GB/s", "1.23 s", "850 µs" — or "850 us" when ascii).
 * Returns buf. buf_len of 32 is always enough. */
char *units_format(UnitsKind kind, double value, bool ascii, char *buf, size_t buf_len);

/* A plain quantity with a decimal prefix, three significant digits, for
 * rates such as tokens per second: "950", "512 k", "2.80 M", "1.07 G". */
char *units_format_si(double value, char *buf, size_t buf_len);
/* A whole number with commas between groups of three digits ("16,416"),
 * the same in every locale. Returns buf. */
char *units_format_count(long long value, char *buf, size_t buf_len);

/* A bandwidth given in bytes/s printed in bits: 100e9 -> "800 Gb/s". */
char *units_format_bits(double bytes_per_s, char *buf, size_t buf_len);

/* "800 Gb/s = 100 GB/s": a bandwidth in bits and in bytes side by side. */
char *units_format_bits_bytes(double bytes_per_s, char *buf, size_t buf_len);

#endif
