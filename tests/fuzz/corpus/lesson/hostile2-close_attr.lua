-- coroutine.close nested inside __close handlers overflowed the C stack in
-- Lua 5.4.4 (SIGSEGV): the close and const attributes are refused outright.
local function f()
  local x <close> = setmetatable({}, { __close = function() coroutine.close(coroutine.create(f)) end })
end
f()
