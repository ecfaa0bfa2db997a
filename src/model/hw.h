/* SPDX-License-Identifier: MIT */
/* hw — hardware presets: accelerators and whole systems, with public figures.
 *
 * Direction convention (the one place it is stated): every bandwidth field
 * here is PER GPU, PER DIRECTION, in bytes per second. Vendors quote NVLink
 * as both directions added ("1.8 TB/s" for NVLink 5 = 900 GB/s each way) and
 * NICs per direction in bits ("400 Gb/s" = 50 GB/s); the table converts.
 *
 * The figures live twice by design: assets/presets.lua is what lessons read,
 * and the compiled-in table in hw.c is what the C core uses without Lua; a
 * unit test loads the Lua file and checks that both agree field by field.
 * Each figure in hw.c carries a comment naming its public source.
 *
 * Pure data: no I/O, no allocation. Returned pointers are static.
 */
#ifndef SCALELAB_MODEL_HW_H
#define SCALELAB_MODEL_HW_H

#include <stdbool.h>

typedef struct {
    const char *id;         /* "h100-sxm" */
    const char *name;       /* "H100 SXM" */
    const char *noun;       /* what its maker calls one: "GPU" or "chip" (TPU,
                             * Trainium), for text such as "8 GPUs", "64 chips" */
    double bf16_flops;      /* dense BF16 peak, FLOP/s */
    double fp8_flops;       /* dense FP8 peak, FLOP/s (0 = no FP8) */
    double hbm_bytes;       /* usable HBM capacity, bytes ("80 GB" on an A100 or
                             * H100 is 80 GiB = 80 x 2^30) */
    double hbm_bytes_per_s; /* HBM bandwidth */
    /* What the kernel model (kernel.h) needs of the chip: its architecture
     * (one calibration each), the units a GEMM's output tiles are spread
     * over (SMs on NVIDIA, CUs on AMD, matrix units on TPU and Trainium),
     * and the board power the peak is quoted at (a --power cap below it
     * lowers the sustained clock). */
    const char *arch; /* "ampere", "hopper", "blackwell", ... (kernel.c's table) */
    int sms;          /* streaming multiprocessors (or the equivalent unit) */
    double tdp_w;     /* board power, W */
    /* The clock dense matrix work holds at that power, as a share of the
     * clock the peaks are quoted at, where the maker publishes it (0: not
     * published, and the architecture's shares in kernel.c absorb it). */
    double dense_clock;
} GpuSpec;

typedef enum {
    HW_UP_SWITCHED, /* NVSwitch: every GPU one hop from every other */
    HW_UP_TORUS,    /* TPU ICI: 3D torus of direct chip-to-chip links */
} HwUpKind;

typedef struct {
    const char *id;     /* "gb200-nvl72": the name on the command line */
    const char *name;   /* "GB200 NVL72" */
    const char *gpu_id; /* a GpuSpec id */
    int domain_gpus;    /* GPUs per scale-up domain (8, 72, a pod slice) */
    int default_gpus;   /* cluster size when none is given */
    HwUpKind up_kind;
    const char *up_link;    /* "NVLink 5" */
    double up_bytes_per_s;  /* scale-up, per GPU, per direction */
    double up_lat_s;        /* one scale-up hop / collective step latency */
    int up_switches;        /* switch chips per domain (0 for a torus) */
    int torus[3];           /* torus shape of one domain, {0} if switched */
    const char *out_link;   /* "ConnectX-7 NDR InfiniBand" */
    double out_bytes_per_s; /* scale-out NIC, per GPU, per direction */
    double out_lat_s;       /* one scale-out collective step latency */
    double oversub;         /* leaf-to-spine oversubscription, 1 = full bisection */
    int gpus_per_leaf;      /* GPUs under one leaf switch */
    bool rail_optimized;    /* leaves cabled by rail: GPU i of every server of a scalable
                             * unit (gpus_per_leaf servers) on leaf i of that unit */
    double domain_power_w;  /* power of one domain (server or rack), 0 = unknown */
    /* The host path, for offload (optimizer state, weights, activations in
     * host memory): the link from one GPU to its CPU's memory, per
     * direction, and the host memory each GPU can use. */
    const char *host_link;   /* "PCIe Gen5 x16", "NVLink-C2C" */
    double host_bytes_per_s; /* per GPU, per direction */
    double host_mem_bytes;   /* host memory per GPU */
    const char *cooling;     /* "air", "liquid" */
    const char *summary;     /* one line for --list and lessons */
} SystemSpec;

int hw_gpu_count(void);
const GpuSpec *hw_gpu_at(int i);
const GpuSpec *hw_gpu_find(const char *id); /* NULL when unknown */
/* hw_gpu_at(i)->id in the shape strbuf_join takes (ctx unused), for the
 * "known: ..." list of an unknown id; hw_system_id_at likewise. */
const char *hw_gpu_id_at(int i, const void *ctx);

/* Forms of an accelerator's noun, combined with |. */
enum { HW_NOUN_MANY = 1, HW_NOUN_CAP = 2 };

/* What g's maker calls it (GpuSpec.noun), in the form any text naming the
 * accelerators of a given system needs: "GPU", "GPUs" (HW_NOUN_MANY),
 * "chip", "Chips" (HW_NOUN_MANY | HW_NOUN_CAP, to start a sentence). A NULL
 * g or a noun the table does not know reads as "GPU". Static strings. */
const char *hw_noun(const GpuSpec *g, int form);

int hw_system_count(void);
const SystemSpec *hw_system_at(int i);
const SystemSpec *hw_system_find(const char *id); /* NULL when unknown */
const char *hw_system_id_at(int i, const void *ctx);

#endif
