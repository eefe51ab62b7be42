/*
 * ptx_wgmma.c -- sm_90a warpgroup matrix multiply: wgmma.mma_async
 * (m64nNk16 f16/bf16, m64nNk8 tf32, m64nNk32 e4m3/e5m2 and s8/u8), its
 * 64-bit shared-memory matrix descriptors and swizzle modes, and the
 * descriptors' shared-memory reads as memory accesses of the report
 * (docs/design/wgmma.md).
 *
 * A warpgroup is 4 consecutive warps, the first of them a multiple of 4
 * in the CTA.  Warp r of the group owns rows 16r .. 16r+15 of A and of the
 * 64 x N accumulator D; every warp uses all of B.  So each warp computes
 * its 16 rows when it executes the instruction, independently of the
 * other three: the interpreter runs warps one after another, and the
 * group's warps meet the same instruction with the same shared memory
 * (the kernel fences and synchronises before wgmma, as the ISA requires).
 * Results are written at issue; commit_group and wait_group have nothing
 * left to wait for.
 */
#include "ptx_int.h"

#include <math.h>

/* Input element types (wmi_insn.type2 = A, mod2 = B). */
enum { WG_IN_NONE, WG_IN_F16, WG_IN_BF16, WG_IN_TF32, WG_IN_E4M3,
       WG_IN_E5M2, WG_IN_S8, WG_IN_U8 };

static const char *const in_names[] = {"", "f16", "bf16", "tf32", "e4m3",
                                       "e5m2", "s8", "u8"};

static unsigned in_bytes(unsigned t)
{
    return t == WG_IN_TF32 ? 4 : (t == WG_IN_F16 || t == WG_IN_BF16) ? 2 : 1;
}

/* K of an instruction: 32 bytes of each row of A (16, 8 or 32 elements) */
static unsigned k_of(const wmi_insn *in)
{
    return 32 / in_bytes(in->type2);
}

static unsigned n_of(const wmi_insn *in)
{
    return 8u * in->mod;
}

static int is_int(unsigned t)
{
    return t == WG_IN_S8 || t == WG_IN_U8;
}

/* ---- decoding ------------------------------------------------------------ */

static int word_is(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static unsigned in_type(const char *s, size_t n)
{
    for (unsigned t = 1; t < WM_ARRAY_LEN(in_names); t++)
        if (word_is(s, n, in_names[t]))
            return t;
    return WG_IN_NONE;
}

/* Is the accumulator type d with inputs a, b and shape n a form the ISA
   defines? */
static int form_ok(wmi_type d, unsigned a, unsigned b, unsigned n)
{
    if (n < 8 || n > 256 || n % 8)
        return 0;
    switch (a) {
    case WG_IN_F16:
        return b == a && (d == PT_F16 || d == PT_F32);
    case WG_IN_BF16:
    case WG_IN_TF32:
        return b == a && d == PT_F32;
    case WG_IN_E4M3:
    case WG_IN_E5M2:
        return (b == WG_IN_E4M3 || b == WG_IN_E5M2) &&
               (d == PT_F16 || d == PT_F32);
    case WG_IN_S8:
    case WG_IN_U8:
        return is_int(b) && d == PT_S32 && (n <= 32 || n % 16 == 0);
    default:
        return 0;
    }
}

void wmi_ptx_wgmma_decode(const char *s, size_t n, wmi_insn *in)
{
    const char *q = s, *e = s + n;
    unsigned shape_n = 0, shape_k = 0, nt = 0, it[2] = {0, 0};
    int mma = 0, sparse = 0, other = 0;
    wmi_type dt = PT_NONE;
    in->mod = WG_FENCE;
    while (q < e) {
        const char *d = memchr(q, '.', (size_t)(e - q));
        size_t wl = (size_t)((d ? d : e) - q);
        if (word_is(q, wl, "fence"))
            in->mod = WG_FENCE;
        else if (word_is(q, wl, "commit_group"))
            in->mod = WG_COMMIT;
        else if (word_is(q, wl, "wait_group"))
            in->mod = WG_WAIT;
        else if (word_is(q, wl, "mma_async"))
            mma = 1;
        else if (word_is(q, wl, "sp"))
            sparse = 1;
        else if (wl > 4 && memcmp(q, "m64n", 4) == 0) {
            char *k = NULL;
            shape_n = (unsigned)strtoul(q + 4, &k, 10);
            if (k && k < q + wl && *k == 'k')
                shape_k = (unsigned)strtoul(k + 1, NULL, 10);
        } else if (mma && nt == 0 && (word_is(q, wl, "f32") ||
                                      word_is(q, wl, "f16") ||
                                      word_is(q, wl, "s32"))) {
            dt = q[0] == 's' ? PT_S32 : q[1] == '3' ? PT_F32 : PT_F16;
            nt++;
        } else if (mma && nt >= 1 && nt <= 2 && in_type(q, wl)) {
            it[nt - 1] = in_type(q, wl);
            nt++;
        } else if (mma && !word_is(q, wl, "wgmma") &&
                   !word_is(q, wl, "sync") && !word_is(q, wl, "aligned") &&
                   !word_is(q, wl, "satfinite"))
            other = 1; /* .b1 inputs, .and.popc, anything new */
        q += wl + 1;
    }
    if (!mma)
        return; /* WGMMA_SYNC: fence, commit_group or wait_group */
    in->op = OP_WGMMA;
    in->type = (uint8_t)dt;
    in->type2 = (uint8_t)it[0];
    in->mod2 = (uint8_t)it[1];
    in->mod = (uint8_t)(shape_n / 8);
    if (sparse || other || nt != 3 || !form_ok(dt, it[0], it[1], shape_n) ||
        shape_k != k_of(in))
        in->op = OP_UNKNOWN;
}

unsigned wmi_ptx_wgmma_nimm(const wmi_insn *in, int areg)
{
    if (is_int(in->type2))
        return 0; /* d, a, b, scale-d */
    if (in_bytes(in->type2) != 2)
        return 2; /* imm-scale-a, imm-scale-b */
    return areg ? 3 : 4; /* + imm-trans-b, or + imm-trans-a, imm-trans-b */
}

/* ---- values ------------------------------------------------------------- */

/* Element k (of 32 / size) of input type t in the raw bits v; integer
   inputs as their exact value. */
static float elem(unsigned t, uint32_t v, unsigned k)
{
    switch (t) {
    case WG_IN_F16: return wmi_half_to_float((uint16_t)(v >> (16 * k)));
    case WG_IN_BF16: return wmi_bf16_to_float((uint16_t)(v >> (16 * k)));
    case WG_IN_TF32: return wmi_f32(v & 0xffffe000u); /* the top 19 bits */
    case WG_IN_E4M3: return wmi_fp8_to_float((uint8_t)(v >> (8 * k)), 0);
    case WG_IN_E5M2: return wmi_fp8_to_float((uint8_t)(v >> (8 * k)), 1);
    case WG_IN_S8: return (float)(int8_t)(v >> (8 * k));
    case WG_IN_U8: return (float)(uint8_t)(v >> (8 * k));
    default: return 0.0f;
    }
}

/* ---- descriptors -------------------------------------------------------- */

/* A decoded matrix descriptor (PTX ISA "Matrix Descriptor Format"). */
typedef struct wg_desc {
    uint32_t start, lbo, sbo; /* bytes */
    unsigned base;            /* matrix base offset, bits 51-49 */
    unsigned width;           /* swizzle bytes: 128, 64, 32; 0 none */
} wg_desc;

static wg_desc desc_of(uint64_t v)
{
    static const unsigned widths[4] = {0, 128, 64, 32};
    wg_desc d;
    d.start = (uint32_t)(v & 0x3fff) << 4;
    d.lbo = (uint32_t)(v >> 16 & 0x3fff) << 4;
    d.sbo = (uint32_t)(v >> 32 & 0x3fff) << 4;
    d.base = (unsigned)(v >> 49 & 7);
    d.width = widths[v >> 62];
    return d;
}

/*
 * Shared address of byte kb of row k (MN-major) or byte mb of row mn
 * (K-major), in the canonical layouts (units of 16 B, W = width / 16):
 *   K-major, none:     row mn at (mn%8)*16 + (mn/8)*SBO, 16 B chunk j at j*LBO
 *   K-major, swizzled: row mn at (mn%8)*width + (mn/8)*SBO, the row's bytes
 *                      contiguous
 *   MN-major, none:    chunk mb/16 at (mb/16)*SBO, row k at (k%8)*16 +
 *                      (k/8)*LBO
 *   MN-major, swizzled: byte mb at mb%width + (mb/width)*LBO, row k at
 *                      (k%8)*width + (k/8)*SBO
 * then the swizzle: address bits [4, 4+log2 W) ^= bits [7, 7+log2 W).
 */
static uint32_t elem_addr(const wg_desc *d, int mn_major, unsigned mn,
                          unsigned kb)
{
    uint32_t off;
    unsigned w = d->width;
    if (!mn_major && !w)
        off = (mn % 8) * 16 + (mn / 8) * d->sbo + (kb / 16) * d->lbo + kb % 16;
    else if (!mn_major)
        off = (mn % 8) * w + (mn / 8) * d->sbo + kb;
    else if (!w) /* mn: the row along K, kb: the byte along MN */
        off = (kb / 16) * d->sbo + (mn % 8) * 16 + (mn / 8) * d->lbo + kb % 16;
    else
        off = kb % w + (kb / w) * d->lbo + (mn % 8) * w + (mn / 8) * d->sbo;
    uint32_t a = d->start + off;
    if (w)
        a ^= ((a >> 7) & (w / 16 - 1)) << 4;
    return a;
}

/* ---- one operand from shared memory ------------------------------------- */

typedef struct wg_operand {
    const char *name; /* "A" or "B" */
    wg_desc d;
    int mn_major;
    unsigned type, esize;
    unsigned rows; /* M or N rows read */
    unsigned row0; /* first row (A: 16 x the warp's rank) */
} wg_operand;

static wm_status desc_check(wmi_cta *c, wmi_warp *w, uint32_t pc,
                            const wg_operand *o)
{
    if (o->d.width && o->d.base)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_UNSUPPORTED,
                             "wgmma descriptor of %s has matrix base offset "
                             "%u (only 0 is modelled: the pattern starting on "
                             "its swizzle boundary)", o->name, o->d.base);
    if (o->mn_major && o->esize != 2)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_UNSUPPORTED,
                             "wgmma: transposed %s needs 16-bit inputs",
                             o->name);
    return WM_OK;
}

/* The counts of one instruction's operand reads, summed, and its first
   request (the site's example access). */
typedef struct wg_count {
    wm_counts sum;
    wm_access first;
    int n;
} wg_count;

static void counts_add(wm_counts *s, const wm_counts *c)
{
    s->active += c->active;
    s->requests += c->requests;
    s->bytes += c->bytes;
    s->wavefronts += c->wavefronts;
    s->ideal_wavefronts += c->ideal_wavefronts;
    s->conflicts += c->conflicts;
    s->nway = c->nway > s->nway ? c->nway : s->nway;
}

/* Count the request in acc (lanes 0 .. nlanes-1) into *wc. */
static wm_status count_request(wmi_cta *c, wm_access *acc, unsigned nlanes,
                               wg_count *wc)
{
    wm_counts one;
    acc->mask = nlanes == 32 ? 0xffffffffu : (1u << nlanes) - 1;
    wm_status st = wm_count(wm_agg_arch(c->agg), acc, &one);
    if (st != WM_OK)
        return st;
    if (!wc->n++)
        wc->first = *acc;
    counts_add(&wc->sum, &one);
    return WM_OK;
}

/* The shared address of 16 B chunk j of row i of core matrix g (K-major:
   rows along M/N, chunks along K; MN-major: rows along K, chunks along
   M/N). */
static uint32_t chunk_addr(const wg_operand *o, unsigned g, unsigned i,
                           unsigned j)
{
    unsigned row = g * 8 + i;
    return o->mn_major ? elem_addr(&o->d, 1, row, o->row0 * o->esize + j * 16)
                       : elem_addr(&o->d, 0, o->row0 + row, j * 16);
}

/*
 * The report's view of one operand read: requests of 4 core matrices of 8
 * rows x 16 B, each core matrix one 8-lane phase of a 16-byte-per-lane
 * access (op wgmma), summed into *wc.
 */
static wm_status count_operand(wmi_cta *c, const wg_operand *o, unsigned K,
                               wg_count *wc)
{
    unsigned along = o->mn_major ? o->rows * o->esize / 16 : 2;
    unsigned groups = o->mn_major ? K / 8 : o->rows / 8;
    wm_access acc;
    memset(&acc, 0, sizeof acc);
    acc.site = wc->first.site;
    acc.space = WM_SPACE_SHARED;
    acc.op = WM_OP_WGMMA;
    acc.size = 16;
    unsigned lane = 0;
    for (unsigned g = 0; g < groups; g++)
        for (unsigned j = 0; j < along; j++) {
            for (unsigned i = 0; i < 8; i++)
                acc.addr[lane + i] = chunk_addr(o, g, i, j);
            lane += 8;
            if (lane == 32) {
                wm_status st = count_request(c, &acc, lane, wc);
                if (st != WM_OK)
                    return st;
                lane = 0;
            }
        }
    return lane ? count_request(c, &acc, lane, wc) : WM_OK;
}

/* Rows row0 .. row0+rows-1 of operand o (K elements each) into
   out[row][k]. */
static wm_status read_operand(wmi_cta *c, wmi_warp *w, uint32_t pc,
                              const wg_operand *o, unsigned K,
                              float (*out)[32])
{
    for (unsigned r = 0; r < o->rows; r++)
        for (unsigned k = 0; k < K; k++) {
            unsigned mn = o->row0 + r;
            uint32_t a = o->mn_major
                             ? elem_addr(&o->d, 1, k, mn * o->esize)
                             : elem_addr(&o->d, 0, mn, k * o->esize);
            if ((uint64_t)a + o->esize > c->smem_bytes)
                return wmi_ptx_fault(c, w, 0, pc, WM_ERR_FAULT,
                                     "out-of-bounds wgmma read of %s "
                                     "(row %u, k %u) at shared offset %u "
                                     "(the block has %llu bytes)",
                                     o->name, mn, k, a,
                                     (unsigned long long)c->smem_bytes);
            uint32_t v = 0;
            memcpy(&v, c->smem + a, o->esize);
            out[r][k] = elem(o->type, v, 0);
        }
    return WM_OK;
}

/* ---- registers ---------------------------------------------------------- */

/* A from registers (the mma.m16n8k16 A fragment, per warp): register j of
   lane (g = lane / 4, t = lane % 4) holds row g + 8 (j & 1) and the
   4-byte group of K starting at byte 4t + 16 (j >> 1). */
static void read_areg(const wm_ptx_module *mod, uint64_t (*R)[32],
                      const wmi_insn *in, float (*A)[32])
{
    unsigned es = in_bytes(in->type2), per = 4 / es;
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l >> 2, t = l & 3;
        for (unsigned j = 0; j < 4; j++) {
            uint32_t v = (uint32_t)R[wmi_vslot(mod, in->a, j)][l];
            unsigned row = g + 8 * (j & 1);
            if (es == 4) { /* tf32: k = t + 4 (j >> 1) */
                A[row][t + 4 * (j >> 1)] = elem(in->type2, v, 0);
                continue;
            }
            for (unsigned e = 0; e < per; e++)
                A[row][per * t + 4 * per * (j >> 1) + e] =
                    elem(in->type2, v, e);
        }
    }
}

/* Accumulator value v of lane l: row g + 8 ((v >> 1) & 1), column
   2t + (v & 1) + 8 (v >> 2). */
static unsigned acc_row(unsigned l, unsigned v)
{
    return (l >> 2) + 8 * ((v >> 1) & 1);
}

static unsigned acc_col(unsigned l, unsigned v)
{
    return 2 * (l & 3) + (v & 1) + 8 * (v >> 2);
}

static wm_status check_shape(wmi_cta *c, wmi_warp *w, uint32_t pc,
                             const wmi_insn *in, uint32_t m)
{
    const wm_ptx_module *mod = c->m;
    unsigned N = n_of(in);
    unsigned want_d = in->type == PT_F16 ? N / 4 : N / 2;
    unsigned first = w->index & ~3u;
    if (m != WMI_FULL)
        return wmi_ptx_fault(c, w, m ? (unsigned)__builtin_ctz(m) : 0, pc,
                             WM_ERR_FAULT,
                             "wgmma.mma_async needs all 32 lanes of the warp "
                             "converged (executing lanes 0x%08x)", m);
    if (first + 4 > c->nwarps || (uint64_t)(first + 4) * 32 > c->nthreads)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_FAULT,
                             "wgmma.mma_async needs a whole warpgroup: warp "
                             "%u is in warps %u-%u, the block has %u threads",
                             w->index, first, first + 3, c->nthreads);
    if (wmi_vcount(mod, in->d) != want_d)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_FAULT,
                             "wgmma.mma_async m64n%u.%s needs %u accumulator "
                             "registers, got %u",
                             N, in->type == PT_F16 ? "f16" : "f32/s32", want_d,
                             wmi_vcount(mod, in->d));
    if ((in->a & WMI_VEC) && wmi_vcount(mod, in->a) != 4)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_FAULT,
                             "wgmma.mma_async: A from registers takes 4, "
                             "got %u",
                             wmi_vcount(mod, in->a));
    return WM_OK;
}

/* D (this warp's 16 x N) = A B + (scale-d ? C : 0), written back. */
static WM_NOCOV void accumulate(const wm_ptx_module *mod, uint64_t (*R)[32],
                       const wmi_insn *in, float (*A)[32], float (*B)[32])
{
    unsigned N = n_of(in), K = k_of(in), nv = N / 2;
    float sa = (in->imm & WG_NEG_A) ? -1.0f : 1.0f;
    float sb = (in->imm & WG_NEG_B) ? -1.0f : 1.0f;
    for (unsigned l = 0; l < 32; l++) {
        int keep = (R[in->c][l] & 1) != 0;
        for (unsigned v = 0; v < nv; v++) {
            unsigned row = acc_row(l, v), col = acc_col(l, v);
            uint32_t s = wmi_vslot(mod, in->d, in->type == PT_F16 ? v / 2 : v);
            uint64_t old = R[s][l];
            if (in->type == PT_S32) {
                int64_t acc = keep ? (int32_t)(uint32_t)old : 0;
                for (unsigned k = 0; k < K; k++)
                    acc += (int64_t)A[row][k] * (int64_t)B[col][k];
                if (in->flags & F_SAT)
                    acc = acc > INT32_MAX ? INT32_MAX
                                          : acc < INT32_MIN ? INT32_MIN : acc;
                R[s][l] = (uint32_t)(int32_t)acc;
                continue;
            }
            float acc = 0.0f;
            if (keep)
                acc = in->type == PT_F16
                          ? wmi_half_to_float((uint16_t)(old >> (16 * (v & 1))))
                          : wmi_f32(old);
            for (unsigned k = 0; k < K; k++)
                acc = fmaf(sa * A[row][k], sb * B[col][k], acc);
            if (in->type == PT_F32) {
                R[s][l] = wmi_f32_bits(acc);
            } else {
                unsigned sh = 16 * (v & 1);
                uint64_t h = wmi_float_to_half(acc, RND_RN);
                R[s][l] = (old & ~((uint64_t)0xffff << sh) & 0xffffffffu) |
                          h << sh;
            }
        }
    }
}

wm_status wmi_ptx_wgmma(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                        uint32_t pc, uint32_t m)
{
    const wm_ptx_module *mod = c->m;
    uint64_t (*R)[32] = w->r;
    float A[16][32], B[256][32]; /* this warp's rows of A; all of B */
    wm_status st = check_shape(c, w, pc, in, m);
    if (st != WM_OK)
        return st;
    unsigned rank = w->index & 3, K = k_of(in);
    wg_count wc;
    memset(&wc, 0, sizeof wc);
    wc.first.site = pc;
    wg_operand ob = {"B", desc_of(R[in->b][0]), (in->imm & WG_TRANS_B) != 0,
                     in->mod2, in_bytes(in->mod2), n_of(in), 0};
    int adesc = !(in->a & WMI_VEC);
    wg_operand oa = {"A", desc_of(adesc ? R[in->a][0] : 0),
                     (in->imm & WG_TRANS_A) != 0, in->type2,
                     in_bytes(in->type2), 16, 16 * rank};
    if ((st = desc_check(c, w, pc, &ob)) != WM_OK ||
        (adesc && (st = desc_check(c, w, pc, &oa)) != WM_OK))
        return st;
    if (adesc)
        st = read_operand(c, w, pc, &oa, K, A);
    else
        read_areg(mod, R, in, A);
    if (st != WM_OK || (st = read_operand(c, w, pc, &ob, K, B)) != WM_OK)
        return st;
    if (c->agg) {
        /* A: each warp its 16 rows; B: one read for the warpgroup,
           counted with its first warp */
        if (adesc && (st = count_operand(c, &oa, K, &wc)) != WM_OK)
            return st;
        if (rank == 0 && (st = count_operand(c, &ob, K, &wc)) != WM_OK)
            return st;
        if (wc.n && (st = wmi_agg_add_counted(c->agg, &wc.first, &wc.sum,
                                              NULL)) != WM_OK)
            return st;
    }
    accumulate(mod, R, in, A, B);
    return WM_OK;
}

/* ---- setmaxnreg --------------------------------------------------------- */

/* setmaxnreg.{inc,dec}.sync.aligned.u32 N: the warpgroup asks for N
   registers per thread (24 .. 256, a multiple of 8, as the PTX ISA's
   setmaxnreg requires).  Registers are not a resource here, so only the count
   and the requests reach the result (and the report). */
wm_status wmi_ptx_setmaxnreg(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                             uint32_t pc, uint32_t m)
{
    uint64_t n = w->r[in->a][0];
    if (m != WMI_FULL)
        return wmi_ptx_fault(c, w, m ? (unsigned)__builtin_ctz(m) : 0, pc,
                             WM_ERR_FAULT,
                             "setmaxnreg needs all 32 lanes of the warp "
                             "converged (executing lanes 0x%08x)", m);
    if (n < 24 || n > 256 || n % 8)
        return wmi_ptx_fault(c, w, 0, pc, WM_ERR_FAULT,
                             "setmaxnreg register count %llu is not a "
                             "multiple of 8 in 24 .. 256",
                             (unsigned long long)n);
    c->nreg++;
    if (in->mod && n > c->nreg_inc)
        c->nreg_inc = (uint32_t)n;
    if (!in->mod && (!c->nreg_dec || n < c->nreg_dec))
        c->nreg_dec = (uint32_t)n;
    return WM_OK;
}
