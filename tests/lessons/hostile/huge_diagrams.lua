-- Diagram and compare pages at the model's largest cluster: the model's
-- work in C, not counted by the instruction budget.
local big = { system = "dgx-h100", gpus = 100000000 }
local pages = {}
for i = 1, 100 do
  pages[#pages + 1] = { kind = "diagram", title = "d", view = "bar", text = "t", cluster = big,
    workload = { model = "llama3-405b", batch = 1562500, mb = 1 }, mapping = { tp = 8, pp = 16 } }
  pages[#pages + 1] = { kind = "compare", title = "c", text = "t",
    workload = { model = "llama3-405b", batch = 1562500, mb = 1 },
    left = { label = "l", cluster = big, mapping = { tp = 8, pp = 16 } },
    right = { label = "r", cluster = big, mapping = { tp = 16, pp = 8 } } }
end
return { id = "huge-diagrams", title = "t", pages = pages }
