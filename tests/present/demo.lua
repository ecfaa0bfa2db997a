-- A small lesson for presenter mode (tests/unit/test_present.c, the golden
-- files present-*.txt and compare-*.txt, tests/suites/present.sh): a text
-- page revealed paragraph by paragraph, a scenario with steps, a compare
-- page, a quiz and a predict page (the answer, then the formula, one key
-- each). Figures come from the presets; no number is typed here but the
-- size of the copy.
local U = scalelab.units
local dgx = scalelab.system("dgx-h100")
local copy_bytes = 1e9

return {
  id = "present-demo",
  title = "Presenter demo",
  summary = "Test lesson for presenter mode.",
  track = "Testing",
  order = 1,
  pages = {
    { kind = "text", title = "Two tiers", steps = "paragraphs", text = [[
# Fast inside, slower outside
Inside a server the GPUs share NVLink.

Between servers, traffic takes the network.

- The boundary is where bandwidth drops.
]] },
    { kind = "scenario", title = "Cross it", text = [[
Two 8-GPU servers, TP 8: every tensor-parallel group sits inside one server,
on NVLink. Move one GPU of a group to the other server and watch the
all-reduce take the network: this last line must show too.]],
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-8b", batch = 32, mb = 1 },
      mapping = { tp = 8, pp = 1, dp = 2 },
      steps = { "swap 3 11", "swap 3 11" },
      goal = { text = "Make one TP group span both servers.",
               check = function(r) return r.span.tp.domains > 1 end },
      solution = { "swap 3 11" } },
    { kind = "compare", title = "Racks or servers",
      workload = { model = "llama3-70b", batch = 512, mb = 1 },
      left = { label = "8-GPU servers", cluster = { system = "dgx-b200", gpus = 64 },
               mapping = { tp = 16, pp = 1 } },
      right = { label = "NVL72 rack", cluster = { system = "gb200-nvl72", gpus = 64 },
                mapping = { tp = 16, pp = 1 } } },
    { kind = "quiz", title = "Check", text = [[Which tier is faster per GPU?]],
      choices = {
        { text = "Scale-up (NVLink)", correct = true, explain = "NVLink is about 9x the NIC." },
        { text = "Scale-out (InfiniBand)", correct = false, explain = "A NIC is slower." },
      } },
    { kind = "predict", title = "One copy", steps = "paragraphs",
      text = "Inside a " .. dgx.name .. ", NVLink gives each GPU " ..
             U.format("bandwidth", dgx.up_bytes_per_s) .. " each way.\n\n" ..
             "Copy " .. U.format("bytes", copy_bytes) .. " from one GPU to another.",
      question = "How long does the copy take?",
      unit = "s", answer = copy_bytes / dgx.up_bytes_per_s,
      formula = "time = bytes / bandwidth = " .. U.format("bytes", copy_bytes) .. " / " ..
                U.format("bandwidth", dgx.up_bytes_per_s) .. " = " ..
                U.format("time", copy_bytes / dgx.up_bytes_per_s) },
  },
}
