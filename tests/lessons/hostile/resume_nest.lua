-- Coroutines resuming new coroutines, 100,000 deep.
local function dive(n)
  if n == 0 then return 0 end
  local co = coroutine.create(dive)
  local ok, v = coroutine.resume(co, n - 1)
  return v
end
dive(100000)
return { id = "resume-nest", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
