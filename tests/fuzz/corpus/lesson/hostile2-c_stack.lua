-- C-stack overflow from an __index chain, caught by the lesson's own pcall
-- in a loop: the overflow is a limit, not an error the script may swallow.
local t = setmetatable({}, {})
getmetatable(t).__index = function(t, k) return t[k] end
while true do pcall(function() return t.x end) end
