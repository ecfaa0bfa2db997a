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
-- GB200 NVL72 / NMX partition documentation): 2 trays make the scenario's
-- 8-GPU partitions, 14 the 56-GPU one beside them, 16 the quiz's 64-GPU domain.

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

-- Scenario: a serving job of 64 GPUs on two GB200 NVL72 racks. Rack 0's
-- NVLink is split into partitions of whole trays (NMX partitioning, as
-- above): two of 8 GPUs and one of 56 that another job holds; rack 1 is one
-- 72-GPU domain. The scheduler hands out GPUs in order: the two small
-- partitions, then 48 GPUs of rack 1, with 24 left free there. It serves
-- the 1T model in FP8, 16 sequences per replica with 4,096 tokens of
-- context each, judged by the decode step (scalelab.serve): each user's
-- rate and all replicas' tokens per second pull against each other (wide
-- TP cuts the time per token but leaves fewer replicas; PP cuts neither),
-- and a TP group wider than a partition is fast only inside rack 1.
local PART = 8
local RACK = nvl.domain_gpus
local cluster = { system = "gb200-nvl72", gpus = 64, machine_gpus = 2 * RACK,
                  domains = { PART, PART, RACK - 2 * PART, RACK },
                  busy = { 2 * PART .. "-" .. RACK - 1 } }
local workload = { model = "megatron-1t", batch = 64, mb = 1, precision = "fp8" }
local LOAD = { batch = 16, context = 4096 }
local start_map = { tp = 8, pp = 2, zero = 1 }
-- The same replicas on tidy machines: 64 GPUs in one 72-GPU domain (every
-- group inside rack 1) or in 8-GPU domains (every TP 16 group across two).
local function served(domain, tp, pp)
  return scalelab.serve { cluster = { system = "gb200-nvl72", gpus = 64, domain = domain },
    workload = workload, mapping = { tp = tp, pp = pp or 1 },
    batch = LOAD.batch, context = LOAD.context }
end
local start_srv = served(PART, 8, 2)
local narrow = served(RACK, 8)                  -- fast enough for the crowd, not for each user
local fit = served(RACK, 16)                    -- the answer: TP 16, all inside rack 1
local wide = served(RACK, 32)                   -- faster tokens, half the replicas
local staged = served(RACK, 16, 2)              -- PP 2: half the replicas, no faster
local split = served(PART, 16)                  -- TP 16 across two partitions
local USER_RATE = 60                            -- tokens/s for each user
local LATENCY_S = 1 / USER_RATE
-- The crowd's rate: between what TP 32 (fast enough for each user, too few
-- replicas) and TP 16 give, so that both goals bind.
local CROWD = math.floor(math.sqrt(fit.tokens_per_s * wide.tokens_per_s) / 100) * 100
assert(fit.token_s < LATENCY_S and split.token_s > LATENCY_S and start_srv.token_s > LATENCY_S
  and narrow.token_s > LATENCY_S and wide.token_s < LATENCY_S and fit.tokens_per_s > CROWD
  and wide.tokens_per_s < CROWD and staged.tokens_per_s < CROWD, "re-tune the serving scenario")
local STRAY, FREE = 0, RACK + 48                -- the TP 16 group in rack 0; rack 1's first free GPU
local fix = { "pp 1", "tp 16", "group tp " .. STRAY .. " to " .. FREE }
local function thousands(x)                     -- 4000 -> "4,000"
  local t = string.format("%.0f", x)
  return (t:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", ""))
end

local QUIZ_DOMAIN = 64                          -- the quiz's partition: 16 trays

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
  latency = ms(LATENCY_S), domain = QUIZ_DOMAIN, user_rate = USER_RATE,
  crowd = thousands(CROWD), start_token = ms(start_srv.token_s),
  fit_token = ms(fit.token_s), split_token = ms(split.token_s),
  split_rate = string.format("%.0f", split.user_tokens_per_s),
  wide_rate = thousands(wide.tokens_per_s), part = PART,
  free = 2 * RACK - FREE, rack = RACK,
  staged_rate = thousands(staged.tokens_per_s),
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
The 1T model on 64 GPUs, TP 8 x PP 2, 16 users a replica: two {part}-GPU NVLink
partitions, then 48 GPUs of a whole rack (the last). Now {start_token} a token.]], V),
      cluster = cluster, workload = workload, mapping = start_map,
      serve = LOAD,
      allow = { "degrees", "tp groups" },
      predict = { at = "group", ask = "change" },
      goal = {
        text = "Each user " .. USER_RATE .. " tokens/s or more; all replicas " .. V.crowd
          .. " tokens/s or more.",
        target = { token_s = LATENCY_S },
        check = function(r)
          local s = r.serve
          if not s.fits then return false, "the weights and the users' KV cache do not fit" end
          if s.token_s > LATENCY_S then
            return false, string.format("a token takes %s: %.0f tokens/s per user", ms(s.token_s),
              s.user_tokens_per_s)
          end
          if s.tokens_per_s < CROWD then
            return false, string.format("%s tokens/s over %d replicas; the crowd needs %s",
              thousands(s.tokens_per_s), s.replicas, V.crowd)
          end
          return true
        end },
      hints = {
        "Each user wants a fast token, the crowd many replicas. Which degree makes a token "
          .. "faster, and which only takes GPUs that could be replicas?",
        fill("PP does not speed up a token (its stages run one after another) and halves the "
          .. "replicas: {staged_rate} tokens/s at TP 16 x PP 2. TP 16 makes a token in "
          .. "{fit_token} inside one NVLink domain, {split_token} across two partitions.", V),
        "PP 1 and TP 16; then g on the TP group in the two small partitions, and Enter on a "
          .. "free GPU of the whole rack.",
      },
      debrief = function(r)
        local s = r.serve
        return fill([[
You serve with TP {tp} x PP {pp}: {t} a token ({rate} tokens/s for each
user) from {dp} replicas, {all} tokens/s together. TP 16 is the narrowest
TP fast enough for each user, so it leaves the most replicas for the
crowd (TP 32: {wide_rate}); PP only took replicas away. TP 16 is fast
only inside one NVLink domain: across two partitions its all-reduces
waited on the NICs ({split_token} a token): wide groups go on the rack.
]], scalelab.facts(r, { t = ms(s.token_s), rate = string.format("%.0f", s.user_tokens_per_s),
      all = thousands(s.tokens_per_s), wide_rate = V.wide_rate,
      split_token = V.split_token }))
      end,
      solution = fix, par = 4 },

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
