/* SPDX-License-Identifier: MIT */
/* quiz — a per-learner, per-question permutation of a quiz's choices.
 *
 * The lesson id is hashed with 64-bit FNV-1a, mixed with the seed and the
 * page index through SplitMix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), which then drives a
 * Fisher-Yates shuffle. The modulo bias is below 2^-50 for any real quiz.
 *
 * Pure: no I/O, no allocation.
 */
#include "learn/quiz.h"

#include <stddef.h>

static uint64_t quiz_splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t quiz_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; s && *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

void quiz_order(uint64_t seed, const char *lesson_id, int page, int n, int *order)
{
    if (n <= 0 || !order)
        return;
    uint64_t state = seed ^ quiz_hash(lesson_id);
    state ^= quiz_splitmix(&state) + (uint64_t)(unsigned)page;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(quiz_splitmix(&state) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}
