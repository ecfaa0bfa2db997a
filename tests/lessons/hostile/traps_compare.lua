-- __lt, __le and __eq traps met by C code: table.sort without a comparison
-- function compares with __lt, which here loops.
local mt = { __lt = function(a, b) while true do end end, __eq = function() return true end }
local list = {}
for i = 1, 50 do list[i] = setmetatable({ n = i }, mt) end
table.sort(list)
return { id = "traps-compare", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
