/*
 * fuzz_launch.h -- the launch fuzz_ptx and fuzz_lint give the first kernel
 * of a module that parsed: `grid` CTAs of 64 threads, small step budgets
 * (2 000 per CTA, 8 000 in all), one worker.  Even-numbered 8-byte
 * parameters point at zeroed 4 KiB buffers; the others are scalars of 64.
 * The caller has checked that the kernel takes at most 16 parameters.
 */
#ifndef WM_FUZZ_LAUNCH_H
#define WM_FUZZ_LAUNCH_H

#include "warpmem.h"

#include <stdint.h>
#include <string.h>

static void fuzz_launch(const wm_ptx_module *m, unsigned grid,
                        wm_ptx_arg args[16], wm_ptx_launch *l)
{
    static uint8_t bufs[16][4096];
    size_t np = wm_ptx_kernel_nparams(m, 0);
    memset(args, 0, 16 * sizeof *args);
    for (size_t i = 0; i < np && i < 16; i++) {
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
    memset(l, 0, sizeof *l);
    l->grid[0] = grid;
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = 64;
    l->block[1] = l->block[2] = 1;
    l->args = args;
    l->nargs = np;
    l->max_steps = 2000;
    l->max_total_steps = 8000;
    l->threads = 1;
}

#endif /* WM_FUZZ_LAUNCH_H */
