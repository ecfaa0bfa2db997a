-- Reaching for what lessons do not get, through other doors.
local found = {}
for _, name in ipairs { "io", "os", "debug", "package", "require", "dofile", "loadfile" } do
  found[#found + 1] = tostring(rawget(_G, name))
end
assert(string.dump == nil)
assert(os.execute == nil or not pcall(os.execute))
assert(load("return require")() == nil)
return os.getenv("HOME")
