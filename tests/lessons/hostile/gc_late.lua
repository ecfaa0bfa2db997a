-- A __gc added to a metatable after setmetatable, weak tables, and a
-- collector step: no finalizer may run, no collector setting change.
local mt = {}
local t = setmetatable({}, mt)
mt.__gc = function() while true do end end
local weak = setmetatable({}, { __mode = "k" })
for i = 1, 1000 do weak[{}] = i end
t = nil
local ok = pcall(collectgarbage, "step")
collectgarbage("count")
return { id = "gc-late", title = "t", pages = { { kind = "text", title = "t", text = tostring(ok) } } }
