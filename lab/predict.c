/*
 * predict.c -- the model's prediction for each lab row.
 *
 * For every kernel kind this file generates, in C, the lane addresses the
 * kernel of lab/kernels/ issues for every warp of its first block (block
 * index 0, buffers at the aligned bases below) and counts them with
 * wm_count().  Nothing here is a hard-coded result: change a kernel's index
 * math and its generator must change with it (the tests pin the counts to
 * hand-computed values).
 *
 * The prediction of a bandwidth row is its sector efficiency, the ideal
 * sectors over the sectors the warps touch: the share of the traffic that is
 * useful if every touched sector crossed the memory bus once.  Reuse of
 * over-fetched sectors by other warps through L1/L2 is outside the model,
 * so measured/predicted above 1 is what such reuse looks like.  The
 * prediction of a shared-memory probe is the wavefronts of its load per
 * request, the "n-way" of Nsight Compute (docs/design/memory-model.md §2).
 */
#include "lab.h"

#include <string.h>

/* Where the model puts the buffers: 4 GiB-aligned, so only the index math
 * decides alignment (cudaMalloc returns at least 256 B alignment). */
#define BASE_IN 0x100000000ull
#define BASE_OUT 0x200000000ull
/* The 1-D kernels' block and the transposes' nominal side (any multiple of
 * 32 that is >= 32 gives the same counts: a row is >= 128 B away). */
#define BLOCK_1D 256u
#define PRED_N 8192ull
#define TILE 32u

typedef struct gen {
    const wm_arch *arch;
    lab_pred *p;
    wm_status st;
    wm_access a;
} gen;

/* Start a warp-wide access with all 32 lanes active. */
static void begin(gen *g, wm_space space, wm_op op, unsigned size)
{
    memset(&g->a, 0, sizeof g->a);
    g->a.space = space;
    g->a.op = op;
    g->a.size = size;
    g->a.mask = 0xffffffffull;
}

/* Count the access in g->a and add it to the prediction. */
static void emit(gen *g)
{
    wm_counts c;
    wm_status st = wm_count(g->arch, &g->a, &c);
    lab_pred *p = g->p;
    if (st != WM_OK) {
        if (g->st == WM_OK)
            g->st = st;
        return;
    }
    if (g->a.space == WM_SPACE_SHARED) {
        if (g->a.op == WM_OP_LD) {
            p->s_ld_req += c.requests;
            p->s_ld_wavefronts += c.wavefronts;
            p->s_ld_ideal += c.ideal_wavefronts;
        } else {
            p->s_st_req += c.requests;
            p->s_st_wavefronts += c.wavefronts;
            p->s_st_ideal += c.ideal_wavefronts;
        }
        if (c.nway > p->s_nway)
            p->s_nway = c.nway;
    } else if (g->a.op == WM_OP_LD) {
        p->g_ld_req += c.requests;
        p->g_ld_sectors += c.sectors;
        p->g_ld_ideal += c.ideal_sectors;
    } else {
        p->g_st_req += c.requests;
        p->g_st_sectors += c.sectors;
        p->g_st_ideal += c.ideal_sectors;
    }
}

/* Elements of copy kinds per lane width. */
static unsigned kind_width(lab_kind k)
{
    switch (k) {
    case LAB_K_COPY_W1: case LAB_K_COPY_W1_ILP4: return 1;
    case LAB_K_COPY_W2: case LAB_K_COPY_W2_ILP4: return 2;
    case LAB_K_COPY_W4: case LAB_K_COPY_W4_ILP4: return 4;
    case LAB_K_COPY_W8: case LAB_K_COPY_W8_ILP4: return 8;
    case LAB_K_COPY_W16: case LAB_K_COPY_W16_ILP4: return 16;
    case LAB_K_MEMCPY: case LAB_K_READ_STRIDE: case LAB_K_COPY_STRIDE:
    case LAB_K_COPY_OFFSET: case LAB_K_COPY_2D: case LAB_K_T_NAIVE_ROW:
    case LAB_K_T_NAIVE_COL: case LAB_K_T_TILE: case LAB_K_T_PAD:
    case LAB_K_T_SWZ: case LAB_K_T_VEC4: case LAB_K_SGEAM:
    case LAB_K_SMEM32: case LAB_K_SMEM64: case LAB_K_SMEM128:
    case LAB_NKINDS: break;
    }
    return 0;
}

/* lab_copy_wW: i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i].
 * lab_copy_wW_ilp4: i = b*4*blockDim + k*blockDim + t, k = 0..3, all four
 * loads first.  width bytes per lane. */
static void gen_copy(gen *g, unsigned width, unsigned ilp)
{
    for (unsigned w = 0; w < BLOCK_1D / 32; w++) {
        for (unsigned op = 0; op < 2; op++) {
            for (unsigned k = 0; k < ilp; k++) {
                begin(g, WM_SPACE_GLOBAL, op ? WM_OP_ST : WM_OP_LD, width);
                for (unsigned l = 0; l < 32; l++) {
                    uint64_t i = k * BLOCK_1D + w * 32 + l;
                    g->a.addr[l] = (op ? BASE_OUT : BASE_IN) + i * width;
                }
                emit(g);
            }
        }
    }
}

/* stride.cu: i = k*blockDim + t (block 0), element i * stride (stride
 * kinds) or i + offset (offset kind); 4 B lanes.  stores: 0 for the
 * read-only kernel, whose per-block reduction is left out (shared memory,
 * then one 8-byte store per block of 1024 loads: under 0.2 % of the
 * traffic). */
static void gen_index(gen *g, unsigned stride, unsigned offset, int stores)
{
    for (unsigned w = 0; w < BLOCK_1D / 32; w++) {
        for (unsigned op = 0; op < (stores ? 2u : 1u); op++) {
            for (unsigned k = 0; k < 4; k++) {
                begin(g, WM_SPACE_GLOBAL, op ? WM_OP_ST : WM_OP_LD, 4);
                for (unsigned l = 0; l < 32; l++) {
                    uint64_t i = k * BLOCK_1D + w * 32 + l;
                    uint64_t e = i * stride + offset;
                    g->a.addr[l] = (op ? BASE_OUT : BASE_IN) + e * 4;
                }
                emit(g);
            }
        }
    }
}

/* Element (row, col) of an n x n fp32 matrix at base. */
static uint64_t at(uint64_t base, uint64_t row, uint64_t col)
{
    return base + (row * PRED_N + col) * 4;
}

/*
 * transpose.cu with block (32, 8): warp w is threadIdx.y = w, lane l is
 * threadIdx.x = l; iteration j = 0, 8, 16, 24.  Block (0, 0), so x = l,
 * y = w.  pad: row pitch of the tile in words (0: no tile); swz: XOR
 * swizzle.  Loads of a step are emitted before its stores, as issued.
 */
static void gen_transpose(gen *g, lab_kind k, unsigned pitch, int swz)
{
    for (unsigned w = 0; w < 8; w++) {
        for (unsigned j = 0; j < TILE; j += 8) {
            unsigned r = w + j;
            begin(g, WM_SPACE_GLOBAL, WM_OP_LD, 4);
            for (unsigned l = 0; l < 32; l++)
                g->a.addr[l] = k == LAB_K_T_NAIVE_COL ? at(BASE_IN, l, r)
                                                      : at(BASE_IN, r, l);
            emit(g);
            if (pitch == 0) {
                begin(g, WM_SPACE_GLOBAL, WM_OP_ST, 4);
                for (unsigned l = 0; l < 32; l++)
                    g->a.addr[l] = k == LAB_K_T_NAIVE_ROW ? at(BASE_OUT, l, r)
                                                          : at(BASE_OUT, r, l);
                emit(g);
                continue;
            }
            /* tile[r][l] (swizzled: tile[r][l ^ r]) */
            begin(g, WM_SPACE_SHARED, WM_OP_ST, 4);
            for (unsigned l = 0; l < 32; l++)
                g->a.addr[l] = 4ull * (r * pitch + (swz ? (l ^ r) : l));
            emit(g);
        }
    }
    if (pitch == 0)
        return;
    for (unsigned w = 0; w < 8; w++) {
        for (unsigned j = 0; j < TILE; j += 8) {
            unsigned c = w + j;
            /* tile[l][c] (swizzled: tile[l][c ^ l]), then out row c. */
            begin(g, WM_SPACE_SHARED, WM_OP_LD, 4);
            for (unsigned l = 0; l < 32; l++)
                g->a.addr[l] = 4ull * (l * pitch + (swz ? (c ^ l) : c));
            emit(g);
            begin(g, WM_SPACE_GLOBAL, WM_OP_ST, 4);
            for (unsigned l = 0; l < 32; l++)
                g->a.addr[l] = at(BASE_OUT, c, l);
            emit(g);
        }
    }
}

/*
 * lab_transpose_vec4, block (8, 8): thread t = ty*8 + tx, warp w holds
 * t = 32w .. 32w+31.  Loads: float4 at row ty + 8k, column 4tx.  Shared
 * stores: tile[r][(4tx+q) ^ r], q = 0..3.  Shared loads:
 * tile[4tx+q][r ^ (4tx+q)].  Stores: float4 at output row r, column 4tx.
 */
static void gen_vec4(gen *g)
{
    for (unsigned w = 0; w < 2; w++) {
        for (unsigned k = 0; k < 4; k++) {
            begin(g, WM_SPACE_GLOBAL, WM_OP_LD, 16);
            for (unsigned l = 0; l < 32; l++) {
                unsigned t = 32 * w + l, tx = t % 8, ty = t / 8;
                g->a.addr[l] = at(BASE_IN, ty + 8 * k, 4 * tx);
            }
            emit(g);
        }
        for (unsigned k = 0; k < 4; k++) {
            for (unsigned q = 0; q < 4; q++) {
                begin(g, WM_SPACE_SHARED, WM_OP_ST, 4);
                for (unsigned l = 0; l < 32; l++) {
                    unsigned t = 32 * w + l, tx = t % 8, ty = t / 8;
                    unsigned r = ty + 8 * k;
                    g->a.addr[l] = 4ull * (r * TILE + ((4 * tx + q) ^ r));
                }
                emit(g);
            }
        }
    }
    for (unsigned w = 0; w < 2; w++) {
        for (unsigned k = 0; k < 4; k++) {
            for (unsigned q = 0; q < 4; q++) {
                begin(g, WM_SPACE_SHARED, WM_OP_LD, 4);
                for (unsigned l = 0; l < 32; l++) {
                    unsigned t = 32 * w + l, tx = t % 8, ty = t / 8;
                    unsigned r = ty + 8 * k, row = 4 * tx + q;
                    g->a.addr[l] = 4ull * (row * TILE + (r ^ row));
                }
                emit(g);
            }
            begin(g, WM_SPACE_GLOBAL, WM_OP_ST, 16);
            for (unsigned l = 0; l < 32; l++) {
                unsigned t = 32 * w + l, tx = t % 8, ty = t / 8;
                g->a.addr[l] = at(BASE_OUT, ty + 8 * k, 4 * tx);
            }
            emit(g);
        }
    }
}

/* smem.cu: lane l loads word (l % a) * b + (l / a) * c, vec words wide
 * (iteration 0; later iterations shift every lane alike). */
static void gen_smem(gen *g, const lab_params *p, unsigned vec)
{
    if (p->a <= 0 || p->b < 0 || p->c < 0) {
        g->st = WM_ERR_ARG;
        return;
    }
    begin(g, WM_SPACE_SHARED, WM_OP_LD, 4 * vec);
    for (int l = 0; l < 32; l++) {
        int word = (l % p->a) * p->b + (l / p->a) * p->c;
        g->a.addr[l] = (uint64_t)word * 4u;
    }
    emit(g);
}

/* Contract in lab.h. */
wm_status lab_predict(const wm_arch *arch, lab_kind kind, const lab_params *p,
                      lab_pred *out)
{
    gen g;
    memset(out, 0, sizeof *out);
    g.arch = arch;
    g.p = out;
    g.st = WM_OK;
    out->has = 1;
    switch (kind) {
    case LAB_K_MEMCPY:
    case LAB_K_SGEAM:
        out->has = 0;
        break;
    case LAB_K_COPY_W1: case LAB_K_COPY_W2: case LAB_K_COPY_W4:
    case LAB_K_COPY_W8: case LAB_K_COPY_W16:
        gen_copy(&g, kind_width(kind), 1);
        break;
    case LAB_K_COPY_W1_ILP4: case LAB_K_COPY_W2_ILP4:
    case LAB_K_COPY_W4_ILP4: case LAB_K_COPY_W8_ILP4:
    case LAB_K_COPY_W16_ILP4:
        gen_copy(&g, kind_width(kind), 4);
        break;
    case LAB_K_READ_STRIDE: gen_index(&g, p->stride, 0, 0); break;
    case LAB_K_COPY_STRIDE: gen_index(&g, p->stride, 0, 1); break;
    case LAB_K_COPY_OFFSET: gen_index(&g, 1, p->offset, 1); break;
    case LAB_K_COPY_2D:
    case LAB_K_T_NAIVE_ROW:
    case LAB_K_T_NAIVE_COL:
        gen_transpose(&g, kind, 0, 0);
        break;
    case LAB_K_T_TILE: gen_transpose(&g, kind, TILE, 0); break;
    case LAB_K_T_PAD: gen_transpose(&g, kind, TILE + 1, 0); break;
    case LAB_K_T_SWZ: gen_transpose(&g, kind, TILE, 1); break;
    case LAB_K_T_VEC4: gen_vec4(&g); break;
    case LAB_K_SMEM32: gen_smem(&g, p, 1); break;
    case LAB_K_SMEM64: gen_smem(&g, p, 2); break;
    case LAB_K_SMEM128: gen_smem(&g, p, 4); break;
    case LAB_NKINDS: return WM_ERR_ARG;
    }
    if (g.st != WM_OK)
        return g.st;
    if (out->has) {
        uint64_t sec = out->g_ld_sectors + out->g_st_sectors;
        uint64_t ideal = out->g_ld_ideal + out->g_st_ideal;
        out->efficiency = sec ? (double)ideal / (double)sec : 1.0;
        out->nway_pred = out->s_ld_req ? (double)out->s_ld_wavefronts /
                                             (double)out->s_ld_req
                                       : 0.0;
    }
    return WM_OK;
}
