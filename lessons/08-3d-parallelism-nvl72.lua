-- SPDX-License-Identifier: MIT
-- Lesson 8: 3D parallelism on an NVL72 cluster.
-- Sources: Llama 3 405B shape (126 layers, 16,384 hidden, 8 KV heads) from the
-- workload preset (Llama 3 Herd paper, Table 3). Training state of 18 bytes
-- per parameter as Megatron-LM's mixed precision keeps it (BF16 weights 2 +
-- FP32 gradients 4 + FP32 master weights and Adam moments 12; MODEL-FACTS.md
-- §8), read off one step of the model (src/model/step.c, step_memory), so the
-- lesson and the model agree. Llama 3 405B's own split, TP 8 x PP 16 x DP 128
-- on 16,384 H100s (CP 1 at 8K context): Llama 3 Herd paper §3.3.2, Table 4.
-- Mapping rule for NVL72
-- (TP inside the NVLink domain, PP across scale-out nodes, DP across the whole
-- fabric): the team's seed notes, checked against SC21 §3.2 and Llama 3
-- §3.3.2. All step times and memory figures below are computed by the model.
-- Llama 3 405B has 405 billion parameters as published (Llama 3 Herd paper).
-- In a pipeline, every stage waits for the slowest stage at each micro-batch;
-- DP replicas meet once per step for the gradient all-reduce (SC21 §2.2, §3.3).

local U = scalelab.units
local fill = scalelab.fill

local nvl = scalelab.system("gb200-nvl72")
local gpu = scalelab.gpu(nvl.gpu_id)
local m = scalelab.model("llama3-405b")

local cluster = { system = "gb200-nvl72", gpus = 576 }
local servers = { system = "dgx-b200", gpus = 576 }
local workload = { model = "llama3-405b", batch = 288, mb = 4 }
local workload1 = { model = "llama3-405b", batch = 288, mb = 1 }
local start_map = { tp = 16, pp = 9, dp = 4, zero = 1 }
local good_map = { tp = 8, pp = 9, dp = 8, zero = 1 }

local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local good = scalelab.step { cluster = cluster, workload = workload1, mapping = good_map }
local on_servers = scalelab.step { cluster = servers, workload = workload1, mapping = good_map }
local target_s = good.step_s * 1.05

-- Bytes per parameter of each part of the training state, read off the
-- model: one copy of Llama 3 8B held whole by each GPU, no sharding.
local m8 = scalelab.model("llama3-8b")
local probe = scalelab.step { cluster = { system = "dgx-h100", gpus = 8 },
  workload = { model = "llama3-8b", batch = 8, mb = 1 },
  mapping = { tp = 1, pp = 1, dp = 8, zero = 0 } }
local PART_B = { probe.memory.weights / m8.params, probe.memory.grads / m8.params,
                 probe.memory.optimizer / m8.params }
local STATE_B = PART_B[1] + PART_B[2] + PART_B[3]

local LLAMA3_405B_PARAMS = 405e9 -- as published
local state = LLAMA3_405B_PARAMS * STATE_B
-- The predict page: Llama 3's own split spreads a copy over TP 8 x PP 16.
local META_TP, META_PP, META_GPUS = 8, 16, 16384
local meta_share = META_TP * META_PP
local per_gpu_state = state / meta_share

-- Which TP groups of 16 straddle a rack boundary (ranks in order, TP
-- innermost: GPUs 16g to 16g + 15 form group g).
local c576 = scalelab.cluster(cluster)
local straddle, groups = 0, cluster.gpus // start_map.tp
for g = 0, groups - 1 do
  local first = g * start_map.tp
  if c576:domain_of(first) ~= c576:domain_of(first + start_map.tp - 1) then
    straddle = straddle + 1
  end
end

assert(straddle % start_map.dp == 0, "the straddling TP groups no longer split evenly over the pipelines")

local V = {
  name = m.name, layers = m.layers,
  params = "405 billion",
  state_b = string.format("%.0f", STATE_B),
  per_gpu_state = U.format("bytes", per_gpu_state),
  meta_tp = META_TP, meta_pp = META_PP, meta_share = meta_share,
  meta_gpus = "16,384", meta_dp = META_GPUS // meta_share,
  meta_by_tp = string.format("%d", META_GPUS // META_TP):gsub("^(%d)(%d%d%d)$", "%1,%2"),
  meta_by_pp = string.format("%d", META_GPUS // META_PP):gsub("^(%d)(%d%d%d)$", "%1,%2"),
  straddle = straddle, groups = groups,
  per_pipe = straddle // start_map.dp == 1 and "one such stage" or
    (straddle // start_map.dp .. " such stages"),
  start_mem = U.format("bytes", start.mem_per_gpu_bytes),
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

local lesson = {
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
take {state_b} bytes per parameter, {state} in all. One GPU has
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
      workload = workload1, mapping = { tp = 8, pp = 9, dp = 1 },
      text = [[
TP 8 x PP 9 = 72: one full copy of the model per rack. Eight such
racks give DP 8, and only gradients cross between racks.
]] },

    { kind = "predict", title = "Your estimate: state per GPU", text = fill([[
Meta trained {name} itself with TP {meta_tp} x PP {meta_pp}: each model
copy spread evenly over {meta_share} H100s, at {state_b} bytes per parameter
for weights, gradients and Adam state. Leave out activations and
ZeRO.
]], V),
      question = "How much training state does each GPU hold?",
      unit = "B", answer = per_gpu_state, tolerance = 0.15,
      slips = { per_server = 8 },
      terms = { { name = "the BF16 weights", value = LLAMA3_405B_PARAMS * PART_B[1] / meta_share },
                { name = "the FP32 gradients", value = LLAMA3_405B_PARAMS * PART_B[2] / meta_share },
                { name = "the optimizer state", value = LLAMA3_405B_PARAMS * PART_B[3] / meta_share } },
      formula = "405e9 x " .. V.state_b .. " / " .. meta_share .. " = " .. V.per_gpu_state },

    { kind = "text", steps = "paragraphs", title = "The task: TP 16 on NVL72", text = fill([[
# "72 GPUs per domain, so TP 16 is safe"
{racks} GB200 NVL72 racks ({gpus} GPUs) train {name} as TP 16 x PP 9
x DP 4, with micro-batches of 4. The reasoning was: 16 GPUs fit
easily in a {n}-GPU rack.

But ranks are laid out in order and {n} / 16 = 4.5: at every other
rack boundary a TP group runs into the next rack ({straddle} of the
{groups}). Each pipeline gets {per_pipe}, slow at every
micro-batch, and the whole pipeline waits for it. TP time:
{start_tp}; step: {start_step}; {start_mem} per GPU.
]], V) },

    { kind = "scenario", title = "Tune the mapping",
      text = "Some TP groups straddle two racks. Keep every TP group in one rack, " ..
        "and keep the model in memory.",
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "degrees", "micro" },
      goal = {
        text = "No TP group across racks; fit; step under " .. V.target .. ".",
        target = { step_s = target_s },
        check = function(r)
          if r.span.tp.domains > 1 then return false, "a TP group still spans two racks" end
          return scalelab.fits_under(r, target_s)
        end },
      hints = {
        "Where does the time go? Look at the TP part of the bar.",
        "A TP size that divides 72 never straddles a rack boundary.",
        "Halving TP doubles each GPU's activations: micro-batches must shrink too.",
      },
      debrief = function(r)
        return fill([[
You ended at TP {tp} x PP {pp} x DP {dp}, micro-batch {mb}: TP time
{tp_s} (from {start_tp}), step {step} (from {start_step}). TP stays in
the rack; smaller micro-batches make room for the activations.
]], scalelab.facts(r, { start_tp = V.start_tp, start_step = V.start_step }))
      end,
      solution = { "tp 8", "mb 2", "mb 1" }, par = 3 },

    { kind = "compare", title = "Racks against servers", text = fill([[
{gpus} Blackwell GPUs, TP 8 x PP 9 x DP 8: {srv_step} on servers,
{good_step} on racks. Most of the gap is the racks' faster chips;
stage edges crossing the network add only {srv_pp} of PP time.
]], V),
      workload = workload1,
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

    { kind = "quiz", title = "Check: how many copies?", calc = true, text = fill([[
Meta trained {name} on {meta_gpus} H100s with TP {meta_tp} and PP {meta_pp}
(no context parallelism at 8K tokens). How many data-parallel
copies of the model did that make?
]], V),
      choices = {
        { text = "DP " .. V.meta_dp, correct = true,
          explain = V.meta_gpus .. " / (" .. META_TP .. " x " .. META_PP .. ")." },
        { text = "DP " .. V.meta_by_tp, correct = false,
          explain = "That divides by TP alone; each copy also has " .. META_PP .. " stages." },
        { text = "DP " .. V.meta_by_pp, correct = false,
          explain = "That divides by PP alone; each stage is also " .. META_TP .. " GPUs of TP." },
        { text = "DP " .. META_PP, correct = false,
          explain = META_PP .. " is the number of pipeline stages in one copy." },
      } },

    { kind = "quiz", title = "Check: the recipe", text = fill([[
On a cluster of {n}-GPU NVL72 racks, which split should span the
whole scale-out fabric?
]], V),
      choices = {
        { text = "Data parallelism: gradients move once per step.",
          correct = true,
          explain = "It is the least frequent traffic and can overlap." },
        { text = "Tensor parallelism: it needs the most GPUs.",
          correct = false,
          explain = "TP talks in every layer and compute waits: it needs NVLink." },
        { text = "Expert parallelism: every MoE layer needs all GPUs.",
          correct = false,
          explain = "EP exchanges tokens every MoE layer; spanning the fabric makes each one slow." },
        { text = "Pipeline parallelism: its sends are the smallest.",
          correct = false,
          explain = "Its sends may cross racks, but one pipeline has only a few stages; it never needs the whole fabric." },
      } },
  },
}

return lesson
