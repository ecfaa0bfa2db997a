-- A million coroutines kept alive: the memory cap.
local keep = {}
for i = 1, 1e7 do keep[i] = coroutine.wrap(function() coroutine.yield(i) end) end
