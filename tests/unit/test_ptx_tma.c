/*
 * test_ptx_tma.c -- TMA (ptx_tma.c, tmap.c): the corpus kernels of
 * tests/corpus/tma_tile.cu (-O3 and -G, sm_90a) against CPU references
 * (a tile copy with partial boxes, a 128-byte-swizzled load read back with
 * the swizzle's XOR, a tensor reduction), their global sectors per line;
 * generated PTX loading 1-D to 5-D boxes with element strides, the
 * 32/64/128-byte swizzles and zero/NaN fill, checked byte for byte
 * against a reference written from the CUDA documentation's rules; a
 * multicast load into a cluster of two; the encoder's checks and the
 * faults of bad maps and unmodelled forms.
 */
#include "check.h"
#include "ptx_inline.h"
#include "tma_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static wm_arch arch;

static wm_ptx_module *corpus(const char *build)
{
    return pi_corpus("tma_tile", build);
}

/* A launch whose tensors are the extra buffers x[0..nx). */
static wm_status run(const wm_ptx_module *m, const char *name, unsigned gx,
                     unsigned gy, unsigned block, unsigned cluster,
                     wm_ptx_arg *args, size_t nargs, wm_ptx_arg *x, size_t nx,
                     wm_agg *agg, wm_ptx_fault *ft)
{
    wm_ptx_launch l =
        pi_launch_of(gx, gy, block, cluster, args, nargs, x, nx);
    return pi_run_launch(m, name, &l, agg, NULL, ft);
}

/* A 2-D map of dtype over extra buffer j of a launch of nargs. */
static wm_ptx_tmap map2(unsigned dtype, size_t nargs, size_t j, uint64_t d0,
                        uint64_t d1, uint64_t stride, unsigned b0,
                        unsigned b1, unsigned swz)
{
    wm_ptx_tmap t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = 2;
    t.global_address = wm_ptx_extra_address(nargs, j);
    t.dims[0] = d0;
    t.dims[1] = d1;
    t.strides[0] = stride;
    t.box[0] = b0;
    t.box[1] = b1;
    t.elem_strides[0] = t.elem_strides[1] = 1;
    t.swizzle = swz;
    return t;
}

/* tma_tile_copy on a 50 x 20 tensor (rows of 52 floats): 2 x 2 boxes of
   32 x 16, partly outside; out = 2 in + 1 where the tensor is, the
   padding and the rest untouched. */
static void tile_copy(const wm_ptx_module *m, int counts)
{
    enum { W = 50, H = 20, P = 52 };
    static float in[P * H], out[P * H];
    for (int i = 0; i < P * H; i++) {
        in[i] = (float)(i % 37) - 3.0f;
        out[i] = -100.0f;
    }
    wm_ptx_arg x[2] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out)};
    uint8_t mi[128], mo[128];
    wm_ptx_tmap t = map2(7, 2, 0, W, H, P * 4, 32, 16, 0);
    CHECK_EQ(wm_ptx_tmap_encode(&t, mi, NULL, 0), WM_OK);
    t.global_address = wm_ptx_extra_address(2, 1);
    CHECK_EQ(wm_ptx_tmap_encode(&t, mo, NULL, 0), WM_OK);
    wm_ptx_arg a[2] = {pi_arg_val(mi, 128), pi_arg_val(mo, 128)};
    wm_agg *g = wm_agg_new(&arch);
    CHECK_EQ(run(m, "tma_tile_copy", 2, 2, 128, 0, a, 2, x, 2, g, NULL),
             WM_OK);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int c = 0; c < P; c++) {
            float want = c < W ? 2.0f * in[y * P + c] + 1.0f : -100.0f;
            bad += out[y * P + c] != want;
        }
    CHECK_EQ(bad, 0);
    if (counts) {
        /* the loads: rows of boxes (0,0) and (1,0) 16 each, (0,1) and
           (1,1) 4 each (rows 16..19): 40 rows.  x 0..31: 128 bytes at a
           208-byte pitch, 4 or 5 sectors by the row's offset; x 32..49:
           72 bytes, 3 or 4 sectors.  Hand count: see below. */
        uint64_t sect = 0;
        for (int y = 0; y < H; y++) {
            uint64_t a0 = (uint64_t)y * P * 4, a1 = a0 + 32 * 4;
            sect += (a1 - 1) / 32 - a0 / 32 + 1;                /* x 0..31 */
            sect += (a1 + 18 * 4 - 1) / 32 - a1 / 32 + 1;       /* 32..49 */
        }
        /* the load's site is its asm line in tma_load_2d (inlined at
           line 45) */
        wm_stats s = pi_line(g, "tma_tile.cu", 18, WM_SPACE_GLOBAL,
                             WM_OP_TMA);
        CHECK_EQ(s.sectors, sect);
        CHECK_EQ(s.bytes, (uint64_t)W * H * 4);
        s = pi_line(g, "tma_tile.cu", 56, WM_SPACE_GLOBAL, WM_OP_TMA);
        CHECK_EQ(s.sectors, sect);
    }
    wm_agg_free(g);
}

/* tma_swizzle128: the kernel undoes the 128-byte swizzle itself, so it
   reads the tensor back only when the load applied it. */
static void swizzle128(const wm_ptx_module *m)
{
    static float in[32 * 32], out[32 * 32];
    for (int i = 0; i < 32 * 32; i++)
        in[i] = (float)i;
    wm_ptx_arg x[1] = {pi_arg_buf(in, sizeof in)};
    static const unsigned modes[] = {3, 0};
    for (size_t k = 0; k < 2; k++) {
        unsigned swz = modes[k];
        memset(out, 0, sizeof out);
        uint8_t mp[128];
        wm_ptx_tmap t = map2(7, 2, 0, 32, 32, 128, 32, 8, swz);
        CHECK_EQ(wm_ptx_tmap_encode(&t, mp, NULL, 0), WM_OK);
        wm_ptx_arg a[2] = {pi_arg_val(mp, 128), pi_arg_buf(out, sizeof out)};
        CHECK_EQ(run(m, "tma_swizzle128", 4, 1, 64, 0, a, 2, x, 1, NULL,
                     NULL), WM_OK);
        int bad = 0;
        for (int i = 0; i < 32 * 32; i++)
            bad += out[i] != in[i];
        /* unswizzled: only chunk 0 of row 0 mod 8 and its likes agree */
        CHECK_EQ(bad, swz ? 0 : 896);
    }
}

/* tma_reduce_add: CTA b adds b + i to box (b mod 2) of a 32 x 8 i32. */
static void reduce_add(const wm_ptx_module *m)
{
    static int32_t t32[8 * 32];
    for (int i = 0; i < 8 * 32; i++)
        t32[i] = i * 3;
    wm_ptx_arg x[1] = {pi_arg_buf(t32, sizeof t32)};
    uint8_t mp[128];
    wm_ptx_tmap t = map2(3, 1, 0, 32, 8, 128, 16, 8, 0);
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, NULL, 0), WM_OK);
    wm_ptx_arg a[1] = {pi_arg_val(mp, 128)};
    CHECK_EQ(run(m, "tma_reduce_add", 4, 1, 64, 0, a, 1, x, 1, NULL, NULL),
             WM_OK);
    int bad = 0;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 32; c++) {
            int32_t want = (r * 32 + c) * 3;
            for (int b = 0; b < 4; b++)
                if (b % 2 == c / 16)
                    want += b + r * 16 + c % 16;
            bad += t32[r * 32 + c] != want;
        }
    CHECK_EQ(bad, 0);
}

/* ---- generated PTX: one box of rank N into shared memory, copied out -- */

static void nd_source(char *s, size_t n, unsigned rank, int multicast)
{
    char coords[128] = "", params[256] = "", loads[512] = "";
    for (unsigned i = 0; i < rank; i++) {
        size_t cl = strlen(coords), pl = strlen(params), ll = strlen(loads);
        snprintf(coords + cl, sizeof coords - cl, "%s%%r%u", i ? ", " : "",
                 10 + i);
        snprintf(params + pl, sizeof params - pl, ", .param .u32 c%u", i);
        snprintf(loads + ll, sizeof loads - ll,
                 "\tld.param.u32 %%r%u, [c%u];\n", 10 + i, i);
    }
    char issue[1024];
    snprintf(issue, sizeof issue,
             "%s\tcp.async.bulk.tensor.%ud.shared::cluster.global.tile."
             "mbarrier::complete_tx::bytes%s [%%r3], [%%rd3, {%s}], [%%r2]%s;\n",
             loads, rank, multicast ? ".multicast::cluster" : "", coords,
             multicast ? ", %rs1" : "");
    tma_gen(s, n, "nd", 8192, params, issue);
}

/* The shared bytes of box t at coords, from the CUDA driver API's
   description of cuTensorMapEncodeTiled and the programming guide's TMA
   swizzle: elements coords + j * elementStrides (but none in dimension 0:
   cuda.h says the first is ignored without interleave), dense in shared
   memory with dimension 0 fastest; out of the tensor: zero or NaN; in each row of
   the swizzle span, 16-byte chunk c holds what chunk c ^ (row % 8) would
   (128 B; % 4 for 64 B, % 2 for 32 B). */
static uint64_t reference(const wm_ptx_tmap *t, const uint8_t *g,
                          const int *at, uint8_t *sh)
{
    unsigned es = tma_esize(t->dtype), n[5] = {1, 1, 1, 1, 1};
    uint64_t total = 1;
    unsigned st[5] = {1, 1, 1, 1, 1};
    for (unsigned i = 0; i < t->rank; i++) {
        st[i] = i ? t->elem_strides[i] : 1;
        n[i] = (t->box[i] + st[i] - 1) / st[i];
        total *= n[i];
    }
    uint8_t *lin = calloc(total * es, 1);
    for (uint64_t e = 0; e < total; e++) {
        uint64_t q = e, off = 0;
        int inside = 1;
        for (unsigned i = 0; i < t->rank; i++) {
            long long gi = at[i] + (long long)(q % n[i]) * st[i];
            q /= n[i];
            inside &= gi >= 0 && gi < (long long)t->dims[i];
            off += (uint64_t)gi * (i ? t->strides[i - 1] : es);
        }
        if (inside)
            memcpy(lin + e * es, g + off, es);
        else if (t->oob_fill && t->dtype >= 6) { /* the float types */
            memset(lin + e * es, 0xff, es);
            lin[e * es + es - 1] = 0x7f;
        }
    }
    unsigned span = t->swizzle ? 16u << t->swizzle : 0;
    for (uint64_t b = 0; b < total * es; b += 16) {
        uint64_t to = b;
        if (span) {
            uint64_t row = b / 128, chunk = b % 128 / 16;
            to = row * 128 + (chunk ^ (row % (span / 16))) * 16;
        }
        memcpy(sh + to, lin + b, 16);
    }
    free(lin);
    return total * es;
}

typedef struct nd_case {
    unsigned dtype, rank;
    uint64_t dims[5], strides[4];
    unsigned box[5], es[5];
    int at[5];
    unsigned swizzle, fill;
} nd_case;

static void nd(const nd_case *k)
{
    char src[4096];
    nd_source(src, sizeof src, k->rank, 0);
    wm_ptx_module *m = pi_parse(src, "nd.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    wm_ptx_tmap t;
    memset(&t, 0, sizeof t);
    t.dtype = k->dtype;
    t.rank = k->rank;
    memcpy(t.dims, k->dims, sizeof t.dims);
    memcpy(t.strides, k->strides, sizeof t.strides);
    memcpy(t.box, k->box, sizeof t.box);
    memcpy(t.elem_strides, k->es, sizeof t.elem_strides);
    t.swizzle = k->swizzle;
    t.oob_fill = k->fill;
    uint64_t gbytes = k->rank == 1 ? k->dims[0] * tma_esize(k->dtype)
                                   : k->strides[k->rank - 2] *
                                         k->dims[k->rank - 1];
    uint8_t *g = malloc(gbytes);
    srand(k->rank * 7 + k->dtype);
    for (uint64_t i = 0; i < gbytes; i++)
        g[i] = (uint8_t)(rand() & 0x7f); /* no NaN patterns by chance */
    static uint8_t want[8192], out[8192];
    memset(want, 0, sizeof want);
    memset(out, 0xcd, sizeof out);
    wm_ptx_arg x[1] = {pi_arg_buf(g, gbytes)};
    t.global_address = wm_ptx_extra_address(3 + k->rank, 0);
    uint8_t mp[128];
    char err[200] = "";
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, err, sizeof err), WM_OK);
    if (*err)
        fprintf(stderr, "map: %s\n", err);
    uint64_t nb = reference(&t, g, k->at, want);
    wm_ptx_arg a[8] = {pi_arg_val(mp, 128), pi_arg_buf(out, nb), pi_arg_u32((uint32_t)nb)};
    for (unsigned i = 0; i < k->rank; i++)
        a[3 + i] = pi_arg_u32((uint32_t)k->at[i]);
    CHECK_EQ(run(m, "nd", 1, 1, 32, 0, a, 3 + k->rank, x, 1, NULL, NULL),
             WM_OK);
    CHECK(memcmp(out, want, nb) == 0);
    free(g);
    wm_ptx_free(m);
}

static void nd_cases(void)
{
    static const nd_case cases[] = {
        /* 1-D f32: 60..123 of 100, the tail zero / NaN */
        {7, 1, {100}, {0}, {64}, {1}, {60}, 0, 0},
        {7, 1, {100}, {0}, {64}, {1}, {60}, 0, 1},
        /* 3-D u16 with a y element stride, x from -4, z past the end */
        {1, 3, {24, 5, 3}, {48, 240}, {16, 4, 2}, {1, 2, 1}, {-4, 1, 2}, 0, 0},
        /* 5-D u8, partial in dims 0 and 1 */
        {0, 5, {32, 3, 2, 2, 2}, {32, 96, 192, 384}, {16, 2, 2, 2, 2},
         {1, 1, 1, 1, 1}, {24, 2, 1, 0, 1}, 0, 0},
        /* 4-D f64, NaN fill, element strides 2 in x (ignored: a box row
           of 4 elements) and in z (1 of the box's 2 planes) */
        {8, 4, {9, 2, 2, 2}, {80, 160, 320}, {4, 2, 2, 1}, {2, 1, 2, 1},
         {3, 0, 1, 1}, 0, 1},
        /* 2-D swizzles: 128 B (f32 32 wide), 64 B (f16 32 wide), 32 B
           (u32 8 wide), each box row exactly the span */
        {7, 2, {40, 16}, {160}, {32, 16}, {1, 1}, {4, 0}, 3, 0},
        {6, 2, {32, 12}, {64}, {32, 8}, {1, 1}, {0, 3}, 2, 0},
        {2, 2, {8, 16}, {32}, {8, 16}, {1, 1}, {0, 0}, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int before = check_failures;
        nd(&cases[i]);
        if (check_failures != before)
            fprintf(stderr, "  ^ nd case %zu\n", i);
    }
}

/* .multicast::cluster: rank 0 loads one box into both CTAs of a cluster
   of two, each completing on its own mbarrier. */
static void multicast(void)
{
    char src[4096];
    nd_source(src, sizeof src, 2, 1);
    wm_ptx_module *m = pi_parse(src, "mc.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    static float g[16 * 16], out[2 * 16 * 8];
    for (int i = 0; i < 256; i++)
        g[i] = (float)i * 0.5f;
    wm_ptx_arg x[1] = {pi_arg_buf(g, sizeof g)};
    uint8_t mp[128];
    wm_ptx_tmap t = map2(7, 5, 0, 16, 16, 64, 16, 8, 0);
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, NULL, 0), WM_OK);
    wm_ptx_arg a[5] = {pi_arg_val(mp, 128), pi_arg_buf(out, sizeof out), pi_arg_u32(512), pi_arg_u32(0),
                       pi_arg_u32(4)};
    CHECK_EQ(run(m, "nd", 2, 1, 32, 2, a, 5, x, 1, NULL, NULL), WM_OK);
    int bad = 0;
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 128; i++)
            bad += out[r * 128 + i] != g[64 + i];
    CHECK_EQ(bad, 0);
    /* without a cluster the mask names rank 1, which does not exist */
    wm_ptx_fault ft;
    CHECK_EQ(run(m, "nd", 2, 1, 32, 0, a, 5, x, 1, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "ctaMask 0x3 names CTAs outside the cluster of 1") !=
          NULL);
    wm_ptx_free(m);
}

/* The encoder's checks, a map that is no map, a rank mismatch, an
   unmodelled swizzle width and im2col. */
static void errors(void)
{
    wm_ptx_tmap t = map2(7, 2, 0, 40, 16, 160, 32, 16, 0);
    uint8_t mp[128];
    char err[200];
    t.strides[0] = 100;
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, err, sizeof err), WM_ERR_ARG);
    CHECK(strstr(err, "stride 0 is 100 bytes (a multiple of 16") != NULL);
    t.strides[0] = 160;
    t.swizzle = 2;
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, err, sizeof err), WM_ERR_ARG);
    CHECK(strstr(err, "128 bytes is wider than the 64-byte swizzle") != NULL);
    t.swizzle = 0;
    t.box[1] = 257;
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, err, sizeof err), WM_ERR_ARG);
    CHECK(strstr(err, "box dimension 1 is 257") != NULL);
    t.box[1] = 16;
    t.interleave = 1;
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, err, sizeof err), WM_ERR_ARG);
    CHECK(strstr(err, "interleaved layouts") != NULL);

    char src[4096];
    nd_source(src, sizeof src, 1, 0);
    wm_ptx_module *m = pi_parse(src, "e.ptx");
    static float g[64], out[64];
    wm_ptx_arg x[1] = {pi_arg_buf(g, sizeof g)};
    memset(mp, 0, sizeof mp);
    wm_ptx_arg a[4] = {pi_arg_val(mp, 128), pi_arg_buf(out, sizeof out), pi_arg_u32(64), pi_arg_u32(0)};
    wm_ptx_fault ft;
    if (m) {
        CHECK_EQ(run(m, "nd", 1, 1, 32, 0, a, 4, x, 1, NULL, &ft),
                 WM_ERR_FAULT);
        CHECK(strstr(ft.msg, "no tensor map warpmem encoded") != NULL);
        t = map2(7, 4, 0, 16, 1, 64, 16, 1, 0);
        CHECK_EQ(wm_ptx_tmap_encode(&t, mp, NULL, 0), WM_OK);
        CHECK_EQ(run(m, "nd", 1, 1, 32, 0, a, 4, x, 1, NULL, &ft),
                 WM_ERR_FAULT);
        CHECK(strstr(ft.msg, "a 1D tensor copy with 1 coordinates on a "
                             "tensor map of rank 2") != NULL);
        /* a tensor past its buffer: 64 floats mapped as 128 */
        memset(&t, 0, sizeof t);
        t.dtype = 7;
        t.rank = 1;
        t.global_address = wm_ptx_extra_address(4, 0);
        t.dims[0] = 128;
        t.box[0] = 16;
        t.elem_strides[0] = 1;
        CHECK_EQ(wm_ptx_tmap_encode(&t, mp, NULL, 0), WM_OK);
        a[3] = pi_arg_u32(60);
        CHECK_EQ(run(m, "nd", 1, 1, 32, 0, a, 4, x, 1, NULL, &ft),
                 WM_ERR_FAULT);
        CHECK(strstr(ft.msg, "out-of-bounds global tensor copy") != NULL);
    }
    wm_ptx_free(m);
    /* a 64-byte box row under the 128-byte swizzle: refused at run time */
    nd_source(src, sizeof src, 2, 0);
    m = pi_parse(src, "e2.ptx");
    if (m) {
        static float g2[16 * 8];
        wm_ptx_arg x2[1] = {pi_arg_buf(g2, sizeof g2)};
        t = map2(7, 5, 0, 16, 8, 64, 16, 8, 3);
        CHECK_EQ(wm_ptx_tmap_encode(&t, mp, NULL, 0), WM_OK);
        wm_ptx_arg a2[5] = {pi_arg_val(mp, 128), pi_arg_buf(out, sizeof out), pi_arg_u32(512),
                            pi_arg_u32(0), pi_arg_u32(0)};
        CHECK_EQ(run(m, "nd", 1, 1, 32, 0, a2, 5, x2, 1, NULL, &ft),
                 WM_ERR_UNSUPPORTED);
        CHECK(strstr(ft.msg, "a box row of 64 bytes under the 128-byte "
                             "swizzle is not modelled") != NULL);
    }
    wm_ptx_free(m);
    /* im2col faults as unsupported, naming the instruction */
    char *p = strstr(src, ".tile.mbarrier"), src2[4200];
    if (p)
        snprintf(src2, sizeof src2, "%.*s.im2col%s", (int)(p - src), src,
                 p + 5);
    m = p ? pi_parse(src2, "e3.ptx") : NULL;
    if (m) {
        wm_ptx_arg a2[5] = {pi_arg_val(mp, 128), pi_arg_buf(out, sizeof out), pi_arg_u32(512),
                            pi_arg_u32(0), pi_arg_u32(0)};
        CHECK_EQ(run(m, "nd", 1, 1, 32, 0, a2, 5, x, 1, NULL, &ft),
                 WM_ERR_UNSUPPORTED);
        CHECK(strstr(ft.msg, "unsupported instruction 'cp.async.bulk.tensor."
                             "2d.shared::cluster.global.im2col") != NULL);
    }
    wm_ptx_free(m);
}

int main(void)
{
    CHECK(wm_arch_parse("sm_90", &arch, NULL, 0) == WM_OK);
    static const char *const builds[] = {"sm_90a", "G_sm_90a"};
    for (size_t b = 0; b < 2; b++) {
        wm_ptx_module *m = corpus(builds[b]);
        if (!m)
            continue;
        tile_copy(m, b == 0);
        swizzle128(m);
        reduce_add(m);
        wm_ptx_free(m);
    }
    nd_cases();
    multicast();
    errors();
    return check_done("test_ptx_tma");
}
