#!/bin/sh
# The command-line contract: exit codes of the built binary, and the man page
# in step with --help (every command in the table has a section in the man
# page, and the man page names no command the binary does not know).
bin=${1:?usage: cli.sh BINARY}
fail=0
no() { echo "cli.sh: $*"; fail=1; }

"$bin" --help >/dev/null || no "--help did not exit 0"
"$bin" --version | grep -q '^scalelab [0-9]' || no "--version printed no version"
"$bin" --no-such-flag 2>/tmp/cli.$$; [ $? = 2 ] || no "unknown option did not exit 2"
[ "$(wc -l </tmp/cli.$$)" = 1 ] || no "unknown option did not print exactly one line"
rm -f /tmp/cli.$$

man=assets/scalelab.1
if command -v man >/dev/null 2>&1; then
  warn=$(MANWIDTH=80 man --warnings -l "$man" 2>&1 >/dev/null)
  [ -z "$warn" ] || no "man page renders with warnings: $warn"
fi
# Commands in --help: lines "  scalelab NAME ..." (not the bare menu line).
cmds=$("$bin" --help | sed -n 's/^  scalelab \([a-z][a-z-]*\).*/\1/p')
[ -n "$cmds" ] || no "no commands found in --help"
for c in $cmds; do
  grep -q "^\.SS $c\b" "$man" || no "command '$c' is in --help but has no .SS section in $man"
done
for c in $(sed -n 's/^\.SS \([a-z][a-z-]*\).*/\1/p' "$man"); do
  echo "$cmds" | grep -qx "$c" || no "$man documents '$c', which --help does not list"
done
[ $fail = 0 ] && echo "cli: ok"
exit $fail
