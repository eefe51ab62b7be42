"""symbols= of run_ptx (the CLI's --global, cudaMemcpyToSymbol and
cudaMemcpyFromSymbol): the corpus's 1-D convolution reads its taps from a
__constant__ array set from Python and counts clipped outputs in a
__device__ counter read back; checked against numpy."""
import os

import numpy as np
import pytest

import warpmem
from conftest import REPO

CONV = os.path.join(REPO, "tests", "corpus", "ptx", "const_conv_%s.ptx")


@pytest.mark.parametrize("build", ["sm_90", "G_sm_80"])
def test_constant_taps_and_device_counter(build):
    x = np.arange(256, dtype=np.float32)
    out = np.zeros_like(x)
    # binary fractions that sum to 1 over integer inputs: every sum exact
    taps = np.array([0.125, 0.25, 0.25, 0.25, 0.125], np.float32)
    taps.setflags(write=False)  # set only, nothing read back into it
    clipped = np.zeros(1, np.uint32)
    warpmem.run_ptx(CONV % build, grid=2, block=128, args=[x, out, x.size],
                    symbols={"taps": taps, "clipped": clipped})
    j = np.clip(np.arange(256)[:, None] + np.arange(-2, 3)[None, :], 0, 255)
    want = (taps[None, :] * x[j]).sum(axis=1)
    assert clipped[0] == np.count_nonzero(want > 100) == 155
    np.testing.assert_array_equal(out, np.minimum(want, 100))


def test_symbols_errors():
    x = np.zeros(256, np.float32)
    run = lambda s: warpmem.run_ptx(CONV % "sm_90", grid=2, block=128,
                                    args=[x, x.copy(), x.size], symbols=s)
    with pytest.raises(ValueError, match="no __device__ or __constant__ "
                                         "variable 'nope'"):
        run({"nope": np.zeros(1, np.uint32)})
    with pytest.raises(ValueError, match=r"symbols\['taps'\]: 24 bytes for "
                                         "a variable of 20"):
        run({"taps": np.zeros(6, np.float32)})
    with pytest.raises(TypeError, match="C-contiguous numpy array"):
        run({"taps": [1.0] * 5})
    with pytest.raises(TypeError, match="C-contiguous numpy array"):
        run({"taps": np.zeros(10, np.float32)[::2]})
    with pytest.raises(TypeError, match="dict of name"):
        run([("taps", np.zeros(5, np.float32))])
