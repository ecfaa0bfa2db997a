-- Closures holding growing strings: the memory cap, at its line.
local keep = {}
local s = ("x"):rep(1000)
for i = 1, 1e9 do
  local piece = s .. i
  keep[i] = function() return piece end
end
