-- Many plain finds, each cheap-looking, between two hook calls.
local s = ("a"):rep(1000000)
while true do s:find("b", 1, true) end
