-- string.rep at its limits: a billion copies, copies with a huge separator,
-- an empty string a trillion times, and doubling until the cap.
pcall(string.rep, "x", 1e9)
pcall(string.rep, "xx", 2 ^ 31)
pcall(string.rep, "", 1e12, ("s"):rep(100))
pcall(string.rep, "", 1e12)
local s = "x"
while true do s = s:rep(2) end
