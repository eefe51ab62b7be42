/*
 * count_memo.c -- reuse the counts of a warp access whose lane pattern
 * repeats, translated, at another place.
 *
 * wm_count is a pure function of space, size, mask and addresses, and does
 * not change when every address moves by the same multiple of the line
 * (global, local: sectors and lines move whole) or of the bank unit
 * (shared: max(size, bank word); each bank's load is permuted, not
 * changed).  The PTX interpreter's per-instruction memo rests on the same
 * fact.  A table of such patterns, indexed by a caller's key (expr: the
 * access's position in its block's walk), turns the
 * counting of a grid whose blocks repeat one another into one comparison
 * of the relative addresses per access.  A key only chooses a slot: a hit
 * needs the pattern itself to match, so any key is correct.
 *
 * The memo counts and does not add: it sits beneath the aggregator, and
 * wmi_cmemo_add (wm_int.h) hands its counts and the slot's record hint to
 * wmi_agg_add_counted.
 */
#include "wm_int.h"

struct wmi_cmemo {
    unsigned nslots, nlanes;
    uint64_t *slot_key;  /* [nslots], 0 = empty */
    wmi_cmemo_ent *ents; /* [nslots] */
    int32_t *rel;        /* [nslots * nlanes]: addresses less the first's */
};

struct wmi_cmemo_ent {
    uint64_t mask, a0;
    unsigned size;
    wm_space space;
    uint32_t hint; /* the aggregator record, for wmi_agg_add_counted */
    unsigned misses, skips; /* a slot that keeps missing is tried rarely */
    wm_counts counts;
};

wmi_cmemo *wmi_cmemo_new(unsigned nslots_log2, unsigned nlanes)
{
    wmi_cmemo *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->nslots = 1u << nslots_log2;
    m->nlanes = nlanes;
    m->slot_key = calloc(m->nslots, sizeof *m->slot_key);
    m->ents = calloc(m->nslots, sizeof *m->ents);
    m->rel = calloc((size_t)m->nslots * nlanes, sizeof *m->rel);
    if (!m->slot_key || !m->ents || !m->rel) {
        wmi_cmemo_free(m);
        return NULL;
    }
    return m;
}

void wmi_cmemo_free(wmi_cmemo *m)
{
    if (!m)
        return;
    free(m->slot_key);
    free(m->ents);
    free(m->rel);
    free(m);
}

/* The translation quantum of a space and size; 0 when there is none. */
static uint64_t quantum(const wm_arch *arch, const wm_access *a)
{
    uint64_t per =
        a->space == WM_SPACE_SHARED
            ? (a->size > arch->bank_bytes ? a->size : arch->bank_bytes)
            : (arch->line_bytes > arch->sector_bytes ? arch->line_bytes
                                                     : arch->sector_bytes);
    return (per & (per - 1)) == 0 ? per : 0;
}

/* 1 if every lane of msk sits at a0 + rel[l]. */
static int same_pattern(const uint64_t *ad, uint64_t a0, uint64_t msk,
                        const int32_t *rel, unsigned nlanes)
{
    uint64_t diff = 0;
#define DIFF(l)                                                                \
    (((ad[l] - a0) ^ (uint64_t)(int64_t)rel[l]) & (0 - (msk >> (l)&1)))
    if (nlanes == 32 && msk == 0xffffffffu) /* full warp: vectorised */
        for (unsigned l = 0; l < 32; l++)
            diff |= (ad[l] - a0) ^ (uint64_t)(int64_t)rel[l];
    else
        for (unsigned l = 0; l < nlanes; l++)
            diff |= DIFF(l);
#undef DIFF
    return diff == 0;
}

wm_status wmi_cmemo_count(wmi_cmemo *m, const wm_arch *arch, uint64_t key,
                          const wm_access *a, wm_counts *out, uint32_t **hint)
{
    uint64_t per = quantum(arch, a), msk = a->mask;
    *hint = NULL;
    if (!msk || !per || arch->warp_size != m->nlanes)
        return wm_count(arch, a, out);
    unsigned s = (unsigned)key & (m->nslots - 1);
    key++; /* never 0, the empty slot's key */
    wmi_cmemo_ent *e = &m->ents[s];
    int32_t *rel = m->rel + (size_t)s * m->nlanes;
    uint64_t a0 = a->addr[__builtin_ctzll(msk)];
    *hint = &e->hint;
    if (e->misses >= 4 && (++e->skips & 63) != 0) {
        /* this position's pattern moves by less than the quantum from
           block to block: count it, try the memo again now and then */
        return wm_count(arch, a, out);
    }
    if (m->slot_key[s] == key && e->mask == msk && e->size == a->size &&
        e->space == a->space && ((a0 - e->a0) & (per - 1)) == 0) {
        if (same_pattern(a->addr, a0, msk, rel, m->nlanes)) {
            e->misses = 0;
            *out = e->counts;
            return WM_OK;
        }
    }
    wm_status st = wm_count(arch, a, out);
    if (st != WM_OK)
        return st;
    e->misses += e->misses < 255;
    /* keep the pattern when every offset fits 32 bits */
    uint64_t wide = 0;
    for (unsigned l = 0; l < m->nlanes; l++) {
        uint64_t d = (a->addr[l] - a0) & (0 - (msk >> l & 1));
        wide |= (d + 0x80000000ull) >> 32;
        rel[l] = (int32_t)(uint32_t)d;
    }
    if (!wide) {
        m->slot_key[s] = key;
        e->mask = msk;
        e->a0 = a0;
        e->size = a->size;
        e->space = a->space;
        e->counts = *out;
    } else {
        m->slot_key[s] = 0;
    }
    return WM_OK;
}
