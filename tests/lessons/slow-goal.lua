-- A scenario whose goal check never returns, so the sandbox's deadline,
-- Esc, Ctrl-C and quit signals are what end it: the tmux suites play.sh and
-- faults.sh open it to stop a long-running lesson script.
return {
  id = "slow", title = "Slow goal", summary = "A goal that runs long.",
  pages = {
    { kind = "scenario", title = "Slow", text = "The goal takes its time.",
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-8b", batch = 32, mb = 1 },
      mapping = { tp = 8, pp = 1, dp = 2 },
      goal = { text = "Wait.",
               check = function(r)
                 local n = 0
                 while true do n = n + #scalelab.units.format("time", n + 0.5) end
               end },
      solution = { "tp 4" } },
  },
}
