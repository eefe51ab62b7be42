/*
 * hier.c -- the hierarchy model's prediction for the lab's 2-D rows (E1,
 * the transposes of E5/E6: every block of an n x n fp32 grid, 32 x 8
 * threads, 4 rows per thread) and its stride and offset sweeps (E2, E3:
 * a 256 MiB
 * buffer: 4x the L2, the floor the lab's --size keeps), fed to wm_cache
 * (docs/hierarchy.md) for the default GPU of the sm_90 profile (H200).
 *
 * The lane addresses are those of lab/kernels/transpose.cu for block
 * (bx, by): x = bx*32 + lane, y = by*32 + warp + j for j = 0, 8, 16, 24;
 * the tiled kinds store their tile after a barrier with x and y swapped
 * block-wise.  Shared accesses enter only as wavefronts (the L1 term of
 * the time), counted once per block from the first block (lab_predict),
 * since every block's shared addresses are the same.
 *
 * stride.cu (block 256): thread t of block b loads element (i + k*256) *
 * stride, i = b*1024 + t, k = 0..3, for n = words / stride elements; the
 * copy stores the same indices of out, the read-only kernel ends with one
 * atomicAdd per warp on one counter.  lab_copy_offset is the copy at
 * stride 1 with every index moved by offset elements, over n = words -
 * 1024 elements.
 */
#include "lab.h"

#include <string.h>

#define TILE 32u
#define BASE_IN 0x100000000ull
#define BASE_OUT 0x400000000ull
#define BASE_SUM 0x800000000ull
#define STRIDE_WORDS (64ull << 20) /* 256 MiB of 4-byte words */

static uint64_t at(uint64_t base, uint64_t n, uint64_t row, uint64_t col)
{
    return base + (row * n + col) * 4;
}

/* One warp-wide 4-byte access of warp w: lane l at addr(l). */
static wm_status warp4(wm_cache *c, unsigned w, unsigned interval, wm_op op,
                       const uint64_t addr[32])
{
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = WM_SPACE_GLOBAL;
    a.op = op;
    a.size = 4;
    a.mask = 0xffffffffull;
    a.site = op == WM_OP_LD ? 0 : 1;
    memcpy(a.addr, addr, 32 * sizeof addr[0]);
    return wm_cache_add(c, w, interval, &a, WM_CACHE_LD_CA);
}

static int is_2d(lab_kind k)
{
    return k == LAB_K_COPY_2D || k == LAB_K_T_NAIVE_ROW ||
           k == LAB_K_T_NAIVE_COL || k == LAB_K_T_TILE || k == LAB_K_T_PAD ||
           k == LAB_K_T_SWZ;
}

/* The kinds this file predicts. */
int lab_hier_supported(lab_kind k)
{
    return is_2d(k) || k == LAB_K_READ_STRIDE || k == LAB_K_COPY_STRIDE ||
           k == LAB_K_COPY_OFFSET;
}

/* Every global access of block b of a stride or offset kernel. */
static wm_status stride_block(wm_cache *c, lab_kind k, uint64_t s,
                              uint64_t off, uint64_t b)
{
    uint64_t ad[32];
    wm_status st = WM_OK;
    for (unsigned w = 0; w < 8 && st == WM_OK; w++) {
        for (unsigned op = 0; op < (k == LAB_K_READ_STRIDE ? 1u : 2u); op++)
            for (unsigned q = 0; q < 4 && st == WM_OK; q++) {
                for (unsigned l = 0; l < 32; l++)
                    ad[l] = (op ? BASE_OUT : BASE_IN) +
                            ((b * 1024 + q * 256 + w * 32 + l) * s + off) * 4;
                st = warp4(c, w, 0, op ? WM_OP_ST : WM_OP_LD, ad);
            }
        if (k == LAB_K_READ_STRIDE && st == WM_OK) {
            wm_access a;
            memset(&a, 0, sizeof a);
            a.site = 2;
            a.space = WM_SPACE_GLOBAL;
            a.op = WM_OP_ATOM;
            a.size = 8;
            a.mask = 1;
            a.addr[0] = BASE_SUM;
            st = wm_cache_add(c, w, 0, &a, WM_CACHE_LD_CA);
        }
    }
    return st;
}

/* Every global access of block (bx, by). */
static wm_status block(wm_cache *c, lab_kind k, uint64_t n, uint64_t bx,
                       uint64_t by)
{
    uint64_t ad[32];
    int tiled = k == LAB_K_T_TILE || k == LAB_K_T_PAD || k == LAB_K_T_SWZ;
    wm_status st = WM_OK;
    for (unsigned w = 0; w < 8 && st == WM_OK; w++)
        for (unsigned j = 0; j < TILE && st == WM_OK; j += 8) {
            uint64_t y = by * TILE + w + j;
            for (unsigned l = 0; l < 32; l++) {
                uint64_t x = bx * TILE + l;
                ad[l] = k == LAB_K_T_NAIVE_COL ? at(BASE_IN, n, x, y)
                                               : at(BASE_IN, n, y, x);
            }
            st = warp4(c, w, 0, WM_OP_LD, ad);
            if (tiled || st != WM_OK)
                continue;
            for (unsigned l = 0; l < 32; l++) {
                uint64_t x = bx * TILE + l;
                ad[l] = k == LAB_K_T_NAIVE_ROW ? at(BASE_OUT, n, x, y)
                                               : at(BASE_OUT, n, y, x);
            }
            st = warp4(c, w, 0, WM_OP_ST, ad);
        }
    if (!tiled)
        return st;
    /* after __syncthreads: out row bx*32 + w + j, columns by*32 + lane */
    for (unsigned w = 0; w < 8 && st == WM_OK; w++)
        for (unsigned j = 0; j < TILE && st == WM_OK; j += 8) {
            for (unsigned l = 0; l < 32; l++)
                ad[l] = at(BASE_OUT, n, bx * TILE + w + j, by * TILE + l);
            st = warp4(c, w, 1, WM_OP_ST, ad);
        }
    return st;
}

wm_status lab_predict_hier(lab_kind kind, const lab_params *p, unsigned n,
                           lab_hier *out)
{
    memset(out, 0, sizeof *out);
    if (!lab_hier_supported(kind))
        return WM_OK;
    int offset = kind == LAB_K_COPY_OFFSET;
    if (is_2d(kind) ? n == 0 || n % TILE : !offset && p->stride == 0)
        return WM_ERR_ARG;
    const wm_gpu *g = wm_gpu_for_arch(wm_arch_default());
    lab_pred first;
    lab_params none;
    memset(&none, 0, sizeof none);
    wm_status st = lab_predict(wm_arch_default(), kind, &none, &first);
    if (st != WM_OK)
        return st;
    uint64_t smem = first.s_st_req ? (uint64_t)TILE * (TILE + 1) * 4 : 0;
    if (!is_2d(kind))
        n = 0;
    wm_cache_config cfg;
    st = wm_cache_config_init(&cfg, g, 256, smem);
    wm_cache *c = st == WM_OK ? wm_cache_new(&cfg) : NULL;
    if (!c)
        return st == WM_OK ? WM_ERR_NOMEM : st;
    uint64_t nb = n / TILE;
    for (uint64_t by = 0; by < nb && st == WM_OK; by++)
        for (uint64_t bx = 0; bx < nb && st == WM_OK; bx++) {
            st = wm_cache_cta(c);
            if (st == WM_OK)
                st = block(c, kind, n, bx, by);
        }
    wm_cache_add_shared_wavefronts(
        c, (first.s_ld_wavefronts + first.s_st_wavefronts) * nb * nb);
    uint64_t nblk = is_2d(kind) ? 0
                    : offset    ? (STRIDE_WORDS - 1024) / 1024
                                : STRIDE_WORDS / p->stride / 1024;
    for (uint64_t b = 0; b < nblk && st == WM_OK; b++) {
        st = wm_cache_cta(c);
        if (st == WM_OK)
            st = stride_block(c, kind, offset ? 1 : p->stride,
                              offset ? p->offset : 0, b);
    }
    if (st == WM_OK)
        st = wm_cache_finish(c);
    if (st == WM_OK) {
        wm_cache_stats t;
        wm_cache_time tm;
        wm_cache_totals(c, &t);
        wm_cache_predict(c, &tm);
        out->has = 1;
        out->n = n;
        out->bytes = is_2d(kind) ? 0 : STRIDE_WORDS * 4;
        out->gpu = g->name;
        out->l1_hit = t.l1_ld_sectors ? (double)t.l1_ld_hits /
                                            (double)t.l1_ld_sectors
                                      : 0;
        out->l2_hit = t.l2_rd_sectors + t.l2_wr_sectors
                          ? (double)(t.l2_rd_hits + t.l2_wr_hits) /
                                (double)(t.l2_rd_sectors + t.l2_wr_sectors)
                          : 0;
        out->dram_bytes = (t.dram_rd_sectors + t.dram_wr_sectors) * 32;
        out->time_us = tm.time_s * 1e6;
        out->gbs = tm.eff_bw / 1e9;
        out->bound = tm.bound;
    }
    wm_cache_free(c);
    return st;
}

wm_status lab_table_hier(lab_table *t, unsigned n)
{
    for (size_t i = 0; i < t->nrows; i++) {
        lab_row *r = &t->rows[i];
        if (!r->selected)
            continue;
        /* rows of one kind get the same prediction: compute it once */
        size_t k = 0;
        while (k < i && !(t->rows[k].kind == r->kind && t->rows[k].hier.has &&
                          memcmp(&t->rows[k].p, &r->p, sizeof r->p) == 0))
            k++;
        if (k < i) {
            r->hier = t->rows[k].hier;
            continue;
        }
        wm_status st = lab_predict_hier(r->kind, &r->p, n, &r->hier);
        if (st != WM_OK)
            return st;
    }
    return WM_OK;
}
