-- A debrief function that returns a megabyte of control bytes, then one
-- that returns a table.
local function page(debrief)
  return { kind = "scenario", title = "s", text = "t",
    cluster = { system = "dgx-h100", gpus = 16 },
    workload = { model = "llama3-8b", batch = 32, mb = 1 },
    mapping = { tp = 8, pp = 1, dp = 2 },
    goal = { text = "g", check = function(r) return r.span.tp.domains > 1 end },
    debrief = debrief,
    solution = { "swap 3 11" } }
end
return { id = "debrief-strange", title = "t", pages = {
  page(function(r) return ("\27[2J\7\0"):rep(150000) end),
  page(function(r) return {} end),
} }
