/*
 * test_corpus_lib.c -- the corpus kernels written on the CUDA toolkit's
 * libraries (.cu files of tests/corpus/, compiled by scripts/gen-ptx.sh at -O3
 * -lineinfo and -G, for sm_80 and sm_90): CUB's block radix sort with
 * bmsk and szext, cooperative groups' tiles and partitions, cuda::barrier
 * and cuda::pipeline over cp.async, isspacep, and unsigned __int128 with
 * an inline-asm carry chain.  Each result is checked against a CPU
 * reference or the PTX ISA's definition.
 */
#include "check.h"
#include "corpus_case.h"
#include "ptx_inline.h"

#include <stdlib.h>
#include <string.h>

/* bmsk by the PTX ISA's definition, bit by bit: bits [a, a + b) set,
   a and b saturated at 32 (clamp) or taken mod 32 (wrap). */
static uint32_t ref_bmsk(uint32_t a, uint32_t b, int clamp)
{
    uint64_t pos = clamp ? (a > 32 ? 32 : a) : a % 32;
    uint64_t len = clamp ? (b > 32 ? 32 : b) : b % 32;
    uint32_t r = 0;
    for (uint64_t i = pos; i < pos + len && i < 32; i++)
        r |= 1u << i;
    return r;
}

/* szext: the low N bits of a (N = b saturated at 32, or mod 32), the
   rest copies of bit N - 1 (sg) or zeros; N = 0 gives 0. */
static uint32_t ref_szext(uint32_t a, uint32_t b, int clamp, int sg)
{
    uint32_t n = clamp ? (b > 32 ? 32 : b) : b % 32, r = 0;
    for (uint32_t i = 0; i < 32 && n; i++) {
        uint32_t src = i < n ? i : sg ? n - 1 : 32;
        r |= src < 32 ? (a >> src & 1) << i : 0;
    }
    return r;
}

/* CUB's block radix sort (bmsk.clamp in its digit extraction) on 4 CTAs
   of 512 keys, against qsort; then bmsk and szext on operands around
   their edges against the definitions above. */
static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static void cub_sort(const char *b)
{
    enum { NB = 4, K = 512 };
    static uint32_t in[NB * K], out[NB * K], ref[NB * K];
    uint64_t s = 5;
    for (int i = 0; i < NB * K; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        in[i] = ref[i] = (uint32_t)(s >> 32) >> (i % 3 * 8); /* 3 ranges */
    }
    for (int c = 0; c < NB; c++)
        qsort(ref + c * K, K, sizeof *ref, cmp_u32);
    pi_launch l = pi_dims(NB, 128);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, in, sizeof in);
    CHECK_EQ(crun("cub_sort", b, "block_sort", &l, NULL), WM_OK);
    CHECK(memcmp(out, ref, sizeof out) == 0);

    enum { N = 256 };
    static uint32_t a[N], c[N], o[6 * N];
    static const uint32_t edge[] = {0, 1, 5, 16, 31, 32, 33, 63, 64, 255,
                                    0x80000000u, 0xffffffffu};
    enum { NE = sizeof edge / sizeof edge[0] };
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = i < NE * NE ? edge[i / NE] : (uint32_t)(s >> 32);
        c[i] = i < NE * NE ? edge[i % NE] : (uint32_t)s % 40;
    }
    a[NE * NE] = 0x0000ffffu; /* a value to extend: bit 15 set */
    c[NE * NE] = 16;
    pi_launch l2 = pi_dims(2, 128);
    pi_buf(&l2, o, sizeof o);
    pi_buf(&l2, a, sizeof a);
    pi_buf(&l2, c, sizeof c);
    pi_u32(&l2, N);
    CHECK_EQ(crun("cub_sort", b, "bits", &l2, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const uint32_t want[6] = {
            ref_bmsk(a[i], c[i], 1),     ref_bmsk(a[i], c[i], 0),
            ref_szext(a[i], c[i], 1, 1), ref_szext(a[i], c[i], 0, 1),
            ref_szext(a[i], c[i], 1, 0), ref_szext(a[i], c[i], 0, 0)};
        for (int k = 0; k < 6; k++)
            if (o[6 * i + k] != want[k] && bad++ < 4)
                fprintf(stderr, "bits %d (%#x, %u) op %d: %#x, want %#x\n",
                        i, a[i], c[i], k, o[6 * i + k], want[k]);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(o[6 * NE * NE + 2], 0xffffffffu); /* szext.s32 of 0xffff, 16 */
    CHECK_EQ(o[6 * NE * NE + 4], 0x0000ffffu);
}

/* Cooperative groups' 16-lane tiles: both halves of a warp issue
   redux/vote/match.sync with their own membermask; each lane must get
   its half's result (it used to get its warp's).  Then the groups made
   at run time (coalesced, labeled and binary partitions). */
static void cg_tile16(const char *b)
{
    enum { N = 200, T = 256 }; /* 2 CTAs of 128; lanes past N read 0 */
    static uint32_t in[N], out[8 * T];
    uint64_t s = 3;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        in[i] = (uint32_t)(s >> 40) % 7 * 0x01000193u; /* repeats */
    }
    pi_launch l = pi_dims(2, 128);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, in, sizeof in);
    pi_u32(&l, N);
    CHECK_EQ(crun("cg_tile16", b, "tile16", &l, NULL), WM_OK);
    int bad = 0;
    for (int t0 = 0; t0 < T; t0 += 16) {
        uint32_t sum = 0, mx = 0, ballot = 0, v[16];
        for (int r = 0; r < 16; r++) {
            v[r] = t0 + r < N ? in[t0 + r] : 0;
            sum += v[r];
            mx = v[r] > mx ? v[r] : mx;
            ballot |= (v[r] & 1) << r;
        }
        for (int r = 0; r < 16; r++) {
            uint32_t same = 0;
            for (int q = 0; q < 16; q++)
                same += v[q] == v[r];
            const uint32_t want[8] = {
                sum, mx, ballot,
                (ballot != 0) + 2u * (ballot == 0xffffu), same, v[3],
                (uint32_t)r, (uint32_t)(t0 % 128 / 16)};
            for (int k = 0; k < 8; k++)
                if (out[8 * (t0 + r) + k] != want[k] && bad++ < 4)
                    fprintf(stderr, "thread %d, value %d: %u, want %u\n",
                            t0 + r, k, out[8 * (t0 + r) + k], want[k]);
        }
    }
    CHECK_EQ(bad, 0);

    /* groups made at run time, per warp of 32 values in -20..19 */
    static int32_t iv[T], ov[6 * T];
    for (int i = 0; i < T; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        iv[i] = (int32_t)((s >> 33) % 40) - 20;
    }
    pi_launch l2 = pi_dims(2, 128);
    pi_buf(&l2, ov, sizeof ov);
    pi_buf(&l2, iv, sizeof iv);
    CHECK_EQ(crun("cg_tile16", b, "partitions", &l2, NULL), WM_OK);
    bad = 0;
    for (int i = 0; i < T; i++) {
        const int32_t *w = iv + i / 32 * 32, v = iv[i];
        int32_t odd_sum = 0, odd_rank = 0, odd_first = 0, nodd = 0;
        int32_t lab_sum = 0, lab_n = 0, lab_rank = 0, bin_max = -100, bin_n = 0;
        for (int q = 0; q < 32; q++) {
            if (w[q] & 1) {
                odd_first = nodd++ ? odd_first : w[q];
                odd_sum += w[q];
                odd_rank += q < i % 32;
            }
            if ((w[q] & 3) == (v & 3)) {
                lab_sum += w[q];
                lab_n++;
                lab_rank += q < i % 32;
            }
            if ((w[q] > 0) == (v > 0)) {
                bin_max = w[q] > bin_max ? w[q] : bin_max;
                bin_n++;
            }
        }
        const int32_t want[6] = {v & 1 ? odd_sum : -1,
                                 v & 1 ? odd_rank + 100 * odd_first : -1,
                                 lab_sum, lab_n + 100 * lab_rank, bin_max,
                                 bin_n};
        for (int k = 0; k < 6; k++)
            if (ov[6 * i + k] != want[k] && bad++ < 4)
                fprintf(stderr, "partitions: thread %d, value %d: %d, want "
                        "%d\n", i, k, ov[6 * i + k], want[k]);
    }
    CHECK_EQ(bad, 0);
}

/* Asynchronous copies on barriers (cuda::barrier, cuda::pipeline, the
   .noinc arrive) against the CPU, and isspacep on a pointer into each
   space (folded away at -O3; -G builds test it). */
static void async_barrier(const char *b)
{
    enum { NB = 3, C = 5 };
    static float in[NB * 256], out[NB * 256], in2[NB * C * 128];
    for (int i = 0; i < NB * 256; i++)
        in[i] = (float)(i * 7 % 101);
    for (int i = 0; i < NB * C * 128; i++)
        in2[i] = (float)(i % 13);
    pi_launch l = pi_dims(NB, 256);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, in, sizeof in);
    CHECK_EQ(crun("async_barrier", b, "barrier_copy", &l, NULL), WM_OK);
    int bad = 0;
    for (int c = 0; c < NB; c++)
        for (int t = 0; t < 256; t++)
            bad += out[c * 256 + t] != in[c * 256 + t] + in[c * 256 + 255 - t];
    CHECK_EQ(bad, 0);

    pi_launch l2 = pi_dims(NB, 128);
    pi_buf(&l2, out, NB * 128 * sizeof *out);
    pi_buf(&l2, in2, sizeof in2);
    pi_u32(&l2, C);
    CHECK_EQ(crun("async_barrier", b, "pipe_sum", &l2, NULL), WM_OK);
    bad = 0;
    for (int c = 0; c < NB; c++)
        for (int t = 0; t < 128; t++) {
            float want = 0;
            for (int k = 0; k < C; k++)
                want += in2[(c * C + k) * 128 + t];
            bad += out[c * 128 + t] != want;
        }
    CHECK_EQ(bad, 0);

    pi_launch l3 = pi_dims(NB, 128);
    pi_buf(&l3, out, NB * 128 * sizeof *out);
    pi_buf(&l3, in, NB * 128 * sizeof *in);
    CHECK_EQ(crun("async_barrier", b, "noinc_copy", &l3, NULL), WM_OK);
    bad = 0;
    for (int c = 0; c < NB; c++)
        for (int t = 0; t < 128; t++)
            bad += out[c * 128 + t] != 2.0f * in[c * 128 + 127 - t];
    CHECK_EQ(bad, 0);

    static uint32_t bits[32];
    pi_launch l4 = pi_dims(1, 32);
    pi_buf(&l4, bits, sizeof bits);
    pi_buf(&l4, in, 32 * sizeof *in);
    pi_u32(&l4, 2);
    CHECK_EQ(crun("async_barrier", b, "spaces", &l4, NULL), WM_OK);
    bad = 0;
    for (int t = 0; t < 32; t++) /* global, shared, local, const */
        bad += bits[t] != (0x1u | 0x2u << 4 | 0x4u << 8 | 0x8u << 12);
    CHECK_EQ(bad, 0);
}

/* The low 128 bits of x * y, x and y as {high, low} 64-bit words, by
   32-bit limbs (C11 has no 128-bit integer). */
static void mul128(const uint64_t x[2], const uint64_t y[2], uint64_t r[2])
{
    uint32_t a[4] = {(uint32_t)x[1], (uint32_t)(x[1] >> 32), (uint32_t)x[0],
                     (uint32_t)(x[0] >> 32)};
    uint32_t b[4] = {(uint32_t)y[1], (uint32_t)(y[1] >> 32), (uint32_t)y[0],
                     (uint32_t)(y[0] >> 32)};
    uint32_t p[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; i + j < 4; j++) {
            uint64_t v = (uint64_t)a[i] * b[j] + p[i + j] + carry;
            p[i + j] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    r[0] = (uint64_t)p[3] << 32 | p[2];
    r[1] = (uint64_t)p[1] << 32 | p[0];
}

/* Carry arithmetic: unsigned __int128 add, sub and mul (add.cc/addc,
   sub.cc/subc on .u64), and a 64x64 -> 128 multiply in 32-bit limbs
   through an inline-asm mad.lo.cc/madc.hi.cc/addc chain, against the CPU;
   the values include the carries' edges (all ones, one). */
static void int128(const char *b)
{
    enum { N = 96 };
    static uint64_t in[4 * N], out[6 * N];
    uint64_t s = 21;
    for (int i = 0; i < 4 * N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        in[i] = i < 8 ? (i % 2 ? ~0ull : 1ull) : s ^ (s << 17);
    }
    in[4] = ~0ull, in[5] = ~0ull, in[6] = 0, in[7] = 1; /* ~0 + 1 wraps */
    pi_launch l = pi_dims(2, 64);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, in, sizeof in);
    pi_u32(&l, N);
    CHECK_EQ(crun("int128", b, "wide", &l, NULL), WM_OK);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const uint64_t *x = in + 4 * i, *y = x + 2;
        uint64_t sum[2], dif[2], prod[2];
        sum[1] = x[1] + y[1];
        sum[0] = x[0] + y[0] + (sum[1] < x[1]);
        dif[1] = x[1] - y[1];
        dif[0] = x[0] - y[0] - (x[1] < y[1]);
        mul128(x, y, prod);
        const uint64_t want[6] = {sum[0], sum[1], dif[0], dif[1], prod[0],
                                  prod[1]};
        for (int k = 0; k < 6; k++)
            if (out[6 * i + k] != want[k] && bad++ < 4)
                fprintf(stderr, "int128 %d, word %d: %llx, want %llx\n", i,
                        k, (unsigned long long)out[6 * i + k],
                        (unsigned long long)want[k]);
    }
    CHECK_EQ(bad, 0);

    static uint32_t in32[4 * N], out32[4 * N];
    memcpy(in32, in, sizeof in32);
    pi_launch l2 = pi_dims(2, 64);
    pi_buf(&l2, out32, sizeof out32);
    pi_buf(&l2, in32, sizeof in32);
    pi_u32(&l2, N);
    CHECK_EQ(crun("int128", b, "mul64x64", &l2, NULL), WM_OK);
    bad = 0;
    for (int i = 0; i < N; i++) {
        uint64_t x[2] = {0, (uint64_t)in32[4 * i + 1] << 32 | in32[4 * i]};
        uint64_t y[2] = {0, (uint64_t)in32[4 * i + 3] << 32 | in32[4 * i + 2]};
        uint64_t p[2];
        mul128(x, y, p);
        const uint32_t want[4] = {(uint32_t)p[1], (uint32_t)(p[1] >> 32),
                                  (uint32_t)p[0], (uint32_t)(p[0] >> 32)};
        for (int k = 0; k < 4; k++)
            bad += out32[4 * i + k] != want[k];
    }
    CHECK_EQ(bad, 0);
}

static const corpus_case cases[] = {
    {"cub_sort", cub_sort, o3},
    {"cg_tile16", cg_tile16, o3},
    {"async_barrier", async_barrier, o3},
    {"int128", int128, o3},
};

int main(void)
{
    return corpus_run(cases, sizeof cases / sizeof cases[0], "test_corpus_lib");
}
