/* SPDX-License-Identifier: MIT */
/* names — nearest known name by edit distance (optimal string alignment:
 * Levenshtein plus the swap of two neighbours), bounded so a long word
 * costs nothing: names longer than NAMES_MAX are compared by prefix only. */
#include "base/names.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define NAMES_MAX 48

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* Optimal string alignment distance of a and b (each at most NAMES_MAX). */
static size_t distance(const char *a, size_t n, const char *b, size_t m)
{
    size_t d[NAMES_MAX + 1][NAMES_MAX + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[n][m];
}

static bool shares_prefix(const char *a, size_t n, const char *b, size_t m)
{
    size_t k = n < m ? n : m;
    return k >= 3 && strncmp(a, b, k) == 0;
}

static size_t common(const char *a, const char *b)
{
    size_t k = 0;
    while (a[k] && a[k] == b[k])
        k++;
    return k;
}

const char *names_nearest(const char *word, const char *const *known)
{
    if (!word || !known)
        return NULL;
    size_t n = strlen(word), best_d = (size_t)-1;
    const char *best = NULL, *prefix = NULL;
    for (int i = 0; known[i]; i++) {
        size_t m = strlen(known[i]);
        if (m == n && strcmp(word, known[i]) == 0)
            return NULL;
        if (!prefix && shares_prefix(word, n, known[i], m))
            prefix = known[i];
        if (n > NAMES_MAX || m > NAMES_MAX)
            continue;
        size_t d = distance(word, n, known[i], m);
        if (d < best_d || (d == best_d && best && common(word, known[i]) > common(word, best))) {
            best_d = d;
            best = known[i];
        }
    }
    size_t most = n <= 3 ? 1 : 2;
    return best && best_d <= most ? best : prefix;
}
