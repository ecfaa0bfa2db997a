/* SPDX-License-Identifier: MIT */
/* cmd_progress — `scalelab progress [--json]`: the learner's own record
 * (store/progress.h) over the lessons of the lessons folder: each lesson's
 * state and last page, quiz and predict results on the first try, hints,
 * scenarios solved, and practice results. --json writes the file a student
 * hands in for `scalelab report` (its form: cmd/progress_json.h).
 *
 * Lesson files are loaded in the sandbox to name their pages; one that does
 * not load is still listed, from its progress record alone.
 */
#include "base/escape.h"
#include "cmd/cli.h"
#include "cmd/flags.h"
#include "cmd/progress_json.h"
#include "learn/practice.h"
#include "lesson/catalog.h"
#include "lesson/lesson.h"
#include "store/progress.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char progress_help[] =
    "Usage: scalelab progress [--json] [--lessons DIR] [--name NAME]\n"
    "Your own record: lessons done and started, the page you were on, quiz and\n"
    "predict answers right on the first try, hints used, scenarios solved and\n"
    "practice results.\n"
    "\n"
    "  --json          one JSON object: the file to hand in for 'scalelab report'\n"
    "  --lessons DIR   the lessons folder (default: as the menu finds it)\n"
    "  --name NAME     the learner's name in the JSON (default: $USER)\n";

typedef struct {
    bool json;
    const char *dir, *name;
} ProgressOpts;

static int parse_opts(int argc, char **argv, ProgressOpts *o)
{
    FlagArgs a;
    int rc = flags_parse(&flags_progress, argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    if (a.set[FLAG_HELP]) {
        fputs(progress_help, stdout);
        return -1;
    }
    *o = (ProgressOpts){a.set[FLAG_JSON], a.str[FLAG_LESSONS], a.str[FLAG_NAME]};
    return CLI_OK;
}

static void text_lesson(FILE *out, const Progress *p, const CatalogEntry *e, const Lesson *l)
{
    ProgressStatus st = progress_status(p, e->id);
    char title[160];
    escape_text(e->title, strlen(e->title), title, sizeof title);
    const char *mark = st == PROGRESS_DONE ? "[x]" : st == PROGRESS_STARTED ? "[>]" : "[ ]";
    if (st == PROGRESS_NEW) {
        fprintf(out, "  %s %s\n", mark, title);
        return;
    }
    fprintf(out, "  %s %-34s", mark, title);
    int q = 0, first = 0, tried = 0, right = 0, hints = 0, scn = 0, met = 0;
    for (int i = 0; l && i < lesson_page_count(l); i++) {
        PageKind k = lesson_page_kind(l, i);
        hints += progress_hints(p, e->id, i);
        if (k == PAGE_SCENARIO) {
            scn++;
            met += progress_scenario_met(p, e->id, i);
        }
        bool guess = k == PAGE_SCENARIO && lesson_scenario_guess(l, i, NULL);
        if (k != PAGE_QUIZ && k != PAGE_PREDICT && !guess)
            continue;
        ProgressQuestion r = progress_json_question(p, e->id, i);
        if (guess) { /* answered: nothing left to do (right counts the first try) */
            r.tried = r.tries > 0;
            r.right = r.tries > 0;
        }
        q++;
        tried += r.tried;
        right += r.right;
        first += r.first_try;
    }
    fprintf(out, " page %d/%d", progress_page(p, e->id) + 1, e->pages);
    if (tried)
        fprintf(out, ", %d of %d questions right on the first try", first, q);
    if (right < q)
        fprintf(out, ", %d to answer", q - right);
    if (scn)
        fprintf(out, ", %d/%d scenarios", met, scn);
    if (hints)
        fprintf(out, ", %d hint%s", hints, hints == 1 ? "" : "s");
    fputs("\n", out);
}

static void text_practice(FILE *out, const Progress *p)
{
    fprintf(out, "\nPractice (level %d):", progress_practice_level(p));
    bool any = false;
    for (int k = 0; k < PRACTICE_KIND_COUNT; k++) {
        ProgressPractice r = progress_practice(p, practice_kind_name((PracticeKind)k));
        if (!r.tried)
            continue;
        fprintf(out, "\n  %-11s %d tried, %d right on the first try, streak %d",
                practice_kind_name((PracticeKind)k), r.tried, r.first_try, r.streak);
        any = true;
    }
    fputs(any ? "\n" : " none yet ('scalelab practice')\n", out);
}

int cmd_progress(int argc, char **argv)
{
    ProgressOpts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    char dirbuf[1024], err[600], note[600], pathbuf[1024];
    const char *dir = o.dir ? o.dir : catalog_default_dir(dirbuf, sizeof dirbuf);
    Catalog *cat = dir ? catalog_load(dir, err, sizeof err) : NULL;
    if (!cat) {
        fprintf(stderr, "scalelab progress: %s\n", dir ? err : "no lessons folder found");
        return CLI_FAIL;
    }
    const char *path = progress_default_path(pathbuf, sizeof pathbuf);
    Progress *p = progress_open(path, note, sizeof note);
    if (note[0])
        fprintf(stderr, "scalelab progress: %s\n", note);
    const char *name = o.name ? o.name : getenv("USER") ? getenv("USER") : "";
    int done = 0, started = 0;
    for (int i = 0; i < catalog_count(cat); i++) {
        ProgressStatus st = progress_status(p, catalog_entry(cat, i)->id);
        done += st == PROGRESS_DONE;
        started += st == PROGRESS_STARTED;
    }
    if (o.json) {
        progress_json_write(stdout, p, cat, name);
    } else {
        char safe[300];
        escape_text(path ? path : "(not kept)", strlen(path ? path : "(not kept)"), safe,
                    sizeof safe);
        fprintf(stdout, "Progress kept in %s\nLessons: %d of %d done, %d started\n", safe, done,
                catalog_count(cat), started);
        for (int i = 0; i < catalog_count(cat); i++) {
            const CatalogEntry *e = catalog_entry(cat, i);
            Lesson *l = e->error ? NULL : lesson_load(e->path, err, sizeof err);
            text_lesson(stdout, p, e, l);
            lesson_free(l);
        }
        text_practice(stdout, p);
    }
    progress_free(p);
    catalog_free(cat);
    return CLI_OK;
}
