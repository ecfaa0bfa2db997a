-- SPDX-License-Identifier: MIT
-- Not a lesson for learners: page fields no shipped lesson uses, so that the
-- comparison of every lesson loaded in scalelab and through the lesson host
-- (tests/unit/test_host.c) covers them too: a workload's attention shape
-- (head width, a sliding window) and how the framework runs it, a mixed
-- machine (domains of different sizes) with failed GPUs given as ids and as
-- a range, busy GPUs, allow "groups", a prediction asked at a degree change,
-- and a par counted with scalelab.presses from moves checked with
-- scalelab.step{moves=}.
-- The figures are the presets' (assets/); nothing here is taught.
local cluster = { system = "gb300-nvl72", gpus = 128, domains = { 72, 36, 36 },
  failed = { 16, "17-19" }, busy = { "140-143" } }
local workload = { model = "llama3-405b", batch = 64, mb = 1, seq = 16384, window = 4096,
  global_every = 4, head_dim = 128, framework = "megatron", seq_parallel = false,
  tp_overlap = false, pp_overlap = true, dp_overlap = false, ep_overlap = "dualpipe",
  ep_dedup = true, cuda_graphs = "attn", offload = { "optimizer", "activations" },
  offload_layers = 2 }
local start_map = { tp = 16, pp = 1, zero = 1 }
local fix = { "tp 8", "tp 4" }
local job = { cluster = cluster, workload = workload, mapping = start_map }
local start = scalelab.step(job)
local fixed = scalelab.step { cluster = cluster, workload = workload, mapping = start_map,
  moves = fix }
assert(start.span.tp.domains > 1 and fixed.span.tp.domains == 1, "re-tune the crossing page")

return {
  id = "crossing", title = "Fields that cross", track = "Examples", order = 3, minutes = 1,
  summary = "Page fields the shipped lessons do not use.",
  pages = {
    { kind = "scenario", title = "A mixed machine",
      text = "Racks of 72 and 36 GPUs, a failed tray and another job's share.",
      cluster = cluster, workload = workload, mapping = start_map,
      allow = { "groups", "degrees" },
      predict = { at = "degree", ask = "change" },
      goal = {
        text = "No TP group across two domains.",
        check = function(r)
          if r.span.tp.domains > 1 then return false, "a TP group spans two domains" end
          return true
        end },
      hints = { "Smaller TP groups fit between the domain edges." },
      debrief = function(r) return "TP " .. r.mapping.tp .. "." end,
      solution = fix,
      par = scalelab.presses { cluster = cluster, workload = workload, mapping = start_map,
        moves = fix } },
  },
}
