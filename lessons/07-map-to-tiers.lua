-- SPDX-License-Identifier: MIT
-- Lesson 7: Map parallelism to tiers.
-- Sources: "use TP up to the GPUs of one server, then PP across servers":
-- Narayanan et al., SC21, §3.2 takeaway #1. Placement order [TP, CP, PP, DP]
-- from innermost to outermost: Llama 3 Herd paper §3.3.2. Link figures come from
-- the dgx-h100 preset (assets/; NVIDIA DGX H100 user guide, ConnectX-7 NDR).
-- Every number on screen below is computed by the model through scalelab.step.
-- EP across the scale-out network: DeepSeek-V3 trained with EP 64 over
-- InfiniBand across 8 nodes, each token sent to at most 4 nodes, with the
-- all-to-all overlapped with compute (DualPipe): DeepSeek-V3 technical report
-- §3.2. Training state per parameter as Megatron-LM's mixed precision keeps it
-- (BF16 weights 2 + FP32 gradients 4 + FP32 master weights and Adam moments
-- 12 = 18 bytes; MODEL-FACTS.md §8), read off one step of the model so the
-- page teaches the rule the model (src/model/step.c, step_memory) uses.

local U = scalelab.units
local fill = scalelab.fill

local h = scalelab.system("dgx-h100")
local cluster = { system = "dgx-h100", gpus = 64 }
local workload = { model = "gpt3-175b", batch = 64, mb = 1 }
local bad_map = { tp = 16, pp = 4, dp = 1 }
local good_map = { tp = 8, pp = 8, dp = 1 }

local bad = scalelab.step { cluster = cluster, workload = workload, mapping = bad_map }
local good = scalelab.step { cluster = cluster, workload = workload, mapping = good_map }
-- The goal: within 10% of the step time of the well-mapped job.
local target_s = good.step_s * 1.10

-- Bytes per parameter of each part of the training state, read off the
-- model: one copy of Llama 3 8B held whole by each GPU, no sharding.
local m8 = scalelab.model("llama3-8b")
local probe = scalelab.step { cluster = { system = "dgx-h100", gpus = 8 },
  workload = { model = "llama3-8b", batch = 8, mb = 1 },
  mapping = { tp = 1, pp = 1, dp = 8, zero = 0 } }
local PART_B = { probe.memory.weights / m8.params, probe.memory.grads / m8.params,
                 probe.memory.optimizer / m8.params }
local STATE_B = PART_B[1] + PART_B[2] + PART_B[3]

local m = scalelab.model("gpt3-175b")
local share = good_map.tp * good_map.pp
local state_per_gpu = m.params * STATE_B / share

local V = {
  state_gpu = U.format("bytes", state_per_gpu),
  state_b = string.format("%.0f", STATE_B),
  parts_b = string.format("%.0f + %.0f + %.0f", PART_B[1], PART_B[2], PART_B[3]),
  n = h.domain_gpus, gpus = cluster.gpus,
  up = U.format("bandwidth", h.up_bytes_per_s),
  out = U.format("bandwidth", h.out_bytes_per_s),
  bad_step = U.format("time", bad.step_s),
  good_step = U.format("time", good.step_s),
  target = U.format("time", target_s),
  bad_tp = U.format("time", bad.breakdown.tp_s),
  good_tp = U.format("time", good.breakdown.tp_s),
  good_up = U.format("bytes", good.bytes.scale_up),
  good_out = U.format("bytes", good.bytes.scale_out),
}

local lesson = {
  id = "map-to-tiers",
  title = "Map parallelism to tiers",
  summary = "Tensor and expert parallelism inside; pipeline and data outside.",
  track = "Part 2: Parallelism on hardware",
  order = 7,
  minutes = 12,
  pages = {
    { kind = "text", steps = "paragraphs", title = "The rule", text = [[
# Match the traffic to the tier
The boundary between scale-up and scale-out decides how a job
should be split:

- *Tensor* parallelism talks inside every layer and stalls compute
  while it does: keep each TP group inside one scale-up domain.
- *Expert* parallelism also talks in every MoE layer, but can be
  spread over the network if the job hides the exchange (below).
- *Pipeline* parallelism sends small activations at stage edges:
  it can span the scale-out network.
- *Data* parallelism reduces gradients once per step, overlapped
  with compute: it spans the whole fabric.

A TP group that spills onto the network drags the whole job down.
]] },

    { kind = "text", steps = "paragraphs", title = "Inside out", text = [[
# Innermost to outermost
Big training runs write the rule as a placement order. Llama 3
lays its dimensions out as

`TP  ->  CP  ->  PP  ->  DP`

from innermost (GPUs in the same server, highest bandwidth) to
outermost (farthest apart, most hops). Consecutive GPU numbers
form a TP group first; TP groups line up into context-parallel
(CP) groups, then pipeline stages, then data-parallel copies.

scalelab places ranks in this order by default, so a mapping
whose TP size fits the domain is laid out well from the start.
]] },

    { kind = "diagram", title = "A well-mapped job", view = "rack",
      cluster = cluster, workload = workload, mapping = good_map,
      text = fill([[
TP 8 inside each server, 8 pipeline stages across servers. Per
GPU and step: {good_up} on NVLink, {good_out} over the network.
]], V) },

    { kind = "predict", title = "Your estimate: memory per GPU", text = fill([[
GPT-3 175B trains with mixed-precision Adam: {state_b} bytes per parameter
({parts_b}: BF16 weights, FP32 gradients, FP32 optimizer state).
With TP 8 x PP 8 each model copy is spread evenly over 64 GPUs.
Ignore activations and ZeRO.
]], V),
      question = "How much training state does each GPU hold?",
      unit = "B", answer = state_per_gpu, tolerance = 0.15,
      slips = { per_server = h.domain_gpus },
      terms = { { name = "the BF16 weights", value = m.params * PART_B[1] / share },
                { name = "the FP32 gradients", value = m.params * PART_B[2] / share },
                { name = "the optimizer state", value = m.params * PART_B[3] / share } },
      formula = string.format("%.0fe9 x %s / 64 = ", m.params / 1e9, V.state_b) .. V.state_gpu },

    { kind = "text", steps = "paragraphs", title = "The task: a misconfigured job", text = fill([[
# Fix a misconfigured job
GPT-3 175B is training on {gpus} GPUs in 8-GPU servers, but someone
set tensor parallelism to 16. Every TP group straddles two
servers, so its all-reduces cross the network at {out} per GPU
instead of NVLink's {up}. Step time: {bad_step}.

Change the degrees so tensor parallelism fits inside a server.
Changing TP or PP resizes DP to use all {gpus} GPUs. Watch memory:
a smaller TP group leaves more of the model on each GPU.
]], V) },

    { kind = "scenario", title = "TP across servers",
      text = "TP 16 straddles two 8-GPU servers. Change the degrees so " ..
        "every TP group fits in one server.",
      cluster = cluster, workload = workload, mapping = bad_map,
      allow = { "degrees" },
      goal = {
        text = "Fit in memory with a step under " .. V.target .. ".",
        check = function(r)
          return scalelab.fits_under(r, target_s)
        end },
      hints = {
        "Which parallel group is crossing between servers?",
        "A TP group must fit in one server: TP at most " .. h.domain_gpus .. ".",
        "TP 8 fits a server; then add pipeline stages until the model fits.",
      },
      debrief = function(r)
        return fill([[
You ended at TP {tp} x PP {pp} x DP {dp}: TP time went from {bad_tp} to
{tp_s}, the step from {bad_step} to {step}. TP now stays on NVLink;
pipeline stages hold the memory, and only their small sends cross.
]], scalelab.facts(r, { bad_tp = V.bad_tp, bad_step = V.bad_step }))
      end,
      solution = { "tp 8", "pp 8" }, par = 2 },

    { kind = "text", steps = "paragraphs", title = "What about EP?", text = [[
# Experts: costly across, not forbidden
An expert-parallel group exchanges tokens all-to-all in every MoE
layer. If it spans domains, tokens whose expert sits in another
domain cross the network, and the layer waits for the slowest.

That is a cost, not a wall. DeepSeek-V3 trained with EP 64 over
InfiniBand, across 8 nodes of 8 GPUs: it sent each token to at
most 4 nodes and overlapped the exchange with computation.

A wide domain makes it cheaper: a 72-GPU rack holds an EP group
that an 8-GPU server cannot. Lesson 9 puts numbers on it.
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- TP inside the scale-up domain; EP inside when it can be, across
  at a price; PP across scale-out nodes; DP over the whole fabric.
- Place dimensions innermost to outermost: TP, CP, PP, DP.
- A TP group that crosses the boundary pays the network price in
  every layer: throughput collapses.
- The fix is a setting or two: shrink TP to fit the domain, then
  let PP or DP take up the rest, and check that memory still fits.
]] },

    { kind = "quiz", title = "Check: one model copy", calc = true, text = [[
A job runs TP 8, PP 4 and DP 16 on 8-GPU servers, laid out TP
innermost. How many servers does one model copy (one pipeline) use?
]],
      choices = {
        { text = "4 servers", correct = true,
          explain = "TP 8 fills a server; the 4 stages sit on 4 servers." },
        { text = "32 servers", correct = false,
          explain = "32 is TP x PP, a count of GPUs; each server holds 8 of them." },
        { text = "16 servers", correct = false,
          explain = "16 is the DP degree: the number of copies, not one copy's size." },
        { text = "64 servers", correct = false,
          explain = "That is the whole cluster, all 16 copies together." },
      } },

    { kind = "quiz", title = "Check: which may cross?", text = [[
A job uses TP 8, PP 4 and DP 16 on 8-GPU servers. Which groups
should cross between servers?
]],
      choices = {
        { text = "PP and DP groups; each TP group stays in one server.",
          correct = true,
          explain = "The rare, small or overlappable traffic crosses." },
        { text = "TP groups, so that every server holds a whole pipeline.",
          correct = false,
          explain = "TP traffic is the heaviest and most frequent, and compute waits for it." },
        { text = "None: all groups must stay inside one server.",
          correct = false,
          explain = "With 512 GPUs that is impossible, and PP/DP cope fine." },
        { text = "DP groups only: pipeline stages should share a server.",
          correct = false,
          explain = "TP 8 fills each server, so the stages cannot share one; their sends are small." },
      } },
  },
}

return lesson
