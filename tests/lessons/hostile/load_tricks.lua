-- load with a chosen environment, a binary chunk, and a chunk that holds
-- <const> behind a comment: each refused or confined.
local f = load("return io", "=(name)", "t", {})
assert(f() == nil)
assert(not load("\27Lua" .. ("x"):rep(40)))
local g, e = load("local x <--[[x]]const> = 1")
assert(g == nil and e:find("not allowed"))
local deep = ("("):rep(500) .. "1" .. (")"):rep(500)
local h, e2 = load("return " .. deep)
error(e2)
