/* SPDX-License-Identifier: MIT */
/* cmd_practice — `scalelab practice`: endless exercises made by the model
 * (learn/practice.h). Without --print it opens them in the UI; with --print
 * it writes exercises and their worked answers as text (a worksheet) or as
 * JSON, the same for the same seed on any machine.
 */
#include "cmd/cli.h"
#include "cmd/flags.h"
#include "cmd/json.h"
#include "draw/text.h"
#include "learn/practice.h"
#include "ui/app.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char practice_help[] =
    "Usage: scalelab practice [--seed N] [--kind KIND] [--level L] [--print [--count N] "
    "[--json]]\n"
    "Exercises made by the model, graded by it: map a job so it fits and runs within\n"
    "5% of the best mapping (mapping), type a number the model computes with its unit\n"
    "(predict), name the largest part of a step (bottleneck), name the slowest tier a\n"
    "group's traffic crosses (tier), or move GPUs until no group straddles two domains\n"
    "(placement). The level rises after three first-try passes in a row and falls after\n"
    "a miss.\n"
    "\n"
    "  --seed N        the run's seed (default: a new one each time in the UI, 1 with\n"
    "                  --print); the same seed gives the same exercises everywhere\n"
    "  --kind KIND     only mapping, predict, bottleneck, tier or placement exercises\n"
    "  --level L       difficulty from 1 (a few servers) to 5 (tens of thousands of GPUs)\n"
    "  --print         write the exercises and worked answers instead of opening the UI\n"
    "  --count N       exercises to print (default 1, at most 1000)\n"
    "  --json          with --print: one JSON object per line (kind, question, answer)\n";

typedef struct {
    unsigned long long seed;
    bool seed_given, level_given, print, json, help;
    int kind, level, count;
} PracticeOpts;

/* practice's settings from what flags_parse read. */
static int parse_opts(int argc, char **argv, PracticeOpts *o)
{
    *o = (PracticeOpts){.seed = 1, .kind = -1, .level = 1, .count = 1};
    FlagArgs a;
    int rc = flags_parse(&flags_practice, argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    o->help = a.set[FLAG_HELP];
    o->print = a.set[FLAG_PRINT];
    o->json = a.set[FLAG_JSON];
    if (a.set[FLAG_SEED]) {
        const char *v = a.str[FLAG_SEED];
        char *end;
        errno = 0;
        o->seed = strtoull(v, &end, 10);
        if (!*v || *v == '-' || *end || errno)
            return cli_usage_error("practice: --seed takes a whole number from 0 to 2^64-1");
        o->seed_given = true;
    }
    if (a.set[FLAG_KIND] && (o->kind = practice_kind_find(a.str[FLAG_KIND])) < 0)
        return cli_usage_error(
            "practice: --kind takes mapping, predict, bottleneck, tier or placement");
    if (a.set[FLAG_LEVEL]) {
        o->level = flags_int(&a, FLAG_LEVEL);
        if (o->level < PRACTICE_LEVEL_MIN || o->level > PRACTICE_LEVEL_MAX)
            return cli_usage_error("practice: --level takes 1 to 5");
        o->level_given = true;
    }
    if (a.set[FLAG_HOW_MANY]) {
        o->count = flags_int(&a, FLAG_HOW_MANY);
        if (o->count < 1 || o->count > 1000)
            return cli_usage_error("practice: --count takes 1 to 1000");
    }
    if ((o->json || a.set[FLAG_HOW_MANY]) && !o->print)
        return cli_usage_error("practice: --json and --count go with --print");
    return CLI_OK;
}

/* Lines of s wrapped at 76 columns, indented by two spaces; a "- " bullet
 * hangs its continuation lines under its text. */
static void print_wrapped(FILE *out, const char *s)
{
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)len, s);
        bool bullet = strncmp(line, "- ", 2) == 0;
        size_t at = 0, n_line = strlen(line);
        if (n_line == 0)
            fputc('\n', out);
        for (bool first = true; at < n_line; first = false) {
            size_t next, n = text_wrap_line(line + at, bullet && !first ? 74 : 76, &next);
            fprintf(out, "%s%.*s\n", bullet && !first ? "    " : "  ", (int)n, line + at);
            at += next ? next : n_line;
        }
        s += len + (nl ? 1 : 0);
    }
}

static void print_text(FILE *out, const Practice *p, int index)
{
    fprintf(out, "Exercise %d. %s\n", index, p->title);
    fprintf(out, "  (%s, level %d, seed %llu)\n\n", practice_kind_name(p->kind), p->level,
            (unsigned long long)p->seed);
    print_wrapped(out, p->question);
    const char *labels[PRACTICE_MAX_CHOICES];
    int n = practice_choices(p, labels);
    if (n > 0) {
        fputs("  Choices:", out);
        for (int i = 0; i < n; i++)
            fprintf(out, "%s %s", i ? "," : "", labels[i]);
        fputs("\n", out);
    }
    fputs("\n  Answer: ", out);
    fputs(p->answer, out);
    fputs("\n\n", out);
    print_wrapped(out, p->worked);
    fputs("\n", out);
}

static void print_json(FILE *out, const Practice *p)
{
    fputs("{\"seed\":", out);
    fprintf(out, "%llu", (unsigned long long)p->seed);
    json_next_string(out, "kind", practice_kind_name(p->kind));
    fprintf(out, ",\"level\":%d", p->level);
    json_next_string(out, "title", p->title);
    json_next_string(out, "question", p->question);
    json_next_string(out, "answer", p->answer);
    json_next_string(out, "worked", p->worked);
    if (p->kind == PRACTICE_PREDICT) {
        json_next_number(out, "value", p->value);
        json_next_number(out, "tolerance", p->tolerance);
    } else if (p->kind == PRACTICE_TIER) {
        json_next_string(out, "tier", practice_tier_name(p->tier));
    } else if (p->kind == PRACTICE_MAPPING || p->kind == PRACTICE_PLACEMENT) {
        char m[64];
        json_next_string(out, "best", mapping_format(&p->best, m, sizeof m));
        fprintf(out, ",\"best_micro_batch\":%d", p->best_micro_batch);
        json_next_number(out, "best_step_s", p->best_step_s);
        fprintf(out, ",\"par\":%d", p->par);
    }
    fputs("}\n", out);
}

int cmd_practice(int argc, char **argv)
{
    PracticeOpts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc != CLI_OK)
        return rc;
    if (o.help) {
        fputs(practice_help, stdout);
        return CLI_OK;
    }
    if (!o.print) {
        AppOptions ao = {.practice = true,
                         .practice_seed = o.seed,
                         .practice_seed_given = o.seed_given,
                         .practice_kind = o.kind,
                         .practice_level = o.level_given ? o.level : 0};
        return app_run(&ao);
    }
    for (int i = 0; i < o.count; i++) {
        Practice p;
        char err[200];
        /* Exercise i of a worksheet is the one of seed + i, so any line can be
         * made again alone with --seed. */
        if (!practice_make(o.seed + (unsigned long long)i, o.kind, o.level, &p, err, sizeof err)) {
            fprintf(stderr, "scalelab practice: %s\n", err);
            return CLI_FAIL;
        }
        if (o.json)
            print_json(stdout, &p);
        else
            print_text(stdout, &p, i + 1);
    }
    return CLI_OK;
}
