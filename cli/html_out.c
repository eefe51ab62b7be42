/*
 * html_out.c -- --html FILE for the commands that write one: the PTX
 * report of `run` and `lint`, and the message of a failed write, which
 * names the file and the reason as every writer of the CLI does.
 */
#include "cli.h"
#include "out_stage.h"

#include <errno.h>
#include <stdio.h>

int cli_html_error(const char *path, wm_status st, int err)
{
    if (st != WM_ERR_IO)
        return cli_error("--html: %s", wm_status_str(st));
    char what[1100];
    snprintf(what, sizeof what, "'%s' (--html)", path);
    return cli_write_error(what, err);
}

/* The report into f (opened for path, closed here). */
static wm_status html_into(FILE *f, const char *path, const wm_ptx_module *m,
                           const wm_agg *agg, const wm_ptx_report_opts *ro)
{
    if (!f) {
        cli_html_error(path, WM_ERR_IO, errno);
        return WM_ERR_IO;
    }
    errno = 0;
    wm_status st = wm_ptx_report_html(f, m, agg, ro);
    int e = errno; /* of the failed write, if one failed */
    if (fclose(f) != 0) {
        e = errno;
        if (st == WM_OK)
            st = WM_ERR_IO;
    }
    if (st != WM_OK)
        cli_html_error(path, st, e);
    return st;
}

wm_status cli_ptx_html(const char *path, const wm_ptx_module *m,
                       const wm_agg *agg, const wm_ptx_report_opts *ro)
{
    return html_into(fopen(path, "w"), path, m, agg, ro);
}

wm_status cli_ptx_html_staged(cli_stage *st, const char *path,
                              const wm_ptx_module *m, const wm_agg *agg,
                              const wm_ptx_report_opts *ro)
{
    return html_into(cli_stage_open(st, path), path, m, agg, ro);
}
