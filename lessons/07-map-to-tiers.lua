-- SPDX-License-Identifier: MIT
-- Lesson 7: Map parallelism to tiers.
-- Sources: "use TP up to the GPUs of one server, then PP across servers":
-- Narayanan et al., SC21, §3.2 takeaway #1. Placement order [TP, CP, PP, DP]
-- from innermost to outermost: Llama 3 Herd paper §3.3.2. Link figures come from
-- the dgx-h100 preset (assets/; NVIDIA DGX H100 user guide, ConnectX-7 NDR).
-- Every number on screen below is computed by the model through scalelab.step.
-- Slurm allocates GPUs (gres) from shared nodes unless a job asks for whole
-- nodes with --exclusive: Slurm documentation, "Generic Resource (GRES)
-- Scheduling" and sbatch(1).
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
local good_map = { tp = 8, pp = 8, dp = 1 }
local good = scalelab.step { cluster = cluster, workload = workload, mapping = good_map }

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

-- Scenario: the scheduler's leftovers. Six DGX H100 servers, another job
-- holds half of server 0 and half of server 2 (GPUs 0-3 and 16-19). A job
-- that asked for 32 GPUs, not for whole servers, got the free ones in order
-- (Slurm hands out GPUs of shared nodes that way unless the job asks for
-- --exclusive nodes), so two of its four TP groups straddle servers.
-- Degrees may change, but TP 4 does not fit Llama 3 70B in HBM: the fix
-- is where the groups sit.
local left = { system = "dgx-h100", gpus = 32, machine_gpus = 48, busy = { "0-3", "16-19" } }
local left_wl = { model = "llama3-70b", batch = 64, mb = 1 }
local left_map = { tp = 8, pp = 4, zero = 1 }
local left_fix = { "group tp 12 to 40", "group tp 4 to 12" }
local left_start = scalelab.step { cluster = left, workload = left_wl, mapping = left_map }
local left_half = scalelab.step { cluster = left, workload = left_wl, mapping = left_map,
  moves = { left_fix[1] } }
local left_solved = scalelab.step { cluster = left, workload = left_wl, mapping = left_map,
  moves = left_fix }
local left_target = left_solved.step_s * 1.05
local left_tp4 = scalelab.step { cluster = left, workload = left_wl,
  mapping = { tp = 4, pp = 4, zero = 1 } }

local V = {
  state_gpu = U.format("bytes", state_per_gpu),
  state_b = string.format("%.0f", STATE_B),
  parts_b = string.format("%.0f + %.0f + %.0f", PART_B[1], PART_B[2], PART_B[3]),
  n = h.domain_gpus, gpus = cluster.gpus,
  up = U.format("bandwidth", h.up_bytes_per_s),
  out = U.format("bandwidth", h.out_bytes_per_s),
  good_step = U.format("time", good.step_s),
  good_up = U.format("bytes", good.bytes.scale_up),
  good_out = U.format("bytes", good.bytes.scale_out),
  left_step = U.format("time", left_start.step_s),
  left_tp = U.format("time", left_start.breakdown.tp_s),
  left_half = U.format("time", left_half.step_s),
  left_target = U.format("time", left_target),
  left_tp4_mem = U.format("bytes", left_tp4.mem_per_gpu_bytes),
  hbm = U.format("bytes", scalelab.gpu(h.gpu_id).hbm_bytes),
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

    { kind = "text", steps = "paragraphs", title = "The task: the scheduler's leftovers", text = fill([[
# A good mapping, badly placed
Llama 3 70B trains on 32 GPUs as TP 8 x PP 4: one TP group per
server, four pipeline stages. A good mapping. But the job asked the
scheduler for 32 GPUs, not for four whole servers, and another job
holds half of server 0 and half of server 2.

So the scheduler handed out the free GPUs in order: 4 in server 0,
8 in server 1, 4 in server 2, and so on. Two TP groups now straddle
two servers, and their all-reduces cross the network at {out} per
GPU instead of NVLink's {up}. Step: {left_step}.

Smaller TP groups would fit the scraps, but TP 4 needs {left_tp4_mem}
per GPU of {hbm}. The degrees are right; where the groups sit is not.
*g* picks the TP group under the cursor, *Enter* drops it where the
cursor is: on a free GPU it gathers there, on another group the two
trade places.
]], V) },

    { kind = "scenario", title = "The scheduler's leftovers",
      text = "Two TP groups straddle servers. Server 5 is free. Move the groups so "
        .. "every one sits in one server.",
      cluster = left, workload = left_wl, mapping = left_map,
      allow = { "tp groups", "degrees" },
      predict = { at = "group", ask = "change" },
      goal = {
        text = "Step under " .. V.left_target .. ", the model in memory.",
        target = { step_s = left_target },
        check = function(r)
          return scalelab.fits_under(r, left_target)
        end },
      hints = {
        "The goal line names the TP groups that cross servers. A pipeline runs at the pace of "
          .. "its slowest stage: how many stages are slow now?",
        "Fixing one straddling group alone changes nothing while the other still crosses. "
          .. "Fix both, in an order that leaves room.",
        "Server 5 (GPUs 40-47) is free: gather one straddling group there, then the other into "
          .. "the space it left in server 1.",
      },
      debrief = function(r)
        return fill([[
Every TP group sits in one server now: TP time {tp_s} (it was
{left_tp}), {step} a step. One group moved alone changed nothing,
{left_half}: a pipeline waits for its slowest stage. In a real cluster,
ask for whole servers (Slurm's --exclusive) or let a topology-aware
scheduler place the job; the model can only be as fast as its worst
group.
]], scalelab.facts(r, { left_tp = V.left_tp, left_half = V.left_half }))
      end,
      solution = left_fix, par = 4 },

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
