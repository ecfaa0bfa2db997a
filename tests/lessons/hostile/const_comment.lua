-- <const> with a comment between the "<" and the word, which the
-- old text scan (spaces and tabs only) let through.
local x <--[[ hidden ]] const> = 1
return { id = "c", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
