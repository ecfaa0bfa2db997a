-- Lesson 7: Map parallelism to tiers.
-- Sources: "use TP up to the GPUs of one server, then PP across servers":
-- Narayanan et al., SC21, §3.2 takeaway #1. Placement order [TP, CP, PP, DP]
-- from innermost to outermost: Llama 3 Herd paper §3.3.2. Link figures come from
-- the dgx-h100 preset (assets/; NVIDIA DGX H100 user guide, ConnectX-7 NDR).
-- Every number on screen below is computed by the model through scalelab.step.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end

local h = scalelab.system("dgx-h100")
local cluster = { system = "dgx-h100", gpus = 64 }
local workload = { model = "gpt3-175b", batch = 64, mb = 1 }
local bad_map = { tp = 16, pp = 4, dp = 1 }
local good_map = { tp = 8, pp = 8, dp = 1 }

local bad = scalelab.step { cluster = cluster, workload = workload, mapping = bad_map }
local good = scalelab.step { cluster = cluster, workload = workload, mapping = good_map }
-- The goal: within 10% of the step time of the well-mapped job.
local target_s = good.step_s * 1.10

local V = {
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

return {
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

- *Tensor* and *expert* parallelism talk inside every layer and
  block compute while they do. Keep their groups strictly inside
  one scale-up domain.
- *Pipeline* parallelism sends small activations at stage edges:
  it can span the scale-out network.
- *Data* parallelism reduces gradients once per step, overlapped
  with compute: it spans the whole fabric.

If a TP group spills onto the network, throughput collapses.
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
          if not r.fits then return false, "the model does not fit in HBM" end
          if r.step_s < target_s then return true end
          return false, "step " .. U.format("time", r.step_s) .. ", goal " .. V.target
        end },
      hints = {
        "Which parallel group is crossing between servers?",
        "A TP group must fit in one server: TP at most " .. h.domain_gpus .. ".",
        "Set TP to 8, then PP to 8 so the model fits again.",
      },
      debrief = fill([[
With TP 8 every all-reduce stays on NVLink: TP time falls from
{bad_tp} to {good_tp}, the step from {bad_step} to {good_step}.
PP 8 keeps the model in memory; its small sends cross servers.
]], V),
      solution = { "tp 8", "pp 8" } },

    { kind = "text", steps = "paragraphs", title = "What about EP?", text = [[
# Experts follow the same rule
An expert-parallel group exchanges tokens all-to-all in every MoE
layer. If it spans domains, the share of tokens whose expert sits
in another domain crosses the network, and every GPU waits for
the slowest exchange.

So EP groups, like TP groups, belong inside a domain. This is one
reason wide scale-up domains matter so much for mixture-of-experts
models: a 72-GPU domain holds a far bigger EP group than an 8-GPU
server. Lesson 9 puts numbers on it.
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- TP and EP inside the scale-up domain; PP across scale-out
  nodes; DP across the whole fabric.
- Place dimensions innermost to outermost: TP, CP, PP, DP.
- A TP group that crosses the boundary pays the network price in
  every layer: throughput collapses.
- The fix is a setting or two: shrink TP to fit the domain, then
  let PP or DP take up the rest, and check that memory still fits.
]] },

    { kind = "quiz", title = "Check: which may cross?", text = [[
A job uses TP 8, PP 4 and DP 16 on 8-GPU servers. Which groups
should cross between servers?
]],
      choices = {
        { text = "PP and DP groups; each TP group stays in one server.",
          correct = true,
          explain = "Yes: the rare, small or overlappable traffic crosses." },
        { text = "TP groups, so that every server holds a whole pipeline.",
          correct = false,
          explain = "TP traffic is the heaviest and most frequent: keep it in." },
        { text = "None: all groups must stay inside one server.",
          correct = false,
          explain = "With 512 GPUs that is impossible, and PP/DP cope fine." },
      } },
  },
}
