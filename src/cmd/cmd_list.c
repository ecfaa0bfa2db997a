/* cmd_list — `scalelab --list [--lessons DIR]`: the lessons of a folder in
 * menu order (track, then order), one line each with the learner's
 * progress mark, id, length and title; lessons that do not load are listed
 * with their file:line error and make the exit status 1.
 */
#include "cmd/cli.h"

#include "lesson/catalog.h"
#include "ui/progress.h"

#include <stdio.h>
#include <string.h>

int cmd_list(int argc, char **argv)
{
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--lessons") == 0 && i + 1 < argc)
            dir = argv[++i];
        else
            return cli_usage_error("list: unexpected '%s' (usage: scalelab --list "
                                   "[--lessons DIR])",
                                   argv[i]);
    }
    char buf[4096];
    if (!dir)
        dir = catalog_default_dir(buf, sizeof buf);
    if (!dir) {
        fprintf(stderr, "scalelab: cannot find the lessons folder (set SCALELAB_LESSONS or use "
                        "--lessons DIR)\n");
        return CLI_FAIL;
    }
    char err[512] = "";
    Catalog *cat = catalog_load(dir, err, sizeof err);
    if (!cat) {
        fprintf(stderr, "scalelab: %s\n", err);
        return CLI_FAIL;
    }
    char pbuf[4096];
    const char *ppath = progress_default_path(pbuf, sizeof pbuf);
    char note[600] = "";
    Progress *pr = progress_open(ppath, note, sizeof note);
    if (note[0])
        fprintf(stderr, "scalelab: %s\n", note);
    int bad = 0;
    const char *track = NULL;
    for (int i = 0; i < catalog_count(cat); i++) {
        const CatalogEntry *e = catalog_entry(cat, i);
        if (e->error) {
            printf("  ! %-24s %s\n", e->id, e->error);
            bad++;
            continue;
        }
        if (!track || strcmp(track, e->track) != 0) {
            printf("%s\n", *e->track ? e->track : "Other");
            track = e->track;
        }
        ProgressStatus st = progress_status(pr, e->id);
        const char *mark = st == PROGRESS_DONE ? "[x]" : st == PROGRESS_STARTED ? "[>]" : "[ ]";
        printf("  %s %-24s %3d min  %s\n", mark, e->id, e->minutes, e->title);
    }
    progress_free(pr);
    catalog_free(cat);
    return bad ? CLI_FAIL : CLI_OK;
}
