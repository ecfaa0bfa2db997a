-- SPDX-License-Identifier: MIT
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
local GIB = 1024 * 1024 * 1024   -- vendors' "GB" of HBM on A100/H100/TPU is GiB

-- Each entry as in src/model/hw.c, with the same sources.
local gpus = {
  {
    id = "a100-sxm",
    name = "A100 SXM 80GB",
    noun = "GPU",
    bf16_flops = 312e12,            -- NVIDIA A100 datasheet; Narayanan et al. SC21 §5 [P]
    fp8_flops = 0,                  -- Ampere has no FP8 tensor cores
    hbm_bytes = 80 * GIB,           -- "80 GB" HBM2e = 80 GiB (MODEL-FACTS §10) [P]
    hbm_bytes_per_s = 2.039e12,     -- 2,039 GB/s, NVIDIA A100 80GB SXM datasheet [S]
    arch = "ampere",
    sms = 108,                      -- 108 SMs, NVIDIA A100 Tensor Core GPU Architecture whitepaper [P]
    tdp_w = 400,                    -- A100 SXM4 80GB datasheet: 400 W TDP [P]
  },
  {
    id = "h100-sxm",
    name = "H100 SXM",
    noun = "GPU",
    bf16_flops = 1979e12 / 2,       -- 1,979 TFLOPS "with sparsity" / 2 = 989.5 dense (NVIDIA)
    fp8_flops = 3958e12 / 2,        -- 3,958 TFLOPS "with sparsity" / 2 (NVIDIA H100 page)
    hbm_bytes = 80 * GIB,           -- "80 GB" HBM3 = 80 GiB (MODEL-FACTS §10) [P]
    hbm_bytes_per_s = 3.35e12,      -- 3.35 TB/s (scaling-book gpus.md) [R]
    arch = "hopper",
    sms = 132,                      -- 132 SMs, NVIDIA H100 Tensor Core GPU Architecture whitepaper [P]
    tdp_w = 700,                    -- H100 SXM datasheet: up to 700 W [P]
  },
  {
    id = "h800",
    name = "H800 SXM",
    noun = "GPU",
    bf16_flops = 1979e12 / 2,       -- the H100 die with NVLink cut down (DeepSeek-V3 §3) [S]
    fp8_flops = 3958e12 / 2,        -- as H100; DeepSeek-V3 trained in FP8 on it [P]
    hbm_bytes = 80 * GIB,           -- 80 GB HBM3, as H100 [S]
    hbm_bytes_per_s = 3.35e12,      -- as H100 [S]
    arch = "hopper",
    sms = 132,                      -- the H100 SXM5 die configuration [S]
    tdp_w = 700,                    -- as H100 SXM [S]
  },
  {
    id = "h200",
    name = "H200",
    noun = "GPU",
    bf16_flops = 1979e12 / 2,       -- same Hopper die as H100 (scaling-book gpus.md) [R]
    fp8_flops = 3958e12 / 2,        -- same as H100
    hbm_bytes = 141e9,              -- 141 GB HBM3e, MLCommons v4.1 NVIDIA H200 system JSON [P]
    hbm_bytes_per_s = 4.8e12,       -- 4.8 TB/s (scaling-book gpus.md) [R]
    arch = "hopper",
    sms = 132,                      -- the same GH100 configuration as H100 SXM (MODEL-FACTS §11) [S]
    tdp_w = 700,                    -- H200 SXM datasheet: up to 700 W [P]
  },
  {
    id = "h100-pcie",
    name = "H100 PCIe",
    noun = "GPU",
    bf16_flops = 1513e12 / 2,       -- 1,513 TFLOPS "with sparsity" / 2 (NVIDIA H100 datasheet) [P]
    fp8_flops = 3026e12 / 2,        -- 3,026 TFLOPS "with sparsity" / 2 (same) [P]
    hbm_bytes = 80 * GIB,           -- 80 GB HBM2e (NVIDIA H100 PCIe product brief) [P]
    hbm_bytes_per_s = 2.0e12,       -- "greater than 2,000 GBps" (same brief) [P]
    arch = "hopper",
    sms = 114,                      -- 114 SMs, NVIDIA H100 architecture whitepaper (PCIe part) [P]
    tdp_w = 350,                    -- 350 W TDP (H100 PCIe product brief PB-11133) [P]
  },
  {
    id = "h100-nvl",
    name = "H100 NVL",
    noun = "GPU",
    bf16_flops = 1671e12 / 2,       -- 1,671 TFLOPS "with sparsity" / 2 (NVIDIA H100 datasheet) [P]
    fp8_flops = 3341e12 / 2,        -- 3,341 TFLOPS "with sparsity" / 2 (same) [P]
    hbm_bytes = 94e9,               -- 94 GB HBM3 (same) [P]
    hbm_bytes_per_s = 3.9e12,       -- 3.9 TB/s (same) [P]
    arch = "hopper",
    sms = 132,                      -- the full H100 SXM5 configuration (gpu.blog H100 NVL listing) [S]
    tdp_w = 400,                    -- 350-400 W configurable (NVIDIA H100 datasheet) [P]
  },
  {
    id = "h20",
    name = "H20",
    noun = "GPU",
    bf16_flops = 148e12,            -- 148 TFLOPS BF16 dense (296 sparse), press copies of the NVIDIA H20 sheet [S]
    fp8_flops = 296e12,             -- 296 TFLOPS FP8 dense, same [S]
    hbm_bytes = 96e9,               -- 96 GB HBM3, same [S]
    hbm_bytes_per_s = 4.0e12,       -- 4.0 TB/s, same [S]
    arch = "hopper",
    sms = 78,                       -- not published by NVIDIA; 78 in secondary listings [U]
    tdp_w = 400,                    -- 400 W, same [S]
  },
  {
    id = "b200",
    name = "B200",
    noun = "GPU",
    bf16_flops = 2.25e15,           -- 2,250 TFLOP/s dense (scaling-book gpus.md) [R]
    fp8_flops = 4.5e15,             -- 2 x BF16 dense; DGX B200 72 PF FP8 sparse / 8 / 2 [D]
    hbm_bytes = 180e9,              -- 180 GB, MLCommons v6.0 Nebius B200 system JSON [P]
    hbm_bytes_per_s = 7.7e12,       -- 7.7 TB/s for the 180 GB part, NVIDIA DGX B200 RA [R] (the datasheet's 8 TB/s is the 192 GB part)
    arch = "blackwell",
    sms = 148,                      -- 148 SMs enabled, 2 dies x 74 (Chips and Cheese, B200, 2025) [S]
    tdp_w = 1000,                   -- DGX B200: 8 x 1,000 W GPUs (NVIDIA DGX B200 datasheet) [S]
  },
  {
    id = "b300",
    name = "B300 (Blackwell Ultra)",
    noun = "GPU",
    bf16_flops = 2.25e15,           -- 2,250 TF BF16 dense, dgxc-benchmarking B300 RA [R]
    fp8_flops = 4.5e15,             -- 4,500 TF FP8 dense, same [R]
    hbm_bytes = 270e9,              -- 270 GB HBM3e usable, same [R]
    hbm_bytes_per_s = 7.7e12,       -- 7.7 TB/s, same [R]
    arch = "blackwell-ultra",
    sms = 160,                      -- 160 SMs, Blackwell Ultra (NVIDIA technical blog 2025-08) [S]
    tdp_w = 1100,                   -- 1,100 W, dgxc-benchmarking B300 reference architecture [R]
  },
  {
    id = "gb200",
    name = "GB200 (Blackwell, NVL72)",
    noun = "GPU",
    bf16_flops = 2.45e15,           -- 2,450 TF BF16 dense, dgxc-benchmarking peak table [R]
    fp8_flops = 4.9e15,             -- 4,900 TF FP8 dense, same [R]
    hbm_bytes = 186e9,              -- 186 GB usable, MLCommons v6.1 Crusoe GB200 JSON [P]
    hbm_bytes_per_s = 8e12,         -- 8 TB/s, NVIDIA GB200 reference architecture [R]
    arch = "blackwell",
    sms = 148,                      -- as B200 (the same die pair) [S]
    tdp_w = 1200,                   -- 1,200 W per GPU in GB200 NVL72 (press copies of NVIDIA figures) [S]
  },
  {
    id = "gb300",
    name = "GB300 (Blackwell Ultra, NVL72)",
    noun = "GPU",
    bf16_flops = 2.45e15,           -- 2,450 TF BF16 dense, dgxc-benchmarking peak table [R]
    fp8_flops = 4.9e15,             -- 4,900 TF FP8 dense, same [R]
    hbm_bytes = 279e9,              -- 279 GB usable of 288 marketed [R]
    hbm_bytes_per_s = 8e12,         -- 8 TB/s [R]
    arch = "blackwell-ultra",
    sms = 160,                      -- as B300 [S]
    tdp_w = 1400,                   -- 1,400 W per GPU in GB300 NVL72 (press copies of NVIDIA figures) [S]
  },
  {
    id = "rubin",
    name = "Rubin (Vera Rubin NVL72)",
    noun = "GPU",
    bf16_flops = 25e15 / 2 / 2,     -- press only: 25 PF FP8 "sparse" / 2 = 12.5 dense, BF16 half of that (copies of NVIDIA's 2026 material) [S]
    fp8_flops = 25e15 / 2,          -- press only, as above [S]
    hbm_bytes = 288e9,              -- 288 GB HBM4 (NVIDIA "Inside the Rubin Platform") [S]
    hbm_bytes_per_s = 22e12,        -- ~22 TB/s HBM4, CES 2026 material, press only [S]
    arch = "rubin",
    sms = 224,                      -- not published; 224 SMs in press estimates [U]
    tdp_w = 1800,                   -- ~1.8 kW, press estimates [U]
  },
  {
    id = "mi300x",
    name = "AMD Instinct MI300X",
    noun = "GPU",
    bf16_flops = 1307.4e12,         -- 1,307.4 TFLOPS BF16 dense, AMD Instinct MI300X data sheet [P]
    fp8_flops = 2614.9e12,          -- 2,614.9 TFLOPS FP8 dense, same [P]
    hbm_bytes = 192e9,              -- 192 GB HBM3, same [P]
    hbm_bytes_per_s = 5.3e12,       -- 5.3 TB/s, same [P]
    arch = "cdna3",
    sms = 304,                      -- 304 compute units, AMD CDNA 3 architecture whitepaper [P]
    tdp_w = 750,                    -- 750 W, MI300X data sheet [P]
    -- hipBLASLt's dense BF16 GEMM holds a median 1,207 MHz at 750 W, the peaks
    -- quoted at 2,100 MHz (AMD, "Measuring Max-Achievable FLOPs - Part 2") [P]
    dense_clock = 1207.0 / 2100.0,
  },
  {
    id = "mi325x",
    name = "AMD Instinct MI325X",
    noun = "GPU",
    -- the MI300X's CDNA 3 compute with HBM3E and a 1,000 W board (AMD
    -- Instinct MI325X data sheet, as AMD's launch material gives it) [S]
    bf16_flops = 1307.4e12,         -- 1,307.4 TFLOPS BF16 dense [S]
    fp8_flops = 2614.9e12,          -- 2,614.9 TFLOPS FP8 dense [S]
    hbm_bytes = 256e9,              -- 256 GB HBM3E [S]
    hbm_bytes_per_s = 6e12,         -- 6 TB/s [S]
    arch = "cdna3",
    sms = 304,                      -- 304 compute units, as the MI300X [S]
    tdp_w = 1000,                   -- 1,000 W (AMD's MAF measurements name the board) [P]
    -- 1,447 MHz median under hipBLASLt's dense BF16 GEMM at 1,000 W (AMD,
    -- "Measuring Max-Achievable FLOPs - Part 2") [P]
    dense_clock = 1447.0 / 2100.0,
  },
  {
    id = "mi355x",
    name = "AMD Instinct MI355X",
    noun = "GPU",
    bf16_flops = 2.5e15,            -- ~2.5 PF BF16 dense, press only (The Register 2025-06) [S]
    fp8_flops = 5e15,               -- ~5 PF FP8 dense, press only [S]
    hbm_bytes = 288e9,              -- 288 GB HBM3E [S]
    hbm_bytes_per_s = 8e12,         -- 8 TB/s [S]
    arch = "cdna4",
    sms = 256,                      -- 256 compute units (AMD CDNA 4 launch material, via The Register) [S]
    tdp_w = 1400,                   -- 1.4 kW (The Register 2025-06-12) [S]
  },
  {
    id = "mi455x",
    name = "AMD Instinct MI455X (Helios)",
    noun = "GPU",
    bf16_flops = 20e15 / 2,         -- press only: ~20 PF FP8 per GPU; BF16 taken as half [S][D]
    fp8_flops = 20e15,              -- ~20 PF FP8, press only (The Register 2025-06) [S]
    hbm_bytes = 432e9,              -- 432 GB HBM4, press only [S]
    hbm_bytes_per_s = 19.6e12,      -- 19.6 TB/s, press only [S]
    arch = "cdna5",
    sms = 320,                      -- not published [U]
    tdp_w = 0,                      -- not published
  },
  {
    id = "tpu-v5p",
    name = "TPU v5p",
    noun = "chip",
    bf16_flops = 459e12,            -- Google Cloud TPU v5p system architecture [P]
    fp8_flops = 459e12,             -- FP8 459 TFLOPs: the same rate as BF16 (same table) [P]
    hbm_bytes = 95 * GIB,           -- 95 GiB HBM2e (Google Cloud TPU v5p) [P]
    hbm_bytes_per_s = 2.765e12,     -- 2,765 GB/s (Google Cloud TPU v5p) [P]
    arch = "tpu-v5p",
    sms = 8,                        -- 2 TensorCores x 4 MXUs of 128 x 128 (Google Cloud TPU v5p docs) [P]
    tdp_w = 0,                      -- not published
  },
  {
    id = "tpu-v6e",
    name = "TPU v6e (Trillium)",
    noun = "chip",
    bf16_flops = 918e12,            -- 918 TFLOPs BF16, Google Cloud TPU v6e docs [P]
    fp8_flops = 918e12,             -- FP8 918, TPU7x docs' comparison table [P]
    hbm_bytes = 32 * GIB,           -- 32 GiB (TPU7x docs' comparison table) [P]
    hbm_bytes_per_s = 1638e9,       -- 1,638 GB/s (Google Cloud TPU v6e docs) [P]
    arch = "tpu-v6e",
    sms = 4,                        -- 1 TensorCore; 4 MXUs of 256 x 256 makes 918 TF at ~1.75 GHz [D][U]
    tdp_w = 0,                      -- not published
  },
  {
    id = "tpu7x",
    name = "TPU7x (Ironwood)",
    noun = "chip",
    bf16_flops = 2307e12,           -- 2,307 TFLOPs BF16, Google Cloud TPU7x docs [P]
    fp8_flops = 4614e12,            -- 4,614 TFLOPs FP8, same [P]
    hbm_bytes = 192 * GIB,          -- 192 GiB, same [P]
    hbm_bytes_per_s = 7.37e12,      -- ~7.4 TB/s, Google Cloud TPU7x docs / Google blog [P]
    arch = "tpu7x",
    sms = 8,                        -- 2 TensorCores; 8 MXUs of 256 x 256 makes 2,307 TF at ~2.2 GHz [D][U]
    tdp_w = 0,                      -- not published
  },
  {
    id = "trn2",
    name = "AWS Trainium2",
    noun = "chip",
    bf16_flops = 667e12,            -- 667 BF16 TFLOPS dense, aws-neuron-sdk trainium2 docs [R]
    fp8_flops = 1299e12,            -- 1,299 FP8 TFLOPS dense, same [R]
    hbm_bytes = 96 * GIB,           -- 96 GiB, aws-neuron-sdk Trainium2 NKI guide [R]
    hbm_bytes_per_s = 2.9e12,       -- 2.9 TB/s, same [R]
    arch = "trainium2",
    sms = 8,                        -- 8 NeuronCore-v3, one 128 x 128 tensor engine each (aws-neuron-sdk trainium2 docs) [R]
    tdp_w = 0,                      -- not published
  },
}

local systems = {
  {
    id = "dgx-a100",
    name = "DGX A100",
    gpu_id = "a100-sxm",
    domain_gpus = 8,                -- 8 GPUs on 6 NVSwitch gen2 (scaling-book gpus.md) [R]
    default_gpus = 64,              -- the 64-GPU experiments of SC21 §5.4
    up_kind = "switched",
    up_link = "NVLink 3",
    up_bytes_per_s = 600e9 / 2,     -- NVLink 3: 600 GB/s bidir = 12 links x 25 GB/s/dir [R]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 6,
    torus = { 0, 0, 0 },
    out_link = "HDR InfiniBand 200 Gb/s",
    out_bytes_per_s = 200e9 / 8,    -- 8 x 200 Gb/s HDR per node, one per GPU (SC21 §5) [P]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,                    -- Selene: full fat tree, 3 levels (SC21 §5) [P]
    gpus_per_leaf = 40 / 2,         -- 40-port HDR leaf (Quantum QM8790), half down at 1:1
    domain_power_w = 6.5e3,         -- DGX A100 datasheet: 6.5 kW max [P]
    host_link = "PCIe Gen4 x16",
    host_bytes_per_s = 32e9,        -- 16 GT/s x 16 lanes ~ 32 GB/s each way (PCIe 4.0 spec) [D]
    host_mem_bytes = 1024e9 / 8,    -- 1 TB per DGX A100 (datasheet) over 8 GPUs [P]
    cooling = "air",
    summary = "8 x A100 per server on NVLink 3; one 200 Gb/s HDR NIC per GPU (Selene)",
  },
  {
    id = "dgx-h100",
    name = "DGX H100",
    gpu_id = "h100-sxm",
    domain_gpus = 8,                -- 8 GPUs on 4 NVSwitch gen3 (scaling-book gpus.md) [R]
    default_gpus = 256,             -- one SuperPOD scalable unit: 32 nodes (scaling book)
    up_kind = "switched",
    up_link = "NVLink 4",
    up_bytes_per_s = 900e9 / 2,     -- NVLink 4: 900 GB/s bidir = 18 links x 25 GB/s/dir [R]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 4,
    torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,    -- 8 x 400 Gb/s CX-7 per node (scaling-book gpus.md) [R]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,                    -- SuperPOD reference: full bisection fat tree [R]
    gpus_per_leaf = 64 / 2,         -- 64-port NDR leaf (QM9700): 8 leaves per 256 GPUs [R]
    rail_optimized = true,          -- NVIDIA DGX SuperPOD RA (DGX H100), compute fabric: SU of 32 nodes, 8 leaves, HCA i of every node on leaf i [R]
    domain_power_w = 10.2e3,        -- DGX H100 datasheet: ~10.2 kW max [P]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- 32 GT/s x 16 lanes ~ 64 GB/s each way (PCIe 5.0 spec) [D]
    host_mem_bytes = 2048e9 / 8,    -- 2 TB per DGX H100 (datasheet) over 8 GPUs [P]
    cooling = "air",
    summary = "8 x H100 per server on NVLink 4; one 400 Gb/s NDR NIC per GPU",
  },
  {
    id = "hgx-h200",
    name = "HGX H200",
    gpu_id = "h200",
    domain_gpus = 8,                -- "18x 4th Gen NVLink, 900GB/s", 8 GPUs (MLCommons) [P]
    default_gpus = 256,
    up_kind = "switched",
    up_link = "NVLink 4",
    up_bytes_per_s = 900e9 / 2,     -- NVLink 4: 900 GB/s bidir (MLCommons H200 JSON) [P]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 4,
    torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,    -- CX-7 400 Gb/s per GPU (MLCommons H200 JSON) [P]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 64 / 2,         -- 64-port NDR leaf, half down
    rail_optimized = true,          -- NVIDIA Enterprise RA, HGX H100/H200/B200: GPUs "connected using a rail-optimized network topology" [R]
    domain_power_w = 10.2e3,        -- DGX H200 datasheet: ~10.2 kW max [P]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- 32 GT/s x 16 lanes ~ 64 GB/s each way (PCIe 5.0 spec) [D]
    host_mem_bytes = 2048e9 / 8,    -- 2 TB per DGX H200 (datasheet) over 8 GPUs [P]
    cooling = "air",
    summary = "8 x H200 (141 GB) per server on NVLink 4; 400 Gb/s NDR per GPU",
  },
  {
    id = "dgx-b200",
    name = "DGX B200",
    gpu_id = "b200",
    domain_gpus = 8,                -- 8 GPUs on 2 NVSwitch chips (scaling-book gpus.md) [R]
    default_gpus = 256,
    up_kind = "switched",
    up_link = "NVLink 5",
    up_bytes_per_s = 1.8e12 / 2,    -- NVLink 5: 1.8 TB/s bidir; 14.4 TB/s per 8-GPU board [R]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 2,
    torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,    -- "8x ConnectX-7 IB NDR 400Gb/s" (MLCommons Nebius) [P]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 64 / 2,         -- 64-port NDR leaf, half down
    rail_optimized = true,          -- NVIDIA DGX SuperPOD RA (DGX B200): 2 SUs = 64 nodes on 16 leaves, HCA i of every node on leaf i of its SU [R]
    domain_power_w = 14.3e3,        -- DGX B200 datasheet: ~14.3 kW max [P]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- 32 GT/s x 16 lanes ~ 64 GB/s each way (PCIe 5.0 spec) [D]
    host_mem_bytes = 2048e9 / 8,    -- 2 TB per DGX B200 (datasheet, 4 TB optional) over 8 [P]
    cooling = "air",
    summary = "8 x B200 per server on NVLink 5; 400 Gb/s NDR per GPU",
  },
  {
    id = "gb200-nvl72",
    name = "GB200 NVL72",
    gpu_id = "gb200",
    domain_gpus = 72,               -- 72 GPUs, 18 NVSwitch chips in 9 trays [R]
    default_gpus = 576,             -- 8 racks: the 576-GPU SuperPOD (scaling book App. A)
    up_kind = "switched",
    up_link = "NVLink 5",
    up_bytes_per_s = 1.8e12 / 2,    -- 1.8 TB/s bidir per GPU; 72 x 1.8 = 130 TB/s rack [R]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 18,
    torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,    -- one CX-7 400 Gb/s per GPU (MLCommons v6.1 Crusoe) [P]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 64 / 2,         -- 64-port NDR leaf, half down
    rail_optimized = false,         -- the NVL72 RAs cable rails too, but scalelab's rail rule (GPU i of each domain on leaf i) needs a domain no larger than a leaf's GPU ports: 72 > 32 (cluster.h)
    domain_power_w = 120e3,         -- ~120 kW per rack (introl.com GB200 NVL72 guide) [S]
    host_link = "NVLink-C2C",
    host_bytes_per_s = 900e9 / 2 /
            2, -- 900 GB/s bidir per Grace, shared by its 2 GPUs (NVIDIA GB200 page) [P][D]
    host_mem_bytes = 480e9 / 2,     -- 480 GB LPDDR5X per Grace, 2 GPUs each (NVIDIA GB200 page) [P]
    cooling = "liquid",
    summary = "72 GPUs in one NVLink 5 rack (130 TB/s); 400 Gb/s NDR per GPU; ~120 kW",
  },
  {
    id = "gb300-nvl72",
    name = "GB300 NVL72",
    gpu_id = "gb300",
    domain_gpus = 72,               -- 72 Blackwell Ultra GPUs, one NVLink 5 domain [R]
    default_gpus = 576,
    up_kind = "switched",
    up_link = "NVLink 5",
    up_bytes_per_s = 1.8e12 / 2,    -- 1.8 TB/s bidir per GPU; 130 TB/s per rack [R]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 18,
    torus = { 0, 0, 0 },
    out_link = "ConnectX-8 XDR InfiniBand 800 Gb/s",
    out_bytes_per_s = 800e9 / 8,    -- one ConnectX-8 800 Gb/s per GPU (NVIDIA NVL72 RA) [P]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 144 / 2,        -- 144-port 800G Quantum-X800 leaf, half down
    domain_power_w = 132e3,         -- 132 kW rack power shelves (Supermicro via introl) [S]
    host_link = "NVLink-C2C",
    host_bytes_per_s = 900e9 / 2 /
            2, -- 900 GB/s bidir per Grace, shared by its 2 GPUs (NVIDIA GB200 page) [P][D]
    host_mem_bytes = 480e9 / 2,     -- as GB200: 480 GB per Grace, 2 GPUs each [S]
    cooling = "liquid",
    summary = "72 GPUs in one NVLink 5 rack (130 TB/s); 800 Gb/s CX-8 per GPU; ~132 kW",
  },
  {
    -- The domain is a whole slice: a v5p slice is built of 4x4x4 cubes (copper ICI inside a cube) that optical circuit switches join into one 3D torus carrying ICI, up to 16x16x24 = 6,144 chips (96 cubes). DCN joins slices only (Multislice, up to 18,432 chips).
    id = "tpu-v5p",
    name = "TPU v5p pod slice",
    gpu_id = "tpu-v5p",
    domain_gpus = 16 * 16 * 24,     -- largest slice, 96 cubes (Google Cloud TPU v5p) [P]
    default_gpus = 16 * 16 * 24,    -- one full slice
    up_kind = "torus",
    up_link = "ICI (3D torus, OCS)",
    up_bytes_per_s = 1200e9 / 2,    -- ICI 1,200 GB/s bidir per chip (Google Cloud v5p) [P]
    up_lat_s = 1e-6,                -- ~1 us per ICI hop (scaling-book tpus.md) [R]
    up_switches = 0,
    torus = { 16, 16, 24 },         -- the 6,144-chip slice shape (Google Cloud TPU v5p) [P]
    out_link = "DCN 50 Gb/s per chip",
    out_bytes_per_s = 50e9 / 8,     -- DCN 50 Gb/s per chip, between slices only [P]
    out_lat_s = 10e-6,              -- data-center network step, ~10 us [U]
    oversub = 1,
    gpus_per_leaf = 16 * 16 * 24,   -- one slice per DCN leaf [U]
    domain_power_w = 0,             -- not published
    host_link = "host PCIe (VM)",
    host_bytes_per_s = 32e9,        -- the host path per chip is not published [U]
    host_mem_bytes = 448e9 / 4,     -- 448 GB per 4-chip ct5p host VM (Google Cloud machine types) [S]
    cooling = "liquid",
    summary = "TPU v5p: up to 6,144 chips in one ICI slice (OCS-joined cubes); DCN between",
  },
  {
    -- A plain Ethernet cluster, a counterfactual: the same 8 x H100 servers, but one 100 GbE RoCE NIC per GPU instead of 400 Gb/s (Meta's Llama 3 RoCE clusters ran 400 Gb/s per GPU), two servers under one top-of-rack switch as in those clusters (Llama 3 paper §3.3.1). Low-bandwidth scale-outs are real: BLOOM trained on nodes of 8 A100 with 4 x 100 Gb/s Omni-Path each (BLOOM paper §3.4.1).
    id = "ethernet-100g",
    name = "8 x H100 servers on 100 GbE",
    gpu_id = "h100-sxm",
    domain_gpus = 8,
    default_gpus = 256,
    up_kind = "switched",
    up_link = "NVLink 4",
    up_bytes_per_s = 900e9 / 2,     -- NVLink 4: 900 GB/s bidir (HGX H100 board) [R]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 4,
    torus = { 0, 0, 0 },
    out_link = "100 GbE RoCE",
    out_bytes_per_s = 100e9 / 8,    -- 100 Gb/s Ethernet per GPU = 12.5 GB/s (counterfactual)
    out_lat_s = NET_STEP_LAT_S,     -- NCCL's tuner uses the same step for IB and RoCE
    oversub = 1,
    gpus_per_leaf = 2 * 8,          -- 2 servers per ToR (Llama 3 §3.3.1) [P]
    domain_power_w = 10.2e3,        -- an 8 x H100 server, as DGX H100 [P]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- 32 GT/s x 16 lanes ~ 64 GB/s each way (PCIe 5.0 spec) [D]
    host_mem_bytes = 2048e9 / 8,    -- as DGX H100 [P]
    cooling = "air",
    summary = "8 x H100 servers on NVLink 4, but only 100 Gb/s Ethernet per GPU",
  },
  {
    id = "dgx-h800",
    name = "HGX H800 (DeepSeek-V3)",
    gpu_id = "h800",
    domain_gpus = 8,                -- 8 GPUs on NVLink + NVSwitch (DeepSeek-V3 §3.1) [P]
    default_gpus = 2048,            -- DeepSeek-V3's cluster: 2,048 H800 (§3.1) [P]
    up_kind = "switched",
    up_link = "NVLink 4, export-limited",
    up_bytes_per_s = 400e9 / 2,     -- 400 GB/s bidir spec [S]; DeepSeek measured ~160 GB/s usable (§3.2.2) [P]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 4,
    torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,    -- IB 400 Gb/s = 50 GB/s per GPU (DeepSeek-V3 §3.2.2) [P]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,                    -- fully connected IB fat tree (DeepSeek-V3 §3.1) [P]
    gpus_per_leaf = 64 / 2,
    domain_power_w = 10.2e3,        -- an 8 x Hopper server, as DGX H100 [S]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- 32 GT/s x 16 lanes ~ 64 GB/s each way (PCIe 5.0 spec) [D]
    host_mem_bytes = 2048e9 / 8,    -- not published; as DGX H100 [U]
    cooling = "air",
    summary = "8 x H800 per server: NVLink cut to 400 GB/s; 400 Gb/s IB per GPU",
  },
  {
    id = "dgx-b300",
    name = "DGX B300",
    gpu_id = "b300",
    domain_gpus = 8,                -- 8 GPUs, dgxc-benchmarking B300 reference arch. [R]
    default_gpus = 256,
    up_kind = "switched",
    up_link = "NVLink 5",
    up_bytes_per_s = 1.8e12 / 2,    -- NVLink 5: 1.8 TB/s bidir = 900 GB/s per dir [R]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 2,
    torus = { 0, 0, 0 },
    out_link = "ConnectX-8 800 Gb/s",
    out_bytes_per_s = 800e9 / 8,    -- 8 x 800 Gb/s per node, one per GPU (B300 RA) [R]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 144 / 2,        -- 144-port 800G Quantum-X800 leaf, half down
    domain_power_w = 8 * 1100.0 * 1.6, -- 8 x 1,100 W GPUs [R] x ~1.6 for the host [U]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- 32 GT/s x 16 lanes ~ 64 GB/s each way (PCIe 5.0 spec) [D]
    host_mem_bytes = 2048e9 / 8,    -- 2 TB per DGX B300 over 8 GPUs [S]
    cooling = "air",
    summary = "8 x B300 per server on NVLink 5; 800 Gb/s ConnectX-8 per GPU",
  },
  {
    id = "vera-rubin-nvl72",
    name = "Vera Rubin NVL72",
    gpu_id = "rubin",
    domain_gpus = 72,               -- 72 Rubin packages (announced "NVL144" counting dies) [S]
    default_gpus = 576,
    up_kind = "switched",
    up_link = "NVLink 6",
    up_bytes_per_s = 3.6e12 / 2,    -- NVLink 6: 3.6 TB/s bidir per GPU, 260 TB/s per rack, press only (NVIDIA blog 2026-01 via copies) [S]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 36,               -- 9 NVLink 6 switch trays [S] x 4 chips each [U]
    torus = { 0, 0, 0 },
    out_link = "ConnectX-9 2 x 800 Gb/s",
    out_bytes_per_s = 1600e9 / 8,   -- ConnectX-9, 1.6 Tb/s per GPU, press only [S]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 144 / 4,        -- 144-port 800G leaf, 2 ports per GPU, half down [U]
    domain_power_w = 190e3,         -- ~190-230 kW per rack, press only [S]
    host_link = "NVLink-C2C",
    host_bytes_per_s = 1.8e12 / 2 / 2, -- 1.8 TB/s bidir C2C per Vera, 2 GPUs each, press only [S][D]
    host_mem_bytes = 1.5e12 / 2,    -- 1.5 TB LPDDR5X per Vera, press only [S]
    cooling = "liquid",
    summary = "72 Rubin GPUs on NVLink 6 (260 TB/s); 1.6 Tb/s per GPU (press figures)",
  },
  {
    id = "mi355x",
    name = "AMD MI355X platform",
    gpu_id = "mi355x",
    domain_gpus = 8,                -- 8 GPUs on Infinity Fabric (The Register 2025-06) [S]
    default_gpus = 256,
    up_kind = "switched",           -- a full mesh of direct links, one hop like a switch
    up_link = "Infinity Fabric",
    up_bytes_per_s = 7 * 153.6e9 / 2, -- 7 links x 153.6 GB/s (both ways), press only [S]
    up_lat_s = NVLINK_STEP_LAT_S,   -- not published; NVLink's step assumed [U]
    up_switches = 0,
    torus = { 0, 0, 0 },
    out_link = "400 Gb/s RDMA NIC",
    out_bytes_per_s = 400e9 / 8,    -- 400 Gb/s class per GPU (MLPerf system JSON) [S]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 64 / 2,
    domain_power_w = 8 * 1400.0 * 1.5, -- 8 x 1.4 kW GPUs [S] x ~1.5 for the host [U]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- 32 GT/s x 16 lanes ~ 64 GB/s each way (PCIe 5.0 spec) [D]
    host_mem_bytes = 3072e9 / 8,    -- not published; 3 TB per 8-GPU node assumed [U]
    cooling = "liquid",
    summary = "8 x AMD MI355X on Infinity Fabric; 400 Gb/s per GPU (press figures)",
  },
  {
    id = "amd-helios",
    name = "AMD Helios rack",
    gpu_id = "mi455x",
    domain_gpus = 72,               -- 72 x MI455X in one scale-up domain, press only [S]
    default_gpus = 576,
    up_kind = "switched",
    up_link = "UALink over Ethernet",
    up_bytes_per_s = 3.6e12 / 2,    -- 3.6 TB/s bidir per GPU, press only [S]
    up_lat_s = NVLINK_STEP_LAT_S,   -- not published; NVLink's step assumed [U]
    up_switches = 0,                -- not published
    torus = { 0, 0, 0 },
    out_link = "Pensando Vulcano Ultra Ethernet",
    out_bytes_per_s = 300e9,        -- 300 GB/s scale-out per GPU, press only [S]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 64 / 2,         -- [U]
    domain_power_w = 0,             -- not published
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- 32 GT/s x 16 lanes ~ 64 GB/s each way (PCIe 5.0 spec) [D]
    host_mem_bytes = 0,             -- not published
    cooling = "liquid",
    summary = "72 AMD MI455X in one UALink-over-Ethernet rack (press figures)",
  },
  {
    id = "tpu-v6e",
    name = "TPU v6e (Trillium) pod",
    gpu_id = "tpu-v6e",
    domain_gpus = 256,              -- pod = 256 chips, 2D torus (Google Cloud TPU v6e) [P]
    default_gpus = 256,
    up_kind = "torus",
    up_link = "ICI (2D torus)",
    up_bytes_per_s = 800e9 / 2,     -- ICI 800 GB/s bidir per chip (Google Cloud v6e) [P]
    up_lat_s = 1e-6,                -- ~1 us per ICI hop (scaling-book tpus.md) [R]
    up_switches = 0,
    torus = { 16, 16, 1 },          -- 16x16, the full-pod shape (Google Cloud v6e) [P]
    out_link = "DCN 100 Gb/s per chip",
    out_bytes_per_s = 100e9 / 8,    -- DCN per chip not published; 100 Gb/s assumed [U]
    out_lat_s = 10e-6,              -- ~10 us [U]
    oversub = 1,
    gpus_per_leaf = 256,            -- [U]
    domain_power_w = 0,             -- not published
    host_link = "host PCIe (VM)",
    host_bytes_per_s = 32e9,        -- not published [U]
    host_mem_bytes = 1440e9 / 8,    -- 1,440 GB per 8-chip ct6e host VM (Google Cloud machine types) [S]
    cooling = "liquid",
    summary = "TPU v6e: 256 chips in one 2D-torus ICI pod; DCN between pods",
  },
  {
    id = "tpu7x",
    name = "TPU7x (Ironwood) pod",
    gpu_id = "tpu7x",
    domain_gpus = 9216,             -- 9,216-chip pod, one ICI domain (Google Cloud TPU7x) [P]
    default_gpus = 9216,
    up_kind = "torus",
    up_link = "ICI (3D torus, OCS)",
    up_bytes_per_s = 1.2e12 / 2,    -- ICI 1.2 TB/s bidir per chip (Google blog 2025-04) [P]
    up_lat_s = 1e-6,                -- ~1 us per ICI hop, as v5p [U]
    up_switches = 0,
    torus = { 16, 24, 24 },         -- 144 cubes of 4x4x4 in a 3D torus [D]
    out_link = "DCN 100 Gb/s per chip",
    out_bytes_per_s = 100e9 / 8,    -- DCN per chip not published; 100 Gb/s assumed [U]
    out_lat_s = 10e-6,              -- ~10 us [U]
    oversub = 1,
    gpus_per_leaf = 9216,           -- [U]
    domain_power_w = 0,             -- not published
    host_link = "host PCIe (VM)",
    host_bytes_per_s = 32e9,        -- not published [U]
    host_mem_bytes = 0,             -- not published
    cooling = "liquid",
    summary = "TPU7x Ironwood: 9,216 chips in one ICI pod; DCN between pods",
  },
  {
    id = "trn2-ultraserver",
    name = "AWS Trn2 UltraServer",
    gpu_id = "trn2",
    domain_gpus = 64,               -- 4 Trn2 instances x 16 chips on NeuronLink [R]
    default_gpus = 256,
    up_kind = "torus",
    up_link = "NeuronLink-v3",
    up_bytes_per_s = 1.28e12 / 2,   -- 1.28 TB/s per chip, taken as both directions [R][U]
    up_lat_s = 1e-6,                -- not published; ICI-like 1 us assumed [U]
    up_switches = 0,
    torus = { 4, 4, 4 },            -- a 4x4 torus per instance, 4 instances [R][D]
    out_link = "EFAv3 200 Gb/s per chip",
    out_bytes_per_s = 3.2e12 / 8 / 16, -- 3.2 Tb/s EFAv3 per 16-chip instance [R]
    out_lat_s = 10e-6,              -- EFA step, not published [U]
    oversub = 1,
    gpus_per_leaf = 64,             -- [U]
    domain_power_w = 0,             -- not published
    host_link = "PCIe Gen5",
    host_bytes_per_s = 64e9,        -- not published per chip [U]
    host_mem_bytes = 2048e9 / 16,   -- 2 TiB per 16-chip trn2.48xlarge (AWS instance page) [R]
    cooling = "air",
    summary = "AWS Trn2 UltraServer: 64 Trainium2 on NeuronLink; 200 Gb/s EFA per chip",
  },
  {
    id = "hgx-h20",
    name = "HGX H20",
    gpu_id = "h20",
    domain_gpus = 8,                -- 8 GPUs on NVLink 4 (press copies of the NVIDIA H20 sheet) [S]
    default_gpus = 256,
    up_kind = "switched",
    up_link = "NVLink 4",
    up_bytes_per_s = 900e9 / 2,     -- NVLink 900 GB/s bidir, same [S]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 4,
    torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,    -- 400 Gb/s per GPU, as HGX H100 [U]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 64 / 2,
    rail_optimized = true,          -- as HGX H100 [U]
    domain_power_w = 8 * 400.0 * 2, -- 8 x 400 W GPUs [S] x ~2 for the host [U]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- PCIe 5.0 x16 [D]
    host_mem_bytes = 2048e9 / 8,    -- not published; as DGX H100 [U]
    cooling = "air",
    summary = "8 x H20 (export Hopper, 148 TF) per server on NVLink 4; 400 Gb/s per GPU",
  },
  {
    -- PCIe cards joined in pairs by NVLink bridges: the scale-up domain is the pair; everything else crosses PCIe and the NIC.
    id = "pcie-h100",
    name = "8 x H100 PCIe server",
    gpu_id = "h100-pcie",
    domain_gpus = 2,                -- NVLink bridge joins 2 cards (H100 PCIe product brief) [P]
    default_gpus = 64,
    up_kind = "switched",
    up_link = "NVLink bridge",
    up_bytes_per_s = 600e9 / 2,     -- 600 GB/s bidir bridge (same brief) [P]
    up_lat_s = NVLINK_STEP_LAT_S,
    up_switches = 0,
    torus = { 0, 0, 0 },
    out_link = "ConnectX-7 NDR 400 Gb/s",
    out_bytes_per_s = 400e9 / 8,    -- one 400 Gb/s NIC per GPU assumed [U]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 64 / 2,
    domain_power_w = 2 * 350.0 * 2, -- 2 x 350 W cards [P] x ~2 for their share of host [U]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- PCIe 5.0 x16 [D]
    host_mem_bytes = 1024e9 / 8,    -- not published; 1 TB per 8-card server assumed [U]
    cooling = "air",
    summary = "H100 PCIe cards, NVLink-bridged in pairs; 400 Gb/s per GPU",
  },
  {
    id = "mi300x",
    name = "AMD MI300X platform",
    gpu_id = "mi300x",
    domain_gpus = 8,                -- 8 GPUs, fully connected Infinity Fabric (AMD MI300X platform) [P]
    default_gpus = 256,
    up_kind = "switched",           -- a full mesh of direct links, one hop like a switch
    up_link = "Infinity Fabric",
    up_bytes_per_s = 7 * 64e9,      -- 7 links x 64 GB/s each way (896 GB/s bidir, AMD) [P]
    up_lat_s = NVLINK_STEP_LAT_S,   -- not published; NVLink's step assumed [U]
    up_switches = 0,
    torus = { 0, 0, 0 },
    out_link = "400 Gb/s RDMA NIC",
    out_bytes_per_s = 400e9 / 8,    -- 400 Gb/s per GPU (AMD MI300X platform RA) [S]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 64 / 2,
    domain_power_w = 8 * 750.0 * 1.6, -- 8 x 750 W GPUs [P] x ~1.6 for the host [U]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- PCIe 5.0 x16 [D]
    host_mem_bytes = 2048e9 / 8,    -- not published; 2 TB per node assumed [U]
    cooling = "air",
    summary = "8 x AMD MI300X (192 GB) on Infinity Fabric; 400 Gb/s per GPU",
  },
  {
    id = "mi325x",
    name = "AMD MI325X platform",
    gpu_id = "mi325x",
    domain_gpus = 8,                -- 8 GPUs on the MI300X platform's board, which the MI325X drops into [S]
    default_gpus = 256,
    up_kind = "switched",           -- a full mesh of direct links, one hop like a switch
    up_link = "Infinity Fabric",
    up_bytes_per_s = 7 * 64e9,      -- 7 links x 64 GB/s each way (896 GB/s bidir, AMD) [P]
    up_lat_s = NVLINK_STEP_LAT_S,   -- not published; NVLink's step assumed [U]
    up_switches = 0,
    torus = { 0, 0, 0 },
    out_link = "400 Gb/s RDMA NIC",
    out_bytes_per_s = 400e9 / 8,    -- 400 Gb/s per GPU, as the MI300X platform RA [S]
    out_lat_s = NET_STEP_LAT_S,
    oversub = 1,
    gpus_per_leaf = 64 / 2,
    domain_power_w = 8 * 1000.0 * 1.6, -- 8 x 1,000 W GPUs [P] x ~1.6 for the host [U]
    host_link = "PCIe Gen5 x16",
    host_bytes_per_s = 64e9,        -- PCIe 5.0 x16 [D]
    host_mem_bytes = 2048e9 / 8,    -- not published; 2 TB per node assumed [U]
    cooling = "air",
    summary = "8 x AMD MI325X (256 GB) on Infinity Fabric; 400 Gb/s per GPU",
  },
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
    head_dim = 192, v_head_dim = 128, q_lora = 1536, kv_lora = 512,  -- MLA (§2.1.1, §4.2)
    swiglu = true, seq = 4096, vocab = 129280, params = 671e9,
    global_batch = 15360, micro_batch = 1,
    experts = 256, topk = 8, shared_experts = 1, moe_layers = 58, dense_ffn = 18432,
    flash_attention = true, recompute = "selective", precision = "fp8" },
}

return { gpus = gpus, systems = systems, workloads = workloads }
