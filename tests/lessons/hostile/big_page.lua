-- the largest page text a lesson can have (strings stop at 1 MB)
local line = ("word "):rep(15) .. "\n"
return { id = "big-page", title = "t", pages = { { kind = "text", title = "a",
  text = line:rep(math.floor(1000000 / #line)) } } }
