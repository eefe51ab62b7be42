/*
 * test_count_memo.c -- wmi_cmemo_add against wm_agg_add: the same counts
 * for every access and the same aggregate, whether the access repeats a
 * pattern translated by a multiple of the line / bank unit (reused
 * counts), by less (counted afresh), or not at all.
 */
#include "check.h"
#include "wm_int.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void same_counts(const wm_counts *a, const wm_counts *b)
{
    CHECK_EQ(a->active, b->active);
    CHECK_EQ(a->requests, b->requests);
    CHECK_EQ(a->bytes, b->bytes);
    CHECK_EQ(a->sectors, b->sectors);
    CHECK_EQ(a->tags, b->tags);
    CHECK_EQ(a->wavefronts, b->wavefronts);
    CHECK_EQ(a->ideal_sectors, b->ideal_sectors);
    CHECK_EQ(a->ideal_wavefronts, b->ideal_wavefronts);
}

/* Hand case: 32 contiguous floats are 4 sectors at a 128-byte boundary,
 * 5 when moved by 4 bytes, 4 again when moved by 128 (a reused count). */
static void translated_by_less_than_a_line(void)
{
    const wm_arch *arch = wm_arch_default();
    wm_agg *g = wm_agg_new(arch);
    wmi_cmemo *m = wmi_cmemo_new(4, arch->warp_size);
    CHECK(g && m);
    if (!g || !m)
        return;
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = WM_SPACE_GLOBAL;
    a.size = 4;
    a.mask = 0xffffffffu;
    static const uint64_t base[] = {4096, 4100, 4096 + 128, 4100 + 256};
    static const unsigned want[] = {4, 5, 4, 5};
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned l = 0; l < 32; l++)
            a.addr[l] = base[k] + 4 * l;
        wm_counts c;
        CHECK_EQ(wmi_cmemo_add(m, g, 7, &a, &c), WM_OK);
        CHECK_EQ(c.sectors, want[k]);
    }
    wm_site s;
    CHECK(wm_agg_site(g, 0, &s));
    CHECK_EQ(s.stats.requests, 4);
    CHECK_EQ(s.stats.sectors, 4 + 5 + 4 + 5);
    wmi_cmemo_free(m);
    wm_agg_free(g);
}

/* A random lane pattern of space sp and size sz (aligned). */
static void pattern(wm_access *a, wm_space sp, unsigned sz)
{
    memset(a, 0, sizeof *a);
    a->space = sp;
    a->size = sz;
    a->site = (uint32_t)(rnd() % 3);
    a->mask = rnd() % 4 ? 0xffffffffu : (uint32_t)rnd();
    unsigned kind = (unsigned)(rnd() % 3);
    uint64_t stride = sz * (1 + rnd() % 9);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t x = kind == 0   ? l * stride
                     : kind == 1 ? (rnd() % 64) * sz
                                 : (rnd() % 4096) * sz;
        a->addr[l] = x + (sp == WM_SPACE_SHARED ? 0 : 1u << 20);
    }
}

/* Patterns replayed at random translations, through the memo and not. */
static void random_translations(wm_space sp, unsigned sz)
{
    const wm_arch *arch = wm_arch_default();
    wm_agg *g1 = wm_agg_new(arch), *g2 = wm_agg_new(arch);
    wmi_cmemo *m = wmi_cmemo_new(6, arch->warp_size);
    CHECK(g1 && g2 && m);
    if (!g1 || !g2 || !m)
        return;
    wm_access pat[8];
    for (unsigned p = 0; p < 8; p++)
        pattern(&pat[p], sp, sz);
    for (unsigned n = 0; n < 4000; n++) {
        unsigned p = (unsigned)(rnd() % 8);
        wm_access a = pat[p];
        /* a multiple of 128 bytes, of the size, or of neither */
        uint64_t shift = (rnd() % 3 == 0 ? 128 : sz) * (rnd() % 64);
        for (unsigned l = 0; l < 32; l++)
            a.addr[l] += shift;
        wm_counts c1, c2;
        CHECK_EQ(wmi_cmemo_add(m, g1, p, &a, &c1), WM_OK);
        CHECK_EQ(wm_agg_add(g2, &a, &c2), WM_OK);
        same_counts(&c1, &c2);
    }
    CHECK_EQ(wm_agg_nsites(g1), wm_agg_nsites(g2));
    for (size_t i = 0; i < wm_agg_nsites(g1); i++) {
        wm_site s1, s2;
        CHECK(wm_agg_site(g1, i, &s1) && wm_agg_site(g2, i, &s2));
        CHECK(memcmp(&s1.stats, &s2.stats, sizeof s1.stats) == 0);
        CHECK(memcmp(&s1.per_request, &s2.per_request,
                     sizeof s1.per_request) == 0);
        CHECK((s1.worst == NULL) == (s2.worst == NULL));
        if (s1.worst && s2.worst)
            CHECK(memcmp(s1.worst, s2.worst, sizeof *s1.worst) == 0);
    }
    wmi_cmemo_free(m);
    wm_agg_free(g1);
    wm_agg_free(g2);
}

int main(void)
{
    translated_by_less_than_a_line();
    static const unsigned sizes[] = {4, 8, 16};
    for (unsigned i = 0; i < 3; i++) {
        random_translations(WM_SPACE_GLOBAL, sizes[i]);
        random_translations(WM_SPACE_SHARED, sizes[i]);
    }
    return check_done("test_count_memo");
}
