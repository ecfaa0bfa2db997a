#!/bin/sh
# SPDX-License-Identifier: MIT
# `make install` and `make uninstall` honour PREFIX and DESTDIR: every file
# lands under DESTDIR/PREFIX, the guides (README, AUTHORING, SECURITY, NEWS,
# LICENSE) under share/doc/scalelab and nowhere else, the installed program
# finds its lessons and writes skeletons that name the installed guide, and
# uninstall leaves nothing of ours behind. The install is of the build
# `make test` made: it must compile nothing.
bin=${1:?usage: install.sh BINARY}
dest=$(mktemp -d) || exit 2
work=$(mktemp -d) || exit 2
trap 'rm -rf "$dest" "$work"' EXIT
fail=0
no() { echo "install.sh: $*"; fail=1; }

# PREFIX reaches every installed path (dry run: a real install with another
# PREFIX would rebuild the program under test).
plan=$(make -n install DESTDIR="$dest" PREFIX=/opt/sl)
for d in /opt/sl/bin /opt/sl/share/scalelab/lessons /opt/sl/share/man/man1 /opt/sl/share/doc/scalelab; do
  echo "$plan" | grep -q "$dest$d" || no "make install PREFIX=/opt/sl does not install into $d"
done
echo "$plan" | grep -q "DATADIR='\"/opt/sl/share/scalelab\"'" || no "PREFIX does not reach the compiled-in data folder"
echo "$plan" | grep -q "DOCDIR='\"/opt/sl/share/doc/scalelab\"'" || no "PREFIX does not reach the compiled-in doc folder"

prefix=$(make -s -f Makefile -p 2>/dev/null | sed -n 's/^PREFIX ?= //p' | head -1)
prefix=${prefix:-/usr/local}
[ -z "$(make -n install DESTDIR="$dest" | grep -- ' -c -o ')" ] ||
  no "make install after the build would compile: $(make -n install DESTDIR="$dest" | grep -- ' -c -o ' | head -n 1)"
make -s install DESTDIR="$dest" >/dev/null || { echo "install.sh: make install failed"; exit 1; }
root=$dest$prefix
for f in bin/scalelab share/man/man1/scalelab.1 share/scalelab/assets/presets.lua \
         share/scalelab/assets/new-lesson.lua; do
  [ -f "$root/$f" ] || no "missing after install: $f"
done
for g in README.md AUTHORING.md SECURITY.md NEWS.md LICENSE; do
  [ -f "$root/share/doc/scalelab/$g" ] || no "missing after install: share/doc/scalelab/$g"
done
cmp -s lessons/AUTHORING.md "$root/share/doc/scalelab/AUTHORING.md" ||
  no "the installed AUTHORING.md is not the tree's"
left=$(find "$root/share/scalelab" -name '*.md')
[ -z "$left" ] || no "guides installed beside the lessons: $left"
[ -x "$root/bin/scalelab" ] || no "installed binary is not executable"
n=$(ls "$root/share/scalelab/lessons/"*.lua 2>/dev/null | wc -l)
[ "$n" -ge 1 ] || no "no lessons installed"
"$root/bin/scalelab" --version >/dev/null || no "installed binary does not run"
# The installed program finds its installed lessons, wherever PREFIX put them.
listed=$(cd / && SCALELAB_LESSONS= SCALELAB_ASSETS= "$root/bin/scalelab" list 2>&1 | grep -c '^ *\[')
[ "$listed" -ge "$n" ] || no "installed scalelab lists $listed lessons, $n installed"
# `scalelab new` from the install: its skeleton names the installed guide,
# which is there, and passes the installed check.
(cd "$work" && env -u SCALELAB_ASSETS -u SCALELAB_LESSONS HOME="$work" \
  "$root/bin/scalelab" new fresh >/dev/null 2>"$work/err") || no "installed new failed: $(cat "$work/err")"
guide=$(sed -n 's/^-- The whole format and every scalelab.\* function: //p' "$work/fresh.lua")
[ "$guide" = "$(cd "$root/share/doc/scalelab" && pwd -P)/AUTHORING.md" ] ||
  no "the installed skeleton names '$guide', not the installed guide"
[ -f "$guide" ] || no "the guide the skeleton names is not there: $guide"
env -u SCALELAB_ASSETS "$root/bin/scalelab" check "$work/fresh.lua" >/dev/null 2>"$work/err" ||
  no "the installed skeleton fails the installed check: $(head -c 300 "$work/err")"
# The man page names the installed folders.
grep -q "$prefix/share/scalelab" "$root/share/man/man1/scalelab.1" ||
  no "the man page does not name the data folder"
grep -q "$prefix/share/doc/scalelab" "$root/share/man/man1/scalelab.1" ||
  no "the man page does not name the doc folder"
# Nothing may be written outside DESTDIR/PREFIX.
top=${prefix#/}; top=${top%%/*}
[ -z "$(find "$dest" -mindepth 1 -maxdepth 1 ! -name "$top")" ] || no "files outside PREFIX"

make -s uninstall DESTDIR="$dest" >/dev/null || no "make uninstall failed"
left=$(find "$root" -type f 2>/dev/null)
[ -z "$left" ] || no "left after uninstall: $left"
[ -e "$root/share/doc/scalelab" ] && no "uninstall left share/doc/scalelab"
[ $fail = 0 ] && echo "install: ok"
exit $fail
