-- Lesson 8: 3D parallelism on an NVL72 cluster.
-- Sources: Llama 3 405B shape (126 layers, 16,384 hidden, 8 KV heads) from the
-- workload preset (Llama 3 Herd paper, Table 3). Static memory of about
-- 16 bytes per parameter with mixed-precision Adam (2 weights + 2 gradients +
-- 12 optimizer): EleutherAI "Transformer Math 101". Mapping rule for NVL72
-- (TP inside the NVLink domain, PP across scale-out nodes, DP across the whole
-- fabric): the team's seed notes, checked against SC21 §3.2 and Llama 3
-- §3.3.2. All step times and memory figures below are computed by the model.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end

local nvl = scalelab.system("gb200-nvl72")
local gpu = scalelab.gpu(nvl.gpu_id)
local m = scalelab.model("llama3-405b")

local cluster = { system = "gb200-nvl72", gpus = 576 }
local servers = { system = "dgx-b200", gpus = 576 }
local workload = { model = "llama3-405b", batch = 1152, mb = 1 }
local start_map = { tp = 16, pp = 9, dp = 4 }
local good_map = { tp = 8, pp = 9, dp = 8 }

local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local good = scalelab.step { cluster = cluster, workload = workload, mapping = good_map }
local on_servers = scalelab.step { cluster = servers, workload = workload, mapping = good_map }
local target_s = good.step_s * 1.05

local state = m.params * 16
local V = {
  name = m.name, layers = m.layers,
  params = string.format("%.0f billion", m.params / 1e9),
  state = U.format("bytes", state),
  hbm = U.format("bytes", gpu.hbm_bytes),
  min_gpus = math.ceil(state / gpu.hbm_bytes),
  n = nvl.domain_gpus, gpus = cluster.gpus,
  racks = cluster.gpus // nvl.domain_gpus,
  start_step = U.format("time", start.step_s),
  good_step = U.format("time", good.step_s),
  target = U.format("time", target_s),
  start_tp = U.format("time", start.breakdown.tp_s),
  good_tp = U.format("time", good.breakdown.tp_s),
  srv_step = U.format("time", on_servers.step_s),
  srv_pp = U.format("time", on_servers.breakdown.pp_s),
  gap = string.format("%.0f", 100 * (on_servers.step_s / good.step_s - 1)),
}

return {
  id = "3d-parallelism-nvl72",
  title = "3D parallelism on NVL72",
  summary = "Choose TP, PP and DP for Llama 3 405B on racks and on servers.",
  track = "Part 2: Parallelism on hardware",
  order = 8,
  minutes = 14,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Three knobs", text = fill([[
# TP x PP x DP
Large models use all three splits at once, *3D parallelism*:

`GPUs = TP x PP x DP`

Our job: {name}, {params} parameters, {layers} layers. With
mixed-precision Adam its weights, gradients and optimizer state
take about 16 bytes per parameter, {state} in all. One GPU has
{hbm}, so TP x PP must spread the model over at least
{min_gpus} GPUs before activations even count.

The question is how to split, given where the boundaries are.
]], V) },

    { kind = "text", steps = "paragraphs", title = "The recipe for NVL72", text = fill([[
# Match the split to the hardware
1. *TP* inside the NVLink domain. It must also divide the domain
   size ({n}), or some group straddles two racks. TP 8 is the usual
   pick: larger TP makes each GPU's matrices thin.
2. *PP* across scale-out nodes: its small activation sends come
   rarely. On NVL72 there is a bonus: {n} = 8 x 9, so TP 8 x PP 9
   fills one rack and even the pipeline stays on NVLink.
3. *DP* over the whole fabric: copies in different racks reduce
   gradients once per step.

Too little PP and the model does not fit; too much and the bubble,
(PP - 1) / micro-batches, eats the step.
]], V) },

    { kind = "diagram", title = "One rack, one model copy", view = "rack",
      cluster = { system = "gb200-nvl72", gpus = 72 },
      workload = workload, mapping = { tp = 8, pp = 9, dp = 1 },
      text = [[
TP 8 x PP 9 = 72: one full copy of the model per rack. Eight such
racks give DP 8, and only gradients cross between racks.
]] },

    { kind = "text", steps = "paragraphs", title = "The task: TP 16 on NVL72", text = fill([[
# "72 GPUs per domain, so TP 16 is safe"
{racks} GB200 NVL72 racks ({gpus} GPUs) train {name} as TP 16 x PP 9
x DP 4. The reasoning was: 16 GPUs fit easily in a {n}-GPU rack.

But ranks are laid out in order, and {n} / 16 = 4.5: the fifth TP
group of every rack runs into the next rack. Every layer, all
the other groups wait for it. TP time: {start_tp} per step.
Step: {start_step}.

Change TP and PP (DP follows) so that every TP group stays in one
rack, and the model still fits in memory.
]], V) },

    { kind = "scenario", title = "Tune the mapping",
      text = "Some TP groups straddle two racks. Change TP and PP (DP " ..
        "follows) to keep every group in one rack.",
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "degrees" },
      goal = {
        text = "Fit in memory with a step under " .. V.target .. ".",
        check = function(r)
          if not r.fits then return false, "the model no longer fits in HBM" end
          if r.step_s < target_s then return true end
          return false, "step " .. U.format("time", r.step_s) .. ", goal " .. V.target
        end },
      hints = {
        "Where does the time go? Look at the TP part of the bar.",
        "A TP size that divides 72 never straddles a rack boundary.",
        "Set TP to 8: with PP 9 that is one model copy per rack.",
      },
      debrief = fill([[
TP 8 x PP 9 x DP 8: each rack holds one model copy, TP time falls
from {start_tp} to {good_tp} and the step from {start_step} to
{good_step}. Only gradient reductions cross between racks.
]], V),
      solution = { "tp 8" } },

    { kind = "compare", title = "Racks against servers", text = fill([[
{gpus} Blackwell GPUs, TP 8 x PP 9 x DP 8: {srv_step} on servers,
{good_step} on racks. Most of the gap is the racks' faster chips;
stage edges crossing the network add only {srv_pp} of PP time.
]], V),
      workload = workload,
      left = { label = "8 x GB200 NVL72", cluster = cluster, mapping = good_map },
      right = { label = "72 x DGX B200", cluster = servers, mapping = good_map } },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- 3D parallelism: GPUs = TP x PP x DP. Memory sets a floor on
  TP x PP; the bubble and TP width set a ceiling.
- On NVL72: TP inside the rack (and dividing {n}), PP across nodes,
  DP over the whole fabric.
- TP 8 x PP 9 fills a {n}-GPU rack, so a whole model copy can live
  on NVLink and only gradients use the network.
- On 8-GPU servers the same numbers push PP and DP traffic onto
  the slower tier.
]], V) },

    { kind = "quiz", title = "Check: the recipe", text = fill([[
On a cluster of {n}-GPU NVL72 racks, which split should span the
whole scale-out fabric?
]], V),
      choices = {
        { text = "Data parallelism: gradients move once per step.",
          correct = true,
          explain = "Yes: it is the least frequent traffic and can overlap." },
        { text = "Tensor parallelism: it needs the most GPUs.",
          correct = false,
          explain = "TP talks in every layer: keep it inside one rack." },
        { text = "Expert parallelism: experts like to be far apart.",
          correct = false,
          explain = "EP exchanges tokens all-to-all each layer: keep it in." },
      } },
  },
}
