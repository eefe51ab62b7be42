/*
 * cmd_run.c -- `warpmem run`: interpret a kernel's PTX on the CPU and print
 * per-source-line memory metrics.  Builds the argument buffers from --arg
 * specs (TYPE[N][:zeros|:iota|:rand=SEED|:file=PATH][:out=PATH], or
 * TYPE=VALUE scalars), compiles a .cu with nvcc when given one, then hands
 * everything to wm_ptx_run / wm_ptx_report (--explain: with the
 * advisor) and wm_ptx_report_html (--html FILE).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "run_value.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 64

typedef struct argspec {
    wm_ptx_arg arg;
    const char *out; /* write-back path or NULL */
    const char *text;
} argspec;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warpmem run KERNEL.ptx|KERNEL.cu [--kernel NAME] --grid "
            "X[,Y[,Z]]\n"
            "                   --block X[,Y[,Z]] [--smem BYTES] --arg SPEC "
            "...\n"
            "                   [--ctas all|first:N|sample:K[,SEED]] "
            "[--max-steps N] [-j N]\n"
            "                   [--arch NAME] [--format text|json|csv] "
            "[--color auto|always|never]\n"
            "                   [--draw N] [--explain] [--html FILE] [--list]\n\n"
            "Runs the kernel's PTX warp by warp on the CPU and reports, per "
            "source line,\nrequests, sectors, ideal sectors, shared "
            "wavefronts and bank conflicts (PTX level).\n\n"
            "  --arg SPEC     one per kernel parameter, in order:\n"
            "                   TYPE[N][:zeros|:iota|:rand=SEED|:file=PATH]"
            "[:out=PATH]  a buffer\n"
            "                   TYPE=VALUE                                  "
            "     a scalar\n"
            "                 TYPE: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 "
            "f32 f64\n"
            "  --kernel NAME  entry name or demangled name (needed when the "
            "module has several)\n"
            "  --smem BYTES   dynamic shared memory (extern __shared__)\n"
            "  --ctas MODE    all CTAs (default), the first N, or K sampled "
            "with SEED\n"
            "  --max-steps N  warp instructions allowed per CTA (default "
            "100000000)\n"
            "  -j N           worker threads (default: all cores)\n"
            "  --arch NAME    architecture profile (default sm_90); a .cu is "
            "compiled for it\n"
            "  --draw N       draw the worst warp of the N worst lines "
            "(default 2)\n"
            "  --explain      under each flagged line: why it wastes sectors "
            "or wavefronts\n"
            "                 and the fixes with the model's numbers after "
            "each (text, json)\n"
            "  --html FILE    also write a self-contained HTML report (lane "
            "maps, advice)\n"
            "  --color C      auto (default: colours when stdout is a "
            "terminal), always, never\n"
            "  --list         list the kernels of the module and exit\n");
    rv_usage(f);
}

/* "64", "64,8", "64x8x2" -> dims (missing ones are 1). */
static int parse_dims(const char *flag, const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9') {
            cli_usage_error("%s: '%s' is not X[,Y[,Z]]", flag, s);
            return 0;
        }
        unsigned long v = strtoul(s, &end, 10);
        if (errno || v == 0 || v > 0x7fffffffUL) {
            cli_usage_error("%s: dimension out of range 1..2147483647", flag);
            return 0;
        }
        d[k] = (unsigned)v;
        if (*end == 0)
            return 1;
        if ((*end != ',' && *end != 'x') || k == 2) {
            cli_usage_error("%s: '%s' is not X[,Y[,Z]]", flag, s);
            return 0;
        }
        s = end + 1;
    }
    return 1;
}


/* Parse one --arg spec into a; returns 1 or 0 after printing an error. */
static int parse_arg(const char *spec, argspec *a)
{
    char type[8];
    size_t tl = strcspn(spec, "[=");
    wm_ptx_type t;
    memset(a, 0, sizeof *a);
    a->text = spec;
    if (tl == 0 || tl >= sizeof type || !spec[tl]) {
        cli_usage_error("--arg '%s': expected TYPE[N]... or TYPE=VALUE", spec);
        return 0;
    }
    memcpy(type, spec, tl);
    type[tl] = 0;
    if (wm_ptx_type_parse(type, &t) != WM_OK) {
        cli_usage_error("--arg '%s': unknown type '%s' (i8 u8 i16 u16 i32 u32 "
                        "i64 u64 f16 bf16 f32 f64)",
                        spec, type);
        return 0;
    }
    size_t esz = wm_ptx_type_size(t);
    const char *s = spec + tl + 1;
    if (spec[tl] == '=') { /* scalar */
        char *end;
        errno = 0;
        uint64_t bits = 0;
        if (t == WM_PTX_F16 || t == WM_PTX_BF16) {
            cli_usage_error("--arg '%s': %s scalars are not supported; pass "
                            "the bits as u16=0x...", spec, type);
            return 0;
        }
        if (t == WM_PTX_F32 || t == WM_PTX_F64) {
            double v = strtod(s, &end);
            if (end == s || *end) {
                cli_usage_error("--arg '%s': '%s' is not a number", spec, s);
                return 0;
            }
            if (t == WM_PTX_F64) {
                memcpy(&bits, &v, 8);
            } else {
                float fv = (float)v;
                uint32_t u;
                memcpy(&u, &fv, 4);
                bits = u;
            }
        } else {
            int sg = t == WM_PTX_I8 || t == WM_PTX_I16 || t == WM_PTX_I32 ||
                     t == WM_PTX_I64;
            if (sg) {
                int64_t lo = esz == 8 ? INT64_MIN : -((int64_t)1 << (esz * 8 - 1));
                int64_t hi = esz == 8 ? INT64_MAX : ((int64_t)1 << (esz * 8 - 1)) - 1;
                int64_t v;
                if (!cli_parse_i64("--arg", s, lo, hi, &v))
                    return 0;
                bits = (uint64_t)v;
            } else {
                uint64_t v;
                if (!cli_parse_u64("--arg", s, &v))
                    return 0;
                if (esz < 8 && v >> (esz * 8)) {
                    cli_usage_error("--arg '%s': value out of range for %s",
                                    spec, type);
                    return 0;
                }
                bits = v;
            }
            if (esz < 8)
                bits &= ((uint64_t)1 << (esz * 8)) - 1;
        }
        a->arg.scalar = bits;
        a->arg.size = (unsigned)esz;
        return 1;
    }
    /* buffer: TYPE[N] then :init / :out=PATH */
    char *end;
    errno = 0;
    unsigned long long count = strtoull(s, &end, 10);
    if (end == s || *end != ']' || errno || count == 0 ||
        count > ((uint64_t)1 << 40) / esz) {
        cli_usage_error("--arg '%s': expected TYPE[N] with 1 <= N", spec);
        return 0;
    }
    s = end + 1;
    const char *init = "zeros";
    char initbuf[64];
    const char *file = NULL;
    while (*s == ':') {
        s++;
        size_t l = strcspn(s, ":");
        if (strncmp(s, "out=", 4) == 0) {
            char *p = malloc(l - 3);
            if (!p)
                return 0;
            memcpy(p, s + 4, l - 4);
            p[l - 4] = 0;
            a->out = p;
        } else if (strncmp(s, "file=", 5) == 0) {
            char *p = malloc(l - 4);
            if (!p)
                return 0;
            memcpy(p, s + 5, l - 5);
            p[l - 5] = 0;
            file = p;
        } else if (l < sizeof initbuf) {
            memcpy(initbuf, s, l);
            initbuf[l] = 0;
            init = initbuf;
        } else {
            cli_usage_error("--arg '%s': unknown init '%.*s'", spec, (int)l, s);
            return 0;
        }
        s += l;
    }
    if (*s) {
        cli_usage_error("--arg '%s': unexpected '%s'", spec, s);
        return 0;
    }
    size_t bytes = (size_t)count * esz;
    /* +16: vector loads of a last partial element are still caught by the
       bounds check, which uses bytes, not the allocation */
    void *buf = calloc(bytes + 16, 1);
    if (!buf) {
        cli_error("--arg '%s': cannot allocate %zu bytes", spec, bytes);
        return 0;
    }
    a->arg.buf = buf;
    a->arg.bytes = bytes;
    if (file) {
        size_t n = 0;
        char *data = wm_read_file(file, &n);
        if (!data) {
            cli_error("--arg '%s': cannot read '%s': %s", spec, file,
                      strerror(errno));
            free((void *)(uintptr_t)file);
            return 0;
        }
        if (n != bytes) {
            cli_error("--arg '%s': '%s' has %zu bytes, the buffer %zu", spec,
                      file, n, bytes);
            free(data);
            free((void *)(uintptr_t)file);
            return 0;
        }
        memcpy(buf, data, n);
        free(data);
        free((void *)(uintptr_t)file);
    } else if (wm_ptx_fill(buf, t, (size_t)count, init) != WM_OK) {
        cli_usage_error("--arg '%s': unknown init '%s' (zeros, iota, "
                        "rand=SEED, file=PATH)",
                        spec, init);
        return 0;
    }
    return 1;
}

/* Compile a .cu to PTX with nvcc into a temporary file; path in out. */
static int compile_cu(const char *cu, unsigned sm, char *out, size_t outlen)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, outlen, "%s/warpmem-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(out);
    if (fd < 0)
        return cli_error("cannot create a temporary file: %s", strerror(errno)), 0;
    close(fd);
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%u", sm ? sm : 80);
    pid_t pid = fork();
    if (pid < 0) {
        unlink(out);
        return cli_error("cannot run nvcc: %s", strerror(errno)), 0;
    }
    if (pid == 0) {
        char *argv[] = {(char *)(uintptr_t)"nvcc", (char *)(uintptr_t)"-ptx",
                        (char *)(uintptr_t)"-lineinfo", arch,
                        (char *)(uintptr_t)"-o", out, (char *)(uintptr_t)cu, NULL};
        execvp("nvcc", argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        unlink(out);
        return cli_error("%s: compiling CUDA needs nvcc on PATH (or pass the "
                         "PTX: nvcc -ptx -lineinfo -arch=sm_80 %s)",
                         cu, cu),
               0;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        unlink(out);
        return cli_error("%s: nvcc failed", cu), 0;
    }
    return 1;
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
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("--html: cannot write '%s': %s", path, strerror(errno));
        return WM_ERR_IO;
    }
    wm_status st = wm_ptx_report_html(f, m, agg, ro);
    if (fclose(f) != 0 && st == WM_OK)
        st = WM_ERR_IO;
    if (st != WM_OK)
        cli_error("--html: cannot write '%s': %s", path, wm_status_str(st));
    return st;
}

/* --list: the kernels that cannot run, each with its parse error. */
static void list_broken(const wm_ptx_module *m)
{
    for (size_t k = 0; k < wm_ptx_nkernels(m); k++) {
        wm_diag d;
        if (wm_ptx_kernel_error(m, k, &d))
            printf("%s cannot run: line %d:%d: %s\n",
                   wm_ptx_kernel_pretty(m, k), d.line, d.col, d.msg);
    }
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

static void print_fault(const wm_ptx_module *m, const char *path,
                        const wm_ptx_fault *ft)
{
    wm_ptx_where w;
    int have = wm_ptx_where_insn(m, ft->insn, &w);
    if (ft->ptx_line)
        fprintf(stderr, "%s:%u: ", path, ft->ptx_line);
    else
        fprintf(stderr, "%s: ", path);
    fprintf(stderr, "%s: %s\n",
            ft->status == WM_ERR_LIMIT ? "error" : ft->status == WM_ERR_UNSUPPORTED
                                                       ? "unsupported"
                                                       : "fault",
            ft->msg);
    fprintf(stderr, "  block (%u,%u,%u), thread (%u,%u,%u) (warp %u, lane %u)\n",
            ft->cta[0], ft->cta[1], ft->cta[2], ft->thread[0], ft->thread[1],
            ft->thread[2], ft->warp, ft->lane);
    if (have && ft->ptx_line)
        fprintf(stderr, "  ptx: %s\n", w.text);
    if (ft->line)
        fprintf(stderr, "  source: %s:%u\n", ft->file, ft->line);
    print_call_site(path, ft);
}

int wm_cmd_run(int argc, char **argv)
{
    const char *input = NULL, *kname = NULL, *v;
    const char *arch_name = NULL;
    unsigned grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    int have_grid = 0, have_block = 0, list = 0;
    cli_output output;
    int64_t smem = 0, draw = 2, jobs = 0, max_steps = 100000000;
    argspec args[MAX_ARGS];
    size_t nargs = 0;
    run_values rv;
    memset(&rv, 0, sizeof rv);
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.ctas = WM_PTX_CTAS_ALL;
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
        } else if ((r = cli_opt(argc, argv, &i, "--grid", NULL, &v))) {
            if (r < 0 || !parse_dims("--grid", v, grid))
                goto out;
            have_grid = 1;
        } else if ((r = cli_opt(argc, argv, &i, "--block", NULL, &v))) {
            if (r < 0 || !parse_dims("--block", v, block))
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
            if (rv_is_value(v)) { /* by-value: run_value.c */
                memset(&args[nargs], 0, sizeof args[nargs]);
                args[nargs].text = v;
                if (!rv_value_arg(v, &args[nargs].arg, &rv))
                    goto out;
            } else if (!parse_arg(v, &args[nargs])) {
                free(args[nargs].arg.buf);
                free((void *)(uintptr_t)args[nargs].out);
                rc = WM_EXIT_USAGE;
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
        } else if ((r = cli_opt(argc, argv, &i, "--draw", NULL, &v))) {
            if (r < 0 || !cli_parse_i64("--draw", v, 0, 1000, &draw))
                goto out;
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

    /* load (and compile) the kernel */
    rc = WM_EXIT_ERR;
    char tmp[512] = "";
    const char *ptx_path = input;
    size_t len = strlen(input);
    if (len > 3 && strcmp(input + len - 3, ".cu") == 0) {
        if (!compile_cu(input, arch.sm, tmp, sizeof tmp))
            goto out;
        ptx_path = tmp;
    }
    size_t n = 0;
    char *src = wm_read_file(ptx_path, &n);
    if (!src) {
        cli_error("cannot read '%s': %s", input, strerror(errno));
        if (*tmp)
            unlink(tmp);
        goto out;
    }
    if (*tmp)
        unlink(tmp);
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (wm_ptx_parse(src, n, input, &m, &d) != WM_OK) {
        wm_diag_print(stderr, &d, *tmp ? "(nvcc output)" : input, src, n);
        free(src);
        goto out;
    }
    if (list) {
        for (size_t k = 0; k < wm_ptx_nkernels(m); k++)
            printf("%s%s%s (%zu parameters)\n", wm_ptx_kernel_pretty(m, k),
                   strcmp(wm_ptx_kernel_pretty(m, k), wm_ptx_kernel_name(m, k))
                       ? "  = "
                       : "",
                   strcmp(wm_ptx_kernel_pretty(m, k), wm_ptx_kernel_name(m, k))
                       ? wm_ptx_kernel_name(m, k)
                       : "",
                   wm_ptx_kernel_nparams(m, k));
        list_broken(m);
        rc = WM_EXIT_OK;
        goto done;
    }
    long k = wm_ptx_find_kernel(m, kname);
    if (k < 0) {
        if (k == -2 && !kname)
            cli_usage_error("%s has %zu kernels: name one with --kernel (see "
                            "--list)",
                            input, wm_ptx_nkernels(m));
        else
            cli_usage_error("%s: no kernel %s'%s' (see --list)", input,
                            k == -2 ? "unique match for " : "", kname ? kname : "");
        rc = WM_EXIT_USAGE;
        goto done;
    }
    if (kernel_broken(m, (size_t)k, input, src, n)) {
        rc = WM_EXIT_ERR;
        goto done;
    }
    size_t np = wm_ptx_kernel_nparams(m, (size_t)k);
    if (np != nargs) {
        cli_usage_error("kernel %s takes %zu parameters, %zu --arg given",
                        wm_ptx_kernel_pretty(m, (size_t)k), np, nargs);
        rc = WM_EXIT_USAGE;
        goto done;
    }
    wm_ptx_arg pargs[MAX_ARGS];
    for (size_t i = 0; i < nargs; i++)
        pargs[i] = args[i].arg;
    memcpy(l.grid, grid, sizeof grid);
    memcpy(l.block, block, sizeof block);
    l.dyn_smem = (size_t)smem;
    l.args = pargs;
    l.nargs = nargs;
    rv_finish(&rv, nargs);
    for (size_t i = 0; i < nargs; i++) /* rv_finish patched the values */
        pargs[i] = args[i].arg;
    l.extra = rv.extra;
    l.nextra = rv.nextra;
    l.globals = rv.globals;
    l.nglobals = rv.nglobals;
    l.max_steps = (uint64_t)max_steps;
    l.threads = (unsigned)jobs;
    progress_state ps = {now_s(), 0};
    if (isatty(2)) {
        l.progress = on_progress;
        l.progress_ud = &ps;
    }
    wm_agg *agg = wm_agg_new(&arch);
    if (!agg) {
        cli_error("out of memory");
        goto done;
    }
    wm_ptx_result res;
    wm_ptx_fault ft;
    wm_status st = wm_ptx_run(m, (size_t)k, &l, agg, &res, &ft);
    if (ps.shown)
        fputs("\r\x1b[K", stderr);
    if (st == WM_ERR_ARG) {
        cli_usage_error("%s", ft.msg);
        rc = WM_EXIT_USAGE;
    } else if (st == WM_ERR_FAULT || st == WM_ERR_LIMIT ||
               st == WM_ERR_UNSUPPORTED) {
        print_fault(m, input, &ft);
        rc = WM_EXIT_ERR;
    } else if (st != WM_OK) {
        cli_error("%s", wm_status_str(st));
    } else {
        wm_ptx_report_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.format = output.format;
        ro.color = output.color;
        ro.width = cli_term_width();
        ro.draw_top = (unsigned)draw;
        ro.ptx_path = input;
        ro.kernel = wm_ptx_kernel_pretty(m, (size_t)k);
        ro.res = &res;
        ro.explain = output.explain;
        char cmd[2048];
        cli_command_line(argc, argv, cmd, sizeof cmd);
        ro.command = cmd;
        wm_ptx_report(stdout, m, agg, &ro);
        rc = WM_EXIT_OK;
        if (output.html && write_html(output.html, m, agg, &ro) != WM_OK)
            rc = WM_EXIT_ERR;
        if (!rv_write(&rv))
            rc = WM_EXIT_ERR;
        for (size_t i = 0; i < nargs; i++) {
            if (!args[i].out)
                continue;
            FILE *f = fopen(args[i].out, "wb");
            if (!f || fwrite(args[i].arg.buf, 1, args[i].arg.bytes, f) !=
                          args[i].arg.bytes) {
                cli_error("cannot write '%s': %s", args[i].out, strerror(errno));
                rc = WM_EXIT_ERR;
            }
            if (f && fclose(f) != 0)
                rc = WM_EXIT_ERR;
        }
    }
    wm_agg_free(agg);
done:
    wm_ptx_free(m);
    free(src);
out:
    for (size_t i = 0; i < nargs; i++) {
        free(args[i].arg.buf);
        free((void *)(uintptr_t)args[i].out);
    }
    rv_free(&rv);
    return rc;
}
