local t = {}
for i = 1, 100 do t[#t + 1] = string.rep("x", i) end
local co = coroutine.wrap(function() while true do coroutine.yield(#t) end end)
co()
return { id = "loops", pages = { { goal = function() while true do end end },
  { goal = function() return pcall(function() while true do end end) end } } }
