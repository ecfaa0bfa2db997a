return { id = "escape-title", title = "\27[2J\27]0;pwned\7\27]52;c;ZXZpbA==\7 title",
  track = "\27[31mred", pages = { { kind = "text", title = "a", text = "b" } } }
