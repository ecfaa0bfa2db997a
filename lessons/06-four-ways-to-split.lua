-- SPDX-License-Identifier: MIT
-- Lesson 6: Four ways to split the work.
-- Sources: traffic of each parallelism, from MODEL-FACTS.md §6:
-- TP: 2 all-reduces forward + 2 backward per layer of b*s*h elements
-- (Narayanan et al., SC21, §2.3 and §3.2); PP: b*s*h per micro-batch per stage
-- boundary each way, bubble (p-1)/m (SC21 §2.2); DP: one gradient all-reduce per
-- step of the parameters a GPU holds (SC21 §3.3.1); EP: 2 all-to-alls forward and
-- 2 backward per MoE layer (DeepSeek-V3 technical report §3.2). Model shapes
-- come from the workload presets (Llama 3 Herd paper; DeepSeek-V3 report).
-- BF16 = 2 bytes per element. Gradients are reduced in FP32, 4 bytes each, as
-- Megatron-LM does by default with BF16 training (its grad_reduce_in_fp32;
-- the model's DP term, src/model/step.c, sends 4 bytes per parameter too).
-- Llama 3 70B has 70.6 billion parameters as published (Meta model card). "DP talks once per step" holds for plain DP and
-- ZeRO-1/2; ZeRO-3/FSDP also all-gathers the weights in every layer (ZeRO,
-- Rajbhandari et al., SC20; MODEL-FACTS.md §6.3). EP crosses the scale-out
-- network in practice: DeepSeek-V3 used EP 64 over InfiniBand with routing
-- limited to 4 nodes per token (technical report §3.2).

local U = scalelab.units
local fill = scalelab.fill

local m = scalelab.model("llama3-70b")
local moe = scalelab.model("deepseek-v3")
local B = 2 -- bytes per BF16 element
local GRAD_B = 4 -- bytes per FP32 gradient

local act = m.seq * m.hidden * B            -- one micro-batch of 1 sequence
local tp_per_layer = 4 * act                 -- 4 all-reduces per layer
-- The predict page: the same count for GPT-3 175B.
local g3 = scalelab.model("gpt3-175b")
local g3_act = g3.seq * g3.hidden * B
local g3_tp = 4 * g3_act * g3.layers
local ep_dispatch = moe.seq * moe.topk * moe.hidden * B

local LLAMA3_70B_PARAMS = 70.6e9 -- as published (Meta model card)
local grads_pub = LLAMA3_70B_PARAMS * GRAD_B

-- Scenario: an 8-stage pipeline fed 16 sequences per step in micro-batches of 2.
local cluster = { system = "dgx-h100", gpus = 64 }
local workload = { model = "llama3-70b", batch = 16, mb = 2 }
local start_map = { tp = 8, pp = 8, dp = 1, zero = 1 }
local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local solved = scalelab.step { cluster = cluster, workload = { model = "llama3-70b",
  batch = 16, mb = 1 }, mapping = { tp = 8, pp = 2, zero = 1 } }
local target_s = solved.step_s * 1.05

local V = {
  start_share = string.format("%.0f%%", 100 * start.breakdown.bubble_s / start.step_s),
  target = U.format("time", target_s),
  grads_pub = U.format("bytes", grads_pub),
  name = m.name, seq = m.seq, hidden = m.hidden, layers = m.layers,
  params = "70.6 billion",
  act = U.format("bytes", act),
  tp_layer = U.format("bytes", tp_per_layer),
  tp_all = U.format("bytes", tp_per_layer * m.layers),
  grads = U.format("bytes", grads_pub),
  g3_name = g3.name, g3_layers = g3.layers, g3_seq = g3.seq, g3_hidden = g3.hidden,
  g3_act = U.format("bytes", g3_act), g3_tp = U.format("bytes", g3_tp),
  moe_name = moe.name, topk = moe.topk, experts = moe.experts,
  ep_dispatch = U.format("bytes", ep_dispatch),
}

local lesson = {
  id = "four-ways-to-split",
  title = "Four ways to split the work",
  summary = "Data, tensor, pipeline and expert parallelism: what each sends.",
  track = "Part 2: Parallelism on hardware",
  order = 6,
  minutes = 12,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Data parallelism", text = fill([[
# DP: same model, different data
Each GPU (or group of GPUs) holds the whole model and works through
its own slice of the batch. At the end of the step the gradients
of all the copies are averaged with an *all-reduce*, so that every
copy applies the same update and none drifts away from the rest.

- What: gradients, one FP32 value (4 bytes) per parameter.
- How much: for {name} ({params} parameters), {grads} per
  copy per step.
- How often: *once per step*, and much of it overlaps the backward
  pass. (ZeRO-3 and FSDP also gather weights in every layer.)

Big, but rare and patient: it tolerates a slower network.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Tensor parallelism", text = fill([[
# TP: split every layer
The big weight matrices of each layer are cut into slices, one
per GPU, so all the GPUs of a group work on every multiplication
at once. After the pieces are computed they must be summed:
2 all-reduces in the forward pass and 2 in the backward pass of
*every* layer.

- What: activations, sequence x hidden = {seq} x {hidden} values.
- How much: {act} per all-reduce; {tp_layer} per layer, {tp_all}
  over {name}'s {layers} layers, for one sequence.
- How often: every layer, every micro-batch. Nothing else can run
  while the GPUs wait: it sits on the critical path.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Pipeline parallelism", text = fill([[
# PP: a relay of layers
The layers are cut into consecutive *stages* on different GPUs.
Think of a relay race in which every runner covers a few layers
and hands the baton on. The batch is cut into *micro-batches* that
follow each other down the track, so that no runner waits long.

- What: the activations at the cut, {act} per micro-batch, each
  way (forward, then gradients back).
- How often: once per micro-batch per stage boundary: modest.
- The cost: at the start and end of each step some runners stand
  idle, the *bubble*: (stages - 1) / micro-batches of the work.

Small point-to-point sends: easy for a slower network.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Expert parallelism", text = fill([[
# EP: specialists on different GPUs
A *mixture-of-experts* model has many specialist sub-networks
(experts) per layer; each token uses only a few. {moe_name} has
{experts} experts per MoE layer and sends each token to {topk}.

With EP each GPU holds its own experts. Every MoE layer ships
tokens to the GPUs that hold their experts (*dispatch*) and back
(*combine*): all-to-all exchanges, 2 forward and 2 backward.

- How much: about {ep_dispatch} per sequence per dispatch.
- How often: every MoE layer, every micro-batch, on the critical
  path, and all-to-all: everyone talks to everyone.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Side by side", text = [[
# Who sends what, how often
- *DP*: gradients, once per step, by all-reduce.
- *TP*: activations, 4 times per layer and micro-batch, by
  all-reduce, while compute waits.
- *PP*: activations at stage edges, once per micro-batch, point
  to point.
- *EP*: routed tokens, 4 times per MoE layer and micro-batch, all
  to all, while compute waits.

TP needs the fastest links. EP wants them too, but large runs let
it cross the network and hide part of it behind compute. PP and DP
send less often: they live well on a slower network.
]] },

    { kind = "diagram", title = "TP against step time", view = "chart",
      cluster = { system = "dgx-h100", gpus = 128 },
      workload = { model = "gpt3-175b", batch = 256, mb = 1 },
      mapping = { tp = 8, pp = 8, dp = 2 },
      chart = { x = "tp", values = { 1, 2, 4, 8, 16 } },
      text = [[
GPT-3 175B on 16 DGX H100 servers with PP 8. Below TP 8 the model
does not fit in memory; at TP 16 each TP group spans two servers
and the step time jumps.
]] },

    { kind = "predict", title = "Your estimate: TP traffic", text = fill([[
{g3_name} has {g3_layers} layers; one sequence of activations is
{g3_seq} x {g3_hidden} BF16 values. Its tensor-parallel groups
all-reduce that much in every layer, as Llama 3 70B's do.
]], V),
      question = "How many bytes do the TP all-reduces handle for one sequence?",
      unit = "B", answer = g3_tp, tolerance = 0.15,
      slips = { "fp32" },
      terms = { { name = "the forward pass", value = g3_tp / 2 },
                { name = "the backward pass", value = g3_tp / 2 } },
      formula = fill("4 all-reduces x {seq} x {h} x 2 bytes ({act}) x {l} layers = {t}",
        { seq = g3.seq, h = g3.hidden, act = V.g3_act, l = g3.layers, t = V.g3_tp }) },

    { kind = "scenario", title = "Shrink the bubble", text = fill([[
TP 8 x PP 8 fed 16 sequences as micro-batches of 2: the bubble is
{start_share} of the step. Shrink it; the model must still fit.]], V),
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "degrees", "micro" },
      goal = {
        text = "Fit in memory with a step under " .. V.target .. ".",
        target = { step_s = target_s },
        check = function(r)
          return scalelab.fits_under(r, target_s, string.format("the bubble is %.0f%% of it",
            100 * r.breakdown.bubble_s / r.step_s))
        end },
      hints = {
        "The bubble is (stages - 1) / micro-batches of the work.",
        "Two levers: fewer stages, or more micro-batches. One alone is not enough.",
        "Fewer stages raise DP, and each pipeline gets fewer sequences: use mb 1 too.",
      },
      debrief = function(r)
        return fill([[
You ended at PP {pp} with micro-batches of {mb}: the bubble is {bubble_pct}
of the step, and {mem} per GPU fits. Fewer stages cost memory and
leave each pipeline fewer sequences; smaller micro-batches refill it.
]], scalelab.facts(r))
      end,
      solution = { "pp 4", "pp 2", "mb 1" }, par = 3 },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- DP copies the model and all-reduces gradients once per step.
- TP slices every layer and all-reduces activations 4 times per
  layer per micro-batch, on the critical path.
- PP cuts the model into stages; small sends, but a bubble of
  (stages - 1) / micro-batches.
- EP spreads the experts of a mixture-of-experts model and
  exchanges tokens all-to-all in every MoE layer.
- TP's frequent, blocking traffic needs the fastest tier; EP wants
  it too, and pays a price when it crosses the network.
]] },

    { kind = "quiz", title = "Check: the bubble", calc = true, text = [[
A pipeline has 8 stages and each step streams 16 micro-batches
through it. How long is the bubble, as a fraction of the time the
step would take with no bubble at all?
]],
      choices = {
        { text = "7/16, about 44%", correct = true,
          explain = "(stages - 1) / micro-batches = 7 / 16." },
        { text = "7/8, about 88%", correct = false,
          explain = "That divides by the stages; the bubble shrinks with more micro-batches." },
        { text = "1/2, exactly 50%", correct = false,
          explain = "That uses all 8 stages; the first stage starts at once, so count stages - 1." },
        { text = "1/16, about 6%", correct = false,
          explain = "That ignores the stages: each extra stage adds one more slot of waiting." },
      } },

    { kind = "quiz", title = "Check: the chattiest", text = [[
Which two kinds of parallelism exchange data inside every layer,
on every micro-batch?
]],
      choices = {
        { text = "Tensor and expert parallelism.", correct = true,
          explain = "Yes: all-reduces (TP) and all-to-alls (EP) in every layer." },
        { text = "Data and pipeline parallelism.", correct = false,
          explain = "DP talks once per step; PP only at stage boundaries." },
        { text = "Data and tensor parallelism.", correct = false,
          explain = "Plain DP reduces gradients once per step, not per layer." },
        { text = "Pipeline and expert parallelism.", correct = false,
          explain = "PP sends only at stage boundaries, once per micro-batch." },
      } },
  },
}

return lesson
