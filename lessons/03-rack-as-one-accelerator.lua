-- SPDX-License-Identifier: MIT
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
-- Four DGX H100 systems per air-cooled rack (about 41 kW): NVIDIA DGX SuperPOD
-- H100 reference architecture (rack elevations). NVL72 rack power (~120 kW
-- GB200, ~132 kW GB300, liquid cooled): presets, press figures marked there.
-- NVLink peer access is load/store to a peer's memory, not CPU-style cache
-- coherence: CUDA C++ Programming Guide, peer-to-peer memory access.
-- The 250 kW budget of the scenario is a premise of the exercise, not a figure
-- of any real site.

local U = scalelab.units
local fill = scalelab.fill

local g3 = scalelab.system("gb300-nvl72")
local g2 = scalelab.system("gb200-nvl72")
local dgx = scalelab.system("dgx-h100")
local gpu3 = scalelab.gpu(g3.gpu_id)

local per_gpu_both = 2 * g3.up_bytes_per_s
local aggregate = g3.domain_gpus * per_gpu_both

-- The calc quiz: the same sum for the next rack, Vera Rubin NVL72 (NVLink 6,
-- 3.6 TB/s per GPU both ways; NVIDIA's figure for the rack is 260 TB/s).
local vr = scalelab.system("vera-rubin-nvl72")
local vr_both = 2 * vr.up_bytes_per_s
local vr_aggregate = vr.domain_gpus * vr_both

local function kw(w)
  return string.format(w < 100e3 and "%.1f kW" or "%.0f kW", w / 1000)
end

-- An air-cooled rack of four DGX H100 servers, against one NVL72 rack.
local DGX_PER_AIR_RACK = 4  -- DGX SuperPOD H100 rack elevation
local air_rack_w = DGX_PER_AIR_RACK * dgx.domain_power_w
local rack_ratio = g2.domain_power_w / air_rack_w

-- Scenario: 144 GPUs, a power budget, and a token rate only a liquid-cooled
-- rack with a re-balanced mapping reaches.
local BUDGET_W = 250e3
local cluster = { system = "dgx-h100", gpus = 144 }
local workload = { model = "llama3-70b", batch = 288, mb = 1 }
local start_map = { tp = 8, pp = 2, zero = 1 }
local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local on_rack = scalelab.step { cluster = { system = "gb200-nvl72", gpus = 144 },
  workload = workload, mapping = start_map }
local rebalanced = scalelab.step { cluster = { system = "gb200-nvl72", gpus = 144 },
  workload = workload, mapping = { tp = 4, pp = 2, zero = 1 } }
assert(rebalanced.tokens_per_s > on_rack.tokens_per_s * 1.05,
  "the model no longer rewards the re-balanced mapping: re-tune this scenario")
assert(on_rack.cluster.power_w <= BUDGET_W, "GB200 NVL72 racks no longer fit the budget")
local target_tok = math.sqrt(on_rack.tokens_per_s * rebalanced.tokens_per_s)

local function tok(x) return string.format("%.0fk tokens/s", x / 1000) end

local V = {
  n = g3.domain_gpus,
  name3 = g3.name, name2 = g2.name,
  per_gpu = U.format("bandwidth", per_gpu_both),
  per_dir = U.format("bandwidth", g3.up_bytes_per_s),
  aggregate = U.format("bandwidth", aggregate),
  aggregate_exact = string.format("%.1f TB/s", aggregate / 1e12),
  vr_name = vr.name, vr_n = vr.domain_gpus, vr_link = vr.up_link,
  vr_dir = U.format("bandwidth", vr.up_bytes_per_s),
  vr_both = U.format("bandwidth", vr_both),
  vr_aggregate = U.format("bandwidth", vr_aggregate),
  vr_one_way = U.format("bandwidth", vr_aggregate / 2),
  vr_board = U.format("bandwidth", 8 * vr_both),
  vr_in_bits = U.format("bandwidth", vr_aggregate / 8),
  rack_gpu_w = kw(g2.domain_power_w / g2.domain_gpus),
  air_gpu_w = kw(air_rack_w / (DGX_PER_AIR_RACK * dgx.domain_gpus)),
  switches = g3.up_switches,
  hbm_rack = U.format("bytes", g3.domain_gpus * gpu3.hbm_bytes),
  pf_rack = U.format("flops", g3.domain_gpus * gpu3.bf16_flops),
  rack_kw = kw(g2.domain_power_w), rack3_kw = kw(g3.domain_power_w),
  dgx_kw = kw(dgx.domain_power_w),
  air_rack_kw = kw(air_rack_w), per_air = DGX_PER_AIR_RACK,
  rack_ratio = string.format("%.1f", rack_ratio),
  cooling = g2.cooling, dgx_cooling = dgx.cooling,
  budget = kw(BUDGET_W),
  start_kw = kw(start.cluster.power_w), start_tok = tok(start.tokens_per_s),
  target = tok(target_tok),
}

local lesson = {
  id = "rack-as-one-accelerator",
  title = "The rack as one accelerator",
  summary = "GB200/GB300 NVL72: 72 GPUs in one NVLink domain, and its costs.",
  track = "Part 1: Foundations",
  order = 3,
  minutes = 12,
  pages = {
    { kind = "text", steps = "paragraphs", title = "From a board to a rack", text = fill([[
# A whole cabinet designed as one machine
A *rack-scale system* is engineered as a single cabinet: chips,
power, cooling and wiring planned together instead of a stack of
separate servers. The goal is that every chip inside can work
with every other as if they were parts of one enormous chip.

The {name2} and {name3} racks put {n} GPUs in a single
NVLink domain. Next to the 8-GPU server, the fast tier has
become nine times wider.

As such racks arrived around 2023-2024, "scale-up" and
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

Every GPU reaches every other through one layer of switches at
full speed, however busy the others are: the domain is
*non-blocking*. Software can treat the rack as one accelerator.
]], V) },

    { kind = "diagram", title = "One NVL72 domain", view = "rack",
      cluster = { system = "gb300-nvl72", gpus = 72 },
      text = fill([[
{n} GPUs, one scale-up domain. Any pair talks at {per_dir} each
way through the NVLink switch trays.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Copper, and its limit", text = [[
# Why the domain stops at the rack
Inside the rack, GPU trays and switch trays meet through a
backplane of *passive copper* cables, thousands of them. Copper
needs no lasers or optical modules: it is cheap, dependable and
draws no power of its own.

The catch: at NVLink signal rates a copper run can only be about
a rack long. Going further needs optics, which add watts and
cost. So cable reach, not the switch, marks the edge of today's
NVL72 domain.

A GPU can load and store straight into a peer's memory over these
links; libraries still use fences to know a write has arrived.
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
# Dense means hot
{n} GPUs this close together put a great deal of electrical load,
and so heat, into one footprint. Compare racks, not boxes:

- an air-cooled rack of {per_air} DGX H100 servers ({dgx_kw} each): about
  {air_rack_kw} for 32 GPUs;
- one {name2} rack: about {rack_kw} for {n} GPUs ({name3}: {rack3_kw}).

Moving air cannot carry away that much heat from one cabinet, so
NVL72 racks are cooled by liquid. A denser scale-up domain raises
what the building must supply: kilowatts per rack, a cooling
plant, floor strength. Speed, cost and density are traded together.
]], V) },

    { kind = "predict", title = "Your estimate: power per GPU", text = fill([[
One {name2} rack, liquid cooled, draws about {rack_kw}. It holds {n}
GPUs with their CPUs, switch trays and pumps.
]], V),
      question = "How much power is that for each GPU of the rack?",
      unit = "W", answer = g2.domain_power_w / g2.domain_gpus, tolerance = 0.1,
      slips = { per_rack = g2.domain_gpus },
      formula = V.rack_kw .. " / " .. V.n .. " = " .. V.rack_gpu_w .. " per GPU, against " ..
        V.air_gpu_w .. " in the air-cooled rack: a little more per GPU, but " ..
        V.rack_ratio .. "x as much in one rack." },

    { kind = "scenario", title = "A power budget", text = fill([[
144 H100s train Llama 3 70B at {start_tok} on {start_kw}. Budget {budget},
liquid cooling on hand: pick the system, then the split.]], V),
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "system", "degrees" },
      goal = { text = "Stay within " .. V.budget .. " and reach " .. V.target .. ".",
               target = { tokens_per_s = target_tok, power_w = BUDGET_W },
               check = function(r)
                 local w = r.cluster.power_w
                 if w <= 0 then return false, "this system's power is not published" end
                 if w > BUDGET_W then
                   return false, kw(w) .. " is over the " .. V.budget .. " budget"
                 end
                 if not r.fits then return false end -- the screen says why
                 if r.tokens_per_s >= target_tok then return true end
                 return false, tok(r.tokens_per_s) .. " at " .. kw(w) .. "; goal " .. V.target
               end },
      hints = {
        "Which systems stay under the budget? Compare kW per GPU, not per box.",
        "Two NVL72 racks fit the budget; the fastest racks do not.",
        "With 186 GB per GPU, a smaller TP fits: TP does less talking.",
      },
      debrief = function(r)
        return fill([[
You finished on {sys} at {kw}, {tok}, with TP {tp} x PP {pp} x DP {dp}.
The budget rules out the hungriest racks; the racks that fit it
hold more HBM per GPU, so TP can shrink and talk less each layer.
]], scalelab.facts(r, { kw = kw(r.cluster.power_w), tok = tok(r.tokens_per_s) }))
      end,
      solution = { "system gb200-nvl72", "tp 4" }, par = 4 },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- A rack-scale system is designed as one machine: {n} GPUs in one
  NVLink domain, about {aggregate} inside it (both directions).
- Passive copper keeps it fast and cheap, and also fixes its size.
- NVSwitch trays run the domain by themselves: no host CPU, NIC
  or network stack on the path.
- One rack can hold a whole large model on fast links, but it
  draws about {rack_kw}: about {rack_ratio}x an air-cooled rack of
  DGX H100 servers, and it needs liquid cooling.
]], V) },

    { kind = "quiz", title = "Check: the next rack", calc = true, text = fill([[
Each of the {vr_n} GPUs of a {vr_name} rack has {vr_dir} of {vr_link}
each way. What is the whole domain's NVLink bandwidth, both
directions added, as the vendor quotes it?
]], V),
      choices = {
        { text = V.vr_aggregate, correct = true,
          explain = V.vr_n .. " GPUs x " .. V.vr_both .. " (each way, doubled)." },
        { text = V.vr_one_way, correct = false,
          explain = "That counts one direction only; the question adds both, as the vendor does." },
        { text = V.vr_board, correct = false,
          explain = "That is eight GPUs' worth, one server board, not the 72-GPU rack." },
        { text = V.vr_in_bits, correct = false,
          explain = "That divides by 8 as if the per-GPU figure were in bits; it is in bytes." },
      } },

    { kind = "quiz", title = "Check: the edge of the domain", text = [[
What mainly limits an NVL72 scale-up domain to one rack today?
]],
      choices = {
        { text = "Copper cannot carry NVLink rates much past a rack.",
          correct = true,
          explain = "Longer reach needs optics, with their cost and power." },
        { text = "NVLink 5 can address no more than 72 GPUs in one domain.",
          correct = false,
          explain = "NVLink 5 is specified for domains of up to 576 GPUs." },
        { text = "The host CPUs cannot route any more NVLink traffic.",
          correct = false,
          explain = "Host CPUs are not on the NVLink path at all." },
        { text = "Liquid cooling loops cannot be shared by two racks.",
          correct = false,
          explain = "Cooling loops span whole rows of racks; the limit is on the links." },
      } },
  },
}

return lesson
