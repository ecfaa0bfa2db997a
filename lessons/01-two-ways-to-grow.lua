-- Lesson 1: Two ways to grow.
-- Sources: GPU and system figures come from the presets (assets/, each with its
-- source there); Llama 3 405B parameter count: Llama 3 Herd paper (Meta, 2024).
-- The history of the terms (1990s-2000s server and database design) is general
-- computing knowledge; see any text on vertical vs horizontal scaling.
-- Seed coverage (every seed fact -> lesson and page): lessons/SEEDS.md.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end

local h100 = scalelab.gpu("h100-sxm")
local dgx = scalelab.system("dgx-h100")
local nvl = scalelab.system("gb200-nvl72")
local big = scalelab.model("llama3-405b")

-- Weights alone in BF16: 2 bytes per parameter (EleutherAI, Transformer Math 101).
local weights_bytes = big.params * 2
local gpus_for_weights = math.ceil(weights_bytes / h100.hbm_bytes)

-- The lesson 9 comparison, previewed: DeepSeek-V3 (a mixture of experts) with
-- expert parallelism 64 on 128 GPUs; ZeRO-3 so the model fits in HBM.
local servers = { system = "dgx-b200", gpus = 128 }
local racks = { system = "gb200-nvl72", gpus = 128 }
local moe_wl = { model = "deepseek-v3", batch = 256, mb = 1 }
local moe_map = { tp = 1, pp = 1, dp = 128, ep = 64, zero = 3 }
local on_servers = scalelab.step { cluster = servers, workload = moe_wl, mapping = moe_map }
local on_racks = scalelab.step { cluster = racks, workload = moe_wl, mapping = moe_map }

local V = {
  gpus = servers.gpus,
  srv_step = U.format("time", on_servers.step_s),
  rack_step = U.format("time", on_racks.step_s),
  h100_mem = U.format("bytes", h100.hbm_bytes),
  big_name = big.name,
  big_params = string.format("%.0f billion", big.params / 1e9),
  big_weights = U.format("bytes", weights_bytes),
  gpus_for_weights = gpus_for_weights,
  dgx_domain = dgx.domain_gpus,
  nvl_domain = nvl.domain_gpus,
}

return {
  id = "two-ways-to-grow",
  title = "Two ways to grow",
  summary = "Scale up or scale out: one bigger engine, or more engines.",
  track = "Part 1: Foundations",
  order = 1,
  minutes = 8,
  pages = {
    { kind = "text", steps = "paragraphs", title = "More computing power", text = [[
# When one machine is not enough
There are two classic ways to get more work done per second.

- *Scale up* (vertical scaling): make one machine bigger and
  more tightly knit, so its parts cooperate very closely.
- *Scale out* (horizontal scaling): keep the machines as they
  are and add more of them, linked by a network.

The pair of words is old. Server and database builders used them
in the 1990s and 2000s: buy a bigger box, or buy more boxes.

A handy picture: scaling up builds a *bigger engine*; scaling out
adds *more engines*. Both give more power. They do not solve the
same problems, and this course is about telling them apart.
]] },

    { kind = "text", steps = "paragraphs", title = "Why one GPU is not enough", text = fill([[
# Big models need many GPUs
Take {big_name}: about {big_params} parameters. Just storing
its weights at 2 bytes each takes {big_weights}. One H100 holds
{h100_mem}, so the weights alone need at least {gpus_for_weights}
GPUs, before any gradients, optimizer state or activations.

So one model is trained on many chips at once: the data or the
model itself is split among them, and they keep in step. This is
*distributed training*. It turns a job that would keep a single
chip busy for millennia into one that finishes in weeks.

You can scale up (more GPUs in one fast rack, acting as one big
accelerator) or scale out (the work spread over many racks on a
network). The rack wins on tightly coupled work, but piles all
the power and heat into one cabinet.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Two tiers of wiring", text = fill([[
# In an AI cluster the words name two networks
- The *scale-up domain*: a group of GPUs joined by very fast,
  short links; a classic server has {dgx_domain}, an NVL72 rack {nvl_domain}.
  Inside it the GPUs act almost like one big device.
- The *scale-out network*: a data-center fabric (InfiniBand or
  Ethernet) that joins many domains, with far less bandwidth
  for each GPU.

All this wiring, from the links inside a single chip to those
across a data center, is called the *interconnect*.

Picture a workshop. Inside one hall, workers pass parts straight
from hand to hand: that is scale-up. Fifty halls spread over a
city swap parts by lorry: that is scale-out. The hall is quick
but its walls limit its size; the roads reach anywhere, but they
are slower and they jam.
]], V) },

    { kind = "diagram", title = "Two classic servers", view = "rack",
      cluster = { system = "dgx-h100", gpus = 16 },
      text = [[
Two 8-GPU servers. Inside each box the GPUs share fast NVLink
(scale-up); between the boxes, traffic takes the network.
]] },

    { kind = "diagram", title = "One rack-scale domain", view = "rack",
      cluster = { system = "gb200-nvl72", gpus = 72 },
      text = [[
An NVL72 rack: all 72 GPUs sit in one scale-up domain, so any
GPU reaches any other at full NVLink speed.
]] },

    { kind = "compare", title = "Same count, different machine", text = fill([[
{gpus} Blackwell GPUs each side, the same mixture-of-experts job.
Left: sixteen 8-GPU servers, {srv_step} per step. Right: NVL72
racks, {rack_step}. The count is equal; the wiring is not.
]], V),
      workload = moe_wl,
      left = { label = "16 x 8-GPU servers", cluster = servers, mapping = moe_map },
      right = { label = "2 x NVL72 racks", cluster = racks, mapping = moe_map } },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- Scale up: a bigger, tightly linked unit. Scale out: more units
  on a network. Both add compute, in different ways.
- Big models need many GPUs working as one, so how the GPUs are
  linked matters as much as how many there are.
- An AI cluster has two tiers: the fast scale-up domain and the
  slower scale-out network between domains.
- The classic mistake is to count GPUs and never ask how they
  are connected. The next lessons open each tier up.
]] },

    { kind = "quiz", title = "Check: which is which?", text = [[
A lab replaces its 8-GPU servers with racks where 72 GPUs share
one NVLink domain. It keeps the same total number of GPUs.
What has it done?
]],
      choices = {
        { text = "Scaled up: the tightly linked unit grew from 8 to 72 GPUs.",
          correct = true,
          explain = "Right. The GPU count is unchanged; the fast domain grew." },
        { text = "Scaled out: it has more GPUs on the network.",
          correct = false,
          explain = "The total did not change. Scale-out means adding units." },
        { text = "Nothing that matters: the GPU count is the same.",
          correct = false,
          explain = "This is the classic mistake: wiring, not count, decides." },
      } },
  },
}
