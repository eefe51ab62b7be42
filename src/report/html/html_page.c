/*
 * html_page.c -- the rows of the HTML report of an aggregator: its sites
 * grouped by source line (inlined code under the kernel line it was
 * inlined at, as Nsight Compute's source view shows it, with one helper
 * row per helper line), summed, advised per line (the line's sites of one
 * space and op merged, wmi_line_advise) and ranked worst first by
 * excessive share.  The writers (html_summary.c, html_source.c,
 * html_kernel.c) read this model and never walk the aggregator again.
 */
#include "html_int.h"
#include "ptx_report_int.h"

/* Sort key of one site: its row (afile:aline), then its helper line. */
typedef struct skey {
    const char *afile, *hfile;
    uint32_t aline, hline;
    int inl;      /* charged to a call site from another line */
    size_t aidx;  /* wm_agg_site index */
    wm_site s;
} skey;

static int cmp_key(const void *x, const void *y)
{
    const skey *a = x, *b = y;
    int c = strcmp(a->afile, b->afile);
    if (c)
        return c;
    if (a->aline != b->aline)
        return a->aline < b->aline ? -1 : 1;
    if (a->aline == 0 && a->s.site != b->s.site)
        return a->s.site < b->s.site ? -1 : 1;
    if (a->inl != b->inl)
        return a->inl - b->inl;
    if ((c = strcmp(a->hfile, b->hfile)))
        return c;
    if (a->hline != b->hline)
        return a->hline < b->hline ? -1 : 1;
    if (a->s.site != b->s.site)
        return a->s.site < b->s.site ? -1 : 1;
    return a->aidx < b->aidx ? -1 : a->aidx > b->aidx;
}

static int same_row(const skey *a, const skey *b)
{
    return strcmp(a->afile, b->afile) == 0 && a->aline == b->aline &&
           (a->aline != 0 || a->s.site == b->s.site);
}

/* The row of a site: its own line, or the call site of inlined code. */
static void attribute(const wm_html_opts *o, skey *k)
{
    k->afile = k->hfile = k->s.file ? k->s.file : "";
    k->aline = k->hline = k->s.line;
    k->inl = 0;
    wm_html_where w;
    memset(&w, 0, sizeof w);
    if (!o->where || !o->where(o->source_ctx, k->s.site, &w) ||
        !w.call_line || !w.call_file)
        return;
    if (strcmp(w.call_file, k->afile) == 0 && w.call_line == k->aline)
        return;
    k->afile = w.call_file;
    k->aline = w.call_line;
    k->inl = 1;
}

static int cmp_rank(const void *x, const void *y)
{
    const wmi_hline *a = *(const wmi_hline *const *)x;
    const wmi_hline *b = *(const wmi_hline *const *)y;
    if (a->share != b->share)
        return a->share > b->share ? -1 : 1;
    uint64_t wa = a->sec.excessive_sectors + a->shr.conflicts;
    uint64_t wb = b->sec.excessive_sectors + b->shr.conflicts;
    if (wa != wb)
        return wa > wb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Sums, advice and heat of line l. */
static void line_measure(wmi_hpage *p, wmi_hline *l, uint64_t tsec,
                         uint64_t twf)
{
    for (size_t i = l->first; i < l->first + l->count; i++) {
        const wm_site *s = &p->sites[i];
        wmi_stats_add(s->space == WM_SPACE_SHARED ? &l->shr : &l->sec,
                      &s->stats);
    }
    wmi_line_advice la[WM_NSPACES * WM_NOPS];
    size_t k = wmi_line_advise(p->arch, &p->sites[l->first], l->count, &p->t,
                               la, WM_NSPACES * WM_NOPS);
    for (size_t j = 0; j < k; j++) {
        if (la[j].adv.share > l->share)
            l->share = la[j].adv.share;
        if (la[j].adv.severity > l->sev)
            l->sev = la[j].adv.severity;
        l->nfixable += la[j].adv.nfixes > 0;
    }
    double hs = tsec ? (double)l->sec.excessive_sectors / (double)tsec : 0;
    double hw = twf ? (double)l->shr.conflicts / (double)twf : 0;
    l->heat = hs > hw ? hs : hw;
}

/* Group the sorted keys into rows and helper rows. */
static void group_rows(wmi_hpage *p, const skey *k)
{
    for (size_t i = 0; i < p->nsites; i++) {
        wmi_hline *l = p->nlines ? &p->lines[p->nlines - 1] : NULL;
        if (!l || !same_row(&k[l->first], &k[i])) {
            l = &p->lines[p->nlines++];
            memset(l, 0, sizeof *l);
            l->file = k[i].afile;
            l->line = k[i].aline;
            l->first = i;
            l->sub = p->nsubs;
            if (!p->nfiles || strcmp(p->files[p->nfiles - 1], l->file))
                p->files[p->nfiles++] = l->file;
            l->ifile = (unsigned)(p->nfiles - 1);
        }
        l->count++;
        if (!k[i].inl)
            continue;
        wmi_hsub *u = l->nsub ? &p->subs[p->nsubs - 1] : NULL;
        if (!u || strcmp(u->file, k[i].hfile) || u->line != k[i].hline) {
            u = &p->subs[p->nsubs++];
            u->file = k[i].hfile;
            u->line = k[i].hline;
            u->first = i;
            u->count = 0;
            l->nsub++;
        }
        u->count++;
    }
}

wm_status wmi_hpage_build(wmi_hpage *p, const wm_agg *g,
                          const wm_html_opts *o)
{
    memset(p, 0, sizeof *p);
    p->g = g;
    p->arch = wm_agg_arch(g);
    if (o)
        p->o = *o;
    wm_agg_totals(g, &p->t);
    size_t n = wm_agg_nsites(g), m = n ? n : 1;
    skey *k = calloc(m, sizeof *k);
    p->sites = calloc(m, sizeof *p->sites);
    p->aidx = calloc(m, sizeof *p->aidx);
    p->lines = calloc(m, sizeof *p->lines);
    p->subs = calloc(m, sizeof *p->subs);
    p->ranked = calloc(m, sizeof *p->ranked);
    p->files = calloc(m, sizeof *p->files);
    p->row = calloc(m, sizeof *p->row);
    if (!k || !p->sites || !p->aidx || !p->lines || !p->subs || !p->ranked ||
        !p->files || !p->row) {
        free(k);
        wmi_hpage_free(p);
        return WM_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (!wm_agg_site(g, i, &k[p->nsites].s))
            continue;
        k[p->nsites].aidx = i;
        attribute(&p->o, &k[p->nsites]);
        p->nsites++;
    }
    qsort(k, p->nsites, sizeof *k, cmp_key);
    for (size_t i = 0; i < p->nsites; i++) {
        p->sites[i] = k[i].s;
        p->aidx[i] = k[i].aidx;
    }
    group_rows(p, k);
    free(k);
    uint64_t tsec = 0, twf = 0;
    for (int op = 0; op < WM_NOPS; op++) {
        tsec += p->t.s[WM_SPACE_GLOBAL][op].excessive_sectors +
                p->t.s[WM_SPACE_LOCAL][op].excessive_sectors;
        twf += p->t.s[WM_SPACE_SHARED][op].conflicts;
    }
    for (size_t i = 0; i < p->nlines; i++) {
        wmi_hline *l = &p->lines[i];
        for (size_t j = l->first; j < l->first + l->count; j++)
            p->row[j] = i;
        line_measure(p, l, tsec, twf);
        if (l->sec.excessive_sectors + l->shr.conflicts)
            p->ranked[p->nranked++] = l;
    }
    qsort(p->ranked, p->nranked, sizeof *p->ranked, cmp_rank);
    size_t pos = 0;
    for (size_t i = 0; i < p->nranked; i++) {
        p->ranked[i]->rank = (int)i + 1;
        p->ranked[i]->dpos = pos++;
    }
    for (size_t i = 0; i < p->nlines; i++)
        if (!p->lines[i].rank)
            p->lines[i].dpos = pos++;
    return WM_OK;
}

void wmi_hpage_free(wmi_hpage *p)
{
    free(p->sites);
    free(p->aidx);
    free(p->lines);
    free(p->subs);
    free(p->ranked);
    free(p->files);
    free(p->row);
    memset(p, 0, sizeof *p);
}

const wmi_hline *wmi_hpage_find(const wmi_hpage *p, const char *file,
                                uint32_t line)
{
    /* rows are sorted by (file, line): binary search */
    size_t lo = 0, hi = p->nlines;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const wmi_hline *l = &p->lines[mid];
        int c = strcmp(l->file, file);
        if (c == 0)
            c = l->line < line ? -1 : l->line > line;
        if (c == 0)
            return l;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *wmi_hpage_text(const wmi_hpage *p, const char *file,
                           uint32_t line, const wm_site *fallback)
{
    const char *t = NULL;
    if (p->o.source && line)
        t = p->o.source(p->o.source_ctx, file, line);
    if (!t && fallback && fallback->label && *fallback->label)
        t = fallback->label;
    return t;
}

void wmi_hline_id(char *buf, size_t n, const wmi_hline *l, const wmi_hpage *p,
                  char kind)
{
    if (l->line)
        snprintf(buf, n, "%c%u-%u", kind, l->ifile, l->line);
    else
        snprintf(buf, n, "%cp%u", kind, p->sites[l->first].site);
}
