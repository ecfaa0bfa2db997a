#!/bin/sh
# `make install` and `make uninstall` honour PREFIX and DESTDIR: every file
# lands under DESTDIR/PREFIX, and uninstall leaves nothing of ours behind.
bin=${1:?usage: install.sh BINARY}
dest=$(mktemp -d) || exit 2
trap 'rm -rf "$dest"' EXIT
fail=0
no() { echo "install.sh: $*"; fail=1; }

make -s install DESTDIR="$dest" PREFIX=/opt/sl >/dev/null || { echo "install.sh: make install failed"; exit 1; }
for f in bin/scalelab share/man/man1/scalelab.1 share/scalelab/assets/presets.lua \
         share/scalelab/lessons/AUTHORING.md; do
  [ -f "$dest/opt/sl/$f" ] || no "missing after install: $f"
done
[ -x "$dest/opt/sl/bin/scalelab" ] || no "installed binary is not executable"
n=$(ls "$dest/opt/sl/share/scalelab/lessons/"*.lua 2>/dev/null | wc -l)
[ "$n" -ge 1 ] || no "no lessons installed"
"$dest/opt/sl/bin/scalelab" --version >/dev/null || no "installed binary does not run"
# The installed program finds its installed lessons, wherever PREFIX put them.
listed=$(cd / && SCALELAB_LESSONS= "$dest/opt/sl/bin/scalelab" list 2>&1 | grep -c '^ *\[')
[ "$listed" -ge "$n" ] || no "installed scalelab lists $listed lessons, $n installed"
# Nothing may be written outside DESTDIR/PREFIX.
[ -z "$(find "$dest" -mindepth 1 -maxdepth 1 ! -name opt)" ] || no "files outside PREFIX"

make -s uninstall DESTDIR="$dest" PREFIX=/opt/sl >/dev/null || no "make uninstall failed"
left=$(find "$dest/opt/sl" -type f 2>/dev/null)
[ -z "$left" ] || no "left after uninstall: $left"
[ $fail = 0 ] && echo "install: ok"
exit $fail
