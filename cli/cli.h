/*
 * cli.h -- shared helpers of the warpmem command.  The CLI only parses argv,
 * calls the library and picks a writer; anything with logic in it belongs in
 * src/.  Exit codes (help.def's EXIT rows say what each means to a user):
 * 0 ok; 1 a finding (a hazard, a fault, a step-budget stop, lint above
 * --fail-on, a metric over the --compare tolerance; --error-exitcode N
 * replaces it); 2 usage error; 3 no device (warpmem-lab; no warpmem
 * command needs a GPU); 4 an input that could not be read or parsed, an
 * output that could not be written, or another failure of the tool
 * itself (out of memory).  A pipeline tells a bad kernel (1) from a
 * broken job (2, 4).
 */
#ifndef WM_CLI_H
#define WM_CLI_H

#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>

enum {
    WM_EXIT_OK = 0,
    WM_EXIT_FINDING = 1,
    WM_EXIT_USAGE = 2,
    WM_EXIT_NODEV = 3,
    WM_EXIT_INPUT = 4
};

/* (--error-exitcode N, taken by main.c for every command, replaces
   WM_EXIT_FINDING in the exit status.) */

/* `warpmem CMD --help` and `warpmem --help` from help.def (help.c). */
void cli_help_command(FILE *f, const char *cmd);
void cli_help_main(FILE *f);

/* Subcommand entry points (cli/commands.def). */
#define X(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef X

/* Print "warpmem: error: <msg>" on stderr; returns WM_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/*
 * A failed write: print "warpmem: error: cannot write <what>: <reason>"
 * (reason from err, or "write error" when err is 0); returns WM_EXIT_INPUT.
 */
int cli_write_error(const char *what, int err);

/* A kernel whose body did not parse: prints its error (file:line:col, the
 * line and a caret) and "(kernel K cannot <verb>; the module's other
 * kernels can)"; returns 1 (the caller exits WM_EXIT_INPUT).  0 (nothing
 * printed) for a sound kernel. */
int cli_kernel_broken(const wm_ptx_module *m, size_t k, const char *path,
                      const char *src, size_t n, const char *verb);

/* A failed --html FILE: "cannot write 'path' (--html): reason" for an
 * I/O error (reason from err), else the status; returns WM_EXIT_INPUT. */
int cli_html_error(const char *path, wm_status st, int err);

/* --html FILE: the self-contained HTML report of a PTX kernel's run or
 * lint into path; on failure prints cli_html_error's message and returns
 * the status. */
wm_status cli_ptx_html(const char *path, const wm_ptx_module *m,
                       const wm_agg *agg, const wm_ptx_report_opts *ro);

/* Print "warpmem: error: <msg>" on stderr (an input, an output or the
 * tool failed); returns WM_EXIT_INPUT. */
int cli_error(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* --grid/--block "64", "64,8", "64x8x2" -> d (missing dimensions are 1,
 * each 1..2^31-1); 1 ok, 0 after a usage error naming flag. */
int cli_parse_dims(const char *flag, const char *s, unsigned d[3]);

/*
 * Number parsers for flag values: decimal, 0x hex or 0b binary, optional
 * sign where allowed.  On failure they print
 *   warpmem: error: <flag>: '<text>' is not a ... / out of range
 * and return 0; on success 1.
 */
int cli_parse_i64(const char *flag, const char *text, int64_t lo, int64_t hi,
                  int64_t *out);
int cli_parse_u64(const char *flag, const char *text, uint64_t *out);

/* --arch: the default profile when text is NULL, else the parsed one.
 * 1 ok, 0 after printing "--arch: <reason>". */
int cli_parse_arch(const char *text, wm_arch *out);

/*
 * The profile for module m, the rule of every command (wm_ptx_pick_arch):
 * *arch, parsed by cli_parse_arch, when arch_name is set, else the
 * .target's, else the default.  A --arch of another compute capability
 * than the .target gets a warning.  note (cap bytes) says which, for the
 * header and JSON.
 */
void cli_pick_arch(const wm_ptx_module *m, const char *arch_name,
                   wm_arch *arch, char *note, size_t cap);

/* The sm a .cu is compiled for: --arch's when it names an NVIDIA profile,
 * else the default profile's (0 asks cli_compile_cu for that). */
unsigned cli_cu_sm(const char *arch_name, const wm_arch *arch);

/* Parse --format text|json|csv.  1 ok, 0 after printing an error. */
int cli_parse_format(const char *text, wm_format *out);

/* Parse --color auto|always|never into a yes/no for stdout. */
int cli_parse_color(const char *text, int *out);

/* Default colour decision: stdout is a terminal and NO_COLOR is unset. */
int cli_color_default(void);

/*
 * The output options every analysing command shares: --format, --color,
 * --explain and --html FILE.
 */
typedef struct cli_output {
    wm_format format;
    int color;        /* emit ANSI colours */
    int explain;      /* --explain: the advisor's verdicts */
    const char *html; /* --html FILE, or NULL */
} cli_output;

/*
 * --format sarif|junit, the CI formats (ci_format.c): if argv[*i] is
 * --format with one of them (junit only where junit_ok), store it in *ci
 * (CLI_CI_*), advance *i past the value and return 1; else 0 with *i as
 * it was, for cli_output_opt.
 */
enum { CLI_CI_NONE, CLI_CI_SARIF, CLI_CI_JUNIT };
int cli_ci_format_opt(int argc, char **argv, int *i, int junit_ok, int *ci);

/* Defaults: text, colour when stdout is a terminal, no advice, no HTML. */
void cli_output_init(cli_output *o);

/*
 * If argv[*i] is one of the output options, store it in *o (advancing *i
 * past a separate value) and return 1; return 0 if it is not; -1 after
 * printing a usage error.
 */
int cli_output_opt(int argc, char **argv, int *i, cli_output *o);

/* Checks across the output options (--explain is text or JSON only).
 * 1 ok, 0 after printing a usage error. */
int cli_output_check(const cli_output *o);

/* Terminal width for drawings: $COLUMNS, else 100. */
unsigned cli_term_width(void);

/*
 * The command line as typed, for reports: "warpmem" and argv[0..argc-1],
 * shell-quoted where needed, truncated to fit buf[cap] (cap >= 8).
 */
void cli_command_line(int argc, char **argv, char *buf, size_t cap);

/* "did you mean" (suggest.c): the option of cmd's help.def rows closest
   to the unknown arg (an edit or two, or the one option it begins), or
   NULL; cli_did_you_mean prints "warpmem: did you mean '--grid'?" on
   stderr when there is one. */
const char *cli_suggest_flag(const char *cmd, const char *arg);
void cli_did_you_mean(const char *cmd, const char *arg);

/* Is argument a help flag (-h / --help)? */
int cli_is_help(const char *arg);

/*
 * Minimal long-option scanner shared by subcommands.  Call with the index of
 * the current argument; if argv[*i] is "--name=value" or "--name value"
 * (or the short alias), stores the value in *val, advances *i past the
 * value and returns 1.  Returns 0 if argv[*i] is not this option, -1 (after
 * printing a usage error) if the value is missing.
 */
int cli_opt(int argc, char **argv, int *i, const char *name,
            const char *short_name, const char **val);

/* Same for a flag without value ("--explain"). */
int cli_flag(char **argv, int i, const char *name, const char *short_name);

/* The progress line of a run (progress.c): "warpmem: D of T CTAs (P%),
   ELAPSED, about LEFT left" into buf (snprintf's truncation); its
   length.  LEFT is the rate so far applied to the CTAs still to run. */
size_t cli_progress_text(char *buf, size_t cap, uint64_t done,
                         uint64_t total, double elapsed);

/* Most nvcc flags one command passes on (--nvcc-flag, -- ARGS). */
#define CLI_MAX_NVCC_FLAGS 32

/*
 * Compile the .cu at cu to PTX (-ptx -lineinfo -arch=sm_SM, sm 0 = the
 * default profile's, then
 * flags) into a new temporary file whose path goes to out[outlen].  1, or
 * 0 after printing why (no nvcc on PATH, nvcc failed); the caller unlinks
 * out when done.
 */
int cli_compile_cu(const char *cu, unsigned sm, const char *const *flags,
                   size_t nflags, char *out, size_t outlen);

/* Does path name a CUDA source (".cu")? */
int cli_is_cu(const char *path);

/*
 * The module of input: a .ptx read, or a .cu compiled for sm with nvcc
 * flags first; then parsed.  1 with *src (*n bytes, to free) and *m (to
 * wm_ptx_free); 0 after printing why (the read's reason, or the parse
 * error at file:line:col), with *src and *m to free as they are.
 */
int cli_load_ptx(const char *input, unsigned sm, const char *const *flags,
                 size_t nflags, char **src, size_t *n, wm_ptx_module **m);

/*
 * Compare a prediction with ncu exports (wm_ncu_compare) onto f: 0 all
 * within the tolerance, WM_EXIT_FINDING when one is over it,
 * WM_EXIT_INPUT (after printing why) when nothing was compared or writing
 * failed.
 */
int cli_compare(FILE *f, const wm_ncu *const *meas, size_t nmeas,
                const wm_ncu *pred, const wm_compare_opts *o);

#endif /* WM_CLI_H */
