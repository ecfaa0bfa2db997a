/* SPDX-License-Identifier: MIT */
/* cmd_check — `scalelab check FILE...`: validates lessons the way CI does.
 *
 * Every problem of every file is printed on stderr, one per line as
 * "file:line: message" (already escaped by the lesson engine) and nothing
 * else, so editors and CI can parse it. Lesson ids must be unique across
 * the files given.
 *
 * Par is proved: for every scenario of a file that passed, the par search
 * (learn/solve.h) tries every sequence of the keys the scenario allows, the
 * fewest presses first, with the page's goal as the judge; a sequence
 * shorter than par that meets the goal fails the file, and so does a search
 * that stops (its bound) before it has tried every shorter sequence. The
 * shortest solution of each scenario goes to stdout, then one summary line.
 * --solve says more: the keys, the states examined, and what the degree,
 * micro-batch, domain and system keys alone reach (a scenario that they
 * solve asks for no placement), and how often random presses of them meet
 * the goal.
 * --notes prints the notes a lesson made (scalelab.note) on stdout, as
 * "FILE:LINE: page N: note"; without it a file with notes gets one line
 * saying how many, so none ships by mistake.
 * Exit 0 when every file passes, 1 when any problem was found, 2 on usage.
 */
#include "cmd/cli.h"

#include "base/escape.h"
#include "base/xmem.h"
#include "learn/solve.h"
#include "lesson/lesson.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    bool show; /* --notes: print them */
    int n;
} CheckNotes;

static void print_problem(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

/* A note the lesson made (scalelab.note): printed with --notes, counted. */
static void print_note(void *ctx, const char *line)
{
    CheckNotes *n = ctx;
    if (n->show)
        printf("%s\n", line);
    n->n++;
}

static const char check_help[] =
    "Usage: scalelab check [--solve] [--notes] [--] FILE...\n"
    "Loads each lesson file in the sandbox and validates it the way CI does, and\n"
    "proves each scenario's par: no sequence of fewer key presses meets its goal.\n"
    "Every problem goes to stderr as FILE:LINE: message; each scenario's shortest\n"
    "solution and a summary line go to stdout. Exit 0 when every file passes, 1\n"
    "when any has a problem.\n"
    "  --solve            also the keys of each solution, the states the search\n"
    "                     examined, what the degree, micro-batch, domain and\n"
    "                     system keys alone reach, and how often 100 random walks\n"
    "                     of 10 of those presses meet the goal\n"
    "  --notes            print the notes the lesson made with scalelab.note, as\n"
    "                     FILE:LINE: page N: note, on stdout (without it, only\n"
    "                     how many)\n"
    "  --help             this text\n"
    "  --                 the arguments after it are files, even if they start with -\n";

typedef struct {
    Lesson *l;
    int page;
} CheckGoal;

static int check_goal(void *ctx, const Scenario *s, char *err, size_t err_len)
{
    CheckGoal *g = ctx;
    char why[MSG_LEN];
    return lesson_scenario_goal_met(g->l, g->page, s, why, sizeof why, err, err_len);
}

/* One problem of a file, escaped, on stderr. */
static void check_problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void check_problem(const char *fmt, ...)
{
    char raw[MSG_LEN * 2], shown[MSG_LEN * 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    escape_text(raw, strlen(raw), shown, sizeof shown);
    fprintf(stderr, "%s\n", shown);
}

#define CHECK_MASH_WALKS   100
#define CHECK_MASH_PRESSES 10

/* What the keys that change settings alone reach (a lazy learner's t/T
 * y/Y d/D x/X m/M + - ] [): a line for --solve. */
static void check_lazy(const char *title, Scenario *s, CheckGoal *g, int par)
{
    SolveLimits lim = solve_limits_default(s);
    lim.allow &= SCN_ALLOW_DEGREES | SCN_ALLOW_MICRO | SCN_ALLOW_DOMAIN | SCN_ALLOW_SYSTEM;
    lim.max_presses = par > 12 ? par : 12;
    SolveResult r;
    solve_scenario(s, &lim, check_goal, g, &r);
    char line[MSG_LEN * 2];
    if (r.status == SOLVE_FOUND)
        printf("    setting keys alone: met in %d presses: %s\n", r.presses,
               solve_format(&r, line, sizeof line));
    else
        printf("    setting keys alone: %s within %d presses (%ld states)\n",
               r.status == SOLVE_NONE ? "never met" : "not met", r.proved, r.states);
    /* and the learner who mashes them: random walks, a fixed seed */
    SolveMash m;
    solve_mash(s, CHECK_MASH_WALKS, CHECK_MASH_PRESSES, 1, check_goal, g, &m);
    if (m.status == SOLVE_ERROR)
        printf("    mashing them: the goal raised an error: %s\n", m.err);
    else
        printf("    mashing them: %d of %d random walks of %d presses meet it\n", m.met, m.walks,
               m.presses);
    (void)title;
}

/* Proves the par of scenario page `page`; returns the problems found. */
static int check_scenario_par(const char *path, Lesson *l, int page, bool solve)
{
    char err[MSG_LEN], line[MSG_LEN * 2];
    Scenario *s = lesson_scenario_start(l, page, err, sizeof err);
    if (!s)
        return 0; /* lesson_check_file said why */
    int par = lesson_scenario_par(l, page), where = lesson_page_line(l, page);
    const char *title = lesson_page_title(l, page);
    CheckGoal g = {l, page};
    SolveLimits lim = solve_limits_default(s);
    lim.max_presses = par > 0 ? par : 12;
    SolveResult r;
    solve_scenario(s, &lim, check_goal, &g, &r);
    int problems = 0;
    if (r.status == SOLVE_ERROR) {
        check_problem("%s:%d: the par search stopped: %s", path, where, r.err);
        problems++;
    } else if (r.status == SOLVE_FOUND && par > 0 && r.presses < par) {
        check_problem("%s:%d: par %d is beaten: %d key press%s meet the goal: %s", path, where,
                      par, r.presses, r.presses == 1 ? "" : "es",
                      solve_format(&r, line, sizeof line));
        problems++;
    } else if (par > 0 && r.proved < par - 1) {
        check_problem("%s:%d: par %d is not proved: %s after trying every sequence of %d "
                      "press%s (%ld states); give fewer moves in allow, or a smaller cluster",
                      path, where, par, r.err[0] ? r.err : "the search stopped", r.proved,
                      r.proved == 1 ? "" : "es", r.states);
        problems++;
    }
    if (r.status == SOLVE_FOUND)
        printf("  page %d \"%s\": par %d; shortest %d press%s: %s\n", page + 1, title, par,
               r.presses, r.presses == 1 ? "" : "es", solve_format(&r, line, sizeof line));
    else
        printf("  page %d \"%s\": par %d; no shorter solution (every sequence of up to %d "
               "presses tried)\n",
               page + 1, title, par, r.proved);
    if (solve) {
        printf("    %ld states, %ld goal calls%s\n", r.states, r.goal_calls,
               (scenario_allowed(s) & SCN_ALLOW_SEARCH) ? "; s (search) is allowed and not counted"
                                                        : "");
        check_lazy(title, s, &g, par);
    }
    scenario_free(s);
    return problems;
}

/* The par of every scenario of a file that passed the other checks. */
static int check_pars(const char *path, bool solve)
{
    char err[MSG_LEN];
    Lesson *l = lesson_load(path, err, sizeof err);
    if (!l) {
        check_problem("%s", err);
        return 1;
    }
    int problems = 0;
    bool named = false;
    for (int i = 0; i < lesson_page_count(l); i++) {
        if (lesson_page_kind(l, i) != PAGE_SCENARIO)
            continue;
        if (!named)
            printf("%s:\n", path);
        named = true;
        problems += check_scenario_par(path, l, i, solve);
    }
    lesson_free(l);
    return problems;
}

int cmd_check(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(check_help, stdout);
        return CLI_OK;
    }
    /* Operands only: drop one "--"; before it nothing may look like an option. */
    int files = 0;
    bool options = true, solve = false;
    CheckNotes notes = {false, 0};
    for (int i = 1; i < argc; i++) {
        if (options && strcmp(argv[i], "--") == 0) {
            options = false;
            continue;
        }
        if (options && strcmp(argv[i], "--solve") == 0) {
            solve = true;
            continue;
        }
        if (options && strcmp(argv[i], "--notes") == 0) {
            notes.show = true;
            continue;
        }
        if (options && argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error("check: unknown option '%s' (try 'scalelab check --help')",
                                   argv[i]);
        argv[++files] = argv[i];
    }
    argc = files + 1;
    if (argc < 2)
        return cli_usage_error("check: give one or more lesson files (scalelab check "
                               "lessons/*.lua)");
    int problems = 0;
    char **ids = xmem_calloc((size_t)argc, sizeof *ids);
    for (int i = 1; i < argc; i++) {
        char id[256];
        notes.n = 0;
        int n = lesson_check_file_notes(argv[i], print_problem, print_note, &notes, id, sizeof id);
        if (notes.n && !notes.show)
            printf("%s: %d note%s (scalelab check --notes shows them)\n", argv[i], notes.n,
                   notes.n == 1 ? "" : "s");
        problems += n;
        if (n > 0)
            continue;
        problems += check_pars(argv[i], solve);
        for (int j = 1; j < i; j++)
            if (ids[j] && strcmp(ids[j], id) == 0) {
                char line[MSG_LEN * 2], shown[MSG_LEN];
                snprintf(line, sizeof line, "%s:1: lesson id '%s' is already used by %s", argv[i],
                         id, argv[j]);
                escape_text(line, strlen(line), shown, sizeof shown);
                fprintf(stderr, "%s\n", shown);
                problems++;
            }
        ids[i] = xmem_strdup(id);
    }
    for (int i = 0; i < argc; i++)
        free(ids[i]);
    free(ids);
    if (problems)
        return CLI_FAIL;
    printf("%d lesson file%s checked: all pass\n", argc - 1, argc == 2 ? "" : "s");
    return CLI_OK;
}
