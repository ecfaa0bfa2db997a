-- SPDX-License-Identifier: MIT
-- Lesson 2: Inside the box.
-- Sources: NVLink generations, links per GPU and NVSwitch counts come from the
-- presets (assets/; jax-ml/scaling-book gpus.md NVLink table, NVIDIA DGX
-- A100/H100 and DGX B200 documentation). "Memory-semantic" load/store access
-- over NVLink: NVIDIA NVLink/NVSwitch product pages. Peer access is not general
-- cache coherence (a GPU does not snoop a peer's caches; ordering comes from
-- fences and synchronization): CUDA C++ Programming Guide, "Peer-to-Peer Memory
-- Access" and "Memory Fence Functions". NVLink checks each packet with a CRC
-- and resends corrupted ones itself (link-level retry): NVIDIA Tesla P100
-- whitepaper, "NVLink" section. Ideal ring all-reduce time 2(n-1)/n x S / B:
-- nccl-tests doc/PERFORMANCE.md (MODEL-FACTS.md section 4.1). TP is kept inside
-- the server; EP prefers it but often crosses the network (DeepSeek-V3 trained
-- with EP 64 over InfiniBand, technical report section 3.2).

local U = scalelab.units
local fill = scalelab.fill

local a100 = scalelab.system("dgx-a100")
local h100 = scalelab.system("dgx-h100")

-- NVLink links per GPU: 12 on the A100 (NVLink 3), 18 on the H100 (NVLink 4)
-- and the B200 (NVLink 5): jax-ml/scaling-book gpus.md NVLink table.
local LINKS = { ["dgx-a100"] = 12, ["dgx-h100"] = 18 }
local function row(s)
  local n = LINKS[s.id]
  return string.format("%s (%s): %d x %s = %s each way; NIC %s",
    s.name, s.up_link, n, U.format("bandwidth", s.up_bytes_per_s / n),
    U.format("bandwidth", s.up_bytes_per_s), U.bits(s.out_bytes_per_s))
end

local bar = scalelab.step { cluster = { system = "dgx-h100", gpus = 8 },
  workload = { model = "llama3-8b", batch = 64, mb = 1 }, mapping = { tp = 8, pp = 1, dp = 1 } }

-- One TP all-reduce of Llama 3 70B: one sequence of activations, seq x hidden
-- BF16 values, over the 8 GPUs of the box at the NVLink rate (ideal ring).
local m70 = scalelab.model("llama3-70b")
local ar_bytes = m70.seq * m70.hidden * 2
local ar_n = h100.domain_gpus
local ar_bw_s = 2 * (ar_n - 1) / ar_n * ar_bytes / h100.up_bytes_per_s
-- A ring all-reduce takes 2(n - 1) steps, each at least one NVLink hop
-- (the preset's per-hop latency, from NCCL's tuning tables).
local ar_lat_s = 2 * (ar_n - 1) * h100.up_lat_s
local ar_s = ar_lat_s + ar_bw_s

-- Scenario: Llama 3 8B on one DGX H100 with TP 8, in one air-cooled server
-- slot (the DGX H100's power). A server with more HBM per GPU lets TP shrink
-- further, so the all-reduces all but vanish. Target: between the best single
-- change and the best (system, TP) pair, both computed here.
local box = { system = "dgx-h100", gpus = 8 }
local box_wl = { model = "llama3-8b", batch = 64, mb = 1 }
local box_map = { tp = 8, pp = 1, zero = 1 }
local SLOT_W = h100.domain_power_w
local box_best = scalelab.pair_target {
  setup = function(system, tp)
    return { cluster = { system = system, gpus = 8 }, workload = box_wl,
             mapping = { tp = tp, pp = 1, zero = 1 } }
  end,
  accept = function(r) return r.cluster.power_w > 0 and r.cluster.power_w <= SLOT_W end,
  a = scalelab.systems(), b = { 1, 2, 4, 8 }, start = { "dgx-h100", 8 } }
local box_target = box_best.target
local box_moves = { "system " .. box_best.a, table.unpack(scalelab.moves("tp", 8, box_best.b)) }
local box_par = scalelab.presses { cluster = box, workload = box_wl, mapping = box_map,
  moves = box_moves }
local function kw(w) return string.format("%.1f kW", w / 1e3) end
local box_start = scalelab.step { cluster = box, workload = box_wl, mapping = box_map }

-- The calc quiz: a 10 GB checkpoint shard copied to a peer GPU.
local CP_BYTES = 10e9

local V = {
  box_target = U.format("time", box_target), slot = kw(SLOT_W),
  box_step = U.format("time", box_start.step_s),
  box_tp = string.format("%.0f%%", 100 * box_start.breakdown.tp_s / box_start.step_s),
  ar_mb = U.format("bytes", ar_bytes), ar_t = U.format("time", ar_s),
  ar_seq = m70.seq, ar_hidden = m70.hidden, ar_n = ar_n,
  ar_bw = U.format("bandwidth", h100.up_bytes_per_s),
  ar_hop = U.format("time", h100.up_lat_s), ar_steps = 2 * (ar_n - 1),
  cp_size = U.format("bytes", CP_BYTES),
  cp_t = U.format("time", CP_BYTES / h100.up_bytes_per_s),
  cp_both = U.format("time", CP_BYTES / (2 * h100.up_bytes_per_s)),
  cp_nic = U.format("time", CP_BYTES / h100.out_bytes_per_s),
  cp_bits = U.format("time", CP_BYTES * 8 / h100.up_bytes_per_s),
  tp_pct = string.format("%.0f", 100 * bar.breakdown.tp_s / bar.step_s),
  n = h100.domain_gpus,
  switches = h100.up_switches,
  link = h100.up_link,
  up = U.format("bandwidth", h100.up_bytes_per_s),
  up2 = U.format("bandwidth", 2 * h100.up_bytes_per_s),
  out = U.format("bandwidth", h100.out_bytes_per_s),
  outbits = U.bits(h100.out_bytes_per_s),
  ratio = string.format("%.0f", h100.up_bytes_per_s / h100.out_bytes_per_s),
  row_a = row(a100), row_h = row(h100),
}

local lesson = {
  id = "inside-the-box",
  title = "Inside the box",
  summary = "NVLink, NVSwitch and the classic 8-GPU server.",
  track = "Part 1: Foundations",
  order = 2,
  minutes = 9,
  pages = {
    { kind = "text", steps = "paragraphs", title = "The classic 8-GPU server", text = fill([[
# Eight GPUs on one board
For years the workhorse of AI training has been a server such as
the DGX H100: {n} GPUs on one baseboard with {switches} NVSwitch chips
between them. Each GPU reaches each other GPU through the switches
in one hop, at the same speed, without a cable.

Those {n} GPUs form the server's *scale-up domain*. Data bound for
anywhere else has to leave through a network card.

The GPU-to-GPU links are *NVLink*, a connection only Nvidia makes;
the switches are *NVSwitch* chips. To the software above them the
board looks like one big node with {n} GPUs in it.
]], V) },

    { kind = "diagram", title = "The DGX H100 board", view = "rack",
      cluster = { system = "dgx-h100", gpus = 8 },
      text = fill([[
{n} GPUs, one NVSwitch domain: each GPU reaches each other GPU
at {up} per direction.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Memory-semantic links", text = fill([[
# Loads and stores, not messages
A network moves *messages*: software packs data, a card sends
it, the far side unpacks it. NVLink can work another way.

A GPU can read and write a peer GPU's memory with its ordinary
load and store instructions. Links that carry memory operations
are called *memory-semantic*. Each link also checks every packet
and resends a damaged one by itself (link-level retry).

This is not the cache coherence of CPUs in one server: a GPU does
not watch its peers' caches, so libraries such as NCCL use fences
and flags to know a write has landed. Still, the {n} GPUs share data
with little software in the way: ideal for talk-heavy work.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Three generations", text = fill([[
# Per-GPU bandwidth: links x rate, from the presets
- {row_a}
- {row_h}

NVLink 5, in the B200, keeps 18 links per GPU and doubles what
each one carries. The network card per GPU grows too, but stays
far behind: on the DGX H100, {up} per direction inside the box
against {out} ({outbits}) out of it, about {ratio}x less.

Vendors print NVLink with both directions added, twice the
figures above. Keep that in mind: lesson 5 comes back to it.
]], V) },

    { kind = "diagram", title = "Where the time goes", view = "bar",
      cluster = { system = "dgx-h100", gpus = 8 },
      workload = { model = "llama3-8b", batch = 64, mb = 1 },
      mapping = { tp = 8, pp = 1, dp = 1 },
      text = fill([[
Llama 3 8B on one server, split 8 ways by tensor parallelism. Even
on NVLink its all-reduces take {tp_pct}% of the step; over a network
they would take far longer.
]], V) },

    { kind = "text", steps = "paragraphs", title = "What the box is good at", text = [[
# Talk-heavy work belongs inside
Some ways of splitting a model make GPUs exchange data inside
every layer, many times per step:

- *tensor parallelism* cuts each layer's weight matrices into
  slices, so every GPU computes part of every multiplication;
- *expert parallelism* gives each GPU its own experts of a
  mixture-of-experts model and ships each token to the GPU that
  holds the expert it needs.

Tensor parallelism waits on its exchanges: it stays in the box.
Expert traffic also prefers NVLink, but big runs do send it over
the network, at a price (lesson 7). Lesson 6 measures both.
]] },

    { kind = "scenario", title = "Use the box well", text = fill([[
Llama 3 8B on one DGX H100 as TP 8: {box_tp} of the step waits on
all-reduces. Keep to one {slot} server slot; pick the box and the TP.]], V),
      cluster = box, workload = box_wl, mapping = box_map,
      allow = { "system", "degrees" },
      goal = { text = "One " .. V.slot .. " server, fitting, step under " .. V.box_target .. ".",
               target = { step_s = box_target, power_w = SLOT_W },
               check = function(r)
                 local w = r.cluster.power_w
                 if w <= 0 then return false, "this system's power is not published" end
                 if w > SLOT_W then return false, kw(w) .. " is more than the " .. V.slot .. " slot" end
                 return scalelab.fits_under(r, box_target)
               end },
      hints = {
        "An 8B model does not need 8-way TP, if each GPU can hold more of it.",
        "Less TP means fewer all-reduces; the rest of the box becomes DP.",
        "A server with more HBM per GPU, at the same power, lets TP go lower.",
      },
      debrief = function(r)
        return fill([[
You ended on {sys} with TP {tp} x DP {dp}: {step}, {mem} per GPU.
Inside the box TP is cheap but not free: use as little of it as the
memory allows, and more HBM per GPU allows less.
]], scalelab.facts(r))
      end,
      solution = box_moves, par = box_par },

    { kind = "predict", title = "Your estimate: one all-reduce", text = fill([[
Llama 3 70B with TP {ar_n} on one DGX H100. One TP all-reduce sums a
sequence of activations: {ar_seq} x {ar_hidden} BF16 values = {ar_mb}.
A ring all-reduce takes 2 x (n - 1) steps of at least one hop each
({ar_hop} a hop), and each GPU sends 2 x (n - 1) / n of the data at
{ar_bw} each way.
]], V),
      question = "How long does one all-reduce take?",
      unit = "s", answer = ar_s, tolerance = 0.2,
      slips = { "bits", "directions" },   -- 450 GB/s read as gigabits; 900, both ways
      terms = { { name = "the bandwidth term", value = ar_bw_s },
                { name = "the hop latencies", value = ar_lat_s } },
      formula = V.ar_steps .. " x " .. V.ar_hop .. " + 2 x " .. (ar_n - 1) .. "/" .. ar_n ..
        " x " .. V.ar_mb .. " / " .. V.ar_bw .. " = " .. V.ar_t },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- A classic AI server is {n} GPUs joined by NVLink through NVSwitch
  chips: one scale-up domain.
- NVLink is memory-semantic: GPUs load and store in each other's
  memory (with link-level retry, but not CPU-style cache coherence).
- Per direction, a DGX H100 GPU has {up} inside the box and
  {out} out of it, so tensor-parallel work stays inside.
]], V) },

    { kind = "quiz", title = "Check: a copy in the box", calc = true, text = fill([[
A GPU of a DGX H100 copies a {cp_size} checkpoint shard to another GPU
of the same server, over NVLink, in one direction. About how long
does the copy take, when nothing else uses the links?
]], V),
      choices = {
        { text = V.cp_t, correct = true,
          explain = V.cp_size .. " / " .. V.up .. ", the rate of one direction." },
        { text = V.cp_both, correct = false,
          explain = "That uses " .. V.up2 .. ", both directions added; one copy uses one." },
        { text = V.cp_nic, correct = false,
          explain = "That sends it through the NIC at " .. V.out .. "; inside the box it stays on NVLink." },
        { text = V.cp_bits, correct = false,
          explain = "That reads " .. V.up .. " as gigabits; NVLink is quoted in bytes." },
      } },

    { kind = "quiz", title = "Check: memory-semantic", text = [[
What makes NVLink "memory-semantic"?
]],
      choices = {
        { text = "A GPU reads and writes a peer GPU's memory with its own loads and stores.",
          correct = true,
          explain = "No messages for software to build: the GPUs share data almost as one." },
        { text = "Every GPU's caches are kept coherent with its peers' caches, as in a CPU.",
          correct = false,
          explain = "GPUs do not watch each other's caches; software orders peer writes with fences." },
        { text = "The host CPU copies the data between the GPUs' memories on their behalf.",
          correct = false,
          explain = "The CPU is not on the path: the GPUs' own instructions reach the peer." },
        { text = "Software packs the data into messages that the far GPU unpacks, as a NIC does.",
          correct = false,
          explain = "That is how a network moves data; over NVLink the loads and stores go through." },
      } },
  },
}

return lesson
