/* SPDX-License-Identifier: MIT */
/* cmd_new — `scalelab new NAME`: writes a lesson skeleton that passes
 * `scalelab check` as written, for an author to change page by page.
 *
 * NAME is a lesson name ("my-lesson", written to ./my-lesson.lua), a path
 * ending in .lua ("lessons/my-lesson.lua", written as given) or a path
 * without it ("lessons/my-lesson", written to lessons/my-lesson.lua); the
 * lesson id is the name (or the file name without .lua) made into a slug:
 * lower case a-z, 0-9 and single '-', which also names the file when .lua
 * was not given. An existing file is never overwritten (the file is created
 * with file_write's FILE_NEW, O_EXCL, so a race cannot overwrite either). Bad names and files
 * that cannot be written: one line on stderr, exit 2.
 *
 * The skeleton, assets/new-lesson.lua, names the authoring guide where this
 * program finds it (cli_guide_path: the tree's lessons/AUTHORING.md, or the
 * installed share/doc/scalelab/AUTHORING.md), and has every page kind a
 * first lesson needs: text, diagram, scenario (goal with a target, hints, a debrief from
 * the final state, a reference solution that meets the goal, par), quiz,
 * predict and a closing summary text page, each commented with what to
 * change. tests/suites/new.sh checks that what it writes is the asset with
 * the id and title filled in, and that it passes `scalelab check`.
 */
#include "cmd/cli.h"

#include "base/file.h"
#include "base/msg.h"
#include "base/xmem.h"
#include "lesson/catalog.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEW_ID_MAX   48   /* longest lesson id we make */
#define NEW_NAME_MAX 1024 /* longest NAME or path we accept */

static const char new_help[] =
    "Usage: scalelab new [--] NAME\n"
    "Writes a lesson skeleton that passes 'scalelab check': NAME.lua in this folder\n"
    "(scalelab new my-lesson), in another folder (lessons/my-lesson), or the path\n"
    "given when NAME ends in .lua. The lesson id is NAME in lower case with a-z, 0-9\n"
    "and '-'. Never overwrites a file. The skeleton names the authoring guide.\n"
    "  --help             this text\n"
    "  --                 the argument after it is the name, even if it starts with -\n";

/* The skeleton is assets/new-lesson.lua (found like the presets: beside
 * the program, in the install's share folder, or SCALELAB_ASSETS). @ID@,
 * @TITLE@ and @GUIDE@ (the authoring guide, cli_guide_path) are replaced;
 * everything else is written as is. It is also
 * the complete example of lessons/AUTHORING.md, which the lesson tests load
 * as this command writes it: its scenario is TP 16 over two 8-GPU servers,
 * solved by TP 8 x PP 2. */
#define NEW_SKELETON     "new-lesson.lua"
#define NEW_SKELETON_MAX (256u << 10)

/* Reads the skeleton and names the guide; NULL with a one-line reason. */
static char *new_skeleton_read(char *guide, size_t guide_len, char *err, size_t err_len)
{
    char dir[4096], path[4200];
    if (!catalog_assets_dir(dir, sizeof dir)) {
        msg_set(err, err_len, "cannot find the assets folder (set SCALELAB_ASSETS)");
        return NULL;
    }
    /* where this program's guide is (cli.h, the one place that knows); it
     * goes into a Lua comment, so a control byte in a folder's name must
     * not end the comment */
    cli_guide_path("AUTHORING.md", guide, guide_len);
    for (char *g = guide; *g; g++)
        if ((unsigned char)*g < 0x20 || *g == 0x7f)
            *g = '?';
    snprintf(path, sizeof path, "%s/%s", dir, NEW_SKELETON);
    size_t len;
    FileProblem why;
    char *text = file_read(path, NEW_SKELETON_MAX, &len, &why);
    if (!text) {
        char reason[MSG_LEN];
        file_problem_text(&why, NEW_SKELETON_MAX, reason, sizeof reason);
        msg_set(err, err_len, "the lesson skeleton %s: %s", path, reason);
    }
    return text;
}

/* The slug of the n bytes at s: ASCII letters in lower case, digits kept,
 * every other run of bytes one '-', none at either end. */
static void new_slug(const char *s, size_t n, char *out, size_t out_len)
{
    size_t k = 0;
    bool dash = false;
    for (size_t i = 0; i < n && k + 1 < out_len; i++) {
        char ch = s[i];
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            if (dash && k > 0 && k + 2 < out_len)
                out[k++] = '-';
            dash = false;
            out[k++] = ch;
        } else {
            dash = true;
        }
    }
    out[k] = '\0';
}

/* "my-first-lesson" → "My first lesson". */
static void new_title(const char *id, char *out, size_t out_len)
{
    snprintf(out, out_len, "%s", id);
    for (char *p = out; *p; p++)
        if (*p == '-')
            *p = ' ';
    if (out[0] >= 'a' && out[0] <= 'z')
        out[0] = (char)(out[0] - 'a' + 'A');
}

static bool new_ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && strcmp(s + n - m, end) == 0;
}

typedef struct {
    const char *skeleton, *id, *title, *guide;
} NewText;

/* Writes the skeleton with @ID@, @TITLE@ and @GUIDE@ replaced. False on a
 * write error. */
static bool new_put(FILE *f, const void *ctx)
{
    const NewText *t = ctx;
    const struct {
        const char *mark, *text;
    } fill[] = {{"@ID@", t->id}, {"@TITLE@", t->title}, {"@GUIDE@", t->guide}};
    for (const char *p = t->skeleton; *p;) {
        size_t i = 0;
        while (i < 3 && strncmp(p, fill[i].mark, strlen(fill[i].mark)) != 0)
            i++;
        if (i < 3) {
            fputs(fill[i].text, f);
            p += strlen(fill[i].mark);
        } else {
            fputc(*p++, f);
        }
    }
    return !ferror(f);
}

int cmd_new(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(new_help, stdout);
        return CLI_OK;
    }
    bool dashdash = argc > 1 && strcmp(argv[1], "--") == 0;
    if (dashdash) {
        argc--;
        argv++;
    }
    if (argc != 2)
        return cli_usage_error("new: give one lesson name, e.g. scalelab new my-lesson");
    const char *name = argv[1];
    if (name[0] == '-' && !dashdash)
        return cli_usage_error("new: unknown option '%s' (try 'scalelab new --help')", name);
    size_t len = strlen(name);
    if (len == 0)
        return cli_usage_error("new: the lesson name is empty");
    if (len > NEW_NAME_MAX)
        return cli_usage_error("new: the name is too long (%zu bytes, at most %d)", len,
                               NEW_NAME_MAX);
    bool is_path = new_ends_with(name, ".lua");
    /* the id part: the name, or the file name without .lua */
    const char *slash = strrchr(name, '/');
    const char *base = slash ? slash + 1 : name;
    size_t base_len = strlen(base) - (is_path ? 4 : 0);
    if (base_len > NEW_ID_MAX)
        return cli_usage_error("new: the lesson name '%.*s' is too long (at most %d "
                               "characters)",
                               (int)base_len, base, NEW_ID_MAX);
    char id[NEW_ID_MAX + 1];
    new_slug(base, base_len, id, sizeof id);
    if (!id[0])
        return cli_usage_error("new: '%s' makes no lesson id (use letters, digits and '-')", name);
    /* without .lua: the folder given (if any) and the id as the file name */
    size_t dir_len = is_path || !slash ? 0 : (size_t)(slash - name) + 1;
    char *path = xmem_alloc(len + strlen(id) + 6);
    if (is_path)
        snprintf(path, len + 1, "%s", name);
    else
        sprintf(path, "%.*s%s.lua", (int)dir_len, name, id);
    char title[NEW_ID_MAX + 1];
    new_title(id, title, sizeof title);

    char why[MSG_LEN], guide[PATH_MAX + 32];
    char *skeleton = new_skeleton_read(guide, sizeof guide, why, sizeof why);
    if (!skeleton) {
        free(path);
        return cli_usage_error("new: %s", why);
    }
    NewText text = {skeleton, id, title, guide};
    bool written = file_write(path, FILE_NEW, new_put, &text, NULL, 0);
    free(skeleton);
    if (!written) {
        int rc = errno == EEXIST
                     ? cli_usage_error("new: '%s' already exists; not overwriting it", path)
                     : cli_usage_error("new: cannot write '%s': %s", path, strerror(errno));
        free(path);
        return rc;
    }
    printf("wrote lesson '%s' to %s; check it with: scalelab check %s\n", id, path, path);
    free(path);
    return CLI_OK;
}
