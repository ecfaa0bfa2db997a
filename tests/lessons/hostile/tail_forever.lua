-- A tail call loop: the Lua stack never grows, only the budget stops it.
local function f(n) return f(n + 1) end
f(0)
return { id = "tail", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
