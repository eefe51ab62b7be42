/*
 * native_kernels.h -- the example kernels (the .cu files of examples/kernels) written
 * as plain C, for bench_kernels: each walks the grid in the interpreter's
 * order (CTAs with x fastest; within a CTA, the threads in linear order
 * between barriers) over the same buffers, and computes the same bits (the
 * same float operations in the same order, fmaf where the PTX has fma.rn).
 * Compiled -O2 (CMakeLists.txt), the "native" speed the interpreter is
 * compared with.
 */
#ifndef WM_BENCH_NATIVE_KERNELS_H
#define WM_BENCH_NATIVE_KERNELS_H

#include <stdint.h>

void nk_copy(float *out, const float *in, int n, unsigned grid, unsigned block);
void nk_transpose_naive(float *out, const float *in, int width, int height);
void nk_transpose_tiled(float *out, const float *in, int width, int height);
void nk_kv_cache(uint16_t *key_cache, const uint16_t *key,
                 const int64_t *slot_mapping, int num_heads, int head_size,
                 int block_size, unsigned tokens, unsigned block);
void nk_stencil(float *out, const float *in, int width, int height, float c0,
                float c1);
void nk_reduce(float *out, const float *in, int n, unsigned grid);
void nk_sgemm(float *C, const float *A, const float *B, int M, int N, int K);
void nk_histogram(unsigned *bins, const unsigned char *data, int n,
                  unsigned grid);

#endif /* WM_BENCH_NATIVE_KERNELS_H */
