"""numba-cuda kernels compiled with cuda.compile_ptx on the CPU and
interpreted with their flattened array parameters filled from numpy."""
import numpy as np
import pytest

pytest.importorskip("numba.cuda")
import warpmem  # noqa: E402
import warpmem.numba as wn  # noqa: E402
import numba_kernels as K  # noqa: E402

rng = np.random.default_rng(7)


def test_axpy():
    n = 1000
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    rep = wn.analyze(K.axpy, (n + 127) // 128, 128, out, np.float32(2.5), x, y)
    np.testing.assert_allclose(out, 2.5 * x + y, rtol=1e-6)
    (st,) = [r for r in rep.find("out[i] = a * x[i] + y[i]")
             if r["op"] == "st"]
    assert st["space"] == "global" and st["excessive_sectors"] == 0
    assert rep.kernel.startswith("axpy") or "axpy" in rep.kernel


def test_axpy_wrong_dtype_names_the_argument():
    x = np.zeros(64, np.float32)
    with pytest.raises(TypeError, match=r"args\[0\]"):
        # the kernel is compiled for float64 out: the PTX then says so,
        # and a float32 array for it is refused
        warpmem.run_ptx(wn.compile_ptx(K.axpy, np.zeros(64), np.float32(1),
                                       x, x)[0],
                        grid=1, block=64, args=[x, np.float32(1), x, x])


def _transpose(kernel):
    n = 64
    src = rng.random((n, n), dtype=np.float32)
    dst = np.zeros_like(src)
    rep = wn.analyze(kernel, (n // 32, n // 32), (32, 32), dst, src)
    np.testing.assert_array_equal(dst, src.T)
    (rd,) = [r for r in rep.find("= tile[tx, ty]") if r["space"] == "shared"]
    (wr,) = [r for r in rep.find("tile[ty, tx] = src[y, x]")
             if r["space"] == "shared"]
    return rd, wr


def test_transpose_bank_conflicts():
    rd, wr = _transpose(K.transpose_conflicted)
    assert rd["op"] == "ld"
    assert rd["per_request_min"] == rd["per_request_max"] == 32
    assert rd["wavefronts"] == 32 * rd["requests"]
    assert rd["conflicts"] == 31 * rd["requests"]
    assert wr["per_request_max"] == 1


def test_transpose_padded_is_conflict_free():
    rd, wr = _transpose(K.transpose_padded)
    assert rd["per_request_min"] == rd["per_request_max"] == 1
    assert rd["conflicts"] == 0
    assert wr["per_request_max"] == 1
