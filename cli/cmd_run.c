/*
 * cmd_run.c -- `warpmem run`: interpret a kernel's PTX on the CPU and print
 * per-source-line memory metrics.  Parses the command line (the --arg specs
 * through run_args.c, which allocates nothing), refuses every bad
 * combination, compiles a .cu with nvcc when given one (with --nvcc-flag /
 * -- arguments), selects the kernel and checks each spec against its
 * parameter (wm_ptx_kernel_describe), and only then allocates and fills
 * the buffers and hands everything to wm_ptx_run / wm_ptx_report
 * (--explain: with the advisor) and wm_ptx_report_html (--html FILE).
 * The profile is --arch, else the one of the module's .target.
 */
#define _POSIX_C_SOURCE 200809L
#include "run_args.h"
#include "cache_opts.h"
#include "compare_opts.h"
#include "run_value.h"
#include "run_check.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 64

/* The help text is help.def's "run" rows. */
static void usage(FILE *f)
{
    cli_help_command(f, "run");
}



typedef struct progress_state {
    double t0;
    int shown;
} progress_state;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_progress(void *ud, uint64_t done, uint64_t total)
{
    progress_state *p = ud;
    if (now_s() - p->t0 < 1.0)
        return;
    fprintf(stderr, "\rwarpmem: %llu of %llu CTAs (%.0f%%)",
            (unsigned long long)done, (unsigned long long)total,
            total ? 100.0 * (double)done / (double)total : 0.0);
    fflush(stderr);
    p->shown = 1;
}

/* --html FILE: the self-contained report of the run. */
static wm_status write_html(const char *path, const wm_ptx_module *m,
                            const wm_agg *agg, const wm_ptx_report_opts *ro)
{
    char what[1100];
    snprintf(what, sizeof what, "'%s' (--html)", path);
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_write_error(what, errno);
        return WM_ERR_IO;
    }
    errno = 0;
    wm_status st = wm_ptx_report_html(f, m, agg, ro);
    int e = errno;
    if (fclose(f) != 0) {
        e = errno;
        if (st == WM_OK)
            st = WM_ERR_IO;
    }
    if (st == WM_ERR_IO)
        cli_write_error(what, e);
    else if (st != WM_OK)
        cli_error("--html: %s", wm_status_str(st));
    return st;
}

/* A kernel whose body did not parse: print its error (file:line:col,
   the line and a caret) and return 1. */
static int kernel_broken(const wm_ptx_module *m, size_t k, const char *path,
                         const char *src, size_t n)
{
    wm_diag d;
    if (!wm_ptx_kernel_error(m, k, &d))
        return 0;
    wm_diag_print(stderr, &d, path, src, n);
    fprintf(stderr, "  (kernel %s cannot run; the module's other kernels "
            "can)\n", wm_ptx_kernel_pretty(m, k));
    return 1;
}

/* A fault inside a called function: the kernel's call site. */
static void print_call_site(const char *path, const wm_ptx_fault *ft)
{
    if (!ft->call_ptx_line)
        return;
    fprintf(stderr, "  called from: %s:%u", path, ft->call_ptx_line);
    if (ft->call_line)
        fprintf(stderr, " (source %s:%u)", ft->call_file, ft->call_line);
    fputc('\n', stderr);
}

/* The fault as text on stderr.  The prefix names the PTX line of the
   PTX file; for a .cu input (cu set) it is the .cu source line when the
   fault has one in that file, and the PTX line is said to be one. */
static void print_fault(const wm_ptx_module *m, const char *path, int cu,
                        const wm_ptx_fault *ft, const char *hint)
{
    wm_ptx_where w;
    int have = wm_ptx_where_insn(m, ft->insn, &w);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *fb = strrchr(ft->file, '/') ? strrchr(ft->file, '/') + 1
                                            : ft->file;
    if (cu && ft->line && strcmp(fb, base) == 0)
        fprintf(stderr, "%s:%u: ", path, ft->line);
    else if (cu && ft->ptx_line)
        fprintf(stderr, "%s (PTX line %u): ", path, ft->ptx_line);
    else if (ft->ptx_line)
        fprintf(stderr, "%s:%u: ", path, ft->ptx_line);
    else
        fprintf(stderr, "%s: ", path);
    fprintf(stderr, "%s: %s%s\n",
            ft->status == WM_ERR_LIMIT ? "error" : ft->status == WM_ERR_UNSUPPORTED
                                                       ? "unsupported"
                                                       : "fault",
            ft->msg, hint);
    if (ft->status == WM_ERR_LIMIT && !ft->ptx_line)
        return; /* the whole launch's budget: no block to name */
    fprintf(stderr, "  block (%u,%u,%u), thread (%u,%u,%u) (warp %u, lane %u)\n",
            ft->cta[0], ft->cta[1], ft->cta[2], ft->thread[0], ft->thread[1],
            ft->thread[2], ft->warp, ft->lane);
    if (have && ft->ptx_line)
        fprintf(stderr, "  ptx: %s (PTX line %u)\n", w.text, ft->ptx_line);
    if (ft->line)
        fprintf(stderr, "  source: %s:%u\n", ft->file, ft->line);
    print_call_site(path, ft);
}

static const char *use_name(wm_ptx_use u)
{
    switch (u) {
    case WM_PTX_USE_NONE: return "unused";
    case WM_PTX_USE_VALUE: return "value";
    case WM_PTX_USE_POINTER: return "pointer";
    case WM_PTX_USE_ESCAPES: return "passed on";
    case WM_PTX_USE_TEXTURE: return "texture";
    case WM_PTX_USE_SURFACE: return "surface";
    }
    return "?";
}

static const char *origin_name(wm_ptx_origin o)
{
    switch (o) {
    case WM_PTX_FROM_CUDA: return "CUDA C++";
    case WM_PTX_FROM_TRITON: return "Triton";
    case WM_PTX_FROM_NUMBA: return "numba";
    }
    return "?";
}

/* A parameter's name as listed: "param_3" when it is the kernel's name
   followed by _param_N (what nvcc, Triton and numba all write). */
static const char *short_param(const char *kernel, const char *name)
{
    size_t n = strlen(kernel);
    if (strncmp(name, kernel, n) == 0 && strncmp(name + n, "_param_", 7) == 0)
        return name + n + 1;
    return name;
}

/* --list --format json: the same as one JSON document. */
static int list_kernels_json(const wm_ptx_module *m)
{
    size_t nk = wm_ptx_nkernels(m);
    fputs("{\"target\": ", stdout);
    wm_json_string(stdout, wm_ptx_target(m));
    fputs(", \"kernels\": [", stdout);
    for (size_t k = 0; k < nk; k++) {
        wm_ptx_kernel_info ki;
        wm_ptx_param_info pi[MAX_ARGS * 4];
        size_t np = wm_ptx_kernel_describe(m, k, &ki, pi, NELEMS(pi));
        if (np > NELEMS(pi))
            np = NELEMS(pi);
        fputs(k ? ",\n  {\"name\": " : "\n  {\"name\": ", stdout);
        wm_json_string(stdout, ki.name);
        fputs(", \"display\": ", stdout);
        wm_json_string(stdout, ki.display);
        fputs(", \"signature\": ", stdout);
        wm_json_string(stdout, ki.signature);
        wm_diag d;
        if (wm_ptx_kernel_error(m, k, &d)) {
            char e[sizeof d.msg + 32];
            snprintf(e, sizeof e, "line %d:%d: %s", d.line, d.col, d.msg);
            fputs(", \"error\": ", stdout);
            wm_json_string(stdout, e);
        }
        printf(", \"origin\": \"%s\", \"static_smem\": %zu, \"dynamic_smem\": "
               "%s, \"arguments\": %zu, \"params\": [",
               ki.origin == WM_PTX_FROM_TRITON  ? "triton"
               : ki.origin == WM_PTX_FROM_NUMBA ? "numba"
                                                : "cuda",
               ki.static_smem, ki.dyn_smem ? "true" : "false", ki.ngroups);
        for (size_t i = 0; i < np; i++) {
            const wm_ptx_param_info *p = &pi[i];
            fputs(i ? ", {\"name\": " : "{\"name\": ", stdout);
            wm_json_string(stdout, p->name);
            fputs(", \"type\": ", stdout);
            wm_json_string(stdout, p->type);
            printf(", \"size\": %zu, \"offset\": %zu, \"ptr\": %s, \"use\": "
                   "\"%s\", \"added\": %s, \"argument\": %ld, \"role\": ",
                   p->size, p->offset, p->declared_ptr ? "true" : "false",
                   use_name(p->use), p->added ? "true" : "false", p->group);
            wm_json_string(stdout, p->role);
            fputs(", \"source_type\": ", stdout);
            wm_json_string(stdout, p->ctype);
            fputc('}', stdout);
        }
        fputs("]}", stdout);
    }
    fputs("]}\n", stdout);
    return WM_EXIT_OK;
}

/* --list: every kernel, its signature and each parameter. */
static int list_kernels(const wm_ptx_module *m)
{
    size_t nk = wm_ptx_nkernels(m);
    const char *target = wm_ptx_target(m);
    for (size_t k = 0; k < nk; k++) {
        wm_ptx_kernel_info ki;
        wm_ptx_param_info pi[MAX_ARGS * 4];
        size_t np = wm_ptx_kernel_describe(m, k, &ki, pi, NELEMS(pi));
        if (np > NELEMS(pi))
            np = NELEMS(pi);
        printf("%skernel %s\n", k ? "\n" : "", ki.signature);
        printf("  ptx name %s; %s; %s%s\n", ki.name, origin_name(ki.origin),
               *target ? ".target " : "no .target", target);
        wm_diag d;
        if (wm_ptx_kernel_error(m, k, &d))
            printf("  cannot run: line %d:%d: %s\n", d.line, d.col, d.msg);
        if (ki.static_smem || ki.dyn_smem)
            printf("  shared memory: %zu bytes static%s\n", ki.static_smem,
                   ki.dyn_smem ? ", plus dynamic (extern): pass --smem BYTES"
                               : "");
        if (np)
            printf("  %3s  %-10s %-9s %5s  %-9s %s\n", "#", "name", "type",
                   "bytes", "use", "source");
        size_t added = 0;
        for (size_t i = 0; i < np; i++) {
            const wm_ptx_param_info *p = &pi[i];
            char type[24];
            snprintf(type, sizeof type, "%s%s", p->type,
                     p->declared_ptr ? " .ptr" : "");
            char src[160];
            if (*p->role && *p->ctype)
                snprintf(src, sizeof src, "%s: %s", p->role, p->ctype);
            else
                snprintf(src, sizeof src, "%s", *p->role ? p->role : p->ctype);
            if (p->added) {
                size_t l = strlen(src);
                snprintf(src + l, sizeof src - l, " (added by %s)",
                         origin_name(ki.origin));
                added++;
            }
            printf("  %3zu  %-10s %-9s %5zu  %-9s %s\n", i,
                   short_param(ki.name, p->name), type, p->size,
                   use_name(p->use), src);
        }
        if (ki.origin == WM_PTX_FROM_TRITON && ki.ngroups < np)
            printf("  --arg: %zu (the %zu scratch pointers Triton adds are "
                   "passed as null when left out)\n",
                   ki.ngroups, np - ki.ngroups);
        else if (ki.origin == WM_PTX_FROM_NUMBA && ki.ngroups < np)
            printf("  --arg: %zu, one TYPE[N] or TYPE[N0xN1...] per array "
                   "(warpmem fills the %zu parameters numba adds), or all "
                   "%zu\n",
                   ki.ngroups, added, np);
        else
            printf("  --arg: %zu, one per parameter\n", np);
    }
    return WM_EXIT_OK;
}

/*
 * Map the --arg specs onto the kernel's parameters: one spec per
 * parameter, or one per source-level argument (numba arrays expand to
 * meminfo, parent, nitems, itemsize, data, shape, strides; Triton's
 * scratch pointers become null).  Checks every spec against its
 * parameter.  out[np] receives the launch arguments.  1 or 0 after a
 * usage error.
 */
static int map_args(const wm_ptx_kernel_info *ki, const wm_ptx_param_info *pi,
                    size_t np, const run_arg *specs, size_t nspecs,
                    wm_ptx_arg *out)
{
    memset(out, 0, np * sizeof *out);
    if (nspecs == np) {
        for (size_t i = 0; i < np; i++) {
            if (!run_arg_check(&specs[i], i, &pi[i]))
                return 0;
            out[i] = run_arg_launch(&specs[i]);
        }
        return 1;
    }
    if (nspecs != ki->ngroups || ki->ngroups == np) {
        if (ki->ngroups != np)
            cli_usage_error("kernel %s takes %zu arguments (%zu PTX "
                            "parameters), %zu --arg given (see --list)",
                            ki->display, ki->ngroups, np, nspecs);
        else
            cli_usage_error("kernel %s takes %zu parameters, %zu --arg given",
                            ki->display, np, nspecs);
        return 0;
    }
    size_t i = 0;
    for (size_t g = 0; g < nspecs; g++) {
        while (i < np && pi[i].group < 0) {
            out[i].size = (unsigned)pi[i].size; /* scratch: null */
            i++;
        }
        const run_arg *a = &specs[g];
        if (i < np && pi[i].elem != WM_PTX_NTYPES && pi[i].group == (long)g) {
            /* numba array: 5 + 2 * ndim parameters */
            size_t n = 0;
            while (i + n < np && pi[i + n].group == (long)g)
                n++;
            unsigned nd = (unsigned)(n - 5) / 2;
            size_t esz = wm_ptx_type_size(pi[i].elem);
            if (a->form != RUN_ARG_BUFFER || a->type != pi[i].elem ||
                (a->ndims != nd && !(a->ndims == 1 && nd == 1))) {
                cli_usage_error("--arg %zu: %s given for numba array %s "
                                "(%s, %u-D: pass %s[N%s])",
                                g, a->text, pi[i + 4].role, pi[i + 4].ctype, nd,
                                wm_ptx_type_name(pi[i].elem),
                                nd > 1 ? "0xN1..." : "");
                return 0;
            }
            uint64_t vals[5] = {0, 0, a->count, esz, 0};
            for (size_t j = 0; j < n; j++) {
                out[i + j].size = 8;
                if (j == 4)
                    out[i + j] = run_arg_launch(a);
                else if (j < 5)
                    out[i + j].scalar = vals[j];
                else if (j < 5 + nd)
                    out[i + j].scalar = a->dims[j - 5];
                else {
                    uint64_t st = esz;
                    for (size_t d = j - 5 - nd + 1; d < nd; d++)
                        st *= a->dims[d];
                    out[i + j].scalar = st;
                }
            }
            i += n;
            continue;
        }
        if (i >= np || !run_arg_check(a, g, &pi[i]))
            return 0;
        out[i++] = run_arg_launch(a);
    }
    for (; i < np; i++)
        out[i].size = (unsigned)pi[i].size;
    return 1;
}

int wm_cmd_run(int argc, char **argv)
{
    const char *input = NULL, *kname = NULL, *v;
    const char *arch_name = NULL;
    unsigned grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    int have_grid = 0, have_block = 0, list = 0, lazy = 1;
    cli_output output;
    int64_t smem = 0, draw = 2, jobs = 0, max_steps = WM_LIMIT_CTA_STEPS;
    int64_t max_total = (int64_t)WM_LIMIT_TOTAL_STEPS;
    run_arg args[MAX_ARGS];
    size_t nargs = 0, ntex = 0;
    wm_ptx_texture textures[MAX_ARGS];
    const char *nvcc_flags[CLI_MAX_NVCC_FLAGS];
    size_t nflags = 0;
    run_values rv;
    memset(&rv, 0, sizeof rv);
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.ctas = WM_PTX_CTAS_ALL;
    cli_output_init(&output);
    cli_cache cache_opt;
    cli_cache_init(&cache_opt);
    run_check rchk;
    run_check_init(&rchk);
    cli_compare_opts compare_opt;
    cli_compare_init(&compare_opt);
    int rc = WM_EXIT_USAGE;
    char *src = NULL;
    wm_ptx_module *m = NULL;
    wm_agg *agg = NULL;
    wm_ptx_arg *pargs = NULL;
    wm_ptx_param_info *pinfo = NULL;

    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            rc = WM_EXIT_OK;
            goto out;
        } else if (strcmp(argv[i], "--") == 0) {
            /* the rest goes to nvcc */
            for (i++; i < argc; i++) {
                if (nflags >= CLI_MAX_NVCC_FLAGS) {
                    cli_usage_error("--: at most %d nvcc arguments",
                                    CLI_MAX_NVCC_FLAGS);
                    goto out;
                }
                nvcc_flags[nflags++] = argv[i];
            }
            break;
        } else if ((r = cli_opt(argc, argv, &i, "--nvcc-flag", NULL, &v))) {
            if (r < 0)
                goto out;
            if (nflags >= CLI_MAX_NVCC_FLAGS) {
                cli_usage_error("--nvcc-flag: at most %d", CLI_MAX_NVCC_FLAGS);
                goto out;
            }
            nvcc_flags[nflags++] = v;
        } else if ((r = cli_opt(argc, argv, &i, "--kernel", "-k", &v))) {
            if (r < 0)
                goto out;
            kname = v;
        } else if ((r = cli_opt(argc, argv, &i, "--grid", NULL, &v))) {
            if (r < 0 || !cli_parse_dims("--grid", v, grid))
                goto out;
            have_grid = 1;
        } else if ((r = cli_opt(argc, argv, &i, "--block", NULL, &v))) {
            if (r < 0 || !cli_parse_dims("--block", v, block))
                goto out;
            have_block = 1;
        } else if ((r = cli_opt(argc, argv, &i, "--smem", NULL, &v))) {
            if (r < 0 || !cli_parse_i64("--smem", v, 0, 1 << 30, &smem))
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--arg", "-a", &v))) {
            if (r < 0)
                goto out;
            if (nargs >= MAX_ARGS) {
                cli_usage_error("--arg: at most %d arguments", MAX_ARGS);
                goto out;
            }
            if (run_tex_is(v)) { /* tex2d:...: run_tex.c */
                if (!run_tex_parse(v, &args[nargs], ntex++)) {
                    run_arg_free(&args[nargs]);
                    goto out;
                }
            } else if (rv_is_value(v)) { /* by-value: run_value.c */
                memset(&args[nargs], 0, sizeof args[nargs]);
                args[nargs].text = v;
                args[nargs].form = RUN_ARG_VALUE;
                if (!rv_value_arg(v, &args[nargs].value, &rv))
                    goto out;
            } else if (!run_arg_parse(v, &args[nargs])) {
                if (args[nargs].nomem)
                    rc = WM_EXIT_ERR; /* not a usage error */
                run_arg_free(&args[nargs]);
                goto out;
            }
            nargs++;
        } else if ((r = cli_opt(argc, argv, &i, "--global", NULL, &v))) {
            if (r < 0 || !rv_global(v, &rv))
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--ctas", NULL, &v))) {
            if (r < 0)
                goto out;
            if (strcmp(v, "all") == 0) {
                l.ctas = WM_PTX_CTAS_ALL;
            } else if (strncmp(v, "first:", 6) == 0) {
                int64_t n;
                if (!cli_parse_i64("--ctas first:N", v + 6, 1, INT64_MAX, &n))
                    goto out;
                l.ctas = WM_PTX_CTAS_FIRST;
                l.ctas_n = (uint64_t)n;
            } else if (strncmp(v, "sample:", 7) == 0) {
                char kbuf[32];
                const char *comma = strchr(v + 7, ',');
                size_t kl = comma ? (size_t)(comma - (v + 7)) : strlen(v + 7);
                int64_t n, seed = 1;
                if (kl >= sizeof kbuf) {
                    cli_usage_error("--ctas: '%s' is not sample:K[,SEED]", v);
                    goto out;
                }
                memcpy(kbuf, v + 7, kl);
                kbuf[kl] = 0;
                if (!cli_parse_i64("--ctas sample:K", kbuf, 1, INT64_MAX, &n) ||
                    (comma && !cli_parse_i64("--ctas seed", comma + 1, 0,
                                             INT64_MAX, &seed)))
                    goto out;
                l.ctas = WM_PTX_CTAS_SAMPLE;
                l.ctas_n = (uint64_t)n;
                l.seed = (uint64_t)seed;
            } else {
                cli_usage_error("--ctas: '%s' is not all, first:N or "
                                "sample:K[,SEED]",
                                v);
                goto out;
            }
        } else if ((r = cli_opt(argc, argv, &i, "--max-total-steps", NULL,
                                &v))) {
            if (r < 0 || !cli_parse_i64("--max-total-steps", v, 0, INT64_MAX,
                                        &max_total))
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--max-steps", NULL, &v))) {
            if (r < 0 || !cli_parse_i64("--max-steps", v, 1, INT64_MAX, &max_steps))
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--jobs", "-j", &v))) {
            if (r < 0 || !cli_parse_i64("-j", v, 1, 256, &jobs))
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--arch", NULL, &v))) {
            if (r < 0)
                goto out;
            arch_name = v;
        } else if ((r = cli_output_opt(argc, argv, &i, &output))) {
            if (r < 0)
                goto out;
        } else if ((r = cli_cache_opt(argc, argv, &i, &cache_opt))) {
            if (r < 0)
                goto out;
        } else if ((r = run_check_opt(argc, argv, &i, &rchk))) {
            if (r < 0)
                goto out;
        } else if ((r = cli_compare_opt(argc, argv, &i, &compare_opt))) {
            if (r < 0)
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--draw", NULL, &v))) {
            if (r < 0 || !cli_parse_i64("--draw", v, 0, 1000, &draw))
                goto out;
        } else if ((r = cli_opt(argc, argv, &i, "--fill", NULL, &v))) {
            if (r < 0)
                goto out;
            if (strcmp(v, "lazy") != 0 && strcmp(v, "eager") != 0) {
                cli_usage_error("--fill: '%s' is not lazy or eager", v);
                goto out;
            }
            lazy = strcmp(v, "lazy") == 0;
        } else if (cli_flag(argv, i, "--list", NULL)) {
            list = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_usage_error("run: unknown option '%s'", argv[i]);
            goto out;
        } else if (!input) {
            input = argv[i];
        } else {
            cli_usage_error("run: unexpected argument '%s'", argv[i]);
            goto out;
        }
    }
    /* every refusal of the command line comes before any work */
    if (!input) {
        cli_usage_error("run: no kernel file (try 'warpmem run --help')");
        goto out;
    }
    wm_arch arch;
    if (!cli_parse_arch(arch_name, &arch))
        goto out;
    if (!cli_output_check(&output))
        goto out;
    if (!list && (!have_grid || !have_block)) {
        cli_usage_error("run: --grid and --block are required");
        goto out;
    }
    size_t len = strlen(input);
    int is_cu = len > 3 && strcmp(input + len - 3, ".cu") == 0;
    if (nflags && !is_cu) {
        cli_usage_error("run: nvcc flags (--nvcc-flag, --) need a .cu input, "
                        "not '%s'",
                        input);
        goto out;
    }

    /* load (and compile) the kernel */
    rc = WM_EXIT_ERR;
    char tmp[512] = "";
    const char *ptx_path = input;
    if (is_cu) {
        if (!cli_compile_cu(input, arch_name ? arch.sm : 80, nvcc_flags, nflags,
                        tmp, sizeof tmp))
            goto out;
        ptx_path = tmp;
    }
    size_t n = 0;
    src = wm_read_file(ptx_path, &n);
    if (!src) {
        cli_error("cannot read '%s': %s", input, wm_read_error(errno));
        if (*tmp)
            unlink(tmp);
        goto out;
    }
    if (*tmp)
        unlink(tmp);
    wm_diag d;
    if (wm_ptx_parse(src, n, input, &m, &d) != WM_OK) {
        wm_diag_print(stderr, &d, *tmp ? "(nvcc output)" : input, src, n);
        goto out;
    }
    if (list) {
        rc = output.format == WM_FMT_JSON ? list_kernels_json(m)
                                          : list_kernels(m);
        goto out;
    }
    rc = WM_EXIT_USAGE;
    size_t cand[16];
    size_t nc = wm_ptx_match_kernels(m, kname, cand, NELEMS(cand));
    if (nc != 1) {
        if (nc == 0)
            cli_usage_error("%s: no kernel '%s' (see --list)", input,
                            kname ? kname : "");
        else if (!kname)
            cli_usage_error("%s has %zu kernels: name one with --kernel (see "
                            "--list)",
                            input, nc);
        else
            cli_usage_error("%s: '%s' matches %zu kernels; name one of them:",
                            input, kname, nc);
        for (size_t i = 0; nc > 1 && i < nc && i < NELEMS(cand); i++) {
            wm_ptx_kernel_info ki;
            wm_ptx_kernel_describe(m, cand[i], &ki, NULL, 0);
            fprintf(stderr, "  %s\n", ki.display);
        }
        goto out;
    }
    size_t k = cand[0];
    if (kernel_broken(m, k, input, src, n)) {
        rc = WM_EXIT_ERR;
        goto out;
    }

    /* the profile: --arch, else the module's .target */
    const char *target = wm_ptx_target(m);
    const wm_arch *ta = wm_arch_for_target(target);
    char arch_note[96];
    if (!arch_name && ta) {
        arch = *ta;
        snprintf(arch_note, sizeof arch_note, "%s (from .target %s)",
                 arch.name, target);
    } else if (arch_name) {
        if (ta && ta->sm != arch.sm)
            fprintf(stderr, "warpmem: warning: --arch %s overrides the "
                            "module's .target %s\n",
                    arch.name, target);
        snprintf(arch_note, sizeof arch_note, "%s (--arch)", arch.name);
    } else {
        snprintf(arch_note, sizeof arch_note, "%s (default: %s)", arch.name,
                 *target ? "no profile for the .target" : "no .target");
    }

    wm_ptx_kernel_info ki;
    size_t np = wm_ptx_kernel_describe(m, k, &ki, NULL, 0);
    pinfo = calloc(np ? np : 1, sizeof *pinfo);
    pargs = calloc(np ? np : 1, sizeof *pargs);
    if (!pinfo || !pargs || !ki.name ||
        wm_ptx_kernel_describe(m, k, &ki, pinfo, np) != np) {
        cli_error("out of memory");
        rc = WM_EXIT_ERR;
        goto out;
    }
    /* check every spec against its parameter before allocating: the
       buffers are not made yet, so this maps only types and sizes */
    if (!map_args(&ki, pinfo, np, args, nargs, pargs))
        goto out;
    memcpy(l.grid, grid, sizeof grid);
    memcpy(l.block, block, sizeof block);
    l.dyn_smem = (size_t)smem;
    wm_ptx_fault lf;
    if (wm_ptx_launch_check(m, k, &l, &lf) != WM_OK) {
        cli_usage_error("%s", lf.msg);
        goto out;
    }
    rc = WM_EXIT_ERR;
    for (size_t i = 0; i < nargs; i++)
        if (!run_arg_check_file(&args[i]))
            goto out;
    if (rchk.given)
        lazy = 0; /* the schedule comparison copies every buffer */
    for (size_t i = 0; i < nargs; i++)
        if (!run_arg_alloc(&args[i], lazy))
            goto out;
    if (!map_args(&ki, pinfo, np, args, nargs, pargs)) {
        rc = WM_EXIT_USAGE;
        goto out;
    }
    memcpy(l.grid, grid, sizeof grid);
    memcpy(l.block, block, sizeof block);
    l.dyn_smem = (size_t)smem;
    l.args = pargs;
    l.nargs = np;
    rv_finish(&rv, np); /* extra buffers follow the np parameters */
    l.extra = rv.extra;
    l.nextra = rv.nextra;
    l.globals = rv.globals;
    l.nglobals = rv.nglobals;
    l.ntextures = run_tex_collect(args, nargs, textures);
    l.textures = textures;
    l.max_steps = (uint64_t)max_steps;
    l.max_total_steps = (uint64_t)max_total;
    l.threads = (unsigned)jobs;
    progress_state ps = {now_s(), 0};
    if (isatty(2)) {
        l.progress = on_progress;
        l.progress_ud = &ps;
    }
    agg = wm_agg_new(&arch);
    if (!agg) {
        cli_error("out of memory");
        goto out;
    }
    int cache_failed;
    l.cache = cli_cache_new(&cache_opt, &arch,
                            (uint64_t)block[0] * block[1] * block[2],
                            wm_ptx_kernel_smem(m, (size_t)k, (uint64_t)smem),
                            &cache_failed);
    if (cache_failed) {
        rc = WM_EXIT_USAGE;
        goto out;
    }
    int check_oom;
    l.check = run_check_setup(&rchk, args, nargs, pargs, np, &check_oom);
    if (check_oom) {
        cli_error("out of memory");
        goto out;
    }
    wm_ptx_result res;
    wm_ptx_fault ft;
    wm_status st = wm_ptx_run(m, k, &l, agg, &res, &ft);
    if (ps.shown)
        fputs("\r\x1b[K", stderr);
    if (st == WM_ERR_ARG) {
        cli_usage_error("%s", ft.msg);
        rc = WM_EXIT_USAGE;
        goto out;
    }
    if (st != WM_OK && st != WM_ERR_FAULT && st != WM_ERR_LIMIT &&
        st != WM_ERR_UNSUPPORTED) {
        cli_error("%s", wm_status_str(st));
        goto out;
    }
    int faulted = st != WM_OK;
    const char *hint = "";
    if (faulted && !smem && ki.dyn_smem && strstr(ft.msg, "out-of-bounds shared"))
        hint = "; the kernel uses dynamic shared memory: pass --smem BYTES";
    /* :out= buffers are written even after a fault (the state the kernel
       left), so a failing kernel can be looked at */
    const char *written[MAX_ARGS];
    size_t nwritten = 0;
    rc = WM_EXIT_OK;
    for (size_t i = 0; i < nargs; i++) {
        if (!args[i].out)
            continue;
        if (!run_arg_write(&args[i]))
            rc = WM_EXIT_ERR;
        else
            written[nwritten++] = args[i].out;
    }
    if (!rv_write(&rv)) /* --global and struct-field :out= files */
        rc = WM_EXIT_ERR;
    wm_ptx_report_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.format = output.format;
    ro.color = output.color;
    ro.width = cli_term_width();
    ro.draw_top = (unsigned)draw;
    ro.ptx_path = input;
    ro.kernel = ki.display;
    ro.res = &res;
    ro.explain = output.explain;
    ro.arch = arch_note;
    ro.fault = faulted ? &ft : NULL;
    ro.fault_hint = hint;
    ro.written = written;
    ro.nwritten = nwritten;
    ro.check = l.check;
    /* --check: the hazards after the text report, in the JSON document,
       on stderr beside a CSV table */
    FILE *check_out = ro.format == WM_FMT_TEXT ? stdout : stderr;
    memcpy(ro.grid, l.grid, sizeof ro.grid);
    memcpy(ro.block, l.block, sizeof ro.block);
    char cmd[2048];
    cli_command_line(argc, argv, cmd, sizeof cmd);
    ro.command = cmd;
    if (faulted) {
        print_fault(m, input, is_cu, &ft, hint);
        for (size_t i = 0; i < nwritten; i++)
            fprintf(stderr, "warpmem: note: wrote %s as the kernel left it "
                            "at the fault\n",
                    written[i]);
        wm_status rst = wm_ptx_report(stdout, m, agg, &ro);
        if (rst != WM_OK && rst != WM_ERR_IO) /* IO: said at the end */
            cli_error("report: %s", wm_status_str(rst));
        if (ro.format != WM_FMT_JSON)
            wm_ptx_check_print(check_out, m, l.check);
        rc = WM_EXIT_ERR;
        goto out;
    }
    ro.cache = l.cache; /* JSON/CSV/ncu: the report carries the model */
    wm_status rst = wm_ptx_report(stdout, m, agg, &ro);
    if (rst == WM_ERR_IO) /* "cannot write standard output" at the end */
        rc = WM_EXIT_ERR;
    else if (rst != WM_OK)
        rc = cli_error("report: %s", wm_status_str(rst));
    if (l.cache && ro.format == WM_FMT_TEXT)
        wm_cache_report(stdout, l.cache, agg, WM_FMT_TEXT);
    if (ro.format != WM_FMT_JSON)
        wm_ptx_check_print(check_out, m, l.check);
    if (run_check_found(&rchk))
        rc = WM_EXIT_ERR;
    if (rc == WM_EXIT_OK)
        rc = cli_compare_run(&compare_opt, m, agg, &ro);
    if (output.html && write_html(output.html, m, agg, &ro) != WM_OK)
        rc = WM_EXIT_ERR;
    if (rc == WM_EXIT_OK)
        for (size_t i = 0; i < nargs; i++)
            if (args[i].inout && args[i].input) {
                size_t changed = 0, esz = wm_ptx_type_size(args[i].type);
                for (size_t e = 0; e < args[i].count; e++)
                    changed += memcmp((char *)args[i].buf + e * esz,
                                      (char *)args[i].input + e * esz, esz) != 0;
                fprintf(stderr, "warpmem: --arg %zu (in-out): %zu of %llu "
                                "elements changed\n",
                        i, changed, (unsigned long long)args[i].count);
            }
out:
    wm_agg_free(agg);
    wm_cache_free(l.cache);
    wm_ptx_free(m);
    free(src);
    free(pargs);
    free(pinfo);
    for (size_t i = 0; i < nargs; i++)
        run_arg_free(&args[i]);
    rv_free(&rv);
    run_check_free(&rchk);
    return rc;
}
