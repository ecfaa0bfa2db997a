-- pair_target over lists small enough to be allowed, with a C function
-- (math.max) as the cost: every call from the C loop is charged.
local a, b = {}, {}
for i = 1, 1500 do a[i] = i; b[i] = i end
for round = 1, 100 do
  scalelab.pair_target { cost = math.max, a = a, b = b, start = { 0, 0 } }
end
return { id = "pair-small", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
