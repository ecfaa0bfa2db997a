-- 200 pages of 21 KB each: more text than scalelab copies from one lesson.
local pages = {}
for i = 1, 200 do
  pages[i] = { kind = "text", title = "p" .. i, text = ("word "):rep(4300) .. i }
end
return { id = "pages-4mb", title = "t", pages = pages }
