local t = {}
for i = 1, math.huge do t[i] = ("x"):rep(1000000) .. i end
