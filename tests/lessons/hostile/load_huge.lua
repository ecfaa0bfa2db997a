-- load: 64 KiB of source ten thousand times, a chunk nested too deep for
-- the parser, and a binary chunk with the signature.
local text = "return " .. ("1+"):rep(32000) .. "1"
for i = 1, 10000 do load(text) end
