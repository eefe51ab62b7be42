"""Cooperative launches through run_ptx: the corpus kernel grid_sum sums
its input across the grid with cooperative groups' grid.sync(), which
works only in a cooperative launch; a plain one traps, and the fault says
why."""
import os

import numpy as np
import pytest

import warpmem

PTX = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "corpus",
                   "ptx", "grid_sync_%s.ptx")


@pytest.mark.parametrize("build", ["sm_80", "G_sm_90"])
def test_grid_sum_cooperative(build):
    x = (np.arange(3000) % 11).astype(np.float32)
    partial = np.full(4, -1, np.float32)
    total = np.zeros(1, np.float32)
    warpmem.run_ptx(PTX % build, "grid_sum", grid=4, block=256,
                    args=[x, partial, total, x.size], cooperative=True)
    want = np.zeros(4, np.float32)
    for i in range(x.size):  # thread i % 1024 of block i % 1024 // 256
        want[i % 1024 // 256] += x[i]
    np.testing.assert_array_equal(partial, want)
    assert total[0] == want.sum()


def test_grid_sum_plain_traps():
    x = np.ones(1024, np.float32)
    with pytest.raises(warpmem.KernelFault, match="cooperative launch sets"):
        warpmem.run_ptx(PTX % "sm_90", "grid_sum", grid=4, block=256,
                        args=[x, np.zeros(4, np.float32),
                              np.zeros(1, np.float32), x.size])


def test_cooperative_refuses_checks():
    x = np.ones(1024, np.float32)
    with pytest.raises(ValueError, match="checks do not run on a "
                                         "cooperative launch"):
        warpmem.run_ptx(PTX % "sm_90", "grid_sum", grid=4, block=256,
                        args=[x, np.zeros(4, np.float32),
                              np.zeros(1, np.float32), x.size],
                        cooperative=True, check="race")
