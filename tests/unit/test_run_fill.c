/*
 * test_run_fill.c -- the fill a `warpmem run` gets without --fill
 * (cli/run_fill.c): eager for the whole grid, lazy below half of its
 * CTAs, never lazy when every buffer is copied, and --fill as given.
 */
#include "run_args.h"
#include "check.h"

int main(void)
{
    const unsigned g[3] = {256, 1024, 1}; /* 262 144 CTAs */
    const unsigned odd[3] = {7, 1, 1};
    /* no --fill */
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 0, WM_PTX_CTAS_ALL, 0, g), 0);
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 0, WM_PTX_CTAS_SAMPLE, 64, g), 1);
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 0, WM_PTX_CTAS_FIRST, 1, g), 1);
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 0, WM_PTX_CTAS_FIRST, 131071, g),
             1);
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 0, WM_PTX_CTAS_FIRST, 131072, g),
             0);
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 0, WM_PTX_CTAS_SAMPLE, 1u << 30, g),
             0);
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 0, WM_PTX_CTAS_SAMPLE, 3, odd), 1);
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 0, WM_PTX_CTAS_SAMPLE, 4, odd), 0);
    /* the schedule comparison copies every buffer */
    CHECK_EQ(run_fill_lazy(RUN_FILL_AUTO, 1, WM_PTX_CTAS_SAMPLE, 64, g), 0);
    CHECK_EQ(run_fill_lazy(RUN_FILL_LAZY, 1, WM_PTX_CTAS_SAMPLE, 64, g), 0);
    /* --fill as given */
    CHECK_EQ(run_fill_lazy(RUN_FILL_LAZY, 0, WM_PTX_CTAS_ALL, 0, g), 1);
    CHECK_EQ(run_fill_lazy(RUN_FILL_EAGER, 0, WM_PTX_CTAS_SAMPLE, 64, g), 0);
    return check_done("test_run_fill");
}
