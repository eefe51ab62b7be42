/*
 * wm_int.h -- internal master header of libwarpmem.  Every .c file of the
 * library includes it first.  Functions shared between library files are
 * named wmi_<module>_<verb>; nothing declared here is part of the API.
 */
#ifndef WM_INT_H
#define WM_INT_H

#include "warpmem.h"

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Defensive branches that tests prove unreachable (SQLite's idea). */
#define ALWAYS(x) (x)
#define NEVER(x) (x)

#define WM_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* A hot loop over computed values, left out of a fuzzing build's coverage
   (its comparison hooks cost the harness more than they give the
   mutator); nothing in other builds. */
#if defined(__clang__)
#define WM_NOCOV __attribute__((no_sanitize("coverage")))
#else
#define WM_NOCOV
#endif

/* Lane mask with the low n bits set (n <= 64). */
static inline uint64_t wmi_lanes_mask(unsigned n)
{
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

static inline unsigned wmi_popcount64(uint64_t x)
{
    return (unsigned)__builtin_popcountll(x);
}

static inline unsigned wmi_log2(uint64_t x)
{
    return x ? 63u - (unsigned)__builtin_clzll(x) : 0u;
}

/* Grow the array *p of elem-byte items to hold need of them: its capacity
   *cap doubles from `first` (or from itself) until it is enough.  0 on OOM
   (*p and *cap unchanged). */
static inline int wmi_grow(void **p, size_t *cap, size_t need, size_t elem,
                           size_t first)
{
    if (need <= *cap)
        return 1;
    size_t n = *cap ? *cap * 2 : first;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return 0;
    *p = q;
    *cap = n;
    return 1;
}

/* A block for a large copy (big_alloc.c): p, past 2 MiB on a huge-page
   boundary inside the allocation base. */
typedef struct wmi_big {
    void *base;
    unsigned char *p;
} wmi_big;

/* A block of bytes (1 on success, 0 on OOM, *b then empty). */
int wmi_big_alloc(wmi_big *b, size_t bytes);
void wmi_big_free(wmi_big *b);

/* ---- model (model.c, coalesce.c, banks.c) ------------------------------- */

/*
 * What one pass over the active lanes learned (access_check.h): the active lanes
 * form one run [lo, lo + n) of consecutive lanes, and if `affine` their
 * addresses step by the constant d (mod 2^64).
 */
typedef struct wmi_scan {
    unsigned lo, n;
    int run;    /* active lanes are consecutive */
    int affine; /* run && constant stride d */
    uint64_t d;
} wmi_scan;

/* wmi_access_check (access_check.h) validates size and alignment of the
 * active lanes of an access and fills a wmi_scan in the same pass. */

/* Global/local counting; a is valid and has at least one active lane. */
void wmi_coalesce_count(const wm_arch *arch, const wm_access *a,
                        const wmi_scan *sc, wm_counts *c);

/*
 * Distinct ids (address >> shift) of n lanes at monotone addresses first
 * <= ... <= last stepping by mag, each lane inside one id: none skipped
 * when mag is below the id's size, none repeated when it is not.
 */
static inline unsigned wmi_run_keys(uint64_t first, uint64_t last,
                                    uint64_t mag, unsigned n, unsigned shift)
{
    if (mag == 0)
        return 1;
    return mag >> shift ? n : (unsigned)((last >> shift) - (first >> shift)) + 1;
}

/*
 * wm_count in closed form (count_affine.c) for an access whose active
 * lanes (mask) are one run from lane lo = ctz(mask), lane l at a0 + (l -
 * lo) * d exactly (no wrap past 2^64).  Returns 1 with *out what wm_count
 * gives, 0 (and *out zeroed) when the form does not apply: not one run,
 * a lane misaligned, a size or space (local) the form does not cover,
 * or a shared stride above the bank unit that is no multiple of it.
 */
int wmi_count_affine(const wm_arch *arch, wm_space sp, wm_op op,
                     unsigned size, uint64_t mask, uint64_t a0, int64_t d,
                     wm_counts *out);

/* Distinct sectors and lines (c->sectors, c->tags) of n keys, 1 <= n <=
 * 256: key i is sector v[i] >> vs, its line that sector >> shift
 * (sectors.c). */
void wmi_sectors_count(const uint64_t *v, unsigned n, unsigned vs,
                       unsigned shift, wm_counts *c);

/* Shared counting; a is valid and has at least one active lane. */
void wmi_banks_count(const wm_arch *arch, const wm_access *a,
                     const wmi_scan *sc, wm_counts *c);

/* ---- aggregator (agg.c) -------------------------------------------------- */

/* d += s, field by field. */
void wmi_stats_add(wm_stats *d, const wm_stats *s);

/* s as one CSV field: in double quotes, a quote doubled (escape.c). */
void wmi_csv_string(FILE *f, const char *s);

/* Length of the well-formed UTF-8 sequence at s (1 for ASCII), or 0 when
 * s[0] starts none (escape.c; JSON and HTML write U+FFFD for it). */
size_t wmi_utf8_len(const unsigned char *s);

/* ---- reference model (reference.c): slow, obviously right ---------------- */

/* Same contract as wm_count, by brute force: used by tests and benches. */
wm_status wmi_reference_count(const wm_arch *arch, const wm_access *a,
                              wm_counts *out);

/* ---- aggregator (agg.c) ------------------------------------------------- */

/*
 * wm_agg_add for an access whose counts the caller already has: *c must be
 * what wm_count(wm_agg_arch(g), a, c) returns WM_OK with (the PTX
 * interpreter reuses the counts of a translated lane pattern).  hint (may
 * be NULL) caches the record's index between calls for one site: any
 * value is safe, a stale one only costs the lookup.  Returns WM_OK or
 * WM_ERR_NOMEM.
 */
wm_status wmi_agg_add_counted(wm_agg *g, const wm_access *a,
                              const wm_counts *c, uint32_t *hint);

/*
 * n more accesses of one site with counts c, where an access of that site
 * with the same counts was already added by wmi_agg_add_counted (so the
 * worst access stays): the PTX interpreter's batched memo hits.  The
 * aggregate is the one n calls of wmi_agg_add_counted would leave.  Only
 * for an aggregator without a tap (the tap sees each access), or whose
 * tap is handed each of them in closed form (wmi_agg_tap_repeat).
 * Returns WM_OK or WM_ERR_NOMEM.
 */
wm_status wmi_agg_add_repeats(wm_agg *g, uint32_t site, wm_space space,
                              wm_op op, uint32_t size, const wm_counts *c,
                              uint64_t n, uint32_t *hint);

/* Does the aggregator pass each access to a tap (wmi_agg_set_tap)? */
int wmi_agg_has_tap(const wm_agg *g);
/* Must it see each access of site (a tap, or the SASS plan counts the
   site at SASS level too: wm_agg_set_sass)?  Else repeats may batch. */
int wmi_agg_sees_site(const wm_agg *g, uint32_t site);

typedef struct wmi_cmemo wmi_cmemo;

/*
 * The SASS level as the aggregator is handed it (wm_agg_set_sass, in
 * sass_view.c, installs one with its plan): count is called with g and
 * each access before the access is added (a status other than WM_OK is
 * returned by the add); sees says whether count adds a site's accesses
 * anywhere (wmi_agg_sees_site).  A NULL level removes it.  The SASS
 * records it adds to are g's side aggregator (wmi_agg_sass_side: made on
 * first use, with a memo of counts; merged by wm_agg_merge, freed with
 * g).
 */
typedef struct wmi_agg_level {
    wm_status (*count)(const wm_sass_plan *p, wm_agg *g, const wm_access *a);
    int (*sees)(const wm_sass_plan *p, uint32_t site);
} wmi_agg_level;
void wmi_agg_set_level(wm_agg *g, const wm_sass_plan *p,
                       const wmi_agg_level *lv);
/* g's SASS records and their memo, made if need be; NULL when memory ran
   out. */
wm_agg *wmi_agg_sass_side(wm_agg *g, wmi_cmemo **memo);

/* SASS level (sass_map.c, sass_view.c): the plan of g (NULL: none); a
   view's PTX-level aggregator (NULL: g is not a view); instruction insn's
   map (NULL past the module); access a counted into g as map mp's SASS
   instruction sees it. */
const wm_sass_plan *wmi_agg_sass_plan(const wm_agg *g);
const wm_agg *wmi_agg_ptx_level(const wm_agg *g);
const wm_sass_map *wmi_sass_plan_at(const wm_sass_plan *p, uint32_t insn);
wm_status wmi_sass_count(wm_agg *sass, wmi_cmemo *memo, const wm_sass_map *mp,
                         const wm_access *a);
/* The SASS records of a planned aggregator (NULL: none counted) and the
   view's PTX copy, set by wm_agg_sass_view. */
const wm_agg *wmi_agg_sass_records(const wm_agg *g);
void wmi_agg_set_ptx_level(wm_agg *view, wm_agg *ptx, const wm_sass_plan *p);
const wm_sass_plan *wmi_agg_view_plan(const wm_agg *g);
/* The text report's level line: SASS (with the map's summary) or PTX
   (and why SASS counts may differ). */
void wmi_sass_note(FILE *f, const wm_agg *g);
/* In a SASS view g: site s's map, and the PTX-level stats of the PTX
   instructions it stands for (itself and those merged into it; *ninsns
   of them).  0 when g is not a view. */
int wmi_sass_site_forms(const wm_agg *g, const wm_site *s, wm_stats *ptx,
                        size_t *ninsns, wm_sass_map *mp);
/* Site i (key order) of src added to dst's record (as_site, its space
   and op): stats, histogram, worst access. */
wm_status wmi_agg_copy_site(wm_agg *dst, const wm_agg *src, size_t i,
                            uint32_t as_site);

/*
 * Counts of translated repeats (count_memo.c, beneath the aggregator):
 * wmi_cmemo_count is wm_count (same status, same counts in *out) that
 * reuses the counts of the pattern last seen under key (any value but
 * UINT64_MAX; its low bits pick one of the 2^nslots_log2 slots) when the
 * access is that pattern moved by a multiple of the line (global) or bank
 * unit (shared); *hint is the slot's record hint for wmi_agg_add_counted
 * (NULL when the memo does not apply).  nlanes is the arch's warp size.
 * wmi_cmemo_add is wm_agg_add through the memo (same record, same counts
 * in *out).
 */
typedef struct wmi_cmemo_ent wmi_cmemo_ent;
wmi_cmemo *wmi_cmemo_new(unsigned nslots_log2, unsigned nlanes);
void wmi_cmemo_free(wmi_cmemo *m);
wm_status wmi_cmemo_count(wmi_cmemo *m, const wm_arch *arch, uint64_t key,
                          const wm_access *a, wm_counts *out, uint32_t **hint);

static inline wm_status wmi_cmemo_add(wmi_cmemo *m, wm_agg *g, uint64_t key,
                                      const wm_access *a, wm_counts *out)
{
    uint32_t *hint;
    wm_status st = wmi_cmemo_count(m, wm_agg_arch(g), key, a, out, &hint);
    return st != WM_OK ? st : wmi_agg_add_counted(g, a, out, hint);
}

/*
 * A consumer of every access added to g (the hierarchy model's recorder):
 * called after the counts, for accesses with at least one active lane; a
 * status other than WM_OK is returned by the add.  NULL removes it.  Not
 * copied by wm_agg_merge.
 */
typedef wm_status (*wmi_agg_tap)(void *ud, const wm_access *a,
                                 const wm_counts *c);
void wmi_agg_set_tap(wm_agg *g, wmi_agg_tap tap, void *ud);

/*
 * A full warp's access in closed form: its 32 lanes at x0 + lane x d,
 * none wrapping, size bytes each (the wm_access it stands for has mask
 * 0xffffffff and those addresses).
 */
typedef struct wmi_affine_access {
    uint32_t site;
    wm_space space;
    wm_op op;
    unsigned size;
    uint64_t x0;
    int64_t d;
} wmi_affine_access;

/*
 * The tap's closed form (the hierarchy model's recorder makes the line
 * words of x from x0, d and size): called, with the tap's ud and the counts
 * the access was added with, for the repeats the PTX interpreter adds
 * through wmi_agg_add_repeats instead of wmi_agg_add_counted.  Set after
 * the tap (wmi_agg_set_tap); NULL removes it.
 */
typedef wm_status (*wmi_agg_tap_affine)(void *ud, const wmi_affine_access *x,
                                        const wm_counts *c);
void wmi_agg_set_tap_affine(wm_agg *g, wmi_agg_tap_affine aff);
/* Make a fresh aggregator g allocate the records and histograms of its
   first n sites in one piece when the first site comes (on the thread
   that adds it: the parallel runner's workers), so that adding the next
   ones allocates nothing.  Nothing for an aggregator that has sites;
   WM_OK (running out of memory then is the first site's). */
wm_status wmi_agg_reserve(wm_agg *g, size_t n);
/* May a repeat of site in closed form be added by wmi_agg_add_repeats and
   wmi_agg_tap_repeat (no SASS level counts the site, and a tap has its
   closed form)?  1 without a tap or level. */
int wmi_agg_affine_repeats(const wm_agg *g, uint32_t site);
/* Hand the repeat x, of counts c, to the tap's closed form (nothing
   without a tap, or when c has no request, as wmi_agg_add_counted).
   Returns the tap's status. */
wm_status wmi_agg_tap_repeat(wm_agg *g, const wmi_affine_access *x,
                             const wm_counts *c);

/*
 * The per-request histogram of site i (wm_agg_site order): WM_HIST_MAX + 1
 * bins of sectors (global/local) or wavefronts (shared) per request, the
 * last bin holding every larger value.  NULL if i is out of range or
 * memory ran out.  Borrowed until the next change to g.
 */
const uint32_t *wmi_agg_site_hist(const wm_agg *g, size_t i);

/* ---- name map (namemap.c) ------------------------------------------------ */

/* Names are borrowed: they must outlive the map.  put overwrites the
   value of a name already there (which cannot fail); get gives
   UINT32_MAX for a missing one. */
typedef struct wmi_name {
    const char *s;
    size_t n;
    uint32_t v;
} wmi_name;
typedef struct wmi_namemap {
    wmi_name *e;
    size_t cap, len; /* cap: 0 or a power of two */
} wmi_namemap;
int wmi_namemap_put(wmi_namemap *nm, const char *s, size_t n, uint32_t v);
uint32_t wmi_namemap_get(const wmi_namemap *nm, const char *s, size_t n);
void wmi_namemap_free(wmi_namemap *nm);

#endif /* WM_INT_H */
