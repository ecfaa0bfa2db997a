-- Ways around strict globals and the hidden string metatable: the
-- environment's metatable, rawset, and the string methods.
local mt = getmetatable(_G)
assert(mt == false)
assert(getmetatable("") == false)
rawset(_G, "sneaky", 1)
local ok = pcall(function() string.rep = nil end)
local ok2 = pcall(function() ("x").rep = nil end)
return { id = "env-tricks", title = "t", pages = { { kind = "text", title = "t", text = tostring(sneaky) } } }
