-- The words inside a string or a comment are not attributes: this loads.
-- local x <const> = 1
local note = "use <const> and <close> in plain Lua, not here"
return { id = "const-in-string", title = "t", pages = { { kind = "text", title = "t", text = note } } }
