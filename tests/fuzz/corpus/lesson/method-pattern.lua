local s = ("a"):rep(200)
return { id = "p", title = s:find(("a*"):rep(6) .. "b") }
