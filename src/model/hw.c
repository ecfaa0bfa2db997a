/* hw — the compiled-in hardware presets: accelerators and whole systems.
 *
 * Every bandwidth is per GPU and per direction in bytes/s (hw.h). Vendor
 * figures are converted in the table itself so the arithmetic stays visible:
 * NVLink is quoted as both directions added, so it is halved; NICs are quoted
 * per direction in bits, so they are divided by 8. The same figures, with the
 * same arithmetic, are in assets/presets.lua; tests/unit/test_hw.c loads that
 * file and checks both agree field by field. Source tags as in
 * MODEL-FACTS.md: [P] primary, [R] the builders' own repository or docs,
 * [S] secondary, [D] derived here, [U] uncertain.
 *
 * Pure data: no I/O, no allocation. Depends on nothing but libc.
 */
#include "model/hw.h"

#include <string.h>

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const GpuSpec gpus[] = {
    {
        .id = "a100-sxm",
        .name = "A100 SXM 80GB",
        .bf16_flops = 312e12,        /* NVIDIA A100 datasheet; Narayanan et al. SC21 §5 [P] */
        .fp8_flops = 0,              /* Ampere has no FP8 tensor cores */
        .hbm_bytes = 80e9,           /* 80 GB HBM2e (scaling-book gpus.md) [R] */
        .hbm_bytes_per_s = 2.039e12, /* 2,039 GB/s, NVIDIA A100 80GB SXM datasheet [S] */
    },
    {
        .id = "h100-sxm",
        .name = "H100 SXM",
        .bf16_flops = 1979e12 / 2,   /* 1,979 TFLOPS "with sparsity" / 2 = 989.5 dense (NVIDIA) */
        .fp8_flops = 3958e12 / 2,    /* 3,958 TFLOPS "with sparsity" / 2 (NVIDIA H100 page) */
        .hbm_bytes = 80e9,           /* 80 GB HBM3 (scaling-book gpus.md) [R] */
        .hbm_bytes_per_s = 3.35e12,  /* 3.35 TB/s (scaling-book gpus.md) [R] */
    },
    {
        .id = "h200",
        .name = "H200",
        .bf16_flops = 1979e12 / 2,   /* same Hopper die as H100 (scaling-book gpus.md) [R] */
        .fp8_flops = 3958e12 / 2,    /* same as H100 */
        .hbm_bytes = 141e9,          /* 141 GB HBM3e, MLCommons v4.1 NVIDIA H200 system JSON [P] */
        .hbm_bytes_per_s = 4.8e12,   /* 4.8 TB/s (scaling-book gpus.md) [R] */
    },
    {
        .id = "b200",
        .name = "B200",
        .bf16_flops = 2.25e15,       /* 2,250 TFLOP/s dense (scaling-book gpus.md) [R] */
        .fp8_flops = 4.5e15,         /* 2 x BF16 dense; DGX B200 72 PF FP8 sparse / 8 / 2 [D] */
        .hbm_bytes = 180e9,          /* 180 GB, MLCommons v6.0 Nebius B200 system JSON [P] */
        .hbm_bytes_per_s = 8e12,     /* 8 TB/s (scaling-book gpus.md) [R] */
    },
    {
        .id = "gb200",
        .name = "GB200 (Blackwell, NVL72)",
        .bf16_flops = 360e15 / 72 / 2, /* rack 360 PF BF16 "with sparsity" / 72 GPUs / 2 [U] */
        .fp8_flops = 720e15 / 72 / 2,  /* rack 720 PF FP8 "with sparsity" / 72 / 2 [U] */
        .hbm_bytes = 186e9,          /* 186 GB usable, MLCommons v6.1 Crusoe GB200 JSON [P] */
        .hbm_bytes_per_s = 576e12 / 72, /* rack 576 TB/s HBM / 72 = 8 TB/s [S][D] */
    },
    {
        .id = "gb300",
        .name = "GB300 (Blackwell Ultra, NVL72)",
        .bf16_flops = 180e15 / 72,   /* rack 180 PF BF16 dense / 72 = 2.5 PF (verda.com) [S] */
        .fp8_flops = 360e15 / 72,    /* rack 360 PF FP8 dense / 72 = 5 PF [U] */
        .hbm_bytes = 279e9,          /* 279 GB usable of 288 marketed (verda.com) [S] */
        .hbm_bytes_per_s = 576e12 / 72, /* rack 576 TB/s / 72 = 8 TB/s (verda.com) [S] */
    },
    {
        .id = "tpu-v5p",
        .name = "TPU v5p",
        .bf16_flops = 459e12,        /* Google Cloud TPU v5p system architecture [P] */
        .fp8_flops = 0,              /* v5p offers INT8, not FP8 */
        .hbm_bytes = 95e9,           /* 95 GB HBM2e (Google Cloud TPU v5p) [P] */
        .hbm_bytes_per_s = 2.765e12, /* 2,765 GB/s (Google Cloud TPU v5p) [P] */
    },
};

/* Latencies, the same for every NVIDIA system: NCCL's tuner models one
 * NVLink ring step at 1.9 us and one network step at 4.0 us for the LL128
 * protocol (NVIDIA/nccl src/graph/tuning.cc, hwLatencies) [R]. */
#define NVLINK_STEP_LAT_S 1.9e-6
#define NET_STEP_LAT_S 4.0e-6

static const SystemSpec systems[] = {
    {
        .id = "dgx-a100",
        .name = "DGX A100",
        .gpu_id = "a100-sxm",
        .domain_gpus = 8,             /* 8 GPUs on 6 NVSwitch gen2 (scaling-book gpus.md) [R] */
        .default_gpus = 64,           /* the 64-GPU experiments of SC21 §5.4 */
        .up_kind = HW_UP_SWITCHED,
        .up_link = "NVLink 3",
        .up_bytes_per_s = 600e9 / 2,  /* NVLink 3: 600 GB/s bidir = 12 links x 25 GB/s/dir [R] */
        .up_lat_s = NVLINK_STEP_LAT_S,
        .up_switches = 6,
        .torus = {0, 0, 0},
        .out_link = "HDR InfiniBand 200 Gb/s",
        .out_bytes_per_s = 200e9 / 8, /* 8 x 200 Gb/s HDR per node, one per GPU (SC21 §5) [P] */
        .out_lat_s = NET_STEP_LAT_S,
        .oversub = 1,                 /* Selene: full fat tree, 3 levels (SC21 §5) [P] */
        .gpus_per_leaf = 40 / 2,      /* 40-port HDR leaf (Quantum QM8790), half down at 1:1 */
        .domain_power_w = 6.5e3,      /* DGX A100 datasheet: 6.5 kW max [P] */
        .cooling = "air",
        .summary = "8 x A100 per server on NVLink 3; one 200 Gb/s HDR NIC per GPU (Selene)",
    },
    {
        .id = "dgx-h100",
        .name = "DGX H100",
        .gpu_id = "h100-sxm",
        .domain_gpus = 8,             /* 8 GPUs on 4 NVSwitch gen3 (scaling-book gpus.md) [R] */
        .default_gpus = 256,          /* one SuperPOD scalable unit: 32 nodes (scaling book) */
        .up_kind = HW_UP_SWITCHED,
        .up_link = "NVLink 4",
        .up_bytes_per_s = 900e9 / 2,  /* NVLink 4: 900 GB/s bidir = 18 links x 25 GB/s/dir [R] */
        .up_lat_s = NVLINK_STEP_LAT_S,
        .up_switches = 4,
        .torus = {0, 0, 0},
        .out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
        .out_bytes_per_s = 400e9 / 8, /* 8 x 400 Gb/s CX-7 per node (scaling-book gpus.md) [R] */
        .out_lat_s = NET_STEP_LAT_S,
        .oversub = 1,                 /* SuperPOD reference: full bisection fat tree [R] */
        .gpus_per_leaf = 64 / 2,      /* 64-port NDR leaf (QM9700): 8 leaves per 256 GPUs [R] */
        .domain_power_w = 10.2e3,     /* DGX H100 datasheet: ~10.2 kW max [P] */
        .cooling = "air",
        .summary = "8 x H100 per server on NVLink 4; one 400 Gb/s NDR NIC per GPU",
    },
    {
        .id = "hgx-h200",
        .name = "HGX H200",
        .gpu_id = "h200",
        .domain_gpus = 8,             /* "18x 4th Gen NVLink, 900GB/s", 8 GPUs (MLCommons) [P] */
        .default_gpus = 256,
        .up_kind = HW_UP_SWITCHED,
        .up_link = "NVLink 4",
        .up_bytes_per_s = 900e9 / 2,  /* NVLink 4: 900 GB/s bidir (MLCommons H200 JSON) [P] */
        .up_lat_s = NVLINK_STEP_LAT_S,
        .up_switches = 4,
        .torus = {0, 0, 0},
        .out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
        .out_bytes_per_s = 400e9 / 8, /* CX-7 400 Gb/s per GPU (MLCommons H200 JSON) [P] */
        .out_lat_s = NET_STEP_LAT_S,
        .oversub = 1,
        .gpus_per_leaf = 64 / 2,      /* 64-port NDR leaf, half down */
        .domain_power_w = 10.2e3,     /* DGX H200 datasheet: ~10.2 kW max [P] */
        .cooling = "air",
        .summary = "8 x H200 (141 GB) per server on NVLink 4; 400 Gb/s NDR per GPU",
    },
    {
        .id = "dgx-b200",
        .name = "DGX B200",
        .gpu_id = "b200",
        .domain_gpus = 8,             /* 8 GPUs on 2 NVSwitch chips (scaling-book gpus.md) [R] */
        .default_gpus = 256,
        .up_kind = HW_UP_SWITCHED,
        .up_link = "NVLink 5",
        .up_bytes_per_s = 1.8e12 / 2, /* NVLink 5: 1.8 TB/s bidir; 14.4 TB/s per 8-GPU board [R] */
        .up_lat_s = NVLINK_STEP_LAT_S,
        .up_switches = 2,
        .torus = {0, 0, 0},
        .out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
        .out_bytes_per_s = 400e9 / 8, /* "8x ConnectX-7 IB NDR 400Gb/s" (MLCommons Nebius) [P] */
        .out_lat_s = NET_STEP_LAT_S,
        .oversub = 1,
        .gpus_per_leaf = 64 / 2,      /* 64-port NDR leaf, half down */
        .domain_power_w = 14.3e3,     /* DGX B200 datasheet: ~14.3 kW max [P] */
        .cooling = "air",
        .summary = "8 x B200 per server on NVLink 5; 400 Gb/s NDR per GPU",
    },
    {
        .id = "gb200-nvl72",
        .name = "GB200 NVL72",
        .gpu_id = "gb200",
        .domain_gpus = 72,            /* 72 GPUs, 18 NVSwitch chips in 9 trays [R] */
        .default_gpus = 576,          /* 8 racks: the 576-GPU SuperPOD (scaling book App. A) */
        .up_kind = HW_UP_SWITCHED,
        .up_link = "NVLink 5",
        .up_bytes_per_s = 1.8e12 / 2, /* 1.8 TB/s bidir per GPU; 72 x 1.8 = 130 TB/s rack [R] */
        .up_lat_s = NVLINK_STEP_LAT_S,
        .up_switches = 18,
        .torus = {0, 0, 0},
        .out_link = "ConnectX-7 NDR InfiniBand 400 Gb/s",
        .out_bytes_per_s = 400e9 / 8, /* one CX-7 400 Gb/s per GPU (MLCommons v6.1 Crusoe) [P] */
        .out_lat_s = NET_STEP_LAT_S,
        .oversub = 1,
        .gpus_per_leaf = 64 / 2,      /* 64-port NDR leaf, half down */
        .domain_power_w = 120e3,      /* ~120 kW per rack (introl.com GB200 NVL72 guide) [S] */
        .cooling = "liquid",
        .summary = "72 GPUs in one NVLink 5 rack (130 TB/s); 400 Gb/s NDR per GPU; ~120 kW",
    },
    {
        .id = "gb300-nvl72",
        .name = "GB300 NVL72",
        .gpu_id = "gb300",
        .domain_gpus = 72,            /* 72 Blackwell Ultra GPUs, one NVLink 5 domain [S] */
        .default_gpus = 576,
        .up_kind = HW_UP_SWITCHED,
        .up_link = "NVLink 5",
        .up_bytes_per_s = 1.8e12 / 2, /* 1.8 TB/s bidir per GPU; 130 TB/s per rack [S] */
        .up_lat_s = NVLINK_STEP_LAT_S,
        .up_switches = 18,
        .torus = {0, 0, 0},
        .out_link = "ConnectX-8 XDR InfiniBand 800 Gb/s",
        .out_bytes_per_s = 800e9 / 8, /* one ConnectX-8 800 Gb/s per GPU (NVIDIA NVL72 RA) [P] */
        .out_lat_s = NET_STEP_LAT_S,
        .oversub = 1,
        .gpus_per_leaf = 144 / 2,     /* 144-port 800G Quantum-X800 leaf, half down */
        .domain_power_w = 132e3,      /* 132 kW rack power shelves (Supermicro via introl) [S] */
        .cooling = "liquid",
        .summary = "72 GPUs in one NVLink 5 rack (130 TB/s); 800 Gb/s CX-8 per GPU; ~132 kW",
    },
    {
        /* The domain is one 4x4x4 cube of 64 chips: the building block a v5p
         * slice is made of, joined to the other cubes by optical circuit
         * switches. ICI spans a whole slice (up to 6,144 chips), so this is a
         * choice: inside a cube every chip is at most a few torus hops away; a
         * job that spreads over cubes goes through the OCS layer, which the
         * model treats as the next tier, at DCN rate. */
        .id = "tpu-v5p",
        .name = "TPU v5p pod slice",
        .gpu_id = "tpu-v5p",
        .domain_gpus = 4 * 4 * 4,     /* one 4x4x4 cube = 64 chips (Google Cloud TPU docs) [P] */
        .default_gpus = 512,          /* 8 cubes */
        .up_kind = HW_UP_TORUS,
        .up_link = "ICI (3D torus)",
        .up_bytes_per_s = 1200e9 / 2, /* ICI 1,200 GB/s bidir per chip (Google Cloud v5p) [P] */
        .up_lat_s = 1e-6,             /* ~1 us per ICI hop (scaling-book tpus.md) [R] */
        .up_switches = 0,
        .torus = {4, 4, 4},
        .out_link = "DCN 50 Gb/s per chip",
        .out_bytes_per_s = 50e9 / 8,  /* DCN 50 Gb/s per chip (Google Cloud TPU v5p) [P] */
        .out_lat_s = 10e-6,           /* data-center network step, ~10 us [U] */
        .oversub = 1,
        .gpus_per_leaf = 64,          /* one cube per DCN leaf [U] */
        .domain_power_w = 0,          /* not published */
        .cooling = "liquid",
        .summary = "TPU v5p: 4x4x4 cubes of 64 chips on a 3D-torus ICI; 50 Gb/s DCN per chip",
    },
    {
        /* A plain Ethernet cluster: the same 8 x H100 servers, but one
         * 100 GbE RoCE NIC per GPU instead of 400 Gb/s InfiniBand, and two
         * servers under one top-of-rack switch as in Meta's RoCE clusters
         * (Llama 3 paper §3.3.1). Low-bandwidth scale-outs like this are
         * real: BLOOM trained on nodes of 8 A100 with 4 x 100 Gb/s Omni-Path
         * each (BLOOM paper §3.4.1). */
        .id = "ethernet-100g",
        .name = "8 x H100 servers on 100 GbE",
        .gpu_id = "h100-sxm",
        .domain_gpus = 8,
        .default_gpus = 256,
        .up_kind = HW_UP_SWITCHED,
        .up_link = "NVLink 4",
        .up_bytes_per_s = 900e9 / 2,  /* NVLink 4: 900 GB/s bidir (HGX H100 board) [R] */
        .up_lat_s = NVLINK_STEP_LAT_S,
        .up_switches = 4,
        .torus = {0, 0, 0},
        .out_link = "100 GbE RoCE",
        .out_bytes_per_s = 100e9 / 8, /* 100 Gb/s Ethernet per GPU = 12.5 GB/s */
        .out_lat_s = NET_STEP_LAT_S,  /* NCCL's tuner uses the same step for IB and RoCE */
        .oversub = 1,
        .gpus_per_leaf = 2 * 8,       /* 2 servers per ToR (Llama 3 §3.3.1) [P] */
        .domain_power_w = 10.2e3,     /* an 8 x H100 server, as DGX H100 [P] */
        .cooling = "air",
        .summary = "8 x H100 servers on NVLink 4, but only 100 Gb/s Ethernet per GPU",
    },
};

int hw_gpu_count(void)
{
    return COUNT_OF(gpus);
}

const GpuSpec *hw_gpu_at(int i)
{
    return i >= 0 && i < COUNT_OF(gpus) ? &gpus[i] : NULL;
}

const GpuSpec *hw_gpu_find(const char *id)
{
    if (!id)
        return NULL;
    for (int i = 0; i < COUNT_OF(gpus); i++)
        if (strcmp(gpus[i].id, id) == 0)
            return &gpus[i];
    return NULL;
}

int hw_system_count(void)
{
    return COUNT_OF(systems);
}

const SystemSpec *hw_system_at(int i)
{
    return i >= 0 && i < COUNT_OF(systems) ? &systems[i] : NULL;
}

const SystemSpec *hw_system_find(const char *id)
{
    if (!id)
        return NULL;
    for (int i = 0; i < COUNT_OF(systems); i++)
        if (strcmp(systems[i].id, id) == 0)
            return &systems[i];
    return NULL;
}
