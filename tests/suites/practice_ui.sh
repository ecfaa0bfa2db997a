#!/bin/sh
# SPDX-License-Identifier: MIT
# Practice on screen at 80x24, wrong first, the way a learner meets it: the
# answers typed come from `practice --answers --json` for the same seed (the UI's
# first exercise of `--seed N --kind K` is the worksheet's exercise N), a
# wrong answer costs a try without giving the answer away, the right one
# passes and shows the worked answer, and progress keeps the results. The
# lesson menu's P opens practice, and q (or Esc) comes back to the menu.
suite=practice_ui
bin=${1:?usage: practice_ui.sh BINARY}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
. "$(dirname "$0")/../../scripts/tmux-lib.sh"

state=$tmp/state
run() { session 80 24 "env XDG_STATE_HOME=$state LANG=$utf8 NO_COLOR=1 $bin $*"; }

# Predict: three times the answer first (too high, one try used), then the answer.
"$bin" practice --answers --json --seed 11 --kind predict >"$tmp/p.json" || no "practice --answers failed"
answer=$(python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
unit = "s" if "all-reduce" in o["title"] or "bubble" in o["title"] else "B"
print("%.4g %s|%.4g %s" % (o["value"], unit, 3 * o["value"], unit))' "$tmp/p.json")
right=${answer%|*}
wrong=${answer#*|}
run practice --seed 11 --kind predict
wait_for "Your answer:"
keys -l "$wrong"
wait_for "Your answer: $wrong"
keys Enter
wait_for "1 of 3 tries used"
seen "Too high" 2 || no "three times the answer is not called too high: $(screen | tail -8)"
on_screen "Answer:" && no "a wrong try showed the answer"
keys -l "$right"
keys Enter
wait_for "Right:"
wait_for "Answer:"
wait_for "1 done, 0 first try"
keys n
wait_for "Your answer:"
on_screen "Right:" && no "the next exercise kept the last one's verdict"
keys q
poll 5 grep -q '^practice predict 1 0 0$' "$state/scalelab/progress" ||
  no "progress has no 'practice predict 1 0 0': $(cat "$state/scalelab/progress" 2>&1)"

# Bottleneck: a wrong choice first, then the right one (choices in the order
# compute, TP, PP, bubble, DP, EP).
"$bin" practice --answers --json --seed 12 --kind bottleneck >"$tmp/b.json"
pick=$(python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
order = ["compute", "TP", "PP", "bubble", "DP", "EP"]
r = order.index(o["answer"])
print("%d %d" % (r + 1, (r + 1) % 5 + 1))' "$tmp/b.json")
good=${pick% *}
bad=${pick#* }
run practice --seed 12 --kind bottleneck
wait_for "Which part of the step takes the most time?"
keys "$bad"
wait_for "Not "
on_screen "Answer:" && no "a wrong choice showed the answer"
keys "$good"
wait_for "Right:"
wait_for "The step takes"
keys q
poll 5 grep -q '^practice bottleneck 1 0 0$' "$state/scalelab/progress" ||
  no "progress has no 'practice bottleneck 1 0 0'"

# Tier: a wrong tier first, then the right one (choices in the order of the
# tiers, scale-up domain to site link).
"$bin" practice --answers --json --seed 14 --kind tier >"$tmp/t.json"
pick=$(python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
order = ["scale-up domain", "leaf switches", "spine", "site link"]
r = order.index(o["tier"])
print("%d %d" % (r + 1, (r + 1) % 4 + 1))' "$tmp/t.json")
good=${pick% *}
bad=${pick#* }
run practice --seed 14 --kind tier
wait_for "Which is the slowest tier"
keys "$bad"
wait_for "Not the"
on_screen "Answer:" && no "a wrong tier showed the answer"
keys "$good"
wait_for "Right:"
wait_for "Answer: the"
keys q
poll 5 grep -q '^practice tier 1 0 0$' "$state/scalelab/progress" ||
  no "progress has no 'practice tier 1 0 0'"

# Placement: the diagram and the moves; the degrees are refused.
run practice --seed 15 --kind placement
wait_for "Par "
keys t
wait_for "only the placement changes"
keys q

# Mapping: the search is off; a asks for the answer, which counts as missed.
run practice --seed 13 --kind mapping
wait_for "Par "
keys s
wait_for "No search here"
keys a
wait_for "Answer: TP"
wait_for "1 done, 0 first try"
keys q

# From the menu: P opens practice at the level progress keeps; q comes back
# to the menu (it does not end the program), and so does Esc.
run --lessons "$(dirname "$0")/../../lessons"
wait_for "P practice"
keys P
wait_for "Practice"
keys q
wait_for "scalelab - lessons"
keys P
wait_for "Practice"
keys Escape
wait_for "scalelab - lessons"
keys q

[ $fail = 0 ] && echo "practice_ui: ok"
exit $fail
