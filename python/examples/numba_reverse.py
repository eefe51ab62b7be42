"""Reverse each block's slice of an array through shared memory with
numba-cuda, without and with the barrier, under warpmem's race and
initialisation checks and the cache hierarchy model (no GPU needed)."""
import numpy as np
from numba import cuda, float32

import warpmem
import warpmem.numba

BLOCK = 128


@cuda.jit
def reverse_racy(out, x):
    # the barrier between the write and the read is missing
    tile = cuda.shared.array(BLOCK, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * BLOCK + t
    tile[t] = x[i]
    out[i] = tile[BLOCK - 1 - t]


@cuda.jit
def reverse(out, x):
    tile = cuda.shared.array(BLOCK, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * BLOCK + t
    tile[t] = x[i]
    cuda.syncthreads()
    out[i] = tile[BLOCK - 1 - t]


if __name__ == "__main__":
    n = 1 << 16
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    rep = warpmem.numba.analyze(reverse_racy, n // BLOCK, BLOCK, out, x,
                                check="race,init", on_hazard="ignore")
    for h in rep.hazards:
        print(h["message"])
    print("wrong elements:", int((out != x.reshape(-1, BLOCK)[:, ::-1]
                                  .ravel()).sum()))

    rep = warpmem.numba.analyze(reverse, n // BLOCK, BLOCK, out, x,
                                check="race,init", cache=True)
    h = rep.hierarchy
    print("fixed: %d hazards; %s model: L2 hit rate %.0f%%, DRAM %d bytes, "
          "%.2f us, %s-bound" % (len(rep.hazards), h["gpu"], h["l2_hit_rate"],
                                 h["dram_bytes"], h["time_s"] * 1e6,
                                 h["bound"]))
