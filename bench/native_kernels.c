/*
 * native_kernels.c -- the example kernels as plain C (native_kernels.h).
 * Each loop nest is the CUDA kernel with blockIdx/threadIdx turned into
 * loop counters; __syncthreads() splits a CTA's threads into phases run
 * one after the other, so shared memory sees every store of one phase
 * before the next reads.
 */
#include "native_kernels.h"

#include <math.h>
#include <string.h>

void nk_copy(float *out, const float *in, int n, unsigned grid,
             unsigned block)
{
    for (unsigned b = 0; b < grid; b++)
        for (unsigned t = 0; t < block; t++) {
            int i = (int)(b * block + t);
            if (i < n)
                out[i] = in[i];
        }
}

/* block 32 x 8, grid (width / 32, height / 8) */
void nk_transpose_naive(float *out, const float *in, int width, int height)
{
    for (int by = 0; by < height / 8; by++)
        for (int bx = 0; bx < width / 32; bx++)
            for (int ty = 0; ty < 8; ty++)
                for (int tx = 0; tx < 32; tx++) {
                    int x = bx * 32 + tx, y = by * 8 + ty;
                    out[x * height + y] = in[y * width + x];
                }
}

/* block 32 x 8, grid (width / 32, height / 32), a 32 x 32 shared tile */
void nk_transpose_tiled(float *out, const float *in, int width, int height)
{
    float tile[32][32];
    for (int by = 0; by < height / 32; by++)
        for (int bx = 0; bx < width / 32; bx++) {
            for (int ty = 0; ty < 8; ty++)
                for (int tx = 0; tx < 32; tx++)
                    for (int j = 0; j < 32; j += 8)
                        tile[ty + j][tx] =
                            in[(by * 32 + ty + j) * width + bx * 32 + tx];
            for (int ty = 0; ty < 8; ty++)
                for (int tx = 0; tx < 32; tx++)
                    for (int j = 0; j < 32; j += 8)
                        out[(bx * 32 + ty + j) * height + by * 32 + tx] =
                            tile[tx][ty + j];
        }
}

/* reshape_and_cache_f16: one CTA per token, 16-byte vectors */
void nk_kv_cache(uint16_t *key_cache, const uint16_t *key,
                 const int64_t *slot_mapping, int num_heads, int head_size,
                 int block_size, unsigned tokens, unsigned block)
{
    const int vph = head_size / 8, nvec = num_heads * vph;
    for (unsigned b = 0; b < tokens; b++) {
        int64_t slot = slot_mapping[b];
        if (slot < 0)
            continue;
        int64_t blk = slot / block_size;
        int off = (int)(slot % block_size);
        const uint16_t *src = key + (int64_t)b * nvec * 8;
        for (unsigned t = 0; t < block; t++)
            for (int i = (int)t; i < nvec; i += (int)block) {
                int head = i / vph, x = i % vph;
                int64_t d =
                    ((blk * num_heads + head) * vph + x) * block_size + off;
                memcpy(key_cache + d * 8, src + (int64_t)i * 8, 16);
            }
    }
}

/* block 32 x 8, tile[10][34] with a one-cell halo, edges clamped */
void nk_stencil(float *out, const float *in, int width, int height, float c0,
                float c1)
{
    float tile[10][34];
    for (int by = 0; by < height / 8; by++)
        for (int bx = 0; bx < width / 32; bx++) {
            for (int ty = 0; ty < 8; ty++)
                for (int tx = 0; tx < 32; tx++) {
                    int gx = bx * 32 + tx, gy = by * 8 + ty;
                    int lx = tx + 1, ly = ty + 1;
                    tile[ly][lx] = in[gy * width + gx];
                    if (tx == 0)
                        tile[ly][0] = in[gy * width + (gx > 0 ? gx - 1 : 0)];
                    if (tx == 31)
                        tile[ly][33] =
                            in[gy * width +
                               (gx < width - 1 ? gx + 1 : width - 1)];
                    if (ty == 0)
                        tile[0][lx] = in[(gy > 0 ? gy - 1 : 0) * width + gx];
                    if (ty == 7)
                        tile[9][lx] =
                            in[(gy < height - 1 ? gy + 1 : height - 1) * width +
                               gx];
                }
            for (int ty = 0; ty < 8; ty++)
                for (int tx = 0; tx < 32; tx++) {
                    int lx = tx + 1, ly = ty + 1;
                    float centre = tile[ly][lx];
                    float sides = tile[ly][lx - 1] + tile[ly][lx + 1] +
                                  tile[ly - 1][lx] + tile[ly + 1][lx];
                    out[(by * 8 + ty) * width + bx * 32 + tx] =
                        fmaf(centre, c0, sides * c1);
                }
        }
}

/* block 256: a shared tree down to 64 values, then shfl.down in warp 0 */
void nk_reduce(float *out, const float *in, int n, unsigned grid)
{
    float sdata[256], v[32];
    for (unsigned b = 0; b < grid; b++) {
        for (unsigned t = 0; t < 256; t++) {
            int i = (int)(b * 256 + t);
            sdata[t] = i < n ? in[i] : 0.0f;
        }
        for (unsigned s = 128; s > 32; s >>= 1)
            for (unsigned t = 0; t < s; t++)
                sdata[t] += sdata[t + s];
        for (unsigned l = 0; l < 32; l++)
            v[l] = sdata[l] + sdata[l + 32];
        for (unsigned off = 16; off > 0; off >>= 1) {
            float w[32];
            for (unsigned l = 0; l < 32; l++) /* lanes past 31 read their own */
                w[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
            memcpy(v, w, sizeof v);
        }
        out[b] = v[0];
    }
}

/* block 16 x 16, grid (N / 16, M / 16), 16 x 16 tiles of A and B */
void nk_sgemm(float *C, const float *A, const float *B, int M, int N, int K)
{
    float acc[16][16], As[16][16], Bs[16][16];
    for (int by = 0; by < M / 16; by++)
        for (int bx = 0; bx < N / 16; bx++) {
            memset(acc, 0, sizeof acc);
            for (int t = 0; t < K; t += 16) {
                for (int ty = 0; ty < 16; ty++)
                    for (int tx = 0; tx < 16; tx++) {
                        As[ty][tx] = A[(by * 16 + ty) * K + t + tx];
                        Bs[ty][tx] = B[(t + ty) * N + bx * 16 + tx];
                    }
                for (int ty = 0; ty < 16; ty++)
                    for (int tx = 0; tx < 16; tx++) {
                        float a = acc[ty][tx];
                        for (int k = 0; k < 16; k++)
                            a = fmaf(As[ty][k], Bs[k][tx], a);
                        acc[ty][tx] = a;
                    }
            }
            for (int ty = 0; ty < 16; ty++)
                for (int tx = 0; tx < 16; tx++)
                    C[(by * 16 + ty) * N + bx * 16 + tx] = acc[ty][tx];
        }
}

/* block 256, grid-stride loop, a shared 256-bin histogram per CTA */
void nk_histogram(unsigned *bins, const unsigned char *data, int n,
                  unsigned grid)
{
    unsigned hist[256];
    for (unsigned b = 0; b < grid; b++) {
        memset(hist, 0, sizeof hist);
        for (unsigned t = 0; t < 256; t++)
            for (int i = (int)(b * 256 + t); i < n; i += (int)(grid * 256))
                hist[data[i]]++;
        for (unsigned t = 0; t < 256; t++)
            if (hist[t])
                bins[t] += hist[t];
    }
}
