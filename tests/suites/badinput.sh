#!/bin/sh
# SPDX-License-Identifier: MIT
# badinput — what scalelab does with bad input: every case asserts the exit
# status, a clear message (one line for usage errors, "file:line: message"
# lines for `check`), nothing on stdout when it fails, no control character
# in what it prints, and no side effect (no file created or changed in the
# working folder, $HOME or $XDG_STATE_HOME). Every case runs under a time
# limit. Cases for commands the binary does not have yet are skipped with a
# printed reason, so this suite follows the program as it lands.
#
# Usage: sh tests/suites/badinput.sh BINARY   (cwd = repository root)
# Set BADINPUT_VERBOSE=1 to print every case with its outcome.
set -u
bin=${1:?usage: badinput.sh BINARY}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
repo=$PWD

T=$(mktemp -d "${TMPDIR:-/tmp}/scalelab-badinput.XXXXXX") || exit 2
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 2' INT TERM HUP
mkdir -p "$T/work" "$T/home" "$T/state" "$T/in"
HOME=$T/home XDG_STATE_HOME=$T/state
export HOME XDG_STATE_HOME
unset SCALELAB_LESSONS SCALELAB_ASSETS
# Lessons and assets from the tree (the work folder has none of its own).
[ -d "$repo/assets" ] && { SCALELAB_ASSETS=$repo/assets; export SCALELAB_ASSETS; }

pass=0 fail=0 skip=0
verbose=${BADINPUT_VERBOSE:-0}
ctl=$(printf '[\001-\010\013-\037\177]')

say() { [ "$verbose" = 1 ] && echo "  $*"; return 0; }
bad() { echo "badinput: FAIL: $*"; fail=$((fail + 1)); }
skipped() { echo "badinput: skip: $*"; skip=$((skip + 1)); }

# The state of the folders a run must not touch (names, sizes, times).
snapshot() {
  (cd "$T" && find work home state -exec ls -ld --time-style=+%s.%N {} + 2>/dev/null | sort)
}

# run SECONDS CMD...: runs in $T/work with a time limit; sets rc, out, err.
run() {
  secs=$1; shift
  before=$(snapshot)
  (cd "$T/work" && exec timeout -k 2 "$secs" "$@") >"$T/out" 2>"$T/err" </dev/null
  rc=$?
  after=$(snapshot)
  side=""
  [ "$before" = "$after" ] || side=$(printf '%s\n%s\n' "$before" "$after" | sort | uniq -u | head -3)
}

# Checks common to every failing case; $1 = case name.
common_checks() {
  name=$1
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then bad "$name: timed out"; return 1; fi
  if [ "$rc" -gt 128 ]; then bad "$name: killed by signal $((rc - 128))"; return 1; fi
  if [ -s "$T/out" ]; then bad "$name: printed on stdout: $(head -c 120 "$T/out")"; return 1; fi
  if grep -q "$ctl" "$T/err"; then bad "$name: control character in the message"; return 1; fi
  if [ -n "$side" ]; then bad "$name: side effect: $side"; return 1; fi
  return 0
}

# usage NAME PATTERN ARGS...: exit 2, exactly one line "scalelab COMMAND: ..."
# matching the extended regex PATTERN.
usage() {
  name=$1 pat=$2; shift 2
  run 10 "$bin" "$@"
  common_checks "$name" || return
  lines=$(wc -l <"$T/err")
  msg=$(head -n 1 "$T/err")
  if [ "$rc" != 2 ]; then bad "$name: exit $rc, want 2 ($msg)"
  elif [ "$lines" != 1 ]; then bad "$name: $lines lines on stderr, want 1: $(head -c 200 "$T/err")"
  elif ! printf '%s\n' "$msg" | grep -Eq "^scalelab( [a-z]+)?: .*($pat)"; then
    bad "$name: message '$msg' does not match /$pat/"
  else pass=$((pass + 1)); say "ok $name: $msg"; fi
}

# evaluates NAME PATTERN ARGS...: exit 0 and stdout matching PATTERN (for
# inputs that are legal however large, like a model that does not fit).
evaluates() {
  name=$1 pat=$2; shift 2
  run 10 "$bin" "$@"
  if [ "$rc" != 0 ]; then bad "$name: exit $rc, want 0: $(head -c 200 "$T/err")"
  elif [ -n "$side" ]; then bad "$name: side effect: $side"
  elif ! grep -Eq "$pat" "$T/out"; then bad "$name: output does not match /$pat/"
  else pass=$((pass + 1)); say "ok $name: $(grep -E "$pat" "$T/out" | head -n 1)"; fi
}

# checkfail NAME FILE PATTERN [SECONDS]: `scalelab check FILE` exits 1 and
# every line it prints (stdout or stderr: the problems are its output) is
# "FILE:LINE: message", one of them matching PATTERN.
checkfail() {
  name=$1 file=$2 pat=$3 secs=${4:-10}
  run "$secs" "$bin" check "$file"
  cat "$T/out" >>"$T/err"; : >"$T/out"
  common_checks "$name" || return
  first=$(head -n 1 "$T/err")
  if [ "$rc" != 1 ]; then bad "$name: exit $rc, want 1 ($first)"; return; fi
  if [ ! -s "$T/err" ]; then bad "$name: no message"; return; fi
  if grep -Fvq "$file:" "$T/err" || grep -Ev "^.*:[0-9]+: ." "$T/err" | grep -q .; then
    bad "$name: not every line is '$file:LINE: message': $(head -c 200 "$T/err")"; return
  fi
  if ! grep -Eq "$pat" "$T/err"; then bad "$name: no line matches /$pat/: $first"; return; fi
  pass=$((pass + 1)); say "ok $name: $first"
}

# The folder listing: `scalelab --list` over $SCALELAB_LESSONS, when the
# binary has it (an "unknown option" answer means not yet).
has_list() {
  mkdir -p "$T/in/emptydir"
  SCALELAB_LESSONS=$T/in/emptydir "$bin" --list 2>&1 </dev/null | grep -q "unknown option" && return 1
  return 0
}

has_command() { "$bin" --help 2>/dev/null | grep -Eq "^  scalelab $1( |$)"; }

echo "badinput: malformed numbers and units (scalelab eval)"
usage "size given as bandwidth" "size, not a bandwidth" eval --up "1.8 TB"
usage "word as bandwidth" "not a number" eval --up abc
usage "unknown unit" "unknown unit" eval --up "1.8 TB/s/s"
usage "bandwidth without unit" "no unit" eval --out 400
usage "empty value" "--up" eval --up ""
usage "fraction of a GPU" "whole number" eval --gpus 1.5
usage "hex count" "--gpus" eval --gpus 0x10
usage "nan count" "not a number" eval --gpus nan
usage "inf count" "--gpus" eval --gpus inf
usage "overflowing count" "too large" eval --gpus 1e400
usage "time as bandwidth" "--across" eval --sites 2 --across "5 ms"
usage "unknown flag" "unknown flag" eval --bogus 1
usage "flag without value" "needs a value" eval --gpus
usage "flag given twice" "twice" eval --tp 8 --tp 4
usage "stray argument" "unexpected argument" eval 8
usage "unknown system" "unknown system" eval --system nope
usage "unknown model" "unknown model" eval --model nope
usage "escape sequence in a value" "--up" eval --up "$(printf '1 \033[31mX')"
usage "newline in a value" "--up" eval --up "$(printf '1 G\nb')"

echo "badinput: impossible mappings"
usage "TP does not divide GPUs" "does not divide" eval --tp 3
usage "product is not the GPU count" "128 GPUs, but the cluster has 64" \
  eval --gpus 64 --tp 8 --pp 4 --dp 4
usage "EP does not fold" "EP 3 x ETP 1 = 3 does not divide" eval --experts 8 --ep 3
# DP 1 is reachable on the 256 GPUs (TP 8 x PP 32), so every even batch works: 6 and 8
usage "batch not a multiple" "splits a global batch of 7 sequences into micro-batches of 2; the nearest batches that work are 6 and 8" eval --batch 7 --mb 2
usage "more sites than domains" "sites" eval --sites 1000
usage "ZeRO stage 7" "zero" eval --zero 7

echo "badinput: huge values"
usage "10^9 GPUs" "more than scalelab models" eval --gpus 1000000000
usage "10^9 GPUs in one domain" "more than scalelab models" eval --domain 1000000000
usage "10^9 sites" "sites" eval --sites 1000000000
usage "hidden 10^12" "too large" eval --hidden 1e12
evaluates "10^15 parameters (does not fit)" "DOES NOT FIT|does not fit" eval --params 1e15
evaluates "10^15 parameters, JSON" '"fits": ?false' eval --params 1e15 --json
usage "10^300 parameters" "--params" eval --params 1e300

echo "badinput: zero and negative values"
for f in gpus tp pp dp mb batch seq layers hidden heads domain sites vocab interleave; do
  usage "--$f 0" "--$f must be at least 1" eval --model llama3-8b --$f 0
done
for f in gpus tp layers; do
  usage "--$f -8" "negative" eval --$f -8
done
usage "--params 0" "--params must be positive" eval --params 0
usage "--up 0 GB/s" "must be positive" eval --up "0 GB/s"
usage "--out 0 Gb/s" "must be positive" eval --out "0 Gb/s"
usage "--out -400G" "negative" eval --out -400G
usage "--across-lat -5 ms" "negative" eval --sites 2 --across-lat "-5 ms"
usage "--oversub 0" "at least 1" eval --oversub 0
usage "--cuda-graphs maybe" "--cuda-graphs must be none, attn or full" eval --cuda-graphs maybe
usage "--offload-layers alone" "offloaded layers need activations offloaded" eval --offload-layers 3
usage "--offload-layers 999" "offloaded layers must be between 0 and the 32 layers" eval --offload activations --offload-layers 999
usage "--ep-overlap sometimes" "--ep-overlap must be on, off, auto or dualpipe" eval --ep-overlap sometimes
usage "--window 0" "--window must be at least 1" eval --window 0
usage "--global-every alone" "global-every needs an attention window" eval --global-every 6
usage "--global-every 99" "global-every between 0 and the 32 layers" eval --window 1024 --global-every 99
usage "--capacity-factor 0.5" "--capacity-factor must be between 1 and 64" eval --capacity-factor 0.5

echo "badinput: the same flags through render and sweep"
if has_command render; then
  usage "render: unknown view" "unknown view" render nope
  usage "render: width 0" "--width" render rack --width 0
  usage "render: width 100000" "--width" render rack --width 100000
  usage "render: 10^9 GPUs" "more than scalelab models" render fabric --gpus 1000000000
  # a mapping given is checked as eval checks it, in eval's words, even for a
  # picture that needs no mapping
  usage "render: --tp 7 on 64 GPUs" "TP 7 does not divide the 64 GPUs" render fabric --gpus 64 --tp 7
  usage "render rack: --tp 4 --pp 3" "TP 4 x PP 3 = 12 does not divide" render rack --gpus 64 --tp 4 --pp 3
  e=$("$bin" eval --gpus 64 --tp 7 2>&1 >/dev/null | sed 's/^scalelab eval: //')
  r=$("$bin" render fabric --gpus 64 --tp 7 2>&1 >/dev/null | sed 's/^scalelab render: //')
  if [ -n "$e" ] && [ "$e" = "$r" ]; then pass=$((pass + 1)); say "ok render and eval: $r"
  else bad "render says '$r' where eval says '$e'"; fi
else
  skipped "render: no 'render' command yet"
fi
if has_command sweep; then
  usage "sweep: 0 GPUs" "--gpus must be at least 1" sweep --gpus 0
  usage "sweep: 10^9 GPUs" "more than scalelab models" sweep --gpus 1000000000
  usage "sweep: size as bandwidth" "size, not a bandwidth" sweep --up 1.8TB
else
  skipped "sweep: no 'sweep' command yet"
fi

echo "badinput: lesson files (scalelab check)"
printf '' >"$T/in/empty.lua"
head -c 4096 /dev/urandom >"$T/in/random.lua"
printf '\033LuaT\000\031\223\r\n\032\n' >"$T/in/binary.lua"
printf 'return {}\000 trailing\n' >"$T/in/nul.lua"
printf 'return {id = "x",\n  title = "unterminated\n' >"$T/in/syntax.lua"
printf 'return 42\n' >"$T/in/number.lua"
printf 'error("\\27[2J\\27]0;pwned\\7 escape")\n' >"$T/in/escape.lua"
printf 'while true do end\n' >"$T/in/loop.lua"
mkdir "$T/in/folder.lua"
mkfifo "$T/in/fifo.lua" 2>/dev/null || true
if has_command check; then
  checkfail "empty lesson file" "$T/in/empty.lua" "empty|table|return"
  checkfail "random bytes" "$T/in/random.lua" "NUL|binary|text|syntax|unexpected|near|malformed"
  checkfail "precompiled chunk" "$T/in/binary.lua" "binary|precompiled"
  checkfail "NUL byte" "$T/in/nul.lua" "NUL"
  checkfail "syntax error names the line" "$T/in/syntax.lua" "syntax\.lua:[12]: .*(string|unfinished)"
  checkfail "lesson returns a number" "$T/in/number.lua" "table"
  checkfail "escape sequences in an error" "$T/in/escape.lua" "escape"
  checkfail "endless loop at load" "$T/in/loop.lua" "instruction|time|budget|too long|seconds" 20
  checkfail "a folder as a lesson" "$T/in/folder.lua" "director|folder|not a lesson"
  [ -p "$T/in/fifo.lua" ] && checkfail "a FIFO as a lesson" "$T/in/fifo.lua" "FIFO|not a lesson|regular"
  checkfail "missing file" "$T/in/missing.lua" "No such file|cannot open|missing|not found"
  # A path through a regular file (ENOTDIR) and a symbolic link loop
  # (ELOOP): unreadable even for root.
  checkfail "path through a file" "$T/in/number.lua/x.lua" "Not a directory|cannot open"
  ln -s selfloop.lua "$T/in/selfloop.lua"
  checkfail "symbolic link loop" "$T/in/selfloop.lua" "Too many levels|cannot open"
  if [ "$(id -u)" != 0 ]; then
    printf 'return {}\n' >"$T/in/noread.lua"; chmod 000 "$T/in/noread.lua"
    checkfail "unreadable file" "$T/in/noread.lua" "Permission denied|cannot"
  else
    skipped "unreadable file: running as root, chmod 000 does not stop root (the ENOTDIR and ELOOP cases stand in)"
  fi
  usage "check without a file" "check" check
else
  skipped "lesson files: this scalelab has no 'check' command yet (11 cases)"
fi

echo "badinput: lesson folders"
mkdir -p "$T/in/lots"
i=0
while [ $i -lt 1000 ]; do
  i=$((i + 1))
  case $((i % 100)) in
  0) printf 'while true do end\n' ;;
  1) printf '\033LuaT\000' ;;
  *) printf 'return { id = "l%d", title = "Lesson %d", summary = "s", track = "t", order = %d,\n  pages = { { kind = "text", title = "p", text = "x" } } }\n' $i $i $i ;;
  esac >"$T/in/lots/l$i.lua"
done
ln -s loop "$T/in/loop"
ln -s loop2 "$T/in/loop2" 2>/dev/null; ln -s "$T/in/loop" "$T/in/loop2" 2>/dev/null
if has_list; then
  # 1,000 files, 10 of them endless loops and 10 binary: bounded time, an
  # entry for each, the bad ones marked, exit 0 or 1 but never a hang.
  # Its 980 good lessons are a successful listing, which writes the header
  # cache: that goes to $T/cache (outside the folders the snapshot watches).
  start=$(date +%s)
  run 60 env SCALELAB_LESSONS="$T/in/lots" XDG_CACHE_HOME="$T/cache" "$bin" --list
  took=$(( $(date +%s) - start ))
  n=$(grep -c 'l[0-9]' "$T/out")
  if [ "$rc" -gt 1 ]; then bad "1,000-file folder: exit $rc: $(head -c 200 "$T/err")"
  elif [ "$took" -gt 30 ]; then bad "1,000-file folder: took ${took}s (limit 30)"
  elif [ "$n" -lt 1000 ]; then bad "1,000-file folder: listed $n of 1000"
  elif [ -n "$side" ]; then bad "1,000-file folder: side effect: $side"
  else pass=$((pass + 1)); say "ok 1,000-file folder: ${took}s, $n entries"; fi
  echo "badinput: 1,000-file folder listed in ${took}s"
  for d in missing loop number.lua; do
    run 10 env SCALELAB_LESSONS="$T/in/$d" "$bin" --list
    common_checks "lesson folder $d" || continue
    if [ "$rc" = 0 ] || [ "$(wc -l <"$T/err")" != 1 ]; then
      bad "lesson folder $d: exit $rc with '$(head -c 200 "$T/err")', want non-zero and one line"
    elif ! grep -Eq "No such file|Too many levels|Not a directory|cannot" "$T/err"; then
      bad "lesson folder $d: unclear message: $(head -n 1 "$T/err")"
    else pass=$((pass + 1)); say "ok lesson folder $d: $(head -n 1 "$T/err")"; fi
  done
  if [ "$(id -u)" != 0 ]; then
    mkdir "$T/in/closed"; chmod 000 "$T/in/closed"
    run 10 env SCALELAB_LESSONS="$T/in/closed" "$bin" --list
    if [ "$rc" = 0 ] || ! grep -q "Permission denied" "$T/err"; then
      bad "unreadable lesson folder: exit $rc: $(head -c 200 "$T/err")"
    else pass=$((pass + 1)); fi
  else
    skipped "unreadable lesson folder: running as root, chmod 000 does not stop root (missing, ELOOP and ENOTDIR folders stand in)"
  fi
else
  skipped "lesson folders: this scalelab has no '--list' yet (1,000-file folder, missing, looping and non-folder paths)"
fi
if has_command check; then
  # check over the whole folder: bounded, every bad file named.
  start=$(date +%s)
  run 120 "$bin" check "$T"/in/lots/*.lua
  cat "$T/out" >>"$T/err"
  took=$(( $(date +%s) - start ))
  nbad=$(grep -Ec '/l[0-9]+\.lua:[0-9]+: ' "$T/err")
  if [ "$rc" != 1 ]; then bad "check over 1,000 files: exit $rc, want 1"
  elif [ "$took" -gt 90 ]; then bad "check over 1,000 files: took ${took}s (limit 90)"
  elif [ "$nbad" -lt 20 ]; then bad "check over 1,000 files: $nbad problems reported, want the 20 bad files"
  else pass=$((pass + 1)); say "ok check over 1,000 files: ${took}s"; fi
  echo "badinput: check over 1,000 files took ${took}s"
fi

echo "badinput: hostile lessons, listings and presenter scripts (second round)"
esc=$(printf '\033')
for f in neg_len neg_len_choices many_goals big_texts c_stack sort_long strict_typo \
         close_attr find_storm parser_depth index_loop load_storm vararg_fill; do
  checkfail "hostile $f.lua" "$repo/tests/lessons/hostile/$f.lua" "." 4
done
# A listing prints titles, tracks and errors escaped: no clear-screen, window
# title or clipboard (OSC 52) sequence reaches the terminal; the second file
# with an id already used is refused naming the first.
if has_list; then
  run 10 env SCALELAB_LESSONS="$repo/tests/lessons/dups" "$bin" --list
  if grep -q "$esc" "$T/out" "$T/err" || grep -q "$ctl" "$T/out"; then
    bad "list of hostile titles: raw escape sequence on the output"
  elif ! grep -q 'dup_b.lua:3: lesson id .same-id. is already used by .*dup_a.lua' "$T/out"; then
    bad "list: the duplicate id is not refused: $(head -c 300 "$T/out")"
  elif ! grep -q '\\x1b\[2J' "$T/out"; then bad "list: the escaped title is not shown"
  else pass=$((pass + 1)); say "ok list of hostile titles and a duplicate id"; fi
fi
# An escape sequence in a command-line argument is echoed escaped.
run 10 "$bin" check "$(printf 'no\033]0;pwned\007such.lua')"
if grep -q "$esc" "$T/err"; then bad "check of an escape-named file: raw escape on stderr"
else pass=$((pass + 1)); fi
run 10 "$bin" "$(printf 'x\033[2Jy')"
if grep -q "$esc" "$T/err"; then bad "unknown command with an escape: raw escape on stderr"
else pass=$((pass + 1)); fi
# Presenter scripts: a NUL byte, too many bytes, each a FILE:LINE error.
if has_command present; then
  printf 'swap 0 8\n\000swap 1 9\n' >"$T/in/nul.script"
  run 10 "$bin" present "$repo/tests/present/demo.lua" --script "$T/in/nul.script" --shot 1
  if [ "$rc" != 1 ] || ! grep -q "nul.script:2: NUL byte" "$T/err"; then
    bad "present script with a NUL: exit $rc: $(head -c 200 "$T/err")"
  else pass=$((pass + 1)); fi
  head -c 1048576 /dev/zero | tr '\000' 'x' >"$T/in/big.script"
  run 10 "$bin" present "$repo/tests/present/demo.lua" --script "$T/in/big.script" --shot 1
  if [ "$rc" != 1 ] || ! grep -q "big.script:1: the script is too large" "$T/err"; then
    bad "1 MB present script: exit $rc: $(head -c 200 "$T/err")"
  else pass=$((pass + 1)); fi
fi

echo "badinput: every hostile lesson file through check (3 s) and list (2 s)"
# Bytes that act on a terminal: C0 but tab and newline, DEL, C1 (UTF-8), and
# the Unicode bidirectional controls (U+061C, U+200E-F, U+202A-E, U+2066-9).
raw_bytes() {
  LC_ALL=C grep -q "$ctl" "$@" && return 0
  for b in '\302[\200-\237]' '\330\234' '\342\200[\216\217\252-\256]' '\342\201[\246-\251]'; do
    LC_ALL=C grep -q "$(printf "$b")" "$@" && return 0
  done
  return 1
}
# secs START: seconds since START (a date +%s.%N), for the report.
since() { echo "$(date +%s.%N) $1" | awk '{ printf "%.2f", $1 - $2 }'; }
mkdir -p "$T/state/scalelab"
printf 'scalelab-progress 3\nseed 00000000000000aa\nlesson e2e-basics started 1 1700000000\n' \
  >"$T/state/scalelab/progress"
cp "$T/state/scalelab/progress" "$T/progress.before"
slow_check=0 slow_check_f="" slow_list=0 slow_list_f="" nfiles=0
# hostile_case NAME FILE [ENV...]: check and list of FILE (list: FILE alone in
# a folder, beside a good lesson), each within its limit, exit 0 or 1, a
# FILE or FILE:LINE message on exit 1, no signal, no raw byte on the output.
hostile_case() {
  name=$1 file=$2; shift 2
  start=$(date +%s.%N)
  run 6 env "$@" "$bin" check "$file"
  took=$(since "$start")
  cat "$T/out" >>"$T/err"
  cp "$T/err" "$T/check.out"
  why=""
  case $rc in 0|1) ;; *) why="check exit $rc" ;; esac
  awk "BEGIN { exit !($took > 3.0) }" && why="${why:+$why; }check took ${took}s (limit 3 s)"
  raw_bytes "$T/err" && why="${why:+$why; }raw control or bidi byte in check's output"
  if [ "$rc" = 1 ] && grep -Ev "^$file(:[0-9]+)?: ." "$T/err" | grep -q .; then
    why="${why:+$why; }not every line is FILE[:LINE]: $(head -c 160 "$T/err")"
  fi
  [ -n "$side" ] && why="${why:+$why; }check changed files: $side"
  awk "BEGIN { exit !($took > $slow_check) }" && { slow_check=$took; slow_check_f=$name; }
  d=$T/in/list-$nfiles
  mkdir -p "$d"
  cp "$file" "$d/"
  cp "$repo/tests/e2e/lessons/02-e2e-second.lua" "$d/"
  # No header cache (its folder cannot be made under /proc): the time is the
  # lessons', not a disk's fsync on a busy machine.
  start=$(date +%s.%N)
  run 6 env XDG_CACHE_HOME=/proc/self/no-cache "$@" "$bin" --list --lessons "$d"
  took=$(since "$start")
  case $rc in 0|1) ;; *) why="${why:+$why; }list exit $rc" ;; esac
  awk "BEGIN { exit !($took > 2.0) }" && why="${why:+$why; }list took ${took}s (limit 2 s)"
  raw_bytes "$T/out" "$T/err" && why="${why:+$why; }raw control or bidi byte in list's output"
  grep -q "e2e-second" "$T/out" || why="${why:+$why; }the good lesson beside it is not listed"
  if [ "$rc" = 1 ] && ! grep "^  ! " "$T/out" | grep -Eq "$d/[^:]*(:[0-9]+)?: ."; then
    why="${why:+$why; }list's error line has no FILE[:LINE]: $(grep '^  ! ' "$T/out" | head -c 160)"
  fi
  [ -n "$side" ] && why="${why:+$why; }list changed files: $side"
  awk "BEGIN { exit !($took > $slow_list) }" && { slow_list=$took; slow_list_f=$name; }
  cmp -s "$T/state/scalelab/progress" "$T/progress.before" ||
    why="${why:+$why; }the progress file changed"
  nfiles=$((nfiles + 1))
  if [ -n "$why" ]; then bad "hostile $name: $why"; else pass=$((pass + 1)); say "ok hostile $name"; fi
}
for f in "$repo"/tests/lessons/hostile/*.lua; do
  hostile_case "$(basename "$f")" "$f"
done
# Hosts that fail for real (tests only: SCALELAB_TEST_FAULTS=1 and a marker
# line): a crash, an abort, a loop and a wait in C, a forbidden system call,
# a kill of the parent, memory without end, bytes no one asked for.
fault_file() {
  f=$T/in/fault-$1.lua
  printf -- '-- scalelab-test-fault: %s start\n' "$1" >"$f"
  printf 'return { id = "fault-%s", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }\n' \
    "$1" >>"$f"
}
# Without the seccomp filter and RLIMIT_AS (a sanitizer or valgrind build)
# a system call is not refused: the harmless one (opening a file to read)
# tells, and then the kinds that rely on the filter are skipped.
fault_file syscall
filtered=yes
SCALELAB_TEST_FAULTS=1 "$bin" check "$f" >/dev/null 2>&1 && filtered=no
kinds="segv abort exit spin stall garbage huge"
if [ "$filtered" = yes ]; then kinds="$kinds syscall kill fork oom"
else skipped "host faults syscall, kill, fork, oom: this build has no seccomp filter"; fi
for kind in $kinds; do
  fault_file "$kind"
  hostile_case "fault $kind" "$f" SCALELAB_TEST_FAULTS=1
  grep -q "^$f: the lesson stopped: " "$T/check.out" ||
    bad "fault $kind: check says no 'the lesson stopped': $(head -c 200 "$T/check.out")"
done
echo "badinput: $nfiles hostile files: slowest check ${slow_check}s ($slow_check_f), slowest list ${slow_list}s ($slow_list_f)"

echo "badinput: files scalelab keeps"
# Two unreadable progress files in a row: each kept byte for byte under a
# name of its own, neither overwritten.
pd=$T/in/pstate
mkdir -p "$pd/scalelab"
for n in 1 2; do
  printf 'learner record %s\n' "$n" >"$pd/scalelab/progress"
  XDG_STATE_HOME=$pd "$bin" --list --lessons "$repo/tests/e2e/lessons" >/dev/null 2>&1
done
kept=$(ls "$pd/scalelab" | grep -c '^progress\.corrupt-')
if [ "$kept" != 2 ]; then bad "two corrupt progress files: $kept kept, want 2"
elif ! cat "$pd"/scalelab/progress.corrupt-* | sort | tr '\n' '|' | grep -q '^learner record 1|learner record 2|$'; then
  bad "two corrupt progress files: their bytes were not kept"
else pass=$((pass + 1)); say "ok two corrupt progress files both kept"; fi
# Under a file-size limit a write is a write error, never SIGXFSZ.
run 10 sh -c "ulimit -f 1; exec \"$bin\" render rack --system gb200-nvl72 --svg big.svg"
if [ "$rc" -gt 128 ]; then bad "render --svg under ulimit -f: killed by signal $((rc - 128))"
elif [ "$rc" = 0 ] || ! grep -q "File too large" "$T/err"; then
  bad "render --svg under ulimit -f: exit $rc, $(head -c 200 "$T/err")"
elif [ -e "$T/work/big.svg" ]; then bad "render --svg under ulimit -f: left a partial big.svg"
else pass=$((pass + 1)); say "ok render --svg under ulimit -f: $(head -n 1 "$T/err")"; fi

echo "badinput: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
