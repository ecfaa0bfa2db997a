-- A cluster table whose __index never returns: the API reads its fields
-- from C, through the metamethod.
local c = setmetatable({ system = "dgx-h100" }, { __index = function() while true do end end })
return { id = "index-trap", title = "t", pages = {
  { kind = "diagram", title = "d", text = "t", cluster = c } } }
