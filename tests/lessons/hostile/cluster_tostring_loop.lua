-- A cluster's __tostring (a C function) called ten million times.
local c = scalelab.cluster { system = "gb200-nvl72", gpus = 1152 }
local n = 0
for i = 1, 1e7 do n = n + #tostring(c) + c:domains() end
