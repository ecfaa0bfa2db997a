-- the lesson table's __index never returns: reading 'pages' runs under the
-- file's budget like any other Lua code
return setmetatable({ id = "index-loop", title = "t" },
  { __index = function(t, k) while true do end end })
