-- Exercise features: a quiz with calc, a predict page, a scenario with par,
-- a target, search allowed and a debrief function. Figures from the presets
-- (assets/presets.lua names the source of each).
local U = scalelab.units
local dgx = scalelab.system("dgx-h100")

local cluster = { system = "hgx-h200", gpus = 16 }  -- 141 GB per GPU: TP 8 x PP 2 fits
local workload = { model = "llama3-70b", batch = 64, mb = 1 }
local inside = scalelab.step { cluster = cluster, workload = workload,
                               mapping = { tp = 8, pp = 2, dp = 1 } }
-- 1 GB over one NVLink port: bandwidth term only (latency is tiny).
local bytes = 1e9
local lat = 2e-6
local t = lat + bytes / dgx.up_bytes_per_s

return {
  id = "example-exercises",
  title = "Exercises",
  summary = "Every kind of exercise page.",
  track = "Examples",
  order = 2,
  pages = {
    scalelab.quiz { title = "Sum", calc = true,
      text = "How long do 1 GB take at " .. U.format("bandwidth", dgx.up_bytes_per_s) .. "?",
      choices = {
        { text = U.format("time", t), correct = true, explain = "bytes / bandwidth." },
        { text = U.format("time", t * 8), correct = false, explain = "That counts bits as bytes." },
        { text = U.format("time", t / 10), correct = false, explain = "Ten times too fast." },
        { text = U.format("time", t * 100), correct = false, explain = "That is the NIC." },
      } },
    scalelab.predict { title = "Predict one copy",
      text = scalelab.fill("Copy {size} between two GPUs of a DGX H100 at {bw}.",
                           { size = U.format("bytes", bytes),
                             bw = U.format("bandwidth", dgx.up_bytes_per_s) }),
      question = "How long does the copy take?",
      unit = "s", answer = t, tolerance = 0.2,
      terms = { { name = "latency", value = lat },
                { name = "bandwidth", value = bytes / dgx.up_bytes_per_s } },
      formula = "time = latency + bytes / bandwidth = " .. U.format("time", t) },
    { kind = "scenario", title = "Fix the split", par = 2,
      text = "Two GPUs traded places: both TP groups span both servers. Put them back.",
      cluster = cluster, workload = workload,
      mapping = { tp = 8, pp = 2, dp = 1 },
      start = { "swap 0 8" },
      allow = { "move", "search" },
      predict = { at = "swap", ask = "change" },
      goal = { text = "Step under " .. U.format("time", inside.step_s * 1.05) .. ".",
               target = { step_s = inside.step_s * 1.05 },
               check = function(r)
                 if r.fits and r.step_s < inside.step_s * 1.05 then return true end
                 return false, r.fits and "step is " .. U.format("time", r.step_s) or "it does not fit"
               end },
      hints = { "Which group crosses the network?", "Swap GPUs 0 and 8 back." },
      debrief = function(r)
        return scalelab.fill("You ended at TP {tp} PP {pp}: {step} per step, {moves} moves.",
          { tp = r.mapping.tp, pp = r.mapping.pp, step = U.format("time", r.step_s),
            moves = r.moves })
      end,
      solution = { "swap 0 8" } },
  },
}
