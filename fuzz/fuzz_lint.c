/*
 * fuzz_lint.c -- libFuzzer harness for the analyses of a PTX kernel that
 * fuzz_ptx does not reach: PTX text -> wm_ptx_parse; when it parses, the
 * static lint of its first kernel (the block-shape table, or one block
 * chosen by the input's length), its report in every format and as SARIF
 * and JUnit, then a bounded run with the race, initialisation and schedule
 * checks and the L1/L2/TLB/DRAM model of a small GPU, its report (after a
 * fault too, as `run` writes it) and its SARIF log (the launch of
 * fuzz_launch.h).  Every JSON and SARIF document must be valid JSON
 * (fuzz_json.h).  Before that run the same launch runs checked through
 * the unit tests' twin (fuzz_twin.h): the slow interpreter always
 * compares the two schedules' outputs, the fast one may prove them equal
 * (WM_CHECK_PROVE), and they must agree.
 */
#include "fuzz_json.h"
#include "fuzz_launch.h"
#include "fuzz_twin.h"
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

/* The CI options of both SARIF logs; the .file names resolve against
   the working directory. */
static const wm_ci_opts ci_opts = {.command = "warpmem lint fuzz.ptx",
                                   .arch = "sm_80",
                                   .ptx_path = "fuzz.ptx",
                                   .fail_on = WM_SEV_NONE};

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
    json_doc d;
    FILE *f = ro.format == WM_FMT_JSON ? json_open(&d) : devnull;
    if (f) {
        wm_lint_report(f, l, &ro, 1);
        if (f != devnull)
            json_close(&d, "wm_lint_report");
    }
    const wm_lint *one[1] = {l};
    if (json_open(&d)) {
        wm_lint_sarif(d.f, m, one, 1, &ci_opts);
        json_close(&d, "wm_lint_sarif");
    }
    wm_lint_junit(devnull, m, one, 1, &ci_opts);
    wm_lint_free(l);
}

/*
 * The hierarchy model's GPU: the A100's figures (the sm_80 profile's GPU)
 * with a few KiB of L1 and L2 and TLB pages of 512 B and 2 KiB, so that the
 * 4 KiB buffers of the launch evict lines and miss pages.  The built-in
 * GPUs' L2 (40 MiB here) never evicts them, and its tag array was
 * allocated and cleared for every input.  Every other bit of h picks a
 * size, an associativity (0: fully associative), TLB miss latencies
 * (else the term is left out) and a measured DRAM bandwidth (else the
 * peak is used).
 */
static wm_cache *small_cache(const wm_ptx_module *m, const wm_arch *arch,
                             unsigned h, wm_gpu *g)
{
    static const unsigned ways[] = {0, 1, 4, 16};
    const wm_gpu *base = wm_gpu_for_arch(arch);
    wm_cache_config cc;
    if (!base)
        return NULL;
    *g = *base;
    g->name = "fuzz";
    g->nsms = 2; /* waves of a few CTAs */
    g->l2_bytes = (uint64_t)1024 << (h & 3);
    g->tlb1_entries = 2;
    g->tlb2_entries = 4;
    g->tlb1_page = 512;
    g->tlb2_page = 2048;
    g->lat_tlb1 = h & 4 ? 20 : 0;
    g->lat_tlb2 = h & 4 ? 300 : 0;
    g->dram_meas = h & 8 ? g->dram_peak * 0.8 : 0;
    if (wm_cache_config_init(&cc, g, 64, wm_ptx_kernel_smem(m, 0, 0)) !=
        WM_OK)
        return NULL;
    cc.l1_bytes = (uint64_t)256 << (h >> 4 & 3);
    cc.l1_ways = ways[h >> 6 & 3];
    cc.l2_ways = ways[h >> 8 & 3];
    cc.order = h & 1024 ? WM_CACHE_ORDER_BARRIER : WM_CACHE_ORDER_INSN;
    return wm_cache_new(&cc);
}

/* The reports of a run, as `run` writes them: the report with the model
   (without it after a fault), the check's findings and the model's text
   section, and the SARIF log of the findings and the fault. */
static void run_reports(const wm_ptx_module *m, const wm_agg *agg,
                        const wm_ptx_check *chk, const wm_cache *cache,
                        const wm_ptx_result *res, const wm_ptx_fault *ft,
                        size_t size)
{
    wm_ptx_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.format = (wm_format)(size % 3);
    ro.width = 80;
    ro.res = res;
    ro.check = chk;
    ro.cache = ft ? NULL : cache;
    ro.fault = ft;
    json_doc d;
    FILE *f = ro.format == WM_FMT_JSON ? json_open(&d) : devnull;
    if (f) {
        wm_ptx_report(f, m, agg, &ro);
        if (f != devnull)
            json_close(&d, "wm_ptx_report");
    }
    if (ro.format == WM_FMT_TEXT) {
        wm_ptx_check_print(devnull, m, chk);
        if (ro.cache)
            wm_cache_report(devnull, cache, agg, WM_FMT_TEXT);
    }
    if (json_open(&d)) {
        wm_check_sarif(d.f, m, chk, ft, &ci_opts);
        json_close(&d, "wm_check_sarif");
    }
}

static void checked_run(const wm_ptx_module *m, const wm_arch *arch,
                        size_t size)
{
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_INIT | WM_CHECK_SCHEDULES |
                 WM_CHECK_PROVE;
    wm_ptx_arg args[16];
    wm_ptx_launch l;
    fuzz_launch(m, 3, args, &l);
    fuzz_twin_checked(m, &l); /* the proof against the comparison */
    l.check = &chk;
    wm_gpu gpu;
    wm_cache *cache =
        small_cache(m, arch, (unsigned)(size * 2654435761u >> 8), &gpu);
    l.cache = cache;
    wm_agg *agg = wm_agg_new(arch);
    wm_ptx_result res;
    wm_ptx_fault ft;
    memset(&res, 0, sizeof res);
    memset(&ft, 0, sizeof ft);
    wm_status st = agg ? wm_ptx_run(m, 0, &l, agg, &res, &ft) : WM_ERR_NOMEM;
    if (st == WM_OK)
        run_reports(m, agg, &chk, cache, &res, NULL, size);
    else if (st == WM_ERR_FAULT || st == WM_ERR_LIMIT ||
             st == WM_ERR_UNSUPPORTED)
        run_reports(m, agg, &chk, cache, &res, &ft, size);
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
