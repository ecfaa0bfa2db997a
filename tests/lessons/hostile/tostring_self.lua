-- __tostring that calls tostring on its own object: recursion through C.
local t = setmetatable({}, {})
getmetatable(t).__tostring = function(self) return tostring(self) end
local s = tostring(t)
return { id = "tostring-self", title = "t", pages = { { kind = "text", title = "t", text = s } } }
