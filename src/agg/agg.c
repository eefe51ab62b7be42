/*
 * agg.c -- the aggregator: per-site sums of wm_counts, the distribution of
 * sectors (or wavefronts) per request, the worst warp of each site, labels,
 * merging of per-thread aggregators and kernel totals by category.
 *
 * Sites are keyed by (site id, space, op): a generic load that resolves to
 * global in one warp and shared in another becomes two records.  Records
 * live in a growing array indexed by an open-addressing hash table; labels
 * are keyed by site id alone.
 *
 * Two consumers of the accesses are handed to it, and it calls neither by
 * name: a tap (wmi_agg_set_tap, the hierarchy model's recorder), and the
 * SASS level (wmi_agg_set_level: sass_view.c's counting, with its plan),
 * which adds to a side aggregator kept here with a memo of counts.
 */
#include "wm_int.h"

typedef struct site_rec {
    uint32_t site;
    wm_space space;
    wm_op op;
    unsigned size;
    wm_stats stats;
    uint32_t *hist;  /* WM_HIST_MAX + 1 bins of per-request values */
    uint32_t worst_value;
    int has_worst;
    wm_access worst;
} site_rec;

typedef struct label_rec {
    uint32_t site;
    char *label;
    char *file;
    uint32_t line;
} label_rec;

struct wm_agg {
    wm_arch arch;
    site_rec *sites;
    size_t nsites, capsites;
    uint32_t *order; /* order[i]: the site i-th in key order (capsites) */
    uint32_t *index; /* hash slot -> site index + 1 (0 = empty) */
    size_t nindex;   /* power of two */
    label_rec *labels;
    size_t nlabels, caplabels;
    size_t last; /* cache: index of the last site hit */
    wmi_agg_tap tap;
    wmi_agg_tap_affine tap_affine; /* the tap's closed form, or NULL */
    void *tap_ud;
    const wm_sass_plan *plan; /* wm_agg_set_sass: also count at SASS level */
    const wmi_agg_level *level; /* ... through these (NULL: none) */
    wm_agg *sass;             /* ... the LEAD and SPLIT sites there */
    wmi_cmemo *sass_memo;     /* ... their counts reused when translated */
    wm_agg *ptx;              /* a SASS view: the PTX-level sites */
    const wm_sass_plan *view_plan; /* ... and the plan it follows */
    uint32_t *hists; /* the histograms of the first nres sites */
    size_t nres;
    size_t nwant;    /* wmi_agg_reserve: sites to make room for at the
                        first */
};

enum { HIST_BINS = WM_HIST_MAX + 1 };

void wmi_agg_set_tap(wm_agg *g, wmi_agg_tap tap, void *ud)
{
    g->tap = tap;
    g->tap_affine = NULL; /* a closed form belongs to its tap */
    g->tap_ud = ud;
}

void wmi_agg_set_tap_affine(wm_agg *g, wmi_agg_tap_affine aff)
{
    g->tap_affine = aff;
}

int wmi_agg_affine_repeats(const wm_agg *g, uint32_t site)
{
    if (g->tap && !g->tap_affine)
        return 0;
    return !(g->level && g->level->sees(g->plan, site));
}

wm_status wmi_agg_tap_repeat(wm_agg *g, const wmi_affine_access *x,
                             const wm_counts *c)
{
    assert(!g->tap || g->tap_affine);
    if (!g->tap || !c->requests)
        return WM_OK;
    return g->tap_affine(g->tap_ud, x, c);
}

int wmi_agg_has_tap(const wm_agg *g)
{
    return g->tap != NULL;
}

int wmi_agg_sees_site(const wm_agg *g, uint32_t site)
{
    if (g->tap)
        return 1;
    return g->level && g->level->sees(g->plan, site);
}

void wmi_agg_set_level(wm_agg *g, const wm_sass_plan *p,
                       const wmi_agg_level *lv)
{
    g->plan = lv ? p : NULL;
    g->level = p ? lv : NULL;
}

wm_agg *wmi_agg_sass_side(wm_agg *g, wmi_cmemo **memo)
{
    if (!g->sass && !(g->sass = wm_agg_new(&g->arch)))
        return NULL;
    if (!g->sass_memo &&
        !(g->sass_memo = wmi_cmemo_new(8, g->arch.warp_size)))
        return NULL;
    *memo = g->sass_memo;
    return g->sass;
}

const wm_sass_plan *wmi_agg_sass_plan(const wm_agg *g)
{
    return g->plan;
}

const wm_agg *wmi_agg_ptx_level(const wm_agg *g)
{
    return g->ptx;
}

static uint64_t key_of(uint32_t site, wm_space sp, wm_op op)
{
    return ((uint64_t)site << 8) | ((uint64_t)sp << 4) | (uint64_t)op;
}

static size_t key_hash(uint64_t k, size_t n)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 17) & (n - 1);
}

wm_agg *wm_agg_new(const wm_arch *arch)
{
    if (wm_arch_check(arch) != WM_OK)
        return NULL;
    wm_agg *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->arch = *arch;
    g->nindex = 64;
    g->index = calloc(g->nindex, sizeof *g->index);
    if (!g->index) {
        free(g);
        return NULL;
    }
    return g;
}

/* Room for cap sites' records and key order; 0 on OOM. */
static int grow_sites(wm_agg *g, size_t cap)
{
    site_rec *s = realloc(g->sites, cap * sizeof *s);
    if (!s)
        return 0;
    g->sites = s;
    uint32_t *o = realloc(g->order, cap * sizeof *o);
    if (!o)
        return 0;
    g->order = o;
    g->capsites = cap;
    return 1;
}

/* The parallel runner makes one aggregator per chunk of CTAs on the
 * caller's thread, and its workers add the sites.  Allocated one by one,
 * each site's histogram (2 KiB) grew the worker's malloc arena a page or
 * two at a time, an mprotect(2) each, which costs TLB shootdowns on every
 * CPU the process runs on (a 2048^2 tiled transpose with 16 sites at -j 2:
 * about 600 calls and 20 ms of system time, where the kernel itself runs
 * for 20 ms).  So the records and histograms of the sites the caller
 * expects are allocated in one piece when the first site comes, on the
 * worker's thread (allocated by the caller's thread, 2.6 MB for the 64
 * chunks of that transpose, zeroed before the run, made every launch of
 * a long-lived process 15-25 % slower). */
wm_status wmi_agg_reserve(wm_agg *g, size_t n)
{
    if (!g->nsites && !g->hists && n > g->capsites)
        g->nwant = n; /* only a fresh aggregator: the hists stay put */
    return WM_OK;
}

/* The reserve of wmi_agg_reserve, at the first site; 0 when out of
   memory. */
static int reserve_now(wm_agg *g)
{
    size_t n = g->nwant;
    g->nwant = 0;
    if (!grow_sites(g, n) ||
        !(g->hists = calloc(n * HIST_BINS, sizeof *g->hists)))
        return 0;
    g->nres = n;
    return 1;
}

void wm_agg_free(wm_agg *g)
{
    if (!g)
        return;
    for (size_t i = g->nres; i < g->nsites; i++)
        free(g->sites[i].hist);
    for (size_t i = 0; i < g->nlabels; i++) {
        free(g->labels[i].label);
        free(g->labels[i].file);
    }
    wm_agg_free(g->sass);
    wmi_cmemo_free(g->sass_memo);
    wm_agg_free(g->ptx);
    free(g->sites);
    free(g->order);
    free(g->labels);
    free(g->index);
    free(g->hists);
    free(g);
}

const wm_arch *wm_agg_arch(const wm_agg *g)
{
    return &g->arch;
}

static wm_status rehash(wm_agg *g)
{
    size_t n = g->nindex * 2;
    uint32_t *idx = calloc(n, sizeof *idx);
    if (!idx)
        return WM_ERR_NOMEM;
    for (size_t i = 0; i < g->nsites; i++) {
        const site_rec *r = &g->sites[i];
        size_t h = key_hash(key_of(r->site, r->space, r->op), n);
        while (idx[h])
            h = (h + 1) & (n - 1);
        idx[h] = (uint32_t)(i + 1);
    }
    free(g->index);
    g->index = idx;
    g->nindex = n;
    return WM_OK;
}

/* Site nsites (being created) with key k joins the key order: sites
   usually come in key order (instructions, statements), so this is
   mostly an append. */
static void order_insert(wm_agg *g, uint64_t k)
{
    size_t lo = 0, hi = g->nsites;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const site_rec *r = &g->sites[g->order[mid]];
        if (key_of(r->site, r->space, r->op) < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(g->order + lo + 1, g->order + lo, (g->nsites - lo) * sizeof *g->order);
    g->order[lo] = (uint32_t)g->nsites;
}

/* Find or create the record for (site, space, op); NULL on OOM. */
static site_rec *site_get(wm_agg *g, uint32_t site, wm_space sp, wm_op op)
{
    if (g->last < g->nsites) {
        site_rec *r = &g->sites[g->last];
        if (r->site == site && r->space == sp && r->op == op)
            return r;
    }
    uint64_t k = key_of(site, sp, op);
    size_t h = key_hash(k, g->nindex);
    while (g->index[h]) {
        site_rec *r = &g->sites[g->index[h] - 1];
        if (r->site == site && r->space == sp && r->op == op) {
            g->last = g->index[h] - 1;
            return r;
        }
        h = (h + 1) & (g->nindex - 1);
    }
    if (g->nwant && !reserve_now(g))
        return NULL;
    if (g->nsites == g->capsites &&
        !grow_sites(g, g->capsites ? g->capsites * 2 : 16))
        return NULL;
    site_rec *r = &g->sites[g->nsites];
    memset(r, 0, sizeof *r);
    r->hist = g->nsites < g->nres ? g->hists + g->nsites * HIST_BINS
                                  : calloc(HIST_BINS, sizeof *r->hist);
    if (!r->hist)
        return NULL;
    r->site = site;
    r->space = sp;
    r->op = op;
    order_insert(g, k);
    g->index[h] = (uint32_t)(++g->nsites);
    g->last = g->nsites - 1;
    if (g->nsites * 2 > g->nindex && rehash(g) != WM_OK) {
        /* The record exists and is indexed (an empty site), but the index
           could not grow: report it, or a full index would never end the
           probe loop above. */
        return NULL;
    }
    return &g->sites[g->last];
}

/* n instructions with counts c each */
static void stats_add_counts(wm_stats *s, const wm_counts *c, uint64_t n)
{
    s->inst_all += n;
    if (!c->requests)
        return;
    s->inst += n;
    s->active_lanes += n * c->active;
    s->requests += n * c->requests;
    s->bytes += n * c->bytes;
    s->sectors += n * c->sectors;
    s->tags += n * c->tags;
    s->ideal_sectors += n * c->ideal_sectors;
    s->excessive_sectors +=
        n * (c->sectors > c->ideal_sectors ? c->sectors - c->ideal_sectors
                                           : 0);
    s->t_wavefronts += n * c->t_wavefronts;
    s->wavefronts += n * c->wavefronts;
    s->ideal_wavefronts += n * c->ideal_wavefronts;
    s->conflicts += n * c->conflicts;
}

void wmi_stats_add(wm_stats *d, const wm_stats *s)
{
    d->inst += s->inst;
    d->inst_all += s->inst_all;
    d->active_lanes += s->active_lanes;
    d->requests += s->requests;
    d->bytes += s->bytes;
    d->sectors += s->sectors;
    d->tags += s->tags;
    d->ideal_sectors += s->ideal_sectors;
    d->excessive_sectors += s->excessive_sectors;
    d->t_wavefronts += s->t_wavefronts;
    d->wavefronts += s->wavefronts;
    d->ideal_wavefronts += s->ideal_wavefronts;
    d->conflicts += s->conflicts;
}

/* The per-request value a site's distribution and worst warp follow. */
static uint32_t per_request_value(wm_space sp, const wm_counts *c)
{
    uint32_t v = sp == WM_SPACE_SHARED ? c->wavefronts : c->sectors;
    /* an instruction of several requests (wgmma's operand reads) */
    return c->requests > 1 ? (v + c->requests - 1) / c->requests : v;
}

wm_status wm_agg_add(wm_agg *g, const wm_access *a, wm_counts *out)
{
    wm_counts c;
    wm_status st = wm_count(&g->arch, a, &c);
    if (out)
        *out = c;
    if (st != WM_OK)
        return st;
    return wmi_agg_add_counted(g, a, &c, NULL);
}

/* The record of (site, space, op), through the hint when it is right. */
static site_rec *site_hinted(wm_agg *g, uint32_t site, wm_space space,
                             wm_op op, uint32_t *hint)
{
    if (hint && *hint < g->nsites) {
        site_rec *r = &g->sites[*hint];
        if (r->site == site && r->space == space && r->op == op)
            return r;
    }
    site_rec *r = site_get(g, site, space, op);
    if (r && hint)
        *hint = (uint32_t)(r - g->sites);
    return r;
}

/* Adds n accesses of counts c to record r (the worst access aside). */
static uint32_t record_counts(site_rec *r, wm_space space, uint32_t size,
                              const wm_counts *c, uint64_t n)
{
    r->size = size;
    stats_add_counts(&r->stats, c, n);
    uint32_t v = per_request_value(space, c);
    if (c->requests) /* mod 2^32, as n increments would be */
        r->hist[v < WM_HIST_MAX ? v : WM_HIST_MAX] += (uint32_t)n;
    return v;
}

wm_status wmi_agg_add_repeats(wm_agg *g, uint32_t site, wm_space space,
                              wm_op op, uint32_t size, const wm_counts *c,
                              uint64_t n, uint32_t *hint)
{
    site_rec *r = site_hinted(g, site, space, op, hint);
    if (!r)
        return WM_ERR_NOMEM;
    uint32_t v = record_counts(r, space, size, c, n);
    /* the first of them was added with its access: none is worse */
    assert(!c->requests || (r->has_worst && v <= r->worst_value));
    (void)v;
    return WM_OK;
}

wm_status wmi_agg_add_counted(wm_agg *g, const wm_access *a,
                              const wm_counts *c, uint32_t *hint)
{
    if (g->level) { /* the SASS level: its records are g->sass */
        wm_status st = g->level->count(g->plan, g, a);
        if (st != WM_OK)
            return st;
    }
    site_rec *r = site_hinted(g, a->site, a->space, a->op, hint);
    if (!r)
        return WM_ERR_NOMEM;
    uint32_t v = record_counts(r, a->space, a->size, c, 1);
    if (!c->requests)
        return WM_OK;
    if (!r->has_worst || v > r->worst_value) {
        r->has_worst = 1;
        r->worst_value = v;
        r->worst = *a;
    }
    return g->tap ? g->tap(g->tap_ud, a, c) : WM_OK;
}

static label_rec *label_find(const wm_agg *g, uint32_t site)
{
    /* Labels are few (one per instruction or statement): keep them sorted
     * and binary-search. */
    size_t lo = 0, hi = g->nlabels;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->labels[mid].site < site)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->nlabels && g->labels[lo].site == site ? &g->labels[lo]
                                                         : NULL;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s ? s : "", n);
    return d;
}

wm_status wm_agg_label(wm_agg *g, uint32_t site, const char *label,
                       const char *file, uint32_t line)
{
    char *l = dup_str(label), *f = dup_str(file);
    if (!l || !f) {
        free(l);
        free(f);
        return WM_ERR_NOMEM;
    }
    label_rec *r = label_find(g, site);
    if (r) {
        free(r->label);
        free(r->file);
    } else {
        if (g->nlabels == g->caplabels) {
            size_t cap = g->caplabels ? g->caplabels * 2 : 16;
            label_rec *n = realloc(g->labels, cap * sizeof *n);
            if (!n) {
                free(l);
                free(f);
                return WM_ERR_NOMEM;
            }
            g->labels = n;
            g->caplabels = cap;
        }
        size_t pos = g->nlabels;
        while (pos > 0 && g->labels[pos - 1].site > site)
            pos--;
        memmove(&g->labels[pos + 1], &g->labels[pos],
                (g->nlabels - pos) * sizeof *g->labels);
        g->nlabels++;
        r = &g->labels[pos];
        r->site = site;
    }
    r->label = l;
    r->file = f;
    r->line = line;
    return WM_OK;
}

wm_status wm_agg_merge(wm_agg *dst, const wm_agg *src)
{
    if (memcmp(&dst->arch, &src->arch, sizeof dst->arch) != 0)
        return WM_ERR_ARG;
    if (src->sass) {
        if (!dst->sass && !(dst->sass = wm_agg_new(&dst->arch)))
            return WM_ERR_NOMEM;
        wm_status st = wm_agg_merge(dst->sass, src->sass);
        if (st != WM_OK)
            return st;
    }
    for (size_t i = 0; i < src->nsites; i++) {
        const site_rec *s = &src->sites[i];
        site_rec *d = site_get(dst, s->site, s->space, s->op);
        if (!d)
            return WM_ERR_NOMEM;
        if (s->size)
            d->size = s->size;
        wmi_stats_add(&d->stats, &s->stats);
        for (unsigned b = 0; b <= WM_HIST_MAX; b++)
            d->hist[b] += s->hist[b];
        if (s->has_worst && (!d->has_worst || s->worst_value > d->worst_value)) {
            d->has_worst = 1;
            d->worst_value = s->worst_value;
            d->worst = s->worst;
        }
    }
    for (size_t i = 0; i < src->nlabels; i++) {
        const label_rec *l = &src->labels[i];
        if (!label_find(dst, l->site)) {
            wm_status st = wm_agg_label(dst, l->site, l->label, l->file,
                                        l->line);
            if (st != WM_OK)
                return st;
        }
    }
    return WM_OK;
}

size_t wm_agg_nsites(const wm_agg *g)
{
    return g->nsites;
}

/* i-th site in key order. */
static const site_rec *nth_site(const wm_agg *g, size_t i)
{
    return &g->sites[g->order[i]];
}

static wm_dist dist_of(const site_rec *r)
{
    wm_dist d = {0, 0, 0, 0.0};
    uint64_t n = 0, sum = 0;
    for (unsigned b = 0; b <= WM_HIST_MAX; b++) {
        n += r->hist[b];
        sum += (uint64_t)r->hist[b] * b;
    }
    if (!n)
        return d;
    uint64_t seen = 0, mid = (n - 1) / 2;
    int have_min = 0, have_med = 0;
    for (unsigned b = 0; b <= WM_HIST_MAX; b++) {
        if (!r->hist[b])
            continue;
        if (!have_min) {
            d.min = b;
            have_min = 1;
        }
        seen += r->hist[b];
        if (!have_med && seen > mid) {
            d.median = b;
            have_med = 1;
        }
        d.max = b;
    }
    d.mean = (double)sum / (double)n;
    return d;
}

int wm_agg_site(const wm_agg *g, size_t i, wm_site *out)
{
    if (i >= g->nsites)
        return 0;
    const site_rec *r = nth_site(g, i);
    if (!r)
        return 0;
    const label_rec *l = label_find(g, r->site);
    out->site = r->site;
    out->space = r->space;
    out->op = r->op;
    out->size = r->size;
    out->label = l ? l->label : "";
    out->file = l ? l->file : "";
    out->line = l ? l->line : 0;
    out->stats = r->stats;
    out->per_request = dist_of(r);
    out->worst = r->has_worst ? &r->worst : NULL;
    return 1;
}

const uint32_t *wmi_agg_site_hist(const wm_agg *g, size_t i)
{
    const site_rec *r = i < g->nsites ? nth_site(g, i) : NULL;
    return r ? r->hist : NULL;
}

void wm_agg_totals(const wm_agg *g, wm_totals *out)
{
    memset(out, 0, sizeof *out);
    out->sector_bytes = g->arch.sector_bytes;
    out->wavefront_bytes = g->arch.banks * g->arch.bank_bytes;
    for (size_t i = 0; i < g->nsites; i++) {
        const site_rec *r = &g->sites[i];
        wmi_stats_add(&out->s[r->space][r->op], &r->stats);
    }
}

void wm_totals_add_site(wm_totals *t, const wm_site *s)
{
    wmi_stats_add(&t->s[s->space][s->op], &s->stats);
}

const wm_agg *wmi_agg_sass_records(const wm_agg *g)
{
    return g->sass;
}

void wmi_agg_set_ptx_level(wm_agg *view, wm_agg *ptx, const wm_sass_plan *p)
{
    wm_agg_free(view->ptx);
    view->ptx = ptx;
    view->plan = NULL; /* a view counts nothing more */
    view->level = NULL;
    view->view_plan = p;
}

const wm_sass_plan *wmi_agg_view_plan(const wm_agg *g)
{
    return g->view_plan;
}

wm_status wmi_agg_copy_site(wm_agg *dst, const wm_agg *src, size_t i,
                            uint32_t as_site)
{
    if (i >= src->nsites)
        return WM_ERR_ARG;
    const site_rec *s = nth_site(src, i);
    site_rec *d = site_get(dst, as_site, s->space, s->op);
    if (!d)
        return WM_ERR_NOMEM;
    d->size = s->size;
    wmi_stats_add(&d->stats, &s->stats);
    for (unsigned b = 0; b <= WM_HIST_MAX; b++)
        d->hist[b] += s->hist[b];
    if (s->has_worst && (!d->has_worst || s->worst_value > d->worst_value)) {
        d->has_worst = 1;
        d->worst_value = s->worst_value;
        d->worst = s->worst;
        d->worst.site = as_site;
    }
    return WM_OK;
}
