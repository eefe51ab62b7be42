/*
 * cmd_lint.c -- `warpmem lint`: judge every memory instruction of every
 * kernel of a module (PTX, or a .cu compiled with nvcc) without running
 * anything: wm_lint_kernel per kernel, wm_lint_report to print, and the
 * exit status 1 when --fail-on's severity is reached (for CI).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PARAMS 64

/* The help text is help.def's "lint" rows. */
static void usage(FILE *f)
{
    cli_help_command(f, "lint");
}


static int parse_sev(const char *v, wm_severity *out)
{
    static const wm_severity s[] = {WM_SEV_LOW, WM_SEV_MEDIUM, WM_SEV_HIGH};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        if (strcmp(v, wm_severity_name(s[i])) == 0) {
            *out = s[i];
            return 1;
        }
    return cli_usage_error("--fail-on: '%s' is not high, medium or low", v), 0;
}

static int parse_param(const char *v, wm_lint_param *p)
{
    const char *eq = strchr(v, '=');
    int64_t x;
    if (!eq || eq == v)
        return cli_usage_error("--param: '%s' is not NAME=VALUE", v), 0;
    if (!cli_parse_i64("--param", eq + 1, INT64_MIN, INT64_MAX, &x))
        return 0;
    char *name = malloc((size_t)(eq - v) + 1);
    if (!name)
        return cli_error("out of memory"), 0;
    memcpy(name, v, (size_t)(eq - v));
    name[eq - v] = 0;
    p->name = name;
    p->value = x;
    return 1;
}

/* The HTML report of one kernel's lint (the accesses of its warps). */
static wm_status write_html(const char *path, const wm_ptx_module *m, size_t k,
                            const wm_lint *res, const char *ptx_path,
                            const char *cmd)
{
    wm_ptx_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.ptx_path = ptx_path;
    ro.kernel = wm_ptx_kernel_pretty(m, k);
    ro.command = cmd;
    return cli_ptx_html(path, m, wm_lint_agg(res), &ro);
}

int wm_cmd_lint(int argc, char **argv)
{
    const char *input = NULL, *kname = NULL, *arch_name = NULL, *v;
    wm_lint_opts lo;
    wm_lint_param params[MAX_PARAMS];
    wm_severity fail_on = WM_SEV_NONE;
    cli_output output;
    memset(&lo, 0, sizeof lo);
    cli_output_init(&output);
    int rc = WM_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            rc = WM_EXIT_OK;
            goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--kernel", "-k", &v))) {
            if (r < 0)
                goto out;
            kname = v;
        } else if ((r = cli_opt(argc, argv, &i, "--block", NULL, &v))) {
            if (r < 0 || !cli_parse_dims("--block", v, lo.block))
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--grid", NULL, &v))) {
            if (r < 0 || !cli_parse_dims("--grid", v, lo.grid))
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--param", "-p", &v))) {
            if (r < 0)
                goto out;
            if (lo.nparams >= MAX_PARAMS) {
                cli_usage_error("--param: at most %d", MAX_PARAMS);
                goto out;
            }
            if (!parse_param(v, &params[lo.nparams]))
                goto out;
            lo.nparams++;
        } else if ((r = cli_opt(argc, argv, &i, "--fail-on", NULL, &v))) {
            if (r < 0 || !parse_sev(v, &fail_on))
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--arch", NULL, &v))) {
            if (r < 0)
                goto out;
            arch_name = v;
        } else if ((r = cli_output_opt(argc, argv, &i, &output))) {
            if (r < 0)
                goto out;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_usage_error("lint: unknown option '%s'", argv[i]);
            goto out;
        } else if (!input) {
            input = argv[i];
        } else {
            cli_usage_error("lint: unexpected argument '%s'", argv[i]);
            goto out;
        }
    }
    lo.params = params;
    if (!input) {
        cli_usage_error("lint: no kernel file (try 'warpmem lint --help')");
        goto out;
    }
    wm_arch arch;
    if (!cli_parse_arch(arch_name, &arch) || !cli_output_check(&output))
        goto out;

    rc = WM_EXIT_ERR;
    char tmp[512] = "";
    const char *ptx_path = input;
    size_t len = strlen(input);
    if (len > 3 && strcmp(input + len - 3, ".cu") == 0) {
        if (!cli_compile_cu(input, arch.sm, NULL, 0, tmp, sizeof tmp))
            goto out;
        ptx_path = tmp;
    }
    size_t n = 0;
    char *src = wm_read_file(ptx_path, &n);
    int err = errno;
    if (*tmp)
        unlink(tmp);
    if (!src) {
        cli_error("cannot read '%s': %s", input, strerror(err));
        goto out;
    }
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (wm_ptx_parse(src, n, input, &m, &d) != WM_OK) {
        wm_diag_print(stderr, &d, *tmp ? "(nvcc output)" : input, src, n);
        free(src);
        goto out;
    }
    size_t nk = wm_ptx_nkernels(m);
    long only = -1;
    if (output.html && !kname && nk > 1) {
        cli_usage_error("--html: %s has %zu kernels: name one with --kernel",
                        input, nk);
        rc = WM_EXIT_USAGE;
        goto done;
    }
    if (kname) {
        only = wm_ptx_find_kernel(m, kname);
        if (only < 0) {
            cli_usage_error("%s: no kernel %s'%s'", input,
                            only == -2 ? "unique match for " : "", kname);
            rc = WM_EXIT_USAGE;
            goto done;
        }
    }
    wm_lint **res = calloc(nk + 1, sizeof *res);
    if (!res) {
        cli_error("out of memory");
        goto done;
    }
    wm_severity worst = WM_SEV_NONE;
    rc = WM_EXIT_OK;
    wm_lint_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.format = output.format;
    ro.color = output.color;
    ro.explain = output.explain;
    ro.width = cli_term_width();
    ro.ptx_path = input;
    if (output.format == WM_FMT_JSON && only < 0)
        printf("[");
    int printed = 0;
    for (size_t k = 0; k < nk; k++) {
        if (only >= 0 && (size_t)only != k)
            continue;
        if (cli_kernel_broken(m, k, *tmp ? "(nvcc output)" : input, src, n,
                              "be linted")) {
            rc = WM_EXIT_ERR;
            continue;
        }
        wm_status st = wm_lint_kernel(m, k, &arch, &lo, &res[k]);
        if (st == WM_ERR_LIMIT) {
            rc = cli_error("kernel %s: too large to lint: its analysis "
                           "state would pass %llu MiB (WM_LIMIT_LINT_BYTES, "
                           "a fixed limit; run it instead)",
                           wm_ptx_kernel_pretty(m, k),
                           WM_LIMIT_LINT_BYTES >> 20);
            continue;
        }
        if (st != WM_OK) {
            cli_error("kernel %s: %s", wm_ptx_kernel_pretty(m, k),
                      wm_status_str(st));
            rc = st == WM_ERR_ARG ? WM_EXIT_USAGE : WM_EXIT_ERR;
            continue;
        }
        if (printed && output.format == WM_FMT_TEXT)
            printf("\n");
        if (printed && output.format == WM_FMT_JSON)
            printf(",");
        if (wm_lint_report(stdout, res[k], &ro, !printed) != WM_OK) {
            rc = cli_error("kernel %s: report: out of memory",
                           wm_ptx_kernel_pretty(m, k));
            break;
        }
        printed = 1;
        if (wm_lint_worst(res[k]) > worst)
            worst = wm_lint_worst(res[k]);
    }
    if (output.format == WM_FMT_JSON && only < 0)
        printf("]\n");
    if (output.html) {
        char cmd[2048];
        size_t hk = only >= 0 ? (size_t)only : 0;
        cli_command_line(argc, argv, cmd, sizeof cmd);
        if (res[hk] &&
            write_html(output.html, m, hk, res[hk], input, cmd) != WM_OK)
            rc = WM_EXIT_ERR;
    }
    if (rc == WM_EXIT_OK && fail_on != WM_SEV_NONE && worst >= fail_on)
        rc = WM_EXIT_ERR;
    for (size_t k = 0; k < nk; k++)
        wm_lint_free(res[k]);
    free(res);
done:
    wm_ptx_free(m);
    free(src);
out:
    for (size_t i = 0; i < lo.nparams; i++)
        free((void *)(uintptr_t)params[i].name);
    return rc;
}
