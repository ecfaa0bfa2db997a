/* SPDX-License-Identifier: MIT */
/* flags — the one flag table and its parser; see flags.h. */
#include "cmd/flags.h"

#include "cmd/cli.h"
#include "model/cluster.h"
#include "model/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Which commands take the flags that describe a job. */
#define JOB          (FLAGS_EVAL | FLAGS_SWEEP | FLAGS_RENDER)
#define JOB_AND_PLAY (JOB | FLAGS_PLAY)

static const struct {
    const char *name;
    const char *alias; /* another spelling, or NULL */
    FlagKind kind;
    unsigned commands;
} flag_table[FLAG_COUNT] = {
    [FLAG_SYSTEM] = {"system", NULL, FLAG_STRING, JOB_AND_PLAY},
    [FLAG_GPUS] = {"gpus", NULL, FLAG_INT, JOB_AND_PLAY},
    [FLAG_GPU] = {"gpu", NULL, FLAG_STRING, JOB},
    [FLAG_DOMAIN] = {"domain", NULL, FLAG_INT, JOB},
    [FLAG_UP] = {"up", NULL, FLAG_BW, JOB},
    [FLAG_OUT] = {"out", NULL, FLAG_BW, JOB},
    [FLAG_OVERSUB] = {"oversub", NULL, FLAG_RATIO, JOB},
    [FLAG_RAILS] = {"rails", NULL, FLAG_STRING, JOB},
    [FLAG_SITES] = {"sites", NULL, FLAG_INT, JOB},
    [FLAG_ACROSS] = {"across", NULL, FLAG_BW, JOB},
    [FLAG_ACROSS_LAT] = {"across-lat", NULL, FLAG_TIME, JOB},
    [FLAG_MODEL] = {"model", NULL, FLAG_STRING, JOB_AND_PLAY},
    [FLAG_LAYERS] = {"layers", NULL, FLAG_INT, JOB},
    [FLAG_HIDDEN] = {"hidden", NULL, FLAG_INT, JOB},
    [FLAG_HEADS] = {"heads", NULL, FLAG_INT, JOB},
    [FLAG_KV_HEADS] = {"kv-heads", NULL, FLAG_INT, JOB},
    [FLAG_FFN] = {"ffn", NULL, FLAG_INT, JOB},
    [FLAG_SEQ] = {"seq", NULL, FLAG_INT, JOB},
    [FLAG_VOCAB] = {"vocab", NULL, FLAG_INT, JOB},
    [FLAG_PARAMS] = {"params", NULL, FLAG_BIG, JOB},
    [FLAG_BATCH] = {"batch", NULL, FLAG_INT, JOB},
    [FLAG_MB] = {"mb", NULL, FLAG_INT, JOB},
    [FLAG_EXPERTS] = {"experts", NULL, FLAG_INT, JOB},
    [FLAG_TOPK] = {"topk", NULL, FLAG_INT, JOB},
    [FLAG_RECOMPUTE] = {"recompute", NULL, FLAG_STRING, JOB},
    [FLAG_PRECISION] = {"precision", NULL, FLAG_STRING, JOB},
    [FLAG_SWIGLU] = {"swiglu", NULL, FLAG_STRING, JOB},
    [FLAG_FLASH] = {"flash-attention", NULL, FLAG_STRING, JOB},
    [FLAG_SEQ_PARALLEL] = {"seq-parallel", NULL, FLAG_STRING, JOB},
    [FLAG_TP_OVERLAP] = {"tp-overlap", NULL, FLAG_STRING, JOB},
    [FLAG_PP_OVERLAP] = {"pp-overlap", NULL, FLAG_STRING, JOB},
    [FLAG_DP_OVERLAP] = {"dp-overlap", NULL, FLAG_STRING, JOB},
    [FLAG_EP_OVERLAP] = {"ep-overlap", NULL, FLAG_STRING, JOB},
    [FLAG_EP_DEDUP] = {"ep-dedup", NULL, FLAG_STRING, JOB},
    [FLAG_CUDA_GRAPHS] = {"cuda-graphs", NULL, FLAG_STRING, JOB},
    [FLAG_FRAMEWORK] = {"framework", NULL, FLAG_STRING, JOB},
    [FLAG_FUSED_LOSS] = {"fused-loss", NULL, FLAG_STRING, JOB},
    [FLAG_HEAD_DIM] = {"head-dim", NULL, FLAG_INT, JOB},
    [FLAG_V_HEAD_DIM] = {"v-head-dim", NULL, FLAG_INT, JOB},
    [FLAG_WINDOW] = {"window", NULL, FLAG_INT, JOB},
    [FLAG_GLOBAL_EVERY] = {"global-every", NULL, FLAG_INT, JOB},
    [FLAG_Q_LORA] = {"q-lora", NULL, FLAG_INT, JOB},
    [FLAG_KV_LORA] = {"kv-lora", NULL, FLAG_INT, JOB},
    [FLAG_SHARED_EXPERTS] = {"shared-experts", NULL, FLAG_INT, JOB},
    [FLAG_MOE_LAYERS] = {"moe-layers", NULL, FLAG_INT, JOB},
    [FLAG_DENSE_FFN] = {"dense-ffn", NULL, FLAG_INT, JOB},
    [FLAG_CAPACITY] = {"capacity-factor", NULL, FLAG_RATIO, JOB},
    [FLAG_RECOMPUTE_LAYERS] = {"recompute-layers", NULL, FLAG_INT, JOB},
    [FLAG_OFFLOAD_LAYERS] = {"offload-layers", NULL, FLAG_INT, JOB},
    [FLAG_OFFLOAD] = {"offload", NULL, FLAG_STRING, JOB},
    [FLAG_OPT_STATE] = {"optimizer-state", NULL, FLAG_STRING, JOB},
    [FLAG_LOSS_CHUNKS] = {"loss-chunks", NULL, FLAG_INT, JOB},
    [FLAG_DROPOUT] = {"dropout", NULL, FLAG_STRING, JOB},
    [FLAG_PP_SPLIT] = {"pp-split", NULL, FLAG_STRING, JOB},
    [FLAG_HBM] = {"hbm", NULL, FLAG_STRING, JOB},
    [FLAG_POWER] = {"power", NULL, FLAG_STRING, JOB},
    [FLAG_TP] = {"tp", NULL, FLAG_INT, JOB},
    [FLAG_PP] = {"pp", NULL, FLAG_INT, JOB},
    [FLAG_DP] = {"dp", NULL, FLAG_INT, JOB},
    [FLAG_EP] = {"ep", NULL, FLAG_INT, JOB},
    [FLAG_CP] = {"cp", NULL, FLAG_INT, JOB},
    [FLAG_INTERLEAVE] = {"interleave", NULL, FLAG_INT, JOB},
    [FLAG_ZERO] = {"zero", NULL, FLAG_INT, JOB},
    [FLAG_ETP] = {"etp", NULL, FLAG_INT, JOB},
    [FLAG_SHARD] = {"shard", NULL, FLAG_INT, JOB},
    [FLAG_SERVE] = {"serve", NULL, FLAG_NO_VALUE, FLAGS_EVAL},
    [FLAG_CONTEXT] = {"context", NULL, FLAG_INT, FLAGS_EVAL},
    [FLAG_JSON] = {"json", NULL, FLAG_NO_VALUE,
                   FLAGS_EVAL | FLAGS_SWEEP | FLAGS_PRACTICE | FLAGS_PROGRESS | FLAGS_REPORT},
    [FLAG_FORMAT] = {"format", NULL, FLAG_STRING, JOB},
    [FLAG_LIST] = {"list", NULL, FLAG_NO_VALUE, FLAGS_EVAL},
    [FLAG_HELP] = {"help", NULL, FLAG_NO_VALUE,
                   JOB_AND_PLAY | FLAGS_PRACTICE | FLAGS_PROGRESS | FLAGS_REPORT | FLAGS_PRESENT |
                       FLAGS_LIST},
    [FLAG_TOP] = {"top", NULL, FLAG_STRING, FLAGS_SWEEP},
    [FLAG_CHART] = {"chart", NULL, FLAG_NO_VALUE, FLAGS_SWEEP},
    [FLAG_ASCII] = {"ascii", NULL, FLAG_NO_VALUE, FLAGS_SWEEP | FLAGS_RENDER | FLAGS_PRESENT},
    [FLAG_WIDTH] = {"width", NULL, FLAG_STRING, FLAGS_RENDER},
    [FLAG_HEIGHT] = {"height", NULL, FLAG_STRING, FLAGS_RENDER},
    [FLAG_COLOR] = {"color", "colour", FLAG_STRING, FLAGS_RENDER},
    [FLAG_DESCRIBE] = {"describe", NULL, FLAG_NO_VALUE, FLAGS_RENDER},
    [FLAG_SVG] = {"svg", NULL, FLAG_STRING, FLAGS_RENDER},
    [FLAG_CURSOR] = {"cursor", NULL, FLAG_STRING, FLAGS_RENDER},
    [FLAG_SELECT] = {"select", NULL, FLAG_STRING, FLAGS_RENDER},
    [FLAG_GROUP_BY] = {"group-by", NULL, FLAG_STRING, FLAGS_RENDER},
    [FLAG_LOAD] = {"load", NULL, FLAG_NO_VALUE, FLAGS_RENDER},
    [FLAG_SWEEP] = {"sweep", NULL, FLAG_STRING, FLAGS_RENDER},
    [FLAG_VALUES] = {"values", NULL, FLAG_STRING, FLAGS_RENDER},
    [FLAG_SEED] = {"seed", NULL, FLAG_STRING, FLAGS_PRACTICE},
    [FLAG_KIND] = {"kind", NULL, FLAG_STRING, FLAGS_PRACTICE},
    [FLAG_LEVEL] = {"level", NULL, FLAG_INT, FLAGS_PRACTICE},
    [FLAG_PRINT] = {"print", NULL, FLAG_NO_VALUE, FLAGS_PRACTICE},
    [FLAG_HOW_MANY] = {"count", NULL, FLAG_INT, FLAGS_PRACTICE},
    [FLAG_ANSWERS] = {"answers", NULL, FLAG_NO_VALUE, FLAGS_PRACTICE},
    [FLAG_FROM] = {"from", NULL, FLAG_NO_VALUE, FLAGS_PRACTICE},
    [FLAG_LESSONS] = {"lessons", NULL, FLAG_STRING,
                      FLAGS_PRACTICE | FLAGS_PROGRESS | FLAGS_REPORT | FLAGS_PRESENT | FLAGS_LIST},
    [FLAG_NAME] = {"name", NULL, FLAG_STRING, FLAGS_PROGRESS},
    [FLAG_CSV] = {"csv", NULL, FLAG_NO_VALUE, FLAGS_REPORT},
    [FLAG_SCRIPT] = {"script", NULL, FLAG_STRING, FLAGS_PRESENT},
    [FLAG_SHOT] = {"shot", NULL, FLAG_STRING, FLAGS_PRESENT},
    [FLAG_SIZE] = {"size", NULL, FLAG_STRING, FLAGS_PRESENT},
    [FLAG_CLOCK] = {"clock", NULL, FLAG_STRING, FLAGS_PRESENT},
};

const FlagCommand flags_eval = {"eval", FLAGS_EVAL, 0, NULL};
const FlagCommand flags_sweep = {"sweep", FLAGS_SWEEP, 0, NULL};
const FlagCommand flags_render = {"render", FLAGS_RENDER, 1, "view"};
const FlagCommand flags_play = {"play", FLAGS_PLAY, 1, "FILE.lua"};
const FlagCommand flags_practice = {"practice", FLAGS_PRACTICE, FLAGS_MAX_OPERANDS, "lesson"};
const FlagCommand flags_progress = {"progress", FLAGS_PROGRESS, 0, NULL};
const FlagCommand flags_report = {"report", FLAGS_REPORT, FLAGS_MAX_OPERANDS, "file"};
const FlagCommand flags_present = {"present", FLAGS_PRESENT, 1, "lesson"};
const FlagCommand flags_list = {"list", FLAGS_LIST, 0, NULL};

const char *flags_name(FlagId f)
{
    return f >= 0 && f < FLAG_COUNT ? flag_table[f].name : "?";
}

int flags_int(const FlagArgs *a, FlagId f)
{
    return (int)a->num[f];
}

bool flags_any_set(const FlagArgs *a, const FlagId *except)
{
    for (int f = 0; f < FLAG_COUNT; f++) {
        bool skip = false;
        for (const FlagId *e = except; *e != FLAG_COUNT; e++)
            skip |= *e == (FlagId)f;
        if (a->set[f] && !skip)
            return true;
    }
    return false;
}

/* A whole-number flag: a count ("64", "1e3"), capped where it counts GPUs. */
static bool parse_int(const FlagCommand *cmd, FlagId f, const char *text, double v)
{
    if (v != floor(v)) {
        cli_usage_error("%s: --%s %s: expected a whole number", cmd->name, flag_table[f].name,
                        text);
        return false;
    }
    bool gpus = f == FLAG_GPUS || f == FLAG_DOMAIN || f == FLAG_TP || f == FLAG_PP ||
                f == FLAG_DP || f == FLAG_CP || f == FLAG_EP || f == FLAG_ETP || f == FLAG_SHARD;
    if (v > CLUSTER_MAX_GPUS && gpus) {
        cli_usage_error("%s: --%s %s is more than scalelab models (at most %d)", cmd->name,
                        flag_table[f].name, text, CLUSTER_MAX_GPUS);
        return false;
    }
    if (v > 2e9) {
        cli_usage_error("%s: --%s %s is too large", cmd->name, flag_table[f].name, text);
        return false;
    }
    return true;
}

static bool parse_value(const FlagCommand *cmd, FlagId f, const char *text, FlagArgs *a)
{
    static const UnitsKind units[] = {
        [FLAG_INT] = UNITS_COUNT,   [FLAG_BIG] = UNITS_COUNT, [FLAG_BW] = UNITS_BANDWIDTH,
        [FLAG_RATIO] = UNITS_COUNT, [FLAG_TIME] = UNITS_TIME,
    };
    FlagKind kind = flag_table[f].kind;
    a->str[f] = text;
    if (kind == FLAG_NO_VALUE)
        return true;
    if (kind == FLAG_STRING) {
        if (!*text) {
            cli_usage_error("%s: --%s needs a value", cmd->name, flag_table[f].name);
            return false;
        }
        return true;
    }
    char buf[64], err[200];
    snprintf(buf, sizeof buf, "%s", text);
    char *colon = strchr(buf, ':');
    if (kind == FLAG_RATIO && colon && strcmp(colon, ":1") == 0) /* "3:1" is 3 */
        *colon = '\0';
    double v;
    if (!units_parse(units[kind], kind == FLAG_RATIO ? buf : text, &v, err, sizeof err)) {
        cli_usage_error("%s: --%s: %s", cmd->name, flag_table[f].name, err);
        return false;
    }
    if (kind == FLAG_INT && !parse_int(cmd, f, text, v))
        return false;
    a->num[f] = v;
    return true;
}

/* The flag --NAME (len characters) names, or -1. */
static int flag_lookup(const char *name, size_t len)
{
    for (int k = 0; k < FLAG_COUNT; k++) {
        const char *alias = flag_table[k].alias;
        if ((strlen(flag_table[k].name) == len && strncmp(flag_table[k].name, name, len) == 0) ||
            (alias && strlen(alias) == len && strncmp(alias, name, len) == 0))
            return k;
    }
    return -1;
}

/* The commands that do take flag f, for "--list is eval's". */
static const char *owner_of(int f)
{
    static const FlagCommand *const all[] = {&flags_eval,   &flags_sweep,    &flags_render,
                                             &flags_play,   &flags_practice, &flags_progress,
                                             &flags_report, &flags_present,  &flags_list};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (flag_table[f].commands & all[i]->bit)
            return all[i]->name;
    return "?";
}

static int operand(const FlagCommand *cmd, const char *arg, FlagArgs *a)
{
    if (a->n_operands >= cmd->max_operands) {
        if (cmd->max_operands == 0)
            return cli_usage_error("%s: unexpected argument '%s' (flags start with --; try "
                                   "'scalelab %s --help')",
                                   cmd->name, arg, cmd->name);
        return cli_usage_error("%s: unexpected argument '%s' (give one %s; try 'scalelab %s "
                               "--help')",
                               cmd->name, arg, cmd->operand_what, cmd->name);
    }
    a->operand[a->n_operands++] = arg;
    return CLI_OK;
}

/* One --flag[=value] at argv[*i]; moves *i past a value taken from the next
 * word. */
static int one_flag(const FlagCommand *cmd, int argc, char **argv, int *i, FlagArgs *a)
{
    const char *arg = argv[*i], *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    int f = flag_lookup(name, len);
    if (f < 0)
        return cli_usage_error("%s: unknown flag '%.*s' (try 'scalelab %s --help')", cmd->name,
                               (int)(len + 2), arg, cmd->name);
    if (!(flag_table[f].commands & cmd->bit))
        return cli_usage_error("%s: --%s is not a flag of %s (it is %s's: try 'scalelab %s "
                               "--help')",
                               cmd->name, flag_table[f].name, cmd->name, owner_of(f), owner_of(f));
    if (a->set[f])
        return cli_usage_error("%s: --%s given twice", cmd->name, flag_table[f].name);
    const char *value = "";
    if (flag_table[f].kind == FLAG_NO_VALUE) {
        if (eq)
            return cli_usage_error("%s: --%s takes no value", cmd->name, flag_table[f].name);
    } else if (eq) {
        value = eq + 1;
    } else if (*i + 1 < argc) {
        value = argv[++*i];
    } else {
        return cli_usage_error("%s: --%s needs a value", cmd->name, flag_table[f].name);
    }
    for (const unsigned char *q = (const unsigned char *)value; *q; q++)
        if (*q < 0x20 || *q == 0x7f)
            return cli_usage_error("%s: --%s: the value contains a control character", cmd->name,
                                   flag_table[f].name);
    a->set[f] = true;
    return parse_value(cmd, (FlagId)f, value, a) ? CLI_OK : CLI_USAGE;
}

int flags_parse(const FlagCommand *cmd, int argc, char **argv, FlagArgs *a)
{
    memset(a, 0, sizeof *a);
    bool options = true;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int rc = CLI_OK;
        if (options && strcmp(arg, "--") == 0)
            options = false;
        else if (options && strcmp(arg, "-h") == 0)
            a->set[FLAG_HELP] = true;
        else if (options && strncmp(arg, "--", 2) == 0)
            rc = one_flag(cmd, argc, argv, &i, a);
        else
            rc = operand(cmd, arg, a);
        if (rc != CLI_OK)
            return rc;
    }
    return CLI_OK;
}
