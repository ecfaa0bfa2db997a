/* SPDX-License-Identifier: MIT */
/* wire — the bytes of the messages between scalelab and its lesson host
 * (host.h): a growing buffer written with typed puts, read back with gets
 * that check every length and range and, once one fails, fail from then on
 * (so a reader checks wire_ok once at the end); and a codec driven by a
 * table of a struct's fields (WireField), so that one list says how a
 * struct is sent, received, checked and compared.
 *
 * Both ends are the same program on the same machine: numbers travel in
 * its own byte order and width. The receiving end trusts nothing it reads:
 * lengths are bounded before anything is allocated, strings hold no NUL
 * byte, numbers are checked against the field's range. Strings read are
 * the caller's to free (through the struct's own free function: whatever
 * wire_get_struct allocated hangs on the struct, even after a failure).
 * No Lua, no I/O.
 */
#ifndef SCALELAB_LESSON_WIRE_H
#define SCALELAB_LESSON_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    unsigned char *buf;
    size_t len, cap;
} Wire;

typedef struct {
    const unsigned char *p;
    size_t left;
    const char *why; /* NULL while every get succeeded, else the first failure */
} WireIn;

void wire_init(Wire *w);
void wire_free(Wire *w);
void wire_put(Wire *w, const void *p, size_t n);
void wire_u8(Wire *w, unsigned v);
void wire_i32(Wire *w, int v);
void wire_u32(Wire *w, uint32_t v);
void wire_f64(Wire *w, double v);
/* A string of n bytes (may hold NUL), or NULL (absent). */
void wire_lstr(Wire *w, const char *s, size_t n);
void wire_str(Wire *w, const char *s); /* NULL: absent */

WireIn wire_in(const void *p, size_t n);
bool wire_ok(const WireIn *r);
/* Marks r failed with why (a string literal); returns false. */
bool wire_fail(WireIn *r, const char *why);
bool wire_get(WireIn *r, void *out, size_t n);
unsigned wire_get_u8(WireIn *r, unsigned max);
int wire_get_i32(WireIn *r, int lo, int hi);
uint32_t wire_get_u32(WireIn *r, uint32_t max);
double wire_get_f64(WireIn *r, double lo, double hi); /* NaN is never in range */
/* A string of at most max bytes without NUL, as a new string (NULL when
 * absent or on failure; *absent says which, may be NULL). */
char *wire_get_str(WireIn *r, size_t max, bool *absent);
/* A present string of at most max bytes, NUL bytes allowed, borrowed from
 * the buffer (not terminated); NULL on failure. */
const char *wire_get_lstr(WireIn *r, size_t max, size_t *len);

/* ---- structs from a table of their fields ------------------------------ */

typedef enum {
    WF_LOCAL,  /* not sent: belongs to one end (a pointer to a process's state) */
    WF_INT,    /* int, unsigned or enum (4 bytes) in [lo, hi] */
    WF_BOOL,   /* bool */
    WF_DOUBLE, /* double in [lo, hi] */
    WF_STR,    /* char * (NULL allowed), at most hi bytes */
    WF_CHARS,  /* char[size] holding a string */
    WF_LIST,   /* pointer to count elements (count: an int at count_off), at most hi */
    WF_CUSTOM, /* a value sent and checked by codec */
    WF_STRUCT, /* a struct (or a fixed array of them) described by elem */
} WireType;

typedef struct {
    void (*put)(Wire *w, const void *value);
    bool (*get)(WireIn *r, void *value); /* false: refused (wire_fail says why) */
} WireCodec;

typedef struct WireField {
    const char *name;
    WireType type;
    size_t off;  /* offsetof the member */
    size_t size; /* bytes of one element (for an array member, of one of its n) */
    size_t n;    /* elements in the member: 1, or its array length */
    double lo,
        hi; /* range (WF_INT, WF_DOUBLE); longest string (WF_STR); most elements (WF_LIST) */
    size_t count_off;             /* WF_LIST: offsetof the int that counts the elements */
    const struct WireField *elem; /* WF_LIST, WF_STRUCT: the element's fields (WF_LIST:
                                   * NULL for a list of char *) */
    int n_elem;
    const WireCodec *codec; /* WF_CUSTOM */
} WireField;

/* Field table entries, for a struct type S and member m. WIRE_SIZED stops
 * the compile when m is not of size bytes (a WF_INT member must be an int,
 * an unsigned or an enum). */
#define WIRE_MEMBER(S, m) offsetof(S, m), sizeof(((S *)0)->m)
#define WIRE_SIZED(S, m, size)                                                                    \
    offsetof(S, m), sizeof(((S *)0)->m) + 0 * sizeof(char[sizeof(((S *)0)->m) == (size) ? 1 : -1])
#define WIRE_F_LOCAL(S, m)                                                                        \
    {                                                                                             \
#m, WF_LOCAL, WIRE_MEMBER(S, m), 1, 0, 0, 0, NULL, 0, NULL                                \
    }
#define WIRE_F_INT(S, m, lo, hi)                                                                  \
    {                                                                                             \
#m, WF_INT, WIRE_SIZED(S, m, 4), 1, (lo), (hi), 0, NULL, 0, NULL                          \
    }
#define WIRE_F_BOOL(S, m)                                                                         \
    {                                                                                             \
#m, WF_BOOL, WIRE_SIZED(S, m, sizeof(bool)), 1, 0, 1, 0, NULL, 0, NULL                    \
    }
#define WIRE_F_DOUBLE(S, m, lo, hi)                                                               \
    {                                                                                             \
#m, WF_DOUBLE, WIRE_SIZED(S, m, sizeof(double)), 1, (lo), (hi), 0, NULL, 0, NULL          \
    }
/* A double[N] member. */
#define WIRE_F_DOUBLES(S, m, lo, hi)                                                              \
    {                                                                                             \
#m, WF_DOUBLE, offsetof(S, m), sizeof(((S *)0)->m[0]),                                    \
            sizeof(((S *)0)->m) / sizeof(((S *)0)->m[0]), (lo), (hi), 0, NULL, 0, NULL            \
    }
#define WIRE_F_STR(S, m, max)                                                                     \
    {                                                                                             \
#m, WF_STR, WIRE_MEMBER(S, m), 1, 0, (max), 0, NULL, 0, NULL                              \
    }
/* A char[N] member, or a char[K][N] one (K strings). */
#define WIRE_F_CHARS(S, m)                                                                        \
    {                                                                                             \
#m, WF_CHARS, WIRE_MEMBER(S, m), 1, 0, 0, 0, NULL, 0, NULL                                \
    }
#define WIRE_F_CHARS2(S, m)                                                                       \
    {                                                                                             \
#m, WF_CHARS, offsetof(S, m), sizeof(((S *)0)->m[0]),                                     \
            sizeof(((S *)0)->m) / sizeof(((S *)0)->m[0]), 0, 0, 0, NULL, 0, NULL                  \
    }
/* A list: member m points to count elements described by fields (NULL and
 * 0: strings), at most max. */
#define WIRE_F_LIST(S, m, count, max, fields, n_fields)                                           \
    {                                                                                             \
#m, WF_LIST, offsetof(S, m), sizeof(*((S *)0)->m), 1, 0, (max), offsetof(S, count),       \
            (fields), (n_fields), NULL                                                            \
    }
/* A value (or an array of them) sent by codec. */
#define WIRE_F_CUSTOM(S, m, codec)                                                                \
    {                                                                                             \
#m, WF_CUSTOM, WIRE_MEMBER(S, m), 1, 0, 0, 0, NULL, 0, &(codec)                           \
    }
#define WIRE_F_CUSTOMS(S, m, codec)                                                               \
    {                                                                                             \
#m, WF_CUSTOM, offsetof(S, m), sizeof(((S *)0)->m[0]),                                    \
            sizeof(((S *)0)->m) / sizeof(((S *)0)->m[0]), 0, 0, 0, NULL, 0, &(codec)              \
    }
/* A T[N] member whose T is described by fields. */
#define WIRE_F_STRUCTS(S, m, fields, n_fields)                                                    \
    {                                                                                             \
#m, WF_STRUCT, offsetof(S, m), sizeof(((S *)0)->m[0]),                                    \
            sizeof(((S *)0)->m) / sizeof(((S *)0)->m[0]), 0, 0, 0, (fields), (n_fields), NULL     \
    }
#define WIRE_N(table) ((int)(sizeof(table) / sizeof((table)[0])))

void wire_put_struct(Wire *w, const void *obj, const WireField *f, int n);
/* Reads into obj, which must be zeroed; false (r failed) at the first
 * field out of range. What was allocated hangs on obj either way. */
bool wire_get_struct(WireIn *r, void *obj, const WireField *f, int n);
/* Whether two structs of size bytes hold the same: strings and lists by
 * their content, WF_LOCAL members not at all, every other byte as it is,
 * so a member missing from the table shows as differing bytes. On a
 * difference why says where ("pages[2].hints[0]", "bytes 412-415: a member
 * missing from the field table?"). */
bool wire_same_struct(const void *a, const void *b, size_t size, const WireField *f, int n,
                      char *why, size_t why_len);

#endif
