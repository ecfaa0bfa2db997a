-- table.sort with a comparison function that lies (always true, so Lua may
-- run off the end of the array) and one that loops.
local t = {}
for i = 1, 1000 do t[i] = i end
local ok, e = pcall(table.sort, t, function(a, b) return true end)
table.sort(t, function(a, b) while true do end end)
