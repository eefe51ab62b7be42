/*
 * cache_gpu.c -- the GPUs of the hierarchy model (SM count, clock, L1/shared
 * array, L2, bandwidths) and the occupancy that turns a launch into CTAs per
 * SM, a shared-memory carve-out and the L1 capacity left over.
 *
 * Sources (docs/hierarchy.md repeats them per figure):
 *   [HW]  NVIDIA H100 Tensor Core GPU Architecture whitepaper (GH100: 132 SMs
 *         on H100 SXM5, 256 KB L1/shared per SM, 50 MB L2); NVIDIA A100
 *         Tensor Core GPU Architecture whitepaper (108 SMs, 192 KB L1/shared
 *         per SM, 40 MB L2, L2 read bandwidth 5120 B/clk); NVIDIA Ada GPU
 *         Architecture whitepaper (RTX 4090: 128 SMs, 72 MB L2; 128 KB
 *         L1/shared per SM); NVIDIA H200, H100, A100 and L4 datasheets
 *         (memory bandwidth, boost clock).
 *   [CG]  CUDA C++ Programming Guide, "Compute Capabilities" tables: resident
 *         CTAs and warps per SM, shared-memory carve-outs, 1 KB of shared
 *         memory reserved per CTA on CC 8.x/9.0.
 *   [L2]  H200's 60 MB L2: the full GH100 die has 60 MB, H100 enables 50 MB
 *         (Chips and Cheese, "Nvidia's H100: Funny L2, and Tons of
 *         Bandwidth", 2023); query cudaDevAttrL2CacheSize on the card.
 *   [BS]  BabelStream Copy, Azure/AI-benchmarking-guide ND_H200_v5 and
 *         ND_H100_v5 results: 4.01 TB/s (H200), 2.90 TB/s (H100 SXM).
 *   [RZ]  RRZE-HPC gpu-benches: gpu-l2-cache, the H200 L2 plateau
 *         9.7-10.2 TB/s and L40's (AD102, 96 MB L2, 2.49 GHz) 5.15-5.29
 *         TB/s; gpu-latency, L40's pointer chase (one warp, random lines):
 *         L1 34.0, L2 273.6 (176 KB - 24 MB), DRAM 623.7 cycles (236 MB);
 *         A100 80GB's (the A100 die): L1 33.0, L2 205.5 (near half, up to
 *         12.8 MB), DRAM 536.3 cycles (120 MB).
 *   [PS]  "CUDA Performance Study -- NVIDIA H100 SXM5" (public benchmark
 *         README, 1.98 GHz): pointer-chase latencies L1 40.2, L2 259.9,
 *         HBM 570.5 cycles.
 *   [UL]  Ultrasonics Sonochemistry 99 (2023) 106546, Table 3: L2
 *         bandwidth V100/A100/H100 3133/7219/8986 GB/s.
 *   [JV]  Jia, Maggioni, Staiger, Scarpazza, "Dissecting the NVIDIA Volta
 *         GPU Architecture via Microbenchmarking" (arXiv:1804.06826), TLB
 *         table: V100 L1 TLB 32 MiB reach of 2 MiB entries, L2 TLB 8 GiB
 *         reach of 32 MiB entries (the Turing T4 report, arXiv:1903.07486,
 *         finds the same); the nearest generation measured, so every
 *         profile borrows it.  No TLB miss latency of an Ampere, Ada or
 *         Hopper GPU was found: lat_tlb1/2 are 0 and the TLB term is left
 *         out (the misses are still counted).
 *   [AS]  Khairy, Shen, Aamodt, Rogers, "Accel-Sim: An Extensible
 *         Simulation Framework for Validated GPU Modeling" (ISCA 2020), its
 *         hardware tuner (accel-sim-framework, util/tuner/
 *         GPU_Microbenchmark, the l1_mshr microbenchmark): each warp can
 *         have two lines (8 sectors) of L1 misses pending, and the tuner
 *         sizes the L1's miss slots as 8 x the SM's warp slots (512 on
 *         sm_70/80/90, 384 on sm_89).
 * A figure with no source is 0 and the time estimate leaves its term out
 * (dram_meas 0: the peak is used and the report says so).
 */
#include "wm_int.h"

#include <ctype.h>

#define KIB 1024u
#define MIB (1024ull * 1024ull)

/* The TLB figures every profile borrows [JV]: entries, entry bytes, miss
 * latencies (none published), source. */
#define TLB_JV                                                               \
    16, 256, 2 * MIB, 32 * MIB, 0, 0,                                         \
        "V100 TLB reach [JV] (borrowed); no miss latency published"

/* L40's L2 read bandwidth [RZ]: the gpu-l2-cache plateau, 5.15-5.29 TB/s
 * at 2.49 GHz. */
#define L40_L2_BW 5.2e12

/* The L1 miss slots [AS]: 8 sectors (two lines) per warp slot, so
 * 8 x the SM's resident warps. */
#define MSHR_AS(warps)                                                       \
    (warps) * 8u, "8 sectors per warp slot, Accel-Sim l1_mshr [AS]"


/* Shared-memory carve-outs in KiB [CG], ascending, 0-terminated after the
 * leading 0. */
static const unsigned carve_90[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228, 0};
static const unsigned carve_80[] = {0, 8, 16, 32, 64, 100, 132, 164, 0};
static const unsigned carve_89[] = {0, 8, 16, 32, 64, 100, 0};

static const wm_gpu gpus[] = {
    {"H200", 90, 132, 1.98e9, 256, carve_90, 32, 64, KIB, 60 * MIB, 4.8e12,
     4.01e12, 10.0e12,
     "HW (GH100), L2 60 MB (L2 evidence), 4.8 TB/s datasheet, BabelStream "
     "copy 4.01 TB/s, RRZE L2 10 TB/s",
     40.2, 259.9, 570.5, "H100 SXM5 pointer chase [PS] (same die)",
     TLB_JV, MSHR_AS(64)},
    {"H100", 90, 132, 1.98e9, 256, carve_90, 32, 64, KIB, 50 * MIB, 3.35e12,
     2.90e12, 8.986e12,
     "HW (H100 SXM5), 3.35 TB/s datasheet, BabelStream copy 2.90 TB/s, L2 "
     "8986 GB/s [UL]",
     40.2, 259.9, 570.5, "H100 SXM5 pointer chase [PS]",
     TLB_JV, MSHR_AS(64)},
    {"A100", 80, 108, 1.41e9, 192, carve_80, 32, 64, KIB, 40 * MIB, 1.555e12,
     0, 5120.0 * 1.41e9,
     "HW (A100 SXM4 40GB, L2 5120 B/clk), 1555 GB/s datasheet; no measured "
     "copy figure",
     33.0, 205.5, 536.3, "A100 80GB pointer chase [RZ]",
     TLB_JV, MSHR_AS(64)},
    {"L4", 89, 58, 2.04e9, 128, carve_89, 24, 48, KIB, 48 * MIB, 300e9, 0,
     L40_L2_BW * 6 / 12 * 2.04e9 / 2.49e9,
     "HW (Ada AD104), 300 GB/s datasheet; L2 bandwidth derived from L40's "
     "[RZ] (6 of 12 memory partitions, clock ratio)",
     34.0, 273.6, 623.7, "L40 pointer chase [RZ] (borrowed: same "
     "architecture, AD102)",
     TLB_JV, MSHR_AS(48)},
    {"RTX4090", 89, 128, 2.52e9, 128, carve_89, 24, 48, KIB, 72 * MIB,
     1.008e12, 0, L40_L2_BW * 2.52e9 / 2.49e9,
     "HW (Ada AD102), 1008 GB/s (21 Gbps x 384 bit); L2 bandwidth from "
     "L40's [RZ] (same die, 12 memory partitions, clock ratio)",
     34.0, 273.6, 623.7, "L40 pointer chase [RZ] (same die, AD102)",
     TLB_JV, MSHR_AS(48)},
};

size_t wm_gpu_count(void)
{
    return WM_ARRAY_LEN(gpus);
}

const wm_gpu *wm_gpu_at(size_t i)
{
    return i < WM_ARRAY_LEN(gpus) ? &gpus[i] : NULL;
}

/* Case-blind equality that also ignores '-', '_' and ' ' ("rtx-4090"). */
static int name_eq(const char *a, const char *b)
{
    for (;;) {
        while (*a == '-' || *a == '_' || *a == ' ')
            a++;
        while (*b == '-' || *b == '_' || *b == ' ')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
        a++, b++;
    }
}

const wm_gpu *wm_gpu_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < WM_ARRAY_LEN(gpus); i++)
        if (name_eq(gpus[i].name, name))
            return &gpus[i];
    return NULL;
}

const wm_gpu *wm_gpu_for_arch(const wm_arch *a)
{
    if (!a)
        return NULL;
    const wm_gpu *g = wm_gpu_find(a->name);
    if (g)
        return g;
    switch (a->sm) {
    case 90: return &gpus[0]; /* the lesson's GPU */
    case 80: return &gpus[2];
    case 89: return &gpus[3];
    default: return NULL;
    }
}

wm_status wm_cache_config_init(wm_cache_config *c, const wm_gpu *g,
                               uint64_t threads, uint64_t smem)
{
    return wm_cache_config_init_regs(c, g, threads, smem, 0);
}

/* Registers per SM and the per-warp allocation unit [CG]: 64K 32-bit
 * registers on every built-in GPU, allocated 256 per warp. */
#define REGS_SM 65536u
#define REGS_UNIT 256u

wm_status wm_cache_config_init_regs(wm_cache_config *c, const wm_gpu *g,
                                    uint64_t threads, uint64_t smem,
                                    unsigned regs)
{
    if (!c || !g || threads == 0 || threads > 1024 || regs > 255)
        return WM_ERR_ARG;
    memset(c, 0, sizeof *c);
    c->gpu = g;
    c->nsms = g->nsms;
    c->line_bytes = 128;
    c->sector_bytes = 32;
    c->l2_bytes = g->l2_bytes;
    c->l2_ways = 16;
    c->l1_ways = 16;
    c->order = WM_CACHE_ORDER_INSN;
    /* Occupancy [CG]: the smallest of the CTA, warp, register and
     * shared-memory limits.  Registers are not known from PTX (ptxas
     * allocates them): without regs they are assumed not to limit. */
    uint64_t warps = (threads + 31) / 32;
    uint64_t n = g->max_ctas_sm;
    if (g->max_warps_sm / warps < n)
        n = g->max_warps_sm / warps;
    if (regs) {
        uint64_t per_warp =
            ((uint64_t)regs * 32 + REGS_UNIT - 1) / REGS_UNIT * REGS_UNIT;
        uint64_t byregs = REGS_SM / (per_warp * warps);
        if (byregs < n)
            n = byregs;
    }
    unsigned maxcarve = 0;
    for (size_t i = 1; g->carveouts[i]; i++)
        maxcarve = g->carveouts[i];
    uint64_t per = smem ? smem + g->smem_cta_reserve : 0;
    if (per) {
        uint64_t bysmem = (uint64_t)maxcarve * KIB / per;
        if (bysmem < n)
            n = bysmem;
    }
    if (n == 0)
        return WM_ERR_ARG;
    c->ctas_per_sm = (unsigned)n;
    /* The driver picks a carve-out that holds the resident CTAs' shared
     * memory; the model takes the smallest such one. */
    uint64_t need = n * per, carve = 0;
    for (size_t i = 0; i == 0 || g->carveouts[i]; i++)
        if ((uint64_t)g->carveouts[i] * KIB >= need) {
            carve = (uint64_t)g->carveouts[i] * KIB;
            break;
        }
    c->smem_carveout = carve;
    c->l1_bytes = (uint64_t)g->l1_kib * KIB - carve;
    return WM_OK;
}
