local f = function() return 1 end
local ok, e = pcall(function() return load(string.dump(f)) end)
return { id = "d", title = tostring(ok) .. tostring(e), pages = {} }
