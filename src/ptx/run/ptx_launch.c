/*
 * ptx_launch.c -- the entry of a kernel launch, above everything that runs
 * it: one run (wmi_ptx_run_once, ptx_run.c), or with WM_CHECK_SCHEDULES
 * the launch run twice under two schedules and compared
 * (wmi_check_schedules, ptx_check_sched.c), which runs ptx_run.c in turn.
 */
#include "ptx_int.h"
#include "ptx_check_int.h"

wm_status wm_ptx_run(const wm_ptx_module *m, size_t k, const wm_ptx_launch *l,
                     wm_agg *agg, wm_ptx_result *res, wm_ptx_fault *fault)
{
    return wmi_ptx_run_opts(m, k, l, agg, res, fault, 0);
}

wm_status wmi_ptx_run_opts(const wm_ptx_module *m, size_t k,
                           const wm_ptx_launch *l, wm_agg *agg,
                           wm_ptx_result *res, wm_ptx_fault *fault,
                           unsigned flags)
{
    const wmi_func *f = m ? wmi_ptx_kernel(m, k) : NULL;
    wm_ptx_fault dummy;
    if (!fault)
        fault = &dummy;
    if (f && l && l->check && (l->check->checks & WM_CHECK_SCHEDULES) &&
        !(flags & WMI_RUN_ALT)) /* two runs, compared (ptx_check_sched.c) */
        return wmi_check_schedules(m, k, l, agg, res, fault, flags);
    return wmi_ptx_run_once(m, k, l, agg, res, fault, flags);
}
