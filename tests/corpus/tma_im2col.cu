// gen-ptx: sm_90a
// Regression corpus: TMA im2col loads, as an implicit-GEMM convolution
// moves its activations.  `conv3x3_im2col` computes a 3x3, pad 1, stride 1
// convolution of an NHWC float activation (C = 32) into K = 8 output
// channels: each CTA owns 32 consecutive output pixels (the GEMM's M
// tile, which may span rows and images) and walks the GEMM's K loop over
// the 9 filter taps and two 16-channel blocks.  Each step is one
// cp.async.bulk.tensor.4d ... .im2col load through a __grid_constant__
// CUtensorMap (pixel box corners -1, -1; the tap as im2col offsets),
// completed on an mbarrier whose phase flips per step; the tile of 32
// pixels x 16 channels then feeds a small dot product per (pixel, output
// channel).  With swz the map uses the 64-byte swizzle and the tile is
// read back through its XOR, as a swizzled consumer would.
#include <cuda.h>
#include <cstdint>

__device__ static inline void im2col_load_4d(unsigned dst, const CUtensorMap *m,
                                             int c, int w, int h, int n,
                                             unsigned bar, short ow, short oh)
{
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col."
                 "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], "
                 "[%6], {%7, %8};"
                 ::"r"(dst), "l"(m), "r"(c), "r"(w), "r"(h), "r"(n),
                   "r"(bar), "h"(ow), "h"(oh) : "memory");
}

__device__ static inline void im2col_prefetch_4d(const CUtensorMap *m, int c,
                                                 int w, int h, int n,
                                                 short ow, short oh)
{
    asm volatile("cp.async.bulk.prefetch.tensor.4d.L2.global.im2col "
                 "[%0, {%1, %2, %3, %4}], {%5, %6};"
                 ::"l"(m), "r"(c), "r"(w), "r"(h), "r"(n), "h"(ow), "h"(oh)
                 : "memory");
}

__device__ static inline void wait_phase(unsigned bar, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}

enum { PIX = 32, CBLK = 16, C = 32, K = 8 };

// act: N x H x W x C floats (the map's tensor); wt: K x 3 x 3 x C;
// out: (N H W) x K, pixels in NHW order.
extern "C" __global__ void conv3x3_im2col(const __grid_constant__ CUtensorMap act,
                                          const float *wt, float *out,
                                          int n_img, int h_img, int w_img,
                                          int swz)
{
    __shared__ alignas(1024) float tile[PIX][CBLK];
    __shared__ alignas(8) uint64_t bar;
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned stile = (unsigned)__cvta_generic_to_shared(tile);
    int m0 = blockIdx.x * PIX;
    int hw = h_img * w_img;
    int n = m0 / hw, oh = m0 % hw / w_img, ow = m0 % w_img;
    int p = threadIdx.x / K, k = threadIdx.x % K;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    float acc = 0.0f;
    unsigned phase = 0;
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++)
            for (int cb = 0; cb < C; cb += CBLK) {
                if (threadIdx.x == 0) {
                    if (r == 0 && s == 0 && cb == 0)
                        im2col_prefetch_4d(&act, 0, ow - 1, oh - 1, n, 0, 0);
                    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 "
                                 "_, [%0], %1;"
                                 ::"r"(sbar), "r"((unsigned)sizeof tile));
                    im2col_load_4d(stile, &act, cb, ow - 1, oh - 1, n, sbar,
                                   (short)s, (short)r);
                }
                wait_phase(sbar, phase);
                phase ^= 1;
                const float *w = wt + ((k * 3 + r) * 3 + s) * C + cb;
                for (int c = 0; c < CBLK; c++) {
                    int cc = swz ? ((c / 4) ^ (p / 2 % 4)) * 4 + c % 4 : c;
                    acc += tile[p][cc] * w[c];
                }
                __syncthreads(); // the tile is free for the next load
            }
    int m = m0 + p;
    if (m < n_img * hw)
        out[m * K + k] = acc;
}
