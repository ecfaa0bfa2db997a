#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/install-deps on machines it cannot see here. PATH is a copy of
# this machine's commands less the ones a case removes, pkg-config is a
# stand-in that does not know the modules a case removes, and apt-get,
# apt-cache, id and sudo are stand-ins (apt-get logs its arguments and
# "installs" by putting back what it names). Checked:
# - nothing missing: nothing to do, nothing printed;
# - as root a missing need is installed with apt-get, with a lock timeout,
#   after `apt-get update` when the lists are empty, and no message says
#   sudo; the packages are those of what is missing (a command, a
#   pkg-config module), once each;
# - without root or sudo it prints the sudo command and exits 1;
# - --check installs nothing, names each missing need and its package;
# - the compiler's package follows CC (gcc for cc, clang for clang);
# - `build` asks for no test package (the program builds without cmocka);
# - a held dpkg lock is waited for with a message, then apt-get runs.
# Every wait polls a condition with a deadline; no fixed sleep.
fail=0
no() { echo "deps.sh: $*"; fail=1; }
T=$(mktemp -d) || exit 1
trap '[ -n "${lockpid:-}" ] && kill "$lockpid" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
mkdir -p "$T/stub" "$T/lists"
# pkg-config: "no" for a module listed in $T/nopc, else the real answer.
real_pc=$(command -v pkg-config)
cat >"$T/stub/pkg-config" <<EOF
#!/bin/sh
for a; do grep -qx -- "\$a" "$T/nopc" 2>/dev/null && exit 1; done
exec $real_pc "\$@"
EOF
# apt-get logs; "install" puts back the commands and modules it provides.
cat >"$T/stub/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$T/log"
case " \$* " in *" install "*) ;; *) exit 0 ;; esac
for p; do
  case \$p in
    tmux) ln -sf "$(command -v tmux)" "$T/path/tmux" ;;
    procps) ln -sf "$(command -v pgrep)" "$T/path/pgrep"; ln -sf "$(command -v ps)" "$T/path/ps" ;;
    gcc) ln -sf "$(command -v gcc)" "$T/path/gcc" ;;
    libcmocka-dev) sed -i '/^cmocka$/d' "$T/nopc" ;;
    liblua5.4-dev) sed -i '/^lua5.4$/d' "$T/nopc" ;;
  esac
done
exit 0
EOF
printf '#!/bin/sh\nexit 0\n' >"$T/stub/apt-cache"
printf '#!/bin/sh\necho "${FAKE_UID:-0}"\n' >"$T/stub/id"
printf '#!/bin/sh\nexit 1\n' >"$T/stub/sudo"
chmod +x "$T/stub/"*

# machine CMD...: this machine's commands (its /usr/bin and /bin) less CMDs.
machine() {
  rm -rf "$T/path"; mkdir "$T/path"
  for d in /usr/local/bin /usr/bin /bin; do
    [ -d "$d" ] && find "$d" -maxdepth 1 -perm -u+x ! -type d -exec ln -sft "$T/path" {} + 2>/dev/null
  done
  for c; do rm -f "$T/path/$c"; done
  : >"$T/nopc"
}
deps() {
  rm -f "$T/log"
  PATH="$T/stub:$T/path" PKG_CONFIG="$T/stub/pkg-config" SCALELAB_APT_LISTS="$T/lists" \
    SCALELAB_DPKG_LOCKS="$T/lock" scripts/install-deps "$@" >"$T/out" 2>"$T/err"
}

machine
deps; rc=$?
[ $rc = 0 ] || no "nothing missing: exit $rc: $(cat "$T/err")"
[ -s "$T/err" ] && no "nothing missing, yet it says: $(cat "$T/err")"
[ -e "$T/log" ] && no "nothing missing, yet it ran $(cat "$T/log")"

# As root: a command and a module missing, installed by their packages.
machine tmux pgrep
echo cmocka >"$T/nopc"
deps; rc=$?
[ $rc = 0 ] || no "as root: exit $rc: $(cat "$T/err")"
grep -q '^apt-get .*update' "$T/log" 2>/dev/null || no "no apt-get update with empty lists"
grep -q '^apt-get -o DPkg::Lock::Timeout=[0-9]* install .* libcmocka-dev tmux procps$' "$T/log" 2>/dev/null ||
  no "not installed, by package, once each, with a lock timeout: $(cat "$T/log" 2>/dev/null)"
grep -qi sudo "$T/err" && no "root is told about sudo: $(cat "$T/err")"
grep -q 'dependencies installed' "$T/err" || no "as root: no word that it is done: $(cat "$T/err")"

# Without root or sudo: the command to run, nothing run.
machine tmux
FAKE_UID=1000 deps; rc=$?
[ $rc = 1 ] || no "non-root without sudo: exit $rc, want 1"
grep -q 'sudo apt-get install -y tmux' "$T/err" || no "non-root: no command to run: $(cat "$T/err")"
[ -e "$T/log" ] && no "non-root ran apt-get"

# --check: what is missing, by name and package; nothing installed.
machine tmux
echo lua5.4 >"$T/nopc"
deps --check; rc=$?
[ $rc = 1 ] || no "--check with something missing: exit $rc, want 1"
grep -q 'missing: the command tmux; Debian package tmux' "$T/err" || no "--check: tmux not named: $(cat "$T/err")"
grep -q 'pkg-config lua5.4); Debian package liblua5.4-dev' "$T/err" || no "--check: lua5.4 not named: $(cat "$T/err")"
grep -q 'apt-get install -y liblua5.4-dev tmux' "$T/err" || no "--check: no install command: $(cat "$T/err")"
[ -e "$T/log" ] && no "--check ran $(cat "$T/log")"

# The compiler's package follows CC; a compiler that runs but cannot build
# with the C library means the C library's headers.
machine gcc cc clang
CC=cc deps --check build; grep -q 'Debian package gcc$' "$T/err" || no "CC=cc missing does not name gcc: $(cat "$T/err")"
CC=clang deps --check build
grep -q 'Debian package clang$' "$T/err" || no "CC=clang missing does not name clang: $(cat "$T/err")"
grep -q 'package gcc' "$T/err" && no "CC=clang is told to install gcc: $(cat "$T/err")"
printf '#!/bin/sh\nexit 1\n' >"$T/path/cc"; chmod +x "$T/path/cc"
CC=cc deps --check build
grep -q 'Debian package libc6-dev$' "$T/err" || no "a compiler that cannot build does not name libc6-dev: $(cat "$T/err")"

# build: nothing the tests alone need.
machine tmux valgrind
echo cmocka >"$T/nopc"
deps build; rc=$?
[ $rc = 0 ] || no "build with only test needs missing: exit $rc: $(cat "$T/err")"
[ -e "$T/log" ] && no "build installs test packages: $(cat "$T/log")"
pkgs=$(scripts/install-deps --list)
for p in gcc make pkg-config libncurses-dev liblua5.4-dev libseccomp-dev libcmocka-dev tmux \
  procps man-db valgrind libxml2-utils librsvg2-bin python3 locales clang-format; do
  echo " $pkgs " | grep -q " $p " || no "install-deps does not install $p"
done
echo " $(scripts/install-deps --list build) " | grep -qE ' (libcmocka-dev|tmux|valgrind) ' &&
  no "--list build names test packages"

# A held lock (dpkg takes fcntl locks): waited for, said so, then installed.
# poll SECONDS CMD...: until CMD succeeds, at most SECONDS.
poll() {
  n=$(($1 * 20)); shift
  while ! "$@"; do
    n=$((n - 1)); [ $n -gt 0 ] || return 1
    sleep 0.05
  done
}
machine tmux
: >"$T/lock"
touch "$T/lists/x_Packages"
python3 -c 'import fcntl, os, sys, time
f = open(sys.argv[1], "w"); fcntl.lockf(f, fcntl.LOCK_EX); open(sys.argv[2], "w").close()
end = time.time() + 60
while not os.path.exists(sys.argv[3]) and time.time() < end: time.sleep(0.05)' \
  "$T/lock" "$T/locked" "$T/release" &
lockpid=$!
poll 20 test -e "$T/locked" || no "the lock holder did not start"
deps & depspid=$!
poll 20 grep -q 'waiting for the dpkg lock' "$T/err" || no "held lock: no waiting message: $(cat "$T/err")"
[ -e "$T/log" ] && no "apt-get ran while the lock was held: $(cat "$T/log")"
touch "$T/release"
wait "$depspid"; rc=$?
[ $rc = 0 ] || no "held lock: exit $rc: $(cat "$T/err")"
grep -q 'install .* tmux$' "$T/log" 2>/dev/null || no "held lock: not installed after it was freed"
grep -q 'update' "$T/log" 2>/dev/null && no "fresh lists refreshed again"

[ $fail = 0 ] && echo "deps: ok"
exit $fail
