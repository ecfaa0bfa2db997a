-- SPDX-License-Identifier: MIT
-- Lesson 11: Beyond the rack.
-- Sources: TPU v5p (Google Cloud TPU v5p documentation, system architecture):
-- a pod has 8,960 chips; a slice of up to 6,144 chips (96 cubes of 4x4x4) is
-- one ICI domain, because optical circuit switches join the cubes and carry
-- ICI (about 600 GB/s per chip each way, 1,200 GB/s both); slices talk to each
-- other over the data-center network (DCN, 50 Gb/s per chip), and Multislice
-- joins up to 18,432 chips that way (MODEL-FACTS.md §10). The tpu-v5p preset's
-- figures: assets/. NVLink 5 domains of up to 576 GPUs: NVIDIA Base Command
-- Manager manual, "NVLink Technology". UALink 1.0 (April 2025), up to 1,024
-- accelerators in one pod: UALink Consortium specification announcement.
-- "Scale-across" and Spectrum-XGS Ethernet: NVIDIA press release, August 2025.
-- Light in fibre covers about 200 km per millisecond (about 5 us/km): physics
-- rule of thumb (refractive index about 1.5); 1,000 km is chosen as an example.
-- The scenario's two-site link (100 Tb/s) is a premise, not a published figure.
-- Gradients are exchanged in FP32, 4 bytes per parameter, as Megatron-LM
-- reduces them by default (the model's DP term does the same).

local U = scalelab.units
local fill = scalelab.fill

local tpu = scalelab.system("tpu-v5p")
local nvl = scalelab.system("gb200-nvl72")

local TPU_V5P_POD_CHIPS = 8960   -- Google Cloud TPU v5p docs
local TPU_V5P_SLICE_MAX = 6144   -- largest v5p slice, Google Cloud TPU v5p docs
local MULTISLICE_MAX = 18432     -- Multislice over DCN, Google Cloud docs
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

-- Scenario: two TPU v5p slices of 256 chips in two buildings. Only DP should
-- cross the site link, and the pipeline must stay fed.
local SLICE = 256
local cluster = { system = "tpu-v5p", gpus = 2 * SLICE, domain = SLICE, sites = 2,
                  across = "100 Tb/s" }
local workload = { model = "megatron-1t", batch = 256, mb = 2 }
local start_map = { tp = 8, pp = 64, dp = 1, zero = 1 }
local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local solved = scalelab.step { cluster = cluster, workload = { model = "megatron-1t",
  batch = 256, mb = 1 }, mapping = { tp = 8, pp = 32, zero = 1 } }
local target_s = solved.step_s * 1.05
local ici_dcn = tpu.up_bytes_per_s / tpu.out_bytes_per_s

-- The predict page: one exchange of Megatron 1T's gradients over that link,
-- the sites 1,000 km apart.
local m1t = scalelab.model("megatron-1t")
local GRAD_B = 4
local grad_bytes = m1t.params * GRAD_B
local across = U.parse("bandwidth", cluster.across)
local cross_light = FIBRE_S_PER_KM * distance_km
local cross_bw = grad_bytes / across

-- The calc quiz: a round trip between sites 400 km apart.
local QUIZ_KM = 400
local function t(s) return U.format("time", s) end

local V = {
  slice_max = commas(TPU_V5P_SLICE_MAX), multi = commas(MULTISLICE_MAX),
  cubes = TPU_V5P_SLICE_MAX // 64, slice_n = SLICE,
  start_step = U.format("time", start.step_s),
  start_bubble = string.format("%.0f%%", 100 * start.breakdown.bubble_s / start.step_s),
  target = U.format("time", target_s),
  ici_dcn = string.format("%.0f", ici_dcn),
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
  m1t = m1t.name, grads = U.format("bytes", grad_bytes), across = cluster.across,
  across_b = U.format("bandwidth", across), cross = t(cross_light + cross_bw),
  qkm = QUIZ_KM, q_rtt = t(2 * FIBRE_S_PER_KM * QUIZ_KM), q_one = t(FIBRE_S_PER_KM * QUIZ_KM),
  q_vac = t(2 * QUIZ_KM / 3e5), q_slow = t(20 * FIBRE_S_PER_KM * QUIZ_KM),
}

local lesson = {
  id = "beyond-the-rack",
  title = "Beyond the rack",
  summary = "TPU pods, optics and UALink, and scale-across between sites.",
  track = "Part 3: Beyond the rack",
  order = 11,
  minutes = 10,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Thousands in one domain", text = fill([[
# Google's TPU slices
The scale-up domain does not have to stop at 72. TPU chips link
straight to their neighbours over *ICI* (inter-chip interconnect)
in a 3D torus: six neighbours each, wrapping around at the edges.

Cubes of 4x4x4 = 64 chips are wired directly; *optical circuit
switches* join cubes into a *slice* of up to {slice_max} chips ({cubes}
cubes), and ICI runs through them: the whole slice is one domain,
at {ici} per chip each way. A v5p pod holds {pod} chips.

Between slices, traffic drops to the data-center network (DCN,
{dcn} per chip), about {ici_dcn}x less. Multislice jobs span up to
{multi} chips that way.
]], V) },

    { kind = "diagram", title = "A TPU slice", view = "rack",
      cluster = { system = "tpu-v5p" },
      text = fill([[
TPU v5p chips on a 3D-torus ICI, joined cube to cube by optical
switches: a torus rather than a switch, one domain per slice.
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
traffic that is rare and can be overlapped. Data-parallel gradient
reductions, once per step and hierarchical (reduce inside each
site first), are the natural candidate. Tensor parallelism never
leaves its domain; expert exchanges would wait milliseconds.
]], V) },

    { kind = "predict", title = "Your estimate: gradients between sites", text = fill([[
Two sites {km} km apart train {m1t} as one job over a {across}
link. Once per step, each site sends the other its summed gradients:
one FP32 value per parameter, {grads} in all, one direction.
]], V),
      question = "How long does that exchange take, at the least?",
      unit = "s", answer = cross_light + cross_bw, tolerance = 0.15,
      slips = { "bits" },
      terms = { { name = "sending the bytes", value = cross_bw },
                { name = "the distance", value = cross_light } },
      formula = V.km .. " km x 5 us + " .. V.grads .. " / " .. V.across_b .. " (" .. V.across ..
        ") = " .. V.cross },

    { kind = "scenario", title = "What crosses the site link?", text = fill([[
Two 256-chip v5p slices, one per building: TP 8 x PP 64 runs the pipeline
through both. Let only DP cross the link; keep the pipeline fed.]], V),
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "degrees", "micro" },
      goal = {
        text = "Only DP crosses the site link; step under " .. V.target .. ".",
        target = { step_s = target_s },
        check = function(r)
          if r.span.tp.sites > 1 then return false, "a TP group spans both sites" end
          if r.span.pp.sites > 1 then return false, "the pipeline still runs through both sites" end
          return scalelab.fits_under(r, target_s, string.format("the bubble is %.0f%% of it",
            100 * r.breakdown.bubble_s / r.step_s))
        end },
      hints = {
        "Which group spans the two sites now? Look at the pipeline.",
        "Two model copies, one per site: then only gradients cross.",
        "Each copy now gets half the sequences: shrink the micro-batch.",
      },
      debrief = function(r)
        return fill([[
You ended at TP {tp} x PP {pp} x DP {dp}, micro-batch {mb}: each site
holds whole pipelines, only the once-per-step gradient reduction
crosses, and the bubble is {bubble_pct} of the {step} step.
]], scalelab.facts(r))
      end,
      solution = { "pp 32", "mb 1" }, par = 2 },

    { kind = "diagram", title = "Two sites", view = "fabric",
      cluster = { system = "gb300-nvl72", gpus = 288, sites = 2,
                  across = "100 Tb/s" },
      text = [[
Four NVL72 racks over two sites (the 100 Tb/s link between them
is an illustrative figure). Each site has its own fabric.
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- Scale-up domains can be huge: a TPU v5p slice joins up to
  6,144 chips over ICI; slices meet over the slower DCN.
- Optics, larger switches and UALink push GPU scale-up domains
  toward hundreds, even thousands, of chips.
- Since 2025, *scale-across* joins whole data centers into one
  training system; distance makes it the slowest tier.
- Only the most patient traffic (data-parallel gradients)
  belongs on the links between sites.
]] },

    { kind = "quiz", title = "Check: light in glass", calc = true, text = fill([[
Two data centers are {qkm} km apart, and light in fibre takes about
5 us per kilometre. A message goes over and its reply comes back.
How long is that round trip, at the least?
]], V),
      choices = {
        { text = V.q_rtt, correct = true, explain = "2 x " .. V.qkm .. " km x 5 us: there and back." },
        { text = V.q_one, correct = false,
          explain = "That is one way; the reply has to come back too." },
        { text = V.q_vac, correct = false,
          explain = "That is light in vacuum; in glass it is about a third slower." },
        { text = V.q_slow, correct = false,
          explain = "That is 50 us per kilometre, ten times too slow." },
      } },

    { kind = "quiz", title = "Check: three tiers", text = [[
A run spans two data centers. Which traffic is the best
candidate to cross between them?
]],
      choices = {
        { text = "Data-parallel gradients, once per step.",
          correct = true,
          explain = "Rare, large, and can be overlapped and reduced per site." },
        { text = "Tensor-parallel all-reduces: each message is small.",
          correct = false,
          explain = "Small, but four per layer per micro-batch, each waiting milliseconds." },
        { text = "Expert all-to-all exchanges: they spread over many GPUs anyway.",
          correct = false,
          explain = "Every MoE layer would wait on milliseconds of distance." },
        { text = "Pipeline sends between stages: only one stage edge would cross.",
          correct = false,
          explain = "One edge, but every micro-batch pays the distance both ways; gradients cross once a step." },
      } },
  },
}

return lesson
