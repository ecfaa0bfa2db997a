-- <close> spread over three lines.
local x <
close
> = nil
return { id = "c", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
