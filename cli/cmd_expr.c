/*
 * cmd_expr.c -- `warpmem expr`: index expressions over a whole grid.
 *
 * argv -> program text (statements given as arguments, one per line, or
 * a file with -f) -> wm_expr_parse -> wm_expr_run into a wm_agg -> the
 * library's report (wm_expr_report: text, JSON, CSV, ncu CSV).  Parse and run-time errors are printed as
 * file:line:col with the source line and a caret, exit 1; bad flags exit 2.
 * --explain adds the advisor's verdict on each statement's worst warp
 * (text or JSON); --html FILE writes the whole run as an HTML report.
 */
#include "cli.h"
#include "cache_opts.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct expr_opts {
    wm_arch arch;
    cli_output out; /* --format, --color, --explain, --html */
    unsigned grid[3], block[3];
    int have_grid, have_block;
    uint64_t max_accesses;
    const char *file; /* -f */
    int first_stmt;   /* argv index of the first statement, 0 if none */
    int nstmt_args;   /* statements on the command line */
    int nomem;        /* parse_args failed for want of memory */
    cli_cache cache;  /* --cache, --cache-order, --sms */
} expr_opts;

/* The help text is help.def's "expr" rows. */
static void usage(FILE *f)
{
    cli_help_command(f, "expr");
}

/* Parse "X[,Y[,Z]]" for --grid / --block. */
static int parse_dim3(const char *flag, const char *text, const int64_t *max,
                      unsigned out[3])
{
    char buf[96];
    if (strlen(text) >= sizeof buf) {
        cli_usage_error("%s: '%s' is too long", flag, text);
        return 0;
    }
    strcpy(buf, text);
    out[0] = out[1] = out[2] = 1;
    char *p = buf;
    for (int i = 0; i < 3; i++) {
        char *comma = strchr(p, ',');
        int64_t v;
        if (comma)
            *comma = '\0';
        if (!cli_parse_i64(flag, p, 1, max[i], &v))
            return 0;
        out[i] = (unsigned)v;
        if (!comma)
            return 1;
        p = comma + 1;
    }
    cli_usage_error("%s: '%s' has more than 3 dimensions", flag, text);
    return 0;
}

static int parse_define(wm_expr *e, const char *text)
{
    const char *eq = strchr(text, '=');
    char name[64];
    int64_t v;
    if (!eq || eq == text || (size_t)(eq - text) >= sizeof name) {
        cli_usage_error("-D: '%s' is not NAME=VALUE", text);
        return 0;
    }
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    if (!cli_parse_i64("-D", eq + 1, INT64_MIN, INT64_MAX, &v))
        return 0;
    wm_status st = wm_expr_define(e, name, v);
    if (st == WM_ERR_ARG) {
        cli_usage_error("-D: '%s' is not a usable constant name", name);
        return 0;
    }
    if (st != WM_OK) {
        cli_usage_error("-D: %s", wm_status_str(st));
        return 0;
    }
    return 1;
}

/* Is argv[i] an option's separate value ("--block 32")?  Mirrors the
 * options of parse_args that take one. */
static int is_option_value(char **argv, int i)
{
    static const char *const with_value[] = {
        "--grid",   "--block",  "-D",    "--define", "--arch", "--max-accesses",
        "--format", "--color", "--html", "-f",       "--file", "--cache-order",
        "--sms", "--regs"};
    if (i < 2)
        return 0;
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
        if (strcmp(argv[i - 1], with_value[k]) == 0)
            return !is_option_value(argv, i - 1);
    return 0;
}

/* Move the statements to the end of argv, in order (as getopt permutes),
 * and point first_stmt at the first. */
static int gather_statements(int argc, char **argv, expr_opts *o)
{
    char **tmp = malloc((size_t)argc * sizeof *tmp);
    if (!tmp) {
        cli_error("out of memory");
        o->nomem = 1;
        return 0;
    }
    int k = 1;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 1; i < argc; i++) {
            int opt = argv[i][0] == '-' && argv[i][1] != '\0';
            int stmt = !opt && !is_option_value(argv, i);
            if (stmt == pass)
                tmp[k++] = argv[i];
        }
    memcpy(argv + 1, tmp + 1, (size_t)(argc - 1) * sizeof *argv);
    free(tmp);
    o->first_stmt = argc - o->nstmt_args;
    return 1;
}

static int parse_args(int argc, char **argv, wm_expr *e, expr_opts *o)
{
    static const int64_t grid_max[3] = {INT32_MAX, 65535, 65535};
    static const int64_t block_max[3] = {1024, 1024, 64};
    const char *arch = NULL, *v;
    int r;
    memset(o, 0, sizeof *o);
    cli_output_init(&o->out);
    cli_cache_init(&o->cache);
    for (int i = 1; i < argc; i++) {
        if ((r = cli_opt(argc, argv, &i, "--grid", NULL, &v))) {
            if (r < 0 || !parse_dim3("--grid", v, grid_max, o->grid))
                return 0;
            o->have_grid = 1;
        } else if ((r = cli_opt(argc, argv, &i, "--block", NULL, &v))) {
            if (r < 0 || !parse_dim3("--block", v, block_max, o->block))
                return 0;
            if ((uint64_t)o->block[0] * o->block[1] * o->block[2] > 1024) {
                cli_usage_error("--block: '%s' has more than 1024 threads",
                                v);
                return 0;
            }
            o->have_block = 1;
        } else if (strncmp(argv[i], "-D", 2) == 0 && argv[i][2] != '\0') {
            if (!parse_define(e, argv[i] + 2))
                return 0;
        } else if ((r = cli_opt(argc, argv, &i, "--define", "-D", &v))) {
            if (r < 0 || !parse_define(e, v))
                return 0;
        } else if ((r = cli_opt(argc, argv, &i, "--file", "-f", &v))) {
            if (r < 0)
                return 0;
            o->file = v;
        } else if ((r = cli_opt(argc, argv, &i, "--arch", NULL, &v))) {
            if (r < 0)
                return 0;
            arch = v;
        } else if ((r = cli_opt(argc, argv, &i, "--max-accesses", NULL,
                                &v))) {
            int64_t n;
            if (r < 0 || !cli_parse_i64("--max-accesses", v, 1, INT64_MAX,
                                        &n))
                return 0;
            o->max_accesses = (uint64_t)n;
        } else if ((r = cli_output_opt(argc, argv, &i, &o->out))) {
            if (r < 0)
                return 0;
        } else if ((r = cli_cache_opt(argc, argv, &i, &o->cache))) {
            if (r < 0)
                return 0;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_usage_error("expr: unknown option '%s' (see 'warpmem expr "
                            "--help')",
                            argv[i]);
            cli_did_you_mean("expr", argv[i]);
            return 0;
        } else {
            /* A statement (statements never start with '-'): options may
             * come before, between or after them. */
            o->nstmt_args++;
        }
    }
    if (o->nstmt_args && !gather_statements(argc, argv, o))
        return 0;
    if (!cli_output_check(&o->out))
        return 0;
    if (!cli_parse_arch(arch, &o->arch))
        return 0;
    if (o->file && o->first_stmt) {
        cli_usage_error("expr: give statements either with -f or as "
                        "arguments, not both");
        return 0;
    }
    if (!o->file && !o->first_stmt) {
        cli_usage_error("expr: no statements (give them as arguments or "
                        "with -f FILE)");
        return 0;
    }
    return 1;
}


/* The program text: the file, or the arguments joined by newlines. */
static char *program_text(int argc, char **argv, const expr_opts *o,
                          size_t *n, const char **name)
{
    if (o->file) {
        int is_stdin = strcmp(o->file, "-") == 0;
        *name = is_stdin ? "<stdin>" : o->file;
        errno = 0;
        char *text = is_stdin ? wm_read_stream(stdin, n)
                              : wm_read_file(o->file, n);
        if (!text)
            cli_error("cannot read '%s': %s", o->file, wm_read_error(errno));
        return text;
    }
    size_t len = 0;
    for (int i = o->first_stmt; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *text = malloc(len + 1);
    if (!text) {
        cli_error("out of memory");
        return NULL;
    }
    len = 0;
    for (int i = o->first_stmt; i < argc; i++) {
        size_t k = strlen(argv[i]);
        memcpy(text + len, argv[i], k);
        len += k;
        text[len++] = '\n';
    }
    *n = len;
    *name = "<command line>";
    return text;
}

/* ---- HTML report ------------------------------------------------------ */

/* Source lines for the report: the text of the statement on that line
 * (NULL when the line holds several, each site then shows its label). */
static const char *stmt_source(void *ctx, const char *file, uint32_t line)
{
    const wm_expr *e = ctx;
    (void)file; /* one program, one file */
    /* statements are in source order: the first on the line, by halves */
    size_t lo = 0, hi = wm_expr_nstmts(e);
    wm_expr_stmt si, next;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        wm_expr_stmt_info(e, mid, &si);
        if (si.line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!wm_expr_stmt_info(e, lo, &si) || si.line != line)
        return NULL;
    if (wm_expr_stmt_info(e, lo + 1, &next) && next.line == line)
        return NULL;
    return si.text;
}

/* --html FILE: the whole run, sites worst first. */
static int write_html(const wm_expr *e, const wm_agg *g, const expr_opts *o,
                      const char *name, int argc, char **argv)
{
    char title[300], cmd[2048];
    snprintf(title, sizeof title, "warpmem expr %s", name);
    cli_command_line(argc, argv, cmd, sizeof cmd);
    wm_html_opts opts = {0};
    opts.title = title;
    opts.command = cmd;
    char launch[160];
    unsigned grid[3], block[3];
    if (wm_expr_launch(e, grid, block)) {
        snprintf(launch, sizeof launch, "grid %u x %u x %u, block %u x %u x %u",
                 grid[0], grid[1], grid[2], block[0], block[1], block[2]);
        opts.launch = launch;
    }
    opts.kernel = name;
    opts.source = stmt_source;
    opts.source_ctx = (void *)(uintptr_t)e;
    errno = 0;
    wm_status st = wm_html_report_file(o->out.html, g, &opts);
    return st == WM_OK ? WM_EXIT_OK : cli_html_error(o->out.html, st, errno);
}

/* ---- entry ----------------------------------------------------------- */

static int run(wm_expr *e, const expr_opts *o, const char *src, size_t n,
               const char *name, int argc, char **argv)
{
    wm_diag d;
    wm_status st = wm_expr_parse(e, src, n, name, &d);
    if (st != WM_OK) {
        wm_diag_print(stderr, &d, name, src, n);
        return WM_EXIT_INPUT;
    }
    if (wm_expr_set_launch(e, o->have_grid ? o->grid : NULL,
                           o->have_block ? o->block : NULL) != WM_OK)
        return cli_usage_error("expr: bad launch dimensions");
    unsigned grid[3], block[3];
    if (!wm_expr_launch(e, grid, block))
        return cli_usage_error("expr: no block size (give --block or a "
                               "'block' line)");
    if (wm_expr_nstmts(e) == 0)
        return cli_usage_error("expr: the program has no access statement");
    wm_agg *g = wm_agg_new(&o->arch);
    if (!g)
        return cli_error("out of memory");
    /* expr declares no shared-memory size: occupancy from threads only */
    int cache_failed;
    wm_cache *model = cli_cache_new(&o->cache, &o->arch,
                                    (uint64_t)block[0] * block[1] * block[2],
                                    0, &cache_failed);
    if (cache_failed) {
        wm_agg_free(g);
        return WM_EXIT_USAGE;
    }
    wm_expr_fault f;
    st = model ? wm_expr_run_cache(e, g, model, o->max_accesses, &f)
               : wm_expr_run(e, g, o->max_accesses, &f);
    int rc = WM_EXIT_OK;
    if (st == WM_ERR_FAULT) {
        wm_diag_print(stderr, &f.diag, name, src, n);
        rc = WM_EXIT_FINDING;
    } else if (st == WM_ERR_LIMIT) { /* a budget stop: a finding */
        rc = WM_EXIT_FINDING;
        cli_error("expr: more than %" PRIu64 " warp accesses; raise "
                       "--max-accesses or shrink the grid",
                       o->max_accesses ? o->max_accesses
                                       : WM_EXPR_DEFAULT_LIMIT);
    } else if (st != WM_OK) {
        rc = cli_error("expr: %s", wm_status_str(st));
    } else {
        wm_expr_report_opts ro = {o->out.format, name, o->out.explain, model,
                                  o->out.color, cli_term_width()};
        st = wm_expr_report(stdout, e, g, &ro);
        if (st == WM_ERR_IO)
            rc = cli_write_error("standard output", errno);
        else if (st != WM_OK)
            rc = cli_error("expr: %s", wm_status_str(st));
        if (rc == WM_EXIT_OK && o->out.html)
            rc = write_html(e, g, o, name, argc, argv);
    }
    wm_agg_free(g);
    wm_cache_free(model);
    return rc;
}

int wm_cmd_expr(int argc, char **argv)
{
    expr_opts o;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return WM_EXIT_OK;
        }
    }
    wm_expr *e = wm_expr_new();
    if (!e)
        return cli_error("out of memory");
    int rc = WM_EXIT_USAGE;
    if (parse_args(argc, argv, e, &o)) {
        size_t n = 0;
        const char *name = NULL;
        char *src = program_text(argc, argv, &o, &n, &name);
        rc = src ? run(e, &o, src, n, name, argc, argv) : WM_EXIT_INPUT;
        free(src);
    } else if (o.nomem) {
        rc = WM_EXIT_INPUT;
    }
    wm_expr_free(e);
    return rc;
}
