#!/bin/sh
# SPDX-License-Identifier: MIT
# The Makefile as a packager and a newcomer use it, on a copy of the tree:
# - the user's CFLAGS/CPPFLAGS/LDFLAGS add to scalelab's own flags: `make
#   CFLAGS=-O0` keeps -std=c11, the warnings and -MMD; dpkg-buildflags'
#   hardening survives (_FORTIFY_SOURCE=2 leaves __*_chk calls in the binary);
# - -Werror in `make test`, not in a plain `make`, and never in the flags
#   stamp: `make; make unit-tests; make` compiles nothing the third time;
#   after a build `make -q` says up to date and `make -n` lists nothing;
# - only `make run`, `make test` and `make deps` install packages, before
#   their first compile; reading the Makefile, a plain `make`, `make
#   install` and `make clean` never do, and the program's build never asks
#   for cmocka;
# - a missing header fails its compile as usual, then names the Debian
#   package (a missing compiler too), without installing anything;
# - the README's commands build in parallel when no -j is given;
# - per-layer include paths: <lua.h> outside src/lesson/ and <curses.h>
#   outside src/ui/ fail to compile, inside they compile.
fail=0
no() { echo "makefile.sh: $*"; fail=1; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
# make puts its command-line variables (`make test SANITIZE=1`) into the
# environment of recipes: the copies here build as a user's plain make would.
unset CFLAGS CPPFLAGS LDFLAGS MAKEFLAGS MFLAGS MAKELEVEL SANITIZE FUZZ BUILD DEPS
cp -r Makefile src scripts tests "$T/"
mkdir "$T/tree"
mv "$T/Makefile" "$T/src" "$T/scripts" "$T/tests" "$T/tree/"
cd "$T/tree" || exit 1

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
make -q -p 2>/dev/null | grep -q '^MAKEFLAGS = .*-j[0-9]' || no "make without -j does not build in parallel"
make -q -p -j1 2>/dev/null | grep -q '^MAKEFLAGS = .*-j[0-9]' || no "make -j1 is not honoured"

# Who installs: a stand-in install-deps records each run with its
# arguments, and whether an object existed yet when it ran.
mv scripts/install-deps scripts/install-deps.real
cat >scripts/install-deps <<EOF
#!/bin/sh
if [ -n "\$(find build -name '*.o' 2>/dev/null | head -n 1)" ]; then w=after; else w=before; fi
echo "\$* \$w" >>$T/ran
EOF
chmod +x scripts/install-deps
make -n all >/dev/null 2>&1; make -q all >/dev/null 2>&1; make clean >/dev/null 2>&1
[ -e "$T/ran" ] && no "reading the Makefile ran install-deps ($(cat "$T/ran"))"
# (Under -n every compile shows its hint for a failure, install-deps --check.)
for goal in all install; do
  make -n $goal DESTDIR="$T/dest" | grep 'install-deps' | grep -qv 'install-deps --check' &&
    no "make $goal would install: $(make -n $goal DESTDIR="$T/dest" | grep install-deps | grep -v -- --check)"
done
make -n run | grep -q '^CC=.* scripts/install-deps build$' || no "make run does not install what the program needs first"
make -n test | grep -q '^CC=.* scripts/install-deps test$' || no "make test does not install what the tests need first"
make -n deps DEPS="fuzz analyze" | grep -q 'scripts/install-deps fuzz analyze$' || no "make deps DEPS=... is not passed on"
make -n test | sed -n '/install-deps/q; / -c -o /p' | grep -q . && no "make test compiles before it installs"
make -s build/src/base/msg.o >/dev/null 2>&1 || no "make build/src/base/msg.o failed"
[ -e "$T/ran" ] && no "a plain compile ran install-deps ($(cat "$T/ran"))"
rm -rf build
make -s run ARGS=--version >"$T/out" 2>&1 || no "make run ARGS=--version failed: $(tail -n 3 "$T/out")"
grep -q '^scalelab [0-9]' "$T/out" || no "make run ARGS=--version did not run the program: $(tail -n 3 "$T/out")"
[ "$(cat "$T/ran" 2>/dev/null)" = "build before" ] ||
  no "make run: install-deps did not run once, before the first compile: $(cat "$T/ran" 2>/dev/null)"

# After a build: nothing left to do, and make -q and -n say so. Then the
# unit programs' goal, with -Werror, changes no object of the program.
make -q; st=$?
[ $st = 0 ] || no "make -q after a build exits $st, want 0"
[ -z "$(make -n)" ] || [ "$(make -n)" = "make: Nothing to be done for 'all'." ] ||
  no "make -n after a build lists: $(make -n | head -n 3)"
rm -f "$T/ran"
make -s unit-tests TEST_SRC=tests/unit/test_base.c >"$T/out" 2>&1 ||
  no "make unit-tests (one program) failed: $(tail -n 3 "$T/out")"
[ -e "$T/ran" ] && no "make unit-tests ran install-deps ($(cat "$T/ran"))"
again=$(make -n | grep -c -- ' -c -o ')
[ "$again" = 0 ] || no "make after make unit-tests would compile $again objects again"
make -q || no "make -q after make unit-tests says the program is out of date"
mv scripts/install-deps.real scripts/install-deps

# A missing library: the compile fails as compilers fail, then one line
# names the package, and nothing is installed (apt-get and sudo stand-ins
# record any call). pkg-config here does not know lua5.4, so <lua.h> is not
# on the include path.
mkdir -p "$T/bin"
for c in apt-get sudo; do printf '#!/bin/sh\necho "%s $*" >>%s/apt\nexit 1\n' "$c" "$T" >"$T/bin/$c"; done
printf '#!/bin/sh\nfor a; do case $a in lua5.4) exit 1 ;; esac; done\nexec pkg-config "$@"\n' >"$T/bin/pc"
chmod +x "$T/bin/"*
rm -f build/src/lesson/sandbox.o
PATH="$T/bin:$PATH" make -s PKG_CONFIG="$T/bin/pc" build/src/lesson/sandbox.o >"$T/out" 2>&1 &&
  no "a compile without Lua's headers succeeded"
grep -Eq '(lua|lauxlib|lualib).h: No such file or directory' "$T/out" || no "no usual compiler error for Lua's headers: $(head -c 300 "$T/out")"
grep -q 'Debian package liblua5.4-dev' "$T/out" || no "the missing header does not name its package: $(tail -n 3 "$T/out")"
grep -q 'apt-get install -y liblua5.4-dev' "$T/out" || no "no install command for the missing package: $(tail -n 2 "$T/out")"
[ -e "$T/apt" ] && no "a plain make ran $(cat "$T/apt")"
# A missing compiler: make's own error, then the package (gcc for cc).
PATH="$T/bin:$PATH" make -s CC=/nonexistent/cc build/src/base/clock.o >"$T/out" 2>&1 &&
  no "a compile with no compiler succeeded"
grep -q 'Debian package gcc' "$T/out" || no "a missing cc does not name gcc: $(tail -n 3 "$T/out")"
PATH="$T/bin:$PATH" make -s CC=/nonexistent/clang build/src/base/clock.o >"$T/out" 2>&1
grep -q 'Debian package clang' "$T/out" || no "a missing clang does not name clang: $(tail -n 3 "$T/out")"
grep -q 'package gcc' "$T/out" && no "CC=clang is told to install gcc"
[ -e "$T/apt" ] && no "a plain make ran $(cat "$T/apt")"
rm -rf build

# A packager's build: dpkg-buildflags-style flags from the environment.
CPPFLAGS=-D_FORTIFY_SOURCE=2 CFLAGS='-O2' LDFLAGS='-Wl,-z,relro' make -s >"$T/out" 2>&1 ||
  no "make with packager flags failed: $(tail -n 3 "$T/out")"
n=$(nm -D scalelab 2>/dev/null | grep -c '__[a-z_]*_chk')
[ "${n:-0}" -gt 0 ] || no "CPPFLAGS=-D_FORTIFY_SOURCE=2: no __*_chk symbols in the binary"
grep -q -- '-D_FORTIFY_SOURCE=2' build/flags.stamp || no "the flags stamp lacks the user's CPPFLAGS"
grep -q -- '-Werror' build/flags.stamp && no "the flags stamp holds -Werror"
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
