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
-- The scenario's two-site link (3.2 Tb/s) and the diagram's (100 Tb/s) are
-- premises, not published figures. Multi-site training: Gemini 1.0 technical
-- report (2023), §3, model parallelism inside TPUv4 SuperPods and data
-- parallelism across SuperPods in several data centers; NVIDIA Spectrum-XGS
-- (2025) for "scale-across". Which traffic should cross is computed here:
-- with this link the model finds the pipeline's sends cheaper to cross; with
-- 25.6 Tb/s over 1,000 km it finds the reduction cheaper (the debrief says so).
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

-- Scenario: two buildings of one campus, 10 km apart (50 us one way at
-- 5 us/km), each with four DGX H100 servers, joined by 3.2 Tb/s (eight
-- 400G links: a premise, not a published figure). Llama 3 70B as TP 8 x
-- PP 2 x DP 4. The scheduler put two whole pipelines in each building, so
-- the gradient reduction (DP) crosses the link; the alternative is to put
-- every pipeline's first stage in one building and its second stage in the
-- other, so that only the pipeline's small sends cross. Which is better is
-- the link's to decide: the model says, for this thin and near link.
local SITE_KM = 10
local cluster = { system = "dgx-h100", gpus = 64, sites = 2, across = "3.2 Tb/s",
                  across_lat = FIBRE_S_PER_KM * SITE_KM }
local workload = { model = "llama3-70b", batch = 32, mb = 1 }
local start_map = { tp = 8, pp = 2, zero = 1 }
local fix = { "group tp 8 to 32", "group tp 24 to 48" }
local start = scalelab.step { cluster = cluster, workload = workload, mapping = start_map }
local half = scalelab.step { cluster = cluster, workload = workload, mapping = start_map,
  moves = { fix[1] } }
local solved = scalelab.step { cluster = cluster, workload = workload, mapping = start_map,
  moves = fix }
local target_s = math.sqrt(start.step_s * solved.step_s)
assert(solved.step_s < target_s and half.step_s > target_s,
  "re-tune: the pipeline across the link no longer beats the reduction across it")
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
  cubes = TPU_V5P_SLICE_MAX // 64,
  start_step = U.format("time", start.step_s),
  start_dp = U.format("time", start.breakdown.dp_s),
  half_step = U.format("time", half.step_s),
  target = U.format("time", target_s), site_km = SITE_KM,
  site_lat = U.format("time", FIBRE_S_PER_KM * SITE_KM),
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

    { kind = "text", steps = "paragraphs", title = "The task: what crosses the link?", text = fill([[
# Two buildings, one job
Two buildings of a campus, {site_km} km apart ({site_lat} one way), each
with four DGX H100 servers, are joined by 3.2 Tb/s. Llama 3 70B trains
on all eight as TP 8 x PP 2 x DP 4: four pipelines of two stages.

The scheduler put two whole pipelines in each building. Then the
gradient reduction, once per step, crosses the link: {start_dp} of a
{start_step} step. The other way: every pipeline's first stage in one
building, its second stage in the other. Then each stage's four
copies reduce at home, and only the pipeline's activations cross,
a little per micro-batch.

Which should cross depends on the link: how thin, how far. Try it:
trade TP groups (one server each) between the buildings.
]], V) },

    { kind = "scenario", title = "What crosses the site link?", text = fill([[
Two buildings, 3.2 Tb/s between them; DP crosses the link now. Decide what
crosses: move stages between the buildings.]], V),
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "tp groups", "degrees", "micro" },
      predict = { at = "group", ask = "change" },
      goal = {
        text = "Fit in memory with a step under " .. V.target .. ".",
        target = { step_s = target_s },
        check = function(r)
          return scalelab.fits_under(r, target_s)
        end },
      hints = {
        "The goal line names the groups that cross the site link. Which kind do you want to "
          .. "cross: the once-per-step gradients or the per-micro-batch activations?",
        "One trade alone makes both kinds cross (" .. V.half_step .. "): it takes two.",
        "Trade the second stage of the first building's pipelines with the first stage of the "
          .. "other building's.",
      },
      debrief = function(r)
        return fill([[
You ended at TP {tp} x PP {pp} x DP {dp}: {step} a step, DP {dp_s} (it
was {start_dp}). On this thin, near link the small per-micro-batch
sends cost less than the bulk reduction. Over a fat, far link (1,000
km) the many small sends would each wait milliseconds, and the
once-per-step reduction, reduced inside each site first, would win:
the tiers decide, not a rule.
]], scalelab.facts(r, { start_dp = V.start_dp }))
      end,
      solution = fix, par = 4 },

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
