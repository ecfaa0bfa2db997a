-- Metatables on the tables the API returns, then handed back to it: a
-- step result whose __index recurses, and whose fields are removed.
local r = scalelab.step { cluster = { system = "dgx-h100", gpus = 16 },
  workload = { model = "llama3-8b", batch = 32, mb = 1 }, mapping = { tp = 8, dp = 2 } }
r.breakdown = nil
setmetatable(r, { __index = function(t, k) return t[k .. "x"] end })
local ok, e = pcall(scalelab.facts, r)
r.mapping = setmetatable({}, { __index = function(t, k) while true do end end })
scalelab.facts(r)
return { id = "result-meta", title = "t", pages = { { kind = "text", title = "t", text = e } } }
