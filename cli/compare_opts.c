/*
 * compare_opts.c -- the --compare and --tolerance options of `run`
 * (compare_opts.h), and cli_compare, the comparison and its exit status
 * that `run --compare` and `warpmem compare` share.
 */
#define _POSIX_C_SOURCE 200809L
#include "compare_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void cli_compare_init(cli_compare_opts *c)
{
    memset(c, 0, sizeof *c);
    c->o.tolerance = 0.05;
    c->o.launch = -1;
    c->o.format = WM_FMT_TEXT;
}

int cli_parse_tolerance(const char *text, double *out)
{
    char *end;
    errno = 0;
    double p = strtod(text, &end);
    if (end == text || (*end && strcmp(end, "%") != 0) || errno ||
        !(p >= 0 && p <= 1e6)) {
        cli_usage_error("--tolerance: '%s' is not a percentage", text);
        return 0;
    }
    *out = p / 100.0;
    return 1;
}

int cli_compare_opt(int argc, char **argv, int *i, cli_compare_opts *c)
{
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--tolerance", NULL, &v)))
        return r < 0 || !cli_parse_tolerance(v, &c->o.tolerance) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--compare", NULL, &v))) {
        if (r < 0)
            return -1;
        if (c->nfiles == CLI_MAX_COMPARE) {
            cli_usage_error("--compare: more than %d exports",
                            CLI_MAX_COMPARE);
            return -1;
        }
        c->files[c->nfiles++] = v;
        return 1;
    }
    return 0;
}

wm_ncu *cli_ncu_load(const char *path, const char *flag)
{
    size_t n = 0;
    errno = 0;
    char *text = wm_read_file(path, &n);
    if (!text) {
        cli_error("cannot read '%s'%s%s%s: %s", path, flag ? " (" : "",
                  flag ? flag : "", flag ? ")" : "", wm_read_error(errno));
        return NULL;
    }
    wm_ncu *x = NULL;
    wm_diag d;
    wm_status st = wm_ncu_parse(text, n, &x, &d);
    if (st == WM_ERR_PARSE)
        wm_diag_print(stderr, &d, path, text, n);
    else if (st != WM_OK)
        cli_error("%s: %s", path, wm_status_str(st));
    free(text);
    return x;
}

int cli_compare_run(const cli_compare_opts *c, const wm_ptx_module *m,
                    const wm_agg *g, const wm_ptx_report_opts *ro)
{
    if (!c->nfiles)
        return WM_EXIT_OK;
    wm_ptx_report_opts csv = *ro;
    csv.format = WM_FMT_CSV;
    size_t n = 0;
    char *text = wm_ptx_report_string(m, g, &csv, 0, &n);
    if (!text)
        return cli_error("out of memory");
    wm_ncu *pred = NULL, *meas[CLI_MAX_COMPARE] = {NULL};
    wm_diag d;
    int rc = WM_EXIT_OK;
    if (wm_ncu_parse(text, n, &pred, &d) != WM_OK)
        rc = cli_error("--compare: the run's own CSV: %s", d.msg);
    wm_free(text);
    for (size_t i = 0; i < c->nfiles && rc == WM_EXIT_OK; i++)
        if (!(meas[i] = cli_ncu_load(c->files[i], "--compare")))
            rc = WM_EXIT_INPUT;
    if (rc == WM_EXIT_OK) {
        fputc('\n', stdout);
        rc = cli_compare(stdout, (const wm_ncu *const *)meas, c->nfiles, pred,
                         &c->o);
    }
    for (size_t i = 0; i < c->nfiles; i++)
        wm_ncu_free(meas[i]);
    wm_ncu_free(pred);
    return rc;
}

int cli_compare(FILE *f, const wm_ncu *const *meas, size_t nmeas,
                const wm_ncu *pred, const wm_compare_opts *o)
{
    size_t flagged = 0, compared = 0;
    wm_status st = wm_ncu_compare(f, meas, nmeas, pred, o, &flagged,
                                  &compared);
    if (st != WM_OK)
        return cli_error("compare: %s", wm_status_str(st));
    if (compared == 0)
        return cli_error("compare: nothing compared: no measured launch "
                         "matched (see above), or no metric is in both the "
                         "prediction and the measurement (kernel names, "
                         "--kernel, or the metrics ncu was asked for?)");
    return flagged ? WM_EXIT_FINDING : WM_EXIT_OK;
}
