"""Cooperative launches through run_ptx: the corpus kernel grid_sum sums
its input across the grid with cooperative groups' grid.sync(), which
works only in a cooperative launch; a plain one traps, and the fault says
why.  Checked, the whole grid is the checker's one unit."""
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


RACE_PTX = os.path.join(os.path.dirname(__file__), "..", "..", "tests",
                        "check", "ptx", "race_suite_%s.ptx")


@pytest.mark.parametrize("build", ["sm_80", "G_sm_90"])
def test_cooperative_checked(build):
    """The checks follow the whole grid: grid.sync() orders the partials
    before block 0's sum (clean); summed before the barrier they race with
    the other blocks' stores, named by both blocks and lines."""
    x = np.arange(256, dtype=np.float32)
    args = [x, np.zeros(4, np.float32), np.zeros(1, np.float32)]
    rep = warpmem.run_ptx(RACE_PTX % build, "grid_sync_sum", grid=4,
                          block=64, args=args, cooperative=True,
                          check="race,init")
    assert rep.checked and rep.hazards == []
    assert args[2][0] == x.sum()
    rep = warpmem.run_ptx(RACE_PTX % build, "grid_sync_late", grid=4,
                          block=64, args=args, cooperative=True,
                          check="race", on_hazard="ignore")
    war = [h for h in rep.hazards if h["kind"] == "write-after-read"]
    assert war and len(war) == len(rep.hazards)
    h = war[0]
    assert h["space"] == "global" and h["index"] == (1,)
    assert (h["first_block"], h["second_block"]) == ((0, 0, 0), (1, 0, 0))
    assert "cluster_rank" not in h
    assert "(between blocks (0, 0, 0) and (1, 0, 0))" in h["message"]


def test_cooperative_check_limit():
    x = np.ones(1024, np.float32)
    with pytest.raises(ValueError, match="checked cooperative launch of "
                                         "1056 warps"):
        warpmem.run_ptx(PTX % "sm_90", "grid_sum", grid=33, block=1024,
                        args=[x, np.zeros(33, np.float32),
                              np.zeros(1, np.float32), x.size],
                        cooperative=True, check="race")
