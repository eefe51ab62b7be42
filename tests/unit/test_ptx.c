/*
 * test_ptx.c -- the PTX interpreter on its own fixtures (tests/ptx/ fixtures,
 * compiled from basic.cu / mma.cu by gen.sh, plus hand-written faults.ptx):
 * functional results against C references on random inputs (negative
 * values included), hand-computed per-line numbers, parse errors with
 * line:col, and every kind of fault.  Every launch is also run with the
 * fast paths off and must agree exactly (ptx_twin.h).
 */
#include "check.h"
#include "ptx_inline.h"
#include "warpmem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path, size_t *n)
{
    return wm_read_file(path, n);
}

static wm_ptx_module *load(const char *name)
{
    char path[1024];
    size_t n = 0;
    snprintf(path, sizeof path, "%s/tests/ptx/%s", WM_SOURCE_DIR, name);
    char *src = read_all(path, &n);
    CHECK(src != NULL);
    if (!src)
        return NULL;
    wm_ptx_module *m = NULL;
    wm_diag d;
    wm_status st = wm_ptx_parse(src, n, path, &m, &d);
    CHECK_EQ(st, WM_OK);
    if (st != WM_OK)
        wm_diag_print(stderr, &d, path, src, n);
    free(src);
    return m;
}

static wm_ptx_module *basic, *faults;
static wm_arch arch;

/* Run kernel name of module m; returns the status, agg in *out (caller
   frees) and the fault in *ft. */
static wm_status run(wm_ptx_module *m, const char *name, const pi_launch *L,
                     wm_agg **out, wm_ptx_fault *ft)
{
    wm_agg *g = wm_agg_new(&arch);
    wm_ptx_fault f;
    wm_status st = pi_run_agg(m, name, L, g, ft ? ft : &f);
    if (out)
        *out = g;
    else
        wm_agg_free(g);
    return st;
}

/* Per-request value over the sites of source line `line` (space, op). */
static double line_per_req(const wm_agg *g, unsigned line, wm_space sp,
                           wm_op op, int ideal)
{
    uint64_t req = 0, v = 0;
    for (size_t i = 0; i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_agg_site(g, i, &s);
        if (s.line != line || s.space != sp || s.op != op)
            continue;
        req += s.stats.requests;
        if (sp == WM_SPACE_SHARED)
            v += ideal ? s.stats.ideal_wavefronts : s.stats.wavefronts;
        else
            v += ideal ? s.stats.ideal_sectors : s.stats.sectors;
    }
    return req ? (double)v / (double)req : -1.0;
}

static uint64_t rng = 12345;
static uint32_t rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

static float rndf(void)
{
    return (float)(rnd() % 2000) / 100.0f - 10.0f;
}

/* ---- functional + metric tests on basic.ptx ------------------------------ */

static void test_transpose(const char *name, double want_ld_wf)
{
    enum { N = 64 };
    static float in[N * N], out[N * N];
    for (int i = 0; i < N * N; i++)
        in[i] = rndf();
    memset(out, 0, sizeof out);
    pi_launch L = {0};
    pi_grid2(&L, N / 32, N / 32, 32, 8);
    pi_buf(&L, out, sizeof out);
    pi_buf(&L, in, sizeof in);
    pi_u32(&L, N);
    wm_agg *g;
    CHECK_EQ(run(basic, name, &L, &g, NULL), WM_OK);
    int bad = 0;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++)
            bad += out[x * N + y] != in[y * N + x];
    CHECK_EQ(bad, 0);
    if (strcmp(name, "transpose_naive") == 0) {
        CHECK(line_per_req(g, 26, WM_SPACE_GLOBAL, WM_OP_LD, 0) == 4.0);
        CHECK(line_per_req(g, 26, WM_SPACE_GLOBAL, WM_OP_ST, 0) == 32.0);
        CHECK(line_per_req(g, 26, WM_SPACE_GLOBAL, WM_OP_ST, 1) == 4.0);
    } else {
        /* tile store row-wise: conflict-free; column read: 1 or 32 */
        CHECK(line_per_req(g, 36, WM_SPACE_SHARED, WM_OP_ST, 0) == 1.0);
        CHECK(line_per_req(g, 36, WM_SPACE_GLOBAL, WM_OP_LD, 0) == 4.0);
        CHECK(line_per_req(g, 41, WM_SPACE_SHARED, WM_OP_LD, 0) == want_ld_wf);
        CHECK(line_per_req(g, 41, WM_SPACE_GLOBAL, WM_OP_ST, 0) == 4.0);
    }
    wm_agg_free(g);
}

static void test_reduce(void)
{
    enum { N = 5000 };
    static float in[N];
    float sum = 0;
    double ref = 0;
    for (int i = 0; i < N; i++) {
        in[i] = rndf();
        ref += (double)in[i];
    }
    pi_launch L = {0};
    pi_grid2(&L, 7, 1, 256, 1);
    pi_buf(&L, &sum, sizeof sum);
    pi_buf(&L, in, sizeof in);
    pi_u32(&L, N);
    wm_agg *g;
    CHECK_EQ(run(basic, "reduce", &L, &g, NULL), WM_OK);
    CHECK(fabs((double)sum - ref) < 1e-2);
    /* one lane per warp stores its partial: 1 wavefront per request */
    CHECK(line_per_req(g, 72, WM_SPACE_SHARED, WM_OP_ST, 0) == 1.0);
    CHECK(line_per_req(g, 67, WM_SPACE_GLOBAL, WM_OP_LD, 0) > 3.9);
    wm_agg_free(g);
}

static void test_sgemm(void)
{
    enum { N = 48 };
    static float A[N * N], B[N * N], C[N * N], R[N * N];
    for (int i = 0; i < N * N; i++) {
        A[i] = rndf();
        B[i] = rndf();
        C[i] = R[i] = rndf();
    }
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            float acc = 0;
            for (int k = 0; k < N; k++)
                acc += A[r * N + k] * B[k * N + c];
            R[r * N + c] = 1.5f * acc + 0.5f * R[r * N + c];
        }
    pi_launch L = {0};
    pi_grid2(&L, N / 16, N / 16, 16, 16);
    pi_u32(&L, N);
    pi_f32(&L, 1.5f);
    pi_buf(&L, A, sizeof A);
    pi_buf(&L, B, sizeof B);
    pi_f32(&L, 0.5f);
    pi_buf(&L, C, sizeof C);
    L.threads = 2;
    CHECK_EQ(run(basic, "sgemm", &L, NULL, NULL), WM_OK);
    double maxerr = 0;
    for (int i = 0; i < N * N; i++)
        maxerr = fmax(maxerr, fabs((double)C[i] - (double)R[i]));
    CHECK(maxerr < 1e-2);
}

static void test_histogram(void)
{
    enum { N = 3000 };
    static unsigned char in[N];
    static unsigned hist[256], ref[256];
    for (int i = 0; i < N; i++) {
        in[i] = (unsigned char)(rnd() % 7 * 31);
        ref[in[i]]++;
    }
    pi_launch L = {0};
    pi_grid2(&L, 3, 1, 128, 1);
    pi_buf(&L, hist, sizeof hist);
    pi_buf(&L, in, sizeof in);
    pi_u32(&L, N);
    wm_agg *g;
    L.threads = 3;
    CHECK_EQ(run(basic, "histogram", &L, &g, NULL), WM_OK);
    CHECK(memcmp(hist, ref, sizeof ref) == 0);
    CHECK(line_per_req(g, 123, WM_SPACE_SHARED, WM_OP_ATOM, 0) > 0);
    CHECK(line_per_req(g, 126, WM_SPACE_GLOBAL, WM_OP_ATOM, 0) == 4.0);
    wm_agg_free(g);
}

static void test_stencil(void)
{
    enum { W = 48, H = 32 };
    static float in[W * H], out[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = rndf();
    pi_launch L = {0};
    pi_grid2(&L, W / 16, H / 16, 16, 16);
    pi_buf(&L, out, sizeof out);
    pi_buf(&L, in, sizeof in);
    pi_u32(&L, W);
    pi_u32(&L, H);
    CHECK_EQ(run(basic, "stencil", &L, NULL, NULL), WM_OK);
    int bad = 0;
#define AT(x, y) in[(y < 0 ? 0 : y >= H ? H - 1 : y) * W + (x < 0 ? 0 : x >= W ? W - 1 : x)]
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float r = 0.2f * (AT(x, y) + AT(x - 1, y) + AT(x + 1, y) +
                              AT(x, y - 1) + AT(x, y + 1));
            bad += fabsf(out[y * W + x] - r) > 1e-4f;
        }
#undef AT
    CHECK_EQ(bad, 0);
}

static void test_copy_kinds(void)
{
    enum { N = 1024 };
    static float in[N * 4], out[N * 4];
    for (int i = 0; i < N * 4; i++)
        in[i] = rndf();
    /* strided: every 3rd element, 32 lanes over 384 bytes = 12 sectors */
    pi_launch L = {0};
    pi_grid2(&L, 1, 1, 256, 1);
    pi_buf(&L, out, sizeof out);
    pi_buf(&L, in, sizeof in);
    pi_u32(&L, 256);
    pi_u32(&L, 3);
    wm_agg *g;
    CHECK_EQ(run(basic, "strided", &L, &g, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < 256; i++)
        bad += out[i] != in[i * 3];
    CHECK_EQ(bad, 0);
    CHECK(line_per_req(g, 18, WM_SPACE_GLOBAL, WM_OP_LD, 0) == 12.0);
    CHECK(line_per_req(g, 18, WM_SPACE_GLOBAL, WM_OP_LD, 1) == 4.0);
    wm_agg_free(g);
    /* float4 grid-stride copy: 16 sectors per request */
    memset(out, 0, sizeof out);
    pi_launch L4 = {0};
    pi_grid2(&L4, 2, 1, 64, 1);
    pi_buf(&L4, out, sizeof out);
    pi_buf(&L4, in, sizeof in);
    pi_u32(&L4, N);
    CHECK_EQ(run(basic, "copy4", &L4, &g, NULL), WM_OK);
    CHECK(memcmp(out, in, sizeof out) == 0);
    CHECK(line_per_req(g, 58, WM_SPACE_GLOBAL, WM_OP_LD, 0) == 16.0);
    CHECK(line_per_req(g, 58, WM_SPACE_GLOBAL, WM_OP_ST, 0) == 16.0);
    wm_agg_free(g);
}

static void test_kv(void)
{
    enum { T = 6, HEADS = 4, DIM = 64, SLOTS = 16 };
    static uint16_t cache[SLOTS * HEADS * DIM], k[T * HEADS * DIM];
    static int64_t slots[T] = {5, 0, 15, 7, 2, 9};
    for (int i = 0; i < T * HEADS * DIM; i++)
        k[i] = (uint16_t)rnd();
    pi_launch L = {0};
    pi_grid2(&L, T, 1, 32, 1);
    pi_buf(&L, cache, sizeof cache);
    pi_buf(&L, k, sizeof k);
    pi_buf(&L, slots, sizeof slots);
    pi_u32(&L, HEADS);
    pi_u32(&L, DIM);
    wm_agg *g;
    CHECK_EQ(run(basic, "kv_write", &L, &g, NULL), WM_OK);
    int bad = 0;
    for (int t = 0; t < T; t++)
        for (int e = 0; e < HEADS * DIM; e++)
            bad += cache[slots[t] * HEADS * DIM + e] != k[t * HEADS * DIM + e];
    CHECK_EQ(bad, 0);
    /* 32 lanes x 16 bytes: 16 sectors per request */
    CHECK(line_per_req(g, 110, WM_SPACE_GLOBAL, WM_OP_ST, 0) == 16.0);
    CHECK(line_per_req(g, 110, WM_SPACE_GLOBAL, WM_OP_LD, 0) == 16.0);
    /* the slot: every lane loads the same 8 bytes: 1 sector */
    CHECK(line_per_req(g, 105, WM_SPACE_GLOBAL, WM_OP_LD, 0) == 1.0);
    wm_agg_free(g);
}

static void test_local_dyn_generic(void)
{
    enum { NT = 64 };
    static int idx[NT], out[NT];
    for (int i = 0; i < NT; i++)
        idx[i] = (int)(rnd() % 40);
    pi_launch L = {0};
    pi_grid2(&L, 2, 1, 32, 1);
    pi_buf(&L, out, sizeof out);
    pi_buf(&L, idx, sizeof idx);
    wm_agg *g;
    CHECK_EQ(run(basic, "localarr", &L, &g, NULL), WM_OK);
    int bad = 0;
    for (int t = 0; t < NT; t++)
        bad += out[t] != t * (idx[t] & 15);
    CHECK_EQ(bad, 0);
    /* per-thread st.local.v4 at the same offset: lanes interleave, so a
       warp's 16-byte stores cover 512 contiguous bytes = 16 sectors */
    CHECK(line_per_req(g, 155, WM_SPACE_LOCAL, WM_OP_ST, 0) == 16.0);
    CHECK(line_per_req(g, 156, WM_SPACE_LOCAL, WM_OP_LD, 0) > 0);
    wm_agg_free(g);

    static float in[200], o2[200];
    for (int i = 0; i < 200; i++)
        in[i] = rndf();
    memset(o2, 0, sizeof o2);
    pi_launch D = {0};
    pi_grid2(&D, 2, 1, 128, 1);
    D.dyn_smem = 128 * 4;
    pi_buf(&D, o2, sizeof o2);
    pi_buf(&D, in, sizeof in);
    pi_u32(&D, 200);
    CHECK_EQ(run(basic, "dynsmem", &D, NULL, NULL), WM_OK);
    bad = 0;
    for (int i = 0; i < 200; i++) {
        int b = i / 128, t = i % 128, j = b * 128 + 127 - t;
        bad += o2[i] != (j < 200 ? in[j] : 0.0f);
    }
    CHECK_EQ(bad, 0);
    /* without the dynamic shared memory the kernel faults, not crashes */
    D.dyn_smem = 0;
    wm_ptx_fault ft;
    CHECK_EQ(run(basic, "dynsmem", &D, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "out-of-bounds shared store") != NULL);

    static float gin[128], gout[128];
    for (int i = 0; i < 128; i++)
        gin[i] = rndf();
    pi_launch G = {0};
    pi_grid2(&G, 1, 1, 128, 1);
    pi_buf(&G, gout, sizeof gout);
    pi_buf(&G, gin, sizeof gin);
    CHECK_EQ(run(basic, "generic", &G, &g, NULL), WM_OK);
    bad = 0;
    for (int t = 0; t < 128; t++)
        bad += gout[t] != ((t & 1) ? 2.0f * gin[t ^ 1] : gin[t ^ 1]);
    CHECK_EQ(bad, 0);
    /* the generic load splits: even lanes global (4 sectors), odd lanes
       shared (16 lanes on even banks: 1 wavefront) */
    CHECK(line_per_req(g, 177, WM_SPACE_GLOBAL, WM_OP_LD, 0) == 4.0);
    CHECK(line_per_req(g, 177, WM_SPACE_SHARED, WM_OP_LD, 0) == 1.0);
    wm_agg_free(g);
}

static uint16_t f2h(float f)
{
    /* reference: round to nearest even via the library's fill of a value */
    uint16_t h;
    float v = f;
    (void)v;
    /* encode with a tiny independent converter */
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000, e = (u >> 23) & 0xff, m = u & 0x7fffff;
    int ex = (int)e - 127 + 15;
    if (ex <= 0) {
        h = (uint16_t)sign; /* test inputs avoid subnormals */
    } else if (ex >= 31) {
        h = (uint16_t)(sign | 0x7c00);
    } else {
        uint32_t r = (uint32_t)ex << 10 | m >> 13, rem = m & 0x1fff;
        if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
            r++;
        h = (uint16_t)(sign | r);
    }
    return h;
}

static float h2f(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 0x3ff;
    uint32_t u = e == 0 ? sign : e == 31 ? (sign | 0x7f800000 | m << 13)
                                         : (sign | (e + 112) << 23 | m << 13);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void test_half_vote_int(void)
{
    enum { N = 64 };
    static float a[N];
    static uint16_t out[N];
    for (int i = 0; i < N; i++)
        a[i] = rndf();
    pi_launch L = {0};
    pi_grid2(&L, 1, 1, N, 1);
    pi_buf(&L, out, sizeof out);
    pi_buf(&L, a, sizeof a);
    pi_u32(&L, N);
    CHECK_EQ(run(basic, "halfmath", &L, NULL, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float h = h2f(f2h(a[i]));
        float sq = h2f(f2h(h * h));
        bad += out[i] != f2h(sq + sq);
    }
    CHECK_EQ(bad, 0);

    static int in[N];
    static unsigned vo[N];
    for (int i = 0; i < N; i++)
        in[i] = (int)(rnd() % 20) - 3;
    pi_launch V = {0};
    pi_grid2(&V, 1, 1, N, 1);
    pi_buf(&V, vo, sizeof vo);
    pi_buf(&V, in, sizeof in);
    CHECK_EQ(run(basic, "vote_ballot", &V, NULL, NULL), WM_OK);
    bad = 0;
    for (int w = 0; w < N / 32; w++) {
        unsigned b = 0;
        int any = 0, all = 1;
        for (int l = 0; l < 32; l++) {
            b |= (unsigned)(in[w * 32 + l] > 0) << l;
            any |= in[w * 32 + l] > 5;
            all &= in[w * 32 + l] >= 0;
        }
        for (int l = 0; l < 32; l++) {
            int t = w * 32 + l, x = in[t];
            unsigned rev = 0;
            for (int k = 0; k < 32; k++)
                rev |= (((unsigned)t >> k) & 1u) << (31 - k);
            unsigned clz = x == 0 ? 32u : (unsigned)__builtin_clz((unsigned)x);
            unsigned ffs = (unsigned)__builtin_ffs(x);
            unsigned r = b + (unsigned)any * 7 + (unsigned)all * 11 +
                         (unsigned)__builtin_popcount(b) + clz + ffs + rev;
            bad += vo[t] != r;
        }
    }
    CHECK_EQ(bad, 0);

    static int ia[32], ib[32];
    static long long io[32];
    for (int i = 0; i < 32; i++) {
        ia[i] = (int)rnd() - (int)(rnd() >> 1);
        ib[i] = (int)(rnd() >> (i % 31)) * ((i & 1) ? -1 : 1);
    }
    ia[0] = INT32_MIN;
    ib[0] = -1;
    pi_launch I = {0};
    pi_grid2(&I, 1, 1, 32, 1);
    pi_buf(&I, io, sizeof io);
    pi_buf(&I, ia, sizeof ia);
    pi_buf(&I, ib, sizeof ib);
    CHECK_EQ(run(basic, "intmath", &I, NULL, NULL), WM_OK);
    bad = 0;
    for (int t = 0; t < 32; t++) {
        int x = ia[t], y = ib[t];
        int d = y | 1;
        long long q = (x == INT32_MIN && d == -1) ? (long long)INT32_MIN : (long long)(x / d);
        long long rm = (x == INT32_MIN && d == -1) ? 0 : (long long)(x % d);
        unsigned ux = (unsigned)x, uy = (unsigned)y;
        long long mulhi = (long long)(((long long)x * y) >> 32);
        unsigned umulhi = (unsigned)(((unsigned long long)ux * uy) >> 32);
        unsigned long long bytes = ((unsigned long long)uy << 32) | ux;
        unsigned perm = 0, sel = 0x5140;
        for (int k = 0; k < 4; k++)
            perm |= (unsigned)((bytes >> (8 * ((sel >> (4 * k)) & 7))) & 0xff) << (8 * k);
        unsigned fsl = (unsigned)((((unsigned long long)uy << 32 | ux) << (t & 31)) >> 32);
        long long r = q + rm + (long long)(ux >> (y & 31)) + (long long)(x >> (y & 7)) +
                      (long long)x * y + mulhi + (long long)umulhi +
                      (long long)(x < y ? x : y) + (long long)(x > y ? x : y) +
                      (long long)(x < 0 ? -(long long)x : x) + (long long)(x ^ y) +
                      (long long)(~x & y) + (long long)perm + (long long)fsl;
        if (x == INT32_MIN) /* abs(INT_MIN) wraps in 32-bit int arithmetic */
            r = r - (long long)(-(long long)x) + (long long)INT32_MIN;
        if (io[t] != r) {
            bad++;
            fprintf(stderr, "intmath lane %d: x=%d y=%d got %lld want %lld\n", t,
                    x, y, io[t], r);
        }
    }
    CHECK_EQ(bad, 0);
}

static void test_cp_async(void)
{
    static float in[2 * 1024], out[2 * 1024];
    for (int i = 0; i < 2048; i++)
        in[i] = rndf();
    pi_launch L = {0};
    pi_grid2(&L, 2, 1, 256, 1);
    pi_buf(&L, out, sizeof out);
    pi_buf(&L, in, sizeof in);
    wm_agg *g;
    CHECK_EQ(run(basic, "cpasync_copy", &L, &g, NULL), WM_OK);
    int bad = 0;
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 256; t++)
            bad += out[b * 1024 + t] !=
                   in[b * 1024 + t * 4 % 1024] + in[b * 1024 + (t * 4 + 1) % 1024];
    CHECK_EQ(bad, 0);
    /* 32 lanes x 16 bytes contiguous: 16 sectors; shared side 4 wavefronts */
    CHECK(line_per_req(g, 217, WM_SPACE_GLOBAL, WM_OP_LDGSTS, 0) == 16.0);
    CHECK(line_per_req(g, 217, WM_SPACE_SHARED, WM_OP_LDGSTS, 0) == 4.0);
    wm_agg_free(g);
}

/* ---- faults ---------------------------------------------------------------- */

static void test_faults(void)
{
    wm_ptx_fault ft;
    static float small[40];
    pi_launch L = {0};
    pi_grid2(&L, 2, 1, 32, 1);
    pi_buf(&L, small, sizeof small);
    pi_u32(&L, 0);
    /* 2 CTAs x 32 threads read in[0..31]: fine; offset 9 -> lane 31 reads 40 */
    CHECK_EQ(run(faults, "oob", &L, NULL, &ft), WM_OK);
    L.args[1].scalar = 9;
    CHECK_EQ(run(faults, "oob", &L, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "out-of-bounds global load of 4 bytes") != NULL);
    CHECK(strstr(ft.msg, "offset 160") != NULL);
    CHECK_EQ(ft.cta[0], 0);
    CHECK_EQ(ft.thread[0], 31);
    CHECK_EQ(ft.line, 12);
    CHECK(strcmp(ft.file, "/nonexistent/faults.cu") == 0);
    CHECK_EQ(ft.ptx_line, 22);
    /* with threads the lowest CTA still wins */
    L.threads = 2;
    L.args[1].scalar = 9;
    CHECK_EQ(run(faults, "oob", &L, NULL, &ft), WM_ERR_FAULT);
    CHECK_EQ(ft.cta[0], 0);

    pi_launch M = {0};
    pi_grid2(&M, 1, 1, 32, 1);
    pi_buf(&M, small, sizeof small);
    CHECK_EQ(run(faults, "misaligned", &M, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "misaligned global load of 4 bytes") != NULL);

    pi_launch S = {0};
    pi_grid2(&S, 1, 1, 64, 1);
    CHECK_EQ(run(faults, "shared_oob", &S, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "out-of-bounds shared store") != NULL);
    CHECK_EQ(ft.thread[0], 32);
    CHECK_EQ(ft.warp, 1);
    CHECK_EQ(ft.lane, 0);

    CHECK_EQ(run(faults, "bar_diverge", &S, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "barrier divergence") != NULL);
    CHECK_EQ(run(faults, "bar_deadlock", &S, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "barrier deadlock") != NULL);

    static unsigned o[32];
    pi_launch H = {0};
    pi_grid2(&H, 1, 1, 32, 1);
    pi_buf(&H, o, sizeof o);
    CHECK_EQ(run(faults, "shfl_diverge", &H, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "not converged") != NULL);
    CHECK(strstr(ft.msg, "missing 0xffff0000") != NULL);

    pi_launch P = {0};
    pi_grid2(&P, 1, 1, 32, 1);
    P.max_steps = 5000;
    CHECK_EQ(run(faults, "spin", &P, NULL, &ft), WM_ERR_LIMIT);
    CHECK(strstr(ft.msg, "step budget of 5000") != NULL);

    pi_launch U = {0};
    pi_grid2(&U, 1, 1, 32, 1);
    pi_u32(&U, 0);
    CHECK_EQ(run(faults, "unknown_op", &U, NULL, &ft), WM_OK);
    U.args[0].scalar = 1;
    CHECK_EQ(run(faults, "unknown_op", &U, NULL, &ft), WM_ERR_UNSUPPORTED);
    CHECK(strstr(ft.msg, "frobnicate.sync.b32") != NULL);

    pi_launch O = {0};
    pi_grid2(&O, 1, 1, 32, 1);
    CHECK_EQ(run(faults, "local_oob", &O, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "out-of-bounds local store") != NULL);
    CHECK_EQ(ft.lane, 4);
    CHECK_EQ(run(faults, "trapper", &O, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "trap") != NULL);
    CHECK_EQ(run(faults, "wild", &O, NULL, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "not in any buffer") != NULL);

    /* launch errors */
    pi_launch B = {0};
    pi_grid2(&B, 1, 1, 2048, 1);
    CHECK_EQ(run(faults, "trapper", &B, NULL, &ft), WM_ERR_ARG);
    CHECK(strstr(ft.msg, "2048 threads") != NULL);
    pi_launch A = {0};
    pi_grid2(&A, 1, 1, 32, 1);
    CHECK_EQ(run(faults, "oob", &A, NULL, &ft), WM_ERR_ARG);
    CHECK(strstr(ft.msg, "takes 2 parameters, 0 arguments") != NULL);
}

/* ---- parser ------------------------------------------------------------------ */

static void parse_err(const char *src, int line, int col, const char *msg)
{
    wm_ptx_module *m = NULL;
    wm_diag d;
    wm_status st = wm_ptx_parse(src, strlen(src), "t.ptx", &m, &d);
    CHECK_EQ(st, WM_ERR_PARSE);
    CHECK(m == NULL);
    CHECK_EQ(d.line, line);
    CHECK_EQ(d.col, col);
    CHECK(strstr(d.msg, msg) != NULL);
    if (st != WM_ERR_PARSE || d.line != line || d.col != col || !strstr(d.msg, msg))
        fprintf(stderr, "parse_err: got %d:%d '%s'\n", d.line, d.col, d.msg);
    wm_ptx_free(m);
}

static void test_parser(void)
{
    const char *head = ".version 9.0\n.target sm_80\n.address_size 64\n";
    char buf[1024];
    snprintf(buf, sizeof buf, "%s.visible .entry k()\n{\n\t.reg .b32 %%r<2>;\n"
                              "\tmov.u32 %%r1, 1\n\tret;\n}\n", head);
    parse_err(buf, 8, 2, "expected ',' or ';'");
    snprintf(buf, sizeof buf, "%s.visible .entry k()\n{\n\tmov.u32 %%r9, 1;\n}\n",
             head);
    parse_err(buf, 6, 10, "undeclared register '%r9'");
    snprintf(buf, sizeof buf, "%s.visible .entry k()\n{\n\tbra $L_nowhere;\n}\n",
             head);
    parse_err(buf, 6, 6, "unknown label '$L_nowhere'");
    snprintf(buf, sizeof buf, "%s.visible .entry k()\n{\n\t.reg .b32 %%r<2>;\n"
                              "\tld.global.u32 %%r1, [%%r1+;\n}\n", head);
    parse_err(buf, 7, 26, "expected an offset");
    snprintf(buf, sizeof buf, "%s.visible .entry k()\n{\n\t.reg .b32 %%r<2>;\n"
                              "\tmov.u32 %%r1, 0x12zz;\n}\n", head);
    parse_err(buf, 7, 15, "malformed number");
    snprintf(buf, sizeof buf, "%s.visible .entry k(\n{\n", head);
    parse_err(buf, 5, 1, "expected .param");
    parse_err("garbage", 1, 1, "expected a directive");
    parse_err("", 1, 1, "no .entry");

    /* tolerated: Triton forms, unknown modifiers, inline-asm scopes */
    const char *tri =
        ".version 8.4\n.target sm_80\n.address_size 64\n"
        ".extern .shared .align 16 .b8 global_smem[];\n"
        ".visible .entry tk(.param .u64 .ptr .global .align 1 tk_param_0,\n"
        "  .param .u32 tk_param_1)\n.reqntid 128, 1, 1\n{\n"
        "\t.reg .pred %p<3>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<4>;\n"
        "\t.loc 1 5 0 // x.py:5:0\n"
        "\tld.param.u64 %rd1, [tk_param_0];\n\tmov.u32 %r1, %tid.x;\n"
        "\tmov.pred %p1, -1;\n\tmov.u32 %r2, 0x0;\n"
        "\t// begin inline asm\n\t@%p1 ld.global.L1::evict_last.b32 { %r2 }, "
        "[ %rd1 + 0 ];\n\t// end inline asm\n"
        "\t{ .reg .b16 lo; mov.b16 lo, 0x3C00; }\n"
        "\tlop3.b32 %r3, %r1, %r2, 7, 0x96;\n\tprmt.b32 %r4, %r1, %r2, 0x3340U;\n"
        "\tret;\n}\n.file 1 \"x.py\"\n";
    wm_ptx_module *m = NULL;
    wm_diag d;
    CHECK_EQ(wm_ptx_parse(tri, strlen(tri), "tri.ptx", &m, &d), WM_OK);
    if (m) {
        CHECK_EQ(wm_ptx_nkernels(m), 1);
        CHECK_EQ(wm_ptx_find_kernel(m, NULL), 0);
        CHECK_EQ(wm_ptx_kernel_nparams(m, 0), 2);
        CHECK_EQ(wm_ptx_param_size(m, 0, 0), 8);
        wm_ptx_free(m);
    } else {
        fprintf(stderr, "triton: %d:%d %s\n", d.line, d.col, d.msg);
    }
    /* demangled names */
    CHECK(wm_ptx_find_kernel(basic, "copy") == 0);
    CHECK(wm_ptx_find_kernel(basic, "nope") == -1);
    CHECK(wm_ptx_find_kernel(basic, NULL) == -2);
    const char *mang = ".version 9.0\n.target sm_80\n.address_size 64\n"
                       ".visible .entry _Z9transposePfPKfii()\n{\n\tret;\n}\n"
                       ".visible .entry _ZN2ns4stepEv()\n{\n\tret;\n}\n";
    CHECK_EQ(wm_ptx_parse(mang, strlen(mang), "m.ptx", &m, &d), WM_OK);
    if (m) {
        CHECK_EQ(wm_ptx_find_kernel(m, "transpose"), 0);
        CHECK_EQ(wm_ptx_find_kernel(m, "_Z9transposePfPKfii"), 0);
        CHECK_EQ(wm_ptx_find_kernel(m, "ns::step"), 1);
        CHECK(strcmp(wm_ptx_kernel_pretty(m, 0), "transpose") == 0);
        wm_ptx_free(m);
    }
}

/* ---- fill ---------------------------------------------------------------------- */

static void test_fill(void)
{
    float f[4];
    int32_t i[3];
    uint8_t u[2];
    CHECK_EQ(wm_ptx_fill(f, WM_PTX_F32, 4, "iota"), WM_OK);
    CHECK(f[3] == 3.0f);
    CHECK_EQ(wm_ptx_fill(i, WM_PTX_I32, 3, "rand=7"), WM_OK);
    /* splitmix64(7): first output 0x...; integers take the top bits */
    uint64_t s = 7, z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    CHECK_EQ(i[0], (int32_t)(uint32_t)(z >> 32));
    CHECK_EQ(wm_ptx_fill(f, WM_PTX_F32, 4, "rand=7"), WM_OK);
    CHECK(f[0] == (float)((double)(z >> 11) * 0x1.0p-53));
    for (int k = 0; k < 4; k++)
        CHECK(f[k] >= 0.0f && f[k] < 1.0f);
    CHECK_EQ(wm_ptx_fill(u, WM_PTX_U8, 2, "zeros"), WM_OK);
    CHECK_EQ(u[1], 0);
    CHECK_EQ(wm_ptx_fill(u, WM_PTX_U8, 2, "nonsense"), WM_ERR_ARG);
    CHECK_EQ(wm_ptx_fill(u, WM_PTX_U8, 2, "rand="), WM_ERR_ARG);
    /* ranges: integers LO..HI inclusive, floats [LO, HI) */
    int32_t r[64];
    CHECK_EQ(wm_ptx_fill(r, WM_PTX_I32, 64, "rand=3,-2,2"), WM_OK);
    int seen[5] = {0};
    for (int k = 0; k < 64; k++) {
        CHECK(r[k] >= -2 && r[k] <= 2);
        if (r[k] >= -2 && r[k] <= 2)
            seen[r[k] + 2] = 1;
    }
    CHECK(seen[0] && seen[4]);
    CHECK_EQ(wm_ptx_fill(f, WM_PTX_F32, 4, "rand=3,-1.5,-1"), WM_OK);
    for (int k = 0; k < 4; k++)
        CHECK(f[k] >= -1.5f && f[k] < -1.0f);
    CHECK_EQ(wm_ptx_fill(u, WM_PTX_U8, 2, "rand=1,0,256"), WM_ERR_ARG);
    CHECK_EQ(wm_ptx_fill(u, WM_PTX_U8, 2, "rand=1,5,4"), WM_ERR_ARG);
    CHECK_EQ(wm_ptx_fill(u, WM_PTX_U8, 2, "rand=1,-1,4"), WM_ERR_ARG);
    CHECK_EQ(wm_ptx_fill(NULL, WM_PTX_U8, 0, "rand=1,1,4"), WM_OK);
    /* a piece filled alone equals the same piece of the whole */
    uint16_t whole[100], part[30];
    CHECK_EQ(wm_ptx_fill(whole, WM_PTX_U16, 100, "rand=9"), WM_OK);
    CHECK_EQ(wm_ptx_fill_at(part, WM_PTX_U16, 50, 30, "rand=9"), WM_OK);
    CHECK(memcmp(whole + 50, part, sizeof part) == 0);
    CHECK_EQ(wm_ptx_fill_at(part, WM_PTX_U16, 50, 30, "iota"), WM_OK);
    CHECK_EQ(part[29], 79);
    wm_ptx_type t;
    CHECK_EQ(wm_ptx_type_parse("bf16", &t), WM_OK);
    CHECK_EQ(t, WM_PTX_BF16);
    CHECK_EQ(wm_ptx_type_size(WM_PTX_F64), 8);
    CHECK_EQ(wm_ptx_type_parse("f128", &t), WM_ERR_ARG);
}

int main(void)
{
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    basic = load("basic.ptx");
    faults = load("faults.ptx");
    if (!basic || !faults)
        return check_done("test_ptx");
    test_fill();
    test_parser();
    test_transpose("transpose_naive", 0);
    test_transpose("transpose_pad", 1.0);
    test_transpose("transpose_nopad", 32.0);
    test_reduce();
    test_sgemm();
    test_histogram();
    test_stencil();
    test_copy_kinds();
    test_kv();
    test_local_dyn_generic();
    test_half_vote_int();
    test_cp_async();
    test_faults();
    wm_ptx_free(basic);
    wm_ptx_free(faults);
    return check_done("test_ptx");
}
