/*
 * fuzz_cluster.c -- libFuzzer harness for thread-block clusters and
 * cooperative launches (ptx_cluster.c, ptx_cluster_run.c and the checks
 * across a cluster): an
 * 8-byte launch header, then PTX text whose first kernel is launched on
 * it.  The header:
 *   h0..h2: the grid (0 is 1; at most 32 x 4 x 4),
 *   h3..h5: the cluster (0 0 0: the kernel's .reqnctapercluster, else
 *           clusters of one; the library refuses a grid that is no
 *           multiple of it, and more than 8 CTAs, or 16 non-portable),
 *   h6:     the block, 32 x h6 threads (0 is 1, at most 8),
 *   h7:     the race, initialisation and schedule checks (bits 0-2),
 *           non-portable clusters (bit 3), the report as JSON (bit 4),
 *           every 8-byte parameter a buffer (bit 5), a cooperative
 *           launch (bit 6: the whole grid at once, grid.sync()'s
 *           workspace in %envreg1/%envreg2; the library refuses it with
 *           clusters, and checks past 1024 warps).
 * Parameters as fuzz_ptx gives them (fuzz_launch.h: 4 KiB buffers for
 * the even-numbered 8-byte ones, scalars of 64; with bit 5 a buffer for
 * each 8-byte one: the corpus kernels take (in, out, n)), 2 000 steps
 * per CTA, 20 000 in all.  The launch runs
 * with the interpreter's fast paths off and on, which must agree
 * (fuzz_twin.h); with checks it runs once more under them, and its
 * findings go to the report and the SARIF log (both checked as JSON).
 * Seeds and dictionary: fuzz/corpus/cluster (fuzz/seeds.py and the
 * corpus's cluster kernels), fuzz/ptx.dict.
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

/* The arguments fuzz_launch cannot give: a by-value parameter of another
   size (a struct, a CUtensorMap) gets that many zero bytes; with all,
   every 8-byte scalar becomes a zeroed 4 KiB buffer. */
static void fix_args(const wm_ptx_module *m, wm_ptx_arg *args, size_t n,
                     int all)
{
    static uint8_t bufs[16][4096];
    for (size_t i = 0; i < n && i < 16; i++) {
        size_t ps = wm_ptx_param_size(m, 0, i);
        if (ps != 1 && ps != 2 && ps != 4 && ps != 8 && ps <= 4096) {
            memset(bufs[i], 0, ps);
            memset(&args[i], 0, sizeof args[i]);
            args[i].value = bufs[i];
            args[i].size = (unsigned)ps;
        } else if (all && !args[i].buf && ps == 8) {
            memset(bufs[i], 0, sizeof bufs[i]);
            memset(&args[i], 0, sizeof args[i]);
            args[i].buf = bufs[i];
            args[i].bytes = sizeof bufs[i];
        }
    }
}

static unsigned dim(uint8_t v, unsigned max)
{
    return v == 0 ? 1 : v < max ? v : max;
}

/* The run under the checks: its reports and its SARIF log. */
static void checked(const wm_ptx_module *m, wm_ptx_launch *l,
                    const wm_arch *arch, unsigned flags)
{
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = flags & 7;
    if ((chk.checks & 5) == 5) /* race and schedules: as the CLI's race */
        chk.checks |= WM_CHECK_PROVE;
    l->check = &chk;
    wm_agg *g = wm_agg_new(arch);
    wm_ptx_result res;
    wm_ptx_fault ft;
    memset(&res, 0, sizeof res);
    memset(&ft, 0, sizeof ft);
    wm_status st = g ? wm_ptx_run(m, 0, l, g, &res, &ft) : WM_ERR_NOMEM;
    if (st == WM_OK || st == WM_ERR_FAULT || st == WM_ERR_LIMIT ||
        st == WM_ERR_UNSUPPORTED) {
        const wm_ptx_fault *f = st == WM_OK ? NULL : &ft;
        wm_ptx_report_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.format = flags & 16 ? WM_FMT_JSON : WM_FMT_TEXT;
        ro.width = 80;
        ro.res = &res;
        ro.check = &chk;
        ro.fault = f;
        memcpy(ro.grid, l->grid, sizeof ro.grid);
        memcpy(ro.block, l->block, sizeof ro.block);
        json_doc d;
        FILE *out = ro.format == WM_FMT_JSON ? json_open(&d) : devnull;
        if (out) {
            wm_ptx_report(out, m, g, &ro);
            if (out != devnull)
                json_close(&d, "wm_ptx_report");
        }
        wm_ptx_check_print(devnull, m, &chk);
        if (json_open(&d)) {
            wm_check_sarif(d.f, m, &chk, f, NULL);
            json_close(&d, "wm_check_sarif");
        }
    }
    wm_ptx_check_clear(&chk);
    wm_agg_free(g);
    l->check = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    if (!devnull || size < 8)
        return 0;
    const uint8_t *h = data;
    wm_ptx_module *m = NULL;
    wm_diag d;
    wm_arch arch;
    if (wm_ptx_parse((const char *)data + 8, size - 8, "cluster.ptx", &m,
                     &d) != WM_OK ||
        wm_ptx_nkernels(m) == 0 || wm_ptx_kernel_nparams(m, 0) > 16 ||
        wm_arch_parse("sm_90", &arch, NULL, 0) != WM_OK) {
        wm_ptx_free(m);
        return 0;
    }
    wm_ptx_arg args[16];
    wm_ptx_launch l;
    fuzz_launch(m, 1, args, &l);
    fix_args(m, args, l.nargs, h[7] & 32);
    l.grid[0] = dim(h[0], 32);
    l.grid[1] = dim(h[1], 4);
    l.grid[2] = dim(h[2], 4);
    for (int i = 0; i < 3; i++)
        l.cluster[i] = h[3 + i] < 32 ? h[3 + i] : 32;
    l.block[0] = 32 * dim(h[6], 8);
    l.cluster_nonportable = (h[7] >> 3) & 1;
    l.cooperative = (h[7] >> 6) & 1;
    l.max_total_steps = 20000;
    wm_agg *g = wm_agg_new(&arch);
    wm_ptx_fault ft;
    wm_status st = g ? fuzz_twin_run(m, &l, g, &ft) : WM_ERR_NOMEM;
    wm_agg_free(g);
    if (st != WM_ERR_ARG && st != WM_ERR_NOMEM && (h[7] & 7)) {
        fuzz_twin_checked(m, &l);
        checked(m, &l, &arch, h[7]);
    }
    wm_ptx_free(m);
    return 0;
}
