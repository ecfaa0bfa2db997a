-- C recursion through string.gsub: each replacement runs gsub again.
local function again(m)
  return (("xy"):gsub(".", again))
end
local r = ("ab"):gsub(".", again)
return { id = "gsub-nested", title = "t", pages = { { kind = "text", title = "t", text = r } } }
