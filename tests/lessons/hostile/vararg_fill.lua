-- a tail call growing its varargs toward a full Lua stack: each
-- instruction copies more, so the hook runs every 100 instructions
local function fill(...) return fill(1, 2, 3, 4, 5, 6, 7, 8, ...) end
fill()
