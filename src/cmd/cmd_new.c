/* cmd_new — `scalelab new NAME`: writes a lesson skeleton that passes
 * `scalelab check` as written, for an author to change page by page.
 *
 * NAME is a lesson name ("my-lesson", written to ./my-lesson.lua) or a path
 * ending in .lua ("lessons/my-lesson.lua"); the lesson id is the name (or
 * the file name without .lua) made into a slug: lower case a-z, 0-9 and
 * single '-'. An existing file is never overwritten (the file is created
 * with file_write's FILE_NEW, O_EXCL, so a race cannot overwrite either). Bad names and files
 * that cannot be written: one line on stderr, exit 2.
 *
 * The skeleton has every page kind a first lesson needs: text, diagram,
 * scenario (goal, hints, debrief, a reference solution that meets the goal),
 * quiz and a closing summary text page, each commented with what to change.
 * tests/suites/new.sh checks that it passes `scalelab check`.
 */
#include "cmd/cli.h"

#include "base/file.h"
#include "base/xmem.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEW_ID_MAX   48   /* longest lesson id we make */
#define NEW_NAME_MAX 1024 /* longest NAME or path we accept */

static const char new_help[] =
    "Usage: scalelab new [--] NAME\n"
    "Writes a lesson skeleton that passes 'scalelab check': NAME.lua in this folder,\n"
    "or the path given when NAME ends in .lua (lessons/my-lesson.lua). The lesson id\n"
    "is NAME in lower case with a-z, 0-9 and '-'. Never overwrites a file.\n"
    "  --help             this text\n"
    "  --                 the argument after it is the name, even if it starts with -\n";

/* The skeleton. @ID@ and @TITLE@ are replaced; everything else is written as
 * is. The scenario is the one of tests/lessons/example.lua, which the lesson
 * tests keep passing: TP 16 over two 8-GPU servers, solved by TP 8 x PP 2. */
static const char new_skeleton[] =
    "-- @TITLE@: a scalelab lesson (made by 'scalelab new').\n"
    "-- Change it page by page and run 'scalelab check FILE' after each change;\n"
    "-- 'scalelab FILE' opens it in the program, which reloads it when you save.\n"
    "-- The whole format and every scalelab.* function: lessons/AUTHORING.md.\n"
    "--\n"
    "-- Sources: name the public source of every figure you type in. The figures\n"
    "-- below come from the presets (assets/presets.lua names the source of each).\n"
    "local U = scalelab.units\n"
    "\n"
    "-- The setup the pages share. Presets: 'scalelab eval --list'.\n"
    "local cluster = { system = \"dgx-h100\", gpus = 16 }       -- two 8-GPU servers\n"
    "local workload = { model = \"llama3-70b\", batch = 64, mb = 1 }\n"
    "local dgx = scalelab.system(cluster.system)\n"
    "\n"
    "-- The goal is computed, not typed in: the step time of the good mapping,\n"
    "-- so the lesson stays right when the model's figures change.\n"
    "local good = scalelab.step { cluster = cluster, workload = workload,\n"
    "                             mapping = { tp = 8, pp = 2, dp = 1 } }\n"
    "local target_s = good.step_s * 1.05\n"
    "\n"
    "return {\n"
    "  id = \"@ID@\",            -- unique across all lessons: a-z, 0-9 and '-'\n"
    "  title = \"@TITLE@\",      -- shown in the menu and on every page\n"
    "  summary = \"One line that says what the learner will be able to do.\",\n"
    "  track = \"Drafts\",          -- the menu groups lessons by track...\n"
    "  order = 100,               -- ...and sorts them by order within it\n"
    "  minutes = 5,               -- rough length (optional)\n"
    "  pages = {\n"
    "    -- 1. Text: light markup (# heading, *emphasis*, `code`, - bullets);\n"
    "    --    splice computed figures in with '..'.\n"
    "    { kind = \"text\", title = \"Two speeds\", text = [[\n"
    "# Two speeds\n"
    "Inside one server each GPU talks over NVLink at ]] ..\n"
    "      U.format(\"bandwidth\", dgx.up_bytes_per_s) .. [[ per direction.\n"
    "Between servers it has one NIC: ]] ..\n"
    "      U.format(\"bandwidth\", dgx.out_bytes_per_s) .. [[.\n"
    "]] },\n"
    "\n"
    "    -- 2. Diagram: view = \"rack\" or \"fabric\" (a cluster), \"bar\" or \"chart\"\n"
    "    --    (also a workload and mapping); text is the caption.\n"
    "    { kind = \"diagram\", title = \"Two servers\", view = \"fabric\",\n"
    "      cluster = cluster,\n"
    "      text = \"Two servers of *8 GPUs*: NVLink inside, the network between.\" },\n"
    "\n"
    "    -- 3. Scenario: the learner changes the mapping until goal.check passes.\n"
    "    --    'scalelab check' requires the goal to fail at the start and to pass\n"
    "    --    after the solution moves, so keep the three in step when you edit.\n"
    "    { kind = \"scenario\", title = \"Fix the split\",\n"
    "      text = \"TP 16 spans both servers. Make every TP group fit in one.\",\n"
    "      cluster = cluster, workload = workload,\n"
    "      mapping = { tp = 16, pp = 1, dp = 1 },     -- the starting state\n"
    "      allow = { \"degrees\" },    -- moves allowed: move, degrees, micro, domain, system\n"
    "      goal = { text = \"Step under \" .. U.format(\"time\", target_s) .. \".\",\n"
    "               check = function(r)   -- r: the result table (AUTHORING.md)\n"
    "                 if r.step_s < target_s then return true end\n"
    "                 return false, \"step is \" .. U.format(\"time\", r.step_s)\n"
    "               end },\n"
    "      hints = { \"Which group crosses the network?\",   -- revealed one at a time\n"
    "                \"TP talks every layer; PP only at stage boundaries.\",\n"
    "                \"Try TP 8 and PP 2.\" },\n"
    "      debrief = \"TP now stays on NVLink; only PP sends cross servers.\",\n"
    "      solution = { \"tp 8\", \"pp 2\" } },   -- reference moves that meet the goal\n"
    "\n"
    "    -- 4. Quiz: at least one choice correct; every choice explains itself.\n"
    "    { kind = \"quiz\", title = \"Check\", text = \"Where should TP groups live?\",\n"
    "      choices = {\n"
    "        { text = \"Inside one NVLink domain\", correct = true,\n"
    "          explain = \"TP talks every layer: it needs the fastest links.\" },\n"
    "        { text = \"Spread over the network\", correct = false,\n"
    "          explain = \"Every layer would wait for the NICs.\" },\n"
    "      } },\n"
    "\n"
    "    -- 5. Summary: what to remember, in a few bullets.\n"
    "    { kind = \"text\", title = \"Summary\", text = [[\n"
    "# Summary\n"
    "- Scale-up links (NVLink) are several times faster than scale-out (the NIC).\n"
    "- Put the chattiest parallel dimension, TP, inside one scale-up domain.\n"
    "]] },\n"
    "  },\n"
    "}\n";

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

/* Writes the skeleton with @ID@ and @TITLE@ replaced. False on a write
 * error. */
static bool new_write(FILE *f, const char *id, const char *title)
{
    const char *p = new_skeleton;
    while (*p) {
        if (strncmp(p, "@ID@", 4) == 0) {
            fputs(id, f);
            p += 4;
        } else if (strncmp(p, "@TITLE@", 7) == 0) {
            fputs(title, f);
            p += 7;
        } else {
            fputc(*p++, f);
        }
    }
    return !ferror(f);
}

typedef struct {
    const char *id, *title;
} NewText;

static bool new_put(FILE *f, const void *ctx)
{
    const NewText *t = ctx;
    return new_write(f, t->id, t->title);
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
    if (!is_path && strchr(name, '/'))
        return cli_usage_error("new: '%s' has a '/': give a plain name, or a path ending "
                               "in .lua",
                               name);
    /* the id part: the name, or the file name without .lua */
    const char *base = is_path && strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    size_t base_len = strlen(base) - (is_path ? 4 : 0);
    if (base_len > NEW_ID_MAX)
        return cli_usage_error("new: the lesson name '%.*s' is too long (at most %d "
                               "characters)",
                               (int)base_len, base, NEW_ID_MAX);
    char id[NEW_ID_MAX + 1];
    new_slug(base, base_len, id, sizeof id);
    if (!id[0])
        return cli_usage_error("new: '%s' makes no lesson id (use letters, digits and '-')", name);
    char *path;
    if (is_path) {
        path = xstrdup(name);
    } else {
        path = xmalloc(strlen(id) + 5);
        sprintf(path, "%s.lua", id);
    }
    char title[NEW_ID_MAX + 1];
    new_title(id, title, sizeof title);

    NewText text = {id, title};
    if (!file_write(path, FILE_NEW, new_put, &text, NULL, 0)) {
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
