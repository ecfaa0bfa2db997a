#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/install-deps on machines it cannot see here: stubs of dpkg-query,
# apt-get, apt-cache, id and sudo on PATH play a package database in every
# dpkg state, root and non-root, and a held dpkg lock.
# - packages installed or waiting for triggers (triggers-pending,
#   triggers-awaited, half-configured) count as present: nothing to do;
# - as root a missing package is installed with apt-get, with a lock timeout,
#   after `apt-get update` when the lists are empty, and no message says sudo;
# - without root or sudo it prints the sudo command and exits 1;
# - a held lock is waited for with a message, then apt-get runs;
# - --build asks for no test package (the program builds without cmocka).
fail=0
no() { echo "deps.sh: $*"; fail=1; }
T=$(mktemp -d) || exit 1
trap 'kill $lockpid 2>/dev/null; rm -rf "$T"' EXIT INT TERM
mkdir -p "$T/bin" "$T/lists"
# dpkg-query -W -f=... PKG: the state in $T/state.PKG, else "installed".
cat >"$T/bin/dpkg-query" <<STUB
#!/bin/sh
for p; do :; done
if [ -f "$T/state.\$p" ]; then cat "$T/state.\$p"; else echo "install ok installed"; fi
STUB
# apt-get logs its arguments; "install" marks the packages installed.
cat >"$T/bin/apt-get" <<STUB
#!/bin/sh
echo "apt-get \$*" >>"$T/log"
case " \$* " in *" install "*)
  for p; do case \$p in -*|install) ;; *) rm -f "$T/state.\$p" ;; esac; done ;; esac
exit 0
STUB
printf '#!/bin/sh\nexit 0\n' >"$T/bin/apt-cache"
printf '#!/bin/sh\necho "${FAKE_UID:-0}"\n' >"$T/bin/id"
printf '#!/bin/sh\nexit 1\n' >"$T/bin/sudo"
chmod +x "$T/bin/"*
deps() {
  rm -f "$T/log"
  PATH="$T/bin:$PATH" SCALELAB_APT_LISTS="$T/lists" SCALELAB_DPKG_LOCKS="$T/lock" \
    scripts/install-deps "$@" >"$T/out" 2>"$T/err"
}

for st in "install ok triggers-pending" "install ok triggers-awaited" \
          "install ok half-configured"; do
  echo "$st" >"$T/state.man-db"
  deps; rc=$?
  [ $rc = 0 ] || no "man-db '$st': exit $rc: $(cat "$T/err")"
  [ -e "$T/log" ] && no "man-db '$st' counted as missing: $(cat "$T/log")"
done

echo "deinstall ok config-files" >"$T/state.procps"
echo "unknown ok not-installed" >"$T/state.tmux"
rm -f "$T/state.man-db"
deps; rc=$?
[ $rc = 0 ] || no "as root: exit $rc: $(cat "$T/err")"
grep -q '^apt-get .*update' "$T/log" 2>/dev/null || no "no apt-get update with empty lists"
grep -q '^apt-get -o DPkg::Lock::Timeout=[0-9]* install .* tmux procps$' "$T/log" 2>/dev/null ||
  no "not installed with a lock timeout: $(cat "$T/log" 2>/dev/null)"
grep -qi sudo "$T/err" && no "root is told about sudo: $(cat "$T/err")"

echo "unknown ok not-installed" >"$T/state.tmux"
FAKE_UID=1000 deps; rc=$?
[ $rc = 1 ] || no "non-root without sudo: exit $rc, want 1"
grep -q 'sudo apt-get install -y tmux' "$T/err" || no "non-root: no command to run: $(cat "$T/err")"
[ -e "$T/log" ] && no "non-root ran apt-get"

# A held lock (dpkg takes fcntl locks): waited for, said so, then installed.
: >"$T/lock"
# The holder says when it has the lock (python3 can take over a second to
# start on a loaded machine), then keeps it for 2 s.
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w"); fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close(); time.sleep(2)' "$T/lock" "$T/locked" &
lockpid=$!
i=0; while [ ! -e "$T/locked" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$T/locked" ] || no "held lock: the lock holder did not start in 30 s"
touch "$T/lists/x_Packages"
deps; rc=$?
[ $rc = 0 ] || no "held lock: exit $rc: $(cat "$T/err")"
grep -q 'waiting for the dpkg lock' "$T/err" || no "held lock: no waiting message: $(cat "$T/err")"
grep -q 'install .* tmux$' "$T/log" 2>/dev/null || no "held lock: not installed after it was freed"
grep -q 'update' "$T/log" 2>/dev/null && no "fresh lists refreshed again"

pkgs=$(scripts/install-deps --list)
for p in libcmocka-dev tmux procps man-db valgrind libxml2-utils librsvg2-bin python3 locales \
  clang-format; do
  echo " $pkgs " | grep -q " $p " || no "install-deps does not install $p"
done
for p in cmocka tmux valgrind; do
  echo "unknown ok not-installed" >"$T/state.lib$p-dev"
  echo "unknown ok not-installed" >"$T/state.$p"
done
deps --build
grep -qE 'cmocka|tmux|valgrind' "$T/log" 2>/dev/null && no "--build installs test packages: $(cat "$T/log")"

[ $fail = 0 ] && echo "deps: ok"
exit $fail
