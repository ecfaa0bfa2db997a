-- scalelab.fill formats each value with tostring: a __tostring that loops.
local v = setmetatable({}, { __tostring = function() while true do end end })
local s = scalelab.fill("{x} and {x}", { x = v })
return { id = "fill-trap", title = "t", pages = { { kind = "text", title = "t", text = s } } }
