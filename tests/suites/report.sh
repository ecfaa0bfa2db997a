#!/bin/sh
# SPDX-License-Identifier: MIT
# report — what a teacher sees of a class. Three students work through the
# lessons of tests/report/lessons in the real program (tmux, each with a
# state folder of their own); each hands in `scalelab progress --json`, one
# of them twice under two names; `report` and `report --csv` must say who is
# stuck on which page, what is left, when each was last active, and count
# the duplicate once. Then: every progress file version scalelab has written
# (tests/report/fixtures, and files this build writes) reads as the same
# record; CSV cells are RFC 4180 and safe in a spreadsheet; only lessons
# actually opened are counted.
# Usage: sh tests/suites/report.sh BINARY   (cwd = repository root)
bin=${1:?usage: report.sh BINARY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
suite=report
. scripts/tmux-lib.sh
lessons=$(pwd)/tests/report/lessons
fixtures=$(pwd)/tests/report/fixtures
export TZ=UTC

# student NAME: a fresh session of the program for NAME, on the menu.
student() {
  mkdir -p "$tmp/$1/state"
  session 80 24 "env -u NO_COLOR USER=$1 HOME=$tmp/$1 XDG_STATE_HOME=$tmp/$1/state LC_ALL=$utf8 LANG=$utf8 $bin --lessons $lessons; echo EXITED-\$?; sleep 60"
  wait_for "[ ] Class basics"
}
# choice_key TEXT: the number before the quiz choice that reads TEXT (each
# learner sees the choices in an order of their own).
choice_key() {
  screen | sed -n "s/^ *\([1-9]\)) .*$1.*/\1/p" | head -n 1
}
leave() {
  keys Escape
  wait_for "scalelab - lessons"
  keys q
  wait_for "EXITED-0"
}

# --- alice: all of lesson 1 right, on to lesson 2 from the end screen,
# stops at its quiz without answering ---
student alice
keys Enter
wait_for "Class basics — page 1/5"
keys n
wait_for "Which tier is faster per GPU?"
keys "$(choice_key 'Scale-up (NVLink)')"
wait_for "Right, at the first try."
keys n
wait_for "Make one TP group span both servers."
keys Right Right Right Space Down Enter
wait_for "[met"
keys n
wait_for "How long does the copy take?"
keys 2 . 2 2 Space m s Enter
wait_for "Right at the first try."
keys n
wait_for "page 5/5"
keys n
wait_for "Lesson mastered"
wait_for "Next lesson: Class next. Enter opens it."
wait_for "First try: 2 of 2 questions right (100%)"
keys Enter
wait_for "Class next — page 1/2"
keys n
wait_for "Where should TP groups live?"
leave

# --- bob: the quiz right, then two hints on the scenario and no solution ---
student bob
keys Enter n
wait_for "Which tier is faster per GPU?"
keys "$(choice_key 'Scale-up (NVLink)')"
wait_for "Right, at the first try."
keys n
wait_for "Make one TP group span both servers."
keys h
wait_for "Hint 1/3"
keys h
wait_for "Hint 2/3"
leave

# --- carol: the quiz wrong once, and she stops there ---
student carol
keys Enter n
wait_for "Which tier is faster per GPU?"
keys "$(choice_key 'Scale-out (InfiniBand)')"
wait_for "A NIC is slower."
leave

# --- each hands in `progress --json`; bob twice, under two names ---
mkdir -p "$tmp/class"
for s in alice bob carol; do
  (cd "$tmp" && env USER=$s HOME="$tmp/$s" XDG_STATE_HOME="$tmp/$s/state" \
    "$bin" progress --json --lessons "$lessons" >"$tmp/class/$s.json") ||
    no "progress --json failed for $s"
done
cp "$tmp/class/bob.json" "$tmp/class/bob (copy).json"

# --- the report ---
"$bin" report "$tmp/class/"*.json >"$tmp/report" 2>"$tmp/err" || no "report failed: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && no "report wrote on stderr: $(cat "$tmp/err")"
[ "$(head -n 1 "$tmp/report")" = "Class report: 3 students (4 files, 1 duplicate), 2 lessons opened" ] ||
  no "report header: $(head -n 1 "$tmp/report")"
# The last one active (to the second; in a tie, the first in name order).
last=$(python3 -c 'import json, sys
t = [(-json.load(open("%s/class/%s.json" % (sys.argv[1], n)))["last_active"], n) for n in sys.argv[2:]]
print(min(t)[1])' "$tmp" alice bob carol)
sed -n 2p "$tmp/report" | grep -Eq "^Last activity: 20[0-9]{2}-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9] \\($last\\)\$" ||
  no "last activity line (want $last): $(sed -n 2p "$tmp/report")"
sed -n 3,4p "$tmp/report" | tr '\n' ' ' | grep -Eq '^Counted once: .*/bob( \(copy\))?\.json is the same record of +bob as .*/bob( \(copy\))?\.json $' ||
  no "the duplicate is not named: $(sed -n 3,4p "$tmp/report")"
awk 'length > 80 { print "line " NR " has " length " columns: " $0 }' "$tmp/report" >"$tmp/wide"
[ -s "$tmp/wide" ] && no "the report is wider than 80 columns: $(head -n 2 "$tmp/wide")"
# A section with its wrapped lines joined back.
section() {
  sed -n "/^$1/,/^\$/p" "$tmp/report" | awk '/^                     / { sub(/^ +/, " "); line = line $0; next }
    { if (line != "") print line; line = $0 } END { if (line != "") print line }'
}
# Who is stuck on which page, at a glance: one group per page, who and how
# far each got.
sed -n '/^Stuck now/,/^$/p' "$tmp/report" >"$tmp/stuck"
cat >"$tmp/want" <<'TXT'
Stuck now, by page (stopped on an exercise not passed yet):
  L1 Class basics, page 2 of 5: quiz "Which tier", 1 student
      carol (1 try)
  L1 Class basics, page 3 of 5: scenario "Cross the boundary", 1 student
      bob (2 hints)
  L2 Class next, page 2 of 2: quiz "Where TP lives", 1 student
      alice

TXT
cmp -s "$tmp/want" "$tmp/stuck" || no "who is stuck where: $(diff "$tmp/want" "$tmp/stuck")"
when='20[0-9-]{8} [0-9:]{5}'
section 'Where each student stopped' >"$tmp/grid"
grep -Eq "^  alice +$when +done +2/2!$" "$tmp/grid" || no "grid row of alice: $(grep alice "$tmp/grid")"
grep -Eq "^  bob +$when +3/5! +\\.$" "$tmp/grid" || no "grid row of bob: $(grep bob "$tmp/grid")"
grep -Eq "^  carol +$when +2/5! +\\.$" "$tmp/grid" || no "grid row of carol: $(grep carol "$tmp/grid")"
grep -q '^  L1 class-basics: Class basics (5 pages; opened by 3, done by 1)$' "$tmp/grid" ||
  no "lesson 1 legend: $(grep L1 "$tmp/grid")"
section 'Left to do' >"$tmp/left"
grep -q '^  alice  *nothing$' "$tmp/left" || no "alice has something left: $(grep alice "$tmp/left")"
grep -q '^  bob  *L1: page 3 scenario "Cross the boundary": not met (2 hints)$' "$tmp/left" ||
  no "what bob has left: $(grep bob "$tmp/left")"
grep -q '^  carol  *L1: page 2 quiz "Which tier": not right (1 try)$' "$tmp/left" ||
  no "what carol has left: $(grep carol "$tmp/left")"
sed -n '/^Missed on the first try/{n;p}' "$tmp/report" | grep -q '^  1 of 3  class-basics page 2 (quiz): Which tier$' ||
  no "most missed: $(sed -n '/^Missed/,$p' "$tmp/report")"

# --- the same as CSV for a gradebook ---
"$bin" report --csv "$tmp/class/"*.json >"$tmp/csv" || no "report --csv failed"
want='student,file,duplicates,last_active,lessons_done,lessons_started,first_try_right,questions_tried,hints,practice_first_try,practice_tried,stuck_on,left_to_do,class-basics status,class-basics page,class-basics pages,class-next status,class-next page,class-next pages'
[ "$(head -n 1 "$tmp/csv" | tr -d '\r')" = "$want" ] || no "CSV header: $(head -n 1 "$tmp/csv")"
[ "$(grep -c "$(printf '\r')\$" "$tmp/csv")" = 4 ] || no "CSV rows do not end in CRLF"
python3 - "$tmp/csv" <<'PY' || no "the CSV does not say who is stuck where"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [r["student"] for r in rows] == ["alice", "bob", "carol"], rows
st = {r["student"]: r for r in rows}
for r in rows:
    assert re.fullmatch(r"20\d\d-\d\d-\d\d \d\d:\d\d", r["last_active"]), r
a, b, c = st["alice"], st["bob"], st["carol"]
assert a["class-basics status"] == "done" and a["class-next status"] == "started", a
assert a["class-next page"] == "2" and a["class-next pages"] == "2", a
assert a["stuck_on"] == 'class-next page 2: quiz "Where TP lives": not answered yet', a
assert a["first_try_right"] == "2" and a["questions_tried"] == "2" and a["lessons_done"] == "1", a
assert b["stuck_on"] == 'class-basics page 3: scenario "Cross the boundary": goal not met, 2 hints', b
assert b["class-basics page"] == "3" and b["class-next status"] == "new" and b["class-next page"] == "", b
assert b["hints"] == "2", b
assert {b["file"].split("/")[-1], b["duplicates"].split("/")[-1]} == {"bob.json", "bob (copy).json"}, b
assert c["stuck_on"] == 'class-basics page 2: quiz "Which tier": not right yet (1 try)', c
assert c["left_to_do"] == 'class-basics: page 2 quiz "Which tier": not right (1 try)', c
assert c["first_try_right"] == "0" and c["questions_tried"] == "1", c
PY
"$bin" report --json "$tmp/class/"*.json >"$tmp/rj" || no "report --json failed"
python3 - "$tmp/rj" <<'PY' || no "report --json does not say who is stuck where"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["files"] == 4 and o["duplicate_files"] == 1 and o["lessons_opened"] == 2, o
st = {s["name"]: s for s in o["students"]}
assert sorted(st) == ["alice", "bob", "carol"]
w = {(s, x["lesson"]): x for s in st for x in st[s]["where"]}
assert w["alice", "class-next"]["stuck"] and w["alice", "class-next"]["page"] == 1
assert w["alice", "class-basics"]["done"] and not w["alice", "class-basics"]["stuck"]
assert w["bob", "class-basics"]["stuck"] and w["bob", "class-basics"]["page"] == 2
assert w["bob", "class-basics"]["left"] == [{"page": 2, "kind": "scenario",
    "title": "Cross the boundary", "tried": False, "tries": 0, "hints": 2}], w
assert w["carol", "class-basics"]["page"] == 1 and st["carol"]["last_active"] > 1.7e9
PY

# --- a progress file handed in as it is (this build's store): named by its
# folder, read without being changed, the same record as its JSON ---
before=$(cat "$tmp/carol/state/scalelab/progress"; ls -la "$tmp/carol/state/scalelab")
"$bin" report --json --lessons "$lessons" "$tmp/carol/state/scalelab/progress" >"$tmp/rs" ||
  no "report on a store file failed"
[ "$before" = "$(cat "$tmp/carol/state/scalelab/progress"; ls -la "$tmp/carol/state/scalelab")" ] ||
  no "report changed the store file or its folder"
python3 - "$tmp/rs" "$tmp/rj" <<'PY' || no "the store file does not read as carol's JSON"
import json, sys
s, j = (json.load(open(p)) for p in sys.argv[1:])
one = s["students"][0]
carol = [x for x in j["students"] if x["name"] == "carol"][0]
assert one["name"] == "carol", one["name"]
for k in ("where", "done", "started", "questions", "first_try", "hints", "last_active"):
    assert one[k] == carol[k], (k, one[k], carol[k])
PY

# --- every version scalelab has written reads as the same record: dana,
# stuck on the scenario with 2 hints, the quiz missed twice ---
"$bin" report --json --lessons "$lessons" "$fixtures/json-v1.json" "$fixtures/store-v1/progress" \
  "$fixtures/store-v2/progress" "$fixtures/store-v2-practice/progress" >"$tmp/old" 2>"$tmp/err" ||
  no "old files: $(cat "$tmp/err")"
python3 - "$tmp/old" <<'PY' || no "an old file version does not read right"
import json, sys
o = json.load(open(sys.argv[1]))
st = {s["name"]: s for s in o["students"]}
assert sorted(st) == ["dana", "store-v1", "store-v2", "store-v2-practice"], sorted(st)
for name, s in st.items():
    (w,) = s["where"]
    assert w["lesson"] == "class-basics" and w["page"] == 2 and w["stuck"], (name, w)
    assert w["stuck_on"] == 'scenario "Cross the boundary": goal not met, 2 hints', (name, w)
    assert [x["page"] for x in w["left"]] == [1, 2] and s["hints"] == 2, (name, w)
    assert s["last_active"] == 0, name  # not kept before version 3
# Version 1 kept only the last answer: the quiz counts as not right, but
# no first try is known.
assert st["store-v1"]["questions"] == 0 and st["store-v2"]["questions"] == 1
assert st["dana"]["practice_tried"] == 1 and st["store-v2-practice"]["practice_tried"] == 1
PY

# --- CSV cells a spreadsheet would run as formulas, and RFC 4180 quoting ---
python3 - "$fixtures/json-v1.json" "$tmp" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
for i, n in enumerate(['=HYPERLINK("http://x","y")', "+1", "-2+3", "@SUM(A1)", 'Smith, "Jo"']):
    o["learner"] = n
    json.dump(o, open("%s/evil%d.json" % (sys.argv[2], i), "w"))
PY
"$bin" report --csv "$tmp"/evil*.json >"$tmp/evil.csv" || no "report --csv on odd names failed"
python3 - "$tmp/evil.csv" <<'PY' || no "CSV cells are not defused or not quoted"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
names = sorted(r[0] for r in rows[1:])
assert names == sorted(["'=HYPERLINK(\"http://x\",\"y\")", "'+1", "'-2+3", "'@SUM(A1)",
                        'Smith, "Jo"']), names
assert all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
PY
grep -q '^"'"'"'=HYPERLINK(""http' "$tmp/evil.csv" || no "a formula cell is not quoted: $(grep HYPER "$tmp/evil.csv")"

# --- only lessons opened are counted: 12 listed, 2 opened ---
python3 - "$fixtures/json-v1.json" "$tmp/many.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
extra = [dict(o["lessons"][1], id="extra-%d" % i, title="Extra %d" % i) for i in range(10)]
o["lessons"][1]["status"] = "done"
o["lessons"] += extra
json.dump(o, open(sys.argv[2], "w"))
PY
"$bin" report "$tmp/many.json" >"$tmp/many" || no "report over 12 lessons failed"
grep -q '^Class report: 1 student (1 file), 2 lessons opened$' "$tmp/many" ||
  no "lessons opened miscounted: $(head -n 1 "$tmp/many")"

"$bin" report --json --csv "$tmp/many.json" >/dev/null 2>&1; [ $? = 2 ] || no "--json --csv is not a usage error"

[ $fail = 0 ] && echo "report: ok"
exit $fail
