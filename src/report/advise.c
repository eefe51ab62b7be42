/*
 * advise.c -- the advisor's verdict: pattern, plain-words diagnosis,
 * severity and the ranked fixes (advise_fix.c) for one access or site.
 *
 * Severity follows ncu's "Uncoalesced Global Accesses" / "Uncoalesced
 * Shared Accesses" rules: the excessive sectors (wavefronts) of a site as
 * a share of the kernel's total in that space (docs/design/memory-model.md §1, §2).
 */
#include "advise_int.h"

#include <stdio.h>

static const char *const pattern_names[] = {
#define WM_X_NAME(code, name, text) name,
    WM_PATTERN_LIST(WM_X_NAME)
#undef WM_X_NAME
};

static const char *const fix_names[] = {
#define WM_X_NAME(code, name, text) name,
    WM_FIX_LIST(WM_X_NAME)
#undef WM_X_NAME
};

const char *wm_pattern_name(wm_pattern_kind k)
{
    return (unsigned)k < WM_NPATTERNS ? pattern_names[k] : "?";
}

const char *wm_fix_name(wm_fix_kind k)
{
    return (unsigned)k < WM_NFIXES ? fix_names[k] : "?";
}

const char *wm_severity_name(wm_severity s)
{
    switch (s) {
    case WM_SEV_NONE: return "none";
    case WM_SEV_LOW: return "low";
    case WM_SEV_MEDIUM: return "medium";
    case WM_SEV_HIGH: return "high";
    }
    return "?";
}

static unsigned long long ull(uint64_t x)
{
    return (unsigned long long)x;
}

static uint64_t uabs(int64_t x)
{
    return x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* " (n elements)" when the stride is a whole number of elements. */
static void elements(char *buf, size_t cap, size_t *len, uint64_t bytes,
                     unsigned size)
{
    if (size > 1 && bytes % size == 0)
        wmi_appendf(buf, cap, len, " (%llu elements)", ull(bytes / size));
}

/* "a" or "an" before a number written in digits ("an 8-way"). */
static const char *article(uint64_t n)
{
    while (n >= 1000)
        n /= 1000;
    return (n == 8 || n == 11 || n == 18 || (n >= 80 && n <= 89) ||
            (n >= 800 && n <= 899))
               ? "an"
               : "a";
}

/* The sentence on banks: how many the lanes use, how many queue.
 * said_banks: the stride sentence already said how few banks are used. */
static void bank_sentence(const wm_arch *arch, const wm_access *a,
                          const wm_counts *c, int said_banks, char *buf,
                          size_t cap, size_t *len)
{
    wmi_lanes l;
    unsigned used[WM_MAX_BANKS] = {0}, nbanks = 0;
    wmi_advise_lanes(arch, a, &l);
    for (unsigned i = 0; i < l.n; i++) {
        unsigned b = (unsigned)((l.addr[i] / arch->bank_bytes) % arch->banks);
        nbanks += !used[b];
        used[b] = 1;
    }
    if (c->wavefronts > c->ideal_wavefronts) {
        if (!said_banks && nbanks < arch->banks)
            wmi_appendf(buf, cap, len,
                        " The lanes start in only %u of the %u banks.",
                        nbanks, arch->banks);
        wmi_appendf(buf, cap, len,
                    " Up to %u different words queue on one bank (%s "
                    "%u-way conflict), so the access takes %u wavefronts "
                    "where %u would do.",
                    c->nway, article(c->nway), c->nway, c->wavefronts,
                    c->ideal_wavefronts);
    }
    else
        wmi_appendf(buf, cap, len,
                    " No bank serves more words than the minimum: %u "
                    "wavefront%s, the ideal.",
                    c->wavefronts, c->wavefronts == 1 ? "" : "s");
}

/* The sentence on sectors: how many, how well used. */
static void sector_sentence(const wm_arch *arch, const wm_counts *c,
                            char *buf, size_t cap, size_t *len)
{
    if (c->sectors > c->ideal_sectors) {
        double used = (double)c->bytes / (double)c->sectors;
        wmi_appendf(buf, cap, len,
                    " The warp touches %u sectors in %u lines where %u "
                    "would hold its %llu bytes; on average only %.1f of "
                    "every %u bytes moved are used.",
                    c->sectors, c->tags, c->ideal_sectors, ull(c->bytes),
                    used, arch->sector_bytes);
    } else {
        wmi_appendf(buf, cap, len,
                    " %u sector%s for %llu bytes: the minimum.", c->sectors,
                    c->sectors == 1 ? "" : "s", ull(c->bytes));
    }
}

/* The headline of an access: the cost against the ideal. */
static void headline(const wm_access *a, wm_advice *v)
{
    const wm_pattern *p = &v->pattern;
    const wm_counts *c = &v->counts;
    int shared = a->space == WM_SPACE_SHARED;
    char *h = v->headline;
    size_t hn = sizeof v->headline, hl = 0;

    if (p->kind == WM_PAT_NONE)
        wmi_appendf(h, hn, &hl, "no active lane: nothing to move");
    else if (shared && c->wavefronts > c->ideal_wavefronts)
        wmi_appendf(h, hn, &hl,
                    "%u-way bank conflict: %u wavefronts per request "
                    "(ideal %u)",
                    c->nway, c->wavefronts, c->ideal_wavefronts);
    else if (shared)
        wmi_appendf(h, hn, &hl,
                    "conflict-free: %u wavefront%s per request (ideal)",
                    c->wavefronts, c->wavefronts == 1 ? "" : "s");
    else if (c->sectors > c->ideal_sectors)
        wmi_appendf(h, hn, &hl,
                    "%s access: %u sectors per request (ideal %u)",
                    p->kind == WM_PAT_CONTIGUOUS && p->misalign
                        ? "misaligned"
                        : wm_pattern_name(p->kind),
                    c->sectors, c->ideal_sectors);
    else
        wmi_appendf(h, hn, &hl, "coalesced: %u sector%s per request (ideal)",
                    c->sectors, c->sectors == 1 ? "" : "s");
}

/* What strided lanes do, appended to the diagnosis at *dl.  Returns 1
   when it said how few banks the lanes can reach. */
static int describe_strided(const wm_arch *arch, const wm_access *a,
                            wm_advice *v, size_t *dl)
{
    const wm_pattern *p = &v->pattern;
    int shared = a->space == WM_SPACE_SHARED;
    char *d = v->diagnosis;
    size_t dn = sizeof v->diagnosis;
    uint64_t s = uabs(p->stride);

    wmi_appendf(d, dn, dl, "Consecutive lanes are %llu bytes", ull(s));
    elements(d, dn, dl, s, a->size);
    wmi_appendf(d, dn, dl, " apart%s.", p->stride < 0 ? " (descending)" : "");
    if (!shared && s >= arch->sector_bytes)
        wmi_appendf(d, dn, dl,
                    " Each lane lands in its own %u-byte sector, as when "
                    "a warp reads down a column of a row-major array.",
                    arch->sector_bytes);
    else if (!shared)
        wmi_appendf(d, dn, dl,
                    " The warp reads one %u-byte field out of every "
                    "%llu bytes, as in an array of structures.",
                    a->size, ull(s));
    if (shared && s % arch->bank_bytes == 0) {
        uint64_t w = s / arch->bank_bytes;
        uint64_t g = gcd(w, arch->banks);
        if (g > 1) {
            wmi_appendf(d, dn, dl,
                        " A stride of %llu bank words shares the factor "
                        "%llu with the %u banks, so the lanes can reach "
                        "only %llu of them%s.",
                        ull(w), ull(g), arch->banks,
                        ull(arch->banks / g),
                        (w & (w - 1)) == 0
                            ? " (a power-of-two stride, the classic "
                              "case: a column of a [32][32] tile)"
                            : "");
            return 1;
        }
    }
    return 0;
}

/* What the lanes do, case by case of the pattern, appended to the
   diagnosis at *dl; *said_banks as describe_strided's.  Returns 0 when
   that is the whole diagnosis (no lane, a broadcast). */
static int describe_lanes(const wm_arch *arch, const wm_access *a,
                          wm_advice *v, size_t *dl, int *said_banks)
{
    const wm_pattern *p = &v->pattern;
    const wm_counts *c = &v->counts;
    int shared = a->space == WM_SPACE_SHARED;
    char *d = v->diagnosis;
    size_t dn = sizeof v->diagnosis;
    uint64_t s = uabs(p->stride);

    switch (p->kind) {
    case WM_PAT_NONE:
        wmi_appendf(d, dn, dl, "The instruction ran with no active lane.");
        return 0;
    case WM_PAT_BROADCAST:
        wmi_appendf(d, dn, dl,
                    "All %u active lanes use the same address, so the "
                    "hardware serves them with one %s%s (a broadcast).",
                    p->active, shared ? "wavefront" : "sector",
                    shared && c->wavefronts > 1 ? " per phase of lanes"
                                                : "");
        return 0;
    case WM_PAT_CONTIGUOUS:
        wmi_appendf(d, dn, dl,
                    "Consecutive lanes access consecutive %u-byte elements%s.",
                    a->size, p->stride < 0 ? " (in descending order)" : "");
        if (!shared && p->misalign)
            wmi_appendf(d, dn, dl,
                        " The run starts %u bytes past a %u-byte sector "
                        "boundary, so it spills into one more sector.",
                        p->misalign, arch->sector_bytes);
        return 1;
    case WM_PAT_STRIDED:
        *said_banks = describe_strided(arch, a, v, dl);
        return 1;
    case WM_PAT_TILE:
        wmi_appendf(d, dn, dl,
                    "The warp covers %s %u x %u tile: groups of %u lanes "
                    "step %llu bytes",
                    article(p->group), p->group, (p->active + p->group - 1) / p->group,
                    p->group, ull(s));
        wmi_appendf(d, dn, dl,
                    " and each group starts %llu bytes after the previous "
                    "one%s.",
                    ull(uabs(p->jump)),
                    uabs(p->jump) > s ? " (a new row)" : "");
        return 1;
    case WM_PAT_SCATTERED:
        wmi_appendf(d, dn, dl,
                    "The lane addresses follow no common stride: %u lanes, "
                    "%u distinct addresses over %llu bytes.",
                    p->active, p->distinct, ull(p->span));
        return 1;
    case WM_NPATTERNS: return 0;
    }
    return 1;
}

/* The diagnosis and headline of an access: what the lanes do, then why it
   costs that much. */
static void diagnose(const wm_arch *arch, const wm_access *a, wm_advice *v)
{
    const wm_pattern *p = &v->pattern;
    const wm_counts *c = &v->counts;
    int shared = a->space == WM_SPACE_SHARED;
    char *d = v->diagnosis;
    size_t dn = sizeof v->diagnosis, dl = 0;
    int said_banks = 0;

    headline(a, v);
    if (!describe_lanes(arch, a, v, &dl, &said_banks))
        return;
    if (p->distinct < p->active && p->kind != WM_PAT_SCATTERED)
        wmi_appendf(d, dn, &dl,
                    " Only %u of the %u lanes use distinct addresses; "
                    "lanes sharing one are served together.",
                    p->distinct, p->active);
    if (shared)
        bank_sentence(arch, a, c, said_banks, d, dn, &dl);
    else
        sector_sentence(arch, c, d, dn, &dl);
    if (p->kind == WM_PAT_CONTIGUOUS && a->size < 16)
        wmi_appendf(d, dn, &dl,
                    " Each lane moves only %u byte%s; wider per-lane "
                    "accesses move the same bytes with fewer instructions%s",
                    a->size, a->size == 1 ? "" : "s",
                    shared && a->size >= arch->bank_bytes
                        ? " but as many wavefronts."
                        : ".");
}

static void set_share(wm_advice *v)
{
    v->share = v->total ? (double)v->excess / (double)v->total : 0.0;
    v->severity = v->excess == 0   ? WM_SEV_NONE
                  : v->share >= .5 ? WM_SEV_HIGH
                  : v->share >= .1 ? WM_SEV_MEDIUM
                                   : WM_SEV_LOW;
}

wm_status wm_advise(const wm_arch *arch, const wm_access *a, wm_advice *out)
{
    if (!arch || !a || !out)
        return WM_ERR_ARG;
    memset(out, 0, sizeof *out);
    wm_status st = wm_count(arch, a, &out->counts);
    if (st != WM_OK)
        return st;
    out->space = a->space;
    out->op = a->op;
    out->size = a->size;
    st = wm_pattern_find(arch, a, &out->pattern);
    if (st != WM_OK)
        return st;
    diagnose(arch, a, out);
    wmi_advise_fixes(arch, a, &out->pattern, out);
    uint64_t cost = wmi_advise_cost(a->space, &out->counts);
    uint64_t ideal = a->space == WM_SPACE_SHARED
                         ? out->counts.ideal_wavefronts
                         : out->counts.ideal_sectors;
    out->excess = cost > ideal ? cost - ideal : 0;
    out->total = cost;
    set_share(out);
    return WM_OK;
}

/* Excess of a site: excessive sectors or wavefronts over all executions. */
static uint64_t site_excess(const wm_site *s)
{
    return s->space == WM_SPACE_SHARED ? s->stats.conflicts
                                       : s->stats.excessive_sectors;
}

wm_status wm_advise_site(const wm_arch *arch, const wm_site *s,
                         const wm_totals *t, wm_advice *out)
{
    if (!s || !s->worst)
        return WM_ERR_ARG;
    wm_status st = wm_advise(arch, s->worst, out);
    if (st != WM_OK)
        return st;
    out->excess = site_excess(s);
    out->total = s->space == WM_SPACE_SHARED ? s->stats.wavefronts
                                             : s->stats.sectors;
    if (t) {
        out->total = 0;
        for (unsigned op = 0; op < WM_NOPS; op++)
            out->total += s->space == WM_SPACE_SHARED
                              ? t->s[s->space][op].wavefronts
                              : t->s[s->space][op].sectors;
    }
    set_share(out);
    return WM_OK;
}

/* Sort key of one site for wm_advise_rank. */
typedef struct rank_key {
    uint64_t excess;
    size_t index;
} rank_key;

static int cmp_rank(const void *x, const void *y)
{
    const rank_key *a = x, *b = y;
    if (a->excess != b->excess)
        return a->excess < b->excess ? 1 : -1;
    return (a->index > b->index) - (a->index < b->index);
}

size_t wm_advise_rank(const wm_agg *g, size_t *order)
{
    size_t n = wm_agg_nsites(g);
    rank_key *k = n ? malloc(n * sizeof *k) : NULL;
    for (size_t i = 0; i < n; i++) {
        wm_site s;
        order[i] = i;
        if (k) {
            k[i].index = i;
            k[i].excess = wm_agg_site(g, i, &s) ? site_excess(&s) : 0;
        }
    }
    if (!k)
        return n; /* empty, or out of memory: keep the site order */
    qsort(k, n, sizeof *k, cmp_rank);
    for (size_t i = 0; i < n; i++)
        order[i] = k[i].index;
    free(k);
    return n;
}
