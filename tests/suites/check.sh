#!/bin/sh
# SPDX-License-Identifier: MIT
# check — `scalelab check` over the shipped lessons and the authoring example
# (all must pass), and over broken lessons (every problem named file:line on
# stderr, exit 1), plus usage (exit 2).
# Usage: sh tests/suites/check.sh BINARY   (cwd = repository root)
set -u
bin=${1:?usage: check.sh BINARY}
T=$(mktemp -d "${TMPDIR:-/tmp}/scalelab-check.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "check.sh: FAIL: $*"; fail=1; }

# 1. Shipped lessons and the exercises example pass.
if ! timeout 120 "$bin" check lessons/*.lua tests/lessons/exercises.lua >"$T/out" 2>"$T/err"; then
  bad "shipped lessons: $(head -c 400 "$T/err")"
fi

# 2. A lesson with several mistakes: all reported, each file:line.
cat >"$T/broken.lua" <<'LUA'
return {
  id = "broken",
  title = "Broken",
  pages = {
    { kind = "text", title = "ok", text = "fine" },
    { kind = "quiz", title = "q", text = "?",
      choices = { { text = "a", explain = "x" }, { text = "b", explain = "y" } } },
    { kind = "diagram", title = "d", cluster = { system = "no-such-system" } },
    { kind = "scenario", title = "s", text = "t",
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-70b", batch = 64, mb = 1 },
      mapping = { tp = 8, pp = 2, dp = 1 },
      goal = { text = "never", check = function(r) return r.step_s < 0, "impossible" end },
      solution = { "swap 0 8" } },
    { kind = "poster", title = "p" },
  },
}
LUA
timeout 20 "$bin" check "$T/broken.lua" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" = 1 ] || bad "broken lesson: exit $rc, want 1"
n=$(grep -c "^$T/broken.lua:[0-9][0-9]*: " "$T/err")
[ "$n" = 4 ] || bad "broken lesson: $n problems, want 4: $(cat "$T/err")"
grep -q "broken.lua:6: pages\[2\]: no choice is marked correct" "$T/err" || bad "quiz line"
grep -q "broken.lua:8: .*unknown system 'no-such-system'" "$T/err" || bad "preset name"
grep -q "broken.lua:13: the reference solution does not meet the goal: impossible" "$T/err" \
  || bad "solution check: $(cat "$T/err")"
grep -q "broken.lua:15: pages\[5\]: unknown kind 'poster'" "$T/err" || bad "page kind"
[ -s "$T/out" ] && bad "broken lesson printed on stdout"

# 3. A reference solution the learner could not make (allow excludes it).
sed 's/mapping = { tp = 8, pp = 2, dp = 1 },/& allow = { "degrees" },/' "$T/broken.lua" \
  >"$T/allow.lua"
timeout 20 "$bin" check "$T/allow.lua" >/dev/null 2>"$T/err"
grep -q "allow.lua:9: solution move 1 'swap 0 8': this scenario does not let you move" \
  "$T/err" || bad "allow: $(cat "$T/err")"

# 4. Ids unique across the set.
cp tests/lessons/exercises.lua "$T/copy.lua"
timeout 20 "$bin" check tests/lessons/exercises.lua "$T/copy.lua" 2>"$T/err" >/dev/null; rc=$?
[ "$rc" = 1 ] || bad "duplicate id: exit $rc"
grep -q "copy.lua:1: lesson id 'example-exercises' is already used" "$T/err" || bad "dup id msg"

# 5. Usage.
timeout 5 "$bin" check >/dev/null 2>"$T/err"; rc=$?
[ "$rc" = 2 ] || bad "no file: exit $rc, want 2"
[ "$(wc -l <"$T/err")" = 1 ] || bad "no file: want one line on stderr"

[ $fail = 0 ] && echo "check.sh: all cases pass"
exit $fail
