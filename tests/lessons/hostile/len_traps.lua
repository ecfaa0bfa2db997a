-- __len on a page list returning a float, a string and a huge number.
local pages = setmetatable({ { kind = "text", title = "t", text = "t" } },
  { __len = function() return "3" end })
local choices = setmetatable({}, { __len = function() return 1e300 end })
return { id = "len-traps", title = "t", pages = pages }
