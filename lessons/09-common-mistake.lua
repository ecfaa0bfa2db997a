-- SPDX-License-Identifier: MIT
-- Lesson 9: The common mistake.
-- Sources: DGX B200 (8 B200 GPUs, NVLink 5, 8 x ConnectX-7 400 Gb/s) and
-- GB200 NVL72 (72 GPUs on NVLink 5, one 400 Gb/s ConnectX-7 per GPU) from the
-- presets (assets/; NVIDIA DGX B200 and GB200 NVL72 documentation).
-- DeepSeek-V3 shape (256 routed experts, 8 per token, 61 layers) from the
-- workload preset (DeepSeek-V3 technical report). All step times below are
-- computed by the model through scalelab.step. ZeRO-3 shards DeepSeek-V3's
-- weights over the data-parallel ranks and all-gathers them layer by layer
-- (ZeRO, Rajbhandari et al., SC20), so here DP traffic is per layer too.
-- Uniform routing: with EP groups of E GPUs and D GPUs per domain, a token's
-- expert is outside its domain with probability (E - D) / E (experts spread
-- evenly; DeepSeek-V3's node-limited routing caps it, report §3.2.2).

local U = scalelab.units
local fill = scalelab.fill

local b200 = scalelab.system("dgx-b200")
local nvl = scalelab.system("gb200-nvl72")
local moe = scalelab.model("deepseek-v3")

-- 128 GPUs each side: sixteen 8-GPU servers, or two NVL72 racks (72 + 56 used).
-- ZeRO-3 shards DeepSeek-V3's weights, gradients and optimizer over DP so the
-- 671B-parameter model fits in 128 GPUs' HBM.
local servers = { system = "dgx-b200", gpus = 128 }
local rack = { system = "gb200-nvl72", gpus = 128 }
local moe_wl = { model = "deepseek-v3", batch = 256, mb = 1, recompute = "full" }
local moe_map = { tp = 1, pp = 1, dp = 128, ep = 64, zero = 3 }
local dense_wl = { model = "llama3-8b", batch = 256, mb = 1 }
local dense_map = { tp = 1, pp = 1, dp = 128, zero = 1 }

local on_servers = scalelab.step { cluster = servers, workload = moe_wl, mapping = moe_map }
local on_rack = scalelab.step { cluster = rack, workload = moe_wl, mapping = moe_map }
local dense_srv = scalelab.step { cluster = servers, workload = dense_wl, mapping = dense_map }
local dense_rack = scalelab.step { cluster = rack, workload = dense_wl, mapping = dense_map }

-- Scenario: start from EP that fits a server; the goal needs the wider
-- domain AND an EP size that uses it. Target: between the best single change
-- and the best system-and-EP pair, both computed here.
local SAME_CHIPS = { ["dgx-b200"] = true, ["gb200-nvl72"] = true }
local EPS = { 1, 2, 4, 8, 16, 32, 64, 128 }
-- EP as wide as one server: its all-to-all stays on NVLink.
local start_ep = b200.domain_gpus
local best = scalelab.pair_target {
  setup = function(system, ep)
    return { cluster = { system = system, gpus = 128 }, workload = moe_wl,
             mapping = { tp = 1, pp = 1, dp = 128, ep = ep, zero = 3 } }
  end,
  a = { "dgx-b200", "gb200-nvl72" }, b = EPS, start = { "dgx-b200", start_ep } }
local target_s = best.target
local scn_moves = { "system " .. best.a, table.unpack(scalelab.moves("ep", start_ep, best.b)) }
local scn_map = { tp = 1, pp = 1, dp = 128, ep = start_ep, zero = 3 }
local scn_start = scalelab.step { cluster = servers, workload = moe_wl, mapping = scn_map }
-- The predict page: EP 32 on the same servers.
local PRED_EP = 32
local out_share = (PRED_EP - b200.domain_gpus) / PRED_EP

local V = {
  start_ep = start_ep, scn_step = U.format("time", scn_start.step_s),
  out_pct = string.format("%.1f%%", 100 * out_share), pred_ep = PRED_EP,
  pred_servers = PRED_EP // b200.domain_gpus,
  b_gpu = b200.gpu_id, n_gpu = nvl.gpu_id,
  b_up = U.format("bandwidth", b200.up_bytes_per_s),
  n_up = U.format("bandwidth", nvl.up_bytes_per_s),
  b_out = U.format("bandwidth", b200.out_bytes_per_s),
  n_out = U.format("bandwidth", nvl.out_bytes_per_s),
  moe_name = moe.name, experts = moe.experts, topk = moe.topk,
  srv_step = U.format("time", on_servers.step_s),
  rack_step = U.format("time", on_rack.step_s),
  srv_ep = U.format("time", on_servers.breakdown.ep_s),
  rack_ep = U.format("time", on_rack.breakdown.ep_s),
  speedup = string.format("%.1f", on_servers.step_s / on_rack.step_s),
  target = U.format("time", target_s),
  gpus = servers.gpus, racks_n = math.ceil(rack.gpus / nvl.domain_gpus),
  rack_split = string.format("%d + %d", nvl.domain_gpus, rack.gpus - nvl.domain_gpus),
  servers_n = servers.gpus // b200.domain_gpus,
  dense_gap = string.format("%.0f", 100 * math.abs(dense_srv.step_s / dense_rack.step_s - 1)),
}

local lesson = {
  id = "common-mistake",
  title = "The common mistake",
  summary = "Same GPUs, same count, wired differently: different machines.",
  track = "Part 2: Parallelism on hardware",
  order = 9,
  minutes = 10,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Counting GPUs", text = fill([[
# "We have {gpus} GPUs"
Press releases and price lists open with a single number: how
many GPUs. It is the easiest figure to compare, and it says the
least about what the machine can do.

Take two clusters with the same count of similar chips. One joins
its GPUs in wide, tightly linked domains; the other joins small
boxes through network cards. For a big model they are as different
as a relay team is from the same runners scattered over a city:
what decides the result is how the chips are wired together.

This lesson puts two such clusters side by side.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Two clusters, one count", text = fill([[
# Blackwell GPUs both, wired differently
- *{servers_n} DGX B200 servers*: NVLink domains of 8 GPUs. Per
  direction, each GPU has {b_up} inside its server and {b_out}
  to the network.
- *{racks_n} GB200 NVL72 racks* ({rack_split} GPUs used): NVLink domains of
  72 GPUs. Per direction, {n_up} inside a rack and {n_out}
  between racks.

The rack's GPUs are a little faster chips, but the big difference
is the width of the fast tier. For jobs that split into separate
8-GPU pieces, the two are close. For jobs whose groups want to be
wider than 8, they are different machines.
]], V) },

    { kind = "compare", title = "A dense model: close", text = fill([[
Llama 3 8B, pure data parallelism on {gpus} GPUs: each GPU holds a
copy, only gradients move, once per step. Close: {dense_gap}% apart.
]], V),
      workload = dense_wl,
      left = { label = "16 x DGX B200", cluster = servers, mapping = dense_map },
      right = { label = "2 x GB200 NVL72", cluster = rack, mapping = dense_map } },

    { kind = "compare", title = "A mixture of experts: far apart", text = fill([[
{moe_name} with EP 64: every MoE layer exchanges tokens among 64
GPUs; ZeRO-3 also gathers weights layer by layer. Servers:
{srv_step} per step. NVL72 racks: {rack_step}.
]], V),
      workload = moe_wl,
      left = { label = "16 x DGX B200", cluster = servers, mapping = moe_map },
      right = { label = "2 x GB200 NVL72", cluster = rack, mapping = moe_map } },

    { kind = "predict", title = "Your estimate: tokens that leave", text = fill([[
{moe_name} with EP {pred_ep} on 8-GPU servers: each EP group spreads its
experts over {pred_ep} GPUs in {pred_servers} servers. Assume a token's experts are
spread evenly over the group.
]], V),
      question = "What share of a token's experts sit outside its own server?",
      unit = "", answer = out_share, tolerance = 0.1,
      slips = { "complement" },
      formula = "(" .. PRED_EP .. " - " .. b200.domain_gpus .. ") / " .. PRED_EP .. " = " ..
        V.out_pct .. ": only the experts on its own 8 GPUs stay on NVLink" },

    { kind = "scenario", title = "Same count, better wiring", text = fill([[
On 8-GPU servers the team kept EP {start_ep} inside each server. Same {gpus}
B200-class GPUs: change the wiring, then the EP it allows.]], V),
      cluster = servers, workload = moe_wl, mapping = scn_map,
      allow = { "system", "degrees" },
      goal = {
        text = "Same chips (B200 or GB200); step under " .. V.target .. ".",
        target = { step_s = target_s },
        check = function(r)
          if not SAME_CHIPS[r.cluster.system] then
            return false, "compare like with like: keep B200-class GPUs"
          end
          if r.mapping.tp ~= 1 or r.mapping.pp ~= 1 then
            return false, "keep TP 1 and PP 1: this job changes only EP and the wiring"
          end
          return scalelab.fits_under(r, target_s)
        end },
      hints = {
        "On servers, EP stays small so its all-to-all stays on NVLink.",
        "A 72-GPU domain holds a far wider EP group on NVLink.",
        "Switch to gb200-nvl72, then try wider EP sizes.",
      },
      debrief = function(r)
        local where = r.span.ep.domains > 1 and
          ("each EP group spans " .. r.span.ep.domains .. " domains, so part of its exchange" ..
           " still crosses the network, but far less of it than between 8-GPU servers")
          or "each EP group sits in one domain: its whole exchange stays on NVLink"
        return fill([[
You ended on {sys} with EP {ep}: {step} a step, expert exchange
{ep_s}. The GPU count never changed; the wider domain did. Now
{where}.
]], scalelab.facts(r, { where = where }))
      end,
      solution = scn_moves, par = #scn_moves },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- The same number of the same GPUs can make very different
  machines: ask how they are connected.
- Independent, data-parallel work barely notices the wiring.
- Work with wide, chatty groups (big EP, wide TP) needs a wide
  scale-up domain; over a network it slows to the NIC rate.
- When comparing systems, read the wiring separately from the
  headline GPU count.
]] },

    { kind = "quiz", title = "Check: straddling groups", calc = true, text = [[
128 GPUs of GB200 NVL72 racks: 72 in the first rack, 56 in the
second. EP 64, ranks placed in order (GPUs 0-63, then 64-127).
How many of the two EP groups span both racks?
]],
      choices = {
        { text = "One: GPUs 64-127 start in rack 1 and end in rack 2.", correct = true,
          explain = "GPUs 0-63 fit in the first rack; 64-71 are its last GPUs." },
        { text = "None: each group of 64 GPUs fits inside a 72-GPU rack.", correct = false,
          explain = "Each group fits in size, but they are placed in order, not packed." },
        { text = "Both: 128 GPUs do not fit in one rack, so both groups cross.", correct = false,
          explain = "The first group, GPUs 0-63, lies entirely in the first rack." },
        { text = "One: GPUs 0-63, since the rack of 56 GPUs comes first.", correct = false,
          explain = "The full rack holds GPUs 0-71; the 56 used GPUs of the other are 72-127." },
      } },

    { kind = "quiz", title = "Check: the better question", text = [[
A vendor offers "a 1,024-GPU cluster". Which question tells you
most about how it will run a large mixture-of-experts model?
]],
      choices = {
        { text = "How many GPUs share each scale-up domain?", correct = true,
          explain = "That bounds how wide EP and TP groups can be on NVLink." },
        { text = "Exactly how many GPUs, to the unit?", correct = false,
          explain = "Two clusters with the same count can run the same job at very different speeds." },
        { text = "What is the peak FLOP/s of the whole cluster?", correct = false,
          explain = "Peak compute assumes the GPUs never wait on each other; MoE layers do." },
        { text = "How much HBM does each GPU have?", correct = false,
          explain = "Memory decides what fits, not how fast the experts can exchange tokens." },
      } },
  },
}

return lesson
