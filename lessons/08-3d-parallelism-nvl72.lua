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
-- Schedulers that share racks between jobs hand a job the free GPUs of each
-- (Slurm's GRES allocation; the topology/block plugin exists to keep a job on
-- whole NVL72 blocks: Slurm documentation, "Topology Guide").

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

-- Scenario: three NVL72 racks; another job holds half of rack 0 (GPUs 0-35)
-- and half of rack 1 (108-143). Llama 3 405B on 128 GPUs as TP 8 x PP 8 x
-- DP 2 got the free GPUs in order: 36 in rack 0 (four TP groups and half a
-- fifth), 36 in rack 1, the rest in rack 2, which keeps 16 free. The half
-- group makes its stage slow at every micro-batch, and micro-batches of 4
-- do not fit. Two kinds of decision: where that group sits, and the
-- micro-batch (memory and the bubble).
local split = { system = "gb200-nvl72", gpus = 128, machine_gpus = 216,
                busy = { "0-35", "108-143" } }
local split_wl = { model = "llama3-405b", batch = 128, mb = 4 }
local split_map = { tp = 8, pp = 8, zero = 1 }
local split_fix = { "group tp 68 to 200", "mb 2", "mb 1" }
local split_start = scalelab.step { cluster = split, workload = split_wl, mapping = split_map }
local split_mb1 = scalelab.step { cluster = split, workload = { model = "llama3-405b",
  batch = 128, mb = 1 }, mapping = split_map }
local split_solved = scalelab.step { cluster = split, workload = split_wl, mapping = split_map,
  moves = split_fix }
local target_s = math.sqrt(split_solved.step_s * split_mb1.step_s)
assert(split_solved.fits and not split_start.fits and split_mb1.step_s > target_s,
  "re-tune: the scattered job no longer needs both the move and the micro-batch")

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

local V = {
  name = m.name, layers = m.layers,
  params = "405 billion",
  state_b = string.format("%.0f", STATE_B),
  per_gpu_state = U.format("bytes", per_gpu_state),
  meta_tp = META_TP, meta_pp = META_PP, meta_share = meta_share,
  meta_gpus = "16,384", meta_dp = META_GPUS // meta_share,
  meta_by_tp = string.format("%d", META_GPUS // META_TP):gsub("^(%d)(%d%d%d)$", "%1,%2"),
  meta_by_pp = string.format("%d", META_GPUS // META_PP):gsub("^(%d)(%d%d%d)$", "%1,%2"),
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
  split_step = U.format("time", split_start.step_s),
  split_tp = U.format("time", split_start.breakdown.tp_s),
  split_mem = U.format("bytes", split_start.mem_per_gpu_bytes),
  split_mb1 = U.format("time", split_mb1.step_s),
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

    { kind = "text", steps = "paragraphs", title = "The task: a job across three racks", text = fill([[
# Half a group in each rack
Three NVL72 racks; another job holds half of rack 0 and half of
rack 1. {name} on 128 GPUs as TP 8 x PP 8 x DP 2 got the free GPUs
in order: 36 in rack 0, four TP groups and half of a fifth, then 36
in rack 1, then rack 2, which keeps 16 free.

The half group's all-reduces cross the NICs, so its pipeline stage
is slow at every micro-batch and the whole pipeline waits for it:
TP time {split_tp}. And with micro-batches of 4 the activations do not
fit: {split_mem} per GPU of {hbm}.

Two kinds of decision, then: where that group sits (g, Enter), and
how big a micro-batch is (m/M), for memory and for the bubble.
]], V) },

    { kind = "scenario", title = "Scattered across racks",
      text = "Half a TP group in each of two racks, and micro-batches that do not fit. "
        .. "Rack 2 has free GPUs.",
      cluster = split, workload = split_wl, mapping = split_map,
      allow = { "tp groups", "micro" },
      predict = { at = "micro", ask = "part" },
      goal = {
        text = "Fit in memory with a step under " .. V.target .. ".",
        target = { step_s = target_s },
        check = function(r)
          return scalelab.fits_under(r, target_s)
        end },
      hints = {
        "Two problems: the goal line names the TP group that crosses racks, and the memory does "
          .. "not fit. Which key helps each?",
        "Smaller micro-batches hold fewer activations and shrink the bubble; alone they reach "
          .. V.split_mb1 .. ", the crossing group still slowing every micro-batch.",
        "Gather the straddling group in rack 2 (g, then Enter on a free GPU), and halve the "
          .. "micro-batch until the model fits.",
      },
      debrief = function(r)
        return fill([[
You ended with TP {tp} x PP {pp} x DP {dp}, micro-batch {mb}: {step} a
step, {mem} per GPU, TP {tp_s} (it was {split_tp}). Each stage is one
TP group inside a rack; the pipeline runs at its slowest stage, so one
stray group slowed all eight. The micro-batch fixed the memory and
thinned the bubble ({bubble_pct} of the step now).
]], scalelab.facts(r, { split_tp = V.split_tp }))
      end,
      solution = split_fix, par = 4 },

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
