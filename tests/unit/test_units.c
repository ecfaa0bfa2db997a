/* SPDX-License-Identifier: MIT */
/* test_units — parsing and printing of the quantities scalelab teaches.
 * Every expected value is worked by hand in the comment beside it: bits are
 * divided by 8, prefixes are decimal unless written with an "i". */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/units.h"

static void check_parse(UnitsKind kind, const char *text, double want, const char *file, int line)
{
    double v = -1;
    char err[160] = "";
    bool ok = units_parse(kind, text, &v, err, sizeof err);
    if (!ok || fabs(v - want) > 1e-9 * fabs(want)) {
        print_error("%s:%d: parse '%s': ok=%d value=%.17g want %.17g (%s)\n", file, line, text, ok,
                    v, want, err);
        fail();
    }
}
#define PARSE_OK(kind, text, want) check_parse(kind, text, want, __FILE__, __LINE__)

static void check_reject(UnitsKind kind, const char *text, const char *must_contain,
                         const char *file, int line)
{
    double v = 42;
    char err[160] = "";
    bool ok = units_parse(kind, text, &v, err, sizeof err);
    bool control = false; /* messages are one printable line, whatever the input */
    for (const char *q = err; *q; q++)
        control |= (unsigned char)*q < 0x20 || *q == 0x7f;
    if (ok || v != 42 || err[0] == '\0' || control ||
        (must_contain && !strstr(err, must_contain))) {
        print_error("%s:%d: '%s' should be rejected (ok=%d v=%g err='%s', want '%s')\n", file,
                    line, text ? text : "(null)", ok, v, err, must_contain ? must_contain : "");
        fail();
    }
}
#define REJECT(kind, text, msg) check_reject(kind, text, msg, __FILE__, __LINE__)

static void test_units_parse_bandwidth_bytes_and_bits(void **state)
{
    (void)state;
    PARSE_OK(UNITS_BANDWIDTH, "1.8 TB/s", 1.8e12); /* 1.8 x 1e12 bytes/s */
    PARSE_OK(UNITS_BANDWIDTH, "900GB/s", 900e9);   /* no blank needed */
    PARSE_OK(UNITS_BANDWIDTH, "800 Gb/s", 100e9);  /* 800e9 bits / 8 = 100e9 bytes */
    PARSE_OK(UNITS_BANDWIDTH, "400G", 50e9);       /* NIC speed: 400e9 bits / 8 */
    PARSE_OK(UNITS_BANDWIDTH, "100 GB/s", 100e9);
    PARSE_OK(UNITS_BANDWIDTH, "130 TB/s", 130e12);
    PARSE_OK(UNITS_BANDWIDTH, "200 Gbps", 25e9);        /* HDR: 200e9 / 8 */
    PARSE_OK(UNITS_BANDWIDTH, "  25 GB/s  ", 25e9);     /* blanks around are fine */
    PARSE_OK(UNITS_BANDWIDTH, "1 GiB/s", 1073741824.0); /* binary only with the i: 2^30 */
    PARSE_OK(UNITS_BANDWIDTH, "0 GB/s", 0);             /* an explicit zero is a value */
}

static void test_units_parse_sizes(void **state)
{
    (void)state;
    PARSE_OK(UNITS_BYTES, "80 GB", 80e9);
    PARSE_OK(UNITS_BYTES, "141GB", 141e9);
    PARSE_OK(UNITS_BYTES, "64 GiB", 68719476736.0); /* 64 x 2^30 = 68,719,476,736 */
    PARSE_OK(UNITS_BYTES, "64 MiB", 67108864.0);    /* 64 x 2^20 */
    PARSE_OK(UNITS_BYTES, "16 KB", 16e3);           /* K = k = 1e3 (decimal) */
    PARSE_OK(UNITS_BYTES, "8 Gb", 1e9);             /* 8e9 bits / 8 */
    PARSE_OK(UNITS_BYTES, "512 B", 512);
}

static void test_units_parse_times(void **state)
{
    (void)state;
    PARSE_OK(UNITS_TIME, "2 us", 2e-6);
    PARSE_OK(UNITS_TIME, "1.5 \xc2\xb5s", 1.5e-6); /* U+00B5 micro sign */
    PARSE_OK(UNITS_TIME, "1.5 \xce\xbcs", 1.5e-6); /* U+03BC greek mu */
    PARSE_OK(UNITS_TIME, "3 ms", 3e-3);
    PARSE_OK(UNITS_TIME, "1.2 s", 1.2);
    PARSE_OK(UNITS_TIME, "250ns", 250e-9);
    PARSE_OK(UNITS_TIME, "2 min", 120); /* 2 x 60 */
}

static void test_units_parse_flops_and_counts(void **state)
{
    (void)state;
    PARSE_OK(UNITS_FLOPS, "989 TFLOP/s", 989e12);
    PARSE_OK(UNITS_FLOPS, "2.5 PFLOPS", 2.5e15);
    PARSE_OK(UNITS_FLOPS, "312 TFLOPS", 312e12);
    PARSE_OK(UNITS_COUNT, "72", 72);
    PARSE_OK(UNITS_COUNT, "1e6", 1e6);
    PARSE_OK(UNITS_COUNT, "+8", 8);
}

static void test_units_parse_rejects_malformed(void **state)
{
    (void)state;
    static const struct {
        UnitsKind kind;
        const char *text, *why; /* why: what the message must say */
    } bad[] = {
        {UNITS_BANDWIDTH, "1.8 TB", "size, not a bandwidth"},
        {UNITS_BANDWIDTH, "1.8 TB", "1.8 TB/s"}, /* and suggests the fix */
        {UNITS_BANDWIDTH, "fast", "not a number"},
        {UNITS_BANDWIDTH, "-5 GB/s", "negative"},
        {UNITS_BANDWIDTH, "1e400 GB/s", "too large"},
        {UNITS_BANDWIDTH, "1e300 EB/s", "too large"}, /* finite number, overflow after scaling */
        {UNITS_BANDWIDTH, "", "empty"},
        {UNITS_BANDWIDTH, "   ", "empty"},
        {UNITS_BANDWIDTH, NULL, NULL},
        {UNITS_BANDWIDTH, "nan", "not a number"},
        {UNITS_BANDWIDTH, "inf GB/s", "not a number"},
        {UNITS_BANDWIDTH, "0x10 GB/s", "unknown unit"},
        {UNITS_BANDWIDTH, "100 GB/s x", "after the unit"},
        {UNITS_BANDWIDTH, "100 GB/sec/s", "unknown unit"},
        {UNITS_BANDWIDTH, "100", "no unit"},
        {UNITS_BANDWIDTH, "100 mb/s", "unknown unit"}, /* m is milli, not mega */
        {UNITS_BANDWIDTH, "2 us", "time, not a bandwidth"},
        {UNITS_BYTES, "80 GB/s", "bandwidth, not a size"},
        {UNITS_TIME, "3", "no unit"},
        {UNITS_TIME, "3 Ms", "unknown unit"},
        {UNITS_FLOPS, "989 TFLOP", "amount of work"},
        {UNITS_COUNT, "72 GB", "size, not a count"},
        {UNITS_COUNT, "1e-400", "too small"},
        {UNITS_COUNT, "7 2", "unknown unit"},
        {UNITS_BANDWIDTH, "1 \033[31mX", "unknown unit '?[31mX'"}, /* escape shown as ? */
        {UNITS_BANDWIDTH, "1 G\nb", "after the unit"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        REJECT(bad[i].kind, bad[i].text, bad[i].why);
}

static void check_format(UnitsKind kind, double v, bool ascii, const char *want, const char *file,
                         int line)
{
    char buf[32];
    units_format(kind, v, ascii, buf, sizeof buf);
    if (strcmp(buf, want) != 0) {
        print_error("%s:%d: format %.17g: got '%s' want '%s'\n", file, line, v, buf, want);
        fail();
    }
}
#define FORMAT(kind, v, ascii, want) check_format(kind, v, ascii, want, __FILE__, __LINE__)

static void test_units_format_readable(void **state)
{
    (void)state;
    FORMAT(UNITS_BANDWIDTH, 1.8e12, false, "1.80 TB/s");
    FORMAT(UNITS_BANDWIDTH, 100e9, false, "100 GB/s");
    FORMAT(UNITS_BANDWIDTH, 25e9, false, "25.0 GB/s");
    FORMAT(UNITS_BANDWIDTH, 999.6e9, false, "1.00 TB/s"); /* rounds up into the next prefix */
    FORMAT(UNITS_BANDWIDTH, 0, false, "0 B/s");
    FORMAT(UNITS_TIME, 1.234, false, "1.23 s");
    FORMAT(UNITS_TIME, 850e-6, false, "850 \xc2\xb5s");
    FORMAT(UNITS_TIME, 850e-6, true, "850 us");
    FORMAT(UNITS_TIME, 3e-3, true, "3.00 ms");
    FORMAT(UNITS_TIME, 0, true, "0 s");
    FORMAT(UNITS_TIME, 7200, true, "120 min");       /* 7200 / 60 */
    FORMAT(UNITS_TIME, 999.7, true, "16.7 min");     /* 999.7 / 60 = 16.66 */
    FORMAT(UNITS_TIME, 86400 * 34.0, true, "816 h"); /* 34 days = 816 h */
    FORMAT(UNITS_BYTES, 80e9, false, "80.0 GB");
    FORMAT(UNITS_BYTES, 141e9, false, "141 GB");
    FORMAT(UNITS_FLOPS, 989e12, false, "989 TFLOP/s");
    FORMAT(UNITS_FLOPS, 2.5e15, false, "2.50 PFLOP/s");
    FORMAT(UNITS_COUNT, 72, false, "72");
    FORMAT(UNITS_BANDWIDTH, NAN, false, "n/a");
    FORMAT(UNITS_BANDWIDTH, 1e300, false, "1.00e+282 EB/s"); /* 1e300 / 1e18, fits in 32 */
    FORMAT(UNITS_TIME, 8.64e9, true, "1.00e+05 days");       /* 8.64e9 s / 86400 = 1e5 */
    FORMAT(UNITS_BANDWIDTH, 4.9406564584124654e-324, false, "0.00 B/s"); /* subnormal */
}

static void test_units_format_bits_bytes(void **state)
{
    (void)state;
    char buf[64];
    /* 100e9 bytes/s x 8 = 800e9 bits/s */
    assert_string_equal(units_format_bits_bytes(100e9, buf, sizeof buf), "800 Gb/s = 100 GB/s");
    /* 25e9 x 8 = 200e9 */
    assert_string_equal(units_format_bits_bytes(25e9, buf, sizeof buf), "200 Gb/s = 25.0 GB/s");
}

static void test_units_round_trip(void **state)
{
    (void)state;
    /* what we print, we can read back (to three significant digits) */
    const double vals[] = {1.8e12, 450e9, 12.5e9, 6.25e9, 130e12};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char buf[32];
        double back = 0;
        units_format(UNITS_BANDWIDTH, vals[i], true, buf, sizeof buf);
        assert_true(units_parse(UNITS_BANDWIDTH, buf, &back, NULL, 0));
        assert_true(fabs(back - vals[i]) <= 0.005 * vals[i]);
    }
}

/* Counts in full with a comma every three digits; a buffer too small keeps
 * what fits. */
static void test_units_format_count(void **state)
{
    (void)state;
    static const struct {
        long long value;
        const char *want;
    } counts[] = {{0, "0"},
                  {999, "999"},
                  {2048, "2,048"},
                  {16416, "16,416"},
                  {100000000, "100,000,000"},
                  {-1234567, "-1,234,567"}};
    char b[32];
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        assert_string_equal(units_format_count(counts[i].value, b, sizeof b), counts[i].want);
    char small[4];
    assert_string_equal(units_format_count(16416, small, sizeof small), "16,");
}

/* Rates with a decimal prefix, three significant digits: 950 stays 950;
 * 512,000 is 512 k; 2,804,000 is 2.80 M; 1,070,000,000 is 1.07 G; 99,960 rounds
 * up to 100 k (not "100.0 k"); 12,345 is 12.3 k; infinity is n/a. */
static void test_units_format_si(void **state)
{
    (void)state;
    static const double value[] = {950, 512000, 2804000, 1.07e9, 99960, 12345, INFINITY};
    static const char *const want[] = {"950",   "512 k",  "2.80 M", "1.07 G",
                                       "100 k", "12.3 k", "n/a"};
    char b[32];
    for (size_t i = 0; i < sizeof value / sizeof value[0]; i++)
        assert_string_equal(units_format_si(value[i], b, sizeof b), want[i]);
}

static void test_units_work_power_and_any_quantity(void **state)
{
    (void)state;
    PARSE_OK(UNITS_WORK, "3.2 PFLOP", 3.2e15);
    PARSE_OK(UNITS_WORK, "1e21 FLOP", 1e21);
    PARSE_OK(UNITS_POWER, "120 kW", 120e3);
    PARSE_OK(UNITS_POWER, "1.2 MW", 1.2e6);
    PARSE_OK(UNITS_POWER, "700 W", 700);
    char buf[32];
    assert_string_equal(units_format(UNITS_POWER, 132e3, true, buf, sizeof buf), "132 kW");
    assert_string_equal(units_format(UNITS_WORK, 3.2e15, true, buf, sizeof buf), "3.20 PFLOP");
    /* 400e9 B/s x 8 = 3.2e12 b/s */
    assert_string_equal(units_format_bits(400e9, buf, sizeof buf), "3.20 Tb/s");
    static const struct {
        const char *text;
        UnitsKind kind;
        double value;
        bool bits;
    } any[] = {
        {"0.3 ms", UNITS_TIME, 0.3e-3, false},
        {"450 GB/s", UNITS_BANDWIDTH, 450e9, false},
        {"3.2 Tb/s", UNITS_BANDWIDTH, 400e9, true},
        {"400G", UNITS_BANDWIDTH, 50e9, true},
        {"71 GB", UNITS_BYTES, 71e9, false},
        {"8 Gb", UNITS_BYTES, 1e9, true},
        {"72", UNITS_COUNT, 72, false},
        {"120 kW", UNITS_POWER, 120e3, false},
        {"2 PFLOP", UNITS_WORK, 2e15, false},
        {"2 PFLOP/s", UNITS_FLOPS, 2e15, false},
    };
    for (size_t i = 0; i < sizeof any / sizeof any[0]; i++) {
        UnitsQuantity q;
        char err[160] = "";
        if (!units_parse_quantity(any[i].text, &q, err, sizeof err) || q.kind != any[i].kind ||
            fabs(q.value - any[i].value) > 1e-9 * any[i].value || q.bits != any[i].bits) {
            print_error("'%s': %s kind %d value %g bits %d\n", any[i].text, err, q.kind, q.value,
                        q.bits);
            fail();
        }
    }
    char err[160];
    UnitsQuantity q;
    assert_false(units_parse_quantity("3 parsecs", &q, err, sizeof err));
    assert_non_null(strstr(err, "unknown unit 'parsecs'"));
    assert_false(units_parse_quantity("fast", &q, err, sizeof err));
    assert_non_null(strstr(err, "not a number"));
    assert_false(units_parse_quantity("-2 ms", &q, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units_format_si),
        cmocka_unit_test(test_units_parse_bandwidth_bytes_and_bits),
        cmocka_unit_test(test_units_parse_sizes),
        cmocka_unit_test(test_units_parse_times),
        cmocka_unit_test(test_units_parse_flops_and_counts),
        cmocka_unit_test(test_units_parse_rejects_malformed),
        cmocka_unit_test(test_units_format_readable),
        cmocka_unit_test(test_units_format_bits_bytes),
        cmocka_unit_test(test_units_round_trip),
        cmocka_unit_test(test_units_format_count),
        cmocka_unit_test(test_units_work_power_and_any_quantity),
    };
    return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
