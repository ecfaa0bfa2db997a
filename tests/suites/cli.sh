#!/bin/sh
# SPDX-License-Identifier: MIT
# The command-line contract: exit codes of the built binary, and the man page
# in step with --help (every command in the table has a section in the man
# page, and the man page names no command the binary does not know).
bin=${1:?usage: cli.sh BINARY}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
# The tree's lessons and assets also for a binary built outside the top
# folder (the sanitizer build's build/san/scalelab).
SCALELAB_LESSONS=${SCALELAB_LESSONS:-$PWD/lessons}
SCALELAB_ASSETS=${SCALELAB_ASSETS:-$PWD/assets}
export SCALELAB_LESSONS SCALELAB_ASSETS
fail=0
no() { echo "cli.sh: $*"; fail=1; }

"$bin" --help >/dev/null || no "--help did not exit 0"
"$bin" --version | grep -q '^scalelab [0-9]' || no "--version printed no version"
"$bin" --no-such-flag 2>/tmp/cli.$$; [ $? = 2 ] || no "unknown option did not exit 2"
[ "$(wc -l </tmp/cli.$$)" = 1 ] || no "unknown option did not print exactly one line"
rm -f /tmp/cli.$$
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

# Every command: --help on stdout, nothing on stderr, exit 0; `help CMD` the same.
cmds=$("$bin" --help | sed -n 's/^  scalelab \([a-z][a-z-]*\).*/\1/p')
for c in $cmds; do
  "$bin" "$c" --help >"$T/out" 2>"$T/err"; rc=$?
  [ $rc = 0 ] || no "$c --help exits $rc"
  [ -s "$T/out" ] || no "$c --help prints nothing on stdout"
  [ -s "$T/err" ] && no "$c --help writes to stderr: $(head -c 200 "$T/err")"
  "$bin" help "$c" | cmp -s - "$T/out" || no "'help $c' differs from '$c --help'"
done

# Errors: one line, "scalelab COMMAND: ", named by the command typed.
for c in eval sweep render play; do
  case $c in render) a="rack --gpus x" ;; *) a="--gpus x" ;; esac
  # shellcheck disable=SC2086
  "$bin" $c $a >/dev/null 2>"$T/err"; rc=$?
  [ $rc = 2 ] || no "$c $a exits $rc, want 2"
  [ "$(wc -l <"$T/err")" = 1 ] || no "$c $a: not one line: $(cat "$T/err")"
  grep -q "^scalelab $c: " "$T/err" || no "$c error not prefixed 'scalelab $c: ': $(cat "$T/err")"
done

# `--` ends the options: what follows is an operand even if it starts with -.
printf 'return {}\n' >"$T/-x.lua"
(cd "$T" && "$bin" check -- -x.lua) >/dev/null 2>"$T/err"; rc=$?
[ $rc = 1 ] || no "check -- -x.lua exits $rc, want 1 (a file with problems)"
grep -q '^-x.lua:' "$T/err" || no "check -- -x.lua did not check the file: $(cat "$T/err")"
"$bin" check --bogus >/dev/null 2>&1; [ $? = 2 ] || no "check --bogus is not a usage error"
(cd "$T" && "$bin" new -- -dash) >/dev/null 2>"$T/err" || no "new -- -dash failed: $(cat "$T/err")"
"$bin" list --lessons lessons -- >/dev/null || no "list --lessons lessons -- failed"
for a in "version --" "eval --gpus 8 --" "progress --json --" "practice --print --count 1 --"; do
  # shellcheck disable=SC2086
  HOME=$T XDG_STATE_HOME=$T/state "$bin" $a >/dev/null 2>"$T/err" ||
    no "'$a': a last -- is refused: $(cat "$T/err")"
done
"$bin" eval -- --gpus 8 >/dev/null 2>&1; [ $? = 2 ] || no "eval -- --gpus 8 took --gpus as a flag"

# Write errors: one line and exit 1 on a full disk; a closed pipe is quiet.
if [ -w /dev/full ]; then
  "$bin" eval --list >/dev/full 2>"$T/err"; rc=$?
  [ $rc = 1 ] || no "eval --list >/dev/full exits $rc, want 1"
  [ "$(wc -l <"$T/err")" = 1 ] && grep -q '^scalelab eval: write error: ' "$T/err" ||
    no "eval --list >/dev/full: not one 'write error' line: $(cat "$T/err")"
  "$bin" --help >/dev/full 2>/dev/null && no "--help >/dev/full exits 0"
fi
"$bin" sweep --system dgx-h100 --gpus 64 --model llama3-8b --top all 2>"$T/err" | head -n 1 >/dev/null
[ -s "$T/err" ] && no "a closed pipe printed: $(head -c 200 "$T/err")"

# XDG base directories: a relative XDG_CACHE_HOME/XDG_STATE_HOME is ignored
# (the specification says so): the cache goes under $HOME/.cache.
mkdir -p "$T/work" "$T/home"
(cd "$T/work" && HOME=$T/home XDG_CACHE_HOME=rel XDG_STATE_HOME=rel \
  "$bin" list --lessons "$OLDPWD/lessons") >/dev/null 2>"$T/err" || no "list failed: $(cat "$T/err")"
[ -e "$T/work/rel" ] && no "a relative XDG_CACHE_HOME or XDG_STATE_HOME was used"
[ -f "$T/home/.cache/scalelab/catalog" ] || no "no lesson cache in \$HOME/.cache/scalelab"

# No usable terminal: the one documented status, 3.
"$bin" --lessons lessons </dev/null >/dev/null 2>&1; rc=$?
[ $rc = 3 ] || no "no terminal exits $rc, want 3"
TERM=dumb "$bin" present tests/present/demo.lua </dev/null >/dev/null 2>&1; rc=$?
[ $rc = 3 ] || no "present without a terminal exits $rc, want 3"
grep -q '^\.B 3$' assets/scalelab.1 || no "exit status 3 is not in the man page"

man=assets/scalelab.1
if command -v man >/dev/null 2>&1; then
  warn=$(MANWIDTH=80 man --warnings -l "$man" 2>&1 >/dev/null)
  [ -z "$warn" ] || no "man page renders with warnings: $warn"
fi
# Commands in --help: lines "  scalelab NAME ..." (not the bare menu line).
[ -n "$cmds" ] || no "no commands found in --help"
for c in $cmds; do
  grep -q "^\.SS $c\b" "$man" || no "command '$c' is in --help but has no .SS section in $man"
done
for c in $(sed -n 's/^\.SS \([a-z][a-z-]*\).*/\1/p' "$man"); do
  echo "$cmds" | grep -qx "$c" || no "$man documents '$c', which --help does not list"
done
# Flags: every flag in a command's --help is in its man page section, and
# every flag of the section is in its --help. A --help that says "see
# 'scalelab eval --help'" or a section that says "flags of eval" takes that
# command's flags in as well; "'scalelab eval --list'" in a --help is a
# pointer to another command, not a flag of this one.
section() { awk -v c="$1" '/^\.S[SH] /{ on = ($1 == ".SS" && $2 == c); next } on' "$man"; }
man_flags() { section "$1" | sed 's/\\-/-/g; s/\\f[BIRP]//g' | grep -o -- '--[a-z][a-z0-9-]*' | sort -u; }
help_flags() {
  "$bin" "$1" --help 2>/dev/null | sed "s/scalelab [a-z][a-z]* --[a-z][a-z0-9-]*//g" |
    grep -o -- '--[a-z][a-z0-9-]*' | grep -vx -- --help | sort -u
}
nflags=0
for c in $cmds; do
  [ "$c" = help ] && continue
  h=$(help_flags "$c"); m=$(man_flags "$c"); hx=; mx=
  for o in $cmds; do
    [ "$o" = "$c" ] && continue
    "$bin" "$c" --help | grep -q "scalelab $o --help" && hx="$hx $(help_flags "$o")"
    section "$c" | tr '\n' ' ' | grep -q "flags of \.BR\{0,1\} $o\b" && mx="$mx $(man_flags "$o")"
  done
  for f in $h; do
    nflags=$((nflags + 1))
    echo " $m $mx " | tr '\n' ' ' | grep -q -- " $f " || no "$c: $f is in '$c --help' but not in the $c section of $man"
  done
  for f in $m; do
    [ "$f" = --help ] && continue
    echo " $h $hx " | tr '\n' ' ' | grep -q -- " $f " || no "$c: $f is in the $c section of $man but not in '$c --help'"
  done
done
[ "$nflags" -gt 50 ] || no "only $nflags flags found in the commands' --help"
for s in NAME SYNOPSIS OPTIONS COMMANDS "EXIT STATUS" ENVIRONMENT FILES "SEE ALSO"; do
  grep -q "^\.SH $s\$" "$man" || no "$man has no $s section"
done
# Every environment variable the program reads is in ENVIRONMENT.
for v in $(grep -rhoE 'getenv\("[A-Z_]+"\)' src | sed 's/.*("\(.*\)")/\1/' | sort -u) \
         SCALELAB_LESSONS SCALELAB_ASSETS; do
  awk '/^\.SH ENVIRONMENT/{on=1; next} /^\.SH /{on=0} on' "$man" | grep -q "$v" ||
    no "$man: ENVIRONMENT does not name $v, which the program reads"
done

# One version everywhere: what --version prints is the newest release of
# NEWS.md and the version the man page names.
version=$("$bin" --version | sed -n 's/^scalelab //p')
[ -n "$version" ] || no "--version prints no version"
news=$(sed -n 's/^## \([0-9][0-9.]*\) .*/\1/p' NEWS.md | head -n 1)
[ "$news" = "$version" ] || no "NEWS.md's newest release is '$news', --version says '$version'"
head -n 1 "$man" | grep -q "\"scalelab $version\"" || no "$man names another version: $(head -n 1 "$man")"

[ $fail = 0 ] && echo "cli: ok ($nflags flags in step with $man)"
exit $fail
