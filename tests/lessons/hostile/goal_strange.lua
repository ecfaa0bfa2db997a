-- Goals that return what a goal should not: a table, a function, a
-- coroutine, NaN, a 1 MB reason, nothing at all, and many values.
local function page(check)
  return { kind = "scenario", title = "s", text = "t",
    cluster = { system = "dgx-h100", gpus = 16 },
    workload = { model = "llama3-8b", batch = 32, mb = 1 },
    mapping = { tp = 8, pp = 1, dp = 2 },
    goal = { text = "g", check = check },
    solution = { "swap 3 11" } }
end
return { id = "goal-strange", title = "t", pages = {
  page(function(r) return {} end),
  page(function(r) return math.abs end),
  page(function(r) return false, coroutine.create(math.abs) end),
  page(function(r) return 0 / 0, 0 / 0 end),
  page(function(r) return false, ("\27[2J"):rep(250000) end),
  page(function(r) end),
  page(function(r) return false, table.unpack({}, 1, 7000) end),
} }
