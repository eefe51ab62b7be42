/*
 * cache_ptx.c -- the PTX runner's side of the hierarchy model: one recorder
 * per chunk of CTAs tapped into the chunk's aggregator, the load policy of
 * each instruction read from its cache operators, and the in-order feed.
 */
#include "cache_int.h"
#include "ptx_int.h"

wmi_ctrace *wmi_cache_traces_new(const wm_ptx_module *m, wm_agg **aggs,
                                 uint32_t n)
{
    size_t ni = wm_ptx_ninsns(m);
    /* one block: the recorders, then the per-instruction policy table */
    wmi_ctrace *t = calloc(1, n * sizeof *t + ni + 1);
    if (!t)
        return NULL;
    uint8_t *kind = (uint8_t *)(t + n);
    for (size_t i = 0; i < ni; i++) {
        wm_ptx_where w;
        kind[i] = (uint8_t)(wm_ptx_where_insn(m, i, &w)
                                ? wmi_cache_ld_of_text(w.text)
                                : WM_CACHE_LD_CA);
    }
    for (uint32_t i = 0; i < n; i++) {
        t[i].ld_kind = kind;
        t[i].nld_kind = ni;
        wmi_agg_set_tap(aggs[i], wmi_ctrace_tap, &t[i]);
    }
    return t;
}

wm_status wmi_cache_traces_end(wm_cache *c, wmi_ctrace *t, uint32_t n,
                               int feed)
{
    wm_status st = WM_OK;
    for (uint32_t i = 0; i < n; i++) {
        if (feed && st == WM_OK)
            st = wmi_cache_feed(c, &t[i]);
        wmi_ctrace_free(&t[i]);
    }
    if (feed && st == WM_OK)
        st = wm_cache_finish(c);
    free(t);
    return st;
}

uint64_t wm_ptx_kernel_smem(const wm_ptx_module *m, size_t k,
                            uint64_t dyn_smem)
{
    for (size_t i = 0; m && i < m->nfuncs; i++) {
        const wmi_func *f = &m->funcs[i];
        if (!f->is_entry || k-- != 0)
            continue;
        uint64_t smem = f->smem_static;
        /* the same layout as the launch (ptx_run.c) */
        if (dyn_smem && f->dyn_align)
            smem = (smem + f->dyn_align - 1) / f->dyn_align * f->dyn_align +
                   dyn_smem;
        return smem;
    }
    return 0;
}
