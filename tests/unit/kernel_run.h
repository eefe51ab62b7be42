/*
 * kernel_run.h -- run one example-kernel case (kernel_cases.h) through the
 * PTX interpreter: load its committed PTX, build the argument buffers with
 * kc_fill, launch, and hand back the aggregator and the buffers.  Shared by
 * the tests that need an interpreted example (test_kernels.c,
 * test_run_advise.c, test_run_twins.c).
 */
#ifndef WM_KERNEL_RUN_H
#define WM_KERNEL_RUN_H

#include "kernel_cases.h"
#include "warpmem.h"

#define KR_MAX_ARGS 16

typedef struct kr_run {
    wm_ptx_module *m;            /* the parsed PTX (kept for wm_ptx_where) */
    long kernel;                 /* kernel index in m */
    wm_agg *agg;                 /* the memory statistics */
    void *bufs[KR_MAX_ARGS];     /* argument buffers, NULL for scalars */
    wm_ptx_result res;
    wm_ptx_fault fault;
    wm_status st;                /* of loading or of wm_ptx_run */
} kr_run;

/*
 * Run case kc for profile arch ("sm_80", ...) with `threads` workers.
 * Returns 1 when the kernel ran (r->st == WM_OK), else 0 with a reason on
 * stderr; either way release r with kr_free.
 */
int kr_run_case(const kernel_case *kc, const char *arch, unsigned threads,
                kr_run *r);

/* kr_run_case with the interpreter's internal launch flags (WMI_RUN_*). */
int kr_run_case_flags(const kernel_case *kc, const char *arch,
                      unsigned threads, unsigned flags, kr_run *r);
/* kr_run_case_flags with the launch's checks (chk may be NULL). */
int kr_run_case_check(const kernel_case *kc, const char *arch,
                      unsigned threads, unsigned flags, wm_ptx_check *chk,
                      kr_run *r);
void kr_free(kr_run *r);

/* The case named name, or NULL. */
const kernel_case *kr_find(const char *name);

/* Read a file relative to the source tree; caller frees; NULL on error. */
char *kr_read_source(const char *rel, size_t *n);

#endif /* WM_KERNEL_RUN_H */
