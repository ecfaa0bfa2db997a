#!/bin/sh
# SPDX-License-Identifier: MIT
# Presenter mode and the compare view in a real terminal: a private tmux
# socket, HOME and XDG_STATE_HOME in a temporary folder, waits that poll for
# text (no fixed sleeps). Walks tests/present/demo.lua: paragraphs revealed
# one per key, a --script move played on the scenario page (a GPU crosses
# the server boundary), u steps back, the briefing whole, a predict page's
# question, answer and formula one key each, no progress file written; then `c` on
# a scenario of the e2e lesson opens the compare view and Esc closes it.
bin=${1:?usage: present.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
suite=present
. scripts/tmux-lib.sh
start() {
  w=$1; h=$2; shift 2
  session "$w" "$h" "env -u NO_COLOR HOME=$tmp/home XDG_STATE_HOME=$tmp/state LC_ALL=$utf8 LANG=$utf8 $bin $*; echo EXITED-\$?; sleep 60"
}
mkdir -p "$tmp/home" "$tmp/state"

# --- a script with a comment and a move: checked before the show ---
printf '# the demo\nswap 0 8   # GPU 0 crosses to server 2\n' >"$tmp/demo.script"
printf 'swap 0 99\n' >"$tmp/bad.script"
out=$("$bin" present tests/present/demo.lua --script "$tmp/bad.script" 2>&1 </dev/null); rc=$?
[ "$rc" = 1 ] || no "a bad script exits $rc, not 1"
echo "$out" | grep -q "bad.script:1: " || no "a bad script does not name its line as FILE:1: $out"

# --- reveals, the scripted move, no progress ---
start 80 24 present tests/present/demo.lua --script "$tmp/demo.script"
wait_for "Inside a server the GPUs share NVLink."
screen | grep -qF "Between servers" && no "the second paragraph shows before its key"
wait_for "step 0/2 · 1/5"
keys Space
wait_for "Between servers, traffic takes the network."
keys Space
wait_for "The boundary is where bandwidth drops."
keys Space
wait_for "Cross it"
wait_for "Next ▸ swap 0 8"
keys Space
wait_for "Move 1/1  swap 0 8: TP all-reduce"
wait_for "against the start: slower."
keys u
wait_gone "Move 1/1"
keys Space Space
wait_for "Racks or servers"
wait_for "faster than"
keys Left
wait_for "Cross it"
# the briefing is whole: its last line shows
wait_for "this last line must show too."
# --- a predict page, one key each: the question, the answer, the formula ---
keys End
wait_for "step 0/3 · 5/5"
on_screen "How long does the copy take?" && no "the question shows before the situation"
keys Space
wait_for "How long does the copy take?"
on_screen "The model's answer" && no "the answer shows with the question"
keys Space
wait_for "The model's answer: 2.22 ms (right within ±20%)"
on_screen "time = bytes / bandwidth" && no "the formula shows with the answer"
keys Space
wait_for "time = bytes / bandwidth = 1.00 GB / 450 GB/s = 2.22 ms"
keys u
wait_gone "time = bytes / bandwidth"
keys q
wait_for "EXITED-0"
[ -e "$tmp/state/scalelab/progress" ] && no "presenter mode wrote a progress file"

# --- 200x60: block-letter title, clock in the footer ---
start 200 60 present tests/present/demo.lua
wait_for "██████  ██  ██    ██"
screen | grep -qE '1/5 · [0-9][0-9]:[0-9][0-9]' || no "no page number and clock in the footer"
keys Escape
wait_for "EXITED-0"

# --- the compare view from a scenario: c opens, Esc closes ---
start 80 24 tests/e2e/lessons/01-e2e-basics.lua
wait_for "page 1/3"
keys n
wait_for "Make one TP group span both servers."
keys Right Right Right Space Down Enter
wait_for "Last move:"
keys c
wait_for "Compare: the start against now"
wait_for "3.1x faster than now"
keys Escape
wait_gone "Compare: the start"
wait_for "Last move:"
keys Escape
wait_for "EXITED-0"

[ $fail = 0 ] && echo "present: ok"
exit $fail
