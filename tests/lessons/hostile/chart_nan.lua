-- A chart whose values are not finite numbers.
return { id = "chart-nan", title = "t", pages = {
  { kind = "diagram", title = "c", view = "chart", text = "t",
    cluster = { system = "dgx-h100", gpus = 64 },
    workload = { model = "llama3-8b", batch = 64, mb = 1 }, mapping = { tp = 8 },
    chart = { x = "tp", values = { 1, 0 / 0, 1 / 0 } } } } }
