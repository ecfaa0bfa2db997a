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
-- all-reduce (Narayanan et al., SC21, §3.3).

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

-- Scenario: Llama 3 405B on two GB300 racks with TP 16. 72 / 16 = 4.5, so one
-- TP group straddles the racks; TP 8 alone no longer fits in HBM.
local cluster = { system = "gb300-nvl72", gpus = 144 }
local workload = { model = "llama3-405b", batch = 144, mb = 1 }
local start_map = { tp = 16, pp = 1, zero = 1 }
local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local good = scalelab.step { cluster = cluster, workload = workload,
  mapping = { tp = 8, pp = 2, zero = 1 } }
local target_s = good.step_s * 1.03

local V = {
  start_step = U.format("time", start.step_s),
  start_tp = U.format("time", start.breakdown.tp_s),
  target = U.format("time", target_s),
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
# One group over the edge
Two GB300 racks train Llama 3 405B with TP 16 (PP 1, DP 9). Ranks
are laid out in order and 72 / 16 = 4.5, so one TP group has half
its GPUs in each rack: its all-reduces, 4 per layer, run on the
NICs ({out_dir} each way) instead of NVLink ({up_dir}).

With PP 1 the TP groups are data-parallel replicas. They meet once
per step, to reduce gradients, and then all wait for the slow one.
Step: {start_step}. Keep every TP group in one rack, and the model
in memory.
]], V) },

    { kind = "scenario", title = "Back inside the rack",
      text = "One TP 16 group straddles the racks. Change the degrees so every TP " ..
        "group stays in one rack, and the model still fits.",
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "degrees" },
      goal = {
        text = "No TP group across racks; fit in memory; step under " .. V.target .. ".",
        target = { step_s = target_s },
        check = function(r)
          if r.span.tp.domains > 1 then return false, "a TP group still spans both racks" end
          return scalelab.fits_under(r, target_s)
        end },
      hints = {
        "Which TP sizes tile a 72-GPU rack with whole groups?",
        "A smaller TP group leaves more of the model on each GPU: memory runs out.",
        "TP 8 fits the rack; pipeline stages can take back the memory.",
      },
      debrief = function(r)
        return fill([[
You finished with TP {tp} x PP {pp} x DP {dp}: {step} a step, TP time
{tp_s} (it was {start_tp}). Every all-reduce now stays on NVLink;
the pipeline stages hold the memory the smaller TP gave up.
]], { tp = r.mapping.tp, pp = r.mapping.pp, dp = r.mapping.dp,
      step = U.format("time", r.step_s), tp_s = U.format("time", r.breakdown.tp_s),
      start_tp = V.start_tp })
      end,
      solution = { "tp 8", "pp 2" }, par = 2 },

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
