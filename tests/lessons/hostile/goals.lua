-- Hostile goals, one per scenario page: a pattern with a catastrophic worst
-- case (method syntax), a reason string carrying terminal escapes, an
-- endless loop, and an endless loop hidden in pcall in a loop of its own.
-- Each must come back from `check` as one problem at its own line. The file
-- has one instruction budget: the loops come last.
local function page(check)
  return { kind = "scenario", title = "s", text = "t",
    cluster = { system = "dgx-h100", gpus = 16 },
    workload = { model = "llama3-70b", batch = 64, mb = 1 },
    mapping = { tp = 8, pp = 2, dp = 1 },
    goal = { text = "g", check = check },
    solution = { "swap 0 8" } }
end
return {
  id = "goals", title = "Goals",
  pages = {
    page(function(r)
      local s = ("a"):rep(300)
      return s:find(("a*"):rep(8) .. "b") ~= nil
    end),
    page(function(r) return false, "\27[2J\27]0;pwned\7 cleared" end),
    page(function(r) while true do end end),
    page(function(r) while true do pcall(function() while true do end end) end end),
  } }
