-- Integer division by zero, math.random with empty and extreme ranges,
-- string.find and sub with extreme indexes: errors, not crashes.
pcall(function() return 1 // 0 end)
pcall(math.random, 0)
pcall(math.random, math.mininteger, math.maxinteger)
pcall(math.fmod, 1, 0)
pcall(string.find, "abc", "b", -1e18)
local s = ("abc"):sub(-1e18, 1e18)
return 1 % 0
