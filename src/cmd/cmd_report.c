/* SPDX-License-Identifier: MIT */
/* cmd_report — `scalelab report FILE...`: what a teacher needs from the files
 * a class hands in. Who is stuck on which page comes first; then a grid of
 * where each student stopped in each lesson opened (with the time of the
 * last activity), what each has left to do (scenarios not met, questions not
 * answered right, hints used), first-try results and practice, and the
 * questions most often missed on the first try. Text at 80 columns, one JSON
 * object (--json), or CSV for a gradebook (--csv: one row per student).
 *
 * A file is either what `scalelab progress --json` writes (every form it has
 * had: progress_json.h) or the progress store itself (the state folder's
 * `progress` file, any version store/progress.h has written), which is read
 * without changing it and turned into the same JSON with the lessons folder
 * naming its pages. The same learner with the same record in two files (one
 * file handed in twice under two names) counts once and is named as a
 * duplicate.
 *
 * Files are untrusted: read through the JSON reader's and the store's limits,
 * every string printed through the one escaping function, CSV cells quoted as
 * RFC 4180 says and defused against spreadsheet formulas; a bad file is
 * named with the reason and skipped (exit 1 after the report).
 */
#include "base/escape.h"
#include "base/file.h"
#include "base/msg.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xmem.h"
#include "cmd/cli.h"
#include "cmd/flags.h"
#include "cmd/json.h"
#include "cmd/progress_json.h"
#include "draw/text.h"
#include "learn/predict.h"
#include "lesson/catalog.h"
#include "store/progress.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char report_help[] =
    "Usage: scalelab report [--json | --csv] [--lessons DIR] FILE...\n"
    "A class summary from the files students hand in: who is stuck on which page,\n"
    "where each one stopped in each lesson and when, what is left to do (scenarios\n"
    "not met, questions not answered right, hints used), first-try results, and the\n"
    "questions most often missed on the first try.\n"
    "\n"
    "A FILE is what 'scalelab progress --json > NAME.json' writes, or a student's\n"
    "progress file itself ($XDG_STATE_HOME/scalelab/progress; named by its folder\n"
    "when it is called 'progress'). The same learner's record handed in twice\n"
    "counts once.\n"
    "\n"
    "  --json          one JSON object instead of the tables\n"
    "  --csv           one CSV row per student, for a gradebook or spreadsheet\n"
    "  --lessons DIR   the lessons that name the pages of a progress file\n"
    "                  (default: as the menu finds them)\n";

#define REPORT_MAX_FILES   FLAGS_MAX_OPERANDS
#define REPORT_MAX_LESSONS 100
#define REPORT_MAX_MISSES  400
#define REPORT_WIDTH       80
#define REPORT_NAME_W      18
#define REPORT_TIME_W      16 /* "2026-12-01 10:42" */
#define REPORT_CELL_W      7  /* "12/20!" and a space */

typedef struct {
    char lesson[64];
    char title[120];
    char kind[16];
    int page;
    int missed; /* students who missed it on the first try */
    int tried;  /* students who tried it */
} Miss;

/* A page of an opened lesson the student has not passed: a scenario not
 * met, a question not answered right (tried, or skipped before the page
 * the student stopped on). */
typedef struct {
    int page;
    char kind[12];
    char title[80];
    bool scenario, tried;
    int tries, hints;
} Todo;

/* One lesson of one student's record. */
typedef struct {
    int col;     /* the report's lesson column */
    char status; /* 'D' done, 's' started, '.' new */
    int page, pages;
    char page_title[80], page_kind[12];
    long long active_s;
    int hints, questions, first_try;
    bool stuck;          /* stopped on an exercise not passed yet */
    char stuck_on[200];  /* what that exercise is and how far the student got */
    char stuck_what[96]; /* the exercise alone: quiz "Which tier" */
    char stuck_note[32]; /* how far, in short: "2 tries", "1 hint", "" */
    Todo *todo;
    int n_todo;
} Place;

typedef struct {
    char name[64];
    char file[200];
    char dups[300]; /* other files with the same learner and record */
    int n_files;
    uint64_t hash; /* of the record without the learner's name */
    bool busy;     /* opened a lesson or practised */
    Place *places;
    int n_places;
    long long active_s;
    int done, started, first_try, questions, hints;
    int predictions, predictions_first; /* of the questions: predictions before a move */
    int practice_tried, practice_first;
} Student;

typedef struct {
    char id[64];
    char title[80];
    int pages;
    int opened, done; /* students who started or finished it */
} Column;

typedef struct {
    Column cols[REPORT_MAX_LESSONS];
    int n_cols;
    Student *st;
    int n_st;
    int files, bad_files, dup_files;
    bool cols_full; /* a lesson past REPORT_MAX_LESSONS was left out */
    Miss misses[REPORT_MAX_MISSES];
    int n_misses;
    const char *lessons_dir; /* --lessons, NULL: the default */
    Catalog *cat;            /* loaded for the first progress store read */
    bool cat_tried;
} Report;

/* ---- reading ---- */

static int report_column(Report *r, const char *id, const char *title, int pages)
{
    for (int i = 0; i < r->n_cols; i++)
        if (strcmp(r->cols[i].id, id) == 0)
            return i;
    if (r->n_cols >= REPORT_MAX_LESSONS) {
        r->cols_full = true;
        return -1;
    }
    Column *c = &r->cols[r->n_cols];
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id);
    snprintf(c->title, sizeof c->title, "%s", *title ? title : id);
    c->pages = pages;
    return r->n_cols++;
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

static bool report_bool(const JsonValue *v, const char *key)
{
    const JsonValue *b = json_get(v, key);
    return b && b->type == JSON_BOOL && b->b;
}

/* A whole number of a record, clamped to 0..max (files are untrusted). */
static long long report_int(const JsonValue *v, const char *key, long long max)
{
    double d = json_get_number(v, key, 0);
    return d >= 0 && d <= (double)max ? (long long)d : d > (double)max ? max : 0;
}

static void report_todo(Place *pl, int page, const char *kind, const char *title, bool scenario,
                        bool tried, int tries, int hints)
{
    pl->todo = xmem_realloc(pl->todo, sizeof *pl->todo * (size_t)(pl->n_todo + 1));
    Todo *t = &pl->todo[pl->n_todo++];
    memset(t, 0, sizeof *t);
    t->page = page;
    snprintf(t->kind, sizeof t->kind, "%s", kind);
    snprintf(t->title, sizeof t->title, "%s", title);
    t->scenario = scenario;
    t->tried = tried;
    t->tries = tries;
    t->hints = hints;
}

/* The student stopped on this exercise and has not passed it: what it is,
 * how far they got in short (note) and at length (how, a format that may
 * hold one %s for the note). */
static void report_stuck(Place *pl, const char *kind, const char *title, const char *note,
                         const char *how)
{
    char detail[80];
    pl->stuck = true;
    msg_set(pl->stuck_what, sizeof pl->stuck_what, "%s \"%s\"", kind, title);
    msg_set(pl->stuck_note, sizeof pl->stuck_note, "%s", note);
    if (strstr(how, "%s"))
        snprintf(detail, sizeof detail, how, note);
    else
        snprintf(detail, sizeof detail, "%s", how);
    msg_set(pl->stuck_on, sizeof pl->stuck_on, "%s: %s", pl->stuck_what, detail);
}

/* The questions of one lesson: first-try counts, the class's misses, and
 * those not answered right. */
static void report_questions(Report *r, Student *st, Place *pl, const char *lesson,
                             const JsonValue *qs)
{
    for (int i = 0; qs && qs->type == JSON_ARRAY && i < qs->n; i++) {
        const JsonValue *q = &qs->items[i];
        int page = (int)report_int(q, "page", 10000), tries = (int)report_int(q, "tries", 999999);
        const char *kind = json_get_string(q, "kind", "question");
        const char *title = json_get_string(q, "title", "");
        bool tried = report_bool(q, "tried") || report_bool(q, "answered");
        bool right = report_bool(q, "right"), first = report_bool(q, "first_try");
        if (tried && tries > 0) { /* tries 0: a version 1 file, the first try not kept */
            pl->questions++;
            pl->first_try += first;
            if (strcmp(kind, "prediction") == 0) {
                st->predictions++;
                st->predictions_first += first;
            }
            Miss *m = report_miss(r, lesson, page, title, kind);
            if (m) {
                m->tried++;
                m->missed += !first;
            }
        }
        if (right || pl->status == '.')
            continue;
        /* pages ahead of where a student stopped are not yet due */
        if (tried || page < pl->page || pl->status == 'D')
            report_todo(pl, page, kind, title, false, tried, tries, 0);
        bool out_of_tries = strcmp(kind, "predict") == 0 && tries >= PREDICT_TRIES;
        if (page == pl->page && pl->status == 's' && !out_of_tries) {
            char note[32] = "";
            if (tried && tries > 0)
                snprintf(note, sizeof note, "%d tr%s", tries, tries == 1 ? "y" : "ies");
            report_stuck(pl, kind, title, note,
                         !tried  ? "not answered yet"
                         : *note ? "not right yet (%s)"
                                 : "not right yet");
        }
    }
    st->questions += pl->questions;
    st->first_try += pl->first_try;
}

static void report_scenarios(Place *pl, const JsonValue *ss)
{
    for (int i = 0; ss && ss->type == JSON_ARRAY && i < ss->n; i++) {
        const JsonValue *s = &ss->items[i];
        int page = (int)report_int(s, "page", 10000), hints = (int)report_int(s, "hints", 999);
        const char *title = json_get_string(s, "title", "");
        if (report_bool(s, "met") || pl->status == '.')
            continue;
        if (page <= pl->page || hints > 0 || pl->status == 'D')
            report_todo(pl, page, "scenario", title, true, false, 0, hints);
        if (page == pl->page && pl->status == 's') {
            char note[32];
            snprintf(note, sizeof note, "%d hint%s", hints, hints == 1 ? "" : "s");
            report_stuck(pl, "scenario", title, note, "goal not met, %s");
            if (hints == 0)
                pl->stuck_note[0] = '\0';
        }
    }
}

/* The title and kind of the page a student stopped on: given by newer
 * files, else found among the lesson's questions and scenarios. */
static void report_stop_page(Place *pl, const JsonValue *l)
{
    snprintf(pl->page_title, sizeof pl->page_title, "%s",
             json_get_string(l, "last_page_title", ""));
    snprintf(pl->page_kind, sizeof pl->page_kind, "%s", json_get_string(l, "last_page_kind", ""));
    const char *lists[2] = {"questions", "scenarios"};
    for (int k = 0; k < 2 && !pl->page_title[0]; k++) {
        const JsonValue *a = json_get(l, lists[k]);
        for (int i = 0; a && a->type == JSON_ARRAY && i < a->n; i++) {
            if ((int)report_int(&a->items[i], "page", 10000) != pl->page)
                continue;
            snprintf(pl->page_title, sizeof pl->page_title, "%s",
                     json_get_string(&a->items[i], "title", ""));
            snprintf(pl->page_kind, sizeof pl->page_kind, "%s",
                     k ? "scenario" : json_get_string(&a->items[i], "kind", ""));
        }
    }
}

static void report_place(Report *r, Student *st, const JsonValue *l, const char *id)
{
    const char *status = json_get_string(l, "status", "new");
    Place *pl = &st->places[st->n_places++];
    memset(pl, 0, sizeof *pl);
    pl->status = strcmp(status, "done") == 0 ? 'D' : strcmp(status, "started") == 0 ? 's' : '.';
    pl->page = (int)report_int(l, "last_page", 10000);
    pl->pages = (int)report_int(l, "pages", 10000);
    pl->active_s = report_int(l, "last_active", 1LL << 40);
    pl->hints = (int)report_int(l, "hints", 1000000);
    pl->col = report_column(r, id, json_get_string(l, "title", ""), pl->pages);
    report_stop_page(pl, l);
    report_questions(r, st, pl, id, json_get(l, "questions"));
    report_scenarios(pl, json_get(l, "scenarios"));
    if (pl->status == '.')
        return;
    st->done += pl->status == 'D';
    st->started += pl->status == 's';
    st->hints += pl->hints;
    st->busy = true;
    if (pl->active_s > st->active_s)
        st->active_s = pl->active_s;
    if (pl->col >= 0) {
        Column *c = &r->cols[pl->col];
        c->opened++;
        c->done += pl->status == 'D';
    }
}

static void report_practice(Student *st, const JsonValue *pr)
{
    for (int i = 0; pr && pr->type == JSON_OBJECT && i < pr->n; i++) {
        const JsonValue *k = &pr->items[i];
        if (k->type != JSON_OBJECT)
            continue;
        st->practice_tried += (int)report_int(k, "tried", 1000000);
        st->practice_first += (int)report_int(k, "first_try", 1000000);
    }
    st->busy = st->busy || st->practice_tried > 0;
}

/* FNV-1a over a value's tree, in file order; the top level's "learner" is
 * left out, so the same record under two names hashes the same. */
static uint64_t report_hash(const JsonValue *v, uint64_t h, bool top)
{
    unsigned char kind = (unsigned char)v->type;
    h = (h ^ kind) * 1099511628211ULL;
    if (v->type == JSON_STRING || v->type == JSON_NUMBER || v->type == JSON_BOOL) {
        char num[64];
        const char *s = v->type == JSON_STRING ? v->str : num;
        snprintf(num, sizeof num, "%.17g", v->type == JSON_BOOL ? (double)v->b : v->num);
        for (const unsigned char *c = (const unsigned char *)s; *c; c++)
            h = (h ^ *c) * 1099511628211ULL;
    }
    for (int i = 0; (v->type == JSON_ARRAY || v->type == JSON_OBJECT) && i < v->n; i++) {
        if (v->type == JSON_OBJECT) {
            if (top && strcmp(v->keys[i], "learner") == 0)
                continue;
            for (const unsigned char *c = (const unsigned char *)v->keys[i]; *c; c++)
                h = (h ^ *c) * 1099511628211ULL;
        }
        h = report_hash(&v->items[i], h, false);
    }
    return h;
}

/* The name of a file that has no learner's name: the file name without
 * its extension; for a store's "progress" file, the first folder above it
 * that is not part of the state path (alice/state/scalelab/progress). */
static void report_file_name(const char *path, char *out, size_t n)
{
    char buf[600];
    snprintf(buf, sizeof buf, "%s", path);
    for (;;) {
        size_t len = strlen(buf);
        while (len > 1 && buf[len - 1] == '/')
            buf[--len] = '\0';
        char *base = strrchr(buf, '/');
        const char *b = base ? base + 1 : buf;
        const char *dot = strrchr(b, '.');
        size_t bl = dot && dot != b ? (size_t)(dot - b) : strlen(b);
        static const char *const skip[] = {"progress", "scalelab", "state", ".local"};
        bool skipped = false;
        for (size_t i = 0; i < sizeof skip / sizeof skip[0] && base; i++)
            skipped = skipped || (strlen(b) == strlen(skip[i]) && strcmp(b, skip[i]) == 0);
        if (!skipped || !base || base == buf) {
            snprintf(out, n, "%.*s", (int)bl, b);
            return;
        }
        *base = '\0';
    }
}

/* The student of one parsed file: a new row, or the row it duplicates. */
static bool report_add(Report *r, const char *path, const JsonValue *v, char *err, size_t err_len)
{
    if (strcmp(json_get_string(v, "format", ""), PROGRESS_JSON_FORMAT) != 0)
        return msg_fail(err, err_len, "not a scalelab progress file (no \"format\": \"%s\")",
                        PROGRESS_JSON_FORMAT);
    const JsonValue *ls = json_get(v, "lessons");
    if (!ls || ls->type != JSON_ARRAY)
        return msg_fail(err, err_len, "\"lessons\" is not a list");
    char name[64];
    const char *learner = json_get_string(v, "learner", "");
    if (*learner)
        snprintf(name, sizeof name, "%s", learner);
    else
        report_file_name(path, name, sizeof name);
    uint64_t hash = report_hash(v, 14695981039346656037ULL, true);
    for (int i = 0; i < r->n_st; i++) {
        Student *o = &r->st[i];
        if (o->hash != hash || strcmp(o->name, name) != 0)
            continue;
        size_t used = strlen(o->dups);
        snprintf(o->dups + used, sizeof o->dups - used, "%s%s", used ? ", " : "", path);
        o->n_files++;
        r->dup_files++;
        return true;
    }
    Student *st = &r->st[r->n_st++];
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%s", name);
    snprintf(st->file, sizeof st->file, "%s", path);
    st->hash = hash;
    st->n_files = 1;
    st->places = xmem_calloc(ls->n > 0 ? (size_t)ls->n : 1, sizeof *st->places);
    for (int i = 0; i < ls->n; i++) {
        const char *id = json_get_string(&ls->items[i], "id", NULL);
        if (id)
            report_place(r, st, &ls->items[i], id);
    }
    report_practice(st, json_get(v, "practice"));
    return true;
}

/* A store file as the JSON `progress --json` would write from it, the
 * lessons folder naming its pages. NULL with err when it does not load. */
static char *report_store_json(Report *r, const char *path, size_t *len, char *err, size_t err_len)
{
    Progress *p = progress_load(path, err, err_len);
    if (!p)
        return NULL;
    if (!r->cat_tried) {
        char dirbuf[4096], why[MSG_LEN];
        const char *dir =
            r->lessons_dir ? r->lessons_dir : catalog_default_dir(dirbuf, sizeof dirbuf);
        r->cat = dir ? catalog_load(dir, why, sizeof why) : NULL;
        r->cat_tried = true;
    }
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f) {
        progress_free(p);
        msg_set(err, err_len, "out of memory");
        return NULL;
    }
    progress_json_write(f, p, r->cat, "");
    fclose(f);
    progress_free(p);
    return text;
}

static void report_file(Report *r, const char *path)
{
    char err[MSG_LEN] = "";
    size_t len;
    FileProblem why_not;
    r->files++;
    char *text = file_read(path, JSON_MAX_BYTES, &len, &why_not);
    if (!text)
        file_problem_text(&why_not, JSON_MAX_BYTES, err, sizeof err);
    if (text && strncmp(text, "scalelab-progress ", 18) == 0) {
        free(text);
        text = report_store_json(r, path, &len, err, sizeof err);
    }
    JsonValue *v = text ? json_parse(text, len, err, sizeof err) : NULL;
    if (!v || !report_add(r, path, v, err, sizeof err)) {
        char safe[300], why[MSG_LEN];
        escape_text(path, strlen(path), safe, sizeof safe);
        escape_text(err, strlen(err), why, sizeof why);
        fprintf(stderr, "scalelab report: %s: %s\n", safe, why);
        r->bad_files++;
    }
    json_free(v);
    free(text);
}

/* ---- shared by the outputs ---- */

static int miss_cmp(const void *pa, const void *pb)
{
    const Miss *a = pa, *b = pb;
    if (a->missed != b->missed)
        return b->missed - a->missed;
    int c = strcmp(a->lesson, b->lesson);
    return c ? c : a->page - b->page;
}

static int student_cmp(const void *pa, const void *pb)
{
    const Student *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : strcmp(a->file, b->file);
}

/* "2026-12-01 10:42" in local time; "-" when not known. */
static const char *report_time(long long s, char *buf, size_t n)
{
    time_t t = (time_t)s;
    struct tm tm;
    if (s <= 0 || !localtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M", &tm))
        snprintf(buf, n, "-");
    return buf;
}

static int report_opened(const Report *r)
{
    int n = 0;
    for (int c = 0; c < r->n_cols; c++)
        n += r->cols[c].opened > 0;
    return n;
}

/* The student's place in column c, NULL when the file does not list it. */
static const Place *report_place_of(const Student *st, int c)
{
    for (int i = 0; i < st->n_places; i++)
        if (st->places[i].col == c)
            return &st->places[i];
    return NULL;
}

/* The grid's cell: "3/5", "3/5!" when stuck there, "done", "." */
static void report_cell_text(const Place *pl, char *buf, size_t n)
{
    if (!pl || pl->status == '.')
        snprintf(buf, n, ".");
    else if (pl->status == 'D')
        snprintf(buf, n, "done");
    else if (pl->pages > 0)
        snprintf(buf, n, "%d/%d%s", pl->page + 1, pl->pages, pl->stuck ? "!" : "");
    else
        snprintf(buf, n, "p%d%s", pl->page + 1, pl->stuck ? "!" : "");
}

/* What is left in one lesson: "page 3 scenario "X": not met (2 hints);
 * page 2 quiz "Y": not right (2 tries)". Empty when nothing is. */
static void report_todo_text(const Place *pl, StrBuf *b)
{
    for (int i = 0; i < pl->n_todo; i++) {
        const Todo *t = &pl->todo[i];
        strbuf_addf(b, "%spage %d %s \"%s\": ", i ? "; " : "", t->page + 1, t->kind, t->title);
        if (t->scenario)
            strbuf_addf(b, "not met (%d hint%s)", t->hints, t->hints == 1 ? "" : "s");
        else if (t->tried && t->tries > 0)
            strbuf_addf(b, "not right (%d tr%s)", t->tries, t->tries == 1 ? "y" : "ies");
        else
            strbuf_add(b, t->tried ? "not right" : "skipped");
    }
}

/* ---- text ---- */

/* s escaped, cut to width columns ('~' ends a cut), padded to width (0: as
 * it is). */
static void put_cell(FILE *out, const char *s, int width)
{
    char buf[512];
    escape_text(s, strlen(s), buf, sizeof buf);
    int w = utf8_width(buf);
    size_t i = 0;
    if (width > 0 && w > width) {
        w = 0;
        for (;;) {
            uint32_t cp;
            size_t k = utf8_decode(buf + i, &cp);
            if (w + utf8_cp_width(cp) > width - 1)
                break;
            w += utf8_cp_width(cp);
            i += k;
        }
        fwrite(buf, 1, i, out);
        fputc('~', out);
        w++;
    } else {
        fputs(buf, out);
    }
    for (; w < width; w++)
        fputc(' ', out);
}

/* Writes text (escaped: it quotes the students' files) wrapped at
 * REPORT_WIDTH, the first line after `first` columns already used, the
 * next ones indented by indent (draw/text.h's text_wrap_append). */
static void put_wrapped(FILE *out, const char *text, int first, int indent)
{
    size_t n = strlen(text), cap = 4 * n + 1; /* an escape is at most 4 bytes a byte */
    char *shown = xmem_alloc(cap);
    escape_text(text, n, shown, cap);
    StrBuf b = {0};
    text_wrap_append(&b, shown, REPORT_WIDTH, first, indent);
    fputs(b.s ? b.s : "\n", out);
    strbuf_free(&b);
    free(shown);
}

static void report_text_head(FILE *out, const Report *r)
{
    long long last = 0;
    int who = 0;
    for (int i = 0; i < r->n_st; i++)
        if (r->st[i].active_s > last) {
            last = r->st[i].active_s;
            who = i;
        }
    char when[32], line[400];
    int opened = report_opened(r);
    snprintf(line, sizeof line, "Class report: %d student%s (%d file%s", r->n_st,
             r->n_st == 1 ? "" : "s", r->files, r->files == 1 ? "" : "s");
    fputs(line, out);
    if (r->dup_files)
        fprintf(out, ", %d duplicate%s", r->dup_files, r->dup_files == 1 ? "" : "s");
    fprintf(out, "), %d lesson%s opened\n", opened, opened == 1 ? "" : "s");
    if (last > 0) {
        fprintf(out, "Last activity: %s (", report_time(last, when, sizeof when));
        put_cell(out, r->st[who].name, 0);
        fputs(")\n", out);
    }
    if (r->bad_files)
        fprintf(out, "%d file%s skipped: see the errors above\n", r->bad_files,
                r->bad_files == 1 ? "" : "s");
    if (r->cols_full)
        fprintf(out, "The files name more than %d lessons: the first %d are shown\n",
                REPORT_MAX_LESSONS, REPORT_MAX_LESSONS);
    for (int i = 0; i < r->n_st; i++) {
        if (!r->st[i].dups[0])
            continue;
        StrBuf b = {0};
        strbuf_addf(&b, "Counted once: %s is the same record of %s as %s", r->st[i].dups,
                    r->st[i].name, r->st[i].file);
        put_wrapped(out, b.s, 0, 2);
        strbuf_free(&b);
    }
}

/* Writes items (each "name" or "name (note)") comma-separated, wrapped at
 * REPORT_WIDTH between items, each line indented by indent. */
static void put_list(FILE *out, const StrBuf *items, int n, int indent)
{
    int col = indent;
    fprintf(out, "%*s", indent, "");
    for (int i = 0; i < n; i++) {
        char buf[160];
        escape_text(items[i].s, items[i].len, buf, sizeof buf);
        int w = utf8_width(buf) + (i + 1 < n ? 1 : 0);
        if (col > indent && col + 1 + w > REPORT_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%s%s", buf, i + 1 < n ? "," : "");
        col += w;
    }
    fputc('\n', out);
}

/* A student stopped on a page not passed yet, for grouping by page. */
typedef struct {
    const Place *pl;
    const Student *st;
} Stuck;

static int stuck_cmp(const void *pa, const void *pb)
{
    const Stuck *a = pa, *b = pb;
    if (a->pl->col != b->pl->col)
        return a->pl->col - b->pl->col;
    if (a->pl->page != b->pl->page)
        return a->pl->page - b->pl->page;
    return strcmp(a->st->name, b->st->name);
}

/* One page's group: the page, the exercise, how many, then who (and how
 * far each got). */
static void report_stuck_page(FILE *out, const Report *r, const Stuck *g, int n)
{
    const Place *pl = g[0].pl;
    StrBuf b = {0};
    strbuf_addf(&b, "L%d %s, page %d", pl->col + 1, r->cols[pl->col].title, pl->page + 1);
    if (pl->pages)
        strbuf_addf(&b, " of %d", pl->pages);
    strbuf_addf(&b, ": %s, %d student%s", pl->stuck_what, n, n == 1 ? "" : "s");
    fputs("  ", out);
    put_wrapped(out, b.s, 2, 6);
    strbuf_free(&b);
    StrBuf *items = xmem_calloc((size_t)n, sizeof *items);
    for (int i = 0; i < n; i++) {
        strbuf_add(&items[i], g[i].st->name);
        if (g[i].pl->stuck_note[0])
            strbuf_addf(&items[i], " (%s)", g[i].pl->stuck_note);
    }
    put_list(out, items, n, 6);
    for (int i = 0; i < n; i++)
        strbuf_free(&items[i]);
    free(items);
}

/* Who is stuck where, by page: each page some students stopped on without
 * passing it, in lesson and page order. */
static void report_text_stuck(FILE *out, const Report *r)
{
    fputs("\nStuck now, by page (stopped on an exercise not passed yet):\n", out);
    int n = 0, cap = 0;
    Stuck *all = NULL;
    for (int i = 0; i < r->n_st; i++)
        for (int k = 0; k < r->st[i].n_places; k++) {
            const Place *pl = &r->st[i].places[k];
            if (!pl->stuck || pl->col < 0)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                all = xmem_realloc(all, sizeof *all * (size_t)cap);
            }
            all[n++] = (Stuck){pl, &r->st[i]};
        }
    if (n > 1)
        qsort(all, (size_t)n, sizeof *all, stuck_cmp);
    for (int from = 0, to; from < n; from = to) {
        for (to = from + 1; to < n && all[to].pl->col == all[from].pl->col &&
                            all[to].pl->page == all[from].pl->page;
             to++)
            ;
        report_stuck_page(out, r, all + from, to - from);
    }
    if (!n)
        fputs("  nobody\n", out);
    free(all);
}

/* The lessons opened, REPORT_CELL_W columns each, in blocks that fit. */
static void report_text_grid(FILE *out, const Report *r)
{
    int cols[REPORT_MAX_LESSONS], n = 0;
    for (int c = 0; c < r->n_cols; c++)
        if (r->cols[c].opened > 0)
            cols[n++] = c;
    fputs("\nWhere each student stopped (page of pages; ! stuck there; . not opened):\n", out);
    int per = (REPORT_WIDTH - 2 - REPORT_NAME_W - 1 - REPORT_TIME_W - 2) / REPORT_CELL_W;
    for (int from = 0; from < n || from == 0; from += per) {
        int to = from + per < n ? from + per : n;
        fprintf(out, "  %-*s %-*s  ", REPORT_NAME_W, "student", REPORT_TIME_W, "last active");
        for (int k = from; k < to; k++)
            fprintf(out, "L%-*d", k + 1 < to ? REPORT_CELL_W - 1 : 0, cols[k] + 1);
        fputc('\n', out);
        for (int i = 0; i < r->n_st; i++) {
            char when[32], cell[32];
            fputs("  ", out);
            put_cell(out, r->st[i].name, REPORT_NAME_W);
            fprintf(out, " %-*s  ", REPORT_TIME_W,
                    report_time(r->st[i].active_s, when, sizeof when));
            for (int k = from; k < to; k++) {
                report_cell_text(report_place_of(&r->st[i], cols[k]), cell, sizeof cell);
                fprintf(out, "%-*s", k + 1 < to ? REPORT_CELL_W : 0, cell);
            }
            fputc('\n', out);
        }
        if (to >= n)
            break;
        fputc('\n', out);
    }
    for (int k = 0; k < n; k++) {
        const Column *c = &r->cols[cols[k]];
        StrBuf b = {0};
        strbuf_addf(&b, "L%d %s: %s (", cols[k] + 1, c->id, c->title);
        if (c->pages)
            strbuf_addf(&b, "%d pages; ", c->pages);
        strbuf_addf(&b, "opened by %d, done by %d)", c->opened, c->done);
        fputs("  ", out);
        put_wrapped(out, b.s, 2, 6);
        strbuf_free(&b);
    }
}

static void report_text_todo(FILE *out, const Report *r)
{
    fputs("\nLeft to do in the lessons opened (up to the page each stopped on):\n", out);
    for (int i = 0; i < r->n_st; i++) {
        const Student *st = &r->st[i];
        StrBuf b = {0};
        for (int k = 0; k < st->n_places; k++) {
            const Place *pl = &st->places[k];
            if (pl->status == '.' || pl->col < 0 || pl->n_todo == 0)
                continue;
            strbuf_addf(&b, "%sL%d: ", b.len ? "; " : "", pl->col + 1);
            report_todo_text(pl, &b);
        }
        if (!st->busy)
            strbuf_add(&b, "no lesson opened");
        else if (!b.len)
            strbuf_add(&b, "nothing");
        fputs("  ", out);
        put_cell(out, st->name, REPORT_NAME_W);
        fputc(' ', out);
        put_wrapped(out, b.s, 3 + REPORT_NAME_W, 3 + REPORT_NAME_W);
        strbuf_free(&b);
    }
}

static void report_text_scores(FILE *out, const Report *r)
{
    fputs("\nLessons, questions right at the first try, hints, practice (right first/tried):\n",
          out);
    fprintf(out, "%-20s %-8s %-8s %-16s %-6s %s\n", "student", "done", "started", "first try",
            "hints", "practice");
    for (int i = 0; i < r->n_st; i++) {
        const Student *w = &r->st[i];
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
        put_cell(out, w->name, 20);
        fprintf(out, " %-8d %-8d %-16s %-6d %s\n", w->done, w->started, ft, w->hints, pr);
    }
    /* a scenario's prediction before a move, among the first tries above */
    bool any = false;
    for (int i = 0; i < r->n_st; i++)
        any |= r->st[i].predictions > 0;
    if (!any)
        return;
    fputs("Of them, predictions before a move, right at the first try:", out);
    for (int i = 0; i < r->n_st; i++) {
        fputs(i ? ", " : " ", out);
        put_cell(out, r->st[i].name, 0);
        fprintf(out, " %d/%d", r->st[i].predictions_first, r->st[i].predictions);
    }
    fputc('\n', out);
}

static void report_text_misses(FILE *out, const Report *r)
{
    fputs("\nMissed on the first try, most often first:\n", out);
    int shown = 0;
    for (int i = 0; i < r->n_misses && shown < 15; i++) {
        const Miss *m = &r->misses[i];
        if (m->missed == 0)
            continue;
        char head[48];
        int hw = snprintf(head, sizeof head, "  %d of %d  ", m->missed, m->tried);
        StrBuf b = {0};
        strbuf_addf(&b, "%s page %d (%s): %s", m->lesson, m->page + 1, m->kind, m->title);
        fputs(head, out);
        put_wrapped(out, b.s, hw, hw);
        strbuf_free(&b);
        shown++;
    }
    if (!shown)
        fputs("  nothing: every question tried was right the first time\n", out);
}

static void report_text(FILE *out, const Report *r)
{
    report_text_head(out, r);
    report_text_stuck(out, r);
    report_text_grid(out, r);
    report_text_todo(out, r);
    report_text_scores(out, r);
    report_text_misses(out, r);
}

/* ---- CSV (RFC 4180: CRLF rows, quoted where needed) ---- */

/* One cell, after a comma unless first. Text is escaped like the terminal's,
 * quoted when it holds a comma, quote or line break, and a cell a
 * spreadsheet would take for a formula (= + - @ first) starts with '. */
static void csv_cell(FILE *out, const char *s, bool first)
{
    char buf[1024];
    escape_text(s, strlen(s), buf, sizeof buf);
    bool formula = buf[0] && strchr("=+-@", buf[0]);
    bool quote = formula || strpbrk(buf, ",\"\r\n") != NULL;
    if (!first)
        fputc(',', out);
    if (quote)
        fputc('"', out);
    if (formula)
        fputc('\'', out);
    for (const char *c = buf; *c; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    if (quote)
        fputc('"', out);
}

static void csv_int(FILE *out, int v)
{
    fprintf(out, ",%d", v);
}

static void report_csv_head(FILE *out, const Report *r)
{
    static const char *const fixed[] = {
        "student",         "file",
        "duplicates",      "last_active",
        "lessons_done",    "lessons_started",
        "first_try_right", "questions_tried",
        "hints",           "practice_first_try",
        "practice_tried",  "stuck_on",
        "left_to_do",
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        csv_cell(out, fixed[i], i == 0);
    for (int c = 0; c < r->n_cols; c++) {
        if (!r->cols[c].opened)
            continue;
        char h[96];
        snprintf(h, sizeof h, "%s status", r->cols[c].id);
        csv_cell(out, h, false);
        snprintf(h, sizeof h, "%s page", r->cols[c].id);
        csv_cell(out, h, false);
        snprintf(h, sizeof h, "%s pages", r->cols[c].id);
        csv_cell(out, h, false);
    }
    fputs("\r\n", out);
}

static void report_csv_row(FILE *out, const Report *r, const Student *st)
{
    char when[32];
    csv_cell(out, st->name, true);
    csv_cell(out, st->file, false);
    csv_cell(out, st->dups, false);
    csv_cell(out, st->active_s > 0 ? report_time(st->active_s, when, sizeof when) : "", false);
    csv_int(out, st->done);
    csv_int(out, st->started);
    csv_int(out, st->first_try);
    csv_int(out, st->questions);
    csv_int(out, st->hints);
    csv_int(out, st->practice_first);
    csv_int(out, st->practice_tried);
    StrBuf stuck = {0}, todo = {0};
    for (int k = 0; k < st->n_places; k++) {
        const Place *pl = &st->places[k];
        if (pl->col < 0) /* past REPORT_MAX_LESSONS lessons */
            continue;
        if (pl->stuck)
            strbuf_addf(&stuck, "%s%s page %d: %s", stuck.len ? "; " : "", r->cols[pl->col].id,
                        pl->page + 1, pl->stuck_on);
        if (pl->n_todo && pl->status != '.') {
            strbuf_addf(&todo, "%s%s: ", todo.len ? "; " : "", r->cols[pl->col].id);
            report_todo_text(pl, &todo);
        }
    }
    csv_cell(out, stuck.len ? stuck.s : "", false);
    csv_cell(out, todo.len ? todo.s : "", false);
    strbuf_free(&stuck);
    strbuf_free(&todo);
    for (int c = 0; c < r->n_cols; c++) {
        if (!r->cols[c].opened)
            continue;
        const Place *pl = report_place_of(st, c);
        bool open = pl && pl->status != '.';
        csv_cell(out, !open ? "new" : pl->status == 'D' ? "done" : "started", false);
        if (open)
            fprintf(out, ",%d", pl->page + 1);
        else
            fputc(',', out);
        fprintf(out, ",%d", r->cols[c].pages);
    }
    fputs("\r\n", out);
}

/* ---- JSON ---- */

static void report_json_student(FILE *out, const Report *r, const Student *w)
{
    fputs("{\"name\":", out);
    json_string(out, w->name);
    json_next_string(out, "file", w->file);
    json_next_string(out, "duplicates", w->dups);
    fprintf(out,
            ",\"last_active\":%lld,\"done\":%d,\"started\":%d,\"questions\":%d,\"first_try\":%d,"
            "\"hints\":%d,\"practice_tried\":%d,\"practice_first_try\":%d,\"predictions\":%d,"
            "\"predictions_first_try\":%d,\"lessons\":{",
            w->active_s, w->done, w->started, w->questions, w->first_try, w->hints,
            w->practice_tried, w->practice_first, w->predictions, w->predictions_first);
    for (int c = 0; c < r->n_cols; c++) {
        const Place *pl = report_place_of(w, c);
        fputs(c ? "," : "", out);
        json_string(out, r->cols[c].id);
        fputs(!pl || pl->status == '.' ? ":\"new\""
              : pl->status == 'D'      ? ":\"done\""
                                       : ":\"started\"",
              out);
    }
    fputs("},\"where\":[", out);
    int n = 0;
    for (int k = 0; k < w->n_places; k++) {
        const Place *pl = &w->places[k];
        if (pl->status == '.' || pl->col < 0)
            continue;
        fputs(n++ ? ",{\"lesson\":" : "{\"lesson\":", out);
        json_string(out, r->cols[pl->col].id);
        fprintf(out, ",\"page\":%d,\"pages\":%d,\"done\":%s,\"stuck\":%s", pl->page, pl->pages,
                pl->status == 'D' ? "true" : "false", pl->stuck ? "true" : "false");
        json_next_string(out, "stuck_on", pl->stuck_on);
        fprintf(out, ",\"last_active\":%lld,\"hints\":%d,\"left\":[", pl->active_s, pl->hints);
        for (int t = 0; t < pl->n_todo; t++) {
            const Todo *td = &pl->todo[t];
            fprintf(out, "%s{\"page\":%d,\"kind\":", t ? "," : "", td->page);
            json_string(out, td->kind);
            json_next_string(out, "title", td->title);
            fprintf(out, ",\"tried\":%s,\"tries\":%d,\"hints\":%d}", td->tried ? "true" : "false",
                    td->tries, td->hints);
        }
        fputs("]}", out);
    }
    fputs("]}", out);
}

static void report_json(FILE *out, const Report *r)
{
    fprintf(out, "{\"files\":%d,\"duplicate_files\":%d,\"lessons_opened\":%d,\"students\":[",
            r->files, r->dup_files, report_opened(r));
    for (int i = 0; i < r->n_st; i++) {
        fputs(i ? "," : "", out);
        report_json_student(out, r, &r->st[i]);
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

static void report_free(Report *r)
{
    for (int i = 0; i < r->n_st; i++) {
        for (int k = 0; k < r->st[i].n_places; k++)
            free(r->st[i].places[k].todo);
        free(r->st[i].places);
    }
    free(r->st);
    catalog_free(r->cat);
    free(r);
}

int cmd_report(int argc, char **argv)
{
    if (argc > REPORT_MAX_FILES + 5)
        return cli_usage_error("report: at most %d files at once", REPORT_MAX_FILES);
    static FlagArgs a; /* 4 kB of operands: not on the stack */
    int rc = flags_parse(&flags_report, argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    if (a.set[FLAG_HELP]) {
        fputs(report_help, stdout);
        return CLI_OK;
    }
    if (a.set[FLAG_JSON] && a.set[FLAG_CSV])
        return cli_usage_error("report: --json and --csv: choose one");
    int n = a.n_operands;
    if (n < 1)
        return cli_usage_error("report: name the progress files (scalelab report FILE...)");
    Report *r = xmem_calloc(1, sizeof *r);
    r->st = xmem_calloc((size_t)n, sizeof *r->st);
    r->lessons_dir = a.str[FLAG_LESSONS];
    for (int i = 0; i < n; i++)
        report_file(r, a.operand[i]);
    qsort(r->misses, (size_t)r->n_misses, sizeof r->misses[0], miss_cmp);
    qsort(r->st, (size_t)r->n_st, sizeof r->st[0], student_cmp);
    if (a.set[FLAG_JSON]) {
        report_json(stdout, r);
    } else if (a.set[FLAG_CSV]) {
        report_csv_head(stdout, r);
        for (int i = 0; i < r->n_st; i++)
            report_csv_row(stdout, r, &r->st[i]);
    } else {
        report_text(stdout, r);
    }
    rc = r->bad_files ? CLI_FAIL : CLI_OK;
    report_free(r);
    return rc;
}
