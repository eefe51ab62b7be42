/*
 * test_count_affine.c -- wmi_count_affine (src/model/count_affine.c), the closed
 * form of an affine warp access's counts, against wm_count's per-lane
 * model: hand-computed cases, then random affine patterns (strides of 0,
 * negative, below, at and above the sector and bank unit, not multiples
 * of the unit; full, run and scattered masks; every access size; global,
 * texture and shared; loads, stores and ldmatrix, so the CC 7.x
 * uniform-pair rule is crossed) on five architectures.  Every count the
 * closed form gives must be wm_count's, and it must give one for every
 * pattern its contract covers.
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

static int same_counts(const wm_counts *x, const wm_counts *y)
{
    return x->active == y->active && x->requests == y->requests &&
           x->bytes == y->bytes && x->sectors == y->sectors &&
           x->tags == y->tags && x->ideal_sectors == y->ideal_sectors &&
           x->t_wavefronts == y->t_wavefronts &&
           x->wavefronts == y->wavefronts &&
           x->ideal_wavefronts == y->ideal_wavefronts &&
           x->conflicts == y->conflicts && x->nway == y->nway;
}

/* The access of mask's lanes at a0 + (l - lo) * d. */
static void build(wm_access *a, wm_space sp, wm_op op, unsigned size,
                  uint64_t mask, uint64_t a0, int64_t d)
{
    memset(a, 0, sizeof *a);
    a->space = sp;
    a->op = op;
    a->size = size;
    a->mask = mask;
    unsigned lo = mask ? (unsigned)__builtin_ctzll(mask) : 0;
    for (unsigned l = lo; l < WM_MAX_LANES; l++)
        if (mask >> l & 1)
            a->addr[l] = a0 + (uint64_t)d * (l - lo);
}

/* Does the closed form's contract cover this pattern? */
static int covered(const wm_arch *arch, wm_space sp, unsigned size,
                   uint64_t mask, uint64_t a0, int64_t d)
{
    unsigned lo = (unsigned)__builtin_ctzll(mask), n = wmi_popcount64(mask);
    uint64_t mag = d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
    unsigned unit = size > arch->bank_bytes ? size : arch->bank_bytes;
    if (mask >> lo != wmi_lanes_mask(n) || ((a0 | mag) % size))
        return 0;
    if (sp == WM_SPACE_SHARED)
        return mag < unit || mag % unit == 0;
    return size <= arch->sector_bytes;
}

/* One pattern: the closed form equals wm_count, or declines what it
   does not cover.  Returns 1 when it counted. */
static int compare(const wm_arch *arch, wm_space sp, wm_op op, unsigned size,
                   uint64_t mask, uint64_t a0, int64_t d)
{
    wm_access a;
    wm_counts want, got;
    build(&a, sp, op, size, mask, a0, d);
    wm_status st = wm_count(arch, &a, &want);
    int ok = wmi_count_affine(arch, sp, op, size, mask, a0, d, &got);
    int cov = covered(arch, sp, size, mask, a0, d);
    CHECK_EQ(ok, cov);
    if (ok) {
        CHECK_EQ(st, WM_OK);
        if (!same_counts(&want, &got)) {
            CHECK(same_counts(&want, &got));
            fprintf(stderr,
                    "  %s space %d op %d size %u mask %llx a0 %llx d %lld: "
                    "want s%u t%u w%u n%u i%u, got s%u t%u w%u n%u i%u\n",
                    arch->name, sp, op, size, (unsigned long long)mask,
                    (unsigned long long)a0, (long long)d, want.sectors,
                    want.tags, want.wavefronts, want.nway,
                    want.ideal_wavefronts, got.sectors, got.tags,
                    got.wavefronts, got.nway, got.ideal_wavefronts);
        }
    } else {
        wm_counts zero;
        memset(&zero, 0, sizeof zero);
        CHECK(same_counts(&got, &zero));
    }
    return ok;
}

static const unsigned sizes[] = {1, 2, 4, 8, 16};

/* A random lane mask: full, one run, a single lane, or scattered. */
static uint64_t random_mask(unsigned W)
{
    switch (rnd() % 5) {
    case 0:
    case 1: return wmi_lanes_mask(W);
    case 2: {
        unsigned lo = (unsigned)(rnd() % W), n = 1 + (unsigned)(rnd() % (W - lo));
        return wmi_lanes_mask(n) << lo;
    }
    case 3: return (uint64_t)1 << (rnd() % W);
    default: return (rnd() | 1) & wmi_lanes_mask(W);
    }
}

/* A random byte stride for lanes of size bytes: multiples of the size
   around the sector and bank unit, both signs, now and then one that is
   no multiple of the size (misaligned lanes: declined). */
static int64_t random_stride(const wm_arch *arch, unsigned size)
{
    int64_t s = (int64_t)size, unit = (int64_t)arch->bank_bytes;
    int64_t sign = (rnd() & 1) ? -1 : 1;
    switch (rnd() % 8) {
    case 0: return 0;
    case 1: return sign * s;
    case 2: return sign * s * (int64_t)(rnd() % 80);
    case 3: return sign * (unit * (int64_t)(1 + rnd() % 40) + s * (int64_t)(rnd() % 3));
    case 4: return sign * (int64_t)arch->sector_bytes * (int64_t)(1 + rnd() % 5);
    case 5: return sign * (int64_t)arch->line_bytes * (int64_t)(1 + rnd() % 70);
    case 6: return sign * (int64_t)(1 + rnd() % 200) * s;
    default: return sign * (int64_t)(1 + rnd() % 63); /* any bytes */
    }
}

static void random_patterns(const wm_arch *arch, unsigned count)
{
    static const wm_space spaces[] = {WM_SPACE_GLOBAL, WM_SPACE_SHARED,
                                      WM_SPACE_TEXTURE};
    static const wm_op ops[] = {WM_OP_LD, WM_OP_ST, WM_OP_LDSM};
    unsigned counted[3] = {0, 0, 0};
    for (unsigned i = 0; i < count; i++) {
        unsigned k = (unsigned)(rnd() % 3);
        wm_space sp = spaces[k];
        wm_op op = ops[rnd() % 3];
        unsigned size = sizes[rnd() % 5];
        int64_t d = random_stride(arch, size);
        uint64_t a0 = sp == WM_SPACE_SHARED ? (1u << 20) + (rnd() % 4096) * size
                                            : ((uint64_t)1 << 40) +
                                                  (rnd() % (1u << 20)) * size;
        if (rnd() % 8 == 0)
            a0 += 1 + rnd() % 7; /* misaligned for most sizes */
        counted[k] += (unsigned)compare(arch, sp, op, size,
                                        random_mask(arch->warp_size), a0, d);
    }
    /* the forms were exercised, not declined (about half of each space's
       patterns are covered runs) */
    for (unsigned k = 0; k < 3; k++)
        CHECK(counted[k] > count / 3 / 4);
}

/* Hand-computed counts on the default arch (32 B sectors, 128 B lines,
   32 banks of 4 B). */
static void hand_cases(void)
{
    const wm_arch *arch = wm_arch_default();
    const uint64_t full = wmi_lanes_mask(32);
    wm_counts c;
    /* float row at a line boundary: 4 sectors, 1 line; 4 bytes on: 5, 2 */
    CHECK(wmi_count_affine(arch, WM_SPACE_GLOBAL, WM_OP_LD, 4, full, 4096, 4, &c));
    CHECK_EQ(c.sectors, 4);
    CHECK_EQ(c.tags, 1);
    CHECK_EQ(c.ideal_sectors, 4);
    CHECK_EQ(c.t_wavefronts, 1);
    CHECK(wmi_count_affine(arch, WM_SPACE_GLOBAL, WM_OP_LD, 4, full, 4100, 4, &c));
    CHECK_EQ(c.sectors, 5);
    CHECK_EQ(c.tags, 2);
    /* a column (stride 8192 floats): 32 sectors, 32 lines, 8 tag waves */
    CHECK(wmi_count_affine(arch, WM_SPACE_GLOBAL, WM_OP_ST, 4, full, 0, 32768, &c));
    CHECK_EQ(c.sectors, 32);
    CHECK_EQ(c.tags, 32);
    CHECK_EQ(c.t_wavefronts, 8);
    /* backwards float4 row: 512 bytes, 16 sectors, 4 lines */
    CHECK(wmi_count_affine(arch, WM_SPACE_GLOBAL, WM_OP_LD, 16, full, 496, -16, &c));
    CHECK_EQ(c.sectors, 16);
    CHECK_EQ(c.tags, 4);
    CHECK_EQ(c.bytes, 512);
    /* broadcast: one sector */
    CHECK(wmi_count_affine(arch, WM_SPACE_GLOBAL, WM_OP_LD, 8, full, 64, 0, &c));
    CHECK_EQ(c.sectors, 1);
    CHECK_EQ(c.ideal_sectors, 8);
    /* lanes 8..15 of a float row: 32 bytes in one sector */
    CHECK(wmi_count_affine(arch, WM_SPACE_GLOBAL, WM_OP_LD, 4, 0xff00, 32, 4, &c));
    CHECK_EQ(c.active, 8);
    CHECK_EQ(c.sectors, 1);
    /* shared floats, stride 2 words: 2-way, 2 wavefronts, 1 conflict */
    CHECK(wmi_count_affine(arch, WM_SPACE_SHARED, WM_OP_LD, 4, full, 0, 8, &c));
    CHECK_EQ(c.wavefronts, 2);
    CHECK_EQ(c.conflicts, 1);
    CHECK_EQ(c.nway, 2);
    /* stride 33 words: conflict-free; 32 words: 32-way */
    CHECK(wmi_count_affine(arch, WM_SPACE_SHARED, WM_OP_ST, 4, full, 0, 132, &c));
    CHECK_EQ(c.wavefronts, 1);
    CHECK(wmi_count_affine(arch, WM_SPACE_SHARED, WM_OP_ST, 4, full, 0, 128, &c));
    CHECK_EQ(c.wavefronts, 32);
    CHECK_EQ(c.conflicts, 31);
    /* bytes, stride 1: 32 bytes in 8 words, one wavefront */
    CHECK(wmi_count_affine(arch, WM_SPACE_SHARED, WM_OP_LD, 1, full, 3, 1, &c));
    CHECK_EQ(c.wavefronts, 1);
    /* float4 rows: 4 quarter-warp phases of 128 B each */
    CHECK(wmi_count_affine(arch, WM_SPACE_SHARED, WM_OP_LD, 16, full, 0, 16, &c));
    CHECK_EQ(c.wavefronts, 4);
    CHECK_EQ(c.ideal_wavefronts, 4);
    CHECK_EQ(c.conflicts, 0);
    /* 2-byte lanes 5 bytes apart: misaligned; 6 apart, above the unit and
       no multiple of it: no closed form */
    CHECK(!wmi_count_affine(arch, WM_SPACE_SHARED, WM_OP_LD, 2, full, 0, 5, &c));
    CHECK(!wmi_count_affine(arch, WM_SPACE_SHARED, WM_OP_LD, 2, full, 0, 6, &c));
    CHECK(!wmi_count_affine(arch, WM_SPACE_LOCAL, WM_OP_LD, 4, full, 0, 4, &c));
    CHECK(!wmi_count_affine(arch, WM_SPACE_GLOBAL, WM_OP_LD, 4, 0x5, 0, 4, &c));
    /* sm_70's uniform pairs: a broadcast double load packs 32 lanes into
       one phase; lanes 1 and 2 only (no partner pair) do too */
    const wm_arch *volta = wm_arch_at(0);
    CHECK(volta->uniform_pair);
    CHECK(wmi_count_affine(volta, WM_SPACE_SHARED, WM_OP_LD, 8, full, 0, 0, &c));
    CHECK_EQ(c.wavefronts, 1);
    CHECK(wmi_count_affine(arch, WM_SPACE_SHARED, WM_OP_LD, 8, full, 0, 0, &c));
    CHECK_EQ(c.wavefronts, 2);
    CHECK(wmi_count_affine(volta, WM_SPACE_SHARED, WM_OP_LD, 8, 0x6, 0, 256, &c));
    CHECK_EQ(c.wavefronts, 2);
    CHECK_EQ(c.ideal_wavefronts, 1);
}

int main(void)
{
    wm_arch amd, tiny;
    CHECK_EQ(wm_arch_parse("amd-wave64", &amd, NULL, 0), WM_OK);
    CHECK_EQ(wm_arch_parse("generic,sector=8,line=64,banks=16,bankbytes=8",
                           &tiny, NULL, 0),
             WM_OK);
    hand_cases();
    const wm_arch *archs[] = {wm_arch_default(), wm_arch_at(0), wm_arch_at(1),
                              &amd, &tiny};
    for (unsigned i = 0; i < WM_ARRAY_LEN(archs); i++)
        random_patterns(archs[i], i == 0 ? 200000 : 50000);
    return check_done("test_count_affine");
}
