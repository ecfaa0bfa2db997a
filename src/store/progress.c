/* SPDX-License-Identifier: MIT */
/* progress — the learner's record, kept as text lines and rewritten
 * atomically after every change.
 *
 * File format (version 3), one record per line, fields separated by spaces:
 *   scalelab-progress 3
 *   seed HEX                  (the learner's random seed: quiz orders)
 *   lesson ID new|started|done LAST_PAGE LAST_ACTIVE
 *   page ID PAGE HINTS MET(0|1) ANSWER(-1..) CORRECT(0|1) FIRST(-1|0|1) TRIES
 *        SEARCH(0|1) REVIEWS REVIEW_OK(0|1) MOVES
 * FIRST is the first try on a quiz or predict page (-1: not tried yet),
 * TRIES the tries counted there, SEARCH whether a scenario's search was
 * used, REVIEWS the times the page came up in a review and REVIEW_OK
 * whether the last one was right at once, MOVES the moves a scenario took
 * when its goal was met. LAST_ACTIVE is when the lesson last changed, in
 * seconds since 1970 (UTC; 0: not known). Version 1 files (no seed, page
 * lines of the first seven fields) and version 2 files (lesson lines
 * without LAST_ACTIVE) are read as they are and written back as version 3.
 *   practice KIND TRIED FIRST_TRY STREAK      (one per exercise kind)
 *   practice-level LEVEL
 * Any other line, a bad number or a missing header makes the file corrupt:
 * it is set aside under a name of its own ("<path>.corrupt-<time>-<n>",
 * store/aside.h) and the store starts empty; so is one found unreadable
 * when a save reads the file to merge it. Lesson ids
 * never contain white space (progress_id_ok refuses them).
 *
 * Safety: the file is read through file_read (regular files only, opened
 * non-blocking, so a FIFO in its place cannot stall start-up; at most
 * PROGRESS_MAX_BYTES); parsing is linear (lessons are found through a hash
 * index, pages per lesson are capped). Two windows may run at once: each
 * save takes an exclusive flock on "<path>.lock" (opened O_NOFOLLOW,
 * refused unless a regular file), merges what is on disk into memory
 * (status and page reached keep the furthest, hints the most, a met goal
 * stays met, an answer stays given) and then writes atomically, so neither
 * window loses the other's progress.
 */
#include "store/progress.h"

#include "base/file.h"
#include "base/msg.h"
#include "base/xdg.h"
#include "base/xmem.h"
#include "store/aside.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_HEADER    "scalelab-progress 3"
#define PROGRESS_HEADER_V2 "scalelab-progress 2"
#define PROGRESS_HEADER_V1 "scalelab-progress 1"
#define PROGRESS_LINE_MAX  512
/* Far above any real file (a line per lesson and page played: about 40
 * bytes each); a larger one was not written by scalelab. */
#define PROGRESS_MAX_BYTES   (1u << 20)
#define PROGRESS_MAX_LESSONS 4096 /* the menu lists at most 2,000 files */
#define PROGRESS_MAX_PAGES   256  /* a lesson has at most 200 pages */

typedef struct {
    int page;
    int hints;
    bool met;
    int answer;
    bool correct;
    int first; /* -1 not tried, 0 wrong, 1 right */
    int tries;
    bool search;
    int reviews;
    bool review_ok;
    int moves;
} PageRec;

typedef struct {
    char *id;
    ProgressStatus status;
    int page;
    PageRec *pages;
    int n_pages;
    long long active_s; /* last change, seconds since 1970 (0: not known) */
} LessonRec;

#define PROGRESS_PRACTICE_KINDS 8

typedef struct {
    char kind[24];
    ProgressPractice r;    /* as this window sees it */
    ProgressPractice base; /* as last read from or written to the file */
} PracticeRec;

struct Progress {
    char *path;
    uint64_t seed;
    PracticeRec practice[PROGRESS_PRACTICE_KINDS];
    int n_practice;
    int practice_level; /* 0 until practised */
    bool level_set;     /* this window practised since the last save */
    LessonRec *lessons;
    int n_lessons;
    int *index;           /* open-addressing hash of lesson ids: slot -> lesson + 1, 0 empty */
    int index_cap;        /* a power of two, at least twice n_lessons */
    char save_error[300]; /* last failed save, "" after a success */
    bool error_told;      /* save_error was handed out by progress_take_error */
};

static bool progress_id_ok(const char *id)
{
    if (!id || !*id || strlen(id) > 200)
        return false;
    for (const unsigned char *c = (const unsigned char *)id; *c; c++)
        if (*c <= ' ' || *c == 0x7f)
            return false;
    return true;
}

const char *progress_default_path(char *buf, size_t n)
{
    return xdg_path(XDG_STATE, "progress", buf, n);
}

static unsigned progress_hash(const char *id)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)id; *c; c++)
        h = (h ^ *c) * 16777619u;
    return h;
}

/* The index slot of id: where it is, or the empty slot where it would go. */
static int progress_slot(const Progress *p, const char *id)
{
    unsigned mask = (unsigned)p->index_cap - 1;
    unsigned i = progress_hash(id) & mask;
    while (p->index[i] && strcmp(p->lessons[p->index[i] - 1].id, id) != 0)
        i = (i + 1) & mask;
    return (int)i;
}

static void progress_reindex(Progress *p)
{
    int cap = 64;
    while (cap < 2 * (p->n_lessons + 1))
        cap *= 2;
    free(p->index);
    p->index = xmem_calloc((size_t)cap, sizeof *p->index);
    p->index_cap = cap;
    for (int i = 0; i < p->n_lessons; i++)
        p->index[progress_slot(p, p->lessons[i].id)] = i + 1;
}

static LessonRec *progress_find(const Progress *p, const char *id)
{
    if (!p || !id || !p->index)
        return NULL;
    int slot = p->index[progress_slot(p, id)];
    return slot ? &p->lessons[slot - 1] : NULL;
}

static LessonRec *progress_get(Progress *p, const char *id)
{
    LessonRec *l = progress_find(p, id);
    if (l)
        return l;
    p->lessons = xmem_realloc(p->lessons, sizeof *p->lessons * (size_t)(p->n_lessons + 1));
    l = &p->lessons[p->n_lessons++];
    memset(l, 0, sizeof *l);
    l->id = xmem_strdup(id);
    l->status = PROGRESS_NEW;
    if (2 * p->n_lessons >= p->index_cap)
        progress_reindex(p);
    else
        p->index[progress_slot(p, id)] = p->n_lessons;
    return l;
}

static PageRec *progress_page_find(const LessonRec *l, int page)
{
    if (!l)
        return NULL;
    for (int i = 0; i < l->n_pages; i++)
        if (l->pages[i].page == page)
            return &l->pages[i];
    return NULL;
}

static PageRec *progress_page_get(LessonRec *l, int page)
{
    PageRec *r = progress_page_find(l, page);
    if (r)
        return r;
    l->pages = xmem_realloc(l->pages, sizeof *l->pages * (size_t)(l->n_pages + 1));
    r = &l->pages[l->n_pages++];
    r->page = page;
    r->hints = 0;
    r->met = false;
    r->answer = -1;
    r->correct = false;
    r->first = -1;
    r->tries = 0;
    r->search = false;
    r->reviews = 0;
    r->review_ok = false;
    r->moves = 0;
    return r;
}

static void progress_clear(Progress *p)
{
    for (int i = 0; i < p->n_lessons; i++) {
        free(p->lessons[i].id);
        free(p->lessons[i].pages);
    }
    free(p->lessons);
    p->lessons = NULL;
    p->n_lessons = 0;
    free(p->index);
    p->index = NULL;
    p->index_cap = 0;
    p->n_practice = 0;
    p->practice_level = 0;
}

/* Parses a non-negative (or >= -1 when allow_minus) decimal int field. */
static bool progress_int(const char *s, int min, int *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno || v < min || v > 1000000)
        return false;
    *out = (int)v;
    return true;
}

/* The record of one practice kind, made when missing; NULL for a bad kind
 * name or when every slot is taken. */
static PracticeRec *progress_practice_get(Progress *p, const char *kind)
{
    for (int i = 0; i < p->n_practice; i++)
        if (strcmp(p->practice[i].kind, kind) == 0)
            return &p->practice[i];
    if (!progress_id_ok(kind) || strlen(kind) >= sizeof p->practice[0].kind ||
        p->n_practice >= PROGRESS_PRACTICE_KINDS)
        return NULL;
    PracticeRec *k = &p->practice[p->n_practice++];
    memset(k, 0, sizeof *k);
    snprintf(k->kind, sizeof k->kind, "%s", kind);
    return k;
}

/* The fields a version 2 page line adds after CORRECT (f[7..12]). */
static bool progress_parse_exercise(char **f, PageRec *r)
{
    int first, tries, search, reviews, review_ok, moves;
    if (!progress_int(f[0], -1, &first) || first > 1 || !progress_int(f[1], 0, &tries) ||
        !progress_int(f[2], 0, &search) || search > 1 || !progress_int(f[3], 0, &reviews) ||
        !progress_int(f[4], 0, &review_ok) || review_ok > 1 || !progress_int(f[5], 0, &moves))
        return false;
    r->first = first;
    r->tries = tries;
    r->search = search;
    r->reviews = reviews;
    r->review_ok = review_ok;
    r->moves = moves;
    return true;
}

/* "seed HEX": 1 to 16 hex digits. */
static bool progress_parse_seed(Progress *p, const char *hex)
{
    size_t n = strlen(hex);
    if (n == 0 || n > 16 || strspn(hex, "0123456789abcdef") != n)
        return false;
    p->seed = (uint64_t)strtoull(hex, NULL, 16);
    return true;
}

/* LAST_ACTIVE: seconds since 1970, 0 to 2^40 (far past any real date). */
static bool progress_parse_time(const char *s, long long *out)
{
    size_t n = strlen(s);
    if (n == 0 || n > 13 || strspn(s, "0123456789") != n)
        return false;
    *out = strtoll(s, NULL, 10);
    return *out <= (1LL << 40);
}

/* One line of a file of the given version; false when it does not parse. */
static bool progress_parse_line(Progress *p, char *line, int version)
{
    char *f[16];
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (n == 16)
            return false;
        f[n++] = t;
    }
    if (n == 0)
        return false;
    if (strcmp(f[0], "seed") == 0 && n == 2 && version >= 2)
        return progress_parse_seed(p, f[1]);
    if (strcmp(f[0], "lesson") == 0 && (n == 4 || (n == 5 && version >= 3))) {
        ProgressStatus st;
        int page;
        long long active_s = 0;
        if (strcmp(f[2], "new") == 0)
            st = PROGRESS_NEW;
        else if (strcmp(f[2], "started") == 0)
            st = PROGRESS_STARTED;
        else if (strcmp(f[2], "done") == 0)
            st = PROGRESS_DONE;
        else
            return false;
        if (!progress_id_ok(f[1]) || !progress_int(f[3], 0, &page) ||
            (n == 5 && !progress_parse_time(f[4], &active_s)) ||
            (!progress_find(p, f[1]) && p->n_lessons >= PROGRESS_MAX_LESSONS))
            return false;
        LessonRec *l = progress_get(p, f[1]);
        l->status = st;
        l->page = page;
        l->active_s = active_s;
        return true;
    }
    if (strcmp(f[0], "page") == 0 && (n == 7 || (n == 13 && version >= 2))) {
        int page, hints, met, answer, correct;
        if (!progress_id_ok(f[1]) || !progress_int(f[2], 0, &page) ||
            !progress_int(f[3], 0, &hints) || !progress_int(f[4], 0, &met) || met > 1 ||
            !progress_int(f[5], -1, &answer) || !progress_int(f[6], 0, &correct) || correct > 1 ||
            page >= PROGRESS_MAX_PAGES ||
            (!progress_find(p, f[1]) && p->n_lessons >= PROGRESS_MAX_LESSONS))
            return false;
        PageRec tmp = {.first = -1};
        if (n == 13 && !progress_parse_exercise(f + 7, &tmp))
            return false;
        PageRec *r = progress_page_get(progress_get(p, f[1]), page);
        tmp.page = r->page;
        tmp.hints = hints;
        tmp.met = met;
        tmp.answer = answer;
        tmp.correct = correct;
        /* version 1 kept only the last answer: the first try stays unknown (-1) */
        *r = tmp;
        return true;
    }
    if (strcmp(f[0], "practice") == 0 && n == 5) {
        ProgressPractice r;
        if (!progress_int(f[2], 0, &r.tried) || !progress_int(f[3], 0, &r.first_try) ||
            !progress_int(f[4], 0, &r.streak) || r.first_try > r.tried)
            return false;
        PracticeRec *k = progress_practice_get(p, f[1]);
        if (!k)
            return false;
        k->r = k->base = r;
        return true;
    }
    if (strcmp(f[0], "practice-level") == 0 && n == 2)
        return progress_int(f[1], 1, &p->practice_level) && p->practice_level <= 99;
    return false;
}

/* Parses the file's text (buf[len] is NUL) line by line into p. */
static bool progress_parse_text(Progress *p, char *buf, size_t len, char *why, size_t why_len)
{
    int lineno = 0, version = 0;
    for (size_t i = 0; i < len;) {
        char *line = buf + i;
        char *nl = memchr(line, '\n', len - i);
        size_t n = nl ? (size_t)(nl - line) : len - i;
        i += n + 1;
        line[n] = '\0';
        lineno++;
        if (n >= PROGRESS_LINE_MAX - 1 || strlen(line) != n) {
            msg_set(why, why_len, "line %d is too long", lineno);
            return false;
        }
        if (lineno == 1) {
            version = strcmp(line, PROGRESS_HEADER) == 0      ? 3
                      : strcmp(line, PROGRESS_HEADER_V2) == 0 ? 2
                      : strcmp(line, PROGRESS_HEADER_V1) == 0 ? 1
                                                              : 0;
            if (version == 0) {
                msg_set(why, why_len, "it does not start with '%s'", PROGRESS_HEADER);
                return false;
            }
        }
        if (lineno > 1 && !progress_parse_line(p, line, version)) {
            msg_set(why, why_len, "line %d does not parse", lineno);
            return false;
        }
    }
    if (lineno == 0) {
        msg_set(why, why_len, "it is empty");
        return false;
    }
    return true;
}

/* Reads the file into p. Returns 0 ok/missing, else writes why into why. */
static int progress_read(Progress *p, char *why, size_t why_len)
{
    size_t len;
    FileProblem fp;
    char *buf = file_read(p->path, PROGRESS_MAX_BYTES, &len, &fp);
    if (!buf) {
        if (fp.status == FILE_MISSING)
            return 0;
        file_problem_text(&fp, PROGRESS_MAX_BYTES, why, why_len);
        return -1;
    }
    int rc = progress_parse_text(p, buf, len, why, why_len) ? 0 : -1;
    free(buf);
    return rc;
}

static bool progress_mkdirs(const char *path, char *err, size_t err_len);

/* A seed that differs between learners and between fresh stores: the
 * clock, the process and an address, mixed (SplitMix64's finaliser). Not
 * for security: it only shuffles quiz choices. */
static uint64_t progress_new_seed(const void *salt)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t z = (uint64_t)t.tv_sec * 1000000007ULL ^ (uint64_t)t.tv_nsec ^
                 ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)salt;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return z ? z : 1;
}

static Progress *progress_open_file(const char *path, char *note, size_t note_len);

Progress *progress_open(const char *path, char *note, size_t note_len)
{
    Progress *p = progress_open_file(path, note, note_len);
    if (p->seed == 0)
        p->seed = progress_new_seed(p);
    return p;
}

static Progress *progress_open_file(const char *path, char *note, size_t note_len)
{
    Progress *p = xmem_calloc(1, sizeof *p);
    if (note && note_len)
        note[0] = '\0';
    if (!path)
        return p;
    p->path = xmem_strdup(path);
    char why[MSG_LEN] = "";
    if (progress_read(p, why, sizeof why) == 0) {
        /* Say now, not at the first save, when nothing can be kept. */
        char werr[MSG_LEN] = "";
        char *dir = xmem_strdup(path);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir)
            *slash = '\0';
        bool ok = progress_mkdirs(path, werr, sizeof werr);
        if (ok && slash && access(dir, W_OK) != 0) {
            msg_set(werr, sizeof werr, "cannot write to %s: %s", dir, strerror(errno));
            ok = false;
        }
        if (!ok) {
            if (note && note_len)
                msg_set(note, note_len, "progress will not be kept: %s", werr);
            p->error_told = true;
            msg_set(p->save_error, sizeof p->save_error, "%s", werr);
        }
        free(dir);
        return p;
    }
    progress_clear(p);
    char aside[4200];
    if (aside_keep(path, aside, sizeof aside)) {
        if (note && note_len)
            msg_set(note, note_len,
                    "progress file %s was unreadable (%s): set aside as %s, starting afresh", path,
                    why, aside);
    } else if (note && note_len) {
        msg_set(note, note_len,
                "progress file %s is unreadable (%s) and could not be set aside (%s): "
                "progress will not be kept",
                path, why, strerror(errno));
        free(p->path);
        p->path = NULL;
    }
    return p;
}

Progress *progress_load(const char *path, char *err, size_t err_len)
{
    size_t len;
    FileProblem fp;
    char *buf = file_read(path, PROGRESS_MAX_BYTES, &len, &fp);
    if (!buf) {
        file_problem_text(&fp, PROGRESS_MAX_BYTES, err, err_len);
        return NULL;
    }
    Progress *p = xmem_calloc(1, sizeof *p);
    char why[MSG_LEN] = "";
    if (!progress_parse_text(p, buf, len, why, sizeof why)) {
        msg_set(err, err_len, "not a scalelab progress file: %s", why);
        progress_free(p);
        p = NULL;
    }
    free(buf);
    return p;
}

void progress_free(Progress *p)
{
    if (!p)
        return;
    progress_clear(p);
    free(p->path);
    free(p);
}

const char *progress_path(const Progress *p)
{
    return p ? p->path : NULL;
}

ProgressStatus progress_status(const Progress *p, const char *lesson_id)
{
    const LessonRec *l = progress_find(p, lesson_id);
    return l ? l->status : PROGRESS_NEW;
}

int progress_page(const Progress *p, const char *lesson_id)
{
    const LessonRec *l = progress_find(p, lesson_id);
    return l ? l->page : 0;
}

long long progress_last_active(const Progress *p, const char *lesson_id)
{
    const LessonRec *l = progress_find(p, lesson_id);
    return l ? l->active_s : 0;
}

int progress_lesson_count(const Progress *p)
{
    return p ? p->n_lessons : 0;
}

const char *progress_lesson_id(const Progress *p, int i)
{
    return p && i >= 0 && i < p->n_lessons ? p->lessons[i].id : NULL;
}

bool progress_scenario_met(const Progress *p, const char *lesson_id, int page)
{
    const PageRec *r = progress_page_find(progress_find(p, lesson_id), page);
    return r && r->met;
}

int progress_hints(const Progress *p, const char *lesson_id, int page)
{
    const PageRec *r = progress_page_find(progress_find(p, lesson_id), page);
    return r ? r->hints : 0;
}

int progress_quiz_answer(const Progress *p, const char *lesson_id, int page, bool *correct)
{
    const PageRec *r = progress_page_find(progress_find(p, lesson_id), page);
    if (correct)
        *correct = r && r->correct;
    return r ? r->answer : -1;
}

/* mkdir -p of the folder that holds path. */
static bool progress_mkdirs(const char *path, char *err, size_t err_len)
{
    char *dir = xmem_strdup(path);
    char *slash = strrchr(dir, '/');
    bool ok = true;
    if (slash && slash != dir) {
        *slash = '\0';
        ok = xdg_mkdirs(dir, err, err_len);
    }
    free(dir);
    return ok;
}

static const char *progress_status_word(ProgressStatus s)
{
    return s == PROGRESS_DONE ? "done" : s == PROGRESS_STARTED ? "started" : "new";
}

static bool progress_write(Progress *p, char *err, size_t err_len);

bool progress_save(Progress *p, char *err, size_t err_len)
{
    if (!p || !p->path)
        return true;
    char why[MSG_LEN] = "";
    bool ok = progress_write(p, why, sizeof why);
    if (ok) {
        p->save_error[0] = '\0';
        p->error_told = false;
    } else {
        msg_set(p->save_error, sizeof p->save_error, "%s", why);
        if (err && err_len)
            msg_set(err, err_len, "%s", why);
    }
    return ok;
}

const char *progress_take_error(Progress *p)
{
    if (!p || !p->save_error[0] || p->error_told)
        return NULL;
    p->error_told = true;
    return p->save_error;
}

static bool progress_put_all(FILE *f, const void *ctx)
{
    const Progress *p = ctx;
    fprintf(f, "%s\n", PROGRESS_HEADER);
    fprintf(f, "seed %016llx\n", (unsigned long long)p->seed);
    for (int i = 0; i < p->n_lessons; i++) {
        const LessonRec *l = &p->lessons[i];
        fprintf(f, "lesson %s %s %d %lld\n", l->id, progress_status_word(l->status), l->page,
                l->active_s);
        for (int j = 0; j < l->n_pages; j++) {
            const PageRec *r = &l->pages[j];
            fprintf(f, "page %s %d %d %d %d %d %d %d %d %d %d %d\n", l->id, r->page, r->hints,
                    r->met ? 1 : 0, r->answer, r->correct ? 1 : 0, r->first, r->tries,
                    r->search ? 1 : 0, r->reviews, r->review_ok ? 1 : 0, r->moves);
        }
    }
    for (int i = 0; i < p->n_practice; i++)
        fprintf(f, "practice %s %d %d %d\n", p->practice[i].kind, p->practice[i].r.tried,
                p->practice[i].r.first_try, p->practice[i].r.streak);
    if (p->practice_level > 0)
        fprintf(f, "practice-level %d\n", p->practice_level);
    return !ferror(f);
}

/* Folds the record read from disk into p (another window may have saved
 * since p was read): the furthest status, the most hints, tries and
 * reviews, a met goal, a used search, a given answer and first try, the
 * seed already saved; the page reached and the moves are this window's
 * unless it has none. */
static void progress_merge(Progress *p, const Progress *disk)
{
    for (int i = 0; i < disk->n_lessons; i++) {
        const LessonRec *d = &disk->lessons[i];
        bool known = progress_find(p, d->id) != NULL;
        LessonRec *l = progress_get(p, d->id);
        if (d->status > l->status)
            l->status = d->status;
        if (!known)
            l->page = d->page;
        if (d->active_s > l->active_s)
            l->active_s = d->active_s;
        for (int j = 0; j < d->n_pages; j++) {
            const PageRec *dr = &d->pages[j];
            PageRec *r = progress_page_get(l, dr->page);
            if (dr->hints > r->hints)
                r->hints = dr->hints;
            r->met = r->met || dr->met;
            if (r->answer < 0)
                r->answer = dr->answer;
            r->correct = r->correct || dr->correct; /* right once stays right */
            if (r->first < 0)
                r->first = dr->first;
            if (dr->tries > r->tries)
                r->tries = dr->tries;
            r->search = r->search || dr->search;
            if (dr->reviews > r->reviews) {
                r->reviews = dr->reviews;
                r->review_ok = dr->review_ok;
            }
            if (r->moves == 0)
                r->moves = dr->moves;
        }
    }
    if (disk->seed) /* the first window's seed stays the learner's */
        p->seed = disk->seed;
    /* Practice counts add up: what this window did since it last saved goes
     * on top of what the file holds now; the streak and level are those of
     * the window that practised last. */
    for (int i = 0; i < disk->n_practice; i++) {
        const PracticeRec *d = &disk->practice[i];
        PracticeRec *k = progress_practice_get(p, d->kind);
        if (!k)
            continue;
        int tried = k->r.tried - k->base.tried, first = k->r.first_try - k->base.first_try;
        k->r.tried = d->r.tried + tried;
        k->r.first_try = d->r.first_try + first;
        if (tried == 0)
            k->r.streak = d->r.streak;
    }
    if (!p->level_set && disk->practice_level > 0)
        p->practice_level = disk->practice_level;
}

/* Opens and locks "<path>.lock" for the read-merge-write of a save: the
 * lock file is created in the state folder, never followed through a
 * symlink, and must be a regular file. Returns the fd, or -1 with errno. */
static int progress_lock(const char *path)
{
    size_t n = strlen(path) + sizeof ".lock";
    char *lock = xmem_alloc(n);
    snprintf(lock, n, "%s.lock", path);
    int fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0600);
    free(lock);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    while (flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

static bool progress_write(Progress *p, char *err, size_t err_len)
{
    if (!progress_mkdirs(p->path, err, err_len))
        return false;
    int lock = progress_lock(p->path);
    if (lock < 0) {
        msg_set(err, err_len, "cannot lock %s.lock: %s", p->path, strerror(errno));
        return false;
    }
    Progress disk = {.path = p->path};
    char why[MSG_LEN];
    int rc = progress_read(&disk, why, sizeof why);
    if (rc == 0)
        progress_merge(p, &disk);
    progress_clear(&disk);
    if (rc != 0 && !aside_keep(p->path, NULL, 0)) {
        /* Unreadable since it was opened (another program, a disk error):
         * it is kept, never written over. */
        int e = errno;
        close(lock);
        msg_set(err, err_len,
                "cannot save %s: it became unreadable (%s) and cannot be set aside: %s", p->path,
                why, strerror(e));
        return false;
    }
    bool ok = file_write(p->path, FILE_PRIVATE, progress_put_all, p, NULL, 0);
    int e = errno;
    if (ok) {
        for (int i = 0; i < p->n_practice; i++)
            p->practice[i].base = p->practice[i].r;
        p->level_set = false;
    }
    close(lock); /* releases the lock */
    if (!ok) {
        msg_set(err, err_len, "cannot save %s: %s", p->path, strerror(e));
        return false;
    }
    return true;
}

static LessonRec *progress_touch(Progress *p, const char *lesson_id, char *err, size_t err_len)
{
    if (!p)
        return NULL;
    if (!progress_id_ok(lesson_id)) {
        msg_set(err, err_len, "lesson id '%s' cannot be recorded",
                lesson_id ? lesson_id : "(null)");
        return NULL;
    }
    LessonRec *l = progress_get(p, lesson_id);
    if (l->status == PROGRESS_NEW)
        l->status = PROGRESS_STARTED;
    time_t now = time(NULL);
    if (now > 0 && (long long)now > l->active_s)
        l->active_s = (long long)now;
    return l;
}

bool progress_visit(Progress *p, const char *lesson_id, int page, char *err, size_t err_len)
{
    LessonRec *l = progress_touch(p, lesson_id, err, err_len);
    if (!l)
        return false;
    l->page = page < 0 ? 0 : page;
    return progress_save(p, err, err_len);
}

bool progress_set_hints(Progress *p, const char *lesson_id, int page, int hints, char *err,
                        size_t err_len)
{
    LessonRec *l = progress_touch(p, lesson_id, err, err_len);
    if (!l)
        return false;
    PageRec *r = progress_page_get(l, page);
    if (hints > r->hints)
        r->hints = hints;
    return progress_save(p, err, err_len);
}

bool progress_set_scenario_met(Progress *p, const char *lesson_id, int page, char *err,
                               size_t err_len)
{
    LessonRec *l = progress_touch(p, lesson_id, err, err_len);
    if (!l)
        return false;
    progress_page_get(l, page)->met = true;
    return progress_save(p, err, err_len);
}

bool progress_set_quiz(Progress *p, const char *lesson_id, int page, int choice, bool correct,
                       char *err, size_t err_len)
{
    LessonRec *l = progress_touch(p, lesson_id, err, err_len);
    if (!l)
        return false;
    PageRec *r = progress_page_get(l, page);
    r->answer = choice < -1 ? -1 : choice;
    r->correct = correct;
    return progress_save(p, err, err_len);
}

uint64_t progress_seed(const Progress *p)
{
    return p ? p->seed : 0;
}

bool progress_exercise(const Progress *p, const char *lesson_id, int page, ProgressExercise *out)
{
    const PageRec *r = progress_page_find(progress_find(p, lesson_id), page);
    ProgressExercise e = {.first = -1};
    if (r)
        e = (ProgressExercise){.first = r->first,
                               .tries = r->tries,
                               .solved = r->correct || r->met,
                               .search = r->search,
                               .reviews = r->reviews,
                               .review_ok = r->review_ok,
                               .moves = r->moves};
    if (out)
        *out = e;
    return r != NULL;
}

/* One try at a page's question: the first is kept, tries counted. */
static PageRec *progress_try(Progress *p, const char *lesson_id, int page, bool right, char *err,
                             size_t err_len)
{
    LessonRec *l = progress_touch(p, lesson_id, err, err_len);
    if (!l)
        return NULL;
    PageRec *r = progress_page_get(l, page);
    if (r->first < 0)
        r->first = right ? 1 : 0;
    if (r->tries < 1000000)
        r->tries++;
    return r;
}

bool progress_record_try(Progress *p, const char *lesson_id, int page, int answer, bool right,
                         char *err, size_t err_len)
{
    PageRec *r = progress_try(p, lesson_id, page, right, err, err_len);
    if (!r)
        return false;
    r->answer = answer < -1 ? -1 : answer;
    r->correct = r->correct || right;
    return progress_save(p, err, err_len);
}

bool progress_record_prediction(Progress *p, const char *lesson_id, int page, bool right,
                                char *err, size_t err_len)
{
    return progress_try(p, lesson_id, page, right, err, err_len) && progress_save(p, err, err_len);
}

bool progress_record_review(Progress *p, const char *lesson_id, int page, bool right_at_once,
                            char *err, size_t err_len)
{
    LessonRec *l = progress_touch(p, lesson_id, err, err_len);
    if (!l)
        return false;
    PageRec *r = progress_page_get(l, page);
    if (r->reviews < 1000000)
        r->reviews++;
    r->review_ok = right_at_once;
    return progress_save(p, err, err_len);
}

bool progress_set_search_used(Progress *p, const char *lesson_id, int page, char *err,
                              size_t err_len)
{
    LessonRec *l = progress_touch(p, lesson_id, err, err_len);
    if (!l)
        return false;
    progress_page_get(l, page)->search = true;
    return progress_save(p, err, err_len);
}

bool progress_set_moves(Progress *p, const char *lesson_id, int page, int moves, char *err,
                        size_t err_len)
{
    LessonRec *l = progress_touch(p, lesson_id, err, err_len);
    if (!l)
        return false;
    progress_page_get(l, page)->moves = moves < 0 ? 0 : moves > 1000000 ? 1000000 : moves;
    return progress_save(p, err, err_len);
}

int progress_first_tries(const Progress *p, const char *lesson_id, int *right)
{
    const LessonRec *l = progress_find(p, lesson_id);
    int tried = 0, ok = 0;
    for (int i = 0; l && i < l->n_pages; i++) {
        if (l->pages[i].first < 0)
            continue;
        tried++;
        ok += l->pages[i].first == 1;
    }
    if (right)
        *right = ok;
    return tried;
}

bool progress_needs_review(const Progress *p, const char *lesson_id, int page)
{
    const PageRec *r = progress_page_find(progress_find(p, lesson_id), page);
    return r && r->first == 0 && !r->review_ok;
}

int progress_review_pages(const Progress *p, const char *lesson_id, int *pages, int max)
{
    const LessonRec *l = progress_find(p, lesson_id);
    int n = 0;
    for (int i = 0; l && i < l->n_pages; i++) {
        const PageRec *r = &l->pages[i];
        if (r->first != 0 || r->review_ok)
            continue;
        /* in page order, whatever order the records are in */
        int k = n < max ? n : max;
        while (pages && k > 0 && pages[k - 1] > r->page) {
            if (k < max)
                pages[k] = pages[k - 1];
            k--;
        }
        if (pages && k < max)
            pages[k] = r->page;
        n++;
    }
    return n;
}

bool progress_mastered(const Progress *p, const char *lesson_id)
{
    return progress_status(p, lesson_id) == PROGRESS_DONE &&
           progress_review_pages(p, lesson_id, NULL, 0) == 0;
}

bool progress_set_done(Progress *p, const char *lesson_id, char *err, size_t err_len)
{
    LessonRec *l = progress_touch(p, lesson_id, err, err_len);
    if (!l)
        return false;
    l->status = PROGRESS_DONE;
    return progress_save(p, err, err_len);
}

ProgressPractice progress_practice(const Progress *p, const char *kind)
{
    for (int i = 0; p && kind && i < p->n_practice; i++)
        if (strcmp(p->practice[i].kind, kind) == 0)
            return p->practice[i].r;
    return (ProgressPractice){0, 0, 0};
}

int progress_practice_level(const Progress *p)
{
    return p && p->practice_level > 0 ? p->practice_level : 1;
}

bool progress_add_practice(Progress *p, const char *kind, bool first_try, int level, char *err,
                           size_t err_len)
{
    if (!p)
        return true;
    PracticeRec *k = progress_practice_get(p, kind ? kind : "");
    if (!k) {
        msg_set(err, err_len, "practice kind '%s' cannot be recorded", kind ? kind : "(null)");
        return false;
    }
    k->r.tried++;
    k->r.first_try += first_try;
    k->r.streak = first_try ? k->r.streak + 1 : 0;
    if (level >= 1 && level <= 99) {
        p->practice_level = level;
        p->level_set = true;
    }
    return progress_save(p, err, err_len);
}
