/*
 * test_ptx_tensormap.c -- tensor maps built in device code
 * (ptx_tensormap.c, tmap.c's wmi_tmap_replace): the corpus kernels of
 * tests/corpus/tma_replace.cu (-O3 and -G, sm_90a) against CPU
 * references -- a map built from zeros in shared memory, published with
 * tensormap.cp_fenceproxy and loaded through (partial boxes zero-filled),
 * a host map retargeted in global memory to another tensor under the
 * 128-byte swizzle -- with the published maps compared byte for byte to
 * wm_ptx_tmap_encode's; Triton 3.9's device-side tensor descriptors
 * (tests/corpus/triton/tdesc.py: a scaled tile copy with partial boxes and
 * an fp16 matmul whose operands and result move by TMA) against CPU
 * references, with hand-counted TMA sectors; PTX's elemtype numbering;
 * the faults of bad edits and copies.
 */
#include "check.h"
#include "ptx_inline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Launch kernel name of m over gx x gy CTAs of 128 threads. */
static wm_status run(const wm_ptx_module *m, const char *name, unsigned gx,
                     unsigned gy, wm_ptx_arg *args, size_t nargs,
                     wm_ptx_arg *x, size_t nx, wm_ptx_fault *ft)
{
    wm_ptx_launch l = pi_launch_of(gx, gy, 128, 0, args, nargs, x, nx);
    return pi_run_launch(m, name, &l, NULL, NULL, ft);
}

static wm_ptx_module *corpus(const char *build)
{
    return pi_corpus("tma_replace", build);
}

/* A 2-D f32 map with a 32 x 8 box. */
static wm_ptx_tmap map2(uint64_t addr, uint64_t d0, uint64_t d1,
                        unsigned swz)
{
    wm_ptx_tmap t;
    memset(&t, 0, sizeof t);
    t.dtype = 7;
    t.rank = 2;
    t.global_address = addr;
    t.dims[0] = d0;
    t.dims[1] = d1;
    t.strides[0] = d0 * 4;
    t.box[0] = 32;
    t.box[1] = 8;
    t.elem_strides[0] = t.elem_strides[1] = 1;
    t.swizzle = swz;
    return t;
}

/* tmr_build on a 52 x 20 tensor, 2 x 3 boxes of 32 x 8: out (64 x 24) is
   the tensor where it is and the zero fill elsewhere; each CTA's slot
   holds the map the encoder makes from the same arguments. */
static void build(const wm_ptx_module *m)
{
    enum { W = 52, H = 20, GX = 2, GY = 3, P = GX * 32 };
    static float in[W * H], out[P * GY * 8];
    static uint8_t slots[GX * GY][128];
    for (int i = 0; i < W * H; i++)
        in[i] = (float)(i % 97) + 0.5f;
    for (int i = 0; i < P * GY * 8; i++)
        out[i] = -1.0f;
    memset(slots, 0, sizeof slots);
    wm_ptx_arg a[5] = {pi_arg_buf(in, sizeof in), pi_arg_buf(out, sizeof out), pi_arg_u32(W),
                       pi_arg_u32(H), pi_arg_buf(slots, sizeof slots)};
    CHECK_EQ(run(m, "tmr_build", GX, GY, a, 5, NULL, 0, NULL), WM_OK);
    int bad = 0;
    for (int y = 0; y < GY * 8; y++)
        for (int x = 0; x < P; x++)
            bad += out[y * P + x] != (x < W && y < H ? in[y * W + x] : 0.0f);
    CHECK_EQ(bad, 0);
    uint8_t want[128];
    wm_ptx_tmap t = map2(wm_ptx_buffer_address(0), W, H, 0);
    CHECK_EQ(wm_ptx_tmap_encode(&t, want, NULL, 0), WM_OK);
    for (int k = 0; k < GX * GY; k++)
        CHECK(memcmp(slots[k], want, 128) == 0);
}

/* tmr_retarget: the host's map names a 32 x 64 tensor `old`; the kernel
   points it at in2 (32 x 16) under the 128-byte swizzle, so out is in2
   in order only if all three edits reached the copy. */
static void retarget(const wm_ptx_module *m)
{
    static float old[32 * 64], in2[32 * 16], out[2 * 256];
    static uint8_t slots[2][128];
    for (int i = 0; i < 32 * 64; i++)
        old[i] = -(float)i;
    for (int i = 0; i < 32 * 16; i++)
        in2[i] = (float)i * 2.0f + 1.0f;
    memset(out, 0, sizeof out);
    memset(slots, 0, sizeof slots);
    uint8_t tmpl[128];
    wm_ptx_tmap t = map2(wm_ptx_extra_address(5, 0), 32, 64, 0);
    CHECK_EQ(wm_ptx_tmap_encode(&t, tmpl, NULL, 0), WM_OK);
    wm_ptx_arg a[5];
    memset(a, 0, sizeof a);
    a[0].value = tmpl;
    a[0].size = 128;
    a[1] = pi_arg_buf(in2, sizeof in2);
    a[2] = pi_arg_u32(16);
    a[3] = pi_arg_buf(out, sizeof out);
    a[4] = pi_arg_buf(slots, sizeof slots);
    wm_ptx_arg x[1] = {pi_arg_buf(old, sizeof old)};
    CHECK_EQ(run(m, "tmr_retarget", 2, 1, a, 5, x, 1, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < 2 * 256; i++)
        bad += out[i] != in2[i];
    CHECK_EQ(bad, 0);
    uint8_t want[128];
    t = map2(wm_ptx_buffer_address(1), 32, 16, 3);
    CHECK_EQ(wm_ptx_tmap_encode(&t, want, NULL, 0), WM_OK);
    CHECK(memcmp(slots[0], want, 128) == 0);
    CHECK(memcmp(slots[1], want, 128) == 0);
}

static wm_ptx_module *triton_ptx(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/corpus/triton/%s_sm_90.ptx",
             WM_SOURCE_DIR, name);
    size_t n = 0;
    char *src = wm_read_file(path, &n);
    CHECK(src != NULL);
    wm_ptx_module *m = src ? pi_parse(src, path) : NULL;
    free(src);
    CHECK(m != NULL);
    return m;
}

/* Sectors of the rows of a box: nrows rows of rb bytes at pitch p from
   byte off (each row one TMA request). */
static uint64_t row_sectors(unsigned nrows, uint64_t off, uint64_t p,
                            uint64_t rb)
{
    uint64_t n = 0;
    for (unsigned y = 0; y < nrows; y++) {
        uint64_t a = off + y * p;
        n += (a + rb - 1) / 32 - a / 32 + 1;
    }
    return n;
}

/* tdesc_scale: b = 2 a + 1 on 40 x 52 floats in 32 x 32 boxes (Triton's
   metadata: 256 bytes of global scratch per program, 4104 bytes of
   shared memory).  Both lines: 80 box-row requests, 40 of 128 bytes and
   40 of 80 bytes at a 208-byte pitch. */
static void triton_scale(void)
{
    enum { M = 40, N = 52 };
    wm_ptx_module *m = triton_ptx("tdesc_scale");
    if (!m)
        return;
    static float a[M * N], b[M * N];
    static uint8_t scratch[4 * 256], prof[16];
    for (int i = 0; i < M * N; i++) {
        a[i] = (float)(i % 89) * 0.5f - 7.0f;
        b[i] = -3.0f;
    }
    pi_launch l = pi_dims(2, 128);
    l.grid[1] = 2;
    l.dyn_smem = 4104;
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, b, sizeof b);
    pi_u32(&l, M);
    pi_u32(&l, N);
    pi_buf(&l, scratch, sizeof scratch);
    pi_buf(&l, prof, sizeof prof);
    wm_arch arch;
    CHECK(wm_arch_parse("sm_90", &arch, NULL, 0) == WM_OK);
    wm_agg *g = wm_agg_new(&arch);
    CHECK_EQ(pi_run_agg(m, "desc_scale", &l, g, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < M * N; i++)
        bad += b[i] != 2.0f * a[i] + 1.0f;
    CHECK_EQ(bad, 0);
    uint64_t sect = row_sectors(M, 0, N * 4, 128) +
                    row_sectors(M, 128, N * 4, 80);
    static const unsigned lines[] = {16, 17}; /* the load, the store */
    for (int k = 0; k < 2; k++) {
        wm_stats s = pi_line(g, "tdesc.py", lines[k], WM_SPACE_GLOBAL,
                             WM_OP_TMA);
        CHECK_EQ(s.requests, 2 * M);
        CHECK_EQ(s.sectors, sect);
    }
    wm_agg_free(g);
    wm_ptx_free(m);
}

/* tdesc_matmul: C = A B, 128 x 128 x 96 fp16 in 64 x 64 tiles, K steps
   of 32 (384 bytes of scratch per program for three maps, 24600 bytes of
   shared memory).  Inputs are multiples of 1/4 in [-2, 2], so C is
   exact.  TMA rows: A 4 CTAs x 3 steps x 64 rows of 64 bytes (2
   sectors), B 4 x 3 x 32 rows of 128 bytes (4 sectors), C stored as two
   32-column boxes of 64 rows per CTA, 512 rows of 128 bytes. */
static void triton_matmul(void)
{
    enum { S = 128, K = 96 };
    wm_ptx_module *m = triton_ptx("tdesc_matmul");
    if (!m)
        return;
    static uint16_t a[S * K], bm[K * S];
    static float af[S * K], bf[K * S], c[S * S];
    static uint8_t scratch[4 * 384], prof[16];
    srand(11);
    for (int i = 0; i < S * K; i++) {
        af[i] = (float)(rand() % 17 - 8) / 4.0f;
        bf[i] = (float)(rand() % 17 - 8) / 4.0f;
        a[i] = pi_half_of(af[i]);
        bm[i] = pi_half_of(bf[i]);
    }
    pi_launch l = pi_dims(2, 128);
    l.grid[1] = 2;
    l.dyn_smem = 24600;
    pi_buf(&l, a, sizeof a);
    pi_buf(&l, bm, sizeof bm);
    pi_buf(&l, c, sizeof c);
    pi_u32(&l, S);
    pi_u32(&l, S);
    pi_u32(&l, K);
    pi_buf(&l, scratch, sizeof scratch);
    pi_buf(&l, prof, sizeof prof);
    wm_arch arch;
    CHECK(wm_arch_parse("sm_90", &arch, NULL, 0) == WM_OK);
    wm_agg *g = wm_agg_new(&arch);
    CHECK_EQ(pi_run_agg(m, "desc_matmul", &l, g, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++) {
            float r = 0.0f;
            for (int k = 0; k < K; k++)
                r += af[i * K + k] * bf[k * S + j];
            bad += c[i * S + j] != r;
        }
    CHECK_EQ(bad, 0);
    wm_stats s = pi_line(g, "tdesc.py", 33, WM_SPACE_GLOBAL, WM_OP_TMA);
    CHECK_EQ(s.requests, 4 * 3 * 64);
    CHECK_EQ(s.sectors, 4 * 3 * 64 * 2);
    s = pi_line(g, "tdesc.py", 34, WM_SPACE_GLOBAL, WM_OP_TMA);
    CHECK_EQ(s.requests, 4 * 3 * 32);
    CHECK_EQ(s.sectors, 4 * 3 * 32 * 4);
    s = pi_line(g, "tdesc.py", 36, WM_SPACE_GLOBAL, WM_OP_TMA);
    CHECK_EQ(s.requests, 512);
    CHECK_EQ(s.sectors, 512 * 4);
    wm_agg_free(g);
    wm_ptx_free(m);
}

static const char edit_src[] =
    ".version 8.3\n.target sm_90a\n.address_size 64\n"
    ".visible .entry ety(.param .u64 p, .param .u32 v)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
    "\ttensormap.replace.tile.elemtype.global.b1024.b32 [%rd1], %r1;\n"
    "\tret;\n}\n"
    ".visible .entry rnk(.param .u64 p, .param .u32 v)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
    "\ttensormap.replace.tile.rank.global.b1024.b32 [%rd1], %r1;\n"
    "\ttensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 4, 256;\n"
    "\ttensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd1+128], %r1;\n"
    "\tret;\n}\n"
    ".visible .entry cpy(.param .u64 p, .param .u32 v)\n{\n"
    "\t.shared .align 128 .b8 m[128];\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
    "\tmov.u64 %rd2, m;\n"
    "\ttensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%rd2], 1;\n"
    "\ttensormap.cp_fenceproxy.global.shared::cta.tensormap::generic"
    ".release.gpu.sync.aligned [%rd1], [%rd2], %r1;\n"
    "\tret;\n}\n";

/* Run kernel name of the edit module on the 256 bytes map with v by one
   warp; the status, the fault in *ft. */
static wm_status edit(const wm_ptx_module *m, const char *name,
                      uint8_t *map, uint32_t v, wm_ptx_fault *ft)
{
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, map, 256);
    pi_u32(&l, v);
    return pi_run(m, name, &l, ft);
}

/* PTX's elemtype codes (f32.ftz 8, f64 9, bf16 10) land as
   CUtensorMapDataType (10, 8, 9) at byte 4; bad edits fault. */
static void edits(void)
{
    wm_ptx_module *m = pi_parse(edit_src, "edit.ptx");
    if (!m)
        return;
    static uint8_t map[256];
    static const uint8_t ptx[] = {0, 6, 7, 8, 9, 10, 11, 12};
    static const uint8_t cu[] = {0, 6, 7, 10, 8, 9, 11, 12};
    for (size_t k = 0; k < sizeof ptx; k++) {
        memset(map, 0, sizeof map);
        CHECK_EQ(edit(m, "ety", map, ptx[k], NULL), WM_OK);
        CHECK(memcmp(map, "WMTM", 4) == 0);
        CHECK_EQ(map[4], cu[k]);
        CHECK_EQ(map[5], 0); /* nothing else set */
    }
    wm_ptx_fault ft;
    memset(map, 0, sizeof map);
    CHECK_EQ(edit(m, "ety", map, 13, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "tensormap.replace.tile.elemtype of the map at "
                         "0x") != NULL);
    CHECK(strstr(ft.msg, "elemtype 13 is not modelled") != NULL);
    memset(map, 0xab, sizeof map);
    CHECK_EQ(edit(m, "ety", map, 7, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "neither zeros nor a tensor map warpmem encoded") !=
          NULL);
    /* rank new_val is the rank - 1: 2 is a rank-3 map; the box ordinal 4
       edits box[4] (u16 at byte 104) */
    memset(map, 0, sizeof map);
    CHECK_EQ(edit(m, "rnk", map, 2, NULL), WM_OK);
    CHECK_EQ(map[5], 3);
    CHECK_EQ(map[104] | map[105] << 8, 256);
    CHECK_EQ(map[128 + 7], 2); /* the second map's swizzle */
    memset(map, 0, sizeof map);
    CHECK_EQ(edit(m, "rnk", map, 5, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "rank new_val 5 (rank - 1: 0..4)") != NULL);
    memset(map, 0, sizeof map);
    CHECK_EQ(edit(m, "rnk", map, 4, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "swizzle_mode 4 is not modelled") != NULL);
    /* cp_fenceproxy: 128 bytes of shared to global, and only 128 */
    memset(map, 0, sizeof map);
    CHECK_EQ(edit(m, "cpy", map, 128, NULL), WM_OK);
    CHECK(memcmp(map, "WMTM", 4) == 0);
    CHECK_EQ(map[8], 1); /* the fill mode set in shared memory */
    CHECK_EQ(map[128], 0);
    CHECK_EQ(edit(m, "cpy", map, 64, &ft), WM_ERR_FAULT);
    CHECK(strstr(ft.msg, "tensormap.cp_fenceproxy of 64 bytes") != NULL);
    wm_ptx_free(m);
}

int main(void)
{
    static const char *const builds[] = {"sm_90a", "G_sm_90a"};
    for (size_t b = 0; b < 2; b++) {
        wm_ptx_module *m = corpus(builds[b]);
        if (!m)
            continue;
        build(m);
        retarget(m);
        wm_ptx_free(m);
    }
    triton_scale();
    triton_matmul();
    edits();
    return check_done("test_ptx_tensormap");
}
