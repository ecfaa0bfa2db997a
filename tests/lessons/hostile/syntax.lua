return {
  id = "syntax",
  title = "Syntax" -- a missing comma on this line
  pages = {},
}
