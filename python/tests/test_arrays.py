"""Arrays reach the kernel as a GPU launch passes them: a view points into
its base buffer with its own strides (nothing is copied), torch-style
tensors through their protocol; faults name the argument and the element
in the array's own shape."""
import types

import numpy as np
import pytest

import warpmem
from warpmem._arrays import as_device_array


class FakeTensor:
    """What warpmem reads of a torch.Tensor (data_ptr, stride in elements,
    element_size, untyped_storage, shape, dtype, device), over numpy
    memory, so the protocol is tested where torch is not installed
    (test_torch.py runs the same with real torch where it is)."""

    class _Storage:
        def __init__(self, base):
            self.base = base

        def data_ptr(self):
            return self.base.ctypes.data

        def nbytes(self):
            return self.base.nbytes

    def __init__(self, base, shape, stride, offset=0, device="cpu"):
        self.base = base  # a contiguous 1-D numpy array: the storage
        self.shape = tuple(shape)
        self._stride = tuple(stride)
        self._offset = offset
        self.dtype = "torch." + str(base.dtype)
        self.device = types.SimpleNamespace(type=device)

    def data_ptr(self):
        return self.base.ctypes.data + self._offset * self.base.itemsize

    def stride(self):
        return self._stride

    def element_size(self):
        return self.base.itemsize

    def untyped_storage(self):
        return FakeTensor._Storage(self.base)

    def t(self):
        return FakeTensor(self.base, self.shape[::-1], self._stride[::-1],
                          self._offset)


def test_device_array_of_views():
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    da = as_device_array(base[1:, ::2])
    assert da.nbytes == 96 and da.offset == 24 and da.strides == (24, 8)
    assert not da.whole and as_device_array(base).whole
    assert da.index_of(24 + 24 + 8) == (1, 1)
    assert da.index_of(24 + 4) is None          # base[1, 1]: not in the view
    assert da.describe(24 + 3 * 24)[1] == "[3, 0], outside its shape (3, 3)"
    rev = as_device_array(base[:, 0][::-1])
    assert rev.offset == 72 and rev.strides == (-24,)
    assert rev.index_of(0) == (3,)
    ft = FakeTensor(np.zeros(12, np.float32), (3, 2), (1, 3), offset=6)
    d2 = as_device_array(ft)
    assert d2.offset == 24 and d2.strides == (4, 12) and d2.nbytes == 48
    with pytest.raises(ValueError, match="cuda"):
        as_device_array(FakeTensor(np.zeros(4), (4,), (1,), device="cuda"))


def _numba():
    pytest.importorskip("numba.cuda")
    import warpmem.numba as wn
    import numba_kernels as K
    return wn, K


def test_numba_strided_view_shows_the_strided_pattern():
    wn, K = _numba()
    n = 1024
    pts = np.random.default_rng(3).random((n, 2), dtype=np.float32)
    out = np.zeros(n, np.float32)
    rep = wn.analyze(K.gather_first, n // 128, 128, out, pts[:, 0])
    np.testing.assert_array_equal(out, pts[:, 0])
    (ld,) = [r for r in rep.find("out[i] = pts[i]") if r["op"] == "ld"]
    # lanes 8 bytes apart: 256 bytes per warp, 8 sectors where 4 would do
    assert ld["per_request_min"] == ld["per_request_max"] == 8
    assert ld["excessive_sectors"] == 4 * ld["requests"]
    # the contiguous copy a copying binding would pass: 4 sectors
    rep_c = wn.analyze(K.gather_first, n // 128, 128, out,
                       np.ascontiguousarray(pts[:, 0]))
    (ldc,) = [r for r in rep_c.find("out[i] = pts[i]") if r["op"] == "ld"]
    assert ldc["per_request_max"] == 4
    # the second column (offset 4 bytes) and a reversed view
    wn.analyze(K.gather_first, n // 128, 128, out, pts[:, 1])
    np.testing.assert_array_equal(out, pts[:, 1])
    wn.analyze(K.gather_first, n // 128, 128, out, pts[::-1, 0])
    np.testing.assert_array_equal(out, pts[::-1, 0])


def test_numba_fault_names_the_argument_and_index():
    wn, K = _numba()
    m = np.ones((4, 32), np.float32)
    out = np.zeros((8, 32), np.float32)
    with pytest.raises(warpmem.KernelFault) as ei:
        wn.analyze(K.scale_rows, 8, 32, out, m, 8)   # m has 4 rows, not 8
    e = ei.value
    assert e.argument == "m" and e.index == (4, 0)
    assert e.element == "m[4, 0], outside its shape (4, 32)"
    assert "the buffer of m (512 bytes)" in e.message
    assert "argument 13" not in str(e)      # numba's flattened parameter
    assert (out[:4] == 2).all()


def test_torch_like_tensors_numba():
    wn, K = _numba()
    n = 256
    store = np.arange(2 * n, dtype=np.float32)
    pts = FakeTensor(store, (n, 2), (2, 1))
    out_store = np.zeros(n, np.float32)
    out = FakeTensor(out_store, (n,), (1,))
    col = FakeTensor(store, (n,), (2,), offset=1)    # pts[:, 1]
    rep = wn.analyze(K.gather_first, n // 128, 128, out, col)
    np.testing.assert_array_equal(out_store, store[1::2])
    (ld,) = [r for r in rep.find("out[i] = pts[i]") if r["op"] == "ld"]
    assert ld["per_request_max"] == 8
    assert pts.shape == (n, 2)


def _triton():
    pytest.importorskip("triton")
    import warpmem.triton as wt
    import triton_kernels as T
    return wt, T


def test_triton_fault_names_the_argument():
    wt, T = _triton()
    a = np.zeros(1000, np.float32)
    b = np.zeros(1024, np.float32)
    c = np.zeros(1024, np.float32)
    with pytest.raises(warpmem.KernelFault) as ei:
        wt.analyze(T.vec_add, 4, a, b, c, 1024, BLOCK=256)
    e = ei.value
    assert e.argument == "a_ptr" and e.index == (1000,)
    assert "in the buffer of a_ptr (4000 bytes): a_ptr[1000], outside its " \
        "shape (1000,)" in str(e)


def test_triton_views_and_tensors():
    wt, T = _triton()
    n = 1024
    base = np.arange(2 * n, dtype=np.float32)
    b = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    # a slice at byte 4 of its buffer: not 16-aligned, so Triton is not
    # told it is (no vector loads), as its launcher checks data_ptr()
    rep = wt.analyze(T.vec_add, n // 256, base[1:n + 1], b, c, n, BLOCK=256)
    np.testing.assert_array_equal(c, base[1:n + 1] + 1)
    ld = [r for r in rep.find("a = tl.load(a_ptr") if r["op"] == "ld"]
    assert [r["size"] for r in ld] == [4, 4]
    rep16 = wt.analyze(T.vec_add, n // 256, base[4:n + 4], b, c, n,
                       BLOCK=256)
    np.testing.assert_array_equal(c, base[4:n + 4] + 1)
    ld16 = [r for r in rep16.find("a = tl.load(a_ptr") if r["op"] == "ld"]
    assert [r["size"] for r in ld16] == [8]         # ld.global.v2.b32
    t = FakeTensor(base, (n,), (1,), offset=8)
    wt.analyze(T.vec_add, n // 256, t, b, c, n, BLOCK=256)
    np.testing.assert_array_equal(c, base[8:n + 8] + 1)


def test_read_only_arrays_and_aliases():
    wn, K = _numba()
    n = 256
    x = np.arange(n, dtype=np.float32)
    x.setflags(write=False)
    out = np.zeros(128, np.float32)
    wn.analyze(K.gather_first, 1, 128, out, x[::2])
    np.testing.assert_array_equal(out, x[::2])
    # out and its own view alias: the kernel reads what it writes
    buf = np.arange(n, dtype=np.float32)
    wn.analyze(K.gather_first, 1, 128, buf[:128], buf[128:])
    np.testing.assert_array_equal(buf[:128], np.arange(128, 256))


def test_torch_like_fault_names_the_argument():
    wt, T = _triton()
    store = np.zeros(1016, np.float32)
    a = FakeTensor(store, (1000,), (1,), offset=16)   # store[16:]
    b = np.zeros(1024, np.float32)
    c = np.zeros(1024, np.float32)
    with pytest.raises(warpmem.KernelFault) as ei:
        wt.analyze(T.vec_add, 4, a, b, c, 1024, BLOCK=256)
    e = ei.value
    assert e.argument == "a_ptr" and e.index == (1000,)
    assert "a_ptr[1000], outside its shape (1000,)" in str(e)
    # the storage is 1016 floats: the fault is past the storage's end
    assert e.buffer["bytes"] == 4064


def test_array_protocol_objects():
    # objects exposing only __array_interface__ or only __dlpack__ are
    # used in place, like the numpy arrays behind them
    import os
    from conftest import REPO

    class Iface:
        def __init__(self, a):
            self.__array_interface__ = a.__array_interface__
            self.keep = a

    class Dl:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kw):
            return self.a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    f = os.path.join(REPO, "tests", "ptx", "triton_add.ptx")
    x = np.arange(256, dtype=np.float32)
    out = np.zeros(256, np.float32)
    out2 = np.zeros(256, np.float32)
    warpmem.run_ptx(f, grid=1, block=128, args=[Iface(x), Dl(x), Iface(out),
                                                256])
    np.testing.assert_array_equal(out, 2 * x)
    warpmem.run_ptx(f, grid=1, block=128, args=[x, x, Dl(out2), 256])
    np.testing.assert_array_equal(out2, 2 * x)
    with pytest.raises(TypeError, match=r"args\[0\]"):
        warpmem.run_ptx(f, grid=1, block=128, args=[object(), x, out, 256])
