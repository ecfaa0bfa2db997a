#!/bin/sh
# SPDX-License-Identifier: MIT
# svg — `scalelab render VIEW --svg FILE` writes valid SVG for every view
# (parsed by xmllint; converted to PNG by rsvg-convert when installed) and
# says where; --svg - writes to stdout; an unwritable file is one line and
# exit 2. Also `render --format json`: one object with the documented keys.
# Usage: sh tests/suites/svg.sh BINARY   (cwd = repository root)
set -u
bin=${1:?usage: svg.sh BINARY}
T=$(mktemp -d "${TMPDIR:-/tmp}/scalelab-svg.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "svg.sh: FAIL: $*"; fail=1; }

if ! command -v xmllint >/dev/null 2>&1; then
  echo "svg.sh: FAIL: xmllint not found (Debian package libxml2-utils; run scripts/install-deps)"
  exit 1
fi
have_rsvg=0
command -v rsvg-convert >/dev/null 2>&1 && have_rsvg=1

# 1. Every view on a few systems: a file, the message, valid XML, a PNG.
n=0
for sys in "dgx-h100 --gpus 64 --tp 16" "gb200-nvl72 --gpus 144 --tp 8 --pp 2 --batch 576" \
           "tpu-v5p --gpus 64" "dgx-h100 --gpus 64 --sites 2 --across 400G"; do
  for view in rack fabric bar chart; do
    n=$((n + 1))
    f="$T/v$n.svg"
    # shellcheck disable=SC2086
    out=$("$bin" render $view --system $sys --model llama3-70b --width 100 --load \
          --svg "$f" 2>"$T/err")
    rc=$?
    if [ $rc != 0 ]; then
      bad "render $view --system $sys --svg exited $rc: $(head -c 300 "$T/err")"
      continue
    fi
    [ "$out" = "wrote $view view to $f" ] || bad "render $view --svg printed '$out'"
    [ -s "$T/err" ] && bad "render $view --svg wrote to stderr: $(head -c 300 "$T/err")"
    xmllint --noout "$f" 2>"$T/xerr" ||
      bad "$view on $sys: not valid XML: $(head -c 300 "$T/xerr")"
    grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$f" || bad "$view: no SVG root"
    grep -q '<title>scalelab '"$view"' view: ' "$f" || bad "$view: no title"
    if [ $have_rsvg = 1 ]; then
      if rsvg-convert -o "$T/v$n.png" "$f" 2>"$T/rerr"; then
        # a PNG starts with \211PNG; a blank picture would still be > 1 KB
        magic=$(head -c 4 "$T/v$n.png" | od -An -c | tr -d ' ')
        [ "$magic" = '211PNG' ] || bad "$view: rsvg-convert made no PNG ($magic)"
        [ "$(wc -c <"$T/v$n.png")" -gt 1000 ] || bad "$view: PNG is nearly empty"
      else
        bad "$view on $sys: rsvg-convert refused it: $(head -c 300 "$T/rerr")"
      fi
    fi
  done
done

# 2. The SVG holds the text of the text render (a label of each kind).
"$bin" render fabric --system dgx-h100 --gpus 64 --tp 16 --width 100 --svg "$T/f.svg" >/dev/null
for word in 'spine 1' 'rail 2' 'AAAAAAAA' 'scale-up inside a server'; do
  grep -q ">$word" "$T/f.svg" || grep -q "$word" "$T/f.svg" || bad "fabric SVG lacks '$word'"
done
grep -q '<path fill="none" stroke=' "$T/f.svg" || bad "fabric SVG has no line strokes"

# 3. --svg - writes the document to stdout, and --ascii works too.
"$bin" render rack --system gb200-nvl72 --width 80 --ascii --svg - >"$T/out.svg" 2>"$T/err" ||
  bad "render --svg - failed: $(cat "$T/err")"
head -n 1 "$T/out.svg" | grep -q '^<?xml' || bad "--svg - did not write the SVG to stdout"
xmllint --noout "$T/out.svg" 2>/dev/null || bad "--svg - is not valid XML"

# 4. Unwritable file, or --svg with --describe: one line, exit 2, no output.
for args in "--svg $T/no/such/dir/x.svg" "--svg $T/x.svg --describe" \
            "--svg $T/x.svg --format json" "--format yaml"; do
  # shellcheck disable=SC2086
  "$bin" render rack $args >"$T/out" 2>"$T/err"
  rc=$?
  [ $rc = 2 ] || bad "render rack $args exited $rc, not 2"
  [ "$(wc -l <"$T/err")" = 1 ] || bad "render rack $args: not one line on stderr"
  [ -s "$T/out" ] && bad "render rack $args printed on stdout"
done
[ -e "$T/x.svg" ] && bad "a refused --svg still wrote the file"

# 5. --format json: one object with the documented keys, valid when python3
# can check it.
for view in rack fabric bar chart; do
  "$bin" render $view --system dgx-h100 --gpus 64 --tp 8 --model llama3-70b \
      --format json >"$T/j.json" 2>"$T/err" ||
    bad "render $view --format json failed: $(head -c 300 "$T/err")"
  for key in '"view": "'$view'"' '"cluster": {' '"tiers": [' '"mapping": {' '"groups": [' \
             '"step": {'; do
    grep -qF "$key" "$T/j.json" || bad "render $view --format json lacks $key"
  done
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/j.json" 2>"$T/perr" ||
      bad "render $view --format json is not valid JSON: $(tail -n 1 "$T/perr")"
  fi
done
grep -qF '"chart": {"x": "tp"' "$T/j.json" || bad "chart JSON has no chart points"

rsvg=absent
[ $have_rsvg = 1 ] && rsvg=yes
[ $fail = 0 ] && echo "svg: ok ($n views; rsvg-convert: $rsvg)"
exit $fail
