#!/bin/sh
# SPDX-License-Identifier: MIT
# A placement scenario as a learner plays it, in the real program in tmux at
# 80x24: lesson 5's "Back inside the rack" (a GB300 rack pair with a failed
# tray; one TP group straddles the racks). Mashing the setting keys leaves
# the goal unmet and counts presses; 0 resets the count; Space (one GPU)
# is refused where whole groups move; g picks the straddling group, Enter
# drops it on the free GPUs of the second rack, a prediction is asked
# before the new step shows (u takes the move back while it waits), and the
# debrief says the presses were on par. Then `progress --json` holds the prediction as a first try.
# Also: `render` draws the scenario through draw/ (cmd_render.c includes no
# ui/ header).
bin=${1:?usage: tests/suites/placement.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
suite=placement
. scripts/tmux-lib.sh
mkdir -p "$tmp/home" "$tmp/state"

if grep -n '#include "ui/' src/cmd/cmd_render.c; then
  no "cmd_render.c includes ui/: render must draw through draw/"
fi

lesson=lessons/05-bandwidth-cliff.lua
page=$("$bin" check --solve "$lesson" | sed -n 's/^  page \([0-9]*\) "Back inside the rack".*/\1/p')
[ -n "$page" ] || { no "no page \"Back inside the rack\" in $lesson"; exit 1; }

press() { # KEY COUNT
  i=0; while [ "$i" -lt "$2" ]; do keys "$1"; i=$((i + 1)); done
}
cursor_at() { # GPU: the cursor line names it
  wait_for "GPU $1 " 5
}

session 80 24 "env HOME=$tmp/home XDG_STATE_HOME=$tmp/state LC_ALL=$utf8 $bin $lesson; \
echo EXITED-\$?; sleep 60"
wait_for "page 1/"
p=1
while [ "$p" -lt "$page" ]; do
  p=$((p + 1)); i=0
  while [ $i -lt 4 ]; do keys Tab; seen "page $p/" 3 && break; i=$((i + 1)); done
done
wait_for "Back inside the rack"
wait_for "keys 0, par 2"
wait_for "TP group E crosses racks"

# The lazy learner: every setting key this scenario allows, then more.
for k in t T y Y d D t T; do keys "$k"; sleep 0.1; done
for k in m M + - ] [; do keys "$k"; sleep 0.1; done
# each press that changed a setting counts (a refused one says why, and not)
counted() { screen | grep -q "keys [1-8], par 2"; }
poll 5 counted || no "the setting presses are not counted: $(screen | grep 'keys ')"
screen | grep -q "\[met" && no "the setting keys met a placement goal"
keys 0
wait_for "Back to the start: 0 key presses."
wait_for "keys 0, par 2"

# Space picks one GPU where single GPUs move; here whole groups move, and
# the screen says so (a refused key counts no press).
press Right 68; cursor_at 68
keys Space
wait_for "This scenario moves whole groups, not single GPUs: g picks the group"
wait_for "keys 0, par 2"

# The group: g on one of its GPUs, Enter on a free GPU of the other rack;
# u takes it back (and its two presses), then again for real.
keys g
wait_for "The TP group of GPU 68 is picked"
press Down 1; press Left 8; cursor_at 132
keys Enter
wait_for "Before you see it: what will this move do to the step time?"
keys u
wait_for "Undone: the next such move asks again."
wait_for "keys 0, par 2"
press Up 1; cursor_at 60
press Right 8; cursor_at 68
keys g
wait_for "The TP group of GPU 68 is picked"
press Down 1; press Left 8; cursor_at 132
keys Enter
wait_for "Before you see it: what will this move do to the step time?"
screen | grep -q "Goal met" && no "the result showed before the prediction"
keys 4 # faster, by up to 2x: 16.4 s -> 11.5 s
wait_for 'Your prediction: "faster, by up to 2x": right'
wait_for "Goal met!"
wait_for "Debrief: 2 key presses: on par."
keys q
seen "EXITED-0" 10 || keys q
wait_for "EXITED-0"

HOME=$tmp/home XDG_STATE_HOME=$tmp/state "$bin" progress --json --lessons "$(pwd)/lessons" >"$tmp/p.json" ||
  no "progress --json failed"
python3 - "$tmp/p.json" "$page" <<'PY' || no "progress does not hold the prediction: $(cat "$tmp/p.json")"
import json, sys
doc = json.load(open(sys.argv[1]))
page = int(sys.argv[2]) - 1
for lesson in doc["lessons"]:
    for q in lesson.get("questions", []):
        if q["kind"] == "prediction" and q["page"] == page:
            assert q["first_try"] and q["right"] and q["tries"] == 1, q
            sys.exit(0)
sys.exit(1)
PY

# the class report counts it among the first tries, and says so
"$bin" report "$tmp/p.json" >"$tmp/report" 2>"$tmp/err" || no "report failed: $(cat "$tmp/err")"
grep -q 'predictions before a move, right at the first try: .* 1/1' "$tmp/report" ||
  no "report does not count the prediction: $(grep -i predict "$tmp/report")"

[ $fail = 0 ] && echo "$suite: ok (setting keys leave it unmet, Space refused, g/Enter/u, the debrief on par, the prediction kept)"
exit $fail
