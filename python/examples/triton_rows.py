"""Row sums two ways in Triton, analysed on the CPU with warpmem.

    pip install ./python triton
    python python/examples/triton_rows.py
"""
import numpy as np
import triton
import triton.language as tl

import warpmem.triton


@triton.jit
def row_sums_walk(out_ptr, m_ptr, nrows, ncols, ROWS: tl.constexpr):
    # each lane owns a row and walks along it: lanes are ncols*4 bytes apart
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    live = r < nrows
    acc = tl.zeros((ROWS,), dtype=tl.float32)
    for c in range(0, ncols):
        acc += tl.load(m_ptr + r * ncols + c, mask=live, other=0.0)
    tl.store(out_ptr + r, acc, mask=live)


@triton.jit
def row_sums_tile(out_ptr, m_ptr, nrows, ncols, COLS: tl.constexpr):
    # one program per row, lanes along the row: consecutive addresses
    row = tl.program_id(0)
    c = tl.arange(0, COLS)
    x = tl.load(m_ptr + row * ncols + c, mask=c < ncols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


m = np.random.default_rng(0).random((256, 64), dtype=np.float32)
out = np.zeros(256, np.float32)

rep = warpmem.triton.analyze(row_sums_walk, 2, out, m, 256, 64, ROWS=128)
assert np.allclose(out, m.sum(axis=1), rtol=1e-5)
for r in rep.lines:
    print("line %d  %-6s %-2s  %5d requests  %2d sectors/request (ideal %d)"
          "  %s" % (r["line"], r["space"], r["op"], r["requests"],
                    r["per_request_median"],
                    r["ideal_sectors"] // max(r["requests"], 1),
                    r["source"].strip()))
print(rep.advice[0]["headline"])

out[:] = 0
rep2 = warpmem.triton.analyze(row_sums_tile, 256, out, m, 256, 64, COLS=64,
                              num_warps=2)
assert np.allclose(out, m.sum(axis=1), rtol=1e-5)
print("walk: %d excessive sectors, tile: %d" % (rep.excessive_sectors,
                                                rep2.excessive_sectors))
rep.to_html("row_sums_walk.html")   # in a notebook, `rep` alone shows it
