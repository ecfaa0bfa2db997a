-- pcall(pcall, pcall, ...) 100,000 deep: nested protected calls through C.
local args = {}
for i = 1, 100000 do args[i] = pcall end
args[#args + 1] = error
pcall(table.unpack(args, 1, 7990))
local f = function() end
for i = 1, 200 do
  local g = f
  f = function() return pcall(g) end
end
f()
local deep
deep = function(n) return pcall(deep, n + 1) end
deep(0)
return { id = "pcall-chain", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
