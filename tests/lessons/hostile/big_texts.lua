-- One 1 MB string on many quiz pages: C copies at most 4 MB per lesson.
local s = ("x"):rep(1000000)
local pages = {}
for i = 1, 60 do
  pages[i] = { kind = "quiz", title = "q", text = s,
    choices = { { text = s, correct = true, explain = s },
                { text = "b", correct = false, explain = "c" } } }
end
return { id = "big-texts", title = "t", pages = pages }
