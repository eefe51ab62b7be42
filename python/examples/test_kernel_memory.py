"""Memory behaviour as tests, beside the functional ones: run with
`pytest python/examples/test_kernel_memory.py`.

Each test runs a kernel on the CPU (no GPU needed) and asserts what
Nsight Compute would count: coalesced global accesses, conflict-free
shared memory, no race.  A failure names the line, its cost against the
ideal and the advisor's fix."""
import numpy as np
import pytest

from warpmem.testing import (assert_coalesced, assert_no_bank_conflicts,
                             assert_no_hazards)

numba_cuda = pytest.importorskip("numba.cuda")
from numba import cuda, float32  # noqa: E402

import warpmem.numba  # noqa: E402

BLOCK = 128


@cuda.jit
def reverse_blocks(out, x):
    tile = cuda.shared.array(BLOCK, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * BLOCK + t
    tile[t] = x[i]
    cuda.syncthreads()
    out[i] = tile[BLOCK - 1 - t]


@cuda.jit
def column_sums(out, m):
    # one thread per column, walking down the rows: lanes read neighbours
    c = cuda.grid(1)
    if c < m.shape[1]:
        acc = float32(0)
        for r in range(m.shape[0]):
            acc += m[r, c]
        out[c] = acc


def test_reverse_is_race_free_and_coalesced():
    x = np.arange(4 * BLOCK, dtype=np.float32)
    out = np.zeros_like(x)
    rep = warpmem.numba.analyze(reverse_blocks, 4, BLOCK, out, x,
                                check="race,init", on_hazard="ignore")
    np.testing.assert_array_equal(out.reshape(4, BLOCK),
                                  x.reshape(4, BLOCK)[:, ::-1])
    assert_no_hazards(rep)
    assert_coalesced(rep)                      # every global access
    assert_no_bank_conflicts(rep, source="tile[BLOCK - 1 - t]")


def test_column_sums_reads_rows_coalesced():
    m = np.random.default_rng(0).random((64, 256), dtype=np.float32)
    out = np.zeros(256, np.float32)
    rep = warpmem.numba.analyze(column_sums, 2, 128, out, m)
    np.testing.assert_allclose(out, m.sum(axis=0), rtol=1e-5)
    assert_coalesced(rep, source="acc += m[r, c]")
    # the same kernel on the transposed view walks 1 KiB strides: a test
    # that says so (the assertion fails, and its message says why)
    with pytest.raises(AssertionError, match="sectors per request where"):
        rep_t = warpmem.numba.analyze(column_sums, 2, 128, out,
                                      np.ascontiguousarray(m.T).T)
        assert_coalesced(rep_t, source="acc += m[r, c]")
