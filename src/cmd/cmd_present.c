/* SPDX-License-Identifier: MIT */
/* cmd_present — `scalelab present LESSON [--script FILE]`: the lesson (a
 * file, or a lesson's id or file name in the lessons folder) in presenter mode
 * (src/ui/screen_present.c) in the terminal (app_run's presenter mode: the one
 * event loop), or headless with
 * --shot PAGE[.STEP] (the screen as text on stdout, for golden files and
 * slides: --size WxH, --ascii, --clock HH:MM). Never touches progress.
 * Exit 0, 1 when the lesson or script fails to load or there is no
 * terminal, 2 for bad usage.
 */
#include "cmd/cli.h"
#include "cmd/flags.h"
#include "cmd/lessonarg.h"

#include "base/file.h"
#include "base/msg.h"
#include "draw/canvas.h"
#include "lesson/lesson.h"
#include "ui/app.h"
#include "ui/screen_present.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A presenter script is a short list of moves: at most 64 KiB and 2,000
 * lines (each move replays the model once while the script is checked, so
 * the size bounds the time before the show starts), text only. Errors read
 * "FILE:LINE: message". */
#define PRESENT_SCRIPT_BYTES (64u << 10)
#define PRESENT_SCRIPT_LINES 2000

static char *cmd_present_slurp(const char *path, char *err, size_t err_len)
{
    size_t len;
    FileProblem why;
    char *buf = file_read(path, PRESENT_SCRIPT_BYTES, &len, &why);
    if (!buf) {
        char text[200];
        file_problem_text(&why, PRESENT_SCRIPT_BYTES, text, sizeof text);
        msg_set(err, err_len, "%s:1: the script %s (a script holds at most %u lines of moves)",
                path, why.status == FILE_TOO_LARGE ? "is too large" : text, PRESENT_SCRIPT_LINES);
        return NULL;
    }
    int line = 1;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\0' || line > PRESENT_SCRIPT_LINES) {
            msg_set(err, err_len, "%s:%d: %s", path, line,
                    buf[i] ? "too many lines: a script holds at most 2000 moves"
                           : "NUL byte: a script is a text file of moves");
            free(buf);
            return NULL;
        }
        line += buf[i] == '\n';
    }
    return buf;
}

/* screen_present_script says "script:N: message"; the user sees FILE:N. */
static void cmd_present_script_error(const char *path, const char *err, char *out, size_t n)
{
    if (strncmp(err, "script:", 7) == 0)
        msg_set(out, n, "%s:%s", path, err + 7);
    else
        msg_set(out, n, "%s: %s", path, err);
}

static int cmd_present_shot(PresentState *ps, const char *spec, int w, int h, bool ascii,
                            const char *clock)
{
    int page = 0, step = 0;
    char extra;
    int got = sscanf(spec, "%d.%d%c", &page, &step, &extra);
    if ((got != 1 && got != 2) || page < 1 || page > lesson_page_count(ps->lesson) || step < 0)
        return cli_usage_error("present: --shot takes PAGE or PAGE.STEP (pages 1 to %d), got '%s'",
                               lesson_page_count(ps->lesson), spec);
    screen_present_goto(ps, page - 1);
    ps->ascii = ascii;
    for (int i = 0; i < step && ps->step < screen_present_step_count(ps); i++)
        screen_present_key(ps, ' ');
    snprintf(ps->clock, sizeof ps->clock, "%s", clock ? clock : "00:00");
    Canvas *c = canvas_new(w, h);
    canvas_set_ascii(c, ascii);
    screen_present_draw(c, ps);
    char *text = canvas_to_text(c);
    fputs(text, stdout);
    free(text);
    canvas_free(c);
    return CLI_OK;
}

static const char present_help[] =
    "Usage: scalelab present [--lessons DIR] [--script FILE] [--] LESSON\n"
    "Shows a lesson (a file, or the id or file name of a lesson in the lessons\n"
    "folder) full screen for a class: Space, Right or Enter reveals the next step\n"
    "(a paragraph, a quiz's answer, a predict page's answer and then its formula,\n"
    "a scenario's move), u steps back, p or Left goes back a page, 0 restarts the\n"
    "page, q or Esc leaves.\n"
    "Writes no progress.\n"
    "  --lessons DIR      look LESSON up in this folder (default: $SCALELAB_LESSONS,\n"
    "                     the source tree's or the installed one)\n"
    "  --script FILE      play these moves on the scenario pages, one per key\n"
    "  --shot PAGE[.STEP] print that page after STEP reveals as text, no terminal\n"
    "  --size WxH         the --shot size (default 80x24)\n"
    "  --ascii            ASCII only in the --shot\n"
    "  --clock HH:MM      the clock shown in the --shot (default 00:00)\n"
    "  --help             this text\n"
    "  --                 the argument after it is the lesson, even if it starts with -\n";

int cmd_present(int argc, char **argv)
{
    FlagArgs a;
    int rc = flags_parse(&flags_present, argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    if (a.set[FLAG_HELP]) {
        fputs(present_help, stdout);
        return CLI_OK;
    }
    const char *script = a.str[FLAG_SCRIPT], *shot = a.str[FLAG_SHOT];
    const char *clock = a.str[FLAG_CLOCK];
    bool ascii = a.set[FLAG_ASCII];
    if (clock && (strlen(clock) != 5 || clock[2] != ':'))
        return cli_usage_error("present: --clock takes HH:MM (got '%s')", clock);
    int w = 80, h = 24;
    char x;
    const char *size = a.str[FLAG_SIZE];
    if (size && (sscanf(size, "%dx%d%c", &w, &h, &x) != 2 || w < SCREEN_MIN_W ||
                 h < SCREEN_MIN_H || w > SCREEN_MAX_W || h > SCREEN_MAX_H))
        return cli_usage_error("present: --size takes WxH from %dx%d to %dx%d (got '%s')",
                               SCREEN_MIN_W, SCREEN_MIN_H, SCREEN_MAX_W, SCREEN_MAX_H, size);
    if (a.n_operands == 0)
        return cli_usage_error("present: which lesson? scalelab present LESSON.lua "
                               "[--script FILE]");
    char err[MSG_LEN] = "", *lesson_path;
    lessonarg_paths(&a.operand[0], 1, a.str[FLAG_LESSONS], &lesson_path);
    Lesson *l = lesson_load(lesson_path, err, sizeof err);
    free(lesson_path);
    if (!l)
        return cli_error(CLI_FAIL, "%s", err);
    PresentState ps;
    screen_present_init(&ps, l, 0);
    int status = CLI_OK;
    if (script) {
        char *text = cmd_present_slurp(script, err, sizeof err);
        if (!text) {
            status = cli_error(CLI_FAIL, "%s", err);
        } else if (!screen_present_script(&ps, text, err, sizeof err)) {
            char line[MSG_LEN + 64];
            cmd_present_script_error(script, err, line, sizeof line);
            status = cli_error(CLI_FAIL, "%s", line);
        }
        free(text);
    }
    if (status == CLI_OK)
        status = shot ? cmd_present_shot(&ps, shot, w, h, ascii, clock)
                      : app_run(&(AppOptions){.present = &ps}); /* APP_ codes are CLI_ codes */
    screen_present_fini(&ps);
    lesson_free(l);
    return status;
}
