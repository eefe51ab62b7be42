/*
 * fuzz_ptx.c -- libFuzzer harness: PTX text -> wm_ptx_parse, and when it
 * parses, a bounded run of its first kernel (grid 2, block 64, small step
 * budgets, one thread).  Buffers of 4 KiB stand for pointer parameters.
 * The parse error path also formats the diagnostic (wm_diag_print).
 */
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
    static uint8_t bufs[16][4096];
    wm_ptx_arg args[16];
    memset(args, 0, sizeof args);
    for (size_t i = 0; i < np; i++) {
        size_t ps = wm_ptx_param_size(m, 0, i);
        if (ps == 8 && (i & 1) == 0) {
            memset(bufs[i], 0, sizeof bufs[i]);
            args[i].buf = bufs[i];
            args[i].bytes = sizeof bufs[i];
        } else {
            args[i].size = ps == 1 || ps == 2 || ps == 4 || ps == 8
                               ? (unsigned)ps
                               : 4;
            args[i].scalar = 64;
        }
    }
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = 2;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = 64;
    l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = np;
    l.max_steps = 2000;
    l.max_total_steps = 8000;
    l.threads = 1;
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
