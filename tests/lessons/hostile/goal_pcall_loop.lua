-- A goal that hides an endless loop inside pcall, in a loop of its own.
return {
  id = "goal-pcall-loop", title = "Goal pcall loop",
  pages = {
    { kind = "scenario", title = "s", text = "t",
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-70b", batch = 64, mb = 1 },
      mapping = { tp = 8, pp = 2, dp = 1 },
      goal = { text = "g", check = function(r)
        while true do pcall(function() while true do end end) end
      end },
      solution = { "swap 0 8" } },
  },
}
