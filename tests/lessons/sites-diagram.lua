-- SPDX-License-Identifier: MIT
-- A fabric diagram over two sites, taller than an 80x24 page has room for
-- (tests/unit/test_page_end.c): its scale-across legend must stay
-- reachable. The 100 Tb/s link is an illustrative figure, as in lesson 11.
return {
  id = "sites-diagram",
  title = "Sites diagram",
  summary = "Test lesson: a two-site fabric diagram.",
  track = "Testing",
  order = 1,
  pages = {
    { kind = "diagram", title = "Two sites", view = "fabric",
      cluster = { system = "gb300-nvl72", gpus = 288, sites = 2, across = "100 Tb/s" },
      text = [[Four NVL72 racks over two sites.]] },
  },
}
