-- table.concat and table.unpack over ranges of ten million and more.
local t = { "a", "b" }
pcall(table.concat, t, ",", 1, 2 ^ 40)
pcall(table.unpack, t, 1, 1e8)
local s = table.concat(t, ("-"):rep(1000000), 1, 100)
