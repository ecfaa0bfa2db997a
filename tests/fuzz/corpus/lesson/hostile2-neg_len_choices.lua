-- a quiz whose choices claim a negative (then a huge) length
return { id = "neg-len-choices", title = "t", pages = {
  { kind = "quiz", title = "q", text = "?",
    choices = setmetatable({}, { __len = function() return -100 end }) } } }
