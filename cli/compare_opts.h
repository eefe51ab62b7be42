/*
 * compare_opts.h -- `warpmem run ... --compare NCU.csv [--tolerance P]`:
 * the run's own prediction held against Nsight Compute exports after the
 * report (cmd_compare.c does the same for files).
 */
#ifndef WM_CLI_COMPARE_OPTS_H
#define WM_CLI_COMPARE_OPTS_H

#include "cli.h"

#define CLI_MAX_COMPARE 8

typedef struct cli_compare_opts {
    const char *files[CLI_MAX_COMPARE]; /* --compare FILE, repeatable */
    size_t nfiles;
    wm_compare_opts o; /* --tolerance */
} cli_compare_opts;

void cli_compare_init(cli_compare_opts *c);

/* --tolerance P: "5" or "5%" into a fraction.  1, or 0 after a usage
 * error. */
int cli_parse_tolerance(const char *text, double *out);

/* If argv[*i] is --compare or --tolerance, take it: 1; not one: 0; -1
 * after a usage error. */
int cli_compare_opt(int argc, char **argv, int *i, cli_compare_opts *c);

/* Read and parse one export (or prediction); NULL after printing why,
 * naming flag (e.g. "--compare", or NULL) in a read error. */
wm_ncu *cli_ncu_load(const char *path, const char *flag);

/*
 * With --compare: the run's warpmem CSV (wm_ptx_report of ro with the
 * CSV format, so per-line sums too) compared with the exports, on
 * stdout.  Exit status as cli_compare; 0 without --compare.
 */
int cli_compare_run(const cli_compare_opts *c, const wm_ptx_module *m,
                    const wm_agg *g, const wm_ptx_report_opts *ro);

#endif /* WM_CLI_COMPARE_OPTS_H */
