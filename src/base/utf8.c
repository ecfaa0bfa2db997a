/* SPDX-License-Identifier: MIT */
/* utf8 — UTF-8 decoding and display width; see utf8.h.
 *
 * Widths come from the range tables below (Unicode East Asian Width W/F and
 * the combining / zero-width classes, abridged to the blocks a lesson can
 * plausibly use), so results never depend on the locale.
 */
#include "base/utf8.h"

#include <langinfo.h>
#include <locale.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

bool utf8_env_is_utf8(void)
{
    const char *now = setlocale(LC_CTYPE, NULL);
    char *saved = now ? strdup(now) : NULL;
    bool utf8 = false;
    if (setlocale(LC_CTYPE, "")) {
        const char *cs = nl_langinfo(CODESET);
        utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
    }
    setlocale(LC_CTYPE, saved ? saved : "C");
    free(saved);
    return utf8;
}

size_t utf8_decode(const char *s, uint32_t *cp)
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
    {0x0300, 0x036F}, {0x0483, 0x0489},   {0x0591, 0x05BD}, {0x05BF, 0x05BF}, {0x05C1, 0x05C2},
    {0x05C4, 0x05C5}, {0x05C7, 0x05C7},   {0x0610, 0x061A}, {0x064B, 0x065F}, {0x0670, 0x0670},
    {0x06D6, 0x06DC}, {0x06DF, 0x06E4},   {0x0900, 0x0902}, {0x093A, 0x093A}, {0x093C, 0x093C},
    {0x0941, 0x0948}, {0x094D, 0x094D},   {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},   {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064},
    {0x20D0, 0x20FF}, {0x302A, 0x302D},   {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
    {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
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

int utf8_cp_width(uint32_t cp)
{
    if (cp < 0x300)
        return 1;
    if (in_ranges(cp, zero_ranges, sizeof zero_ranges / sizeof zero_ranges[0]))
        return 0;
    if (in_ranges(cp, wide_ranges, sizeof wide_ranges / sizeof wide_ranges[0]))
        return 2;
    return 1;
}

int utf8_width_n(const char *s, size_t n)
{
    if (!s)
        return 0;
    int w = 0;
    size_t i = 0;
    while (i < n && s[i]) {
        uint32_t cp;
        size_t used = utf8_decode(s + i, &cp);
        if (i + used > n)
            used = n - i;
        w += utf8_cp_width(cp);
        i += used;
    }
    return w;
}

int utf8_width(const char *s)
{
    return s ? utf8_width_n(s, strlen(s)) : 0;
}
