/*
 * run_tex.c -- `warpmem run --arg KIND:FORMAT[W{xH{xD}}]{:option}`: a
 * texture or surface object (cudaTextureObject_t, cudaSurfaceObject_t)
 * bound to a buffer of texels; the kernel's parameter receives its handle.
 *
 *   KIND     tex1d tex2d tex3d surf1d surf2d surf3d
 *   FORMAT   f32 f16 u8 i8 u16 i16 u32 i32, with x2 / x4 for 2 / 4
 *            channels (u8x4: RGBA8)
 *   [W x H x D]  the extent in texels, width first as CUDA gives it
 *   options  the buffer's (zeros iota rand=.. file=PATH out=PATH in-out)
 *            and, for textures, wrap clamp mirror border (every
 *            dimension; default clamp), point linear (default point),
 *            norm-coords (coordinates in [0, 1)), norm-read (8/16-bit
 *            integers read as floats in [0, 1] / [-1, 1])
 *
 * The texels form an ordinary buffer of D x H x W x channels elements (C
 * order, so a .npy file has that shape), parsed, filled and written back
 * by run_args.c.
 */
#include "run_args.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    unsigned dims;
    int surface;
} kinds[] = {
    {"tex1d", 1, 0},  {"tex2d", 2, 0},  {"tex3d", 3, 0},
    {"surf1d", 1, 1}, {"surf2d", 2, 1}, {"surf3d", 3, 1},
};

static const struct {
    const char *name;
    int addr; /* wm_ptx_addr_mode, or -1 */
} tex_opts[] = {
    {"wrap", WM_PTX_ADDR_WRAP},
    {"clamp", WM_PTX_ADDR_CLAMP},
    {"mirror", WM_PTX_ADDR_MIRROR},
    {"border", WM_PTX_ADDR_BORDER},
    {"point", -1},
    {"linear", -1},
    {"norm-coords", -1},
    {"norm-read", -1},
};

/* The kind a spec starts with ("tex2d:"), or -1. */
static int kind_of(const char *spec) {
    for (size_t k = 0; k < NELEMS(kinds); k++) {
        size_t n = strlen(kinds[k].name);
        if (strncmp(spec, kinds[k].name, n) == 0 && spec[n] == ':')
            return (int)k;
    }
    return -1;
}

int run_tex_is(const char *spec) {
    return kind_of(spec) >= 0;
}

/* A texture option (1), or 0 if o (n bytes) is not one. */
static int tex_option(const char *o, size_t n, wm_ptx_texture *t) {
    for (size_t k = 0; k < NELEMS(tex_opts); k++) {
        if (strlen(tex_opts[k].name) != n || strncmp(o, tex_opts[k].name, n))
            continue;
        if (tex_opts[k].addr >= 0)
            t->address[0] = t->address[1] = t->address[2] =
                (wm_ptx_addr_mode)tex_opts[k].addr;
        else if (o[0] == 'p' || o[0] == 'l')
            t->filter =
                o[0] == 'l' ? WM_PTX_FILTER_LINEAR : WM_PTX_FILTER_POINT;
        else if (strncmp(o, "norm-c", 6) == 0)
            t->normalized_coords = 1;
        else
            t->read_normalized = 1;
        return 1;
    }
    return 0;
}

/* FORMAT[xC]: the element type and channels. */
static int parse_format(const char *spec, const char *s, size_t n,
                        wm_ptx_texture *t) {
    char name[8];
    t->channels = 1;
    if (n > 2 && s[n - 2] == 'x' && (s[n - 1] == '2' || s[n - 1] == '4')) {
        t->channels = (unsigned)(s[n - 1] - '0');
        n -= 2;
    }
    wm_ptx_type f = WM_PTX_NTYPES;
    if (n < sizeof name) {
        memcpy(name, s, n);
        name[n] = 0;
        if (wm_ptx_type_parse(name, &f) != WM_OK)
            f = WM_PTX_NTYPES;
    }
    if (f == WM_PTX_NTYPES || f == WM_PTX_I64 || f == WM_PTX_U64 ||
        f == WM_PTX_BF16 || f == WM_PTX_F64) {
        cli_usage_error("--arg '%s': texel format '%.*s' (f32 f16 u8 i8 u16 "
                        "i16 u32 i32, x2 or x4 for 2 or 4 channels)",
                        spec, (int)n, s);
        return 0;
    }
    t->format = f;
    return 1;
}

/* [W{xH{xD}}] with as many extents as the kind has dimensions. */
static const char *parse_extent(const char *spec, const char *s,
                                wm_ptx_texture *t) {
    unsigned *ext[3] = {&t->width, &t->height, &t->depth};
    unsigned k = 0;
    s++; /* '[' */
    for (;;) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || v == 0 || v > (1ul << 20) || k == 3)
            break;
        *ext[k++] = (unsigned)v;
        s = end;
        if (*s == ']' && k == t->dims)
            return s + 1;
        if (*s != 'x')
            break;
        s++;
    }
    cli_usage_error("--arg '%s': expected %s extents in texels, 1 .. 2^20 "
                    "each (width%s)",
                    spec,
                    t->dims == 1   ? "[W]"
                    : t->dims == 2 ? "[WxH]"
                                   : "[WxHxD]",
                    t->dims == 1 ? "" : " first, as CUDA gives them");
    return NULL;
}

int run_tex_parse(const char *spec, run_arg *a, size_t index) {
    /* *a is freed by the caller on failure, also when failing before
       run_arg_parse fills it */
    memset(a, 0, sizeof *a);
    int k = kind_of(spec);
    wm_ptx_texture t;
    memset(&t, 0, sizeof t);
    t.dims = kinds[k].dims;
    t.surface = kinds[k].surface;
    t.width = t.height = t.depth = 1;
    t.address[0] = t.address[1] = t.address[2] = WM_PTX_ADDR_CLAMP;
    const char *s = spec + strlen(kinds[k].name) + 1, *br = strchr(s, '[');
    if (!br) {
        cli_usage_error("--arg '%s': expected %s:FORMAT[extent]", spec,
                        kinds[k].name);
        return 0;
    }
    if (!parse_format(spec, s, (size_t)(br - s), &t))
        return 0;
    s = parse_extent(spec, br, &t);
    if (!s)
        return 0;
    /* the buffer: TYPE[D x H x W x C] (C order) and its own options */
    char buf[1024];
    unsigned ext[3] = {t.width, t.height, t.depth};
    int o = snprintf(buf, sizeof buf, "%s[", wm_ptx_type_name(t.format));
    for (unsigned d = t.dims; d-- > 0;)
        o += snprintf(buf + o, sizeof buf - (size_t)o, "%u%s", ext[d],
                      d ? "x" : "");
    if (t.channels > 1)
        o += snprintf(buf + o, sizeof buf - (size_t)o, "x%u", t.channels);
    o += snprintf(buf + o, sizeof buf - (size_t)o, "]");
    int tex_opt = 0;
    while (*s == ':') {
        s++;
        size_t n = strcspn(s, ":");
        static const char *const bufopts[] = {
            "zeros", "iota", "rand=", "file=", "out=", "partial=", "in-out"};
        int known = 0;
        for (size_t b = 0; b < NELEMS(bufopts); b++) {
            size_t bl = strlen(bufopts[b]);
            int eq = bufopts[b][bl - 1] == '=';
            known |= (eq ? n > bl : n == bl) && !strncmp(s, bufopts[b], bl);
        }
        if (tex_option(s, n, &t)) {
            tex_opt = 1;
        } else if (!known) {
            cli_usage_error("--arg '%s': unknown option '%.*s' (zeros iota "
                            "rand=SEED[,LO,HI] file=PATH out=PATH in-out; "
                            "textures: wrap clamp mirror border point linear "
                            "norm-coords norm-read)",
                            spec, (int)n, s);
            return 0;
        } else if ((size_t)o + n + 2 < sizeof buf) {
            o += snprintf(buf + o, sizeof buf - (size_t)o, ":%.*s", (int)n, s);
        }
        s += n;
    }
    if (*s) {
        cli_usage_error("--arg '%s': unexpected '%s'", spec, s);
        return 0;
    }
    if (t.surface && tex_opt) {
        cli_usage_error("--arg '%s': a surface has no filter, address mode "
                        "or normalized reads (suld/sust choose .trap, .clamp "
                        "or .zero)",
                        spec);
        return 0;
    }
    size_t esz = wm_ptx_type_size(t.format);
    if (t.read_normalized &&
        (t.format == WM_PTX_F32 || t.format == WM_PTX_F16 || esz > 2)) {
        cli_usage_error("--arg '%s': norm-read needs an 8- or 16-bit integer "
                        "format",
                        spec);
        return 0;
    }
    if (t.filter == WM_PTX_FILTER_LINEAR && !t.read_normalized &&
        t.format != WM_PTX_F32 && t.format != WM_PTX_F16) {
        cli_usage_error("--arg '%s': linear filtering of integer texels "
                        "needs norm-read (CUDA refuses it otherwise)",
                        spec);
        return 0;
    }
    if (!run_arg_parse(buf, a))
        return 0;
    a->text = spec;
    a->form = RUN_ARG_TEX;
    a->tex = t;
    a->tex_index = index;
    return 1;
}

int run_tex_check(const run_arg *a, size_t i, const wm_ptx_param_info *p) {
    const char *kind = a->tex.surface ? "surface" : "texture";
    const char *s = strstr(p->name, "_param_"), *name = s ? s + 1 : p->name;
    if (p->size != 8 || p->count != 1) {
        cli_usage_error("--arg %zu: %s gives an 8-byte %s object handle; "
                        "parameter '%s' is %s, %zu bytes",
                        i, a->text, kind, name, p->type, p->size);
        return 0;
    }
    if (p->use == WM_PTX_USE_POINTER) {
        cli_usage_error("--arg %zu: %s given for parameter '%s', which the "
                        "kernel uses as a pointer, not as a %s object",
                        i, a->text, name, kind);
        return 0;
    }
    if (p->use == (a->tex.surface ? WM_PTX_USE_TEXTURE : WM_PTX_USE_SURFACE)) {
        cli_usage_error("--arg %zu: %s given for parameter '%s', which the "
                        "kernel uses as a %s object: pass %s",
                        i, a->text, name,
                        a->tex.surface ? "texture" : "surface",
                        a->tex.surface ? "tex1d/tex2d/tex3d:..."
                                       : "surf1d/surf2d/surf3d:...");
        return 0;
    }
    return 1;
}

size_t run_tex_collect(const run_arg *args, size_t n, wm_ptx_texture *out) {
    size_t nt = 0;
    for (size_t i = 0; i < n; i++) {
        if (args[i].form != RUN_ARG_TEX)
            continue;
        wm_ptx_texture *t = &out[args[i].tex_index];
        *t = args[i].tex;
        t->data = args[i].buf;
        t->bytes = args[i].bytes;
        nt++;
    }
    return nt;
}
