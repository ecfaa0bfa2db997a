-- 10,000 suspended coroutines, each closing the one before it from the
-- __close of its generic for's fourth value (a value to be closed without
-- <close>): Lua 5.4.4 nests coroutine.close without bound in C (SIGSEGV).
local prev
for i = 1, 10000 do
  local p = prev
  local co = coroutine.create(function()
    local tbc = setmetatable({}, { __close = function() if p then coroutine.close(p) end end })
    for _ in function() coroutine.yield() end, nil, nil, tbc do end
  end)
  coroutine.resume(co)
  prev = co
end
coroutine.close(prev)
return { id = "close-chain", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
