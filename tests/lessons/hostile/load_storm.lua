-- many load() calls of the largest text allowed: each is charged by size
local src = "return " .. ("1+"):rep(30000) .. "1"
while true do load(src) end
