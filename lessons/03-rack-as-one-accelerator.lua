-- Lesson 3: The rack as one accelerator.
-- Sources: GB200/GB300 NVL72 figures (72 GPUs, NVLink 5 at 1.8 TB/s per GPU
-- both directions, 18 NVSwitch chips, rack power, liquid cooling) come from the
-- presets (assets/; NVIDIA GB200/GB300 NVL72 product pages, verda.com GB300
-- architecture notes). "About 130 TB/s" in the domain: NVIDIA's own rack figure
-- (quoted in MODEL-FACTS.md), checked here as 72 x 1.8 TB/s = 129.6 TB/s.
-- NVLink switch trays run NVIDIA's NVOS switch software: NVIDIA NVLink Switch
-- and NVOS user manuals. The copper "NVLink spine" of the rack (over 5,000
-- passive copper cables): NVIDIA GTC 2024 GB200 NVL72 announcement.
-- NVLink 5 domains of up to 576 GPUs: NVIDIA Base Command Manager manual,
-- chapter "NVLink Technology".
-- DGX H100 power (about 10.2 kW, air cooled): NVIDIA DGX H100 user guide.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end

local g3 = scalelab.system("gb300-nvl72")
local g2 = scalelab.system("gb200-nvl72")
local dgx = scalelab.system("dgx-h100")
local gpu3 = scalelab.gpu(g3.gpu_id)

local per_gpu_both = 2 * g3.up_bytes_per_s
local aggregate = g3.domain_gpus * per_gpu_both

local function kw(w) return string.format("%.0f kW", w / 1000) end

local V = {
  n = g3.domain_gpus,
  name3 = g3.name, name2 = g2.name,
  link = g3.up_link,
  per_gpu = U.format("bandwidth", per_gpu_both),
  per_dir = U.format("bandwidth", g3.up_bytes_per_s),
  aggregate = U.format("bandwidth", aggregate),
  aggregate_exact = string.format("%.1f TB/s", aggregate / 1e12),
  switches = g3.up_switches,
  hbm_rack = U.format("bytes", g3.domain_gpus * gpu3.hbm_bytes),
  pf_rack = U.format("flops", g3.domain_gpus * gpu3.bf16_flops),
  rack_kw = kw(g2.domain_power_w),
  dgx_kw = kw(dgx.domain_power_w),
  power_ratio = string.format("%.0f", g2.domain_power_w / dgx.domain_power_w),
  cooling = g2.cooling, dgx_cooling = dgx.cooling,
}

return {
  id = "rack-as-one-accelerator",
  title = "The rack as one accelerator",
  summary = "GB200/GB300 NVL72: 72 GPUs in one NVLink domain, and its costs.",
  track = "Part 1: Foundations",
  order = 3,
  minutes = 10,
  pages = {
    { kind = "text", steps = "paragraphs", title = "From a board to a rack", text = fill([[
# A whole cabinet designed as one machine
A *rack-scale system* is built as one cabinet of chips, power,
cooling and wiring, not as a pile of separate servers. The aim:
let every chip inside cooperate as if it were one huge chip.

The {name2} and {name3} racks do this with {n} GPUs in a single
NVLink domain. Compared with the 8-GPU server, the fast tier just
got nine times wider.

Around 2023-2024, as such racks appeared, "scale-up" and
"scale-out" became the everyday names for the two network tiers
of AI clusters.
]], V) },

    { kind = "text", steps = "paragraphs", title = "The numbers of one rack", text = fill([[
# {name3}, from the presets
- GPUs in the NVLink domain: {n}
- NVLink per GPU: {per_gpu} (both directions added; {per_dir} each way)
- NVLink in the whole domain: {n} x {per_gpu} = {aggregate_exact},
  which the vendor rounds to 130 TB/s
- NVSwitch chips in the rack's switch trays: {switches}
- HBM in the rack: {hbm_rack}; dense BF16 compute: {pf_rack}

Every GPU reaches every other through one layer of switches, at
full speed, whoever else is talking: the domain is *non-blocking*.
To software, the rack looks like one accelerator with {n} parts.
]], V) },

    { kind = "diagram", title = "One NVL72 domain", view = "rack",
      cluster = { system = "gb300-nvl72", gpus = 72 },
      text = fill([[
{n} GPUs, one scale-up domain. Any pair talks at {per_dir} each
way through the NVLink switch trays.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Copper, and its limit", text = [[
# Why the domain stops at the rack
Inside the rack, GPUs and switch trays are joined through a
backplane of *passive copper* cables, thousands of them. Copper
needs no lasers or optical modules, so it is cheap, reliable and
frugal with power.

The catch: at NVLink signal rates, copper only works over short
runs, about the size of a rack. Past that you need optics, which
cost power and money. So the cable length, not the switch, sets
the edge of today's NVL72 domain.

The links also keep memory *coherent*: a GPU sees the latest
value a peer wrote, as one machine should.
]] },

    { kind = "text", steps = "paragraphs", title = "No CPU, no NIC in the way", text = [[
# The domain runs itself
The NVLink switch trays run their own operating system, NVOS,
which sets up and manages the network inside the rack.

GPU-to-GPU traffic in the domain never touches a host CPU or a
network card, and never goes through the usual layers of network
software (no TCP/IP, no packets built by the operating system).
A GPU writes; the switch delivers.

That is why the scale-up domain is so fast, and also why it is
a closed world: it ends where the copper ends.
]] },

    { kind = "text", steps = "paragraphs", title = "Heat and power", text = fill([[
# Tightly packed means hot
Putting {n} GPUs this close concentrates power and heat in one
cabinet. From the presets:

- DGX H100 server (8 GPUs): about {dgx_kw}, {dgx_cooling}-cooled
- {name2} rack ({n} GPUs): about {rack_kw}, {cooling}-cooled

That is roughly {power_ratio}x one server's power in one rack. Air
cannot carry that heat away, so these racks are cooled by liquid.

Denser scale-up therefore raises what the building must supply:
power per rack, cooling plant, floor loading. Performance, cost,
power density and cooling are all traded against one another.
]], V) },

    { kind = "diagram", title = "A big model in one rack", view = "bar",
      cluster = { system = "gb300-nvl72", gpus = 72 },
      workload = { model = "llama3-405b", batch = 288, mb = 1 },
      mapping = { tp = 8, pp = 9, dp = 1 },
      text = [[
Llama 3 405B on one rack: tensor and pipeline parallelism both
stay on NVLink, so the model trains as if on one machine.
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- A rack-scale system is designed as one machine: {n} GPUs in one
  NVLink domain, about {aggregate} inside it.
- Passive copper keeps it fast and cheap, and also fixes its size.
- NVSwitch trays run the domain by themselves: no host CPU, NIC
  or network stack on the path.
- Tightly coupled racks help big models train and serve well, but
  pack heat: about {rack_kw} per rack, cooled by liquid.
]], V) },

    { kind = "quiz", title = "Check: the edge of the domain", text = [[
What mainly limits an NVL72 scale-up domain to one rack today?
]],
      choices = {
        { text = "Copper links only carry NVLink rates over short distances.",
          correct = true,
          explain = "Right. Longer reach needs optics, with their cost and power." },
        { text = "NVLink 5 cannot address more than 72 GPUs.",
          correct = false,
          explain = "NVLink 5 is specified for domains of up to 576 GPUs." },
        { text = "The host CPUs cannot route more traffic.",
          correct = false,
          explain = "Host CPUs are not on the NVLink path at all." },
      } },
  },
}
