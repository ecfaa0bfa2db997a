-- the same id as dup_a.lua: refused, naming dup_a.lua
return {
  id = "same-id", title = "Second", pages = { { kind = "text", title = "a", text = "b" } } }
