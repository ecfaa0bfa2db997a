/* SPDX-License-Identifier: MIT */
/* test_json — the reader of handed-in JSON files: values and escapes as RFC
 * 8259 defines them (worked by hand), errors with their line, and the limits
 * that keep any bytes from crashing or exhausting it.
 */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdlib.h>
#include <string.h>

#include "cmd/json.h"

static JsonValue *parse(const char *s, char *err, size_t err_len)
{
    return json_parse(s, strlen(s), err, err_len);
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
        cmocka_unit_test(test_json_values),
        cmocka_unit_test(test_json_escapes),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_json_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
