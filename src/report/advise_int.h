/*
 * advise_int.h -- internal interface between the advisor's files:
 * advise_pattern.c (recognise lane-address structure), advise_fix.c
 * (transform addresses and ask the model), advise.c (diagnosis, severity,
 * ranking) and advise_print.c (text and JSON).
 */
#ifndef WM_ADVISE_INT_H
#define WM_ADVISE_INT_H

#include "wm_int.h"

/* The active lanes of an access in ascending lane order. */
typedef struct wmi_lanes {
    unsigned n;
    unsigned lane[WM_MAX_LANES];
    uint64_t addr[WM_MAX_LANES];
} wmi_lanes;

/* Collect the active lanes of a (mask limited to the warp size). */
void wmi_advise_lanes(const wm_arch *arch, const wm_access *a, wmi_lanes *l);

/*
 * The cost that decides whether a fix helps: sectors for global/local,
 * wavefronts for shared.
 */
uint64_t wmi_advise_cost(wm_space space, const wm_counts *c);

/*
 * 1 if `after` is strictly better than `before` (both covering the same
 * bytes): lower cost and no more requests, or (global, local) fewer
 * requests and no higher cost.  In shared memory the cost must drop.
 */
int wmi_advise_better(wm_space space, const wm_counts *before,
                      const wm_counts *after);

/*
 * Try every fix that fits pattern p of access a; append those the model
 * shows strictly better to adv->fixes, best first.  adv->counts must hold
 * a's counts.
 */
void wmi_advise_fixes(const wm_arch *arch, const wm_access *a,
                      const wm_pattern *p, wm_advice *adv);

/*
 * The what-if of a fix in words: "32 -> 1 wavefronts per request" or, for
 * vectorize, "4 -> 1 requests for the same 512 bytes (16 -> 16 sectors)".
 * arrow is "->" (text) or the HTML arrow.
 */
void wmi_advise_outcome(const wm_fix *f, const char *arrow, char *buf,
                        size_t cap);

/* Unit of the cost of a space: "sectors" or "wavefronts". */
const char *wmi_advise_unit(wm_space space);

/* Add counts b into a, field by field. */
void wmi_counts_add(wm_counts *a, const wm_counts *b);

/* snprintf that appends at *len within buf[cap] and never overflows. */
void wmi_appendf(char *buf, size_t cap, size_t *len, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif /* WM_ADVISE_INT_H */
