#!/bin/sh
# SPDX-License-Identifier: MIT
# Every scenario page of every shipped lesson, in the real program in tmux
# at 80x24: h makes a hint appear, the first move of the page's reference
# solution makes its message appear, and playing the whole solution with
# the keys meets the goal and shows the whole debrief (scrolled with j when
# it needs more rows than the screen has); a prediction the lesson marks is
# asked before the move's step shows, and graded. The moves come from the lesson
# itself (`present --shot PAGE.STEP` names the next move), so the test
# follows the lessons as they change.
bin=${1:?usage: tests/suites/scenarios.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
suite=scenarios
. scripts/tmux-lib.sh
mkdir -p "$tmp/home" "$tmp/state"

# The state shown, read back from the screen.
stat_of() { screen | sed -n "s/.* $1\([0-9][0-9]*\)[ ·].*/\1/p" | head -n 1; }
last_screen=
screen_changed() { now=$(screen); [ "$now" != "$last_screen" ] && last_screen=$now; }
cursor_gpu() { screen | sed -n 's/^ *GPU \([0-9][0-9]*\) [·|] .*/\1/p' | head -n 1; }
# shot FILE PAGE STEP: the presenter's view of the page after STEP moves.
shot() { "$bin" present "$1" --shot "$2.$3" --size 200x60 --ascii 2>/dev/null; }
# One key per degree move: up doubles, down halves (the lessons' solutions
# move as the keys do).
degree_key() { # MOVE-WORD TARGET CURRENT
  case $1 in tp) up=t dn=T ;; pp) up=y dn=Y ;; dp) up=d dn=D ;; ep) up=x dn=X ;;
             mb) up=m dn=M ;; *) return 1 ;; esac
  [ "${3:-1}" -lt "$2" ] && echo "$up" || echo "$dn"
}
# cursor_to GPU DOMAIN_SIZE: arrow keys from where the cursor is. On a
# machine of equal domains Down and Up move one domain, so the keys can be
# counted; where domains differ in size (a rack beside partitions of
# another), each key is read back from the cursor line instead.
cursor_moved() { [ "$(cursor_gpu)" != "$before" ]; }
cursor_key() { before=$(cursor_gpu); keys "$1"; poll 3 cursor_moved; r=$?; at=$(cursor_gpu); return $r; }
cursor_to() {
  at=$(cursor_gpu); [ -n "$at" ] || at=0
  if [ "$2" = mixed ]; then
    while [ "$at" -gt "$1" ]; do cursor_key Up || break; done
    while [ "$at" -lt "$1" ]; do
      cursor_key Down || break
      if [ "$at" -gt "$1" ]; then cursor_key Up; break; fi
    done
    while [ "$at" -lt "$1" ]; do cursor_key Right || break; done
    while [ "$at" -gt "$1" ]; do cursor_key Left || break; done
    wait_for "GPU $1 "
    return
  fi
  while [ $((at + $2)) -le "$1" ]; do keys Down; at=$((at + $2)); done
  while [ "$at" -gt "$1" ] && [ $((at - $2)) -ge 0 ] && [ $((at - $2)) -ge $(($1 - $2 + 1)) ]; do
    keys Up; at=$((at - $2)); done
  while [ "$at" -lt "$1" ]; do keys Right; at=$((at + 1)); done
  while [ "$at" -gt "$1" ]; do keys Left; at=$((at - 1)); done
  wait_for "GPU $1 "
}
# play FILE PAGE K MOVE: the move as keys.
play() {
  set -- "$1" "$2" "$3" $4
  f=$1 pg=$2 k=$3; shift 3
  # "128 GPUs = 16 servers of 8," or, on part of a machine, "128 of 144 GPUs in 2 racks of 72,"
  dom=$(shot "$f" "$pg" "$k" | sed -nE 's/.* GPUs (=|in) [0-9]+ [a-z]+ of ([0-9]+),.*/\2/p' | head -n 1)
  # a machine of domains of different sizes: the grid draws each domain in a
  # box as wide as the largest, so a smaller one ends in blanks
  screen | grep -qE '║[^║ ]+ +║' && dom=mixed
  case $1 in
    tp|pp|dp|ep)
      cur=$(stat_of "$(echo "$1" | tr a-z A-Z)"); keys "$(degree_key "$1" "$2" "${cur:-1}")" ;;
    mb) cur=$(stat_of mb); keys "$(degree_key mb "$2" "${cur:-1}")" ;;
    domain) # the domain sizes step through divisors of the unit: press until it is reached
      key=-; [ "${dom:-0}" -lt "$2" ] && key=+
      i=0
      while ! screen | grep -q "domains of $2 [A-Za-z]* now" && [ $i -lt 16 ]; do
        keys "$key"; i=$((i + 1)); poll 2 screen_changed
      done ;;
    system)
      want=$(shot "$f" "$pg" $((k + 1)) | sed -nE 's/^  (.*): [0-9]+ (of [0-9]+ )?GPUs (=|in) .*/\1/p' | head -n 1)
      i=0
      while [ $i -lt 40 ]; do
        keys ]; i=$((i + 1))
        seen "$want" 1 >/dev/null 2>&1 && screen | grep -q "mb[0-9]* [·|] $want" && break
      done ;;
    swap) cursor_to "$2" "${dom:-8}"; keys Space; cursor_to "$3" "${dom:-8}"; keys Enter ;;
    group) # "group tp GPU to AT": pick GPU's group with g (again for the
      # next kind), drop it on GPU AT; "group tp GPU DOMAIN": on the domain's first
      cursor_to "$3" "${dom:-8}"
      dim=$(echo "$2" | tr a-z A-Z); i=0
      keys g
      while ! seen "The $dim group of GPU" 1 && [ $i -lt 4 ]; do keys g; i=$((i + 1)); done
      if [ "$4" = to ]; then at=$5; else at=$(($4 * ${dom:-8})); fi
      cursor_to "$at" "${dom:-8}"; keys Enter ;;
    *) no "$f page $pg: cannot play '$*' with keys"; return 1 ;;
  esac
}

pages=0 guesses=0
# SCENARIO_LESSONS="lessons/05-*.lua" plays only those (the counts below
# then do not apply)
for f in ${SCENARIO_LESSONS:-lessons/[0-9]*.lua}; do
  n_pages=$(shot "$f" 1 0 | sed -n 's/.* \([0-9]*\)\/\([0-9]*\) [·|] [0-9:]*$/\2/p' | tail -n 1)
  session 80 24 "env HOME=$tmp/home XDG_STATE_HOME=$tmp/state LC_ALL=$utf8 $bin $f; \
echo EXITED-\$?; sleep 60"
  wait_for "page 1/"
  p=1
  while [ "$p" -le "${n_pages:-0}" ]; do
    wait_for "page $p/" 2
    if screen | head -n 1 | grep -q " scenario$"; then
      pages=$((pages + 1))
      moves=$(shot "$f" "$p" 0 | sed -n 's/.*step 0\/\([0-9]*\) .*/\1/p' | tail -n 1)
      keys h
      seen "Hint 1/" 5 || seen "This scenario has no hints" 1 ||
        no "$f page $p: h shows no hint"
      k=0
      while [ "$k" -lt "${moves:-0}" ]; do
        mv=$(shot "$f" "$p" "$k" | sed -n 's/^  Next > //p' | head -n 1)
        [ -n "$mv" ] || { no "$f page $p: no move $k in the presenter's view"; break; }
        play "$f" "$p" "$k" "$mv" || break
        # a prediction the lesson marks: the question comes before the new
        # step; any answer is graded, then the move shows
        if seen "Before you see it:" 1; then
          keys 1
          seen "Your prediction:" 5 || no "$f page $p: the prediction is not graded"
          guesses=$((guesses + 1))
        fi
        if [ "$k" = 0 ]; then
          seen "Last move:" 5 || seen "Goal met!" 1 ||
            no "$f page $p: the move '$mv' shows no message"
        fi
        k=$((k + 1))
      done
      seen "Goal met!" 5 || seen "[met" 1 ||
        no "$f page $p: the solution does not meet the goal on screen"
      if seen "Debrief:" 5; then
        # the whole debrief: scroll to its end when the screen cannot hold it
        i=0
        while screen | grep -q "more, lines" && [ $i -lt 40 ]; do keys j; i=$((i + 1)); done
        screen | grep -q "more, lines" && no "$f page $p: the debrief never reaches its end"
      else
        no "$f page $p: no debrief after the goal is met"
      fi
    fi
    p=$((p + 1))
    [ "$p" -le "${n_pages:-0}" ] || break
    # Tab turns any page (n types on a predict page); a key that arrives
    # while a lesson script runs may be taken by its Esc check: send again
    i=0
    while [ $i -lt 4 ]; do
      keys Tab
      seen "page $p/" 3 && break
      i=$((i + 1))
    done
  done
done
if [ -z "${SCENARIO_LESSONS:-}" ]; then
  [ "$pages" -ge 12 ] || no "only $pages scenario pages found"
  [ "$guesses" -ge 4 ] || no "only $guesses predictions before a move were asked"
fi
[ $fail = 0 ] && echo "$suite: ok ($pages scenario pages: hint, first move, debrief; $guesses predictions)"
exit $fail
