/*
 * sass_view.c -- counting at the SASS level.  An aggregator with a plan
 * (wm_agg_set_sass: the plan and this file's counting, handed to the
 * aggregator as its level, wmi_agg_set_level) counts each access of a
 * LEAD site once more as its
 * SASS instruction: the lead's lane addresses (less its shift), the SASS
 * width; of a SPLIT site as the accesses of the SASS width at addr + j w
 * for each part j it reads (all, or those of its slots)
 * (wmi_sass_count, into a side aggregator).  wm_agg_sass_view then makes
 * the SASS-level aggregator the reports read: SAME and UNMAPPED sites as
 * counted, LEAD and SPLIT sites from the side aggregator, MERGED sites
 * gone, labels saying what the SASS does.
 */
#include "wm_int.h"

#include <stdio.h>

wm_status wmi_sass_count(wm_agg *sass, wmi_cmemo *memo, const wm_sass_map *mp,
                         const wm_access *a)
{
    unsigned w = mp->width;
    uint64_t shift = mp->kind == WM_SASS_LEAD ? mp->shift : 0;
    unsigned nl = a->mask ? 64u - (unsigned)__builtin_clzll(a->mask) : 0;
    uint64_t bad = 0;
    for (unsigned l = 0; l < nl; l++)
        bad |= (a->mask >> l & 1) ? (a->addr[l] - shift) & (w - 1) : 0;
    if (!w || (w & (w - 1)) || bad)
        return wm_agg_add(sass, a, NULL); /* the PTX shape: not mappable */
    /* lanes past the last active one: zero, as emit() leaves them */
    wm_access b;
    memset(b.addr + nl, 0, (WM_MAX_LANES - nl) * sizeof b.addr[0]);
    b.site = a->site;
    b.space = a->space;
    b.op = a->op;
    b.size = w;
    b.mask = a->mask;
    unsigned parts = mp->kind != WM_SASS_SPLIT ? 1
                     : mp->slots               ? a->size / w
                                               : mp->parts;
    unsigned slots = mp->kind == WM_SASS_SPLIT && mp->slots ? mp->slots
                                                             : ~0u;
    for (unsigned j = 0; j < parts && j < 32; j++) {
        if (!(slots >> j & 1))
            continue; /* a part ptxas does not read */
        for (unsigned l = 0; l < nl; l++)
            b.addr[l] = (a->mask >> l & 1)
                            ? a->addr[l] - shift + (uint64_t)j * w : 0;
        wm_counts c; /* the key: site and part */
        wm_status st = wmi_cmemo_add(memo, sass, (uint64_t)j << 32 | a->site,
                                     &b, &c);
        if (st != WM_OK)
            return st;
    }
    return WM_OK;
}

/* Does the plan count site's accesses at SASS level (a LEAD or SPLIT)? */
static const wm_sass_map *counted_map(const wm_sass_plan *p, uint32_t site)
{
    const wm_sass_map *mp = wmi_sass_plan_at(p, site);
    return mp && (mp->kind == WM_SASS_LEAD || mp->kind == WM_SASS_SPLIT) ? mp
                                                                       : NULL;
}

/* The access as the SASS instruction of a LEAD or SPLIT site sees it:
   counted into g's SASS records. */
static wm_status add_sass(const wm_sass_plan *p, wm_agg *g,
                          const wm_access *a)
{
    const wm_sass_map *mp = counted_map(p, a->site);
    if (!mp)
        return WM_OK;
    wmi_cmemo *memo;
    wm_agg *sass = wmi_agg_sass_side(g, &memo);
    if (!sass)
        return WM_ERR_NOMEM;
    return wmi_sass_count(sass, memo, mp, a);
}

static int sees_site(const wm_sass_plan *p, uint32_t site)
{
    return counted_map(p, site) != NULL;
}

static const wmi_agg_level sass_level = {add_sass, sees_site};

void wm_agg_set_sass(wm_agg *g, const wm_sass_plan *p)
{
    wmi_agg_set_level(g, p, &sass_level);
}

/* The index of (site, space, op) in g, or SIZE_MAX. */
static size_t find_site(const wm_agg *g, const wm_site *s)
{
    wm_site t;
    for (size_t i = 0; g && wm_agg_site(g, i, &t); i++)
        if (t.site == s->site && t.space == s->space && t.op == s->op)
            return i;
    return SIZE_MAX;
}

/* The label of a site at SASS level: the PTX text and what the SASS does. */
static wm_status relabel(wm_agg *out, const wm_site *s, const wm_sass_map *mp)
{
    char buf[768];
    switch (mp->kind) {
    case WM_SASS_LEAD:
        snprintf(buf, sizeof buf, "%s  [SASS %s: %u PTX accesses merged, "
                                  "%u B per lane]",
                 s->label, *mp->opcode ? mp->opcode : "?", mp->merged,
                 mp->width);
        break;
    case WM_SASS_SPLIT: {
        char at[160] = "";
        for (unsigned j = 0, k = 0; mp->slots && j < 32 && k < 140; j++)
            if (mp->slots >> j & 1)
                k += (unsigned)snprintf(at + k, sizeof at - k, "%s+%u",
                                        k ? ", " : " at ", j * mp->width);
        snprintf(buf, sizeof buf, "%s  [SASS %u x %s, %u B each%s]",
                 s->label, mp->parts, *mp->opcode ? mp->opcode : "?",
                 mp->width, at);
        break;
    }
    case WM_SASS_UNMAPPED: /* the opcode, where the plan names one */
        snprintf(buf, sizeof buf, "%s  [SASS not mapped: %s%s%s; PTX numbers]",
                 s->label, mp->why, *mp->opcode ? "; SASS " : "",
                 mp->opcode);
        break;
    case WM_SASS_SAME:
    case WM_SASS_MERGED:
        return WM_OK;
    }
    return wm_agg_label(out, s->site, buf, s->file, s->line);
}

static wm_status view_sites(const wm_agg *g, const wm_sass_plan *p,
                            wm_agg *out)
{
    const wm_agg *side = wmi_agg_sass_records(g);
    wm_site s;
    for (size_t i = 0; wm_agg_site(g, i, &s); i++) {
        const wm_sass_map *mp = wmi_sass_plan_at(p, s.site);
        wm_sass_kind k = mp ? mp->kind : WM_SASS_SAME;
        if (k == WM_SASS_MERGED)
            continue;
        size_t j = k == WM_SASS_LEAD || k == WM_SASS_SPLIT
                       ? find_site(side, &s) : SIZE_MAX;
        wm_status st = j != SIZE_MAX ? wmi_agg_copy_site(out, side, j, s.site)
                                     : wmi_agg_copy_site(out, g, i, s.site);
        if (st == WM_OK)
            st = wm_agg_label(out, s.site, s.label, s.file, s.line);
        if (st == WM_OK && mp)
            st = relabel(out, &s, mp);
        if (st != WM_OK)
            return st;
    }
    return WM_OK;
}

wm_status wm_agg_sass_view(const wm_agg *g, wm_agg **out)
{
    *out = NULL;
    const wm_sass_plan *p = g ? wmi_agg_sass_plan(g) : NULL;
    if (!p)
        return WM_ERR_ARG;
    wm_agg *v = wm_agg_new(wm_agg_arch(g)), *ptx = wm_agg_new(wm_agg_arch(g));
    wm_status st = v && ptx ? WM_OK : WM_ERR_NOMEM;
    if (st == WM_OK)
        st = view_sites(g, p, v);
    wm_site s;
    for (size_t i = 0; st == WM_OK && wm_agg_site(g, i, &s); i++) {
        st = wmi_agg_copy_site(ptx, g, i, s.site);
        if (st == WM_OK)
            st = wm_agg_label(ptx, s.site, s.label, s.file, s.line);
    }
    if (st != WM_OK) {
        wm_agg_free(v);
        wm_agg_free(ptx);
        return st;
    }
    wmi_agg_set_ptx_level(v, ptx, p);
    *out = v;
    return WM_OK;
}

void wmi_sass_note(FILE *f, const wm_agg *g)
{
    const wm_sass_plan *p = wmi_agg_view_plan(g);
    if (!p) {
        fputs("\nPTX-level numbers: ptxas may merge, split or predicate "
              "memory instructions,\nso requests can differ from Nsight "
              "Compute's SASS-level counts.\n\n",
              f);
        return;
    }
    wm_sass_summary s;
    wm_sass_plan_summary(p, &s);
    fprintf(f, "\nSASS-level numbers (ptxas, nvdisasm): of %zu source lines "
               "with memory accesses, %zu merge PTX accesses into wider SASS "
               "ones (%zu PTX accesses merged away), %zu split them, %zu are "
               "not mapped with certainty (PTX numbers, marked 'SASS not "
               "mapped').\n\n",
            s.lines, s.merged, s.insns_merged, s.split, s.unmapped);
}

int wmi_sass_site_forms(const wm_agg *g, const wm_site *s, wm_stats *ptx,
                        size_t *ninsns, wm_sass_map *mp)
{
    const wm_sass_plan *p = wmi_agg_view_plan(g);
    const wm_agg *pl = wmi_agg_ptx_level(g);
    if (!p || !pl)
        return 0;
    *mp = wm_sass_plan_insn(p, s->site);
    memset(ptx, 0, sizeof *ptx);
    *ninsns = 0;
    wm_site t;
    for (size_t i = 0; wm_agg_site(pl, i, &t); i++) {
        if (t.space != s->space || t.op != s->op)
            continue;
        const wm_sass_map *tm = wmi_sass_plan_at(p, t.site);
        if (t.site == s->site ||
            (tm && tm->kind == WM_SASS_MERGED && tm->lead == s->site)) {
            wmi_stats_add(ptx, &t.stats);
            ++*ninsns;
        }
    }
    return 1;
}
