/* SPDX-License-Identifier: MIT */
/* cmd_report — `scalelab report FILE...`: a class summary from the files
 * students hand in (each made by `scalelab progress --json`): one row per
 * file with lessons done, first-try results, hints and practice, a grid of
 * each lesson's state, and the questions most often missed on the first try,
 * so a teacher sees what to teach again. Text, or one JSON object.
 *
 * Files are untrusted: read through the JSON reader's limits, every string
 * printed through the one escaping function, a bad file reported with its
 * name and line and skipped (exit 1 when any was skipped, after the report).
 */
#include "base/escape.h"
#include "base/file.h"
#include "base/msg.h"
#include "base/xmem.h"
#include "cmd/cli.h"
#include "cmd/flags.h"
#include "cmd/json.h"
#include "cmd/progress_json.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char report_help[] =
    "Usage: scalelab report [--json] FILE...\n"
    "A class summary from students' progress files (each made with\n"
    "'scalelab progress --json > NAME.json'): one row per file, each lesson's state,\n"
    "and the questions most often missed on the first try.\n"
    "\n"
    "  --json     one JSON object instead of the tables\n";

#define REPORT_MAX_FILES   FLAGS_MAX_OPERANDS
#define REPORT_MAX_LESSONS 100
#define REPORT_MAX_MISSES  400

typedef struct {
    char lesson[64];
    char title[120];
    char kind[16];
    int page;
    int missed; /* files that missed it on the first try */
    int tried;  /* files that tried it */
} Miss;

typedef struct {
    char name[64];
    int done, started, lessons;
    int first_try, questions;
    int predictions, predictions_first; /* of them, predictions before a scenario's move */
    int hints;
    int practice_tried, practice_first;
    char state[REPORT_MAX_LESSONS]; /* 'D' done, 's' started, '.' new, per column */
} Row;

typedef struct {
    char ids[REPORT_MAX_LESSONS][64];
    char titles[REPORT_MAX_LESSONS][80];
    int n_ids;
    Row *rows;
    int n_rows;
    Miss misses[REPORT_MAX_MISSES];
    int n_misses;
    int bad_files;
} Report;

static int report_column(Report *r, const char *id, const char *title)
{
    for (int i = 0; i < r->n_ids; i++)
        if (strcmp(r->ids[i], id) == 0)
            return i;
    if (r->n_ids >= REPORT_MAX_LESSONS)
        return -1;
    snprintf(r->ids[r->n_ids], sizeof r->ids[0], "%s", id);
    snprintf(r->titles[r->n_ids], sizeof r->titles[0], "%s", title);
    return r->n_ids++;
}

static Miss *report_miss(Report *r, const char *lesson, int page, const char *title,
                         const char *kind)
{
    for (int i = 0; i < r->n_misses; i++)
        if (r->misses[i].page == page && strcmp(r->misses[i].lesson, lesson) == 0)
            return &r->misses[i];
    if (r->n_misses >= REPORT_MAX_MISSES)
        return NULL;
    Miss *m = &r->misses[r->n_misses++];
    memset(m, 0, sizeof *m);
    snprintf(m->lesson, sizeof m->lesson, "%s", lesson);
    snprintf(m->title, sizeof m->title, "%s", title);
    snprintf(m->kind, sizeof m->kind, "%s", kind);
    m->page = page;
    return m;
}

static void report_questions(Report *r, Row *row, const char *lesson, const JsonValue *qs)
{
    for (int i = 0; qs && qs->type == JSON_ARRAY && i < qs->n; i++) {
        const JsonValue *q = &qs->items[i];
        const JsonValue *ft = json_get(q, "first_try"), *tried = json_get(q, "tried");
        if (!tried || tried->type != JSON_BOOL || !tried->b)
            continue;
        bool first = ft && ft->type == JSON_BOOL && ft->b;
        row->questions++;
        row->first_try += first;
        if (strcmp(json_get_string(q, "kind", ""), "prediction") == 0) {
            row->predictions++;
            row->predictions_first += first;
        }
        Miss *m = report_miss(r, lesson, (int)json_get_number(q, "page", -1),
                              json_get_string(q, "title", "?"), json_get_string(q, "kind", "?"));
        if (m) {
            m->tried++;
            m->missed += !first;
        }
    }
}

static void report_practice(Row *row, const JsonValue *pr)
{
    for (int i = 0; pr && pr->type == JSON_OBJECT && i < pr->n; i++) {
        const JsonValue *k = &pr->items[i];
        if (k->type != JSON_OBJECT)
            continue;
        row->practice_tried += (int)json_get_number(k, "tried", 0);
        row->practice_first += (int)json_get_number(k, "first_try", 0);
    }
}

/* The row of one parsed file; false when it is not a progress file. */
static bool report_add(Report *r, const char *path, const JsonValue *v, char *err, size_t err_len)
{
    if (strcmp(json_get_string(v, "format", ""), PROGRESS_JSON_FORMAT) != 0) {
        return msg_fail(err, err_len, "not a scalelab progress file (no \"format\": \"%s\")",
                        PROGRESS_JSON_FORMAT);
    }
    const JsonValue *ls = json_get(v, "lessons");
    if (!ls || ls->type != JSON_ARRAY) {
        return msg_fail(err, err_len, "\"lessons\" is not a list");
    }
    Row *row = &r->rows[r->n_rows++];
    memset(row, 0, sizeof *row);
    memset(row->state, '.', sizeof row->state);
    const char *learner = json_get_string(v, "learner", "");
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    if (*learner)
        snprintf(row->name, sizeof row->name, "%s", learner);
    else
        snprintf(row->name, sizeof row->name, "%.*s", (int)n, base);
    for (int i = 0; i < ls->n; i++) {
        const JsonValue *l = &ls->items[i];
        const char *id = json_get_string(l, "id", NULL);
        if (!id)
            continue;
        const char *status = json_get_string(l, "status", "new");
        int col = report_column(r, id, json_get_string(l, "title", ""));
        row->lessons++;
        if (strcmp(status, "done") == 0)
            row->done++;
        else if (strcmp(status, "started") == 0)
            row->started++;
        if (col >= 0)
            row->state[col] = strcmp(status, "done") == 0      ? 'D'
                              : strcmp(status, "started") == 0 ? 's'
                                                               : '.';
        row->hints += (int)json_get_number(l, "hints", 0);
        report_questions(r, row, id, json_get(l, "questions"));
    }
    report_practice(row, json_get(v, "practice"));
    return true;
}

static int miss_cmp(const void *pa, const void *pb)
{
    const Miss *a = pa, *b = pb;
    if (a->missed != b->missed)
        return b->missed - a->missed;
    int c = strcmp(a->lesson, b->lesson);
    return c ? c : a->page - b->page;
}

static void put_safe(FILE *out, const char *s, int width)
{
    char buf[256];
    escape_text(s, strlen(s), buf, sizeof buf);
    fprintf(out, "%-*s", width, buf);
}

static void report_text(FILE *out, const Report *r)
{
    fprintf(out, "Class report: %d student file%s, %d lesson%s opened", r->n_rows,
            r->n_rows == 1 ? "" : "s", r->n_ids, r->n_ids == 1 ? "" : "s");
    if (r->bad_files)
        fprintf(out, " (%d file%s skipped: see the errors above)", r->bad_files,
                r->bad_files == 1 ? "" : "s");
    fputs("\n\n", out);
    fprintf(out, "%-20s %-8s %-8s %-16s %-6s %s\n", "student", "done", "started", "first try",
            "hints", "practice first try");
    for (int i = 0; i < r->n_rows; i++) {
        const Row *w = &r->rows[i];
        char ft[32], pr[32];
        if (w->questions)
            snprintf(ft, sizeof ft, "%d/%d (%d%%)", w->first_try, w->questions,
                     100 * w->first_try / w->questions);
        else
            snprintf(ft, sizeof ft, "-");
        if (w->practice_tried)
            snprintf(pr, sizeof pr, "%d/%d", w->practice_first, w->practice_tried);
        else
            snprintf(pr, sizeof pr, "-");
        put_safe(out, w->name, 20);
        fprintf(out, " %-8d %-8d %-16s %-6d %s\n", w->done, w->started, ft, w->hints, pr);
    }
    fputs("\nLesson states (D done, s started, . not opened):\n", out);
    for (int c = 0; c < r->n_ids; c++) {
        fprintf(out, "  %2d ", c + 1);
        put_safe(out, r->titles[c][0] ? r->titles[c] : r->ids[c], 0);
        fputc('\n', out);
    }
    fprintf(out, "%-20s", "");
    for (int c = 0; c < r->n_ids; c++)
        fprintf(out, " %2d", c + 1);
    fputc('\n', out);
    for (int i = 0; i < r->n_rows; i++) {
        put_safe(out, r->rows[i].name, 20);
        for (int c = 0; c < r->n_ids; c++)
            fprintf(out, "  %c", r->rows[i].state[c]);
        fputc('\n', out);
    }
    bool guessed = false;
    for (int i = 0; i < r->n_rows; i++)
        guessed |= r->rows[i].predictions > 0;
    if (guessed) { /* a scenario's prediction before a move: in the first tries above */
        fputs("\nPredictions before a move, right at the first try:", out);
        for (int i = 0; i < r->n_rows; i++) {
            fputs(i ? ", " : " ", out);
            put_safe(out, r->rows[i].name, 0);
            fprintf(out, " %d/%d", r->rows[i].predictions_first, r->rows[i].predictions);
        }
        fputc('\n', out);
    }
    fputs("\nMissed on the first try, most often first:\n", out);
    int shown = 0;
    for (int i = 0; i < r->n_misses && shown < 15; i++) {
        const Miss *m = &r->misses[i];
        if (m->missed == 0)
            continue;
        fprintf(out, "  %d of %d  ", m->missed, m->tried);
        put_safe(out, m->lesson, 0);
        fprintf(out, " page %d (%s): ", m->page + 1, m->kind);
        put_safe(out, m->title, 0);
        fputc('\n', out);
        shown++;
    }
    if (!shown)
        fputs("  nothing: every question tried was right the first time\n", out);
}

static void report_json(FILE *out, const Report *r)
{
    fputs("{\"students\":[", out);
    for (int i = 0; i < r->n_rows; i++) {
        const Row *w = &r->rows[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        json_string(out, w->name);
        fprintf(out,
                ",\"done\":%d,\"started\":%d,\"questions\":%d,\"first_try\":%d,\"hints\":%d,"
                "\"practice_tried\":%d,\"practice_first_try\":%d,\"predictions\":%d,"
                "\"predictions_first_try\":%d,\"lessons\":{",
                w->done, w->started, w->questions, w->first_try, w->hints, w->practice_tried,
                w->practice_first, w->predictions, w->predictions_first);
        for (int c = 0; c < r->n_ids; c++) {
            fputs(c ? "," : "", out);
            json_string(out, r->ids[c]);
            fputs(w->state[c] == 'D'   ? ":\"done\""
                  : w->state[c] == 's' ? ":\"started\""
                                       : ":\"new\"",
                  out);
        }
        fputs("}}", out);
    }
    fputs("],\"missed_first_try\":[", out);
    int shown = 0;
    for (int i = 0; i < r->n_misses; i++) {
        const Miss *m = &r->misses[i];
        if (m->missed == 0)
            continue;
        fputs(shown++ ? ",{\"lesson\":" : "{\"lesson\":", out);
        json_string(out, m->lesson);
        fprintf(out, ",\"page\":%d,\"kind\":", m->page);
        json_string(out, m->kind);
        json_next_string(out, "title", m->title);
        fprintf(out, ",\"missed\":%d,\"tried\":%d}", m->missed, m->tried);
    }
    fprintf(out, "],\"bad_files\":%d}\n", r->bad_files);
}

static bool report_file(Report *r, const char *path)
{
    char err[300], safe[300];
    size_t len;
    FileProblem why_not;
    char *text = file_read(path, JSON_MAX_BYTES, &len, &why_not);
    if (!text)
        file_problem_text(&why_not, JSON_MAX_BYTES, err, sizeof err);
    JsonValue *v = text ? json_parse(text, len, err, sizeof err) : NULL;
    bool ok = v && report_add(r, path, v, err, sizeof err);
    if (!ok) {
        escape_text(path, strlen(path), safe, sizeof safe);
        char why[300];
        escape_text(err, strlen(err), why, sizeof why);
        fprintf(stderr, "scalelab report: %s: %s\n", safe, why);
        r->bad_files++;
    }
    json_free(v);
    free(text);
    return ok;
}

int cmd_report(int argc, char **argv)
{
    if (argc > REPORT_MAX_FILES + 3)
        return cli_usage_error("report: at most %d files at once", REPORT_MAX_FILES);
    static FlagArgs a; /* 4 kB of operands: not on the stack */
    int rc = flags_parse(&flags_report, argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    if (a.set[FLAG_HELP]) {
        fputs(report_help, stdout);
        return CLI_OK;
    }
    bool json = a.set[FLAG_JSON];
    int n = a.n_operands;
    if (n < 1)
        return cli_usage_error("report: name the progress files (scalelab report FILE...)");
    Report *r = xmem_calloc(1, sizeof *r);
    r->rows = xmem_calloc((size_t)n, sizeof *r->rows);
    for (int i = 0; i < n; i++)
        report_file(r, a.operand[i]);
    qsort(r->misses, (size_t)r->n_misses, sizeof r->misses[0], miss_cmp);
    if (json)
        report_json(stdout, r);
    else
        report_text(stdout, r);
    rc = r->bad_files ? CLI_FAIL : CLI_OK;
    free(r->rows);
    free(r);
    return rc;
}
