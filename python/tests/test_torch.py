"""torch tensors (on the CPU) wherever numpy arrays go: kept in place with
their strides and storage offset, results written back into them, faults
and hazards naming the tensor argument.  Skipped where torch is not
installed: PyPI's Linux wheel pulls several GB of CUDA libraries, so CI
covers the protocol with test_arrays.py's FakeTensor; these run where
torch is present (docs/python.md says where they last ran)."""
import numpy as np
import pytest

import warpmem

torch = pytest.importorskip(
    "torch", reason="torch is not installed (its PyPI wheel needs several "
    "GB of CUDA libraries); test_arrays.py's FakeTensor covers the protocol")


def _numba():
    pytest.importorskip("numba.cuda")
    import warpmem.numba as wn
    import numba_kernels as K
    return wn, K


def _triton():
    pytest.importorskip("triton")
    import warpmem.triton as wt
    import triton_kernels as T
    return wt, T


def test_numba_strided_column():
    wn, K = _numba()
    pts = torch.arange(512, dtype=torch.float32).reshape(256, 2)
    out = torch.zeros(256)
    rep = wn.analyze(K.gather_first, 2, 128, out, pts[:, 1])
    assert torch.equal(out, pts[:, 1])
    # the column's 8-byte stride: 8 sectors per request, as on a GPU
    (ld,) = [r for r in rep.find("out[i] = pts[i]") if r["op"] == "ld"]
    assert ld["per_request_max"] == 8
    # the contiguous copy would read 4 per request: nothing was copied
    rep_c = wn.analyze(K.gather_first, 2, 128, out, pts[:, 1].contiguous())
    (ldc,) = [r for r in rep_c.find("out[i] = pts[i]") if r["op"] == "ld"]
    assert ldc["per_request_max"] == 4


def test_numba_transposed_2d():
    wn, K = _numba()
    src = torch.arange(64 * 64, dtype=torch.float32).reshape(64, 64)
    dst = torch.zeros(64, 64)
    wn.analyze(K.transpose_padded, (2, 2), (32, 32), dst, src)
    assert torch.equal(dst, src.t())
    # a transposed view as the source: its strides are (1, 64)
    dst2 = torch.zeros(64, 64)
    wn.analyze(K.transpose_padded, (2, 2), (32, 32), dst2, src.t())
    assert torch.equal(dst2, src)


def test_triton_offset_views():
    wt, T = _triton()
    n = 1024
    base = torch.arange(2 * n, dtype=torch.float32)
    b = torch.ones(n)
    c = torch.zeros(n)
    # base[1:] is 4 bytes into its storage: Triton's launcher sees a
    # data_ptr that is not 16-aligned and emits scalar loads
    rep = wt.analyze(T.vec_add, n // 256, base[1:n + 1], b, c, n, BLOCK=256)
    assert torch.equal(c, base[1:n + 1] + 1)
    ld = [r for r in rep.find("a = tl.load(a_ptr") if r["op"] == "ld"]
    assert [r["size"] for r in ld] == [4, 4]
    rep16 = wt.analyze(T.vec_add, n // 256, base[4:n + 4], b, c, n,
                       BLOCK=256)
    assert torch.equal(c, base[4:n + 4] + 1)
    ld16 = [r for r in rep16.find("a = tl.load(a_ptr") if r["op"] == "ld"]
    assert [r["size"] for r in ld16] == [8]


def test_triton_fault_names_the_tensor():
    wt, T = _triton()
    store = torch.zeros(1016)
    a = store[16:]                   # 1000 floats, 64 bytes into storage
    b = torch.zeros(1024)
    c = torch.zeros(1024)
    with pytest.raises(warpmem.KernelFault) as ei:
        wt.analyze(T.vec_add, 4, a, b, c, 1024, BLOCK=256)
    e = ei.value
    assert e.argument == "a_ptr" and e.index == (1000,)
    assert "a_ptr[1000], outside its shape (1000,)" in str(e)
    assert e.buffer["bytes"] == 4064          # the whole storage


def test_numba_race_on_tensors():
    wn, K = _numba()
    x = torch.arange(256, dtype=torch.float32)
    out = torch.zeros(256)
    with pytest.warns(warpmem.HazardWarning):
        rep = wn.analyze(K.reverse_racy, 2, 128, out, x, check="race")
    assert {h["kind"] for h in rep.hazards} == {"read-after-write",
                                               "write-after-read"}
    rep = wn.analyze(K.reverse_synced, 2, 128, out, x, check="race")
    assert rep.hazards == []
    ref = x.reshape(2, 128).flip(1).reshape(256)
    assert torch.equal(out, ref)


def test_axpy_and_device_refusal():
    wn, K = _numba()
    out = torch.zeros(256, dtype=torch.float32)
    x = torch.arange(256, dtype=torch.float32)
    y = torch.full((256,), 2.0)
    wn.analyze(K.axpy, 2, 128, out, np.float32(3), x, y)
    np.testing.assert_array_equal(out.numpy(), 3 * x.numpy() + 2)
    # a tensor on another device is refused, not copied
    meta = torch.zeros(256, device="meta")
    with pytest.raises((TypeError, ValueError), match="device|cpu|meta"):
        wn.analyze(K.axpy, 2, 128, meta, np.float32(3), x, y)
