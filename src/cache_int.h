/*
 * cache_int.h -- internals of the hierarchy model shared by cache.c, the
 * PTX runner and the expression runner: the access trace of a run of CTAs.
 *
 * A trace is a word array.  Each warp access is two header words and one
 * word per distinct 128 B line:
 *   h0 = site | warp << 32 | nlines << 48 | kind << 56
 *   h1 = interval | requested bytes << 32
 *   line word = line index << 16 | mask of the line's sectors touched
 *   (the line index is kept modulo 2^48: addresses modulo 2^55, far above
 *   any the interpreter or the expression windows use)
 * cta[i] is the word offset where the i-th CTA's accesses begin.  A trace
 * belongs to one thread; the PTX runner keeps one per chunk of CTAs and
 * feeds them to the model in chunk order, so the model sees launch order
 * whatever the thread count.
 */
#ifndef WM_CACHE_INT_H
#define WM_CACHE_INT_H

#include "wm_int.h"

/* Kinds: the wm_cache_ld policies (0..4), then these. */
enum { WMI_CK_ST = 5, WMI_CK_ATOM = 6 };

typedef struct wmi_ctrace {
    uint64_t *w;
    size_t n, cap;
    size_t *cta;
    size_t ncta, capcta;
    const uint8_t *ld_kind; /* per site: wm_cache_ld of loads, may be NULL */
    size_t nld_kind;
    unsigned warp, interval; /* set by the runner before each warp runs */
    uint64_t shared_wavefronts;
} wmi_ctrace;

void wmi_ctrace_free(wmi_ctrace *t);
/* Start the next CTA (warp and interval reset to 0). */
wm_status wmi_ctrace_cta(wmi_ctrace *t);
/* Append access a (global loads/stores/atomics; shared ones only add their
 * wavefronts c->wavefronts; c may be NULL) for the current warp and
 * interval.  ld: the load policy.  WM_OK or WM_ERR_NOMEM. */
wm_status wmi_ctrace_add(wmi_ctrace *t, const wm_access *a,
                         const wm_counts *c, wm_cache_ld ld);
/* The aggregator tap (wmi_agg_tap) that records into a wmi_ctrace: the
 * load policy comes from t->ld_kind[a->site]. */
wm_status wmi_ctrace_tap(void *t, const wm_access *a, const wm_counts *c);

/* Append every CTA of t to the model, in order. */
wm_status wmi_cache_feed(wm_cache *c, const wmi_ctrace *t);

/* The load policy a PTX instruction's text asks for (".cg", ".cs",
 * "L1::no_allocate" ...). */
wm_cache_ld wmi_cache_ld_of_text(const char *text);

/*
 * The PTX runner's recorders: one trace per chunk aggregator aggs[i],
 * tapped into it, with the load policy of every instruction of m.  A
 * worker calls _chunk_done after chunk k; the chunks done so far in chunk
 * order are fed to c then, by one thread at a time, so recording memory
 * stays bounded and replay overlaps the run.  _end feeds the rest (when
 * feed is set), finishes c and frees the feeder; returns the first error.
 */
typedef struct wmi_cache_feeder wmi_cache_feeder;
wmi_cache_feeder *wmi_cache_feeder_new(wm_cache *c, const wm_ptx_module *m,
                                       wm_agg **aggs, uint32_t n);
wmi_ctrace *wmi_cache_trace(wmi_cache_feeder *f, uint32_t k);
void wmi_cache_chunk_done(wmi_cache_feeder *f, uint32_t k);
wm_status wmi_cache_feeder_end(wmi_cache_feeder *f, int feed);

#endif /* WM_CACHE_INT_H */
