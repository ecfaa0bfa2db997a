-- A typo'd field name written as a global: strict globals make it an error.
titel = "Oops"
return { id = "strict-typo", title = "t", pages = { { kind = "text", title = "a", text = "b" } } }
