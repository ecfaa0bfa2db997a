-- Strict globals' errors caught in a tight loop ten million times.
for i = 1, 1e7 do pcall(function() undeclared_global = i end) end
