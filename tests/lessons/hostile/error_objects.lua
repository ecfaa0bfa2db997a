-- Errors that are not strings: a table whose __tostring itself errors, nil,
-- a coroutine, a function, a 1 MB string, a number and a boolean.
local objs = {
  setmetatable({}, { __tostring = function() error("inner") end }),
  nil, coroutine.create(math.abs), math.abs, ("e"):rep(1000000), 42.5, true,
}
for i = 1, 6 do pcall(error, objs[i]) end
error(setmetatable({}, { __tostring = function() while true do end end }))
