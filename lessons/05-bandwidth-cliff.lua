-- SPDX-License-Identifier: MIT
-- Lesson 5: The bandwidth cliff.
-- Sources: NVLink 5 at 1.8 TB/s per GPU (both directions added, 900 GB/s each
-- way) and ConnectX-8 at 800 Gb/s per GPU (one direction) come from the
-- gb300-nvl72 preset (assets/; NVIDIA GB300 NVL72 and ConnectX-8 documents).
-- "1.8 TB/s is the sum of both directions": NCCL maintainers in
-- NVIDIA/nccl#1442 (quoted in MODEL-FACTS.md §1.1). 1 byte = 8 bits.
-- GB200 NVL72 and DGX B200 pair the same NVLink 5 with 400 Gb/s ConnectX-7
-- NICs (gb200-nvl72 and dgx-b200 presets), so their cliff is twice as deep.
-- DGX A100 (NVLink 3, 600 GB/s both ways; HDR InfiniBand 200 Gb/s per GPU) and
-- HGX H800 (NVLink cut to 400 GB/s both ways, the spec sheets' figure;
-- DeepSeek-V3 §3.2.2 measured about 160 GB/s usable; NDR 400 Gb/s per GPU)
-- come from their presets (assets/).
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

-- The predict page: the DGX A100's cliff. The vendor-sheet quiz: the H800's.
local a1 = scalelab.system("dgx-a100")
local h8 = scalelab.system("dgx-h800")
local h8_fair = h8.up_bytes_per_s / h8.out_bytes_per_s
local function ratio_text(x)
  return (x >= 10 or x == math.floor(x)) and string.format("%.0f", x) or string.format("%.2g", x)
end

-- The calc quiz: 1 GB from a GPU of one GB300 rack to a GPU of the other.
local COPY_BYTES = 1e9

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
  a1_both = U.format("bandwidth", 2 * a1.up_bytes_per_s), a1_link = a1.up_link,
  a1_bits = U.bits(a1.out_bytes_per_s), a1_up = U.format("bandwidth", a1.up_bytes_per_s),
  a1_out = U.format("bandwidth", a1.out_bytes_per_s),
  a1_ratio = ratio_text(a1.up_bytes_per_s / a1.out_bytes_per_s),
  h8_name = "H800", h8_both = U.format("bandwidth", 2 * h8.up_bytes_per_s),
  h8_bits = U.bits(h8.out_bytes_per_s),
  h8_up = U.format("bandwidth", h8.up_bytes_per_s), h8_out = U.format("bandwidth", h8.out_bytes_per_s),
  h8_fair = ratio_text(h8_fair),
  h8_printed = ratio_text(2 * h8.up_bytes_per_s / (8 * h8.out_bytes_per_s)),
  h8_dirs = ratio_text(2 * h8_fair),
  h8_bits_only = ratio_text(h8.up_bytes_per_s / (8 * h8.out_bytes_per_s)),
  copy = U.format("bytes", COPY_BYTES),
  copy_t = U.format("time", COPY_BYTES / out_dir),
  copy_bits = U.format("time", COPY_BYTES / (8 * out_dir)),
  copy_both = U.format("time", COPY_BYTES / (2 * out_dir)),
  copy_up = U.format("time", COPY_BYTES / up_dir),
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
  summary = U.format("bandwidth", up_dir) .. " inside, " .. U.format("bandwidth", out_dir) ..
    " outside, each way: bits, bytes and directions.",
  track = "Part 1: Foundations",
  order = 5,
  minutes = 12,
  pages = {
    { kind = "text", steps = "paragraphs", title = "The most important line", text = [[
# Where the fast tier ends
If you remember one thing about AI clusters, make it this: know
exactly where the scale-up domain ends and scale-out begins.

On one side of that line, GPUs share memory-semantic NVLink. On
the other, each GPU has one network card. The bandwidth does not
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

    { kind = "predict", title = "Your estimate: an older cliff", text = fill([[
A DGX A100 GPU has {a1_both} of {a1_link}, both directions added,
and one {a1_bits} HDR InfiniBand card, quoted one way. Compare
like with like.
]], V),
      question = "How many times less bandwidth does a GPU have outside its server?",
      unit = "", answer = a1.up_bytes_per_s / a1.out_bytes_per_s, tolerance = 0.1,
      slips = { "bits", "directions" },
      formula = V.a1_up .. " / " .. V.a1_out .. " each way = " .. V.a1_ratio .. "x" },

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

    { kind = "quiz", title = "Reading a vendor sheet", calc = true, text = fill([[
A slide on {h8_name} servers: "NVLink {h8_both} per GPU vs {h8_bits}
InfiniBand: inside and outside the server are the same speed."
Per direction, in bytes, how much faster is NVLink really?
]], V),
      choices = {
        { text = V.h8_fair .. "x: both figures in bytes, both one way.",
          correct = true,
          explain = "Both in bytes, both one way: " .. V.h8_up .. " vs " .. V.h8_out .. "." },
        { text = V.h8_printed .. "x, as the slide says: the two figures are equal.",
          correct = false,
          explain = "The slide sets bytes, both ways, against bits, one way." },
        { text = V.h8_dirs .. "x: the NIC's bits turned into bytes first.",
          correct = false,
          explain = "The bytes are right, but the NVLink figure still adds both directions." },
        { text = V.h8_bits_only .. "x: NVLink's figure halved to one direction.",
          correct = false,
          explain = "That halves NVLink but reads the NIC's gigabits as gigabytes." },
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

    { kind = "quiz", title = "Check: across the edge", calc = true, text = fill([[
A GPU in one GB300 NVL72 rack sends {copy} to a GPU in the other
rack, one direction, over its {out_bits} network card, with nothing
else on the link. About how long does it take?
]], V),
      choices = {
        { text = V.copy_t, correct = true,
          explain = V.copy .. " / " .. V.out_dir .. ": the NIC's rate in bytes, one way." },
        { text = V.copy_bits, correct = false,
          explain = "That reads " .. V.out_bits .. " as gigabytes: divide the bits by 8 first." },
        { text = V.copy_both, correct = false,
          explain = "That adds the NIC's two directions; one transfer uses one." },
        { text = V.copy_up, correct = false,
          explain = "That is NVLink's rate, inside one rack; between racks the NIC sets it." },
      } },
  },
}

return lesson
