/*
 * fuzz_twin.h -- the differential run of the unit tests for the harnesses
 * that run generated kernels: every launch runs with the interpreter's
 * fast paths off and then on (tests/unit/ptx_twin.h), on copies of the
 * buffers, and the two must agree on the status, the fault, the counts,
 * every site's statistics and every byte written; a difference is a
 * finding (abort, after ptx_twin.h's message saying what differs).  Under
 * every check (fuzz_twin_checked) the slow run compares the schedules'
 * outputs and the fast one may prove them equal (WM_CHECK_PROVE): a
 * proof the comparison contradicts is a finding too.
 * FUZZ_VERBOSE=1 in the environment prints each run's status and fault
 * (to see what the seeds reach).
 */
#ifndef WM_FUZZ_TWIN_H
#define WM_FUZZ_TWIN_H

#include "check.h"
#include "ptx_twin.h"

#include <stdlib.h>

static inline wm_status fuzz_twin_run(const wm_ptx_module *m,
                                      const wm_ptx_launch *l,
                                      wm_agg *agg, wm_ptx_fault *ft)
{
    wm_ptx_result res;
    check_count = 0; /* counts every check of the run: keep it bounded */
    wm_status st = twin_run(m, 0, l, agg, &res, ft);
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv("FUZZ_VERBOSE") != NULL;
    if (verbose)
        fprintf(stderr, "fuzz: %s%s%s\n", wm_status_str(st),
                st != WM_OK && ft ? ": " : "", st != WM_OK && ft ? ft->msg : "");
    if (check_failures) {
        fprintf(stderr, "fuzz: the slow and the fast interpreter differ "
                        "(status %s)\n",
                wm_status_str(st));
        abort();
    }
    return st;
}

/* The launch once more under every check (twin_checked): the slow run
   compares the two schedules' outputs, the fast one may prove them equal
   instead, and the two must agree; every buffer is put back. */
static inline void fuzz_twin_checked(const wm_ptx_module *m,
                                     const wm_ptx_launch *l)
{
    check_count = 0;
    twin_checked(m, 0, l);
    if (check_failures) {
        fprintf(stderr, "fuzz: the checked slow and fast runs differ\n");
        abort();
    }
}

#endif /* WM_FUZZ_TWIN_H */
