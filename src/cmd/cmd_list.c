/* SPDX-License-Identifier: MIT */
/* cmd_list — `scalelab --list [--lessons DIR]`: the lessons of a folder in
 * menu order (track, then order), one line each with the learner's
 * progress mark, id, length and title; lessons that do not load are listed
 * with their file:line error and make the exit status 1.
 */
#include "cmd/cli.h"
#include "cmd/flags.h"

#include "base/escape.h"
#include "base/msg.h"
#include "lesson/catalog.h"
#include "store/progress.h"

#include <stdio.h>
#include <string.h>

static const char list_help[] =
    "Usage: scalelab list [--lessons DIR]   (also: scalelab --list)\n"
    "Lists the lessons by track and order, one line each: the progress mark\n"
    "([ ] new, [>] in progress, [x] done), id, length and title. A lesson that\n"
    "does not load is listed with its FILE:LINE error and makes the exit status 1.\n"
    "  --lessons DIR      the lessons folder (default: $SCALELAB_LESSONS, the\n"
    "                     source tree's or the installed one)\n"
    "  --help             this text\n";

/* Text from a lesson (title, track, id, error) as the terminal may show it:
 * control bytes and escape sequences escaped by the one escaping function. */
static const char *cmd_list_shown(const char *s, char *buf, size_t n)
{
    escape_text(s, strlen(s), buf, n);
    return buf;
}

int cmd_list(int argc, char **argv)
{
    FlagArgs a;
    int rc = flags_parse(&flags_list, argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    if (a.set[FLAG_HELP]) {
        fputs(list_help, stdout);
        return CLI_OK;
    }
    const char *dir = a.str[FLAG_LESSONS];
    char buf[4096];
    if (!dir)
        dir = catalog_default_dir(buf, sizeof buf);
    if (!dir)
        return cli_error(CLI_FAIL, "cannot find the lessons folder (set SCALELAB_LESSONS or "
                                   "use --lessons DIR)");
    char err[MSG_LEN] = "";
    Catalog *cat = catalog_load(dir, err, sizeof err);
    if (!cat)
        return cli_error(CLI_FAIL, "%s", err);
    char pbuf[4096];
    const char *ppath = progress_default_path(pbuf, sizeof pbuf);
    char note[600] = "";
    Progress *pr = progress_open(ppath, note, sizeof note);
    if (note[0])
        cli_error(CLI_OK, "%s", note);
    int bad = 0;
    const char *track = NULL;
    for (int i = 0; i < catalog_count(cat); i++) {
        const CatalogEntry *e = catalog_entry(cat, i);
        char id[128], text[512];
        cmd_list_shown(e->id, id, sizeof id);
        if (e->error) {
            printf("  ! %-24s %s\n", id, cmd_list_shown(e->error, text, sizeof text));
            bad++;
            continue;
        }
        if (!track || strcmp(track, e->track) != 0) {
            printf("%s\n", *e->track ? cmd_list_shown(e->track, text, sizeof text) : "Other");
            track = e->track;
        }
        ProgressStatus st = progress_status(pr, e->id);
        const char *mark = st == PROGRESS_DONE ? "[x]" : st == PROGRESS_STARTED ? "[>]" : "[ ]";
        printf("  %s %-24s %3d min  %s\n", mark, id, e->minutes,
               cmd_list_shown(e->title, text, sizeof text));
    }
    progress_free(pr);
    catalog_free(cat);
    return bad ? CLI_FAIL : CLI_OK;
}
