#!/bin/sh
# SPDX-License-Identifier: MIT
# practice, progress and report as a teacher and a student use them:
# worksheets are the same for the same seed and differ between seeds; the
# JSON has kind, question and answer; a progress file written by hand comes
# out of `progress --json` with the numbers it holds, and `report` over three
# students' files counts them (every figure below is read off the files
# written here, by hand).
bin=${1:?usage: practice.sh BINARY}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
fail=0
no() { echo "practice.sh: $*"; fail=1; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

# Worksheets: deterministic per seed, different across seeds, every kind.
"$bin" practice --print --seed 7 --count 6 >"$T/a" || no "practice --print failed"
"$bin" practice --print --seed 7 --count 6 >"$T/b"
cmp -s "$T/a" "$T/b" || no "the same seed printed two different worksheets"
"$bin" practice --print --seed 8 --count 6 >"$T/c"
cmp -s "$T/a" "$T/c" && no "seeds 7 and 8 printed the same worksheet"
for k in mapping predict bottleneck tier placement; do
  grep -q "($k, level 1, seed" "$T/a" || no "a worksheet of 6 has no $k exercise"
done
# Exercise 2 of the sheet from seed 7 is exercise 1 from seed 8.
sed -n '/^Exercise 2\./,/^Exercise 3\./p' "$T/a" | sed '1d;$d' >"$T/a2"
sed -n '/^Exercise 1\./,/^Exercise 2\./p' "$T/c" | sed '1d;$d' >"$T/c1"
cmp -s "$T/a2" "$T/c1" || no "exercise 2 of seed 7 differs from exercise 1 of seed 8"
"$bin" practice --print --json --seed 3 --count 9 --level 3 >"$T/j" || no "practice --json failed"
python3 - "$T/j" <<'PY' || no "practice --json is not one object per line with kind, question, answer"
import json, sys
kinds = set()
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["question"] and o["answer"] and o["worked"], o
    assert o["level"] == 3
    kinds.add(o["kind"])
    if o["kind"] == "predict":
        assert o["value"] > 0 and 0 < o["tolerance"] <= 0.25
    if o["kind"] == "mapping":
        assert o["par"] >= 2 and o["best_step_s"] > 0
    if o["kind"] == "placement":
        assert o["par"] >= 1 and o["answer"].startswith("swap "), o
    if o["kind"] == "tier":
        assert o["tier"] in ("scale-up domain", "leaf switches", "spine", "site link"), o
assert kinds == {"mapping", "predict", "bottleneck", "tier", "placement"}, kinds
PY
"$bin" practice --print --kind nope >/dev/null 2>"$T/err"; [ $? = 2 ] || no "--kind nope is not a usage error"
grep -q '^scalelab practice: ' "$T/err" || no "practice error not prefixed: $(cat "$T/err")"
"$bin" practice --json >/dev/null 2>&1; [ $? = 2 ] || no "--json without --print is not a usage error"

# Two lessons of our own: "mini" (0 text, 1 quiz "Where TP lives", 2 quiz
# "The drop") and "other" (one text page).
mkdir -p "$T/lessons" "$T/s1/scalelab" "$T/s2/scalelab" "$T/s3/scalelab"
cat >"$T/lessons/mini.lua" <<'LUA'
local function quiz(title)
  return { kind = "quiz", title = title, text = "Where should TP groups live?",
    choices = {
      { text = "Inside one NVLink domain", correct = true, explain = "TP talks every layer." },
      { text = "Spread over the network", correct = false, explain = "Layers would wait." },
    } }
end
return { id = "mini", title = "Mini", summary = "s", track = "T", order = 1,
  pages = { { kind = "text", title = "Intro", text = "Hello." },
            quiz("Where TP lives"), quiz("The drop") } }
LUA
cat >"$T/lessons/other.lua" <<'LUA'
return { id = "other", title = "Other", summary = "s", track = "T", order = 2,
  pages = { { kind = "text", title = "Intro", text = "Hello." } } }
LUA
# A student's progress, written by hand in the store's format (version 2;
# page fields: PAGE HINTS MET ANSWER CORRECT FIRST TRIES SEARCH REVIEWS
# REVIEW_OK MOVES): lesson mini done; page 1 missed first, right on try 2;
# page 2 right at once; 3 hints on page 0; lesson other started; practice:
# mapping 4 tried, 3 first try, streak 2; predict 2 tried, 0 first; level 2.
cat >"$T/s1/scalelab/progress" <<'STATE'
scalelab-progress 2
seed 1f
lesson mini done 2
page mini 0 3 0 -1 0 -1 0 0 0 0 0
page mini 1 0 0 0 1 0 2 0 0 0 0
page mini 2 0 0 0 1 1 1 0 0 0 0
lesson other started 0
practice mapping 4 3 2
practice predict 2 0 0
practice-level 2
STATE
# Two more students: one missed page 1 too and is still on it; one has done
# nothing but practise.
cat >"$T/s2/scalelab/progress" <<'STATE'
scalelab-progress 2
seed 2a
lesson mini started 1
page mini 1 0 0 1 0 0 1 0 0 0 0
STATE
cat >"$T/s3/scalelab/progress" <<'STATE'
scalelab-progress 2
seed 3b
practice bottleneck 5 5 5
STATE
for s in s1 s2 s3; do
  XDG_STATE_HOME=$T/$s HOME=$T "$bin" progress --lessons "$T/lessons" --json --name "$s" \
    >"$T/$s.json" ||
    no "progress --json failed for $s"
done
python3 - "$T/s1.json" <<'PY' || no "progress --json does not hold what the file holds"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["format"] == "scalelab-progress" and o["learner"] == "s1"
les = {l["id"]: l for l in o["lessons"]}
assert set(les) == {"mini", "other"}
bc = les["mini"]
assert bc["status"] == "done" and bc["last_page"] == 2 and bc["hints"] == 3 and bc["pages"] == 3, bc
q = {x["page"]: x for x in bc["questions"]}
assert set(q) == {1, 2} and q[1]["title"] == "Where TP lives", q
assert q[1]["tried"] and q[1]["right"] and not q[1]["first_try"] and q[1]["tries"] == 2, q
assert q[2]["tried"] and q[2]["right"] and q[2]["first_try"] and q[2]["tries"] == 1, q
assert les["other"]["status"] == "started" and les["other"]["questions"] == []
assert o["practice"]["mapping"] == {"tried": 4, "first_try": 3, "streak": 2}
assert o["practice"]["predict"]["tried"] == 2 and o["practice"]["level"] == 2
PY
XDG_STATE_HOME=$T/s1 HOME=$T "$bin" progress --lessons "$T/lessons" >"$T/text" ||
  no "progress (text) failed"
grep -q 'Lessons: 1 of 2 done, 1 started' "$T/text" || no "progress text: $(head -3 "$T/text")"
grep -q '\[x\] Mini .* 1 of 2 questions right on the first try, 3 hints' "$T/text" ||
  no "progress text of mini: $(grep Mini "$T/text")"
grep -q 'mapping .* 4 tried, 3 right on the first try, streak 2' "$T/text" ||
  no "progress text has no practice line: $(tail -4 "$T/text")"

"$bin" report "$T/s1.json" "$T/s2.json" "$T/s3.json" >"$T/report" 2>"$T/err" ||
  no "report failed: $(cat "$T/err")"
grep -q '^Class report: 3 students (3 files)' "$T/report" || no "report header: $(head -1 "$T/report")"
grep -Eq '^s1 +1 +1 +1/2 \(50%\) +3 +3/6$' "$T/report" || no "report row of s1: $(grep '^s1' "$T/report")"
grep -Eq '^s3 +0 +0 +- +0 +5/5$' "$T/report" || no "report row of s3: $(grep '^s3' "$T/report")"
# Page 1 of mini was missed by s1 and s2: first in the list, "2 of 2", shown
# as page 2 (pages count from 1 on screen).
sed -n '/^Missed on the first try/{n;p}' "$T/report" | grep -q '2 of 2  mini page 2 (quiz): Where TP lives' ||
  no "most missed question: $(sed -n '/^Missed/,$p' "$T/report")"
"$bin" report --json "$T/s1.json" "$T/s2.json" "$T/s3.json" >"$T/rj" || no "report --json failed"
python3 - "$T/rj" <<'PY' || no "report --json does not count the files"
import json, sys
o = json.load(open(sys.argv[1]))
st = {s["name"]: s for s in o["students"]}
assert st["s1"]["lessons"]["mini"] == "done" and st["s2"]["lessons"]["mini"] == "started"
assert st["s3"]["lessons"]["mini"] == "new" and st["s3"]["practice_tried"] == 5
m = o["missed_first_try"]
assert m[0]["missed"] == 2 and m[0]["tried"] == 2 and m[0]["page"] == 1, m
assert len(m) == 1, m  # page 2 was right at once for s1
assert o["bad_files"] == 0
PY
# A file that is not a progress file, with control bytes in its name and text:
# named with the reason, escaped, skipped, exit 1 after the report.
printf '{"format":"x\033]52;c;Zm9v\007"}' >"$T/bad$(printf '\033')[2J.json"
"$bin" report "$T/s1.json" "$T"/bad*.json >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 1 ] || no "report with a bad file exits $rc, want 1"
grep -q 'bad\\x1b\[2J.json: ' "$T/err" || no "bad file not named, escaped: $(cat "$T/err")"
LC_ALL=C grep -q "$(printf '\033')" "$T/err" "$T/out" && no "raw escape bytes reached the output"
grep -q '^Class report: 1 student (2 files)' "$T/out" || no "the good file was not reported"

[ $fail = 0 ] && echo "practice: ok"
exit $fail
