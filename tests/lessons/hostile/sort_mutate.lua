-- A comparison function that empties and refills the table it sorts, and
-- one that raises a table: sort must end with a message, not a crash.
local t = {}
for i = 1, 2000 do t[i] = (i * 7919) % 2000 end
local ok1 = pcall(table.sort, t, function(a, b)
  for k = 1, #t do t[k] = nil end
  for k = 1, 2000 do t[k] = k end
  return (a or 0) < (b or 0)
end)
table.sort(t, function(a, b) error({ "not a string" }) end)
