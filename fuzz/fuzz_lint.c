/*
 * fuzz_lint.c -- libFuzzer harness for the analyses of a PTX kernel that
 * fuzz_ptx does not reach: PTX text -> wm_ptx_parse; when it parses, the
 * static lint of its first kernel (the block-shape table, or one block
 * chosen by the input's length) and its report in every format, then a
 * bounded run with the race, initialisation and schedule checks and the
 * L1/L2/DRAM model, and their reports (the launch of fuzz_launch.h).
 */
#include "fuzz_launch.h"
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static void lint(const wm_ptx_module *m, const wm_arch *arch, size_t size)
{
    wm_lint_opts lo;
    memset(&lo, 0, sizeof lo);
    if (size & 4) { /* one block, 2-D when the length says so */
        lo.block[0] = size & 8 ? 16 : 96;
        lo.block[1] = size & 8 ? 8 : 1;
        lo.block[2] = 1;
    }
    wm_lint *l = NULL;
    if (wm_lint_kernel(m, 0, arch, &lo, &l) != WM_OK)
        return;
    wm_lint_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.format = (wm_format)(size % 3);
    ro.explain = (size & 16) != 0;
    ro.width = 80;
    wm_lint_report(devnull, l, &ro, 1);
    wm_lint_free(l);
}

static void checked_run(const wm_ptx_module *m, const wm_arch *arch,
                        size_t size)
{
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_INIT | WM_CHECK_SCHEDULES;
    wm_ptx_arg args[16];
    wm_ptx_launch l;
    fuzz_launch(m, 3, args, &l);
    l.check = &chk;
    wm_cache_config cc;
    wm_cache *cache = NULL;
    if (wm_cache_config_init(&cc, wm_gpu_for_arch(arch), 64,
                             wm_ptx_kernel_smem(m, 0, 0)) == WM_OK) {
        cc.nsms = 2; /* waves of a few CTAs */
        cc.order = size & 32 ? WM_CACHE_ORDER_BARRIER : WM_CACHE_ORDER_INSN;
        cache = wm_cache_new(&cc);
    }
    l.cache = cache;
    wm_agg *agg = wm_agg_new(arch);
    wm_ptx_result res;
    wm_ptx_fault ft;
    if (agg && wm_ptx_run(m, 0, &l, agg, &res, &ft) == WM_OK) {
        wm_ptx_report_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.format = (wm_format)(size % 3);
        ro.width = 80;
        ro.res = &res;
        ro.check = &chk;
        ro.cache = cache;
        wm_ptx_report(devnull, m, agg, &ro);
        if (ro.format == WM_FMT_TEXT) {
            wm_ptx_check_print(devnull, m, &chk);
            if (cache)
                wm_cache_report(devnull, cache, agg, WM_FMT_TEXT);
        }
    }
    wm_ptx_check_clear(&chk);
    wm_agg_free(agg);
    wm_cache_free(cache);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (!devnull ||
        wm_ptx_parse((const char *)data, size, "fuzz.ptx", &m, &d) != WM_OK)
        return 0;
    wm_arch arch;
    if (wm_ptx_nkernels(m) > 0 && wm_ptx_kernel_nparams(m, 0) <= 16 &&
        wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK) {
        lint(m, &arch, size);
        checked_run(m, &arch, size);
    }
    wm_ptx_free(m);
    return 0;
}
