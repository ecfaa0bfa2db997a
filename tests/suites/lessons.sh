#!/bin/sh
# SPDX-License-Identifier: MIT
# lessons — the shipped lesson track through `scalelab check`, the way CI
# validates it: all twelve lessons pass, and a lesson whose reference
# solution stops short of its goal is refused (exit 1, file:line), so the
# goal checks of the track are live, not decorative.
# Usage: sh tests/suites/lessons.sh BINARY   (cwd = repository root)
set -u
bin=${1:?usage: lessons.sh BINARY}
T=$(mktemp -d "${TMPDIR:-/tmp}/scalelab-lessons.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "lessons.sh: FAIL: $*"; fail=1; }

# 1. The track: twelve lessons, all pass.
n=$(ls lessons/[0-9][0-9]-*.lua | wc -l)
[ "$n" -eq 12 ] || bad "expected 12 lessons, found $n"
if ! timeout 120 "$bin" check lessons/[0-9][0-9]-*.lua >"$T/out" 2>"$T/err"; then
  bad "scalelab check: $(head -c 600 "$T/err")"
fi

# 2. Lesson 7 with half its reference solution (one of the two straddling
#    TP groups moved: the pipeline still waits for the other): check must
#    refuse it and name the file and line.
sed 's/solution = left_fix,/solution = { left_fix[1] },/' \
  lessons/07-map-to-tiers.lua >"$T/07-short.lua"
grep -q 'solution = { left_fix\[1\] }' "$T/07-short.lua" || bad "lesson 7 solution line not found"
timeout 60 "$bin" check "$T/07-short.lua" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" = 1 ] || bad "short solution: exit $rc, want 1"
grep -q "07-short.lua:[0-9][0-9]*: .*goal" "$T/err" || bad "short solution: $(cat "$T/err")"

# 3. The seed coverage table names every lesson.
for f in lessons/[0-9][0-9]-*.lua; do
  nn=$(basename "$f" | cut -c1-2)
  grep -q "| $nn p\|; $nn p\|, $nn p\| $nn (" lessons/SEEDS.md || bad "SEEDS.md never cites lesson $nn"
done

[ $fail = 0 ] && echo "lessons.sh: $n lessons pass check; short solution refused"
exit $fail
