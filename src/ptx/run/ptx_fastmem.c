/*
 * ptx_fastmem.c -- the fast path of ld/st (never under WMI_RUN_SLOW):
 * explicit global and shared accesses, scalar or vector, whose lanes
 * cannot fault, and ld.param from a uniform address.  wmi_ptx_ldst in
 * ptx_exec_mem.c calls it first and runs its checked per-lane path when this
 * declines.
 *
 * Invariants (tests/unit/ptx_twin.h holds every launch of the PTX tests to
 * them against the slow path):
 *   - A lane that might fault (out of bounds, misaligned for the whole
 *     vector, in another buffer) declines the whole instruction before
 *     anything is read or written, so the slow path reports the fault.
 *   - Memory and registers end as the slow path leaves them.  The slow
 *     path moves element k of every lane in lane order, k = 0, 1, ...;
 *     two lanes' aligned accesses of one size either coincide or are
 *     disjoint, so any order that keeps lane order per address (and k
 *     order per register) gives the same bytes.
 *   - The model record is the one emit() in ptx_exec_mem.c builds: size is
 *     the bytes per lane (all elements), inactive lanes' addresses zero.
 *
 * A full warp's half warps are classified (classify): all 16 lanes at
 * one address (a broadcast, such as the SGEMM tile's As[ty][k]) or at
 * consecutive addresses (coalesced rows, Bs[k][tx]).  Those halves move
 * as one element or one straight copy (a vectorised zero-extension into
 * the 64-bit registers) instead of a 16-lane gather.  The class is kept
 * in the memo beside the pattern it belongs to, so a repeat reuses it.
 *
 * Affine accesses (the active lanes one run at base + lane * d: rows,
 * columns, strided and reversed rows) skip the per-lane work where they
 * can: a full warp's address registers are tested for one stride and
 * bounds-checked at the two ends (affine_full), its class follows from d,
 * lane addresses are written only when a record or the gather needs them,
 * the memo compares (mask, d) instead of 32 offsets, and a new pattern
 * is counted in closed form (wmi_count_affine) instead of by wm_count.
 */
#include "ptx_check_int.h"
#include "ptx_int.h"

#ifdef __SSE4_1__
#include <smmintrin.h>
#endif


/* Forced inlining: the element loops are instantiated per (size, count)
   so that the compiler sees constant strides. */
#if defined(__GNUC__)
#define FM_INLINE static inline __attribute__((always_inline))
#else
#define FM_INLINE static inline
#endif

#if defined(__GNUC__)
#define FM_NOINLINE __attribute__((noinline))
#else
#define FM_NOINLINE
#endif

/* How a half warp's 16 lanes address memory (full masks only). */
enum { H_ANY, H_SAME, H_LIN };

/* One ld/st as the fast path sees it. */
typedef struct fm_ldst {
    unsigned esz, n, size; /* element bytes, elements, bytes per lane */
    int sgn;               /* signed load: sign-extend each element */
    uint64_t *V[8];        /* element k's register (32 lanes) */
    uintptr_t base;        /* host address of simulated address 0 */
    uint8_t kind;          /* H_*: how each half warp's lanes address */
    uint8_t affine;        /* the active lanes are one run stepping by d */
    int64_t d;
    uint64_t lin;          /* pass's affinity test, zero iff affine */
    uint64_t a0;           /* affine_full: lane 0's address */
    uint8_t lazy;          /* affine_full: ad[] holds only lanes 0 and 16 */
    uint64_t start, lim;   /* affine_place: the window's start, the last
                              lane offset allowed in it */
} fm_ldst;

static inline uint64_t sext(uint64_t v, unsigned bits)
{
    uint64_t s = (uint64_t)1 << (bits - 1);
    v &= (s << 1) - 1;
    return (v ^ s) - s;
}

static wm_space model_space(wmi_space s)
{
    return s == SP_SHARED ? WM_SPACE_SHARED : WM_SPACE_GLOBAL;
}

/*
 * The instruction's element size, count and registers into *o; 0 for a
 * shape left to the slow path (b128 and other sizes, vectors of more
 * than 16 bytes, which the model does not count).
 */
FM_INLINE int shape(const wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                    int store, fm_ldst *o)
{
    const wm_ptx_module *mod = c->m;
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t);
    uint32_t vals = store ? in->b : in->d;
    assert(vals != WMI_NOREG && in->a != WMI_NOREG);
    o->esz = bits < 8 ? 1 : bits / 8;
    o->n = (vals & WMI_VEC) ? mod->pool[vals & ~WMI_VEC] : 1;
    o->size = o->esz * o->n;
    if ((o->esz != 1 && o->esz != 2 && o->esz != 4 && o->esz != 8) ||
        (o->n != 1 && o->n != 2 && o->n != 4 && o->n != 8) || o->size > 16)
        return 0;
    o->sgn = wmi_type_signed(t) && o->esz < 8;
    for (unsigned k = 0; k < o->n; k++)
        o->V[k] = w->r[(vals & WMI_VEC) ? mod->pool[(vals & ~WMI_VEC) + 1 + k]
                                        : vals];
    o->kind = H_ANY;
    o->affine = o->lazy = 0;
    o->d = 0;
    return 1;
}

/*
 * One branch-free pass over the lanes (the space a constant after
 * inlining; vectorised for a full mask): ad[l] = the address, `orv` ORs
 * them (alignment) and `bad` ORs lim - y | y for the offset y in the
 * window (shared: the 32-bit offset itself), whose bits above the window
 * offset are clear iff every y <= lim (y and lim are below 2^40, so
 * lim - y has bit 63 set iff y > lim; an address below the window start
 * wraps y past 2^63).  `lin` ORs each address XOR the first active
 * lane's plus d per active lane before it (d: the first two lanes'
 * difference), zero iff the active lanes step by d (affine_of); only for
 * a partial mask, as affine_full has tested a full one.
 * Returns 0 when some lane might fault.
 */
FM_INLINE int pass(const uint64_t *restrict A, uint64_t off, uint32_t m,
                   uint64_t start, uint64_t lim, uint64_t size,
                   uint64_t *restrict ad, int shared, fm_ldst *o)
{
    const uint64_t keep = shared ? 0xffffffffu : ~(uint64_t)0;
    uint64_t e = 0, d = 0, orv = 0, bad = 0, lin = 0;
    if (m != WMI_FULL) {
        unsigned lo = (unsigned)__builtin_ctz(m);
        e = (A[lo] + off) & keep;
        d = lo < 31 ? ((A[lo + 1] + off) & keep) - e : 0;
    }
    WMI_LOOP(uint64_t x = (A[l] + off) & keep; ad[l] = x; orv |= x;
         bad |= shared ? lim - x : (lim - (x - start)) | (x - start);
         if (m != WMI_FULL) { lin |= x ^ e; e += d; });
    o->lin = lin;
    o->d = (int64_t)d;
    return !(orv & (size - 1)) && !(bad & ~WMI_WIN_MASK);
}

/* The lanes' addresses into ad[] and o->base; 0 when some lane might
   fault. */
FM_INLINE int addrs(const wmi_cta *c, const uint64_t *A, int64_t imm,
                    wmi_space sp, uint32_t m, fm_ldst *o, uint64_t *ad)
{
    const uint64_t off = (uint64_t)imm;
    if (sp == SP_SHARED) {
        if (c->smem_bytes < o->size)
            return 0;
        o->base = (uintptr_t)c->smem;
        return pass(A, off, m, 0, c->smem_bytes - o->size, o->size, ad, 1, o);
    }
    uint64_t i = (A[__builtin_ctz(m)] + off) >> WMI_WIN_SHIFT;
    if (i < 1 || i > c->ngbufs - 1)
        return 0;
    const wmi_gbuf *b = &c->gbufs[i - 1];
    if (!b->p || b->bytes < o->size || b->bytes > WMI_WIN_MASK)
        return 0;
    /* modular: base + addr is b->p + offset for every lane */
    o->base = (uintptr_t)b->p - (uintptr_t)(i << WMI_WIN_SHIFT);
    return pass(A, off, m, i << WMI_WIN_SHIFT, b->bytes - o->size, o->size,
                ad, 0, o);
}

/* The lanes of an affine full warp at a0 + l d (one vector induction). */
FM_INLINE void fill_lanes(uint64_t *restrict ad, uint64_t a0, int64_t d)
{
    uint64_t e = a0;
    for (unsigned l = 0; l < 32; l++, e += (uint64_t)d)
        ad[l] = e;
}

/*
 * A full warp whose lanes sit at x0 + l d (x0 with the offset, shared: a
 * 32-bit offset), checked at its two ends instead of at every lane: with
 * |d| at most a window the lanes' addresses are monotone without
 * wrapping, so when the lowest and the highest lie in the buffer (shared:
 * below smem_bytes, so each is its own 32-bit offset) every lane does,
 * and (x0 | d) aligned aligns them all.  Returns 1 with o->affine, o->a0,
 * o->d and the half-warp class, ad[] left to fill_lanes (o->lazy); 0 when
 * some lane might be out of place.
 */
FM_INLINE int affine_place(const wmi_cta *c, uint64_t x0, uint64_t d,
                           wmi_space sp, fm_ldst *o)
{
    int neg = (int64_t)d < 0;
    if ((neg ? 0 - d : d) > WMI_WIN_MASK)
        return 0;
    uint64_t x31 = x0 + 31 * d;
    uint64_t lo = neg ? x31 : x0, hi = neg ? x0 : x31, start = 0, lim;
    if (sp == SP_SHARED) {
        if (c->smem_bytes < o->size)
            return 0;
        o->base = (uintptr_t)c->smem;
        lim = c->smem_bytes - o->size;
    } else {
        uint64_t i = x0 >> WMI_WIN_SHIFT;
        if (i < 1 || i > c->ngbufs - 1)
            return 0;
        const wmi_gbuf *b = &c->gbufs[i - 1];
        if (!b->p || b->bytes < o->size || b->bytes > WMI_WIN_MASK)
            return 0;
        start = i << WMI_WIN_SHIFT;
        o->base = (uintptr_t)b->p - (uintptr_t)start;
        lim = b->bytes - o->size;
    }
    if (lo - start > lim || hi - start > lim || ((x0 | d) & (o->size - 1)))
        return 0;
    o->start = start;
    o->lim = lim;
    o->affine = o->lazy = 1;
    o->a0 = x0;
    o->d = (int64_t)d;
    o->kind = !d ? H_SAME : d == o->size ? H_LIN : H_ANY;
    return 1;
}

/*
 * A full warp whose address registers step by one d from lane to lane
 * (the neighbours' differences: one pass, no stores), placed by
 * affine_place; 0 when the lanes are not affine or might be out of
 * place: the general pass decides.
 */
FM_INLINE int affine_full(const wmi_cta *c, const uint64_t *A, int64_t imm,
                          wmi_space sp, fm_ldst *o)
{
    uint64_t d = A[1] - A[0], lin = 0;
    for (unsigned l = 1; l < 32; l++)
        lin |= (A[l] - A[l - 1]) ^ d;
    if (lin)
        return 0;
    const uint64_t keep = sp == SP_SHARED ? 0xffffffffu : ~(uint64_t)0;
    return affine_place(c, (A[0] + (uint64_t)imm) & keep, d, sp, o);
}

/*
 * How a full warp's lanes address memory, by half warp: H_SAME when
 * each half's 16 lanes share one address, H_LIN when each half's lanes
 * are consecutive (ad[h + i] = ad[h] + i * size), else H_ANY.  A pure
 * function of the addresses relative to lane 0, so a memo hit reuses it.
 */
FM_INLINE uint8_t classify(const uint64_t *ad, uint64_t size)
{
    uint64_t same = 0, lin = 0;
    for (unsigned i = 0; i < 16; i++) {
        uint64_t d0 = ad[i] - ad[0], d1 = ad[16 + i] - ad[16];
        same |= d0 | d1;
        lin |= (d0 ^ i * size) | (d1 ^ i * size);
    }
    return !same ? H_SAME : !lin ? H_LIN : H_ANY;
}

/*
 * Are a partial mask's active lanes one run lo..hi whose addresses step
 * by one d (pass's o->lin zero)?  Then o->affine; a full warp is
 * affine_full's, and one it did not take is counted lane by lane.  The
 * addresses lie in one window below 2^41 (pass checked every lane), so
 * the differences are exact and the lanes sit at ad[lo] + (l - lo) d
 * without wrapping: wmi_count_affine's contract.
 */
FM_INLINE void affine_of(uint32_t m, fm_ldst *o)
{
    unsigned lo = (unsigned)__builtin_ctz(m), n = (unsigned)__builtin_popcount(m);
    int run = (m >> lo) == (uint32_t)(((uint64_t)1 << n) - 1);
    o->affine = run && !o->lin;
    o->d = o->affine && n > 1 ? o->d : 0;
}

/* esz bytes at p, zero-extended (esz a constant after inlining). */
FM_INLINE uint64_t get(const uint8_t *p, unsigned esz)
{
    uint8_t b;
    uint16_t h;
    uint32_t u;
    uint64_t d;
    switch (esz) {
    case 1: memcpy(&b, p, 1); return b;
    case 2: memcpy(&h, p, 2); return h;
    case 4: memcpy(&u, p, 4); return u;
    default: memcpy(&d, p, 8); return d;
    }
}

/*
 * ld.param of one scalar from a uniform address (the parameter symbol
 * lives in a constant slot): one bounds check, one load.  The shapes
 * shape() takes, for one register; taken before the vector builds are
 * chosen (wmi_ptx_fast_ldst), as it has no lane pass to widen and a
 * kernel's first instructions are mostly these.
 */
int wmi_ptx_param_value(const wmi_cta *c, const wmi_warp *w,
                        const wmi_insn *in, uint64_t *v)
{
    wmi_type t = (wmi_type)in->type;
    unsigned bits = wmi_type_bits(t), esz = bits < 8 ? 1 : bits / 8;
    assert(in->d != WMI_NOREG && in->a != WMI_NOREG);
    if ((in->d & WMI_VEC) || !c->uni[in->a] ||
        (esz != 1 && esz != 2 && esz != 4 && esz != 8))
        return 0;
    uint64_t addr = w->r[in->a][0] + (uint64_t)in->imm;
    if ((addr & (esz - 1)) || addr + esz > c->f->param_bytes ||
        addr + esz < addr)
        return 0;
    *v = get(c->params + addr, esz);
    *v = wmi_type_signed(t) && esz < 8 ? sext(*v, esz * 8) : *v;
    return 1;
}

/* wmi_ptx_param_value, broadcast to the lanes of m. */
static int param_load(const wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                      uint32_t m)
{
    uint64_t v;
    if (!m || !wmi_ptx_param_value(c, w, in, &v))
        return 0;
    uint64_t *V = w->r[in->d];
    WMI_LOOP(V[l] = v);
    return 1;
}

/* The low esz bytes of v to p. */
FM_INLINE void put(uint8_t *p, uint64_t v, unsigned esz)
{
    uint8_t b = (uint8_t)v;
    uint16_t h = (uint16_t)v;
    uint32_t u = (uint32_t)v;
    switch (esz) {
    case 1: memcpy(p, &b, 1); break;
    case 2: memcpy(p, &h, 2); break;
    case 4: memcpy(p, &u, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

#define HOST(a) ((uint8_t *)(o->base + (uintptr_t)(a)))

/* Element k of nl consecutive lanes (z bytes apart from p) to and from
   lanes l0... of D; restrict: host memory and registers never overlap,
   so the widening and narrowing loops vectorise without alias checks. */
FM_INLINE void get_row(uint64_t *restrict D, const uint8_t *restrict p,
                       unsigned nl, unsigned z, unsigned esz)
{
#ifdef __SSE4_1__
    if (esz == 4 && z == 4 && nl % 2 == 0) {
        /* two lanes per 16-byte store: GCC writes this loop as one 8-byte
           store per lane, and the next instruction's 16-byte reads of the
           row cannot be forwarded from two stores (they wait for the
           stores to reach the cache: the loaded row is read at once) */
        for (unsigned i = 0; i < nl; i += 2)
            _mm_storeu_si128((__m128i *)(void *)(D + i),
                             _mm_cvtepu32_epi64(_mm_loadl_epi64(
                                 (const __m128i *)(const void *)(p + i * 4))));
        return;
    }
#endif
    for (unsigned i = 0; i < nl; i++)
        D[i] = get(p + i * z, esz);
}

FM_INLINE void put_row(uint8_t *restrict p, const uint64_t *restrict S,
                       unsigned nl, unsigned z, unsigned esz)
{
    for (unsigned i = 0; i < nl; i++)
        put(p + i * z, S[i], esz);
}

FM_INLINE void load_rows(uint64_t *const *V, unsigned l0, unsigned nl,
                         const uint8_t *p, unsigned esz, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        get_row(V[k] + l0, p + k * esz, nl, esz * n, esz);
}

FM_INLINE void store_rows(uint64_t *const *V, unsigned l0, unsigned nl,
                          uint8_t *p, unsigned esz, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        put_row(p + k * esz, V[k] + l0, nl, esz * n, esz);
}

/*
 * Load element by element (esz, n constants after inlining): a half warp
 * at one address loads one element per register; consecutive halves
 * load rows (one copy when the second continues the first).
 */
FM_INLINE void load_as(const fm_ldst *o, const uint64_t *ad, uint32_t m,
                       unsigned esz, unsigned n)
{
    const unsigned z = esz * n;
    const uint8_t *p0 = HOST(ad[0]), *p16 = HOST(ad[16]);
    if (m != WMI_FULL || o->kind == H_ANY) {
        for (unsigned k = 0; k < n; k++) {
            uint64_t *V = o->V[k];
            WMI_LOOP(V[l] = get(HOST(ad[l]) + k * esz, esz));
        }
    } else if (o->kind == H_SAME) {
        for (unsigned k = 0; k < n; k++) {
            uint64_t *V = o->V[k];
            uint64_t v0 = get(p0 + k * esz, esz), v16 = get(p16 + k * esz, esz);
            for (unsigned l = 0; l < 16; l++)
                V[l] = v0;
            for (unsigned l = 16; l < 32; l++)
                V[l] = v16;
        }
    } else if (p16 == p0 + 16 * z) {
        load_rows(o->V, 0, 32, p0, esz, n);
    } else {
        load_rows(o->V, 0, 16, p0, esz, n);
        load_rows(o->V, 16, 16, p16, esz, n);
    }
}

/*
 * Store element by element, each address's lanes in lane order: a half
 * warp at one address stores its last lane, and the second half always
 * after the first (the halves may overlap).
 */
FM_INLINE void store_as(const fm_ldst *o, const uint64_t *ad, uint32_t m,
                        unsigned esz, unsigned n)
{
    const unsigned z = esz * n;
    uint8_t *p0 = HOST(ad[0]), *p16 = HOST(ad[16]);
    if (m != WMI_FULL || o->kind == H_ANY) {
        for (unsigned k = 0; k < n; k++) {
            const uint64_t *V = o->V[k];
            WMI_LOOP(put(HOST(ad[l]) + k * esz, V[l], esz));
        }
    } else if (o->kind == H_SAME) {
        for (unsigned k = 0; k < n; k++)
            put(p0 + k * esz, o->V[k][15], esz);
        for (unsigned k = 0; k < n; k++)
            put(p16 + k * esz, o->V[k][31], esz);
    } else if (p16 == p0 + 16 * z) {
        store_rows(o->V, 0, 32, p0, esz, n);
    } else {
        store_rows(o->V, 0, 16, p0, esz, n);
        store_rows(o->V, 16, 16, p16, esz, n);
    }
}

#undef HOST

/*
 * Shapes with loops of their own: scalars and the 4- and 8-byte vectors
 * (float2, float4, double2 ...); the rest share one generic loop.  Each
 * is a function of its own, not inlined: GCC optimises blocks it guesses
 * rarely run for size (no vectorising, `rep movs` copies), and inside
 * one big function every branch of this dispatch looks rare.  They run
 * at the baseline ISA in both builds of the path.
 */
#define FM_SHAPES(X) X(1, 1) X(2, 1) X(4, 1) X(8, 1) X(4, 2) X(4, 4) X(8, 2)


#define X(e, n)                                                               \
    static FM_NOINLINE void load_##e##_##n(const fm_ldst *o,                 \
                                           const uint64_t *ad, uint32_t m)   \
    {                                                                         \
        load_as(o, ad, m, e, n);                                              \
    }                                                                         \
    static FM_NOINLINE void store_##e##_##n(const fm_ldst *o,                \
                                            const uint64_t *ad, uint32_t m)  \
    {                                                                         \
        store_as(o, ad, m, e, n);                                             \
    }
FM_SHAPES(X)
#undef X

static FM_NOINLINE void load_any(const fm_ldst *o, const uint64_t *ad,
                                 uint32_t m)
{
    load_as(o, ad, m, o->esz, o->n);
}

static FM_NOINLINE void store_any(const fm_ldst *o, const uint64_t *ad,
                                  uint32_t m)
{
    store_as(o, ad, m, o->esz, o->n);
}

static void load_host(const fm_ldst *o, const uint64_t *ad, uint32_t m)
{
    switch (o->esz * 16 + o->n) {
#define X(e, n)                                                               \
    case e * 16 + n: load_##e##_##n(o, ad, m); break;
        FM_SHAPES(X)
#undef X
    default: load_any(o, ad, m); break;
    }
    if (o->sgn)
        for (unsigned k = 0; k < o->n; k++) {
            uint64_t *V = o->V[k];
            WMI_LOOP(V[l] = sext(V[l], o->esz * 8));
        }
}

static void store_host(const fm_ldst *o, const uint64_t *ad, uint32_t m)
{
    switch (o->esz * 16 + o->n) {
#define X(e, n)                                                               \
    case e * 16 + n: store_##e##_##n(o, ad, m); break;
        FM_SHAPES(X)
#undef X
    default: store_any(o, ad, m); break;
    }
}

/* Adds the memo's pending repeats (its residues' too) to the aggregator,
   and forgets the residues. */
static wm_status memo_flush_one(wmi_cta *c, wmi_memo *mo)
{
    uint64_t n = mo->pending;
    wm_status st = WM_OK;
    mo->pending = 0;
    if (n)
        st = wmi_agg_add_repeats(c->agg, mo->pc, (wm_space)mo->space,
                                 (wm_op)mo->op, mo->size, &mo->counts, n,
                                 &mo->site);
    for (uint32_t t = mo->resmask; t && st == WM_OK; t &= t - 1) {
        struct wmi_memo_res *q = &mo->res[__builtin_ctz(t)];
        if (q->pending)
            st = wmi_agg_add_repeats(c->agg, mo->pc, (wm_space)mo->space,
                                     (wm_op)mo->op, mo->size, &q->counts,
                                     q->pending, &q->site);
        q->pending = 0;
    }
    mo->resmask = 0;
    return st;
}

wm_status wmi_ptx_memo_flush(wmi_cta *c)
{
    wm_status st = WM_OK;
    for (uint32_t i = 0; i < c->nmemo; i++) {
        wm_status s = c->agg ? memo_flush_one(c, &c->memo[i]) : WM_OK;
        st = st != WM_OK ? st : s;
        c->memo[i].pending = 0;
        c->memo[i].resmask = 0;
        c->memo[i].hot = 0;
        c->memo[i].mask = 0; /* the next aggregator sees a first access */
    }
    return st;
}

/* Instruction pc's memo, or NULL.  Kernels with calls run every fast
   path off (ptx_run.c), so pc lies in the kernel; checked regardless. */
FM_INLINE wmi_memo *memo_at(const wmi_cta *c, uint32_t pc)
{
    uint32_t at = pc - c->f->first;
    uint32_t mi = ALWAYS(at < c->f->count) ? c->memo_of[at] : 0;
    return mi ? &c->memo[mi - 1] : NULL;
}

/* Do the active lanes' addresses relative to the first repeat the memo's
   pattern? */
FM_INLINE int memo_same(const wmi_memo *mo, const uint64_t *ad, uint32_t m,
                        const fm_ldst *o)
{
    if (!mo || mo->mask != m || mo->affine != o->affine)
        return 0;
    if (o->affine) /* the whole pattern is (mask, d) */
        return mo->d == o->d;
    uint64_t a0 = ad[__builtin_ctz(m)], diff = 0;
    WMI_LOOP(diff |= (ad[l] - a0) ^ mo->rel[l]);
    return !diff;
}

/* The counts of the access in c->acc: in closed form when its lanes are
   affine, by the model's pass over the lanes otherwise. */
static wm_status count(const wm_arch *arch, const wm_access *a,
                       const fm_ldst *o, wm_counts *cnt)
{
    if (o->affine &&
        wmi_count_affine(arch, a->space, a->op, a->size, a->mask,
                         a->addr[__builtin_ctzll(a->mask)], o->d, cnt))
        return WM_OK;
    return wm_count(arch, a, cnt);
}

/* A repeat of a full warp at x0 + l d, of counts cnt, to the tap in
   closed form (wmi_agg_tap_repeat). */
static wm_status tap_repeat(wmi_cta *c, uint32_t pc, wm_space sp, wm_op op,
                            unsigned size, uint64_t x0, int64_t d,
                            const wm_counts *cnt)
{
    wmi_affine_access x = {pc, sp, op, size, x0, d};
    return wmi_agg_tap_repeat(c->agg, &x, cnt);
}

/*
 * The memo's pattern moved by r (not a multiple of the unit) from its
 * first access: the counts of that residue, kept in slot r / size of the
 * memo (a slot holding another residue is flushed and replaced).  The
 * first access of a residue is counted and added with its addresses (it
 * may be the site's worst), the others are repeats -- or, when sees (a
 * tap records every access, or the SASS level merges them), each is added
 * with its addresses and the residue's counts; with aff (a full affine
 * warp whose tap takes the closed form) a repeat is handed to the tap so.
 */
static wm_status record_residue(wmi_cta *c, const wm_access *a, wmi_memo *mo,
                                const fm_ldst *o, uint64_t r, int sees,
                                int aff)
{
    uint32_t i = (uint32_t)(r / a->size) & (WMI_MEMO_RES - 1);
    struct wmi_memo_res *q = &mo->res[i];
    if ((mo->resmask >> i & 1) && q->r == r) {
        if (sees && !aff) /* added now, with its addresses, for the tap */
            return wmi_agg_add_counted(c->agg, a, &q->counts, &q->site);
        q->pending++;
        return aff ? tap_repeat(c, a->site, a->space, a->op, a->size, o->a0,
                                o->d, &q->counts)
                   : WM_OK;
    }
    wm_status st = WM_OK;
    if ((mo->resmask >> i & 1) && q->pending)
        st = wmi_agg_add_repeats(c->agg, mo->pc, (wm_space)mo->space,
                                 (wm_op)mo->op, mo->size, &q->counts,
                                 q->pending, &q->site);
    if (st == WM_OK)
        st = count(wm_agg_arch(c->agg), a, o, &q->counts);
    if (st != WM_OK) {
        mo->resmask &= ~((uint32_t)1 << i);
        return st;
    }
    mo->resmask |= (uint32_t)1 << i;
    q->r = r;
    q->pending = 0;
    q->site = mo->site;
    return wmi_agg_add_counted(c->agg, a, &q->counts, &q->site);
}

/*
 * The model's record of the access in c->acc (inactive lanes zeroed as
 * emit() does), counted -- or, when it repeats the memo's pattern
 * (`same`) translated by a multiple of the line or bank unit, given the
 * memo's counts (wmi_memo in ptx_int.h), or by less, given the counts of
 * that residue (record_residue).  A new pattern replaces the
 * memo's, with its half-warp class and stride (o).
 */
FM_INLINE wm_status record(wmi_cta *c, uint32_t pc, wmi_space sp,
                           int store, uint32_t m, const fm_ldst *o,
                           wmi_memo *mo, int same)
{
    const unsigned size = o->size;
    wm_access *a = &c->acc;
    uint64_t *ad = a->addr;
    if (m != WMI_FULL)
        for (unsigned l = 0; l < 32; l++)
            ad[l] = (m >> l & 1) ? ad[l] : 0;

    a->site = pc;
    a->space = model_space(sp);
    a->op = store ? WM_OP_ST : WM_OP_LD;
    a->size = size;
    a->mask = m;
    const wm_arch *arch = wm_agg_arch(c->agg);
    uint64_t a0 = ad[__builtin_ctz(m)]; /* lane 0 is written when lazy */
    uint64_t per = sp == SP_SHARED
                       ? (size > arch->bank_bytes ? size : arch->bank_bytes)
                       : (arch->line_bytes > arch->sector_bytes
                              ? arch->line_bytes : arch->sector_bytes);
    if (same && (per & (per - 1)) == 0) {
        uint64_t r = (a0 - mo->a0) & (per - 1);
        int sees = wmi_agg_sees_site(c->agg, pc); /* a tap, or SASS level */
        /* a full affine warp: a tap may take it in closed form */
        int aff = sees && m == WMI_FULL && o->affine &&
                  wmi_agg_affine_repeats(c->agg, pc);
        if (r == 0 && (!sees || aff)) {
            mo->pending++; /* added with the others by memo_flush_one */
            return aff ? tap_repeat(c, pc, a->space, a->op, size, o->a0, o->d,
                                    &mo->counts)
                       : WM_OK;
        }
        if (o->lazy) /* the record needs every lane's address */
            fill_lanes(ad, o->a0, o->d);
        if (r == 0)
            return wmi_agg_add_counted(c->agg, a, &mo->counts, &mo->site);
        /* moved by less than the unit: a tap sees every access */
        return record_residue(c, a, mo, o, r, sees, aff);
    } else if (o->lazy) {
        fill_lanes(ad, o->a0, o->d);
    }
    wm_counts cnt;
    wm_status st = count(arch, a, o, &cnt);
    if (st != WM_OK)
        return st;
    if (mo) {
        st = memo_flush_one(c, mo); /* the counts it holds change */
        if (st != WM_OK)
            return st;
        mo->pc = pc;
        mo->size = size;
        mo->space = (uint8_t)a->space;
        mo->op = (uint8_t)a->op;
        if (!o->affine)
            WMI_LOOP(mo->rel[l] = ad[l] - a0);
        mo->hot = 0;
        mo->affine = o->affine;
        mo->d = o->d;
        mo->a0 = a0;
        mo->mask = m;
        mo->kind = o->kind;
        mo->counts = cnt;
    }
    return wmi_agg_add_counted(c->agg, a, &cnt, mo ? &mo->site : NULL);
}

/* After a full warp repeated mo's pattern (a lane-affine address, kept
   as o): when it was a scalar row or broadcast that the model saw as a
   repeat (a tap, if any, handed it in closed form), mo keeps where it
   went, for fast_hot. */
FM_INLINE void hot_keep(const wmi_cta *c, uint32_t pc, wmi_space sp,
                        wmi_memo *mo, const fm_ldst *o)
{
    const wm_arch *arch = wm_agg_arch(c->agg);
    uint64_t per = sp == SP_SHARED
                       ? (o->size > arch->bank_bytes ? o->size : arch->bank_bytes)
                       : (arch->line_bytes > arch->sector_bytes
                              ? arch->line_bytes : arch->sector_bytes);
    if (o->n != 1 || (per & (per - 1)) || !wmi_agg_affine_repeats(c->agg, pc))
        return;
    mo->hot = 1;
    mo->htap = (uint8_t)wmi_agg_has_tap(c->agg);
    mo->hkind = o->kind;
    mo->hesz = (uint8_t)o->esz;
    mo->hsgn = (uint8_t)o->sgn;
    mo->hwin = (uint32_t)(o->start >> WMI_WIN_SHIFT);
    mo->hlim = o->lim;
    mo->hper = per;
    mo->hbase = o->base;
}

/* The access of the lanes of m (known: a full warp at kx0 + l kd, the
   address register not read). */
FM_INLINE int fast_ldst(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                        uint32_t pc, uint32_t m, int store, int known,
                        uint64_t kx0, uint64_t kd, wm_status *st)
{
    fm_ldst o;
    wmi_space sp = (wmi_space)in->space;
    if (!m || (sp != SP_GLOBAL && sp != SP_SHARED) ||
        !shape(c, w, in, store, &o))
        return 0;
    const uint64_t *A = w->r[in->a];
    uint64_t *ad = c->acc.addr;
    wmi_memo *mo = c->agg ? memo_at(c, pc) : NULL;
    /* a full warp repeating a pattern that was not affine (SGEMM's
       half-warp tiles) is not tested again */
    int try_affine = m == WMI_FULL && !(mo && mo->mask == m && !mo->affine);
    if (known && !affine_place(c, kx0, kd, sp, &o))
        return 0;
    if (known || (try_affine && affine_full(c, A, in->imm, sp, &o))) {
        if (o.kind == H_ANY || (c->flags & WMI_RUN_CHECK)) {
            fill_lanes(ad, o.a0, o.d); /* every lane moves on its own */
            o.lazy = 0;
        } else { /* load_as and store_as need the halves' first lanes */
            ad[0] = o.a0;
            ad[16] = o.a0 + 16 * (uint64_t)o.d;
        }
    } else if (!addrs(c, A, in->imm, sp, m, &o, ad)) {
        return 0;
    } else if (m != WMI_FULL) {
        affine_of(m, &o);
    }
    int same = memo_same(mo, ad, m, &o);
    if (m == WMI_FULL && !o.affine)
        o.kind = same ? mo->kind : classify(ad, o.size);
    if (store)
        store_host(&o, ad, m);
    else
        load_host(&o, ad, m);
    *st = c->agg ? record(c, pc, sp, store, m, &o, mo, same) : WM_OK;
    if (known && same && *st == WM_OK)
        hot_keep(c, pc, sp, mo, &o);
    return 1;
}

/*
 * The whole path is compiled twice: for the library's baseline
 * (x86-64-v2: 2-lane SSE vectors) and, on x86-64 with GCC or Clang, for
 * AVX2 (4 lanes per vector and three-operand forms: the lane passes take
 * about a third fewer instructions), chosen at run time.  Both compile
 * the same C, so they compute the same bits (WMI_RUN_BASE_ISA runs the
 * baseline build anyway, for the tests).
 */
static int fast_base(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                     uint32_t pc, uint32_t m, int store, int known,
                     uint64_t kx0, uint64_t kd, wm_status *st)
{
    return fast_ldst(c, w, in, pc, m, store, known, kx0, kd, st);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) &&        \
    !defined(__AVX2__)
#define WM_FASTMEM_AVX2 1
__attribute__((target("avx2"))) static int
fast_avx2(wmi_cta *c, wmi_warp *w, const wmi_insn *in, uint32_t pc,
          uint32_t m, int store, int known, uint64_t kx0, uint64_t kd,
          wm_status *st)
{
    return fast_ldst(c, w, in, pc, m, store, known, kx0, kd, st);
}
#endif

/* The build of the path this CPU runs. */
static int fast_any(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                    uint32_t pc, uint32_t m, int store, int known,
                    uint64_t kx0, uint64_t kd, wm_status *st)
{
#ifdef WM_FASTMEM_AVX2
    if (!(c->flags & WMI_RUN_BASE_ISA) && __builtin_cpu_supports("avx2"))
        return fast_avx2(c, w, in, pc, m, store, known, kx0, kd, st);
#endif
    return fast_base(c, w, in, pc, m, store, known, kx0, kd, st);
}

int wmi_ptx_fast_ldst(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                      uint32_t pc, uint32_t m, int store, wm_status *st)
{
    if (in->space == SP_PARAM) {
        if (store || !param_load(c, w, in, m))
            return 0;
        *st = WM_OK;
        return 1;
    }
    return fast_any(c, w, in, pc, m, store, 0, 0, 0, st);
}

/* Element size esz at p to or from the 32 lanes of V: lanes d bytes
   apart (H_ANY), one address (H_SAME: a load broadcasts it, a store keeps
   the last lane's, as store_as leaves it), or a row (H_LIN). */
static void hot_move(uint64_t *V, uint8_t *p, unsigned esz, int kind,
                     int store, int sgn, int64_t d)
{
    if (kind == H_ANY) { /* lanes d bytes apart, in lane order */
        for (unsigned l = 0; l < 32; l++, p += d)
            if (store)
                put(p, V[l], esz);
            else
                V[l] = sgn ? sext(get(p, esz), esz * 8) : get(p, esz);
        return;
    }
    if (kind == H_SAME) {
        if (store) {
            put(p, V[31], esz);
            return;
        }
        uint64_t v = get(p, esz);
        v = sgn ? sext(v, esz * 8) : v;
        for (unsigned l = 0; l < 32; l++)
            V[l] = v;
        return;
    }
    switch (esz * 2 + (unsigned)store) {
    case 2: get_row(V, p, 32, 1, 1); break;
    case 3: put_row(p, V, 32, 1, 1); break;
    case 4: get_row(V, p, 32, 2, 2); break;
    case 5: put_row(p, V, 32, 2, 2); break;
    case 8: get_row(V, p, 32, 4, 4); break;
    case 9: put_row(p, V, 32, 4, 4); break;
    case 16: get_row(V, p, 32, 8, 8); break;
    default: put_row(p, V, 32, 8, 8); break;
    }
    if (sgn && !store)
        for (unsigned l = 0; l < 32; l++)
            V[l] = sext(V[l], esz * 8);
}

/*
 * A full warp at x0 + l d repeating its instruction's hot pattern (the
 * same d, a scalar row, broadcast or stride) in the same window, moved
 * by whole units or by a residue the memo keeps (record_residue's slot
 * holding it): both end lanes checked, the data moved, one repeat added
 * to the memo or the residue -- what fast_ldst and record do for it,
 * without the rest.  Returns the counts of the repeat (the memo's or the
 * residue's), NULL when anything differs (fast_ldst then decides).
 */
static const wm_counts *fast_hot(const wm_ptx_module *mod, wmi_warp *w,
                                 const wmi_insn *in, wmi_memo *mo, int store,
                                 uint64_t x0, int64_t d)
{
    unsigned esz = mo->hesz;
    uint64_t start = (uint64_t)mo->hwin << WMI_WIN_SHIFT;
    uint64_t x31 = x0 + 31 * (uint64_t)d, r = (x0 - mo->a0) & (mo->hper - 1);
    if (!mo->hot || mo->d != d || mo->mask != WMI_FULL || !mo->affine ||
        (x0 >> WMI_WIN_SHIFT) != mo->hwin || x0 - start > mo->hlim ||
        x31 - start > mo->hlim || (x0 & (esz - 1)))
        return NULL;
    uint64_t *pend = &mo->pending;
    const wm_counts *cnt = &mo->counts;
    if (r) { /* a residue: its slot must hold it (record_residue) */
        uint32_t i = (uint32_t)(r / esz) & (WMI_MEMO_RES - 1);
        if (!(mo->resmask >> i & 1) || mo->res[i].r != r)
            return NULL;
        pend = &mo->res[i].pending;
        cnt = &mo->res[i].counts;
    }
    /* a scalar (hot_keep), perhaps written as {%r}: Triton's braces */
    uint32_t v = wmi_vslot(mod, store ? in->b : in->d, 0);
    hot_move(w->r[v], (uint8_t *)(mo->hbase + (uintptr_t)x0), esz, mo->hkind,
             store, mo->hsgn, d);
    (*pend)++; /* added with the others by memo_flush_one */
    return cnt;
}

int wmi_ptx_fast_ldst_affine(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                             uint32_t pc, int store, uint64_t x0, int64_t d,
                             wm_status *st)
{
    wmi_memo *mo = c->agg ? memo_at(c, pc) : NULL;
    const wm_counts *hot = mo ? fast_hot(c->m, w, in, mo, store, x0, d) : NULL;
    if (hot) {
        *st = mo->htap ? tap_repeat(c, pc, (wm_space)mo->space,
                                    (wm_op)mo->op, mo->size, x0, d, hot)
                       : WM_OK;
        if (c->flags & WMI_RUN_CHECK) /* (fast_ldst fills them itself) */
            fill_lanes(c->acc.addr, x0, d);
    } else if (!fast_any(c, w, in, pc, WMI_FULL, store, 1, x0, (uint64_t)d,
                         st)) {
        return 0;
    }
    if (c->flags & WMI_RUN_CHECK) /* --check: the lanes in c->acc.addr,
                                     x0 + l d (fill_lanes) */
        wmi_check_fast(c, w, in, pc, WMI_FULL, store, d);
    return 1;
}
