/* SPDX-License-Identifier: MIT */
/* progress_json — a learner's record as the JSON a student hands in (the
 * form: progress_json.h). `progress --json` writes it from the learner's own
 * store; `report` writes it in memory from a store file handed in as it is,
 * so both read one form.
 *
 * Lesson files are loaded in the sandbox to name their pages; the record
 * alone gives what a lesson that does not load or is not in the folder had.
 */
#include "cmd/progress_json.h"

#include "cmd/json.h"
#include "learn/practice.h"
#include "lesson/lesson.h"

#include <stdlib.h>
#include <string.h>

ProgressQuestion progress_json_question(const Progress *p, const char *id, int page)
{
    ProgressExercise x;
    ProgressQuestion q = {false, false, false, 0};
    if (progress_exercise(p, id, page, &x)) {
        q.tried = x.first >= 0 || x.solved || progress_quiz_answer(p, id, page, NULL) >= 0;
        q.right = x.solved;
        q.first_try = x.first == 1;
        q.tries = x.tries;
    }
    return q;
}

/* A scenario's prediction before a marked move: its record's first try and
 * tries are the prediction's ("solved" is the goal's, not this question's).
 * It asks once: answered is all there is to do, so right is answered and
 * first_try says whether it was right. */
static ProgressQuestion progress_json_prediction(const Progress *p, const char *id, int page)
{
    ProgressQuestion q = progress_json_question(p, id, page);
    q.tried = q.tries > 0;
    q.right = q.tried;
    return q;
}

static const char *progress_json_status(ProgressStatus s)
{
    return s == PROGRESS_DONE ? "done" : s == PROGRESS_STARTED ? "started" : "new";
}

static const char *progress_json_kind(PageKind k)
{
    static const char *const words[] = {"text", "diagram", "scenario",
                                        "quiz", "compare", "predict"};
    return (unsigned)k < sizeof words / sizeof words[0] ? words[k] : "text";
}

static void progress_json_question_put(FILE *out, int n, int page, const char *kind,
                                       const char *title, ProgressQuestion q)
{
    fputs(n ? ",{\"page\":" : "{\"page\":", out);
    fprintf(out, "%d,\"kind\":\"%s\",\"title\":", page, kind);
    json_string(out, title);
    fprintf(out, ",\"tried\":%s,\"right\":%s,\"first_try\":%s,\"tries\":%d}",
            q.tried ? "true" : "false", q.right ? "true" : "false", q.first_try ? "true" : "false",
            q.tries);
}

static void progress_json_scenario_put(FILE *out, int n, int page, const char *title, bool met,
                                       int hints)
{
    fputs(n ? ",{\"page\":" : "{\"page\":", out);
    fprintf(out, "%d,\"title\":", page);
    json_string(out, title);
    fprintf(out, ",\"met\":%s,\"hints\":%d}", met ? "true" : "false", hints);
}

/* The lesson's header: id to last_active, then "questions":[ opened. */
static void progress_json_head(FILE *out, const Progress *p, const char *id, const char *title,
                               int pages, const Lesson *l)
{
    int last = progress_page(p, id);
    fputs("{\"id\":", out);
    json_string(out, id);
    json_next_string(out, "title", title);
    fprintf(out, ",\"status\":\"%s\",\"pages\":%d,\"last_page\":%d",
            progress_json_status(progress_status(p, id)), pages, last);
    if (l && last < lesson_page_count(l)) {
        json_next_string(out, "last_page_title", lesson_page_title(l, last));
        json_next_string(out, "last_page_kind", progress_json_kind(lesson_page_kind(l, last)));
    }
    fprintf(out, ",\"last_active\":%lld,\"questions\":[", progress_last_active(p, id));
}

/* A lesson the folder has and that loaded: its pages name the record's. */
static void progress_json_lesson(FILE *out, const Progress *p, const char *id, const char *title,
                                 const Lesson *l)
{
    int pages = lesson_page_count(l), nq = 0, ns = 0, hints = 0;
    progress_json_head(out, p, id, title, pages, l);
    for (int i = 0; i < pages; i++) {
        PageKind k = lesson_page_kind(l, i);
        hints += progress_hints(p, id, i);
        if (k == PAGE_QUIZ || k == PAGE_PREDICT)
            progress_json_question_put(out, nq++, i, progress_json_kind(k),
                                       lesson_page_title(l, i), progress_json_question(p, id, i));
        else if (k == PAGE_SCENARIO && lesson_scenario_guess(l, i, NULL))
            progress_json_question_put(out, nq++, i, "prediction", lesson_page_title(l, i),
                                       progress_json_prediction(p, id, i));
    }
    fputs("],\"scenarios\":[", out);
    for (int i = 0; i < pages; i++)
        if (lesson_page_kind(l, i) == PAGE_SCENARIO)
            progress_json_scenario_put(out, ns++, i, lesson_page_title(l, i),
                                       progress_scenario_met(p, id, i), progress_hints(p, id, i));
    fprintf(out, "],\"hints\":%d}", hints);
}

/* The store keeps at most this many pages per lesson (store/progress.c). */
#define PROGRESS_JSON_PAGES 256

/* A lesson known from the record alone: the pages it has a record of. */
static void progress_json_bare(FILE *out, const Progress *p, const char *id, const char *title,
                               int pages)
{
    int nq = 0, ns = 0, hints = 0;
    progress_json_head(out, p, id, title, pages, NULL);
    for (int i = 0; i < PROGRESS_JSON_PAGES; i++) {
        ProgressQuestion q = progress_json_question(p, id, i);
        hints += progress_hints(p, id, i);
        if (q.tried && !progress_scenario_met(p, id, i)) { /* a met scenario counts as solved */
            char name[32];
            snprintf(name, sizeof name, "page %d", i + 1);
            progress_json_question_put(out, nq++, i, "question", name, q);
        }
    }
    fputs("],\"scenarios\":[", out);
    for (int i = 0; i < PROGRESS_JSON_PAGES; i++) {
        bool met = progress_scenario_met(p, id, i);
        int h = progress_hints(p, id, i);
        if (met || h > 0) {
            char name[32];
            snprintf(name, sizeof name, "page %d", i + 1);
            progress_json_scenario_put(out, ns++, i, name, met, h);
        }
    }
    fprintf(out, "],\"hints\":%d}", hints);
}

static void progress_json_practice(FILE *out, const Progress *p)
{
    fputs("\"practice\":{", out);
    for (int k = 0; k < PRACTICE_KIND_COUNT; k++) {
        const char *kind = practice_kind_name((PracticeKind)k);
        ProgressPractice r = progress_practice(p, kind);
        fprintf(out, "\"%s\":{\"tried\":%d,\"first_try\":%d,\"streak\":%d},", kind, r.tried,
                r.first_try, r.streak);
    }
    fprintf(out, "\"level\":%d}", progress_practice_level(p));
}

void progress_json_write(FILE *out, const Progress *p, const Catalog *cat, const char *learner)
{
    long long last = 0;
    for (int i = 0; i < progress_lesson_count(p); i++) {
        long long t = progress_last_active(p, progress_lesson_id(p, i));
        last = t > last ? t : last;
    }
    fprintf(out, "{\"format\":\"%s\",\"version\":%d,\"learner\":", PROGRESS_JSON_FORMAT,
            PROGRESS_JSON_VERSION);
    json_string(out, learner);
    fprintf(out, ",\"last_active\":%lld,\"lessons\":[", last);
    int n = 0;
    for (int i = 0; i < catalog_count(cat); i++) {
        const CatalogEntry *e = catalog_entry(cat, i);
        char err[MSG_LEN];
        Lesson *l = e->error ? NULL : lesson_load(e->path, err, sizeof err);
        fputs(n++ ? "," : "", out);
        if (l)
            progress_json_lesson(out, p, e->id, e->title, l);
        else
            progress_json_bare(out, p, e->id, e->title, e->pages);
        lesson_free(l);
    }
    for (int i = 0; i < progress_lesson_count(p); i++) {
        const char *id = progress_lesson_id(p, i);
        if (catalog_find(cat, id) >= 0)
            continue;
        fputs(n++ ? "," : "", out);
        progress_json_bare(out, p, id, id, 0);
    }
    fputs("],", out);
    progress_json_practice(out, p);
    fputs("}\n", out);
}
