/*
 * test_ptx_im2col.c -- TMA im2col loads (ptx_tma.c, ptx_tma_im2col.c,
 * tmap.c): the implicit-GEMM convolution of tests/corpus/tma_im2col.cu
 * (-O3 and -G, sm_90a; unswizzled and under the 64-byte swizzle) against
 * a CPU convolution with zero padding, and its global sectors per line
 * counted from the convolution's geometry; a hand-computed 1x4x4x8 NHWC
 * case (the 3x3 filter's corner taps); generated PTX of rank 3, 4 and 5
 * (traversal strides, NaN fill, the 32-byte swizzle, walks across rows and
 * images, .multicast::cluster with .L2::cache_hint) checked against an
 * im2col reference that indexes the bounding box in closed form; the
 * encoder's limits and the faults of mismatched maps and operands.
 */
#include "check.h"
#include "ptx_inline.h"
#include "tma_gen.h"
#include "ptx_tma_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static wm_arch arch;

/* A launch of kernel name over the extra buffers x[0..nx). */
static wm_status run(const wm_ptx_module *m, const char *name, unsigned gx,
                     unsigned block, unsigned cluster, wm_ptx_arg *args,
                     size_t nargs, wm_ptx_arg *x, size_t nx, wm_agg *agg,
                     wm_ptx_fault *ft)
{
    wm_ptx_launch l = pi_launch_of(gx, 1, block, cluster, args, nargs, x, nx);
    l.max_steps = 4000000;
    return pi_run_launch(m, name, &l, agg, NULL, ft);
}

/* An im2col map of rank dims over extra buffer j of a launch of nargs,
   packed strides. */
static wm_ptx_tmap im2col_map(unsigned dtype, unsigned es, unsigned rank,
                              const uint64_t *dims, size_t nargs, size_t j)
{
    wm_ptx_tmap t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = rank;
    t.im2col = 1;
    t.global_address = wm_ptx_extra_address(nargs, j);
    uint64_t s = es;
    for (unsigned i = 0; i < rank; i++) {
        t.dims[i] = dims[i];
        t.elem_strides[i] = 1;
        if (i)
            t.strides[i - 1] = s;
        s *= dims[i];
    }
    return t;
}

/* ---- the corpus convolution ------------------------------------------ */

enum { C = 32, K = 8, PIX = 32 };

static wm_ptx_module *corpus(const char *build)
{
    return pi_corpus("tma_im2col", build);
}

/* conv3x3_im2col on N x H x W x 32 floats into 8 channels: out equals
   the CPU's 3x3, pad 1 convolution exactly (small integers); the load's
   rows are the in-bounds (pixel, tap, channel block) triples of the M
   tiles, each 64 bytes at a 64-byte-aligned address: one request of 2
   sectors. */
static void conv(const wm_ptx_module *m, int n_img, int h, int w, int swz,
                 int counts)
{
    int npix = n_img * h * w, grid = (npix + PIX - 1) / PIX;
    float *act = malloc(sizeof(float) * (size_t)npix * C);
    float *wt = malloc(sizeof(float) * K * 9 * C);
    float *out = malloc(sizeof(float) * (size_t)npix * K);
    for (int i = 0; i < npix * C; i++)
        act[i] = (float)(i * 7 % 11) - 5.0f;
    for (int i = 0; i < K * 9 * C; i++)
        wt[i] = (float)(i * 5 % 7) - 3.0f;
    for (int i = 0; i < npix * K; i++)
        out[i] = -999.0f;
    wm_ptx_arg x[1] = {pi_arg_buf(act, sizeof(float) * (size_t)npix * C)};
    uint64_t dims[4] = {C, (uint64_t)w, (uint64_t)h, (uint64_t)n_img};
    wm_ptx_tmap t = im2col_map(7, 4, 4, dims, 7, 0);
    t.lower[0] = t.lower[1] = -1; /* pad 1 */
    t.upper[0] = t.upper[1] = -1; /* pad 1 - (3 - 1) */
    t.channels = 16;
    t.pixels = PIX;
    t.swizzle = swz ? 2 : 0; /* 64 B: a row of 16 floats */
    uint8_t mp[128];
    char err[200] = "";
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, err, sizeof err), WM_OK);
    wm_ptx_arg a[7] = {pi_arg_val(mp, 128),
                       pi_arg_buf(wt, sizeof(float) * K * 9 * C),
                       pi_arg_buf(out, sizeof(float) * (size_t)npix * K),
                       pi_arg_u32((uint32_t)n_img), pi_arg_u32((uint32_t)h),
                       pi_arg_u32((uint32_t)w), pi_arg_u32((uint32_t)swz)};
    wm_agg *g = wm_agg_new(&arch);
    CHECK_EQ(run(m, "conv3x3_im2col", (unsigned)grid, 256, 0, a, 7, x, 1, g,
                 NULL), WM_OK);
    int bad = 0;
    uint64_t rows = 0;
    for (int p = 0; p < npix; p++) {
        int n = p / (h * w), oh = p % (h * w) / w, ow = p % w;
        for (int k = 0; k < K; k++) {
            float want = 0.0f;
            for (int r = 0; r < 3; r++)
                for (int s = 0; s < 3; s++) {
                    int ih = oh - 1 + r, iw = ow - 1 + s;
                    if (ih < 0 || ih >= h || iw < 0 || iw >= w)
                        continue;
                    for (int c = 0; c < C; c++)
                        want += act[((n * h + ih) * w + iw) * C + c] *
                                wt[((k * 3 + r) * 3 + s) * C + c];
                }
            bad += out[p * K + k] != want;
        }
        for (int r = 0; r < 3; r++)
            for (int s = 0; s < 3; s++) {
                int ih = oh - 1 + r, iw = ow - 1 + s;
                if (ih >= 0 && ih < h && iw >= 0 && iw < w)
                    rows += 2; /* two channel blocks */
            }
    }
    CHECK_EQ(bad, 0);
    if (counts) {
        /* the load's site: its asm statement's last line in im2col_load_4d */
        wm_stats s = pi_line(g, "tma_im2col.cu", 25, WM_SPACE_GLOBAL,
                             WM_OP_TMA);
        CHECK_EQ(s.requests, rows);
        CHECK_EQ(s.sectors, 2 * rows);
        CHECK_EQ(s.bytes, 64 * rows);
    }
    wm_agg_free(g);
    free(act);
    free(wt);
    free(out);
}

/* ---- generated PTX: one im2col load of rank R, copied out ------------- */

/* cp.async.bulk.tensor.Rd ... .im2col into shared memory (into both CTAs
   of a cluster of two with mc, with a cache policy with hint), the shared
   bytes of the CTA copied to out + rank * nbytes. */
static void gen_source(char *s, size_t n, unsigned rank, int mc, int hint)
{
    char coords[128] = "", offs[64] = "", params[512] = "", loads[1024] = "";
    for (unsigned i = 0; i < rank; i++) {
        size_t cl = strlen(coords), pl = strlen(params), ll = strlen(loads);
        snprintf(coords + cl, sizeof coords - cl, "%s%%r%u", i ? ", " : "",
                 10 + i);
        snprintf(params + pl, sizeof params - pl, ", .param .u32 c%u", i);
        snprintf(loads + ll, sizeof loads - ll,
                 "\tld.param.u32 %%r%u, [c%u];\n", 10 + i, i);
    }
    for (unsigned i = 0; i + 2 < rank; i++) {
        size_t ol = strlen(offs), pl = strlen(params), ll = strlen(loads);
        snprintf(offs + ol, sizeof offs - ol, "%s%%rs%u", i ? ", " : "",
                 10 + i);
        snprintf(params + pl, sizeof params - pl, ", .param .u16 o%u", i);
        snprintf(loads + ll, sizeof loads - ll,
                 "\tld.param.u16 %%rs%u, [o%u];\n", 10 + i, i);
    }
    char issue[2048];
    snprintf(issue, sizeof issue,
             "%s\tmov.b64 %%rd7, 0;\n" /* a cache policy: parsed, no effect */
             "\tcp.async.bulk.prefetch.tensor.%ud.L2.global.im2col "
             "[%%rd3, {%s}], {%s};\n"
             "\tcp.async.bulk.tensor.%ud.shared::cluster.global.im2col."
             "mbarrier::complete_tx::bytes%s%s [%%r3], [%%rd3, {%s}], [%%r2], "
             "{%s}%s%s;\n",
             loads, rank, coords, offs, rank,
             mc ? ".multicast::cluster" : "", hint ? ".L2::cache_hint" : "",
             coords, offs, mc ? ", %rs1" : "", hint ? ", %rd7" : "");
    tma_gen(s, n, "ic", 16384, params, issue);
}

typedef struct ic_case {
    unsigned dtype, rank;
    uint64_t dims[5];
    int lower[3], upper[3];
    unsigned ch, px, es[5];
    int at[5], off[3];
    unsigned swizzle, fill;
} ic_case;

/* The shared bytes of an im2col load, from the PTX ISA's im2col mode and
   cuTensorMapEncodeIm2col: in spatial dimension i the bounding box is
   [lower + off, D + upper + off), holding n_i = ceil(size / stride)
   pixels; the box's pixels are numbered with W fastest, then H, D and the
   image N, and the load takes px of them from the one at coordinates +
   offsets (here on a stride of the box), ch channels each from c0.
   Outside the tensor: zero or NaN.  Swizzled as in test_ptx_tma.c. */
static uint64_t reference(const ic_case *k, const uint8_t *g, uint8_t *sh)
{
    unsigned es = tma_esize(k->dtype), r = k->rank;
    int64_t lo[5] = {0}, cnt[5] = {0}, q0 = 0, mul = 1;
    uint64_t pitch[5];
    pitch[0] = es;
    for (unsigned i = 1; i < r; i++)
        pitch[i] = pitch[i - 1] * k->dims[i - 1];
    for (unsigned i = 1; i + 1 < r; i++) {
        lo[i] = k->lower[i - 1] + k->off[i - 1];
        int64_t hi = (int64_t)k->dims[i] + k->upper[i - 1] + k->off[i - 1];
        cnt[i] = (hi - lo[i] + k->es[i] - 1) / k->es[i];
        int64_t start = k->at[i] + k->off[i - 1] - lo[i];
        CHECK(start >= 0 && start % k->es[i] == 0 &&
              start / k->es[i] < cnt[i]);
        q0 += start / k->es[i] * mul;
        mul *= cnt[i];
    }
    q0 += k->at[r - 1] * mul;
    uint64_t total = (uint64_t)k->px * k->ch * es;
    uint8_t *lin = calloc(total, 1);
    for (unsigned p = 0; p < k->px; p++) {
        int64_t q = q0 + p, pos[5];
        for (unsigned i = 1; i + 1 < r; i++) {
            pos[i] = lo[i] + q % cnt[i] * k->es[i];
            q /= cnt[i];
        }
        pos[r - 1] = q;
        int inside = 1;
        uint64_t off = 0;
        for (unsigned i = 1; i < r; i++) {
            inside &= pos[i] >= 0 && pos[i] < (int64_t)k->dims[i];
            off += (uint64_t)pos[i] * pitch[i];
        }
        for (unsigned j = 0; j < k->ch; j++) {
            int64_t c = k->at[0] + (int64_t)j;
            uint8_t *d = lin + ((uint64_t)p * k->ch + j) * es;
            if (inside && c >= 0 && c < (int64_t)k->dims[0])
                memcpy(d, g + off + (uint64_t)c * es, es);
            else if (k->fill && k->dtype >= 6) {
                memset(d, 0xff, es);
                d[es - 1] = 0x7f;
            }
        }
    }
    unsigned span = k->swizzle ? 16u << k->swizzle : 0;
    for (uint64_t b = 0; b < total; b += 16) {
        uint64_t to = b;
        if (span) {
            uint64_t row = b / 128, chunk = b % 128 / 16;
            to = row * 128 + (chunk ^ (row % (span / 16))) * 16;
        }
        memcpy(sh + to, lin + b, 16);
    }
    free(lin);
    return total;
}

/* The map of case k over extra buffer 0 of a launch of nargs. */
static wm_ptx_tmap case_map(const ic_case *k, size_t nargs)
{
    wm_ptx_tmap t = im2col_map(k->dtype, tma_esize(k->dtype), k->rank, k->dims,
                               nargs, 0);
    memcpy(t.lower, k->lower, sizeof t.lower);
    memcpy(t.upper, k->upper, sizeof t.upper);
    memcpy(t.elem_strides, k->es, sizeof t.elem_strides);
    t.channels = k->ch;
    t.pixels = k->px;
    t.swizzle = k->swizzle;
    t.oob_fill = k->fill;
    return t;
}

/* The launch arguments of case k (map, out, nbytes, coords, offsets). */
static size_t case_args(const ic_case *k, uint8_t *mp, void *out,
                        size_t outb, uint32_t nb, uint16_t *offs,
                        wm_ptx_arg *a)
{
    size_t na = 0;
    a[na++] = pi_arg_val(mp, 128);
    a[na++] = pi_arg_buf(out, outb);
    a[na++] = pi_arg_u32(nb);
    for (unsigned i = 0; i < k->rank; i++)
        a[na++] = pi_arg_u32((uint32_t)k->at[i]);
    for (unsigned i = 0; i + 2 < k->rank; i++) {
        offs[i] = (uint16_t)k->off[i];
        a[na++] = pi_arg_val(&offs[i], 2);
    }
    return na;
}

/* Case k through the generated load (into both CTAs of a cluster of two
   with mc), byte for byte against the reference. */
static void gen_case(const ic_case *k, int mc, int hint)
{
    char src[8192];
    gen_source(src, sizeof src, k->rank, mc, hint);
    wm_ptx_module *m = pi_parse(src, "ic.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    size_t nargs = 3 + k->rank + (k->rank - 2);
    unsigned es = tma_esize(k->dtype);
    uint64_t gbytes = es;
    for (unsigned i = 0; i < k->rank; i++)
        gbytes *= k->dims[i];
    uint8_t *g = malloc(gbytes);
    srand(k->rank * 13 + k->dtype);
    for (uint64_t i = 0; i < gbytes; i++)
        g[i] = (uint8_t)(rand() & 0x7f); /* no NaN patterns by chance */
    static uint8_t want[16384], out[2 * 16384];
    memset(want, 0, sizeof want);
    memset(out, 0xcd, sizeof out);
    wm_ptx_arg x[1] = {pi_arg_buf(g, gbytes)};
    wm_ptx_tmap t = case_map(k, nargs);
    uint8_t mp[128];
    char err[200] = "";
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, err, sizeof err), WM_OK);
    if (*err)
        fprintf(stderr, "map: %s\n", err);
    uint64_t nb = reference(k, g, want);
    wm_ptx_arg a[16];
    uint16_t offs[3];
    size_t na = case_args(k, mp, out, (mc ? 2 : 1) * nb, (uint32_t)nb, offs,
                          a);
    CHECK_EQ(na, nargs);
    CHECK_EQ(run(m, "ic", mc ? 2 : 1, 32, mc ? 2 : 0, a, na, x, 1, NULL,
                 NULL), WM_OK);
    CHECK(memcmp(out, want, nb) == 0);
    if (mc)
        CHECK(memcmp(out + nb, want, nb) == 0);
    free(g);
    wm_ptx_free(m);
}

static const ic_case cases[] = {
    /* 3-D NWC f16, 16 channels from c = 8 (8..15 past C), box W [-1, 11)
       of two images: 0..10 of image 0, then -1..7 of image 1 */
    {6, 3, {16, 10, 2}, {-2}, {0}, 16, 20, {1, 1, 1}, {8, -1, 0}, {1}, 0, 0},
    /* 4-D NHWC f32, traversal stride 2 in W and H (box W -1 1 3 5,
       H 0 2 4), NaN fill, across the images */
    {7, 4, {4, 7, 5, 2}, {-1, -1}, {-1, 0}, 4, 20, {1, 2, 2, 1},
     {0, -1, -1, 0}, {0, 1}, 0, 1},
    /* 5-D NDHWC u8: box W [0, 4) (3 outside), H [0, 2), D [0, 2), from
       the second D plane of image 0 into image 1 */
    {0, 5, {16, 3, 3, 2, 2}, {-1, 0, 0}, {0, -1, 0}, 16, 24,
     {1, 1, 1, 1, 1}, {0, -1, 0, 1, 0}, {1, 0, 0}, 0, 0},
    /* 4-D f16 rows of 32 bytes under the 32-byte swizzle, the 3x3
       filter's bottom-right tap */
    {6, 4, {16, 4, 4, 1}, {-1, -1}, {-1, -1}, 16, 16, {1, 1, 1, 1},
     {0, -1, -1, 0}, {2, 2}, 1, 0},
};

static void gen_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int before = check_failures;
        gen_case(&cases[i], 0, i % 2);
        if (check_failures != before)
            fprintf(stderr, "  ^ im2col case %zu\n", i);
    }
    /* .multicast::cluster with .L2::cache_hint: both CTAs get the box */
    gen_case(&cases[1], 1, 1);
    gen_case(&cases[0], 1, 0);
}

/* ---- by hand: 1 x 4 x 4 x 8 NHWC, the 3x3 filter's corner taps --------- */

/* Pixel (h, w) holds 100 h + 10 w + c + 1 in channel c, so a padding zero
   stands out.  The map's corners are -1, -1 and -1, -1 (pad 1 for a 3x3
   filter), 16 pixels of 8 channels from coordinates (c 0, w -1, h -1,
   n 0): tap (r, s) shifts the box to W [s - 1, s + 3), H [r - 1, r + 3).
   The pixels each tap loads, written out by hand as 10 h + w (-1: the
   padding, zeros). */
static void by_hand(void)
{
    static const int want[4][16] = {
        /* tap (0, 0): the first row and column are padding */
        {-1, -1, -1, -1, -1, 0, 1, 2, -1, 10, 11, 12, -1, 20, 21, 22},
        /* tap (0, 2): the first row and the last column */
        {-1, -1, -1, -1, 1, 2, 3, -1, 11, 12, 13, -1, 21, 22, 23, -1},
        /* tap (2, 0): the first column and the last row */
        {-1, 10, 11, 12, -1, 20, 21, 22, -1, 30, 31, 32, -1, -1, -1, -1},
        /* tap (2, 2): the last column and the last row */
        {11, 12, 13, -1, 21, 22, 23, -1, 31, 32, 33, -1, -1, -1, -1, -1},
    };
    static const int taps[4][2] = {{0, 0}, {0, 2}, {2, 0}, {2, 2}};
    char src[8192];
    gen_source(src, sizeof src, 4, 0, 0);
    wm_ptx_module *m = pi_parse(src, "hand.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    static float act[4 * 4 * 8], out[16 * 8];
    for (int h = 0; h < 4; h++)
        for (int w = 0; w < 4; w++)
            for (int c = 0; c < 8; c++)
                act[(h * 4 + w) * 8 + c] = (float)(100 * h + 10 * w + c + 1);
    wm_ptx_arg x[1] = {pi_arg_buf(act, sizeof act)};
    for (int t = 0; t < 4; t++) {
        ic_case k = {7, 4, {8, 4, 4, 1}, {-1, -1}, {-1, -1}, 8, 16,
                     {1, 1, 1, 1}, {0, -1, -1, 0}, {taps[t][1], taps[t][0]},
                     0, 0};
        wm_ptx_tmap tm = case_map(&k, 9);
        uint8_t mp[128];
        CHECK_EQ(wm_ptx_tmap_encode(&tm, mp, NULL, 0), WM_OK);
        memset(out, 0xcd, sizeof out);
        wm_ptx_arg a[16];
        uint16_t offs[3];
        size_t na = case_args(&k, mp, out, sizeof out, sizeof out, offs, a);
        wm_agg *g = wm_agg_new(&arch);
        CHECK_EQ(run(m, "ic", 1, 32, 0, a, na, x, 1, g, NULL), WM_OK);
        int bad = 0, inside = 0;
        for (int p = 0; p < 16; p++) {
            int hw = want[t][p];
            inside += hw >= 0;
            for (int c = 0; c < 8; c++) {
                float v = hw < 0 ? 0.0f
                                 : (float)(100 * (hw / 10) + 10 * (hw % 10) +
                                           c + 1);
                bad += out[p * 8 + c] != v;
            }
        }
        CHECK_EQ(bad, 0);
        CHECK_EQ(inside, 9);
        /* 9 pixels of 32 bytes at 32-byte-aligned addresses: 9 requests
           of one sector, all at the load */
        wm_stats s;
        memset(&s, 0, sizeof s);
        for (size_t i = 0; i < wm_agg_nsites(g); i++) {
            wm_site site;
            wm_agg_site(g, i, &site);
            if (site.op == WM_OP_TMA) {
                s.requests += site.stats.requests;
                s.sectors += site.stats.sectors;
            }
        }
        CHECK_EQ(s.requests, 9);
        CHECK_EQ(s.sectors, 9);
        wm_agg_free(g);
    }
    wm_ptx_free(m);
}

/* ---- the encoder's limits and the faults ------------------------------ */

/* Encoding t fails with a message containing what. */
static void refused(const wm_ptx_tmap *t, const char *what)
{
    uint8_t mp[128];
    char err[200] = "";
    CHECK_EQ(wm_ptx_tmap_encode(t, mp, err, sizeof err), WM_ERR_ARG);
    CHECK(strstr(err, what) != NULL);
    if (!strstr(err, what))
        fprintf(stderr, "  got '%s', want '%s'\n", err, what);
}

static void limits(void)
{
    uint64_t d4[4] = {8, 4, 4, 1}, d5[5] = {16, 3, 3, 2, 2};
    wm_ptx_tmap ok = im2col_map(7, 4, 4, d4, 1, 0), t;
    ok.lower[0] = ok.lower[1] = ok.upper[0] = ok.upper[1] = -1;
    ok.channels = 8;
    ok.pixels = 16;
    uint8_t mp[128], back[128];
    CHECK_EQ(wm_ptx_tmap_encode(&ok, mp, NULL, 0), WM_OK);
    /* the layout (tmap.c): mode at 10, channels, pixels, corners at 112 */
    CHECK_EQ(mp[10], 1);
    CHECK_EQ(mp[112] | mp[113] << 8, 8);
    CHECK_EQ(mp[114] | mp[115] << 8, 16);
    CHECK_EQ(mp[116] | mp[117] << 8, 0xffff);
    /* tensormap.replace of a tile field keeps the im2col fields */
    char err[200] = "";
    memcpy(back, mp, 128);
    CHECK(wmi_tmap_replace(back, WMI_TMAP_ADDR, 0, ok.global_address + 256,
                           err, sizeof err));
    wm_ptx_tmap u;
    CHECK(wmi_tmap_unpack(back, &u, err, sizeof err));
    CHECK_EQ(u.global_address, ok.global_address + 256);
    CHECK_EQ(u.im2col, 1);
    CHECK_EQ(u.channels, 8);
    CHECK_EQ(u.pixels, 16);
    CHECK_EQ(u.lower[0], -1);
    CHECK_EQ(u.lower[1], -1);
    CHECK_EQ(u.upper[0], -1);
    CHECK_EQ(u.upper[1], -1);
    t = ok;
    t.rank = 2;
    refused(&t, "an im2col map of rank 2 (3..5");
    t = ok;
    t.lower[1] = 128;
    refused(&t, "im2col lower corner 1 is 128 (-128..127 at rank 4)");
    t = im2col_map(0, 1, 5, d5, 1, 0);
    t.channels = 16;
    t.pixels = 8;
    t.upper[2] = -17;
    refused(&t, "im2col upper corner 2 is -17 (-16..15 at rank 5)");
    t = ok;
    t.lower[0] = 2;
    t.upper[0] = -2;
    refused(&t, "the im2col bounding box is empty in dimension 1 (4 + upper "
                "-2 - lower 2 pixels)");
    t = ok;
    t.channels = 300;
    refused(&t, "im2col channels per pixel 300 (1..256)");
    t = ok;
    t.channels = 6;
    refused(&t, "im2col channels per pixel of 24 bytes (a multiple of 16)");
    t = ok;
    t.pixels = 1025;
    refused(&t, "im2col pixels per column 1025 (1..1024)");
    t = ok;
    t.channels = 64;
    t.swizzle = 3;
    refused(&t, "256 bytes are wider than the 128-byte swizzle");
    t = ok;
    t.im2col = 2;
    refused(&t, "im2col 2 (0 tiled, 1 im2col)");
    t = ok;
    t.interleave = 1;
    refused(&t, "interleaved layouts (interleave 1) are not modelled");
}

/* src with the first occurrence of from replaced by to. */
static void edit(char *src, size_t n, const char *from, const char *to)
{
    char *p = strstr(src, from);
    CHECK(p != NULL);
    if (!p)
        return;
    char tail[8192];
    snprintf(tail, sizeof tail, "%s", p + strlen(from));
    snprintf(p, n - (size_t)(p - src), "%s%s", to, tail);
}

/* Run the 4-D generated load (edited by from -> to) on map t; the fault's
   status and message. */
static void faults_with(const char *from, const char *to,
                        const wm_ptx_tmap *t, wm_status want,
                        const char *what)
{
    char src[8192];
    gen_source(src, sizeof src, 4, 0, 0);
    if (from)
        edit(src, sizeof src, from, to);
    wm_ptx_module *m = pi_parse(src, "f.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    static float act[4 * 4 * 8], out[16 * 8];
    wm_ptx_arg x[1] = {pi_arg_buf(act, sizeof act)};
    ic_case k = {7, 4, {8, 4, 4, 1}, {-1, -1}, {-1, -1}, 8, 16, {1, 1, 1, 1},
                 {0, -1, -1, 0}, {0, 0}, 0, 0};
    uint8_t mp[128];
    char err[200] = "";
    CHECK_EQ(wm_ptx_tmap_encode(t, mp, err, sizeof err), WM_OK);
    wm_ptx_arg a[16];
    uint16_t offs[3];
    size_t na = case_args(&k, mp, out, sizeof out, sizeof out, offs, a);
    wm_ptx_fault ft;
    CHECK_EQ(run(m, "ic", 1, 32, 0, a, na, x, 1, NULL, &ft), want);
    CHECK(strstr(ft.msg, what) != NULL);
    if (!strstr(ft.msg, what))
        fprintf(stderr, "  got '%s', want '%s'\n", ft.msg, what);
    wm_ptx_free(m);
}

static void faults(void)
{
    uint64_t d4[4] = {8, 4, 4, 1};
    wm_ptx_tmap ok = im2col_map(7, 4, 4, d4, 9, 0);
    ok.lower[0] = ok.lower[1] = ok.upper[0] = ok.upper[1] = -1;
    ok.channels = 8;
    ok.pixels = 16;
    /* an im2col copy through a tiled map, a tile copy through an im2col
       map */
    wm_ptx_tmap tiled;
    memset(&tiled, 0, sizeof tiled);
    tiled.dtype = 7;
    tiled.rank = 4;
    tiled.global_address = ok.global_address;
    memcpy(tiled.dims, ok.dims, sizeof tiled.dims);
    memcpy(tiled.strides, ok.strides, sizeof tiled.strides);
    for (unsigned i = 0; i < 4; i++) {
        tiled.box[i] = i ? 1 : 8;
        tiled.elem_strides[i] = 1;
    }
    faults_with(NULL, NULL, &tiled, WM_ERR_FAULT,
                "an im2col copy on a tiled tensor map at 0x");
    faults_with("global.im2col.mbarrier::complete_tx::bytes [%r3], "
                "[%rd3, {%r10, %r11, %r12, %r13}], [%r2], {%rs10, %rs11}",
                "global.tile.mbarrier::complete_tx::bytes [%r3], "
                "[%rd3, {%r10, %r11, %r12, %r13}], [%r2]",
                &ok, WM_ERR_FAULT, "a tile copy on an im2col tensor map");
    /* one im2col offset where a 4-D copy takes two */
    faults_with("[%r2], {%rs10, %rs11}", "[%r2], {%rs10}", &ok, WM_ERR_FAULT,
                "a 4D im2col copy takes 2 im2col offsets, got 1");
    /* a traversal stride in N */
    wm_ptx_tmap t = ok;
    t.elem_strides[3] = 2;
    faults_with(NULL, NULL, &t, WM_ERR_UNSUPPORTED,
                "an im2col map with element stride 2 in N (dimension 3) is "
                "not modelled");
    /* im2col_no_offs and im2col::w stay unmodelled, named */
    faults_with("global.im2col.mbarrier", "global.im2col::w.mbarrier", &ok,
                WM_ERR_UNSUPPORTED,
                "unsupported instruction 'cp.async.bulk.tensor.4d."
                "shared::cluster.global.im2col::w");
}

/* cp.async.bulk.prefetch.tensor (tile and im2col forms, with a cache
   hint) parses and has no effect: the load after it still delivers (and
   its map's channel stride is ignored). */
static void prefetch(void)
{
    char src[8192];
    gen_source(src, sizeof src, 4, 0, 0);
    edit(src, sizeof src,
         "prefetch.tensor.4d.L2.global.im2col [%rd3, {%r10, %r11, %r12, "
         "%r13}], {%rs10, %rs11};",
         "prefetch.tensor.4d.L2.global.tile [%rd3, {%r10, %r11, %r12, "
         "%r13}];\n\tcp.async.bulk.prefetch.tensor.4d.L2.global.im2col."
         "L2::cache_hint [%rd3, {%r10, %r11, %r12, %r13}], {%rs10, %rs11}, "
         "%rd7;");
    wm_ptx_module *m = pi_parse(src, "pf.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    static float act[4 * 4 * 8], out[16 * 8];
    for (int i = 0; i < 4 * 4 * 8; i++)
        act[i] = (float)i;
    wm_ptx_arg x[1] = {pi_arg_buf(act, sizeof act)};
    /* elementStrides[0] = 2 is ignored (cuda.h): channels stay contiguous */
    ic_case k = {7, 4, {8, 4, 4, 1}, {0, 0}, {0, 0}, 8, 16, {2, 1, 1, 1},
                 {0, 0, 0, 0}, {0, 0}, 0, 0};
    wm_ptx_tmap t = case_map(&k, 9);
    uint8_t mp[128];
    CHECK_EQ(wm_ptx_tmap_encode(&t, mp, NULL, 0), WM_OK);
    wm_ptx_arg a[16];
    uint16_t offs[3];
    size_t na = case_args(&k, mp, out, sizeof out, sizeof out, offs, a);
    CHECK_EQ(run(m, "ic", 1, 32, 0, a, na, x, 1, NULL, NULL), WM_OK);
    /* corners 0, 0: the box is the image, read in order */
    CHECK(memcmp(out, act, sizeof act) == 0);
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
        /* 2 images of 6 x 6: M tiles of 32 cross rows and images, the
           last runs past the tensor (N = 2); one 4 x 4 image */
        conv(m, 2, 6, 6, 0, b == 0);
        conv(m, 2, 6, 6, 1, b == 0);
        conv(m, 1, 4, 4, 1, 0);
        wm_ptx_free(m);
    }
    by_hand();
    gen_cases();
    limits();
    faults();
    prefetch();
    return check_done("test_ptx_im2col");
}
