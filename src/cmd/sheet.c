/* SPDX-License-Identifier: MIT */
/* sheet — worksheets for a class (see sheet.h).
 *
 * Every item, generated or from a lesson, becomes one SheetItem first: its
 * title, situation, question, choices in the sheet's order, the blank a
 * student fills and the answer the key gives. One writer then prints the
 * students' form or the key from it, so the two cannot disagree on numbering
 * or on what an item asks; only the key's writer reads the answer fields.
 */
#include "cmd/sheet.h"

#include "base/xmem.h"
#include "cmd/json.h"
#include "draw/canvas.h"
#include "draw/text.h"
#include "model/units.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define SHEET_MAX_CHOICES 64 /* a lesson's own limit */
#define SHEET_WORK_LINES  3  /* blank lines to work a number out in */
#define SHEET_BLANK       "____________"

typedef struct {
    int number;
    const char *title;
    char where[200];      /* "predict, level 1"; "quiz, lesson two-ways-to-grow, page 4" */
    char key_where[40];   /* ", seed 8": in the key only */
    const char *text;     /* the situation (and the question, when question is NULL) */
    bool markup;          /* text is lesson markup */
    const char *question; /* plain, after the text; NULL when the text asks */
    int n_choices;
    const char *choice[SHEET_MAX_CHOICES]; /* in the sheet's order */
    const char *explain[SHEET_MAX_CHOICES];
    bool right[SHEET_MAX_CHOICES];
    char unit[32];   /* the unit to answer in ("GB/s"), "" for a count or a choice */
    char blank[200]; /* the students' line after "Answer: "; '\n' starts another */
    int work_lines;
    /* The key only. */
    char answer[600];
    const char *worked_label; /* "Formula: ", or "" */
    const char *worked;       /* NULL or "": none */
} SheetItem;

/* ---- layout ---- */

/* text laid out in the columns right of lead (an ASCII prefix: its width is
 * its length), its first line after lead and the others under it; drawn on a
 * canvas, so wrapping, markup and escaping are the screens' own. */
static void sheet_put(FILE *out, const char *lead, const char *text, bool markup)
{
    if (!text || !*text)
        return;
    int indent = (int)strlen(lead), w = SHEET_WIDTH - indent;
    Canvas *probe = canvas_new(w, 1);
    int h = markup ? text_draw_markup(probe, 0, 0, w, 1, text, 0)
                   : text_draw_wrapped(probe, 0, 0, w, 1, text, STYLE_NORMAL);
    canvas_free(probe);
    Canvas *c = canvas_new(w, h > 0 ? h : 1);
    if (markup)
        text_draw_markup(c, 0, 0, w, h, text, 0);
    else
        text_draw_wrapped(c, 0, 0, w, h, text, STYLE_NORMAL);
    char *s = canvas_to_text(c);
    size_t end = strlen(s);
    while (end >= 2 && s[end - 1] == '\n' && s[end - 2] == '\n') /* no trailing blank rows */
        s[--end] = '\0';
    int row = 0;
    for (const char *line = s; *line; row++) {
        const char *nl = strchr(line, '\n');
        int len = (int)(nl ? nl - line : (long)strlen(line));
        if (len > 0)
            fprintf(out, "%*s%.*s\n", indent, row == 0 ? lead : "", len, line);
        else
            fprintf(out, "%s\n", row == 0 ? lead : "");
        line += len + (nl ? 1 : 0);
    }
    free(s);
    canvas_free(c);
}

/* a then b in a string the caller frees (NULL reads as ""). */
static char *joined(const char *a, const char *b)
{
    a = a ? a : "";
    b = b ? b : "";
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = xmem_alloc(n);
    snprintf(s, n, "%s%s", a, b);
    return s;
}

/* "A" .. "Z", then "AA", "AB", ... */
static const char *choice_label(int i, char buf[4])
{
    if (i < 26)
        snprintf(buf, 4, "%c", 'A' + i);
    else
        snprintf(buf, 4, "%c%c", 'A' + i / 26 - 1, 'A' + i % 26);
    return buf;
}

void sheet_write_head(FILE *out, const SheetMode *m, const SheetHead *h)
{
    if (m->json)
        return;
    char left[200], seed[40];
    snprintf(left, sizeof left, "scalelab practice: %s%s", m->answers ? "ANSWER KEY to " : "",
             h->what);
    snprintf(seed, sizeof seed, "seed %llu", (unsigned long long)m->seed);
    int pad = SHEET_WIDTH - (int)strlen(left) - (int)strlen(seed);
    fprintf(out, "%s%*s%s\n", left, pad > 1 ? pad : 1, "", seed);
    if (!m->answers) {
        fputs("Name: ____________________________________________   Date: ________________\n\n",
              out);
        return;
    }
    fputs("The students' sheet:\n", out);
    sheet_put(out, "  ", h->command, false);
    if (h->quiz_order)
        sheet_put(out, "",
                  "Quiz choices are in the order this seed draws; another --seed gives another "
                  "order (on screen each student has an order of their own).",
                  false);
    fputs("\n", out);
}

/* ---- one item as text ---- */

static void text_students(FILE *out, const SheetItem *it)
{
    fputs(it->work_lines > 0 ? "\n  Working:\n" : "\n", out);
    for (int i = 0; i < it->work_lines; i++)
        fputs("\n", out);
    for (const char *line = it->blank; *line;) {
        const char *nl = strchr(line, '\n');
        int len = (int)(nl ? nl - line : (long)strlen(line));
        fprintf(out, "  %s%.*s\n", line == it->blank ? "Answer: " : "        ", len, line);
        line += len + (nl ? 1 : 0);
    }
}

static void text_key(FILE *out, const SheetItem *it)
{
    fputs("\n", out);
    sheet_put(out, "  Answer: ", it->answer, false);
    bool why = false;
    for (int i = 0; i < it->n_choices; i++)
        why = why || (it->explain[i] && *it->explain[i]);
    if (why) {
        fputs("\n  Why:\n", out);
        for (int i = 0; i < it->n_choices; i++) {
            char lead[16], l[4];
            snprintf(lead, sizeof lead, "    %s. ", choice_label(i, l));
            char *s = joined(it->right[i] ? "Right: " : "Wrong: ", it->explain[i]);
            sheet_put(out, lead, s, false);
            free(s);
        }
    }
    if (it->worked && *it->worked) {
        fputs("\n", out);
        char *s = joined(it->worked_label, it->worked);
        sheet_put(out, "  ", s, false);
        free(s);
    }
}

static void text_item(FILE *out, const SheetMode *m, const SheetItem *it)
{
    char lead[32], where[sizeof it->where + sizeof it->key_where + 2];
    snprintf(lead, sizeof lead, "Exercise %d. ", it->number);
    sheet_put(out, lead, it->title, false);
    snprintf(where, sizeof where, "(%s%s)", it->where, m->answers ? it->key_where : "");
    sheet_put(out, "  ", where, false);
    if (it->text && *it->text) {
        fputs("\n", out);
        sheet_put(out, "  ", it->text, it->markup);
    }
    if (it->question && *it->question) {
        fputs("\n", out);
        sheet_put(out, "  ", it->question, false);
    }
    if (it->n_choices > 0)
        fputs("\n", out);
    for (int i = 0; i < it->n_choices; i++) {
        char lead_c[16], l[4];
        snprintf(lead_c, sizeof lead_c, "    %s. ", choice_label(i, l));
        sheet_put(out, lead_c, it->choice[i], false);
    }
    if (m->answers)
        text_key(out, it);
    else
        text_students(out, it);
    fputs("\n", out);
}

/* ---- one item as JSON: the members both forms share ---- */

static void json_begin(FILE *out, const SheetMode *m, const SheetItem *it, const char *kind)
{
    fprintf(out, "{\"number\":%d,\"answers\":%s", it->number, m->answers ? "true" : "false");
    json_next_string(out, "kind", kind);
    json_next_string(out, "title", it->title);
}

static void json_choices(FILE *out, const SheetItem *it)
{
    if (it->n_choices == 0)
        return;
    fputs(",\"choices\":[", out);
    for (int i = 0; i < it->n_choices; i++) {
        fputs(i ? "," : "", out);
        json_string(out, it->choice[i]);
    }
    fputs("]", out);
}

/* The key's "answer": the key's answer line, or for choices the text of the
 * (first) right one with its letter as "answer_choice". */
static void json_answer(FILE *out, const SheetItem *it)
{
    char l[4];
    for (int i = 0; i < it->n_choices; i++)
        if (it->right[i]) {
            json_next_string(out, "answer", it->choice[i]);
            json_next_string(out, "answer_choice", choice_label(i, l));
            return;
        }
    json_next_string(out, "answer", it->answer);
}

/* ---- answers ---- */

/* The unit an answer is written in on paper: that of the answer as
 * predict_format prints it ("ms", "GB/s"); "" for a plain count. */
static void answer_unit(const PredictSpec *s, char *buf, size_t n)
{
    char v[48];
    predict_format(s, s->answer, true, v, sizeof v);
    const char *sp = strchr(v, ' ');
    snprintf(buf, n, "%s", sp && isalpha((unsigned char)sp[1]) ? sp + 1 : "");
}

static void number_blank(SheetItem *it, const PredictSpec *s)
{
    answer_unit(s, it->unit, sizeof it->unit);
    UnitsKind kind = UNITS_COUNT;
    predict_unit_known(s->unit, &kind);
    bool share = kind == UNITS_COUNT && s->answer < 1;
    snprintf(it->blank, sizeof it->blank, SHEET_BLANK "%s%s", it->unit[0] ? " " : "",
             share ? " (a fraction, or a percentage)" : it->unit);
    it->work_lines = SHEET_WORK_LINES;
}

/* "B. TP"; more right choices follow as "(also right: D)". */
static void choice_answer(SheetItem *it)
{
    char l[4];
    int first = -1;
    it->answer[0] = '\0';
    for (int i = 0; i < it->n_choices; i++) {
        if (!it->right[i])
            continue;
        size_t used = strlen(it->answer);
        if (first < 0)
            snprintf(it->answer, sizeof it->answer, "%s. %s", choice_label(i, l), it->choice[i]);
        else
            snprintf(it->answer + used, sizeof it->answer - used, "%s%s",
                     strstr(it->answer, "(also") ? ", " : " (also right: ", choice_label(i, l));
        first = first < 0 ? i : first;
    }
    if (strstr(it->answer, "(also"))
        strncat(it->answer, ")", sizeof it->answer - strlen(it->answer) - 1);
    snprintf(it->blank, sizeof it->blank, "____ (a letter)");
}

/* ---- generated exercises ---- */

static void practice_blank(const Practice *p, SheetItem *it)
{
    if (p->kind == PRACTICE_MAPPING) {
        snprintf(it->blank, sizeof it->blank, "TP ____  PP ____  DP ____  %smicro-batch ____",
                 workload_is_moe(&p->workload) ? "EP ____  " : "");
        it->work_lines = SHEET_WORK_LINES;
        return;
    }
    it->blank[0] = '\0';
    for (int i = 0; i < p->n_swaps; i++) {
        size_t used = strlen(it->blank);
        snprintf(it->blank + used, sizeof it->blank - used, "%sswap ____ and ____", i ? "\n" : "");
    }
}

static void item_of_practice(const Practice *p, int number, SheetItem *it, char *q, size_t q_len)
{
    memset(it, 0, sizeof *it);
    it->number = number;
    it->title = p->title;
    snprintf(it->where, sizeof it->where, "%s, level %d", practice_kind_name(p->kind), p->level);
    snprintf(it->key_where, sizeof it->key_where, ", seed %llu", (unsigned long long)p->seed);
    practice_paper_question(p, q, q_len);
    it->text = q;
    it->markup = true; /* as the practice screen draws it */
    const char *labels[PRACTICE_MAX_CHOICES];
    it->n_choices = practice_choices(p, labels);
    for (int i = 0; i < it->n_choices; i++) {
        char msg[400];
        it->choice[i] = labels[i];
        it->right[i] = practice_grade_choice(p, i, msg, sizeof msg);
    }
    it->worked_label = "";
    it->worked = p->worked;
    if (it->n_choices > 0) {
        choice_answer(it);
    } else if (p->kind == PRACTICE_PREDICT) {
        PredictSpec s;
        practice_predict_spec(p, &s);
        number_blank(it, &s);
        snprintf(it->answer, sizeof it->answer, "%s", p->answer);
    } else {
        practice_blank(p, it);
        snprintf(it->answer, sizeof it->answer, "%s", p->answer);
        for (int i = p->n_swaps - 1; p->kind == PRACTICE_PLACEMENT && i >= 0; i--) {
            size_t used = i == p->n_swaps - 1 ? 0 : strlen(it->answer);
            snprintf(it->answer + used, sizeof it->answer - used, "%sswap %d and %d",
                     used ? ", then " : "", p->swaps[i][0], p->swaps[i][1]);
        }
        if (p->kind == PRACTICE_MAPPING) {
            char most[32];
            units_format(UNITS_TIME, p->best_step_s * (1 + PRACTICE_MAPPING_SLACK), true, most,
                         sizeof most);
            size_t used = strlen(it->answer);
            snprintf(it->answer + used, sizeof it->answer - used,
                     "; any mapping that fits with a step of at most %s passes", most);
        }
    }
}

static void json_practice(FILE *out, const SheetMode *m, const SheetItem *it, const Practice *p)
{
    json_begin(out, m, it, practice_kind_name(p->kind));
    fprintf(out, ",\"seed\":%llu,\"level\":%d", (unsigned long long)p->seed, p->level);
    json_next_string(out, "question", it->text);
    json_choices(out, it);
    if (p->kind == PRACTICE_PREDICT)
        json_next_string(out, "answer_unit", it->unit);
    if (p->kind == PRACTICE_MAPPING || p->kind == PRACTICE_PLACEMENT)
        fprintf(out, ",\"par\":%d", p->par);
    if (m->answers) {
        json_answer(out, it);
        json_next_string(out, "worked", p->worked);
        if (p->kind == PRACTICE_PREDICT) {
            json_next_number(out, "value", p->value);
            json_next_string(out, "unit", p->unit);
            json_next_number(out, "tolerance", p->tolerance);
        } else if (p->kind == PRACTICE_TIER) {
            json_next_string(out, "tier", practice_tier_name(p->tier));
        } else if (p->kind == PRACTICE_MAPPING || p->kind == PRACTICE_PLACEMENT) {
            char mp[64];
            json_next_string(out, "best", mapping_format(&p->best, mp, sizeof mp));
            fprintf(out, ",\"best_micro_batch\":%d", p->best_micro_batch);
            json_next_number(out, "best_step_s", p->best_step_s);
        }
    }
    fputs("}\n", out);
}

void sheet_write_practice(FILE *out, const SheetMode *m, int number, const Practice *p)
{
    SheetItem it;
    char q[sizeof p->question + 400];
    item_of_practice(p, number, &it, q, sizeof q);
    if (m->json)
        json_practice(out, m, &it, p);
    else
        text_item(out, m, &it);
}

/* ---- lesson pages ---- */

bool sheet_takes_page(const Lesson *l, int page)
{
    PageKind k = lesson_page_kind(l, page);
    return k == PAGE_QUIZ || k == PAGE_PREDICT;
}

static void item_of_quiz(const Lesson *l, int page, uint64_t seed, SheetItem *it)
{
    int order[SHEET_MAX_CHOICES];
    it->n_choices = lesson_quiz_order(l, page, seed, order, SHEET_MAX_CHOICES);
    for (int k = 0; k < it->n_choices; k++) {
        it->choice[k] = lesson_quiz_choice(l, page, order[k]);
        it->explain[k] = lesson_quiz_explanation(l, page, order[k]);
        it->right[k] = lesson_quiz_is_correct(l, page, order[k]);
    }
    choice_answer(it);
    if (lesson_quiz_is_calc(l, page)) /* a calculation: room to work it out */
        it->work_lines = SHEET_WORK_LINES;
}

static void item_of_predict(const Lesson *l, int page, SheetItem *it)
{
    PredictSpec s;
    it->question = lesson_predict_question(l, page);
    it->worked_label = "Formula: ";
    it->worked = lesson_predict_formula(l, page);
    if (!lesson_predict_spec(l, page, &s))
        return;
    number_blank(it, &s);
    char v[48], term[160] = "";
    double tol = s.tolerance > 0 ? s.tolerance : PREDICT_TOLERANCE_DEFAULT;
    int d = predict_dominant_term(&s);
    if (d >= 0)
        snprintf(term, sizeof term, "; the largest term is %.100s, %.0f%% of it", s.terms[d].name,
                 100 * s.terms[d].value / s.answer);
    snprintf(it->answer, sizeof it->answer, "%s (within %.0f%%)%s",
             predict_format(&s, s.answer, true, v, sizeof v), 100 * tol, term);
}

static void json_page(FILE *out, const SheetMode *m, const SheetItem *it, const Lesson *l,
                      int page)
{
    bool quiz = lesson_page_kind(l, page) == PAGE_QUIZ;
    json_begin(out, m, it, quiz ? "quiz" : "predict");
    json_next_string(out, "lesson", lesson_id(l));
    fprintf(out, ",\"page\":%d", page);
    json_next_string(out, "text", it->text);
    if (!quiz) {
        json_next_string(out, "question", it->question);
        json_next_string(out, "answer_unit", it->unit);
    }
    json_choices(out, it);
    PredictSpec s;
    if (m->answers && quiz) {
        fputs(",\"right\":[", out);
        for (int i = 0; i < it->n_choices; i++)
            fprintf(out, "%s%s", i ? "," : "", it->right[i] ? "true" : "false");
        fputs("],\"explanations\":[", out);
        for (int i = 0; i < it->n_choices; i++) {
            fputs(i ? "," : "", out);
            json_string(out, it->explain[i]);
        }
        fputs("]", out);
        json_answer(out, it);
    } else if (m->answers && lesson_predict_spec(l, page, &s)) {
        json_answer(out, it);
        json_next_number(out, "value", s.answer);
        json_next_string(out, "unit", s.unit);
        json_next_number(out, "tolerance",
                         s.tolerance > 0 ? s.tolerance : PREDICT_TOLERANCE_DEFAULT);
        json_next_string(out, "formula", it->worked);
    }
    fputs("}\n", out);
}

void sheet_write_page(FILE *out, const SheetMode *m, int number, const Lesson *l, int page)
{
    SheetItem it;
    memset(&it, 0, sizeof it);
    bool quiz = lesson_page_kind(l, page) == PAGE_QUIZ;
    it.number = number;
    it.title = lesson_page_title(l, page);
    if (!it.title || !*it.title)
        it.title = quiz ? "Quiz" : "Predict";
    snprintf(it.where, sizeof it.where, "%s, lesson %s, page %d", quiz ? "quiz" : "predict",
             lesson_id(l), page + 1);
    it.text = lesson_page_text(l, page);
    it.markup = true;
    if (quiz)
        item_of_quiz(l, page, m->seed, &it);
    else
        item_of_predict(l, page, &it);
    if (m->json)
        json_page(out, m, &it, l, page);
    else
        text_item(out, m, &it);
}
