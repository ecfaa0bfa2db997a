-- A goal that raises a table with a looping __tostring, and a debrief that
-- raises a coroutine.
return { id = "error-goal", title = "t", pages = {
  { kind = "scenario", title = "s", text = "t",
    cluster = { system = "dgx-h100", gpus = 16 },
    workload = { model = "llama3-8b", batch = 32, mb = 1 },
    mapping = { tp = 8, pp = 1, dp = 2 },
    goal = { text = "g", check = function(r)
      if r.span.tp.domains > 1 then return true end
      error(setmetatable({}, { __tostring = function() while true do end end }))
    end },
    debrief = function(r) error(coroutine.create(math.abs)) end,
    solution = { "swap 3 11" } } } }
