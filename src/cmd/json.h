/* SPDX-License-Identifier: MIT */
/* json — the one JSON writer of the headless commands (eval, sweep, render):
 * strings escaped so any bytes give valid JSON (quotes, backslashes and
 * control characters, DEL included; a byte that is not part of valid UTF-8
 * becomes \ufffd, since JSON text is UTF-8), numbers with ten significant
 * digits and null for NaN or infinity, which JSON cannot hold.
 *
 * And the one reader, for files people hand in (`scalelab report` reads the
 * `progress --json` files of a class): RFC 8259 values into a tree, with a
 * depth limit (JSON_MAX_DEPTH) and a size limit (JSON_MAX_BYTES), errors as
 * "line N: ..." and never a crash on any bytes. Strings keep their bytes
 * (\u escapes become UTF-8; a NUL escape is refused, so strings are C
 * strings). Numbers are read in the C locale's form whatever the locale.
 */
#ifndef SCALELAB_CMD_JSON_H
#define SCALELAB_CMD_JSON_H

#include <stdio.h>

/* s may be NULL: written as "". */
void json_string(FILE *out, const char *s);
void json_number(FILE *out, double v);
/* A member after an object's first: ,"key":value (key is a plain word). */
void json_next_string(FILE *out, const char *key, const char *s);
void json_next_number(FILE *out, const char *key, double v);

#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 64
#define JSON_MAX_BYTES (4 * 1024 * 1024)

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonType;

typedef struct JsonValue {
    JsonType type;
    bool b;
    double num;
    char *str;               /* JSON_STRING */
    struct JsonValue *items; /* JSON_ARRAY and JSON_OBJECT: n values */
    char **keys;             /* JSON_OBJECT: n keys, in file order */
    int n;
} JsonValue;

/* Parses len bytes of text. NULL with "line N: reason" in err on any error
 * (the caller owns the tree; json_free accepts NULL). */
JsonValue *json_parse(const char *text, size_t len, char *err, size_t err_len);
void json_free(JsonValue *v);
/* The value of key in an object (the first when repeated), NULL when absent
 * or when v is not an object. */
const JsonValue *json_get(const JsonValue *v, const char *key);
/* Typed look-ups with a fallback when the key is absent or of another type. */
double json_get_number(const JsonValue *v, const char *key, double fallback);
const char *json_get_string(const JsonValue *v, const char *key, const char *fallback);

#endif
