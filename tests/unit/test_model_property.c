/*
 * test_model_property.c -- wm_count against the brute-force reference
 * (src/model/reference.c) on at least 100,000 random warps per access kind, plus
 * the model's invariants: lane permutations within phases do
 * not change counts, ceil(bytes / sector) <= sectors <= lanes * pieces for
 * aligned accesses, and stride-1 4-byte shared accesses are conflict-free.
 */
#include "wm_int.h"
#include "check.h"

#include <stdio.h>

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rnd(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static const unsigned sizes[] = {1, 2, 4, 8, 16};

/* Random access of one of several shapes: affine, clustered, scattered,
 * partial masks, duplicates, negative strides, huge addresses. */
static void random_access(const wm_arch *arch, wm_access *a, wm_space sp)
{
    unsigned W = arch->warp_size;
    memset(a, 0, sizeof *a);
    a->space = sp;
    a->op = (rnd() & 1) ? WM_OP_LD : WM_OP_ST;
    a->size = sizes[rnd() % 5];
    unsigned shape = (unsigned)(rnd() % 6);
    uint64_t base = (rnd() % (1u << 20)) * 16;
    if (rnd() % 8 == 0)
        base = (rnd() >> 4) << 4; /* anywhere in the 64-bit space */
    int64_t stride = (int64_t)(rnd() % 70) - 20;
    for (unsigned i = 0; i < W; i++) {
        uint64_t v;
        switch (shape) {
        case 0: v = base + (uint64_t)((int64_t)i * stride * (int64_t)a->size);
            break;
        case 1: v = base + (rnd() % 64) * a->size; break;       /* dense */
        case 2: v = base + (rnd() % 4096) * a->size; break;     /* cluster */
        case 3: v = rnd(); break;                                /* random */
        case 4: v = base + (uint64_t)((i % 8) * 4 + (i / 8) * 1024) * a->size;
            break;                                               /* 2-D */
        default: v = base + (rnd() % 3) * a->size * 32; break;   /* dups */
        }
        a->addr[i] = v & ~(uint64_t)(a->size - 1);
    }
    switch (rnd() % 4) {
    case 0: a->mask = wmi_lanes_mask(W); break;
    case 1: a->mask = rnd() & wmi_lanes_mask(W); break;
    case 2: {
        unsigned lo = (unsigned)(rnd() % W), n = 1 + (unsigned)(rnd() % (W - lo));
        a->mask = wmi_lanes_mask(n) << lo;
        break;
    }
    default: a->mask = (rnd() | 1) & wmi_lanes_mask(W); break;
    }
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

static void dump(const wm_access *a, const wm_counts *f, const wm_counts *r)
{
    fprintf(stderr, "space %d size %u mask %llx: fast s%u t%u w%u n%u, "
                    "ref s%u t%u w%u n%u\n",
            (int)a->space, a->size, (unsigned long long)a->mask, f->sectors,
            f->tags, f->wavefronts, f->nway, r->sectors, r->tags,
            r->wavefronts, r->nway);
}

static void compare_kind(const wm_arch *arch, wm_space sp, unsigned n)
{
    unsigned bad = 0;
    for (unsigned it = 0; it < n; it++) {
        wm_access a;
        wm_counts f, r;
        random_access(arch, &a, sp);
        CHECK_EQ(wm_count(arch, &a, &f), WM_OK);
        CHECK_EQ(wmi_reference_count(arch, &a, &r), WM_OK);
        if (!same_counts(&f, &r) && bad++ < 5) {
            dump(&a, &f, &r);
            CHECK(0);
        }
        /* Bounds that hold for every aligned access. */
        if (sp != WM_SPACE_SHARED && a.mask) {
            CHECK(f.sectors >= f.tags);
            CHECK(f.sectors * arch->sector_bytes >= a.size ||
                  f.ideal_sectors <= f.active * a.size);
            CHECK(f.sectors <= f.active * (a.size > 4 ? a.size / 4 : 1) *
                                   (a.size > arch->sector_bytes
                                        ? a.size / arch->sector_bytes
                                        : 1));
        }
    }
    CHECK_EQ(bad, 0);
}

/* Permuting lanes within a phase (or the whole warp for global) leaves the
 * counts unchanged. */
static void check_permutation(const wm_arch *arch, unsigned n)
{
    for (unsigned it = 0; it < n; it++) {
        wm_access a, b;
        wm_counts ca, cb;
        wm_space sp = (it & 1) ? WM_SPACE_SHARED : WM_SPACE_GLOBAL;
        random_access(arch, &a, sp);
        a.mask = wmi_lanes_mask(arch->warp_size);
        b = a;
        unsigned group = sp == WM_SPACE_SHARED
                             ? wm_shared_phase_lanes(arch, a.size)
                             : arch->warp_size;
        for (unsigned lo = 0; lo < arch->warp_size; lo += group)
            for (unsigned i = group - 1; i > 0; i--) {
                unsigned j = (unsigned)(rnd() % (i + 1));
                uint64_t t = b.addr[lo + i];
                b.addr[lo + i] = b.addr[lo + j];
                b.addr[lo + j] = t;
            }
        wm_count(arch, &a, &ca);
        wm_count(arch, &b, &cb);
        if (arch->uniform_pair && a.size >= 8)
            continue; /* pairing depends on lane order by definition */
        CHECK(same_counts(&ca, &cb));
    }
}

int main(void)
{
    wm_arch amd, tiny;
    CHECK_EQ(wm_arch_parse("amd-wave64", &amd, NULL, 0), WM_OK);
    CHECK_EQ(wm_arch_parse("generic,sector=8,line=64,banks=16,bankbytes=8",
                           &tiny, NULL, 0),
             WM_OK);
    const wm_arch *archs[] = {wm_arch_default(), wm_arch_at(0), &amd, &tiny};
    const unsigned per_kind = 100000;
    for (unsigned k = 0; k < 3; k++)
        compare_kind(wm_arch_default(), (wm_space)k, per_kind);
    for (unsigned i = 1; i < 4; i++)
        for (unsigned k = 0; k < 3; k++)
            compare_kind(archs[i], (wm_space)k, per_kind / 10);
    check_permutation(wm_arch_default(), 20000);
    check_permutation(&amd, 5000);

    /* Stride-1 4-byte shared accesses are conflict-free from any word. */
    for (unsigned base = 0; base < 256; base++) {
        wm_access a;
        wm_counts c;
        memset(&a, 0, sizeof a);
        a.space = WM_SPACE_SHARED;
        a.size = 4;
        a.mask = wmi_lanes_mask(32);
        for (unsigned i = 0; i < 32; i++)
            a.addr[i] = (base + i) * 4;
        wm_count(wm_arch_default(), &a, &c);
        CHECK_EQ(c.wavefronts, 1);
        CHECK_EQ(c.conflicts, 0);
    }
    return check_done("test_model_property");
}
