-- Many small repetitions of large sets over a long subject: the estimate's
-- own scans must be bounded before they run.
local set = "[" .. ("abcdefghij"):rep(2000) .. "]*"
local s = ("x"):rep(1000000)
local ok = pcall(string.find, s, set:rep(40))
return { id = "charset-many", title = "t", pages = { { kind = "text", title = "t", text = tostring(ok) } } }
