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
local workload = { model = "llama3-405b", batch = 512, mb = 1 }
local start_map = { tp = 4, pp = 18, dp = 8 }
local good_map = { tp = 8, pp = 9, dp = 8 }

local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local good = scalelab.step { cluster = cluster, workload = workload, mapping = good_map }
local target_s = good.step_s * 1.05

local state = m.params * 16
local V = {
  name = m.name, layers = m.layers,
  params = string.format("%.0f billion", m.params / 1e9),
  state = U.format("bytes", state),
  hbm = U.format("bytes", gpu.hbm_bytes),
  min_gpus = math.ceil(state / gpu.hbm_bytes),
  n = nvl.domain_gpus,
  start_step = U.format("time", start.step_s),
  good_step = U.format("time", good.step_s),
  target = U.format("time", target_s),
  start_bubble = U.format("time", start.breakdown.bubble_s),
  good_bubble = U.format("time", good.breakdown.bubble_s),
}

return {
  id = "3d-parallelism-nvl72",
  title = "3D parallelism on NVL72",
  summary = "Choose TP, PP and DP for Llama 3 405B on racks and on servers.",
  track = "Parallelism on hardware",
  order = 8,
  minutes = 14,
  pages = {
    { kind = "text", title = "Three knobs", text = fill([[
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

    { kind = "text", title = "The recipe for NVL72", text = fill([[
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

    { kind = "text", title = "The task: too many stages", text = fill([[
# Find a better split
Eight GB200 NVL72 racks (576 GPUs) train {name}. The job runs as
TP 4 x PP 18 x DP 8: it fits in memory, but 18 pipeline stages
leave a large bubble ({start_bubble} per step). Step: {start_step}.

Change TP and PP (DP follows) to bring the step time down. Keep
TP inside a rack and make sure the model still fits.
]], V) },

    { kind = "scenario", title = "Tune the mapping",
      text = "Change TP and PP (DP follows) to cut the step time; keep TP " ..
        "inside a rack and the model in memory.",
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
        "Where does the time go? Look at the bubble.",
        "Fewer stages shrink the bubble; wider TP keeps the model fitting.",
        "Try TP 8 and PP 9: one model copy per rack.",
      },
      debrief = fill([[
TP 8 x PP 9 x DP 8: each rack holds one copy of the model, the
bubble drops from {start_bubble} to {good_bubble}, and the step
from {start_step} to {good_step}. Only gradient reductions cross
the scale-out fabric.
]], V),
      solution = { "tp 8", "pp 9" } },

    { kind = "compare", title = "Racks against servers", text = [[
The same 576 Blackwell GPUs, the same TP 8 x PP 9 x DP 8. Left,
NVL72 racks: a copy per rack. Right, 8-GPU servers: every stage
edge and every gradient reduction crosses the network.
]],
      workload = workload,
      left = { label = "8 x GB200 NVL72", cluster = cluster, mapping = good_map },
      right = { label = "72 x DGX B200", cluster = servers, mapping = good_map } },

    { kind = "text", title = "Summary", text = fill([[
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

    { kind = "quiz", title = "Check: TP 16 on NVL72?", text = fill([[
On NVL72 racks, why is TP 16 a poor choice even though 16 GPUs
fit easily inside one {n}-GPU rack?
]], V),
      choices = {
        { text = "16 does not divide 72, so some TP group spans two racks.",
          correct = true,
          explain = "72 / 16 = 4.5: the fifth group straddles the boundary." },
        { text = "NVLink cannot join more than 8 GPUs.",
          correct = false,
          explain = "Inside NVL72 all 72 GPUs are joined by NVLink." },
        { text = "TP must always equal PP.",
          correct = false,
          explain = "There is no such rule; the degrees are independent." },
      } },
  },
}
