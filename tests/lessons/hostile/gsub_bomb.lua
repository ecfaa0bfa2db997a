-- gsub replacing at every position of a megabyte with a large replacement,
-- and a frontier pattern over it.
local s = ("ab"):rep(500000)
s:gsub("%f[%w]", "x")
local r = s:gsub("", ("y"):rep(1000))
return { id = "gsub-bomb", title = "t", pages = { { kind = "text", title = "t", text = r } } }
