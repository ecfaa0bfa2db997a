-- SPDX-License-Identifier: MIT
-- Lesson 5: The bandwidth cliff.
-- Sources: NVLink 5 at 1.8 TB/s per GPU (both directions added, 900 GB/s each
-- way) and ConnectX-8 at 800 Gb/s per GPU (one direction) come from the
-- gb300-nvl72 preset (assets/; NVIDIA GB300 NVL72 and ConnectX-8 documents).
-- "1.8 TB/s is the sum of both directions": NCCL maintainers in
-- NVIDIA/nccl#1442 (quoted in MODEL-FACTS.md §1.1). 1 byte = 8 bits.
-- GB200 NVL72 and DGX B200 pair the same NVLink 5 with 400 Gb/s ConnectX-7
-- NICs (gb200-nvl72 and dgx-b200 presets), so their cliff is twice as deep.
-- Llama 3 405B (128 heads, 126 layers): Llama 3 Herd paper. With PP 1 the TP
-- groups are data-parallel replicas: they meet once per step, in the gradient
-- all-reduce (Narayanan et al., SC21, §3.3). An NVL72 rack is 18 compute trays
-- of 4 GPUs (NVIDIA GB200 NVL72 documentation); a failed tray takes 4 GPUs out.

local U = scalelab.units
local fill = scalelab.fill

local g3 = scalelab.system("gb300-nvl72")
local up_dir = g3.up_bytes_per_s          -- per GPU, one direction
local out_dir = g3.out_bytes_per_s        -- per GPU, one direction

local g2 = scalelab.system("gb200-nvl72")
local ratio2 = g2.up_bytes_per_s / g2.out_bytes_per_s

-- Scenario: Llama 3 405B on two GB300 racks, 128 of their 144 GPUs, TP 16 x
-- DP 8. A compute tray of rack 0 (4 GPUs, 16-19) has failed: an NVL72 rack
-- is 18 compute trays of 4 GPUs (NVIDIA GB200/GB300 NVL72 documentation),
-- and operators keep running on the rest. The scheduler fills the GPUs that
-- are up in order, so rack 0 takes 68 ranks: four TP groups and a quarter of
-- the fifth, which then straddles the racks. Rack 1 keeps 12 GPUs free.
local cluster = { system = "gb300-nvl72", gpus = 128, machine_gpus = 144, failed = { "16-19" } }
local workload = { model = "llama3-405b", batch = 64, mb = 1 }
local start_map = { tp = 16, pp = 1, zero = 1 }
local fix = { "group tp 68 to 132" }
local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local fixed = scalelab.step { cluster = cluster, workload = workload, mapping = start_map,
  moves = fix }
-- The other way out: smaller TP groups and pipeline stages to hold the
-- memory. The fill skips the hole for them too.
local resplit = scalelab.step { cluster = cluster, workload = workload,
  mapping = { tp = 8, pp = 2, zero = 1 } }
local target_s = math.sqrt(fixed.step_s * resplit.step_s)
assert(fixed.step_s < target_s and resplit.step_s > target_s,
  "re-tune: moving the group no longer beats re-splitting")

local V = {
  start_step = U.format("time", start.step_s),
  start_tp = U.format("time", start.breakdown.tp_s),
  target = U.format("time", target_s),
  resplit = U.format("time", resplit.step_s),
  fixed_tp = U.format("time", fixed.breakdown.tp_s),
  ratio2 = string.format("%.0f", ratio2),
  g2_up = U.format("bandwidth", g2.up_bytes_per_s),
  g2_out_bits = U.bits(g2.out_bytes_per_s),
  g2_out = U.format("bandwidth", g2.out_bytes_per_s),
  wrong36 = string.format("%.0f", 2 * ratio2),
  wrong_blind = string.format("%.2f", (2 * g2.up_bytes_per_s / 1e12) / (g2.out_bytes_per_s * 8 / 1e12)),
  up_both = U.format("bandwidth", 2 * up_dir),
  up_dir = U.format("bandwidth", up_dir),
  out_bits = U.bits(out_dir),
  out_dir = U.format("bandwidth", out_dir),
  out_both = U.format("bandwidth", 2 * out_dir),
  up_bits_both = string.format("%.1f Tb/s", 2 * up_dir * 8 / 1e12),
  ratio = string.format("%.0f", up_dir / out_dir),
  wrong18 = string.format("%.0f", 2 * up_dir / out_dir),
  wrong2 = string.format("%.2f", (2 * up_dir / 1e12) / (out_dir * 8 / 1e12)),
  n = g3.domain_gpus,
}

local lesson = {
  id = "bandwidth-cliff",
  title = "The bandwidth cliff",
  summary = "1.8 TB/s inside, 100 GB/s outside: bits, bytes and directions.",
  track = "Part 1: Foundations",
  order = 5,
  minutes = 12,
  pages = {
    { kind = "text", steps = "paragraphs", title = "The most important line", text = [[
# Where the fast tier ends
If you remember one thing about AI clusters, make it this: know
exactly where the scale-up domain ends and scale-out begins.

On one side of that line, GPUs share memory-semantic NVLink. On
the other, they share a network card each. The bandwidth does not
fade gently across the line: it falls off a cliff.

A training job that lets its chattiest traffic fall over that
cliff wastes most of the machine. This lesson measures the drop
and then lets you watch it happen.
]] },

    { kind = "text", steps = "paragraphs", title = "Bits and bytes", text = fill([[
# Read the unit before the number
Network speeds are quoted in *bits* per second (Gb/s, lower-case
b); memory and NVLink in *bytes* per second (GB/s, capital B).
One byte is eight bits.

So a GB300 NVL72's network card at {out_bits} moves:

`{out_bits} / 8 = {out_dir}`

Forgetting the 8 makes the network look eight times faster than
it is. Whenever a figure compares the two tiers, convert both to
the same unit first.
]], V) },

    { kind = "text", steps = "paragraphs", title = "One way or both ways?", text = fill([[
# Directions
NVLink is quoted with both directions added: a GPU's {up_both} is
{up_dir} going out *and* {up_dir} coming in, at the same time.

A NIC is quoted one way: {out_bits} = {out_dir} each way.

Compare like with like:
- per direction:   {up_dir} vs {out_dir}  ->  {ratio}x
- both directions: {up_both} vs {out_both}  ->  {ratio}x

The honest drop is {ratio}x either way. Dividing {up_both} by
{out_dir} gives {wrong18}x, which mixes conventions; dividing "1.8"
by "800" gives {wrong2}x, which mixes bits and bytes too.
]], V) },

    { kind = "diagram", title = "Two racks, one cliff", view = "rack",
      cluster = { system = "gb300-nvl72", gpus = 144 },
      workload = { model = "llama3-70b", batch = 288, mb = 1 },
      mapping = { tp = 8, pp = 1, dp = 18 },
      text = fill([[
Two GB300 NVL72 racks. Inside each: {up_dir} per GPU each way.
Between them: {out_dir}. Each TP group of 8 sits in one rack.
]], V) },

    { kind = "predict", title = "Your estimate: the drop", text = fill([[
A GB300 NVL72 GPU has {up_both} of NVLink, both directions added,
and one {out_bits} network card, quoted one way. Compare like with
like: bytes, one direction.
]], V),
      question = "How many times less bandwidth does a GPU have outside the rack?",
      unit = "", answer = up_dir / out_dir, tolerance = 0.1,
      formula = V.up_dir .. " / " .. V.out_dir .. " = " .. V.ratio .. "x" },

    { kind = "text", steps = "paragraphs", title = "The task: a group over the edge", text = fill([[
# A failed tray pushes a group over the edge
Two GB300 racks train Llama 3 405B on 128 of their 144 GPUs: TP 16,
DP 8. In rack 0 a compute tray (4 GPUs) has failed. The scheduler
fills the GPUs that are still up in order, so rack 0 takes four TP
groups and a quarter of a fifth. That group's all-reduces, 4 per
layer, now run on the NICs ({out_dir} each way) instead of NVLink
({up_dir}), and every other group waits for it once per step.
Step: {start_step}.

Two ways out: re-split the model (smaller TP, pipeline stages to
hold the memory), or move the stray group to where it fits whole.
Rack 1 has 12 free GPUs. *g* picks the TP group under the cursor;
*Enter* on a free GPU gathers it in that rack.
]], V) },

    { kind = "scenario", title = "Back inside the rack",
      text = "A failed tray (x) pushed one TP 16 group across the racks. Rack 1 has free "
        .. "GPUs (.). Re-split, or move the group.",
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "tp groups", "degrees" },
      predict = { at = "group", ask = "change" },
      goal = {
        text = "Fit in memory with a step under " .. V.target .. ".",
        target = { step_s = target_s },
        check = function(r)
          return scalelab.fits_under(r, target_s)
        end },
      hints = {
        "The goal line names the TP group that crosses the racks. Where could all 16 of its "
          .. "GPUs sit together?",
        "Re-splitting (TP 8 x PP 2) adds a bubble, and the fill still pushes one of its "
          .. "groups over the hole's edge: " .. V.resplit .. ". Moving one group costs nothing.",
        "Put the cursor on the straddling group, press g, go to a free GPU of rack 1 and press "
          .. "Enter.",
      },
      debrief = function(r)
        return fill([[
You finished with TP {tp} x PP {pp} x DP {dp}: {step} a step, TP time
{tp_s} (it was {start_tp}). One group over the edge cost every group:
they all meet once per step. Re-splitting would have run {resplit}.
Where a group sits matters as much as how big it is.
]], scalelab.facts(r, { start_tp = V.start_tp, resplit = V.resplit }))
      end,
      solution = fix, par = 2 },

    { kind = "quiz", title = "Reading a vendor sheet", text = fill([[
A slide says: "NVLink {up_both} per GPU vs {out_bits} networking:
NVLink is {wrong18}x faster." What is the fair ratio?
]], V),
      choices = {
        { text = V.ratio .. "x: compare per direction, in bytes.",
          correct = true,
          explain = V.up_dir .. " vs " .. V.out_dir .. " each way." },
        { text = V.wrong18 .. "x, as the slide says.",
          correct = false,
          explain = "The slide divides a both-ways figure by a one-way figure." },
        { text = V.wrong2 .. "x: 1.8 divided by 0.8.",
          correct = false,
          explain = "That divides terabytes by gigabits: convert both to bytes first." },
      } },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- The line between scale-up and scale-out is the first thing to
  find on any cluster.
- Bits vs bytes: {out_bits} = {out_dir}. Divide by 8.
- Directions: NVLink's {up_both} adds both ways. Per direction the
  GB300 drop is {ratio}x: {up_dir} against {out_dir}.
- That is the GB300, with 800 Gb/s NICs. GB200 racks and B200
  servers have 400 Gb/s NICs: they drop {ratio2}x. One TP group over the edge slows the
  whole job; the next lessons map work so it never happens.
]], V) },

    { kind = "quiz", title = "Check: the other cliff", calc = true, text = fill([[
A GB200 NVL72 GPU has the same NVLink, {g2_up} each way, with a
network card of {g2_out_bits}. Per direction, how much less
bandwidth does it have across the rack boundary?
]], V),
      choices = {
        { text = "About " .. V.ratio2 .. "x less.", correct = true,
          explain = V.g2_up .. " vs " .. V.g2_out .. " each way." },
        { text = "About " .. V.ratio .. "x less.", correct = false,
          explain = "That is the GB300, whose NIC runs at " .. V.out_bits .. "; this one is half as fast." },
        { text = "About " .. V.wrong36 .. "x less.", correct = false,
          explain = "That divides a both-ways NVLink figure by a one-way NIC figure." },
        { text = "About " .. V.wrong_blind .. "x less.", correct = false,
          explain = "That divides the numbers as printed, terabytes by gigabits." },
      } },
  },
}

return lesson
