/* SPDX-License-Identifier: MIT */
/* flags — the one flag table of the commands that take --name VALUE flags
 * (eval, sweep, render, play, practice, progress, report, present, list), after tmux's
 * cmd_entry.args: every flag is written once here with how its value is read, and each command
 * names the subset it takes. One parser reads argv against a command's subset, so the forms
 * (--flag VALUE,
 * --flag=VALUE, `--` before operands, -h), the checks (unknown, given twice, missing value,
 * control characters) and their words are the same everywhere; what a value means is the
 * command's.
 *
 * Errors go through cli_error with the command's name ("scalelab sweep:
 * --gpus: 'x' is not a number"). No I/O besides that one line.
 */
#ifndef SCALELAB_CMD_FLAGS_H
#define SCALELAB_CMD_FLAGS_H

#include <stdbool.h>

typedef enum {
    /* cluster */
    FLAG_SYSTEM,
    FLAG_GPUS,
    FLAG_GPU,
    FLAG_DOMAIN,
    FLAG_UP,
    FLAG_OUT,
    FLAG_OVERSUB,
    FLAG_RAILS,
    FLAG_SITES,
    FLAG_ACROSS,
    FLAG_ACROSS_LAT,
    /* workload */
    FLAG_MODEL,
    FLAG_LAYERS,
    FLAG_HIDDEN,
    FLAG_HEADS,
    FLAG_KV_HEADS,
    FLAG_FFN,
    FLAG_SEQ,
    FLAG_VOCAB,
    FLAG_PARAMS,
    FLAG_BATCH,
    FLAG_MB,
    FLAG_EXPERTS,
    FLAG_TOPK,
    FLAG_RECOMPUTE,
    FLAG_PRECISION,
    FLAG_SWIGLU,
    FLAG_FLASH,
    FLAG_SEQ_PARALLEL,
    FLAG_TP_OVERLAP,
    FLAG_PP_OVERLAP,
    FLAG_DP_OVERLAP,
    FLAG_EP_OVERLAP,
    FLAG_EP_DEDUP,
    FLAG_CUDA_GRAPHS,
    FLAG_FRAMEWORK,
    FLAG_FUSED_LOSS,
    FLAG_HEAD_DIM,
    FLAG_V_HEAD_DIM,
    FLAG_WINDOW,
    FLAG_GLOBAL_EVERY,
    FLAG_Q_LORA,
    FLAG_KV_LORA,
    FLAG_SHARED_EXPERTS,
    FLAG_MOE_LAYERS,
    FLAG_DENSE_FFN,
    FLAG_CAPACITY,
    FLAG_RECOMPUTE_LAYERS,
    FLAG_OFFLOAD_LAYERS,
    FLAG_OFFLOAD,
    FLAG_OPT_STATE,
    FLAG_LOSS_CHUNKS,
    FLAG_DROPOUT,
    FLAG_PP_SPLIT,
    /* hardware the run used */
    FLAG_HBM,
    FLAG_POWER,
    /* mapping */
    FLAG_TP,
    FLAG_PP,
    FLAG_DP,
    FLAG_EP,
    FLAG_CP,
    FLAG_INTERLEAVE,
    FLAG_ZERO,
    FLAG_ETP,
    FLAG_SHARD,
    FLAG_SERVE,   /* eval: a decode step of serving instead of a training step */
    FLAG_CONTEXT, /* eval --serve: tokens of KV cache per sequence */
    /* output */
    FLAG_JSON,
    FLAG_FORMAT,
    FLAG_LIST,
    FLAG_HELP,
    FLAG_TOP,
    FLAG_CHART,
    FLAG_ASCII,
    FLAG_WIDTH,
    FLAG_HEIGHT,
    FLAG_COLOR,
    FLAG_DESCRIBE,
    FLAG_SVG,
    FLAG_CURSOR,
    FLAG_SELECT,
    FLAG_GROUP_BY,
    FLAG_LOAD,
    FLAG_SWEEP,
    FLAG_VALUES,
    /* practice, progress, report */
    FLAG_SEED,
    FLAG_KIND,
    FLAG_LEVEL,
    FLAG_PRINT,
    FLAG_HOW_MANY, /* --count */
    FLAG_ANSWERS,
    FLAG_FROM,
    FLAG_LESSONS,
    FLAG_NAME,
    FLAG_CSV,
    /* present */
    FLAG_SCRIPT,
    FLAG_SHOT,
    FLAG_SIZE,
    FLAG_CLOCK,
    FLAG_COUNT
} FlagId;

/* How a value is read. Numbers are parsed for people (units.h: "800 Gb/s",
 * "2 us", "1e15"); FLAG_INT is a whole number, capped for GPU counts and
 * degrees. */
typedef enum {
    FLAG_NO_VALUE,
    FLAG_STRING,
    FLAG_INT,
    FLAG_BIG,
    FLAG_BW,
    FLAG_RATIO,
    FLAG_TIME
} FlagKind;

/* The commands, as bits of a flag's `commands` mask. */
enum {
    FLAGS_EVAL = 1 << 0,
    FLAGS_SWEEP = 1 << 1,
    FLAGS_RENDER = 1 << 2,
    FLAGS_PLAY = 1 << 3,
    FLAGS_PRACTICE = 1 << 4,
    FLAGS_PROGRESS = 1 << 5,
    FLAGS_REPORT = 1 << 6,
    FLAGS_PRESENT = 1 << 7,
    FLAGS_LIST = 1 << 8,
};

/* A command of the table: its name (for errors and "try 'scalelab NAME
 * --help'"), its bit, and how many operands (words not starting with --)
 * it takes; operand_what names them in an error ("a view"). */
typedef struct {
    const char *name;
    unsigned bit;
    int max_operands;
    const char *operand_what;
} FlagCommand;

extern const FlagCommand flags_eval, flags_sweep, flags_render, flags_play, flags_practice,
    flags_progress, flags_report, flags_present, flags_list;

#define FLAGS_MAX_OPERANDS 500 /* report's files */

/* What one command line gave: set[] per flag, the text (str) and for number
 * kinds the value (num), and the operands in order. Points into argv. */
typedef struct {
    bool set[FLAG_COUNT];
    const char *str[FLAG_COUNT];
    double num[FLAG_COUNT];
    const char *operand[FLAGS_MAX_OPERANDS];
    int n_operands;
} FlagArgs;

/* Reads argv[1..argc) against cmd's flags. Returns CLI_OK, or CLI_USAGE
 * after printing one line: an unknown flag, another command's flag, a flag
 * given twice, a missing or unexpected value, a value that does not parse,
 * too many operands. `-h` is --help; after `--` every word is an operand. */
int flags_parse(const FlagCommand *cmd, int argc, char **argv, FlagArgs *a);

/* The flag's name without dashes ("gpus"). */
const char *flags_name(FlagId f);

/* The value of an integer flag. */
int flags_int(const FlagArgs *a, FlagId f);

/* Whether any flag of cmd other than those in `except` (FLAG_COUNT-ended)
 * is set: for "--list takes no other flag". */
bool flags_any_set(const FlagArgs *a, const FlagId *except);

#endif
