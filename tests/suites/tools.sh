#!/bin/sh
# SPDX-License-Identifier: MIT
# Every tool a test runs is installed by scripts/install-deps, so a fresh
# machine that ran it passes `make test`, and no test quietly skips a check
# because its tool is missing. When a test starts using another tool, add
# it here and its package to scripts/install-deps.
fail=0
for t in tmux pgrep ps man valgrind xmllint rsvg-convert python3 localedef timeout stty awk \
  clang-format; do
  command -v "$t" >/dev/null 2>&1 ||
    { echo "tools.sh: '$t' is not installed (scripts/install-deps installs it)"; fail=1; }
done
# localedef needs the locale sources to build a comma-decimal locale.
[ -f /usr/share/i18n/locales/de_DE ] && [ -f /usr/share/i18n/charmaps/UTF-8.gz ] ||
  { echo "tools.sh: no locale sources for de_DE.UTF-8 (package locales)"; fail=1; }
# install-deps itself: nothing it would install is missing now.
out=$(scripts/install-deps 2>&1) || { echo "tools.sh: install-deps failed: $out"; fail=1; }
[ -z "$out" ] || { echo "tools.sh: install-deps still finds packages missing: $out"; fail=1; }
[ $fail = 0 ] && echo "tools: ok"
exit $fail
