/*
 * sectors.c -- distinct sectors and lines of a list of keys, for the global
 * and local model (coalesce.c).  Key i stands for sector v[i] >> vs: either
 * the lanes' byte addresses themselves (vs = log2 of the sector, so a warp's
 * addresses are read once, in place) or sector ids gathered by coalesce.c
 * (vs = 0).  Line of a key: its sector >> shift.  All paths are exact.
 *
 *   1. window: every sector lies in 256 sectors centred on the first one,
 *      or else in 512 from 192 below it, from a line boundary.  Each key
 *      stores one byte of a byte map (a plain store, no read-modify-write,
 *      so equal sectors form no chain); vector adds then count the marked
 *      bytes (sectors) and vector compares the empty groups of 2^shift
 *      bytes (lines).
 *   2. scattered, n <= 64: a 2048-bit hash signature of the lines.  A key
 *      whose bit was clear has a line no earlier key has; only keys that hit
 *      a set bit (for 32 random lines, none in 78 % of warps) are compared
 *      with the keys before them.
 *   3. scattered, n > 64: an open-addressing set of lines, each slot with
 *      its sector mask; occupancy lives in a bitmask, so nothing is cleared.
 * Vectors are GCC/Clang vector extensions: SSE2 on x86-64, scalar code
 * where the target has no vectors.
 */
#include "wm_int.h"

typedef uint8_t v16u8 __attribute__((vector_size(16)));
typedef uint16_t v8u16 __attribute__((vector_size(16)));
typedef uint32_t v4u32 __attribute__((vector_size(16)));
typedef uint64_t v2u64 __attribute__((vector_size(16)));

#define WIN 512  /* window of path 1, in sectors */
#define SIG 2048 /* signature of path 2, in bits */

/* A 512-byte map, viewed as bytes and as 16-byte vectors of each width. */
typedef union bytemap {
    uint8_t at[WIN];
    v16u8 b[WIN / 16];
    v8u16 h[WIN / 16];
    v4u32 w[WIN / 16];
    v2u64 d[WIN / 16];
    uint64_t q[WIN / 8];
} bytemap;

/* Zero the first `len` bytes (a multiple of 16) with vector stores: a
 * memset of this size becomes `rep stos`, which costs more to start than
 * the whole count. */
static inline __attribute__((always_inline)) void clear(bytemap *m,
                                                        unsigned len)
{
#pragma GCC unroll 32
    for (unsigned i = 0; i < len / 16; i++)
        m->b[i] = (v16u8){0};
}

/* Sum of the bytes of x, each at most 64 (so the halves' bytes add up
 * without carry); pairs of bytes first, so the total may exceed 255. */
static inline unsigned byte_sum(v16u8 x)
{
    v2u64 d = (v2u64)x;
    uint64_t b = d[0] + d[1], m = 0x00FF00FF00FF00FFull;
    uint64_t h = (b & m) + ((b >> 8) & m); /* four 16-bit sums <= 256 */
    return (unsigned)((h * 0x0001000100010001ull) >> 48);
}

/* Lines with at least one marked sector among the first `win` bytes:
 * groups of 2^shift bytes that are not all zero.  Compares count the
 * empty groups lane-wise (-1 each). */
static inline __attribute__((always_inline)) unsigned
lines_marked(const bytemap *m, unsigned win, unsigned shift)
{
    unsigned nv = win / 16, empty = 0;
    if (shift == 1) {
        v8u16 e = {0};
#pragma GCC unroll 32
        for (unsigned i = 0; i < nv; i++)
            e -= (v8u16)(m->h[i] == 0);
        for (unsigned k = 0; k < 8; k++)
            empty += e[k];
    } else if (shift == 2) {
        v4u32 e = {0};
#pragma GCC unroll 32
        for (unsigned i = 0; i < nv; i++)
            e -= (v4u32)(m->w[i] == 0);
        empty = e[0] + e[1] + e[2] + e[3];
    } else if (shift == 3) {
        v2u64 e = {0};
#pragma GCC unroll 32
        for (unsigned i = 0; i < nv; i++)
            e -= (v2u64)(m->d[i] == 0);
        empty = (unsigned)(e[0] + e[1]);
    } else { /* lines of 16 sectors or more: whole vectors per line */
        unsigned per = 1u << (shift - 4);
        for (unsigned i = 0; i < nv; i += per) {
            v2u64 x = m->d[i];
            for (unsigned k = 1; k < per; k++)
                x |= m->d[i + k];
            empty += (x[0] | x[1]) == 0;
        }
    }
    return (win >> shift) - empty;
}

/* Path 1 over `win` sectors starting `below` sectors under the first key,
 * on a line boundary (modular arithmetic keeps it exact near address 0
 * and 2^64).  Returns 0, counting nothing, when a key lies outside. */
static inline __attribute__((always_inline)) int
count_map(const uint64_t *v, unsigned n, unsigned vs, unsigned shift,
          unsigned win, unsigned below, wm_counts *c)
{
    uint64_t base = ((v[0] >> vs) - below) & ~(((uint64_t)1 << shift) - 1);
    uint64_t out = 0;
    for (unsigned i = 0; i < n; i++) /* branch-free: vectorised */
        out |= (v[i] >> vs) - base;
    if (out >= win)
        return 0;
    bytemap m;
    clear(&m, win);
#pragma GCC unroll 32
    for (unsigned i = 0; i < n; i++)
        m.at[((v[i] >> vs) - base) & (win - 1)] = 1;
    /* Each byte lane of the sum gathers win / 16 <= 32 bytes of 0 or 1. */
    v16u8 s = {0};
#pragma GCC unroll 32
    for (unsigned i = 0; i < win / 16; i++)
        s += m.b[i];
    c->sectors = byte_sum(s);
    c->tags = shift ? lines_marked(&m, win, shift) : c->sectors;
    return 1;
}

/* Path 1: 256 sectors centred on the first key (half the map to clear and
 * count), else 512 from 192 below it (lanes tend to ascend). */
static inline __attribute__((always_inline)) int
count_window(const uint64_t *v, unsigned n, unsigned vs, unsigned shift,
             wm_counts *c)
{
    return count_map(v, n, vs, shift, WIN / 2, 128, c) ||
           count_map(v, n, vs, shift, WIN, 192, c);
}

static inline unsigned hash_slot(uint64_t key, unsigned bits)
{
    /* Fibonacci hashing: top bits of key * 2^64/phi. */
    return (unsigned)((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/* Whether an earlier key than j has the line (and the sector) of key j. */
static void earlier_twins(const uint64_t *v, unsigned j, unsigned vs,
                          unsigned shift, unsigned *dup_line,
                          unsigned *dup_sec)
{
    uint64_t s = v[j] >> vs, l = s >> shift;
    unsigned fl = 0, fs = 0;
    for (unsigned i = 0; i < j; i++) { /* branch-free: vectorised */
        fl |= ((v[i] >> vs) >> shift) == l;
        fs |= (v[i] >> vs) == s;
    }
    *dup_line += fl;
    *dup_sec += fs;
}

/* Path 2, n <= 64.  A duplicate sector is also a duplicate line, so only
 * the keys whose line bit was already set can repeat anything. */
static inline __attribute__((always_inline)) void
count_signature(const uint64_t *v, unsigned n, unsigned vs, unsigned shift,
                wm_counts *c)
{
    bytemap sig; /* SIG bits: q[] as 32 words */
    uint64_t hit[64], any = 0;
    clear(&sig, SIG / 8);
#pragma GCC unroll 32
    for (unsigned i = 0; i < n; i++) {
        unsigned h = hash_slot(v[i] >> (vs + shift), 11);
        uint64_t b = (uint64_t)1 << (h & 63);
        hit[i] = sig.q[h >> 6] & b;
        any |= hit[i];
        sig.q[h >> 6] |= b;
    }
    unsigned dl = 0, ds = 0;
    if (any)
        for (unsigned j = 1; j < n; j++)
            if (hit[j])
                earlier_twins(v, j, vs, shift, &dl, &ds);
    c->sectors = n - ds;
    c->tags = n - dl;
}

/* Path 3: hash set of lines, load factor <= 1/2.  Out of line, so its
 * 8 KiB of slots stay off the hot paths' stack frame. */
static __attribute__((noinline)) void
count_set(const uint64_t *v, unsigned n, unsigned vs, unsigned shift,
          wm_counts *c)
{
    uint64_t low = ((uint64_t)1 << shift) - 1;
    unsigned bits = n <= 32 ? 6 : n <= 64 ? 7 : n <= 128 ? 8 : 9;
    unsigned slot_mask = (1u << bits) - 1;
    uint64_t occ[8] = {0}, line[512], mask[512];
    unsigned nlines = 0, nsec = 0;
    assert(n <= 256);
    for (unsigned i = 0; i < n; i++) {
        uint64_t s = v[i] >> vs, l = s >> shift;
        uint64_t bit = (uint64_t)1 << (s & low);
        unsigned h = hash_slot(l, bits);
        for (;;) {
            uint64_t ob = (uint64_t)1 << (h & 63);
            if (!(occ[h >> 6] & ob)) {
                occ[h >> 6] |= ob;
                line[h] = l;
                mask[h] = bit;
                nlines++;
                nsec++;
                break;
            }
            if (line[h] == l) {
                nsec += !(mask[h] & bit);
                mask[h] |= bit;
                break;
            }
            h = (h + 1) & slot_mask;
        }
    }
    c->sectors = nsec;
    c->tags = nlines;
}

static inline __attribute__((always_inline)) void
count_keys(const uint64_t *v, unsigned n, unsigned vs, unsigned shift,
           wm_counts *c)
{
    if (count_window(v, n, vs, shift, c))
        return;
    if (n <= 64)
        count_signature(v, n, vs, shift, c);
    else
        count_set(v, n, vs, shift, c);
}

void wmi_sectors_count(const uint64_t *v, unsigned n, unsigned vs,
                       unsigned shift, wm_counts *c)
{
    assert(n >= 1 && n <= 256 && vs < 64 && shift <= 6);
    /* A full warp of 32 lanes' addresses with 32 B sectors and 128 B lines
     * (every NVIDIA profile): constants let the compiler unroll. */
    if (n == 32 && vs == 5 && shift == 2)
        count_keys(v, 32, 5, 2, c);
    else
        count_keys(v, n, vs, shift, c);
}
