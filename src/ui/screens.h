/* SPDX-License-Identifier: MIT */
/* screens — every screen of the terminal UI as plain C: a state struct, a
 * draw function onto a Canvas and a key function (state + key -> new state
 * and an action). No curses here: term.c copies the canvas to the terminal,
 * app.c runs the loop, and tests/unit/test_screens.c drives these directly.
 *
 * Screens: the lesson menu (screen_menu.c), a lesson page of any kind
 * (screen_page.c; scenarios in screen_scenario.c), and the shared frame, help overlay and
 * "terminal too small" line (screens.c).
 *
 * Ownership: states borrow their items, lessons and progress store; a
 * PageState owns the Scenario of the scenario page it shows
 * (screen_page_fini frees it). The hardware cursor position each draw
 * returns is where the focused item is, for screen readers.
 */
#ifndef SCALELAB_UI_SCREENS_H
#define SCALELAB_UI_SCREENS_H

#include "draw/canvas.h"
#include "draw/views.h"
#include "learn/scenario.h"
#include "lesson/lesson.h"
#include "store/progress.h"
#include <stdbool.h>
#include <stddef.h>

struct SweepView;

#define SCREEN_REVIEW_MAX 64 /* pages one review replays */

/* Works at 80x24, uses room up to 250x70. */
#define SCREEN_MIN_W 80
#define SCREEN_MIN_H 24
#define SCREEN_MAX_W 250
#define SCREEN_MAX_H 70

typedef enum {
    SCREEN_NONE,     /* stay */
    SCREEN_OPEN,     /* menu: open the selected lesson */
    SCREEN_BACK,     /* page: back to the menu */
    SCREEN_QUIT,     /* leave the program */
    SCREEN_RELOAD,   /* page: reload the lesson file, keep the page */
    SCREEN_PASS,     /* internal: the key means nothing to this part */
    SCREEN_PRACTICE, /* menu: open practice (screen_practice.h) */
    SCREEN_REVIEW,   /* menu: review the selected lesson's missed questions */
    SCREEN_NEXT,     /* page: open the next lesson of the menu (PageState.next_title) */
} ScreenAction;

typedef struct {
    int x, y; /* -1: no focused item */
} ScreenCursor;

/* ---- shared pieces (screens.c) ---- */
bool screen_size_ok(int w, int h);
/* One line asking for a larger terminal (drawn on a canvas of any size). */
void screen_too_small_draw(Canvas *c, int w, int h);
/* Title on row 0 (left) with `right` right-aligned, a rule on row 1, the
 * footer lines at the bottom. Returns the first free row below the rule. */
int screen_frame(Canvas *c, const char *title, const char *right, const char *footer1,
                 const char *footer2);
/* A centred box with the lines of a help text (NULL-terminated array). */
void screen_help_draw(Canvas *c, const char *title, const char *const *lines);

/* ---- the lesson menu (screen_menu.c) ---- */
typedef struct {
    const char *id;
    const char *title;
    const char *summary;
    const char *track;
    const char *error; /* NULL, or the file:line error of a lesson that fails to load */
    int minutes;
    ProgressStatus mark;
    int first_tried; /* quiz and predict pages tried ("4/5 first try") */
    int first_right; /* ... right at the first try */
    int to_review;   /* pages missed at the first try, not yet reviewed right */
    bool mastered;   /* progress_mastered: done, and nothing left to review */
} MenuItem;

typedef struct {
    const MenuItem *items; /* borrowed, in menu order (track, then order) */
    int n_items;
    int sel;         /* selected item, -1 when none is visible */
    int scroll;      /* first row shown of the list */
    char filter[64]; /* words that must all appear (case-insensitive) */
    bool filtering;  /* typing into the filter */
    bool help;
    char note[400];  /* one line under the list (progress notes, errors) */
    char where[200]; /* the lessons folder, shown in the header */
} MenuState;

void screen_menu_init(MenuState *m, const MenuItem *items, int n_items);
/* Does item i pass the filter? */
bool screen_menu_matches(const MenuState *m, int i);
ScreenAction screen_menu_key(MenuState *m, int key);
void screen_menu_draw(Canvas *c, MenuState *m, ScreenCursor *cur);

/* ---- scenario part of a page (screen_scenario.c) ---- */
typedef struct {
    Scenario *s;                   /* owned */
    int cursor;                    /* GPU under the cursor */
    int picked;                    /* picked GPU, -1 none */
    int pick_dim;                  /* -1: one GPU; else the MappingDim of the picked group */
    int goal;                      /* 1 met, 0 not met, -1 script error */
    char why[800];                 /* why the goal is not met, in model terms */
    char msg[400];                 /* the answer to the last key: an illegal move, ... */
    char last[200];                /* the effect of the last move */
    int hints;                     /* hints revealed */
    int explain;                   /* StepPart being explained, -1 none */
    int fresh;                     /* the last key's answer: SCENARIO_FRESH_* */
    bool met;                      /* the goal was met at least once (debrief shown) */
    char debrief[2048];            /* the debrief for the state that met the goal */
    bool used_search;              /* a search result was applied */
    struct ScreenCompare *compare; /* owned: b's reference and c's view (screen_compare.h) */
    struct SweepView *sweep;       /* owned: the search view (s), NULL until first used */
    int moves;                     /* moves made since the page opened (undo is not one) */
    bool confirm_quit;             /* q asked "leave unsaved?"; q again leaves */
    /* a prediction before a marked move (lesson_scenario_guess) */
    bool guessing;     /* the move is made, its result hidden until 1..n answers */
    bool guessed;      /* answered on this visit: not asked again */
    char verdict[300]; /* the graded answer */
} ScenarioView;

/* ---- a lesson page (screen_page.c) ---- */
typedef struct {
    Lesson *lesson; /* borrowed; NULL when the file did not load */
    char path[400];
    char load_error[512]; /* "file:line: message" when lesson is NULL */
    Progress *progress;   /* borrowed, may be NULL */
    int page;
    int scroll;
    int lines; /* lines the text of this page needs (for scrolling) */
    bool help;
    bool notes;                  /* the author view: the page's notes (scalelab.note), N */
    char message[400];           /* one status line */
    char page_error[512];        /* this page could not be built: "file:line: message" */
    bool ascii;                  /* as last drawn: messages made by keys follow it */
    struct QuizView *quiz;       /* owned: the quiz page's state (screen_quiz.c) */
    struct PredictView *predict; /* owned: the predict page's state (screen_predict.c) */
    /* A review replays the pages missed at the first try, in page order. */
    bool review;
    int review_pages[SCREEN_REVIEW_MAX];
    int n_review;
    int review_at; /* index into review_pages */
    ScenarioView scn;
    bool finished;        /* past the last page: the end-of-lesson screen (screen_done.c) */
    char next_title[160]; /* the lesson after this one in the menu, "" when none */
} PageState;

/* Opens page `page` (clamped) of lesson l; load_error when l is NULL. */
void screen_page_init(PageState *p, Lesson *l, const char *path, const char *load_error,
                      Progress *progress, int page);
void screen_page_fini(PageState *p);
/* After a reload: the new lesson (or NULL + error), same page when it exists. */
void screen_page_set_lesson(PageState *p, Lesson *l, const char *load_error);
ScreenAction screen_page_key(PageState *p, int key);
void screen_page_draw(Canvas *c, PageState *p, ScreenCursor *cur);
/* Goes to page n (clamped), recording the visit. */
void screen_page_goto(PageState *p, int n);
/* Starts a review of the pages progress says were missed at the first try
 * (n goes to the next one, the last one goes back). False with a message
 * when there is none. */
bool screen_page_start_review(PageState *p);

/* Whether page i still keeps the lesson from being done (a scenario not
 * met, a quiz not right, a predict page neither right nor out of tries). */
bool screen_page_is_left(const PageState *p, int i);
/* Those pages into buf grouped by kind ("2 predict; 3, 5 scenario");
 * returns how many there are. */
int screen_page_left(const PageState *p, char *buf, size_t n);

/* ---- the end of a lesson (screen_done.c): `n` on the last page ----
 * The lesson's first-try score, what is left (pages not done, questions
 * not answered right, those missed the first time) and the next lesson.
 * Enter opens the next lesson when this one is done, else the first page
 * left; n the next lesson; p the last page again; Esc the menu. */
void screen_done_draw(Canvas *c, PageState *p, ScreenCursor *cur);
ScreenAction screen_done_key(PageState *p, int key);

/* ---- page kinds: where each kind of page plugs in ----
 * screen_page_kind(k) gives the part of page kind k; screen_page.c keeps
 * the table. open runs when the page is entered (after the visit is
 * recorded), close when it is left; key gets every key first (return
 * SCREEN_PASS to let the page keys have it); draw fills the rows from top
 * to bottom (the status line is at bottom); keys is the kind's key table
 * (footer and ? overlay, before the page keys). NULL members: nothing. */
struct KeyTable;
typedef struct {
    const char *name; /* shown at the top right: "quiz" */
    void (*open)(PageState *p);
    void (*close)(PageState *p);
    ScreenAction (*key)(PageState *p, int key);
    void (*draw)(Canvas *c, PageState *p, int top, int bottom, ScreenCursor *cur);
    const struct KeyTable *keys;
    int footer_lines; /* 1 or 2 */
} ScreenPageKind;

const ScreenPageKind *screen_page_kind(PageKind k);
extern const ScreenPageKind screen_kind_scenario; /* screen_scenario.c */
extern const ScreenPageKind screen_kind_quiz;     /* screen_quiz.c */
extern const ScreenPageKind screen_kind_predict;  /* screen_predict.c */
/* The keys every lesson page shares (next, previous, reload, back, help). */
extern const struct KeyTable screen_page_keys;
/* The keys of a scenario (free play puts its own in front of them). */
extern const struct KeyTable screen_scenario_keys;

/* ---- page bodies, shared by lesson pages and presenter mode ---- */

/* A readable measure: text columns at most, on wide screens. */
#define SCREEN_MEASURE 100

typedef struct {
    int margin;   /* blank columns each side (2 on a lesson page, 4 presenting) */
    int measure;  /* text columns at most, centred (0: margin to margin) */
    size_t shown; /* bytes of the page text shown (presenter reveals); (size_t)-1 all */
    int scroll;   /* text lines skipped (on a diagram page: diagram rows) */
    bool fixed;   /* no keys scroll (presenting): a cut diagram says how to see it all */
} PageLayout;

/* Each draws page `page` of l between rows top and bottom and returns the
 * lines its text needs at that width (for scrolling). A page the lesson
 * cannot build draws its error. */
int screen_page_body_text(Canvas *c, const Lesson *l, int page, int top, int bottom,
                          const PageLayout *lay);
/* The draw/ view of a diagram page's view. */
ViewKind screen_page_view(PageView v);
int screen_page_body_diagram(Canvas *c, const Lesson *l, int page, int top, int bottom,
                             const PageLayout *lay);
int screen_page_body_compare(Canvas *c, const Lesson *l, int page, int top, int bottom,
                             const PageLayout *lay);
/* "This page has an error:", the error, and what to do, in the box. */
void screen_page_draw_error(Canvas *c, int x, int y, int w, int h, const char *err);

/* Scenario pages (screen_scenario.c; free play uses them directly). */
void screen_scenario_open(PageState *p);
void screen_scenario_close(PageState *p);
ScreenAction screen_scenario_key(PageState *p, int key);
void screen_scenario_draw(Canvas *c, PageState *p, int top, int bottom, ScreenCursor *cur);
/* Applies a move in scenario_apply_text form as if made with keys (the
 * effect line, the goal check and progress included). False + msg on error. */
bool screen_scenario_apply(PageState *p, const char *move);

#endif
