/* SPDX-License-Identifier: MIT */
/* fuzz_progress — libFuzzer harness for the progress file: whatever bytes
 * lie at $XDG_STATE_HOME/scalelab/progress (a crash, a disk error, another
 * version, a hand edit) must never crash scalelab or leak into the terminal.
 *
 * The bytes are written to a file in a private temporary folder and opened
 * with progress_open. Checked beyond "no crash, no sanitizer report": the
 * note is empty or one line without control characters; a file with a note
 * was set aside ("<path>.corrupt-TIME-N", store/aside.h); then one change is
 * made and saved, and
 * the saved file reopens with no note, with the change kept (a round trip
 * through the writer and the parser). Input bytes 0-1 choose the lesson id
 * queried and the page changed; the rest is the file.
 * Built only by `make fuzz`; depends on store/progress.h (no curses).
 */
#include "store/progress.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[96];

/* Removes the files set aside so far ("progress.corrupt-..."); returns how
 * many there were. */
static int drop_aside(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strncmp(e->d_name, "progress.corrupt-", 17) == 0) {
            char p[400];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            n += unlink(p) == 0;
        }
    if (d)
        closedir(d);
    return n;
}

static void check_note(const char *note)
{
    for (const unsigned char *p = (const unsigned char *)note; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 64 * 1024)
        return 0;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/scalelab-fuzz-progress-%ld", (long)getpid());
        snprintf(path, sizeof path, "%s/progress", dir);
    }
    mkdir(dir, 0700);
    drop_aside();
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (fwrite(data + 2, 1, size - 2, f) != size - 2 || fclose(f) != 0)
        abort();

    static const char *const ids[] = {"e2e-basics", "l1", "a-b", "x", "", "with space"};
    const char *id = ids[data[0] % 6];
    int page = data[1] % 8;
    char note[400];
    Progress *p = progress_open(path, note, sizeof note);
    if (!p)
        abort();
    check_note(note);
    int kept = drop_aside();
    if ((note[0] && (kept != 1 || access(path, F_OK) == 0)) || (!note[0] && kept != 0)) {
        /* Reported but neither moved aside nor gone: only when the folder
         * refuses the rename, which cannot happen here. */
        abort();
    }
    (void)progress_status(p, id);
    (void)progress_page(p, id);
    bool correct;
    (void)progress_quiz_answer(p, id, page, &correct);
    (void)progress_hints(p, id, page);
    char err[300];
    bool ok = progress_visit(p, "fuzz-lesson", page, err, sizeof err);
    progress_free(p);
    if (ok) {
        p = progress_open(path, note, sizeof note);
        if (note[0] || progress_status(p, "fuzz-lesson") == PROGRESS_NEW ||
            progress_page(p, "fuzz-lesson") != page)
            abort();
        progress_free(p);
    }
    unlink(path);
    drop_aside();
    return 0;
}
