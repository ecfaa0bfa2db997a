# SPDX-License-Identifier: MIT
# Shared helpers for the tmux-driven suites (scripts/e2e-tmux and
# tests/suites/{faults,present,play}.sh). Source it after setting `suite` to
# the suite's name. It gives: $tmp (a scratch folder, removed on exit), a
# private tmux server (T ...) kept up for the suite's life, $utf8 (a UTF-8
# locale), $fail, and
#   session W H COMMAND [DIR]  a fresh W x H session "s" running COMMAND
#   screen                     the text of its pane
#   keys KEY...                keys typed into it
#   wait_for TEXT [SECONDS]    until TEXT shows, else a failure (no)
#   seen TEXT [SECONDS]        the same without reporting: 0 or 1
#   wait_gone TEXT             until TEXT is no longer shown
#   poll SECONDS CMD...        until CMD succeeds: 0, or 1 after SECONDS
#   no MESSAGE                 reports a failure and sets $fail
# Every wait polls with a timeout: suites need no fixed sleeps.
command -v tmux >/dev/null 2>&1 || { echo "$suite: tmux is not installed (apt-get install tmux)"; exit 1; }

tmp=$(mktemp -d "/tmp/scalelab-$suite.XXXXXX")
sock=scalelab-$suite-$$
fail=0
T() { tmux -L "$sock" -f /dev/null "$@"; }
# A program the server's end hangs up on may still be saving its progress
# into $tmp for a moment: a second try removes what it wrote meanwhile.
cleanup() {
  T kill-server >/dev/null 2>&1; chmod -R u+rwx "$tmp" 2>/dev/null
  rm -rf "$tmp" 2>/dev/null || { sleep 1; rm -rf "$tmp"; }
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# tmux ends its server when the last session closes, and a session started
# while it shuts down fails with "server exited unexpectedly": a keeper
# session holds the server up for as long as the suite lives, and no longer:
# if the suite is killed (no EXIT trap runs), the keeper kills the server
# and every program still running in it.
T new-session -d -s keeper "while kill -0 $$ 2>/dev/null; do sleep 1; done; tmux -L $sock kill-server" ||
  { echo "$suite: tmux cannot start"; exit 1; }

utf8=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || utf8=$(locale -a 2>/dev/null | grep -i 'utf-\?8' | head -n 1)
[ -n "$utf8" ] || utf8=C.UTF-8

no() { echo "$suite: FAIL: $*"; fail=1; }
screen() { T capture-pane -p -t s 2>/dev/null; }
keys() { T send-keys -t s "$@"; }

session() {
  T kill-session -t s >/dev/null 2>&1
  if [ -n "${4:-}" ]; then
    T new-session -d -s s -x "$1" -y "$2" -c "$4" "$3"
  else
    T new-session -d -s s -x "$1" -y "$2" "$3"
  fi
}

# poll SECONDS CMD...: runs CMD every 50 ms until it succeeds.
poll() {
  _polls=$(( $1 * 20 )); shift
  while [ "$_polls" -gt 0 ]; do
    "$@" && return 0
    sleep 0.05; _polls=$((_polls - 1))
  done
  return 1
}
on_screen() { screen | grep -qF -- "$1"; }
off_screen() { ! on_screen "$1"; }

# seen TEXT [SECONDS]: TEXT (a fixed string) shows within SECONDS (10 by
# default: generous, so a loaded machine does not fail a run).
seen() { poll "${2:-10}" on_screen "$1"; }
wait_for() {
  seen "$1" "${2:-10}" && return 0
  no "did not see '$1'; the screen was:"; screen | sed 's/^/  | /'
  return 1
}
wait_gone() {
  poll 5 off_screen "$1" && return 0
  no "'$1' stayed on screen"; return 1
}
