-- One match whose character set holds 200,000 bytes: each subject byte is
-- compared with the whole set, inside one C call.
local s = ("b"):rep(100000)
local hit = string.find(s, "^[" .. ("a"):rep(200000) .. "b]*c")
return { id = "charset", title = "t", pages = { { kind = "text", title = "t", text = tostring(hit) } } }
