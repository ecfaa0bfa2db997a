-- A cluster method handed to scalelab.pair_target as its cost: 30,000 x
-- 30,000 calls made from C, where no Lua hook runs.
local c = scalelab.cluster { system = "dgx-h100", gpus = 16 }
local c0 = scalelab.cluster { system = "dgx-h100", gpus = 16 }
local a, b = {}, {}
for i = 1, 30000 do a[i] = c; b[i] = 1 end
scalelab.pair_target { cost = c.domain_of, a = a, b = b, start = { c0, 0 } }
return { id = "pair-method", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
