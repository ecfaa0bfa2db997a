-- Forty scenario pages, each goal an endless loop: one budget per file, so
-- check stops the whole file within its 2 s, not 40 times 2 s.
local pages = {}
for i = 1, 40 do
  pages[i] = { kind = "scenario", title = "s" .. i, text = "t",
    cluster = { system = "dgx-h100", gpus = 16 },
    workload = { model = "llama3-70b", batch = 64, mb = 1 },
    mapping = { tp = 8, pp = 2, dp = 1 },
    goal = { text = "g", check = function(r) while true do end end },
    solution = { "swap 0 8" } }
end
return { id = "many-goals", title = "Many goals", pages = pages }
