/*
 * test_advise.c -- the advisor on the lesson's cases (exact diagnoses and
 * what-if numbers), on hand-built 2-D and scattered cases, and a property
 * test: on random accesses every proposed fix is re-counted by the model
 * and must be strictly better for the same bytes.
 */
#define _POSIX_C_SOURCE 200809L
#include "advise_int.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

static wm_access strided(wm_space sp, unsigned size, uint64_t base,
                         int64_t stride)
{
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = sp;
    a.op = WM_OP_LD;
    a.size = size;
    a.mask = 0xffffffffu;
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = base + (uint64_t)((int64_t)i * stride);
    return a;
}

static const wm_fix *find_fix(const wm_advice *v, wm_fix_kind k)
{
    for (size_t i = 0; i < v->nfixes; i++)
        if (v->fixes[i].kind == k)
            return &v->fixes[i];
    return NULL;
}

static int contains(const char *hay, const char *needle)
{
    return strstr(hay, needle) != NULL;
}

/* Lesson: stride 32 floats in global memory, 32 -> 4 by remapping. */
static void test_global_stride32(const wm_arch *arch)
{
    wm_access a = strided(WM_SPACE_GLOBAL, 4, 0x10000, 128);
    wm_advice v;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.pattern.kind, WM_PAT_STRIDED);
    CHECK_EQ(v.pattern.stride, 128);
    CHECK_EQ(v.counts.sectors, 32);
    CHECK_EQ(v.counts.ideal_sectors, 4);
    CHECK_EQ(v.excess, 28);
    CHECK_EQ(v.total, 32);
    CHECK_EQ(v.severity, WM_SEV_HIGH);
    CHECK_EQ(v.nfixes, 1);
    const wm_fix *f = find_fix(&v, WM_FIX_REMAP);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(f->before.sectors, 32);
        CHECK_EQ(f->after.sectors, 4);
        CHECK_EQ(f->after.requests, 1);
        CHECK_EQ(f->access.addr[5], 0x10000 + 20);
        CHECK(contains(f->text, "threadIdx.x"));
    }
    CHECK(contains(v.headline, "32 sectors per request (ideal 4)"));
    CHECK(contains(v.diagnosis, "128 bytes (32 elements) apart"));
    CHECK(contains(v.diagnosis, "its own 32-byte sector"));
    char out[128];
    wmi_advise_outcome(&v.fixes[0], "->", out, sizeof out);
    CHECK(strcmp(out, "32 -> 4 sectors per request") == 0);
}

/* Lesson: column of a [32][32] float tile, 32 -> 1 by pad and swizzle. */
static void test_shared_stride32(const wm_arch *arch)
{
    wm_access a = strided(WM_SPACE_SHARED, 4, 0, 128);
    wm_advice v;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.pattern.kind, WM_PAT_STRIDED);
    CHECK_EQ(v.counts.wavefronts, 32);
    CHECK_EQ(v.counts.nway, 32);
    CHECK_EQ(v.excess, 31);
    CHECK_EQ(v.nfixes, 2);
    const wm_fix *pad = find_fix(&v, WM_FIX_PAD);
    const wm_fix *swz = find_fix(&v, WM_FIX_SWIZZLE);
    CHECK(pad && swz && !find_fix(&v, WM_FIX_REMAP));
    if (pad && swz) {
        CHECK_EQ(pad->param, 4);
        CHECK_EQ(pad->before.wavefronts, 32);
        CHECK_EQ(pad->after.wavefronts, 1);
        CHECK_EQ(pad->access.addr[3], 3 * 132);
        CHECK(contains(pad->text, "[..][33] instead of [..][32]"));
        CHECK_EQ(swz->param, 1);
        CHECK_EQ(swz->after.wavefronts, 1);
        CHECK_EQ(swz->access.addr[3], 3 * 128 + 3 * 4);
        CHECK(contains(swz->text, "c ^ (r % 32)"));
        CHECK(v.fixes[0].kind == WM_FIX_PAD); /* ties keep pad first */
    }
    CHECK(contains(v.headline, "32-way bank conflict: 32 wavefronts"));
    CHECK(contains(v.diagnosis, "can reach only 1 of them"));
    CHECK(contains(v.diagnosis, "(a 32-way conflict)"));
    CHECK(contains(v.diagnosis, "power-of-two"));
}

/* Lesson: contiguous floats starting 4 bytes off a sector: 5 -> 4. */
static void test_misaligned(const wm_arch *arch)
{
    wm_access a = strided(WM_SPACE_GLOBAL, 4, 0x1004, 4);
    wm_advice v;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.pattern.kind, WM_PAT_CONTIGUOUS);
    CHECK_EQ(v.pattern.misalign, 4);
    CHECK_EQ(v.counts.sectors, 5);
    CHECK_EQ(v.nfixes, 1);
    const wm_fix *f = find_fix(&v, WM_FIX_ALIGN);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(f->before.sectors, 5);
        CHECK_EQ(f->after.sectors, 4);
        CHECK_EQ(f->param, 32);
        CHECK(contains(f->text, "starts 4 bytes past one"));
    }
    CHECK(contains(v.headline, "misaligned access: 5 sectors per request"));
}

/* Lesson: scalar 4-byte loads vs 16-byte vectors: 4x fewer requests. */
static void test_vectorize(const wm_arch *arch)
{
    wm_access a = strided(WM_SPACE_GLOBAL, 4, 0x2000, 4);
    wm_advice v;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.counts.sectors, 4);
    CHECK_EQ(v.severity, WM_SEV_NONE);
    CHECK_EQ(v.nfixes, 1);
    const wm_fix *f = find_fix(&v, WM_FIX_VECTORIZE);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(f->param, 16);
        CHECK_EQ(f->copies, 4);
        CHECK_EQ(f->before.requests, 4);
        CHECK_EQ(f->after.requests, 1);
        CHECK_EQ(f->before.sectors, 16);
        CHECK_EQ(f->after.sectors, 16);
        CHECK_EQ(f->after.bytes, 512);
        char out[160];
        wmi_advise_outcome(f, "->", out, sizeof out);
        CHECK(strcmp(out, "4 -> 1 requests for the same 512 bytes "
                          "(16 -> 16 sectors)") == 0);
    }
    /* The same row in shared memory is at the ideal, and 16-byte vectors
     * would take 4 -> 1 requests but 4 -> 4 wavefronts: no fix (it was
     * offered, "4 -> 4 wavefronts", for an access called ideal). */
    a.space = WM_SPACE_SHARED;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.counts.wavefronts, 1);
    CHECK_EQ(v.severity, WM_SEV_NONE);
    CHECK_EQ(v.nfixes, 0);
    CHECK(find_fix(&v, WM_FIX_VECTORIZE) == NULL);
    /* 2-byte elements: a 64-byte row is 1 wavefront, 8 of them 8; one
     * 16-byte vector per lane moves the 512 bytes in 4. */
    a = strided(WM_SPACE_SHARED, 2, 0x2000, 2);
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    f = find_fix(&v, WM_FIX_VECTORIZE);
    CHECK(f && f->param == 16 && f->copies == 8 &&
          f->before.requests == 8 && f->after.requests == 1 &&
          f->before.wavefronts == 8 && f->after.wavefronts == 4);
    /* 8-byte alignment only: 8-byte vectors, 2 -> 1 requests; the two
     * misaligned scalar runs take 5 sectors each, the vector run 9. */
    a = strided(WM_SPACE_GLOBAL, 4, 0x2008, 4);
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    f = find_fix(&v, WM_FIX_VECTORIZE);
    CHECK(f && f->param == 8 && f->before.requests == 2 &&
          f->after.requests == 1 && f->before.sectors == 10 &&
          f->after.sectors == 9);
    CHECK(find_fix(&v, WM_FIX_ALIGN) != NULL);
    /* Already 16 bytes per lane: nothing to vectorise. */
    a = strided(WM_SPACE_GLOBAL, 16, 0x2000, 16);
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.nfixes, 0);
    CHECK(contains(v.headline, "coalesced: 16 sectors per request (ideal)"));
}

/* 2-D warp tiles: 8 x 4 threads over row-major float arrays. */
static void test_tiles(const wm_arch *arch)
{
    wm_access a = strided(WM_SPACE_GLOBAL, 4, 0, 0);
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = 0x100000 + (i / 8) * 4096 + (i % 8) * 4;
    wm_advice v;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.pattern.kind, WM_PAT_TILE);
    CHECK_EQ(v.pattern.group, 8);
    CHECK_EQ(v.pattern.stride, 4);
    CHECK_EQ(v.pattern.jump, 4096);
    CHECK_EQ(v.counts.sectors, 4);
    CHECK_EQ(v.counts.tags, 4);
    CHECK(contains(v.diagnosis, "an 8 x 4 tile"));
    /* Sectors are ideal already (4 x 32 B); no fix may claim more. */
    CHECK_EQ(v.nfixes, 0);

    /* 16 x 2 tile of floats in a [.][32] shared array: 2 rows of 16
     * words, banks 0-15 twice... but rows are 128 B apart: 2-way. */
    a.space = WM_SPACE_SHARED;
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = (i / 16) * 128 + (i % 16) * 4;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.pattern.kind, WM_PAT_TILE);
    CHECK_EQ(v.pattern.group, 16);
    CHECK_EQ(v.counts.wavefronts, 2);
    const wm_fix *pad = find_fix(&v, WM_FIX_PAD);
    const wm_fix *swz = find_fix(&v, WM_FIX_SWIZZLE);
    CHECK(pad && pad->param == 64 && pad->after.wavefronts == 1);
    CHECK(swz && swz->param == 16 && swz->after.wavefronts == 1);

    /* 8 x 4 tile in shared: 4-way; pad by 32 B or swizzle by 8 r. */
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = (i / 8) * 128 + (i % 8) * 4;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.counts.wavefronts, 4);
    pad = find_fix(&v, WM_FIX_PAD);
    swz = find_fix(&v, WM_FIX_SWIZZLE);
    CHECK(pad && pad->param == 32 && pad->after.wavefronts == 1);
    CHECK(swz && swz->param == 8 && swz->after.wavefronts == 1);
}

/* Broadcast, an array of structures, scattered, local memory. */
static void test_other_patterns(const wm_arch *arch)
{
    wm_access a = strided(WM_SPACE_GLOBAL, 4, 0x40, 0);
    wm_advice v;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.pattern.kind, WM_PAT_BROADCAST);
    CHECK_EQ(v.counts.sectors, 1);
    CHECK_EQ(v.nfixes, 0);
    CHECK_EQ(v.excess, 0);
    CHECK(contains(v.diagnosis, "broadcast"));

    /* float3 member access: 12-byte stride, 12 sectors for 128 bytes. */
    a = strided(WM_SPACE_GLOBAL, 4, 0, 12);
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.counts.sectors, 12);
    const wm_fix *f = find_fix(&v, WM_FIX_REMAP);
    CHECK(f && f->after.sectors == 4 &&
          contains(f->text, "structure of arrays"));
    CHECK(contains(v.diagnosis, "array of structures"));

    /* Scattered: lane i reads element (i * 7919) % 1024. */
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = ((i * 7919u) % 1024u) * 4u;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.pattern.kind, WM_PAT_SCATTERED);
    f = find_fix(&v, WM_FIX_REMAP);
    CHECK(f && f->after.sectors == 4 && f->before.sectors > 4);

    /* Local: lanes at different per-thread offsets (dynamic index). */
    a = strided(WM_SPACE_LOCAL, 4, 0, 4);
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    f = find_fix(&v, WM_FIX_REMAP);
    if (v.counts.sectors > 4)
        CHECK(f && f->after.sectors == 4);
    CHECK(find_fix(&v, WM_FIX_VECTORIZE) == NULL);

    /* No active lane. */
    a.mask = 0;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.pattern.kind, WM_PAT_NONE);
    CHECK_EQ(v.nfixes, 0);

    /* Errors come from the model. */
    a = strided(WM_SPACE_GLOBAL, 4, 2, 4);
    CHECK_EQ(wm_advise(arch, &a, &v), WM_ERR_ALIGN);
    a.size = 3;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_ERR_SIZE);
    CHECK_EQ(wm_advise(NULL, &a, &v), WM_ERR_ARG);
}

/* Partial masks keep the per-lane stride. */
static void test_partial_mask(const wm_arch *arch)
{
    wm_access a = strided(WM_SPACE_SHARED, 4, 0, 128);
    a.mask = 0x0000ff0fu;
    wm_advice v;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    CHECK_EQ(v.pattern.kind, WM_PAT_STRIDED);
    CHECK_EQ(v.pattern.active, 12);
    CHECK_EQ(v.pattern.stride, 128);
    CHECK_EQ(v.counts.wavefronts, 12);
    const wm_fix *f = find_fix(&v, WM_FIX_PAD);
    CHECK(f && f->after.wavefronts == 1);
}

/* Printers: the text lines and a JSON document. */
static void test_printers(const wm_arch *arch)
{
    wm_access a = strided(WM_SPACE_SHARED, 4, 0, 128);
    wm_advice v;
    char *buf = NULL;
    size_t len = 0;
    CHECK_EQ(wm_advise(arch, &a, &v), WM_OK);
    FILE *f = open_memstream(&buf, &len);
    wm_advise_print(f, &v, 0, 80);
    fclose(f);
    CHECK(contains(buf, "  advice [high]: 32-way bank conflict"));
    CHECK(contains(buf, "31 excessive wavefronts (97% of the total 32 "
                        "wavefronts)"));
    CHECK(contains(buf, "32 -> 1 wavefronts per request"));
    CHECK(!contains(buf, "\033["));
    for (char *p = buf, *nl; (nl = strchr(p, '\n')); p = nl + 1)
        CHECK(nl - p <= 80);
    free(buf);

    f = open_memstream(&buf, &len);
    wm_advise_print(f, &v, 1, 80);
    fclose(f);
    CHECK(contains(buf, "\033[31mhigh\033[0m"));
    free(buf);

    f = open_memstream(&buf, &len);
    wm_advise_json(f, &v);
    fclose(f);
    CHECK(contains(buf, "\"kind\": \"strided\""));
    CHECK(contains(buf, "\"fixes\": [{\"kind\": \"pad\", \"param\": 4"));
    CHECK(contains(buf, "\"after\": {\"requests\": 1, \"bytes\": 128, "
                        "\"wavefronts\": 1, \"ideal_wavefronts\": 1}"));
    free(buf);
}

/* xorshift64*: reproducible random numbers. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

/* A random access: mostly structured (strides, tiles, offsets), some
 * random addresses, random masks, sizes, spaces and huge bases. */
static void random_access(const wm_arch *arch, wm_access *a)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    memset(a, 0, sizeof *a);
    a->size = sizes[rnd() % 5];
    a->space = (wm_space)(rnd() % 3);
    a->op = rnd() % 4 ? WM_OP_LD : WM_OP_ST;
    unsigned w = arch->warp_size;
    uint64_t r = rnd() % 8;
    a->mask = r == 0   ? rnd() & wmi_lanes_mask(w)
              : r == 1 ? wmi_lanes_mask(1 + (unsigned)(rnd() % w))
                       : wmi_lanes_mask(w);
    uint64_t base = rnd() % 4 == 0 ? rnd() : rnd() % 65536;
    if (rnd() % 16 == 0)
        base = UINT64_MAX - rnd() % 4096; /* overflow guards */
    int64_t stride = (int64_t)(rnd() % 70) - 20;
    int64_t jump = (int64_t)(rnd() % 600);
    unsigned k = 1u << (1 + rnd() % 4);
    unsigned kind = (unsigned)(rnd() % 4);
    for (unsigned i = 0; i < w; i++) {
        uint64_t v;
        switch (kind) {
        case 0: v = base + (uint64_t)((int64_t)i * stride) * a->size; break;
        case 1:
            v = base + (uint64_t)((int64_t)(i % k) * stride) * a->size +
                (uint64_t)((int64_t)(i / k) * jump) * a->size;
            break;
        case 2: v = base + (rnd() % 256) * a->size; break;
        default: v = rnd(); break;
        }
        a->addr[i] = v - v % a->size;
    }
}

static void test_property(void)
{
    unsigned tried = 0, fixes = 0, kinds[WM_NFIXES] = {0};
    for (unsigned iter = 0; iter < 12000; iter++) {
        const wm_arch *arch = wm_arch_at(iter % wm_arch_count());
        wm_access a;
        wm_advice v;
        random_access(arch, &a);
        if (wm_advise(arch, &a, &v) != WM_OK)
            continue;
        tried++;
        wm_counts orig;
        CHECK_EQ(wm_count(arch, &a, &orig), WM_OK);
        CHECK(v.nfixes <= WM_ADVISE_MAX_FIXES);
        for (size_t i = 0; i < v.nfixes; i++) {
            const wm_fix *f = &v.fixes[i];
            wm_counts after, before;
            memset(&before, 0, sizeof before);
            fixes++;
            kinds[f->kind]++;
            /* Re-count both sides independently of the advisor. */
            CHECK_EQ(wm_count(arch, &f->access, &after), WM_OK);
            CHECK(memcmp(&after, &f->after, sizeof after) == 0);
            CHECK(f->copies >= 1);
            wmi_lanes l;
            wmi_advise_lanes(arch, &a, &l);
            for (unsigned k = 0; k < f->copies; k++) {
                wm_access s = a;
                wm_counts t;
                for (unsigned j = 0; j < l.n; j++)
                    s.addr[l.lane[j]] += (uint64_t)k * l.n * a.size;
                CHECK_EQ(wm_count(arch, &s, &t), WM_OK);
                wmi_counts_add(&before, &t);
            }
            CHECK(memcmp(&before, &f->before, sizeof before) == 0);
            CHECK_EQ(after.bytes, before.bytes);
            CHECK_EQ(f->access.mask, a.mask);
            uint64_t cb = wmi_advise_cost(a.space, &before);
            uint64_t ca = wmi_advise_cost(a.space, &after);
            /* shared: fewer wavefronts; global, local: or fewer
               requests for no more sectors */
            int better = (ca < cb && after.requests <= before.requests) ||
                         (a.space != WM_SPACE_SHARED && ca <= cb &&
                          after.requests < before.requests);
            CHECK(better);
            if (!better)
                fprintf(stderr, "  worse fix %s on %s size %u\n",
                        wm_fix_name(f->kind), wm_space_name(a.space),
                        a.size);
            if (i > 0)
                CHECK(v.fixes[i].kind != v.fixes[i - 1].kind);
        }
        if (v.excess == 0)
            CHECK_EQ(v.severity, WM_SEV_NONE);
    }
    printf("property: %u accesses, %u fixes (remap %u, align %u, pad %u, "
           "swizzle %u, vectorize %u)\n",
           tried, fixes, kinds[WM_FIX_REMAP], kinds[WM_FIX_ALIGN],
           kinds[WM_FIX_PAD], kinds[WM_FIX_SWIZZLE], kinds[WM_FIX_VECTORIZE]);
    CHECK(tried >= 10000);
    for (unsigned k = 0; k < WM_NFIXES; k++)
        CHECK(kinds[k] > 0); /* every fix is exercised */
}

int main(void)
{
    const wm_arch *arch = wm_arch_default();
    test_global_stride32(arch);
    test_shared_stride32(arch);
    test_misaligned(arch);
    test_vectorize(arch);
    test_tiles(arch);
    test_other_patterns(arch);
    test_partial_mask(arch);
    test_printers(arch);
    test_property();
    CHECK(strcmp(wm_pattern_name(WM_PAT_TILE), "tile") == 0);
    CHECK(strcmp(wm_fix_name(WM_FIX_SWIZZLE), "swizzle") == 0);
    CHECK(strcmp(wm_severity_name(WM_SEV_MEDIUM), "medium") == 0);
    return check_done("test_advise");
}
