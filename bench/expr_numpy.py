"""expr_numpy.py -- the baseline of bench/expr_vs_numpy.py: the 8192 x 8192
transposed copy of examples/expr/transposed_copy.expr (blocks of 32 x 8,
in[ctaid.x*32 + tid.x][ctaid.y*8 + tid.y] loaded, out[ctaid.y*8 +
tid.y][ctaid.x*32 + tid.x] stored, f32) modelled directly in numpy: every
warp's 32 lane addresses, then the distinct 32-byte sectors of each warp
access.  Prints the sector totals of both statements and the CPU seconds
of the computation (numpy's import and start-up not counted).

usage: python expr_numpy.py [N]   (default 8192)
"""
import sys
import time

import numpy as np


def sectors(addr):
    """Distinct 32-byte sectors per row (one row = one warp access)."""
    s = np.sort(addr // 32, axis=1)
    return int((1 + (np.diff(s, axis=1) != 0).sum(axis=1)).sum())


def model(n):
    """(load sectors, store sectors) of the n x n transposed copy."""
    lane = np.arange(32, dtype=np.int64)
    bx = np.arange(n // 32, dtype=np.int64)
    r = bx[:, None] * 32 + lane[None, :]  # tid.x's row, one warp per row
    ld = st = 0
    for by in range(n // 8):  # a row of blocks at a time: bounded memory
        for ty in range(8):  # warp ty of each block: tid.y = ty
            c = by * 8 + ty
            ld += sectors((r * n + c) * 4)  # in[r][c]
            st += sectors((c * n + r) * 4)  # out[c][r]
    return ld, st


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    t0 = time.process_time()
    ld, st = model(n)
    cpu = time.process_time() - t0
    print("load sectors %d store sectors %d cpu %.3f" % (ld, st, cpu))


if __name__ == "__main__":
    main()
