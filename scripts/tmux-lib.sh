# Shared helpers for the tmux-driven suites (scripts/e2e-tmux and
# tests/suites/{present,play}.sh). Source it after setting `suite` to the
# suite's name. It gives: $tmp (a scratch folder, removed on exit), a private
# tmux server (T ...), $utf8 (a UTF-8 locale), $fail, and no, screen,
# wait_for TEXT [SECONDS], wait_gone TEXT, keys KEY....
command -v tmux >/dev/null 2>&1 || { echo "$suite: tmux is not installed (apt-get install tmux)"; exit 1; }

tmp=$(mktemp -d "/tmp/scalelab-$suite.XXXXXX")
sock=scalelab-$suite-$$
fail=0
T() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { T kill-server >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

# tmux ends its server when the last session closes, and a session started
# while it shuts down fails with "server exited unexpectedly": a keeper
# session holds the server up for as long as the suite lives (and no longer,
# even if the suite is killed).
T new-session -d -s keeper "while kill -0 $$ 2>/dev/null; do sleep 1; done" ||
  { echo "$suite: tmux cannot start"; exit 1; }

utf8=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || utf8=$(locale -a 2>/dev/null | grep -i 'utf-\?8' | head -n 1)
[ -n "$utf8" ] || utf8=C.UTF-8

no() { echo "$suite: FAIL: $*"; fail=1; }
screen() { T capture-pane -p -t s 2>/dev/null; }

# wait_for TEXT [SECONDS]: polls the screen until TEXT (fixed string) shows
# (10 s by default: generous, so a loaded machine does not fail a run).
wait_for() {
  n=$(( ${2:-10} * 20 ))
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
