/* SPDX-License-Identifier: MIT */
/* cmd_play — `scalelab play [--system ID] [--gpus N] [--model ID] [FILE.lua]`:
 * free play in the terminal UI. The cluster, workload and starting mapping
 * come from the job flags of the one flag table (flags.h; play takes
 * --system, --gpus and --model) through evalflags.h: the same presets,
 * defaults and messages as eval, and eval's mapping (the one search's
 * fastest legal mapping that fits), or from a lesson file's first scenario
 * (what `w` writes in free play). Bad usage: one line on stderr, exit 2.
 */
#include "base/msg.h"
#include "cmd/cli.h"
#include "cmd/evalflags.h"
#include "learn/scenario.h"
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
    FlagArgs a;
    int rc = flags_parse(&flags_play, argc, argv, &a);
    if (rc != CLI_OK)
        return rc;
    if (a.set[FLAG_HELP]) {
        fputs(play_help, stdout);
        return CLI_OK;
    }
    const char *file = a.n_operands ? a.operand[0] : NULL;
    if (file && (a.set[FLAG_SYSTEM] || a.set[FLAG_GPUS] || a.set[FLAG_MODEL]))
        return cli_usage_error("play: give either FILE.lua or --system/--gpus/--model");
    char err[MSG_LEN] = "";
    Scenario *s;
    if (file) {
        s = screen_play_load(file, err, sizeof err);
        if (!s)
            return cli_usage_error("play: %s", err);
    } else {
        Cluster c;
        Workload w;
        Mapping m;
        if (!evalflags_mapping("play", &a, &c, &w, &m))
            return CLI_USAGE;
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
