-- Sources: DGX H100 figures come from the presets (assets/presets.lua names
-- the source of each); Llama 3 70B dimensions: Llama 3 Herd paper (Meta, 2024).
local U = scalelab.units
local dgx = scalelab.system("dgx-h100")

local cluster = { system = "dgx-h100", gpus = 16 }
local workload = { model = "llama3-70b", batch = 64, mb = 1 }
local inside = scalelab.step { cluster = cluster, workload = workload,
                               mapping = { tp = 8, pp = 2, dp = 1 } }

return {
  id = "example-tp-in-a-box",
  title = "Keep TP inside the box",
  summary = "Tensor parallelism belongs on NVLink, not on the network.",
  track = "Examples",
  order = 1,
  minutes = 5,
  pages = {
    { kind = "text", title = "Two speeds", text = [[
# Two speeds
Inside a DGX H100 each GPU talks over NVLink at ]] ..
      U.format("bandwidth", dgx.up_bytes_per_s) .. [[ per direction.
Between servers it has one NIC: ]] ..
      U.format("bandwidth", dgx.out_bytes_per_s) .. [[.
]] },
    { kind = "diagram", title = "Two servers", view = "rack",
      cluster = cluster,
      text = "Two servers of *8 GPUs*, one NVLink domain each." },
    { kind = "scenario", title = "Fix the split",
      text = "TP 16 spans both servers. Make every TP group fit in one.",
      cluster = cluster, workload = workload,
      mapping = { tp = 16, pp = 1, dp = 1 },
      allow = { "degrees" },
      goal = { text = "Step under " .. U.format("time", inside.step_s * 1.05) .. ".",
               check = function(r)
                 if r.step_s < inside.step_s * 1.05 then return true end
                 return false, "step is " .. U.format("time", r.step_s)
               end },
      hints = { "Which group crosses the network?", "Try TP 8 and PP 2." },
      debrief = "TP now stays on NVLink; only PP sends cross servers.",
      solution = { "tp 8", "pp 2" } },
    { kind = "quiz", title = "Check", text = "Where should TP groups live?",
      choices = {
        { text = "Inside one NVLink domain", correct = true,
          explain = "TP talks every layer: it needs the fastest links." },
        { text = "Spread over the network", correct = false,
          explain = "Every layer would wait for the NICs." },
      } },
  },
}
