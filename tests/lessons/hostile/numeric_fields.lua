-- Numbers where the reader wants integers or text: NaN GPUs, 2^63 layers,
-- a float order, a huge minutes.
return { id = "numeric", title = "t", order = 0 / 0, minutes = 2 ^ 63, pages = {
  { kind = "diagram", title = "d", text = "t",
    cluster = { system = "dgx-h100", gpus = 0 / 0 } } } }
