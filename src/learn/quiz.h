/* SPDX-License-Identifier: MIT */
/* quiz — the order in which one learner sees a quiz's choices.
 *
 * The order is a permutation of 0..n-1 drawn from the learner's seed (kept
 * in their progress), the lesson id and the page index: the same learner
 * sees the same order after a reload, another learner (another seed) most
 * likely sees another one, and nothing depends on where the right choice is
 * written in the lesson file. Headless callers (`render`, tests) get the
 * same order from the same seed.
 *
 * Pure: no I/O, no allocation, no global state.
 */
#ifndef SCALELAB_LEARN_QUIZ_H
#define SCALELAB_LEARN_QUIZ_H

#include <stdint.h>

#define QUIZ_WRONG_TRIES 2 /* wrong tries before the answer can be shown */

/* Fills order[0..n-1] with a permutation of 0..n-1: order[k] is the index
 * (in the lesson file) of the choice shown in position k. n <= 0 does
 * nothing; lesson_id may be NULL (treated as ""). */
void quiz_order(uint64_t seed, const char *lesson_id, int page, int n, int *order);

#endif
