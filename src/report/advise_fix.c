/*
 * advise_fix.c -- the advisor's fixes and their what-ifs.
 *
 * Each fix is a transformation of the lane addresses that a programmer
 * can make in source: give consecutive lanes consecutive elements (swap
 * the axis threadIdx.x walks), align the warp's run to a sector, pad the
 * rows of a shared array, XOR-swizzle its columns with the row, or move
 * the same bytes with 8/16-byte vectors.  Nothing here guesses a number:
 * the transformed access is counted by wm_count() and a fix is kept only
 * when wmi_advise_better() says the model shows it strictly better.
 */
#include "advise_int.h"

#include <stdarg.h>
#include <stdio.h>

uint64_t wmi_advise_cost(wm_space space, const wm_counts *c)
{
    return space == WM_SPACE_SHARED ? c->wavefronts : c->sectors;
}

int wmi_advise_better(wm_space space, const wm_counts *before,
                      const wm_counts *after)
{
    uint64_t cb = wmi_advise_cost(space, before);
    uint64_t ca = wmi_advise_cost(space, after);
    if (after->bytes != before->bytes)
        return 0; /* a fix must do the same work */
    if (space == WM_SPACE_SHARED) /* the shared pipe's cost is wavefronts: */
        return ca < cb && after->requests <= before->requests;
    /* fewer requests alone do not count there (16-byte vectors of a
       conflict-free 4-byte row: 4 -> 4 wavefronts); in global and local
       memory they are fewer L1TEX tag lookups, which a fix may save */
    return (ca < cb && after->requests <= before->requests) ||
           (ca <= cb && after->requests < before->requests);
}

void wmi_counts_add(wm_counts *a, const wm_counts *b)
{
    a->active += b->active;
    a->requests += b->requests;
    a->bytes += b->bytes;
    a->sectors += b->sectors;
    a->tags += b->tags;
    a->ideal_sectors += b->ideal_sectors;
    a->t_wavefronts += b->t_wavefronts;
    a->wavefronts += b->wavefronts;
    a->ideal_wavefronts += b->ideal_wavefronts;
    a->conflicts += b->conflicts;
    if (b->nway > a->nway)
        a->nway = b->nway;
}

void wmi_appendf(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    if (*len >= cap)
        return;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

/* A C type of s bytes for examples in the advice. */
static const char *ctype(unsigned s)
{
    switch (s) {
    case 1: return "char";
    case 2: return "half";
    case 4: return "float";
    case 8: return "double";
    case 16: return "float4";
    default: return "T";
    }
}

/* The work of one candidate: the transformed access and its text. */
typedef struct cand {
    wm_fix fix;
    double key; /* ranking: cost ratio, then request ratio */
} cand;

/*
 * Count the candidate's access; if the model shows it strictly better
 * than its `before`, keep it in c[*n].
 */
static void consider(const wm_arch *arch, cand *c, size_t *n, size_t cap,
                     const wm_fix *f)
{
    wm_counts after;
    if (*n >= cap || wm_count(arch, &f->access, &after) != WM_OK)
        return;
    if (!wmi_advise_better(f->access.space, &f->before, &after))
        return;
    c[*n].fix = *f;
    c[*n].fix.after = after;
    double cb = (double)wmi_advise_cost(f->access.space, &f->before);
    double ca = (double)wmi_advise_cost(f->access.space, &after);
    double rb = (double)f->before.requests, ra = (double)after.requests;
    c[*n].key = (cb > 0 ? ca / cb : 1.0) + 1e-3 * (rb > 0 ? ra / rb : 1.0);
    (*n)++;
}

/* Start a fix of the given kind from the original access. */
static void fix_init(wm_fix *f, wm_fix_kind kind, const wm_access *a,
                     const wm_counts *before)
{
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->copies = 1;
    f->before = *before;
    f->access = *a;
}

/* x = lo + r * pitch + c without wrapping; 0 on overflow. */
static int place(uint64_t lo, uint64_t r, uint64_t pitch, uint64_t c,
                 uint64_t *x)
{
    uint64_t t;
    return !__builtin_mul_overflow(r, pitch, &t) &&
           !__builtin_add_overflow(t, c, &t) &&
           !__builtin_add_overflow(t, lo, x);
}

/*
 * remap: the distinct addresses, in the order the lanes first use them,
 * become adjacent elements from the lowest address on.  Lanes that shared
 * an address still share it, so the warp touches as many distinct
 * elements as before, now along the contiguous axis.
 */
static int remap(const wmi_lanes *l, const wm_pattern *p, unsigned size,
                 wm_access *out)
{
    uint64_t seen[WM_MAX_LANES];
    unsigned nseen = 0;
    for (unsigned i = 0; i < l->n; i++) {
        unsigned k = 0;
        while (k < nseen && seen[k] != l->addr[i])
            k++;
        if (k == nseen)
            seen[nseen++] = l->addr[i];
        if (!place(p->lo, k, size, 0, &out->addr[l->lane[i]]))
            return 0;
    }
    return 1;
}

/* Row pitch of a strided or tiled pattern: the larger step. */
static uint64_t row_pitch(const wm_pattern *p)
{
    uint64_t s = (uint64_t)(p->stride < 0 ? -p->stride : p->stride);
    uint64_t j = (uint64_t)(p->jump < 0 ? -p->jump : p->jump);
    if (p->kind != WM_PAT_STRIDED && p->kind != WM_PAT_TILE)
        return 0;
    return s > j ? s : j;
}

/* pad: row r of pitch P moves by r * pad bytes. */
static int pad_rows(const wmi_lanes *l, const wm_pattern *p, uint64_t pitch,
                    uint64_t pad, wm_access *out)
{
    for (unsigned i = 0; i < l->n; i++) {
        uint64_t off = l->addr[i] - p->lo;
        if (!place(p->lo, off / pitch, pitch + pad, off % pitch,
                   &out->addr[l->lane[i]]))
            return 0;
    }
    return 1;
}

/*
 * swizzle: in row r, unit (u bytes) column c moves to c ^ ((r * g) mod L)
 * where L divides the units per row, so rows keep their bytes.
 */
static int swizzle_rows(const wmi_lanes *l, const wm_pattern *p,
                        uint64_t pitch, uint64_t u, uint64_t span,
                        uint64_t g, wm_access *out)
{
    for (unsigned i = 0; i < l->n; i++) {
        uint64_t off = l->addr[i] - p->lo;
        uint64_t r = off / pitch, c = off % pitch;
        uint64_t cu = (c / u) ^ ((r * g) & (span - 1));
        if (!place(p->lo, r, pitch, cu * u + c % u, &out->addr[l->lane[i]]))
            return 0;
    }
    return 1;
}

/* The shared-memory row fixes: the best pad and the best swizzle. */
static void row_fixes(const wm_arch *arch, const wm_access *a,
                      const wmi_lanes *l, const wm_pattern *p,
                      const wm_counts *before, cand *c, size_t *n,
                      size_t cap)
{
    uint64_t pitch = row_pitch(p);
    uint64_t u = a->size > arch->bank_bytes ? a->size : arch->bank_bytes;
    uint64_t row = (uint64_t)arch->banks * arch->bank_bytes;
    wm_fix best, f;
    uint64_t best_cost = UINT64_MAX;
    if (pitch < a->size)
        return;
    /* Padding by a whole bank row changes nothing, so stop below it. */
    for (uint64_t pad = u; pad < row; pad *= 2) {
        wm_counts t;
        fix_init(&f, WM_FIX_PAD, a, before);
        if (!pad_rows(l, p, pitch, pad, &f.access) ||
            wm_count(arch, &f.access, &t) != WM_OK)
            continue;
        if (t.wavefronts < best_cost) {
            best_cost = t.wavefronts;
            best = f;
            best.param = (unsigned)pad;
        }
    }
    if (best_cost != UINT64_MAX) {
        size_t len = 0;
        wmi_appendf(best.text, sizeof best.text, &len,
                    "pad each %llu-byte row by %u bytes",
                    (unsigned long long)pitch, best.param);
        if (pitch % a->size == 0 && best.param % a->size == 0)
            wmi_appendf(best.text, sizeof best.text, &len,
                        " (e.g. %s tile[..][%llu] instead of [..][%llu])",
                        ctype(a->size),
                        (unsigned long long)((pitch + best.param) / a->size),
                        (unsigned long long)(pitch / a->size));
        consider(arch, c, n, cap, &best);
    }

    /* Swizzle span L: a power of two dividing the units per row, at most
     * one bank row of units. */
    if (pitch % u != 0)
        return;
    uint64_t units = pitch / u, span = 1;
    while (span * 2 <= row / u && units % (span * 2) == 0)
        span *= 2;
    if (span < 2)
        return;
    best_cost = UINT64_MAX;
    for (uint64_t g = 1; g < span; g *= 2) {
        wm_counts t;
        fix_init(&f, WM_FIX_SWIZZLE, a, before);
        if (!swizzle_rows(l, p, pitch, u, span, g, &f.access) ||
            wm_count(arch, &f.access, &t) != WM_OK)
            continue;
        if (t.wavefronts < best_cost) {
            best_cost = t.wavefronts;
            best = f;
            best.param = (unsigned)g;
        }
    }
    if (best_cost != UINT64_MAX) {
        size_t len = 0;
        wmi_appendf(best.text, sizeof best.text, &len,
                    "XOR-swizzle the column with the row: in row r, ");
        if (u == a->size)
            wmi_appendf(best.text, sizeof best.text, &len, "element");
        else
            wmi_appendf(best.text, sizeof best.text, &len, "%llu-byte word",
                        (unsigned long long)u);
        if (best.param == 1)
            wmi_appendf(best.text, sizeof best.text, &len,
                        " c goes to column c ^ (r %% %llu)",
                        (unsigned long long)span);
        else
            wmi_appendf(best.text, sizeof best.text, &len,
                        " c goes to column c ^ ((%u * r) %% %llu)",
                        best.param, (unsigned long long)span);
        consider(arch, c, n, cap, &best);
    }
}

/* Text of the remap fix for pattern p. */
static void remap_text(const wm_arch *arch, const wm_access *a,
                       const wm_pattern *p, wm_fix *f)
{
    size_t len = 0;
    uint64_t s = (uint64_t)(p->stride < 0 ? -p->stride : p->stride);
    if (p->kind == WM_PAT_STRIDED && s < arch->sector_bytes &&
        a->space != WM_SPACE_SHARED)
        wmi_appendf(f->text, sizeof f->text, &len,
                    "store this field in its own array (structure of "
                    "arrays) so consecutive lanes read consecutive "
                    "elements");
    else if (p->kind == WM_PAT_STRIDED || p->kind == WM_PAT_TILE)
        wmi_appendf(f->text, sizeof f->text, &len,
                    "map threadIdx.x to the contiguous axis: consecutive "
                    "lanes take consecutive elements of a row (swap the "
                    "row and column indices%s)",
                    p->kind == WM_PAT_TILE ? ", or make the block 32 wide"
                                           : "");
    else
        wmi_appendf(f->text, sizeof f->text, &len,
                    "reorder the data (or sort the indices) so consecutive "
                    "lanes read consecutive elements");
}

/* Global memory: remap the lanes (strided, tiled, scattered), align a
   misaligned run to a sector. */
static void global_fixes(const wm_arch *arch, const wm_access *a,
                         const wmi_lanes *l, const wm_pattern *p,
                         const wm_counts *before, cand *c, size_t *n)
{
    wm_fix f;
    int rows = p->kind == WM_PAT_STRIDED || p->kind == WM_PAT_TILE;
    if (rows || p->kind == WM_PAT_SCATTERED) {
        fix_init(&f, WM_FIX_REMAP, a, before);
        remap_text(arch, a, p, &f);
        if (remap(l, p, a->size, &f.access))
            consider(arch, c, n, WM_ADVISE_MAX_FIXES, &f);
    }
    if (p->misalign && p->kind != WM_PAT_BROADCAST) {
        fix_init(&f, WM_FIX_ALIGN, a, before);
        f.param = arch->sector_bytes;
        for (unsigned i = 0; i < l->n; i++)
            f.access.addr[l->lane[i]] = l->addr[i] - p->misalign;
        snprintf(f.text, sizeof f.text,
                 "align the warp's first address to a %u-byte sector "
                 "boundary (it starts %u bytes past one)",
                 arch->sector_bytes, p->misalign);
        consider(arch, c, n, WM_ADVISE_MAX_FIXES, &f);
    }
}

/* Shared memory: pad or swizzle the rows, then remap the lanes when that
   does better than every layout fix. */
static void shared_fixes(const wm_arch *arch, const wm_access *a,
                         const wmi_lanes *l, const wm_pattern *p,
                         const wm_counts *before, cand *c, size_t *n)
{
    wm_fix f;
    int rows = p->kind == WM_PAT_STRIDED || p->kind == WM_PAT_TILE;
    size_t before_rows = *n;
    if (rows)
        row_fixes(arch, a, l, p, before, c, n, WM_ADVISE_MAX_FIXES);
    if (rows || p->kind == WM_PAT_SCATTERED) {
        /* Remapping is offered only when padding and swizzling
         * cannot do as well: in a transpose one side must read a
         * column, so the layout fixes come first. */
        uint64_t best = UINT64_MAX;
        for (size_t i = before_rows; i < *n; i++)
            if (c[i].fix.after.wavefronts < best)
                best = c[i].fix.after.wavefronts;
        fix_init(&f, WM_FIX_REMAP, a, before);
        remap_text(arch, a, p, &f);
        wm_counts t;
        if (remap(l, p, a->size, &f.access) &&
            wm_count(arch, &f.access, &t) == WM_OK && t.wavefronts < best)
            consider(arch, c, n, WM_ADVISE_MAX_FIXES, &f);
    }
}

/* Local memory interleaves threads, so lanes coalesce exactly
 * when they use the same local offset (docs/design/memory-model.md §1). */
static void local_fixes(const wm_arch *arch, const wm_access *a,
                        const wmi_lanes *l, const wm_pattern *p,
                        const wm_counts *before, cand *c, size_t *n)
{
    wm_fix f;
    if (p->distinct > 1) {
        fix_init(&f, WM_FIX_REMAP, a, before);
        for (unsigned i = 0; i < l->n; i++)
            f.access.addr[l->lane[i]] = p->lo;
        snprintf(f.text, sizeof f.text,
                 "index the per-thread array with a warp-uniform index "
                 "(or keep it in registers)");
        consider(arch, c, n, WM_ADVISE_MAX_FIXES, &f);
    }
}

/* Vectorise a contiguous ascending run of narrow accesses: V/size
 * executions of the original become one, moving the same bytes.  The
 * widest vector the model shows better is kept. */
static void vector_fixes(const wm_arch *arch, const wm_access *a,
                         const wmi_lanes *l, const wm_pattern *p,
                         const wm_counts *before, cand *c, size_t *n)
{
    wm_fix f;
    for (unsigned v = 16; v > a->size; v /= 2) {
        uint64_t run = (uint64_t)l->n * a->size, end;
        if (p->lo % v != 0 || !place(p->lo, l->n, v, 0, &end))
            continue;
        fix_init(&f, WM_FIX_VECTORIZE, a, before);
        f.param = v;
        f.copies = v / a->size;
        memset(&f.before, 0, sizeof f.before);
        int ok = 1;
        for (unsigned k = 0; k < f.copies && ok; k++) {
            wm_access shifted = *a;
            wm_counts t;
            for (unsigned i = 0; i < l->n; i++)
                shifted.addr[l->lane[i]] = l->addr[i] + k * run;
            ok = wm_count(arch, &shifted, &t) == WM_OK;
            wmi_counts_add(&f.before, &t);
        }
        f.access.size = v;
        for (unsigned i = 0; i < l->n; i++)
            f.access.addr[l->lane[i]] = p->lo + (uint64_t)i * v;
        snprintf(f.text, sizeof f.text,
                 "use %u-byte vectors (e.g. %s): each lane moves %u "
                 "elements, one instruction instead of %u",
                 v, v == 16 ? (a->size == 4 ? "float4" : "int4/uint4")
                            : (a->size == 4 ? "float2" : "int2/uint2"),
                 f.copies, f.copies);
        if (ok) {
            size_t had = *n;
            consider(arch, c, n, WM_ADVISE_MAX_FIXES, &f);
            if (*n > had)
                break;
        }
    }
}

/* The candidate fixes of each space, each counted with wm_count and kept
   or dropped the same way (consider), then ranked best first. */
void wmi_advise_fixes(const wm_arch *arch, const wm_access *a,
                      const wm_pattern *p, wm_advice *adv)
{
    cand c[WM_ADVISE_MAX_FIXES];
    size_t n = 0;
    wmi_lanes l;
    const wm_counts *before = &adv->counts;

    wmi_advise_lanes(arch, a, &l);
    adv->nfixes = 0;
    if (l.n == 0)
        return;

    switch (a->space) {
    case WM_SPACE_GLOBAL:
        global_fixes(arch, a, &l, p, before, c, &n);
        break;
    case WM_SPACE_SHARED:
        shared_fixes(arch, a, &l, p, before, c, &n);
        break;
    case WM_SPACE_LOCAL:
        local_fixes(arch, a, &l, p, before, c, &n);
        break;
    case WM_SPACE_TEXTURE: /* the layout is the texture's, not the code's */
    case WM_SPACE_SURFACE:
    case WM_NSPACES: return;
    }

    if (a->space != WM_SPACE_LOCAL && p->kind == WM_PAT_CONTIGUOUS &&
        p->stride == (int64_t)a->size && a->size < 16 &&
        l.lane[l.n - 1] - l.lane[0] + 1 == l.n)
        vector_fixes(arch, a, &l, p, before, c, &n);

    /* Best first (stable on the list order above). */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && c[j].key < c[j - 1].key; j--) {
            cand t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    for (size_t i = 0; i < n; i++)
        adv->fixes[i] = c[i].fix;
    adv->nfixes = n;
}
