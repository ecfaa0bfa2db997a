#!/bin/sh
# SPDX-License-Identifier: MIT
# Numbers do not depend on the locale: with a comma-decimal locale
# (de_DE.UTF-8, built here with localedef when the machine has none) the
# scenario screen, the lesson file `w` writes, the SVG `S` writes and the
# headless commands are byte for byte what they are in C.UTF-8, and a
# bandwidth typed as "1.5 TB/s" means 1.5 TB/s. `render` prints ASCII in a
# locale that is not UTF-8 (C, POSIX), box drawing in one that is.
bin=${1:?usage: tests/suites/locale.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
suite=locale
. scripts/tmux-lib.sh

# --- a comma-decimal locale ---
de=de_DE.UTF-8
locpath=
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  mkdir -p "$tmp/locales"
  if localedef -i de_DE -f UTF-8 "$tmp/locales/$de" >/dev/null 2>&1; then
    locpath=$tmp/locales
  else
    echo "$suite: skip: no de_DE.UTF-8 and localedef cannot build one (install the locales package)"
    exit 0
  fi
fi
# The locale must really put a comma in numbers, or the test proves nothing.
got=$(env ${locpath:+LOCPATH=$locpath} LC_ALL=$de printf '%.1f' 1.5 2>/dev/null)
[ "$got" = "1,5" ] || { echo "$suite: FAIL: $de prints 1.5 as '$got', not 1,5"; exit 1; }

# run LOCALE DIR ARGS...: the binary with that locale, HOME and state in DIR.
run() {
  l=$1; d=$2; shift 2
  mkdir -p "$d/home" "$d/state"
  env ${locpath:+LOCPATH=$locpath} LC_ALL="$l" LANG="$l" HOME="$d/home" \
    XDG_STATE_HOME="$d/state" "$bin" "$@"
}

# --- headless: eval, render and sweep with a decimal in the flags ---
for args in "eval --system dgx-h100 --gpus 64 --model llama3-70b --up 1.5TB/s --oversub 1.5" \
            "render fabric --system dgx-h100 --gpus 64 --model llama3-8b --width 100" \
            "render fabric --system dgx-h100 --gpus 64 --svg -" \
            "eval --system gb200-nvl72 --gpus 144 --model llama3-70b --json"; do
  # shellcheck disable=SC2086
  run C.UTF-8 "$tmp/c" $args > "$tmp/c.out" 2>&1
  # shellcheck disable=SC2086
  run "$de" "$tmp/de" $args > "$tmp/de.out" 2>&1
  cmp -s "$tmp/c.out" "$tmp/de.out" || no "'$args' differs under $de: $(diff "$tmp/c.out" "$tmp/de.out" | head -n 4)"
done
# --- render draws as the screen does: ASCII unless the locale is UTF-8 ---
high=$(printf '[\200-\377]')
for l in C POSIX; do
  run $l "$tmp/c" render rack --system gb300-nvl72 --gpus 144 >"$tmp/r.out" 2>&1 ||
    no "render rack under LC_ALL=$l failed: $(head -c 200 "$tmp/r.out")"
  LC_ALL=C grep -q "$high" "$tmp/r.out" &&
    no "render rack under LC_ALL=$l prints UTF-8: $(LC_ALL=C grep -m 1 "$high" "$tmp/r.out")"
  [ -s "$tmp/r.out" ] || no "render rack under LC_ALL=$l printed nothing"
done
for l in C.UTF-8 "$de"; do
  run "$l" "$tmp/c" render rack --system gb300-nvl72 --gpus 144 | grep -q '║' ||
    no "render rack under LC_ALL=$l draws no box lines"
  run "$l" "$tmp/c" render rack --system gb300-nvl72 --gpus 144 --ascii | LC_ALL=C grep -q "$high" &&
    no "render --ascii under LC_ALL=$l prints UTF-8"
done
# The screen itself, the same way: LANG=C is checked by scripts/e2e-tmux.

run "$de" "$tmp/de" eval --system dgx-h100 --gpus 64 --model llama3-70b --up 1.5TB/s |
  grep -q "1.50 TB/s" || no "--up 1.5TB/s is not read as 1.5 TB/s under $de"

# --- the UI: free play, the screen, w and S ---
# ui LOCALE DIR: free play in a fresh session in DIR; captures the screen,
# then writes the state (w) and the screen as SVG (S) into DIR.
ui() {
  mkdir -p "$2/home" "$2/state" "$2/out"
  session 80 24 "env ${locpath:+LOCPATH=$locpath} LC_ALL=$1 LANG=$1 HOME=$2/home \
XDG_STATE_HOME=$2/state $bin play --system gb300-nvl72 --gpus 144 --model llama3-70b; \
echo EXITED-\$?; sleep 60" "$2/out"
  wait_for "Free play"
  wait_for "step "
  keys t
  wait_for "Last move:"
  screen > "$2/screen.txt"
  keys w
  wait_for "Wrote "
  keys S
  wait_for "Screen saved as SVG"
  keys q q
  wait_for "EXITED-0"
}
ui C.UTF-8 "$tmp/uic"
ui "$de" "$tmp/uide"
grep -q "step [0-9]*\.[0-9]" "$tmp/uic/screen.txt" || no "no step time on the free-play screen"
cmp -s "$tmp/uic/screen.txt" "$tmp/uide/screen.txt" ||
  no "the screen differs under $de: $(diff "$tmp/uic/screen.txt" "$tmp/uide/screen.txt" | head -n 6)"
# The files carry a time stamp in their names and ids; the rest must agree.
norm() { sed 's/[0-9]\{8\}-[0-9]\{6\}/STAMP/g' "$1"; }
for kind in lua svg; do
  a=$(ls "$tmp/uic/out/"*."$kind" 2>/dev/null | head -n 1)
  b=$(ls "$tmp/uide/out/"*."$kind" 2>/dev/null | head -n 1)
  if [ -z "$a" ] || [ -z "$b" ]; then
    no "no .$kind file written (C: '$a', $de: '$b')"
    continue
  fi
  norm "$a" > "$tmp/a.$kind"
  norm "$b" > "$tmp/b.$kind"
  cmp -s "$tmp/a.$kind" "$tmp/b.$kind" ||
    no "the .$kind file differs under $de: $(diff "$tmp/a.$kind" "$tmp/b.$kind" | head -n 4)"
done
# What w wrote under the comma locale checks clean, also under that locale.
lua=$(ls "$tmp/uide/out/"*.lua 2>/dev/null | head -n 1)
[ -n "$lua" ] && { run "$de" "$tmp/de" check "$lua" > "$tmp/check.out" 2>&1 ||
  no "check refuses what w wrote under $de: $(head -n 2 "$tmp/check.out")"; }

[ $fail = 0 ] && echo "$suite: ok (UI, w, SVG and 4 headless commands agree under $de)"
exit $fail
