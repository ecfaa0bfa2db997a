-- pages whose __len says -5: the loader once asked for an impossible
-- allocation (SIGABRT in check, list and the menu).
return { id = "neg-len", title = "t",
  pages = setmetatable({}, { __len = function() return -5 end }) }
