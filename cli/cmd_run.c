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
#include "sass_tool.h"

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
    double t0, last; /* the run's start, the last line's time */
    int shown;
} progress_state;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A run that ends within 2 s shows nothing: the line is for the runs
   a user waits on. */
static void on_progress(void *ud, uint64_t done, uint64_t total)
{
    progress_state *p = ud;
    double elapsed = now_s() - p->t0;
    if (elapsed < 2.0 || (p->shown && elapsed - p->last < 0.1))
        return;
    p->last = elapsed;
    char line[160];
    cli_progress_text(line, sizeof line, done, total, elapsed);
    fprintf(stderr, "\r%s\x1b[K", line);
    fflush(stderr);
    p->shown = 1;
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

/* Check spec a (--arg number i) against parameter p: a texture or surface
   by run_tex.c, any other by run_args.c.  1 or 0 after a usage error. */
static int check_arg(const run_arg *a, size_t i, const wm_ptx_param_info *p)
{
    return a->form == RUN_ARG_TEX ? run_tex_check(a, i, p)
                                  : run_arg_check(a, i, p);
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
            if (!check_arg(&specs[i], i, &pi[i]))
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
        if (i >= np || !check_arg(a, g, &pi[i]))
            return 0;
        out[i++] = run_arg_launch(a);
    }
    for (; i < np; i++)
        out[i].size = (unsigned)pi[i].size;
    return 1;
}

/* A step's result when the command goes on to the next step; any other
   result is the exit status. */
enum { RUN_NEXT = -1 };

/* The progress line: on a terminal (the default), always, never. */
enum { RUN_PROGRESS_TTY, RUN_PROGRESS_ON, RUN_PROGRESS_OFF };

/* The command line of one run.  The --arg specs, the by-value and
   --global state and the check options own memory: run_free. */
typedef struct run_opts {
    const char *input, *kname, *arch_name;
    wm_arch arch; /* --arch; the module's .target may replace the default */
    int is_cu;    /* input is a .cu source, compiled with nvcc */
    unsigned grid[3], block[3], cluster[3];
    int have_grid, have_block, list, lazy, cluster_np, coop;
    int progress; /* RUN_PROGRESS_*: --progress, --no-progress */
    int level;    /* --level: CLI_LEVEL_* (sass_tool.h) */
    cli_output output;
    int ci; /* --format sarif: the findings as a SARIF log instead */
    int64_t smem, draw, jobs, max_steps, max_total;
    wm_ptx_ctas ctas; /* --ctas, copied into the launch */
    uint64_t ctas_n, seed;
    run_arg args[MAX_ARGS];
    size_t nargs, ntex;
    const char *nvcc_flags[CLI_MAX_NVCC_FLAGS];
    size_t nflags;
    int nomem; /* an --arg failed for want of memory */
    run_values rv;
    cli_cache cache;
    run_check rchk;
    cli_compare_opts compare;
} run_opts;

/* What the run makes, step by step: the module, the kernel and its
   parameters, the launch, the aggregator and the result (run_free). */
typedef struct run_state {
    char *src; /* the PTX text */
    size_t n;
    wm_ptx_module *m;
    size_t k; /* the kernel */
    wm_ptx_kernel_info ki;
    wm_ptx_param_info *pinfo; /* the kernel's np parameters ... */
    wm_ptx_arg *pargs;        /* ... and their launch arguments */
    size_t np;
    char arch_note[96]; /* the profile and where it came from */
    wm_ptx_launch l;
    wm_ptx_texture textures[MAX_ARGS];
    progress_state ps;
    wm_agg *agg;
    wm_ptx_result res;
    wm_ptx_fault ft;
    int faulted;      /* the run stopped at ft */
    const char *hint; /* appended to the fault's message */
    cli_stage out;    /* every output file (out_stage.h) */
    cli_sass sass;    /* SASS level: the module's SASS, the kernel's plan */
} run_state;

/* Every option at its default. */
static void opts_init(run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->lazy = RUN_FILL_AUTO;
    o->draw = 2;
    o->max_steps = WM_LIMIT_CTA_STEPS;
    o->max_total = (int64_t)WM_LIMIT_TOTAL_STEPS;
    o->ctas = WM_PTX_CTAS_ALL;
    cli_output_init(&o->output);
    cli_cache_init(&o->cache);
    run_check_init(&o->rchk);
    cli_compare_init(&o->compare);
}

/* Try argv[*i] as --nvcc-flag, --kernel, --grid, --block or --smem: 1
   taken, 0 not one of them, -1 after a usage error. */
static int kernel_opt(int argc, char **argv, int *i, run_opts *o)
{
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--nvcc-flag", NULL, &v))) {
        if (r < 0)
            return -1;
        if (o->nflags >= CLI_MAX_NVCC_FLAGS) {
            cli_usage_error("--nvcc-flag: at most %d", CLI_MAX_NVCC_FLAGS);
            return -1;
        }
        o->nvcc_flags[o->nflags++] = v;
    } else if ((r = cli_opt(argc, argv, i, "--kernel", "-k", &v))) {
        if (r < 0)
            return -1;
        o->kname = v;
    } else if ((r = cli_opt(argc, argv, i, "--grid", NULL, &v))) {
        if (r < 0 || !cli_parse_dims("--grid", v, o->grid))
            return -1;
        o->have_grid = 1;
    } else if ((r = cli_opt(argc, argv, i, "--block", NULL, &v))) {
        if (r < 0 || !cli_parse_dims("--block", v, o->block))
            return -1;
        o->have_block = 1;
    } else if ((r = cli_opt(argc, argv, i, "--smem", NULL, &v))) {
        if (r < 0 || !cli_parse_i64("--smem", v, 0, 1 << 30, &o->smem))
            return -1;
    } else if ((r = cli_opt(argc, argv, i, "--level", NULL, &v))) {
        if (r < 0 || !cli_sass_parse_level("--level", v, &o->level))
            return -1;
    } else if ((r = cli_opt(argc, argv, i, "--cluster", NULL, &v))) {
        if (r < 0 || !cli_parse_dims("--cluster", v, o->cluster))
            return -1;
    } else if (strcmp(argv[*i], "--cluster-nonportable") == 0) {
        o->cluster_np = 1;
        r = 1;
    } else if (strcmp(argv[*i], "--cooperative") == 0) {
        o->coop = 1;
        r = 1;
    } else if (strcmp(argv[*i], "--progress") == 0) {
        o->progress = RUN_PROGRESS_ON;
        r = 1;
    } else if (strcmp(argv[*i], "--no-progress") == 0) {
        o->progress = RUN_PROGRESS_OFF;
        r = 1;
    }
    return r;
}

/* Try argv[*i] as --arg SPEC: 1 taken, 0 not --arg, -1 after an error
   (with o->nomem set when it is no usage error).  A spec that fails is
   not counted, and what it allocated is freed here (by-value forms: with
   o->rv). */
static int arg_opt(int argc, char **argv, int *i, run_opts *o)
{
    const char *v;
    int r = cli_opt(argc, argv, i, "--arg", "-a", &v);
    if (r <= 0)
        return r;
    if (o->nargs >= MAX_ARGS) {
        cli_usage_error("--arg: at most %d arguments", MAX_ARGS);
        return -1;
    }
    run_arg *a = &o->args[o->nargs];
    if (run_tex_is(v)) { /* tex2d:...: run_tex.c */
        if (!run_tex_parse(v, a, o->ntex++)) {
            run_arg_free(a);
            return -1;
        }
    } else if (rv_is_value(v)) { /* by-value: run_value.c */
        memset(a, 0, sizeof *a);
        a->text = v;
        a->form = RUN_ARG_VALUE;
        int ok = strncmp(v, "tmap:", 5) == 0 /* run_tmap.c */
                     ? rv_tmap_arg(v, &a->value, &o->rv)
                     : rv_value_arg(v, &a->value, &o->rv);
        if (!ok)
            return -1;
    } else if (!run_arg_parse(v, a)) {
        if (a->nomem)
            o->nomem = 1; /* not a usage error */
        run_arg_free(a);
        return -1;
    }
    o->nargs++;
    return 1;
}

/* --ctas all | first:N | sample:K[,SEED].  1, or 0 after a usage
   error. */
static int parse_ctas(const char *v, run_opts *o)
{
    char flag[300]; /* the whole value in the number parsers' messages */
    snprintf(flag, sizeof flag, "--ctas '%.280s'", v);
    if (strcmp(v, "all") == 0) {
        o->ctas = WM_PTX_CTAS_ALL;
    } else if (strncmp(v, "first:", 6) == 0) {
        int64_t n;
        if (!cli_parse_i64(flag, v + 6, 1, INT64_MAX, &n))
            return 0;
        o->ctas = WM_PTX_CTAS_FIRST;
        o->ctas_n = (uint64_t)n;
    } else if (strncmp(v, "sample:", 7) == 0) {
        char kbuf[32];
        const char *comma = strchr(v + 7, ',');
        size_t kl = comma ? (size_t)(comma - (v + 7)) : strlen(v + 7);
        int64_t n, seed = 1;
        if (kl >= sizeof kbuf) {
            cli_usage_error("--ctas: '%s' is not sample:K[,SEED]", v);
            return 0;
        }
        memcpy(kbuf, v + 7, kl);
        kbuf[kl] = 0;
        if (!cli_parse_i64(flag, kbuf, 1, INT64_MAX, &n) ||
            (comma && !cli_parse_i64(flag, comma + 1, 0, INT64_MAX, &seed)))
            return 0;
        o->ctas = WM_PTX_CTAS_SAMPLE;
        o->ctas_n = (uint64_t)n;
        o->seed = (uint64_t)seed;
    } else {
        cli_usage_error("--ctas: '%s' is not all, first:N or "
                        "sample:K[,SEED]",
                        v);
        return 0;
    }
    return 1;
}

/* Try argv[*i] as --global, --ctas, --max-total-steps, --max-steps,
   --jobs or --arch: 1 taken, 0 not one of them, -1 after a usage
   error. */
static int launch_opt(int argc, char **argv, int *i, run_opts *o)
{
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--global", NULL, &v))) {
        if (r < 0 || !rv_global(v, &o->rv))
            return -1;
    } else if ((r = cli_opt(argc, argv, i, "--ctas", NULL, &v))) {
        if (r < 0 || !parse_ctas(v, o))
            return -1;
    } else if ((r = cli_opt(argc, argv, i, "--max-total-steps", NULL, &v))) {
        if (r < 0 ||
            !cli_parse_i64("--max-total-steps", v, 0, INT64_MAX, &o->max_total))
            return -1;
    } else if ((r = cli_opt(argc, argv, i, "--max-steps", NULL, &v))) {
        if (r < 0 ||
            !cli_parse_i64("--max-steps", v, 1, INT64_MAX, &o->max_steps))
            return -1;
    } else if ((r = cli_opt(argc, argv, i, "--jobs", "-j", &v))) {
        if (r < 0 || !cli_parse_i64("-j", v, 1, 256, &o->jobs))
            return -1;
    } else if ((r = cli_opt(argc, argv, i, "--arch", NULL, &v))) {
        if (r < 0)
            return -1;
        o->arch_name = v;
    }
    return r;
}

/* Try argv[*i] as --draw or --fill: 1 taken, 0 neither, -1 after a
   usage error. */
static int report_opt(int argc, char **argv, int *i, run_opts *o)
{
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--draw", NULL, &v))) {
        if (r < 0 || !cli_parse_i64("--draw", v, 0, 1000, &o->draw))
            return -1;
    } else if ((r = cli_opt(argc, argv, i, "--fill", NULL, &v))) {
        if (r < 0)
            return -1;
        if (strcmp(v, "lazy") != 0 && strcmp(v, "eager") != 0) {
            cli_usage_error("--fill: '%s' is not lazy or eager", v);
            return -1;
        }
        o->lazy = strcmp(v, "lazy") == 0 ? RUN_FILL_LAZY : RUN_FILL_EAGER;
    }
    return r;
}

/* The command line into o, in order, so that --help after a bad option
   is not reached.  RUN_NEXT, or the exit status after --help or an
   error. */
static int parse_args(int argc, char **argv, run_opts *o)
{
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return WM_EXIT_OK;
        } else if (strcmp(argv[i], "--") == 0) {
            /* the rest goes to nvcc */
            for (i++; i < argc; i++) {
                if (o->nflags >= CLI_MAX_NVCC_FLAGS)
                    return cli_usage_error("--: at most %d nvcc arguments",
                                           CLI_MAX_NVCC_FLAGS);
                o->nvcc_flags[o->nflags++] = argv[i];
            }
            break;
        } else if ((r = cli_ci_format_opt(argc, argv, &i, 0, &o->ci)) ||
                   (r = kernel_opt(argc, argv, &i, o)) ||
                   (r = arg_opt(argc, argv, &i, o)) ||
                   (r = launch_opt(argc, argv, &i, o)) ||
                   (r = cli_output_opt(argc, argv, &i, &o->output)) ||
                   (r = cli_cache_opt(argc, argv, &i, &o->cache)) ||
                   (r = run_check_opt(argc, argv, &i, &o->rchk)) ||
                   (r = cli_compare_opt(argc, argv, &i, &o->compare)) ||
                   (r = report_opt(argc, argv, &i, o))) {
            if (r < 0)
                return o->nomem || o->rv.nomem || o->rv.bad_file
                           ? WM_EXIT_INPUT : WM_EXIT_USAGE;
        } else if (cli_flag(argv, i, "--list", NULL)) {
            o->list = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_usage_error("run: unknown option '%s'", argv[i]);
            cli_did_you_mean("run", argv[i]);
            return WM_EXIT_USAGE;
        } else if (!o->input) {
            o->input = argv[i];
        } else {
            return cli_usage_error("run: unexpected argument '%s'", argv[i]);
        }
    }
    return RUN_NEXT;
}

/* Every refusal of the command line comes before any work.  RUN_NEXT or
   WM_EXIT_USAGE. */
static int check_args(run_opts *o)
{
    if (!o->input)
        return cli_usage_error("run: no kernel file (try 'warpmem run "
                               "--help')");
    if (!cli_parse_arch(o->arch_name, &o->arch))
        return WM_EXIT_USAGE;
    if (!cli_output_check(&o->output))
        return WM_EXIT_USAGE;
    if (o->ci && o->compare.nfiles)
        return cli_usage_error("run: --format sarif and --compare are two "
                               "documents on one stdout: run them apart");
    if (!o->list && (!o->have_grid || !o->have_block))
        return cli_usage_error("run: --grid and --block are required");
    o->is_cu = cli_is_cu(o->input);
    if (o->nflags && !o->is_cu)
        return cli_usage_error("run: nvcc flags (--nvcc-flag, --) need a "
                               ".cu input, not '%s'",
                               o->input);
    return RUN_NEXT;
}

/* Every output file registered and checked against the inputs and each
   other, before any work.  RUN_NEXT or WM_EXIT_INPUT. */
static int check_outputs(const run_opts *o, run_state *s)
{
    const char *in[1 + MAX_ARGS + RV_MAX + CLI_MAX_COMPARE];
    size_t nin = 0;
    in[nin++] = o->input;
    if (o->output.html && !cli_stage_add(&s->out, o->output.html, "--html"))
        return WM_EXIT_INPUT;
    for (size_t i = 0; i < o->nargs; i++) {
        if (!run_arg_outputs(&o->args[i], &s->out))
            return WM_EXIT_INPUT;
        if (o->args[i].file)
            in[nin++] = o->args[i].file;
    }
    if (!rv_outputs(&o->rv, &s->out))
        return WM_EXIT_INPUT;
    for (size_t i = 0; i < o->rv.ninputs; i++)
        in[nin++] = o->rv.inputs[i];
    for (size_t i = 0; i < o->compare.nfiles; i++)
        in[nin++] = o->compare.files[i];
    return cli_stage_check(&s->out, in, nin) == WM_EXIT_OK ? RUN_NEXT
                                                            : WM_EXIT_INPUT;
}

/* Read the PTX (from nvcc for a .cu, whose output is removed once read)
   and parse it.  RUN_NEXT, or WM_EXIT_INPUT after printing why. */
static int load_module(const run_opts *o, run_state *s)
{
    return cli_load_ptx(o->input, cli_cu_sm(o->arch_name, &o->arch),
                        o->nvcc_flags, o->nflags, &s->src, &s->n, &s->m)
               ? RUN_NEXT
               : WM_EXIT_INPUT;
}

/* The kernel --kernel names (or the only one).  RUN_NEXT, WM_EXIT_USAGE
   when there is not exactly one (the candidates listed), or WM_EXIT_INPUT
   when its body did not parse. */
static int select_kernel(const run_opts *o, run_state *s)
{
    size_t cand[16];
    size_t nc = wm_ptx_match_kernels(s->m, o->kname, cand, NELEMS(cand));
    if (nc != 1) {
        if (nc == 0)
            cli_usage_error("%s: no kernel '%s' (see --list)", o->input,
                            o->kname ? o->kname : "");
        else if (!o->kname)
            cli_usage_error("%s has %zu kernels: name one with --kernel (see "
                            "--list)",
                            o->input, nc);
        else
            cli_usage_error("%s: '%s' matches %zu kernels; name one of them:",
                            o->input, o->kname, nc);
        for (size_t i = 0; nc > 1 && i < nc && i < NELEMS(cand); i++) {
            wm_ptx_kernel_info ki;
            wm_ptx_kernel_describe(s->m, cand[i], &ki, NULL, 0);
            fprintf(stderr, "  %s\n", ki.display);
        }
        return WM_EXIT_USAGE;
    }
    s->k = cand[0];
    if (cli_kernel_broken(s->m, s->k, o->input, s->src, s->n, "run"))
        return WM_EXIT_INPUT;
    return RUN_NEXT;
}

/* The kernel's parameters, every spec checked against its parameter and
   the launch's shape checked, all before any buffer is allocated: the
   mapping here sees only types and sizes.  RUN_NEXT or an exit status. */
static int check_params(const run_opts *o, run_state *s)
{
    s->np = wm_ptx_kernel_describe(s->m, s->k, &s->ki, NULL, 0);
    s->pinfo = calloc(s->np ? s->np : 1, sizeof *s->pinfo);
    s->pargs = calloc(s->np ? s->np : 1, sizeof *s->pargs);
    if (!s->pinfo || !s->pargs || !s->ki.name ||
        wm_ptx_kernel_describe(s->m, s->k, &s->ki, s->pinfo, s->np) != s->np)
        return cli_error("out of memory");
    if (!map_args(&s->ki, s->pinfo, s->np, o->args, o->nargs, s->pargs))
        return WM_EXIT_USAGE;
    memcpy(s->l.grid, o->grid, sizeof o->grid);
    memcpy(s->l.block, o->block, sizeof o->block);
    s->l.dyn_smem = (size_t)o->smem;
    memcpy(s->l.cluster, o->cluster, sizeof o->cluster);
    s->l.cluster_nonportable = o->cluster_np;
    s->l.cooperative = o->coop;
    s->l.ctas = o->ctas;
    s->l.ctas_n = o->ctas_n;
    s->l.seed = o->seed;
    wm_ptx_fault lf;
    if (wm_ptx_launch_check(s->m, s->k, &s->l, &lf) != WM_OK)
        return cli_usage_error("%s", lf.msg);
    return RUN_NEXT;
}

/* Check the :file= inputs, then allocate and fill the buffers and map
   them onto the launch arguments.  RUN_NEXT or an exit status. */
static int alloc_args(run_opts *o, run_state *s)
{
    for (size_t i = 0; i < o->nargs; i++)
        if (!run_arg_check_file(&o->args[i]))
            return WM_EXIT_INPUT;
    run_fill_launch fl = {o->ctas, o->ctas_n, {0, 0, 0}, o->cache.on};
    memcpy(fl.grid, o->grid, sizeof fl.grid);
    for (size_t i = 0; i < o->nargs; i++) {
        run_arg *a = &o->args[i];
        size_t bytes = (size_t)a->count * wm_ptx_type_size(a->type);
        int lazy = run_fill_lazy(o->lazy, o->rchk.given, &fl, bytes);
        if (lazy && o->lazy == RUN_FILL_AUTO)
            lazy = RUN_LAZY_CAPPED; /* an estimate: bounded if wrong */
        if (!run_arg_alloc(a, lazy))
            return WM_EXIT_INPUT;
    }
    if (!map_args(&s->ki, s->pinfo, s->np, o->args, o->nargs, s->pargs))
        return WM_EXIT_USAGE;
    return RUN_NEXT;
}

/* The rest of the launch: the arguments, the extra buffers and module
   variables of run_value.c, the textures, the budgets, the workers and
   the progress line (on a terminal, unless --progress or --no-progress
   says otherwise). */
static void fill_launch(run_opts *o, run_state *s)
{
    wm_ptx_launch *l = &s->l;
    l->args = s->pargs;
    l->nargs = s->np;
    rv_finish(&o->rv, s->np); /* extra buffers follow the np parameters */
    l->extra = o->rv.extra;
    l->nextra = o->rv.nextra;
    l->globals = o->rv.globals;
    l->nglobals = o->rv.nglobals;
    l->ntextures = run_tex_collect(o->args, o->nargs, s->textures);
    l->textures = s->textures;
    l->max_steps = (uint64_t)o->max_steps;
    l->max_total_steps = (uint64_t)o->max_total;
    l->threads = (unsigned)o->jobs;
    s->ps.t0 = now_s();
    s->ps.shown = 0;
    if (o->progress == RUN_PROGRESS_ON ||
        (o->progress == RUN_PROGRESS_TTY && isatty(2))) {
        l->progress = on_progress;
        l->progress_ud = &s->ps;
    }
}

/* What the run feeds: the aggregator, the hierarchy model (--cache) and
   the checks (--check, --schedule).  RUN_NEXT or an exit status. */
static int make_sinks(run_opts *o, run_state *s)
{
    s->agg = wm_agg_new(&o->arch);
    if (!s->agg)
        return cli_error("out of memory");
    int cache_failed;
    s->l.cache = cli_cache_new(
        &o->cache, &o->arch, (uint64_t)o->block[0] * o->block[1] * o->block[2],
        wm_ptx_kernel_smem(s->m, s->k, (uint64_t)o->smem), &cache_failed);
    if (cache_failed)
        return WM_EXIT_USAGE;
    int check_oom;
    s->l.check = run_check_setup(&o->rchk, o->args, o->nargs, s->pargs, s->np,
                                 &check_oom);
    if (check_oom)
        return cli_error("out of memory");
    /* SASS level: the plan counts the compiled code's accesses as well */
    if (cli_run_sass_begin(&s->sass, o->level, s->m, s->k, s->src, s->n,
                           o->arch.sm, s->agg) < 0)
        return WM_EXIT_INPUT; /* said why */
    return RUN_NEXT;
}

/* Interpret the launch.  A fault, the step budget or an unsupported
   instruction still goes on to the report (s->faulted); other failures
   end the command. */
static int run_kernel(const run_opts *o, run_state *s)
{
    wm_status st = wm_ptx_run(s->m, s->k, &s->l, s->agg, &s->res, &s->ft);
    if (s->ps.shown)
        fputs("\r\x1b[K", stderr);
    if (st == WM_ERR_ARG)
        return cli_usage_error("%s", s->ft.msg);
    if (st == WM_ERR_PARSE) /* a call into a function that did not parse */
        return cli_error("%s:%u: %s", o->input, s->ft.ptx_line, s->ft.msg);
    if (st != WM_OK && st != WM_ERR_FAULT && st != WM_ERR_LIMIT &&
        st != WM_ERR_UNSUPPORTED)
        return cli_error("%s", wm_status_str(st));
    s->faulted = st != WM_OK;
    if (!cli_run_sass_end(&s->sass, &s->agg))
        return cli_error("out of memory");
    s->hint = "";
    if (s->faulted && !o->smem && s->ki.dyn_smem &&
        strstr(s->ft.msg, "out-of-bounds shared"))
        s->hint = "; the kernel uses dynamic shared memory: pass --smem BYTES";
    return RUN_NEXT;
}

/* The :out= files (or, after a fault or a stop, the :partial= ones)
   into their temporaries; nothing is in place before the commit.  The
   paths go to written[*nwritten]; WM_EXIT_OK, or WM_EXIT_INPUT when one
   failed. */
static int write_outputs(const run_opts *o, run_state *s, const char **written,
                         size_t *nwritten)
{
    int rc = WM_EXIT_OK;
    for (size_t i = 0; i < o->nargs; i++) {
        const run_arg *a = &o->args[i];
        const char *path = s->faulted ? a->partial : a->out;
        if (!path)
            continue;
        if (!run_arg_write(a, &s->out, s->faulted))
            rc = WM_EXIT_INPUT;
        else
            written[(*nwritten)++] = path;
    }
    /* --global and struct-field :out= files: only after a clean run */
    if (!s->faulted && !rv_write(&o->rv, &s->out))
        rc = WM_EXIT_INPUT;
    return rc;
}

/* Put the outputs in place when everything, standard output included,
   was written (io_ok), else remove them, saying so.  1 when they are in
   place. */
static int commit_outputs(run_state *s, int io_ok)
{
    errno = 0;
    int bad = fflush(stdout) != 0;
    int e = errno;
    if (bad || ferror(stdout)) { /* said here, with its reason */
        cli_write_error("standard output", e);
        clearerr(stdout);
        io_ok = 0;
    }
    if (!io_ok) {
        if (cli_stage_discard(&s->out))
            fprintf(stderr, "warpmem: note: no output file written (an "
                            "output failed); existing files are "
                            "unchanged\n");
        return 0;
    }
    return cli_stage_commit(&s->out) == WM_EXIT_OK;
}

/* After a fault or a stop: which :out= files were left as they were. */
static void note_kept(const run_opts *o)
{
    for (size_t i = 0; i < o->nargs; i++)
        if (o->args[i].out)
            fprintf(stderr, "warpmem: note: '%s' (:out=) not written: the "
                            "run did not finish (:partial=PATH keeps the "
                            "buffer as the kernel left it)\n",
                    o->args[i].out);
}

/* The report's options; the command line and (without a fault) the
   hierarchy model are added by the caller. */
static void fill_report_opts(const run_opts *o, const run_state *s,
                             const char **written, size_t nwritten,
                             wm_ptx_report_opts *ro)
{
    memset(ro, 0, sizeof *ro);
    ro->format = o->output.format;
    ro->color = o->output.color;
    ro->width = cli_term_width();
    ro->draw_top = (unsigned)o->draw;
    ro->ptx_path = o->input;
    ro->kernel = s->ki.display;
    ro->res = &s->res;
    ro->explain = o->output.explain;
    ro->arch = s->arch_note;
    ro->fault = s->faulted ? &s->ft : NULL;
    ro->fault_hint = s->hint;
    ro->written = written;
    ro->nwritten = nwritten;
    ro->check = s->l.check;
    memcpy(ro->grid, s->l.grid, sizeof ro->grid);
    memcpy(ro->block, s->l.block, sizeof ro->block);
}

/* --check: the hazards at the top of the text report (wm_ptx_report
   prints them under its header), in the JSON document, on stderr beside
   a CSV table. */
static void print_check(const run_state *s, const wm_ptx_report_opts *ro)
{
    if (ro->format != WM_FMT_JSON && ro->format != WM_FMT_TEXT)
        wm_ptx_check_print(stderr, s->m, s->l.check);
}

/* --format sarif: the hazards, the schedule difference and the fault as
   one SARIF log on stdout.  WM_OK, or the writer's status. */
static wm_status report_sarif(const run_opts *o, const run_state *s,
                              const wm_ptx_report_opts *ro)
{
    wm_ci_opts co;
    memset(&co, 0, sizeof co);
    co.command = ro->command;
    co.arch = o->arch.name;
    co.ptx_path = o->input;
    return wm_check_sarif(stdout, s->m, s->l.check,
                          s->faulted ? &s->ft : NULL, &co);
}

/* A run that stopped at a fault: the fault, the report of the work up
   to it (or the SARIF log) and the :partial= files asked for.
   WM_EXIT_FINDING, or WM_EXIT_INPUT when an output could not be written. */
static int report_fault(const run_opts *o, run_state *s,
                        const wm_ptx_report_opts *ro, int io_ok)
{
    print_fault(s->m, o->input, o->is_cu, &s->ft, s->hint);
    note_kept(o);
    wm_status rst = o->ci ? report_sarif(o, s, ro)
                          : wm_ptx_report(stdout, s->m, s->agg, ro);
    if (rst != WM_OK && rst != WM_ERR_IO) /* IO: said at the end */
        cli_error("report: %s", wm_status_str(rst));
    if (rst == WM_ERR_IO)
        io_ok = 0;
    if (!o->ci)
        print_check(s, ro);
    if (!commit_outputs(s, io_ok))
        return WM_EXIT_INPUT;
    for (size_t i = 0; i < ro->nwritten; i++)
        fprintf(stderr, "warpmem: note: wrote %s (:partial=) as the "
                        "kernel left it at the fault\n",
                ro->written[i]);
    return WM_EXIT_FINDING;
}

/* After a clean run: how many elements of each :in-out buffer the kernel
   changed. */
static void print_inout_changes(const run_opts *o)
{
    for (size_t i = 0; i < o->nargs; i++) {
        const run_arg *a = &o->args[i];
        if (!a->inout || !a->input)
            continue;
        size_t changed = 0, esz = wm_ptx_type_size(a->type);
        for (size_t e = 0; e < a->count; e++)
            changed += memcmp((char *)a->buf + e * esz,
                              (char *)a->input + e * esz, esz) != 0;
        fprintf(stderr, "warpmem: --arg %zu (in-out): %zu of %llu "
                        "elements changed\n",
                i, changed, (unsigned long long)a->count);
    }
}

/* A run that finished: the report, the hierarchy model, the checks, the
   --compare and --html outputs and the in-out summary.  rc is the status
   so far (the :out= files); the exit status is returned. */
static int report_result(const run_opts *o, run_state *s,
                         wm_ptx_report_opts *ro, int io_ok)
{
    int rc = io_ok ? WM_EXIT_OK : WM_EXIT_INPUT;
    ro->cache = s->l.cache; /* JSON/CSV/ncu: the report carries the model */
    wm_status rst = o->ci ? report_sarif(o, s, ro)
                          : wm_ptx_report(stdout, s->m, s->agg, ro);
    if (rst == WM_ERR_IO) /* "cannot write standard output" at the end */
        rc = WM_EXIT_INPUT, io_ok = 0;
    else if (rst != WM_OK)
        rc = cli_error("report: %s", wm_status_str(rst)), io_ok = 0;
    if (s->l.cache && ro->format == WM_FMT_TEXT && !o->ci)
        wm_cache_report(stdout, s->l.cache, s->agg, WM_FMT_TEXT);
    if (!o->ci)
        print_check(s, ro);
    if (run_check_found(&o->rchk) && rc == WM_EXIT_OK)
        rc = WM_EXIT_FINDING;
    if (rc == WM_EXIT_OK)
        rc = cli_compare_run(&o->compare, s->m, s->agg, ro);
    if (o->output.html &&
        cli_ptx_html_staged(&s->out, o->output.html, s->m, s->agg, ro) !=
            WM_OK)
        rc = WM_EXIT_INPUT, io_ok = 0;
    if (!commit_outputs(s, io_ok))
        rc = WM_EXIT_INPUT;
    if (rc == WM_EXIT_OK)
        print_inout_changes(o);
    return rc;
}

/* Everything after the run: the :out= files, then the fault or the
   result.  The exit status. */
static int report(int argc, char **argv, const run_opts *o, run_state *s)
{
    const char *written[MAX_ARGS];
    size_t nwritten = 0;
    int io_ok = write_outputs(o, s, written, &nwritten) == WM_EXIT_OK;
    wm_ptx_report_opts ro;
    fill_report_opts(o, s, written, nwritten, &ro);
    char cmd[2048];
    cli_command_line(argc, argv, cmd, sizeof cmd);
    ro.command = cmd;
    if (s->faulted)
        return report_fault(o, s, &ro, io_ok);
    return report_result(o, s, &ro, io_ok);
}

/* Whatever the steps made, on every path. */
static void run_free(run_opts *o, run_state *s)
{
    wm_agg_free(s->agg);
    cli_sass_free(&s->sass);
    wm_cache_free(s->l.cache);
    wm_ptx_free(s->m);
    free(s->src);
    free(s->pargs);
    free(s->pinfo);
    for (size_t i = 0; i < o->nargs; i++)
        run_arg_free(&o->args[i]);
    rv_free(&o->rv);
    run_check_free(&o->rchk);
    cli_stage_free(&s->out);
}

int wm_cmd_run(int argc, char **argv)
{
    run_opts o;
    run_state s;
    opts_init(&o);
    memset(&s, 0, sizeof s);
    int rc = parse_args(argc, argv, &o);
    if (rc == RUN_NEXT)
        rc = check_args(&o);
    if (rc == RUN_NEXT)
        rc = check_outputs(&o, &s);
    if (rc == RUN_NEXT)
        rc = load_module(&o, &s);
    if (rc == RUN_NEXT && o.list)
        rc = wm_ptx_list(stdout, s.m, o.output.format) == WM_OK
                 ? WM_EXIT_OK
                 : cli_write_error("standard output", errno);
    if (rc == RUN_NEXT)
        rc = select_kernel(&o, &s);
    if (rc == RUN_NEXT) {
        /* --arch, else .target, else the default; the note says which */
        cli_pick_arch(s.m, o.arch_name, &o.arch, s.arch_note,
                      sizeof s.arch_note);
        rc = check_params(&o, &s);
    }
    if (rc == RUN_NEXT)
        rc = alloc_args(&o, &s);
    if (rc == RUN_NEXT) {
        fill_launch(&o, &s);
        rc = make_sinks(&o, &s);
    }
    if (rc == RUN_NEXT)
        rc = run_kernel(&o, &s);
    if (rc == RUN_NEXT)
        rc = report(argc, argv, &o, &s);
    run_free(&o, &s);
    return rc;
}
