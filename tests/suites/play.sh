#!/bin/sh
# SPDX-License-Identifier: MIT
# Free play, the search key, the SVG key and live reload, driven in a detached
# tmux session on a private socket (HOME and XDG_STATE_HOME in a temporary
# folder, cwd there too so written files land in it):
# - `play`: a degree change shows, s opens the search, Enter applies the
#   winner, w writes a lesson file that `scalelab check` passes, q asks before
#   losing moves; `play FILE` opens the written file again;
# - S writes an SVG that xmllint (when installed) parses;
# - a lesson opened directly reloads by itself when its file changes on disk,
#   keeping the page, and shows a syntax error on the page instead of leaving;
# - a goal that runs long shows "running… Esc to stop", and Esc or Ctrl-C
#   stops the script while the program stays up, and a key typed meanwhile
#   is kept for after it;
# - w and S in a folder that refuses files write to the state folder.
# Waits poll the screen with a timeout; no fixed sleeps. (Idle CPU with a
# lesson open, the once-a-second file check, is a `make bench` figure.)
bin=${1:?usage: play.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
suite=play
. scripts/tmux-lib.sh
start() {
  w=$1; h=$2; shift 2
  session "$w" "$h" "env -u NO_COLOR HOME=$tmp/home XDG_STATE_HOME=$tmp/state LC_ALL=$utf8 LANG=$utf8 \
$bin $*; echo EXITED-\$?; sleep 60" "${cwd:-$tmp/work}"
}

mkdir -p "$tmp/home" "$tmp/state" "$tmp/work"

# --- free play: a move, the search, apply, write, quit with a question ---
start 80 24 play --system dgx-h100 --gpus 64 --model llama3-70b
wait_for "Free play" && wait_for "w write"
keys t; wait_for "Last move:"
keys s; wait_for "Best mappings: DGX H100, 64 GPUs" && wait_for "#1 lands:"
keys Enter; wait_for "Applied the search's #1"
keys q; wait_for "Quit without writing"
keys w; wait_for "Wrote scalelab-play-"
lua=$(ls "$tmp/work"/scalelab-play-*.lua 2>/dev/null | head -n 1)
[ -n "$lua" ] || no "w wrote no scalelab-play-*.lua in the current folder"
keys S; wait_for "Screen saved as SVG: scalelab-"
svg=$(ls "$tmp/work"/scalelab-*.svg 2>/dev/null | head -n 1)
[ -n "$svg" ] || no "S wrote no SVG in the current folder"
if [ -n "$svg" ] && command -v xmllint >/dev/null 2>&1; then
  xmllint --noout "$svg" || no "the SVG does not parse"
fi
keys q; wait_for "EXITED-0"
if [ -n "$lua" ]; then
  "$bin" check "$lua" >"$tmp/check.out" 2>&1 || { no "check fails on the written lesson:"; cat "$tmp/check.out"; }
  # --- play FILE: the written state comes back ---
  start 80 24 play "$lua"
  wait_for "Free play" && wait_for "$(basename "$lua")"
  keys q; wait_for "EXITED-0"
fi
# --- a folder that refuses files (/proc, even for root): the state folder ---
cwd=/proc start 80 24 play --gpus 16
wait_for "Free play"
keys w; wait_for "a lesson with this scenario"
ls "$tmp/state/scalelab"/scalelab-play-*.lua >/dev/null 2>&1 || no "no lesson file in the state folder"
keys S; wait_for "Screen saved as SVG:"
ls "$tmp/state/scalelab"/scalelab-*.svg >/dev/null 2>&1 || no "no SVG in the state folder"
keys q; wait_for "EXITED-0"
"$bin" play --no-such-flag 2>/dev/null; [ $? = 2 ] || no "play with a bad flag did not exit 2"
"$bin" play $(for i in 1 2 3 4 5 6 7 8 9 10; do printf -- '--gpus 8 '; done) 2>/dev/null
[ $? = 2 ] || no "play with ten --gpus flags did not exit 2"
"$bin" play a.lua b.lua 2>/dev/null; [ $? = 2 ] || no "play with two files did not exit 2"

# --- a lesson scenario that allows search: s searches there too, q asks
# after a move (exercises.sh checks that s is refused where not allowed) ---
sed 's/"domain", "system" }/"domain", "system", "search" }/' tests/e2e/lessons/01-e2e-basics.lua \
  >"$tmp/work/live.lua"
grep -q '"search" }' "$tmp/work/live.lua" || no "could not allow search in the copied lesson"
start 80 24 "$tmp/work/live.lua"
wait_for "page 1/"
n=0
while ! on_screen "scenario" && [ $n -lt 10 ]; do keys n; seen "scenario" 1; n=$((n + 1)); done
wait_for "s search"
keys s; wait_for "Best mappings:"
keys Escape; wait_for "Bottleneck:"
keys m; wait_for "Last move:"
keys q; wait_for "Leave with 1 move made"
keys u

# --- live reload: keep the page, show an error on the page, recover ---
page=$(screen | sed -n 's/.*page \([0-9]*\/[0-9]*\).*/\1/p' | head -n 1)
sed 's/Cross the boundary/Cross the line/' "$tmp/work/live.lua" >"$tmp/live.new" && cat "$tmp/live.new" >"$tmp/work/live.lua"
wait_for "Cross the line" 4 && wait_for "Reloaded: the file changed on disk."
screen | grep -qF "page $page" || no "the reload did not keep page $page"
cp "$tmp/work/live.lua" "$tmp/live.good"
printf 'return {\n  id = \n' >"$tmp/work/live.lua"
wait_for "live.lua:3:" 4 && wait_for "changed on disk and has an error"
cat "$tmp/live.good" >"$tmp/work/live.lua"
wait_for "Cross the line" 4 && wait_for "page $page"

keys Escape; wait_for "EXITED-0"

# --- a goal that runs long: "running… Esc to stop"; Esc and Ctrl-C stop the
# script, not the program ---
# (a copy under a short path, so that the message naming file:line fits on
# one line of the screen)
cp tests/lessons/slow-goal.lua "$tmp/work/slow.lua"
for stop in Escape C-c; do
  start 80 24 "$tmp/work/slow.lua"
  wait_for "Esc to stop" 3 && keys "$stop"
  wait_for "stopped by the learner" 3 && wait_for "Bottleneck:"
  screen | grep -qF EXITED && no "$stop ended the program instead of the script"
  keys q; wait_for "EXITED-0"
done
# a key typed while the goal runs is kept for after it: ? then Esc stops the
# script and then opens the help
start 80 24 "$tmp/work/slow.lua"
wait_for "Esc to stop" 3 && keys "?" && keys Escape
wait_for "Scenario keys" 5 || no "the key typed while the goal ran was lost"
keys Escape; wait_gone "Scenario keys"
keys q; wait_for "EXITED-0"

[ $fail = 0 ] && echo "play: ok"
exit $fail
