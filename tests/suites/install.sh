#!/bin/sh
# SPDX-License-Identifier: MIT
# `make install` and `make uninstall` honour PREFIX and DESTDIR: every file
# lands under DESTDIR/PREFIX, and uninstall leaves nothing of ours behind.
bin=${1:?usage: install.sh BINARY}
dest=$(mktemp -d) || exit 2
trap 'rm -rf "$dest"' EXIT
fail=0
no() { echo "install.sh: $*"; fail=1; }

# PREFIX reaches every installed path (dry run: a real install with another
# PREFIX would rebuild the program under test).
plan=$(make -n install DESTDIR="$dest" PREFIX=/opt/sl)
for d in /opt/sl/bin /opt/sl/share/scalelab/lessons /opt/sl/share/man/man1; do
  echo "$plan" | grep -q "$dest$d" || no "make install PREFIX=/opt/sl does not install into $d"
done
echo "$plan" | grep -q "DATADIR='\"/opt/sl/share/scalelab\"'" || no "PREFIX does not reach the compiled-in data folder"

prefix=$(make -s -f Makefile -p 2>/dev/null | sed -n 's/^PREFIX ?= //p' | head -1)
prefix=${prefix:-/usr/local}
make -s install DESTDIR="$dest" >/dev/null || { echo "install.sh: make install failed"; exit 1; }
for f in bin/scalelab share/man/man1/scalelab.1 share/scalelab/assets/presets.lua \
         share/scalelab/lessons/AUTHORING.md; do
  [ -f "$dest$prefix/$f" ] || no "missing after install: $f"
done
[ -x "$dest$prefix/bin/scalelab" ] || no "installed binary is not executable"
n=$(ls "$dest$prefix/share/scalelab/lessons/"*.lua 2>/dev/null | wc -l)
[ "$n" -ge 1 ] || no "no lessons installed"
"$dest$prefix/bin/scalelab" --version >/dev/null || no "installed binary does not run"
# The installed program finds its installed lessons, wherever PREFIX put them.
listed=$(cd / && SCALELAB_LESSONS= "$dest$prefix/bin/scalelab" list 2>&1 | grep -c '^ *\[')
[ "$listed" -ge "$n" ] || no "installed scalelab lists $listed lessons, $n installed"
# Nothing may be written outside DESTDIR/PREFIX.
top=${prefix#/}; top=${top%%/*}
[ -z "$(find "$dest" -mindepth 1 -maxdepth 1 ! -name "$top")" ] || no "files outside PREFIX"

make -s uninstall DESTDIR="$dest" >/dev/null || no "make uninstall failed"
left=$(find "$dest$prefix" -type f 2>/dev/null)
[ -z "$left" ] || no "left after uninstall: $left"
[ $fail = 0 ] && echo "install: ok"
exit $fail
