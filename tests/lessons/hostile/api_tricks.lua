-- Tricks on the API's objects: changing its metatable, rawset, wrong self.
local c = scalelab.cluster { system = "dgx-h100", gpus = 16 }
assert(getmetatable(c) == "scalelab.cluster")
assert(not pcall(setmetatable, c, {}))
assert(not pcall(rawset, c, "gpus", 1))
local ok, e = pcall(function() c.gpus = 1 end)
assert(not ok and e:find("read%-only"))
assert(c.gpus == 16 and c:domains() == 2)
c.domain_of({}, 3) -- wrong self: must be a clear error on this line
