"""numba-cuda kernels of the test suite (compiled to PTX on the CPU)."""
from numba import cuda, float32

TILE = 32
TILE_PAD = 33  # one word of padding per row: a column read hits 32 banks


@cuda.jit
def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a * x[i] + y[i]


@cuda.jit
def transpose_conflicted(dst, src):
    tile = cuda.shared.array((TILE, TILE), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    tile[ty, tx] = src[y, x]
    cuda.syncthreads()
    dst[cuda.blockIdx.x * TILE + ty, cuda.blockIdx.y * TILE + tx] = tile[tx, ty]


@cuda.jit
def transpose_padded(dst, src):
    tile = cuda.shared.array((TILE, TILE_PAD), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    tile[ty, tx] = src[y, x]
    cuda.syncthreads()
    dst[cuda.blockIdx.x * TILE + ty, cuda.blockIdx.y * TILE + tx] = tile[tx, ty]
