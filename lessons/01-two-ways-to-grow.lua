-- SPDX-License-Identifier: MIT
-- Lesson 1: Two ways to grow.
-- Sources: GPU and system figures come from the presets (assets/, each with its
-- source there). Llama 3 405B has 405 billion parameters as published (Llama 3
-- Herd paper, Meta, 2024, Table 3); the preset computes its count from the
-- shape, which differs by a fraction of a percent. Weights in BF16 take 2 bytes
-- per parameter, FP8 one. Training state, as Megatron-LM's mixed precision
-- keeps it: BF16 weights 2 + FP32 gradients 4 + FP32 master weights and two
-- Adam moments 12 = 18 bytes per parameter (Megatron-LM distributed-optimizer
-- docs; MODEL-FACTS.md §8, which also gives the 16 of BF16 gradients). The
-- lesson reads the three figures off one step of the model, so it teaches the
-- rule the model (src/model/step.c, step_memory) uses.
-- The history of the terms (1990s-2000s server and database design) is general
-- computing knowledge; see any text on vertical vs horizontal scaling.
-- ZeRO-3 / FSDP shards the weights over the data-parallel ranks and gathers
-- them again layer by layer (Rajbhandari et al., ZeRO, SC20; MODEL-FACTS §6.3).
-- Seed coverage (every seed fact -> lesson and page): lessons/SEEDS.md.

local U = scalelab.units
local fill = scalelab.fill

local LLAMA3_405B_PARAMS = 405e9 -- as published (Llama 3 Herd paper)
local BF16_BYTES = 2

local h100 = scalelab.gpu("h100-sxm")
local dgx = scalelab.system("dgx-h100")
local nvl = scalelab.system("gb200-nvl72")

local weights_bytes = LLAMA3_405B_PARAMS * BF16_BYTES
local gpus_for_weights = math.ceil(weights_bytes / h100.hbm_bytes)

-- The training state per parameter, read off the model: one GPU holding all
-- of Llama 3 8B, no sharding, so each memory part divided by the parameter
-- count is that part's bytes per parameter.
local m8 = scalelab.model("llama3-8b")
local probe = scalelab.step { cluster = { system = "dgx-h100", gpus = 8 },
  workload = { model = "llama3-8b", batch = 8, mb = 1 },
  mapping = { tp = 1, pp = 1, dp = 8, zero = 0 } }
local W_B = probe.memory.weights / m8.params      -- 2: BF16 weights
local G_B = probe.memory.grads / m8.params        -- 4: FP32 gradients
local O_B = probe.memory.optimizer / m8.params    -- 12: FP32 master, two moments
local STATE_B = W_B + G_B + O_B

-- The predict page: Llama 3 70B's whole training state.
local m70 = scalelab.model("llama3-70b")
local state70 = m70.params * STATE_B

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
  h100_mem = string.format("%.0f GiB (%s)", h100.hbm_bytes / 2 ^ 30,
    U.format("bytes", h100.hbm_bytes)),
  big_weights = U.format("bytes", weights_bytes),
  gpus_for_weights = gpus_for_weights,
  fp8_gpus = math.ceil(LLAMA3_405B_PARAMS / h100.hbm_bytes),
  fp32_gpus = math.ceil(LLAMA3_405B_PARAMS * 4 / h100.hbm_bytes),
  state_gpus = math.ceil(LLAMA3_405B_PARAMS * STATE_B / h100.hbm_bytes),
  w_b = string.format("%.0f", W_B), g_b = string.format("%.0f", G_B),
  o_b = string.format("%.0f", O_B), state_b = string.format("%.0f", STATE_B),
  big_state = U.format("bytes", LLAMA3_405B_PARAMS * STATE_B),
  p70 = string.format("%.1f billion", m70.params / 1e9),
  state70 = U.format("bytes", state70),
  floor_gpus = math.floor(weights_bytes / h100.hbm_bytes),
  dgx_domain = dgx.domain_gpus,
  nvl_domain = nvl.domain_gpus,
}

local pages = {
    { kind = "text", steps = "paragraphs", title = "More computing power", text = [[
# When one machine is not enough
A job has outgrown its computer. There are two ways to give it
more power, and engineers have argued about them for decades.

- *Scale up* (vertical): replace the unit with a larger one whose
  parts sit close together and cooperate very tightly.
- *Scale out* (horizontal): keep the unit as it is and buy more
  copies, joined by a network.

The words come from server and database design in the 1990s and
2000s. Put shortly: grow the unit, or multiply the units. Both
add capacity; they fail in different ways, and telling them apart
is what this course is about.
]] },

    { kind = "text", steps = "paragraphs", title = "Why one GPU is not enough", text = fill([[
# Big models need many GPUs
Llama 3 405B has 405 billion parameters. At 2 bytes each (BF16)
its weights alone fill {big_weights}, and one H100 holds {h100_mem}.
Training keeps more for every parameter: an FP32 gradient ({g_b}
bytes) and, for the Adam optimizer, an FP32 master copy and two
running averages ({o_b} bytes). With the weights that is {state_b} bytes
per parameter, {big_state} for this model.

So one model is trained on many chips at once, each doing part of
the work, all kept in step: *distributed training*. A run that a
single chip could not finish in a human lifetime is done by
thousands of them in a few months.

The chips can sit in one tightly wired rack that acts like a
single giant accelerator, or be spread over many racks on a
network. The rack is quicker for work whose parts talk all the
time, but it packs a lot of electrical load into one cabinet.
]], V) },

    { kind = "text", steps = "paragraphs", title = "Two tiers of wiring", text = fill([[
# In an AI cluster the words name two networks
- The *scale-up domain*: GPUs joined by very fast, short links; a
  classic server has {dgx_domain}, an NVL72 rack {nvl_domain}. Inside it
  they act almost like one device.
- The *scale-out network*: a data-center fabric (InfiniBand or
  Ethernet) joining many domains, with far less bandwidth per GPU.

All of this wiring, from links inside one package to links across
a building, is the *interconnect*.

Think of musicians. On one stage, every player hears every other
at once: that is scale-up, and the stage has only so many chairs.
Orchestras in several cities playing one piece over phone lines
can add players without end, but every note from afar comes late.
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
{gpus} Blackwell GPUs each side, one mixture-of-experts job (ZeRO-3
shards its weights and gathers them layer by layer). Left: 8-GPU
servers, {srv_step} per step. Right: NVL72 racks, {rack_step}.
]], V),
      workload = moe_wl,
      left = { label = "16 x 8-GPU servers", cluster = servers, mapping = moe_map },
      right = { label = "2 x NVL72 racks", cluster = racks, mapping = moe_map } },

    { kind = "predict", title = "Your estimate: a training state", text = fill([[
Llama 3 70B has {p70} parameters and trains the way Llama 3
405B does: for each parameter a BF16 weight, an FP32 gradient, and
Adam's FP32 master copy and two running averages. Leave the
activations out.
]], V),
      question = "How much memory does its whole training state take?",
      unit = "B", answer = state70, tolerance = 0.15,
      terms = { { name = "the BF16 weights", value = m70.params * W_B },
                { name = "the FP32 gradients", value = m70.params * G_B },
                { name = "the optimizer state", value = m70.params * O_B } },
      formula = fill("{p} x ({w} + {g} + {o}) bytes = {t}", { p = V.p70, w = V.w_b, g = V.g_b,
        o = V.o_b, t = V.state70 }) },

    { kind = "text", steps = "paragraphs", title = "Summary", text = [[
# What to keep
- Scale up: a bigger, tightly linked unit. Scale out: more units
  on a network. Both add compute, in different ways.
- Big models need many GPUs working as one, so how the GPUs are
  linked matters as much as how many there are.
- An AI cluster has two tiers: the fast scale-up domain and the
  slower scale-out network between domains.
- Counting GPUs and never asking how they are wired is the classic
  error. The next lessons open each tier up.
]] },

    { kind = "quiz", title = "Check: GPUs for the weights", calc = true, text = fill([[
An H100 has {h100_mem} of memory. What is the fewest H100s that can
hold the BF16 weights of Llama 3 405B ({big_weights}), before any
gradients or optimizer state?
]], V),
      choices = {
        { text = tostring(V.gpus_for_weights) .. " GPUs", correct = true,
          explain = V.big_weights .. " / " .. V.h100_mem .. " rounds up to this: a part-filled GPU still counts." },
        { text = tostring(V.floor_gpus) .. " GPUs", correct = false,
          explain = "That rounds the division down: the last few gigabytes still need a GPU." },
        { text = tostring(V.fp8_gpus) .. " GPUs", correct = false,
          explain = "That counts one byte per parameter, as FP8 would. The question says BF16." },
        { text = tostring(V.fp32_gpus) .. " GPUs", correct = false,
          explain = "That counts 4 bytes per parameter, as FP32 would. BF16 takes 2." },
        { text = tostring(V.state_gpus) .. " GPUs", correct = false,
          explain = "That counts all " .. V.state_b .. " bytes per parameter of training, not the weights alone." },
      } },

    { kind = "quiz", title = "Check: which is which?", text = [[
A lab replaces its 8-GPU servers with racks where 72 GPUs share
one NVLink domain. It keeps the same total number of GPUs.
What has it done?
]],
      choices = {
        { text = "Scaled up: its fast unit grew from 8 GPUs to 72.",
          correct = true,
          explain = "The GPU count is unchanged; the tightly linked domain grew." },
        { text = "Scaled out: it now has more GPUs on the network.",
          correct = false,
          explain = "The total did not change. Scale-out adds units to the network." },
        { text = "Nothing that matters: the GPU count is still the same.",
          correct = false,
          explain = "The wiring changed: groups that talk a lot can now stay on fast links." },
        { text = "Scaled across: it merged separate machines into bigger ones.",
          correct = false,
          explain = "Scale-across links whole data centers; these racks sit in one building." },
      } },
}

return {
  id = "two-ways-to-grow",
  title = "Two ways to grow",
  summary = "Scale up or scale out: grow the unit, or multiply the units.",
  track = "Part 1: Foundations",
  order = 1,
  minutes = 8,
  pages = pages,
}
