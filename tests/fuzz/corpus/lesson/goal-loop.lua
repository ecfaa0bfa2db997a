-- A small lesson for the end-to-end suite (tests/suites/e2e.sh): one page of
-- each kind the suite walks through. Figures come from the dgx-h100 preset
-- (assets/presets.lua); no number is typed here.
return {
  id = "e2e-basics",
  title = "E2E basics",
  summary = "Test lesson: a text page, a scenario and a quiz.",
  track = "Testing",
  order = 1,
  minutes = 3,
  pages = {
    { kind = "text", title = "Welcome", text = [[
# Hello from the test lesson
This page has *emphasis*, `code` and a list:
- first bullet
- second bullet
]] },
    { kind = "scenario", title = "Cross the boundary", text = [[
Two 8-GPU servers, TP 8: each TP group sits in one server.
]],
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-8b", batch = 32, mb = 1 },
      mapping = { tp = 8, pp = 1, dp = 2 },
      allow = { "move", "degrees", "micro", "domain", "system" },
      goal = { text = "Make one TP group span both servers.",
               check = function(r)
                 while true do end
                 return false, "every TP group is inside one server"
               end },
      hints = { "Nudge: pick one GPU.", "Concept: a swap moves work.",
                "Near-solution: swap GPU 3 with GPU 11." },
      debrief = [[The group now pays scale-out bandwidth on every all-reduce.]],
      solution = { "swap 3 11" } },
    { kind = "quiz", title = "Check", text = [[Which tier is faster per GPU?]],
      choices = {
        { text = "Scale-up (NVLink)", correct = true, explain = "NVLink is about 9x the NIC." },
        { text = "Scale-out (InfiniBand)", correct = false, explain = "A NIC is slower." },
      } },
  },
}
