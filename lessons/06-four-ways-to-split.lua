-- Lesson 6: Four ways to split the work.
-- Sources: traffic of each parallelism, from MODEL-FACTS.md §6:
-- TP: 2 all-reduces forward + 2 backward per layer of b*s*h elements
-- (Narayanan et al., SC21, §2.3 and §3.2); PP: b*s*h per micro-batch per stage
-- boundary each way, bubble (p-1)/m (SC21 §2.2); DP: one gradient all-reduce per
-- step of the parameters a GPU holds (SC21 §3.3.1); EP: 2 all-to-alls forward and
-- 2 backward per MoE layer (DeepSeek-V3 technical report §3.2). Model shapes
-- come from the workload presets (Llama 3 Herd paper; DeepSeek-V3 report).
-- BF16 = 2 bytes per element.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end

local m = scalelab.model("llama3-70b")
local moe = scalelab.model("deepseek-v3")
local B = 2 -- bytes per BF16 element

local act = m.seq * m.hidden * B            -- one micro-batch of 1 sequence
local tp_per_layer = 4 * act                 -- 4 all-reduces per layer
local grads = m.params * B                   -- gradient bytes of a full copy
local ep_dispatch = moe.seq * moe.topk * moe.hidden * B

local V = {
  name = m.name, seq = m.seq, hidden = m.hidden, layers = m.layers,
  params = string.format("%.0f billion", m.params / 1e9),
  act = U.format("bytes", act),
  tp_layer = U.format("bytes", tp_per_layer),
  tp_all = U.format("bytes", tp_per_layer * m.layers),
  grads = U.format("bytes", grads),
  moe_name = moe.name, topk = moe.topk, experts = moe.experts,
  ep_dispatch = U.format("bytes", ep_dispatch),
}

return {
  id = "four-ways-to-split",
  title = "Four ways to split the work",
  summary = "Data, tensor, pipeline and expert parallelism: what each sends.",
  track = "Part 2: Parallelism on hardware",
  order = 6,
  minutes = 12,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Data parallelism", text = fill([[
# DP: same model, different data
Every GPU (or group of GPUs) keeps a full copy of the model and
trains on its own share of the batch. After each step the copies
pool what they learned: they average their gradients with an
*all-reduce*, so all copies stay identical.

- What: gradients, one value per parameter.
- How much: for {name} ({params} parameters) in BF16, {grads}
  per copy per step.
- How often: *once per step*, and much of it can overlap with
  the backward pass.

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
# PP: an assembly line of layers
The layers are cut into consecutive *stages* on different GPUs,
like stations on a production line. The batch is chopped into
*micro-batches* that stream through, so every station has work.

- What: the activations at the cut, {act} per micro-batch, each
  way (forward, then gradients back).
- How often: once per micro-batch per stage boundary: modest.
- The cost: at the start and end of each step some stations sit
  idle, the *bubble*: (stages - 1) / micro-batches of the time.

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

TP and EP talk inside every layer and stall compute while they
do: they need the fastest links. PP and DP send less often and
can hide behind compute: they can live with a slower network.
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

    { kind = "text", steps = "paragraphs", title = "The task: a starved pipeline", text = [[
# Keep the line busy
Llama 3 70B runs on 64 GPUs as TP 8 x PP 8: an eight-stage
pipeline. Each step it gets 16 sequences, fed as micro-batches
of 2, so only 8 micro-batches flow through 8 stages. The bubble
is (8 - 1) / 8 of the work: the stations spend nearly half the
step waiting.

On the next page, change the micro-batch size until the bubble is
below 40% of the step. Watch the bar's bubble segment.
]] },

    { kind = "scenario", title = "Shrink the bubble",
      text = "Change the micro-batch size so that the pipeline bubble " ..
        "takes less than 40% of the step.",
      cluster = { system = "dgx-h100", gpus = 64 },
      workload = { model = "llama3-70b", batch = 16, mb = 2 },
      mapping = { tp = 8, pp = 8, dp = 1 },
      allow = { "micro" },
      goal = {
        text = "Make the bubble less than 40% of the step.",
        check = function(r)
          local share = r.breakdown.bubble_s / r.step_s
          if share < 0.40 then return true end
          return false, string.format("the bubble is still %.0f%% of the step", 100 * share)
        end },
      hints = {
        "The bubble is (stages - 1) / micro-batches of the work.",
        "Smaller micro-batches mean more of them per step.",
        "Set the micro-batch to 1: 16 micro-batches instead of 8.",
      },
      debrief = [[
Micro-batches of 1: 16 of them now stream through 8 stages, and
the idle share falls from 7/8 to 7/16 of the work. The price is
smaller matrix multiplications and more, smaller sends.
]],
      solution = { "mb 1" } },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- DP copies the model and all-reduces gradients once per step.
- TP slices every layer and all-reduces activations 4 times per
  layer per micro-batch, on the critical path.
- PP cuts the model into stages; small sends, but a bubble of
  (stages - 1) / micro-batches.
- EP spreads the experts of a mixture-of-experts model and
  exchanges tokens all-to-all in every MoE layer.
- Frequent, blocking traffic (TP, EP) needs the fastest tier.
]] },

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
          explain = "DP reduces gradients once per step, not per layer." },
      } },
  },
}
