-- Lesson 9: The common mistake.
-- Sources: DGX B200 (8 B200 GPUs, NVLink 5, 8 x ConnectX-7 400 Gb/s) and
-- GB200 NVL72 (72 GPUs on NVLink 5, one 400 Gb/s ConnectX-7 per GPU) from the
-- presets (assets/; NVIDIA DGX B200 and GB200 NVL72 documentation).
-- DeepSeek-V3 shape (256 routed experts, 8 per token, 61 layers) from the
-- workload preset (DeepSeek-V3 technical report). All step times below are
-- computed by the model through scalelab.step.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end

local b200 = scalelab.system("dgx-b200")
local nvl = scalelab.system("gb200-nvl72")
local moe = scalelab.model("deepseek-v3")

-- 128 GPUs each side: sixteen 8-GPU servers, or two NVL72 racks (72 + 56 used).
-- ZeRO-3 shards DeepSeek-V3's weights, gradients and optimizer over DP so the
-- 671B-parameter model fits in 128 GPUs' HBM.
local servers = { system = "dgx-b200", gpus = 128 }
local rack = { system = "gb200-nvl72", gpus = 128 }
local moe_wl = { model = "deepseek-v3", batch = 256, mb = 1 }
local moe_map = { tp = 1, pp = 1, dp = 128, ep = 64, zero = 3 }
local dense_wl = { model = "llama3-8b", batch = 256, mb = 1 }
local dense_map = { tp = 1, pp = 1, dp = 128, zero = 1 }

local on_servers = scalelab.step { cluster = servers, workload = moe_wl, mapping = moe_map }
local on_rack = scalelab.step { cluster = rack, workload = moe_wl, mapping = moe_map }
local target_s = on_servers.step_s * 0.8
local dense_srv = scalelab.step { cluster = servers, workload = dense_wl, mapping = dense_map }
local dense_rack = scalelab.step { cluster = rack, workload = dense_wl, mapping = dense_map }

local V = {
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

return {
  id = "common-mistake",
  title = "The common mistake",
  summary = "Same GPUs, same count, wired differently: different machines.",
  track = "Part 2: Parallelism on hardware",
  order = 9,
  minutes = 10,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Counting GPUs", text = fill([[
# "We have {gpus} GPUs"
Announcements and price lists lead with one number: how many
GPUs. It is the easiest figure to compare and the least telling.

Two clusters with the same count of similar chips can behave
very differently, because one couples its GPUs tightly (a large
scale-up domain) while the other joins small boxes over a
network. What a big model can do is set by the interconnect,
not by the count alone.

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
GPUs. Servers: {srv_step} per step. NVL72 racks: {rack_step}.
]], V),
      workload = moe_wl,
      left = { label = "16 x DGX B200", cluster = servers, mapping = moe_map },
      right = { label = "2 x GB200 NVL72", cluster = rack, mapping = moe_map } },

    { kind = "text", steps = "paragraphs", title = "The task: same job, other wiring", text = fill([[
# Change the machine, not the job
{moe_name} routes each token to {topk} of its {experts} experts. With
EP 64 on {servers_n} 8-GPU servers, most tokens' experts live in another
server, so the all-to-all runs at the NIC rate: {srv_step} per
step, {srv_ep} of it in expert exchange.

Keep the job and the GPU count. Change only the system.
]], V) },

    { kind = "scenario", title = "Same count, better wiring",
      text = "Keep the job and the " .. V.gpus .. " GPUs. Change only the system, " ..
        "and watch the expert exchange.",
      cluster = servers, workload = moe_wl, mapping = moe_map,
      allow = { "system" },
      goal = {
        text = "Cut the step time to under " .. V.target .. ".",
        check = function(r)
          if r.step_s < target_s then return true end
          return false, "step " .. U.format("time", r.step_s) .. ", goal " .. V.target
        end },
      hints = {
        "The all-to-all is the bottleneck. Where does it run?",
        "A wider scale-up domain keeps the whole EP group on NVLink.",
        "Switch the system to gb200-nvl72.",
      },
      debrief = fill([[
Same {gpus} GPUs, same mapping: expert exchange falls from {srv_ep}
to {rack_ep}, the step runs {speedup}x faster. One EP group still
straddles the two racks (72 is not a multiple of 64): lesson 12
shows a fix.
]], V),
      solution = { "system gb200-nvl72" } },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- The same number of the same GPUs can make very different
  machines: ask how they are connected.
- Independent, data-parallel work barely notices the wiring.
- Work with wide, chatty groups (big EP, wide TP) needs a wide
  scale-up domain; over a network it slows to the NIC rate.
- When comparing systems, read the interconnect separately from
  the headline GPU count.
]] },

    { kind = "quiz", title = "Check: the better question", text = [[
A vendor offers "a 1,024-GPU cluster". Which question tells you
most about how it will run a large mixture-of-experts model?
]],
      choices = {
        { text = "How many GPUs share each scale-up domain?", correct = true,
          explain = "That bounds how wide EP and TP groups can be on NVLink." },
        { text = "Exactly how many GPUs, to the unit?", correct = false,
          explain = "The count alone says little about tightly coupled work." },
        { text = "What colour are the racks?", correct = false,
          explain = "Only if you are choosing a data-center paint scheme." },
      } },
  },
}
