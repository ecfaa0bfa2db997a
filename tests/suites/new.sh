#!/bin/sh
# SPDX-License-Identifier: MIT
# new — `scalelab new NAME` writes a lesson skeleton that passes `scalelab
# check` as written (by a plain name into the current folder, and by a path),
# never overwrites a file, names the authoring guide of the source tree or
# of the install, and refuses bad names with one line and exit 2.
# Usage: sh tests/suites/new.sh BINARY   (cwd = repository root)
set -u
bin=${1:?usage: new.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
# The skeleton is an asset: a binary built outside the tree's top folder
# (the sanitizer build's build/san/scalelab) finds the tree's assets this way.
SCALELAB_ASSETS=${SCALELAB_ASSETS:-$(pwd)/assets}
export SCALELAB_ASSETS
T=$(mktemp -d "${TMPDIR:-/tmp}/scalelab-new.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "new.sh: FAIL: $*"; fail=1; }

# 1. A plain name: ID.lua in the current folder, id slugified; check passes.
out=$(cd "$T" && "$bin" new "My First Lesson" 2>"$T/err")
rc=$?
[ $rc = 0 ] || bad "new 'My First Lesson' exited $rc: $(cat "$T/err")"
[ -s "$T/my-first-lesson.lua" ] || bad "new did not write my-first-lesson.lua"
echo "$out" | grep -q "my-first-lesson.lua" || bad "new did not say where it wrote: '$out'"
grep -q 'id = "my-first-lesson"' "$T/my-first-lesson.lua" || bad "skeleton id is not the slug"
grep -q 'title = "My first lesson"' "$T/my-first-lesson.lua" || bad "skeleton title"
"$bin" check "$T/my-first-lesson.lua" >"$T/out" 2>"$T/err" ||
  bad "the skeleton does not pass check: $(head -c 600 "$T/err")"

# 2. Every page kind the brief asks for, a goal with a target, hints, a
# debrief function, solution and par; and it is the asset, id and title
# filled in, nothing else.
for want in 'kind = "text"' 'kind = "diagram"' 'kind = "scenario"' 'kind = "quiz"' \
            'kind = "predict"' 'title = "Summary"' 'goal = {' 'target = {' 'hints = {' \
            'debrief = function(r)' 'solution = {' 'par = 2' 'terms = {' 'formula ='; do
  grep -qF "$want" "$T/my-first-lesson.lua" || bad "skeleton lacks $want"
done
# From a source tree the skeleton names the tree's guide, by its full path.
guide=$(cd lessons && pwd -P)/AUTHORING.md
sed "s/@ID@/my-first-lesson/g; s/@TITLE@/My first lesson/g; s|@GUIDE@|$guide|g" assets/new-lesson.lua |
  cmp -s - "$T/my-first-lesson.lua" || bad "new did not write assets/new-lesson.lua as it is"
grep -q '@' "$T/my-first-lesson.lua" && bad "a placeholder is left in the skeleton"
# Without the asset: one line naming it, exit 2, nothing written.
(cd "$T" && SCALELAB_ASSETS="$T/none" "$bin" new nowhere) >"$T/out" 2>"$T/err"
[ $? = 2 ] || bad "new without its asset did not exit 2"
grep -q 'new-lesson.lua' "$T/err" || bad "new without its asset: $(cat "$T/err")"
[ -e "$T/nowhere.lua" ] && bad "new without its asset wrote a file"

# Installed (the assets without a source tree's lessons beside them), it
# names the installed guide under the configured prefix's doc folder.
mkdir "$T/share" && cp assets/new-lesson.lua "$T/share/"
(cd "$T" && SCALELAB_ASSETS="$T/share" "$bin" new installed) >/dev/null 2>"$T/err" ||
  bad "new from installed assets: $(cat "$T/err")"
sed -n 4p "$T/installed.lua" | grep -Eq '^-- The whole format .*: /.*/share/doc/scalelab/AUTHORING\.md$' ||
  bad "an installed skeleton does not name the installed guide: $(sed -n 4p "$T/installed.lua")"

# 3. A path ending in .lua, in another folder; two skeletons check together
# (their ids differ). A path without .lua (README's 'scalelab new
# lessons/my-lesson') gets it, the file named by the id.
mkdir "$T/lessons"
"$bin" new "$T/lessons/Scale_Out.lua" >/dev/null 2>"$T/err" || bad "new PATH.lua: $(cat "$T/err")"
grep -q 'id = "scale-out"' "$T/lessons/Scale_Out.lua" || bad "path skeleton id is not scale-out"
out=$("$bin" new "$T/lessons/Pipeline Bubble" 2>"$T/err") || bad "new DIR/NAME: $(cat "$T/err")"
[ -s "$T/lessons/pipeline-bubble.lua" ] || bad "new DIR/NAME did not write DIR/pipeline-bubble.lua: $out"
grep -q 'id = "pipeline-bubble"' "$T/lessons/pipeline-bubble.lua" || bad "DIR/NAME skeleton id"
"$bin" check "$T/lessons/pipeline-bubble.lua" >/dev/null 2>"$T/err" ||
  bad "the DIR/NAME skeleton does not pass check: $(head -c 600 "$T/err")"
"$bin" check "$T/lessons/Scale_Out.lua" "$T/my-first-lesson.lua" >/dev/null 2>"$T/err" ||
  bad "two skeletons do not pass check: $(head -c 600 "$T/err")"

# 4. Never overwrite; bad names: one line on stderr, exit 2, nothing written.
cp "$T/my-first-lesson.lua" "$T/before"
long=$(printf '%060d' 0)
for name in "$T/my-first-lesson.lua" "" "a/b" "!!!" "$long" "$T/lessons/.lua" \
            "$T/no/such/dir/x.lua" "--bogus"; do
  (cd "$T" && "$bin" new "$name") >"$T/out" 2>"$T/err"
  rc=$?
  [ $rc = 2 ] || bad "new '$name' exited $rc, not 2"
  [ "$(wc -l <"$T/err")" = 1 ] || bad "new '$name': not one line on stderr"
  [ -s "$T/out" ] && bad "new '$name' printed on stdout"
done
(cd "$T" && "$bin" new my-first-lesson) >/dev/null 2>&1 && bad "new over an existing file exited 0"
cmp -s "$T/before" "$T/my-first-lesson.lua" || bad "new changed an existing file"
[ -e "$T/a" ] && bad "new 'a/b' created something"
"$bin" new >/dev/null 2>&1; [ $? = 2 ] || bad "new without a name did not exit 2"
"$bin" new a b >/dev/null 2>&1; [ $? = 2 ] || bad "new with two names did not exit 2"
"$bin" new --help | grep -q 'Usage: scalelab new' || bad "new --help"

[ $fail = 0 ] && echo "new: ok"
exit $fail
