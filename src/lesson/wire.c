/* SPDX-License-Identifier: MIT */
/* wire — message bytes and the table-driven struct codec (see wire.h). */
#include "lesson/wire.h"

#include "base/xmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIRE_ABSENT 0xffffffffu /* the length of an absent string */

void wire_init(Wire *w)
{
    memset(w, 0, sizeof *w);
}

void wire_free(Wire *w)
{
    free(w->buf);
    wire_init(w);
}

void wire_put(Wire *w, const void *p, size_t n)
{
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + n)
            cap *= 2;
        w->buf = xmem_realloc(w->buf, cap);
        w->cap = cap;
    }
    if (n)
        memcpy(w->buf + w->len, p, n);
    w->len += n;
}

void wire_u8(Wire *w, unsigned v)
{
    unsigned char b = (unsigned char)v;
    wire_put(w, &b, 1);
}

void wire_i32(Wire *w, int v)
{
    int32_t x = v;
    wire_put(w, &x, sizeof x);
}

void wire_u32(Wire *w, uint32_t v)
{
    wire_put(w, &v, sizeof v);
}

void wire_f64(Wire *w, double v)
{
    wire_put(w, &v, sizeof v);
}

void wire_lstr(Wire *w, const char *s, size_t n)
{
    if (!s || n >= WIRE_ABSENT) {
        wire_u32(w, WIRE_ABSENT);
        return;
    }
    wire_u32(w, (uint32_t)n);
    wire_put(w, s, n);
}

void wire_str(Wire *w, const char *s)
{
    wire_lstr(w, s, s ? strlen(s) : 0);
}

WireIn wire_in(const void *p, size_t n)
{
    return (WireIn){p, n, NULL};
}

bool wire_ok(const WireIn *r)
{
    return r->why == NULL;
}

bool wire_fail(WireIn *r, const char *why)
{
    if (!r->why)
        r->why = why;
    r->left = 0;
    return false;
}

bool wire_get(WireIn *r, void *out, size_t n)
{
    if (r->why || n > r->left) {
        memset(out, 0, n);
        return wire_fail(r, "a message ends early");
    }
    memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
    return true;
}

unsigned wire_get_u8(WireIn *r, unsigned max)
{
    unsigned char b;
    if (!wire_get(r, &b, 1))
        return 0;
    if (b > max)
        return wire_fail(r, "a byte out of range"), 0;
    return b;
}

int wire_get_i32(WireIn *r, int lo, int hi)
{
    int32_t x;
    if (!wire_get(r, &x, sizeof x))
        return 0;
    if (x < lo || x > hi)
        return wire_fail(r, "a number out of range"), 0;
    return x;
}

uint32_t wire_get_u32(WireIn *r, uint32_t max)
{
    uint32_t x;
    if (!wire_get(r, &x, sizeof x))
        return 0;
    if (x > max)
        return wire_fail(r, "a count out of range"), 0;
    return x;
}

double wire_get_f64(WireIn *r, double lo, double hi)
{
    double x;
    if (!wire_get(r, &x, sizeof x))
        return 0;
    if (!(x >= lo && x <= hi))
        return wire_fail(r, "a number out of range"), 0;
    return x;
}

/* The length of the next string, absent as WIRE_ABSENT; r fails when it is
 * over max or longer than what is left. */
static uint32_t wire_get_len(WireIn *r, size_t max)
{
    uint32_t n;
    if (!wire_get(r, &n, sizeof n))
        return 0;
    if (n != WIRE_ABSENT && (n > max || n > r->left))
        return wire_fail(r, "a string too long"), 0;
    return n;
}

char *wire_get_str(WireIn *r, size_t max, bool *absent)
{
    if (absent)
        *absent = false;
    uint32_t n = wire_get_len(r, max);
    if (r->why)
        return NULL;
    if (n == WIRE_ABSENT) {
        if (absent)
            *absent = true;
        return NULL;
    }
    if (memchr(r->p, '\0', n))
        return wire_fail(r, "a NUL byte in a string"), NULL;
    char *s = xmem_alloc((size_t)n + 1);
    memcpy(s, r->p, n);
    s[n] = '\0';
    r->p += n;
    r->left -= n;
    return s;
}

const char *wire_get_lstr(WireIn *r, size_t max, size_t *len)
{
    *len = 0;
    uint32_t n = wire_get_len(r, max);
    if (r->why)
        return NULL;
    if (n == WIRE_ABSENT)
        return wire_fail(r, "a string missing"), NULL;
    const char *s = (const char *)r->p;
    r->p += n;
    r->left -= n;
    *len = n;
    return s;
}

/* ---- structs ----------------------------------------------------------- */

static void wire_put_list(Wire *w, const void *obj, const WireField *f)
{
    int count;
    memcpy(&count, (const char *)obj + f->count_off, sizeof count);
    const char *const *slot = (const void *)((const char *)obj + f->off);
    const char *items = *slot;
    if (!items || count < 0)
        count = 0;
    wire_u32(w, (uint32_t)count);
    for (int i = 0; i < count; i++) {
        const char *e = items + (size_t)i * f->size;
        if (f->elem)
            wire_put_struct(w, e, f->elem, f->n_elem);
        else
            wire_str(w, *(char *const *)(const void *)e);
    }
}

void wire_put_struct(Wire *w, const void *obj, const WireField *f, int n)
{
    for (int k = 0; k < n; k++, f++) {
        for (size_t i = 0; i < f->n; i++) {
            const char *m = (const char *)obj + f->off + i * f->size;
            switch (f->type) {
            case WF_LOCAL:
                break;
            case WF_INT: {
                int v;
                memcpy(&v, m, sizeof v); /* WF_INT members are 4 bytes (wire.h) */
                wire_i32(w, v);
                break;
            }
            case WF_BOOL: {
                bool b;
                memcpy(&b, m, sizeof b);
                wire_u8(w, b);
                break;
            }
            case WF_DOUBLE: {
                double d;
                memcpy(&d, m, sizeof d);
                wire_f64(w, d);
                break;
            }
            case WF_STR:
                wire_str(w, *(char *const *)(const void *)m);
                break;
            case WF_CHARS:
                wire_lstr(w, m, strnlen(m, f->size));
                break;
            case WF_LIST:
                wire_put_list(w, obj, f);
                break;
            case WF_CUSTOM:
                f->codec->put(w, m);
                break;
            case WF_STRUCT:
                wire_put_struct(w, m, f->elem, f->n_elem);
                break;
            }
        }
    }
}

static bool wire_get_list(WireIn *r, void *obj, const WireField *f)
{
    uint32_t count = wire_get_u32(r, (uint32_t)f->hi);
    if (!wire_ok(r))
        return false;
    char *items = xmem_calloc((size_t)count + 1, f->size);
    memcpy((char *)obj + f->off, &items, sizeof items);
    for (uint32_t i = 0; i < count; i++) {
        char *e = items + (size_t)i * f->size;
        bool ok;
        if (f->elem) {
            ok = wire_get_struct(r, e, f->elem, f->n_elem);
        } else {
            bool absent;
            char *s = wire_get_str(r, (size_t)-1, &absent);
            memcpy(e, &s, sizeof s);
            ok = s != NULL || (!absent && wire_fail(r, "a list entry missing"));
        }
        int have = (int)i + 1; /* what is there is freed with the struct */
        memcpy((char *)obj + f->count_off, &have, sizeof have);
        if (!ok)
            return false;
    }
    return true;
}

static bool wire_get_scalar(WireIn *r, char *m, const WireField *f)
{
    if (f->type == WF_BOOL) {
        bool b = wire_get_u8(r, 1) != 0;
        memcpy(m, &b, sizeof b);
    } else if (f->type == WF_INT) {
        int v = wire_get_i32(r, (int)f->lo, (int)f->hi);
        memcpy(m, &v, f->size < sizeof v ? f->size : sizeof v);
    } else {
        double v = wire_get_f64(r, f->lo, f->hi);
        memcpy(m, &v, sizeof v);
    }
    return wire_ok(r);
}

bool wire_get_struct(WireIn *r, void *obj, const WireField *f, int n)
{
    for (int k = 0; k < n; k++, f++) {
        for (size_t i = 0; i < f->n && wire_ok(r); i++) {
            char *m = (char *)obj + f->off + i * f->size;
            switch (f->type) {
            case WF_LOCAL:
                break;
            case WF_INT:
            case WF_BOOL:
            case WF_DOUBLE:
                wire_get_scalar(r, m, f);
                break;
            case WF_STR: {
                char *s = wire_get_str(r, f->hi > 0 ? (size_t)f->hi : (size_t)-1, NULL);
                memcpy(m, &s, sizeof s);
                break;
            }
            case WF_CHARS: {
                size_t len;
                const char *s = wire_get_lstr(r, f->size - 1, &len);
                if (s && memchr(s, '\0', len))
                    wire_fail(r, "a NUL byte in a string");
                else if (s)
                    memcpy(m, s, len);
                break;
            }
            case WF_LIST:
                wire_get_list(r, obj, f);
                break;
            case WF_CUSTOM:
                if (!f->codec->get(r, m))
                    wire_fail(r, "a value refused");
                break;
            case WF_STRUCT:
                wire_get_struct(r, m, f->elem, f->n_elem);
                break;
            }
        }
        if (!wire_ok(r))
            return false;
    }
    return true;
}

/* ---- comparing --------------------------------------------------------- */

static bool wire_differs(char *why, size_t why_len, const char *prefix, const char *name,
                         const char *what)
{
    snprintf(why, why_len, "%s%s%s", prefix, name, what);
    return false;
}

static bool wire_same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool wire_same_in(const void *a, const void *b, size_t size, const WireField *f, int n,
                         const char *prefix, char *why, size_t why_len);

static bool wire_same_list(const void *a, const void *b, const WireField *f, const char *prefix,
                           char *why, size_t why_len)
{
    int count;
    memcpy(&count, (const char *)a + f->count_off, sizeof count); /* equal: compared raw */
    const char *ia, *ib;
    memcpy(&ia, (const char *)a + f->off, sizeof ia);
    memcpy(&ib, (const char *)b + f->off, sizeof ib);
    for (int i = 0; i < count && ia && ib; i++) {
        char at[160];
        snprintf(at, sizeof at, "%s%s[%d]", prefix, f->name, i);
        const char *ea = ia + (size_t)i * f->size, *eb = ib + (size_t)i * f->size;
        if (f->elem) {
            char sub[170];
            snprintf(sub, sizeof sub, "%s.", at);
            if (!wire_same_in(ea, eb, f->size, f->elem, f->n_elem, sub, why, why_len))
                return false;
        } else if (!wire_same_str(*(char *const *)(const void *)ea,
                                  *(char *const *)(const void *)eb)) {
            return wire_differs(why, why_len, at, "", " differs");
        }
    }
    if (count > 0 && (!ia) != (!ib))
        return wire_differs(why, why_len, prefix, f->name, " is missing on one side");
    return true;
}

static bool wire_same_in(const void *a, const void *b, size_t size, const WireField *f, int n,
                         const char *prefix, char *why, size_t why_len)
{
    unsigned char *raw = xmem_alloc(size ? size : 1); /* 1: compare the byte as it is */
    memset(raw, 1, size);
    bool same = true;
    for (int k = 0; k < n && same; k++) {
        const WireField *e = &f[k];
        if (e->type != WF_LOCAL && e->type != WF_STR && e->type != WF_LIST && e->type != WF_STRUCT)
            continue;
        memset(raw + e->off, 0, e->type == WF_LIST ? sizeof(void *) : e->size * e->n);
        for (size_t i = 0; e->type == WF_STRUCT && i < e->n && same; i++) {
            char sub[170];
            snprintf(sub, sizeof sub, "%s%s[%zu].", prefix, e->name, i);
            same = wire_same_in((const char *)a + e->off + i * e->size,
                                (const char *)b + e->off + i * e->size, e->size, e->elem,
                                e->n_elem, sub, why, why_len);
        }
        if (e->type == WF_STR) {
            const char *sa, *sb;
            memcpy(&sa, (const char *)a + e->off, sizeof sa);
            memcpy(&sb, (const char *)b + e->off, sizeof sb);
            if (!wire_same_str(sa, sb))
                same = wire_differs(why, why_len, prefix, e->name, " differs");
        } else if (e->type == WF_LIST) {
            same = wire_same_list(a, b, e, prefix, why, why_len);
        }
    }
    for (size_t i = 0; i < size && same; i++) {
        if (!raw[i] || ((const unsigned char *)a)[i] == ((const unsigned char *)b)[i])
            continue;
        const char *name = NULL;
        for (int k = 0; k < n && !name; k++)
            if (f[k].type == WF_LIST && i >= f[k].count_off && i < f[k].count_off + sizeof(int))
                name = f[k].name; /* its count */
            else if (f[k].type != WF_LIST && i >= f[k].off && i < f[k].off + f[k].size * f[k].n)
                name = f[k].name;
        if (name) {
            same = wire_differs(why, why_len, prefix, name, " differs");
        } else {
            char at[64];
            snprintf(at, sizeof at, "byte %zu", i);
            same = wire_differs(why, why_len, prefix, at,
                                " differs: a member missing from the field table?");
        }
    }
    free(raw);
    return same;
}

bool wire_same_struct(const void *a, const void *b, size_t size, const WireField *f, int n,
                      char *why, size_t why_len)
{
    if (why && why_len)
        why[0] = '\0';
    char scratch[8];
    return wire_same_in(a, b, size, f, n, "", why ? why : scratch, why ? why_len : sizeof scratch);
}
