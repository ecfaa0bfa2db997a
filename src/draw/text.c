/* SPDX-License-Identifier: MIT */
/* text — UTF-8 measurement, word wrapping and light markup; see text.h.
 *
 * Widths come from base/utf8, so results never depend on the locale. Markup
 * is drawn by flattening each block into plain bytes plus one Style per
 * byte, wrapping the plain text, then drawing each line with the saved
 * styles.
 * Depends on canvas (drawing), utf8 and xmem; no curses, no Lua, no model.
 */
#include "draw/text.h"

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xmem.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is the space at s[i] the one between a number and its unit ("812 GB",
 * "1.8 TB/s", "2 us")? Lines never break there. */
static bool text_space_binds(const char *s, size_t i)
{
    static const char *const units[] = {"GB", "TB", "MB",    "PB",    "Gb",    "Tb",   "Mb",
                                        "ms", "us", "µs",    "μs",    "ns",    "s",    "kW",
                                        "MW", "W",  "PFLOP", "TFLOP", "EFLOP", "GFLOP"};
    if (i == 0 || s[i - 1] < '0' || s[i - 1] > '9')
        return false;
    const char *w = s + i + 1;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t n = strlen(units[u]);
        if (strncmp(w, units[u], n) == 0 && !isalnum((unsigned char)w[n]))
            return true;
    }
    return false;
}

size_t text_wrap_line(const char *s, int width, size_t *next)
{
    if (width < 1)
        width = 1;
    size_t i = 0, brk = 0;
    bool have_brk = false;
    int col = 0;
    while (s[i] && s[i] != '\n') {
        uint32_t cp;
        size_t used = utf8_decode(s + i, &cp);
        int cw = utf8_cp_width(cp);
        if (s[i] == ' ' && !text_space_binds(s, i)) {
            brk = i;
            have_brk = true;
        } else if (s[i] != ' ' && col + cw > width) {
            size_t end = have_brk ? brk : (i > 0 ? i : used);
            size_t line = end;
            while (line > 0 && s[line - 1] == ' ')
                line--;
            size_t nx = end;
            while (s[nx] == ' ')
                nx++;
            if (s[nx] == '\n')
                nx++;
            *next = nx;
            return line;
        }
        col += cw;
        i += used;
    }
    size_t line = i;
    while (line > 0 && s[line - 1] == ' ')
        line--;
    *next = s[i] == '\n' ? i + 1 : i;
    return line;
}

int text_wrap_count(const char *s, int width)
{
    if (!s)
        return 1;
    int n = 0;
    size_t off = 0, len = strlen(s);
    do {
        size_t next;
        text_wrap_line(s + off, width, &next);
        off += next;
        n++;
    } while (off < len);
    return n;
}

void text_wrap_append(StrBuf *b, const char *s, int width, int first_w, int indent)
{
    bool first = true;
    const char *p = s;
    do {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        int hang = len >= 2 && p[0] == '-' && p[1] == ' ' ? 2 : 0;
        if (len == 0 && !first)
            strbuf_addc(b, '\n');
        for (size_t at = 0; at < len || (first && len == 0); first = false) {
            int pre = first ? first_w : indent + (at ? hang : 0);
            size_t next, n = text_wrap_line(p + at, width - pre > 1 ? width - pre : 1, &next);
            if (!first)
                strbuf_addf(b, "%*s", n ? pre : 0, "");
            strbuf_add_n(b, p + at, n);
            strbuf_addc(b, '\n');
            if (next == 0)
                break;
            at += next;
        }
        p = nl ? nl + 1 : NULL;
    } while (p && *p);
}

/* Draws bytes s[0..n) with per-byte styles (st may be NULL: style one). */
static void draw_styled(Canvas *c, int x, int y, const char *s, size_t n, const unsigned char *st,
                        Style one)
{
    size_t i = 0;
    int col = 0;
    while (i < n) {
        uint32_t cp;
        size_t used = utf8_decode(s + i, &cp);
        char tmp[5] = {0};
        memcpy(tmp, s + i, used < 4 ? used : 4);
        col += canvas_put_glyph(c, x + col, y, tmp, st ? (Style)st[i] : one);
        i += used;
    }
}

int text_draw_wrapped(Canvas *c, int x, int y, int w, int h, const char *s, Style st)
{
    if (!s)
        return 0;
    int n = 0;
    size_t off = 0, len = strlen(s);
    do {
        size_t next, line = text_wrap_line(s + off, w, &next);
        if (n < h)
            draw_styled(c, x, y + n, s + off, line, NULL, st);
        off += next;
        n++;
    } while (off < len);
    return n;
}

/* --- markup ------------------------------------------------------------- */

typedef struct {
    Canvas *c;
    int x, y, w, h, scroll;
    int line; /* lines laid out so far */
} Layout;

static void layout_line(Layout *L, int indent, const char *s, size_t n, const unsigned char *st,
                        Style one)
{
    int row = L->line - L->scroll;
    if (row >= 0 && row < L->h)
        draw_styled(L->c, L->x + indent, L->y + row, s, n, st, one);
    L->line++;
}

/* Flattens inline markup of src[0..n) into b (plain) and styles (per byte). */
static unsigned char *flatten_inline(const char *src, size_t n, Style base, StrBuf *b)
{
    size_t cap = n + 1;
    unsigned char *st = xmem_alloc(cap);
    bool emph = false, code = false;
    for (size_t i = 0; i < n;) {
        char ch = src[i];
        if (ch == '`') {
            code = !code;
            i++;
            continue;
        }
        if (ch == '*' && !code) {
            size_t k = (i + 1 < n && src[i + 1] == '*') ? 2 : 1;
            bool opens = !emph && i + k < n && src[i + k] != ' ' &&
                         memchr(src + i + k, '*', n - i - k) != NULL;
            if (opens || emph) {
                emph = !emph;
                i += k;
                continue;
            }
        }
        Style s = code ? STYLE_CODE : emph ? STYLE_EMPH : base;
        st[b->len] = (unsigned char)s;
        strbuf_addc(b, ch);
        i++;
    }
    return st;
}

/* Lays out one block: text wrapped to the width left after indent, the
 * first line prefixed by `lead` (a bullet), following lines hanging. */
static void layout_block(Layout *L, int indent, const char *lead, Style lead_st, const char *src,
                         size_t n, Style base)
{
    StrBuf b = {0};
    unsigned char *st = flatten_inline(src, n, base, &b);
    char *plain = strbuf_take(&b);
    int lead_w = lead ? utf8_width(lead) : 0;
    int width = L->w - indent - lead_w;
    if (width < 1)
        width = 1;
    size_t off = 0, len = strlen(plain);
    bool first = true;
    do {
        size_t next, line = text_wrap_line(plain + off, width, &next);
        int row = L->line - L->scroll;
        if (first && lead && row >= 0 && row < L->h)
            canvas_put_text(L->c, L->x + indent, L->y + row, lead, lead_st);
        layout_line(L, indent + lead_w, plain + off, line, st + off, base);
        off += next;
        first = false;
    } while (off < len);
    free(plain);
    free(st);
}

static size_t count_spaces(const char *s)
{
    size_t n = 0;
    while (s[n] == ' ')
        n++;
    return n;
}

static bool is_bullet(const char *s, size_t *marker_len)
{
    size_t sp = count_spaces(s);
    if ((s[sp] == '-' || s[sp] == '*') && s[sp + 1] == ' ') {
        *marker_len = sp + 2;
        return true;
    }
    size_t d = sp;
    while (s[d] >= '0' && s[d] <= '9')
        d++;
    if (d > sp && d - sp <= 3 && s[d] == '.' && s[d + 1] == ' ') {
        *marker_len = d + 2;
        return true;
    }
    return false;
}

int text_draw_markup(Canvas *c, int x, int y, int w, int h, const char *markup, int scroll)
{
    if (!markup)
        return 0;
    Layout L = {c, x, y, w, h, scroll < 0 ? 0 : scroll, 0};
    const char *p = markup;
    bool pending_blank = false, any = false;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *next = eol ? eol + 1 : p + len;
        size_t sp = count_spaces(p);
        if (sp == len) { /* blank line: paragraph break */
            pending_blank = any;
            p = next;
            continue;
        }
        if (pending_blank) {
            layout_line(&L, 0, "", 0, NULL, STYLE_NORMAL);
            pending_blank = false;
        }
        any = true;
        size_t mk;
        if (p[sp] == '#') {
            size_t hashes = sp;
            while (p[hashes] == '#')
                hashes++;
            size_t start = hashes + count_spaces(p + hashes);
            layout_block(&L, 0, NULL, STYLE_HEADING, p + start, len - start,
                         hashes - sp == 1 ? STYLE_HEADING : STYLE_BOLD);
            p = next;
            continue;
        }
        /* A paragraph or a bullet: join following lines that continue it
         * (non-blank, not a heading, not a new bullet). */
        bool bullet = is_bullet(p, &mk);
        StrBuf joined = {0};
        strbuf_add_n(&joined, p + (bullet ? mk : sp), len - (bullet ? mk : sp));
        while (*next) {
            const char *e2 = strchr(next, '\n');
            size_t l2 = e2 ? (size_t)(e2 - next) : strlen(next);
            size_t sp2 = count_spaces(next);
            size_t mk2;
            if (sp2 == l2 || next[sp2] == '#' || is_bullet(next, &mk2))
                break;
            strbuf_addc(&joined, ' ');
            strbuf_add_n(&joined, next + sp2, l2 - sp2);
            next = e2 ? e2 + 1 : next + l2;
        }
        char *text = strbuf_take(&joined);
        if (bullet) {
            int indent = (int)(sp / 2) * 2;
            char lead[16];
            if (p[sp] == '-' || p[sp] == '*')
                strcpy(lead, canvas_is_ascii(c) ? "- " : "• ");
            else
                snprintf(lead, sizeof lead, "%.*s ", (int)(mk - sp - 1), p + sp);
            layout_block(&L, indent, lead, STYLE_NORMAL, text, strlen(text), STYLE_NORMAL);
        } else {
            layout_block(&L, 0, NULL, STYLE_NORMAL, text, strlen(text), STYLE_NORMAL);
        }
        free(text);
        p = next;
    }
    return L.line;
}

/* --- inline markup in running text -------------------------------------- */

/* s as one paragraph of running text: single newlines become spaces, a
 * blank line stays a line break, inline markup is flattened into styles. */
static char *inline_flatten(const char *s, Style st, unsigned char **styles)
{
    StrBuf joined = {0};
    for (const char *p = s; *p; p++) {
        if (*p != '\n') {
            strbuf_addc(&joined, *p);
            continue;
        }
        size_t sp = 1;
        while (p[sp] == ' ' || p[sp] == '\t')
            sp++;
        if (p[sp] == '\n') { /* a blank line: keep one break */
            strbuf_addc(&joined, '\n');
            p += sp;
        } else if (p[sp] != '\0') {
            strbuf_addc(&joined, ' ');
        }
    }
    char *text = strbuf_take(&joined);
    StrBuf b = {0};
    *styles = flatten_inline(text, strlen(text), st, &b);
    free(text);
    return strbuf_take(&b);
}

int text_draw_inline(Canvas *c, int x, int y, int w, int h, const char *s, Style st)
{
    if (!s)
        return 0;
    unsigned char *styles;
    char *plain = inline_flatten(s, st, &styles);
    int n = 0;
    size_t off = 0, len = strlen(plain);
    do {
        size_t next, line = text_wrap_line(plain + off, w, &next);
        if (c && n < h)
            draw_styled(c, x, y + n, plain + off, line, styles + off, st);
        off += next;
        n++;
    } while (off < len);
    free(plain);
    free(styles);
    return n;
}

int text_inline_count(const char *s, int w)
{
    return text_draw_inline(NULL, 0, 0, w, 0, s, STYLE_NORMAL);
}

int text_title_rule(Canvas *c, const char *title, const char *right)
{
    int w = canvas_width(c);
    int rw = right ? utf8_width(right) : 0;
    canvas_put_text_max(c, 1, 0, w - rw - 3, title, STYLE_HEADING);
    if (right)
        canvas_put_text(c, w - rw - 1, 0, right, STYLE_DIM);
    canvas_hline(c, 0, 1, w, LINE_LIGHT, STYLE_FRAME);
    return 2;
}
