/* SPDX-License-Identifier: MIT */
/* main — the scalelab program: everything else is in libscalelab.a. */
#include "cmd/cli.h"

int main(int argc, char **argv)
{
    return cli_finish(cli_run(argc, argv));
}
