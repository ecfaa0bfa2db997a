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
-- Oct 2024, Spectrum-X Ethernet).

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

local h = scalelab.system("dgx-h100")
local g2 = scalelab.system("gb200-nvl72")
local g3 = scalelab.system("gb300-nvl72")

local V = {
  h_nic = h.out_link, g3_nic = g3.out_link,
  h_bits = gbit(h.out_bytes_per_s), h_bytes = U.format("bandwidth", h.out_bytes_per_s),
  g3_bits = gbit(g3.out_bytes_per_s), g3_bytes = U.format("bandwidth", g3.out_bytes_per_s),
  g3_up = U.format("bandwidth", g3.up_bytes_per_s),
  ratio = string.format("%.0f", g3.up_bytes_per_s / g3.out_bytes_per_s),
  rack_out = U.format("bandwidth", g2.domain_gpus * g2.out_bytes_per_s),
  n = g2.domain_gpus, g2_bits = gbit(g2.out_bytes_per_s),
}

return {
  id = "scale-out-fabric",
  title = "The scale-out fabric",
  summary = "InfiniBand and RDMA Ethernet, leaf-spine Clos, congestion control.",
  track = "Part 1: Foundations",
  order = 4,
  minutes = 10,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Leaving the domain", text = [[
# Where scale-out begins
The moment data leaves an 8-GPU baseboard or an NVL72 rack, it
is in a different world: the *scale-out* network.

Here the units are independent machines. Each has its own
operating system and its own network cards, and they talk over
a data-center fabric built on open, standard protocols:
*InfiniBand* or *Ethernet*.

This is the tier that lets a cluster grow from one rack to tens
of thousands of them.
]] },

    { kind = "text", steps = "paragraphs", title = "InfiniBand and RDMA", text = fill([[
# Networks built for supercomputers
*InfiniBand* is a network designed for supercomputers and AI
clusters, tuned so that data crosses with as little delay as
possible.

Both it and modern Ethernet fabrics use *RDMA* (remote direct
memory access): one machine's card writes straight into another
machine's memory, with no operating system or copying in between.
On Ethernet this is RoCE: the RDMA payload rides inside ordinary
UDP/IP packets.

The cards are *SuperNICs*, one per GPU:
- DGX H100: {h_nic}
- GB300 NVL72: {g3_nic}
]], V) },

    { kind = "text", steps = "paragraphs", title = "Leaf and spine", text = [[
# A Clos network
GPU servers plug into *leaf* switches. Every leaf has a link to
every *spine* switch. Any two leaves are then two hops apart,
through whichever spine is least busy.

This shape is a *Clos* (or *leaf-spine*) network. It grows by
adding leaves and spines, and with enough spines every server
can send at full speed at once (*full bisection*).

Builders often save money with fewer uplinks than downlinks.
The ratio is the *oversubscription*: at 7:1, traffic crossing
the spines gets only a seventh of the rate the servers could send.
]] },

    { kind = "diagram", title = "A leaf-spine fabric", view = "fabric",
      cluster = { system = "dgx-h100", gpus = 256 },
      text = fill([[
32 DGX H100 servers under their leaf switches, joined by spines.
Each GPU has its own {h_bits} link into the fabric.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Traffic jams", text = [[
# Congestion control
A highway can jam, and so can a fabric: when many senders aim at
one receiver, switch buffers fill and packets are lost. RDMA
hates loss, so Ethernet fabrics add controls:

- *PFC* (priority flow control): a switch tells its neighbour
  to pause a traffic class before the buffer overflows.
- *DCQCN*: switches mark packets when queues grow and senders
  slow down in response.
- *Ultra Ethernet* (UET): a new transport, standardised in 2025,
  that sprays packets over many paths and manages congestion.

InfiniBand has credit-based flow control built in.
]] },

    { kind = "text", steps = "paragraphs", title = "Why it scales so far", text = fill([[
# Slower, but nearly unlimited
Per GPU, a scale-out link is an order of magnitude slower than
NVLink: on the GB300 NVL72, {g3_bits} = {g3_bytes} each way
against {g3_up} each way on NVLink, about {ratio}x less.

What it buys is reach. Leaf-spine fabrics can join hundreds of
thousands of GPUs into one AI supercomputer. Meta's Llama 3 cluster
joined 24,000 GPUs over RoCE Ethernet, oversubscribed seven to
one above pods of 3,072 GPUs.

Even a whole GB200 NVL72 rack sends at most {n} x {g2_bits}
= {rack_out} into the fabric, each way.
]], V) },

    { kind = "diagram", title = "An oversubscribed fabric", view = "fabric",
      cluster = { system = "dgx-h100", gpus = 256, oversub = 4 },
      text = [[
The same 32 servers at 4:1 oversubscription: a quarter of the
spine links. Cheaper, but traffic between leaves now queues.
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- Scale-out joins independent machines with standard networks:
  InfiniBand, or Ethernet with RDMA (RoCE).
- One SuperNIC per GPU: {h_bits} or {g3_bits}, far below NVLink.
- Leaf-spine Clos fabrics grow by adding switches; fewer uplinks
  (oversubscription) save money and cost bandwidth.
- Congestion control (PFC, DCQCN, Ultra Ethernet) keeps a busy
  fabric from losing packets.
- In exchange for speed, the fabric reaches hundreds of
  thousands of GPUs.
]], V) },

    { kind = "quiz", title = "Check: RDMA", text = [[
What does RDMA let a network card do?
]],
      choices = {
        { text = "Write into another machine's memory with no OS in between.",
          correct = true,
          explain = "Yes: it skips the software layers, so data moves sooner." },
        { text = "Turn an Ethernet fabric into NVLink.",
          correct = false,
          explain = "RDMA still runs at the NIC's speed, far below NVLink." },
        { text = "Remove the need for congestion control.",
          correct = false,
          explain = "The reverse: RDMA copes badly with loss, so it needs it." },
      } },
  },
}
