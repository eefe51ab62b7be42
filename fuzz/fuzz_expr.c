/*
 * fuzz_expr.c -- libFuzzer harness: expression program -> wm_expr_parse
 * and, when it parses, wm_expr_run over its launch (block 64 if none)
 * with a small access budget, then the worst-access query of every
 * statement.
 */
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    wm_expr *e = wm_expr_new();
    if (!e)
        return 0;
    wm_diag d;
    const char *src = (const char *)data;
    if (wm_expr_parse(e, src, size, "fuzz.expr", &d) != WM_OK) {
        if (devnull)
            wm_diag_print(devnull, &d, "fuzz.expr", src, size);
        wm_expr_free(e);
        return 0;
    }
    unsigned grid[3], block[3];
    if (!wm_expr_launch(e, grid, block)) {
        const unsigned g1[3] = {1, 1, 1}, b64[3] = {64, 1, 1};
        wm_expr_set_launch(e, g1, b64);
    }
    wm_arch arch;
    if (wm_arch_parse(size & 1 ? "sm_80" : "generic,warp=64,banks=32",
                      &arch, NULL, 0) != WM_OK) {
        wm_expr_free(e);
        return 0;
    }
    wm_agg *g = wm_agg_new(&arch);
    if (g) {
        wm_expr_fault f;
        wm_expr_run(e, g, 2000, &f);
        for (size_t i = 0; i < wm_expr_nstmts(e); i++)
            {
            wm_expr_where w;
            wm_counts c;
            (void)wm_expr_worst(e, i, &w, &c);
        }
        wm_agg_free(g);
    }
    wm_expr_free(e);
    return 0;
}
