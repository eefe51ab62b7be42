/*
 * test_cache_trace.c -- the hierarchy model's recorder (wmi_ctrace_add in
 * src/cache/cache.c) against a brute-force reference on random warp
 * accesses: the line words (distinct lines in first-touch order, the
 * sectors each touches, and for stores the sectors written whole) and the
 * header's line count and requested bytes.  The recorder has a path for
 * one run of lanes over one contiguous range, a one-pass path for lanes
 * that each stay within one sector and never fall, and a general path;
 * the random accesses take all three (coalesced, strided,
 * reversed, broadcast, overlapping, scattered, misaligned and wide lanes,
 * partial masks, 32 and 64 lanes).  Its closed form for a full warp at
 * x0 + lane x d (wmi_ctrace_add_affine) must make, from x0, d and size
 * alone, the record the lanes' path makes of the 32 addresses.
 */
#define _POSIX_C_SOURCE 200809L
#include "cache_int.h"
#include "check.h"

#include <stdio.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The reference: every active lane's bytes, sector by sector, in lane
 * order; a line's word is made when its first sector is touched. */
static unsigned reference(const wm_access *a, uint64_t *word)
{
    unsigned nl = 0;
    uint32_t fill[2 * WM_MAX_LANES][4] = {{0}};
    for (unsigned l = 0; l < WM_MAX_LANES; l++) {
        if (!(a->mask >> l & 1))
            continue;
        uint64_t lo = a->addr[l], hi = lo + (a->size ? a->size - 1 : 0);
        for (uint64_t b = lo; b <= hi; b++) {
            uint64_t s = b >> 5, li = s >> 2;
            unsigned i = 0;
            while (i < nl && word[i] >> 16 != li)
                i++;
            if (i == nl)
                word[nl++] = li << 16;
            word[i] |= (uint64_t)1 << (s & 3);
            fill[i][s & 3]++;
        }
    }
    if (a->op == WM_OP_ST)
        for (unsigned i = 0; i < nl; i++)
            for (unsigned q = 0; q < 4; q++)
                if (fill[i][q] >= 32)
                    word[i] |= (uint64_t)16 << q;
    return nl;
}

/* A random access of one of the shapes above. */
static wm_access random_access(unsigned lanes)
{
    wm_access a;
    memset(&a, 0, sizeof a);
    static const unsigned sizes[] = {1, 2, 4, 8, 16, 4, 4, 8, 32, 3};
    a.space = WM_SPACE_GLOBAL;
    a.op = (wm_op)(next() % 3 == 0 ? WM_OP_ST : next() % 5 == 0 ? WM_OP_ATOM
                                                                : WM_OP_LD);
    a.size = sizes[next() % 10];
    uint64_t base = (1u << 20) + (next() % 4096) * (next() % 2 ? a.size : 1);
    int64_t stride;
    switch (next() % 8) {
    case 0: stride = 0; break;
    case 1: stride = -(int64_t)a.size; break;
    case 2: stride = (int64_t)(next() % 300); break;
    case 3: stride = -(int64_t)(next() % 300); break;
    case 4: stride = 128 * (int64_t)(1 + next() % 4); break;
    default: stride = (int64_t)a.size; break;
    }
    int scatter = next() % 6 == 0;
    for (unsigned l = 0; l < lanes; l++)
        a.addr[l] = scatter ? base + next() % 2048
                            : (uint64_t)((int64_t)base + (int64_t)l * stride);
    a.mask = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
    if (next() % 3 == 0)
        a.mask &= next() | next();
    else if (next() % 4 == 0) { /* one run of lanes, anywhere */
        unsigned lo = (unsigned)(next() % lanes);
        unsigned n = 1 + (unsigned)(next() % (lanes - lo));
        a.mask = (n == 64 ? ~0ull : ((1ull << n) - 1)) << lo;
    }
    if (!a.mask)
        a.mask = 1;
    for (unsigned l = 0; l < WM_MAX_LANES; l++) /* as emit() leaves them */
        if (!(a.mask >> l & 1))
            a.addr[l] = 0;
    return a;
}

static void test_random(void)
{
    wmi_ctrace t;
    memset(&t, 0, sizeof t);
    CHECK_EQ(wmi_ctrace_cta(&t), WM_OK);
    size_t fails = 0;
    for (int i = 0; i < 200000; i++) {
        wm_access a = random_access(next() % 4 == 0 ? 64 : 32);
        uint64_t want[2 * WM_MAX_LANES];
        unsigned nl = reference(&a, want);
        size_t at = t.n;
        CHECK_EQ(wmi_ctrace_add(&t, &a, NULL, WM_CACHE_LD_CA), WM_OK);
        const uint64_t *h = t.w + at;
        unsigned got = (unsigned)(h[0] >> 48) & 0xff;
        uint64_t bytes = (uint64_t)a.size * (uint64_t)__builtin_popcountll(a.mask);
        uint64_t buf[32];
        int same = got == nl && h[1] >> 32 == bytes &&
                   t.n - at == wmi_rec_len(h) &&
                   memcmp(wmi_rec_lines(h, buf), want, nl * sizeof *want) == 0;
        if (!same && fails++ < 5) {
            fprintf(stderr,
                    "access %d: op %d size %u mask %llx lane0 %llx lane1 "
                    "%llx: %u lines, want %u\n",
                    i, (int)a.op, a.size, (unsigned long long)a.mask,
                    (unsigned long long)a.addr[0],
                    (unsigned long long)a.addr[1], got, nl);
        }
        CHECK(same);
        if (t.n > (1u << 20)) { /* keep the trace small */
            wmi_ctrace_free(&t);
            memset(&t, 0, sizeof t);
            CHECK_EQ(wmi_ctrace_cta(&t), WM_OK);
        }
    }
    wmi_ctrace_free(&t);
}

/* Hand-computed words: a coalesced 4-byte store (one line, four whole
 * sectors), a strided one (32 lines, one partial sector each), and a
 * reversed load whose lines fall (the general path: first-touch order). */
static void test_hand(void)
{
    wmi_ctrace t;
    memset(&t, 0, sizeof t);
    CHECK_EQ(wmi_ctrace_cta(&t), WM_OK);
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = WM_SPACE_GLOBAL;
    a.op = WM_OP_ST;
    a.size = 4;
    a.mask = 0xffffffffull;
    for (unsigned l = 0; l < 32; l++)
        a.addr[l] = 4096 + 4 * l;
    CHECK_EQ(wmi_ctrace_add(&t, &a, NULL, WM_CACHE_LD_CA), WM_OK);
    CHECK_EQ(t.w[0] >> 48 & 0xff, 1);
    CHECK_EQ(t.w[2], (uint64_t)32 << 16 | 0xff);
    size_t at = t.n;
    for (unsigned l = 0; l < 32; l++)
        a.addr[l] = 4096 + 128 * l + 8;
    CHECK_EQ(wmi_ctrace_add(&t, &a, NULL, WM_CACHE_LD_CA), WM_OK);
    /* a column: its first address and stride stand for its 32 lines */
    CHECK_EQ(t.w[at] >> 48 & 0xff, 32);
    CHECK(t.w[at] & WMI_REC_COL);
    CHECK_EQ(t.n - at, 4);
    CHECK_EQ(t.w[at + 2], 4096 + 8);
    CHECK_EQ(t.w[at + 3], 128);
    uint64_t buf[32];
    const uint64_t *lw = wmi_rec_lines(t.w + at, buf);
    CHECK_EQ(lw[0], (uint64_t)32 << 16 | 1);
    CHECK_EQ(lw[31], (uint64_t)63 << 16 | 1);
    at = t.n;
    a.op = WM_OP_LD;
    for (unsigned l = 0; l < 32; l++)
        a.addr[l] = 8192 - 64 * l;
    CHECK_EQ(wmi_ctrace_add(&t, &a, NULL, WM_CACHE_LD_CA), WM_OK);
    CHECK_EQ(t.w[at] >> 48 & 0xff, 17);
    CHECK_EQ(t.w[at + 2], (uint64_t)64 << 16 | 1);  /* 8192 */
    CHECK_EQ(t.w[at + 3], (uint64_t)63 << 16 | 0x5); /* 8128, 8064 */
    wmi_ctrace_free(&t);
}

/* A random full warp in closed form: rows, reversed rows, broadcasts,
 * strides below, at and above a line in either direction, of 1- to
 * 16-byte lanes, and shapes the closed form leaves to the lanes' path
 * (3- and 32-byte lanes, a misaligned lane, atomics). */
static wmi_affine_access random_affine(void)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16, 4, 4, 8, 32, 3};
    wmi_affine_access x;
    x.site = (uint32_t)(next() % 64);
    x.space = WM_SPACE_GLOBAL;
    x.op = (wm_op)(next() % 2 ? WM_OP_ST : next() % 9 == 0 ? WM_OP_ATOM
                                                          : WM_OP_LD);
    x.size = sizes[next() % 10];
    int64_t z = (int64_t)x.size;
    switch (next() % 7) {
    case 0: x.d = 0; break;
    case 1: x.d = -z; break;
    case 2: x.d = z * (int64_t)(next() % 20); break;
    case 3: x.d = -z * (int64_t)(next() % 20); break;
    case 4: x.d = 128 * (int64_t)(1 + next() % 300) * (next() % 2 ? 1 : -1);
        break;
    default: x.d = z; break;
    }
    if (next() % 16 == 0)
        x.d += (int64_t)(next() % 5);
    x.x0 = ((uint64_t)1 << 40) + (next() % 65536) * x.size;
    if (next() % 16 == 0)
        x.x0 += next() % 3;
    return x;
}

/* wmi_ctrace_add_affine makes the record wmi_ctrace_add makes of the
 * lanes' addresses, word for word, for every load policy. */
static void test_affine(void)
{
    wmi_ctrace t, u;
    memset(&t, 0, sizeof t);
    memset(&u, 0, sizeof u);
    CHECK_EQ(wmi_ctrace_cta(&t), WM_OK);
    CHECK_EQ(wmi_ctrace_cta(&u), WM_OK);
    size_t fails = 0;
    for (int i = 0; i < 200000; i++) {
        wmi_affine_access x = random_affine();
        wm_access a;
        memset(&a, 0, sizeof a);
        a.site = x.site;
        a.space = x.space;
        a.op = x.op;
        a.size = x.size;
        a.mask = 0xffffffffu;
        for (unsigned l = 0; l < 32; l++)
            a.addr[l] = x.x0 + l * (uint64_t)x.d;
        unsigned ld = (unsigned)(next() % 5) | (next() % 2 ? WMI_CACHE_LEAD : 0);
        t.warp = u.warp = (unsigned)(next() % 64);
        t.interval = u.interval = (unsigned)(next() % 1000);
        size_t at = t.n;
        CHECK_EQ(u.n, t.n);
        CHECK_EQ(wmi_ctrace_add_affine(&t, &x, NULL, ld), WM_OK);
        CHECK_EQ(wmi_ctrace_add(&u, &a, NULL, ld), WM_OK);
        uint64_t want[2 * WM_MAX_LANES], buf[32];
        unsigned nl = reference(&a, want);
        const uint64_t *h = t.w + at;
        int same = t.n == u.n && t.n - at == wmi_rec_len(h) &&
                   (h[0] >> 48 & 0xff) == nl &&
                   memcmp(h, u.w + at, (t.n - at) * sizeof *t.w) == 0 &&
                   memcmp(wmi_rec_lines(h, buf), want, nl * sizeof *want) == 0;
        if (!same && fails++ < 5)
            fprintf(stderr, "affine %d: op %d size %u x0 %llx d %lld\n", i,
                    (int)x.op, x.size, (unsigned long long)x.x0,
                    (long long)x.d);
        CHECK(same);
        if (t.n > (1u << 20)) {
            wmi_ctrace_free(&t);
            wmi_ctrace_free(&u);
            CHECK_EQ(wmi_ctrace_cta(&t), WM_OK);
            CHECK_EQ(wmi_ctrace_cta(&u), WM_OK);
        }
    }
    /* shared: its wavefronts, as the lanes' path records them */
    wmi_affine_access x = {7, WM_SPACE_SHARED, WM_OP_LD, 4, 256, 4};
    wm_counts c;
    memset(&c, 0, sizeof c);
    c.wavefronts = 3;
    size_t at = t.n;
    CHECK_EQ(wmi_ctrace_add_affine(&t, &x, &c, WM_CACHE_LD_CA), WM_OK);
    CHECK_EQ(t.n, at + 2);
    CHECK_EQ(t.w[at] >> 56 & 0x7, WMI_CK_SHARED);
    CHECK_EQ(t.w[at + 1] >> 32, 3);
    wmi_ctrace_free(&t);
    wmi_ctrace_free(&u);
}

int main(void)
{
    test_hand();
    test_random();
    test_affine();
    return check_done("test_cache_trace");
}
