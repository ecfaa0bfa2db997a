-- string.byte and table.unpack asked for more values than the stack holds,
-- and select with extreme indexes.
local s = ("x"):rep(1000000)
pcall(string.byte, s, 1, -1)
pcall(select, -1e9, 1, 2)
local t = {}
for i = 1, 100 do t[i] = i end
local n = select("#", table.unpack(t, 1, 999999))
