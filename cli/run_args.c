/*
 * run_args.c -- `warpmem run --arg SPEC` (see run_args.h).  A spec is
 * matched against the form table (scalar, buffer), a buffer's options
 * against the option table; a new form or option is one row and one
 * parser.  Parsing allocates nothing but path copies, so every usage error
 * of the command line is found before any buffer memory is taken.
 *
 * .npy files are read and written through npy.c: only little-endian
 * C-order arrays of the --arg types are read; written files are version
 * 1.0.
 */
#define _POSIX_C_SOURCE 200809L
#include "run_args.h"

#include "npy.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#define LAZY_MIN ((size_t)1 << 20)

static char *dup_range(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

/* ---- scalar: TYPE=VALUE ------------------------------------------------- */

static int parse_scalar(const char *spec, const char *s, run_arg *a)
{
    char *end;
    const char *type = wm_ptx_type_name(a->type);
    size_t esz = wm_ptx_type_size(a->type);
    wm_ptx_type t = a->type;
    uint64_t bits = 0;
    char flag[300]; /* the whole spec in the number parsers' messages */
    snprintf(flag, sizeof flag, "--arg '%.280s'", spec);
    a->form = RUN_ARG_SCALAR;
    if (t == WM_PTX_F16 || t == WM_PTX_BF16) {
        cli_usage_error("--arg '%s': %s scalars are not supported; pass "
                        "the bits as u16=0x...",
                        spec, type);
        return 0;
    }
    if (t == WM_PTX_F32 || t == WM_PTX_F64) {
        errno = 0;
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
    } else if (t == WM_PTX_I8 || t == WM_PTX_I16 || t == WM_PTX_I32 ||
               t == WM_PTX_I64) {
        int64_t lo = esz == 8 ? INT64_MIN : -((int64_t)1 << (esz * 8 - 1));
        int64_t hi = esz == 8 ? INT64_MAX : ((int64_t)1 << (esz * 8 - 1)) - 1;
        int64_t v;
        if (!cli_parse_i64(flag, s, lo, hi, &v))
            return 0;
        bits = (uint64_t)v;
    } else {
        uint64_t v;
        if (!cli_parse_u64(flag, s, &v))
            return 0;
        if (esz < 8 && v >> (esz * 8)) {
            cli_usage_error("--arg '%s': value out of range for %s", spec,
                            type);
            return 0;
        }
        bits = v;
    }
    if (esz < 8)
        bits &= ((uint64_t)1 << (esz * 8)) - 1;
    a->scalar = bits;
    return 1;
}

/* ---- buffer options ------------------------------------------------------- */

typedef int (*opt_fn)(const char *spec, const char *val, size_t n,
                      run_arg *a);

static int opt_init(const char *spec, const char *val, size_t n, run_arg *a)
{
    if (n >= sizeof a->init) {
        cli_usage_error("--arg '%s': init too long", spec);
        return 0;
    }
    memcpy(a->init, val, n);
    a->init[n] = 0;
    if (wm_ptx_fill(NULL, a->type, 0, a->init) != WM_OK) {
        cli_usage_error("--arg '%s': bad init '%s' (zeros, iota, rand=SEED, "
                        "rand=SEED,LO,HI with LO <= HI in the type's range, "
                        "file=PATH)",
                        spec, a->init);
        return 0;
    }
    return 1;
}

static int opt_path(char **dst, int *nomem, const char *spec, const char *val,
                    size_t n)
{
    if (n == 0) {
        cli_usage_error("--arg '%s': empty path", spec);
        return 0;
    }
    free(*dst);
    *dst = dup_range(val, n);
    if (!*dst) {
        cli_error("out of memory");
        *nomem = 1;
        return 0;
    }
    return 1;
}

static int opt_file(const char *spec, const char *val, size_t n, run_arg *a)
{
    return opt_path(&a->file, &a->nomem, spec, val, n);
}

static int opt_out(const char *spec, const char *val, size_t n, run_arg *a)
{
    return opt_path(&a->out, &a->nomem, spec, val, n);
}

static int opt_partial(const char *spec, const char *val, size_t n,
                       run_arg *a)
{
    return opt_path(&a->partial, &a->nomem, spec, val, n);
}

static int opt_inout(const char *spec, const char *val, size_t n, run_arg *a)
{
    (void)spec;
    (void)val;
    (void)n;
    a->inout = 1;
    return 1;
}

/* :uninit -- the buffer is zeroed, but `--check init` treats its bytes as
   never written (cudaMalloc without a memset). */
static int opt_uninit(const char *spec, const char *val, size_t n,
                      run_arg *a)
{
    (void)spec;
    (void)val;
    (void)n;
    a->uninit = 1;
    return 1;
}

/* Buffer options: name, whether it takes "=VALUE", and its parser.  The
   init rules keep their "name=" in the value (wm_ptx_fill parses it). */
static const struct {
    const char *name;
    int has_value;
    int keep_name;
    opt_fn fn;
} options[] = {
    {"zeros", 0, 1, opt_init}, {"iota", 0, 1, opt_init},
    {"rand", 1, 1, opt_init},  {"file", 1, 0, opt_file},
    {"out", 1, 0, opt_out},    {"partial", 1, 0, opt_partial},
    {"in-out", 0, 0, opt_inout},
    {"uninit", 0, 0, opt_uninit},
};

/* TYPE[N0xN1...] then {:option} */
static int parse_buffer(const char *spec, const char *s, run_arg *a)
{
    size_t esz = wm_ptx_type_size(a->type);
    a->form = RUN_ARG_BUFFER;
    a->count = 1;
    strcpy(a->init, "zeros");
    for (;;) {
        char *end;
        errno = 0;
        unsigned long long d = strtoull(s, &end, 10);
        if (end == s || errno || d == 0 || a->ndims == RUN_MAX_DIMS ||
            d > ((uint64_t)1 << 40) / esz / a->count) {
            cli_usage_error("--arg '%s': expected TYPE[N] or TYPE[N0xN1...] "
                            "with 1 <= N and at most 2^40 bytes",
                            spec);
            return 0;
        }
        a->dims[a->ndims++] = d;
        a->count *= d;
        s = end;
        if (*s == ']')
            break;
        if (*s != 'x') {
            cli_usage_error("--arg '%s': expected ']' after the size", spec);
            return 0;
        }
        s++;
    }
    s++;
    while (*s == ':') {
        s++;
        size_t l = strcspn(s, ":");
        size_t k = 0;
        for (; k < NELEMS(options); k++) {
            size_t nl = strlen(options[k].name);
            if (strncmp(s, options[k].name, nl) != 0)
                continue;
            if (options[k].has_value ? s[nl] != '=' : nl != l)
                continue;
            const char *val = options[k].keep_name ? s : s + nl + 1;
            size_t vl = options[k].keep_name ? l : l - nl - 1;
            if (!options[k].has_value)
                val = s, vl = l;
            if (!options[k].fn(spec, val, vl, a))
                return 0;
            break;
        }
        if (k == NELEMS(options)) {
            cli_usage_error("--arg '%s': unknown init '%.*s' (zeros, iota, "
                            "rand=SEED[,LO,HI], file=PATH, out=PATH, "
                            "partial=PATH, in-out, uninit)",
                            spec, (int)l, s);
            return 0;
        }
        s += l;
    }
    if (*s) {
        cli_usage_error("--arg '%s': unexpected '%s'", spec, s);
        return 0;
    }
    if (a->file && strcmp(a->init, "zeros") != 0) {
        cli_usage_error("--arg '%s': file= and %s both give the contents",
                        spec, a->init);
        return 0;
    }
    return 1;
}

/* Spec forms by the character after TYPE. */
static const struct {
    char sep;
    int (*fn)(const char *spec, const char *rest, run_arg *a);
} forms[] = {
    {'=', parse_scalar},
    {'[', parse_buffer},
};

int run_arg_parse(const char *spec, run_arg *a)
{
    char type[8];
    size_t tl = strcspn(spec, "[=");
    memset(a, 0, sizeof *a);
    a->text = spec;
    if (tl == 0 || tl >= sizeof type || !spec[tl]) {
        cli_usage_error("--arg '%s': expected TYPE[N]... or TYPE=VALUE", spec);
        return 0;
    }
    memcpy(type, spec, tl);
    type[tl] = 0;
    if (wm_ptx_type_parse(type, &a->type) != WM_OK) {
        cli_usage_error("--arg '%s': unknown type '%s' (i8 u8 i16 u16 i32 u32 "
                        "i64 u64 f16 bf16 f32 f64)",
                        spec, type);
        return 0;
    }
    for (size_t k = 0; k < NELEMS(forms); k++)
        if (forms[k].sep == spec[tl])
            return forms[k].fn(spec, spec + tl + 1, a);
    return 0;
}

/* "param_3" of "<kernel>_param_3" (what nvcc, Triton and numba write). */
static const char *short_name(const char *name)
{
    const char *s = strstr(name, "_param_");
    return s ? s + 1 : name;
}

int run_arg_check(const run_arg *a, size_t i, const wm_ptx_param_info *p)
{
    char src[80] = "";
    if (*p->ctype)
        snprintf(src, sizeof src, " (%s)", p->ctype);
    if (a->form == RUN_ARG_VALUE) {
        if (a->value.size == p->size)
            return 1;
        cli_usage_error("--arg %zu: %s has %u bytes; parameter '%s'%s is "
                        "%s, %zu bytes",
                        i, a->text, a->value.size, short_name(p->name), src,
                        p->type, p->size);
        return 0;
    }
    int ok = a->form == RUN_ARG_SCALAR
                 ? wm_ptx_param_accepts_scalar(p, a->type, NULL, 0)
                 : wm_ptx_param_accepts_buffer(p, NULL, 0);
    if (ok)
        return 1;
    if (a->form == RUN_ARG_SCALAR)
        cli_usage_error("--arg %zu: %s given for %s parameter '%s'%s%s", i,
                        a->text,
                        p->use == WM_PTX_USE_POINTER ? "pointer" : p->type,
                        short_name(p->name), src,
                        p->use == WM_PTX_USE_POINTER ? ": pass a buffer, TYPE[N]"
                                                     : "");
    else
        cli_usage_error("--arg %zu: %s given for %s parameter '%s'%s, which "
                        "the kernel %s",
                        i, a->text, p->type, short_name(p->name), src,
                        p->size != 8 || p->count != 1
                            ? "cannot take as a pointer"
                        : p->use == WM_PTX_USE_TEXTURE
                            ? "uses as a texture object: pass tex1d/tex2d/"
                              "tex3d:FORMAT[...]"
                        : p->use == WM_PTX_USE_SURFACE
                            ? "uses as a surface object: pass surf1d/surf2d/"
                              "surf3d:FORMAT[...]"
                            : "uses as a value, not as an address");
    return 0;
}

/* ---- .npy (npy.c) ---------------------------------------------------------- */

static void shape_text(char *buf, size_t cap, const uint64_t *dims, unsigned nd)
{
    size_t o = 0;
    buf[0] = 0;
    for (unsigned k = 0; k < nd && o < cap; k++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%llu", k ? "x" : "",
                              (unsigned long long)dims[k]);
    if (!nd)
        snprintf(buf, cap, "()");
}

/* Check the .npy in data[0..n) (a file of total bytes) against s; *off =
   start of the array.  1, or 0 after printing an error. */
static int npy_check(const run_file_spec *s, const char *path,
                     const char *data, size_t n, size_t total, size_t *off)
{
    npy_header h;
    const char *e = npy_parse(data, n, &h);
    if (e) {
        cli_error("%s '%s': '%s': %s", s->opt, s->text, path, e);
        return 0;
    }
    const char *want = npy_descr(s->type);
    if (!want || strcmp(h.descr, want) != 0) {
        cli_error("%s '%s': '%s' holds '%s', the spec says %s (%s)", s->opt,
                  s->text, path, h.descr, wm_ptx_type_name(s->type),
                  want ? want : "no .npy type");
        return 0;
    }
    if (h.fortran_order) {
        cli_error("%s '%s': '%s' is in Fortran order; save it C-ordered",
                  s->opt, s->text, path);
        return 0;
    }
    int same = h.count == s->count;
    if (same && s->ndims > 1) {
        same = h.ndims == s->ndims;
        for (unsigned k = 0; same && k < h.ndims; k++)
            same = h.dims[k] == s->dims[k];
    }
    if (!same) {
        char got[128], spec[128];
        uint64_t one = s->count;
        shape_text(got, sizeof got, h.dims, h.ndims);
        if (s->ndims)
            shape_text(spec, sizeof spec, s->dims, s->ndims);
        else
            shape_text(spec, sizeof spec, &one, 1);
        cli_error("%s '%s': '%s' has shape %s, the spec %s", s->opt, s->text,
                  path, got, spec);
        return 0;
    }
    *off = h.data_off;
    if (total - *off != s->bytes) {
        cli_error("%s '%s': '%s' has %zu data bytes, the buffer %zu", s->opt,
                  s->text, path, total - *off, s->bytes);
        return 0;
    }
    return 1;
}

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), k = strlen(ext);
    return n > k && strcmp(path + n - k, ext) == 0;
}

static run_file_spec arg_file_spec(const run_arg *a)
{
    run_file_spec fs = {"--arg", a->text, a->type, a->count,
                        a->dims, a->ndims, a->bytes};
    return fs;
}

int run_file_read(const run_file_spec *s, const char *path, void *buf)
{
    size_t n = 0, off = 0;
    char *data = wm_read_file(path, &n);
    if (!data) {
        cli_error("%s '%s': cannot read '%s': %s", s->opt, s->text, path,
                  wm_read_error(errno));
        return 0;
    }
    int ok = 1;
    if (has_ext(path, ".npy"))
        ok = npy_check(s, path, data, n, n, &off);
    else if (n != s->bytes) {
        cli_error("%s '%s': '%s' has %zu bytes, the buffer %zu", s->opt,
                  s->text, path, n, s->bytes);
        ok = 0;
    }
    if (ok)
        memcpy(buf, data + off, s->bytes);
    free(data);
    return ok;
}

int run_arg_check_file(const run_arg *a)
{
    if ((a->form != RUN_ARG_BUFFER && a->form != RUN_ARG_TEX) || !a->file)
        return 1;
    size_t bytes = (size_t)a->count * wm_ptx_type_size(a->type);
    struct stat sb;
    int e = stat(a->file, &sb) != 0 ? errno
            : S_ISDIR(sb.st_mode)   ? EISDIR
            : !S_ISREG(sb.st_mode)  ? EINVAL /* a FIFO would block */
                                    : 0;
    FILE *f = e ? NULL : fopen(a->file, "rb");
    if (!f) {
        cli_error("--arg '%s': cannot read '%s': %s", a->text, a->file,
                  wm_read_error(e ? e : errno));
        return 0;
    }
    /* the size, then (.npy) the header: enough to refuse a mismatch */
    static char head[65536 + 16];
    int ok = fseek(f, 0, SEEK_END) == 0;
    long total = ok ? ftell(f) : -1;
    ok = ok && total >= 0 && fseek(f, 0, SEEK_SET) == 0;
    size_t n = ok ? fread(head, 1, sizeof head, f) : 0;
    fclose(f);
    if (!ok) {
        cli_error("--arg '%s': cannot read '%s'", a->text, a->file);
        return 0;
    }
    run_file_spec fs = arg_file_spec(a);
    fs.bytes = bytes;
    size_t off = 0;
    if (has_ext(a->file, ".npy"))
        return npy_check(&fs, a->file, head, n, (size_t)total, &off);
    if ((size_t)total != bytes) {
        cli_error("--arg '%s': '%s' has %zu bytes, the buffer %zu", a->text,
                  a->file, (size_t)total, bytes);
        return 0;
    }
    return 1;
}

/* ---- allocation ------------------------------------------------------------------ */

int run_arg_alloc(run_arg *a, int lazy)
{
    if (a->form != RUN_ARG_BUFFER && a->form != RUN_ARG_TEX)
        return 1;
    a->bytes = (size_t)a->count * wm_ptx_type_size(a->type);
    int nonzero = strcmp(a->init, "zeros") != 0;
    if (lazy && !a->file && nonzero && a->bytes >= LAZY_MIN)
        a->buf = run_lazy_map(a->bytes, &a->mapped, a->type, a->init,
                              lazy == RUN_LAZY_CAPPED);
    if (!a->buf) {
        a->mapped = 0;
        /* +16: vector loads of a last partial element are still caught by
           the bounds check, which uses bytes, not the allocation */
        a->buf = calloc(a->bytes + 16, 1);
        if (!a->buf) {
            cli_error("--arg '%s': cannot allocate %zu bytes", a->text,
                      a->bytes);
            return 0;
        }
        if (a->file) {
            run_file_spec fs = arg_file_spec(a);
            if (!run_file_read(&fs, a->file, a->buf))
                return 0;
        } else if (nonzero) {
            wm_ptx_fill(a->buf, a->type, (size_t)a->count, a->init);
        }
    }
    if (a->inout) {
        if (a->mapped)
            run_lazy_touch_all(a->buf);
        a->input = malloc(a->bytes ? a->bytes : 1);
        if (!a->input) {
            cli_error("--arg '%s': cannot allocate %zu bytes", a->text,
                      a->bytes);
            return 0;
        }
        memcpy(a->input, a->buf, a->bytes);
    }
    return 1;
}

wm_ptx_arg run_arg_launch(const run_arg *a)
{
    wm_ptx_arg r;
    memset(&r, 0, sizeof r);
    if (a->form == RUN_ARG_VALUE) {
        r = a->value;
    } else if (a->form == RUN_ARG_BUFFER) {
        r.buf = a->buf;
        r.bytes = a->bytes;
    } else if (a->form == RUN_ARG_TEX) {
        r.scalar = wm_ptx_texture_handle(a->tex_index);
        r.size = 8;
    } else {
        r.scalar = a->scalar;
        r.size = (unsigned)wm_ptx_type_size(a->type);
    }
    return r;
}

/* Write data as path (raw or .npy) into its temporary of st; 1 or 0
   after printing an error naming flag. */
static int write_one(const run_arg *a, cli_stage *st, const char *path,
                     const char *flag, const void *data)
{
    char what[1100];
    snprintf(what, sizeof what, "'%s' (%s)", path, flag);
    FILE *f = cli_stage_open(st, path);
    if (!f) {
        cli_write_error(what, errno);
        return 0;
    }
    int ok = 1, err = 0;
    if (has_ext(path, ".npy")) {
        char h[256];
        const char *d = npy_descr(a->type);
        size_t hl = npy_format(h, sizeof h, d ? d : "<u2", a->dims, a->ndims);
        ok = hl && fwrite(h, 1, hl, f) == hl;
    }
    /* through a bounce buffer: lazily mapped pages fault in user space,
       where they are filled, not inside write(2) */
    const unsigned char *p = data;
    unsigned char chunk[65536];
    for (size_t done = 0; ok && done < a->bytes;) {
        size_t k = a->bytes - done < sizeof chunk ? a->bytes - done : sizeof chunk;
        memcpy(chunk, p + done, k);
        ok = fwrite(chunk, 1, k, f) == k;
        done += k;
    }
    if (!ok)
        err = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (!ok)
        cli_write_error(what, err);
    return ok;
}

/* NAME.EXT -> NAME.in.EXT (to free), or NULL when out of memory. */
static char *in_name(const char *out)
{
    size_t n = strlen(out);
    const char *dot = strrchr(out, '.');
    const char *slash = strrchr(out, '/');
    if (!dot || (slash && dot < slash))
        dot = out + n;
    char *in = malloc(n + 4);
    if (!in)
        return NULL;
    memcpy(in, out, (size_t)(dot - out));
    strcpy(in + (dot - out), ".in");
    strcat(in, dot);
    return in;
}

static int is_buffer(const run_arg *a)
{
    return a->form == RUN_ARG_BUFFER || a->form == RUN_ARG_TEX;
}

int run_arg_outputs(const run_arg *a, cli_stage *st)
{
    if (!is_buffer(a))
        return 1;
    if (a->out && !cli_stage_add(st, a->out, ":out="))
        return 0;
    if (a->partial && !cli_stage_add(st, a->partial, ":partial="))
        return 0;
    if (a->out && a->inout) {
        char *in = in_name(a->out);
        int ok = in && cli_stage_add(st, in, ":in-out input");
        if (!in)
            cli_error("out of memory");
        free(in);
        return ok;
    }
    return 1;
}

int run_arg_write(const run_arg *a, cli_stage *st, int partial)
{
    if (!is_buffer(a))
        return 1;
    if (partial)
        return !a->partial ||
               write_one(a, st, a->partial, ":partial=", a->buf);
    if (!a->out)
        return 1;
    int ok = write_one(a, st, a->out, ":out=", a->buf);
    if (a->inout && a->input) {
        char *in = in_name(a->out);
        if (!in)
            return cli_error("out of memory"), 0;
        ok = write_one(a, st, in, ":in-out input", a->input) && ok;
        free(in);
    }
    return ok;
}

void run_arg_free(run_arg *a)
{
    if (a->mapped)
        run_lazy_unmap(a->buf, a->mapped);
    else
        free(a->buf);
    free(a->file);
    free(a->out);
    free(a->partial);
    free(a->input);
    a->buf = a->file = a->out = a->partial = NULL;
    a->input = NULL;
}
