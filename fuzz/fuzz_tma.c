/*
 * fuzz_tma.c -- libFuzzer harness for TMA (ptx_tma.c, ptx_tma_im2col.c,
 * ptx_tensormap.c, tmap.c): a tensor map whose every field comes from the
 * input goes through wm_ptx_tmap_encode and, encoded or not (then the map
 * bytes are the input's), into a generated kernel (tests/unit/tma_gen.h:
 * thread 0 of cluster rank 0 issues one TMA instruction, every CTA waits
 * on its mbarrier and copies its shared buffer out).  The header bytes:
 *   t0: element type (bits 0-3, 0..12), rank 1..5 (bits 4-6), strides
 *       from the input (bit 7; else packed);
 *   t1: swizzle, NaN fill, L2 promotion, interleave, im2col, raw map;
 *   t2: the instruction: a tile load, the same multicast to a cluster of
 *       two (or to two CTAs that are no cluster), a tile store, a
 *       reduction, a tile prefetch, an im2col load or prefetch; the map in
 *       global memory, edited there first by tensormap.replace;
 *   t3: the reduction's operator, the edited field and its ordinal;
 * then per dimension its size, the byte strides (16 x the input, or
 * packed), the box, the element strides and a coordinate; the im2col
 * corners, channels, pixels and offsets; the edit's value; and the bytes
 * of the tensor, repeated.  The launch runs with the interpreter's fast
 * paths off and on, which must agree (fuzz_twin.h).
 */
#include "fuzz_reader.h"
#include "fuzz_twin.h"
#include "tma_gen.h"
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { SMEM = 16384, TENSOR_MAX = 1 << 17 };

/* What the input asks for besides the map. */
typedef struct form {
    unsigned kind;     /* 0 load, 1 multicast, 2 store, 3 reduce,
                          4 prefetch, 5 im2col load, 6 im2col prefetch */
    int no_cluster;    /* multicast to CTAs that are no cluster */
    int global_map;    /* the map in global memory */
    int edit;          /* tensormap.replace before the copy */
    unsigned redop, field, ord;
    uint32_t value;
    int coords[5];
    int offsets[3];
} form;

/* The map's fields from r; the bytes of the tensor's buffer. */
static uint64_t map_of(reader *r, wm_ptx_tmap *t, unsigned t0, unsigned t1)
{
    memset(t, 0, sizeof *t);
    t->dtype = (t0 & 15) % 13;
    t->rank = 1 + ((t0 >> 4) & 7) % 5;
    t->swizzle = t1 & 3;
    t->oob_fill = (t1 >> 2) & 1;
    t->l2_promotion = (t1 >> 3) & 3;
    t->interleave = (t1 >> 5) & 1;
    t->im2col = (t1 >> 6) & 1;
    static const unsigned es[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
    unsigned e = es[t->dtype];
    int packed = (t0 & 128) == 0;
    for (unsigned i = 0; i < t->rank; i++) {
        unsigned b = (unsigned)take(r, 1);
        t->dims[i] = b & 128 ? 1 + take(r, 4) : 1 + (b & 63);
        t->box[i] = 1 + (unsigned)take(r, 1);
        t->elem_strides[i] = b & 64 ? 1 + (unsigned)(take(r, 1) % 8) : 1;
        if (i > 0)
            t->strides[i - 1] =
                packed ? (i == 1 ? t->dims[0] * e
                                 : t->strides[i - 2] * t->dims[i - 1])
                       : 16 * take(r, 2);
    }
    if (packed) /* packed rows need 16-byte multiples: round up */
        for (unsigned i = 0; i + 1 < t->rank; i++)
            t->strides[i] = (t->strides[i] + 15) / 16 * 16;
    for (unsigned i = 0; t->im2col && i + 2 < t->rank; i++) {
        t->lower[i] = (int8_t)take(r, 1);
        t->upper[i] = (int8_t)take(r, 1);
    }
    t->channels = 1 + (unsigned)take(r, 1);
    t->pixels = 1 + (unsigned)take(r, 2) % 1024;
    uint64_t bytes = t->rank == 1 ? t->dims[0] * e
                                  : t->strides[t->rank - 2] *
                                        t->dims[t->rank - 1];
    return bytes < TENSOR_MAX ? bytes : TENSOR_MAX;
}

static void form_of(reader *r, form *f, unsigned t2, unsigned t3,
                    unsigned rank)
{
    memset(f, 0, sizeof *f);
    f->kind = (t2 & 7) % 7;
    f->no_cluster = (t2 >> 3) & 1;
    f->global_map = (t2 >> 4) & 1;
    f->edit = f->global_map && ((t2 >> 5) & 1);
    f->redop = t3 & 7;
    f->field = ((t3 >> 3) & 15) % 10;
    f->ord = (t3 >> 7) ? rank : (unsigned)take(r, 1) % 5;
    f->value = (uint32_t)take(r, 4);
    for (unsigned i = 0; i < rank; i++)
        f->coords[i] = (int16_t)take(r, 2);
    for (unsigned i = 0; i < 3; i++)
        f->offsets[i] = (int8_t)take(r, 1);
}

/* The bytes the instruction completes on the mbarrier (0: none). */
static uint32_t tx_bytes(const wm_ptx_tmap *t, const form *f)
{
    static const unsigned es[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
    if (f->kind == 5)
        return t->channels * t->pixels * es[t->dtype];
    if (f->kind > 1)
        return 0;
    uint64_t n = es[t->dtype];
    for (unsigned i = 0; i < t->rank; i++) {
        unsigned st = i ? t->elem_strides[i] : 1;
        n *= (t->box[i] + st - 1) / st;
    }
    return n < SMEM ? (uint32_t)n : SMEM;
}

/* The ISSUE lines of tma_gen: the parameters' loads, the edit, the
   instruction. */
static void issue_of(char *s, size_t n, const form *f, unsigned rank)
{
    static const char *const ops[] = {"add", "min", "max", "inc",
                                      "dec", "and", "or",  "xor"};
    static const char *const fields[] = {
        "global_address", "rank", "box_dim", "global_dim", "global_stride",
        "element_stride", "elemtype", "interleave_layout", "swizzle_mode",
        "fill_mode"};
    char coords[64] = "", offs[64] = "";
    size_t k = 0;
#define P(...) k += (size_t)snprintf(s + k, n - k, __VA_ARGS__)
    for (unsigned i = 0; i < rank; i++) {
        P("\tld.param.u32 %%r%u, [c%u];\n", 10 + i, i);
        size_t cl = strlen(coords);
        snprintf(coords + cl, sizeof coords - cl, "%s%%r%u", i ? ", " : "",
                 10 + i);
    }
    for (unsigned i = 0; i + 2 < rank; i++) {
        P("\tld.param.u16 %%rs%u, [o%u];\n", 2 + i, i);
        size_t ol = strlen(offs);
        snprintf(offs + ol, sizeof offs - ol, "%s%%rs%u", i ? ", " : "",
                 2 + i);
    }
    if (f->global_map)
        P("\tld.param.u64 %%rd3, [gmap];\n");
    if (f->edit) {
        int wide = f->field == 0 || f->field == 4;
        P("\tld.param.u32 %%r16, [val];\n\tcvt.u64.u32 %%rd6, %%r16;\n");
        P("\ttensormap.replace.tile.%s.global.b1024.%s [%%rd3], ",
          fields[f->field], wide ? "b64" : "b32");
        if (f->field >= 2 && f->field <= 5)
            P("%u, ", f->ord);
        P("%s;\n", wide ? "%rd6" : "%r16");
    }
    switch (f->kind) {
    case 0: case 1:
        P("\tcp.async.bulk.tensor.%ud.shared::cluster.global.tile.mbarrier::"
          "complete_tx::bytes%s [%%r3], [%%rd3, {%s}], [%%r2]%s;\n",
          rank, f->kind ? ".multicast::cluster" : "", coords,
          f->kind ? ", %rs1" : "");
        break;
    case 2: case 3:
        if (f->kind == 2)
            P("\tcp.async.bulk.tensor.%ud.global.shared::cta.tile.bulk_group",
              rank);
        else
            P("\tcp.reduce.async.bulk.tensor.%ud.global.shared::cta.%s.tile."
              "bulk_group", rank, ops[f->redop]);
        P(" [%%rd3, {%s}], [%%r3];\n\tcp.async.bulk.commit_group;\n"
          "\tcp.async.bulk.wait_group 0;\n", coords);
        break;
    case 4:
        P("\tcp.async.bulk.prefetch.tensor.%ud.L2.global.tile [%%rd3, {%s}];\n",
          rank, coords);
        break;
    case 5:
        P("\tcp.async.bulk.tensor.%ud.shared::cluster.global.im2col."
          "mbarrier::complete_tx::bytes [%%r3], [%%rd3, {%s}], [%%r2], "
          "{%s};\n", rank, coords, offs);
        break;
    default:
        P("\tcp.async.bulk.prefetch.tensor.%ud.L2.global.im2col [%%rd3, {%s}], "
          "{%s};\n", rank, coords, offs);
        break;
    }
#undef P
}

/* Fill n bytes of dst with src repeated (zeros without src). */
static void fill(uint8_t *dst, size_t n, const uint8_t *src, size_t len)
{
    if (!len || !n) {
        memset(dst, 0, n);
        return;
    }
    size_t k = len < n ? len : n;
    memcpy(dst, src, k);
    for (; k < n; k *= 2)
        memcpy(dst + k, dst, k < n - k ? k : n - k);
}

/* The kernel's extra parameters (after map, out and nbytes). */
static void params_of(char *s, size_t n, unsigned rank)
{
    size_t k = 0;
    for (unsigned i = 0; i < rank; i++)
        k += (size_t)snprintf(s + k, n - k, ", .param .u32 c%u", i);
    for (unsigned i = 0; i + 2 < rank; i++)
        k += (size_t)snprintf(s + k, n - k, ", .param .u16 o%u", i);
    snprintf(s + k, n - k, ", .param .u64 gmap, .param .u32 val");
}

/* The launch of the kernel: its arguments in order (map, out, nbytes,
   coordinates, offsets, the map in global memory, the edit's value) and
   the tensor as extra buffer 0. */
static void launch(const wm_ptx_module *m, const wm_ptx_tmap *t,
                   const form *f, uint8_t *map, uint8_t *tensor,
                   uint64_t bytes, uint32_t nbytes)
{
    static uint8_t out[2 * SMEM], gmap[128];
    wm_ptx_arg a[16], x[1];
    size_t na = 0;
    memset(a, 0, sizeof a);
    memset(x, 0, sizeof x);
    a[na].value = map;
    a[na++].size = 128;
    a[na].buf = out;
    a[na++].bytes = sizeof out;
    a[na].scalar = nbytes;
    a[na++].size = 4;
    for (unsigned i = 0; i < t->rank; i++) {
        a[na].scalar = (uint32_t)f->coords[i];
        a[na++].size = 4;
    }
    for (unsigned i = 0; i + 2 < t->rank; i++) {
        a[na].scalar = (uint16_t)f->offsets[i];
        a[na++].size = 2;
    }
    memcpy(gmap, map, sizeof gmap);
    a[na].buf = gmap;
    a[na++].bytes = sizeof gmap;
    a[na].scalar = f->value;
    a[na++].size = 4;
    x[0].buf = tensor;
    x[0].bytes = bytes;
    memset(out, 0, sizeof out);
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = f->kind == 1 ? 2 : 1;
    l.grid[1] = l.grid[2] = 1;
    l.cluster[0] = f->kind == 1 && !f->no_cluster ? 2 : 0;
    l.cluster[1] = l.cluster[2] = l.cluster[0] ? 1 : 0;
    l.block[0] = 32;
    l.block[1] = l.block[2] = 1;
    l.args = a;
    l.nargs = na;
    l.extra = x;
    l.nextra = 1;
    l.max_steps = 4000;
    l.threads = 1;
    wm_arch arch;
    wm_agg *g = wm_arch_parse("sm_90", &arch, NULL, 0) == WM_OK
                    ? wm_agg_new(&arch)
                    : NULL;
    wm_ptx_fault ft;
    if (g)
        fuzz_twin_run(m, &l, g, &ft);
    wm_agg_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t tensor[TENSOR_MAX];
    if (size < 4 || size > 4096)
        return 0;
    reader r = {data, size};
    unsigned t0 = (unsigned)take(&r, 1), t1 = (unsigned)take(&r, 1),
             t2 = (unsigned)take(&r, 1), t3 = (unsigned)take(&r, 1);
    wm_ptx_tmap t;
    uint64_t bytes = map_of(&r, &t, t0, t1);
    form f;
    form_of(&r, &f, t2, t3, t.rank);
    if (f.kind >= 5 && t.rank < 3)
        f.kind -= 5; /* im2col needs a spatial dimension */
    /* the tensor is extra buffer 0 after the 4 + rank + (rank - 2)
       parameters; the map bytes: encoded, else (or when asked) raw */
    size_t nargs = 5 + t.rank + (t.rank > 2 ? t.rank - 2 : 0);
    t.global_address = wm_ptx_extra_address(nargs, 0);
    uint8_t map[128];
    if ((t1 & 128) || wm_ptx_tmap_encode(&t, map, NULL, 0) != WM_OK)
        fill(map, sizeof map, r.p, r.n);
    char params[256], issue[2048], src[8192];
    params_of(params, sizeof params, t.rank);
    issue_of(issue, sizeof issue, &f, t.rank);
    tma_gen(src, sizeof src, "nd", SMEM, params, issue);
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (wm_ptx_parse(src, strlen(src), "tma.ptx", &m, &d) != WM_OK) {
        wm_ptx_free(m);
        return 0;
    }
    fill(tensor, (size_t)bytes, r.p, r.n);
    launch(m, &t, &f, map, tensor, bytes, tx_bytes(&t, &f));
    wm_ptx_free(m);
    return 0;
}
