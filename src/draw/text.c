/* text — UTF-8 measurement, word wrapping and light markup; see text.h.
 *
 * Widths come from the range tables below (Unicode East Asian Width W/F and
 * the combining / zero-width classes, abridged to the blocks a lesson can
 * plausibly use), so results never depend on the locale. Markup is drawn by
 * flattening each block into plain bytes plus one Style per byte, wrapping
 * the plain text, then drawing each line with the saved styles.
 * Depends on canvas (drawing) and xmem; no curses, no Lua, no model.
 */
#include "draw/text.h"

#include "draw/strbuf.h"
#include "model/xmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t text_decode(const char *s, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (!s || !u[0]) {
        *cp = 0;
        return 0;
    }
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    size_t n;
    uint32_t v, min;
    if ((u[0] & 0xE0) == 0xC0) {
        n = 2;
        v = u[0] & 0x1Fu;
        min = 0x80;
    } else if ((u[0] & 0xF0) == 0xE0) {
        n = 3;
        v = u[0] & 0x0Fu;
        min = 0x800;
    } else if ((u[0] & 0xF8) == 0xF0) {
        n = 4;
        v = u[0] & 0x07u;
        min = 0x10000;
    } else {
        *cp = 0xFFFD;
        return 1;
    }
    for (size_t i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return 1;
        }
        v = (v << 6) | (u[i] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        *cp = 0xFFFD;
        return 1;
    }
    *cp = v;
    return n;
}

typedef struct {
    uint32_t lo, hi;
} Range;

/* Zero width: combining marks, zero-width space/joiners, variation selectors. */
static const Range zero_ranges[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF},
    {0x05C1, 0x05C2}, {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A},
    {0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06DC}, {0x06DF, 0x06E4},
    {0x0900, 0x0902}, {0x093A, 0x093A}, {0x093C, 0x093C}, {0x0941, 0x0948},
    {0x094D, 0x094D}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x202A, 0x202E},
    {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0x302A, 0x302D}, {0x3099, 0x309A},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

/* Wide (W) and fullwidth (F). */
static const Range wide_ranges[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F},
    {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static bool in_ranges(uint32_t cp, const Range *r, size_t n)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < r[mid].lo)
            hi = mid;
        else if (cp > r[mid].hi)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

int text_cp_width(uint32_t cp)
{
    if (cp < 0x300)
        return 1;
    if (in_ranges(cp, zero_ranges, sizeof zero_ranges / sizeof zero_ranges[0]))
        return 0;
    if (in_ranges(cp, wide_ranges, sizeof wide_ranges / sizeof wide_ranges[0]))
        return 2;
    return 1;
}

int text_width_n(const char *s, size_t n)
{
    if (!s)
        return 0;
    int w = 0;
    size_t i = 0;
    while (i < n && s[i]) {
        uint32_t cp;
        size_t used = text_decode(s + i, &cp);
        if (i + used > n)
            used = n - i;
        w += text_cp_width(cp);
        i += used;
    }
    return w;
}

int text_width(const char *s)
{
    return s ? text_width_n(s, strlen(s)) : 0;
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
        size_t used = text_decode(s + i, &cp);
        int cw = text_cp_width(cp);
        if (s[i] == ' ') {
            brk = i;
            have_brk = true;
        } else if (col + cw > width) {
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

/* Draws bytes s[0..n) with per-byte styles (st may be NULL: style one). */
static void draw_styled(Canvas *c, int x, int y, const char *s, size_t n,
                        const unsigned char *st, Style one)
{
    size_t i = 0;
    int col = 0;
    while (i < n) {
        uint32_t cp;
        size_t used = text_decode(s + i, &cp);
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

static void layout_line(Layout *L, int indent, const char *s, size_t n,
                        const unsigned char *st, Style one)
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
    unsigned char *st = xmalloc(cap);
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
static void layout_block(Layout *L, int indent, const char *lead, Style lead_st,
                         const char *src, size_t n, Style base)
{
    StrBuf b = {0};
    unsigned char *st = flatten_inline(src, n, base, &b);
    char *plain = strbuf_take(&b);
    int lead_w = lead ? text_width(lead) : 0;
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

int text_draw_markup(Canvas *c, int x, int y, int w, int h, const char *markup, int scroll,
                     bool ascii)
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
                strcpy(lead, ascii ? "- " : "• ");
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
