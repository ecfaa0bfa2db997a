-- Coroutines inside goals: a yield from the goal itself, a yield across a
-- C call (gsub's callback), a coroutine kept from load and resumed in the
-- goal, and one that loops.
local kept = coroutine.create(function() while true do coroutine.yield(1) end end)
local function page(check)
  return { kind = "scenario", title = "s", text = "t",
    cluster = { system = "dgx-h100", gpus = 16 },
    workload = { model = "llama3-8b", batch = 32, mb = 1 },
    mapping = { tp = 8, pp = 1, dp = 2 },
    goal = { text = "g", check = check },
    solution = { "swap 3 11" } }
end
return { id = "goal-co", title = "t", pages = {
  page(function(r) coroutine.yield() end),
  page(function(r)
    local co = coroutine.wrap(function() return ("ab"):gsub(".", coroutine.yield) end)
    return co()
  end),
  page(function(r) for i = 1, 1e9 do coroutine.resume(kept) end end),
  page(function(r) local co = coroutine.wrap(function() while true do end end) co() end),
} }
