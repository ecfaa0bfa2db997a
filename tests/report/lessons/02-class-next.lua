-- SPDX-License-Identifier: MIT
-- The second lesson of the class-report tests: a text page and a quiz.
return {
  id = "class-next",
  title = "Class next",
  summary = "Test lesson: a text page and a quiz.",
  track = "Class",
  order = 2,
  minutes = 2,
  pages = {
    { kind = "text", title = "Next", text = [[Servers join over a leaf-spine fabric.]] },
    { kind = "quiz", title = "Where TP lives", text = [[Where should TP groups live?]],
      choices = {
        { text = "Inside one NVLink domain", correct = true, explain = "TP talks every layer." },
        { text = "Spread over the network", correct = false, explain = "Layers would wait." },
      } },
  },
}
