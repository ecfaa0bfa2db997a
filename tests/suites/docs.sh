#!/bin/sh
# SPDX-License-Identifier: MIT
# docs — the lists of presets in lessons/AUTHORING.md and the man page are
# the compiled-in presets: scripts/update-preset-docs --check fails (and says
# to run scripts/update-preset-docs) when a preset was added, removed or
# changed without the docs; and every system the program names in its
# "unknown system" error is in both.
# Usage: sh tests/suites/docs.sh BINARY   (cwd = repository root)
bin=${1:?usage: docs.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
fail=0
no() { echo "docs.sh: $*"; fail=1; }
out=$(scripts/update-preset-docs --check "$bin" 2>&1) || no "$out"
known=$("$bin" eval --system no-such-system 2>&1 | sed -n 's/.*(known: \(.*\))$/\1/p' | tr -d ',')
[ -n "$known" ] || no "the unknown-system error lists no systems"
for id in $known; do
  grep -q "^| \`$id\` |" lessons/AUTHORING.md || no "lessons/AUTHORING.md's preset table lacks $id"
  grep -qx ".B $(echo "$id" | sed 's/-/\\\\-/g')" assets/scalelab.1 || no "the man page's PRESETS lack $id"
done
[ $fail = 0 ] && echo "docs: ok"
exit $fail
