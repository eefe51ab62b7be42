/*
 * main.c -- warpmem-lab: measure on a GPU what the model predicts.
 *
 *   warpmem-lab [--list] [--only ROWS] [--size BYTES] [--repeat N] [--once]
 *               [--format text|json|csv] [--json FILE] [--html FILE]
 *               [--commit TEXT] [--cache]
 *
 * --list needs no GPU: it prints every row with the model's prediction.
 * Otherwise the program opens device 0; without one it says so and exits 3.
 * Exit statuses: 0 ok, 1 a check or CUDA call failed, 2 usage, 3 no device.
 */
#include "lab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: warpmem-lab [--list] [--only ROWS] [--size BYTES] [--repeat N]\n"
    "                   [--once] [--format text|json|csv] [--json FILE]\n"
    "                   [--html FILE] [--commit TEXT] [--cache]\n"
    "  --list          print the experiments and the model's predictions\n"
    "                  (no GPU needed)\n"
    "  --only ROWS     comma-separated row-id prefixes (E2, E5.pad, ...);\n"
    "                  the E0 rows (C_ref) and each row's baseline always run\n"
    "  --size BYTES    bytes per sweep buffer (K/M/G suffixes, powers of 2);\n"
    "                  default 1G, never below 4x the device's L2\n"
    "  --repeat N      timed samples per row, median reported (default 10)\n"
    "  --once          check every kernel once, time nothing, no size floor\n"
    "                  (for profilers)\n"
    "  --format F      text (default), json or csv\n"
    "  --json FILE     also write the results as JSON to FILE\n"
    "  --html FILE     also write them as an HTML page with charts\n"
    "  --commit TEXT   the source commit, recorded with the results\n"
    "  --cache         also predict the 2-D rows (E1, transposes, 8192 x\n"
    "                  8192) and the stride/offset sweeps (256 MiB) through\n"
    "                  L1/L2/DRAM model of H200 (docs/hierarchy.md; seconds)\n";

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "warpmem-lab: error: %s%s%s\n", msg, arg ? ": " : "",
            arg ? arg : "");
    fprintf(stderr, "%s", usage);
    return LAB_EXIT_USAGE;
}

/* "1G", "256M", "4096": bytes; 0 on error. */
static long long parse_size(const char *s)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || end == s || v <= 0)
        return 0;
    switch (*end) {
    case 'K': case 'k': v <<= 10; end++; break;
    case 'M': case 'm': v <<= 20; end++; break;
    case 'G': case 'g': v <<= 30; end++; break;
    default: break;
    }
    if (*end != '\0' || v > (64ll << 30))
        return 0;
    return v;
}

/* Value of option argv[*i] ("--x v" or "--x=v"); NULL if it is another
 * option; sets *missing when the value is absent. */
static const char *opt(int argc, char **argv, int *i, const char *name,
                       int *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

/* Close the --json file (if any); a write error turns rc into a failure. */
static int close_json(FILE *f, const char *path, int rc)
{
    if (f && fclose(f) != 0) {
        fprintf(stderr, "warpmem-lab: error: %s: %s\n", path, strerror(errno));
        return rc == LAB_EXIT_OK ? LAB_EXIT_FAIL : rc;
    }
    return rc;
}

/* Write the measured table as JSON to path, through path.part and a rename,
 * so a reader (or a run killed half-way) never sees half a file.  Called
 * after every row and at the end.  Returns 0 or -1 (message printed). */
static int write_json_now(const char *path, const lab_table *t,
                          const lab_env *e)
{
    char part[4096];
    FILE *f;
    int bad;
    snprintf(part, sizeof part, "%s.part", path);
    f = fopen(part, "w");
    if (f == NULL) {
        fprintf(stderr, "warpmem-lab: error: %s: %s\n", part, strerror(errno));
        return -1;
    }
    bad = lab_write(f, t, e, WM_FMT_JSON, 0) != WM_OK || ferror(f);
    if (fclose(f) != 0 || bad || rename(part, path) != 0) {
        fprintf(stderr, "warpmem-lab: error: %s: %s\n", path, strerror(errno));
        remove(part);
        return -1;
    }
    return 0;
}

/* lab_opts.on_row: the --json file, rewritten after each row. */
static void json_on_row(const lab_table *t, const lab_env *e, void *ctx)
{
    (void)write_json_now((const char *)ctx, t, e);
}

/* --html FILE (path NULL: nothing to do); a failure turns rc into one. */
static int write_html(const char *path, const lab_table *t, const lab_env *e,
                      int list, int rc)
{
    FILE *f;
    wm_status st;
    if (path == NULL)
        return rc;
    f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "warpmem-lab: error: %s: %s\n", path, strerror(errno));
        return LAB_EXIT_FAIL;
    }
    st = lab_write_html(f, t, e, list);
    if (fclose(f) != 0 && st == WM_OK)
        st = WM_ERR_IO;
    if (st == WM_ERR_UNSUPPORTED) {
        fprintf(stderr, "warpmem-lab: error: --html: this build's library has "
                        "no HTML writer\n");
        remove(path);
        return LAB_EXIT_FAIL;
    }
    if (st != WM_OK) {
        fprintf(stderr, "warpmem-lab: error: %s: %s\n", path,
                wm_status_str(st));
        return LAB_EXIT_FAIL;
    }
    return rc;
}

int main(int argc, char **argv)
{
    static lab_table table;
    lab_env env;
    lab_opts o;
    const char *only = NULL, *json_path = NULL, *html_path = NULL;
    wm_format fmt = WM_FMT_TEXT;
    int list = 0, cache = 0, rc;
    char why[256];
    wm_status st;
    FILE *json = NULL;

    memset(&env, 0, sizeof env);
    memset(&o, 0, sizeof o);
    o.repeat = 10;
    o.warmup_ms = LAB_WARMUP_MS;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int missing = 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("%s", usage);
            return LAB_EXIT_OK;
        } else if (strcmp(argv[i], "--list") == 0) {
            list = 1;
        } else if (strcmp(argv[i], "--once") == 0) {
            o.once = 1;
        } else if (strcmp(argv[i], "--cache") == 0) {
            cache = 1;
        } else if ((v = opt(argc, argv, &i, "--only", &missing)) != NULL) {
            only = v;
        } else if ((v = opt(argc, argv, &i, "--size", &missing)) != NULL) {
            o.size = parse_size(v);
            if (o.size == 0)
                return usage_error("--size: not a byte count", v);
        } else if ((v = opt(argc, argv, &i, "--repeat", &missing)) != NULL) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || end == v || n < 1 || n > 1000)
                return usage_error("--repeat: not a count in 1..1000", v);
            o.repeat = (unsigned)n;
        } else if ((v = opt(argc, argv, &i, "--html", &missing)) != NULL) {
            html_path = v;
        } else if ((v = opt(argc, argv, &i, "--commit", &missing)) != NULL) {
            snprintf(env.commit, sizeof env.commit, "%s", v);
        } else if ((v = opt(argc, argv, &i, "--json", &missing)) != NULL) {
            json_path = v;
        } else if ((v = opt(argc, argv, &i, "--format", &missing)) != NULL) {
            if (strcmp(v, "text") == 0)
                fmt = WM_FMT_TEXT;
            else if (strcmp(v, "json") == 0)
                fmt = WM_FMT_JSON;
            else if (strcmp(v, "csv") == 0)
                fmt = WM_FMT_CSV;
            else
                return usage_error("--format: expected text, json or csv", v);
        } else if (missing) {
            return usage_error("missing value for", argv[i]);
        } else {
            return usage_error("unknown argument", argv[i]);
        }
    }

    st = lab_table_build(&table);
    if (st != WM_OK) {
        fprintf(stderr, "warpmem-lab: error: model: %s\n", wm_status_str(st));
        return LAB_EXIT_FAIL;
    }
    if (only && lab_table_select(&table, only, why, sizeof why) == 0)
        return usage_error("--only: no row id starts with", why);
    if (cache && (st = lab_table_hier(&table, 8192)) != WM_OK) {
        fprintf(stderr, "warpmem-lab: error: hierarchy model: %s\n",
                wm_status_str(st));
        return LAB_EXIT_FAIL;
    }
    if (json_path) {
        json = fopen(json_path, "w");
        if (json == NULL) {
            fprintf(stderr, "warpmem-lab: error: %s: %s\n", json_path,
                    strerror(errno));
            return LAB_EXIT_FAIL;
        }
    }
    if (list) {
        lab_write(stdout, &table, &env, fmt, 1);
        if (json)
            lab_write(json, &table, &env, WM_FMT_JSON, 1);
        rc = write_html(html_path, &table, &env, 1, LAB_EXIT_OK);
        return close_json(json, json_path, rc);
    }

    rc = lab_gpu_open(&o, &env, why, sizeof why);
    if (rc == LAB_EXIT_NODEVICE) {
        fprintf(stderr, "warpmem-lab: no CUDA device: %s; nothing measured "
                        "(--list works without one)\n", why);
        return close_json(json, json_path, rc);
    }
    if (rc != LAB_EXIT_OK) {
        fprintf(stderr, "warpmem-lab: error: %s\n", why);
        lab_gpu_close();
        return close_json(json, json_path, rc);
    }
    if (json) {
        /* written row by row from now on (write_json_now) */
        rc = close_json(json, json_path, LAB_EXIT_OK);
        if (rc != LAB_EXIT_OK) {
            lab_gpu_close();
            return rc;
        }
        o.on_row = json_on_row;
        o.on_row_ctx = (void *)(uintptr_t)json_path;
    }
    rc = lab_gpu_run(&table, &env, &o);
    lab_write(stdout, &table, &env, fmt, 0);
    if (json_path && write_json_now(json_path, &table, &env) != 0)
        rc = LAB_EXIT_FAIL;
    rc = write_html(html_path, &table, &env, 0, rc);
    lab_gpu_close();
    return rc;
}
