-- A goal that tries a pattern with a catastrophic worst case (method syntax).
return {
  id = "goal-pattern", title = "Goal pattern",
  pages = {
    { kind = "scenario", title = "s", text = "t",
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-70b", batch = 64, mb = 1 },
      mapping = { tp = 8, pp = 2, dp = 1 },
      goal = { text = "g", check = function(r)
        local s = ("a"):rep(300)
        return s:find(("a*"):rep(8) .. "b") ~= nil
      end },
      solution = { "swap 0 8" } },
  },
}
