/* SPDX-License-Identifier: MIT */
/* screen_practice — practice exercises on screen (see screen_practice.h).
 *
 * One key table per kind plus the shared one drive dispatch, the footer and
 * the ? overlay (ui/keymap.h). While a predict answer is being typed every
 * printable key types, so n, a, q and ? act only on an empty entry (an
 * answer starts with a digit). Mapping keys go to the scenario screen,
 * except the search (it is what grades) and the domain and system keys (the
 * scenario refuses those moves: the cluster is the exercise's).
 */
#include "ui/screen_practice.h"

#include "base/msg.h"
#include "base/utf8.h"
#include "draw/text.h"
#include "learn/scenario.h"
#include "ui/keymap.h"
#include "ui/keys.h"
#include "ui/lineedit.h"

#include <stdio.h>
#include <string.h>

static void practice_record(PracticeScreen *ps, bool passed, bool first_try)
{
    int before = ps->run.level;
    ps->done = true;
    ps->passed = passed;
    ps->first_try = first_try;
    practice_run_result(&ps->run, first_try);
    progress_add_practice(ps->progress, practice_kind_name(ps->ex.kind), first_try, ps->run.level,
                          NULL, 0);
    ps->session_done++;
    ps->session_first += first_try;
    if (ps->run.level != before) {
        size_t n = strlen(ps->feedback);
        snprintf(ps->feedback + n, sizeof ps->feedback - n, " Level %d %s %d.", before,
                 ps->run.level > before ? "up to" : "down to", ps->run.level);
    }
}

static void practice_close_page(PracticeScreen *ps)
{
    if (ps->page_open) {
        screen_page_fini(&ps->page);
        ps->page_open = false;
    }
}

/* The scenario of a mapping exercise (degrees, micro-batch and moves) or
 * of a placement exercise (moves only, from the scattered start). */
static void practice_open_mapping(PracticeScreen *ps)
{
    char err[300];
    bool place = ps->ex.kind == PRACTICE_PLACEMENT;
    Placement *start = practice_start_placement(&ps->ex);
    Scenario *s =
        scenario_new(&ps->ex.cluster, &ps->ex.workload, &ps->ex.start, start,
                     place ? SCN_ALLOW_MOVE : SCN_ALLOW_DEGREES | SCN_ALLOW_MICRO | SCN_ALLOW_MOVE,
                     err, sizeof err);
    placement_free(start);
    if (!s) {
        msg_set(ps->error, sizeof ps->error, "the exercise's start does not evaluate: %s", err);
        ps->have = false;
        return;
    }
    screen_page_init(&ps->page, NULL, "", "", NULL, 0);
    screen_scenario_close(&ps->page);
    ps->page.scn.s = s;
    ps->page_open = true;
}

static void practice_next(PracticeScreen *ps)
{
    practice_close_page(ps);
    ps->have = false;
    ps->tries = 0;
    ps->done = ps->passed = ps->first_try = ps->gave_up = false;
    ps->feedback[0] = ps->input[0] = ps->error[0] = '\0';
    ps->sel = 0;
    ps->scroll = 0;
    memset(ps->wrong, 0, sizeof ps->wrong);
    char err[300];
    for (int t = 0; t < 5 && !ps->have; t++) {
        bool ok = ps->kind < 0 ? practice_run_next(&ps->run, &ps->ex, err, sizeof err)
                               : practice_make(ps->run.seed + (uint64_t)ps->run.index++, ps->kind,
                                               ps->run.level, &ps->ex, err, sizeof err);
        ps->have = ok;
        if (!ok)
            snprintf(ps->error, sizeof ps->error, "%s", err);
    }
    if (ps->have) {
        ps->error[0] = '\0';
        if (ps->ex.kind == PRACTICE_MAPPING || ps->ex.kind == PRACTICE_PLACEMENT)
            practice_open_mapping(ps);
    }
}

void screen_practice_init(PracticeScreen *ps, Progress *progress, uint64_t seed, bool seed_given,
                          int kind, int level)
{
    memset(ps, 0, sizeof *ps);
    ps->progress = progress;
    ps->kind = kind;
    if (!seed_given) {
        /* The learner's own stream, moved on by what was already tried. */
        int tried = 0;
        for (int k = 0; k < PRACTICE_KIND_COUNT; k++)
            tried += progress_practice(progress, practice_kind_name((PracticeKind)k)).tried;
        seed = progress_seed(progress) + 0x9e3779b97f4a7c15ULL * (uint64_t)tried;
    }
    practice_run_init(&ps->run, seed, level > 0 ? level : progress_practice_level(progress));
    practice_next(ps);
}

void screen_practice_fini(PracticeScreen *ps)
{
    if (ps)
        practice_close_page(ps);
}

/* ---- keys ---- */

static int practice_key_next(void *state, int key)
{
    PracticeScreen *ps = state;
    (void)key;
    if (ps->have && !ps->done) {
        snprintf(ps->feedback, sizeof ps->feedback, "Skipped.");
        practice_record(ps, false, false);
    }
    practice_next(ps);
    return SCREEN_NONE;
}

static int practice_key_answer(void *state, int key)
{
    PracticeScreen *ps = state;
    (void)key;
    if (!ps->have || ps->done)
        return SCREEN_NONE;
    ps->gave_up = true;
    snprintf(ps->feedback, sizeof ps->feedback, "The answer is below.");
    practice_record(ps, false, false);
    return SCREEN_NONE;
}

static int practice_key_help(void *state, int key)
{
    (void)key;
    ((PracticeScreen *)state)->help = true;
    return SCREEN_NONE;
}

/* q and Esc go back to the menu practice was opened from; opened by
 * `scalelab practice`, they end the program, and Ctrl-C always does. */
static int practice_key_quit(void *state, int key)
{
    PracticeScreen *ps = state;
    return key != UIK_CTRL_C && ps->from_menu ? SCREEN_BACK : SCREEN_QUIT;
}

static int practice_key_scroll(void *state, int key)
{
    PracticeScreen *ps = state;
    ps->scroll += key == UIK_PGDN ? 5 : -5;
    if (ps->scroll < 0)
        ps->scroll = 0;
    return SCREEN_NONE;
}

static const KeyBinding practice_rows[] = {
    {{'n'},
     "n",
     "next exercise (skips this one: it counts as missed)",
     "n next",
     0,
     practice_key_next},
    {{'a'}, "a", "show the answer (counts as missed)", "a answer", 1, practice_key_answer},
    {{UIK_PGUP, UIK_PGDN}, "PgUp / PgDn", "scroll the text", NULL, 5, practice_key_scroll},
    {{'?'}, "?", "these keys", NULL, 9, practice_key_help},
    {{'q', UIK_ESC, UIK_CTRL_C},
     "q / Esc",
     "leave practice (back to the menu; results are kept)",
     "q leave",
     2,
     practice_key_quit},
};
static const KeyTable practice_keys = KEYMAP_TABLE("Practice keys", practice_rows);

/* Predict: typing and Enter. */
static void practice_grade_predict(PracticeScreen *ps)
{
    PredictSpec spec;
    PredictGrade g;
    practice_predict_spec(&ps->ex, &spec);
    PredictVerdict v = predict_grade(&spec, ps->input, true, &g);
    snprintf(ps->feedback, sizeof ps->feedback, "%s", g.msg);
    if (!predict_counts_as_try(v)) {
        ps->input[0] = '\0'; /* the feedback names what was typed */
        return;
    }
    ps->tries++;
    if (v == PREDICT_RIGHT)
        practice_record(ps, true, ps->tries == 1);
    else if (ps->tries >= PREDICT_TRIES) {
        size_t n = strlen(ps->feedback);
        snprintf(ps->feedback + n, sizeof ps->feedback - n, " Out of tries: the answer is below.");
        practice_record(ps, false, false);
    }
    ps->input[0] = '\0';
}

static int practice_key_enter(void *state, int key)
{
    PracticeScreen *ps = state;
    (void)key;
    if (ps->done)
        practice_next(ps);
    else if (ps->ex.kind == PRACTICE_PREDICT && ps->input[0])
        practice_grade_predict(ps);
    else if (ps->ex.kind == PRACTICE_BOTTLENECK || ps->ex.kind == PRACTICE_TIER) {
        const char *labels[PRACTICE_MAX_CHOICES];
        int n = practice_choices(&ps->ex, labels);
        if (ps->sel < 0 || ps->sel >= n || ps->wrong[ps->sel])
            return SCREEN_NONE;
        bool right = practice_grade_choice(&ps->ex, ps->sel, ps->feedback, sizeof ps->feedback);
        ps->tries++;
        if (right)
            practice_record(ps, true, ps->tries == 1);
        else {
            ps->wrong[ps->sel] = true;
            if (ps->tries >= PRACTICE_PART_TRIES) {
                size_t len = strlen(ps->feedback);
                snprintf(ps->feedback + len, sizeof ps->feedback - len,
                         " Two tries: the answer is below.");
                practice_record(ps, false, false);
            }
        }
    }
    return SCREEN_NONE;
}

static int practice_key_choice(void *state, int key)
{
    PracticeScreen *ps = state;
    const char *labels[PRACTICE_MAX_CHOICES];
    int n = practice_choices(&ps->ex, labels);
    if (key == UIK_LEFT)
        ps->sel = ps->sel > 0 ? ps->sel - 1 : n - 1;
    else if (key == UIK_RIGHT)
        ps->sel = ps->sel + 1 < n ? ps->sel + 1 : 0;
    else if (key >= '1' && key - '1' < n) {
        ps->sel = key - '1';
        return practice_key_enter(state, UIK_ENTER);
    }
    return SCREEN_NONE;
}

static const KeyBinding predict_rows[] = {
    {{0}, "0-9 . units", "type the number with its unit: 0.3 ms, 450 GB/s, 71 GB", NULL, 9, NULL},
    {{UIK_ENTER},
     "Enter",
     "check the answer (next exercise once done)",
     "Enter check",
     0,
     practice_key_enter},
};
static const KeyTable predict_keys = KEYMAP_TABLE("Predict", predict_rows);

static const KeyBinding part_rows[] = {
    {{UIK_LEFT, UIK_RIGHT, '1', '2', '3', '4', '5', '6'},
     "Left/Right or 1-6",
     "choose a part (a digit answers at once)",
     "1-6 choose",
     0,
     practice_key_choice},
    {{UIK_ENTER},
     "Enter",
     "answer (next exercise once done)",
     "Enter answer",
     0,
     practice_key_enter},
};
static const KeyTable part_keys = KEYMAP_TABLE("Spot the bottleneck", part_rows);
static const KeyTable tier_keys = KEYMAP_TABLE("Which tier", part_rows);

static int practice_key_refused(void *state, int key)
{
    PracticeScreen *ps = state;
    snprintf(ps->page.scn.msg, sizeof ps->page.scn.msg, "%s",
             ps->ex.kind == PRACTICE_PLACEMENT
                 ? "Here only the placement changes: move GPUs or groups between domains."
             : key == 's'
                 ? "No search here: the search's best is what grades you. Map it yourself."
                 : "The cluster is the exercise's: change the mapping, not the machine.");
    return SCREEN_NONE;
}

static const KeyBinding mapping_rows[] = {
    {{'t', 'T', 'y', 'Y', 'x', 'X'},
     "t/T y/Y x/X",
     "TP, PP, EP up / down (DP follows)",
     "t/T y/Y x/X TP PP EP",
     0,
     NULL},
    {{'m', 'M'}, "m/M", "micro-batch up / down", "m/M mb", 1, NULL},
    {{'u'}, "u", "undo", "u undo", 3, NULL},
    {{'e'}, "e", "explain the step's parts", "e explain", 4, NULL},
    {{'s', '+', '-', '=', '_', ']', '['},
     "s + - ] [",
     "off here: search, domain, system",
     NULL,
     9,
     practice_key_refused},
};
static const KeyTable mapping_keys = KEYMAP_TABLE("Map the job", mapping_rows);

/* Placement: the scenario's moves (its own keys), nothing else. */
static const KeyBinding placement_rows[] = {
    {{0}, "arrows", "move the cursor over the GPUs", "arrows move", 0, NULL},
    {{' '}, "Space", "pick the GPU under the cursor", "Space pick", 0, NULL},
    {{'g'}, "g", "pick its whole group (g again: the next kind)", "g group", 1, NULL},
    {{UIK_ENTER}, "Enter", "swap, or drop the group in this domain", "Enter drop", 0, NULL},
    {{'u'}, "u", "undo", "u undo", 3, NULL},
    {{'t', 'T', 'y', 'Y', 'x', 'X', 'm', 'M', 's'},
     "t y x m s",
     "off here: the degrees and the machine are the exercise's",
     NULL,
     9,
     practice_key_refused},
};
static const KeyTable placement_keys = KEYMAP_TABLE("Fix the placement", placement_rows);

static const KeyTable *practice_kind_keys(const PracticeScreen *ps)
{
    if (!ps->have)
        return NULL;
    switch (ps->ex.kind) {
    case PRACTICE_PREDICT:
        return &predict_keys;
    case PRACTICE_BOTTLENECK:
        return &part_keys;
    case PRACTICE_TIER:
        return &tier_keys;
    case PRACTICE_PLACEMENT:
        return &placement_keys;
    default:
        return &mapping_keys;
    }
}

/* After a key in a mapping exercise: graded against the search's best; in
 * a placement exercise, by the spans of the placement reached. */
static void practice_check_mapping(PracticeScreen *ps)
{
    const Scenario *s = ps->page.scn.s;
    char msg[400];
    bool pass = ps->ex.kind == PRACTICE_PLACEMENT
                    ? practice_grade_placement(&ps->ex, scenario_mapping(s), scenario_placement(s),
                                               msg, sizeof msg)
                    : practice_grade_mapping(&ps->ex, scenario_result(s), msg, sizeof msg);
    if (pass) {
        int moves = ps->page.scn.moves;
        msg_set(ps->feedback, sizeof ps->feedback, "%s %d move%s, par %d.", msg, moves,
                moves == 1 ? "" : "s", ps->ex.par);
        practice_record(ps, true, moves <= 2 * ps->ex.par);
    } else if (ps->page.scn.moves > 0)
        snprintf(ps->feedback, sizeof ps->feedback, "%s", msg);
}

ScreenAction screen_practice_key(PracticeScreen *ps, int key)
{
    if (ps->help) {
        ps->help = false;
        return SCREEN_NONE;
    }
    if (key == UIK_RESIZE)
        return SCREEN_NONE;
    bool typing = ps->have && !ps->done && ps->ex.kind == PRACTICE_PREDICT;
    if (typing && key != UIK_ENTER && key != UIK_ESC && key != UIK_CTRL_C &&
        (ps->input[0] || !strchr("naq?", key) || key == 0)) {
        lineedit_key(ps->input, sizeof ps->input, key);
        return SCREEN_NONE;
    }
    if (typing && key == UIK_ESC && ps->input[0]) {
        ps->input[0] = '\0';
        return SCREEN_NONE;
    }
    const KeyTable *kt = practice_kind_keys(ps);
    const KeyBinding *b = kt ? keymap_find(kt, key) : NULL;
    if (b && b->fn)
        return (ScreenAction)b->fn(ps, key);
    if (!b && (b = keymap_find(&practice_keys, key)) != NULL)
        return (ScreenAction)b->fn(ps, key);
    bool scenario = ps->ex.kind == PRACTICE_MAPPING || ps->ex.kind == PRACTICE_PLACEMENT;
    if (ps->have && scenario && ps->page_open && !ps->done) {
        screen_scenario_key(&ps->page, key);
        practice_check_mapping(ps);
    }
    return SCREEN_NONE;
}

/* ---- drawing ---- */

static int practice_text(Canvas *c, int x, int y, int w, int h, const char *s, Style st)
{
    return text_draw_wrapped(c, x, y, w, h, s, st);
}

static void practice_draw_predict(Canvas *c, PracticeScreen *ps, int x, int y, int w, int bottom,
                                  ScreenCursor *cur)
{
    char line[160];
    if (!ps->done) {
        snprintf(line, sizeof line, "Your answer: %s", ps->input);
        canvas_put_text_max(c, x, y, w, line, STYLE_BOLD);
        cur->x = x + utf8_width(line);
        cur->y = y;
        snprintf(line, sizeof line, "(%d of %d tries used; within %.0f%% passes)", ps->tries,
                 PREDICT_TRIES, 100 * ps->ex.tolerance);
        canvas_put_text_max(c, x, y + 1, w, line, STYLE_DIM);
    }
    (void)bottom;
}

/* The choices on one line: "1 compute · 2 TP · ...", the selected one
 * marked without colour ([ ]), a wrong one crossed out as "(no)". */
static void practice_draw_parts(Canvas *c, PracticeScreen *ps, int x, int y, int w,
                                ScreenCursor *cur)
{
    const char *labels[PRACTICE_MAX_CHOICES];
    int n = practice_choices(&ps->ex, labels), col = x;
    bool ascii = canvas_is_ascii(c);
    for (int i = 0; i < n; i++) {
        char item[48], scratch[8];
        bool right = ps->done && practice_grade_choice(&ps->ex, i, scratch, sizeof scratch);
        bool sel = i == ps->sel && !ps->done;
        snprintf(item, sizeof item, "%s%d %s%s%s", sel ? "[" : " ", i + 1, labels[i],
                 ps->wrong[i] ? " (no)"
                 : right      ? (ascii ? " (yes)" : " ✓")
                              : "",
                 sel ? "]" : " ");
        if (col + utf8_width(item) > x + w)
            break;
        if (sel) {
            cur->x = col;
            cur->y = y;
        }
        col += canvas_put_text(c, col, y, item,
                               ps->wrong[i] ? STYLE_DIM
                               : right      ? STYLE_GOOD
                               : sel        ? STYLE_SELECTED
                                            : STYLE_NORMAL);
        col += 1;
    }
}

/* Feedback, then (once done) the answer and the worked answer. */
static void practice_draw_result(Canvas *c, PracticeScreen *ps, int x, int y, int w, int bottom)
{
    if (ps->feedback[0] && y < bottom)
        y += practice_text(c, x, y, w, bottom - y, ps->feedback,
                           ps->done && ps->passed ? STYLE_GOOD
                           : ps->done             ? STYLE_WARNING
                                                  : STYLE_BOLD);
    if (!ps->done || y + 1 >= bottom)
        return;
    char line[400];
    snprintf(line, sizeof line, "Answer: %s", ps->ex.answer);
    y += 1 + practice_text(c, x, y + 1, w, bottom - y - 1, line, STYLE_BOLD);
    if (y < bottom)
        practice_text(c, x, y, w, bottom - y, ps->ex.worked, STYLE_NORMAL);
}

static void practice_draw_mapping(Canvas *c, PracticeScreen *ps, int top, int bottom,
                                  ScreenCursor *cur)
{
    int w = canvas_width(c);
    char line[300], best[32];
    const Cluster *cl = &ps->ex.cluster;
    const WorkloadPreset *wp = workload_preset_find(ps->ex.workload.id);
    if (ps->ex.kind == PRACTICE_PLACEMENT)
        snprintf(line, sizeof line,
                 "%d %s of %s, %s: some %s groups straddle two domains. Move %s until none "
                 "does (Space picks, Enter swaps, g picks a group). Par %d.",
                 cl->n_gpus, hw_noun(&cl->gpu, HW_NOUN_MANY), cl->name,
                 wp ? wp->name : ps->ex.workload.id, mapping_dim_name(ps->ex.dim),
                 hw_noun(&cl->gpu, HW_NOUN_MANY), ps->ex.par);
    else
        snprintf(line, sizeof line,
                 "%d %s of %s, %s, %d sequences a step. Make it fit and come within 5%% of the "
                 "best mapping. Par %d.",
                 cl->n_gpus, hw_noun(&cl->gpu, HW_NOUN_MANY), cl->name,
                 wp ? wp->name : ps->ex.workload.id, ps->ex.workload.global_batch, ps->ex.par);
    /* the whole task, par included, in up to three rows (a long preset name
     * wraps it to three at 80 columns) */
    int rows = text_wrap_count(line, w - 2);
    top += practice_text(c, 1, top, w - 2, rows < 2 ? 2 : rows > 3 ? 3 : rows, line, STYLE_BOLD);
    int fb = ps->done ? 4 : 1; /* rows kept for feedback (and the answer once done) */
    if (ps->page_open)
        screen_scenario_draw(c, &ps->page, top + 1, bottom - fb, cur);
    if (ps->done) {
        units_format(UNITS_TIME, ps->ex.best_step_s, true, best, sizeof best);
        practice_draw_result(c, ps, 1, bottom - fb + 1, w - 2, bottom + 1);
    } else if (ps->feedback[0])
        canvas_put_text_max(c, 1, bottom, w - 2, ps->feedback, STYLE_BOLD);
}

void screen_practice_draw(Canvas *c, PracticeScreen *ps, ScreenCursor *cur)
{
    int w = canvas_width(c), h = canvas_height(c);
    canvas_clear(c);
    cur->x = cur->y = -1;
    bool ascii = canvas_is_ascii(c);
    ps->page.ascii = ascii;
    char title[200], right[120], foot[2][400];
    snprintf(title, sizeof title, "Practice %s %s %s level %d", ascii ? "-" : "—",
             ps->have ? practice_kind_name(ps->ex.kind) : "", ascii ? "-" : "·", ps->run.level);
    snprintf(right, sizeof right, "%d done, %d first try, streak %d", ps->session_done,
             ps->session_first, ps->run.streak);
    const KeyTable *kt = practice_kind_keys(ps);
    const KeyTable *tables[2] = {kt ? kt : &practice_keys, &practice_keys};
    bool scn = ps->ex.kind == PRACTICE_MAPPING || ps->ex.kind == PRACTICE_PLACEMENT;
    int nt = kt ? 2 : 1, fl = scn && ps->have ? 2 : 1;
    keymap_footer(tables, nt, w - 2, fl, ascii, foot);
    int top = screen_frame(c, title, right, fl > 1 ? foot[0] : NULL, fl > 1 ? foot[1] : foot[0]);
    int bottom = h - 2 - fl;
    if (!ps->have) {
        practice_text(c, 2, top + 1, w - 4, bottom - top,
                      ps->error[0] ? ps->error : "No exercise.", STYLE_WARNING);
        return;
    }
    canvas_put_text_max(c, 1, top, w - 2, ps->ex.title, STYLE_HEADING);
    top += 2;
    if (scn)
        practice_draw_mapping(c, ps, top, bottom, cur);
    else {
        int mw = w - 4 > SCREEN_MEASURE ? SCREEN_MEASURE : w - 4, x = (w - mw) / 2;
        int need = text_wrap_count(ps->ex.question, mw);
        /* Room for the question: all but the answer line and, once done, the
         * worked answer (at least 3 lines of question stay, PgUp/PgDn scroll). */
        int room = bottom - top - (ps->done ? 9 : 4);
        int skip = ps->scroll < need ? ps->scroll : need - 1;
        int shown = text_draw_markup(c, x, top, mw, room > 3 ? room : 3, ps->ex.question, skip);
        int y = top + (shown - skip < room ? shown - skip : room) + 1;
        if (ps->ex.kind == PRACTICE_PREDICT)
            practice_draw_predict(c, ps, x, y, mw, bottom, cur), y += ps->done ? 0 : 3;
        else
            practice_draw_parts(c, ps, x, y, mw, cur), y += 2;
        practice_draw_result(c, ps, x, y, mw, bottom + 1);
    }
    if (cur->x < 0) {
        cur->x = 1;
        cur->y = 2;
    }
    if (ps->help)
        keymap_help_draw(c, tables, nt);
}
