#!/bin/sh
# End-to-end: drives the real binary in a detached tmux session on a private
# socket, with HOME and XDG_STATE_HOME in a temporary folder, and asserts on
# the captured screen text. Walks the menu (filter, help), a lesson's pages,
# a scenario (a GPU of a TP group swapped across the domain boundary raises
# the step time on screen, swapping back restores it), a quiz, progress
# surviving a restart, a resize to 60x20 and back, NO_COLOR, LANG=C, opening
# one file with an error and reloading it fixed, and SIGTERM leaving the
# terminal usable (stty -a before and after), a crash signal likewise, and
# the one-line refusals without a terminal or with TERM=dumb. Waits poll for
# text with a timeout; there are no fixed sleeps.
bin=${1:?usage: e2e.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
command -v tmux >/dev/null 2>&1 || { echo "e2e: tmux is not installed (apt-get install tmux)"; exit 1; }

tmp=$(mktemp -d /tmp/scalelab-e2e.XXXXXX)
sock=scalelab-e2e-$$
lessons=$(pwd)/tests/e2e/lessons
fail=0
T() { tmux -L "$sock" "$@"; }
cleanup() { T kill-server >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

utf8=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || utf8=$(locale -a 2>/dev/null | grep -i 'utf-\?8' | head -n 1)
[ -n "$utf8" ] || utf8=C.UTF-8

no() { echo "e2e: FAIL: $*"; fail=1; }
screen() { T capture-pane -p -t s 2>/dev/null; }

# wait_for TEXT [SECONDS]: polls the screen until TEXT (fixed string) shows.
wait_for() {
  n=$(( ${2:-5} * 20 ))
  while [ "$n" -gt 0 ]; do
    screen | grep -qF -- "$1" && return 0
    sleep 0.05; n=$((n - 1))
  done
  no "did not see '$1'; the screen was:"; screen | sed 's/^/  | /'
  return 1
}
# wait_gone TEXT: polls until TEXT is no longer on screen.
wait_gone() {
  n=100
  while [ "$n" -gt 0 ]; do
    screen | grep -qF -- "$1" || return 0
    sleep 0.05; n=$((n - 1))
  done
  no "'$1' stayed on screen"; return 1
}
keys() { T send-keys -t s "$@"; }

# start W H [VAR=VALUE...] -- ARGS: a fresh session running the binary.
start() {
  w=$1; h=$2; shift 2
  envs="HOME=$tmp/home XDG_STATE_HOME=$tmp/state LC_ALL=$utf8 LANG=$utf8"
  while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
  shift
  T kill-session -t s >/dev/null 2>&1
  T new-session -d -s s -x "$w" -y "$h" \
    "env -u NO_COLOR $envs $bin $*; echo EXITED-\$?; sleep 60"
}
# watched: a fresh session that runs the binary between two `stty -a`
# snapshots, its pid in $tmp/pid, then prints EXITED-status and AFTER.
watched() {
  T kill-session -t s >/dev/null 2>&1
  run="env HOME=$tmp/home XDG_STATE_HOME=$tmp/state LC_ALL=$utf8 $bin --lessons $lessons"
  T new-session -d -s s -x 80 -y 24 "stty -a >$tmp/stty.before; \
sh -c 'echo \$\$ >$tmp/pid; exec $run'; echo EXITED-\$?; \
stty -a >$tmp/stty.after; echo AFTER; sleep 60"
}
# The step time on the scenario screen: "step 1.23 s" -> seconds.
step_s() {
  screen | sed -n 's/.*step \([0-9.]*\) \([mµu]*\)s .*/\1 \2/p' | head -n 1 |
    awk '{ v = $1; if ($2 == "ms") v /= 1e3; if ($2 == "µ" || $2 == "u") v /= 1e6; print v }'
}

mkdir -p "$tmp/home" "$tmp/state"

# --- the menu ---
start 80 24 -- --lessons "$lessons"
wait_for "scalelab - lessons"
wait_for "[ ] E2E basics"
wait_for "Second lesson"
wait_for "2 of 2 lessons"
keys / s e c o n d
wait_for "1 of 2 lessons"
keys Escape
wait_for "2 of 2 lessons"
keys Home
keys ?
wait_for "Lesson menu keys"
keys x
wait_gone "Lesson menu keys"

# --- a lesson's pages ---
keys Enter
wait_for "E2E basics — page 1/3"
wait_for "Hello from the test lesson"
keys n
wait_for "page 2/3"
wait_for "Make one TP group span both servers."
s0=$(step_s)
[ -n "$s0" ] || no "no step time on the scenario screen"

# --- the scenario: GPU 3 (TP group 0) swapped with GPU 11 (other server) ---
keys Right Right Right Space Down Enter
wait_for "Last move:"
wait_for "[met"
wait_for "Debrief:"
s1=$(step_s)
awk -v a="$s0" -v b="$s1" 'BEGIN { exit !(b > a * 1.05) }' ||
  no "step time did not rise across the boundary: $s0 -> $s1"
# ... and back: the cursor is on GPU 11, so pick it and drop it on GPU 3.
keys Space Up Enter
n=100
while [ "$n" -gt 0 ] && [ "$(step_s)" != "$s0" ]; do sleep 0.05; n=$((n - 1)); done
s2=$(step_s)
[ "$s2" = "$s0" ] || no "step time not restored after moving back: $s0 -> $s1 -> $s2"
keys h
wait_for "Hint 1/3: Nudge"
keys u
wait_for "Undone."

# --- the quiz ---
keys n
wait_for "page 3/3"
wait_for "Which tier is faster per GPU?"
keys 2
wait_for "Not this one"
wait_for "A NIC is slower."
keys 1
wait_for "Right."
wait_for "NVLink is about 9x the NIC."
# next on the last page: everything done -> back to the menu, marked done
keys n
wait_for "[✓] E2E basics"
keys q
wait_for "EXITED-0"

# --- progress survives a restart ---
[ -s "$tmp/state/scalelab/progress" ] || no "no progress file in XDG_STATE_HOME"
start 80 24 -- --lessons "$lessons"
wait_for "[✓] E2E basics"

# --- resize below the minimum and back ---
T resize-window -t s -x 60 -y 20
wait_for "is too small"
T resize-window -t s -x 80 -y 24
wait_for "scalelab - lessons"
T resize-window -t s -x 200 -y 60
wait_for "scalelab - lessons"
# the scenario at 200x60: grid and result side by side, the fabric view below
keys Enter
wait_for "page 1/3"
keys n
wait_for "Goal: Make one TP group span both servers."
wait_for "spine"
screen | grep -q "domain 0.*step [0-9.]* s" ||
  screen | grep -q "domain 0.*now " || no "at 200x60 the result is not beside the grid"
keys Escape q
wait_for "EXITED-0"

# --- colour, and NO_COLOR: attributes only ---
start 80 24 -- --lessons "$lessons"
wait_for "scalelab - lessons"
T capture-pane -p -e -t s | grep -qE '\[([0-9;]*;)?3[0-7](;[0-9;]*)?m' ||
  no "no colour on the colour screen (the NO_COLOR check below would prove nothing)"
keys q
start 80 24 NO_COLOR=1 -- --lessons "$lessons"
wait_for "scalelab - lessons"
if T capture-pane -p -e -t s | grep -qE '\[([0-9;]*;)?(3[0-7]|38;5)(;[0-9;]*)?m'; then
  no "colour escapes on screen with NO_COLOR set"
fi
T capture-pane -p -e -t s | grep -qE '\[([0-9;]*;)?7(;[0-9;]*)?m' ||
  no "the selection is not shown in reverse video with NO_COLOR"
keys q
wait_for "EXITED-0"

# --- LANG=C: ASCII only ---
T kill-session -t s >/dev/null 2>&1
T new-session -d -s s -x 80 -y 24 \
  "env -u LC_ALL -u LC_CTYPE HOME=$tmp/home XDG_STATE_HOME=$tmp/state LANG=C $bin --lessons $lessons; echo EXITED-\$?; sleep 60"
wait_for "[x] E2E basics"
screen | LC_ALL=C grep -q '[^ -~]' && no "non-ASCII characters on screen with LANG=C"
keys Enter n
wait_for "E2E basics - page 2/3"
screen | LC_ALL=C grep -q '[^ -~]' && no "non-ASCII characters on the scenario with LANG=C"
keys q q
wait_for "EXITED-0"

# --- one file with an error, shown with file:line, fixed and reloaded ---
cat >"$tmp/broken.lua" <<'EOF'
return {
  id = "broken", title = "Broken", summary = "s", track = "T", order = 1,
  pages = { { kind = "text", title = "P", text = "x" }, oops
}
EOF
start 80 24 -- "$tmp/broken.lua"
wait_for "broken.lua:"
wait_for "This page has an error"
cat >"$tmp/broken.lua" <<'EOF'
return {
  id = "broken", title = "Broken", summary = "s", track = "T", order = 1,
  pages = { { kind = "text", title = "P", text = "fixed now" } },
}
EOF
keys r
wait_for "Broken — page 1/1"
keys Escape
wait_for "EXITED-0"

# --- SIGTERM: progress kept, terminal restored (stty -a before/after) ---
watched
wait_for "scalelab - lessons"
keys j Enter
wait_for "Second lesson — page 1/1"
kill -TERM "$(cat "$tmp/pid")"
wait_for "AFTER"
wait_for "EXITED-143"
cmp -s "$tmp/stty.before" "$tmp/stty.after" || {
  no "stty -a differs after SIGTERM:"; diff "$tmp/stty.before" "$tmp/stty.after" | sed 's/^/  | /'; }
grep -q "lesson e2e-second" "$tmp/state/scalelab/progress" ||
  no "the visit before SIGTERM was not saved"

# --- a crash signal restores the terminal too (async-signal-safe path) ---
watched
wait_for "scalelab - lessons"
kill -SEGV "$(cat "$tmp/pid")"
wait_for "AFTER"
wait_for "EXITED-139"
cmp -s "$tmp/stty.before" "$tmp/stty.after" || no "stty -a differs after SIGSEGV"

# --- no terminal, TERM=dumb, unknown TERM: one line naming the headless commands ---
out=$("$bin" --lessons "$lessons" </dev/null 2>&1); rc=$?
[ "$rc" = 1 ] || no "without a terminal the exit status is $rc, not 1"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || no "without a terminal: not one line: $out"
echo "$out" | grep -q -- "--list" || no "without a terminal: no pointer to the headless commands"
T kill-session -t s >/dev/null 2>&1
T new-session -d -s s -x 200 -y 10 \
  "TERM=dumb $bin --lessons $lessons; echo DUMB-\$?; TERM=no-such-terminal $bin --lessons $lessons; echo UNKNOWN-\$?; sleep 60"
wait_for "cannot move the cursor"
wait_for "DUMB-1"
wait_for "'no-such-terminal' is unknown"
wait_for "UNKNOWN-1"

[ $fail = 0 ] && echo "e2e: ok"
exit $fail
