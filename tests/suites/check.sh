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

# 6. Every kind of mistake an author makes, each at its own line with what
# was meant (tests/lessons/mistakes.lua: one per page; the lines below were
# read against the file by hand): what reading finds, then what running the
# goals and debriefs finds. No problem twice, none at a kind line.
timeout 20 "$bin" check tests/lessons/mistakes.lua >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" = 1 ] || bad "mistakes: exit $rc, want 1"
m=tests/lessons/mistakes.lua
cat >"$T/want" <<EOF
$m:7: lesson: unknown field 'summry': did you mean 'summary'?
$m:11: pages[2]: unknown field 'tolerence': did you mean 'tolerance'?
$m:12: pages[2]: unknown field 'formla': did you mean 'formula'?
$m:14: pages[3]: unknown field 'clustr': did you mean 'cluster'?
$m:17: pages[4].cluster: 'gpus' must be a whole number, not a string
$m:19: pages[5]: unknown field 'chioces': did you mean 'choices'?
$m:22: pages[6]: choices[2]: unknown field 'corect': did you mean 'correct'?
$m:27: pages[7].chart: unknown field 'value': did you mean 'values'?
$m:30: pages[8]: terms[2]: unknown field 'vaule': did you mean 'value'?
$m:36: pages[9].goal: unknown field 'chekc': did you mean 'check'?
$m:37: pages[9]: unknown field 'hint': did you mean 'hints'?
$m:38: pages[9]: unknown field 'debreif': did you mean 'debrief'?
$m:39: pages[9]: unknown field 'soluton': did you mean 'solution'?
$m:60: pages[12].goal.target: unknown field 'step': did you mean 'step_s'?
$m:65: pages[13]: unknown slip 'bit': did you mean 'bits'?
$m:72: pages[14]: unknown field 'soluton': did you mean 'solution'?
$m:74: pages[15]: 'title' must be a string, not a number
$m:80: pages[16].workload: unknown field 'btach': did you mean 'batch'?
$m:82: pages[16].mapping: unknown field 'tpp': did you mean 'tp'?
$m:87: pages[17]: allow[1] = 'degree': did you mean 'degrees'?
$m:46: page 10 goal: r.breakdown has no field 'bubble': did you mean 'bubble_s'? (fields: bubble_s, compute_s, dp_s, ep_s, pp_s, tp_s)
$m:54: the goal is already met at the start (step 30.3 s, does not fit): goal "Under a minute."; target step_s 60.0 s; change the start (mapping, cluster, start moves) or the goal
$m:62: page 12 debrief: r.mapping has no field 'tpp': did you mean 'tp'? (fields: cp, dp, ep, etp, interleave, mb, pp, tp, zero)
EOF
diff "$T/want" "$T/err" >"$T/diff" || bad "mistakes: want (<) and got (>): $(cat "$T/diff")"
# A word in a string or a comment is not a field: the typo's line is found.
printf '%s\n' 'return { id = "w", title = "w", pages = {' \
  '  { kind = "text", title = "x", text = "tolerence = 1 -- [[" }, --[[ tolerence = 2' \
  ']] { kind = "predict", title = "p", text = "x", question = "q", unit = "s",' \
  '    answer = 1, -- tolerence = 3' '    tolerence = 0.1 } } }' >"$T/words.lua"
timeout 20 "$bin" check "$T/words.lua" >/dev/null 2>"$T/err"
grep -qx "$T/words.lua:5: pages\[2\]: unknown field 'tolerence': did you mean 'tolerance'?" \
  "$T/err" || bad "a word in a string or comment: $(cat "$T/err")"

# 7. Notes for the author: --notes prints each as FILE:LINE: page N: text on
# stdout (at load, in a page, in each run of a goal); without it one line
# says how many; the shipped lessons make none; a flood is bounded.
n=tests/lessons/notes.lua
timeout 20 "$bin" check --notes "$n" >"$T/out" 2>"$T/err" || bad "notes: $(cat "$T/err")"
cat >"$T/want" <<EOF
$n:4: lesson: { a = "dgx-h100", b = 8, list = {...} }
$n:5: lesson: target 1.235 s
$n:19: page 3: in a page
$n:14: page 2: tp 16
$n:14: page 2: tp 8
EOF
head -5 "$T/out" | diff "$T/want" - >"$T/diff" || bad "notes: want (<), got (>): $(cat "$T/diff")"
timeout 20 "$bin" check "$n" >"$T/out" 2>&1
grep -qx "$n: 5 notes (scalelab check --notes shows them)" "$T/out" || bad "notes count: $(cat "$T/out")"
grep -q "page 3: in a page" "$T/out" && bad "notes printed without --notes"
timeout 120 "$bin" check --notes lessons/*.lua >"$T/out" 2>&1
grep -q ": lesson: \|: page [0-9]*: \|notes (scalelab" "$T/out" && bad "a shipped lesson makes notes: $(grep -m3 ': page\|lesson:' "$T/out")"
printf '%s\n' 'for i = 1, 300 do scalelab.note(("x"):rep(1000)) end' \
  'return { id = "flood", title = "f", pages = { { kind = "text", title = "t", text = "x" } } }' \
  >"$T/flood.lua"
timeout 20 "$bin" check --notes "$T/flood.lua" >"$T/out" 2>&1
[ "$(grep -c "^$T/flood.lua:1: lesson: x" "$T/out")" = 81 ] || bad "flood: $(grep -c x "$T/out") notes kept, want 81 (32 KB of 403-byte notes)"
grep -q "^$T/flood.lua:1: lesson: x\{400\}\.\.\.$" "$T/out" || bad "flood: a note is cut at 400 bytes"
grep -qx "$T/flood.lua:1: lesson: 219 more notes not kept (at most 200, 32 KB)" "$T/out" \
  || bad "flood: $(tail -3 "$T/out")"

[ $fail = 0 ] && echo "check.sh: all cases pass"
exit $fail
