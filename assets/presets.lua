-- presets.lua: the hardware and workload presets of scalelab, as data.
--
-- Lessons read this file (through the lesson engine); the C core has the same
-- figures compiled in (src/model/hw.c, src/model/workload.c), and
-- tests/unit/test_hw.c checks that both agree field by field. Change both
-- together.
--
-- Conventions (as src/model/units.h and hw.h): bandwidths are bytes per
-- second, PER GPU and PER DIRECTION. Vendors quote NVLink with both
-- directions added (NVLink 5 "1.8 TB/s" = 900 GB/s each way), so it is
-- halved here; NICs are quoted per direction in bits ("400 Gb/s" = 50 GB/s),
-- so they are divided by 8. Sizes in bytes, times in seconds, FLOP/s dense.
-- Source tags: [P] primary, [R] builders' repository/docs, [S] secondary,
-- [D] derived here, [U] uncertain (see MODEL-FACTS.md).

local NVLINK_STEP_LAT_S = 1.9e-6 -- NCCL tuning.cc hwLatencies, NVLink LL128 step [R]
local NET_STEP_LAT_S = 4.0e-6    -- NCCL tuning.cc hwLatencies, network LL128 step [R]

local gpus = {
  { id = "a100-sxm", name = "A100 SXM 80GB",
    bf16_flops = 312e12,          -- NVIDIA A100 datasheet; SC21 §5 [P]
    fp8_flops = 0,                -- no FP8 on Ampere
    hbm_bytes = 80e9,             -- 80 GB HBM2e [R]
    hbm_bytes_per_s = 2.039e12 }, -- 2,039 GB/s, A100 80GB SXM datasheet [S]
  { id = "h100-sxm", name = "H100 SXM",
    bf16_flops = 1979e12 / 2,     -- 1,979 TFLOPS "with sparsity" / 2 (NVIDIA)
    fp8_flops = 3958e12 / 2,      -- 3,958 TFLOPS "with sparsity" / 2 (NVIDIA)
    hbm_bytes = 80e9,             -- 80 GB HBM3 [R]
    hbm_bytes_per_s = 3.35e12 },  -- 3.35 TB/s [R]
  { id = "h200", name = "H200",
    bf16_flops = 1979e12 / 2,     -- same Hopper die as H100 [R]
    fp8_flops = 3958e12 / 2,
    hbm_bytes = 141e9,            -- 141 GB HBM3e (MLCommons v4.1 NVIDIA H200) [P]
    hbm_bytes_per_s = 4.8e12 },   -- 4.8 TB/s [R]
  { id = "b200", name = "B200",
    bf16_flops = 2.25e15,         -- 2,250 TFLOP/s dense (scaling-book gpus.md) [R]
    fp8_flops = 4.5e15,           -- 2 x BF16 dense [D]
    hbm_bytes = 180e9,            -- 180 GB (MLCommons v6.0 Nebius B200) [P]
    hbm_bytes_per_s = 8e12 },     -- 8 TB/s [R]
  { id = "gb200", name = "GB200 (Blackwell, NVL72)",
    bf16_flops = 360e15 / 72 / 2, -- rack 360 PF "with sparsity" / 72 / 2 [U]
    fp8_flops = 720e15 / 72 / 2,  -- rack 720 PF FP8 "with sparsity" / 72 / 2 [U]
    hbm_bytes = 186e9,            -- 186 GB usable (MLCommons v6.1 Crusoe GB200) [P]
    hbm_bytes_per_s = 576e12 / 72 }, -- rack 576 TB/s / 72 [S][D]
  { id = "gb300", name = "GB300 (Blackwell Ultra, NVL72)",
    bf16_flops = 180e15 / 72,     -- rack 180 PF BF16 dense / 72 (verda.com) [S]
    fp8_flops = 360e15 / 72,      -- rack 360 PF FP8 dense / 72 [U]
    hbm_bytes = 279e9,            -- 279 GB usable of 288 (verda.com) [S]
    hbm_bytes_per_s = 576e12 / 72 }, -- rack 576 TB/s / 72 [S]
  { id = "tpu-v5p", name = "TPU v5p",
    bf16_flops = 459e12,          -- Google Cloud TPU v5p [P]
    fp8_flops = 0,                -- INT8, not FP8
    hbm_bytes = 95e9,             -- 95 GB [P]
    hbm_bytes_per_s = 2.765e12 }, -- 2,765 GB/s [P]
}

local systems = {
  { id = "dgx-a100", name = "DGX A100", gpu_id = "a100-sxm",
    domain_gpus = 8, default_gpus = 64, up_kind = "switched",
    up_link = "NVLink 3",
    up_bytes_per_s = 600e9 / 2,   -- NVLink 3: 600 GB/s bidir (12 x 25 GB/s/dir) [R]
    up_lat_s = NVLINK_STEP_LAT_S, up_switches = 6, torus = { 0, 0, 0 },
    out_link = "HDR InfiniBand 200 Gb/s",
    out_bytes_per_s = 200e9 / 8,  -- 8 x 200 Gb/s HDR per node (SC21 §5) [P]
    out_lat_s = NET_STEP_LAT_S, oversub = 1,
    gpus_per_leaf = 40 / 2,       -- 40-port HDR leaf, half down
    domain_power_w = 6.5e3,       -- DGX A100 datasheet [P]
    cooling = "air",
    summary = "8 x A100 per server on NVLink 3; one 200 Gb/s HDR NIC per GPU (Selene)" },
  { id = "dgx-h100", name = "DGX H100", gpu_id = "h100-sxm",
    domain_gpus = 8, default_gpus = 256, up_kind = "switched",
    up_link = "NVLink 4",
    up_bytes_per_s = 900e9 / 2,   -- NVLink 4: 900 GB/s bidir (18 x 25 GB/s/dir) [R]
    up_lat_s = NVLINK_STEP_LAT_S, up_switches = 4, torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,  -- 8 x 400 Gb/s CX-7 per node [R]
    out_lat_s = NET_STEP_LAT_S, oversub = 1,
    gpus_per_leaf = 64 / 2,       -- 64-port NDR leaf, half down
    domain_power_w = 10.2e3,      -- DGX H100 datasheet [P]
    cooling = "air",
    summary = "8 x H100 per server on NVLink 4; one 400 Gb/s NDR NIC per GPU" },
  { id = "hgx-h200", name = "HGX H200", gpu_id = "h200",
    domain_gpus = 8, default_gpus = 256, up_kind = "switched",
    up_link = "NVLink 4",
    up_bytes_per_s = 900e9 / 2,   -- "18x 4th Gen NVLink, 900GB/s" (MLCommons) [P]
    up_lat_s = NVLINK_STEP_LAT_S, up_switches = 4, torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,  -- CX-7 400 Gb/s per GPU [P]
    out_lat_s = NET_STEP_LAT_S, oversub = 1,
    gpus_per_leaf = 64 / 2,
    domain_power_w = 10.2e3,      -- DGX H200 datasheet [P]
    cooling = "air",
    summary = "8 x H200 (141 GB) per server on NVLink 4; 400 Gb/s NDR per GPU" },
  { id = "dgx-b200", name = "DGX B200", gpu_id = "b200",
    domain_gpus = 8, default_gpus = 256, up_kind = "switched",
    up_link = "NVLink 5",
    up_bytes_per_s = 1.8e12 / 2,  -- NVLink 5: 1.8 TB/s bidir; 14.4 TB/s per board [R]
    up_lat_s = NVLINK_STEP_LAT_S, up_switches = 2, torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,  -- "8x ConnectX-7 IB NDR 400Gb/s" (MLCommons Nebius) [P]
    out_lat_s = NET_STEP_LAT_S, oversub = 1,
    gpus_per_leaf = 64 / 2,
    domain_power_w = 14.3e3,      -- DGX B200 datasheet [P]
    cooling = "air",
    summary = "8 x B200 per server on NVLink 5; 400 Gb/s NDR per GPU" },
  { id = "gb200-nvl72", name = "GB200 NVL72", gpu_id = "gb200",
    domain_gpus = 72, default_gpus = 576, up_kind = "switched",
    up_link = "NVLink 5",
    up_bytes_per_s = 1.8e12 / 2,  -- 1.8 TB/s bidir per GPU; 72 x 1.8 = 130 TB/s [R]
    up_lat_s = NVLINK_STEP_LAT_S, up_switches = 18, torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,  -- one CX-7 400 Gb/s per GPU (MLCommons v6.1 Crusoe) [P]
    out_lat_s = NET_STEP_LAT_S, oversub = 1,
    gpus_per_leaf = 64 / 2,
    domain_power_w = 120e3,       -- ~120 kW per rack (introl.com GB200 NVL72 guide) [S]
    cooling = "liquid",
    summary = "72 GPUs in one NVLink 5 rack (130 TB/s); 400 Gb/s NDR per GPU; ~120 kW" },
  { id = "gb300-nvl72", name = "GB300 NVL72", gpu_id = "gb300",
    domain_gpus = 72, default_gpus = 576, up_kind = "switched",
    up_link = "NVLink 5",
    up_bytes_per_s = 1.8e12 / 2,  -- 1.8 TB/s bidir per GPU [S]
    up_lat_s = NVLINK_STEP_LAT_S, up_switches = 18, torus = { 0, 0, 0 },
    out_link = "ConnectX-8 XDR InfiniBand 800 Gb/s",
    out_bytes_per_s = 800e9 / 8,  -- one ConnectX-8 800 Gb/s per GPU (NVIDIA NVL72 RA) [P]
    out_lat_s = NET_STEP_LAT_S, oversub = 1,
    gpus_per_leaf = 144 / 2,      -- 144-port 800G Quantum-X800 leaf, half down
    domain_power_w = 132e3,       -- 132 kW rack power shelves (Supermicro via introl) [S]
    cooling = "liquid",
    summary = "72 GPUs in one NVLink 5 rack (130 TB/s); 800 Gb/s CX-8 per GPU; ~132 kW" },
  { id = "tpu-v5p", name = "TPU v5p pod slice", gpu_id = "tpu-v5p",
    -- one 4x4x4 cube is the domain; cubes join through optical switches
    domain_gpus = 4 * 4 * 4, default_gpus = 512, up_kind = "torus",
    up_link = "ICI (3D torus)",
    up_bytes_per_s = 1200e9 / 2,  -- ICI 1,200 GB/s bidir per chip (Google Cloud) [P]
    up_lat_s = 1e-6,              -- ~1 us per ICI hop (scaling-book tpus.md) [R]
    up_switches = 0, torus = { 4, 4, 4 },
    out_link = "DCN 50 Gb/s per chip",
    out_bytes_per_s = 50e9 / 8,   -- DCN 50 Gb/s per chip (Google Cloud) [P]
    out_lat_s = 10e-6,            -- ~10 us [U]
    oversub = 1,
    gpus_per_leaf = 64,           -- one cube per DCN leaf [U]
    domain_power_w = 0,           -- not published
    cooling = "liquid",
    summary = "TPU v5p: 4x4x4 cubes of 64 chips on a 3D-torus ICI; 50 Gb/s DCN per chip" },
  { id = "ethernet-100g", name = "8 x H100 servers on 100 GbE", gpu_id = "h100-sxm",
    -- same servers as dgx-h100; 100 GbE RoCE per GPU; 2 servers per ToR as in
    -- Meta's RoCE clusters (Llama 3 §3.3.1); BLOOM's nodes had 4 x 100 Gb/s
    domain_gpus = 8, default_gpus = 256, up_kind = "switched",
    up_link = "NVLink 4",
    up_bytes_per_s = 900e9 / 2,   -- NVLink 4: 900 GB/s bidir [R]
    up_lat_s = NVLINK_STEP_LAT_S, up_switches = 4, torus = { 0, 0, 0 },
    out_link = "100 GbE RoCE",
    out_bytes_per_s = 100e9 / 8,  -- 100 Gb/s Ethernet per GPU = 12.5 GB/s
    out_lat_s = NET_STEP_LAT_S, oversub = 1,
    gpus_per_leaf = 2 * 8,        -- 2 servers per ToR (Llama 3 §3.3.1) [P]
    domain_power_w = 10.2e3,      -- an 8 x H100 server [P]
    cooling = "air",
    summary = "8 x H100 servers on NVLink 4, but only 100 Gb/s Ethernet per GPU" },
}

-- Workload presets: the same dimensions as src/model/workload.c (which
-- carries the longer source notes). Batches are global, in sequences.
local workloads = {
  { id = "gpt3-175b", name = "GPT-3 175B",
    source = "Brown et al. 2020 Table 2.1; Megatron SC21 §5.2",
    layers = 96, hidden = 12288, heads = 96, kv_heads = 96, ffn = 4 * 12288,
    swiglu = false, seq = 2048, vocab = 51200,
    global_batch = 1536, micro_batch = 1,
    flash_attention = false, recompute = "full", precision = "bf16" },
  { id = "llama3-8b", name = "Llama 3 8B",
    source = "Llama 3 Herd of Models (Dubey et al. 2024) Table 3",
    layers = 32, hidden = 4096, heads = 32, kv_heads = 8, ffn = 14336,
    swiglu = true, seq = 8192, vocab = 128256,
    global_batch = 512, micro_batch = 1,     -- 4M tokens = 512 x 8192
    flash_attention = true, recompute = "selective", precision = "bf16" },
  { id = "llama3-70b", name = "Llama 3 70B",
    source = "Llama 3 Herd of Models (Dubey et al. 2024) Table 3",
    layers = 80, hidden = 8192, heads = 64, kv_heads = 8, ffn = 28672,
    swiglu = true, seq = 8192, vocab = 128256,
    global_batch = 1024, micro_batch = 1,    -- 8M tokens = 1024 x 8192
    flash_attention = true, recompute = "selective", precision = "bf16" },
  { id = "llama3-405b", name = "Llama 3 405B",
    source = "Llama 3 Herd of Models (Dubey et al. 2024) Table 3, §3.4.1",
    layers = 126, hidden = 16384, heads = 128, kv_heads = 8, ffn = 53248,
    swiglu = true, seq = 8192, vocab = 128256,
    global_batch = 2048, micro_batch = 1,    -- 16M tokens = 2048 x 8192
    flash_attention = true, recompute = "selective", precision = "bf16" },
  { id = "megatron-1t", name = "Megatron GPT 1T",
    source = "Narayanan et al. SC21 Table 1; Megatron-LM examples/sc21",
    layers = 128, hidden = 25600, heads = 160, kv_heads = 160, ffn = 4 * 25600,
    swiglu = false, seq = 2048, vocab = 51200,
    global_batch = 3072, micro_batch = 1,
    flash_attention = false, recompute = "full", precision = "bf16" },
  { id = "deepseek-v3", name = "DeepSeek-V3 (MoE)",
    source = "DeepSeek-V3 Technical Report (2024) §3.3, §4.2",
    layers = 61, hidden = 7168, heads = 128, kv_heads = 128, ffn = 2048,
    swiglu = true, seq = 4096, vocab = 129280, params = 671e9,
    global_batch = 15360, micro_batch = 1,
    experts = 256, topk = 8, shared_experts = 1, moe_layers = 58, dense_ffn = 18432,
    flash_attention = true, recompute = "selective", precision = "fp8" },
}

return { gpus = gpus, systems = systems, workloads = workloads }
