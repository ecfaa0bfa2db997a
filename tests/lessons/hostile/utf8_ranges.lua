-- utf8 with huge ranges and code points: each call ends with an error.
local s = ("\u{10FFFF}"):rep(100000)
pcall(utf8.char, 0x7FFFFFFF)
pcall(utf8.codepoint, s, 1, 1e9)
pcall(utf8.len, s, -1e18)
pcall(utf8.offset, s, 1e18)
pcall(utf8.offset, s, -1e18)
local args = {}
for i = 1, 7000 do args[i] = 0x10FFFF end
local big = utf8.char(table.unpack(args))
local n = 0
for p, c in utf8.codes(s .. "\xF4\x90\x80\x80") do n = n + 1 end
