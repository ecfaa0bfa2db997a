-- A goal function that never returns: the check must stop it with file:line.
return {
  id = "goal-loop", title = "Goal loop",
  pages = {
    { kind = "scenario", title = "s", text = "t",
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-70b", batch = 64, mb = 1 },
      mapping = { tp = 8, pp = 2, dp = 1 },
      goal = { text = "g", check = function(r)
        while true do end
      end },
      solution = { "swap 0 8" } },
  },
}
