/* SPDX-License-Identifier: MIT */
/* test_json — the writer of the headless commands' JSON: json_string over
 * every control byte, DEL, the characters JSON escapes and invalid UTF-8
 * gives RFC 8259 text (each expected string worked by hand from section 7),
 * which the reader reads back; and the reader of handed-in JSON files:
 * values and escapes as RFC 8259 defines them (worked by hand), errors with
 * their line, and the limits that keep any bytes from crashing or
 * exhausting it.
 */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/json.h"

static JsonValue *parse(const char *s, char *err, size_t err_len)
{
    return json_parse(s, strlen(s), err, err_len);
}

/* What json_string writes for s (at most 63 bytes of output). */
static const char *written(const char *s)
{
    static char buf[64];
    FILE *f = tmpfile();
    assert_non_null(f);
    json_string(f, s);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Every byte from 0x01 to 0x20 and 0x7f on its own: the control bytes as
 * \u00XX (\n, \t and \r in their short forms), the space as it is. */
static void test_json_string_control_bytes(void **state)
{
    (void)state;
    for (int b = 0x01; b <= 0x20; b++) {
        char in[2] = {(char)b, '\0'}, want[16];
        if (b == '\n')
            snprintf(want, sizeof want, "\"\\n\"");
        else if (b == '\t')
            snprintf(want, sizeof want, "\"\\t\"");
        else if (b == '\r')
            snprintf(want, sizeof want, "\"\\r\"");
        else if (b == 0x20)
            snprintf(want, sizeof want, "\" \"");
        else
            snprintf(want, sizeof want, "\"\\u%04x\"", b);
        if (strcmp(written(in), want) != 0) {
            print_error("byte 0x%02x: wrote %s, want %s\n", b, written(in), want);
            fail();
        }
    }
    assert_string_equal(written("\x7f"), "\"\\u007f\"");
    /* 0x00 ends a C string: an empty string, and NULL is one too. */
    assert_string_equal(written(""), "\"\"");
    assert_string_equal(written(NULL), "\"\"");
    assert_string_equal(written("a\"b\\c/d"), "\"a\\\"b\\\\c/d\"");
    assert_string_equal(written("x\x1fy\x1bz"), "\"x\\u001fy\\u001bz\"");
}

/* Valid UTF-8 as it is; each byte of an invalid sequence as U+FFFD: a lone
 * continuation byte, 0xff, an overlong "/" (C0 AF), a surrogate (ED A0 80,
 * U+D800), a sequence cut short by the end or by an ASCII byte, a code
 * point past U+10FFFF (F4 90 80 80). */
static void test_json_string_invalid_utf8(void **state)
{
    (void)state;
    assert_string_equal(written("\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80"),
                        "\"\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80\"");
    assert_string_equal(written("a\x80"
                                "b"),
                        "\"a\\ufffdb\"");
    assert_string_equal(written("\xff"), "\"\\ufffd\"");
    assert_string_equal(written("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
    assert_string_equal(written("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
    assert_string_equal(written("\xe2\x82"), "\"\\ufffd\\ufffd\"");
    assert_string_equal(written("\xe2x"), "\"\\ufffdx\"");
    assert_string_equal(written("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
    /* What it writes reads back: every byte 0x01-0xff in one string. */
    char all[256];
    for (int b = 1; b < 256; b++)
        all[b - 1] = (char)b;
    all[255] = '\0';
    FILE *f = tmpfile();
    assert_non_null(f);
    json_string(f, all);
    long len = ftell(f);
    char *text = calloc(1, (size_t)len + 1);
    assert_non_null(text);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    for (long i = 0; i < len; i++) /* no raw control byte, no byte that is not UTF-8 */
        assert_true((unsigned char)text[i] >= 0x20 && (unsigned char)text[i] < 0x7f);
    char err[200];
    JsonValue *v = json_parse(text, (size_t)len, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(v->type, JSON_STRING);
    assert_int_equal(strncmp(v->str, all, 127), 0); /* ASCII and controls come back */
    free(text);
    json_free(v);
}

static void test_json_values(void **state)
{
    (void)state;
    char err[200];
    JsonValue *v = parse(" {\"a\": [1, -2.5e3, true, false, null], \"b\": {\"c\": \"d\"},"
                         " \"a\": 7}\n",
                         err, sizeof err);
    assert_non_null(v);
    assert_int_equal(v->type, JSON_OBJECT);
    assert_int_equal(v->n, 3);
    const JsonValue *a = json_get(v, "a"); /* the first of a repeated key */
    assert_int_equal(a->type, JSON_ARRAY);
    assert_int_equal(a->n, 5);
    assert_true(a->items[0].num == 1);
    assert_true(a->items[1].num == -2500);
    assert_true(a->items[2].b && a->items[2].type == JSON_BOOL);
    assert_false(a->items[3].b);
    assert_int_equal(a->items[4].type, JSON_NULL);
    assert_string_equal(json_get_string(json_get(v, "b"), "c", "?"), "d");
    assert_string_equal(json_get_string(v, "zz", "fallback"), "fallback");
    assert_true(json_get_number(v, "b", 42) == 42); /* an object, not a number */
    assert_null(json_get(a, "a"));                  /* an array has no keys */
    json_free(v);
}

static void test_json_escapes(void **state)
{
    (void)state;
    char err[200];
    /* \u00e9 = é (C3 A9), \ud83d\ude00 = U+1F600 (F0 9F 98 80). */
    JsonValue *v = parse("\"q\\\"b\\\\s\\/n\\nt\\t\\u00e9\\ud83d\\ude00\"", err, sizeof err);
    assert_non_null(v);
    assert_string_equal(v->str, "q\"b\\s/n\nt\t\xc3\xa9\xf0\x9f\x98\x80");
    json_free(v);
    v = parse("\"\"", err, sizeof err);
    assert_non_null(v);
    assert_string_equal(v->str, "");
    json_free(v);
}

static void expect_error(const char *text, const char *want)
{
    char err[200] = "";
    JsonValue *v = parse(text, err, sizeof err);
    if (v || !strstr(err, want)) {
        print_error("'%s': got '%s', want '%s'\n", text, v ? "(parsed)" : err, want);
        json_free(v);
        fail();
    }
}

static void test_json_errors(void **state)
{
    (void)state;
    expect_error("", "line 1: a value is missing");
    expect_error("{\n\"a\": 1,\n}", "line 3: an object key must be a string");
    expect_error("[1 2]", "',' or ']' expected");
    expect_error("{\"a\" 1}", "':' expected");
    expect_error("\"abc", "a string does not end");
    expect_error("\"a\nb\"", "a control character");
    expect_error("\"\\x\"", "bad escape");
    expect_error("\"\\u12\"", "bad \\u escape");
    expect_error("\"\\ud800\"", "lone UTF-16 surrogate");
    expect_error("\"\\u0000\"", "NUL");
    expect_error("01", "text after the JSON value");
    expect_error("1.", "digits after its point");
    expect_error("1e", "digits in its exponent");
    expect_error("+1", "not a JSON value");
    expect_error("inf", "not a JSON value");
    expect_error("nul", "not a JSON value");
    expect_error("[] []", "text after");
    char nul[] = "[1,\0 2]";
    char err[200];
    assert_null(json_parse(nul, sizeof nul - 1, err, sizeof err));
    assert_non_null(strstr(err, "NUL byte"));
}

static void test_json_limits(void **state)
{
    (void)state;
    char deep[200], err[200];
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    deep[130] = '\0';
    expect_error(deep, "deeper than 64");
    memset(deep, '[', 64);
    memset(deep + 64, ']', 64);
    deep[128] = '\0';
    JsonValue *v = parse(deep, err, sizeof err);
    assert_non_null(v);
    json_free(v);
    assert_null(json_parse("[]", (size_t)JSON_MAX_BYTES + 1, err, sizeof err));
    assert_non_null(strstr(err, "larger than"));
    json_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_string_control_bytes),
        cmocka_unit_test(test_json_string_invalid_utf8),
        cmocka_unit_test(test_json_values),
        cmocka_unit_test(test_json_escapes),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_json_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
