/*
 * kernel_cases.c -- the example kernels (examples/kernels/NAME.cu) as test
 * cases: launch shape and arguments, a C reference check of the functional
 * result, and the per-source-line numbers of the memory model worked out by
 * hand.  Those hand numbers are the oracle for the PTX interpreter, so each
 * carries its arithmetic.  Rules used (docs/design/memory-model.md §1, §2):
 *   global/local: sectors = distinct 32 B sectors of the active lanes'
 *     bytes; ideal = ceil(active * size / 32).
 *   shared: 32 banks of 4 B, bank = (addr / 4) % 32; lanes are taken in
 *     phases (32 lanes for <= 4 B, 16 for 8 B, 8 for 16 B); a phase costs
 *     the most distinct 32-bit words any one bank holds; ideal =
 *     ceil(active * size / 128).
 * Line numbers are those of the .loc directives nvcc 13 writes for the
 * access in examples/kernels/sm_80/NAME.ptx (sm_90 is identical);
 * test_kernel_refs.c verifies each against the committed PTX.  Every buffer
 * is assumed to start 256-byte aligned (cudaMalloc's guarantee).
 */
#include "kernel_cases.h"
#include "warpmem.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define PTX80(name) "examples/kernels/sm_80/" name ".ptx"
#define PTX90(name) "examples/kernels/sm_90/" name ".ptx"

/* ---- input generator ---------------------------------------------------- */

size_t kc_type_size(const char *type)
{
    wm_ptx_type t;
    return wm_ptx_type_parse(type, &t) == WM_OK ? wm_ptx_type_size(t) : 0;
}

/* The generator of `warpmem run --arg` itself (wm_ptx_fill), so the tests
 * and the CLI see the same inputs; test_kernel_refs.c pins its outputs. */
int kc_fill(void *buf, const char *type, size_t count, const char *init)
{
    wm_ptx_type t;
    if (wm_ptx_type_parse(type, &t) != WM_OK)
        return -1;
    return wm_ptx_fill(buf, t, count, init) == WM_OK ? 0 : -1;
}

/* ---- helpers for the checks --------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(char *why, size_t whylen, const char *fmt, ...)
{
    if (why && whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return 0;
}

/* A fresh copy of buffer argument a (caller frees), NULL on failure. */
static void *fresh(const kc_arg *a)
{
    size_t esz = kc_type_size(a->buf.type);
    void *p = malloc(a->buf.count * esz + 1);
    if (p && kc_fill(p, a->buf.type, a->buf.count, a->buf.init) != 0) {
        free(p);
        p = NULL;
    }
    return p;
}

/* The value of scalar spec "i32=64" / "f32=0.5". */
static long long scalar_i(const kc_arg *a)
{
    return strtoll(strchr(a->scalar, '=') + 1, NULL, 10);
}
static double scalar_f(const kc_arg *a)
{
    return strtod(strchr(a->scalar, '=') + 1, NULL);
}

/* Byte-exact comparison of n elements of esz bytes. */
static int same_bits(const void *got, const void *ref, size_t n, size_t esz,
                     const char *what, char *why, size_t whylen)
{
    const unsigned char *g = got, *r = ref;
    for (size_t i = 0; i < n; i++)
        if (memcmp(g + i * esz, r + i * esz, esz) != 0)
            return fail(why, whylen, "%s[%zu] differs from the reference",
                        what, i);
    return 1;
}

/* |got[i] - ref[i]| <= tol[i] for all i. */
static int near_f32(const float *got, const double *ref, const double *tol,
                    size_t n, const char *what, char *why, size_t whylen)
{
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - ref[i]);
        if (!(d <= tol[i]))
            return fail(why, whylen, "%s[%zu] = %.9g, reference %.9g (tol %g)",
                        what, i, (double)got[i], ref[i], tol[i]);
    }
    return 1;
}

/* Inputs must come back unchanged. */
static int input_intact(const kc_arg *a, const void *got, const char *what,
                        char *why, size_t whylen)
{
    void *ref = fresh(a);
    if (!ref)
        return fail(why, whylen, "out of memory");
    int ok = same_bits(got, ref, a->buf.count, kc_type_size(a->buf.type),
                       what, why, whylen);
    free(ref);
    return ok;
}

/* Wrap a checker taking its case's argument array as a kernel_case.check. */
#define CHECK_FN(name, impl, args)                                            \
    static int name(void *const *bufs, char *why, size_t whylen)              \
    {                                                                         \
        return impl(args, bufs, why, whylen);                                 \
    }

#define BUF(type, count, init) {1, {type, count, init}, NULL}
#define SCALAR(spec) {0, {NULL, 0, NULL}, spec}

/* ---- copies: copy.cu, strided_copy.cu, misaligned_copy.cu, vec_copy.cu -- */

/* out[i] = in[i * stride + offset] for i < n (args: out, in, n[, k]). */
static int check_gather(const kc_arg *args, void *const *bufs, long long n,
                        long long stride, long long offset, char *why,
                        size_t whylen)
{
    float *ref = fresh(&args[0]);
    const float *in = bufs[1];
    if (!ref)
        return fail(why, whylen, "out of memory");
    for (long long i = 0; i < n; i++)
        ref[i] = in[i * stride + offset];
    int ok = same_bits(bufs[0], ref, args[0].buf.count, 4, "out", why,
                       whylen) &&
             input_intact(&args[1], bufs[1], "in", why, whylen);
    free(ref);
    return ok;
}

static int copy_impl(const kc_arg *args, void *const *bufs, char *why,
                     size_t whylen)
{
    return check_gather(args, bufs, scalar_i(&args[2]), 1, 0, why, whylen);
}
static int strided_impl(const kc_arg *args, void *const *bufs, char *why,
                        size_t whylen)
{
    return check_gather(args, bufs, scalar_i(&args[2]), scalar_i(&args[3]),
                        0, why, whylen);
}
static int misaligned_impl(const kc_arg *args, void *const *bufs, char *why,
                           size_t whylen)
{
    return check_gather(args, bufs, scalar_i(&args[2]), 1,
                        scalar_i(&args[3]), why, whylen);
}
/* float4 copy: n4 vectors = 4 * n4 floats. */
static int vec_copy_impl(const kc_arg *args, void *const *bufs, char *why,
                         size_t whylen)
{
    return check_gather(args, bufs, 4 * scalar_i(&args[2]), 1, 0, why,
                        whylen);
}

/* copy_f32: 4096 floats, 16 blocks of 256. */
static const kc_arg copy_args[] = {
    BUF("f32", 4096, "zeros"), BUF("f32", 4096, "rand=1"), SCALAR("i32=4096")};
CHECK_FN(check_copy, copy_impl, copy_args)
static const kc_expect copy_expect[] = {
    /* in[i]: 32 lanes x 4 B from a 128 B-aligned index 32w: bytes
       128w .. 128w+127 = 4 sectors; ideal ceil(32*4/32) = 4. */
    {16, "global", "ld", 4, -1, 4},
    /* out[i]: the same shape. */
    {16, "global", "st", 4, -1, 4},
};

/* strided_copy_f32, stride 2: n = 2048 outputs, in has 2 * 2048 floats. */
static const kc_arg strided2_args[] = {
    BUF("f32", 2048, "zeros"), BUF("f32", 4096, "rand=2"),
    SCALAR("i32=2048"), SCALAR("i32=2")};
CHECK_FN(check_strided2, strided_impl, strided2_args)
static const kc_expect strided2_expect[] = {
    /* in[2i]: lane l of warp w reads byte 8 * (32w + l): 32 lanes span
       256 B from a 256 B boundary = 8 sectors, each sector serving 4 lanes
       (every other word); ideal ceil(32*4/32) = 4. */
    {18, "global", "ld", 8, -1, 4},
    /* out[i]: contiguous, 4 sectors. */
    {18, "global", "st", 4, -1, 4},
};

/* strided_copy_f32, stride 33: lanes 132 B apart. */
static const kc_arg strided33_args[] = {
    BUF("f32", 1024, "zeros"), BUF("f32", 33 * 1024, "rand=3"),
    SCALAR("i32=1024"), SCALAR("i32=33")};
CHECK_FN(check_strided33, strided_impl, strided33_args)
static const kc_expect strided33_expect[] = {
    /* in[33i]: byte 132 * i.  132 > 32, so no two lanes share a sector:
       32 sectors (and 32 lines: 132 > 128); ideal 4. */
    {18, "global", "ld", 32, -1, 4},
    {18, "global", "st", 4, -1, 4},
};

/* misaligned_copy_f32, offset 1: in needs n + 1 floats. */
static const kc_arg misaligned_args[] = {
    BUF("f32", 4096, "zeros"), BUF("f32", 4097, "rand=4"),
    SCALAR("i32=4096"), SCALAR("i32=1")};
CHECK_FN(check_misaligned, misaligned_impl, misaligned_args)
static const kc_expect misaligned_expect[] = {
    /* in[i + 1]: warp w reads bytes 128w + 4 .. 128w + 131, i.e. sectors
       4w .. 4w + 4: 5 sectors (2 lines) for 128 useful bytes; ideal 4. */
    {19, "global", "ld", 5, -1, 4},
    /* out[i]: aligned, 4 sectors. */
    {19, "global", "st", 4, -1, 4},
};

/* copy_f32x4: 1024 float4 = 4096 floats, 4 blocks of 256. */
static const kc_arg vec_copy_args[] = {
    BUF("f32", 4096, "zeros"), BUF("f32", 4096, "rand=5"), SCALAR("i32=1024")};
CHECK_FN(check_vec_copy, vec_copy_impl, vec_copy_args)
static const kc_expect vec_copy_expect[] = {
    /* in[i] as float4 (ld.global.v4.u32): 32 lanes x 16 B = 512 contiguous
       bytes from a 512 B boundary = 16 sectors, 4 lines, one request;
       ideal ceil(32*16/32) = 16. */
    {18, "global", "ld", 16, -1, 16},
    {18, "global", "st", 16, -1, 16},
};

/* ---- transpose.cu -------------------------------------------------------- */

/* All four kernels: out (width x height) = transpose of in (height x width);
   args: out, in, width, height. */
static int transpose_impl(const kc_arg *args, void *const *bufs, char *why,
                          size_t whylen)
{
    long long w = scalar_i(&args[2]), h = scalar_i(&args[3]);
    const float *in = bufs[1];
    float *ref = fresh(&args[0]);
    if (!ref)
        return fail(why, whylen, "out of memory");
    for (long long y = 0; y < h; y++)
        for (long long x = 0; x < w; x++)
            ref[x * h + y] = in[y * w + x];
    int ok = same_bits(bufs[0], ref, args[0].buf.count, 4, "out", why,
                       whylen) &&
             input_intact(&args[1], bufs[1], "in", why, whylen);
    free(ref);
    return ok;
}

/* 256 wide x 128 high (not square, so swapped indices show). */
static const kc_arg transpose_args[] = {
    BUF("f32", 256 * 128, "zeros"), BUF("f32", 256 * 128, "rand=6"),
    SCALAR("i32=256"), SCALAR("i32=128")};
CHECK_FN(check_transpose, transpose_impl, transpose_args)

static const kc_expect transpose_naive_expect[] = {
    /* in[y * width + x]: a warp is one threadIdx.y row, x = 32 bx + lane:
       32 consecutive floats at a 128 B boundary = 4 sectors; ideal 4. */
    {32, "global", "ld", 4, -1, 4},
    /* out[x * height + y]: lanes 4 * height = 512 B apart, each in its own
       sector: 32 sectors (32 lines); ideal 4 -> 28 excessive. */
    {32, "global", "st", 32, -1, 4},
};
static const kc_expect transpose_tiled_expect[] = {
    /* in[(y + j) * width + x]: a row of 32 floats: 4 sectors (x4 unrolled). */
    {42, "global", "ld", 4, -1, 4},
    /* tile[ty + j][tx]: words 32 r + 0..31: 32 banks once: 1 wavefront;
       ideal ceil(32*4/128) = 1. */
    {42, "shared", "st", -1, 1, 1},
    /* tile[tx][ty + j]: words 32 tx + c, all in bank c: 32 distinct words
       in one bank = 32 wavefronts; ideal 1 (31 conflicts). */
    {47, "shared", "ld", -1, 32, 1},
    /* out[(y + j) * height + x]: a row of 32 floats of out: 4 sectors. */
    {47, "global", "st", 4, -1, 4},
};
static const kc_expect transpose_padded_expect[] = {
    {57, "global", "ld", 4, -1, 4},
    /* tile[r][tx] with rows of 33 words: words 33 r + 0..31, consecutive:
       1 wavefront. */
    {57, "shared", "st", -1, 1, 1},
    /* tile[tx][c]: word 33 tx + c, bank (tx + c) % 32: all 32 banks once:
       1 wavefront, no conflict. */
    {62, "shared", "ld", -1, 1, 1},
    {62, "global", "st", 4, -1, 4},
};
static const kc_expect transpose_swizzled_expect[] = {
    {73, "global", "ld", 4, -1, 4},
    /* tile[r][tx ^ r]: word 32 r + (tx ^ r); tx -> tx ^ r permutes 0..31,
       so 32 banks once: 1 wavefront. */
    {73, "shared", "st", -1, 1, 1},
    /* tile[tx][c ^ tx]: word 32 tx + (c ^ tx), bank c ^ tx: a permutation
       of the 32 banks: 1 wavefront. */
    {80, "shared", "ld", -1, 1, 1},
    {80, "global", "st", 4, -1, 4},
};

/* ---- reduce.cu ----------------------------------------------------------- */

/* out[b] = sum of in[256 b .. 256 b + 255] below n.  Tolerance: the kernel
   adds in a tree of depth 8 (256 -> 1), so its float error is at most
   8 * 2^-24 * sum |x| (Higham, pairwise summation); we allow twice that. */
static int reduce_impl(const kc_arg *args, void *const *bufs, char *why,
                       size_t whylen)
{
    long long n = scalar_i(&args[2]);
    size_t nb = args[0].buf.count;
    const float *in = bufs[1];
    double *ref = calloc(nb, sizeof *ref), *tol = calloc(nb, sizeof *tol);
    int ok = 0;
    if (!ref || !tol) {
        ok = fail(why, whylen, "out of memory");
        goto done;
    }
    for (size_t b = 0; b < nb; b++) {
        double s = 0, a = 0;
        for (long long i = (long long)b * 256;
             i < (long long)(b + 1) * 256 && i < n; i++) {
            s += (double)in[i];
            a += fabs((double)in[i]);
        }
        ref[b] = s;
        tol[b] = 2.0 * 8.0 * ldexp(a, -24);
    }
    ok = near_f32(bufs[0], ref, tol, nb, "out", why, whylen) &&
         input_intact(&args[1], bufs[1], "in", why, whylen);
done:
    free(ref);
    free(tol);
    return ok;
}

/* n = 4256 = 16 full blocks + 160 elements: the last block has 5 warps
   with data and 3 whose load is predicated off entirely (no request). */
static const kc_arg reduce_args[] = {
    BUF("f32", 17, "zeros"), BUF("f32", 4256, "rand=7"), SCALAR("i32=4256")};
CHECK_FN(check_reduce, reduce_impl, reduce_args)
static const kc_expect reduce_expect[] = {
    /* v = in[i]: 32 contiguous floats, 4 sectors (only warps with i < n
       issue it: n is a multiple of 32). */
    {25, "global", "ld", 4, -1, 4},
    /* sdata[tid] = v: 32 consecutive words: 1 wavefront, ideal 1. */
    {26, "shared", "st", -1, 1, 1},
    /* sdata[tid] += sdata[tid + s], s = 128, 64 (unrolled): only warps
       with tid < s run it, all 32 lanes; consecutive words: 1 each. */
    {30, "shared", "ld", -1, 1, 1},
    {30, "shared", "st", -1, 1, 1},
    /* sdata[tid] + sdata[tid + 32] in warp 0: 1 wavefront each. */
    {34, "shared", "ld", -1, 1, 1},
    /* out[blockIdx.x] by lane 0: 4 B = 1 sector; ideal ceil(4/32) = 1. */
    {38, "global", "st", 1, -1, 1},
};

/* ---- sgemm.cu ------------------------------------------------------------ */

/* C (M x N) = A (M x K) * B (K x N).  Tolerance per element: a float
   dot product of K terms (one fma each) errs by at most about
   K * 2^-24 * sum_k |a_ik b_kj|; we allow twice that. */
static int sgemm_impl(const kc_arg *args, void *const *bufs, char *why,
                      size_t whylen)
{
    long long M = scalar_i(&args[3]), N = scalar_i(&args[4]),
              K = scalar_i(&args[5]);
    const float *A = bufs[1], *B = bufs[2];
    size_t nc = args[0].buf.count;
    double *ref = calloc(nc, sizeof *ref), *tol = calloc(nc, sizeof *tol);
    int ok = 0;
    if (!ref || !tol) {
        ok = fail(why, whylen, "out of memory");
        goto done;
    }
    for (long long i = 0; i < M; i++)
        for (long long j = 0; j < N; j++) {
            double s = 0, a = 0;
            for (long long k = 0; k < K; k++) {
                double p = (double)A[i * K + k] * (double)B[k * N + j];
                s += p;
                a += fabs(p);
            }
            ref[i * N + j] = s;
            tol[i * N + j] = 2.0 * (double)K * ldexp(a, -24);
        }
    ok = near_f32(bufs[0], ref, tol, nc, "C", why, whylen) &&
         input_intact(&args[1], bufs[1], "A", why, whylen) &&
         input_intact(&args[2], bufs[2], "B", why, whylen);
done:
    free(ref);
    free(tol);
    return ok;
}

/* M 64, N 96, K 48: grid (6, 4) of 16 x 16 blocks, 3 k-tiles. */
static const kc_arg sgemm_args[] = {
    BUF("f32", 64 * 96, "zeros"), BUF("f32", 64 * 48, "rand=8"),
    BUF("f32", 48 * 96, "rand=9"), SCALAR("i32=64"), SCALAR("i32=96"),
    SCALAR("i32=48")};
CHECK_FN(check_sgemm, sgemm_impl, sgemm_args)
static const kc_expect sgemm_expect[] = {
    /* A[row * K + t + tx]: a warp = rows ty = 2w, 2w + 1, 16 lanes each:
       two 64 B runs at 64 B boundaries (K, t multiples of 16), 192 B apart:
       2 + 2 = 4 sectors; ideal ceil(32*4/32) = 4. */
    {31, "global", "ld", 4, -1, 4},
    /* As[ty][tx]: words 16 ty + tx for two consecutive ty = 32 consecutive
       words: 1 wavefront. */
    {31, "shared", "st", -1, 1, 1},
    /* B[(t + ty) * N + col]: the same two 64 B half-rows shape. */
    {32, "global", "ld", 4, -1, 4},
    {32, "shared", "st", -1, 1, 1},
    /* As[ty][k]: 2 distinct words 16 apart (banks k, k + 16), each
       broadcast to 16 lanes: 1 wavefront.  Bs[k][tx]: words 16 k + 0..15,
       the same for both half-warps: 16 banks once: 1.  nvcc emits 32
       scalar ld.shared per k-tile here, all 1 wavefront. */
    {36, "shared", "ld", -1, 1, 1},
    /* C[row * N + col]: two 64 B half-rows: 4 sectors. */
    {40, "global", "st", 4, -1, 4},
};

/* ---- kv_cache.cu --------------------------------------------------------- */

/* key: [tokens][heads][head_size] halves; slot_mapping[tokens] (i64);
   args: key_cache, key, slot_mapping, num_heads, head_size, block_size.
   flash selects the [blocks][block_size][heads][head_size] layout, else
   vLLM's [blocks][heads][head_size / 8][block_size][8].  A copy of bits:
   exact. */
static int kv_check(const kc_arg *args, void *const *bufs, int flash,
                    char *why, size_t whylen)
{
    long long H = scalar_i(&args[3]), D = scalar_i(&args[4]),
              BS = scalar_i(&args[5]);
    size_t ntok = args[2].buf.count;
    const uint16_t *key = bufs[1];
    const int64_t *slots = bufs[2];
    uint16_t *ref = fresh(&args[0]);
    if (!ref)
        return fail(why, whylen, "out of memory");
    for (size_t t = 0; t < ntok; t++) {
        long long slot = slots[t];
        if (slot < 0)
            continue;
        long long blk = slot / BS, off = slot % BS;
        for (long long h = 0; h < H; h++)
            for (long long d = 0; d < D; d++) {
                long long dst =
                    flash ? ((blk * BS + off) * H + h) * D + d
                          : (((blk * H + h) * (D / 8) + d / 8) * BS + off) *
                                    8 +
                                d % 8;
                ref[dst] = key[((long long)t * H + h) * D + d];
            }
    }
    int ok = same_bits(bufs[0], ref, args[0].buf.count, 2, "key_cache", why,
                       whylen) &&
             input_intact(&args[1], bufs[1], "key", why, whylen) &&
             input_intact(&args[2], bufs[2], "slot_mapping", why, whylen);
    free(ref);
    return ok;
}
static int kv_paged_impl(const kc_arg *args, void *const *bufs, char *why,
                         size_t whylen)
{
    return kv_check(args, bufs, 0, why, whylen);
}
static int kv_flash_impl(const kc_arg *args, void *const *bufs, char *why,
                         size_t whylen)
{
    return kv_check(args, bufs, 1, why, whylen);
}

/* 40 tokens (grid 40) into slots 0..39 (iota) of 3 blocks of 16 slots;
   4 heads of 128: 64 vectors of 8 halves per token, block 64 = 2 warps. */
static const kc_arg kv_args[] = {
    BUF("f16", 3 * 4 * 128 * 16, "zeros"), BUF("f16", 40 * 4 * 128, "rand=10"),
    BUF("i64", 40, "iota"), SCALAR("i32=4"), SCALAR("i32=128"),
    SCALAR("i32=16")};
CHECK_FN(check_kv_paged, kv_paged_impl, kv_args)
CHECK_FN(check_kv_flash, kv_flash_impl, kv_args)
static const kc_expect kv_paged_expect[] = {
    /* slot_mapping[blockIdx.x]: all 32 lanes load the same 8 bytes: 1
       sector; ideal per the model ceil(32*8/32) = 8 (a broadcast beats
       "ideal"; the model does not credit duplicates). */
    {34, "global", "ld", 1, -1, 8},
    /* src[i]: 16 B per lane, 32 contiguous vectors = 512 B at a 1024 B
       token boundary: 16 sectors; ideal ceil(32*16/32) = 16. */
    {47, "global", "ld", 16, -1, 16},
    /* dst[d]: lane = (head, x) with x = lane % 16; d steps by block_size
       = 16 vectors = 256 B per x, and head by 16 * 256 B: every lane's
       16 B lies in its own sector: 32 sectors; ideal 16. */
    {47, "global", "st", 32, -1, 16},
};
static const kc_expect kv_flash_expect[] = {
    {56, "global", "ld", 1, -1, 8},
    /* src[i] and dst[i]: 512 contiguous bytes each (dst: slot * 1024 B):
       16 sectors = ideal. */
    {66, "global", "ld", 16, -1, 16},
    {66, "global", "st", 16, -1, 16},
};

/* ---- histogram.cu -------------------------------------------------------- */

/* bins[b] += number of data[0..n) equal to b; exact. */
static int hist_impl(const kc_arg *args, void *const *bufs, char *why,
                     size_t whylen)
{
    long long n = scalar_i(&args[2]);
    const unsigned char *data = bufs[1];
    uint32_t *ref = fresh(&args[0]);
    if (!ref)
        return fail(why, whylen, "out of memory");
    for (long long i = 0; i < n; i++)
        ref[data[i]]++;
    int ok = same_bits(bufs[0], ref, 256, 4, "bins", why, whylen) &&
             input_intact(&args[1], bufs[1], "data", why, whylen);
    free(ref);
    return ok;
}

/* data[i] = i mod 256 (u8 iota wraps), 8192 bytes, 8 blocks of 256. */
static const kc_arg hist_iota_args[] = {
    BUF("u32", 256, "zeros"), BUF("u8", 8192, "iota"), SCALAR("i32=8192")};
CHECK_FN(check_hist_iota, hist_impl, hist_iota_args)
static const kc_expect hist_iota_expect[] = {
    /* hist[tid] = 0: 32 consecutive words: 1 wavefront. */
    {26, "shared", "st", -1, 1, 1},
    /* data[i]: 32 lanes x 1 B = 32 contiguous bytes at a multiple of 32:
       1 sector; ideal ceil(32/32) = 1. */
    {30, "global", "ld", 1, -1, 1},
    /* atomicAdd(&hist[data[i]]): the 32 bytes are 32 consecutive values
       (i mod 256, i = 32k .. 32k+31): 32 consecutive words, 1 wavefront;
       ideal ceil(32*4/128) = 1. */
    {30, "shared", "atom", -1, 1, 1},
    /* hist[tid]: 1 wavefront. */
    {32, "shared", "ld", -1, 1, 1},
    /* atomicAdd(&bins[tid]): thread tid of every block only ever sees
       byte value tid (i = 256 b + tid + 2048 m), so every bin counts 4
       and all 32 lanes add: 32 consecutive u32 = 4 sectors; ideal 4. */
    {34, "global", "atom", 4, -1, 4},
};

/* random bytes, n = 10000 (not a multiple of the 1024 threads: the grid
   stride loop ends with a partial warp of 16 lanes), 4 blocks. */
static const kc_arg hist_rand_args[] = {
    BUF("u32", 256, "zeros"), BUF("u8", 10000, "rand=11"),
    SCALAR("i32=10000")};
CHECK_FN(check_hist_rand, hist_impl, hist_rand_args)
static const kc_expect hist_rand_expect[] = {
    {26, "shared", "st", -1, 1, 1},
    /* data[i]: full warps 32 B = 1 sector (ideal 1); the warp at
       9984..9999 reads 16 B of one sector (ideal ceil(16/32) = 1). */
    {30, "global", "ld", 1, -1, 1},
    /* data dependent: not checked. */
    {30, "shared", "atom", -1, -1, -1},
    {32, "shared", "ld", -1, 1, 1},
    {34, "global", "atom", -1, -1, -1},
};

/* ---- stencil.cu ---------------------------------------------------------- */

/* out = c0 * centre + c1 * (left + right + up + down), edges clamped.
   Tolerance: 5 float roundings of terms bounded by
   s = |c0 centre| + |c1| * sum |neighbours|: 8 * 2^-24 * s. */
static int stencil_impl(const kc_arg *args, void *const *bufs, char *why,
                        size_t whylen)
{
    long long w = scalar_i(&args[2]), h = scalar_i(&args[3]);
    double c0 = scalar_f(&args[4]), c1 = scalar_f(&args[5]);
    const float *in = bufs[1];
    size_t n = args[0].buf.count;
    double *ref = calloc(n, sizeof *ref), *tol = calloc(n, sizeof *tol);
    int ok = 0;
    if (!ref || !tol) {
        ok = fail(why, whylen, "out of memory");
        goto done;
    }
    for (long long y = 0; y < h; y++)
        for (long long x = 0; x < w; x++) {
            long long xl = x > 0 ? x - 1 : 0, xr = x < w - 1 ? x + 1 : w - 1;
            long long yu = y > 0 ? y - 1 : 0, yd = y < h - 1 ? y + 1 : h - 1;
            double c = (double)in[y * w + x], l = (double)in[y * w + xl],
                   r = (double)in[y * w + xr], u = (double)in[yu * w + x],
                   d = (double)in[yd * w + x];
            ref[y * w + x] = c0 * c + c1 * (l + r + u + d);
            tol[y * w + x] =
                8.0 * ldexp(fabs(c0 * c) +
                                fabs(c1) * (fabs(l) + fabs(r) + fabs(u) +
                                            fabs(d)),
                            -24);
        }
    ok = near_f32(bufs[0], ref, tol, n, "out", why, whylen) &&
         input_intact(&args[1], bufs[1], "in", why, whylen);
done:
    free(ref);
    free(tol);
    return ok;
}

/* 128 x 64 grid, blocks 32 x 8: grid (4, 8). */
static const kc_arg stencil_args[] = {
    BUF("f32", 128 * 64, "zeros"), BUF("f32", 128 * 64, "rand=12"),
    SCALAR("i32=128"), SCALAR("i32=64"), SCALAR("f32=0.5"),
    SCALAR("f32=0.125")};
CHECK_FN(check_stencil, stencil_impl, stencil_args)
static const kc_expect stencil_expect[] = {
    /* in[gy * width + gx]: a warp is one row of 32 floats at a multiple of
       32 elements: 4 sectors; tile[ly][lx]: words 34 ly + 1 .. 32,
       consecutive: 1 wavefront. */
    {29, "global", "ld", 4, -1, 4},
    {29, "shared", "st", -1, 1, 1},
    /* left halo, lane 0 only: 4 B = 1 sector (ideal 1); 1 word: 1
       wavefront (ideal ceil(4/128) = 1). */
    {32, "global", "ld", 1, -1, 1},
    {32, "shared", "st", -1, 1, 1},
    /* right halo, lane 31 only: the same. */
    {36, "global", "ld", 1, -1, 1},
    {36, "shared", "st", -1, 1, 1},
    /* top halo, the warp with ty = 0: a clamped row of 32 floats: 4
       sectors; tile[0][1..32]: 1 wavefront. */
    {40, "global", "ld", 4, -1, 4},
    {40, "shared", "st", -1, 1, 1},
    /* bottom halo, the warp with ty = 7: the same. */
    {44, "global", "ld", 4, -1, 4},
    {44, "shared", "st", -1, 1, 1},
    /* centre, left/right, up/down reads: each 32 consecutive words of one
       tile row: 1 wavefront (lines 47, 48, 49 as nvcc attributes them). */
    {47, "shared", "ld", -1, 1, 1},
    {48, "shared", "ld", -1, 1, 1},
    {49, "shared", "ld", -1, 1, 1},
    /* out[gy * width + gx]: 4 sectors. */
    {50, "global", "st", 4, -1, 4},
};

/* ---- the table ----------------------------------------------------------- */

#define CASE(name, ptx, kernel, gx, gy, bx, by, args, check, expect)         \
    {name,  ptx,  kernel,        {gx, gy, 1},     {bx, by, 1},    0, args, \
     NELEM(args), check, expect, NELEM(expect)}

const kernel_case kernel_cases[] = {
    CASE("copy", PTX80("copy"), "copy_f32", 16, 1, 256, 1, copy_args,
         check_copy, copy_expect),
    CASE("copy_sm90", PTX90("copy"), "copy_f32", 16, 1, 256, 1, copy_args,
         check_copy, copy_expect),
    CASE("strided_copy_2", PTX80("strided_copy"), "strided_copy_f32", 8, 1,
         256, 1, strided2_args, check_strided2, strided2_expect),
    CASE("strided_copy_33", PTX80("strided_copy"), "strided_copy_f32", 4, 1,
         256, 1, strided33_args, check_strided33, strided33_expect),
    CASE("misaligned_copy", PTX80("misaligned_copy"), "misaligned_copy_f32",
         16, 1, 256, 1, misaligned_args, check_misaligned,
         misaligned_expect),
    CASE("vec_copy", PTX80("vec_copy"), "copy_f32x4", 4, 1, 256, 1,
         vec_copy_args, check_vec_copy, vec_copy_expect),
    /* C++ linkage: the entry is _Z15transpose_naivePfPKfii. */
    CASE("transpose_naive", PTX80("transpose"), "transpose_naive", 8, 16, 32,
         8, transpose_args, check_transpose, transpose_naive_expect),
    CASE("transpose_tiled", PTX80("transpose"), "transpose_tiled", 8, 4, 32,
         8, transpose_args, check_transpose, transpose_tiled_expect),
    CASE("transpose_padded", PTX80("transpose"), "transpose_padded", 8, 4, 32,
         8, transpose_args, check_transpose, transpose_padded_expect),
    CASE("transpose_swizzled", PTX90("transpose"), "transpose_swizzled", 8, 4,
         32, 8, transpose_args, check_transpose, transpose_swizzled_expect),
    CASE("reduce", PTX80("reduce"), "reduce_sum_f32", 17, 1, 256, 1,
         reduce_args, check_reduce, reduce_expect),
    CASE("sgemm", PTX80("sgemm"), "sgemm_tiled", 6, 4, 16, 16, sgemm_args,
         check_sgemm, sgemm_expect),
    CASE("kv_cache_paged", PTX80("kv_cache"), "reshape_and_cache_f16", 40, 1,
         64, 1, kv_args, check_kv_paged, kv_paged_expect),
    CASE("kv_cache_flash", PTX90("kv_cache"), "reshape_and_cache_flash_f16",
         40, 1, 64, 1, kv_args, check_kv_flash, kv_flash_expect),
    CASE("histogram_iota", PTX80("histogram"), "histogram_u8", 8, 1, 256, 1,
         hist_iota_args, check_hist_iota, hist_iota_expect),
    CASE("histogram_rand", PTX80("histogram"), "histogram_u8", 4, 1, 256, 1,
         hist_rand_args, check_hist_rand, hist_rand_expect),
    CASE("stencil", PTX80("stencil"), "stencil5_f32", 4, 8, 32, 8,
         stencil_args, check_stencil, stencil_expect),
};
const size_t nkernel_cases = NELEM(kernel_cases);
