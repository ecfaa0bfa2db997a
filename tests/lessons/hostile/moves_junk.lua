-- 64 solution moves of 1 KB junk each, start moves that fail, steps of
-- junk: each reported, nothing replayed without bound.
local junk = {}
for i = 1, 64 do junk[i] = ("swap " .. i .. " "):rep(100) end
return { id = "moves-junk", title = "t", pages = {
  { kind = "scenario", title = "s", text = "t",
    cluster = { system = "dgx-h100", gpus = 16 },
    workload = { model = "llama3-8b", batch = 32, mb = 1 },
    mapping = { tp = 8, pp = 1, dp = 2 },
    start = { "tp 3" },
    steps = junk,
    goal = { text = "g", check = function(r) return false end },
    solution = junk } } }
