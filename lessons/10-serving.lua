-- Lesson 10: Serving, latency against throughput.
-- Sources: GPU memory and HBM bandwidth, link latencies and rack sizes come from
-- the presets (assets/; NVIDIA DGX H100 and GB300 NVL72 documents, NCCL tuning
-- latencies in NVIDIA/nccl src/graph/tuning.cc). Megatron 1T shape from the
-- workload preset (Narayanan et al., SC21, Table 1). FP8 stores one byte per
-- weight (NVIDIA Transformer Engine documentation). "Each generated token reads
-- every weight once" for a dense model at small batch: jax-ml/scaling-book,
-- "All about Transformer Inference". The bound below ignores KV-cache reads,
-- so it is a floor, not a prediction.

local U = scalelab.units
local function fill(text, v)
  return (text:gsub("{([%w_]+)}", function(k)
    local x = v[k]
    if x == nil then error("text names {" .. k .. "} but no value is given", 2) end
    return tostring(x)
  end))
end

local m = scalelab.model("megatron-1t")
local dgx = scalelab.system("dgx-h100")
local nvl = scalelab.system("gb300-nvl72")
local hg = scalelab.gpu(dgx.gpu_id)
local bg = scalelab.gpu(nvl.gpu_id)

local weights = m.params * 1                   -- FP8: 1 byte per parameter
local server_mem = dgx.domain_gpus * hg.hbm_bytes
local rack_mem = nvl.domain_gpus * bg.hbm_bytes
local servers_needed = math.ceil(weights / server_mem) + 1 -- + room for KV cache
local spread_gpus = servers_needed * dgx.domain_gpus
-- Floor on the time per generated token: read every weight once, all GPUs at once.
local rack_read_s = weights / (nvl.domain_gpus * bg.hbm_bytes_per_s)
local spread_read_s = weights / (spread_gpus * hg.hbm_bytes_per_s)
-- Tensor parallelism: 2 all-reduces per layer per token; count only their latency.
local rack_comm_s = 2 * m.layers * nvl.up_lat_s
local spread_comm_s = 2 * m.layers * dgx.out_lat_s

local V = {
  name = m.name,
  params = string.format("%.2f trillion", m.params / 1e12),
  layers = m.layers, n_ar = 2 * m.layers,
  weights = U.format("bytes", weights),
  server_mem = U.format("bytes", server_mem),
  rack_mem = U.format("bytes", rack_mem),
  servers = servers_needed, spread_gpus = spread_gpus,
  n = nvl.domain_gpus,
  rack_read = U.format("time", rack_read_s),
  spread_read = U.format("time", spread_read_s),
  up_lat = U.format("time", nvl.up_lat_s),
  out_lat = U.format("time", dgx.out_lat_s),
  rack_comm = U.format("time", rack_comm_s),
  spread_comm = U.format("time", spread_comm_s),
  rack_tok = string.format("%.0f", 1 / (rack_read_s + rack_comm_s)),
  spread_tok = string.format("%.0f", 1 / (spread_read_s + spread_comm_s)),
}

return {
  id = "serving",
  title = "Serving big models",
  summary = "A trillion-parameter model in one rack, or many copies on a fabric.",
  track = "Part 3: Beyond the rack",
  order = 10,
  minutes = 11,
  pages = {
    { kind = "text", steps = "paragraphs", title = "Two goals", text = [[
# Fast for one, or much for all
Once a model is trained, it must answer people. Two numbers
matter, and they pull in different directions:

- *Latency*: how long one user waits for each new token. If the
  tokens trickle out, the chat feels broken.
- *Throughput*: how many tokens per second the whole system
  produces, over all users together.

Latency is a tightly coupled problem: one answer, computed as
fast as possible. Throughput is a parallel one: many separate
answers, each on its own.
]] },

    { kind = "text", steps = "paragraphs", title = "A trillion parameters", text = fill([[
# Where does the model even fit?
Take {name}: {params} parameters, {layers} layers. Stored in
FP8 (one byte each), the weights alone are {weights}.

- One DGX H100 server: {server_mem} of HBM. Too small. It takes
  about {servers} servers ({spread_gpus} GPUs, over the network)
  to hold the weights and leave room for the users' context.
- One GB300 NVL72 rack: {rack_mem} of HBM, all on NVLink, with
  plenty to spare.

Growing scale-up from 8-GPU boards to 72-GPU racks is what makes
real-time serving of a single, undivided trillion-parameter model
practical.
]], V) },

    { kind = "text", steps = "paragraphs", title = "The speed limit of a token", text = fill([[
# Every token reads every weight
To produce one token, a dense model multiplies through all its
weights, so every byte of them is read from HBM at least once.

Floor on the time per token (weights / total HBM bandwidth):
- one NVL72 rack, {n} GPUs: {rack_read}
- {spread_gpus} H100s in {servers} servers: {spread_read}

On top, each token waits for {n_ar} tensor-parallel all-reduces
(2 per layer). Each costs at least one step of latency, {up_lat} on
NVLink or {out_lat} on the network: {rack_comm} against {spread_comm}.

At the very best: ~{rack_tok} tokens/s per user in the rack, ~{spread_tok} spread out.
]], V) },

    { kind = "diagram", title = "One model, one rack", view = "rack",
      cluster = { system = "gb300-nvl72", gpus = 72 },
      text = fill([[
The whole {weights} model lives in one NVLink domain: every
per-layer all-reduce stays on the fast tier.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Throughput is different", text = [[
# Many copies, no conversation
Serving a smaller model to millions of users is a throughput
problem. Each copy (*replica*) of the model answers its own
requests and never talks to the others.

So replicas can sit anywhere on a scale-out fabric: add servers,
add replicas, add throughput, almost linearly. Batching many
users' requests into each step keeps every replica's GPUs busy.

The scale-up domain only has to be big enough for *one* replica.
Beyond that, scale-out is the cheap, flexible way to grow.
]] },

    { kind = "diagram", title = "Replicas on a fabric", view = "fabric",
      cluster = { system = "dgx-h100", gpus = 128 },
      workload = { model = "llama3-70b", batch = 64, mb = 1 },
      mapping = { tp = 8, pp = 1, dp = 16 },
      text = [[
Sixteen servers, each serving its own replica. Requests arrive
over the network; no replica waits for another.
]] },

    { kind = "text", steps = "paragraphs", title = "Summary", text = fill([[
# What to keep
- Latency (time per token for one user) is tightly coupled work:
  it favours scale-up. Throughput (tokens for everyone) is
  parallel work: it favours scale-out.
- A {weights} model fits in one NVL72 rack, but needs several
  8-GPU servers joined by the network.
- Every token reads every weight and waits on 2 all-reduces per
  layer: keep a low-latency model inside one domain.
- Many independent replicas scale out almost for free.
]], V) },

    { kind = "quiz", title = "Check: where to serve", text = [[
You must serve a trillion-parameter model to a few users with
the lowest possible time per token. Which set-up fits best?
]],
      choices = {
        { text = "One model copy inside a single 72-GPU NVLink rack.",
          correct = true,
          explain = "Weights fit, and per-layer all-reduces stay on NVLink." },
        { text = "The model split over many 8-GPU servers on Ethernet.",
          correct = false,
          explain = "Each token would wait on the network in every layer." },
        { text = "Many small replicas, one per GPU.",
          correct = false,
          explain = "A trillion parameters do not fit on one GPU." },
      } },
  },
}
