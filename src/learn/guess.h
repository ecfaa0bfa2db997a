/* SPDX-License-Identifier: MIT */
/* guess — a prediction before the move: at a move the lesson marks (the
 * first of a kind), the learner says what it will do before the screen
 * shows the new step, and the answer is graded against the model.
 *
 * Two questions:
 *   GUESS_CHANGE  faster or slower, and roughly by how much: five buckets
 *                 of new / old time (more than 2x slower, slower by up to
 *                 2x, the same within 5%, faster by up to 2x, more than 2x
 *                 faster); a value within 5% of a bucket's edge counts for
 *                 both buckets, so a learner is not failed by a rounding;
 *   GUESS_PART    which part of the bar changes most (in time, either way):
 *                 the training parts (step.h) or, for serving, the parts of
 *                 a token (serve.h); a part within 10% of the largest
 *                 change counts too.
 * The time is the step (training) or the time per token (serving).
 *
 * Pure: no I/O, no allocation.
 */
#ifndef SCALELAB_LEARN_GUESS_H
#define SCALELAB_LEARN_GUESS_H

#include "model/serve.h"
#include "model/step.h"
#include <stdbool.h>
#include <stddef.h>

/* The kind of move a prediction waits for. */
typedef enum {
    GUESS_AT_ANY,
    GUESS_AT_GROUP,  /* a group move (g, Enter) */
    GUESS_AT_SWAP,   /* a swap of two GPUs (Space, Enter) */
    GUESS_AT_DEGREE, /* t/T y/Y d/D x/X */
    GUESS_AT_MICRO,  /* m/M */
    GUESS_AT_DOMAIN, /* + / - */
    GUESS_AT_SYSTEM, /* ] / [ */
    GUESS_AT_COUNT
} GuessAt;

typedef enum { GUESS_CHANGE, GUESS_PART } GuessAsk;

typedef struct {
    GuessAt at;
    GuessAsk ask;
} GuessSpec;

/* Enough for the five change buckets and every part of either bar. */
#define GUESS_MAX_OF(a, b) ((int)(a) > (int)(b) ? (int)(a) : (int)(b))
enum { GUESS_MAX_CHOICES = GUESS_MAX_OF(5, GUESS_MAX_OF(STEP_PART_COUNT, SERVE_PART_COUNT)) };

/* The names lessons write for `at` ("any", "group", "swap", "degree",
 * "micro", "domain", "system") and `ask` ("change", "part"); false when
 * the word is none of them. */
bool guess_at_parse(const char *word, GuessAt *out);
bool guess_ask_parse(const char *word, GuessAsk *out);
const char *guess_at_name(GuessAt at);

/* Whether a move of kind `made` is the one `at` waits for. */
bool guess_at_matches(GuessAt at, GuessAt made);

/* The question and its choices, in the order keys 1, 2, ... pick them;
 * returns the count. serving: the parts of a token. */
const char *guess_question(GuessAsk ask, bool serving);
int guess_choices(GuessAsk ask, bool serving, const char **labels, int max);

/* What the move did: the time before and after, and each part's change. */
typedef struct {
    double before_s, after_s;
    double delta_s[GUESS_MAX_CHOICES]; /* per part, after - before */
    int n_parts;
} GuessMove;
GuessMove guess_move_step(const StepResult *before, const StepResult *after);
GuessMove guess_move_serve(const ServeResult *before, const ServeResult *after);

/* The choice that is right (the one the model's figures fall in), and
 * whether `choice` counts as right. */
int guess_answer(GuessAsk ask, const GuessMove *m);
bool guess_is_right(GuessAsk ask, const GuessMove *m, int choice);

/* What the move did, in words ("2.4x faster", "TP all-reduce changed most:
 * 4.1 s -> 0.3 s"), for the verdict line. */
char *guess_outcome(GuessAsk ask, bool serving, const GuessMove *m, bool ascii, char *buf,
                    size_t n);

#endif
