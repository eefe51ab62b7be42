/*
 * util.c -- argv helpers shared by the warpmem subcommands: error lines,
 * number parsing with overflow checks, --format / --color, terminal width.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __GNUC__
__attribute__((format(printf, 1, 0)))
#endif
static void verror(const char *fmt, va_list ap)
{
    fputs("warpmem: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(fmt, ap);
    va_end(ap);
    return WM_EXIT_USAGE;
}

int cli_write_error(const char *what, int err)
{
    return cli_error("cannot write %s: %s", what,
                     err ? strerror(err) : "write error");
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(fmt, ap);
    va_end(ap);
    return WM_EXIT_INPUT;
}

/* Parse an unsigned magnitude in base 10, 16 (0x) or 2 (0b); 0 on error. */
static int parse_magnitude(const char *s, uint64_t *out, int *overflow)
{
    unsigned base = 10;
    uint64_t v = 0;
    *overflow = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s += 2;
    }
    if (*s == '\0')
        return 0;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (*s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else if (*s == '_')
            continue;
        else
            return 0;
        if (d >= base)
            return 0;
        if (v > (UINT64_MAX - d) / base)
            *overflow = 1;
        else
            v = v * base + d;
    }
    *out = v;
    return 1;
}

int cli_parse_i64(const char *flag, const char *text, int64_t lo, int64_t hi,
                  int64_t *out)
{
    const char *s = text;
    int neg = 0, overflow;
    uint64_t mag;
    if (*s == '-' || *s == '+')
        neg = (*s++ == '-');
    if (!parse_magnitude(s, &mag, &overflow)) {
        cli_usage_error("%s: '%s' is not a number", flag, text);
        return 0;
    }
    if (overflow || (!neg && mag > (uint64_t)INT64_MAX) ||
        (neg && mag > (uint64_t)INT64_MAX + 1)) {
        cli_usage_error("%s: '%s' is out of range", flag, text);
        return 0;
    }
    int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    if (v < lo || v > hi) {
        cli_usage_error("%s: '%s' is out of range [%" PRId64 ", %" PRId64 "]",
                        flag, text, lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_parse_u64(const char *flag, const char *text, uint64_t *out)
{
    int overflow;
    if (text[0] == '-') {
        cli_usage_error("%s: '%s' must not be negative", flag, text);
        return 0;
    }
    if (!parse_magnitude(text[0] == '+' ? text + 1 : text, out, &overflow)) {
        cli_usage_error("%s: '%s' is not a number", flag, text);
        return 0;
    }
    if (overflow) {
        cli_usage_error("%s: '%s' is out of range", flag, text);
        return 0;
    }
    return 1;
}

int cli_parse_arch(const char *text, wm_arch *out)
{
    char err[200];
    *out = *wm_arch_default();
    if (text && wm_arch_parse(text, out, err, sizeof err) != WM_OK) {
        cli_usage_error("--arch: %s", err);
        return 0;
    }
    return 1;
}

void cli_pick_arch(const wm_ptx_module *m, const char *arch_name,
                   wm_arch *arch, char *note, size_t cap)
{
    const char *target = wm_ptx_target(m);
    const wm_arch *ta = wm_arch_for_target(target);
    if (arch_name && ta && ta->sm != arch->sm)
        fprintf(stderr, "warpmem: warning: --arch %s overrides the "
                        "module's .target %s\n",
                arch->name, target);
    wm_arch given = *arch;
    wm_ptx_pick_arch(m, arch_name ? &given : NULL, "--arch", arch, note, cap);
}

unsigned cli_cu_sm(const char *arch_name, const wm_arch *arch)
{
    return arch_name && arch->sm ? arch->sm : 0;
}

int cli_parse_format(const char *text, wm_format *out)
{
    if (strcmp(text, "text") == 0)
        *out = WM_FMT_TEXT;
    else if (strcmp(text, "json") == 0)
        *out = WM_FMT_JSON;
    else if (strcmp(text, "csv") == 0)
        *out = WM_FMT_CSV;
    else if (strcmp(text, "ncu-csv") == 0)
        *out = WM_FMT_NCU_CSV;
    else if (strcmp(text, "ncu-raw") == 0)
        *out = WM_FMT_NCU_RAW;
    else {
        cli_usage_error("--format: '%s' is not one of text, json, csv, "
                        "ncu-csv, ncu-raw",
                        text);
        return 0;
    }
    return 1;
}

int cli_color_default(void)
{
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && *nc);
}

int cli_parse_color(const char *text, int *out)
{
    if (strcmp(text, "auto") == 0)
        *out = cli_color_default();
    else if (strcmp(text, "always") == 0)
        *out = 1;
    else if (strcmp(text, "never") == 0)
        *out = 0;
    else {
        cli_usage_error("--color: '%s' is not one of auto, always, never",
                        text);
        return 0;
    }
    return 1;
}

unsigned cli_term_width(void)
{
    const char *c = getenv("COLUMNS");
    if (c) {
        long v = strtol(c, NULL, 10);
        if (v >= 60 && v <= 1000)
            return (unsigned)v;
    }
    return 100;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int cli_opt(int argc, char **argv, int *i, const char *name,
            const char *short_name, const char **val)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) == 0 && a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (strcmp(a, name) == 0 || (short_name && strcmp(a, short_name) == 0)) {
        if (*i + 1 >= argc) {
            cli_usage_error("%s: missing value", a);
            return -1;
        }
        *i += 1;
        *val = argv[*i];
        return 1;
    }
    return 0;
}

int cli_flag(char **argv, int i, const char *name, const char *short_name)
{
    return strcmp(argv[i], name) == 0 ||
           (short_name && strcmp(argv[i], short_name) == 0);
}

void cli_command_line(int argc, char **argv, char *buf, size_t cap)
{
    size_t len = (size_t)snprintf(buf, cap, "warpmem");
    for (int i = 0; i < argc && len < cap; i++) {
        const char *s = argv[i];
        int plain = *s != '\0';
        for (const char *q = s; *q; q++)
            plain &= strchr(" \t\n'\"\\$`*?[]{}();&|<>#~", *q) == NULL;
        if (plain) {
            len += (size_t)snprintf(buf + len, cap - len, " %s", s);
            continue;
        }
        len += (size_t)snprintf(buf + len, cap - len, " '");
        for (const char *q = s; *q && len < cap; q++)
            len += (size_t)snprintf(buf + len, cap - len,
                                    *q == '\'' ? "'\\''" : "%c", *q);
        if (len < cap)
            len += (size_t)snprintf(buf + len, cap - len, "'");
    }
}

void cli_output_init(cli_output *o)
{
    o->format = WM_FMT_TEXT;
    o->color = cli_color_default();
    o->explain = 0;
    o->html = NULL;
}

int cli_output_opt(int argc, char **argv, int *i, cli_output *o)
{
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--format", NULL, &v)))
        return r < 0 || !cli_parse_format(v, &o->format) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--color", NULL, &v)))
        return r < 0 || !cli_parse_color(v, &o->color) ? -1 : 1;
    if ((r = cli_opt(argc, argv, i, "--html", NULL, &v))) {
        if (r < 0)
            return -1;
        if (*v == '\0') {
            cli_usage_error("--html: empty file name");
            return -1;
        }
        o->html = v;
        return 1;
    }
    if (cli_flag(argv, *i, "--explain", NULL)) {
        o->explain = 1;
        return 1;
    }
    return 0;
}

int cli_output_check(const cli_output *o)
{
    if (o->explain && o->format != WM_FMT_TEXT && o->format != WM_FMT_JSON) {
        cli_usage_error("--explain works with --format text or json, not "
                        "csv");
        return 0;
    }
    return 1;
}

int cli_parse_dims(const char *flag, const char *s, unsigned d[3])
{
    const char *arg = s; /* quoted whole in every message */
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9') {
            cli_usage_error("%s: '%s' is not X[,Y[,Z]]", flag, arg);
            return 0;
        }
        unsigned long v = strtoul(s, &end, 10);
        if (errno || v == 0 || v > 0x7fffffffUL) {
            cli_usage_error("%s: '%s': dimension out of range 1..2147483647",
                            flag, arg);
            return 0;
        }
        d[k] = (unsigned)v;
        if (*end == 0)
            return 1;
        if ((*end != ',' && *end != 'x') || k == 2) {
            cli_usage_error("%s: '%s' is not X[,Y[,Z]]", flag, arg);
            return 0;
        }
        s = end + 1;
    }
    return 1;
}

int cli_kernel_broken(const wm_ptx_module *m, size_t k, const char *path,
                      const char *src, size_t n, const char *verb)
{
    wm_diag d;
    if (!wm_ptx_kernel_error(m, k, &d))
        return 0;
    wm_diag_print(stderr, &d, path, src, n);
    fprintf(stderr, "  (kernel %s cannot %s; the module's other kernels "
            "can)\n", wm_ptx_kernel_pretty(m, k), verb);
    return 1;
}
