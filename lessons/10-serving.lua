-- SPDX-License-Identifier: MIT
-- Lesson 10: Serving, latency against throughput.
-- Sources: GPU memory and HBM bandwidth, link latencies and rack sizes come from
-- the presets (assets/; NVIDIA DGX B200 and GB200 NVL72 documents, NCCL tuning
-- latencies in NVIDIA/nccl src/graph/tuning.cc). Both sides use B200-class GPUs
-- (B200, GB200) on the same NVLink 5, so only the domain differs. Megatron 1T
-- shape (128 layers, hidden 25,600, 160 heads) from the workload preset
-- (Narayanan et al., SC21, Table 1); a TP degree must divide the heads and the
-- hidden size (Megatron-LM splits attention by heads). FP8 stores one byte per
-- weight (NVIDIA Transformer Engine documentation). "Each generated token reads
-- every weight once" for a dense model at small batch: jax-ml/scaling-book,
-- "All about Transformer Inference". The floors below ignore KV-cache reads.
-- An NVL72 rack can be partitioned along its 18 compute trays of 4 GPUs (NVIDIA
-- GB200 NVL72 / NMX partition documentation): 16 trays make a 64-GPU domain;
-- the scenario assumes that partition, with 8 GPUs per rack kept spare.

local U = scalelab.units
local fill = scalelab.fill

local m = scalelab.model("megatron-1t")
local dgx = scalelab.system("dgx-b200")
local nvl = scalelab.system("gb200-nvl72")
local bg = scalelab.gpu(dgx.gpu_id)
local rg = scalelab.gpu(nvl.gpu_id)

local weights = m.params * 1                   -- FP8: 1 byte per parameter
local server_mem = dgx.domain_gpus * bg.hbm_bytes
local rack_mem = nvl.domain_gpus * rg.hbm_bytes

-- Floor on one token's time at tensor-parallel degree tp on a given GPU: read
-- the weights once, all tp GPUs at once, plus one hop per all-reduce (2 per layer).
local function token_s(tp, gpu, lat_s)
  return weights / (tp * gpu.hbm_bytes_per_s) + 2 * m.layers * lat_s
end
local server_tok = token_s(dgx.domain_gpus, bg, dgx.up_lat_s)
local server_read = weights / (dgx.domain_gpus * bg.hbm_bytes_per_s)

-- The predict page: the same floor on a rack's GPUs with TP 16.
local PRED_TP = 16
local pred_read = weights / (PRED_TP * rg.hbm_bytes_per_s)
local pred_hops = 2 * m.layers * nvl.up_lat_s

-- Scenario: two racks, each partitioned to 64 GPUs (16 trays), serve the 1T
-- model in FP8 to many users at once: 16 sequences per replica, 4,096
-- tokens of context each. Judged by the decode step (scalelab.serve, the
-- model's serving side): each user's time per token and all replicas'
-- tokens per second, which pull against each other: wide TP cuts the time
-- per token, but leaves fewer replicas.
local DOMAIN = 64
local cluster = { system = "gb200-nvl72", gpus = 128, domain = DOMAIN }
local workload = { model = "megatron-1t", batch = 64, mb = 1, precision = "fp8" }
local LOAD = { batch = 16, context = 4096 }
local start_map = { tp = 8, pp = 2, zero = 1 }
local function served(map)
  local ok, r = pcall(scalelab.serve, { cluster = cluster, workload = workload, mapping = map,
    batch = LOAD.batch, context = LOAD.context })
  return ok and r or nil
end
local start_srv = served(start_map)
local best = served({ tp = 32, pp = 1 })
local narrow = served({ tp = 16, pp = 1 })
local USER_RATE = 100                           -- tokens/s for each user
local LATENCY_S = 1 / USER_RATE
-- The crowd's rate: between what TP 16 (fast enough for the crowd, too slow
-- for each user) and TP 32 give, so that both goals bind.
local CROWD = math.floor(best.tokens_per_s * 0.9 / 100) * 100
assert(best.token_s < LATENCY_S and narrow.token_s > LATENCY_S and
  best.tokens_per_s > CROWD and served({ tp = 32, pp = 2 }).tokens_per_s < CROWD,
  "re-tune the serving scenario")

local function ms(s) return U.format("time", s) end

local V = {
  name = m.name,
  params = string.format("%.2f trillion", m.params / 1e12),
  layers = m.layers, n_ar = 2 * m.layers, heads = m.heads, hidden = m.hidden,
  weights = U.format("bytes", weights),
  server_mem = U.format("bytes", server_mem),
  rack_mem = U.format("bytes", rack_mem),
  n = nvl.domain_gpus, s_n = dgx.domain_gpus,
  bw = U.format("bandwidth", bg.hbm_bytes_per_s),
  server_read = ms(server_read), server_tok = ms(server_tok),
  up_lat = ms(nvl.up_lat_s), out_lat = ms(nvl.out_lat_s),
  latency = ms(LATENCY_S), domain = DOMAIN, user_rate = USER_RATE,
  crowd = string.format("%d", CROWD), start_token = ms(start_srv.token_s),
  start_rate = string.format("%.0f", start_srv.tokens_per_s),
  best_rate = string.format("%.0f", best.tokens_per_s),
  server_rate = string.format("%.0f", 1 / server_tok),
  pred_tp = PRED_TP, rbw = U.format("bandwidth", rg.hbm_bytes_per_s),
  pred_t = ms(pred_read + pred_hops),
}

local lesson = {
  id = "serving",
  title = "Serving big models",
  summary = "A trillion-parameter model: fast for each user, or much for all.",
  track = "Part 3: Beyond the rack",
  order = 10,
  minutes = 13,
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
# Where does the model fit?
Take {name}: {params} parameters, {layers} layers, {heads} heads.
Stored in FP8 (one byte each), the weights alone are {weights}.

Compare like with like, the same Blackwell GPUs and NVLink 5:
- one DGX B200 server: {s_n} GPUs, {server_mem} of HBM. The weights
  fit, with little room left for the users' context (KV cache);
- one GB200 NVL72 rack: {n} GPUs, {rack_mem}, all on NVLink.

What differs is not the chip but how many GPUs can share one
token's work without leaving NVLink.
]], V) },

    { kind = "text", steps = "paragraphs", title = "The speed limit of a token", text = fill([[
# Every token reads every weight
To produce one token, a dense model multiplies through all its
weights, so every byte is read from HBM at least once. Split over
TP GPUs, each reads its share at {bw}: time = weights / (TP x {bw}).

Each token also waits for {n_ar} tensor-parallel all-reduces, at
least one hop each: {up_lat} on NVLink, {out_lat} on the network.

TP must also divide the {heads} heads and the hidden size {hidden}.
A server stops at TP {s_n}: {server_read} of reading, {server_tok} per
token, about {server_rate} tokens/s per user.
]], V) },

    { kind = "predict", title = "Your estimate: one token", text = fill([[
{name} in FP8 ({weights}) is served inside one GB200 NVL72 rack
with TP {pred_tp}. Each GPU reads its share of the weights from HBM
at {rbw}, and each token waits for {n_ar} all-reduces of one NVLink
hop ({up_lat}) each.
]], V),
      question = "How long does one token take, at the least?",
      unit = "s", answer = pred_read + pred_hops, tolerance = 0.15,
      slips = { "bits" },   -- 8 TB/s of HBM read as terabits
      terms = { { name = "reading the weights", value = pred_read },
                { name = "the all-reduce hops", value = pred_hops } },
      formula = V.weights .. " / (" .. PRED_TP .. " x " .. V.rbw .. ") + " .. V.n_ar .. " x " ..
        V.up_lat .. " = " .. V.pred_t },

    { kind = "text", steps = "paragraphs", title = "Throughput is different", text = [[
# Many copies, no conversation
Serving to millions of users is a throughput problem. Each copy
(*replica*) of the model answers its own requests and never talks
to the others.

So replicas can sit anywhere on a scale-out fabric: add servers,
add replicas, add throughput, almost linearly. Batching many
users' requests into each step keeps every replica's GPUs busy.

The scale-up domain only has to be big enough for *one* replica
at the latency you promise. Beyond that, scale-out is the cheap,
flexible way to grow.
]] },

    { kind = "scenario", title = "Fast and plenty", text = fill([[
Racks split to {domain} GPUs serve the 1T model to 16 users per replica: now
{start_token} a token. Each user needs {user_rate} tokens/s; the crowd {crowd}.]], V),
      cluster = cluster, workload = workload, mapping = start_map,
      serve = LOAD,
      allow = { "degrees" },
      predict = { at = "degree", ask = "part" },
      goal = {
        text = "Each user " .. USER_RATE .. " tokens/s or more; all replicas " .. V.crowd
          .. " tokens/s or more.",
        target = { token_s = LATENCY_S },
        check = function(r)
          local s = r.serve
          if not s.fits then return false, "the weights and the users' KV cache do not fit" end
          if s.tp_domains > 1 then return false, "a TP group spans two domains: every token "
            .. "waits on the NIC" end
          if s.token_s > LATENCY_S then
            return false, string.format("a token takes %s: %.0f tokens/s per user", ms(s.token_s),
              s.user_tokens_per_s)
          end
          if s.tokens_per_s < CROWD then
            return false, string.format("%.0f tokens/s over %d replicas; the crowd needs %s",
              s.tokens_per_s, s.replicas, V.crowd)
          end
          return true
        end },
      hints = {
        "The bar is one token: reading the weights is most of it. How many GPUs share that read?",
        "PP does not speed up one token: its stages run one after another. It only takes "
          .. "GPUs that could be replicas.",
        "The widest TP that divides " .. m.heads .. " heads inside a " .. DOMAIN .. "-GPU "
          .. "domain, and no PP.",
      },
      debrief = function(r)
        local s = r.serve
        return fill([[
You serve with TP {tp} x PP {pp}: {t} a token ({rate} tokens/s for each
user) from {dp} replicas, {all} tokens/s together. Wide TP inside the
NVLink domain split the weight reads; dropping PP gave its GPUs back
as replicas, and throughput with them.
]], scalelab.facts(r, { t = ms(s.token_s), rate = string.format("%.0f", s.user_tokens_per_s),
      all = string.format("%.0f", s.tokens_per_s) }))
      end,
      solution = { "tp 16", "tp 32", "pp 1" }, par = 3 },

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
  it favours a wide scale-up domain. Throughput (tokens for
  everyone) is parallel work: it favours scale-out.
- Every token reads every weight: time per token falls with the
  number of GPUs that share the reading, if TP stays on NVLink.
- TP must divide the heads and hidden size; PP adds memory, not speed.
- Independent replicas scale out almost for free.
]], V) },

    { kind = "quiz", title = "Check: a legal TP", calc = true, text = fill([[
{name} has {heads} attention heads and a hidden size of {hidden}.
What is the largest TP degree that divides both and fills a
{domain}-GPU domain with whole groups?
]], V),
      choices = {
        { text = "TP 32", correct = true,
          explain = "160 / 32 = 5 heads each; two groups of 32 fill 64 GPUs." },
        { text = "TP 64", correct = false,
          explain = "160 / 64 = 2.5: heads cannot be split in halves." },
        { text = "TP 40", correct = false,
          explain = "40 divides 160, but 64 / 40 is not whole: a group would straddle." },
        { text = "TP 160", correct = false,
          explain = "One head per GPU needs 160 GPUs in the domain, more than it has." },
      } },

    { kind = "quiz", title = "Check: where to serve", text = [[
You must serve a trillion-parameter dense model to a few users
with the lowest possible time per token. Which set-up fits best?
]],
      choices = {
        { text = "One replica with wide TP inside a large NVLink domain.",
          correct = true,
          explain = "More GPUs share each token's reads, and per-layer all-reduces stay on NVLink." },
        { text = "The model split over many 8-GPU servers on Ethernet.",
          correct = false,
          explain = "Each token would wait on the network in every layer." },
        { text = "Many replicas, each with pipeline stages on several servers.",
          correct = false,
          explain = "Replicas add throughput; pipeline stages run one after another for one token." },
        { text = "A replica on every 8-GPU server, so that each user gets one of their own.",
          correct = false,
          explain = "Then only 8 GPUs read each token's weights: a replica per user is no faster." },
      } },
  },
}

return lesson
