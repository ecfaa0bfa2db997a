-- A small lesson for presenter mode (tests/unit/test_present.c, the golden
-- files present-*.txt and compare-*.txt, tests/suites/present.sh): a text
-- page revealed paragraph by paragraph, a scenario with steps, a compare
-- page and a quiz. Figures come from the presets; no number is typed here.
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
    { kind = "scenario", title = "Cross it", text = [[Two 8-GPU servers, TP 8.]],
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
  },
}
