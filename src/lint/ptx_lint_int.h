/*
 * ptx_lint_int.h -- internal layout of a wm_lint result, shared by the
 * analysis (ptx_lint.c) and its writers (ptx_lint_report.c).
 */
#ifndef WM_PTX_LINT_INT_H
#define WM_PTX_LINT_INT_H

#include "wm_int.h"

#include "ptx_int.h"

/* One verdict's figure under one block shape of the table. */
typedef struct wmi_lint_cell {
    uint8_t kind; /* wm_lint_kind */
    uint32_t min, max;
    double per_request;
} wmi_lint_cell;

struct wm_lint {
    const wm_ptx_module *m;
    size_t kernel;
    wm_arch arch;
    unsigned block[3];
    wm_lint_insn *v; /* verdicts in instruction order */
    size_t nv, capv;
    wm_agg *agg; /* every active warp's base access, per verdict */
    /* no block given: the verdicts for other block shapes, by[i * nshapes
       + s] for verdict i under shapes[s] */
    unsigned shapes[32][3];
    size_t nshapes;
    wmi_lint_cell *by;
};

/* Sectors (global/local) or wavefronts (shared) of counts c. */
static inline uint32_t wmi_lint_figure(wm_space sp, const wm_counts *c)
{
    return sp == WM_SPACE_SHARED ? c->wavefronts : c->sectors;
}

/* Ideal of the same. */
static inline uint32_t wmi_lint_ideal(wm_space sp, const wm_counts *c)
{
    return sp == WM_SPACE_SHARED ? c->ideal_wavefronts : c->ideal_sectors;
}

#endif /* WM_PTX_LINT_INT_H */
