/*
 * test_sectors.c -- the distinct-sector counter (src/model/sectors.c) against a
 * brute-force count, and wm_count against the reference model on warps
 * shaped for each of its paths: keys inside either window, keys just
 * outside it on either side, windows wrapping past 2^64, scattered keys
 * with repeated lines and sectors (the signature's twin checks), more than
 * 64 keys (the hash set), every key width (vs) and line size (shift 0-6),
 * partial lane runs, few lanes, and 1- to 16-byte lanes.
 */
#include "wm_int.h"
#include "check.h"

#include <stdio.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Distinct values of v[i] >> sh, by comparing each with all before it. */
static unsigned distinct(const uint64_t *v, unsigned n, unsigned sh)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned seen = 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = (v[j] >> sh) == (v[i] >> sh);
        k += !seen;
    }
    return k;
}

/*
 * n keys whose sectors (key >> vs) spread over `span` sectors from an
 * origin placed `below` sectors under the first key's sector, so spans
 * near 256 and 512 and origins near 192 put keys on the windows' edges.
 * Keys keep random bits under vs (they are byte addresses).
 */
static void clustered(uint64_t *v, unsigned n, unsigned vs, uint64_t first,
                      uint64_t span, uint64_t below)
{
    uint64_t low = vs ? ((uint64_t)1 << vs) - 1 : 0;
    uint64_t s0 = first >> vs, origin = s0 - below;
    for (unsigned i = 0; i < n; i++) {
        uint64_t s = i == 0 ? s0 : origin + rnd() % span;
        if (vs)
            s &= ~(uint64_t)0 >> vs; /* stay a valid sector id */
        v[i] = (s << vs) | (rnd() & low);
    }
}

/* Scattered keys drawn from a few random lines (or all random): repeated
 * lines with other sectors, and repeated sectors. */
static void scattered(uint64_t *v, unsigned n, unsigned vs, unsigned shift,
                      unsigned pool)
{
    uint64_t lines[8];
    for (unsigned k = 0; k < 8; k++)
        lines[k] = rnd() >> (vs + shift);
    for (unsigned i = 0; i < n; i++) {
        uint64_t l = pool ? lines[rnd() % pool] : rnd() >> (vs + shift);
        uint64_t s = (l << shift) | (rnd() & (((uint64_t)1 << shift) - 1));
        v[i] = (s << vs) | (vs ? rnd() & (((uint64_t)1 << vs) - 1) : 0);
    }
}

static void check_keys(const uint64_t *v, unsigned n, unsigned vs,
                       unsigned shift, unsigned *bad)
{
    wm_counts c;
    memset(&c, 0, sizeof c);
    wmi_sectors_count(v, n, vs, shift, &c);
    unsigned ws = distinct(v, n, vs), wl = distinct(v, n, vs + shift);
    if ((c.sectors != ws || c.tags != wl) && (*bad)++ < 5) {
        fprintf(stderr, "n %u vs %u shift %u: sectors %u (want %u), lines %u "
                        "(want %u), first key %llx\n",
                n, vs, shift, c.sectors, ws, c.tags, wl,
                (unsigned long long)v[0]);
        CHECK(0);
    }
}

static void sectors_random(unsigned iters)
{
    static const unsigned vss[] = {0, 2, 5, 6, 12};
    static const uint64_t spans[] = {1,   2,   60,  64,  125, 256, 257,
                                     300, 320, 511, 512, 513, 4096};
    static const unsigned ns[] = {1, 2, 3, 31, 32, 33, 63, 64, 65, 128, 256};
    uint64_t v[256];
    unsigned bad = 0;
    for (unsigned it = 0; it < iters; it++) {
        unsigned n = (it & 1) ? ns[rnd() % 11] : 1 + (unsigned)(rnd() % 256);
        unsigned vs = vss[rnd() % 5], shift = (unsigned)(rnd() % 7);
        uint64_t first = rnd();
        if (rnd() % 4 == 0) /* near 0 or near the top: windows wrap */
            first = (rnd() & 1) ? rnd() % 4096 : ~(uint64_t)0 - rnd() % 4096;
        switch (rnd() % 4) {
        case 0:
        case 1: {
            uint64_t span = spans[rnd() % 13];
            uint64_t below = rnd() % 2 ? rnd() % (span + 1) : rnd() % 400;
            clustered(v, n, vs, first, span, below);
            break;
        }
        case 2: scattered(v, n, vs, shift, 1 + (unsigned)(rnd() % 8)); break;
        default: scattered(v, n, vs, shift, 0); break;
        }
        check_keys(v, n, vs, shift, &bad);
    }
    CHECK_EQ(bad, 0);
}

/* Keys on and around the windows' edges: 256 sectors from 128 under the
 * first key, 512 from 192 under it, both line-aligned down. */
static void sectors_edges(void)
{
    unsigned bad = 0;
    for (unsigned shift = 0; shift <= 6; shift++)
        for (uint64_t s0 = 0; s0 < 300; s0 += 37)
            for (int d = -260; d <= 330; d++) {
                uint64_t v[3] = {s0 << 5, (s0 + (uint64_t)(int64_t)d) << 5,
                                 (s0 + 1) << 5};
                check_keys(v, 3, 5, shift, &bad);
                check_keys(v, 2, 5, shift, &bad);
            }
    CHECK_EQ(bad, 0);
}

/* Up to 256 keys, all distinct sectors of one window (more than a byte
 * can count), in a shuffled order with the first key anywhere. */
static void sectors_dense(void)
{
    uint64_t v[256];
    unsigned bad = 0;
    for (unsigned it = 0; it < 2000; it++) {
        unsigned n = 200 + (unsigned)(rnd() % 57), shift = it % 7;
        uint64_t lo = rnd() >> 8;
        for (unsigned i = 0; i < n; i++)
            v[i] = lo + i;
        for (unsigned i = n - 1; i > 0; i--) {
            unsigned j = (unsigned)(rnd() % (i + 1));
            uint64_t t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
        check_keys(v, n, 0, shift, &bad);
    }
    CHECK_EQ(bad, 0);
}

/* Local memory, 16-byte lanes of a 64-lane warp with 4-byte sectors: 256
 * distinct pieces in one window. */
static void model_dense_local(void)
{
    wm_arch arch;
    CHECK_EQ(wm_arch_parse("generic,warp=64,sector=4,line=128", &arch, NULL,
                           0),
             WM_OK);
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = WM_SPACE_LOCAL;
    a.op = WM_OP_ST;
    a.size = 16;
    a.mask = wmi_lanes_mask(64);
    for (unsigned i = 0; i < 64; i++)
        a.addr[i] = 4096;
    wm_counts f, r;
    CHECK_EQ(wm_count(&arch, &a, &f), WM_OK);
    CHECK_EQ(wmi_reference_count(&arch, &a, &r), WM_OK);
    CHECK_EQ(f.sectors, 256);
    CHECK_EQ(f.sectors, r.sectors);
    CHECK_EQ(f.tags, r.tags);
}

static int same_counts(const wm_counts *x, const wm_counts *y)
{
    return memcmp(x, y, sizeof *x) == 0;
}

/* A lane run [lo, lo + n) or a random mask; clustered, edge-straddling or
 * scattered addresses; every lane size. */
static void random_warp(const wm_arch *arch, wm_access *a)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    unsigned W = arch->warp_size, ss = wmi_log2(arch->sector_bytes);
    memset(a, 0, sizeof *a);
    a->space = rnd() % 4 ? WM_SPACE_GLOBAL : WM_SPACE_LOCAL;
    a->op = WM_OP_LD;
    a->size = sizes[rnd() % 5];
    unsigned lo = (unsigned)(rnd() % W), n = 1 + (unsigned)(rnd() % (W - lo));
    if (rnd() % 3 == 0)
        lo = 0, n = W;
    a->mask = rnd() % 5 ? wmi_lanes_mask(n) << lo
                        : rnd() & wmi_lanes_mask(W);
    if (!a->mask)
        a->mask = 1;
    uint64_t span = (uint64_t)1 << (rnd() % 11), base = rnd();
    for (unsigned i = 0; i < W; i++) {
        uint64_t x;
        switch (rnd() % 3) {
        case 0: x = base + (rnd() % span) * a->size; break;
        case 1: x = base + ((rnd() % 700) << ss) - (192u << ss); break;
        default: x = rnd() % 8 ? base + (rnd() % 4) * 4096 : rnd(); break;
        }
        a->addr[i] = x & ~(uint64_t)(a->size - 1);
    }
}

static void model_random(const wm_arch *arch, unsigned iters)
{
    unsigned bad = 0;
    for (unsigned it = 0; it < iters; it++) {
        wm_access a;
        wm_counts f, r;
        random_warp(arch, &a);
        CHECK_EQ(wm_count(arch, &a, &f), WM_OK);
        CHECK_EQ(wmi_reference_count(arch, &a, &r), WM_OK);
        if (!same_counts(&f, &r) && bad++ < 5) {
            fprintf(stderr, "space %d size %u mask %llx: sectors %u/%u "
                            "tags %u/%u\n",
                    (int)a.space, a.size, (unsigned long long)a.mask,
                    f.sectors, r.sectors, f.tags, r.tags);
            CHECK(0);
        }
    }
    CHECK_EQ(bad, 0);
}

int main(void)
{
    sectors_random(50000);
    sectors_edges();
    sectors_dense();
    model_dense_local();
    static const char *profiles[] = {
        "amd-wave64",
        "generic,sector=8,line=64,banks=16,bankbytes=8",
        "generic,sector=32,line=32",   /* a line is one sector */
        "generic,sector=4,line=256",   /* 64 sectors per line */
        "generic,sector=16,line=256",  /* 16 sectors per line */
        "generic,warp=64,sector=64,line=128",
    };
    model_random(wm_arch_default(), 50000);
    for (unsigned i = 0; i < sizeof profiles / sizeof *profiles; i++) {
        wm_arch arch;
        CHECK_EQ(wm_arch_parse(profiles[i], &arch, NULL, 0), WM_OK);
        model_random(&arch, 10000);
    }
    return check_done("test_sectors");
}
