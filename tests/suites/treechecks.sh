#!/bin/sh
# SPDX-License-Identifier: MIT
# The checks `make test` runs on the tree itself catch what they are for,
# on a copy of the tree with one breach planted at a time:
# - check-layers: an include that goes up a layer, or between peers;
# - check-spdx: a source without its licence line;
# - check-cites: a path outside the tree (a sibling folder through "..", a
#   machine's working folder), a design file that does not resolve, a source
#   path that does not exist; another project's file named after its
#   repository, or a path as it was at a commit, is not flagged.
# The copy as it is passes all three.
fail=0
no() { echo "treechecks.sh: $*"; fail=1; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$T"
else # a tree without git (check-minroot's copy): everything but the build
  tar --exclude=./build --exclude=./scalelab -cf - . | tar -xf - -C "$T"
fi
# A built tree that is not a git checkout (a release tarball, the minimal
# root of check-minroot): the program is there and is no source.
[ -n "${1:-}" ] && [ -f "$1" ] && cp "$1" "$T/scalelab"
# run CHECK: the checker on the copy, its output in $T.out.
run() { "scripts/$1" "$T" >"$T.out" 2>&1; }
for c in check-layers check-spdx check-cites; do
  run $c || no "$c fails on the tree as it is: $(head -n 3 "$T.out")"
done

# One breach, the check that must name it, and the words it must say.
plant() { # FILE TEXT (appended)
  cp "$T/$1" "$T.saved"
  printf '%s\n' "$2" >>"$T/$1"
}
unplant() { cp "$T.saved" "$T/$1"; }
expect() { # CHECK FILE WORDS
  if run "$1"; then no "$1 passes with a breach planted in $2"
  elif ! grep -F "$2" "$T.out" | grep -qF "$3"; then no "$1 does not say '$3' for $2: $(head -n 2 "$T.out")"
  fi
}

plant src/model/units.c '#include "draw/canvas.h"'
expect check-layers src/model/units.c "includes draw/"
unplant src/model/units.c
plant src/learn/quiz.c '#include "store/progress.h"'
expect check-layers src/learn/quiz.c "includes store/"
unplant src/learn/quiz.c

sed -i '/SPDX-License-Identifier/d' "$T/src/base/clock.c"
expect check-spdx src/base/clock.c "no 'SPDX-License-Identifier: MIT' line"
cp src/base/clock.c "$T/src/base/clock.c"

up=..  # the planted citations are built from pieces, so this file cites none
plant docs/DESIGN.md "See $up/$up/shared/NOTES.md for more."
expect check-cites docs/DESIGN.md "outside the tree"
unplant docs/DESIGN.md
w=work
plant scripts/check-format "# the rules: /$w/shared/STYLE.md"
expect check-cites scripts/check-format "a folder of one machine"
unplant scripts/check-format
d=DESIGNS
plant .clang-format "# see $d.md"
expect check-cites .clang-format "cites $d.md, which is not in the tree"
unplant .clang-format
plant README.md 'The loop is in src/ui/lo''op.c.'
expect check-cites README.md "cites src/ui/lo""op.c, which is not in the tree"
unplant README.md
plant README.md 'NCCL picks it in NVIDIA/nccl src/graph/tuning.cc; see NVIDIA/nccl-tests (`doc/PERFORMANCE.md`).'
run check-cites || no "check-cites flags another project's files: $(head -n 2 "$T.out")"
unplant README.md
plant README.md 'The store was `src/ui/store.c` at 0123abc.'
run check-cites || no "check-cites flags a path as it was at a commit: $(head -n 2 "$T.out")"
unplant README.md

[ $fail = 0 ] && echo "treechecks: ok"
exit $fail
