/* SPDX-License-Identifier: MIT */
/* lesson_host — every run of lesson code happens in a lesson host (host.h):
 * loading (lesson_load, lesson_load_quick, hence the catalog), `check`,
 * goals, debriefs. This file is the lessons' protocol over the host, both
 * ends: what the child does for each request (with lesson.c's local side,
 * lesson_local.h), and the lesson.h functions that send them.
 *
 * Requests: an operation byte, then its fields (wire.h). LOAD sends the
 * file's text, which scalelab reads itself (the host opens no file), and
 * answers the first problem or the whole lesson; CHECK answers every
 * problem and the id; GOAL and DEBRIEF send the scenario's state
 * (LessonState) and answer what lesson_goal_local and lesson_debrief_local
 * say; STACK answers the Lua stack height (tests).
 *
 * A host that dies, overruns or answers what cannot be read makes one line,
 * "FILE:LINE: the lesson stopped: WHY" (LINE when the host had reached a
 * line of the file), as the load's error, `check`'s problem or the goal's
 * error; a lesson's next goal starts a fresh host from the text it was
 * loaded from. Strings from the host are escaped again here, as if the host
 * had not: it is not trusted.
 *
 * Adding a dynamic call: an OP_ value, its serve_ function (the child, on
 * `served`), and its sender below, both reading and writing the same fields.
 */
#include "lesson/lesson_local.h"

#include "base/escape.h"
#include "base/msg.h"
#include "base/xmem.h"
#include "lesson/sandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_LOAD = 1, OP_CHECK, OP_GOAL, OP_DEBRIEF, OP_STACK };

#define PATH_MAX_BYTES  4096
#define CHECK_MAX_LINES 10000
#define TEXT_MAX_BYTES  (64u << 10) /* a reason, a message, a debrief */

/* ---- the child ----------------------------------------------------------- */

static Lesson *served; /* the lesson this host runs, from its LOAD */

/* Tests: a line "scalelab-test-fault: KIND WHEN" in the lesson's text makes
 * the host fail as KIND says (host_fault) when it serves WHEN (load, check,
 * goal, debrief; start: load or check) or, for WHEN "call:NAME", when the
 * lesson calls NAME. Only
 * with SCALELAB_TEST_FAULTS=1 (host_faults_enabled). */
static char fault_kind[16], fault_when[48];

static void fault_find(const char *text, size_t len)
{
    static const char mark[] = "scalelab-test-fault: ";
    fault_kind[0] = fault_when[0] = '\0';
    if (!host_faults_enabled())
        return;
    const char *at = NULL;
    for (size_t i = 0; !at && i + sizeof mark - 1 <= len; i++)
        if (text[i] == 's' && memcmp(text + i, mark, sizeof mark - 1) == 0)
            at = text + i;
    if (!at)
        return;
    char line[80] = "";
    size_t n = (size_t)(text + len - at) - (sizeof mark - 1);
    memcpy(line, at + sizeof mark - 1, n < sizeof line - 1 ? n : sizeof line - 1);
    line[strcspn(line, "\n")] = '\0';
    if (sscanf(line, "%15s %47s", fault_kind, fault_when) != 2)
        fault_kind[0] = fault_when[0] = '\0';
}

static void fault_at(const char *when)
{
    bool start = strcmp(fault_when, "start") == 0 && /* either way a file is read */
                 (strcmp(when, "load") == 0 || strcmp(when, "check") == 0);
    if (fault_kind[0] && (start || strcmp(fault_when, when) == 0))
        host_fault(fault_kind);
}

static void fault_call(const char *name)
{
    if (fault_kind[0] && strncmp(fault_when, "call:", 5) == 0 && strcmp(fault_when + 5, name) == 0)
        host_fault(fault_kind);
}

/* The path and text every LOAD and CHECK carries; false on a bad request. */
static bool serve_file(WireIn *r, char **path, const char **text, size_t *len)
{
    *path = wire_get_str(r, PATH_MAX_BYTES, NULL);
    *text = wire_get_lstr(r, HOST_MAX_REQUEST, len);
    if (!wire_ok(r) || !*path) {
        free(*path);
        return false;
    }
    fault_find(*text, *len);
    sandbox_set_call_hook(fault_kind[0] ? fault_call : NULL);
    return true;
}

static void serve_load(WireIn *r, Wire *reply)
{
    bool quick = wire_get_u8(r, 1), pages = wire_get_u8(r, 1);
    char *path;
    const char *text;
    size_t len;
    if (!serve_file(r, &path, &text, &len))
        return;
    fault_at("load");
    lesson_free(served);
    served = lesson_read_text(path, text, len, quick);
    free(path);
    bool ok = lesson_problem_count(served) == 0;
    wire_u8(reply, ok);
    if (!ok)
        wire_str(reply, lesson_problem(served, 0));
    else if (pages)
        lesson_to_wire(served, reply);
}

/* What a CHECK answers: its problems, then its notes, each a line. */
typedef struct {
    Wire problems, notes;
    uint32_t n_notes;
} CheckLines;

static void serve_problem(void *ctx, const char *line)
{
    wire_str(&((CheckLines *)ctx)->problems, line);
}

static void serve_note(void *ctx, const char *line)
{
    CheckLines *c = ctx;
    wire_str(&c->notes, line);
    c->n_notes++;
}

static void serve_check(WireIn *r, Wire *reply)
{
    char *path;
    const char *text;
    size_t len;
    if (!serve_file(r, &path, &text, &len))
        return;
    fault_at("check");
    CheckLines lines = {.n_notes = 0};
    wire_init(&lines.problems);
    wire_init(&lines.notes);
    char id[256] = "";
    int n = lesson_check_local(path, text, len, serve_problem, serve_note, &lines, id, sizeof id);
    free(path);
    wire_u32(reply, (uint32_t)n);
    wire_put(reply, lines.problems.buf, lines.problems.len);
    wire_str(reply, id);
    wire_u32(reply, lines.n_notes);
    wire_put(reply, lines.notes.buf, lines.notes.len);
    wire_free(&lines.problems);
    wire_free(&lines.notes);
}

static void serve_goal(WireIn *r, Wire *reply)
{
    int page = wire_get_i32(r, 0, 1 << 20);
    LessonState st;
    if (!wire_get(r, &st, sizeof st) || !served)
        return;
    fault_at("goal");
    char why[MSG_LEN] = "", err[MSG_LEN] = "";
    int met = lesson_goal_local(served, page, &st, why, sizeof why, err, sizeof err);
    wire_i32(reply, met);
    wire_str(reply, why);
    wire_str(reply, err);
}

static void serve_debrief(WireIn *r, Wire *reply)
{
    int page = wire_get_i32(r, 0, 1 << 20);
    LessonState st;
    LessonPlay play;
    if (!wire_get(r, &st, sizeof st) || !wire_get(r, &play, sizeof play) || !served)
        return;
    fault_at("debrief");
    char out[MSG_LEN * 3] = "", err[MSG_LEN] = "";
    bool ok = lesson_debrief_local(served, page, &st, &play, out, sizeof out, err, sizeof err);
    wire_u8(reply, ok);
    wire_str(reply, out);
    wire_str(reply, err);
}

/* The host's HostServeFn: one request, one answer (an empty answer for a
 * request it cannot read, which the parent refuses). */
static void lesson_host_serve(WireIn *req, Wire *reply)
{
    switch (wire_get_u8(req, OP_STACK)) {
    case OP_LOAD:
        serve_load(req, reply);
        break;
    case OP_CHECK:
        serve_check(req, reply);
        break;
    case OP_GOAL:
        serve_goal(req, reply);
        break;
    case OP_DEBRIEF:
        serve_debrief(req, reply);
        break;
    case OP_STACK:
        wire_i32(reply, lesson_stack_local(served));
        break;
    default:
        break;
    }
}

/* ---- scalelab's side ------------------------------------------------------ */

/* Wall clock a request may take: the sandbox's own for it, so its limit
 * (which names the line) trips first, plus 15% and 0.1 s (2.4 s for a
 * load, `check` or a goal: `check` ends within 3 s whatever the host does). */
static double request_seconds(bool quick)
{
    SandboxLimits lim = quick ? sandbox_limits_catalog() : sandbox_limits_default();
    return lim.seconds * 1.15 + 0.1;
}

/* "FILE:LINE: the lesson stopped: WHY" (no LINE when unknown; Esc's own
 * words when the learner stopped it). */
static void stopped_line(const char *path, int line, bool learner, const char *why, char *err,
                         size_t n)
{
    char name[256], where[300];
    lesson_shown_name(path, name, sizeof name);
    if (line > 0)
        snprintf(where, sizeof where, "%s:%d", name, line);
    else
        snprintf(where, sizeof where, "%s", name);
    msg_set(err, n, learner ? "%s: %s" : "%s: the lesson stopped: %s", where, why);
}

/* Sends req to h and waits; false with the line in err when the host is
 * gone (freed here: *h becomes NULL). */
static bool ask(Host **h, const char *path, const Wire *req, bool quick, Wire *reply, char *err,
                size_t n)
{
    int line;
    bool learner;
    char why[MSG_LEN];
    if (host_call(*h, req, request_seconds(quick), reply, &line, &learner, why, sizeof why))
        return true;
    host_free(*h);
    *h = NULL;
    stopped_line(path, line, learner, why, err, n);
    return false;
}

/* An answer that cannot be read: the host is ended and the line said. */
static void refuse(Host **h, const char *path, const WireIn *r, char *err, size_t n)
{
    char why[MSG_LEN];
    msg_set(why, sizeof why, "it sent a malformed answer (%s)", r->why ? r->why : "unexpected");
    host_free(*h);
    *h = NULL;
    stopped_line(path, 0, false, why, err, n);
}

/* A message from the host, as if it had never been escaped. */
static void take_message(const char *s, char *out, size_t n)
{
    escape_text(s ? s : "", s ? strlen(s) : 0, out, n);
}

static char *read_lesson_file(const char *path, size_t *len, char *err, size_t n)
{
    char name[256];
    lesson_shown_name(path, name, sizeof name);
    return sandbox_read_file(name, path, sandbox_limits_default().file_bytes, len, err, n);
}

static void put_file(Wire *w, const char *path, const char *text, size_t len)
{
    wire_str(w, path);
    wire_lstr(w, text, len);
}

/* Starts a host and loads text in it; with pages, *out gets the lesson it
 * sent. Returns the host, NULL with err (the first problem, or why the host
 * stopped). */
static Host *start_loaded(const char *path, const char *text, size_t len, bool quick, Lesson **out,
                          char *err, size_t n)
{
    Host *h = host_start(lesson_host_serve, err, n);
    if (!h)
        return NULL;
    Wire req, reply;
    wire_init(&req);
    wire_u8(&req, OP_LOAD);
    wire_u8(&req, quick);
    wire_u8(&req, out != NULL);
    put_file(&req, path, text, len);
    bool ok = ask(&h, path, &req, quick, &reply, err, n);
    wire_free(&req);
    if (!ok)
        return NULL;
    WireIn r = wire_in(reply.buf, reply.len);
    if (wire_get_u8(&r, 1)) {
        char why[MSG_LEN];
        if (out && !(*out = lesson_from_wire(path, &r, why, sizeof why)))
            wire_fail(&r, "a lesson that does not hold together");
        if (!out && r.left)
            wire_fail(&r, "bytes after the answer");
    } else {
        char *problem = wire_get_str(&r, TEXT_MAX_BYTES, NULL);
        if (problem && wire_ok(&r) && r.left == 0) {
            take_message(problem, err, n);
            host_free(h);
            h = NULL;
        } else {
            wire_fail(&r, "an unreadable problem");
        }
        free(problem);
    }
    if (h && !wire_ok(&r))
        refuse(&h, path, &r, err, n);
    wire_free(&reply);
    return h;
}

static Lesson *lesson_load_with(const char *path, bool quick, char *err, size_t n)
{
    size_t len;
    char *text = read_lesson_file(path, &len, err, n);
    if (!text)
        return NULL;
    Lesson *l = NULL;
    Host *h = start_loaded(path, text, len, quick, &l, err, n);
    if (!h) {
        free(text);
        return NULL;
    }
    lesson_attach_host(l, h, text, len, quick);
    return l;
}

Lesson *lesson_load(const char *path, char *err, size_t err_len)
{
    return lesson_load_with(path, false, err, err_len);
}

Lesson *lesson_load_quick(const char *path, char *err, size_t err_len)
{
    return lesson_load_with(path, true, err, err_len);
}

/* The host of l, started afresh from its text when the last one stopped. */
static bool ensure_host(Lesson *l, char *err, size_t n)
{
    if (host_alive(lesson_host(l)))
        return true;
    size_t len;
    const char *text = lesson_source(l, &len);
    if (!text)
        return msg_fail(err, n, "%s: the lesson is not loaded", lesson_path(l));
    Host *h = start_loaded(lesson_path(l), text, len, lesson_is_quick(l), NULL, err, n);
    lesson_set_host(l, h);
    return h != NULL;
}

/* The notes after a CHECK's id, each to note (NULL: read and dropped). */
static void take_notes(WireIn *r, LessonReportFn note, void *ctx)
{
    uint32_t n = wire_get_u32(r, CHECK_MAX_LINES);
    for (uint32_t i = 0; i < n && wire_ok(r); i++) {
        char *line = wire_get_str(r, TEXT_MAX_BYTES, NULL);
        char shown[4096];
        take_message(line, shown, sizeof shown);
        if (line && note)
            note(ctx, shown);
        free(line);
    }
}

int lesson_check_file_id(const char *path, LessonReportFn report, void *ctx, char *id,
                         size_t id_len)
{
    return lesson_check_file_notes(path, report, NULL, ctx, id, id_len);
}

int lesson_check_file_notes(const char *path, LessonReportFn report, LessonReportFn note,
                            void *ctx, char *id, size_t id_len)
{
    if (id && id_len)
        id[0] = '\0';
    char err[MSG_LEN];
    size_t len;
    char *text = read_lesson_file(path, &len, err, sizeof err);
    Host *h = text ? host_start(lesson_host_serve, err, sizeof err) : NULL;
    Wire req, reply;
    wire_init(&req);
    wire_init(&reply);
    wire_u8(&req, OP_CHECK);
    put_file(&req, path, text, len);
    bool ok = h && ask(&h, path, &req, false, &reply, err, sizeof err);
    wire_free(&req);
    free(text);
    int problems = 0;
    WireIn r = wire_in(reply.buf, reply.len);
    uint32_t n = ok ? wire_get_u32(&r, CHECK_MAX_LINES) : 0;
    for (uint32_t i = 0; ok && i < n && wire_ok(&r); i++) {
        char *line = wire_get_str(&r, TEXT_MAX_BYTES, NULL);
        char shown[MSG_LEN];
        take_message(line, shown, sizeof shown);
        if (line && report)
            report(ctx, shown);
        problems += line != NULL;
        free(line);
    }
    char *got = ok ? wire_get_str(&r, 255, NULL) : NULL;
    for (const char *c = got; c && *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
            wire_fail(&r, "an id with characters ids may not hold");
    if (ok)
        take_notes(&r, note, ctx);
    if (ok && (!got || !wire_ok(&r) || r.left != 0 || (n == 0) != (got[0] != '\0'))) {
        wire_fail(&r, "an unreadable report");
        refuse(&h, path, &r, err, sizeof err);
        ok = false;
    }
    if (ok && id && id_len)
        snprintf(id, id_len, "%s", got);
    free(got);
    wire_free(&reply);
    host_free(h);
    if (!ok) {
        if (report)
            report(ctx, err);
        return problems + 1;
    }
    return problems;
}

int lesson_check_file(const char *path, LessonReportFn report, void *ctx)
{
    return lesson_check_file_id(path, report, ctx, NULL, 0);
}

/* Sends a GOAL or DEBRIEF for page of l at s (the host started afresh when
 * needed); false with err when the host stopped. */
static bool ask_state(Lesson *l, int op, int page, const Scenario *s, const LessonPlay *play,
                      Wire *reply, char *err, size_t n)
{
    if (!ensure_host(l, err, n))
        return false;
    LessonState st;
    lesson_state_of(s, &st);
    Wire req;
    wire_init(&req);
    wire_u8(&req, (unsigned)op);
    wire_i32(&req, page);
    wire_put(&req, &st, sizeof st);
    if (play)
        wire_put(&req, play, sizeof *play);
    Host *h = lesson_host(l);
    bool ok = ask(&h, lesson_path(l), &req, lesson_is_quick(l), reply, err, n);
    lesson_set_host(l, h);
    wire_free(&req);
    return ok;
}

static bool not_a_scenario(const Lesson *l, int page, const Scenario *s, char *err, size_t n)
{
    if (lesson_page_has_goal(l, page) && s)
        return false;
    if (err && n)
        msg_set(err, n, "%s: page %d is not a scenario", lesson_path(l), page + 1);
    return true;
}

int lesson_scenario_goal_met(Lesson *l, int page, const Scenario *s, char *why, size_t why_len,
                             char *err, size_t err_len)
{
    char e[MSG_LEN] = "";
    if (why && why_len)
        why[0] = '\0';
    if (not_a_scenario(l, page, s, err, err_len))
        return -1;
    if (lesson_is_local(l)) {
        LessonState st;
        lesson_state_of(s, &st);
        return lesson_goal_local(l, page, &st, why, why_len, err, err_len);
    }
    Wire reply;
    if (!ask_state(l, OP_GOAL, page, s, NULL, &reply, e, sizeof e)) {
        msg_set(err, err_len, "%s", e);
        return -1;
    }
    WireIn r = wire_in(reply.buf, reply.len);
    int met = wire_get_i32(&r, -1, 1);
    char *w = wire_get_str(&r, TEXT_MAX_BYTES, NULL), *x = wire_get_str(&r, TEXT_MAX_BYTES, NULL);
    if (!w || !x || !wire_ok(&r) || r.left != 0) {
        Host *h = lesson_host(l);
        refuse(&h, lesson_path(l), &r, e, sizeof e);
        lesson_set_host(l, h);
        msg_set(err, err_len, "%s", e);
        met = -1;
    } else {
        if (why && why_len)
            take_message(w, why, why_len);
        if (met < 0 && err && err_len)
            take_message(x, err, err_len);
    }
    free(w);
    free(x);
    wire_free(&reply);
    return met;
}

bool lesson_scenario_debrief_for(Lesson *l, int page, const Scenario *s, const LessonPlay *play,
                                 char *out, size_t out_len, char *err, size_t err_len)
{
    LessonPlay none = {0};
    if (!play)
        play = &none;
    if (!out || out_len == 0)
        return false;
    out[0] = '\0';
    if (not_a_scenario(l, page, s, err, err_len))
        return false;
    if (lesson_is_local(l)) {
        LessonState st;
        lesson_state_of(s, &st);
        return lesson_debrief_local(l, page, &st, play, out, out_len, err, err_len);
    }
    Wire reply;
    char e[MSG_LEN] = "";
    if (!ask_state(l, OP_DEBRIEF, page, s, play, &reply, e, sizeof e)) {
        lesson_debrief_line(l, page, play, out, out_len);
        msg_set(err, err_len, "%s", e);
        return false;
    }
    WireIn r = wire_in(reply.buf, reply.len);
    bool ok = wire_get_u8(&r, 1);
    char *text = wire_get_str(&r, TEXT_MAX_BYTES, NULL),
         *x = wire_get_str(&r, TEXT_MAX_BYTES, NULL);
    if (!text || !x || !wire_ok(&r) || r.left != 0) {
        Host *h = lesson_host(l);
        refuse(&h, lesson_path(l), &r, e, sizeof e);
        lesson_set_host(l, h);
        lesson_debrief_line(l, page, play, out, out_len);
        msg_set(err, err_len, "%s", e);
        ok = false;
    } else {
        lesson_text_copy(text, strlen(text), out, out_len);
        if (!ok && err && err_len)
            take_message(x, err, err_len);
    }
    free(text);
    free(x);
    wire_free(&reply);
    return ok;
}

int lesson_debug_stack_top(const Lesson *l)
{
    if (!l || lesson_is_local(l))
        return lesson_stack_local(l);
    Lesson *m = (Lesson *)l; /* a fresh host, if one starts, is the lesson's own state */
    char err[MSG_LEN];
    if (!ensure_host(m, err, sizeof err))
        return -1;
    Wire req, reply;
    wire_init(&req);
    wire_u8(&req, OP_STACK);
    Host *h = lesson_host(m);
    bool ok = ask(&h, lesson_path(m), &req, false, &reply, err, sizeof err);
    lesson_set_host(m, h);
    wire_free(&req);
    if (!ok)
        return -1;
    WireIn r = wire_in(reply.buf, reply.len);
    int top = wire_get_i32(&r, -1, 1 << 20);
    wire_free(&reply);
    return wire_ok(&r) ? top : -1;
}
