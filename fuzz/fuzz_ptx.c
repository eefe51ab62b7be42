/*
 * fuzz_ptx.c -- libFuzzer harness: PTX text -> wm_ptx_parse, and when it
 * parses, a bounded run of its first kernel (grid 2, block 64, small step
 * budgets, one thread; fuzz_launch.h).
 * The parse error path also formats the diagnostic (wm_diag_print).
 */
#include "fuzz_launch.h"
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    wm_ptx_module *m = NULL;
    wm_diag d;
    const char *src = (const char *)data;
    if (wm_ptx_parse(src, size, "fuzz.ptx", &m, &d) != WM_OK) {
        if (devnull)
            wm_diag_print(devnull, &d, "fuzz.ptx", src, size);
        return 0;
    }
    size_t np = wm_ptx_kernel_nparams(m, 0);
    if (wm_ptx_nkernels(m) == 0 || np > 16) {
        wm_ptx_free(m);
        return 0;
    }
    wm_ptx_arg args[16];
    wm_ptx_launch l;
    fuzz_launch(m, 2, args, &l);
    wm_arch arch;
    wm_agg *agg = NULL;
    if (wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK)
        agg = wm_agg_new(&arch);
    wm_ptx_result res;
    wm_ptx_fault ft;
    wm_ptx_run(m, 0, &l, agg, &res, &ft);
    if (agg && devnull) {
        wm_ptx_report_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.format = (wm_format)(size % 3);
        ro.draw_top = 1;
        ro.width = 80;
        ro.res = &res;
        wm_ptx_report(devnull, m, agg, &ro);
    }
    wm_agg_free(agg);
    wm_ptx_free(m);
    return 0;
}
