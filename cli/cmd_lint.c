/*
 * cmd_lint.c -- `warpmem lint`: judge every memory instruction of every
 * kernel of a module (PTX, or a .cu compiled with nvcc) without running
 * anything: wm_lint_kernel per kernel, wm_lint_report to print, and the
 * exit status 1 when --fail-on's severity is reached (for CI).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "sass_tool.h"

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
                            const char *profile, const char *cmd)
{
    wm_ptx_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.ptx_path = ptx_path;
    ro.arch = profile;
    ro.kernel = wm_ptx_kernel_pretty(m, k);
    ro.command = cmd;
    return cli_ptx_html(path, m, wm_lint_agg(res), &ro);
}

/* The command line of `lint`. */
typedef struct lint_cmd {
    const char *input, *kname, *arch_name;
    wm_lint_opts lo;
    wm_lint_param params[MAX_PARAMS];
    wm_severity fail_on;
    cli_output output;
    int ci; /* CLI_CI_SARIF or _JUNIT: one document after all kernels */
    wm_arch arch;
    char arch_note[96]; /* the profile and where it came from */
    int level;          /* --level (sass_tool.h) */
    cli_sass sass; /* SASS level: the module's SASS */
} lint_cmd;

#define LINT_NEXT (-1) /* go on; else an exit status */

/* Try argv[*i] as one of lint's own options: 1 taken, 0 not one, -1
   after a usage error. */
static int lint_opt(int argc, char **argv, int *i, lint_cmd *c)
{
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--kernel", "-k", &v))) {
        if (r > 0)
            c->kname = v;
    } else if ((r = cli_opt(argc, argv, i, "--block", NULL, &v))) {
        if (r > 0 && !cli_parse_dims("--block", v, c->lo.block))
            r = -1;
    } else if ((r = cli_opt(argc, argv, i, "--grid", NULL, &v))) {
        if (r > 0 && !cli_parse_dims("--grid", v, c->lo.grid))
            r = -1;
    } else if ((r = cli_opt(argc, argv, i, "--param", "-p", &v))) {
        if (r > 0 && c->lo.nparams >= MAX_PARAMS)
            r = (cli_usage_error("--param: at most %d", MAX_PARAMS), -1);
        else if (r > 0 && !parse_param(v, &c->params[c->lo.nparams]))
            r = -1;
        else if (r > 0)
            c->lo.nparams++;
    } else if ((r = cli_opt(argc, argv, i, "--fail-on", NULL, &v))) {
        if (r > 0 && !parse_sev(v, &c->fail_on))
            r = -1;
    } else if ((r = cli_opt(argc, argv, i, "--arch", NULL, &v))) {
        if (r > 0)
            c->arch_name = v;
    } else if ((r = cli_opt(argc, argv, i, "--level", NULL, &v))) {
        if (r > 0 && !cli_sass_parse_level("--level", v, &c->level))
            r = -1;
    }
    return r;
}

/* The command line into c.  LINT_NEXT, or the exit status after --help
   or a usage error. */
static int lint_args(int argc, char **argv, lint_cmd *c)
{
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return WM_EXIT_OK;
        } else if ((r = cli_ci_format_opt(argc, argv, &i, 1, &c->ci)) ||
                   (r = lint_opt(argc, argv, &i, c)) ||
                   (r = cli_output_opt(argc, argv, &i, &c->output))) {
            if (r < 0)
                return WM_EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_usage_error("lint: unknown option '%s'", argv[i]);
            cli_did_you_mean("lint", argv[i]);
            return WM_EXIT_USAGE;
        } else if (!c->input) {
            c->input = argv[i];
        } else {
            return cli_usage_error("lint: unexpected argument '%s'", argv[i]);
        }
    }
    c->lo.params = c->params;
    if (!c->input)
        return cli_usage_error("lint: no kernel file (try 'warpmem lint "
                               "--help')");
    if (!cli_parse_arch(c->arch_name, &c->arch) ||
        !cli_output_check(&c->output))
        return WM_EXIT_USAGE;
    return LINT_NEXT;
}

/* The kernel --kernel names (*only), or -1 for all.  LINT_NEXT, or
   WM_EXIT_USAGE after saying why. */
static int lint_select(const lint_cmd *c, const wm_ptx_module *m, long *only)
{
    size_t nk = wm_ptx_nkernels(m);
    *only = -1;
    if (c->output.html && !c->kname && nk > 1)
        return cli_usage_error("--html: %s has %zu kernels: name one with "
                               "--kernel",
                               c->input, nk);
    if (!c->kname)
        return LINT_NEXT;
    *only = wm_ptx_find_kernel(m, c->kname);
    if (*only < 0)
        return cli_usage_error("%s: no kernel %s'%s'", c->input,
                               *only == -2 ? "unique match for " : "",
                               c->kname);
    return LINT_NEXT;
}

/* Text, at SASS level: what the compiled code changes. */
static void sass_note(const wm_sass_plan *p, const char *arch, int printed)
{
    wm_sass_summary s;
    wm_sass_plan_summary(p, &s);
    if (!s.merged && !s.split && !s.unmapped)
        return;
    printf("%sSASS-level widths (ptxas -arch %s, nvdisasm): %zu lines merge "
           "PTX accesses (%zu merged into wider ones), %zu split, %zu not "
           "mapped (PTX widths)\n",
           printed ? "\n" : "", arch, s.merged, s.insns_merged, s.split,
           s.unmapped);
}

/* Lint kernel k into *res and print it (after others when printed).
   WM_EXIT_OK, or the status of what stopped it, said on stderr. */
static int lint_one(const lint_cmd *c, const wm_ptx_module *m, size_t k,
                    const char *src, size_t n, int printed, wm_lint **res)
{
    const char *shown = cli_is_cu(c->input) ? "(nvcc output)" : c->input;
    if (cli_kernel_broken(m, k, shown, src, n, "be linted"))
        return WM_EXIT_INPUT;
    wm_lint_opts lo = c->lo; /* at SASS level with the kernel's map */
    wm_sass_plan *plan = NULL;
    if (c->sass.sass && wm_sass_plan_new(m, k, c->sass.sass, &plan) != WM_OK)
        return cli_error("out of memory");
    lo.sass = plan;
    wm_status st = wm_lint_kernel(m, k, &c->arch, &lo, res);
    if (st == WM_OK && plan && c->output.format == WM_FMT_TEXT)
        sass_note(plan, c->sass.arch, printed);
    wm_sass_plan_free(plan);
    if (st == WM_ERR_LIMIT)
        return cli_error("kernel %s: too large to lint: its analysis state "
                         "would pass %llu MiB (WM_LIMIT_LINT_BYTES, a "
                         "fixed limit; run it instead)",
                         wm_ptx_kernel_pretty(m, k),
                         WM_LIMIT_LINT_BYTES >> 20);
    if (st != WM_OK) {
        cli_error("kernel %s: %s", wm_ptx_kernel_pretty(m, k),
                  wm_status_str(st));
        return st == WM_ERR_ARG ? WM_EXIT_USAGE : WM_EXIT_INPUT;
    }
    if (c->ci) /* written with the others by write_ci */
        return WM_EXIT_OK;
    wm_lint_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.format = c->output.format;
    ro.color = c->output.color;
    ro.explain = c->output.explain;
    ro.width = cli_term_width();
    ro.ptx_path = c->input;
    ro.profile = c->arch_note;
    if (printed && c->output.format == WM_FMT_TEXT)
        printf("\n");
    if (printed && c->output.format == WM_FMT_JSON)
        printf(",");
    if (wm_lint_report(stdout, *res, &ro, !printed) != WM_OK)
        return cli_error("kernel %s: report: out of memory",
                         wm_ptx_kernel_pretty(m, k));
    return WM_EXIT_OK;
}

/* --format sarif|junit: every kernel's verdicts in one document. */
static int write_ci(const lint_cmd *c, const wm_ptx_module *m,
                    wm_lint *const *res, const char *cmd)
{
    wm_ci_opts co;
    memset(&co, 0, sizeof co);
    co.command = cmd;
    co.arch = c->arch.name;
    co.ptx_path = c->input;
    co.fail_on = c->fail_on;
    size_t n = wm_ptx_nkernels(m);
    const wm_lint *const *r = (const wm_lint *const *)res;
    wm_status st = c->ci == CLI_CI_SARIF ? wm_lint_sarif(stdout, m, r, n, &co)
                                         : wm_lint_junit(stdout, m, r, n, &co);
    if (st == WM_ERR_IO)
        return cli_write_error("standard output", errno);
    return st == WM_OK ? WM_EXIT_OK : cli_error("%s", wm_status_str(st));
}

/* Every kernel (or only one) linted and printed into res[]; the worst
   severity into *worst.  The exit status so far. */
static int lint_all(const lint_cmd *c, const wm_ptx_module *m,
                    const char *src, size_t n, long only, wm_lint **res,
                    wm_severity *worst)
{
    int rc = WM_EXIT_OK, printed = 0;
    *worst = WM_SEV_NONE;
    if (c->output.format == WM_FMT_JSON && only < 0)
        printf("[");
    for (size_t k = 0; k < wm_ptx_nkernels(m); k++) {
        if (only >= 0 && (size_t)only != k)
            continue;
        int r = lint_one(c, m, k, src, n, printed, &res[k]);
        if (r != WM_EXIT_OK && res[k]) { /* the report failed */
            rc = r;
            break;
        }
        if (r != WM_EXIT_OK) {
            rc = r;
            continue;
        }
        printed = 1;
        if (wm_lint_worst(res[k]) > *worst)
            *worst = wm_lint_worst(res[k]);
    }
    if (c->output.format == WM_FMT_JSON && only < 0)
        printf("]\n");
    return rc;
}

int wm_cmd_lint(int argc, char **argv)
{
    lint_cmd c;
    memset(&c, 0, sizeof c);
    c.fail_on = WM_SEV_NONE;
    cli_output_init(&c.output);
    char *src = NULL;
    size_t n = 0;
    wm_ptx_module *m = NULL;
    wm_lint **res = NULL;
    long only = -1;
    int rc = lint_args(argc, argv, &c);
    if (rc == LINT_NEXT &&
        !cli_load_ptx(c.input, cli_cu_sm(c.arch_name, &c.arch), NULL, 0, &src,
                      &n, &m))
        rc = WM_EXIT_INPUT;
    if (rc == LINT_NEXT) /* --arch, else .target, else the default */
        cli_pick_arch(m, c.arch_name, &c.arch, c.arch_note,
                      sizeof c.arch_note);
    if (rc == LINT_NEXT &&
        cli_sass_setup(&c.sass, c.level, m, SIZE_MAX, src, n, c.arch.sm) < 0)
        rc = WM_EXIT_INPUT;
    if (rc == LINT_NEXT)
        rc = lint_select(&c, m, &only);
    if (rc == LINT_NEXT &&
        !(res = calloc(wm_ptx_nkernels(m) + 1, sizeof *res)))
        rc = cli_error("out of memory");
    wm_severity worst = WM_SEV_NONE;
    if (rc == LINT_NEXT)
        rc = lint_all(&c, m, src, n, only, res, &worst);
    char cmd[2048];
    cli_command_line(argc, argv, cmd, sizeof cmd);
    if (res && c.ci) {
        int r = write_ci(&c, m, res, cmd);
        if (r != WM_EXIT_OK)
            rc = r;
    }
    if (res && c.output.html) {
        size_t hk = only >= 0 ? (size_t)only : 0;
        if (res[hk] &&
            write_html(c.output.html, m, hk, res[hk], c.input, c.arch_note,
                       cmd) != WM_OK)
            rc = WM_EXIT_INPUT;
    }
    if (rc == WM_EXIT_OK && c.fail_on != WM_SEV_NONE && worst >= c.fail_on)
        rc = WM_EXIT_FINDING;
    for (size_t k = 0; res && k < wm_ptx_nkernels(m); k++)
        wm_lint_free(res[k]);
    free(res);
    cli_sass_free(&c.sass);
    wm_ptx_free(m);
    free(src);
    for (size_t i = 0; i < c.lo.nparams; i++)
        free((void *)(uintptr_t)c.params[i].name);
    return rc;
}
