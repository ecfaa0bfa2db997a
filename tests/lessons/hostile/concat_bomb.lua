-- __concat returning ever longer strings: the string and memory caps.
local mt = {}
mt.__concat = function(a, b)
  local s = type(a) == "string" and a or b
  return setmetatable({ s = (s or "x") .. (s or "x") }, mt).s .. "x"
end
local v = setmetatable({}, mt)
local s = "x"
for i = 1, 40 do s = s .. s end
return { id = "concat-bomb", title = "t", pages = { { kind = "text", title = "t", text = s .. v } } }
