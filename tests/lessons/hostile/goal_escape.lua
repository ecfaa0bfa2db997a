-- A goal whose reason string carries terminal escape sequences.
return {
  id = "goal-escape", title = "Goal escape",
  pages = {
    { kind = "scenario", title = "s", text = "t",
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-70b", batch = 64, mb = 1 },
      mapping = { tp = 8, pp = 2, dp = 1 },
      goal = { text = "g", check = function(r)
        return false, "\27[2J\27]0;pwned\7 cleared"
      end },
      solution = { "swap 0 8" } },
  },
}
