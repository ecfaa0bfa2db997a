/* SPDX-License-Identifier: MIT */
/* cmd_practice — `scalelab practice`: endless exercises made by the model
 * (learn/practice.h). Without --print, --answers or --from it opens them in
 * the UI; with them it writes a worksheet (cmd/sheet.h): --print the
 * students' sheet, --answers its answer key, --from the quiz and predict pages
 * of chosen lessons instead of generated exercises; as text for paper or as
 * JSON, the same for the same seed on any machine.
 */
#include "base/escape.h"
#include "base/msg.h"
#include "base/strbuf.h"
#include "base/xmem.h"
#include "cmd/cli.h"
#include "cmd/flags.h"
#include "cmd/lessonarg.h"
#include "cmd/sheet.h"
#include "learn/practice.h"
#include "lesson/lesson.h"
#include "ui/app.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char practice_help[] =
    "Usage: scalelab practice [--seed N] [--kind KIND] [--level L]\n"
    "       scalelab practice --print|--answers [--seed N] [--kind KIND] [--level L]\n"
    "                         [--count N] [--json]\n"
    "       scalelab practice --from [--answers] [--seed N] [--lessons DIR] [--json]\n"
    "                         LESSON...\n"
    "Exercises made by the model, graded by it: map a job so it fits and runs\n"
    "within 5% of the best mapping (mapping), type a number the model computes\n"
    "with its unit (predict), name the largest part of a step (bottleneck), name\n"
    "the slowest tier a group's traffic crosses (tier), or move GPUs until no\n"
    "group straddles two domains (placement). The level rises after three\n"
    "first-try passes in a row and falls after a miss.\n"
    "\n"
    "Worksheets for a class, at 80 columns: --print writes the students' sheet\n"
    "(no answers: a blank with its unit for each, room to work, a line for the\n"
    "name); --answers writes its key (the same items under the same numbers, with\n"
    "answers, tolerances and worked answers or formulas).\n"
    "\n"
    "  --seed N       the run's seed (default: a new one each time in the UI, 1 on\n"
    "                 a sheet); the same seed gives the same exercises everywhere\n"
    "  --kind KIND    only mapping, predict, bottleneck, tier or placement\n"
    "  --level L      difficulty from 1 (a few servers) to 5 (tens of thousands\n"
    "                 of GPUs)\n"
    "  --print        write the students' sheet instead of opening the UI\n"
    "  --answers      write the answer key of the same sheet\n"
    "  --count N      exercises on the sheet (default 1, at most 1000); exercise\n"
    "                 i is the one of seed N+i-1\n"
    "  --from         a sheet of the quiz and predict pages of the LESSONs (files,\n"
    "                 or ids or file names in the lessons folder), in the order\n"
    "                 given; quiz choices in the order the seed draws (another\n"
    "                 --seed, another order)\n"
    "  --lessons DIR  with --from: look LESSONs up in this folder\n"
    "  --json         one JSON object per item and line (kind, question, choices;\n"
    "                 \"answers\" says whether answers are in it)\n";

typedef struct {
    unsigned long long seed;
    bool seed_given, level_given, print, answers, from, json, help;
    int kind, level, count;
    const char *dir; /* --lessons */
    const char *const *lessons;
    int n_lessons;
} PracticeOpts;

static int parse_seed(const char *v, PracticeOpts *o)
{
    char *end;
    errno = 0;
    o->seed = strtoull(v, &end, 10);
    if (!*v || *v == '-' || *end || errno)
        return cli_usage_error("practice: --seed takes a whole number from 0 to 2^64-1");
    o->seed_given = true;
    return CLI_OK;
}

/* The flags that go together, and those that do not. */
static int check_combination(const FlagArgs *a, const PracticeOpts *o)
{
    bool sheet = o->print || o->answers || o->from;
    if ((o->json || a->set[FLAG_HOW_MANY]) && !sheet)
        return cli_usage_error(
            "practice: --json and --count go with --print, --answers or --from");
    if (o->from && (a->set[FLAG_HOW_MANY] || a->set[FLAG_KIND] || a->set[FLAG_LEVEL]))
        return cli_usage_error("practice: --count, --kind and --level make exercises; --from "
                               "prints the lessons' own questions");
    if (o->from && o->n_lessons == 0)
        return cli_usage_error("practice: --from takes one or more lessons "
                               "(scalelab practice --from LESSON...)");
    if (!o->from && o->n_lessons > 0)
        return cli_usage_error("practice: lessons go after --from (scalelab practice --from %s)",
                               "LESSON...");
    if (o->dir && !o->from)
        return cli_usage_error("practice: --lessons goes with --from");
    return CLI_OK;
}

/* practice's settings from what flags_parse read. */
static int parse_opts(int argc, char **argv, PracticeOpts *o, FlagArgs *a)
{
    *o = (PracticeOpts){.seed = 1, .kind = -1, .level = 1, .count = 1};
    int rc = flags_parse(&flags_practice, argc, argv, a);
    if (rc != CLI_OK)
        return rc;
    o->help = a->set[FLAG_HELP];
    o->print = a->set[FLAG_PRINT];
    o->answers = a->set[FLAG_ANSWERS];
    o->from = a->set[FLAG_FROM];
    o->json = a->set[FLAG_JSON];
    o->dir = a->str[FLAG_LESSONS];
    o->lessons = a->operand;
    o->n_lessons = a->n_operands;
    if (a->set[FLAG_SEED] && (rc = parse_seed(a->str[FLAG_SEED], o)) != CLI_OK)
        return rc;
    if (a->set[FLAG_KIND] && (o->kind = practice_kind_find(a->str[FLAG_KIND])) < 0)
        return cli_usage_error(
            "practice: --kind takes mapping, predict, bottleneck, tier or placement");
    if (a->set[FLAG_LEVEL]) {
        o->level = flags_int(a, FLAG_LEVEL);
        if (o->level < PRACTICE_LEVEL_MIN || o->level > PRACTICE_LEVEL_MAX)
            return cli_usage_error("practice: --level takes 1 to 5");
        o->level_given = true;
    }
    if (a->set[FLAG_HOW_MANY]) {
        o->count = flags_int(a, FLAG_HOW_MANY);
        if (o->count < 1 || o->count > 1000)
            return cli_usage_error("practice: --count takes 1 to 1000");
    }
    return check_combination(a, o);
}

/* A sheet of generated exercises: exercise i is the one of seed + i - 1, so
 * any item can be made again alone with --seed. */
static int practice_sheet(const PracticeOpts *o, const SheetMode *m)
{
    char what[96], command[200];
    const char *kind = o->kind >= 0 ? practice_kind_name((PracticeKind)o->kind) : NULL;
    snprintf(what, sizeof what, "%d %s%sexercise%s, level %d", o->count, kind ? kind : "",
             kind ? " " : "", o->count == 1 ? "" : "s", o->level);
    snprintf(command, sizeof command,
             "scalelab practice --print --seed %llu --count %d%s%s --level %d", o->seed, o->count,
             kind ? " --kind " : "", kind ? kind : "", o->level);
    sheet_write_head(stdout, m, &(SheetHead){.what = what, .command = command});
    for (int i = 0; i < o->count; i++) {
        Practice p;
        char err[200];
        if (!practice_make(o->seed + (unsigned long long)i, o->kind, o->level, &p, err,
                           sizeof err))
            return cli_error(CLI_FAIL, "%s", err);
        sheet_write_practice(stdout, m, i + 1, &p);
    }
    return CLI_OK;
}

/* "scalelab practice --from A B --seed N", the lessons as typed (escaped). */
static char *from_command(const PracticeOpts *o)
{
    StrBuf b = {0};
    strbuf_add(&b, "scalelab practice --from");
    for (int i = 0; i < o->n_lessons; i++) {
        char arg[600];
        escape_text(o->lessons[i], strlen(o->lessons[i]), arg, sizeof arg);
        strbuf_addf(&b, " %s", arg);
    }
    if (o->dir) {
        char dir[600];
        escape_text(o->dir, strlen(o->dir), dir, sizeof dir);
        strbuf_addf(&b, " --lessons %s", dir);
    }
    strbuf_addf(&b, " --seed %llu", o->seed);
    return strbuf_take(&b);
}

/* Loads every lesson first, so a bad one prints nothing but its error. */
static int from_sheet_items(const PracticeOpts *o, Lesson **ls, int *items)
{
    char **paths = xmem_alloc((size_t)o->n_lessons * sizeof *paths);
    lessonarg_paths(o->lessons, o->n_lessons, o->dir, paths);
    int rc = CLI_OK;
    *items = 0;
    for (int i = 0; i < o->n_lessons; i++) {
        char err[MSG_LEN];
        ls[i] = rc == CLI_OK ? lesson_load(paths[i], err, sizeof err) : NULL;
        if (rc == CLI_OK && !ls[i])
            rc = cli_error(CLI_FAIL, "%s", err);
        for (int pg = 0; ls[i] && pg < lesson_page_count(ls[i]); pg++)
            *items += sheet_takes_page(ls[i], pg);
    }
    for (int i = 0; i < o->n_lessons; i++)
        free(paths[i]);
    free(paths);
    if (rc == CLI_OK && *items == 0)
        return cli_error(CLI_FAIL, "no quiz or predict page in the lesson%s given",
                         o->n_lessons == 1 ? "" : "s");
    for (int i = 0; rc == CLI_OK && i < o->n_lessons; i++) {
        int n = 0;
        for (int pg = 0; pg < lesson_page_count(ls[i]); pg++)
            n += sheet_takes_page(ls[i], pg);
        char id[200];
        escape_text(lesson_id(ls[i]), strlen(lesson_id(ls[i])), id, sizeof id);
        if (n == 0)
            fprintf(stderr, "scalelab practice: %s has no quiz or predict page; left out\n", id);
    }
    return rc;
}

static int from_sheet(const PracticeOpts *o, const SheetMode *m)
{
    Lesson **ls = xmem_alloc((size_t)o->n_lessons * sizeof *ls);
    int items = 0, rc = from_sheet_items(o, ls, &items);
    if (rc == CLI_OK) {
        char what[96];
        snprintf(what, sizeof what, "%d question%s from %d lesson%s", items, items == 1 ? "" : "s",
                 o->n_lessons, o->n_lessons == 1 ? "" : "s");
        char *command = from_command(o);
        sheet_write_head(stdout, m,
                         &(SheetHead){.what = what, .command = command, .quiz_order = true});
        free(command);
        int number = 0;
        for (int i = 0; i < o->n_lessons; i++)
            for (int pg = 0; pg < lesson_page_count(ls[i]); pg++)
                if (sheet_takes_page(ls[i], pg))
                    sheet_write_page(stdout, m, ++number, ls[i], pg);
    }
    for (int i = 0; i < o->n_lessons; i++)
        lesson_free(ls[i]);
    free(ls);
    return rc;
}

int cmd_practice(int argc, char **argv)
{
    PracticeOpts o;
    FlagArgs a;
    int rc = parse_opts(argc, argv, &o, &a);
    if (rc != CLI_OK)
        return rc;
    if (o.help) {
        fputs(practice_help, stdout);
        return CLI_OK;
    }
    if (!o.print && !o.answers && !o.from) {
        AppOptions ao = {.practice = true,
                         .practice_seed = o.seed,
                         .practice_seed_given = o.seed_given,
                         .practice_kind = o.kind,
                         .practice_level = o.level_given ? o.level : 0};
        return app_run(&ao);
    }
    SheetMode m = {.answers = o.answers, .json = o.json, .seed = o.seed};
    return o.from ? from_sheet(&o, &m) : practice_sheet(&o, &m);
}
