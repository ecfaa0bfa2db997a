-- SPDX-License-Identifier: MIT
-- Lesson 12: Decision check (capstone).
-- Sources: system and workload figures come from the presets (assets/, each
-- with its source there); every step time on screen is computed by the model
-- through scalelab.step. NVL72 racks can be split into smaller NVLink
-- partitions of whole compute trays (18 trays of 4 GPUs; custom groupings as
-- well as the templates): NVIDIA Base Command Manager manual, "NVLink SDN
-- Partitioning", and the GB200 NVL Partition User Guide. 16 trays make the
-- 64-GPU partition lesson 10 also uses, with 8 GPUs of the rack spare. No
-- GB200 NVL72 domain is larger than its 72 GPUs; NVLink 5 itself is specified
-- up to 576 (NVIDIA Base Command Manager manual, "NVLink Technology"). The advice pages summarise the course; the one
-- figure they quote, a "30x faster" inference slide, is NVIDIA's GB200 NVL72
-- launch claim against H100 (NVIDIA GB200 NVL72 product page, 2024), used as
-- an example of a claim. Compute per step about 6 x parameters x tokens
-- (EleutherAI "Transformer Math 101"; MODEL-FACTS.md §5). ZeRO-3 shards the
-- weights over DP and all-gathers them every layer (ZeRO, SC20).

local U = scalelab.units
local fill = scalelab.fill

-- Case 1: a dense model on 8-GPU servers, set up badly: TP across servers,
-- micro-batches so large that the pipeline idles, and a placement the
-- scheduler left: GPU 127, the last of server 15, has failed, so the ranks
-- fill the GPUs that are up in order and rank 127 lands on the spare server
-- 16. Every TP group then fits a server but one, which still crosses the
-- network, and every step waits for it. Three fixes, two that pull against
-- each other: fewer pipeline stages would shrink the bubble but do not fit
-- in 80 GB, so the bubble must shrink by smaller micro-batches instead.
local c1 = { system = "dgx-h100", gpus = 128, machine_gpus = 136, failed = { 127 } }
local w1 = { model = "gpt3-175b", batch = 128, mb = 4 }
local m1 = { tp = 32, pp = 4, dp = 1, zero = 1 }
local STRAY = 120                     -- the first GPU of the straddling TP 8 group
local SPARE = 129                     -- a free GPU of the spare server
local gather1 = "group tp " .. STRAY .. " to " .. SPARE
local fix1 = { "tp 16", "tp 8", gather1, "mb 2" }
local function step1(moves)
  return scalelab.step { cluster = c1, workload = w1, mapping = m1, moves = moves }
end
local bad1 = step1(nil)
local good1 = step1(fix1)
local placed1 = step1({ "tp 16", "tp 8", gather1 })           -- the bubble left as it was
local stray1 = step1({ "tp 16", "tp 8", "mb 2", "mb 1" })    -- the stray group left
local pp2 = step1({ "tp 16", "tp 8", "pp 2", gather1 })       -- the bubble halved by PP
local target1 = math.sqrt(good1.step_s * placed1.step_s)
assert(good1.fits and good1.step_s < target1 and placed1.step_s > target1 and
  stray1.step_s > target1 and not pp2.fits and pp2.step_s < placed1.step_s,
  "re-tune case 1: it no longer needs TP in a server, the stray group and the micro-batch")
-- micro-batches each pipeline runs at TP 8 (DP = GPUs / (TP x PP))
local micro1 = w1.batch // (c1.gpus // (8 * m1.pp)) // w1.mb

-- Compute of one case-1 step at the GPUs' dense peak: 6 x params x tokens.
local gpt3 = scalelab.model("gpt3-175b")
local h100 = scalelab.gpu("h100-sxm")
local tokens1 = w1.batch * gpt3.seq
local peak_step_s = 6 * gpt3.params * tokens1 / (c1.gpus * h100.bf16_flops)
-- Forward is 2 FLOP per parameter per token, backward twice that (EleutherAI
-- "Transformer Math 101"; MODEL-FACTS.md §5).
local fwd_s, bwd_s = peak_step_s * 2 / 6, peak_step_s * 4 / 6

-- Case 2: a mixture-of-experts job on two NVL72 racks (72 + 56 GPUs) whose
-- NVLink was split into 8-GPU partitions. ZeRO-3 lets the 671B model fit.
-- Real partitions tile a rack: the domain must divide 72. Target: between the
-- best single change and the best (domain, EP) pair, both computed here.
local RACK = scalelab.system("gb200-nvl72").domain_gpus
local w2 = { model = "deepseek-v3", batch = 256, mb = 1, recompute = "full" }
local c2 = { system = "gb200-nvl72", gpus = 128 }
local START_EP = 64
local function m2(ep) return { tp = 1, pp = 1, dp = 128, ep = ep, zero = 3 } end
local function setup2(domain, ep)
  return { cluster = { system = "gb200-nvl72", gpus = 128, domain = domain }, workload = w2,
           mapping = m2(ep) }
end
local function step2(domain, ep)
  local ok, r = pcall(scalelab.step, setup2(domain, ep))
  if ok and r.fits then return r.step_s end
  return math.huge
end
local PARTITIONS, EPS = {}, { 1, 2, 4, 8, 16, 32, 64, 128 }
for d = 1, RACK do
  if RACK % d == 0 then PARTITIONS[#PARTITIONS + 1] = d end
end
local best2 = scalelab.pair_target { setup = setup2, a = PARTITIONS, b = EPS,
  start = { 8, START_EP } }
local target2 = best2.target
local moves2 = { "domain " .. best2.a, table.unpack(scalelab.moves("ep", START_EP, best2.b)) }
local bad2 = scalelab.step { cluster = { system = "gb200-nvl72", gpus = 128, domain = 8 },
  workload = w2, mapping = m2(START_EP) }
local at64 = step2(64, START_EP)
local at72 = step2(RACK, START_EP)

-- The buyers' power sum: 1,152 GPUs as NVL72 racks.
local nvl = scalelab.system("gb200-nvl72")
local BUY_GPUS = 1152
local buy_racks = BUY_GPUS // nvl.domain_gpus
local buy_w = buy_racks * nvl.domain_power_w

local function mw(w) return string.format("%.2f MW", w / 1e6) end

local V = {
  bad1 = U.format("time", bad1.step_s), target1 = U.format("time", target1),
  placed1 = U.format("time", placed1.step_s), stray1 = U.format("time", stray1.step_s),
  pp2_mem = U.format("bytes", pp2.mem_per_gpu_bytes), hbm1 = U.format("bytes", h100.hbm_bytes),
  pp2_step = U.format("time", pp2.step_s), micro1 = micro1,
  bad2 = U.format("time", bad2.step_s), target2 = U.format("time", target2),
  at64 = U.format("time", at64), at72 = U.format("time", at72), rack = RACK,
  peak_step = U.format("time", peak_step_s), tokens1 = tokens1,
  params1 = string.format("%.0f billion", gpt3.params / 1e9),
  peak = U.format("flops", h100.bf16_flops),
  cliff = string.format("%.0f", scalelab.system("gb300-nvl72").up_bytes_per_s
    / scalelab.system("gb300-nvl72").out_bytes_per_s),
  cliff2 = string.format("%.0f", nvl.up_bytes_per_s / nvl.out_bytes_per_s),
  h_up = U.format("bandwidth", scalelab.system("dgx-h100").up_bytes_per_s),
  buy_gpus = "1,152", buy_racks = buy_racks, rack_kw = string.format("%.0f kW", nvl.domain_power_w / 1e3),
  buy_mw = mw(buy_w), buy_wrong_gpu = mw(BUY_GPUS * nvl.domain_power_w),
  buy_wrong_half = mw(buy_w / 2), buy_wrong_dgx = mw(BUY_GPUS / 8 * 10.2e3),
}

local lesson = {
  id = "decision-check",
  title = "Decision check",
  summary = "Capstone: decide scale-up or scale-out, tune a mapping, read claims.",
  track = "Part 3: Beyond the rack",
  order = 12,
  minutes = 16,
  pages = {
    { kind = "text", steps = "paragraphs", title = "The decision rule", text = [[
# One question before any other
When you meet a workload, ask: *how tightly coupled is it?*

- Tightly coupled and latency-bound (tensor-parallel groups, big
  expert groups, low-latency serving of one huge model): choose
  *scale-up*, a domain wide enough for the chatty groups.
- Splits into independent or patient parts (data-parallel copies,
  many separate jobs, many serving replicas): choose *scale-out*.
  It grows cheaply and far.

Most big training runs need both: scale-up for the inner groups,
scale-out for the outer ones. The next cases test the rule.
]] },

    { kind = "predict", title = "Case 1: the compute floor", text = fill([[
Before tuning, estimate the floor. GPT-3 175B ({params1} parameters)
trains on {tokens1} tokens per step on 128 H100s of {peak} each.
Training costs about 6 FLOP per parameter per token.
]], V),
      question = "How long would one step take at the GPUs' full peak?",
      unit = "s", answer = peak_step_s, tolerance = 0.15,
      terms = { { name = "the backward pass (4 of the 6)", value = bwd_s },
                { name = "the forward pass (2 of the 6)", value = fwd_s } },
      formula = "6 x 175e9 x " .. tokens1 .. " / (128 x " .. V.peak .. ") = " .. V.peak_step },

    { kind = "scenario", title = "Case 1: tune the mapping", text = fill([[
GPT-3 175B on 16 DGX H100s, TP 32 x PP 4, micro-batches of 4: {bad1}.
GPU 127 failed, so rank 127 runs on the spare server. Fix all three.]], V),
      cluster = c1, workload = w1, mapping = m1,
      allow = { "degrees", "micro", "tp groups" },
      predict = { at = "micro", ask = "part" },
      goal = {
        text = "Fit in memory with a step under " .. V.target1 .. ".",
        target = { step_s = target1 },
        check = function(r)
          return scalelab.fits_under(r, target1)
        end },
      hints = {
        "Three problems, in the order of their cost: the tier TP talks on, one group a failed "
          .. "GPU pushed out of place, and the pipeline's idle time.",
        fill("TP 8 fills a server, but the group with rank 127 still crosses the network and "
          .. "every step waits for it ({stray1} even with micro-batches of 1). PP 2 would shrink "
          .. "the bubble, but needs {pp2_mem} of {hbm1} per GPU.", V),
        "TP 8 first (a new mapping deals the ranks out again); then g on the group that "
          .. "straddles two servers, Enter on a free GPU of the spare one; then halve the "
          .. "micro-batch.",
      },
      debrief = function(r)
        return fill([[
You ended at TP {tp} x PP {pp} x DP {dp}, micro-batch {mb}: {step} a
step (from {bad1}). TP talks on one server's NVLink ({h_up} each way);
the group left across the network had held every step back, as all
stages wait for the slowest. Fewer stages would not fit in memory, so
smaller micro-batches cut the bubble, now {bubble_pct} of the step.
]], scalelab.facts(r, { bad1 = V.bad1, h_up = V.h_up }))
      end,
      solution = fix1, par = 5 },

    { kind = "diagram", title = "Case 2: a mixture of experts", view = "fabric",
      cluster = { system = "gb200-nvl72", gpus = 128, domain = 8 },
      workload = w2, mapping = m2(START_EP),
      text = fill([[
DeepSeek-V3 (EP 64; ZeRO-3 gathers weights per layer) on two NVL72
racks (72 + 56 GPUs) split into 8-GPU partitions: {bad2}. Whole
72-GPU racks leave the second EP group straddling them ({at72});
64-GPU partitions, 16 trays of each rack, give each group a rack
of its own ({at64}).
]], V) },

    { kind = "scenario", title = "Case 2: scale up or out?", text = fill([[
Re-partition NVLink (sizes that divide {rack}) and pick the EP size.
Keep TP 1 and PP 1; the model must fit.]], V),
      cluster = c2, workload = w2, mapping = m2(START_EP),
      start = { "domain 8" },
      allow = { "domain", "degrees" },
      goal = {
        text = "Domains that tile a rack; step under " .. V.target2 .. ".",
        target = { step_s = target2 },
        check = function(r)
          local d = r.cluster.domain_gpus
          if d > RACK or RACK % d ~= 0 then
            return false, "a GB200 NVL72 partition must divide the " .. RACK .. "-GPU rack"
          end
          if r.mapping.tp ~= 1 or r.mapping.pp ~= 1 then
            return false, "keep TP 1 and PP 1: change the domain and EP"
          end
          return scalelab.fits_under(r, target2)
        end },
      hints = {
        "Expert all-to-all is tightly coupled: every GPU talks to all in its group.",
        "A wider domain keeps more of each EP group on NVLink.",
        "After widening the domain, try EP sizes that suit it.",
      },
      debrief = function(r)
        local where = r.span.ep.domains > 1 and
          ("each EP group spans " .. r.span.ep.domains .. " domains: part of the exchange" ..
           " crosses the NICs, a cost the wider domains keep small")
          or "each EP group sits in one domain, all on NVLink"
        return fill([[
You ended with {d}-GPU domains and EP {ep}: {step} a step, expert
exchange {ep_s}. Tightly coupled work wanted scale-up: now
{where}.
]], scalelab.facts(r, { where = where }))
      end,
      solution = moves2,
      par = scalelab.presses { cluster = { system = "gb200-nvl72", gpus = 128, domain = 8 },
                               workload = w2, mapping = m2(START_EP), moves = moves2 } },

    { kind = "quiz", title = "Case 3: a sweep", text = [[
A lab will fine-tune 500 separate copies of an 8B model, each
with different settings. Each copy fits on one 8-GPU server.
What should it buy more of?
]],
      choices = {
        { text = "Scale-out: many ordinary servers on a network.",
          correct = true,
          explain = "The jobs are independent: they never talk to each other." },
        { text = "Scale-up: the widest NVLink racks it can buy.",
          correct = false,
          explain = "No job needs more than one server's domain." },
        { text = "Scale-across: a second data center before anything else.",
          correct = false,
          explain = "Sites are linked when one lacks power; these jobs never talk at all." },
        { text = "Scale-up first: bigger racks finish each job, and so the sweep, sooner.",
          correct = false,
          explain = "Each job already fits a server; the sweep's speed is set by how many jobs run at once." },
      } },

    { kind = "quiz", title = "Case 4: a chat service", text = [[
A company must serve a trillion-parameter dense model with the
lowest possible time per token. What decides the hardware?
]],
      choices = {
        { text = "A scale-up domain big enough for one wide replica.",
          correct = true,
          explain = "Each token waits on per-layer all-reduces: keep them on NVLink." },
        { text = "The total GPU count across all its data centers.",
          correct = false,
          explain = "Count without coupling says little about the time of one token." },
        { text = "The speed of the connection between two sites.",
          correct = false,
          explain = "Every token would cross it in every layer, milliseconds each time." },
        { text = "The HBM per GPU, so that the model fits in as few GPUs as possible.",
          correct = false,
          explain = "Fewer GPUs also share each token's weight reads among fewer: slower, not faster." },
      } },

    { kind = "text", steps = "paragraphs", title = "Advice for buyers and analysts", text = [[
# Buying compute, reading announcements
- Start from the workload: one huge, tightly coupled model wants
  a wide scale-up domain; many independent jobs want scale-out.
- Ask for the domain size, each tier's bandwidth per GPU (same
  unit, same direction) and the fabric's oversubscription.
- Budget the building: dense racks need more kilowatts per rack
  and liquid cooling.
- A rack-scale purchase hints at the size of models its owner
  means to run, and at the power density of its halls, more than
  at how many chips were shipped.
- 64 GPUs in one domain and 64 GPUs in eight boxes are different
  machines: compare the wiring before the headline count.
]] },

    { kind = "text", steps = "paragraphs", title = "Claims and figures", text = [[
# Trust, but test
- A vendor speed-up (the "30x faster" slide) is measured on a
  workload and settings the vendor chose. Read it as an example,
  and measure your own job before you rely on it.
- The same goes for this course. scalelab's step times come from
  a simplified bandwidth model: they show orderings and orders of
  magnitude, not guarantees, and none of its figures is a price.
- The question to carry away: for *this* workload, which traffic
  must stay inside the scale-up domain, and does it fit?
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep from the whole course
- Scale up = grow the tightly linked unit; scale out = multiply
  the units on a network; scale-across = link whole buildings.
- Find the cliff between the tiers first: {cliff}x per direction on
  a GB300 NVL72, {cliff2}x on GB200 with 400 Gb/s NICs.
- TP inside the domain, EP inside when it can be, PP across nodes,
  DP over the whole fabric; sites only for the most patient traffic.
- Ask how GPUs are connected, match the tier to the coupling of
  the work, and check every claim against your own job.
]], V) },

    { kind = "quiz", title = "Check: the power bill", calc = true, text = fill([[
A buyer plans {buy_gpus} GPUs as GB200 NVL72 racks of {rack} GPUs, about
{rack_kw} per rack. How much power must the site deliver to the racks?
]], V),
      choices = {
        { text = V.buy_mw, correct = true,
          explain = V.buy_racks .. " racks x " .. V.rack_kw .. "." },
        { text = V.buy_wrong_gpu, correct = false,
          explain = "That counts " .. V.rack_kw .. " for every GPU; it is the figure for a whole rack." },
        { text = V.buy_wrong_half, correct = false,
          explain = "That counts half the racks, as if each held 144 GPUs." },
        { text = V.buy_wrong_dgx, correct = false,
          explain = "That prices the GPUs as air-cooled 8-GPU H100 servers, not NVL72 racks." },
      } },

    { kind = "quiz", title = "Final decision check", text = [[
Which rule sums up when to choose scale-up over scale-out?
]],
      choices = {
        { text = "Scale up for tightly coupled, latency-bound work.",
          correct = true,
          explain = "And scale out when it splits into independent parts." },
        { text = "Scale up whenever you need more than 8 GPUs.",
          correct = false,
          explain = "Many big jobs scale out well: it depends on how the parts talk." },
        { text = "Scale out whenever the job is large.",
          correct = false,
          explain = "Size alone does not decide: a huge model's inner groups still talk every layer." },
        { text = "Scale up whenever the budget allows; scale out only to save money.",
          correct = false,
          explain = "Independent jobs gain nothing from a bigger domain, whatever the budget." },
      } },
  },
}

return lesson
