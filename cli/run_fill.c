/*
 * run_fill.c -- which fill a `warpmem run` buffer gets when --fill is not
 * given.
 *
 * A lazily filled buffer (run_lazy.c) costs one mprotect(2) and one
 * signal return per page the kernel touches on top of filling it; an
 * eager one fills every page first.  A run of the whole grid touches
 * (nearly) every page of its buffers, so lazy filling only adds to it:
 * +17 % CPU time and +64 MiB of peak memory (the pages counted in both of
 * the memfd's views) on the full 4096^2 naive transpose, -j 1.  A run of a
 * few CTAs touches a few pages, where lazy filling saves nearly all of the
 * fill (17x on --ctas sample:64 of the 8192^2 transpose, docs/ptx.md).
 * The page costs about as much as filling 8 KiB, so lazy filling wins
 * while fewer than about half the pages are touched: auto takes it when
 * fewer than half of the grid's CTAs run.  --fill lazy and --fill eager
 * are obeyed as given.
 */
#include "run_args.h"

int run_fill_lazy(int fill, int copies, wm_ptx_ctas ctas, uint64_t ctas_n,
                  const unsigned grid[3])
{
    if (copies)
        return 0; /* every buffer is copied: every page is touched */
    if (fill != RUN_FILL_AUTO)
        return fill == RUN_FILL_LAZY;
    if (ctas == WM_PTX_CTAS_ALL)
        return 0;
    uint64_t total = (uint64_t)grid[0] * grid[1] * grid[2];
    return ctas_n < total / 2 + total % 2;
}
