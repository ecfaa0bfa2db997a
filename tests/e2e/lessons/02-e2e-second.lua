-- A second test lesson so the menu has two entries to move between and the
-- filter has something to hide. No figures.
return {
  id = "e2e-second",
  title = "Second lesson",
  summary = "Test lesson: only text.",
  track = "Testing",
  order = 2,
  minutes = 1,
  pages = {
    { kind = "text", title = "Only page", text = [[Nothing else here.]] },
  },
}
