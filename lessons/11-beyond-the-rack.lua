-- Lesson 11: Beyond the rack.
-- Sources: TPU v5p pod of 8,960 chips on ICI in a 3D torus, 1,200 GB/s ICI per
-- chip (both directions): Google Cloud TPU v5p documentation (system
-- architecture). The tpu-v5p preset's slice size and per-direction ICI figure:
-- assets/. NVLink 5 domains of up to 576 GPUs: NVIDIA Base Command Manager
-- manual, "NVLink Technology". UALink 1.0 (April 2025), up to 1,024
-- accelerators in one pod: UALink Consortium specification announcement.
-- "Scale-across" and Spectrum-XGS Ethernet: NVIDIA press release, August 2025.
-- Light in fibre covers about 200 km per millisecond (about 5 us/km): physics
-- rule of thumb (refractive index about 1.5); 1,000 km is chosen as an example.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end

local tpu = scalelab.system("tpu-v5p")
local nvl = scalelab.system("gb200-nvl72")

local TPU_V5P_POD_CHIPS = 8960   -- Google Cloud TPU v5p docs
local NVLINK5_MAX_GPUS = 576     -- NVIDIA Base Command Manager manual
local UALINK_MAX = 1024          -- UALink 1.0 announcement, April 2025
local FIBRE_S_PER_KM = 5e-6      -- rule of thumb, see above
local distance_km = 1000

-- 8960 -> "8,960"
local function commas(n)
  local s = string.format("%d", n)
  local out = s:sub(1, (#s - 1) % 3 + 1)
  for i = (#s - 1) % 3 + 2, #s, 3 do out = out .. "," .. s:sub(i, i + 2) end
  return out
end

local V = {
  pod = commas(TPU_V5P_POD_CHIPS),
  slice = tpu.domain_gpus,
  ici = U.format("bandwidth", tpu.up_bytes_per_s),
  dcn = U.format("bandwidth", tpu.out_bytes_per_s),
  nvl = nvl.domain_gpus,
  nvl_max = NVLINK5_MAX_GPUS,
  ualink = commas(UALINK_MAX),
  km = commas(distance_km),
  fibre = U.format("time", FIBRE_S_PER_KM * distance_km),
  out_lat = U.format("time", nvl.out_lat_s),
  lat_ratio = commas(math.floor(FIBRE_S_PER_KM * distance_km / nvl.out_lat_s + 0.5)),
}

return {
  id = "beyond-the-rack",
  title = "Beyond the rack",
  summary = "TPU pods, optics and UALink, and scale-across between sites.",
  track = "Part 3: Beyond the rack",
  order = 11,
  minutes = 10,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Thousands in one domain", text = fill([[
# Google's TPU pods
The scale-up domain does not have to stop at 72. Google's TPU
chips link directly to their neighbours over *ICI* (inter-chip
interconnect) in a three-dimensional torus: each chip talks to
six neighbours, and the links wrap around at the edges.

A TPU v5p pod holds {pod} chips. Cubes of 4x4x4 = {slice} chips
are wired directly; optical switches join the cubes, so thousands
of chips share one ICI fabric at {ici} per chip each way. Only
between pods does traffic drop to the data-center network
({dcn} per chip).
]], V) },

    { kind = "diagram", title = "A TPU pod slice", view = "rack",
      cluster = { system = "tpu-v5p" },
      text = fill([[
TPU v5p cubes of {slice} chips, each a torus rather than a switch.
(scalelab draws one cube as a domain; a real pod links cubes on ICI.)
]], V) },

    { kind = "text", steps = "paragraphs", title = "Stretching the boundary", text = fill([[
# The edge keeps moving
Everyone wants a wider scale-up domain, and several roads lead
there:

- *Optical links*: light travels far where copper cannot, so a
  domain can span many racks, at a cost in power and price.
- *Bigger switches*: NVLink 5 is specified for domains of up to
  {nvl_max} GPUs, eight times today's {nvl}-GPU rack.
- *UALink*: an open standard (2025) for accelerator links from
  many vendors, aiming at pods of up to {ualink} accelerators.

The aim: scale-up domains of hundreds or thousands of chips.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Scale-across", text = [[
# When one building is not enough
The largest training runs now want more power than a single data
center can draw. The answer is to link several sites into one
training system: *scale-across*.

The name is recent. Nvidia introduced it in August 2025 along
with Spectrum-XGS Ethernet, a fabric meant to tie distant data
centers together as one.

So a cluster now has three tiers: scale-up inside a domain,
scale-out across a building, scale-across between buildings.
]] },

    { kind = "text", steps = "paragraphs", title = "Distance costs time", text = fill([[
# The third tier is the slowest
Between sites, bandwidth is shared by the whole site and the
speed of light adds delay. Light in fibre takes about 5 us per
kilometre, so {km} km costs about {fibre} one way, some {lat_ratio}x
the {out_lat} of a collective step inside a fabric.

What can cross such a link? By the logic of the last lessons:
only traffic that is rare and can be overlapped. Data-parallel
gradient reductions, once per step and hierarchical (reduce
inside each site first), are the natural candidate. Tensor and
expert traffic never leave a domain.
]], V) },

    { kind = "diagram", title = "Two sites", view = "fabric",
      cluster = { system = "gb300-nvl72", gpus = 288, sites = 2,
                  across = "100 Tb/s" },
      text = [[
Four NVL72 racks over two sites (the 100 Tb/s link between them
is an illustrative figure). Each site has its own fabric.
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- Scale-up domains can be huge: a TPU pod joins thousands of
  chips over ICI in a 3D torus.
- Optics, larger switches and UALink push GPU scale-up domains
  toward hundreds, even thousands, of chips.
- Since 2025, *scale-across* joins whole data centers into one
  training system; distance makes it the slowest tier.
- Only the most patient traffic (data-parallel gradients)
  belongs on the links between sites.
]] },

    { kind = "quiz", title = "Check: three tiers", text = [[
A run spans two data centers. Which traffic is the best
candidate to cross between them?
]],
      choices = {
        { text = "Data-parallel gradient reductions, once per step.",
          correct = true,
          explain = "Rare, large, and can be overlapped and reduced per site." },
        { text = "Tensor-parallel all-reduces.",
          correct = false,
          explain = "Four per layer per micro-batch: they would stall." },
        { text = "Expert all-to-all exchanges.",
          correct = false,
          explain = "Every MoE layer would wait on milliseconds of distance." },
      } },
  },
}
