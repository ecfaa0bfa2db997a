-- C recursion through table.sort: each comparison sorts again.
local function cmp(a, b)
  table.sort({ 3, 2, 1 }, cmp)
  return a < b
end
table.sort({ 1, 2, 3 }, cmp)
return { id = "sort-nested", title = "t", pages = { { kind = "text", title = "t", text = "t" } } }
