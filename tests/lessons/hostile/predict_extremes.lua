-- A predict page at the edges of double: an answer of 1e308, terms of
-- 1e308 and a tolerance that is not a fraction.
return { id = "predict-x", title = "t", pages = {
  { kind = "predict", title = "p", text = "t", question = "How long?", unit = "s",
    answer = 1e308, tolerance = 1e-300,
    terms = { { name = "a", value = 1e308 }, { name = "b", value = -1e308 } } } } }
