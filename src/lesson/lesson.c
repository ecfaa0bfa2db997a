/* SPDX-License-Identifier: MIT */
/* lesson — loads a lesson file in its own sandbox, validates it, and copies
 * every page into C structs the UI reads without touching Lua again; goal
 * functions stay in the state (registry table of goals) and run in the
 * sandbox on demand.
 *
 * Invariants: all Lua API sequences that can raise run inside
 * sandbox_protect/sandbox_call; strings copied out are owned by the Lesson
 * (xmem_strdup) and hung on it before any further Lua call, so an error never
 * leaks them; every entry point leaves the Lua stack as it found it.
 * Problems carry "file:line:"; for fields of a page the line is that of the
 * page's `kind =` in the source (Lua tables keep no lines), for goals the
 * line of the function. Nothing here prints.
 */
#include "lesson/lesson.h"

#include "base/escape.h"
#include "base/msg.h"
#include "base/names.h"
#include "base/strbuf.h"
#include "base/xmem.h"
#include "learn/quiz.h"
#include "lesson/host.h"
#include "lesson/lesson_api.h"
#include "lesson/lesson_local.h"
#include "lesson/sandbox.h"
#include "lesson/wire.h"
#include "model/job.h"
#include "model/units.h"

#include <ctype.h>
#include <float.h>
#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAGES         200
#define MAX_ITEMS         64     /* hints, choices, moves per page */
#define SCENARIO_MAX_GPUS 131072 /* 2^17: starts in about 0.1 s */

typedef struct {
    char *text;
    bool correct;
    char *explain;
} QuizChoice;

typedef struct {
    PageKind kind;
    int line;
    char *title;
    char *text;
    /* diagram, scenario, compare */
    PageView view;
    bool has_cluster;
    Cluster cluster[2];
    Workload workload;
    Mapping mapping[2];
    char label[2][64];
    char chart_x[16];
    int chart_n;
    double chart_values[LESSON_CHART_MAX_POINTS];
    /* scenario */
    unsigned allow;
    char **start;
    int n_start;
    char *goal_text;
    int goal_line;
    bool has_goal;
    char **hints;
    int n_hints;
    char *debrief;
    bool debrief_fn; /* debrief is a function kept in the registry */
    int debrief_line;
    char **solution;
    int n_solution;
    int par;
    LessonTarget target;
    bool has_guess; /* predict = { at =, ask = }: a prediction before a move */
    GuessSpec guess;
    bool serving; /* serve = { batch =, context = }: judged as serving */
    ServeLoad load;
    /* presenter steps: moves (scenario) or pieces of text (other pages) */
    char **steps;
    int n_steps;
    /* quiz */
    QuizChoice *choices;
    int n_choices;
    bool calc;
    /* predict */
    char *question, *unit, *formula;
    double answer, tolerance;
    PredictTerm *terms; /* names owned by the page */
    int n_terms;
    PredictSlip slips[PREDICT_MAX_SLIPS]; /* slips = { "bits", per_server = 8, ... } */
    int n_slips;
    bool ok; /* read without problems */
} Page;

typedef struct {
    char **lines;
    int n;
} Problems;

/* What scalelab.note recorded: bounded, for a lesson is untrusted. */
#define NOTES_MAX      200
#define NOTE_MAX_BYTES 400
#define NOTES_BYTES    (32 << 10)

typedef struct {
    int page; /* 0-based; -1: the lesson's own code, outside any page */
    int line;
    char *text; /* escaped */
} LessonNote;

struct Lesson {
    Sandbox *sb; /* the lesson's Lua state, in the process that runs it; NULL in scalelab */
    char *path;
    char *id, *title, *summary, *track;
    int order, minutes;
    Page *pages;
    int n_pages;
    int return_line;
    int *kind_lines; /* line of each `kind =` in the source, in order */
    int n_kind_lines;
    const char *source_text; /* the sandbox's copy of the file, while it is read */
    struct SrcField *fields; /* every `name =` of the source (scan_lines) */
    int n_fields;
    int *page_starts; /* the line where each page of a literal `pages = {` starts */
    int n_page_starts;
    bool renew_goals; /* interactive: each goal check gets a fresh budget */
    Problems problems;
    Host *host;   /* the lesson host running it for scalelab, NULL when gone or local */
    char *source; /* the file's text as loaded, to start a fresh host with */
    size_t source_len;
    bool quick; /* loaded with the catalog's limits */
    LessonNote *notes;
    int n_notes;
    int notes_dropped;      /* past NOTES_MAX or NOTES_BYTES */
    int notes_dropped_line; /* of the first of them */
    size_t notes_bytes;     /* of the texts kept */
    int note_page;          /* the page whose goal or debrief runs, -1 while the file loads */
    LessonNoteSink note_sink;
};

/* ---- what crosses from the lesson host ------------------------------------
 * The host loads a lesson and sends it to scalelab whole, as these tables
 * say (wire.h): a member added to Page or Lesson gets a line here, beside
 * it, or is marked WIRE_F_LOCAL when it belongs to the process that runs
 * the Lua (test_lesson compares every byte of every shipped lesson loaded
 * both ways, so a member left out fails it). Ranges are what the readers
 * below allow; lesson_from_wire checks the rest (page_arrived). */
static const WireField choice_fields[] = {
    WIRE_F_STR(QuizChoice, text, 0),
    WIRE_F_BOOL(QuizChoice, correct),
    WIRE_F_STR(QuizChoice, explain, 0),
};

static const WireField term_fields[] = {
    WIRE_F_STR(PredictTerm, name, 0),
    WIRE_F_DOUBLE(PredictTerm, value, -DBL_MAX, DBL_MAX),
};

static const WireField slip_fields[] = {
    WIRE_F_INT(PredictSlip, kind, PREDICT_SLIP_BITS, PREDICT_SLIP_COMPLEMENT),
    WIRE_F_DOUBLE(PredictSlip, factor, 0, DBL_MAX),
};

static const WireField page_fields[] = {
    WIRE_F_INT(Page, kind, PAGE_TEXT, PAGE_PREDICT),
    WIRE_F_INT(Page, line, 0, INT_MAX),
    WIRE_F_STR(Page, title, 0),
    WIRE_F_STR(Page, text, 0),
    WIRE_F_INT(Page, view, PAGE_VIEW_RACK, PAGE_VIEW_CHART),
    WIRE_F_BOOL(Page, has_cluster),
    WIRE_F_CUSTOMS(Page, cluster, lesson_api_cluster_codec),
    WIRE_F_CUSTOM(Page, workload, lesson_api_workload_codec),
    WIRE_F_CUSTOMS(Page, mapping, lesson_api_mapping_codec),
    WIRE_F_CHARS2(Page, label),
    WIRE_F_CHARS(Page, chart_x),
    WIRE_F_INT(Page, chart_n, 0, LESSON_CHART_MAX_POINTS),
    WIRE_F_DOUBLES(Page, chart_values, -DBL_MAX, DBL_MAX),
    WIRE_F_INT(Page, allow, 0, SCN_ALLOW_ALL | SCN_ALLOW_GROUP_DIMS),
    WIRE_F_LIST(Page, start, n_start, MAX_ITEMS, NULL, 0),
    WIRE_F_STR(Page, goal_text, 0),
    WIRE_F_INT(Page, goal_line, 0, INT_MAX),
    WIRE_F_BOOL(Page, has_goal),
    WIRE_F_LIST(Page, hints, n_hints, MAX_ITEMS, NULL, 0),
    WIRE_F_STR(Page, debrief, 0),
    WIRE_F_BOOL(Page, debrief_fn),
    WIRE_F_INT(Page, debrief_line, 0, INT_MAX),
    WIRE_F_LIST(Page, solution, n_solution, MAX_ITEMS, NULL, 0),
    WIRE_F_INT(Page, par, 0, MAX_ITEMS),
    WIRE_F_DOUBLE(Page, target.step_s, 0, DBL_MAX),
    WIRE_F_DOUBLE(Page, target.tokens_per_s, 0, DBL_MAX),
    WIRE_F_DOUBLE(Page, target.power_w, 0, DBL_MAX),
    WIRE_F_DOUBLE(Page, target.mem_per_gpu_bytes, 0, DBL_MAX),
    WIRE_F_DOUBLE(Page, target.token_s, 0, DBL_MAX),
    WIRE_F_BOOL(Page, has_guess),
    WIRE_F_INT(Page, guess.at, GUESS_AT_ANY, GUESS_AT_COUNT - 1),
    WIRE_F_INT(Page, guess.ask, GUESS_CHANGE, GUESS_PART),
    WIRE_F_BOOL(Page, serving),
    WIRE_F_INT(Page, load.batch, 0, 1000000),
    WIRE_F_INT(Page, load.context, 0, 100000000),
    WIRE_F_LIST(Page, steps, n_steps, MAX_ITEMS, NULL, 0),
    WIRE_F_LIST(Page, choices, n_choices, MAX_ITEMS, choice_fields, WIRE_N(choice_fields)),
    WIRE_F_BOOL(Page, calc),
    WIRE_F_STR(Page, question, 0),
    WIRE_F_STR(Page, unit, 0),
    WIRE_F_STR(Page, formula, 0),
    WIRE_F_DOUBLE(Page, answer, -DBL_MAX, DBL_MAX),
    WIRE_F_DOUBLE(Page, tolerance, -DBL_MAX, DBL_MAX),
    WIRE_F_LIST(Page, terms, n_terms, MAX_ITEMS, term_fields, WIRE_N(term_fields)),
    WIRE_F_STRUCTS(Page, slips, slip_fields, WIRE_N(slip_fields)),
    WIRE_F_INT(Page, n_slips, 0, PREDICT_MAX_SLIPS),
    WIRE_F_BOOL(Page, ok),
};

static const WireField note_fields[] = {
    WIRE_F_INT(LessonNote, page, -1, MAX_PAGES - 1),
    WIRE_F_INT(LessonNote, line, 0, INT_MAX),
    WIRE_F_STR(LessonNote, text, NOTE_MAX_BYTES * 4 + 8),
};

static const WireField lesson_fields[] = {
    WIRE_F_LOCAL(Lesson, sb),
    WIRE_F_LOCAL(Lesson, path),
    WIRE_F_STR(Lesson, id, 0),
    WIRE_F_STR(Lesson, title, 0),
    WIRE_F_STR(Lesson, summary, 0),
    WIRE_F_STR(Lesson, track, 0),
    WIRE_F_INT(Lesson, order, -1000000, 1000000),
    WIRE_F_INT(Lesson, minutes, -1000000, 1000000),
    WIRE_F_LIST(Lesson, pages, n_pages, MAX_PAGES, page_fields, WIRE_N(page_fields)),
    WIRE_F_INT(Lesson, return_line, 0, INT_MAX),
    WIRE_F_LOCAL(Lesson, kind_lines), /* line lookups while reading, in the host */
    WIRE_F_LOCAL(Lesson, n_kind_lines),
    WIRE_F_LOCAL(Lesson, source_text),
    WIRE_F_LOCAL(Lesson, fields),
    WIRE_F_LOCAL(Lesson, n_fields),
    WIRE_F_LOCAL(Lesson, page_starts),
    WIRE_F_LOCAL(Lesson, n_page_starts),
    WIRE_F_LOCAL(Lesson, renew_goals),
    WIRE_F_LOCAL(Lesson, problems), /* a lesson with problems does not cross */
    WIRE_F_LOCAL(Lesson, host),
    WIRE_F_LOCAL(Lesson, source),
    WIRE_F_LOCAL(Lesson, source_len),
    WIRE_F_LOCAL(Lesson, quick),
    WIRE_F_LIST(Lesson, notes, n_notes, NOTES_MAX, note_fields, WIRE_N(note_fields)),
    WIRE_F_INT(Lesson, notes_dropped, 0, INT_MAX),
    WIRE_F_LOCAL(Lesson, notes_dropped_line),
    WIRE_F_LOCAL(Lesson, notes_bytes),
    WIRE_F_LOCAL(Lesson, note_page),
    WIRE_F_LOCAL(Lesson, note_sink),
};

/* ---- problems --------------------------------------------------------- */

static void problem_add(Problems *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem_add(Problems *p, const char *fmt, ...)
{
    char raw[MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    msg_vset(raw, sizeof raw, fmt, ap);
    va_end(ap);
    char line[MSG_LEN];
    escape_text(raw, strlen(raw), line, sizeof line);
    p->lines = xmem_realloc(p->lines, (size_t)(p->n + 1) * sizeof *p->lines);
    p->lines[p->n++] = xmem_strdup(line);
}

static void problems_free(Problems *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->lines[i]);
    free(p->lines);
    p->lines = NULL;
    p->n = 0;
}

/* A sandbox message without a line ("name: msg") gets the given line. */
static void problem_from_err(Lesson *l, int line, const char *err)
{
    const char *name = sandbox_name(l->sb);
    size_t n = strlen(name);
    if (strncmp(err, name, n) == 0 && err[n] == ':' && err[n + 1] == ' ')
        problem_add(&l->problems, "%s:%d: %s", name, line, err + n + 2);
    else
        problem_add(&l->problems, "%s", err);
}

/* The line a problem names ("NAME:LINE: ..."), 0 when it names none. */
static long problem_line(const Lesson *l, const char *line)
{
    const char *name = l->sb ? sandbox_name(l->sb) : l->path;
    size_t n = strlen(name);
    if (strncmp(line, name, n) != 0 || line[n] != ':')
        return 0;
    return strtol(line + n + 1, NULL, 10);
}

/* Problems from index first on in the order of their lines (stable): a
 * page's unknown fields come in the order of a hash table. */
static void problems_sort(Lesson *l, int first)
{
    char **v = l->problems.lines;
    for (int i = first + 1; i < l->problems.n; i++)
        for (int j = i; j > first && problem_line(l, v[j]) < problem_line(l, v[j - 1]); j--) {
            char *tmp = v[j];
            v[j] = v[j - 1];
            v[j - 1] = tmp;
        }
}

/* ---- free --------------------------------------------------------------- */

static void free_list(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void page_free(Page *p)
{
    free(p->title);
    free(p->text);
    free_list(p->start, p->n_start);
    free(p->goal_text);
    free_list(p->hints, p->n_hints);
    free(p->debrief);
    free_list(p->solution, p->n_solution);
    free_list(p->steps, p->n_steps);
    for (int i = 0; i < p->n_choices; i++) {
        free(p->choices[i].text);
        free(p->choices[i].explain);
    }
    free(p->choices);
    free(p->question);
    free(p->unit);
    free(p->formula);
    for (int i = 0; i < p->n_terms; i++)
        free((char *)p->terms[i].name);
    free(p->terms);
}

void lesson_free(Lesson *l)
{
    if (!l)
        return;
    sandbox_free(l->sb);
    host_free(l->host);
    free(l->source);
    for (int i = 0; i < l->n_pages; i++)
        page_free(&l->pages[i]);
    free(l->pages);
    free(l->path);
    free(l->id);
    free(l->title);
    free(l->summary);
    free(l->track);
    free(l->kind_lines);
    free(l->fields);
    free(l->page_starts);
    for (int i = 0; i < l->n_notes; i++)
        free(l->notes[i].text);
    free(l->notes);
    problems_free(&l->problems);
    free(l);
}

/* ---- source lines -------------------------------------------------------
 * Lua tables keep no lines, so messages about fields find them in the
 * source text: a small lexer (strings, long strings and comments skipped,
 * so a word in them fools nothing) records every `name =` with its line,
 * its brace depth and the field whose table holds it (`cluster = { gpus =
 * 16 }`: gpus's parent is cluster), the line where each element of the
 * literal `pages = { ... }` starts, and the `return` at a line's start. */

typedef struct SrcField {
    size_t off; /* the name in the source */
    int len;    /* its bytes */
    int line;   /* of the name */
    int depth;  /* braces around it */
    int parent; /* the field whose `= {` holds it, -1 for none */
} SrcField;

typedef struct {
    const char *s;
    size_t len, i;
    int line;
} Lex;

/* Skips the long bracket at x->i ([[, [==[ ...) to its end, counting lines;
 * false (nothing skipped) when x->i starts none. */
static bool lex_long(Lex *x)
{
    size_t j = x->i + 1;
    int eq = 0;
    while (j < x->len && x->s[j] == '=')
        eq++, j++;
    if (j >= x->len || x->s[j] != '[')
        return false;
    for (j++; j < x->len; j++) {
        if (x->s[j] == '\n')
            x->line++;
        else if (x->s[j] == ']') {
            size_t k = j + 1;
            int e = 0;
            while (k < x->len && x->s[k] == '=')
                e++, k++;
            if (e == eq && k < x->len && x->s[k] == ']') {
                x->i = k + 1;
                return true;
            }
        }
    }
    x->i = x->len;
    return true;
}

/* Skips the quoted string at x->i (escapes, \z, a line break ends it). */
static void lex_quoted(Lex *x)
{
    char q = x->s[x->i++];
    while (x->i < x->len) {
        char c = x->s[x->i++];
        if (c == q)
            return;
        if (c == '\n') {
            x->line++;
            return;
        }
        if (c != '\\' || x->i >= x->len)
            continue;
        bool z = x->s[x->i] == 'z';
        x->line += x->s[x->i] == '\n';
        x->i++;
        while (z && x->i < x->len && strchr(" \t\r\n", x->s[x->i]))
            x->line += x->s[x->i++] == '\n';
    }
}

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

#define SCAN_DEPTH 256

typedef struct {
    int owner[SCAN_DEPTH]; /* the field each open brace belongs to, -1 none */
    int depth;
    int pending;     /* the field whose `=` came last, until the next token */
    int pages_depth; /* depth inside the literal pages list, -1 outside */
    bool elem_start; /* the next token there starts a page */
    int *starts, n_starts;
} Scan;

static int scan_parent(const Scan *sc)
{
    for (int d = sc->depth < SCAN_DEPTH ? sc->depth : SCAN_DEPTH; d > 0; d--)
        if (sc->owner[d - 1] >= 0)
            return sc->owner[d - 1];
    return -1;
}

static void scan_brace(Lesson *l, Scan *sc, char c)
{
    const char *s = l->source_text;
    if (c == '{') {
        int owner = sc->pending;
        if (sc->depth < SCAN_DEPTH)
            sc->owner[sc->depth] = owner;
        sc->depth++;
        if (owner >= 0 && l->fields[owner].len == 5 &&
            memcmp(s + l->fields[owner].off, "pages", 5) == 0) {
            sc->pages_depth = sc->depth;
            sc->elem_start = true;
            sc->n_starts = 0;
        }
    } else if (c == '}') {
        if (sc->depth == sc->pages_depth) {
            sc->pages_depth = -1;
            free(l->page_starts);
            l->page_starts = sc->starts;
            l->n_page_starts = sc->n_starts;
            sc->starts = NULL;
            sc->n_starts = 0;
        }
        sc->depth -= sc->depth > 0;
    } else if ((c == ',' || c == ';') && sc->depth == sc->pages_depth) {
        sc->elem_start = true;
    }
}

static void scan_field(Lesson *l, Scan *sc, size_t off, int len, int line)
{
    if (l->n_fields % 256 == 0)
        l->fields = xmem_realloc(l->fields, (size_t)(l->n_fields + 256) * sizeof *l->fields);
    l->fields[l->n_fields] = (SrcField){
        .off = off, .len = len, .line = line, .depth = sc->depth, .parent = scan_parent(sc)};
    sc->pending = l->n_fields++;
    if (len == 4 && memcmp(l->source_text + off, "kind", 4) == 0) {
        l->kind_lines = xmem_realloc(l->kind_lines, (size_t)(l->n_kind_lines + 1) * sizeof(int));
        l->kind_lines[l->n_kind_lines++] = line;
    }
}

static void scan_lines(Lesson *l)
{
    size_t len;
    l->source_text = sandbox_source(l->sb, &len);
    Lex x = {l->source_text, len, 0, 1};
    Scan sc = {.pending = -1, .pages_depth = -1};
    l->return_line = 1;
    while (x.i < x.len) {
        const char *s = x.s;
        char c = s[x.i];
        if (c == '\n' || c == ' ' || c == '\t' || c == '\r') {
            x.line += c == '\n';
            x.i++;
            continue;
        }
        if (c == '-' && x.i + 1 < x.len && s[x.i + 1] == '-') {
            x.i += 2;
            if (!(x.i < x.len && s[x.i] == '[' && lex_long(&x)))
                while (x.i < x.len && s[x.i] != '\n')
                    x.i++;
            continue;
        }
        if (sc.elem_start && sc.depth == sc.pages_depth && c != '}') {
            sc.starts = xmem_realloc(sc.starts, (size_t)(sc.n_starts + 1) * sizeof(int));
            sc.starts[sc.n_starts++] = x.line;
        }
        sc.elem_start = false;
        int pending = sc.pending;
        sc.pending = -1;
        if (c == '"' || c == '\'') {
            lex_quoted(&x);
        } else if (c == '[' && lex_long(&x)) {
        } else if (ident_start(c)) {
            size_t j = x.i;
            while (j < x.len && ident_char(s[j]))
                j++;
            if (j - x.i == 6 && memcmp(s + x.i, "return", 6) == 0 &&
                (x.i == 0 || s[x.i - 1] == '\n'))
                l->return_line = x.line;
            size_t k = j;
            while (k < x.len && (s[k] == ' ' || s[k] == '\t'))
                k++;
            if (k < x.len && s[k] == '=' && (k + 1 >= x.len || s[k + 1] != '=') && j - x.i < 64) {
                scan_field(l, &sc, x.i, (int)(j - x.i), x.line);
                j = k + 1;
            }
            x.i = j;
        } else if (c >= '0' && c <= '9') {
            while (x.i < x.len && (ident_char(s[x.i]) || s[x.i] == '.'))
                x.i++;
        } else {
            sc.pending = c == '{' ? pending : -1;
            scan_brace(l, &sc, c);
            sc.pending = -1;
            x.i++;
        }
    }
    free(sc.starts);
}

static bool field_is(const Lesson *l, int f, const char *name, size_t n)
{
    return (size_t)l->fields[f].len == n &&
           memcmp(l->source_text + l->fields[f].off, name, n) == 0;
}

/* How many of the last parts of path (n parts) field f and its parents
 * name, from the last: 0 when f is not named parts[n - 1]. */
static int field_score(const Lesson *l, int f, char parts[][64], int n)
{
    int score = 0;
    for (int k = n - 1; k >= 0 && f >= 0; k--, f = l->fields[f].parent) {
        if (!field_is(l, f, parts[k], strlen(parts[k])))
            break;
        score++;
    }
    return score;
}

/* The line of the field path ("cluster.gpus": dotted, the last part the
 * field) in source lines [from, to): the field that matches most of its
 * last parts, then the shallowest, then the first; outside them the one
 * field of the file that matches it whole. 0 when none. */
static int field_line(const Lesson *l, int from, int to, const char *path)
{
    char parts[8][64];
    int n = 0;
    for (const char *p = path; *p && n < 8;) {
        size_t k = strcspn(p, ".");
        if (k > 0 && k < sizeof parts[0]) {
            memcpy(parts[n], p, k);
            parts[n++][k] = '\0';
        }
        p += k + (p[k] == '.');
    }
    if (n == 0)
        return 0;
    int best = -1, best_score = 0, whole = -1, wholes = 0;
    for (int f = 0; f < l->n_fields; f++) {
        int score = field_score(l, f, parts, n);
        if (score == 0)
            continue;
        if (score == n) {
            whole = f;
            wholes++;
        }
        if (l->fields[f].line < from || l->fields[f].line >= to)
            continue;
        if (score > best_score ||
            (score == best_score && l->fields[f].depth < l->fields[best].depth)) {
            best = f;
            best_score = score;
        }
    }
    if (best >= 0)
        return l->fields[best].line;
    return wholes == 1 ? l->fields[whole].line : 0;
}

/* The first line in [from, to) where word appears quoted ("word", a bad
 * value); 0 when none. */
static int find_word_line(const Lesson *l, int from, int to, const char *word)
{
    size_t wl = strlen(word), len;
    const char *src = sandbox_source(l->sb, &len);
    int line = 1;
    if (wl == 0)
        return 0;
    for (size_t i = 0; i < len && line < to; i++) {
        if (src[i] == '\n') {
            line++;
            continue;
        }
        if (line < from || i + wl > len || memcmp(src + i, word, wl) != 0)
            continue;
        if (i > 0 && (src[i - 1] == '"' || src[i - 1] == '\''))
            return line;
    }
    return 0;
}

/* The dotted field path a reader's name for a table means: "pages[3].left
 * .cluster" is "left.cluster", "pages[2]: choices[1]" is "choices" (the
 * page and list indices dropped, ": " a separator like '.'). Appends to
 * path (n bytes). */
static void path_of(const char *what, size_t wlen, char *path, size_t n)
{
    size_t i = 0;
    while (i < wlen) {
        size_t k = i;
        while (k < wlen && what[k] != '.' && what[k] != ':' && what[k] != '[' && what[k] != ' ')
            k++;
        bool page = k - i == 5 && memcmp(what + i, "pages", 5) == 0 && k < wlen && what[k] == '[';
        if (k > i && !page) {
            size_t used = strlen(path);
            snprintf(path + used, n - used, "%s%.*s", used ? "." : "", (int)(k - i), what + i);
        }
        while (k < wlen && what[k] != '.' && what[k] != ':' && what[k] != ' ')
            k++; /* past an index */
        while (k < wlen && (what[k] == '.' || what[k] == ':' || what[k] == ' '))
            k++;
        i = k;
    }
}

/* Whether s (n bytes) reads as a reader's name for a table or field:
 * names, dots and [N] indices only. */
static bool looks_like_path(const char *s, size_t n)
{
    if (n == 0 || !ident_start(s[0]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!ident_char(s[i]) && s[i] != '.' && s[i] != '[' && s[i] != ']')
            return false;
    return true;
}

/* Refines the line of a message about source lines [from, to). Messages
 * read "WHAT: 'FIELD' must be ...", "WHAT: unknown system 'x'", "WHAT:
 * goal.check must be ...": the line of WHAT's FIELD (or of the dotted name
 * that starts the sentence), else of the first 'quoted' value, else of
 * WHAT itself, else from. */
static int refine_line(const Lesson *l, int from, int to, const char *msg)
{
    size_t nl = strlen(sandbox_name(l->sb));
    if (strncmp(msg, sandbox_name(l->sb), nl) == 0 && msg[nl] == ':' && msg[nl + 1] == ' ')
        msg += nl + 2;
    char path[256] = "", word[64] = "";
    const char *seg = msg;
    for (;;) { /* WHAT: segments that are names */
        const char *end = strstr(seg, ": ");
        if (!end || !looks_like_path(seg, (size_t)(end - seg)))
            break;
        path_of(seg, (size_t)(end - seg), path, sizeof path);
        seg = end + 2;
    }
    size_t what_len = strlen(path);
    if (seg[0] == '\'') { /* 'FIELD' must ... */
        const char *e = strchr(seg + 1, '\'');
        if (e && e - seg - 1 > 0 && e - seg - 1 < 60 &&
            looks_like_path(seg + 1, (size_t)(e - seg - 1)))
            path_of(seg + 1, (size_t)(e - seg - 1), path, sizeof path);
    } else { /* goal.check must ..., pages[2].cluster.gpus must ... */
        size_t k = strcspn(seg, " ");
        if (looks_like_path(seg, k) && memchr(seg, '.', k))
            path_of(seg, k, path, sizeof path);
    }
    int line = strlen(path) > what_len ? field_line(l, from, to, path) : 0;
    const char *q = strchr(msg, '\'');
    const char *e = q ? strchr(q + 1, '\'') : NULL;
    if (!line && q && e && e - q >= 2 && e - q <= 60) {
        memcpy(word, q + 1, (size_t)(e - q - 1));
        word[e - q - 1] = '\0';
        line = find_word_line(l, from, to, word);
    }
    if (!line && path[0])
        line = field_line(l, from, to, path);
    return line ? line : from;
}

/* Source lines [*from, *to) of page i; returns the line messages about it
 * name: its `kind =`, else where it starts in a literal pages list, else
 * the `return`. */
static int page_range(const Lesson *l, int i, int *from, int *to)
{
    if (l->n_page_starts == l->n_pages) {
        *from = l->page_starts[i];
        *to = i + 1 < l->n_pages ? l->page_starts[i + 1] : 1 << 30;
        for (int k = 0; k < l->n_kind_lines; k++)
            if (l->kind_lines[k] >= *from && l->kind_lines[k] < *to)
                return l->kind_lines[k];
        return *from;
    }
    if (l->n_kind_lines == l->n_pages) {
        *from = l->kind_lines[i];
        *to = i + 1 < l->n_pages ? l->kind_lines[i + 1] : 1 << 30;
        return *from;
    }
    *from = l->return_line;
    *to = *from + 1;
    return *from;
}

/* Where the lesson's own fields are: from the `return` to the first page. */
static int header_end(const Lesson *l)
{
    return l->n_page_starts ? l->page_starts[0] : l->n_kind_lines ? l->kind_lines[0] : 1 << 30;
}

static void lesson_predict_spec_of(const Page *p, PredictSpec *out)
{
    *out = (PredictSpec){.unit = p->unit ? p->unit : "",
                         .answer = p->answer,
                         .tolerance = p->tolerance,
                         .terms = p->terms,
                         .n_terms = p->n_terms,
                         .slips = p->slips,
                         .n_slips = p->n_slips};
}

/* ---- notes ------------------------------------------------------------------ */

static void note_add(void *ctx, int line, const char *text, size_t len)
{
    Lesson *l = ctx;
    char shown[NOTE_MAX_BYTES * 4 + 8];
    escape_text(text, len < NOTE_MAX_BYTES ? len : NOTE_MAX_BYTES, shown, sizeof shown);
    if (len > NOTE_MAX_BYTES)
        snprintf(shown + strlen(shown), sizeof shown - strlen(shown), "...");
    size_t n = strlen(shown);
    if (l->n_notes >= NOTES_MAX || l->notes_bytes + n > NOTES_BYTES) {
        if (l->notes_dropped++ == 0)
            l->notes_dropped_line = line;
        return;
    }
    l->notes = xmem_realloc(l->notes, (size_t)(l->n_notes + 1) * sizeof *l->notes);
    l->notes[l->n_notes++] = (LessonNote){l->note_page, line > 0 ? line : 0, xmem_strdup(shown)};
    l->notes_bytes += n;
}

/* A note made while the file loaded belongs to the page whose lines hold
 * its call, else to the lesson. */
static void notes_place(Lesson *l)
{
    for (int i = 0; i < l->n_notes; i++) {
        for (int p = 0; l->notes[i].page < 0 && p < l->n_pages; p++) {
            int from, to;
            page_range(l, p, &from, &to);
            bool known = l->n_page_starts == l->n_pages || l->n_kind_lines == l->n_pages;
            if (known && l->notes[i].line >= from && l->notes[i].line < to)
                l->notes[i].page = p;
        }
    }
}

int lesson_note_count(const Lesson *l)
{
    return l ? l->n_notes : 0;
}

const char *lesson_note(const Lesson *l, int i, int *page, int *line)
{
    bool in = l && i >= 0 && i < l->n_notes;
    if (page)
        *page = in ? l->notes[i].page : -1;
    if (line)
        *line = in ? l->notes[i].line : 0;
    return in ? l->notes[i].text : "";
}

int lesson_notes_dropped(const Lesson *l)
{
    return l ? l->notes_dropped : 0;
}

/* ---- reading the lesson table (inside sandbox_protect) --------------------- */

typedef struct {
    Lesson *l;
    int page;     /* page being read, -1 for the lesson's own fields */
    int from, to; /* its source lines */
} ReadCtx;

/* An unknown field (the field sink while pages are read): a problem at the
 * field's line, with the name it was probably meant to be. */
static void field_unknown(void *ctx, const char *what, const char *key, const char *near,
                          const char *const *known)
{
    ReadCtx *c = ctx;
    Lesson *l = c->l;
    char path[256] = "";
    path_of(what, strlen(what), path, sizeof path);
    size_t used = strlen(path);
    snprintf(path + used, sizeof path - used, "%s%s", used ? "." : "", key);
    int line = field_line(l, c->from, c->to, path);
    if (!line)
        line = c->page >= 0 ? l->pages[c->page].line : c->from;
    if (near) {
        problem_add(&l->problems, "%s:%d: %s: unknown field '%s': did you mean '%s'?",
                    sandbox_name(l->sb), line, what, key, near);
        return;
    }
    char *list = strbuf_join(lesson_api_known_count(known), lesson_api_known_at, known);
    problem_add(&l->problems, "%s:%d: %s: unknown field '%s' (known: %s)", sandbox_name(l->sb),
                line, what, key, list);
    free(list);
}

/* Whether msg holds word as a whole word ('word', goal.word, word). */
static bool holds_word(const char *msg, const char *word, size_t n)
{
    for (const char *m = strstr(msg, word); m; m = strstr(m + 1, word))
        if ((m == msg || !ident_char(m[-1])) && !ident_char(m[n]))
            return true;
    return false;
}

/* Whether a problem from index first on suggested a name that msg names:
 * msg then follows from that typo ("'cluster' is missing" after "'clustr':
 * did you mean 'cluster'?"). */
static bool page_meant(const Lesson *l, int first, const char *msg)
{
    static const char mark[] = "did you mean '";
    for (int i = first; i < l->problems.n; i++) {
        const char *m = strstr(l->problems.lines[i], mark);
        if (!m)
            continue;
        char word[72];
        m += sizeof mark - 1;
        size_t n = strcspn(m, "'");
        if (n == 0 || n > 64)
            continue;
        snprintf(word, sizeof word, "%.*s", (int)n, m);
        if (holds_word(msg, word, n))
            return true;
    }
    return false;
}

/* The lesson table sits at index 1 of the loader's stack frame? No: it is
 * kept in the registry under this key between calls. */
static const char LESSON_KEY[] = "scalelab.lesson";
static const char GOALS_KEY[] = "scalelab.goals";
static const char DEBRIEFS_KEY[] = "scalelab.debriefs";

/* Copies the string on top of the stack out of Lua (not popped). Every
 * string a lesson hands to C passes here: NUL bytes are refused, and the
 * bytes count against the file's total (sandbox_copy_charge), so a huge
 * string reused on many pages cannot grow scalelab's memory. Raises
 * before allocating anything. */
static char *take_string(lua_State *L, const char *what, const char *k)
{
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (strlen(s) != len)
        sandbox_error(L, "%s: '%s' contains a NUL byte", what, k);
    if (!sandbox_copy_charge(sandbox_of(L), len + 1))
        sandbox_error(L,
                      "%s: '%s': the lesson's texts pass %d MB in all, the most scalelab "
                      "reads from one lesson",
                      what, k, (int)(sandbox_limits_default().copy_bytes >> 20));
    return xmem_strdup(s);
}

/* The length of the list at idx, refused outside 0..max: a __len
 * metamethod may return anything, a negative number included. */
static lua_Integer list_len(lua_State *L, int idx, const char *what, const char *k,
                            lua_Integer max)
{
    lua_len(L, idx);
    int isnum;
    lua_Integer n = lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || n < 0 || n > max)
        sandbox_error(L, "%s: '%s' must be a list of at most %I entries (its length is %s)", what,
                      k, max, isnum ? "out of range" : "not a whole number");
    return n;
}

static char *dup_field(lua_State *L, int idx, const char *k, const char *what, bool required)
{
    int t = lua_getfield(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        if (required)
            sandbox_error(L, "%s: '%s' is missing", what, k);
        return NULL;
    }
    if (t != LUA_TSTRING) {
        lua_pop(L, 1);
        sandbox_error(L, "%s: '%s' must be a string, not a %s", what, k, lua_typename(L, t));
    }
    char *copy = take_string(L, what, k);
    lua_pop(L, 1);
    return copy;
}

/* Reads an array of strings at field k into *out (hung on the page first,
 * so a later error frees it with the lesson). */
static void read_strings(lua_State *L, int idx, const char *k, const char *what, char ***out,
                         int *n)
{
    int t = lua_getfield(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE)
        sandbox_error(L, "%s: '%s' must be a list of strings", what, k);
    lua_Integer len = list_len(L, -1, what, k, MAX_ITEMS);
    *out = xmem_calloc((size_t)len + 1, sizeof **out);
    for (lua_Integer i = 1; i <= len; i++) {
        if (lua_geti(L, -1, i) != LUA_TSTRING)
            sandbox_error(L, "%s: %s[%I] must be a string", what, k, i);
        (*out)[i - 1] = take_string(L, what, k);
        *n = (int)i;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* A number at field k into *out; false when the field is nil. */
static bool num_field(lua_State *L, int idx, const char *k, const char *what, double *out)
{
    int t = lua_getfield(L, idx, k);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    if (t != LUA_TNUMBER)
        sandbox_error(L, "%s: '%s' must be a number (got %s)", what, k, lua_typename(L, t));
    *out = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!isfinite(*out))
        sandbox_error(L, "%s: '%s' must be a finite number", what, k);
    return true;
}

/* A boolean at field k (nil is false). */
static bool bool_field(lua_State *L, int idx, const char *k, const char *what)
{
    int t = lua_getfield(L, idx, k);
    if (t != LUA_TNIL && t != LUA_TBOOLEAN)
        sandbox_error(L, "%s: '%s' must be true or false", what, k);
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

static void read_view(lua_State *L, int idx, const char *what, Page *p)
{
    char buf[32] = "rack";
    if (lua_getfield(L, idx, "view") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TSTRING)
            sandbox_error(L, "%s: 'view' must be a string", what);
        snprintf(buf, sizeof buf, "%s", lua_tostring(L, -1));
    }
    lua_pop(L, 1);
    if (strcmp(buf, "rack") == 0)
        p->view = PAGE_VIEW_RACK;
    else if (strcmp(buf, "fabric") == 0)
        p->view = PAGE_VIEW_FABRIC;
    else if (strcmp(buf, "bar") == 0)
        p->view = PAGE_VIEW_BAR;
    else if (strcmp(buf, "chart") == 0)
        p->view = PAGE_VIEW_CHART;
    else
        sandbox_error(L, "%s: unknown view '%s' (rack, fabric, bar or chart)", what, buf);
}

/* cluster/workload/mapping of the table at idx into side `side`. */
static void read_setup(lua_State *L, int idx, int wl_idx, const char *what, Page *p, int side,
                       bool need_workload)
{
    char name[96];
    lua_getfield(L, idx, "cluster");
    if (lua_isnil(L, -1))
        sandbox_error(L, "%s: 'cluster' is missing", what);
    snprintf(name, sizeof name, "%s.cluster", what);
    lesson_api_cluster(L, -1, name, &p->cluster[side]);
    lua_pop(L, 1);
    p->has_cluster = true;
    bool has_wl = lua_getfield(L, wl_idx, "workload") != LUA_TNIL;
    if (side == 0) {
        if (!has_wl && need_workload)
            sandbox_error(L, "%s: 'workload' is missing", what);
        snprintf(name, sizeof name, "%s.workload", what);
        lesson_api_workload(L, -1, name, &p->workload);
    }
    lua_pop(L, 1);
    bool has_map = lua_getfield(L, idx, "mapping") != LUA_TNIL;
    snprintf(name, sizeof name, "%s.mapping", what);
    if (!has_wl && !has_map && !need_workload) {
        p->mapping[side] = job_mapping_default();
        p->mapping[side].dp = p->cluster[side].n_gpus;
    } else {
        lesson_api_mapping(L, -1, name, &p->cluster[side], &p->workload, &p->mapping[side]);
        if (side == 0) /* the page's one workload runs as its first job says */
            job_framework(&p->workload, &p->cluster[0], p->mapping[0].zero, p->mapping[0].pp);
    }
    lua_pop(L, 1);
}

static unsigned read_allow(lua_State *L, int idx, const char *what)
{
    int t = lua_getfield(L, idx, "allow");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return SCN_ALLOW_LESSON_DEFAULT;
    }
    if (t != LUA_TTABLE)
        sandbox_error(L, "%s: 'allow' must be a list like { \"move\", \"degrees\" }", what);
    static const struct {
        const char *name;
        unsigned bit;
    } names[] = {{"move", SCN_ALLOW_MOVE},
                 {"degrees", SCN_ALLOW_DEGREES},
                 {"micro", SCN_ALLOW_MICRO},
                 {"domain", SCN_ALLOW_DOMAIN},
                 {"system", SCN_ALLOW_SYSTEM},
                 {"search", SCN_ALLOW_SEARCH},
                 {"groups", SCN_ALLOW_GROUPS},
                 {"tp groups", SCN_ALLOW_GROUPS | SCN_ALLOW_GROUP_DIM(DIM_TP)},
                 {"pp groups", SCN_ALLOW_GROUPS | SCN_ALLOW_GROUP_DIM(DIM_PP)},
                 {"dp groups", SCN_ALLOW_GROUPS | SCN_ALLOW_GROUP_DIM(DIM_DP)},
                 {"ep groups", SCN_ALLOW_GROUPS | SCN_ALLOW_GROUP_DIM(DIM_EP)}};
    unsigned allow = 0;
    lua_Integer len = list_len(L, -1, what, "allow", MAX_ITEMS);
    for (lua_Integer i = 1; i <= len; i++) {
        const char *s = lua_geti(L, -1, i) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        unsigned bit = 0;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strcmp(s, names[k].name) == 0)
                bit = names[k].bit;
        const char *names_only[sizeof names / sizeof names[0] + 1];
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            names_only[k] = names[k].name;
        names_only[sizeof names / sizeof names[0]] = NULL;
        const char *near = bit ? NULL : names_nearest(s, names_only);
        if (near)
            sandbox_error(L, "%s: allow[%I] = '%s': did you mean '%s'?", what, i, s, near);
        if (!bit)
            sandbox_error(L,
                          "%s: allow[%I] = '%s' is not one of move, groups, tp groups, pp "
                          "groups, dp groups, ep groups, degrees, micro, domain, system, search",
                          what, i, s);
        allow |= bit;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return allow;
}

/* debrief = "text" or debrief = function(r) return "text" end. */
static void read_debrief(lua_State *L, int idx, const char *what, Page *p, int page)
{
    if (lua_getfield(L, idx, "debrief") != LUA_TFUNCTION) {
        lua_pop(L, 1);
        p->debrief = dup_field(L, idx, "debrief", what, false);
        return;
    }
    lua_Debug ar;
    lua_pushvalue(L, -1);
    p->debrief_line = lua_getinfo(L, ">S", &ar) && ar.linedefined > 0 ? ar.linedefined : p->line;
    lua_getfield(L, LUA_REGISTRYINDEX, DEBRIEFS_KEY);
    lua_insert(L, -2);
    lua_rawseti(L, -2, page + 1);
    lua_pop(L, 1);
    p->debrief_fn = true;
}

/* The fields each table of a page may have: anything else is a typo. */
#define TARGET_FIELDS "step_s", "tokens_per_s", "power_w", "mem_per_gpu_bytes", "token_s"
static const char *const target_fields[] = {TARGET_FIELDS, NULL};
static const char *const goal_fields[] = {"text", "check", "target", TARGET_FIELDS, NULL};
#define PAGE_FIELDS "kind", "title", "text", "steps"
static const char *const page_known[][20] = {
    [PAGE_TEXT] = {PAGE_FIELDS, NULL},
    [PAGE_DIAGRAM] = {PAGE_FIELDS, "view", "cluster", "workload", "mapping", "chart", NULL},
    [PAGE_SCENARIO] = {PAGE_FIELDS, "cluster", "workload", "mapping", "start", "allow", "predict",
                       "goal", "hints", "debrief", "solution", "par", "serve", NULL},
    [PAGE_QUIZ] = {PAGE_FIELDS, "choices", "calc", NULL},
    [PAGE_COMPARE] = {PAGE_FIELDS, "workload", "left", "right", NULL},
    [PAGE_PREDICT] = {PAGE_FIELDS, "question", "unit", "answer", "tolerance", "terms", "slips",
                      "formula", NULL},
};

/* goal.target = { step_s =, tokens_per_s =, power_w =, mem_per_gpu_bytes =,
 * token_s = },
 * or the same keys in the goal table g itself. */
static void read_target(lua_State *L, int g, const char *what, Page *p)
{
    char tw[48];
    bool nested = lua_getfield(L, g, "target") == LUA_TTABLE;
    if (!nested && !lua_isnil(L, -1))
        sandbox_error(L, "%s: goal.target must be a table like { step_s = 2.5 }", what);
    int t = nested ? lua_gettop(L) : g;
    snprintf(tw, sizeof tw, "%s.goal%s", what, nested ? ".target" : "");
    if (nested)
        lesson_api_check_known(L, t, tw, target_fields);
    LessonTarget *x = &p->target;
    num_field(L, t, "step_s", tw, &x->step_s);
    num_field(L, t, "tokens_per_s", tw, &x->tokens_per_s);
    num_field(L, t, "power_w", tw, &x->power_w);
    num_field(L, t, "mem_per_gpu_bytes", tw, &x->mem_per_gpu_bytes);
    num_field(L, t, "token_s", tw, &x->token_s);
    if (x->step_s < 0 || x->tokens_per_s < 0 || x->power_w < 0 || x->mem_per_gpu_bytes < 0 ||
        x->token_s < 0)
        sandbox_error(L, "%s: target values must be above 0", tw);
    lua_pop(L, 1);
}

/* predict = { at = "group", ask = "change" }: the learner predicts what the
 * first move of that kind will do before the screen shows it. */
static void read_guess(lua_State *L, int idx, const char *what, Page *p)
{
    int t = lua_getfield(L, idx, "predict");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE)
        sandbox_error(L, "%s: 'predict' must be a table { at = \"group\", ask = \"change\" }",
                      what);
    int g = lua_gettop(L);
    static const char *const known[] = {"at", "ask", NULL};
    char gw[48];
    snprintf(gw, sizeof gw, "%s.predict", what);
    lesson_api_check_known(L, g, gw, known);
    char *at = dup_field(L, g, "at", gw, false);
    char *ask = dup_field(L, g, "ask", gw, false);
    GuessSpec spec = {GUESS_AT_ANY, GUESS_CHANGE};
    bool ok_at = !at || guess_at_parse(at, &spec.at),
         ok_ask = !ask || guess_ask_parse(ask, &spec.ask);
    free(at);
    free(ask);
    if (!ok_at)
        sandbox_error(L,
                      "%s: predict.at must be one of any, group, swap, degree, micro, domain, "
                      "system",
                      what);
    if (!ok_ask)
        sandbox_error(L,
                      "%s: predict.ask must be \"change\" (faster or slower, by how much) or "
                      "\"part\" (which part of the bar changes most)",
                      what);
    lua_pop(L, 1);
    p->has_guess = true;
    p->guess = spec;
}

/* serve = { batch = 8, context = 4096 }: the scenario is judged as serving
 * (serve.h) with that many sequences per replica and tokens of context. */
static void read_serve(lua_State *L, int idx, const char *what, Page *p)
{
    int t = lua_getfield(L, idx, "serve");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE)
        sandbox_error(L, "%s: 'serve' must be a table { batch = 8, context = 4096 }", what);
    int g = lua_gettop(L);
    static const char *const known[] = {"batch", "context", NULL};
    char sw[48];
    snprintf(sw, sizeof sw, "%s.serve", what);
    lesson_api_check_known(L, g, sw, known);
    double batch = 1, context = p->workload.seq;
    num_field(L, g, "batch", sw, &batch);
    num_field(L, g, "context", sw, &context);
    if (batch != floor(batch) || batch < 1 || batch > 1e6 || context != floor(context) ||
        context < 1 || context > 1e8)
        sandbox_error(L, "%s: serve.batch and serve.context must be whole numbers of at least 1",
                      what);
    lua_pop(L, 1);
    p->serving = true;
    p->load = (ServeLoad){(int)batch, (int)context};
}

static void read_scenario(lua_State *L, int idx, const char *what, Lesson *l, int page)
{
    Page *p = &l->pages[page];
    read_setup(L, idx, idx, what, p, 0, true);
    /* A scenario keeps an explicit placement: starting it costs O(GPUs),
     * about 0.5 s per million, so it is bounded here. */
    if (p->cluster[0].n_gpus > SCENARIO_MAX_GPUS)
        sandbox_error(L,
                      "%s.cluster: %d GPUs is too many for a scenario (at most %d); show "
                      "bigger clusters on a diagram or compare page",
                      what, p->cluster[0].n_gpus, SCENARIO_MAX_GPUS);
    p->allow = read_allow(L, idx, what);
    read_strings(L, idx, "start", what, &p->start, &p->n_start);
    read_strings(L, idx, "hints", what, &p->hints, &p->n_hints);
    read_strings(L, idx, "solution", what, &p->solution, &p->n_solution);
    double par = 0;
    if (num_field(L, idx, "par", what, &par) && (par != floor(par) || par < 1 || par > MAX_ITEMS))
        sandbox_error(L, "%s: 'par' must be a whole number of moves (1 to %d)", what, MAX_ITEMS);
    p->par = (int)par;
    read_guess(L, idx, what, p);
    read_serve(L, idx, what, p);
    read_debrief(L, idx, what, p, page);
    if (lua_getfield(L, idx, "goal") != LUA_TTABLE)
        sandbox_error(L,
                      "%s: 'goal' must be a table { text = \"...\", check = function(r) ... "
                      "end }",
                      what);
    int g = lua_gettop(L);
    char gw[48];
    snprintf(gw, sizeof gw, "%s.goal", what);
    lesson_api_check_known(L, g, gw, goal_fields);
    p->goal_text = dup_field(L, g, "text", gw, true);
    read_target(L, g, what, p);
    if (lua_getfield(L, g, "check") != LUA_TFUNCTION)
        sandbox_error(L,
                      "%s: goal.check must be a function(r) returning true when the goal is "
                      "met",
                      what);
    lua_Debug ar;
    lua_pushvalue(L, -1);
    if (lua_getinfo(L, ">S", &ar) && ar.linedefined > 0)
        p->goal_line = ar.linedefined;
    else
        p->goal_line = p->line;
    lua_getfield(L, LUA_REGISTRYINDEX, GOALS_KEY);
    lua_insert(L, -2);
    lua_rawseti(L, -2, page + 1);
    lua_pop(L, 2);
    p->has_goal = true;
}

static void read_quiz(lua_State *L, int idx, const char *what, Page *p)
{
    if (lua_getfield(L, idx, "choices") != LUA_TTABLE)
        sandbox_error(L, "%s: 'choices' must be a list of { text =, correct =, explain = }", what);
    lua_Integer len = list_len(L, -1, what, "choices", MAX_ITEMS);
    if (len < 2)
        sandbox_error(L, "%s: a quiz needs 2 to %d choices (has %I)", what, MAX_ITEMS, len);
    p->choices = xmem_calloc((size_t)len, sizeof *p->choices);
    int n_correct = 0;
    for (lua_Integer i = 1; i <= len; i++) {
        char cw[64];
        snprintf(cw, sizeof cw, "%s: choices[%d]", what, (int)i);
        if (lua_geti(L, -1, i) != LUA_TTABLE)
            sandbox_error(L, "%s must be a table { text =, correct =, explain = }", cw);
        int c = lua_gettop(L);
        static const char *const known[] = {"text", "correct", "explain", NULL};
        lesson_api_check_known(L, c, cw, known);
        QuizChoice *q = &p->choices[i - 1];
        q->text = dup_field(L, c, "text", cw, true);
        p->n_choices = (int)i;
        q->explain = dup_field(L, c, "explain", cw, true);
        int t = lua_getfield(L, c, "correct");
        if (t != LUA_TNIL && t != LUA_TBOOLEAN)
            sandbox_error(L, "%s: 'correct' must be true or false", cw);
        q->correct = lua_toboolean(L, -1);
        n_correct += q->correct;
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
    if (n_correct == 0)
        sandbox_error(L, "%s: no choice is marked correct = true", what);
    p->calc = bool_field(L, idx, "calc", what);
}

/* terms = { { name = "latency", value = 2e-6 }, ... } */
static void read_terms(lua_State *L, int idx, const char *what, Page *p)
{
    int t = lua_getfield(L, idx, "terms");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE)
        sandbox_error(L, "%s: 'terms' must be a list of { name =, value = }", what);
    lua_Integer len = luaL_len(L, -1);
    if (len > MAX_ITEMS)
        sandbox_error(L, "%s: 'terms' has %I entries (at most %d)", what, len, MAX_ITEMS);
    p->terms = xmem_calloc((size_t)len + 1, sizeof *p->terms);
    for (lua_Integer i = 1; i <= len; i++) {
        char tw[64];
        snprintf(tw, sizeof tw, "%s: terms[%d]", what, (int)i);
        if (lua_geti(L, -1, i) != LUA_TTABLE)
            sandbox_error(L, "%s must be a table { name = \"latency\", value = 2e-6 }", tw);
        int c = lua_gettop(L);
        static const char *const known[] = {"name", "value", NULL};
        lesson_api_check_known(L, c, tw, known);
        p->terms[i - 1].name = dup_field(L, c, "name", tw, true);
        p->n_terms = (int)i;
        if (!num_field(L, c, "value", tw, &p->terms[i - 1].value))
            sandbox_error(L, "%s: 'value' is missing", tw);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* One entry of slips: a name in the list ("bits") or a count by name
 * (per_rack = 72). Key at -2, value at -1. */
static void read_slip(lua_State *L, const char *what, Page *p)
{
    static const char known[] = "\"bits\", \"directions\", \"fp32\", \"complement\", "
                                "per_server = N, per_rack = N";
    bool keyed = lua_type(L, -2) == LUA_TSTRING;
    if (!keyed && lua_type(L, -1) != LUA_TSTRING)
        sandbox_error(L, "%s: 'slips' holds names and counts: { %s }", what, known);
    const char *name = lua_tostring(L, keyed ? -2 : -1);
    int k = predict_slip_find(name);
    if (k < 0) {
        static const char *const names[] = {"bits",       "directions", "fp32", "complement",
                                            "per_server", "per_rack",   NULL};
        const char *near = names_nearest(name, names);
        if (near)
            sandbox_error(L, "%s: unknown slip '%s': did you mean '%s'?", what, name, near);
        sandbox_error(L, "%s: unknown slip '%s' (slips = { %s })", what, name, known);
    }
    bool count = predict_slip_takes_count((PredictSlipKind)k);
    if (count != keyed)
        sandbox_error(L,
                      count ? "%s: slip '%s' takes the GPUs of one: %s = 8"
                            : "%s: slip '%s' goes in the list: slips = { \"%s\" }",
                      what, name, name);
    double factor = 0;
    if (count && (!lua_isinteger(L, -1) || (factor = (double)lua_tointeger(L, -1)) < 2))
        sandbox_error(L, "%s: '%s' must be a whole number of GPUs, 2 or more", what, name);
    for (int i = 0; i < p->n_slips; i++)
        if (p->slips[i].kind == (PredictSlipKind)k)
            sandbox_error(L, "%s: slip '%s' is named twice", what, name);
    if (p->n_slips >= PREDICT_MAX_SLIPS)
        sandbox_error(L, "%s: 'slips' names at most %d slips", what, PREDICT_MAX_SLIPS);
    p->slips[p->n_slips++] = (PredictSlip){(PredictSlipKind)k, factor};
}

/* slips = { "bits", "directions", "fp32", per_server = 8, per_rack = 72 }:
 * what the question involves, so a miss can name the slip. Kept in kind
 * order, whatever order the table gives. */
static void read_slips(lua_State *L, int idx, const char *what, Page *p)
{
    int t = lua_getfield(L, idx, "slips");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (t != LUA_TTABLE)
        sandbox_error(L, "%s: 'slips' must be a table such as { \"bits\", per_rack = 72 }", what);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        read_slip(L, what, p);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    for (int i = 1; i < p->n_slips; i++) /* insertion sort by kind: at most 8 */
        for (int j = i; j > 0 && p->slips[j].kind < p->slips[j - 1].kind; j--) {
            PredictSlip tmp = p->slips[j];
            p->slips[j] = p->slips[j - 1];
            p->slips[j - 1] = tmp;
        }
}

static void read_predict(lua_State *L, int idx, const char *what, Page *p)
{
    p->question = dup_field(L, idx, "question", what, true);
    p->formula = dup_field(L, idx, "formula", what, false);
    p->unit = dup_field(L, idx, "unit", what, true);
    if (!predict_unit_known(p->unit, NULL)) {
        char u[40];
        snprintf(u, sizeof u, "%s", p->unit);
        sandbox_error(L, "%s: unit '%s' is not one of s, B, B/s, b/s, FLOP/s, FLOP, W or \"\"",
                      what, u);
    }
    if (!num_field(L, idx, "answer", what, &p->answer))
        sandbox_error(L, "%s: 'answer' is missing (a number in base units, from the model)", what);
    num_field(L, idx, "tolerance", what, &p->tolerance);
    if (lua_getfield(L, idx, "tolerance") != LUA_TNIL && p->tolerance == 0)
        sandbox_error(L, "%s: 'tolerance' must be a fraction in (0, 1], e.g. 0.2 for 20%%", what);
    lua_pop(L, 1);
    read_terms(L, idx, what, p);
    read_slips(L, idx, what, p);
    PredictSpec spec;
    lesson_predict_spec_of(p, &spec);
    char why[MSG_LEN];
    if (!predict_spec_check(&spec, why, sizeof why))
        sandbox_error(L, "%s: %s", what, why);
}

static void read_chart(lua_State *L, int idx, const char *what, Page *p)
{
    if (lua_getfield(L, idx, "chart") != LUA_TTABLE)
        sandbox_error(L, "%s: a chart view needs chart = { x = \"tp\", values = {1, 2, 4} }",
                      what);
    int c = lua_gettop(L);
    static const char *const known[] = {"x", "values", NULL};
    char cw[48];
    snprintf(cw, sizeof cw, "%s.chart", what);
    lesson_api_check_known(L, c, cw, known);
    char *x = dup_field(L, c, "x", cw, true);
    snprintf(p->chart_x, sizeof p->chart_x, "%s", x);
    free(x);
    static const char *const xs[] = {"tp", "pp", "dp", "ep", "cp", "mb", "domain", "gpus", NULL};
    bool ok = false;
    for (int i = 0; xs[i]; i++)
        ok = ok || strcmp(p->chart_x, xs[i]) == 0;
    if (!ok)
        sandbox_error(L, "%s: chart.x '%s' is not one of tp, pp, dp, ep, cp, mb, domain, gpus",
                      what, p->chart_x);
    if (lua_getfield(L, c, "values") != LUA_TTABLE)
        sandbox_error(L, "%s: chart.values must be a list of numbers", what);
    lua_Integer len = list_len(L, -1, what, "chart.values", LESSON_CHART_MAX_POINTS);
    if (len < 1)
        sandbox_error(L, "%s: chart.values needs 1 to %d numbers", what, LESSON_CHART_MAX_POINTS);
    for (lua_Integer i = 1; i <= len; i++) {
        int isnum;
        lua_geti(L, -1, i);
        p->chart_values[i - 1] = lua_tonumberx(L, -1, &isnum);
        if (!isnum || !isfinite(p->chart_values[i - 1]))
            sandbox_error(L, "%s: chart.values[%I] is not a finite number", what, i);
        lua_pop(L, 1);
    }
    p->chart_n = (int)len;
    lua_pop(L, 2);
}

/* Presenter steps. A scenario page lists moves (steps = { "swap 3 12" });
 * any other page names how its text appears: steps = "lines" (each
 * non-blank line) or "paragraphs" (runs of non-blank lines), split here so
 * every step is a piece of the page's text, in order. */
static void read_steps(lua_State *L, int idx, const char *what, Page *p)
{
    int t = lua_getfield(L, idx, "steps");
    lua_pop(L, 1);
    if (t == LUA_TNIL)
        return;
    if (p->kind == PAGE_SCENARIO) {
        if (t != LUA_TTABLE)
            sandbox_error(
                L, "%s: a scenario's 'steps' must be a list of moves like { \"swap 3 12\" }",
                what);
        read_strings(L, idx, "steps", what, &p->steps, &p->n_steps);
        return;
    }
    char *mode = t == LUA_TSTRING ? dup_field(L, idx, "steps", what, false) : NULL;
    bool lines = mode && strcmp(mode, "lines") == 0;
    bool paras = mode && strcmp(mode, "paragraphs") == 0;
    free(mode);
    if (!lines && !paras)
        sandbox_error(L,
                      "%s: 'steps' must be \"lines\" or \"paragraphs\" (a list of moves only "
                      "on a scenario page)",
                      what);
    const char *s = p->text ? p->text : "";
    p->steps = xmem_calloc(MAX_ITEMS + 1, sizeof *p->steps);
    while (*s) {
        while (*s == '\n' || *s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        const char *e = s;
        for (;;) {
            const char *nl = strchr(e, '\n');
            if (!nl) {
                e += strlen(e);
                break;
            }
            const char *after = nl + 1;
            while (*after == ' ' || *after == '\t')
                after++;
            e = nl;
            if (lines || *after == '\n' || !*after)
                break;
            e = nl + 1;
        }
        size_t len = (size_t)(e - s);
        while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        if (p->n_steps == MAX_ITEMS)
            sandbox_error(L, "%s: 'steps' makes more than %d pieces", what, MAX_ITEMS);
        char *piece = xmem_calloc(len + 1, 1);
        memcpy(piece, s, len);
        p->steps[p->n_steps++] = piece;
        s = e;
    }
}

static int read_page(lua_State *L)
{
    ReadCtx *ctx = lua_touserdata(L, 1);
    Lesson *l = ctx->l;
    int page = ctx->page;
    Page *p = &l->pages[page];
    char what[32];
    snprintf(what, sizeof what, "pages[%d]", page + 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LESSON_KEY);
    lua_getfield(L, -1, "pages");
    if (lua_geti(L, -1, page + 1) != LUA_TTABLE)
        return luaL_error(L,
                          "%s must be a table with kind = \"text\" (or diagram, scenario, "
                          "quiz, compare, predict)",
                          what);
    int idx = lua_gettop(L);
    char *kind = dup_field(L, idx, "kind", what, true);
    static const struct {
        const char *name;
        PageKind kind;
    } kinds[] = {{"text", PAGE_TEXT}, {"diagram", PAGE_DIAGRAM}, {"scenario", PAGE_SCENARIO},
                 {"quiz", PAGE_QUIZ}, {"compare", PAGE_COMPARE}, {"predict", PAGE_PREDICT}};
    int found = -1;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kind, kinds[i].name) == 0)
            found = (int)i;
    if (found < 0) {
        char copy[40];
        snprintf(copy, sizeof copy, "%s", kind);
        free(kind);
        return luaL_error(L,
                          "%s: unknown kind '%s' (text, diagram, scenario, quiz, "
                          "compare or predict)",
                          what, copy);
    }
    free(kind);
    p->kind = kinds[found].kind;
    lesson_api_check_known(L, idx, what, page_known[p->kind]);
    p->title = dup_field(L, idx, "title", what, true);
    p->text = dup_field(L, idx, "text", what,
                        p->kind == PAGE_TEXT || p->kind == PAGE_QUIZ || p->kind == PAGE_PREDICT);
    switch (p->kind) {
    case PAGE_TEXT:
        break;
    case PAGE_DIAGRAM:
        read_view(L, idx, what, p);
        read_setup(L, idx, idx, what, p, 0,
                   p->view == PAGE_VIEW_BAR || p->view == PAGE_VIEW_CHART);
        if (p->view == PAGE_VIEW_CHART)
            read_chart(L, idx, what, p);
        break;
    case PAGE_SCENARIO:
        read_scenario(L, idx, what, l, page);
        break;
    case PAGE_QUIZ:
        read_quiz(L, idx, what, p);
        break;
    case PAGE_PREDICT:
        read_predict(L, idx, what, p);
        break;
    case PAGE_COMPARE: {
        p->view = PAGE_VIEW_BAR;
        const char *sides[2] = {"left", "right"};
        for (int s = 0; s < 2; s++) {
            char sw[48];
            snprintf(sw, sizeof sw, "%s.%s", what, sides[s]);
            if (lua_getfield(L, idx, sides[s]) != LUA_TTABLE)
                return luaL_error(L,
                                  "%s: '%s' must be a table { label =, cluster =, "
                                  "mapping = }",
                                  what, sides[s]);
            static const char *const known[] = {"label", "cluster", "mapping", NULL};
            lesson_api_check_known(L, -1, sw, known);
            char *label = dup_field(L, -1, "label", sw, true);
            snprintf(p->label[s], sizeof p->label[s], "%s", label);
            free(label);
            read_setup(L, lua_gettop(L), idx, sw, p, s, true);
            lua_pop(L, 1);
        }
        break;
    }
    }
    read_steps(L, idx, what, p);
    lua_pop(L, 3);
    return 0;
}

static int int_field(lua_State *L, int idx, const char *k)
{
    int isnum = 1;
    int t = lua_getfield(L, idx, k);
    lua_Integer v = t == LUA_TNIL ? 0 : lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (t != LUA_TNIL && t != LUA_TNUMBER)
        sandbox_error(L, "lesson: '%s' must be a whole number, not a %s", k, lua_typename(L, t));
    if (!isnum || v < -1000000 || v > 1000000)
        sandbox_error(L, "lesson: '%s' must be a whole number", k);
    return (int)v;
}

static int read_header(lua_State *L)
{
    ReadCtx *ctx = lua_touserdata(L, 1);
    Lesson *l = ctx->l;
    lua_getfield(L, LUA_REGISTRYINDEX, LESSON_KEY);
    int idx = lua_gettop(L);
    if (lua_type(L, idx) != LUA_TTABLE)
        return luaL_error(L,
                          "the file must return a table { id =, title =, pages = {...} } "
                          "(it returned %s)",
                          luaL_typename(L, idx));
    /* A missing id or title is reported without stopping, so the pages
     * are still checked. */
    static const char *const known[] = {"id",    "title",   "summary", "track",
                                        "order", "minutes", "pages",   NULL};
    lesson_api_check_known(L, idx, "lesson", known);
    l->id = dup_field(L, idx, "id", "lesson", false);
    if (!l->id || !l->id[0]) {
        problem_add(&l->problems,
                    "%s:%d: lesson: 'id' is missing (a unique name like "
                    "\"two-ways-to-grow\")",
                    sandbox_name(l->sb), l->return_line);
        free(l->id);
        l->id = xmem_strdup("");
    }
    for (const char *c = l->id; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
            return luaL_error(L, "lesson: id '%s' may use only a-z, 0-9 and '-'", l->id);
    l->title = dup_field(L, idx, "title", "lesson", false);
    if (!l->title) {
        problem_add(&l->problems, "%s:%d: lesson: 'title' is missing", sandbox_name(l->sb),
                    l->return_line);
        l->title = xmem_strdup("");
    }
    l->summary = dup_field(L, idx, "summary", "lesson", false);
    l->track = dup_field(L, idx, "track", "lesson", false);
    if (!l->summary)
        l->summary = xmem_strdup("");
    if (!l->track)
        l->track = xmem_strdup("");
    l->order = int_field(L, idx, "order");
    l->minutes = int_field(L, idx, "minutes");
    if (lua_getfield(L, idx, "pages") != LUA_TTABLE)
        return luaL_error(L, "lesson: 'pages' must be a list of pages");
    lua_Integer n = list_len(L, -1, "lesson", "pages", MAX_PAGES);
    if (n < 1)
        return luaL_error(L, "lesson: needs 1 to %d pages (has %I)", MAX_PAGES, n);
    l->pages = xmem_calloc((size_t)n, sizeof *l->pages);
    l->n_pages = (int)n;
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, GOALS_KEY);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, DEBRIEFS_KEY);
    lua_pop(L, 2);
    return 0;
}

/* Opens the API and meters its C functions like the Lua library's. */
static int open_api(lua_State *L)
{
    lesson_api_open(L);
    lua_pushglobaltable(L);
    if (lua_getfield(L, -1, "scalelab") == LUA_TTABLE) {
        sandbox_meter_table(L, -1, "scalelab");
        if (lua_getfield(L, -1, "units") == LUA_TTABLE)
            sandbox_meter_table(L, -1, "scalelab.units");
    }
    return 0;
}

static int keep_lesson(lua_State *L)
{
    lua_settop(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, LESSON_KEY);
    return 0;
}

/* Reads the lesson in text (the file at path) under lim and collects its
 * problems; returns the Lesson even when it has problems (l->problems.n >
 * 0), with its pages read as far as they could be. */
static Lesson *lesson_read(const char *path, const char *text, size_t len,
                           const SandboxLimits *lim)
{
    Lesson *l = xmem_calloc(1, sizeof *l);
    l->path = xmem_strdup(path ? path : "");
    l->sb = sandbox_new(l->path, lim);
    if (!l->sb) {
        problem_add(&l->problems, "%s:1: cannot create a Lua state", l->path);
        return l;
    }
    char err[MSG_LEN];
    lua_State *L = sandbox_state(l->sb);
    if (!sandbox_protect(l->sb, open_api, NULL, err, sizeof err)) {
        problem_add(&l->problems, "%s", err);
        return l;
    }
    l->note_page = -1;
    l->note_sink = (LessonNoteSink){note_add, l};
    lesson_api_set_note_sink(L, &l->note_sink);
    if (!sandbox_run_string(l->sb, text, len, err, sizeof err)) {
        problem_add(&l->problems, "%s", err);
        return l;
    }
    lua_pushcfunction(L, keep_lesson);
    lua_insert(L, -2);
    if (!sandbox_call(l->sb, 1, 0, err, sizeof err)) {
        problem_add(&l->problems, "%s", err);
        return l;
    }
    scan_lines(l);
    ReadCtx ctx = {.l = l, .page = -1, .from = l->return_line, .to = header_end(l)};
    LessonFieldSink sink = {field_unknown, &ctx};
    lesson_api_set_field_sink(L, &sink);
    bool header = sandbox_protect(l->sb, read_header, &ctx, err, sizeof err);
    notes_place(l);
    if (!header)
        problem_from_err(l, refine_line(l, ctx.from, ctx.to, err), err);
    problems_sort(l, 0);
    if (!header) {
        lesson_api_set_field_sink(L, NULL);
        return l;
    }
    for (int i = 0; i < l->n_pages; i++) {
        l->pages[i].line = page_range(l, i, &ctx.from, &ctx.to);
        ctx.page = i;
        int before = l->problems.n;
        if (!sandbox_protect(l->sb, read_page, &ctx, err, sizeof err)) {
            /* "'cluster' is missing" after "'clustr': did you mean 'cluster'?" says nothing new */
            if (!page_meant(l, before, err))
                problem_from_err(l, refine_line(l, ctx.from, ctx.to, err), err);
        } else
            l->pages[i].ok = true;
        problems_sort(l, before);
    }
    lesson_api_set_field_sink(L, NULL);
    return l;
}

Lesson *lesson_read_text(const char *path, const char *text, size_t len, bool quick)
{
    SandboxLimits lim = quick ? sandbox_limits_catalog() : sandbox_limits_default();
    Lesson *l = lesson_read(path, text, len, &lim);
    /* Loading runs on one budget; after it, each goal check (a learner's
     * move) gets its own, so a long session never runs dry. `check` and
     * the catalog keep the one budget. */
    l->renew_goals = !quick;
    l->quick = quick;
    return l;
}

int lesson_problem_count(const Lesson *l)
{
    return l ? l->problems.n : 0;
}

const char *lesson_problem(const Lesson *l, int i)
{
    return l && i >= 0 && i < l->problems.n ? l->problems.lines[i] : "";
}

Lesson *lesson_load_local(const char *path, bool quick, char *err, size_t err_len)
{
    char name[256];
    lesson_shown_name(path, name, sizeof name);
    size_t len;
    char *text =
        sandbox_read_file(name, path, sandbox_limits_default().file_bytes, &len, err, err_len);
    if (!text)
        return NULL;
    Lesson *l = lesson_read_text(path, text, len, quick);
    free(text);
    if (l->problems.n > 0) {
        msg_set(err, err_len, "%s", l->problems.lines[0]);
        lesson_free(l);
        return NULL;
    }
    return l;
}

void lesson_shown_name(const char *path, char *buf, size_t n)
{
    const char *p = path ? path : "lesson";
    escape_text(p, strlen(p), buf, n);
}

bool lesson_is_local(const Lesson *l)
{
    return l && l->sb;
}

/* ---- accessors ------------------------------------------------------------- */

static const Page *page_at(const Lesson *l, int page)
{
    return l && page >= 0 && page < l->n_pages ? &l->pages[page] : NULL;
}

const char *lesson_path(const Lesson *l)
{
    return l ? l->path : "";
}
const char *lesson_id(const Lesson *l)
{
    return l && l->id ? l->id : "";
}
const char *lesson_title(const Lesson *l)
{
    return l && l->title ? l->title : "";
}
const char *lesson_summary(const Lesson *l)
{
    return l && l->summary ? l->summary : "";
}
const char *lesson_track(const Lesson *l)
{
    return l && l->track ? l->track : "";
}
int lesson_order(const Lesson *l)
{
    return l ? l->order : 0;
}
int lesson_minutes(const Lesson *l)
{
    return l ? l->minutes : 0;
}
int lesson_page_count(const Lesson *l)
{
    return l ? l->n_pages : 0;
}

PageKind lesson_page_kind(const Lesson *l, int page)
{
    const Page *p = page_at(l, page);
    return p ? p->kind : PAGE_TEXT;
}

const char *lesson_page_title(const Lesson *l, int page)
{
    const Page *p = page_at(l, page);
    return p && p->title ? p->title : "";
}

const char *lesson_page_text(const Lesson *l, int page)
{
    const Page *p = page_at(l, page);
    return p && p->text ? p->text : "";
}

int lesson_stack_local(const Lesson *l)
{
    return l && l->sb ? lua_gettop(sandbox_state(l->sb)) : -1;
}

int lesson_page_line(const Lesson *l, int page)
{
    const Page *p = page_at(l, page);
    return p ? p->line : 0;
}

bool lesson_page_diagram(const Lesson *l, int page, int side, LessonDiagram *out, char *err,
                         size_t err_len)
{
    const Page *p = page_at(l, page);
    if (!p || !out || !p->has_cluster || side < 0 || side > 1 ||
        (side == 1 && p->kind != PAGE_COMPARE)) {
        if (err && err_len)
            msg_set(err, err_len, "%s: page %d has no diagram side %d", lesson_path(l), page + 1,
                    side);
        return false;
    }
    memset(out, 0, sizeof *out);
    out->view = p->view;
    out->cluster = p->cluster[side];
    out->workload = p->workload;
    out->mapping = p->mapping[side];
    out->placement = NULL;
    snprintf(out->label, sizeof out->label, "%s", p->label[side]);
    return true;
}

int lesson_page_chart(const Lesson *l, int page, char *x, size_t x_len, double *values, int max)
{
    const Page *p = page_at(l, page);
    if (!p || p->chart_n == 0)
        return 0;
    if (x && x_len)
        snprintf(x, x_len, "%s", p->chart_x);
    int n = p->chart_n < max ? p->chart_n : max;
    for (int i = 0; values && i < n; i++)
        values[i] = p->chart_values[i];
    return n;
}

static const Page *scenario_page(const Lesson *l, int page)
{
    const Page *p = page_at(l, page);
    return p && p->kind == PAGE_SCENARIO && p->has_goal ? p : NULL;
}

Scenario *lesson_scenario_start(const Lesson *l, int page, char *err, size_t err_len)
{
    const Page *p = scenario_page(l, page);
    char why[MSG_LEN];
    if (!p) {
        if (err && err_len)
            msg_set(err, err_len, "%s: page %d is not a scenario", lesson_path(l), page + 1);
        return NULL;
    }
    Scenario *s = scenario_new(&p->cluster[0], &p->workload, &p->mapping[0], NULL, SCN_ALLOW_ALL,
                               why, sizeof why);
    if (!s) {
        if (err && err_len)
            msg_set(err, err_len, "%s:%d: the starting scenario is not legal: %s", lesson_path(l),
                    p->line, why);
        return NULL;
    }
    for (int i = 0; i < p->n_start; i++) {
        if (!scenario_apply_text(s, p->start[i], why, sizeof why)) {
            if (err && err_len)
                msg_set(err, err_len, "%s:%d: start move %d '%s': %s", lesson_path(l), p->line,
                        i + 1, p->start[i], why);
            scenario_free(s);
            return NULL;
        }
    }
    /* The start moves are part of the setting: make them the new start. */
    Scenario *fresh = scenario_new(scenario_cluster(s), scenario_workload(s), scenario_mapping(s),
                                   scenario_placement(s), p->allow, why, sizeof why);
    scenario_free(s);
    if (fresh && p->serving && !scenario_set_serving(fresh, p->load, why, sizeof why)) {
        scenario_free(fresh);
        fresh = NULL;
    }
    if (!fresh && err && err_len)
        msg_set(err, err_len, "%s:%d: the starting scenario is not legal: %s", lesson_path(l),
                p->line, why);
    return fresh;
}

const char *lesson_scenario_goal_text(const Lesson *l, int page)
{
    const Page *p = scenario_page(l, page);
    return p && p->goal_text ? p->goal_text : "";
}

int lesson_scenario_hint_count(const Lesson *l, int page)
{
    const Page *p = scenario_page(l, page);
    return p ? p->n_hints : 0;
}

const char *lesson_scenario_hint(const Lesson *l, int page, int i)
{
    const Page *p = scenario_page(l, page);
    return p && i >= 0 && i < p->n_hints ? p->hints[i] : "";
}

const char *lesson_scenario_debrief(const Lesson *l, int page)
{
    const Page *p = scenario_page(l, page);
    return p && p->debrief ? p->debrief : "";
}

int lesson_scenario_solution_count(const Lesson *l, int page)
{
    const Page *p = scenario_page(l, page);
    return p ? p->n_solution : 0;
}

int lesson_page_step_count(const Lesson *l, int page)
{
    const Page *p = page_at(l, page);
    return p ? p->n_steps : 0;
}

const char *lesson_page_step(const Lesson *l, int page, int i)
{
    const Page *p = page_at(l, page);
    return p && i >= 0 && i < p->n_steps ? p->steps[i] : "";
}

const char *lesson_scenario_solution_move(const Lesson *l, int page, int i)
{
    const Page *p = scenario_page(l, page);
    return p && i >= 0 && i < p->n_solution ? p->solution[i] : "";
}

void lesson_state_of(const Scenario *s, LessonState *st)
{
    memset(st, 0, sizeof *st);
    st->r = *scenario_result(s);
    st->c = *scenario_cluster(s);
    st->m = *scenario_mapping(s);
    st->mb = scenario_workload(s)->micro_batch;
    const StepResult *start = scenario_start_result(s);
    st->has_start = start != NULL;
    if (start)
        st->start = *start;
    const ServeResult *serve = scenario_serve(s), *serve_start = scenario_serve_start(s);
    st->serving = serve && serve_start;
    if (st->serving) {
        st->serve = *serve;
        st->serve_start = *serve_start;
    }
}

/* The goal's r table for the state st (lesson_api_push_result), with
 * .serve and .start.serve for a serving scenario (lesson_api_push_serve). */
static void push_state(lua_State *L, const LessonState *st)
{
    lesson_api_push_result(L, &st->r, &st->c, &st->m, st->mb, st->has_start ? &st->start : NULL);
    if (!st->serving)
        return;
    lesson_api_push_serve(L, &st->serve, "r.serve");
    lua_setfield(L, -2, "serve");
    if (lua_getfield(L, -1, "start") == LUA_TTABLE) {
        lesson_api_push_serve(L, &st->serve_start, "r.start.serve");
        lua_setfield(L, -2, "serve");
    }
    lua_pop(L, 1);
}

typedef struct {
    int page;
    const LessonState *st;
} GoalCtx;

/* A goal's or debrief's error as "FILE:LINE: page N goal: message": the
 * line Lua names where it has one, else the function's own, so an author
 * sees both where the error is and which page ran it. */
static void call_error(const Lesson *l, const char *e, int page, const char *what, int line,
                       char *err, size_t err_len)
{
    if (!err || !err_len)
        return;
    const char *name = sandbox_name(l->sb);
    size_t n = strlen(name);
    const char *rest = e;
    if (strncmp(e, name, n) == 0 && e[n] == ':') {
        const char *d = e + n + 1;
        char *end;
        long at = strtol(d, &end, 10);
        if (end > d && isdigit((unsigned char)*d) && end[0] == ':' && end[1] == ' ' && at > 0 &&
            at <= INT_MAX)
            line = (int)at, rest = end + 2;
        else if (*d == ' ')
            rest = d + 1;
    }
    msg_set(err, err_len, "%s:%d: page %d %s: %s", name, line, page + 1, what, rest);
}

/* Runs in the sandbox: builds r and calls the goal; returns (met, why). */
static int run_goal(lua_State *L)
{
    GoalCtx *g = lua_touserdata(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, GOALS_KEY);
    lua_rawgeti(L, -1, g->page + 1);
    push_state(L, g->st);
    lua_call(L, 1, 2);
    return 2;
}

bool lesson_page_has_goal(const Lesson *l, int page)
{
    return scenario_page(l, page) != NULL;
}

int lesson_goal_local(Lesson *l, int page, const LessonState *st, char *why, size_t why_len,
                      char *err, size_t err_len)
{
    if (why && why_len)
        why[0] = '\0';
    const Page *p = scenario_page(l, page);
    if (!p || !st || !l->sb) {
        if (err && err_len)
            msg_set(err, err_len, "%s: page %d is not a scenario", lesson_path(l), page + 1);
        return -1;
    }
    lua_State *L = sandbox_state(l->sb);
    int top = lua_gettop(L);
    if (l->renew_goals)
        sandbox_renew(l->sb);
    GoalCtx g = {.page = page, .st = st};
    char e[MSG_LEN];
    lua_pushcfunction(L, run_goal);
    lua_pushlightuserdata(L, &g);
    l->note_page = page;
    bool ran = sandbox_call(l->sb, 1, 2, e, sizeof e);
    l->note_page = -1;
    if (!ran) {
        call_error(l, e, page, "goal", p->goal_line, err, err_len);
        lua_settop(L, top);
        return -1;
    }
    int met = lua_toboolean(L, -2);
    if (!met && why && why_len && lua_type(L, -1) == LUA_TSTRING) {
        size_t len;
        const char *r = lua_tolstring(L, -1, &len);
        escape_text(r, len, why, why_len);
    }
    lua_settop(L, top);
    return met;
}

bool lesson_scenario_guess(const Lesson *l, int page, GuessSpec *out)
{
    const Page *p = scenario_page(l, page);
    if (!p || !p->has_guess)
        return false;
    if (out)
        *out = p->guess;
    return true;
}

bool lesson_scenario_serve(const Lesson *l, int page, ServeLoad *out)
{
    const Page *p = scenario_page(l, page);
    if (!p || !p->serving)
        return false;
    if (out)
        *out = p->load;
    return true;
}

int lesson_scenario_par(const Lesson *l, int page)
{
    const Page *p = scenario_page(l, page);
    return p ? p->par : 0;
}

bool lesson_scenario_target(const Lesson *l, int page, LessonTarget *out)
{
    const Page *p = scenario_page(l, page);
    if (out)
        *out = p ? p->target : (LessonTarget){0};
    return p && (p->target.step_s > 0 || p->target.tokens_per_s > 0 || p->target.power_w > 0 ||
                 p->target.mem_per_gpu_bytes > 0 || p->target.token_s > 0);
}

typedef struct {
    int page, par;
    const LessonState *st;
    const LessonPlay *play;
} DebriefCtx;

/* Runs in the sandbox: debrief(r) with r as the goal sees it plus what the
 * learner did; returns the text. */
static int run_debrief(lua_State *L)
{
    DebriefCtx *d = lua_touserdata(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, DEBRIEFS_KEY);
    lua_rawgeti(L, -1, d->page + 1);
    push_state(L, d->st);
    lua_pushinteger(L, d->play->moves);
    lua_setfield(L, -2, "moves");
    lua_pushinteger(L, d->par);
    lua_setfield(L, -2, "par");
    lua_pushinteger(L, d->play->hints);
    lua_setfield(L, -2, "hints");
    lua_pushboolean(L, d->play->used_search);
    lua_setfield(L, -2, "search");
    lua_call(L, 1, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
        return luaL_error(L, "debrief must return a string (got %s)", luaL_typename(L, -1));
    return 1;
}

/* "12 key presses, par 8: over par by 4." (moves counts key presses). */
void lesson_debrief_line(const Lesson *l, int page, const LessonPlay *play, char *buf, size_t n)
{
    const Page *p = scenario_page(l, page);
    int par = p ? p->par : 0;
    int len, k = play->moves;
    const char *presses = k == 1 ? "key press" : "key presses";
    if (par > 0 && k == par)
        len = snprintf(buf, n, "%d %s: on par.", k, presses);
    else if (par > 0 && k > par)
        len = snprintf(buf, n, "%d %s, par %d: over par by %d.", k, presses, par, k - par);
    else if (par > 0)
        len = snprintf(buf, n, "%d %s, par %d: you beat par by %d!", k, presses, par, par - k);
    else
        len = snprintf(buf, n, "%d %s.", k, presses);
    if (play->used_search && len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, " You used search to find it.");
}

/* The text a debrief function returned, as markup: newlines kept, other
 * control characters made blanks, cut to fit. */
void lesson_text_copy(const char *r, size_t len, char *out, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < n; i++) {
        unsigned char c = (unsigned char)r[i];
        out[o++] = (c < 0x20 && c != '\n') || c == 0x7f ? ' ' : (char)c;
    }
    out[o] = '\0';
}

bool lesson_debrief_local(Lesson *l, int page, const LessonState *st, const LessonPlay *play,
                          char *out, size_t out_len, char *err, size_t err_len)
{
    if (!out || out_len == 0)
        return false;
    out[0] = '\0';
    const Page *p = scenario_page(l, page);
    LessonPlay none = {0};
    if (!play)
        play = &none;
    if (!p || !st || !l->sb) {
        if (err && err_len)
            msg_set(err, err_len, "%s: page %d is not a scenario", lesson_path(l), page + 1);
        return false;
    }
    char line[200], text[MSG_LEN * 2] = "";
    lesson_debrief_line(l, page, play, line, sizeof line);
    bool ok = true;
    if (p->debrief_fn) {
        lua_State *L = sandbox_state(l->sb);
        int top = lua_gettop(L);
        DebriefCtx d = {.page = page, .par = p->par, .st = st, .play = play};
        char e[MSG_LEN];
        lua_pushcfunction(L, run_debrief);
        lua_pushlightuserdata(L, &d);
        l->note_page = page;
        bool ran = sandbox_call(l->sb, 1, 1, e, sizeof e);
        l->note_page = -1;
        if (ran) {
            size_t len;
            const char *r = lua_tolstring(L, -1, &len);
            lesson_text_copy(r, len, text, sizeof text);
        } else {
            call_error(l, e, page, "debrief", p->debrief_line, err, err_len);
            ok = false;
        }
        lua_settop(L, top);
    } else if (p->debrief) {
        snprintf(text, sizeof text, "%s", p->debrief);
    }
    snprintf(out, out_len, "%s%s%s", line, text[0] ? " " : "", text);
    return ok;
}

int lesson_quiz_choice_count(const Lesson *l, int page)
{
    const Page *p = page_at(l, page);
    return p && p->kind == PAGE_QUIZ ? p->n_choices : 0;
}

const char *lesson_quiz_choice(const Lesson *l, int page, int i)
{
    const Page *p = page_at(l, page);
    return p && p->kind == PAGE_QUIZ && i >= 0 && i < p->n_choices && p->choices[i].text
               ? p->choices[i].text
               : "";
}

bool lesson_quiz_is_correct(const Lesson *l, int page, int i)
{
    const Page *p = page_at(l, page);
    return p && p->kind == PAGE_QUIZ && i >= 0 && i < p->n_choices && p->choices[i].correct;
}

const char *lesson_quiz_explanation(const Lesson *l, int page, int i)
{
    const Page *p = page_at(l, page);
    return p && p->kind == PAGE_QUIZ && i >= 0 && i < p->n_choices && p->choices[i].explain
               ? p->choices[i].explain
               : "";
}

bool lesson_quiz_is_calc(const Lesson *l, int page)
{
    const Page *p = page_at(l, page);
    return p && p->kind == PAGE_QUIZ && p->calc;
}

int lesson_quiz_order(const Lesson *l, int page, uint64_t seed, int *order, int max)
{
    const Page *p = page_at(l, page);
    if (!p || p->kind != PAGE_QUIZ || !order || max < p->n_choices)
        return 0;
    quiz_order(seed, lesson_id(l), page, p->n_choices, order);
    return p->n_choices;
}

static const Page *predict_page(const Lesson *l, int page)
{
    const Page *p = page_at(l, page);
    return p && p->kind == PAGE_PREDICT ? p : NULL;
}

const char *lesson_predict_question(const Lesson *l, int page)
{
    const Page *p = predict_page(l, page);
    return p && p->question ? p->question : "";
}

const char *lesson_predict_formula(const Lesson *l, int page)
{
    const Page *p = predict_page(l, page);
    return p && p->formula ? p->formula : "";
}

bool lesson_predict_spec(const Lesson *l, int page, PredictSpec *out)
{
    const Page *p = predict_page(l, page);
    if (!p || !out)
        return false;
    lesson_predict_spec_of(p, out);
    return true;
}

/* ---- check ------------------------------------------------------------- */

/* The presenter's steps must play from the start, one after another. */
static void check_steps(Lesson *l, int page)
{
    Page *p = &l->pages[page];
    char err[MSG_LEN], why[MSG_LEN];
    Scenario *s = lesson_scenario_start(l, page, err, sizeof err);
    for (int i = 0; s && i < p->n_steps; i++)
        if (!scenario_apply_text(s, p->steps[i], why, sizeof why)) {
            problem_add(&l->problems, "%s:%d: step %d '%s': %s", l->path, p->line, i + 1,
                        p->steps[i], why);
            break;
        }
    scenario_free(s);
}

/* par, when given, is the key presses of the reference solution as the
 * keys type it, and a scenario worth a par needs at least two. */
static void check_par(Lesson *l, int page, int presses)
{
    Page *p = &l->pages[page];
    if (p->par == 0)
        return;
    int from, to;
    page_range(l, page, &from, &to);
    int line = field_line(l, from, to, "par");
    if (!line)
        line = p->line;
    if (p->par < 2)
        problem_add(&l->problems,
                    "%s:%d: par = %d: a scenario needs at least two key presses that interact",
                    l->path, line, p->par);
    else if (p->par != presses)
        problem_add(&l->problems,
                    "%s:%d: par = %d but the reference solution takes %d key press%s to type",
                    l->path, line, p->par, presses, presses == 1 ? "" : "es");
}

GuessAt lesson_move_kind(const char *move)
{
    static const struct {
        const char *verb;
        GuessAt at;
    } kinds[] = {{"group", GUESS_AT_GROUP},  {"swap", GUESS_AT_SWAP}, {"tp", GUESS_AT_DEGREE},
                 {"pp", GUESS_AT_DEGREE},    {"dp", GUESS_AT_DEGREE}, {"ep", GUESS_AT_DEGREE},
                 {"cp", GUESS_AT_DEGREE},    {"mb", GUESS_AT_MICRO},  {"domain", GUESS_AT_DOMAIN},
                 {"system", GUESS_AT_SYSTEM}};
    char verb[16] = "";
    sscanf(move ? move : "", "%15s", verb);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(verb, kinds[i].verb) == 0)
            return kinds[i].at;
    return GUESS_AT_ANY;
}

/* A debrief function must run on the solved state and return text. */
static void check_debrief(Lesson *l, int page, const Scenario *s)
{
    Page *p = &l->pages[page];
    if (!p->debrief_fn)
        return;
    char out[MSG_LEN * 2], err[MSG_LEN] = "";
    LessonPlay play = {.moves = p->par};
    if (!lesson_scenario_debrief_for(l, page, s, &play, out, sizeof out, err, sizeof err))
        problem_add(&l->problems, "%s", err);
}

/* Whether a problem of page already said "did you mean 'name'?". */
static bool page_suggested(const Lesson *l, int page, const char *name)
{
    char at[32], meant[96];
    snprintf(at, sizeof at, ": pages[%d]", page + 1);
    snprintf(meant, sizeof meant, "did you mean '%s'?", name);
    for (int i = 0; i < l->problems.n; i++)
        if (strstr(l->problems.lines[i], at) && strstr(l->problems.lines[i], meant))
            return true;
    return false;
}

/* "the goal is already met at the start": with what the start reaches and
 * what the goal asks, so the author sees which of the two to change. */
static void already_met(Lesson *l, int page, const Scenario *s)
{
    const Page *p = &l->pages[page];
    char at[160], want[200] = "", a[32], b[32];
    const ServeResult *serve = scenario_serve(s);
    const StepResult *r = scenario_result(s);
    if (serve)
        snprintf(at, sizeof at, "%s per token, %s",
                 units_format(UNITS_TIME, serve->token_s, false, a, sizeof a),
                 serve->fits ? "fits" : "does not fit");
    else
        snprintf(at, sizeof at, "step %s, %s",
                 units_format(UNITS_TIME, r->step_s, false, a, sizeof a),
                 r->fits ? "fits" : "does not fit");
    const LessonTarget *t = &p->target;
    struct {
        const char *name;
        double v;
        UnitsKind kind;
    } ts[] = {{"step_s", t->step_s, UNITS_TIME},
              {"tokens_per_s", t->tokens_per_s, UNITS_COUNT},
              {"power_w", t->power_w, UNITS_POWER},
              {"mem_per_gpu_bytes", t->mem_per_gpu_bytes, UNITS_BYTES},
              {"token_s", t->token_s, UNITS_TIME}};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        if (!(ts[i].v > 0))
            continue;
        size_t used = strlen(want);
        snprintf(want + used, sizeof want - used, "%s%s %s", used ? ", " : "; target ", ts[i].name,
                 units_format(ts[i].kind, ts[i].v, false, b, sizeof b));
    }
    problem_add(&l->problems,
                "%s:%d: the goal is already met at the start (%s): goal \"%s\"%s; change the "
                "start (mapping, cluster, start moves) or the goal",
                l->path, p->goal_line, at, p->goal_text ? p->goal_text : "", want);
}

static void check_scenario(Lesson *l, int page)
{
    Page *p = &l->pages[page];
    char err[MSG_LEN], why[MSG_LEN];
    Scenario *s = lesson_scenario_start(l, page, err, sizeof err);
    if (!s) {
        problem_add(&l->problems, "%s", err);
        return;
    }
    if (p->n_steps > 0)
        check_steps(l, page);
    int met = lesson_scenario_goal_met(l, page, s, why, sizeof why, err, sizeof err);
    if (met < 0) {
        problem_add(&l->problems, "%s", err);
        scenario_free(s);
        return; /* the same error would come again after the solution */
    }
    if (met > 0)
        already_met(l, page, s);
    if (p->n_solution == 0) {
        if (!page_suggested(l, page, "solution"))
            problem_add(&l->problems,
                        "%s:%d: scenario has no reference solution (solution = "
                        "{ \"tp 8\", ... })",
                        l->path, p->line);
        scenario_free(s);
        return;
    }
    int presses = 0;
    bool guessed = !p->has_guess;
    for (int i = 0; i < p->n_solution; i++) {
        int typed;
        guessed = guessed || guess_at_matches(p->guess.at, lesson_move_kind(p->solution[i]));
        if (!scenario_type_text(s, p->solution[i], &typed, why, sizeof why)) {
            problem_add(&l->problems, "%s:%d: solution move %d '%s': %s", l->path, p->line, i + 1,
                        p->solution[i], why);
            scenario_free(s);
            return;
        }
        presses += typed;
    }
    check_par(l, page, presses);
    if (!guessed)
        problem_add(&l->problems,
                    "%s:%d: predict.at = \"%s\" but the reference solution makes no such move: "
                    "the learner who follows it is never asked",
                    l->path, p->line, guess_at_name(p->guess.at));
    met = lesson_scenario_goal_met(l, page, s, why, sizeof why, err, sizeof err);
    if (met < 0)
        problem_add(&l->problems, "%s", err);
    else if (met == 0)
        problem_add(&l->problems, "%s:%d: the reference solution does not meet the goal%s%s",
                    l->path, p->goal_line, why[0] ? ": " : "", why);
    else
        check_debrief(l, page, s);
    scenario_free(s);
}

static void check_diagram(Lesson *l, int page)
{
    Page *p = &l->pages[page];
    int sides = p->kind == PAGE_COMPARE ? 2 : 1;
    for (int s = 0; s < sides && p->has_cluster; s++) {
        if (p->view != PAGE_VIEW_BAR && p->view != PAGE_VIEW_CHART && p->kind != PAGE_COMPARE)
            continue;
        StepResult r;
        char why[MSG_LEN];
        if (step_eval(&p->cluster[s], &p->workload, &p->mapping[s], NULL, NULL, &r, why,
                      sizeof why) != STEP_OK)
            problem_add(&l->problems, "%s:%d: the model cannot evaluate this page: %s", l->path,
                        p->line, why);
    }
}

/* "FILE:LINE: page N: note" (or "lesson:" for a note outside the pages). */
void lesson_note_line(const Lesson *l, int i, char *buf, size_t n)
{
    int page, line;
    const char *text = lesson_note(l, i, &page, &line);
    char where[32] = "lesson";
    if (page >= 0)
        snprintf(where, sizeof where, "page %d", page + 1);
    snprintf(buf, n, "%s:%d: %s: %s", l->sb ? sandbox_name(l->sb) : l->path, line, where, text);
}

int lesson_check_local(const char *path, const char *text, size_t len, LessonReportFn report,
                       LessonReportFn note, void *ctx, char *id, size_t id_len)
{
    SandboxLimits lim = sandbox_limits_default();
    Lesson *l = lesson_read(path, text, len, &lim);
    for (int i = 0; i < l->n_pages; i++) {
        if (!l->pages[i].ok)
            continue;
        /* The model's work for the pages runs on the file's clock too. */
        if (sandbox_seconds_left(l->sb) < 0) {
            problem_add(&l->problems, "%s:%d: time limit reached (%.2g s for the whole file)",
                        l->path, l->pages[i].line, lim.seconds);
            break;
        }
        if (l->pages[i].kind == PAGE_SCENARIO)
            check_scenario(l, i);
        else if (l->pages[i].kind == PAGE_DIAGRAM || l->pages[i].kind == PAGE_COMPARE)
            check_diagram(l, i);
    }
    int n = l->problems.n;
    for (int i = 0; report && i < n; i++)
        report(ctx, l->problems.lines[i]);
    for (int i = 0; note && i < l->n_notes; i++) {
        char line[NOTE_MAX_BYTES * 4 + 300];
        lesson_note_line(l, i, line, sizeof line);
        note(ctx, line);
    }
    if (note && l->notes_dropped) {
        char line[300];
        snprintf(line, sizeof line, "%s:%d: lesson: %d more notes not kept (at most %d, %d KB)",
                 l->path, l->notes_dropped_line, l->notes_dropped, NOTES_MAX, NOTES_BYTES >> 10);
        note(ctx, line);
    }
    if (id && id_len)
        snprintf(id, id_len, "%s", n == 0 && l->id ? l->id : "");
    lesson_free(l);
    return n;
}

/* ---- across the lesson host (lesson_local.h) --------------------------------- */

void lesson_to_wire(const Lesson *l, Wire *w)
{
    wire_put_struct(w, l, lesson_fields, WIRE_N(lesson_fields));
}

/* The mapping a page without one gets (read_setup): every GPU in
 * DP, unchecked, since a diagram of the machine needs no batch that
 * divides. */
static bool mapping_is_default(const Mapping *m, const Cluster *c)
{
    Mapping d = job_mapping_default();
    d.dp = c->n_gpus;
    return memcmp(m, &d, sizeof d) == 0;
}

/* What the readers above guarantee of a page that loaded, and the wire
 * cannot say by ranges alone: checked again in scalelab for a page that
 * came from the lesson host, so no page it sends can make scalelab's own
 * code fail. False with why. */
static bool page_arrived(const Page *p, char *why, size_t n)
{
    if (!p->ok || !p->title)
        return msg_fail(why, n, "a page that did not load");
    int sides = p->kind == PAGE_COMPARE ? 2 : 1;
    bool needs_cluster =
        p->kind == PAGE_DIAGRAM || p->kind == PAGE_SCENARIO || p->kind == PAGE_COMPARE;
    if (needs_cluster != p->has_cluster)
        return msg_fail(why, n, "a page with a cluster where none belongs, or none");
    for (int s = 0; p->has_cluster && s < sides; s++) {
        char e[MSG_LEN];
        if (!p->cluster[s].system_id[0] || !p->workload.id[0])
            return msg_fail(why, n, "a page without its cluster or workload");
        if (!mapping_is_default(&p->mapping[s], &p->cluster[s]) &&
            !mapping_check(&p->mapping[s], &p->cluster[s], &p->workload, e, sizeof e))
            return msg_fail(why, n, "a mapping that does not fit: %s", e);
    }
    if (p->kind == PAGE_SCENARIO &&
        (!p->has_goal || !p->goal_text || p->cluster[0].n_gpus > SCENARIO_MAX_GPUS))
        return msg_fail(why, n, "a scenario without its goal or too large");
    if (p->serving != (p->load.batch >= 1 && p->load.context >= 1))
        return msg_fail(why, n, "a serving load without its batch or context");
    if (p->kind == PAGE_PREDICT) {
        PredictSpec spec;
        char e[MSG_LEN];
        lesson_predict_spec_of(p, &spec);
        if (!p->question || !p->unit || !predict_unit_known(p->unit, NULL) ||
            !predict_spec_check(&spec, e, sizeof e))
            return msg_fail(why, n, "a predict page that does not check");
    }
    return true;
}

Lesson *lesson_from_wire(const char *path, WireIn *r, char *why, size_t n)
{
    Lesson *l = xmem_calloc(1, sizeof *l);
    l->path = xmem_strdup(path ? path : "");
    char e[MSG_LEN] = "";
    bool ok = wire_get_struct(r, l, lesson_fields, WIRE_N(lesson_fields));
    if (!ok)
        msg_set(e, sizeof e, "%s", r->why);
    else if (r->left != 0)
        ok = msg_fail(e, sizeof e, "bytes after the lesson");
    else if (l->n_pages < 1 || !l->id || !l->id[0] || !l->title || !l->summary || !l->track)
        ok = msg_fail(e, sizeof e, "a lesson without its header");
    for (const char *c = ok && l->id ? l->id : ""; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
            ok = msg_fail(e, sizeof e, "an id with characters ids may not hold");
    for (int i = 0; ok && i < l->n_pages; i++)
        ok = page_arrived(&l->pages[i], e, sizeof e);
    if (!ok) {
        msg_set(why, n, "%s", e);
        lesson_free(l);
        return NULL;
    }
    return l;
}

bool lesson_same(const Lesson *a, const Lesson *b, char *why, size_t n)
{
    return wire_same_struct(a, b, sizeof *a, lesson_fields, WIRE_N(lesson_fields), why, n);
}

void lesson_attach_host(Lesson *l, Host *h, char *source, size_t len, bool quick)
{
    l->host = h;
    l->source = source;
    l->source_len = len;
    l->quick = quick;
}

Host *lesson_host(const Lesson *l)
{
    return l ? l->host : NULL;
}

void lesson_set_host(Lesson *l, Host *h)
{
    l->host = h;
}

const char *lesson_source(const Lesson *l, size_t *len)
{
    *len = l ? l->source_len : 0;
    return l ? l->source : NULL;
}

bool lesson_is_quick(const Lesson *l)
{
    return l && l->quick;
}
