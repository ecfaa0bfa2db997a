/* SPDX-License-Identifier: MIT */
/* app — the event loop: draw the current screen onto a canvas (at most
 * 250x70, or the "too small" line below 80x24), copy it to the terminal,
 * wait for one key (blocking: no CPU while idle), hand it to the screen's
 * key function and act on what it returns (open, back, reload, quit).
 *
 * Progress is written by the screens after every change, so the quit paths
 * only have to restore the terminal. No curses here (term.c does that).
 */
#include "ui/app.h"

#include "base/clock.h"
#include "base/xmem.h"
#include "lesson/catalog.h"
#include "lesson/lesson.h"
#include "lesson/sandbox.h"
#include "store/progress.h"
#include "ui/keys.h"
#include "ui/screen_play.h"
#include "ui/screen_practice.h"
#include "ui/screen_present.h"
#include "ui/screens.h"
#include "ui/term.h"

#include <sys/stat.h>
#include <time.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Catalog *cat;
    MenuItem *items;
    int n_items;
    MenuState menu;
    PageState page;
    bool in_page;
    bool direct; /* one lesson file, no menu */
    Lesson *lesson;
    Progress *progress;
    Canvas *canvas;
    PlayState *play;          /* free play, NULL otherwise */
    PresentState *present;    /* presenter mode (borrowed), NULL otherwise */
    PracticeScreen *practice; /* practice, from the command line or the menu; NULL otherwise */
    struct timespec watch_mt; /* the open lesson file's mtime and size when loaded */
    long long watch_size;
    int keep_page;    /* the page a reload comes back to */
    double watched_s; /* monotonic time of the last look at the file */
} App;

/* Remembers the lesson file's mtime and size; true when they changed. */
static bool app_watch(App *a)
{
    struct stat st;
    struct timespec mt = {0, 0};
    long long size = -1;
    a->watched_s = clock_now_s();
    if (stat(a->page.path, &st) == 0) {
        mt = st.st_mtim;
        size = (long long)st.st_size;
    }
    bool changed = mt.tv_sec != a->watch_mt.tv_sec || mt.tv_nsec != a->watch_mt.tv_nsec ||
                   size != a->watch_size;
    a->watch_mt = mt;
    a->watch_size = size;
    return changed;
}

/* S: the canvas last drawn, as SVG in the current folder (or the state
 * folder), said on the status line. */
static void app_export_svg(App *a)
{
    char where[700], title[600];
    if (a->present)
        snprintf(title, sizeof title, "scalelab: %s, page %d", lesson_title(a->present->lesson),
                 a->present->page + 1);
    else if (a->play)
        snprintf(title, sizeof title, "scalelab free play");
    else
        snprintf(title, sizeof title, "scalelab: %s, page %d",
                 a->lesson ? lesson_title(a->lesson) : a->page.path, a->page.page + 1);
    bool ok = screen_play_export_svg(a->canvas, title, NULL, where, sizeof where);
    char *dst = a->present ? a->present->message
                : a->play  ? a->play->page.scn.msg
                           : a->page.message;
    size_t n = a->present ? sizeof a->present->message
               : a->play  ? sizeof a->play->page.scn.msg
                          : sizeof a->page.message;
    snprintf(dst, n, ok ? "Screen saved as SVG: %.370s" : "SVG not saved: %.370s", where);
}

static void app_fill_marks(App *a)
{
    for (int i = 0; i < a->n_items; i++) {
        MenuItem *it = &a->items[i];
        it->mark = progress_status(a->progress, it->id);
        it->first_tried = progress_first_tries(a->progress, it->id, &it->first_right);
        it->to_review = progress_review_pages(a->progress, it->id, NULL, 0);
        it->mastered = progress_mastered(a->progress, it->id);
    }
}

static void app_build_menu(App *a, const char *dir)
{
    a->n_items = catalog_count(a->cat);
    a->items = xmem_calloc(a->n_items > 0 ? (size_t)a->n_items : 1, sizeof *a->items);
    for (int i = 0; i < a->n_items; i++) {
        const CatalogEntry *e = catalog_entry(a->cat, i);
        a->items[i].id = e->id;
        a->items[i].title = e->title;
        a->items[i].summary = e->summary;
        a->items[i].track = e->track;
        a->items[i].error = e->error;
        a->items[i].minutes = e->minutes;
    }
    app_fill_marks(a);
    screen_menu_init(&a->menu, a->items, a->n_items);
    snprintf(a->menu.where, sizeof a->menu.where, "Lessons from %.*s", 180, dir);
}

static void app_open(App *a, const char *path, const char *id)
{
    char err[MSG_LEN] = "";
    a->lesson = lesson_load(path, err, sizeof err);
    int page = 0;
    if (a->lesson && id && progress_status(a->progress, id) == PROGRESS_STARTED)
        page = progress_page(a->progress, id);
    screen_page_init(&a->page, a->lesson, path, err, a->progress, page);
    a->in_page = true;
    app_watch(a);
    /* The end-of-lesson screen offers the next lesson of the menu. */
    const CatalogEntry *next = a->direct ? NULL : catalog_entry(a->cat, a->menu.sel + 1);
    if (next && !next->error)
        snprintf(a->page.next_title, sizeof a->page.next_title, "%s", next->title);
}

static void app_close_page(App *a)
{
    screen_page_fini(&a->page);
    lesson_free(a->lesson);
    a->lesson = NULL;
    a->in_page = false;
    app_fill_marks(a);
}

/* The end-of-lesson screen's "next lesson": the menu's next entry. */
static void app_open_next(App *a)
{
    const CatalogEntry *e = catalog_entry(a->cat, a->menu.sel + 1);
    app_close_page(a);
    if (!e)
        return;
    a->menu.sel++;
    app_open(a, e->path, e->error ? NULL : e->id);
}

static void app_reload(App *a)
{
    char err[MSG_LEN] = "";
    /* The page to come back to, kept across a reload that fails. */
    if (a->lesson)
        a->keep_page = a->page.page;
    Lesson *fresh = lesson_load(a->page.path, err, sizeof err);
    screen_page_set_lesson(&a->page, fresh, err);
    lesson_free(a->lesson);
    a->lesson = fresh;
    if (fresh && a->keep_page != a->page.page) {
        screen_page_goto(&a->page, a->keep_page);
        snprintf(a->page.message, sizeof a->page.message, "Reloaded from disk.");
    }
}

/* Presenter mode's clock, "HH:MM" local time. */
static void app_clock(PresentState *ps)
{
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(ps->clock, sizeof ps->clock, "%H:%M", &tm);
}

static void app_draw(App *a)
{
    int w, h;
    term_size(&w, &h);
    ScreenCursor cur = {-1, -1};
    canvas_set_ascii(a->canvas, term_is_ascii());
    if (!screen_size_ok(w, h)) {
        canvas_resize(a->canvas, w, 1);
        screen_too_small_draw(a->canvas, w, h);
        term_blit(a->canvas, 0, 0);
        return;
    }
    canvas_resize(a->canvas, w < SCREEN_MAX_W ? w : SCREEN_MAX_W,
                  h < SCREEN_MAX_H ? h : SCREEN_MAX_H);
    canvas_clear(a->canvas);
    if (a->present) {
        app_clock(a->present);
        screen_present_draw(a->canvas, a->present);
    } else if (a->play)
        screen_play_draw(a->canvas, a->play, &cur);
    else if (a->practice)
        screen_practice_draw(a->canvas, a->practice, &cur);
    else if (a->in_page)
        screen_page_draw(a->canvas, &a->page, &cur);
    else
        screen_menu_draw(a->canvas, &a->menu, &cur);
    term_blit(a->canvas, cur.x, cur.y);
}

static void app_open_practice(App *a, unsigned long long seed, bool seed_given, int kind,
                              int level, bool from_menu)
{
    a->practice = xmem_calloc(1, sizeof *a->practice);
    screen_practice_init(a->practice, a->progress, seed, seed_given, kind, level);
    a->practice->from_menu = from_menu;
}

static void app_close_practice(App *a)
{
    screen_practice_fini(a->practice);
    free(a->practice);
    a->practice = NULL;
}

/* Returns false when the program should end. */
static bool app_key(App *a, int key)
{
    int w, h;
    term_size(&w, &h);
    if (!screen_size_ok(w, h))
        return !(key == 'q' || key == UIK_CTRL_C);
    if (key == 'S' && (a->present || a->play || (a->in_page && !a->page.help))) {
        app_export_svg(a);
        return true;
    }
    if (a->present)
        return screen_present_key(a->present, key) != SCREEN_QUIT;
    if (a->play)
        return screen_play_key(a->play, key) != SCREEN_QUIT;
    if (a->practice) {
        ScreenAction act = screen_practice_key(a->practice, key);
        if (act == SCREEN_BACK)
            app_close_practice(a);
        return act != SCREEN_QUIT;
    }
    if (!a->in_page) {
        ScreenAction act = screen_menu_key(&a->menu, key);
        if (act == SCREEN_QUIT)
            return false;
        if (act == SCREEN_PRACTICE)
            app_open_practice(a, 0, false, -1, 0, true);
        if ((act == SCREEN_OPEN || act == SCREEN_REVIEW) && a->menu.sel >= 0) {
            const CatalogEntry *e = catalog_entry(a->cat, a->menu.sel);
            app_open(a, e->path, e->error ? NULL : e->id);
            if (act == SCREEN_REVIEW && a->lesson && !screen_page_start_review(&a->page)) {
                snprintf(a->menu.note, sizeof a->menu.note, "%s", a->page.message);
                app_close_page(a);
            }
        }
        return true;
    }
    ScreenAction act = screen_page_key(&a->page, key);
    switch (act) {
    case SCREEN_BACK:
        app_close_page(a);
        return !a->direct;
    case SCREEN_QUIT:
        return false;
    case SCREEN_RELOAD:
        app_reload(a);
        return true;
    case SCREEN_NEXT:
        app_open_next(a);
        return true;
    default:
        return true;
    }
}

int app_run(const AppOptions *o)
{
    char msg[600];
    if (!term_preflight(msg, sizeof msg)) {
        fprintf(stderr, "scalelab: %s\n", msg);
        return APP_NO_TERMINAL;
    }
    App a;
    memset(&a, 0, sizeof a);
    char dirbuf[4096];
    const char *dir = NULL;
    a.present = o->present;
    if (o->lesson_file || o->play || o->present || o->practice) {
        a.direct = true;
    } else {
        dir = o->lessons_dir ? o->lessons_dir : catalog_default_dir(dirbuf, sizeof dirbuf);
        if (!dir) {
            fprintf(stderr, "scalelab: cannot find the lessons folder (set SCALELAB_LESSONS "
                            "or use --lessons DIR)\n");
            return APP_FAIL;
        }
        char err[MSG_LEN] = "";
        a.cat = catalog_load(dir, err, sizeof err);
        if (!a.cat) {
            fprintf(stderr, "scalelab: %s\n", err[0] ? err : "cannot read the lessons folder");
            return APP_FAIL;
        }
    }
    char pathbuf[4096], note[sizeof a.menu.note] = "";
    const char *ppath = a.present ? NULL : progress_default_path(pathbuf, sizeof pathbuf);
    a.progress = a.present ? NULL : progress_open(ppath, note, sizeof note);
    if (!ppath && !a.present)
        msg_set(note, sizeof note, "no HOME or XDG_STATE_HOME: progress will not be kept");
    if (!a.direct && !o->play)
        app_build_menu(&a, dir);
    snprintf(a.menu.note, sizeof a.menu.note, "%s", note);

    if (!term_start(msg, sizeof msg)) {
        fprintf(stderr, "scalelab: %s\n", msg);
        progress_free(a.progress);
        free(a.items);
        catalog_free(a.cat);
        return APP_NO_TERMINAL;
    }
    a.canvas = canvas_new(SCREEN_MIN_W, SCREEN_MIN_H);
    sandbox_set_poll(term_busy_poll, NULL); /* "running… Esc to stop" */
    if (o->play) {
        a.play = xmem_calloc(1, sizeof *a.play);
        screen_play_init(a.play, o->play, o->play_from);
    } else if (o->practice) {
        app_open_practice(&a, o->practice_seed, o->practice_seed_given, o->practice_kind,
                          o->practice_level, false);
    } else if (o->lesson_file) {
        app_open(&a, o->lesson_file, NULL);
        if (note[0])
            snprintf(a.page.message, sizeof a.page.message, "%s", note);
    }
    for (;;) {
        app_draw(&a);
        /* A lesson open: wake once a second to see whether its file changed. */
        bool watching = a.in_page && !a.play;
        /* Presenting: a quiet minute still moves the clock. */
        int key = a.present  ? term_read_key_timeout(5000)
                  : watching ? term_read_key_timeout(1000)
                             : term_read_key();
        /* At most once a second, also while keys keep coming. */
        if (watching && clock_now_s() - a.watched_s >= 0.9 && app_watch(&a)) {
            app_reload(&a);
            snprintf(a.page.message, sizeof a.page.message, "%s",
                     a.lesson ? "Reloaded: the file changed on disk."
                              : "The file changed on disk and has an error: shown above.");
            if (key == UIK_NONE)
                continue;
        }
        if (key == UIK_SIGNAL) {
            int sig = term_quit_signal();
            progress_save(a.progress, NULL, 0);
            term_die_by_signal(sig);
        }
        if (key == UIK_NONE || key == UIK_RESIZE)
            continue;
        if (!app_key(&a, key))
            break;
        const char *perr = progress_take_error(a.progress);
        if (perr) {
            char *dst = a.in_page ? a.page.message : a.menu.note;
            size_t n = a.in_page ? sizeof a.page.message : sizeof a.menu.note;
            snprintf(dst, n, "progress not saved: %s", perr);
        }
    }
    sandbox_set_poll(NULL, NULL);
    term_stop();
    if (a.play) {
        screen_play_fini(a.play);
        free(a.play);
    }
    if (a.practice)
        app_close_practice(&a);
    if (a.in_page)
        app_close_page(&a);
    canvas_free(a.canvas);
    progress_free(a.progress);
    free(a.items);
    catalog_free(a.cat);
    return APP_OK;
}
