-- 1 MB strings through every function of the scalelab API (each inside
-- pcall so the next one runs): none may hang or copy without bound.
local big = ("9"):rep(1000000)
local fns = {
  function() return scalelab.gpu(big) end,
  function() return scalelab.system(big) end,
  function() return scalelab.model(big) end,
  function() return scalelab.cluster { system = big } end,
  function() return scalelab.cluster { system = "dgx-h100", up = big } end,
  function() return scalelab.step { cluster = { system = "dgx-h100" }, workload = { model = big } } end,
  function() return scalelab.units.parse("bandwidth", big .. " Gb/s") end,
  function() return scalelab.units.parse(big, "1 s") end,
  function() return scalelab.units.format(big, 1) end,
  function() return scalelab.units.bits(tonumber(big)) end,
  function() return scalelab.units.bits_bytes(tonumber(big)) end,
  function() return scalelab.fill(big, {}) end,
  function() return scalelab.fill(("{a}"):rep(300000), { a = big }) end,
  function() return scalelab.moves(big, 1, 1024) end,
  function() return scalelab.diagram(big, {}) end,
  function() return scalelab.text_page({ title = big }) end,
  function() return scalelab.fits_under({ fits = true, step_s = 1 }, 0.5, big) end,
  function() return scalelab.facts({}, { [big] = big }) end,
}
local failed = 0
for i = 1, #fns do if not pcall(fns[i]) then failed = failed + 1 end end
return { id = "api-huge", title = "t", pages = { { kind = "text", title = "t", text = tostring(failed) } } }
