/* cmd_play — `scalelab play [--system ID] [--gpus N] [--model ID] [FILE.lua]`:
 * free play in the terminal UI. The cluster, workload and starting mapping
 * come from eval's flags (evalflags.h: the same presets, defaults and
 * messages; the mapping is eval's default, the fastest legal one that fits
 * with TP at most min(domain, 8)), or from a lesson file's first scenario
 * (what `w` writes in free play). Bad usage: one line on stderr, exit 2.
 */
#include "cmd/cli.h"
#include "cmd/evalflags.h"
#include "model/scenario.h"
#include "ui/app.h"
#include "ui/screen_play.h"

#include <stdio.h>
#include <string.h>

static const char play_help[] =
    "Usage: scalelab play [--system ID] [--gpus N] [--model ID] [FILE.lua]\n"
    "Free play: the scenario screen on any system preset and workload, every change\n"
    "allowed (GPUs, degrees, micro-batch, domain size, system), no goal. In it, s\n"
    "searches the best mappings, w writes the state as a lesson file with one\n"
    "scenario page ('scalelab check' passes on it; edit its placeholder goal), S\n"
    "saves the screen as SVG, ? lists the keys, q quits.\n"
    "FILE.lua: start from that lesson's first scenario (a file w wrote, or any\n"
    "lesson). Presets: 'scalelab eval --list'.\n";

int cmd_play(int argc, char **argv)
{
    const char *file = NULL;
    char *ev[16];
    int ev_argc = 0;
    ev[ev_argc++] = "play";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(play_help, stdout);
            return CLI_OK;
        }
        if (strcmp(a, "--system") == 0 || strcmp(a, "--gpus") == 0 || strcmp(a, "--model") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("play: %s needs a value", a);
            if (ev_argc + 2 >= (int)(sizeof ev / sizeof ev[0]))
                return cli_usage_error("play: too many flags");
            ev[ev_argc++] = argv[i];
            ev[ev_argc++] = argv[i + 1];
            i++;
            continue;
        }
        if (strncmp(a, "--system=", 9) == 0 || strncmp(a, "--gpus=", 7) == 0 ||
            strncmp(a, "--model=", 8) == 0) {
            if (ev_argc + 1 >= (int)(sizeof ev / sizeof ev[0]))
                return cli_usage_error("play: too many flags");
            ev[ev_argc++] = argv[i];
            continue;
        }
        if (a[0] == '-')
            return cli_usage_error("play: unknown option '%s' (try 'scalelab play --help')", a);
        if (file)
            return cli_usage_error("play: give at most one FILE.lua");
        file = a;
    }
    if (file && ev_argc > 1)
        return cli_usage_error("play: give either FILE.lua or --system/--gpus/--model");
    char err[600] = "";
    Scenario *s;
    if (file) {
        s = screen_play_load(file, err, sizeof err);
        if (!s)
            return cli_usage_error("play: %s", err);
    } else {
        Cluster c;
        Workload w;
        Mapping m;
        int rc = evalflags_mapping(ev_argc, ev, &c, &w, &m);
        if (rc != CLI_OK)
            return rc;
        s = scenario_new(&c, &w, &m, NULL, SCN_ALLOW_ALL, err, sizeof err);
        if (!s)
            return cli_usage_error("play: %s", err);
    }
    AppOptions o;
    memset(&o, 0, sizeof o);
    o.play = s;
    o.play_from = file;
    return app_run(&o);
}
