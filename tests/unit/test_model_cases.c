/*
 * test_model_cases.c -- hand-computed cases: the lesson's table, broadcast,
 * misalignment, wide accesses, the measured ncu oracle rows
 * (docs/design/memory-model.md), 64/128-bit shared phases, the CC 7.x
 * uniform-pair rule, local interleaving, other profiles and the error
 * statuses.
 */
#include "wm_int.h"
#include "check.h"

static wm_access make(wm_space sp, unsigned size, uint64_t base_bytes,
                      int64_t stride_bytes, unsigned lanes)
{
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = sp;
    a.op = WM_OP_LD;
    a.size = size;
    a.mask = wmi_lanes_mask(lanes);
    for (unsigned i = 0; i < lanes; i++)
        a.addr[i] = base_bytes + (uint64_t)((int64_t)i * stride_bytes);
    return a;
}

static wm_counts cnt(const wm_arch *arch, const wm_access *a)
{
    wm_counts c;
    CHECK_EQ(wm_count(arch, a, &c), WM_OK);
    return c;
}

static const wm_arch *arch_named(const char *name)
{
    static wm_arch slots[4];
    static unsigned next;
    wm_arch *a = &slots[next++ % 4];
    CHECK_EQ(wm_arch_parse(name, a, NULL, 0), WM_OK);
    return a;
}

static void lesson_table(void)
{
    const wm_arch *h = wm_arch_default();
    /* global: stride 1, 2, 8, 32 words -> 4, 8, 32, 32 sectors */
    static const int64_t gs[] = {1, 2, 8, 32};
    static const unsigned gsec[] = {4, 8, 32, 32};
    for (unsigned i = 0; i < 4; i++) {
        wm_access a = make(WM_SPACE_GLOBAL, 4, 0, gs[i] * 4, 32);
        wm_counts c = cnt(h, &a);
        CHECK_EQ(c.sectors, gsec[i]);
        CHECK_EQ(c.ideal_sectors, 4);
        CHECK_EQ(c.requests, 1);
    }
    /* shared: stride 1, 2, 32, 33 words -> 1-, 2-, 32-, 1-way */
    static const int64_t ss[] = {1, 2, 32, 33};
    static const unsigned way[] = {1, 2, 32, 1};
    for (unsigned i = 0; i < 4; i++) {
        wm_access a = make(WM_SPACE_SHARED, 4, 0, ss[i] * 4, 32);
        wm_counts c = cnt(h, &a);
        CHECK_EQ(c.wavefronts, way[i]);
        CHECK_EQ(c.nway, way[i]);
        CHECK_EQ(c.ideal_wavefronts, 1);
        CHECK_EQ(c.conflicts, way[i] - 1);
    }
}

static void broadcast_and_alignment(void)
{
    const wm_arch *h = wm_arch_default();
    /* All lanes on one word: broadcast, not a conflict (the lesson's Python
     * counts 32-way here; hardware broadcasts [DOC S1]). */
    wm_access a = make(WM_SPACE_SHARED, 4, 64, 0, 32);
    wm_counts c = cnt(h, &a);
    CHECK_EQ(c.wavefronts, 1);
    CHECK_EQ(c.conflicts, 0);
    /* Lanes sharing words two by two (2-byte stride-1): still 1. */
    a = make(WM_SPACE_SHARED, 2, 0, 2, 32);
    CHECK_EQ(cnt(h, &a).wavefronts, 1);
    /* 1-byte lanes with stride 4 bytes: 32 words, 32 banks. */
    a = make(WM_SPACE_SHARED, 1, 0, 4, 32);
    CHECK_EQ(cnt(h, &a).wavefronts, 1);
    /* Global stride 0: one sector. */
    a = make(WM_SPACE_GLOBAL, 4, 128, 0, 32);
    c = cnt(h, &a);
    CHECK_EQ(c.sectors, 1);
    CHECK_EQ(c.tags, 1);
    /* Misaligned run: 4-byte stride 1 from word 1 -> 5 sectors, 2 lines. */
    a = make(WM_SPACE_GLOBAL, 4, 4, 4, 32);
    c = cnt(h, &a);
    CHECK_EQ(c.sectors, 5);
    CHECK_EQ(c.tags, 2);
    CHECK_EQ(c.ideal_sectors, 4);
    /* From word 8 (32 B aligned, not 128 B): 4 sectors in 2 lines. */
    a = make(WM_SPACE_GLOBAL, 4, 32, 4, 32);
    c = cnt(h, &a);
    CHECK_EQ(c.sectors, 4);
    CHECK_EQ(c.tags, 2);
    /* Negative stride: lane k reads word 31 - k: the same 4 sectors. */
    a = make(WM_SPACE_GLOBAL, 4, 124, -4, 32);
    c = cnt(h, &a);
    CHECK_EQ(c.sectors, 4);
    CHECK_EQ(c.tags, 1);
    /* Negative 128-byte stride: 32 lines. */
    a = make(WM_SPACE_GLOBAL, 4, 31 * 128, -128, 32);
    CHECK_EQ(cnt(h, &a).sectors, 32);
}

static void wide_global(void)
{
    const wm_arch *h = wm_arch_default();
    static const unsigned size[] = {1, 2, 4, 8, 16};
    static const unsigned ideal[] = {1, 2, 4, 8, 16};
    static const unsigned tags[] = {1, 1, 1, 2, 4};
    for (unsigned i = 0; i < 5; i++) {
        wm_access a = make(WM_SPACE_GLOBAL, size[i], 0, size[i], 32);
        wm_counts c = cnt(h, &a);
        CHECK_EQ(c.ideal_sectors, ideal[i]);
        CHECK_EQ(c.sectors, ideal[i]);
        CHECK_EQ(c.tags, tags[i]);
        CHECK_EQ(c.t_wavefronts, 1);
        CHECK_EQ(c.bytes, 32 * size[i]);
    }
    /* 16-byte lanes a whole 128 B line apart: 32 sectors, 32 lines. */
    wm_access a = make(WM_SPACE_GLOBAL, 16, 0, 128, 32);
    wm_counts c = cnt(h, &a);
    CHECK_EQ(c.sectors, 32);
    CHECK_EQ(c.tags, 32);
    CHECK_EQ(c.t_wavefronts, 8);
}

/* Measured with ncu on the sample reports NVIDIA ships with Nsight Compute. */
static void oracle_rows(void)
{
    const wm_arch *a86 = arch_named("sm_86");
    wm_access a = make(WM_SPACE_GLOBAL, 4, 0x10000, 4, 32); /* LDG.E */
    wm_counts c = cnt(a86, &a);
    CHECK_EQ(c.sectors, 4);
    CHECK_EQ(c.tags, 1);
    CHECK_EQ(c.ideal_sectors, 4);
    CHECK_EQ(c.t_wavefronts, 1);
    a = make(WM_SPACE_GLOBAL, 8, 0x10000, 8, 32); /* LDG.E.64 */
    c = cnt(a86, &a);
    CHECK_EQ(c.sectors, 8);
    CHECK_EQ(c.tags, 2);
    CHECK_EQ(c.ideal_sectors, 8);
    CHECK_EQ(c.t_wavefronts, 1);
    for (unsigned off = 0; off < 24; off += 8) { /* LDG.E.64 x3, double3 */
        a = make(WM_SPACE_GLOBAL, 8, 0x10000 + off, 24, 32);
        c = cnt(a86, &a);
        CHECK_EQ(c.sectors, 24);
        CHECK_EQ(c.tags, 6);
        CHECK_EQ(c.ideal_sectors, 8);
        CHECK_EQ(c.t_wavefronts, 2);
    }
    a = make(WM_SPACE_SHARED, 4, 0, 4, 32); /* STS row */
    a.op = WM_OP_ST;
    c = cnt(a86, &a);
    CHECK_EQ(c.wavefronts, 1);
    CHECK_EQ(c.ideal_wavefronts, 1);
    a = make(WM_SPACE_SHARED, 4, 0, 128, 32); /* LDS column */
    c = cnt(a86, &a);
    CHECK_EQ(c.wavefronts, 32);
    CHECK_EQ(c.ideal_wavefronts, 1);
    CHECK_EQ(c.conflicts, 31);
}

static void wide_shared(void)
{
    const wm_arch *h = wm_arch_default();
    /* Conflict-free LDS.128: 4 quarter-warps, 4 wavefronts, 0 conflicts. */
    wm_access a = make(WM_SPACE_SHARED, 16, 0, 16, 32);
    wm_counts c = cnt(h, &a);
    CHECK_EQ(c.wavefronts, 4);
    CHECK_EQ(c.ideal_wavefronts, 4);
    CHECK_EQ(c.conflicts, 0);
    /* Lanes 0 and 8 on the same banks (different words), 16 B: they are in
     * different quarter-warps, so no conflict (S13). */
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = 16 * (i % 8) + 128 * (i / 8);
    c = cnt(h, &a);
    CHECK_EQ(c.wavefronts, 4);
    CHECK_EQ(c.conflicts, 0);
    /* Bad LDS.128: lanes 128 B apart, 8 lanes per phase on banks 0-3. */
    a = make(WM_SPACE_SHARED, 16, 0, 128, 32);
    c = cnt(h, &a);
    CHECK_EQ(c.wavefronts, 32);
    CHECK_EQ(c.conflicts, 28);
    CHECK_EQ(c.nway, 8);
    /* LDS.64 contiguous: 2 half-warps, 2 wavefronts (S14). */
    a = make(WM_SPACE_SHARED, 8, 0, 8, 32);
    c = cnt(h, &a);
    CHECK_EQ(c.wavefronts, 2);
    CHECK_EQ(c.conflicts, 0);
    /* Transposed STS.64 of a double tile, 32 doubles per row: lanes 256 B
     * apart -> 16 lanes of a half-warp on banks 0-1 -> 16 per phase. */
    a = make(WM_SPACE_SHARED, 8, 0, 256, 32);
    a.op = WM_OP_ST;
    c = cnt(h, &a);
    CHECK_EQ(c.wavefronts, 32);
    CHECK_EQ(c.ideal_wavefronts, 2);
    /* offset = (tid % 4) * 16 on Turing: 4 per instruction (S18). */
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = (i % 4) * 16;
    a.size = 16;
    a.op = WM_OP_LD;
    CHECK_EQ(cnt(arch_named("sm_75"), &a).wavefronts, 4);
    /* Partial quarter-warps: lanes 0 and 31 only -> 2 phases of 1. */
    a = make(WM_SPACE_SHARED, 16, 0, 16, 32);
    a.mask = 1u | (1u << 31);
    c = cnt(h, &a);
    CHECK_EQ(c.wavefronts, 2);
    CHECK_EQ(c.ideal_wavefronts, 1);
    CHECK_EQ(c.conflicts, 1);
}

static void uniform_pair(void)
{
    const wm_arch *t = arch_named("sm_75"), *h = arch_named("sm_90");
    wm_access a = make(WM_SPACE_SHARED, 16, 256, 0, 32); /* warp-uniform */
    CHECK_EQ(cnt(t, &a).wavefronts, 2);
    CHECK_EQ(cnt(h, &a).wavefronts, 4);
    /* The ideal is at the packed phase's width: 512 B in 256 B of lanes
     * per wavefront, 2; no negative excess (it was 4: 2 - 4 = -2). */
    CHECK_EQ(cnt(t, &a).ideal_wavefronts, 2);
    CHECK_EQ(cnt(t, &a).conflicts, 0);
    CHECK_EQ(cnt(h, &a).ideal_wavefronts, 4);
    a.mask = 0xff; /* 8 lanes, 128 B: one packed phase, ideal 1 */
    CHECK_EQ(cnt(t, &a).wavefronts, 1);
    CHECK_EQ(cnt(t, &a).ideal_wavefronts, 1);
    a.mask = 0xffffffffu;
    a.size = 8;
    CHECK_EQ(cnt(t, &a).wavefronts, 1);
    CHECK_EQ(cnt(t, &a).ideal_wavefronts, 1);
    CHECK_EQ(cnt(h, &a).wavefronts, 2);
    /* Pairs n, n^1 equal, pairs distinct and contiguous. */
    a.size = 16;
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = 16 * (i / 2);
    CHECK_EQ(cnt(t, &a).wavefronts, 2);
    CHECK_EQ(cnt(t, &a).ideal_wavefronts, 2);
    CHECK_EQ(cnt(h, &a).wavefronts, 4);
    /* Stores do not pack. */
    a.op = WM_OP_ST;
    CHECK_EQ(cnt(t, &a).wavefronts, 4);
    CHECK_EQ(cnt(t, &a).ideal_wavefronts, 4);
}

static void local_and_predicated(void)
{
    const wm_arch *h = wm_arch_default();
    /* Every thread at the same local offset: interleaved -> coalesced. */
    wm_access a = make(WM_SPACE_LOCAL, 4, 40, 0, 32);
    wm_counts c = cnt(h, &a);
    CHECK_EQ(c.sectors, 4);
    CHECK_EQ(c.tags, 1);
    a.size = 16;
    a = make(WM_SPACE_LOCAL, 16, 32, 0, 32);
    c = cnt(h, &a);
    CHECK_EQ(c.sectors, 16);
    CHECK_EQ(c.tags, 4);
    /* Thread i at local offset 4i: words i*32 + i -> 32 lines. */
    a = make(WM_SPACE_LOCAL, 4, 0, 4, 32);
    CHECK_EQ(cnt(h, &a).sectors, 32);
    /* Fully predicated off: no request, nothing counted. */
    a = make(WM_SPACE_GLOBAL, 4, 0, 4, 32);
    a.mask = 0;
    c = cnt(h, &a);
    CHECK_EQ(c.requests, 0);
    CHECK_EQ(c.sectors, 0);
    /* One lane: one sector, ideal 1. */
    a.mask = 1u << 5;
    c = cnt(h, &a);
    CHECK_EQ(c.sectors, 1);
    CHECK_EQ(c.ideal_sectors, 1);
}

static void other_profiles(void)
{
    const wm_arch *amd = arch_named("amd-wave64");
    wm_access a = make(WM_SPACE_GLOBAL, 4, 0, 4, 64);
    wm_counts c = cnt(amd, &a);
    CHECK_EQ(c.sectors, 8);
    CHECK_EQ(c.tags, 2);
    a = make(WM_SPACE_SHARED, 4, 0, 4, 64);
    c = cnt(amd, &a);
    CHECK_EQ(c.wavefronts, 2);
    CHECK_EQ(c.ideal_wavefronts, 2);
    CHECK_EQ(c.conflicts, 0);
    a = make(WM_SPACE_SHARED, 4, 0, 128, 64);
    CHECK_EQ(cnt(amd, &a).wavefronts, 64);
    /* 8-byte banks: lanes on 4-byte stride share 8-byte words. */
    wm_arch g;
    CHECK_EQ(wm_arch_parse("generic,banks=32,bankbytes=8", &g, NULL, 0),
             WM_OK);
    a = make(WM_SPACE_SHARED, 4, 0, 4, 32);
    CHECK_EQ(cnt(&g, &a).wavefronts, 1);
    a = make(WM_SPACE_SHARED, 8, 0, 256, 32);
    CHECK_EQ(cnt(&g, &a).wavefronts, 32);
    /* 64-byte sectors. */
    CHECK_EQ(wm_arch_parse("generic,sector=64,line=128", &g, NULL, 0), WM_OK);
    a = make(WM_SPACE_GLOBAL, 4, 0, 128, 32);
    CHECK_EQ(cnt(&g, &a).sectors, 32);
    CHECK_EQ(cnt(&g, &a).ideal_sectors, 2);
}

static void errors(void)
{
    const wm_arch *h = wm_arch_default();
    wm_counts c;
    wm_access a = make(WM_SPACE_GLOBAL, 4, 0, 4, 32);
    a.size = 3;
    CHECK_EQ(wm_count(h, &a, &c), WM_ERR_SIZE);
    a.size = 4;
    a.addr[7] = 6;
    CHECK_EQ(wm_count(h, &a, &c), WM_ERR_ALIGN);
    CHECK_EQ(c.sectors, 0);
    a.addr[7] = 28;
    a.mask = (uint64_t)1 << 40;
    CHECK_EQ(wm_count(h, &a, &c), WM_ERR_ARG);
    a.mask = 1;
    a.space = (wm_space)7;
    CHECK_EQ(wm_count(h, &a, &c), WM_ERR_ARG);
    wm_arch bad = *h;
    bad.banks = 48;
    CHECK_EQ(wm_arch_check(&bad), WM_ERR_ARCH);
    char err[200];
    CHECK_EQ(wm_arch_parse("sm_99", &bad, err, sizeof err), WM_ERR_ARCH);
    CHECK(strstr(err, "sm_99") != NULL);
    CHECK_EQ(wm_arch_parse("generic,warp=48", &bad, err, sizeof err),
             WM_ERR_ARCH);
    CHECK_EQ(wm_arch_parse("generic,bogus=1", &bad, err, sizeof err),
             WM_ERR_ARCH);
    CHECK(strstr(err, "bogus") != NULL);
    CHECK_EQ(wm_arch_parse("90", &bad, NULL, 0), WM_OK);
    CHECK_EQ(bad.sm, 90);
    CHECK_EQ(wm_arch_parse("sm_90a", &bad, NULL, 0), WM_OK);
    CHECK_EQ(wm_arch_parse("compute_75", &bad, NULL, 0), WM_OK);
    CHECK_EQ(bad.uniform_pair, 1);
}

int main(void)
{
    lesson_table();
    broadcast_and_alignment();
    wide_global();
    oracle_rows();
    wide_shared();
    uniform_pair();
    local_and_predicated();
    other_profiles();
    errors();
    return check_done("test_model_cases");
}
