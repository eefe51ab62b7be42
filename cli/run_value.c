/*
 * run_value.c -- by-value kernel parameters and module variables for
 * `warpmem run` (see run_value.h and docs/ptx.md "Arguments").
 *
 * A struct spec lists its fields in declaration order; they are laid out
 * as a C compiler does (each field at a multiple of its size, pointers 8
 * bytes, the whole padded to its largest field), which is what nvcc's
 * `.param .align A .b8 p[N]` holds.  A buffer field allocates an extra
 * device buffer (wm_ptx_launch.extra) and stores its address.
 */
#include "cli.h"
#include "run_value.h"
#include "run_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rv_is_value(const char *spec)
{
    return spec[0] == '{' || strncmp(spec, "bytes:", 6) == 0 ||
           strncmp(spec, "tmap:", 5) == 0;
}

/* Remember an input file's path for the output checks (best effort:
   past RV_MAX inputs or out of memory, it is not recorded). */
static void note_input(run_values *rv, const char *path, size_t n)
{
    char *p = rv->ninputs < RV_MAX ? malloc(n + 1) : NULL;
    if (!p)
        return;
    memcpy(p, path, n);
    p[n] = 0;
    rv->inputs[rv->ninputs++] = p;
}

int rv_buffer(const char *ctx, const char *s, size_t n, void **buf,
              size_t *bytes, char **out, run_values *rv)
{
    char spec[512];
    if (n >= sizeof spec)
        return cli_usage_error("%s: too long", ctx), 0;
    memcpy(spec, s, n);
    spec[n] = 0;
    char *br = strchr(spec, '[');
    wm_ptx_type t;
    if (!br)
        return cli_usage_error("%s: expected TYPE[N]", ctx), 0;
    *br = 0;
    if (wm_ptx_type_parse(spec, &t) != WM_OK)
        return cli_usage_error("%s: unknown type '%s'", ctx, spec), 0;
    char *end;
    errno = 0;
    unsigned long long count = strtoull(br + 1, &end, 10);
    size_t esz = wm_ptx_type_size(t);
    if (end == br + 1 || *end != ']' || errno || count == 0 ||
        count > ((uint64_t)1 << 32) / esz)
        return cli_usage_error("%s: expected TYPE[N] with 1 <= N and at "
                               "most 2^32 bytes",
                               ctx), 0;
    char init[128] = "zeros", file[512] = "";
    char *q = end + 1;
    *out = NULL;
    while (*q == ':') {
        q++;
        size_t l = strcspn(q, ":");
        if (strncmp(q, "out=", 4) == 0) {
            free(*out);
            if (!(*out = malloc(l - 3))) { /* never a dropped output */
                rv->nomem = 1;
                return cli_error("%s: out of memory", ctx), 0;
            }
            memcpy(*out, q + 4, l - 4);
            (*out)[l - 4] = 0;
        } else if (strncmp(q, "file=", 5) == 0 && l - 5 < sizeof file) {
            memcpy(file, q + 5, l - 5);
            file[l - 5] = 0;
        } else if (l < sizeof init) {
            memcpy(init, q, l);
            init[l] = 0;
        } else { /* no fill rule is this long: never ignored */
            free(*out);
            *out = NULL;
            return cli_usage_error("%s: unknown fill '%.*s'", ctx, (int)l, q),
                   0;
        }
        q += l;
    }
    if (*q) {
        free(*out);
        *out = NULL;
        return cli_usage_error("%s: unexpected '%s'", ctx, q), 0;
    }
    *bytes = (size_t)count * esz;
    *buf = calloc(*bytes + 16, 1);
    if (!*buf) {
        free(*out);
        *out = NULL;
        rv->nomem = 1;
        return cli_error("%s: cannot allocate %zu bytes", ctx, *bytes), 0;
    }
    if (*file) {
        char text[512];
        memcpy(text, s, n);
        text[n] = 0;
        run_file_spec fs = {"buffer", text, t, count, NULL, 0, *bytes};
        note_input(rv, file, strlen(file));
        if (!run_file_read(&fs, file, *buf)) {
            rv->bad_file = 1; /* an input error, not a usage error */
            goto fail;
        }
    } else if (wm_ptx_fill(*buf, t, (size_t)count, init) != WM_OK) {
        cli_usage_error("%s: unknown init '%s' (zeros, iota, rand=SEED, "
                        "file=PATH)", ctx, init);
        goto fail;
    }
    return 1;
fail: /* nothing is kept: the caller has not counted this buffer */
    free(*buf);
    *buf = NULL;
    free(*out);
    *out = NULL;
    return 0;
}

/* A scalar field TYPE=VALUE: its bits and size. */
static int scalar(const char *s, size_t n, uint64_t *bits, size_t *size)
{
    char spec[128];
    if (n >= sizeof spec)
        return cli_usage_error("'%.*s': too long", (int)n, s), 0;
    memcpy(spec, s, n);
    spec[n] = 0;
    char *eq = strchr(spec, '=');
    wm_ptx_type t;
    *eq = 0;
    if (wm_ptx_type_parse(spec, &t) != WM_OK || t == WM_PTX_F16 ||
        t == WM_PTX_BF16)
        return cli_usage_error("'%.*s': unknown scalar type '%s'", (int)n, s,
                               spec), 0;
    *size = wm_ptx_type_size(t);
    char *end;
    errno = 0;
    if (t == WM_PTX_F32 || t == WM_PTX_F64) {
        double v = strtod(eq + 1, &end);
        if (t == WM_PTX_F32) {
            float f = (float)v;
            uint32_t u;
            memcpy(&u, &f, 4);
            *bits = u;
        } else {
            memcpy(bits, &v, 8);
        }
    } else {
        *bits = (uint64_t)strtoll(eq + 1, &end, 0);
    }
    if (end == eq + 1 || *end || errno)
        return cli_usage_error("'%.*s': bad value", (int)n, s), 0;
    return 1;
}

/* bytes:hex=HEX | bytes:file=PATH */
static int raw_bytes(const char *spec, wm_ptx_arg *a, run_values *rv)
{
    const char *s = spec + 6;
    uint8_t *v = NULL;
    size_t n = 0;
    if (strncmp(s, "hex=", 4) == 0) {
        s += 4;
        size_t len = strlen(s);
        if (len == 0 || len % 2)
            return cli_usage_error("--arg '%s': an even number of hex "
                                   "digits expected", spec), 0;
        n = len / 2;
        v = malloc(n);
        for (size_t i = 0; v && i < n; i++) {
            char d[3] = {s[2 * i], s[2 * i + 1], 0}, *end;
            v[i] = (uint8_t)strtoul(d, &end, 16);
            if (*end) {
                free(v);
                return cli_usage_error("--arg '%s': '%s' is not hex", spec,
                                       d), 0;
            }
        }
    } else if (strncmp(s, "file=", 5) == 0) {
        note_input(rv, s + 5, strlen(s + 5));
        v = (uint8_t *)wm_read_file(s + 5, &n);
        if (!v)
            return cli_error("--arg '%s': cannot read '%s': %s", spec, s + 5,
                             wm_read_error(errno)), 0;
    } else {
        return cli_usage_error("--arg '%s': expected bytes:hex=.. or "
                               "bytes:file=PATH", spec), 0;
    }
    if (!v || rv->nvals >= RV_MAX) {
        free(v);
        return cli_error("--arg '%s': out of memory", spec), 0;
    }
    rv->vals[rv->nvals++] = v;
    a->value = v;
    a->size = (unsigned)n;
    return 1;
}

int rv_value_arg(const char *spec, wm_ptx_arg *a, run_values *rv)
{
    memset(a, 0, sizeof *a);
    if (spec[0] != '{')
        return raw_bytes(spec, a, rv);
    size_t len = strlen(spec);
    if (len < 2 || spec[len - 1] != '}')
        return cli_usage_error("--arg '%s': expected {FIELD, ...}", spec), 0;
    uint8_t val[512];
    size_t off = 0, maxal = 1;
    memset(val, 0, sizeof val);
    const char *s = spec + 1, *e = spec + len - 1;
    while (s < e) {
        while (s < e && (*s == ' ' || *s == ','))
            s++;
        const char *f = s;
        while (s < e && *s != ',')
            s++;
        size_t fl = (size_t)(s - f);
        while (fl && f[fl - 1] == ' ')
            fl--;
        if (!fl)
            continue;
        uint64_t bits = 0;
        size_t size;
        if (memchr(f, '[', fl)) { /* a buffer: a pointer field */
            if (rv->nextra >= RV_MAX || rv->nfix >= RV_MAX)
                return cli_usage_error("--arg: at most %d buffer fields",
                                       RV_MAX), 0;
            wm_ptx_arg *x = &rv->extra[rv->nextra];
            size_t bytes;
            char ctx[1024];
            snprintf(ctx, sizeof ctx, "--arg '%s': field '%.*s'", spec,
                     (int)fl, f);
            if (!rv_buffer(ctx, f, fl, &x->buf, &bytes,
                           &rv->extra_out[rv->nextra], rv))
                return 0;
            x->bytes = bytes;
            size = 8;
            rv->fix[rv->nfix].off = (off + 7) / 8 * 8;
            rv->fix[rv->nfix].extra = rv->nextra++;
            rv->nfix++;
        } else if (memchr(f, '=', fl)) {
            if (!scalar(f, fl, &bits, &size))
                return 0;
        } else {
            return cli_usage_error("--arg '%s': field '%.*s' is neither "
                                   "TYPE[N]... nor TYPE=VALUE",
                                   spec, (int)fl, f), 0;
        }
        off = (off + size - 1) / size * size;
        if (off + size > sizeof val)
            return cli_usage_error("--arg '%s': struct over %zu bytes", spec,
                                   sizeof val), 0;
        memcpy(val + off, &bits, size);
        off += size;
        if (size > maxal)
            maxal = size;
    }
    off = (off + maxal - 1) / maxal * maxal;
    uint8_t *v = malloc(off ? off : 1);
    if (!v || rv->nvals >= RV_MAX) {
        free(v);
        return cli_error("out of memory"), 0;
    }
    memcpy(v, val, off);
    for (size_t i = 0; i < rv->nfix; i++)
        if (!rv->fix[i].val)
            rv->fix[i].val = v;
    rv->vals[rv->nvals++] = v;
    a->value = v;
    a->size = (unsigned)off;
    return 1;
}

int rv_global(const char *spec, run_values *rv)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || rv->nglobals >= RV_MAX)
        return cli_usage_error("--global '%s': expected NAME=TYPE[N]"
                               "[:init][:out=PATH]", spec), 0;
    wm_ptx_global *g = &rv->globals[rv->nglobals];
    char *name = malloc((size_t)(eq - spec) + 1);
    if (!name) {
        rv->nomem = 1;
        return cli_error("out of memory"), 0;
    }
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = 0;
    void *buf;
    size_t bytes;
    char *out = NULL, ctx[1024];
    snprintf(ctx, sizeof ctx, "--global '%s'", spec);
    if (!rv_buffer(ctx, eq + 1, strlen(eq + 1), &buf, &bytes, &out, rv)) {
        free(name);
        return 0;
    }
    g->name = name;
    g->init = buf;
    g->out = out ? buf : NULL;
    g->bytes = bytes;
    rv->gout[rv->nglobals++] = out;
    return 1;
}

void rv_finish(run_values *rv, size_t nargs)
{
    for (size_t i = 0; i < rv->nfix; i++) {
        uint64_t a = wm_ptx_extra_address(nargs, rv->fix[i].extra);
        memcpy(rv->fix[i].val + rv->fix[i].off, &a, 8);
    }
}

static int write_file(cli_stage *st, const char *path, const void *p,
                      size_t n)
{
    char what[600];
    snprintf(what, sizeof what, "'%s' (:out=)", path);
    FILE *f = cli_stage_open(st, path);
    int ok = f && fwrite(p, 1, n, f) == n;
    int err = ok ? 0 : errno;
    if (f && fclose(f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (!ok)
        cli_write_error(what, err);
    return ok;
}

int rv_outputs(const run_values *rv, cli_stage *st)
{
    for (size_t i = 0; i < rv->nextra; i++)
        if (rv->extra_out[i] && !cli_stage_add(st, rv->extra_out[i], ":out="))
            return 0;
    for (size_t i = 0; i < rv->nglobals; i++)
        if (rv->gout[i] && !cli_stage_add(st, rv->gout[i], "--global :out="))
            return 0;
    return 1;
}

int rv_write(const run_values *rv, cli_stage *st)
{
    int ok = 1;
    for (size_t i = 0; i < rv->nextra; i++)
        if (rv->extra_out[i])
            ok &= write_file(st, rv->extra_out[i], rv->extra[i].buf,
                             rv->extra[i].bytes);
    for (size_t i = 0; i < rv->nglobals; i++)
        if (rv->gout[i])
            ok &= write_file(st, rv->gout[i], rv->globals[i].out,
                             rv->globals[i].bytes);
    return ok;
}

void rv_free(run_values *rv)
{
    for (size_t i = 0; i < rv->nextra; i++) {
        free(rv->extra[i].buf);
        free(rv->extra_out[i]);
    }
    for (size_t i = 0; i < rv->nvals; i++)
        free(rv->vals[i]);
    for (size_t i = 0; i < rv->ninputs; i++)
        free(rv->inputs[i]);
    for (size_t i = 0; i < rv->nglobals; i++) {
        free((void *)(uintptr_t)rv->globals[i].name);
        free((void *)(uintptr_t)rv->globals[i].init);
        free(rv->gout[i]);
    }
    memset(rv, 0, sizeof *rv);
}
