-- string.format: a huge width, %q of a binary megabyte, and 200 1 MB
-- arguments to one format.
pcall(string.format, "%99999999d", 1)
local bin = ("\0\1\2\255\"\\\n"):rep(140000)
local q = string.format("%q", bin)
local parts = {}
for i = 1, 200 do parts[i] = bin end
local f = string.format(("%s"):rep(200), table.unpack(parts))
return { id = "format-bomb", title = "t", pages = { { kind = "text", title = "t", text = #f .. "" } } }
