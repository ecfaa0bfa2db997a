#!/bin/sh
# SPDX-License-Identifier: MIT
# lessons — the shipped lesson track through `scalelab check`, the way CI
# validates it: all twelve lessons pass, and a lesson whose reference
# solution stops short of its goal is refused (exit 1, file:line), so the
# goal checks of the track are live, not decorative; and no scenario falls
# to mashing the setting keys.
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

# 4. No scenario falls to a learner who mashes the setting keys: `check
#    --solve` prints, for every scenario page, how many of 100 random walks
#    of 10 setting presses meet its goal; each is at most 5. Two early pages
#    that teach one setting's trade-off alone are still above it (at most
#    10, as tests/unit/test_solve.c holds every page): named here, so no other
#    page can join them unseen.
MASH_MOST=5
mash_known() { # FILE TITLE: a page allowed more
  case "$(basename "$1")|$2" in
    "02-inside-the-box.lua|Use the box well" | "06-four-ways-to-split.lua|Shrink the bubble") return 0 ;;
  esac
  return 1
}
if ! timeout 300 "$bin" check --solve lessons/[0-9][0-9]-*.lua >"$T/solve" 2>"$T/err"; then
  bad "scalelab check --solve: $(head -c 600 "$T/err")"
fi
scenarios=0 mashed=0
while IFS= read -r line; do
  case $line in
    lessons/*:) file=${line%:} ;;
    "  page "*) title=$(printf '%s\n' "$line" | sed -n 's/^  page [0-9]* "\(.*\)": par .*/\1/p')
      where="$file page $(printf '%s\n' "$line" | sed -n 's/^  page \([0-9]*\) .*/\1/p') \"$title\""
      scenarios=$((scenarios + 1)) ;;
    "    mashing them: "*)
      met=$(printf '%s\n' "$line" | sed -n 's/^    mashing them: \([0-9]*\) of 100 random walks .*/\1/p')
      [ -n "$met" ] || { bad "$where: unreadable mash line: $line"; continue; }
      mashed=$((mashed + 1))
      if mash_known "$file" "$title"; then
        [ "$met" -le 10 ] || bad "$where: $met of 100 mashing walks meet the goal (at most 10)"
      elif [ "$met" -gt "$MASH_MOST" ]; then
        bad "$where: $met of 100 mashing walks meet the goal (at most $MASH_MOST)"
      fi ;;
  esac
done <"$T/solve"
[ "$scenarios" -ge 12 ] || bad "check --solve named only $scenarios scenario pages"
[ "$mashed" = "$scenarios" ] || bad "$scenarios scenario pages, $mashed mash lines"

[ $fail = 0 ] && echo "lessons.sh: $n lessons pass check; short solution refused; \
$scenarios scenarios, none met by mashing more than $MASH_MOST times in 100 but the 2 named"
exit $fail
