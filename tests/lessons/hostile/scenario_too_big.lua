-- A scenario one GPU over the limit for scenarios.
return { id = "too-big", title = "t", pages = {
  { kind = "scenario", title = "s", text = "t",
    cluster = { system = "dgx-h100", gpus = 131080 },
    workload = { model = "llama3-8b", batch = 131080, mb = 1 },
    mapping = { tp = 8, pp = 1 },
    goal = { text = "g", check = function(r) return false end },
    solution = { "tp 4", "tp 2" } } } }
