-- C functions the script can get hold of (pairs' next, ipairs' iterator,
-- gmatch's, a method) handed to C loops as callbacks: all metered.
local nxt = pairs({})
local inext = ipairs({})
local it = ("a"):rep(1000):gmatch("a")
local c = scalelab.cluster { system = "dgx-h100", gpus = 16 }
local list = {}
for i = 1, 100000 do list[i] = i end
for round = 1, 1000 do
  pcall(table.sort, list, inext)
  pcall(string.gsub, ("a"):rep(100000), "a", nxt)
  pcall(scalelab.pair_target, { cost = c.domains, a = { c, c }, b = { 1, 2 }, start = { 0, 0 } })
end
