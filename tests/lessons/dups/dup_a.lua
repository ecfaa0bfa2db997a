return { id = "same-id", title = "First", pages = { { kind = "text", title = "a", text = "b" } } }
