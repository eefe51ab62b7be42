/*
 * ptx_tex.c -- texture and surface objects: tex, tld4, suld.b, sust.b and
 * txq/suq on the handles of wm_ptx_launch.textures.
 *
 * A texture is read through its filter: the coordinate of each dimension
 * is addressed (wrap, mirror, clamp, border), then point sampling takes one
 * texel and linear filtering 2, 4 or 8 with weights in 1/256 steps, the
 * 9-bit fixed-point format (8 fractional bits) the hardware uses.  Every
 * texel read is counted as texture traffic (WM_SPACE_TEXTURE): one request
 * per instruction, the distinct 32-byte sectors of all texels the warp's
 * filters read, on the row-major layout of linear memory.  Surfaces are
 * byte-addressed in x and counted like global accesses (WM_SPACE_SURFACE).
 * The model and its simplifications: docs/design/ptx-tex.md.
 */
#include "ptx_int.h"

#include <math.h>

#define TEX_TAG 0xfffau

uint64_t wm_ptx_texture_handle(size_t j) {
    return (uint64_t)TEX_TAG << WMI_WIN_SHIFT | (uint64_t)j;
}

/* ---- decoding -------------------------------------------------------------
 */

int wmi_ptx_is_tex(unsigned op) {
    return op == OP_TEX || op == OP_TLD4 || op == OP_SULD || op == OP_SUST ||
           op == OP_TXQ;
}

void wmi_ptx_tex_decode(const char *s, size_t n, wmi_insn *in) {
    static const char *const geo[] = {"1d", "2d", "3d"};
    static const char *const comp[] = {"r", "g", "b", "a"};
    static const char *const clampm[] = {"trap", "clamp", "zero"};
    static const char *const query[] = {"width", "height", "depth"};
    int known = 0;
    in->mod = 0;
    in->mod2 = 0;
    in->flags &= (uint16_t)~F_CLAMP;
    for (unsigned k = 0; k < 3; k++)
        if (wmi_has_word(s, n, geo[k]))
            in->mod = (uint8_t)(k + 1);
    if (in->op == OP_TXQ) {
        for (unsigned k = 0; k < 3; k++)
            if (wmi_has_word(s, n, query[k]))
                in->mod = (uint8_t)k, known = 1;
        if (wmi_has_word(s, n, "level")) /* mipmap levels: not modelled */
            known = 0;
    } else if (in->op == OP_TEX) {
        in->mod2 = wmi_has_word(s, n, "level")  ? 1
                   : wmi_has_word(s, n, "grad") ? 2
                                                : 0;
        known =
            in->mod && in->vec == 4 &&
            (in->type == PT_F32 || in->type == PT_S32 || in->type == PT_U32) &&
            (in->type2 == PT_F32 || in->type2 == PT_S32);
    } else if (in->op == OP_TLD4) {
        for (unsigned k = 0; k < 4; k++)
            if (wmi_has_word(s, n, comp[k]))
                in->mod2 = (uint8_t)k;
        known =
            in->mod == 2 && in->vec == 4 && in->type2 == PT_F32 &&
            (in->type == PT_F32 || in->type == PT_S32 || in->type == PT_U32);
    } else {
        for (unsigned k = 0; k < 3; k++)
            if (wmi_has_word(s, n, clampm[k]))
                in->mod2 = (uint8_t)k;
        /* suld.b / sust.b (raw bytes); the formatted .p forms: no */
        known = in->mod && wmi_has_word(s, n, "b") &&
                !wmi_has_word(s, n, "p") &&
                wmi_type_bits((wmi_type)in->type) >= 8 &&
                wmi_type_bits((wmi_type)in->type) <= 64;
    }
    if (!known) /* parsed, faults as unsupported when run */
        in->op = OP_UNKNOWN;
}

wmi_type wmi_ptx_tex_src_type(const wmi_insn *in, unsigned k) {
    if (k == 0)
        return PT_U64; /* the handle */
    if (k == 1)
        return in->op == OP_TEX || in->op == OP_TLD4 ? (wmi_type)in->type2
                                                     : PT_S32;
    return in->op == OP_SUST ? (wmi_type)in->type : PT_F32;
}

/* ---- launch checks ------------------------------------------------------- */

static int int_format(wm_ptx_type f) {
    return f == WM_PTX_U8 || f == WM_PTX_I8 || f == WM_PTX_U16 ||
           f == WM_PTX_I16 || f == WM_PTX_U32 || f == WM_PTX_I32;
}

/* Bytes of one texel. */
static unsigned texel_bytes(const wm_ptx_texture *t) {
    return (unsigned)wm_ptx_type_size(t->format) * t->channels;
}

int wmi_ptx_tex_check(const wm_ptx_texture *t, char *msg, size_t n) {
    unsigned ext[3] = {t->width, t->height, t->depth};
    if (t->dims < 1 || t->dims > 3)
        return snprintf(msg, n, "%u dimensions (1, 2 or 3)", t->dims), 0;
    if (!int_format(t->format) && t->format != WM_PTX_F32 &&
        t->format != WM_PTX_F16)
        return snprintf(msg, n,
                        "element format %s (f32 f16 u8 i8 u16 i16 "
                        "u32 i32)",
                        wm_ptx_type_name(t->format)),
               0;
    if (t->channels != 1 && t->channels != 2 && t->channels != 4)
        return snprintf(msg, n, "%u channels (1, 2 or 4)", t->channels), 0;
    uint64_t texels = 1;
    for (unsigned k = 0; k < 3; k++) {
        if (ext[k] == 0 || (k >= t->dims && ext[k] != 1) || ext[k] > 1u << 20)
            return snprintf(msg, n,
                            "extent %u of dimension %u (1..2^20; 1 "
                            "beyond the texture's dimensions)",
                            ext[k], k),
                   0;
        texels *= ext[k];
    }
    if (!t->data || t->bytes < texels * texel_bytes(t))
        return snprintf(msg, n,
                        "%zu bytes of data for %llu texels of %u "
                        "bytes",
                        t->bytes, (unsigned long long)texels, texel_bytes(t)),
               0;
    if (t->read_normalized &&
        !(int_format(t->format) && wm_ptx_type_size(t->format) <= 2))
        return snprintf(msg, n,
                        "normalized reads need an 8- or 16-bit "
                        "integer format, not %s",
                        wm_ptx_type_name(t->format)),
               0;
    if (t->filter == WM_PTX_FILTER_LINEAR && int_format(t->format) &&
        !t->read_normalized)
        return snprintf(msg, n,
                        "linear filtering of %s texels needs "
                        "normalized reads",
                        wm_ptx_type_name(t->format)),
               0;
    if ((unsigned)t->filter > WM_PTX_FILTER_LINEAR)
        return snprintf(msg, n, "filter mode %d", (int)t->filter), 0;
    for (unsigned k = 0; k < 3; k++)
        if ((unsigned)t->address[k] > WM_PTX_ADDR_BORDER)
            return snprintf(msg, n, "address mode %d", (int)t->address[k]), 0;
    return 1;
}

/* ---- per-lane helpers ------------------------------------------------------
 */

static inline uint32_t vs(const wm_ptx_module *m, uint32_t v, unsigned k) {
    return (v & WMI_VEC) ? m->pool[(v & ~WMI_VEC) + 1 + k] : v;
}

static inline unsigned vn(const wm_ptx_module *m, uint32_t v) {
    return (v & WMI_VEC) ? m->pool[v & ~WMI_VEC] : 1;
}

/* The object behind lane l's handle h (*out), or a fault. */
static wm_status object(wmi_cta *c, const wmi_warp *w, unsigned l, uint32_t pc,
                        uint64_t h, int surface, const wm_ptx_texture **out,
                        uint32_t *index) {
    uint64_t j = h & WMI_WIN_MASK;
    const char *want = surface ? "surface" : "texture";
    if (h >> WMI_WIN_SHIFT != TEX_TAG || j >= c->ntex)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "%s access through 0x%llx, which is no %s "
                             "object handle (pass one with --arg %s2d:...)",
                             want, (unsigned long long)h, want,
                             surface ? "surf" : "tex");
    const wm_ptx_texture *t = &c->tex[j];
    if (!t->surface != !surface)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "%s access through the handle of %s %u, which "
                             "is a %s object",
                             want, t->surface ? "surface" : "texture",
                             (unsigned)j, t->surface ? "surface" : "texture");
    *out = t;
    *index = (uint32_t)j;
    return WM_OK;
}

/* Simulated address of byte off of object j (its own space). */
static uint64_t obj_addr(uint32_t j, uint64_t off) {
    return ((uint64_t)j + 1) << WMI_WIN_SHIFT | off;
}

/* ---- texture sampling -------------------------------------------------------
 */

/* A filter footprint: up to 8 texels with their weights (border texels
   have off UINT64_MAX and read as zero). */
typedef struct footprint {
    uint64_t off[8];
    float wgt[8];
    unsigned n;
} footprint;

/* Texel index i of a dimension with n texels under mode (-1: border). */
static long address(wm_ptx_addr_mode mode, int norm, long i, long n) {
    if (i >= 0 && i < n)
        return i;
    if (mode == WM_PTX_ADDR_BORDER)
        return -1;
    if (norm && mode == WM_PTX_ADDR_WRAP)
        return ((i % n) + n) % n;
    if (norm && mode == WM_PTX_ADDR_MIRROR) {
        long p = ((i % (2 * n)) + 2 * n) % (2 * n);
        return p < n ? p : 2 * n - 1 - p;
    }
    return i < 0 ? 0 : n - 1; /* clamp (also wrap/mirror unnormalized) */
}

/* Unnormalized texel-space coordinate of x in a dimension of n texels. */
static double texel_coord(const wm_ptx_texture *t, unsigned k, float x,
                          long n) {
    double u = isnan(x) ? 0.0 : (double)x,
           lim = 4.0 * (double)(uint32_t)n + 4.0;
    if (t->normalized_coords) {
        if (t->address[k] == WM_PTX_ADDR_WRAP)
            u -= floor(u);
        else if (t->address[k] == WM_PTX_ADDR_MIRROR) {
            double f = floor(u);
            u = fmod(fabs(f), 2.0) == 1.0 ? 1.0 - (u - f) : u - f;
        }
        u *= (double)(uint32_t)n;
    }
    /* far outside: every mode gives an edge or border texel there */
    return u < -lim ? -lim : u > lim ? lim : u;
}

/* The footprint of one lane's coordinates. */
static void sample(const wm_ptx_texture *t, unsigned dims, const float *x,
                   const int32_t *ix, int integer, int linear, footprint *fp) {
    long ext[3] = {(long)t->width, (long)t->height, (long)t->depth};
    long base[3] = {0, 0, 0};
    float frac[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; k++) {
        if (integer) {
            base[k] = ix[k];
        } else {
            double u = texel_coord(t, k, x[k], ext[k]);
            if (linear) {
                double b = u - 0.5, f = floor(b);
                base[k] = (long)f;
                frac[k] = (float)(nearbyint((b - f) * 256.0) / 256.0);
            } else {
                base[k] = (long)floor(u);
            }
        }
    }
    unsigned taps = linear && !integer ? 1u << dims : 1u;
    uint64_t tb = texel_bytes(t);
    int norm = t->normalized_coords && !integer;
    fp->n = taps;
    for (unsigned q = 0; q < taps; q++) {
        float wgt = 1.0f;
        uint64_t off = 0, stride = tb;
        int border = 0;
        for (unsigned k = 0; k < 3; k++) {
            long i = k < dims ? base[k] + (long)(q >> k & 1) : 0;
            if (k < dims && taps > 1)
                wgt *= (q >> k & 1) ? frac[k] : 1.0f - frac[k];
            long a = address(t->address[k], norm, i, ext[k]);
            if (a < 0)
                border = 1;
            else
                off += (uint64_t)a * stride;
            stride *= (uint64_t)ext[k];
        }
        fp->off[q] = border ? UINT64_MAX : off;
        fp->wgt[q] = wgt;
    }
}

/* Channel ch of the texel at off: as a float (filtered reads) or as
   integer bits (element reads of integer formats). */
static float channel_f(const wm_ptx_texture *t, uint64_t off, unsigned ch) {
    if (off == UINT64_MAX)
        return 0.0f;
    const uint8_t *p =
        (const uint8_t *)t->data + off + ch * wm_ptx_type_size(t->format);
    switch (t->format) {
    case WM_PTX_F32: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    case WM_PTX_F16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return wmi_half_to_float(h);
    }
    case WM_PTX_U8: return t->read_normalized ? p[0] / 255.0f : p[0];
    case WM_PTX_I8: {
        float v = (float)(int8_t)p[0];
        return t->read_normalized ? fmaxf(v / 127.0f, -1.0f) : v;
    }
    case WM_PTX_U16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return t->read_normalized ? v / 65535.0f : v;
    }
    case WM_PTX_I16: {
        int16_t v;
        memcpy(&v, p, 2);
        return t->read_normalized ? fmaxf(v / 32767.0f, -1.0f) : v;
    }
    case WM_PTX_U32: {
        uint32_t v;
        memcpy(&v, p, 4);
        return (float)v;
    }
    case WM_PTX_I32: {
        int32_t v;
        memcpy(&v, p, 4);
        return (float)v;
    }
    case WM_PTX_I64:
    case WM_PTX_U64:
    case WM_PTX_BF16:
    case WM_PTX_F64:
    case WM_PTX_NTYPES: break;
    }
    return 0.0f;
}

static uint32_t channel_i(const wm_ptx_texture *t, uint64_t off, unsigned ch) {
    if (off == UINT64_MAX)
        return 0;
    const uint8_t *p =
        (const uint8_t *)t->data + off + ch * wm_ptx_type_size(t->format);
    uint32_t v = 0;
    switch (t->format) {
    case WM_PTX_U8: return p[0];
    case WM_PTX_I8: return (uint32_t)(int32_t)(int8_t)p[0];
    case WM_PTX_U16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return h;
    }
    case WM_PTX_I16: {
        int16_t h;
        memcpy(&h, p, 2);
        return (uint32_t)(int32_t)h;
    }
    case WM_PTX_F16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return h;
    }
    case WM_PTX_U32:
    case WM_PTX_I32:
    case WM_PTX_F32: memcpy(&v, p, 4); return v;
    case WM_PTX_I64:
    case WM_PTX_U64:
    case WM_PTX_BF16:
    case WM_PTX_F64:
    case WM_PTX_NTYPES: break;
    }
    return v;
}

/* Does a read of t by an instruction of result type rt give floats? */
static int float_result(const wm_ptx_texture *t, wmi_type rt) {
    return rt == PT_F32 || !int_format(t->format) || t->read_normalized;
}

/* Component ch of the filtered value (missing channels read 0, a missing
   w reads 1), as the 32 result bits. */
static uint32_t filtered(const wm_ptx_texture *t, const footprint *fp,
                         unsigned ch, wmi_type rt) {
    int flt = float_result(t, rt);
    if (ch >= t->channels) {
        uint32_t one = flt ? wmi_f32_bits(1.0f) : 1u;
        return ch == 3 ? one : 0u;
    }
    if (!flt)
        return channel_i(t, fp->off[0], ch);
    float v = 0.0f;
    for (unsigned q = 0; q < fp->n; q++)
        if (fp->wgt[q] != 0.0f || fp->n == 1)
            v += fp->wgt[q] * channel_f(t, fp->off[q], ch);
    return wmi_f32_bits(v);
}

/* ---- counting
 * ----------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/*
 * Count one texture instruction: addrs holds the n texel addresses its
 * active lanes' filters read (border texels excluded), each tb bytes;
 * the counts follow wm_count's definitions for those texels as one
 * request.  a carries the lanes and each lane's first texel (drawings).
 */
wm_status wmi_ptx_tex_count(wmi_cta *c, const wm_access *a, uint64_t *addrs,
                            size_t n, unsigned tb) {
    if (!c->agg)
        return WM_OK;
    const wm_arch *arch = wm_agg_arch(c->agg);
    wm_counts k;
    memset(&k, 0, sizeof k);
    if (a->mask) {
        uint64_t sb = arch->sector_bytes, lb = arch->line_bytes;
        k.active = wmi_popcount64(a->mask);
        k.requests = 1;
        k.bytes = (uint64_t)n * tb;
        k.ideal_sectors = (uint32_t)((k.bytes + sb - 1) / sb);
        for (size_t i = 0; i < n; i++)
            addrs[i] /= sb;
        qsort(addrs, n, sizeof *addrs, cmp_u64);
        uint64_t last_line = UINT64_MAX;
        for (size_t i = 0; i < n; i++) {
            if (i && addrs[i] == addrs[i - 1])
                continue;
            k.sectors++;
            if (addrs[i] * sb / lb != last_line)
                k.tags++, last_line = addrs[i] * sb / lb;
        }
        k.t_wavefronts = (k.tags + 3) / 4;
    }
    return wmi_agg_add_counted(c->agg, a, &k, NULL);
}

/* tex / tld4 for the lanes in m. */
static wm_status tex_read(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                          uint32_t pc, uint32_t m) {
    const wm_ptx_module *mod = c->m;
    uint64_t(*R)[32] = w->r;
    unsigned dims = in->op == OP_TLD4 ? 2 : in->mod;
    unsigned nc = vn(mod, in->b);
    wmi_type rt = (wmi_type)in->type;
    int integer = in->type2 == PT_S32;
    wm_access a;
    memset(&a, 0, sizeof a);
    a.site = pc;
    a.space = WM_SPACE_TEXTURE;
    a.op = WM_OP_LD;
    a.mask = m;
    uint64_t addrs[32 * 8];
    size_t na = 0;
    unsigned tb = 0;
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint32_t j = 0;
        const wm_ptx_texture *t = NULL;
        wm_status st = object(c, w, l, pc, R[in->a][l], 0, &t, &j);
        if (st != WM_OK)
            return st;
        float x[3] = {0, 0, 0};
        int32_t ix[3] = {0, 0, 0};
        for (unsigned k = 0; k < dims && k < nc; k++) {
            uint64_t v = R[vs(mod, in->b, k)][l];
            x[k] = wmi_f32(v);
            ix[k] = (int32_t)(uint32_t)v;
        }
        footprint fp;
        int linear = t->filter == WM_PTX_FILTER_LINEAR && float_result(t, rt);
        sample(t, dims, x, ix, integer, linear || in->op == OP_TLD4, &fp);
        uint32_t out[4];
        if (in->op == OP_TLD4) {
            /* counter-clockwise from the lower left: (i,j+1) (i+1,j+1)
               (i+1,j) (i,j); footprint q has bit 0 = +x, bit 1 = +y */
            static const unsigned order[4] = {2, 3, 1, 0};
            for (unsigned k = 0; k < 4; k++) {
                footprint one = {{fp.off[order[k]]}, {1.0f}, 1};
                out[k] = filtered(t, &one, in->mod2, rt);
            }
        } else {
            for (unsigned k = 0; k < 4; k++)
                out[k] = filtered(t, &fp, k, rt);
        }
        for (unsigned k = 0; k < 4 && k < vn(mod, in->d); k++) {
            uint32_t s = vs(mod, in->d, k);
            if (s != SLOT_ZERO)
                R[s][l] = out[k];
        }
        tb = texel_bytes(t);
        a.size = tb;
        a.addr[l] = UINT64_MAX;
        for (unsigned q = 0; q < fp.n; q++)
            if (fp.off[q] != UINT64_MAX) {
                addrs[na++] = obj_addr(j, fp.off[q]);
                if (a.addr[l] == UINT64_MAX)
                    a.addr[l] = obj_addr(j, fp.off[q]);
            }
        if (a.addr[l] == UINT64_MAX) /* all border: no memory read */
            a.addr[l] = obj_addr(j, 0);
    }
    return wmi_ptx_tex_count(c, &a, addrs, na, tb);
}

/* ---- surfaces
 * ------------------------------------------------------------------ */

enum { SU_TRAP, SU_CLAMP, SU_ZERO };

/* Byte offset of lane l's surface access of size bytes at coordinates co
   (*off), UINT64_MAX when .zero drops it; out of range under .trap and
   misaligned x fault. */
static wm_status surf_offset(wmi_cta *c, const wmi_warp *w, unsigned l,
                             uint32_t pc, const wm_ptx_texture *t,
                             const int64_t *co, unsigned size, int store,
                             unsigned mode, uint64_t *off) {
    unsigned tb = texel_bytes(t);
    int64_t ext[3] = {(int64_t)t->width * tb, t->height, t->depth};
    int64_t p[3] = {co[0], co[1], co[2]};
    if (p[0] % size)
        return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                             "misaligned surface %s of %u bytes at byte x %lld",
                             store ? "store" : "load", size, (long long)p[0]);
    int out = p[0] < 0 || p[0] + size > ext[0];
    for (unsigned k = 1; k < 3; k++)
        out |= p[k] < 0 || p[k] >= ext[k];
    if (out) {
        if (mode == SU_TRAP)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "out-of-bounds surface %s of %u bytes at "
                                 "(x %lld bytes, y %lld, z %lld): the surface "
                                 "is %lld bytes x %lld x %lld",
                                 store ? "store" : "load", size,
                                 (long long)p[0], (long long)p[1],
                                 (long long)p[2], (long long)ext[0],
                                 (long long)ext[1], (long long)ext[2]);
        if (mode == SU_ZERO) {
            *off = UINT64_MAX;
            return WM_OK;
        }
        for (unsigned k = 0; k < 3; k++) { /* clamp: the nearest element */
            int64_t hi = k ? ext[k] - 1 : ext[0] - size;
            p[k] = p[k] < 0 ? 0 : p[k] > hi ? hi : p[k];
        }
    }
    *off = (uint64_t)p[0] + (uint64_t)p[1] * (uint64_t)ext[0] +
           (uint64_t)p[2] * (uint64_t)ext[0] * (uint64_t)ext[1];
    return WM_OK;
}

/* suld.b / sust.b for the lanes in m. */
static wm_status surf_access(wmi_cta *c, wmi_warp *w, const wmi_insn *in,
                             uint32_t pc, uint32_t m) {
    const wm_ptx_module *mod = c->m;
    uint64_t(*R)[32] = w->r;
    int store = in->op == OP_SUST;
    uint32_t vals = store ? in->c : in->d;
    unsigned eb = wmi_type_bits((wmi_type)in->type) / 8, nv = vn(mod, vals);
    unsigned size = eb * nv, nc = vn(mod, in->b);
    wm_access a;
    memset(&a, 0, sizeof a);
    a.site = pc;
    a.space = WM_SPACE_SURFACE;
    a.op = store ? WM_OP_ST : WM_OP_LD;
    a.size = size;
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint32_t j = 0;
        const wm_ptx_texture *t = NULL;
        wm_status st = object(c, w, l, pc, R[in->a][l], 1, &t, &j);
        if (st != WM_OK)
            return st;
        int64_t co[3] = {0, 0, 0};
        for (unsigned k = 0; k < in->mod && k < nc; k++)
            co[k] = (int32_t)(uint32_t)R[vs(mod, in->b, k)][l];
        uint64_t off = 0;
        st = surf_offset(c, w, l, pc, t, co, size, store, in->mod2, &off);
        if (st != WM_OK)
            return st;
        uint8_t *p = off == UINT64_MAX ? NULL : (uint8_t *)t->data + off;
        for (unsigned k = 0; k < nv; k++) {
            uint32_t s = vs(mod, vals, k);
            uint64_t v = 0;
            if (store && p) {
                v = R[s][l];
                memcpy(p + k * eb, &v, eb); /* little-endian low bytes */
            } else if (!store) {
                if (p)
                    memcpy(&v, p + k * eb, eb);
                if (s != SLOT_ZERO)
                    R[s][l] = v;
            }
        }
        if (p) {
            a.mask |= 1ull << l;
            a.addr[l] = obj_addr(j, off);
        }
    }
    if (!c->agg)
        return WM_OK;
    return wm_agg_add(c->agg, &a, NULL);
}

/* txq / suq: an extent of the object. */
static wm_status query(wmi_cta *c, wmi_warp *w, const wmi_insn *in, uint32_t pc,
                       uint32_t m) {
    uint64_t(*R)[32] = w->r;
    for (unsigned l = 0; l < 32; l++) {
        if (!(m >> l & 1))
            continue;
        uint64_t h = R[in->a][l], j = h & WMI_WIN_MASK;
        if (h >> WMI_WIN_SHIFT != TEX_TAG || j >= c->ntex)
            return wmi_ptx_fault(c, w, l, pc, WM_ERR_FAULT,
                                 "query of 0x%llx, which is no texture or "
                                 "surface object handle",
                                 (unsigned long long)h);
        const wm_ptx_texture *t = &c->tex[j];
        unsigned ext[3] = {t->width, t->height, t->depth};
        R[in->d][l] = ext[in->mod];
    }
    return WM_OK;
}

wm_status wmi_ptx_tex(wmi_cta *c, wmi_warp *w, const wmi_insn *in, uint32_t pc,
                      uint32_t m) {
    if (in->op == OP_TXQ)
        return query(c, w, in, pc, m);
    if (in->op == OP_SULD || in->op == OP_SUST)
        return surf_access(c, w, in, pc, m);
    return tex_read(c, w, in, pc, m);
}
