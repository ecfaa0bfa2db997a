local s = ("a"):rep(200)
local ok, e = pcall(string.find, s, ("a*"):rep(6) .. "b")
local ok2 = pcall(function() return s:match("(a+)+b") end)
local g = s:gsub("a", "b", 3)
return { id = "pat", title = tostring(ok) .. tostring(e), summary = g }
