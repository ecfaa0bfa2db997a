#!/bin/sh
# SPDX-License-Identifier: MIT
# practice, progress and report as a teacher and a student use them:
# worksheets are the same for the same seed and differ between seeds; the
# students' sheet holds no answer its key gives; a sheet from two shipped
# lessons lists their questions in order; a progress file written by hand comes
# out of `progress --json` with the numbers it holds, and `report` over three
# students' files counts them (every figure below is read off the files
# written here, by hand).
bin=${1:?usage: practice.sh BINARY}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
# Lesson ids are looked up in the source tree's lessons (the binary may be
# build/scalelab, with no lessons folder beside it).
SCALELAB_LESSONS=${SCALELAB_LESSONS:-$PWD/lessons}
export SCALELAB_LESSONS
fail=0
no() { echo "practice.sh: $*"; fail=1; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

# Worksheets: the students' sheet (--print) and its key (--answers), the
# same for the same seed, different across seeds, every kind, numbered alike.
"$bin" practice --print --seed 7 --count 10 >"$T/a" || no "practice --print failed"
"$bin" practice --print --seed 7 --count 10 >"$T/b"
cmp -s "$T/a" "$T/b" || no "the same seed printed two different sheets"
"$bin" practice --answers --seed 7 --count 10 >"$T/k" || no "practice --answers failed"
"$bin" practice --print --answers --seed 7 --count 10 >"$T/k2"
cmp -s "$T/k" "$T/k2" || no "--answers and --print --answers printed two different keys"
"$bin" practice --print --seed 8 --count 10 >"$T/c"
cmp -s "$T/a" "$T/c" && no "seeds 7 and 8 printed the same sheet"
for k in mapping predict bottleneck tier placement; do
  grep -q "^  ($k, level 1)$" "$T/a" || no "a sheet of 10 has no $k exercise"
  grep -q "^  ($k, level 1, seed [0-9]*)$" "$T/k" || no "a key of 10 has no $k exercise"
done
grep '^Exercise' "$T/a" >"$T/ta"
grep '^Exercise' "$T/k" >"$T/tk"
[ "$(wc -l <"$T/ta")" -eq 10 ] || no "the sheet of 10 has $(wc -l <"$T/ta") exercises"
cmp -s "$T/ta" "$T/tk" || no "the sheet and its key number their exercises differently"
grep -Eq '^scalelab practice: 10 exercises, level 1 +seed 7$' "$T/a" ||
  no "sheet header: $(head -1 "$T/a")"
grep -q '^Name: ___' "$T/a" || no "the sheet has no line for the student's name"
grep -Eq '^scalelab practice: ANSWER KEY to 10 exercises, level 1 +seed 7$' "$T/k" ||
  no "key header: $(head -1 "$T/k")"
grep -q '^  scalelab practice --print --seed 7 --count 10 --level 1$' "$T/k" ||
  no "the key does not name the command of its students' sheet"
# Exercise 2 of seed 7 is exercise 1 of seed 8 (key and sheet alike).
"$bin" practice --answers --seed 8 --count 1 >"$T/k8"
sed -n '/^Exercise 2\./,/^Exercise 3\./p' "$T/k" | sed '1d;$d' >"$T/k7-2"
sed -n '/^Exercise 1\./,$p' "$T/k8" | sed '1d' >"$T/k8-1"
cmp -s "$T/k7-2" "$T/k8-1" || no "exercise 2 of seed 7 differs from exercise 1 of seed 8"
# The students' sheet holds no answer text at all: no answer line, worked
# answer, tolerance or explanation of the key; its answer lines are blanks
# with a unit. The key holds every answer and worked answer.
"$bin" practice --answers --json --seed 7 --count 10 >"$T/kj" || no "practice --answers --json failed"
"$bin" practice --print --json --seed 7 --count 10 >"$T/sj" || no "practice --print --json failed"
python3 - "$T/a" "$T/k" "$T/kj" "$T/sj" <<'PY' || no "the students' sheet and the key do not split the answers"
import json, re, sys
sq = lambda s: " ".join(s.split())
sheet, key = open(sys.argv[1]).read(), open(sys.argv[2]).read()
s, k = sq(sheet), sq(key)
items = [json.loads(l) for l in open(sys.argv[3])]
assert len(items) == 10 and [o["number"] for o in items] == list(range(1, 11))
for o in items:
    assert o["answers"] is True
    ans = o["answer"] if "answer_choice" not in o else o["answer_choice"] + ". " + o["answer"]
    for secret in ("Answer: " + ans, o["worked"]):
        assert sq(secret) in k, ("not in the key", secret)
        assert sq(secret) not in s, ("in the students' sheet", secret)
for word in ("(within", "Why:", "Right:", "Formula:", "seed 8", "any mapping that fits"):
    assert word not in sheet, word
blank = re.compile(r"^  Answer: (_{12}( [A-Za-z/]+)?|____ \(a letter\)|TP ____  PP ____  DP ____  "
                   r"(EP ____  )?micro-batch ____|swap ____ and ____)$")
lines = sheet.split("\n")
answers = [i for i, l in enumerate(lines) if l.startswith("  Answer:")]
assert len(answers) == 10, len(answers)
for i in answers:
    assert blank.match(lines[i]), lines[i]
for text in (sheet, key):
    for l in text.split("\n"):
        assert len(l) <= 80 and l == l.rstrip(), l
# JSON: the students' form, choices and no answers.
for o in map(json.loads, open(sys.argv[4])):
    assert o["answers"] is False and o["question"], o
    for secret in ("answer", "answer_choice", "worked", "value", "tolerance", "tier", "best"):
        assert secret not in o, (secret, o)
    if o["kind"] == "bottleneck":
        assert o["choices"][:5] == ["compute", "TP", "PP", "bubble", "DP"], o["choices"]
    if o["kind"] == "tier":
        assert o["choices"] == ["scale-up domain", "leaf switches", "spine", "site link"], o
    if o["kind"] == "predict":
        assert o["answer_unit"] in ("s", "ms", "us", "GB", "TB", "MB"), o
PY
"$bin" practice --answers --json --seed 3 --count 9 --level 3 >"$T/j" || no "practice --json failed"
python3 - "$T/j" <<'PY' || no "practice --answers --json is not one object per line with kind, question, answer"
import json, sys
kinds = set()
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["question"] and o["answer"] and o["worked"] and o["answers"] is True, o
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
        assert o["answer"] == o["tier"] and o["choices"].index(o["tier"]) == ord(o["answer_choice"]) - 65
    if o["kind"] == "bottleneck":
        assert o["choices"][ord(o["answer_choice"]) - 65] == o["answer"], o
assert kinds == {"mapping", "predict", "bottleneck", "tier", "placement"}, kinds
PY
# Articles: "an AMD ...", "an HGX ...", "an 800 Gb/s NIC", and none before
# "8 x H100 servers" (test_practice checks every sentence over many seeds).
"$bin" practice --answers --kind predict --level 2 --seed 300 --count 30 >"$T/p30"
grep -En '(^|[^a-zA-Z])[Aa] (8 x|AMD|AWS|HGX|800 )|(^|[^a-zA-Z])[Aa]n (8 x|DGX|GB|TPU|UALink|100 |400 )' "$T/p30" &&
  no "a wrong article in the predict exercises"
"$bin" practice --print --kind nope >/dev/null 2>"$T/err"; [ $? = 2 ] || no "--kind nope is not a usage error"
grep -q '^scalelab practice: ' "$T/err" || no "practice error not prefixed: $(cat "$T/err")"
"$bin" practice --json >/dev/null 2>&1; [ $? = 2 ] || no "--json without --print is not a usage error"
"$bin" practice two-ways-to-grow >/dev/null 2>&1; [ $? = 2 ] || no "a lesson without --from is not a usage error"
"$bin" practice --from >/dev/null 2>&1; [ $? = 2 ] || no "--from without a lesson is not a usage error"
"$bin" practice --from two-ways-to-grow --count 3 >/dev/null 2>&1; [ $? = 2 ] ||
  no "--from with --count is not a usage error"

# A sheet from two shipped lessons, one named by id and one by path: their
# quiz and predict pages in the order given, each with its page, the expected
# list read off the lesson files here.
L1=lessons/01-two-ways-to-grow.lua L2=lessons/05-bandwidth-cliff.lua
"$bin" practice --from two-ways-to-grow "$L2" >"$T/fa" 2>"$T/ferr" || no "practice --from failed: $(cat "$T/ferr")"
"$bin" practice --from two-ways-to-grow "$L2" --answers >"$T/fk" || no "practice --from --answers failed"
"$bin" practice --from two-ways-to-grow "$L2" --answers --json >"$T/fkj" || no "practice --from --json failed"
"$bin" practice --from two-ways-to-grow "$L2" --seed 2 >"$T/fa2"
python3 - "$L1" "$L2" "$T/fa" "$T/fk" "$T/fkj" "$T/fa2" <<'PY' || no "practice --from does not list the lessons' quizzes and predict pages"
import json, re, sys
sq = lambda s: " ".join(s.split())
want = []
for path in sys.argv[1:3]:
    src = open(path).read()
    lid = re.search(r'^\s*id = "([^"]+)"', src, re.M).group(1)
    pages = re.findall(r'^\s*\{ kind = "(\w+)",.*?title = "([^"]*)"', src, re.M)
    for i, (kind, title) in enumerate(pages):
        if kind in ("quiz", "predict"):
            want.append((title, "(%s, lesson %s, page %d)" % (kind, lid, i + 1)))
assert len(want) == 6, want
sheet, key, seed2 = (open(p).read() for p in (sys.argv[3], sys.argv[4], sys.argv[6]))
def listed(text):
    lines = text.split("\n")
    return [(re.sub(r"^Exercise \d+\. ", "", l), lines[i + 1].strip())
            for i, l in enumerate(lines) if l.startswith("Exercise ")]
assert listed(sheet) == want, listed(sheet)
assert listed(key) == want, listed(key)
assert [l for l in sheet.split("\n") if l.startswith("Exercise")] == \
       ["Exercise %d. %s" % (i + 1, t) for i, (t, _) in enumerate(want)]
assert re.search(r"^scalelab practice: 6 questions from 2 lessons +seed 1$", sheet, re.M)
# The key's answers, worked out by hand: 810 GB / 85.9 GB rounds up to 10
# GPUs; the lab scaled up; 70.6e9 x 18 bytes = 1.27 TB; 600/2 GB/s over 200/8
# GB/s = 12; 400/2 GB/s over 400/8 GB/s = 4x; 1 GB at 100 GB/s = 10 ms.
def letter_of(block, text):
    m = re.search(r"^    ([A-Z])\. " + re.escape(text), block, re.M)
    return m.group(1)
blocks = re.split(r"^Exercise \d+\. ", key, flags=re.M)[1:]
for n, text in ((2, "10 GPUs"), (3, "Scaled up: its fast unit grew from 8 GPUs to 72."),
                (5, "4x: both figures in bytes, both one way."), (6, "10.0 ms")):
    b = blocks[n - 1]
    assert "  Answer: %s. %s" % (letter_of(b, text), text) in b, (n, b)
assert "  Answer: 1.27 TB (within 15%)" in blocks[0], blocks[0]
assert "  Answer: 12 (within 10%)" in blocks[3], blocks[3]
assert "Formula: " in blocks[0] and "Why:" in blocks[1]
# The students' sheet: none of the key's answers, explanations or formulas.
s = sq(sheet)
items = [json.loads(l) for l in open(sys.argv[5])]
assert [o["kind"] for o in items] == ["predict", "quiz", "quiz", "predict", "quiz", "quiz"]
for o in items:
    secrets = o.get("explanations", []) + [o.get("formula", "")]
    if "answer_choice" in o:
        secrets.append("Answer: %s. %s" % (o["answer_choice"], o["answer"]))
    else:
        secrets.append("Answer: " + o["answer"])
    for x in filter(None, secrets):
        assert sq(x) in sq(key), ("not in the key", x)
        assert sq(x) not in s, ("in the students' sheet", x)
for word in ("(within", "Why:", "Right:", "Wrong:", "Formula:"):
    assert word not in sheet, word
assert "  Answer: ____________ TB" in sheet
# Another seed: the same questions, the same choices, another order.
choices = lambda t: [l for l in t.split("\n") if re.match(r"^    [A-Z]\. ", l)]
assert listed(seed2) == want
strip = lambda ls: sorted(l[7:] for l in ls)
assert strip(choices(seed2)) == strip(choices(sheet))
assert choices(seed2) != choices(sheet), "--seed 2 printed the choices in the same order"
for text in (sheet, key):
    for l in text.split("\n"):
        assert len(l) <= 80, l
PY
# Bad lessons: a missing file is one line and nothing on stdout; a lesson
# with no quiz or predict page is left out with a note, or fails alone.
"$bin" practice --from two-ways-to-grow "$T/nope.lua" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 1 ] || no "--from a missing file exits $rc, want 1"
[ -s "$T/out" ] && no "--from a missing file printed a sheet"
[ "$(wc -l <"$T/err")" = 1 ] && grep -q "nope.lua" "$T/err" || no "--from a missing file: $(cat "$T/err")"
mkdir -p "$T/plain"
cat >"$T/plain/plain.lua" <<'LUA'
return { id = "plain", title = "Plain", summary = "s", track = "T", order = 2,
  pages = { { kind = "text", title = "Intro", text = "Hello." } } }
LUA
"$bin" practice --from plain --lessons "$T/plain" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 1 ] || no "--from a lesson without questions exits $rc, want 1"
"$bin" practice --from plain "$L1" --lessons "$T/plain" >"$T/out" 2>"$T/err" ||
  no "--from a plain lesson and a lesson with questions failed: $(cat "$T/err")"
grep -q 'plain has no quiz or predict page' "$T/err" || no "no note on the plain lesson: $(cat "$T/err")"
grep -q '^scalelab practice: 3 questions from 2 lessons' "$T/out" || no "plain + lesson 1: $(head -1 "$T/out")"
# A lesson's text reaches paper escaped: no control byte of its titles,
# choices, explanations or formula is printed as it is.
cat >"$T/evil.lua" <<'LUA'
local E = string.char(27) .. "]52;c;Zm9v" .. string.char(7)
return { id = "evil", title = "Evil", summary = "s", track = "T", order = 1,
  pages = {
    { kind = "quiz", title = "Quiz" .. E, text = "Text " .. E,
      choices = { { text = "right" .. E, correct = true, explain = "because" .. E },
                  { text = "wrong", correct = false, explain = "no" .. E } } },
    { kind = "predict", title = "P", text = "T", question = "Q" .. E, unit = "s",
      answer = 2e-3, formula = "f" .. E } } }
LUA
for m in --print --answers; do
  "$bin" practice --from "$T/evil.lua" $m >"$T/out" 2>&1 || no "--from evil.lua $m failed: $(cat "$T/out")"
  LC_ALL=C grep -q "$(printf '[\033\007]')" "$T/out" && no "--from evil.lua $m printed control bytes"
done
grep -q 'Answer: [AB]\. right?\]52;c;Zm9v?' "$T/out" || no "the evil key: $(grep Answer "$T/out")"

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
