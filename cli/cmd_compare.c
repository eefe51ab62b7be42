/*
 * cmd_compare.c -- `warpmem compare NCU_EXPORT... PREDICTION`: warpmem's
 * prediction against Nsight Compute's measurement (wm_ncu_compare).
 *
 * Every file is read with wm_ncu_parse (an ncu CSV export of the details,
 * raw or source page, or warpmem's CSV); the last one is the prediction.
 * With one file only, what it holds is listed.  Exit 0 when every
 * compared metric is within the tolerance, 1 when one is not, nothing
 * could be compared or a file is unreadable or malformed
 * (file:line:col), 2 on a usage error.
 */
#include "compare_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 16

/* The help text is help.def's "compare" rows. */
static void usage(FILE *f)
{
    cli_help_command(f, "compare");
}

typedef struct compare_args {
    const char *files[MAX_FILES];
    size_t nfiles;
    wm_compare_opts o;
} compare_args;

static int parse_args(int argc, char **argv, compare_args *a)
{
    const char *v;
    int r;
    memset(a, 0, sizeof *a);
    a->o.tolerance = 0.05;
    a->o.launch = -1;
    a->o.format = WM_FMT_TEXT;
    for (int i = 1; i < argc; i++) {
        if ((r = cli_opt(argc, argv, &i, "--tolerance", NULL, &v))) {
            if (r < 0 || !cli_parse_tolerance(v, &a->o.tolerance))
                return 0;
        } else if ((r = cli_opt(argc, argv, &i, "--kernel", NULL, &v))) {
            if (r < 0)
                return 0;
            a->o.kernel = v;
        } else if ((r = cli_opt(argc, argv, &i, "--launch", NULL, &v))) {
            int64_t n;
            if (r < 0 || !cli_parse_i64("--launch", v, 0, INT32_MAX, &n))
                return 0;
            a->o.launch = (long)n;
        } else if ((r = cli_opt(argc, argv, &i, "--format", NULL, &v))) {
            if (r < 0 || !cli_parse_format(v, &a->o.format))
                return 0;
            if (a->o.format != WM_FMT_TEXT && a->o.format != WM_FMT_JSON) {
                cli_usage_error("--format: compare writes text or json");
                return 0;
            }
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_usage_error("compare: unknown option '%s' (see 'warpmem "
                            "compare --help')",
                            argv[i]);
            cli_did_you_mean("compare", argv[i]);
            return 0;
        } else if (a->nfiles == MAX_FILES) {
            cli_usage_error("compare: more than %d files", MAX_FILES);
            return 0;
        } else {
            a->files[a->nfiles++] = argv[i];
        }
    }
    if (a->nfiles == 0) {
        cli_usage_error("compare: no files (see 'warpmem compare --help')");
        return 0;
    }
    return 1;
}

int wm_cmd_compare(int argc, char **argv)
{
    compare_args a;
    wm_ncu *x[MAX_FILES] = {NULL};
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return WM_EXIT_OK;
        }
    if (!parse_args(argc, argv, &a))
        return WM_EXIT_USAGE;
    int rc = WM_EXIT_OK;
    for (size_t i = 0; i < a.nfiles && rc == WM_EXIT_OK; i++)
        if (!(x[i] = cli_ncu_load(a.files[i], NULL)))
            rc = WM_EXIT_INPUT;
    if (rc == WM_EXIT_OK && a.nfiles == 1) {
        if (wm_ncu_dump(stdout, x[0], a.o.format) != WM_OK)
            rc = WM_EXIT_INPUT;
    } else if (rc == WM_EXIT_OK) {
        rc = cli_compare(stdout, (const wm_ncu *const *)x, a.nfiles - 1,
                         x[a.nfiles - 1], &a.o);
    }
    for (size_t i = 0; i < a.nfiles; i++)
        wm_ncu_free(x[i]);
    return rc;
}
