#!/bin/sh
# SPDX-License-Identifier: MIT
# The Makefile as a packager and a newcomer use it, on a copy of the tree:
# - the user's CFLAGS/CPPFLAGS/LDFLAGS add to scalelab's own flags: `make
#   CFLAGS=-O0` keeps -std=c11, the warnings and -MMD; dpkg-buildflags'
#   hardening survives (_FORTIFY_SOURCE=2 leaves __*_chk calls in the binary);
# - -Werror in `make test`, not in a plain `make`; the program's build never
#   asks for cmocka; nothing is installed while make reads the Makefile (the
#   install step is a recipe that runs before the first compile);
# - the README's commands build in parallel when no -j is given;
# - per-layer include paths: <lua.h> outside src/lesson/ and <curses.h>
#   outside src/ui/ fail to compile, inside they compile.
fail=0
no() { echo "makefile.sh: $*"; fail=1; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
# make puts its command-line variables (`make test SANITIZE=1`) into the
# environment of recipes: the copies here build as a user's plain make would.
unset CFLAGS CPPFLAGS LDFLAGS MAKEFLAGS MFLAGS MAKELEVEL SANITIZE FUZZ BUILD
cp -r Makefile src scripts "$T/"
cd "$T" || exit 1

# Dry runs: the flags as make would pass them.
line=$(make -n CFLAGS=-O0 build/src/model/units.o | grep ' -c -o build/src/model/units.o')
for f in -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -MMD -O0; do
  echo " $line " | grep -q -- " $f " || no "make CFLAGS=-O0 drops $f: $line"
done
echo "$line" | grep -q -- '-O2' && no "make CFLAGS=-O0 still has -O2"
make -n build/src/model/units.o | grep -q -- -Werror && no "plain make forces -Werror"
make -n test 2>/dev/null | grep ' -c -o build/src/model/units.o' | grep -q -- -Werror ||
  no "make test does not add -Werror"
make -n all | grep -qi cmocka && no "building the program asks for cmocka: $(make -n all | grep -i cmocka | head -n 1)"
make -n all | grep -q '^scripts/install-deps --build' || no "make does not run install-deps --build"
make -n test | grep -q '^scripts/install-deps$' || no "make test does not install the test packages"
make -q -p 2>/dev/null | grep -q '^MAKEFLAGS = .*-j[0-9]' || no "make without -j does not build in parallel"
make -q -p -j1 2>/dev/null | grep -q '^MAKEFLAGS = .*-j[0-9]' || no "make -j1 is not honoured"

# Reading the Makefile installs nothing: a stand-in install-deps records
# when it runs; make -n, make -q and make clean must not run it, a build
# must run it before its first compile.
mv scripts/install-deps scripts/install-deps.real
printf '#!/bin/sh\necho "$*" >>%s/ran\nsleep 1\n' "$T" >scripts/install-deps
chmod +x scripts/install-deps
make -n all >/dev/null 2>&1; make -q all >/dev/null 2>&1; make clean >/dev/null 2>&1
[ -e "$T/ran" ] && no "reading the Makefile ran install-deps ($(cat "$T/ran"))"
make -s build/src/base/msg.o >/dev/null 2>&1 || no "make build/src/base/msg.o failed"
[ -e "$T/ran" ] || no "a compile did not run install-deps first"
[ "$T/ran" -ot build/src/base/msg.o ] || no "install-deps did not run before the compile"
mv scripts/install-deps.real scripts/install-deps

# A packager's build: dpkg-buildflags-style flags from the environment.
CPPFLAGS=-D_FORTIFY_SOURCE=2 CFLAGS='-O2' LDFLAGS='-Wl,-z,relro' make -s >"$T/out" 2>&1 ||
  no "make with packager flags failed: $(tail -n 3 "$T/out")"
n=$(nm -D scalelab 2>/dev/null | grep -c '__[a-z_]*_chk')
[ "${n:-0}" -gt 0 ] || no "CPPFLAGS=-D_FORTIFY_SOURCE=2: no __*_chk symbols in the binary"
grep -q -- '-D_FORTIFY_SOURCE=2' build/flags.stamp || no "the flags stamp lacks the user's CPPFLAGS"
echo "makefile: $n fortified calls in the packager build"

# Layers by include path.
probe() { # LAYER HEADER want(ok|fail)
  f=src/$1/zz_probe_$$.c
  printf '#include <%s>\nint zz_probe(void);\nint zz_probe(void) { return 0; }\n' "$2" >"$f"
  if make -s "build/${f%.c}.o" >"$T/pout" 2>&1; then got=ok; else got=fail; fi
  rm -f "$f" "build/src/$1/zz_probe_$$".*
  [ $got = "$3" ] || no "#include <$2> in src/$1/: compile $got, want $3: $(head -c 200 "$T/pout")"
  if [ "$3" = fail ] && ! grep -q 'only src/.* includes' "$T/pout"; then
    no "#include <$2> in src/$1/ failed without the layer message: $(head -c 200 "$T/pout")"
  fi
}
probe model lua.h fail
probe cmd lua5.4/lua.h fail
probe draw curses.h fail
probe base ncursesw/curses.h fail
probe ui lua.h fail
probe lesson curses.h fail
probe lesson lua.h ok
probe ui curses.h ok

[ $fail = 0 ] && echo "makefile: ok"
exit $fail
