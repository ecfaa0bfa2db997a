-- Mistakes a newcomer makes; each must be pointed at on its own line.
return {
  id = "typos",
  pages = {
    { kind = "diagram", title = "d",
      cluster = { system = "dgx-h100",
                  gpus = 16, domian = 8 } },
    { kind = "diagram", title = "e",
      cluster = { system = "dgx-h100", gpus = 16 },
      workload = { model = "llama3-70b" },
      mapping = { tp = 3 } },
    { kind = "quiz", title = "q", text = "?",
      choices = { { text = "only one", correct = true, explain = "x" } } },
  },
}
