/*
 * run_fill.c -- which fill a `warpmem run` buffer gets when --fill is not
 * given.
 *
 * A lazily filled buffer (run_lazy.c) costs a signal, an mprotect(2) and
 * two page faults per page the kernel touches, about 10 us a page on the
 * 2-core development machine; an eager one costs about 1.6 us a page of
 * the whole buffer (the fill and the first touch of calloc's pages):
 * docs/performance.md, "Buffer fills".  So lazy filling pays while the
 * launch touches fewer than about a sixth of the buffer's pages, and
 * auto takes it when it estimates fewer than an eighth:
 *   - the whole grid touches every page: eager;
 *   - the first N of T CTAs (x fastest, as the tiles of a row-major
 *     buffer follow one another): N / T of the pages;
 *   - N CTAs drawn at random: where each CTA's share of the buffer,
 *     bytes / T, is smaller than a page, c = T * page / bytes CTAs share
 *     a page and a page is missed by all of them with probability
 *     (1 - N / T)^c (a 10 % sample of the reduction, 4 CTAs a page,
 *     touches about 34 % of its pages: eager); with --cache whole waves
 *     are drawn, consecutive CTAs, counted as N / T.
 * An estimate can be wrong (a kernel whose every CTA strides over the
 * whole buffer): run_lazy.c then fills the rest of a buffer at once when
 * an eighth of its pages were filled lazily, which bounds the cost at
 * about twice an eager fill.  --fill lazy and --fill eager are obeyed as
 * given.
 */
#include "run_args.h"

#include <math.h>
#include <unistd.h>

int run_fill_lazy(int fill, int copies, const run_fill_launch *fl,
                  size_t bytes)
{
    if (copies)
        return 0; /* every buffer is copied: every page is touched */
    if (fill != RUN_FILL_AUTO)
        return fill == RUN_FILL_LAZY;
    if (fl->ctas == WM_PTX_CTAS_ALL || !bytes)
        return 0;
    double total = (double)fl->grid[0] * fl->grid[1] * fl->grid[2];
    double share = total > 0 ? (double)fl->ctas_n / total : 1;
    share = share > 1 ? 1 : share;
    double page = (double)sysconf(_SC_PAGESIZE);
    double c = total * (page > 0 ? page : 4096) / (double)bytes;
    if (fl->ctas == WM_PTX_CTAS_SAMPLE && !fl->waves && c > 1)
        share = 1 - pow(1 - share, c);
    return share < RUN_LAZY_SHARE;
}
