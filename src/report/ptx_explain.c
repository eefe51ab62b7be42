/*
 * ptx_explain.c -- the advisor applied to an interpreted kernel: advice
 * per source line (its sites merged per space and op, analysed on their
 * worst warp and sized against the kernel totals, as ncu sizes its
 * "excessive sectors" rule) and the text block printed under a flagged
 * line (the HTML report of a run is in ptx_report_html.c).  The advisor
 * itself lives in advise*.c.
 */
#include "ptx_report_int.h"

#include <stdio.h>
#include <stdlib.h>

size_t wmi_merge_sites(const wm_site *sites, size_t n, wm_space space,
                       wm_op op, wm_site *out)
{
    size_t members = 0;
    for (size_t i = 0; i < n; i++) {
        const wm_site *s = &sites[i];
        if (s->space != space || s->op != op)
            continue;
        if (members == 0) {
            *out = *s;
        } else {
            wmi_stats_add(&out->stats, &s->stats);
            if (s->worst && (!out->worst ||
                             s->per_request.max > out->per_request.max)) {
                out->worst = s->worst;
                out->per_request = s->per_request;
                out->size = s->size;
                out->site = s->site;
                out->label = s->label;
            }
        }
        members++;
    }
    return members;
}

size_t wmi_line_advise(const wm_arch *arch, const wm_site *sites, size_t n,
                       const wm_totals *t, wmi_line_advice *out, size_t cap)
{
    size_t k = 0;
    for (int sp = 0; sp < WM_NSPACES; sp++)
        for (int op = 0; op < WM_NOPS && k < cap; op++) {
            wmi_line_advice *la = &out[k];
            la->members =
                wmi_merge_sites(sites, n, (wm_space)sp, (wm_op)op, &la->merged);
            if (la->members == 0 || !la->merged.worst)
                continue;
            if (wm_advise_site(arch, &la->merged, t, &la->adv) == WM_OK)
                k++;
        }
    return k;
}
