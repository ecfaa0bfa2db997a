#!/bin/sh
# SPDX-License-Identifier: MIT
# exercises — the pages that make a learner think, driven in tmux at 80x24
# on tests/lessons/exercises.lua (in a lessons folder of its own, with HOME
# and XDG_STATE_HOME in a temporary folder):
# - a quiz answered wrong first shows only that choice's explanation and
#   never marks or explains the right one; after two wrong tries `a` shows
#   the answer; the right choice then solves it;
# - a predict page answered without a unit costs no try (the entry is
#   cleared), answered wrong says
#   too low and names the dominant term without the answer, answered right
#   shows the model's answer and the formula;
# - the scenario shows moves against par and the goal's mark on the bar;
#   search where allowed is recorded in the debrief; where not allowed
#   (tests/e2e/lessons/01-e2e-basics.lua) the s key is refused;
# - the menu shows the first-try score, and R replays the missed question;
#   leaving the last page with every check answered, and every miss
#   reviewed right, marks the lesson mastered ([*], "mastered").
# Waits poll the screen with a timeout; no fixed sleeps.
bin=${1:?usage: exercises.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
suite=exercises
. scripts/tmux-lib.sh
mkdir -p "$tmp/home" "$tmp/state" "$tmp/lessons"
cp tests/lessons/exercises.lua "$tmp/lessons/"
start() {
  session 80 24 "env -u NO_COLOR HOME=$tmp/home XDG_STATE_HOME=$tmp/state LC_ALL=$utf8 \
LANG=$utf8 $bin $*; echo EXITED-\$?; sleep 60"
}
choice_key() { screen | sed -n "s/^ *\([1-9]\)) .*$1\$/\1/p" | head -n 1; }

start --lessons "$tmp/lessons"
wait_for "[ ] Exercises"
keys Enter
wait_for "How long do 1 GB take at 450 GB/s?"
k_right=$(choice_key "2.22 ms")
k_bits=$(choice_key "17.8 ms")
k_fast=$(choice_key "222 µs")
[ -n "$k_right" ] && [ -n "$k_bits" ] && [ -n "$k_fast" ] || no "quiz choices not found by their text"

# --- the quiz: wrong, wrong, the answer, right ---
keys "$k_bits"
wait_for "That counts bits as bytes."
wait_for "try another"
on_screen "bytes / bandwidth." && no "a wrong answer showed the right choice's explanation"
on_screen "right" && no "a wrong answer marked the right choice"
keys a
wait_for "Try 1 more before the answer is shown."
keys "$k_fast"
wait_for "Ten times too fast."
wait_for "press a for the answer"
on_screen "bytes / bandwidth." && no "two wrong answers showed the right explanation"
keys a
wait_for "The answer is $k_right"
wait_for "bytes / bandwidth."
keys "$k_right"
wait_for "Right."

# --- the predict page: no unit, too low, right ---
keys n
wait_for "How long does the copy take?"
wait_for "try 1 of 3"
keys 2 . 2 Enter
wait_for "needs a unit"
wait_for "Not counted as a try"
wait_for "try 1 of 3"
keys BSpace BSpace BSpace
keys 2 0 Space u s Enter
wait_for "Too low by a factor of about"
wait_for "The largest term here is bandwidth."
on_screen "The model's answer" && no "a wrong number showed the answer"
wait_for "try 2 of 3"
keys 2 . 2 Space m s Enter
wait_for "Right: 2.20 ms is within 20%"
wait_for "The model's answer: 2.22 ms"
wait_for "time = latency + bytes / bandwidth"

# --- the scenario: par, the goal's mark, search recorded ---
keys n
wait_for "keys 0, par 2"
wait_for "┃ goal"
keys s
wait_for "Best mappings"
keys Enter
wait_for "[met"
wait_for "1 key press, par 2: you beat par by 1! You used search to find it."
# the lesson's own words on the final state, where the screen has room
T resize-window -t s -x 120 -y 40
wait_for "You ended at TP 8 PP 2:"
T resize-window -t s -x 80 -y 24

# --- the menu: first tries and the review ---
keys Escape
wait_for "0/2 first try"
wait_for "R reviews the 2 questions missed at the first try."
keys R
wait_for "Review: a question you missed the first time."
wait_for "How long do 1 GB take at 450 GB/s?"
on_screen "✓ right" && no "the review opened with the answer shown"
keys "$(choice_key "2.22 ms")"
wait_for "Right, at the first try."
keys n
wait_for "Review: a number you missed the first time."
keys 2 . 2 Space m s Enter
wait_for "Right at the first try."
keys n
wait_for "scalelab - lessons"
seen "R reviews" 1 && no "the review did not clear the missed questions"
on_screen "[*] Exercises" && no "a lesson not yet done was called mastered"
# --- done and mastered: the last page left with every check answered, and
# both misses reviewed right at once ---
keys Enter
wait_for "Predict one copy"
keys n
wait_for "Fix the split"
keys n
wait_for "Lesson mastered"
keys Escape
wait_for "scalelab - lessons"
wait_for "[*] Exercises"
screen | grep -F "[*] Exercises" | grep -qF "mastered" ||
  no "the mastered lesson's row does not say mastered: $(screen | grep -F Exercises)"
keys q
wait_for "EXITED-0"
grep -q '^page example-exercises 0 ' "$tmp/state/scalelab/progress" ||
  no "no progress record for the quiz"

# --- search refused where the scenario does not allow it ---
start "$(pwd)/tests/e2e/lessons/01-e2e-basics.lua"
wait_for "Hello from the test lesson"
keys n
wait_for "Cross the boundary"
keys s
wait_for "Search is off in this scenario"
on_screen "Best mappings" && no "search opened in a scenario that does not allow it"
keys Escape
wait_for "EXITED-0"

[ $fail = 0 ] && echo "exercises: ok"
exit $fail
