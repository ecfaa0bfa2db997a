#!/bin/sh
# SPDX-License-Identifier: MIT
# The end-to-end tmux suite lives in scripts/ (it is also run by hand:
# `scripts/e2e-tmux ./scalelab`); `make test` runs it from here.
exec sh scripts/e2e-tmux "$@"
