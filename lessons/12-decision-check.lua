-- Lesson 12: Decision check (capstone).
-- Sources: system and workload figures come from the presets (assets/, each
-- with its source there); every step time on screen is computed by the model
-- through scalelab.step. NVL72 racks can be split into smaller NVLink
-- partitions: NVIDIA GB200 NVL72 / NMX (NVLink management) documentation.
-- The advice pages summarise the course; the one figure they quote, a
-- "30x faster" inference slide, is NVIDIA's GB200 NVL72 launch claim against
-- H100 (NVIDIA GB200 NVL72 product page, 2024), used as an example of a claim.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end

-- Case 1: a dense model on 8-GPU servers, set up badly (TP across servers,
-- a model that would not fit at TP 8 alone, and too few micro-batches).
local c1 = { system = "dgx-h100", gpus = 128 }
local w1 = { model = "gpt3-175b", batch = 128, mb = 4 }
local m1 = { tp = 32, pp = 4, dp = 1 }
local good1 = scalelab.step { cluster = c1, workload = { model = "gpt3-175b",
  batch = 128, mb = 1 }, mapping = { tp = 8, pp = 8, dp = 2 } }
local bad1 = scalelab.step { cluster = c1, workload = w1, mapping = m1 }
local target1 = good1.step_s * 1.05

-- Case 2: a mixture-of-experts job on two NVL72 racks whose NVLink was split
-- into 8-GPU partitions. ZeRO-3 lets the 671B-parameter model fit.
local c2 = { system = "gb200-nvl72", gpus = 128 }
local w2 = { model = "deepseek-v3", batch = 256, mb = 1 }
local m2 = { tp = 1, pp = 1, dp = 128, ep = 64, zero = 3 }
local bad2 = scalelab.step { cluster = { system = "gb200-nvl72", gpus = 128, domain = 8 },
  workload = w2, mapping = m2 }
local target2 = bad2.step_s * 0.5

local V = {
  bad1 = U.format("time", bad1.step_s), target1 = U.format("time", target1),
  bad2 = U.format("time", bad2.step_s), target2 = U.format("time", target2),
  cliff = string.format("%.0f", scalelab.system("gb300-nvl72").up_bytes_per_s
    / scalelab.system("gb300-nvl72").out_bytes_per_s),
  h_up = U.format("bandwidth", scalelab.system("dgx-h100").up_bytes_per_s),
}

return {
  id = "decision-check",
  title = "Decision check",
  summary = "Capstone: decide scale-up or scale-out, tune a mapping, read claims.",
  track = "Part 3: Beyond the rack",
  order = 12,
  minutes = 15,
  pages = {
    { kind = "text", steps = "paragraphs", title = "The decision rule", text = [[
# One question before any other
When you meet a workload, ask: *how tightly coupled is it?*

- Tightly coupled and latency-bound (tensor or expert groups,
  low-latency serving of one huge model): choose *scale-up*. It
  needs a domain wide enough to hold the chatty groups.
- Splits into independent or patient parts (data-parallel copies,
  many separate jobs, many serving replicas): choose *scale-out*.
  It grows cheaply and far.

Most big training runs need both: scale-up for the inner groups,
scale-out for the outer ones. The next cases test the rule.
]] },

    { kind = "text", steps = "paragraphs", title = "Case 1: a slow dense job", text = fill([[
# A slow dense job
A team trains GPT-3 175B on 16 DGX H100 servers (128 GPUs) as
TP 32 x PP 4, with micro-batches of 4. Step: {bad1}.

Diagnose the problems and fix the mapping. You may change the
degrees and the micro-batch size. The model must fit in memory.
]], V) },

    { kind = "scenario", title = "Case 1: tune the mapping",
      text = "Three problems: tiers, memory, the pipeline. Fix them with " ..
        "the degrees and the micro-batch.",
      cluster = c1, workload = w1, mapping = m1,
      allow = { "degrees", "micro" },
      goal = {
        text = "Fit in memory with a step under " .. V.target1 .. ".",
        check = function(r)
          if not r.fits then return false, "the model does not fit in HBM" end
          if r.step_s < target1 then return true end
          return false, "step " .. U.format("time", r.step_s) .. ", goal " .. V.target1
        end },
      hints = {
        "Find the tier problem first, then look at memory and the bubble.",
        "TP 32 spans four servers; TP 8 alone no longer fits; mb 4 is big.",
        "Set TP to 8, PP to 8 (DP becomes 2), then the micro-batch to 1.",
      },
      debrief = fill([[
TP 8 keeps the all-reduces on NVLink ({h_up} per direction), PP 8
makes the model fit, and micro-batches of 1 keep the 8-stage
pipeline busy. Only PP sends and gradients use the network.
]], V),
      solution = { "tp 8", "pp 8", "mb 1" } },

    { kind = "diagram", title = "Case 2: a mixture of experts", view = "fabric",
      cluster = { system = "gb200-nvl72", gpus = 128, domain = 8 },
      workload = w2, mapping = m2,
      text = fill([[
DeepSeek-V3, EP 64, on 128 GPUs of NVL72 racks whose NVLink was split into
8-GPU partitions: each EP group's all-to-all leaves its partition through
the network cards. Step: {bad2}. Does this job want a bigger scale-up domain
or more scale-out? On the next page, act on it.
]], V) },

    { kind = "scenario", title = "Case 2: scale up or out?",
      text = "Scale up or scale out? Decide, then change the size of the scale-up domain.",
      cluster = c2, workload = w2, mapping = m2,
      start = { "domain 8" },
      allow = { "domain" },
      goal = {
        text = "Bring the step under " .. V.target2 .. ".",
        check = function(r)
          if r.step_s < target2 then return true end
          return false, "step " .. U.format("time", r.step_s) .. ", goal " .. V.target2
        end },
      hints = {
        "Expert all-to-all is tightly coupled: every GPU talks to all.",
        "This job wants its whole EP group in one NVLink domain.",
        "Set the scale-up domain to 64 GPUs: one EP group per domain.",
      },
      debrief = [[
Tightly coupled work, so scale-up: with a 64-GPU domain per EP
group, the all-to-all never leaves NVLink. (At 72, one group
would straddle the racks.) More GPUs over the network would only
have added traffic to the slow tier.
]],
      solution = { "domain 64" } },

    { kind = "quiz", title = "Case 3: a sweep", text = [[
A lab will fine-tune 500 separate copies of an 8B model, each
with different settings. Each copy fits on one 8-GPU server.
What should it buy more of?
]],
      choices = {
        { text = "Scale-out: many ordinary servers on a network.",
          correct = true,
          explain = "The jobs are independent: they never talk to each other." },
        { text = "Scale-up: the widest NVLink racks available.",
          correct = false,
          explain = "No job needs more than one server's domain." },
        { text = "Scale-across: a second data center first.",
          correct = false,
          explain = "Only if one site lacks power; the jobs do not need it." },
      } },

    { kind = "quiz", title = "Case 4: a chat service", text = [[
A company must serve a trillion-parameter dense model with the
lowest possible time per token. What decides the hardware?
]],
      choices = {
        { text = "A scale-up domain big enough for the whole model.",
          correct = true,
          explain = "Each token waits on per-layer all-reduces: keep them on NVLink." },
        { text = "The total GPU count across all its data centers.",
          correct = false,
          explain = "Count without coupling says little about latency." },
        { text = "The speed of the connection between two sites.",
          correct = false,
          explain = "Scale-across is far too slow for per-token traffic." },
      } },

    { kind = "text", steps = "paragraphs", title = "Advice for buyers", text = [[
# Buying compute
- Start from the workload. Tightly coupled training or serving of
  one huge model: pay for a wide scale-up domain. Many parallel,
  independent jobs: pay for scale-out.
- Ask for the scale-up domain size, per-GPU bandwidth on each
  tier (in the same unit and direction), and the fabric's
  oversubscription, not just the GPU count.
- Budget the building too: dense racks raise power per rack and
  need liquid cooling; check the site can supply both.
]] },

    { kind = "text", steps = "paragraphs", title = "Advice for analysts", text = [[
# Reading announcements
- A rack-scale system announced or bought is a signal about the
  size of the models its owner plans to run, and about the power
  density of the data centers behind it, more than about the
  number of chips shipped.
- Compare systems on interconnect design first and headline GPU
  counts second: 64 GPUs in one domain and 64 GPUs in eight boxes
  are different machines.
- Watch the boundary: wider scale-up domains and scale-across
  links change which models can be built, and where.
]] },

    { kind = "text", steps = "paragraphs", title = "Claims and figures", text = [[
# Trust, but test
- Vendor speed-ups (the "30x faster" slide) are illustrations:
  they hold for the vendor's chosen workload and settings. Treat
  them as such until you have measured your own workload.
- The same goes for this course. scalelab's step times come from
  a simplified bandwidth model: they show orderings and orders of
  magnitude, not guarantees, and none of its figures is a price.
- The question to carry away: for *this* workload, which traffic
  must stay inside the scale-up domain, and does it fit?
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep from the whole course
- Scale up = a bigger, tightly linked engine; scale out = more
  engines on a network; scale-across = more buildings.
- The cliff between the tiers is about {cliff}x per direction even
  on a GB300 NVL72: find it first.
- TP and EP inside the domain, PP across nodes, DP over the whole
  fabric; sites only for the most patient traffic.
- Ask how GPUs are connected, match the tier to the coupling of
  the work, and test every claim on your own workload.
]], V) },

    { kind = "quiz", title = "Final decision check", text = [[
Which rule sums up when to choose scale-up over scale-out?
]],
      choices = {
        { text = "Scale up for tightly coupled, latency-bound work.",
          correct = true,
          explain = "And scale out when it splits into independent parts." },
        { text = "Scale up whenever you need more than 8 GPUs.",
          correct = false,
          explain = "Many big jobs scale out well: it depends on coupling." },
        { text = "Scale out whenever a vendor's benchmark says so.",
          correct = false,
          explain = "Claims are illustrative until tested on your workload." },
      } },
  },
}
