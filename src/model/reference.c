/*
 * reference.c -- the memory model written the slow, obvious way: enumerate
 * every byte of every active lane, map it to its sector / line / bank word,
 * and count distinct values with linear search.  Tests compare wm_count
 * against it on random accesses; the fast code may share nothing with it
 * but the rules.
 */
#include "access_check.h"
#include "wm_int.h"

#define REF_MAX (WM_MAX_LANES * 16)

/* Add v to the list if absent; returns 1 if it was added. */
static int add_unique(uint64_t *list, unsigned *n, uint64_t v)
{
    for (unsigned i = 0; i < *n; i++)
        if (list[i] == v)
            return 0;
    list[(*n)++] = v;
    return 1;
}

/* Physical byte address of byte j of lane's access. */
static uint64_t phys_byte(const wm_arch *arch, const wm_access *a,
                          unsigned lane, unsigned j)
{
    uint64_t b = a->addr[lane] + j;
    if (a->space != WM_SPACE_LOCAL)
        return b;
    /* Thread-private 32-bit word w of lane i sits at word w*W + i. */
    return ((b >> 2) * arch->warp_size + lane) * 4 + (b & 3);
}

static void ref_global(const wm_arch *arch, const wm_access *a, wm_counts *c)
{
    uint64_t sectors[REF_MAX], lines[REF_MAX];
    unsigned ns = 0, nl = 0;
    for (unsigned lane = 0; lane < arch->warp_size; lane++) {
        if (!((a->mask >> lane) & 1u))
            continue;
        for (unsigned j = 0; j < a->size; j++) {
            uint64_t b = phys_byte(arch, a, lane, j);
            add_unique(sectors, &ns, b / arch->sector_bytes);
            add_unique(lines, &nl, b / arch->line_bytes);
        }
    }
    c->sectors = ns;
    c->tags = nl;
    c->ideal_sectors = (uint32_t)((c->bytes + arch->sector_bytes - 1) /
                                  arch->sector_bytes);
    c->t_wavefronts = (nl + 3) / 4;
}

static int pairs_equal(const wm_arch *arch, const wm_access *a, unsigned x)
{
    for (unsigned n = 0; n < arch->warp_size; n++) {
        unsigned p = n ^ x;
        if (((a->mask >> n) & 1u) && ((a->mask >> p) & 1u) &&
            a->addr[n] != a->addr[p])
            return 0;
    }
    return 1;
}

static void ref_shared(const wm_arch *arch, const wm_access *a, wm_counts *c)
{
    unsigned wide = a->size > arch->bank_bytes ? a->size : arch->bank_bytes;
    unsigned plane = arch->banks * arch->bank_bytes / wide;
    if (plane > arch->warp_size)
        plane = arch->warp_size;
    unsigned pack = 1; /* lanes per bank slot */
    if (arch->uniform_pair && a->size >= 8 &&
        (a->op == WM_OP_LD || a->op == WM_OP_LDSM) &&
        plane < arch->warp_size &&
        (pairs_equal(arch, a, 1) || pairs_equal(arch, a, 2)))
        pack = 2;
    plane *= pack;
    unsigned wf = 0, nway = 0;
    for (unsigned lo = 0; lo < arch->warp_size; lo += plane) {
        uint64_t words[REF_MAX];
        unsigned nw = 0;
        for (unsigned lane = lo; lane < lo + plane; lane++) {
            if (!((a->mask >> lane) & 1u))
                continue;
            for (unsigned j = 0; j < a->size; j++)
                add_unique(words, &nw,
                           (a->addr[lane] + j) / arch->bank_bytes);
        }
        if (nw == 0)
            continue;
        unsigned worst = 0;
        for (unsigned b = 0; b < arch->banks; b++) {
            unsigned k = 0;
            for (unsigned i = 0; i < nw; i++)
                k += (words[i] % arch->banks) == b;
            worst = k > worst ? k : worst;
        }
        wf += worst;
        nway = worst > nway ? worst : nway;
    }
    c->wavefronts = wf;
    c->nway = nway;
    uint64_t per = (uint64_t)arch->banks * arch->bank_bytes * pack;
    c->ideal_wavefronts = (uint32_t)((c->bytes + per - 1) / per);
    c->conflicts = wf > c->ideal_wavefronts ? wf - c->ideal_wavefronts : 0;
}

wm_status wmi_reference_count(const wm_arch *arch, const wm_access *a,
                              wm_counts *out)
{
    memset(out, 0, sizeof *out);
    wm_status st = wmi_access_check(arch, a, NULL);
    if (st != WM_OK || a->mask == 0)
        return st;
    out->active = wmi_popcount64(a->mask);
    out->requests = 1;
    out->bytes = (uint64_t)out->active * a->size;
    if (a->space == WM_SPACE_SHARED)
        ref_shared(arch, a, out);
    else
        ref_global(arch, a, out);
    return WM_OK;
}
