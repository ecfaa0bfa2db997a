-- SPDX-License-Identifier: MIT
-- A lesson for the class-report tests (tests/suites/report.sh and the
-- progress fixtures under tests/report/): one page of each kind a student
-- can get stuck on. Figures come from the dgx-h100 preset (assets/presets.lua);
-- no number is typed here.
local U = scalelab.units
local dgx = scalelab.system("dgx-h100")
local copy_bytes = 1e9
local copy_s = copy_bytes / dgx.up_bytes_per_s

return {
  id = "class-basics",
  title = "Class basics",
  summary = "Test lesson: text, a quiz, a scenario, a predict page.",
  track = "Class",
  order = 1,
  minutes = 5,
  pages = {
    { kind = "text", title = "Two tiers", text = [[
# Fast inside, slower outside
Inside a server the GPUs share NVLink; between servers, the network.
]] },
    { kind = "quiz", title = "Which tier", text = [[Which tier is faster per GPU?]],
      choices = {
        { text = "Scale-up (NVLink)", correct = true, explain = "NVLink is about 9x the NIC." },
        { text = "Scale-out (InfiniBand)", correct = false, explain = "A NIC is slower." },
      } },
    { kind = "scenario", title = "Cross the boundary", text = [[
Two 8-GPU servers, TP 8: each TP group sits in one server.
]],
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-8b", batch = 32, mb = 1 },
      mapping = { tp = 8, pp = 1, dp = 2 },
      allow = { "move" },
      goal = { text = "Make one TP group span both servers.",
               check = function(r)
                 if r.span.tp.domains > 1 then return true end
                 return false, "every TP group is inside one server"
               end },
      hints = { "Pick one GPU.", "A swap moves work between servers.",
                "Swap GPU 3 with GPU 11." },
      debrief = [[The group now pays scale-out bandwidth on every all-reduce.]],
      solution = { "swap 3 11" } },
    { kind = "predict", title = "One copy",
      text = "Copy " .. U.format("bytes", copy_bytes) .. " over NVLink at " ..
             U.format("bandwidth", dgx.up_bytes_per_s) .. " per direction.",
      question = "How long does the copy take?",
      unit = "s", answer = copy_s,
      formula = "time = bytes / bandwidth = " .. U.format("time", copy_s) },
    { kind = "text", title = "Summary", text = [[
# Summary
- Keep the chattiest traffic inside the scale-up domain.
]] },
  },
}
