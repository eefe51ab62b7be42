/*
 * fuzz_draw.c -- libFuzzer harness for the pictures of an access: bytes ->
 * up to four warp accesses (profile, space, operation, size, mask and
 * every lane's address from the input) -> the model's counts, the
 * terminal drawing (wm_draw_access) and the whole HTML report with its
 * lane -> sector maps and bank heatmaps (wm_html_report).  What `global`
 * and `shared --html` draw for any addresses a user types.
 */
#include "fuzz_reader.h"
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The profiles of different shapes: warp 32 and 64, 16 to 64 banks of 4
   or 8 bytes, sectors and lines of other sizes. */
static const char *const profiles[] = {
    "sm_80", "sm_90", "generic,warp=64,banks=32", "amd-wave64",
    "generic,banks=16", "generic,banks=64,bank_bytes=8",
    "generic,sector=64,line=256", "generic,warp=64,sector=16,line=64"};

/* One access from the input: a header of 3 bytes and 8-byte mask, then
   each lane's address as a base plus a 2-byte signed step times a scale
   (so strided, clustered and scattered patterns are all a few bytes). */
static void read_access(reader *r, unsigned warp, wm_access *a)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16, 4, 12, 3};
    static const wm_space spaces[] = {WM_SPACE_GLOBAL, WM_SPACE_LOCAL,
                                      WM_SPACE_SHARED, WM_SPACE_GLOBAL};
    static const wm_op ops[] = {WM_OP_LD, WM_OP_ST, WM_OP_ATOM, WM_OP_LDSM,
                                WM_OP_LDGSTS, WM_OP_LD, WM_OP_ST, WM_OP_LD};
    unsigned h = (unsigned)take(r, 2);
    memset(a, 0, sizeof *a);
    a->site = (unsigned)take(r, 1) % 5;
    a->space = spaces[h & 3];
    a->op = ops[(h >> 2) & 7];
    a->size = sizes[(h >> 5) & 7];
    a->mask = take(r, 8);
    if (!a->mask)
        a->mask = ~(uint64_t)0;
    uint64_t base = take(r, 4) << ((h >> 8) & 31);
    int64_t scale = (int64_t)1 << ((h >> 13) & 7);
    for (unsigned l = 0; l < warp; l++) {
        int16_t step = (int16_t)take(r, 2);
        a->addr[l] = base + (uint64_t)((int64_t)step * scale);
        if (a->space == WM_SPACE_SHARED)
            a->addr[l] %= 228u << 10; /* inside a CTA's shared memory */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    static char obuf[1 << 16];
    if (!devnull && (devnull = fopen("/dev/null", "w")) != NULL)
        setvbuf(devnull, obuf, _IOFBF, sizeof obuf); /* a page report in a
                                                        few writes */
    if (!devnull || size < 1)
        return 0;
    reader r = {data + 1, size - 1};
    wm_arch arch;
    if (wm_arch_parse(profiles[data[0] % 8], &arch, NULL, 0) != WM_OK)
        return 0;
    wm_agg *g = wm_agg_new(&arch);
    if (!g)
        return 0;
    unsigned n = 1 + (data[0] >> 3) % 4;
    for (unsigned i = 0; i < n && r.n; i++) {
        wm_access a;
        read_access(&r, arch.warp_size, &a);
        wm_counts c;
        if (wm_agg_add(g, &a, &c) != WM_OK)
            continue;
        if (i == 0)
            wm_draw_access(devnull, &arch, &a, data[0] & 128, 60 + size % 100);
    }
    wm_html_report(devnull, g, NULL);
    wm_agg_free(g);
    return 0;
}
