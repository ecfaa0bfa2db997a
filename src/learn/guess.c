/* SPDX-License-Identifier: MIT */
/* guess — grading a prediction before a move (see guess.h). */
#include "learn/guess.h"

#include "model/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const at_names[GUESS_AT_COUNT] = {"any",   "group",  "swap",  "degree",
                                                     "micro", "domain", "system"};

bool guess_at_parse(const char *word, GuessAt *out)
{
    for (int i = 0; word && i < GUESS_AT_COUNT; i++)
        if (strcmp(word, at_names[i]) == 0) {
            *out = (GuessAt)i;
            return true;
        }
    return false;
}

bool guess_ask_parse(const char *word, GuessAsk *out)
{
    if (word && strcmp(word, "change") == 0)
        *out = GUESS_CHANGE;
    else if (word && strcmp(word, "part") == 0)
        *out = GUESS_PART;
    else
        return false;
    return true;
}

const char *guess_at_name(GuessAt at)
{
    return at >= 0 && at < GUESS_AT_COUNT ? at_names[at] : "?";
}

bool guess_at_matches(GuessAt at, GuessAt made)
{
    return at == GUESS_AT_ANY || at == made;
}

/* The change buckets, by new / old time: their upper edges. */
#define SAME   1.05 /* within 5% */
#define DOUBLE 2.0
static const char *const change_labels[] = {
    "more than 2x slower", "slower, by up to 2x", "about the same (within 5%)",
    "faster, by up to 2x", "more than 2x faster",
};
enum { N_CHANGE = 5 };

const char *guess_question(GuessAsk ask, bool serving)
{
    if (ask == GUESS_CHANGE)
        return serving ? "Before you see it: what will this move do to the time per token?"
                       : "Before you see it: what will this move do to the step time?";
    return serving ? "Before you see it: which part of a token's time changes most?"
                   : "Before you see it: which part of the step changes most?";
}

int guess_choices(GuessAsk ask, bool serving, const char **labels, int max)
{
    int n = ask == GUESS_CHANGE ? N_CHANGE : serving ? SERVE_PART_COUNT : STEP_PART_COUNT;
    for (int i = 0; labels && i < n && i < max; i++)
        labels[i] = ask == GUESS_CHANGE ? change_labels[i]
                    : serving           ? serve_part_name((ServePart)i)
                                        : step_part_words((StepPart)i);
    return n < max ? n : max;
}

GuessMove guess_move_step(const StepResult *before, const StepResult *after)
{
    GuessMove m = {before->step_s, after->step_s, {0}, STEP_PART_COUNT};
    for (int i = 0; i < STEP_PART_COUNT; i++)
        m.delta_s[i] = after->part_s[i] - before->part_s[i];
    return m;
}

GuessMove guess_move_serve(const ServeResult *before, const ServeResult *after)
{
    GuessMove m = {before->token_s, after->token_s, {0}, SERVE_PART_COUNT};
    for (int i = 0; i < SERVE_PART_COUNT; i++)
        m.delta_s[i] = after->part_s[i] - before->part_s[i];
    return m;
}

/* The bucket of a ratio new / old. */
static int change_bucket(double r)
{
    if (r > DOUBLE)
        return 0;
    if (r > SAME)
        return 1;
    if (r >= 1.0 / SAME)
        return 2;
    if (r >= 1.0 / DOUBLE)
        return 3;
    return 4;
}

static double ratio(const GuessMove *m)
{
    return m->before_s > 0 ? m->after_s / m->before_s : 1.0;
}

static int largest_part(const GuessMove *m)
{
    int best = 0;
    for (int i = 1; i < m->n_parts; i++)
        if (fabs(m->delta_s[i]) > fabs(m->delta_s[best]))
            best = i;
    return best;
}

int guess_answer(GuessAsk ask, const GuessMove *m)
{
    return ask == GUESS_CHANGE ? change_bucket(ratio(m)) : largest_part(m);
}

bool guess_is_right(GuessAsk ask, const GuessMove *m, int choice)
{
    if (ask == GUESS_PART) {
        if (choice < 0 || choice >= m->n_parts)
            return false;
        double top = fabs(m->delta_s[largest_part(m)]);
        return top > 0 && fabs(m->delta_s[choice]) >= 0.9 * top;
    }
    if (choice < 0 || choice >= N_CHANGE)
        return false;
    /* near an edge both neighbours are right: nudge the ratio 5% each way */
    double r = ratio(m);
    return change_bucket(r) == choice || change_bucket(r * 1.05) == choice ||
           change_bucket(r / 1.05) == choice;
}

char *guess_outcome(GuessAsk ask, bool serving, const GuessMove *m, bool ascii, char *buf,
                    size_t n)
{
    char a[32], b[32];
    const char *arrow = ascii ? "->" : "→";
    units_format(UNITS_TIME, m->before_s, ascii, a, sizeof a);
    units_format(UNITS_TIME, m->after_s, ascii, b, sizeof b);
    double r = ratio(m);
    if (ask == GUESS_CHANGE) {
        const char *what = serving ? "the time per token" : "the step";
        if (r > SAME)
            snprintf(buf, n, "%s went %s %s %s: %.2gx slower", what, a, arrow, b, r);
        else if (r < 1.0 / SAME)
            snprintf(buf, n, "%s went %s %s %s: %.2gx faster", what, a, arrow, b, 1.0 / r);
        else
            snprintf(buf, n, "%s went %s %s %s: about the same", what, a, arrow, b);
        return buf;
    }
    int k = largest_part(m);
    if (m->delta_s[k] == 0) {
        snprintf(buf, n, "no part changed");
        return buf;
    }
    units_format(UNITS_TIME, fabs(m->delta_s[k]), ascii, a, sizeof a);
    snprintf(buf, n, "%s changed most: %s%s",
             serving ? serve_part_name((ServePart)k) : step_part_words((StepPart)k),
             m->delta_s[k] < 0 ? "-" : "+", a);
    return buf;
}
