/*
 * test_run_fill.c -- the fill a `warpmem run` buffer gets without --fill
 * (cli/run_fill.c): eager for the whole grid, lazy when the launch is
 * estimated to touch under an eighth of the buffer's pages (the first N
 * CTAs: N / T of them; N drawn at random: 1 - (1 - N/T)^c with c CTAs
 * sharing a page; whole waves under --cache: N / T), never lazy when
 * every buffer is copied, and --fill as given.  The page-dependent
 * figures are worked out for 4 KiB pages.
 */
#include "run_args.h"
#include "check.h"

#include <unistd.h>

static int lazy(wm_ptx_ctas ctas, uint64_t n, unsigned gx, unsigned gy,
                int waves, size_t bytes)
{
    run_fill_launch fl = {ctas, n, {gx, gy, 1}, waves};
    return run_fill_lazy(RUN_FILL_AUTO, 0, &fl, bytes);
}

int main(void)
{
    const size_t mib = (size_t)1 << 20;
    run_fill_launch s64 = {WM_PTX_CTAS_SAMPLE, 64, {256, 1024, 1}, 0};
    /* 256 x 1024 = 262 144 CTAs over 256 MiB: c = 4 CTAs a page */
    CHECK_EQ(lazy(WM_PTX_CTAS_ALL, 0, 256, 1024, 0, 256 * mib), 0);
    CHECK_EQ(lazy(WM_PTX_CTAS_FIRST, 1, 256, 1024, 0, 256 * mib), 1);
    /* first N: N / T against 1/8 (32 768 CTAs) */
    CHECK_EQ(lazy(WM_PTX_CTAS_FIRST, 32767, 256, 1024, 0, 256 * mib), 1);
    CHECK_EQ(lazy(WM_PTX_CTAS_FIRST, 32768, 256, 1024, 0, 256 * mib), 0);
    CHECK_EQ(lazy(WM_PTX_CTAS_SAMPLE, 1u << 30, 256, 1024, 0, 256 * mib), 0);
    if (sysconf(_SC_PAGESIZE) == 4096) {
        /* 64 of them: 1 - (1 - 2^-12)^4 = 0.1 % of the pages */
        CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 0, &s64, 256 * mib), 1);
        /* 8192 (1/32): 1 - (31/32)^4 = 11.9 %; 8704: 12.6 % */
        CHECK_EQ(lazy(WM_PTX_CTAS_SAMPLE, 8192, 256, 1024, 0, 256 * mib), 1);
        CHECK_EQ(lazy(WM_PTX_CTAS_SAMPLE, 8704, 256, 1024, 0, 256 * mib), 0);
        /* whole waves (--cache): 8704 / 262 144 = 3.3 % */
        CHECK_EQ(lazy(WM_PTX_CTAS_SAMPLE, 8704, 256, 1024, 1, 256 * mib), 1);
        /* 16 MiB: c = 64; 64 CTAs touch 1.6 %, 600 touch 13.6 % */
        CHECK_EQ(lazy(WM_PTX_CTAS_SAMPLE, 64, 256, 1024, 0, 16 * mib), 1);
        CHECK_EQ(lazy(WM_PTX_CTAS_SAMPLE, 600, 256, 1024, 0, 16 * mib), 0);
        /* 64 CTAs over 1 GiB, 4096 pages each: c < 1, so N / T */
        CHECK_EQ(lazy(WM_PTX_CTAS_SAMPLE, 7, 64, 1, 0, 1024 * mib), 1);
        CHECK_EQ(lazy(WM_PTX_CTAS_SAMPLE, 8, 64, 1, 0, 1024 * mib), 0);
    }
    /* the schedule comparison copies every buffer */
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 1, &s64, 256 * mib), 0);
    CHECK_EQ(run_fill_lazy(RUN_FILL_LAZY, 1, &s64, 256 * mib), 0);
    /* --fill as given */
    run_fill_launch all = {WM_PTX_CTAS_ALL, 0, {256, 1024, 1}, 0};
    CHECK_EQ(run_fill_lazy(RUN_FILL_LAZY, 0, &all, 256 * mib), 1);
    CHECK_EQ(run_fill_lazy(RUN_FILL_EAGER, 0, &s64, 256 * mib), 0);
    return check_done("test_run_fill");
}
