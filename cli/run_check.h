/*
 * run_check.h -- `warpmem run --check race|init|sync|schedules|all` and
 * `--schedule in-order|reverse|random:SEED`: parsing the flags into a
 * wm_ptx_check, telling the library which parameters start uninitialised
 * (:uninit) and their element sizes, and the exit status of a checked run.
 */
#ifndef WM_CLI_RUN_CHECK_H
#define WM_CLI_RUN_CHECK_H

#include "run_args.h"

/* The check options of one run (zeroed by run_check_init). */
typedef struct run_check {
    wm_ptx_check chk;
    int given;              /* --check or --schedule seen */
    int always;             /* --check schedules: compare, never prove */
    unsigned char *uninit;  /* per parameter */
    unsigned *elem;         /* per parameter: element bytes */
    wm_ptx_type *type;      /* per parameter: element type */
} run_check;

void run_check_init(run_check *rc);

/* Try argv[*i] as --check / --schedule: 1 consumed, 0 not ours, -1 after
   a usage error. */
int run_check_opt(int argc, char **argv, int *i, run_check *rc);


/* Map the buffer specs onto the np launch arguments (by buffer) and
   return the wm_ptx_check for the launch, or NULL when no flag was given;
   NULL with *oom set when out of memory. */
wm_ptx_check *run_check_setup(run_check *rc, const run_arg *args,
                              size_t nargs, const wm_ptx_arg *pargs,
                              size_t np, int *oom);

/* Whether the run found a hazard or a schedule difference. */
int run_check_found(const run_check *rc);

void run_check_free(run_check *rc);

#endif /* WM_CLI_RUN_CHECK_H */
