-- Lesson 5: The bandwidth cliff.
-- Sources: NVLink 5 at 1.8 TB/s per GPU (both directions added, 900 GB/s each
-- way) and ConnectX-8 at 800 Gb/s per GPU (one direction) come from the
-- gb300-nvl72 preset (assets/; NVIDIA GB300 NVL72 and ConnectX-8 documents).
-- "1.8 TB/s is the sum of both directions": NCCL maintainers in
-- NVIDIA/nccl#1442 (quoted in MODEL-FACTS.md §1.1). 1 byte = 8 bits.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end
local function gbit(bytes_per_s)
  return string.format("%d Gb/s", math.floor(bytes_per_s * 8 / 1e9 + 0.5))
end

local g3 = scalelab.system("gb300-nvl72")
local up_dir = g3.up_bytes_per_s          -- per GPU, one direction
local out_dir = g3.out_bytes_per_s        -- per GPU, one direction

local V = {
  up_both = U.format("bandwidth", 2 * up_dir),
  up_dir = U.format("bandwidth", up_dir),
  out_bits = gbit(out_dir),
  out_bits_both = gbit(2 * out_dir),
  out_dir = U.format("bandwidth", out_dir),
  out_both = U.format("bandwidth", 2 * out_dir),
  up_bits_both = string.format("%.1f Tb/s", 2 * up_dir * 8 / 1e12),
  ratio = string.format("%.0f", up_dir / out_dir),
  wrong18 = string.format("%.0f", 2 * up_dir / out_dir),
  wrong2 = string.format("%.2f", (2 * up_dir / 1e12) / (out_dir * 8 / 1e12)),
  n = g3.domain_gpus,
}

return {
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

    { kind = "text", steps = "paragraphs", title = "Your move: break it", text = fill([[
# Watch the cliff
Two racks train Llama 3 70B with tensor parallelism (TP) 8: each
group of 8 GPUs splits every layer and all-reduces 4 times per
layer. Today every group lives inside one rack.

Move *one* GPU of TP group 0 (GPUs 0-7) into the second rack,
swapping it with a GPU there, and watch the step time.
]], V) },

    { kind = "scenario", title = "Push one GPU over the edge",
      text = "Swap one GPU of TP group 0 (GPUs 0-7) with a GPU in the " ..
        "second rack, then watch the step time.",
      cluster = { system = "gb300-nvl72", gpus = 144 },
      workload = { model = "llama3-70b", batch = 288, mb = 1 },
      mapping = { tp = 8, pp = 1, dp = 18 },
      allow = { "move" },
      goal = {
        text = "Make one TP group span both racks.",
        check = function(r)
          if r.span.tp.domains > 1 then return true end
          return false, "every TP group still sits inside one rack"
        end },
      hints = {
        "Pick GPU 7 (the last of group 0) and look at the second rack.",
        "A swap keeps the mapping: GPU 7's work moves to the other rack.",
        "Swap GPU 7 with GPU 72, the first GPU of rack 2.",
      },
      debrief = fill([[
One GPU out of 144 moved, and two TP groups (its old one and the
one it swapped into) now all-reduce over the {out_dir} NIC instead
of {up_dir} NVLink. Every other group waits for them each layer,
so the whole job slows down. The cliff is real.
]], V),
      solution = { "swap 7 72" } },

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
          explain = "It divides a both-ways figure by a one-way figure." },
        { text = V.wrong2 .. "x: 1.8 divided by 0.8.",
          correct = false,
          explain = "That mixes terabytes with gigabits." },
      } },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- The line between scale-up and scale-out is the first thing to
  find on any cluster.
- Bits vs bytes: {out_bits} = {out_dir}. Divide by 8.
- Directions: NVLink's {up_both} adds both ways. Per direction the
  drop is {ratio}x: {up_dir} against {out_dir}.
- One misplaced GPU can drag a whole tensor-parallel job over the
  cliff; the next lessons show how to map work so it never does.
]], V) },

    { kind = "quiz", title = "Check: the drop", text = fill([[
Per direction, how much less bandwidth does a GB300 GPU have when
it talks across the rack boundary instead of inside the rack?
]], V),
      choices = {
        { text = "About " .. V.ratio .. "x less.", correct = true,
          explain = V.up_dir .. " vs " .. V.out_dir .. " per direction." },
        { text = "About 2x less.", correct = false,
          explain = "That is what you get by comparing 1.8 with 800 unit-blind." },
        { text = "The same: a network card is as fast as NVLink.", correct = false,
          explain = "The card is an order of magnitude slower." },
      } },
  },
}
