/*
 * fuzz_ncucsv.c -- libFuzzer harness: any bytes -> wm_ncu_parse (an
 * Nsight Compute CSV export or warpmem's CSV).  A parsed export is walked
 * through every accessor, listed and compared with itself (every metric
 * must then be within any tolerance); a rejected one must carry a
 * located diagnostic.
 */
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ncu *x = NULL;
    wm_diag d;
    wm_status st = wm_ncu_parse((const char *)data, size, &x, &d);
    if (st != WM_OK) {
        if (st == WM_ERR_PARSE && (d.line < 1 || d.col < 1 || !d.msg[0]))
            abort(); /* an error must say where */
        return 0;
    }
    for (size_t i = 0; i < wm_ncu_nlaunches(x); i++) {
        wm_ncu_launch l;
        if (!wm_ncu_launch_info(x, i, &l))
            abort();
        for (size_t j = 0; j < l.nmetrics; j++) {
            wm_ncu_value v;
            if (!wm_ncu_metric(x, i, j, &v) || !v.name || !v.unit)
                abort();
        }
    }
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
        wm_ncu_dump(sink, x, WM_FMT_JSON);
        const wm_ncu *meas[1] = {x};
        wm_compare_opts o = {0.0, NULL, -1, WM_FMT_TEXT};
        size_t flagged = 0;
        wm_ncu_compare(sink, meas, 1, x, &o, &flagged, NULL);
        fclose(sink);
    }
    wm_ncu_free(x);
    return 0;
}
