-- Notes for the author (scalelab.note): at load, in a page, in a goal.
-- tests/suites/check.sh and test_screens hold the lines below.
local best = { a = "dgx-h100", b = 8, list = { 1, 2 } }
scalelab.note(best)
scalelab.note("target %.3f s", 1.23456)
return { id = "notes", title = "Notes", pages = {
  { kind = "text", title = "t", text = "x" },
  { kind = "scenario", title = "s", text = "t",
    cluster = { system = "dgx-h100", gpus = 16 },
    workload = { model = "llama3-70b", batch = 64, mb = 1 },
    mapping = { tp = 16, pp = 1, dp = 1 },
    goal = { text = "TP inside a server.",
             check = function(r)
               scalelab.note("tp %d", r.mapping.tp)
               return r.mapping.tp <= 8
             end },
    solution = { "tp 8" } },
  scalelab.quiz { title = "q", text = "?", choices = {
    { text = "a", correct = true, explain = scalelab.note("in a page") or "x" },
    { text = "b", correct = false, explain = "y" } } },
} }
