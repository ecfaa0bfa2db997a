/* SPDX-License-Identifier: MIT */
/* json — JSON strings and numbers for the headless commands (see json.h). */
#include "cmd/json.h"

#include "base/msg.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xmem.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        default:
            if (*p < 0x20 || *p == 0x7f) {
                fprintf(out, "\\u%04x", *p);
            } else if (*p < 0x80) {
                fputc(*p, out);
            } else {
                /* UTF-8 as it is; a byte that is not part of a valid
                 * character (JSON text must be UTF-8) as U+FFFD. */
                uint32_t cp;
                size_t n = utf8_decode((const char *)p, &cp);
                if (n == 1)
                    fputs("\\ufffd", out);
                else
                    fwrite(p, 1, n, out);
                p += n - 1;
            }
        }
    }
    fputc('"', out);
}

void json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.10g", v);
    else
        fputs("null", out);
}

void json_next_string(FILE *out, const char *key, const char *s)
{
    fprintf(out, ",\"%s\":", key);
    json_string(out, s);
}

void json_next_number(FILE *out, const char *key, double v)
{
    fprintf(out, ",\"%s\":", key);
    json_number(out, v);
}

/* ---- reader ---- */

typedef struct {
    const char *s, *end;
    int line;
    int depth;
    char *err;
    size_t err_len;
    bool failed;
} JsonReader;

static bool jr_fail(JsonReader *r, const char *why)
{
    if (!r->failed)
        msg_set(r->err, r->err_len, "line %d: %s", r->line, why);
    r->failed = true;
    return false;
}

static void jr_space(JsonReader *r)
{
    while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r')) {
        if (*r->s == '\n')
            r->line++;
        r->s++;
    }
}

static bool jr_word(JsonReader *r, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(r->end - r->s) < n || memcmp(r->s, w, n) != 0)
        return jr_fail(r, "not a JSON value");
    r->s += n;
    return true;
}

static int jr_hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int c = s[i], d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static void jr_put_utf8(StrBuf *b, unsigned cp)
{
    char u[4];
    int n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12);
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        u[0] = (char)(0xf0 | cp >> 18);
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    strbuf_add_n(b, u, (size_t)n);
}

/* A \u escape at r->s (just after the backslash-u); surrogate pairs joined. */
static bool jr_unicode(JsonReader *r, StrBuf *b)
{
    if (r->end - r->s < 4 || jr_hex4(r->s) < 0)
        return jr_fail(r, "bad \\u escape");
    unsigned cp = (unsigned)jr_hex4(r->s);
    r->s += 4;
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (r->end - r->s < 6 || r->s[0] != '\\' || r->s[1] != 'u' || jr_hex4(r->s + 2) < 0xdc00 ||
            jr_hex4(r->s + 2) > 0xdfff)
            return jr_fail(r, "lone UTF-16 surrogate in \\u escape");
        cp = 0x10000 + ((cp - 0xd800) << 10) + ((unsigned)jr_hex4(r->s + 2) - 0xdc00);
        r->s += 6;
    } else if (cp >= 0xdc00 && cp <= 0xdfff)
        return jr_fail(r, "lone UTF-16 surrogate in \\u escape");
    if (cp == 0)
        return jr_fail(r, "a NUL character in a string");
    jr_put_utf8(b, cp);
    return true;
}

static char *jr_string(JsonReader *r)
{
    StrBuf b = {0};
    r->s++; /* the opening quote */
    while (r->s < r->end && *r->s != '"') {
        unsigned char c = (unsigned char)*r->s;
        if (c < 0x20) {
            jr_fail(r, "a control character inside a string");
            break;
        }
        if (c != '\\') {
            strbuf_add_n(&b, r->s++, 1);
            continue;
        }
        if (++r->s >= r->end)
            break;
        char e = *r->s++;
        const char *map = strchr("\"\\/bfnrt", e);
        if (e == 'u') {
            if (!jr_unicode(r, &b))
                break;
        } else if (map && e) {
            static const char out[] = "\"\\/\b\f\n\r\t";
            strbuf_add_n(&b, &out[map - "\"\\/bfnrt"], 1);
        } else {
            jr_fail(r, "bad escape in a string");
            break;
        }
    }
    if (!r->failed && r->s >= r->end)
        jr_fail(r, "a string does not end");
    if (r->failed) {
        strbuf_free(&b);
        return NULL;
    }
    r->s++; /* the closing quote */
    return strbuf_take(&b);
}

static bool jr_number(JsonReader *r, double *out)
{
    /* RFC 8259 grammar first, so strtod never sees "inf", hex or a locale's comma. */
    const char *p = r->s;
    char buf[64];
    size_t n = 0;
    if (p < r->end && *p == '-')
        p++;
    if (p < r->end && *p == '0')
        p++;
    else if (p < r->end && *p >= '1' && *p <= '9')
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    else
        return jr_fail(r, "not a JSON value");
    if (p < r->end && *p == '.') {
        p++;
        if (p >= r->end || *p < '0' || *p > '9')
            return jr_fail(r, "a number needs digits after its point");
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < r->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < r->end && (*p == '+' || *p == '-'))
            p++;
        if (p >= r->end || *p < '0' || *p > '9')
            return jr_fail(r, "a number needs digits in its exponent");
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    }
    n = (size_t)(p - r->s);
    if (n >= sizeof buf)
        return jr_fail(r, "a number longer than 63 characters");
    memcpy(buf, r->s, n);
    buf[n] = '\0';
    *out = strtod(buf, NULL); /* the C numeric locale: set once at start-up */
    r->s = p;
    return true;
}

static bool jr_value(JsonReader *r, JsonValue *v);

static bool jr_push(JsonReader *r, JsonValue *v, int *cap)
{
    if (v->n >= *cap) {
        if (*cap >= 1 << 20)
            return jr_fail(r, "more than a million items in one array or object");
        *cap = *cap ? 2 * *cap : 8;
        v->items = xmem_realloc(v->items, (size_t)*cap * sizeof *v->items);
        if (v->type == JSON_OBJECT)
            v->keys = xmem_realloc(v->keys, (size_t)*cap * sizeof *v->keys);
    }
    memset(&v->items[v->n], 0, sizeof v->items[v->n]);
    if (v->type == JSON_OBJECT)
        v->keys[v->n] = NULL;
    v->n++;
    return true;
}

static bool jr_container(JsonReader *r, JsonValue *v, char close)
{
    if (++r->depth > JSON_MAX_DEPTH)
        return jr_fail(r, "nested deeper than 64 levels");
    r->s++;
    int cap = 0;
    jr_space(r);
    if (r->s < r->end && *r->s == close) {
        r->s++;
        r->depth--;
        return true;
    }
    for (;;) {
        jr_space(r);
        if (!jr_push(r, v, &cap))
            return false;
        if (v->type == JSON_OBJECT) {
            if (r->s >= r->end || *r->s != '"')
                return jr_fail(r, "an object key must be a string");
            if (!(v->keys[v->n - 1] = jr_string(r)))
                return false;
            jr_space(r);
            if (r->s >= r->end || *r->s != ':')
                return jr_fail(r, "':' expected after an object key");
            r->s++;
        }
        if (!jr_value(r, &v->items[v->n - 1]))
            return false;
        jr_space(r);
        if (r->s < r->end && *r->s == ',') {
            r->s++;
            continue;
        }
        if (r->s < r->end && *r->s == close) {
            r->s++;
            r->depth--;
            return true;
        }
        return jr_fail(r, close == ']' ? "',' or ']' expected" : "',' or '}' expected");
    }
}

static bool jr_value(JsonReader *r, JsonValue *v)
{
    jr_space(r);
    if (r->s >= r->end)
        return jr_fail(r, "a value is missing");
    switch (*r->s) {
    case '{':
        v->type = JSON_OBJECT;
        return jr_container(r, v, '}');
    case '[':
        v->type = JSON_ARRAY;
        return jr_container(r, v, ']');
    case '"':
        v->type = JSON_STRING;
        return (v->str = jr_string(r)) != NULL;
    case 't':
        v->type = JSON_BOOL;
        v->b = true;
        return jr_word(r, "true");
    case 'f':
        v->type = JSON_BOOL;
        return jr_word(r, "false");
    case 'n':
        v->type = JSON_NULL;
        return jr_word(r, "null");
    default:
        v->type = JSON_NUMBER;
        return jr_number(r, &v->num);
    }
}

static void json_free_inner(JsonValue *v)
{
    for (int i = 0; i < v->n; i++) {
        json_free_inner(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

void json_free(JsonValue *v)
{
    if (!v)
        return;
    json_free_inner(v);
    free(v);
}

JsonValue *json_parse(const char *text, size_t len, char *err, size_t err_len)
{
    JsonReader r = {text, text + len, 1, 0, err, err_len, false};
    if (!text || len > JSON_MAX_BYTES) {
        msg_set(err, err_len, "line 1: larger than %d MB", JSON_MAX_BYTES >> 20);
        return NULL;
    }
    if (memchr(text, '\0', len)) {
        msg_set(err, err_len, "line 1: a NUL byte: not a JSON text");
        return NULL;
    }
    JsonValue *v = xmem_calloc(1, sizeof *v);
    if (jr_value(&r, v)) {
        jr_space(&r);
        if (r.s < r.end)
            jr_fail(&r, "text after the JSON value");
    }
    if (r.failed) {
        json_free(v);
        return NULL;
    }
    return v;
}

const JsonValue *json_get(const JsonValue *v, const char *key)
{
    if (!v || v->type != JSON_OBJECT || !key)
        return NULL;
    for (int i = 0; i < v->n; i++)
        if (v->keys[i] && strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    return NULL;
}

double json_get_number(const JsonValue *v, const char *key, double fallback)
{
    const JsonValue *x = json_get(v, key);
    return x && x->type == JSON_NUMBER ? x->num : fallback;
}

const char *json_get_string(const JsonValue *v, const char *key, const char *fallback)
{
    const JsonValue *x = json_get(v, key);
    return x && x->type == JSON_STRING ? x->str : fallback;
}
