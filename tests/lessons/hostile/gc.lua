-- A finalizer that would loop inside lua_close, where hooks are off.
local t = setmetatable({}, { __gc = function() while true do end end })
return { id = "gc", title = "GC", pages = { { kind = "text", title = "t", text = "x" } } }
