-- SPDX-License-Identifier: MIT
-- Lesson 4: The scale-out fabric.
-- Sources: NIC per GPU (ConnectX-7 400 Gb/s on DGX H100 / GB200 NVL72,
-- ConnectX-8 800 Gb/s on GB300 NVL72) comes from the presets (assets/; NVIDIA
-- ConnectX-8 SuperNIC release notes and NVL72 reference architecture).
-- RoCE v2 carries RDMA inside UDP/IP packets: InfiniBand Trade Association,
-- RoCEv2 annex (2014). PFC: IEEE 802.1Qbb. DCQCN: Zhu et al., SIGCOMM 2015.
-- Ultra Ethernet Transport (UET): Ultra Ethernet Consortium specification 1.0
-- (June 2025). Meta's Llama 3 RoCE fabric (24K GPUs, 1:7 oversubscription
-- above the 3,072-GPU pods, 400 Gb/s per GPU): Llama 3 Herd paper §3.3.1.
-- Clusters of 100,000+ GPUs on one fabric: xAI Colossus (NVIDIA press release,
-- Oct 2024, Spectrum-X Ethernet). Topology-unaware scheduling spreads a job's
-- nodes over leaves; Slurm's topology/tree plugin exists to keep them under
-- few switches (Slurm documentation, "Topology Guide").

local U = scalelab.units
local fill = scalelab.fill

local h = scalelab.system("dgx-h100")
local g2 = scalelab.system("gb200-nvl72")
local g3 = scalelab.system("gb300-nvl72")

-- Meta's RoCE fabric: 400 Gb/s per GPU, 7:1 above the 3,072-GPU pods.
local META_OVERSUB = 7
local cross_pod = h.out_bytes_per_s / META_OVERSUB
local rack_out = g2.domain_gpus * g2.out_bytes_per_s
local rack3_out = g3.domain_gpus * g3.out_bytes_per_s -- the calc quiz

-- Scenario: a 100 GbE cluster, 2 servers per leaf, 4:1 to the spine. A job
-- of four servers (TP 8 x PP 2 x DP 2) was placed by a scheduler that does
-- not know the fabric: servers 1 and 2 run another job, so it got servers
-- 0, 3, 4 and 5, under three different leaves, and its gradient reductions
-- climb to the oversubscribed spine. Servers 6 and 7 (leaf 3) are free.
local cluster = { system = "ethernet-100g", gpus = 32, machine_gpus = 64, busy = { "8-23" },
                  oversub = 4 }
local workload = { model = "llama3-70b", batch = 64, mb = 1 }
local start_map = { tp = 8, pp = 2, zero = 1 }
local fix = { "group tp 24 to 48", "group tp 40 to 56", "group tp 0 to 40" }
local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local solved = scalelab.step { cluster = cluster, workload = workload, mapping = start_map,
  moves = fix }
local target_s = math.sqrt(start.step_s * solved.step_s)
assert(solved.step_s < 0.95 * start.step_s,
  "re-tune: keeping DP under one leaf no longer pays here")
local leaf_gpus = scalelab.system("ethernet-100g").gpus_per_leaf

local V = {
  h_nic = h.out_link, g3_nic = g3.out_link,
  h_bits = U.bits(h.out_bytes_per_s), h_bytes = U.format("bandwidth", h.out_bytes_per_s),
  g3_bits = U.bits(g3.out_bytes_per_s), g3_bytes = U.format("bandwidth", g3.out_bytes_per_s),
  g3_up = U.format("bandwidth", g3.up_bytes_per_s),
  ratio = string.format("%.0f", g3.up_bytes_per_s / g3.out_bytes_per_s),
  rack_out = U.format("bandwidth", rack_out),
  rack3_out = U.format("bandwidth", rack3_out),
  rack3_both = U.format("bandwidth", 2 * rack3_out),
  rack3_bits_as_bytes = U.format("bandwidth", rack3_out * 8),
  server3_out = U.format("bandwidth", 8 * g3.out_bytes_per_s),
  n3 = g3.domain_gpus,
  n = g2.domain_gpus, g2_bits = U.bits(g2.out_bytes_per_s),
  oversub = META_OVERSUB, cross_pod = U.format("bandwidth", cross_pod),
  start_step = U.format("time", start.step_s), start_dp = U.format("time", start.breakdown.dp_s),
  solved_dp = U.format("time", solved.breakdown.dp_s),
  target = U.format("time", target_s), leaf_servers = leaf_gpus // 8,
}

local lesson = {
  id = "scale-out-fabric",
  title = "The scale-out fabric",
  summary = "InfiniBand and RDMA Ethernet, leaf-spine Clos, congestion control.",
  track = "Part 1: Foundations",
  order = 4,
  minutes = 12,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Leaving the domain", text = [[
# Where scale-out begins
As soon as data leaves an 8-GPU baseboard or an NVL72 rack, it is
on a different kind of network: the *scale-out* fabric.

The machines on it are independent. Each runs its own operating
system and has its own network cards, and they speak open,
standard protocols over data-center switches: *InfiniBand* or
*Ethernet*.

This is the tier that lets a cluster grow from one rack to tens
of thousands of them.
]] },

    { kind = "text", steps = "paragraphs", title = "InfiniBand and RDMA", text = fill([[
# Cards that write into remote memory
*InfiniBand* started around 2000 as a general fabric for server
I/O and clusters. Supercomputers, and later AI clusters, became
its main users, because it moves data with very little delay.

Both it and modern Ethernet fabrics use *RDMA* (remote direct
memory access): one machine's card writes straight into another
machine's memory, with no operating system or copying in between.
On Ethernet this is RoCE: the RDMA payload rides inside ordinary
UDP/IP packets.

There is one network card per GPU:
- DGX H100: {h_nic} (a NIC)
- GB300 NVL72: {g3_nic} (sold as a "SuperNIC")
]], V) },

    { kind = "text", steps = "paragraphs", title = "Leaf and spine", text = [[
# A Clos network
GPU servers plug into *leaf* switches; every leaf has a link to
every *spine* switch. Any two leaves are two hops apart, through
whichever spine is least busy. This shape is a *Clos* (or
*leaf-spine*) network; it grows by adding switches.

DGX SuperPODs wire it *rail-optimized*: GPU k of every server in a unit
plugs into leaf k, so traffic between same-numbered GPUs of
different servers crosses just one leaf.

Builders often fit fewer uplinks than downlinks to save money.
The ratio is the *oversubscription*: at 4:1, traffic crossing the
spines gets a quarter of what the servers could send.
]] },

    { kind = "diagram", title = "A leaf-spine fabric", view = "fabric",
      cluster = { system = "dgx-h100", gpus = 256 },
      text = fill([[
32 DGX H100 servers under their leaf switches, joined by spines.
Each GPU has its own {h_bits} link into the fabric.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Traffic jams", text = [[
# Congestion control
Fabrics jam when many senders aim at one receiver: switch buffers
fill and packets are dropped. RDMA copes badly with loss, so
Ethernet fabrics add controls:

- *PFC* (priority flow control): a switch tells its neighbour
  to pause a traffic class before the buffer overflows.
- *DCQCN*: switches mark packets when queues grow and senders
  slow down in response.
- *Ultra Ethernet* (UET): a transport standardised in 2025 that
  sprays packets over many paths and manages congestion.

InfiniBand has credit-based flow control built in.
]] },

    { kind = "text", steps = "paragraphs", title = "Why it scales so far", text = fill([[
# Slower, but nearly unlimited
Per GPU, a scale-out link is an order of magnitude slower than
NVLink: on the GB300 NVL72, {g3_bits} = {g3_bytes} each way
against {g3_up} each way on NVLink, about {ratio}x less.

What it buys is reach. Leaf-spine fabrics can join hundreds of
thousands of GPUs into one AI supercomputer. Meta's Llama 3 cluster
joined 24,000 GPUs over RoCE Ethernet, oversubscribed {oversub} to 1
above pods of 3,072 GPUs.

Even a whole GB200 NVL72 rack sends at most {n} x {g2_bits}
= {rack_out} into the fabric, each way.
]], V) },

    { kind = "predict", title = "Your estimate: across the pods", text = fill([[
Meta's Llama 3 fabric gives each GPU a {h_bits} NIC, at full speed
inside a pod, but the links above the pods are oversubscribed
{oversub} to 1. Assume every GPU sends across the pods at once.
]], V),
      question = "What rate does each GPU get across the pods, per direction?",
      unit = "B/s", answer = cross_pod, tolerance = 0.15,
      formula = V.h_bits .. " / 8 / " .. META_OVERSUB .. " = " .. V.cross_pod },

    { kind = "text", steps = "paragraphs", title = "The task: a job the scheduler scattered", text = fill([[
# Which traffic climbs to the spine?
A 100 GbE cluster: {leaf_servers} servers under each leaf switch, and the
leaves' uplinks oversubscribed 4 to 1. A job of four servers trains
Llama 3 70B as TP 8 x PP 2 x DP 2: two pipelines of two stages.

The scheduler knows nothing of the fabric. Another job holds servers
1 and 2, so it handed out servers 0, 3, 4 and 5, under three leaves.
Each stage's two copies reduce their gradients once per step, and
those reductions climb to the spine at a quarter of the NIC rate:
{start_dp} of a {start_step} step.

Servers 6 and 7 share a free leaf. Move the TP groups (one server
each) so that the two copies of each stage share a leaf. The
pipeline's sends may cross the spine: they are small.
]], V) },

    { kind = "scenario", title = "Under one leaf", text = fill([[
DP takes {start_dp} of {start_step}: its reductions climb the 4:1 spine. Put
each stage's two copies under one leaf; servers 6 and 7 are free.]], V),
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "tp groups", "micro" },
      goal = { text = "Fit in memory with a step under " .. V.target .. ".",
               target = { step_s = target_s },
               check = function(r)
                 return scalelab.fits_under(r, target_s)
               end },
      hints = {
        "The goal line names the DP groups that climb to the spine. Which servers hold stage 0, "
          .. "and which stage 1?",
        "A leaf holds two servers. Both copies of stage 0 under one leaf, both copies of "
          .. "stage 1 under another.",
        "Move the two stage-1 groups to servers 6 and 7 (a free leaf), then stage 0 of the "
          .. "first pipeline next to stage 0 of the second.",
      },
      debrief = function(r)
        return fill([[
Each stage's copies now share a leaf: DP time {dp_s} (it was
{start_dp}), {step} a step. The pipeline's sends climb to the spine
instead, and cost little. Which traffic crosses an oversubscribed
tier is a placement decision: keep the heavy, synchronising
traffic under one leaf.
]], scalelab.facts(r, { start_dp = V.start_dp }))
      end,
      solution = fix, par = 6 },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- Scale-out joins independent machines with standard networks:
  InfiniBand, or Ethernet with RDMA (RoCE).
- One NIC per GPU: {h_bits} or {g3_bits}, far below NVLink.
- Leaf-spine Clos fabrics grow by adding switches; fewer uplinks
  (oversubscription) save money and slow what crosses the spine.
- Congestion control (PFC, DCQCN, Ultra Ethernet) keeps a busy
  fabric from losing packets.
- In exchange for speed, the fabric reaches hundreds of
  thousands of GPUs.
]], V) },

    { kind = "quiz", title = "Check: a rack's egress", calc = true, text = fill([[
A GB300 NVL72 rack has {n3} GPUs, each with one {g3_bits} NIC. How
much can the whole rack send into the fabric, in one direction?
]], V),
      choices = {
        { text = V.rack3_out, correct = true,
          explain = V.n3 .. " x " .. V.g3_bits .. " / 8 bits per byte." },
        { text = V.rack3_bits_as_bytes, correct = false,
          explain = "That forgets to divide by 8: NIC speeds are in bits per second." },
        { text = V.rack3_both, correct = false,
          explain = "That adds both directions; the question asks one way." },
        { text = V.server3_out, correct = false,
          explain = "That is eight NICs, one 8-GPU server, not the 72-GPU rack." },
      } },

    { kind = "quiz", title = "Check: RDMA", text = [[
What does RDMA let a network card do?
]],
      choices = {
        { text = "Write into another machine's memory with no OS in between.",
          correct = true,
          explain = "It skips the software layers, so data moves sooner." },
        { text = "Run the network at NVLink speed, since no software is in the way.",
          correct = false,
          explain = "RDMA removes software overhead; the wire still runs at the NIC's rate." },
        { text = "Remove the need for congestion control.",
          correct = false,
          explain = "RDMA copes badly with loss, so a busy fabric needs congestion control." },
        { text = "Share one address space across all machines, like NVLink.",
          correct = false,
          explain = "Each transfer names a registered remote buffer; there is no shared memory." },
      } },
  },
}

return lesson
