/* SPDX-License-Identifier: MIT */
/* fuzz_evalflags — libFuzzer harness for the flags of `scalelab eval`: the
 * one flag table, value parsing (units of every kind), defaults, mapping
 * legality and, when the flags hold, one model evaluation and its printing.
 *
 * Input: the bytes split at NUL or newline into at most 48 arguments that
 * follow argv[0] = "eval" (an empty piece is an empty argument). cmd_eval is
 * the entry point because it is what a user reaches: it runs the flag parser
 * and, past it, the model. Checked beyond "no crash, no sanitizer report":
 * the exit status is 0, 1 or 2. The program's stdout and stderr streams
 * are pointed at /dev/null (glibc lets a program assign them); libFuzzer
 * keeps the FILE it captured at start-up and sanitizers write to fd 2, so
 * their reports still show.
 * Built only by `make fuzz`; depends on cmd/cli.h.
 */
#include "cmd/cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 48

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        abort();
    stdout = null;
    stderr = null;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2048)
        return 0;
    char *buf = malloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *args[MAX_ARGS + 2];
    int n = 0;
    args[n++] = "eval";
    char *p = buf;
    while (n < MAX_ARGS + 1) {
        args[n++] = p;
        char *end = p;
        while (end < buf + size && *end != '\0' && *end != '\n')
            end++;
        if (end >= buf + size)
            break;
        *end = '\0';
        p = end + 1;
    }
    args[n] = NULL;
    int rc = cmd_eval(n, args);
    if (rc < 0 || rc > 2)
        abort();
    free(buf);
    return 0;
}
