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


BLOCK = 128


@cuda.jit
def reverse_racy(out, x):
    # reverses each block's slice through shared memory, but the barrier
    # between the write and the read is missing
    tile = cuda.shared.array(BLOCK, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * BLOCK + t
    tile[t] = x[i]
    out[i] = tile[BLOCK - 1 - t]


@cuda.jit
def reverse_synced(out, x):
    tile = cuda.shared.array(BLOCK, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * BLOCK + t
    tile[t] = x[i]
    cuda.syncthreads()
    out[i] = tile[BLOCK - 1 - t]


@cuda.jit
def gather_first(out, pts):
    # reads one coordinate of each point: pts may be a strided view
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = pts[i]


@cuda.jit
def scale_rows(out, m, nrows):
    # out[r, c] = 2 m[r, c]; the bound is on the rows, the columns are the
    # block's x; a wrong nrows reads past m
    r = cuda.blockIdx.x
    c = cuda.threadIdx.x
    if r < nrows:
        out[r, c] = 2 * m[r, c]
