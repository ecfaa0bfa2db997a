-- table.sort over long strings: each comparison walks a megabyte.
local base = ("a"):rep(900000)
local t = {}
for i = 1, 60 do t[i] = base .. string.char(65 + i % 26) end
for i = 1, 100 do table.sort(t) end
return {}
