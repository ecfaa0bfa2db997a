local t = {}
for i = 1, math.huge do t[i] = ("x"):rep(100) .. i end
