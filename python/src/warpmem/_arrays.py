"""Array arguments as a launch sees them.

A kernel receives a pointer to the first element of the array it is given,
inside the allocation that holds it: a numpy view (``pts[:, 0]``,
``a[10:]``, ``a[::-1]``) or a torch tensor with strides points into its
base buffer or storage, as on a GPU.  ``DeviceArray`` keeps that picture:
the whole allocation (``root``) is the interpreter's device buffer and the
kernel's pointer is the view's byte offset in it, so the addresses, the
strides and the aliasing of several views of one buffer are those of the
real launch.  Nothing is copied, except the bytes of a read-only array
(its allocation is copied whole, so the offsets stay; kernel writes to it
are dropped, as they could not land in read-only memory).

Objects other than numpy arrays are taken through the protocols torch
tensors (and others) expose: ``data_ptr()`` with ``stride()``,
``element_size()`` and ``untyped_storage()`` (torch), else
``__array_interface__`` or ``__dlpack__``.
"""
from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

__all__ = ["DeviceArray", "as_device_array"]

# element type names (numpy's, and torch's without "torch.") -> the numpy
# dtype of the memory; bfloat16 is read as raw 16-bit words
_MEM_DTYPES = {"bool": "bool", "int8": "int8", "uint8": "uint8",
               "int16": "int16", "uint16": "uint16", "int32": "int32",
               "uint32": "uint32", "int64": "int64", "uint64": "uint64",
               "float16": "float16", "half": "float16",
               "bfloat16": "uint16", "float32": "float32",
               "float": "float32", "float64": "float64",
               "double": "float64"}


def _byte_bounds(a: np.ndarray) -> tuple[int, int]:
    try:
        from numpy.lib.array_utils import byte_bounds  # numpy >= 2
    except ImportError:  # pragma: no cover - numpy 1.x
        byte_bounds = np.byte_bounds
    lo, hi = byte_bounds(a)
    return int(lo), int(hi)


def _u8_at(addr: int, n: int) -> np.ndarray:
    """A writable uint8 array over n bytes of memory at addr."""
    if n == 0:
        return np.zeros(0, np.uint8)
    return np.frombuffer((ctypes.c_ubyte * n).from_address(addr), np.uint8)


class DeviceArray:
    """One array argument: ``view`` (an ndarray over the argument's own
    memory, with its shape and byte strides), the allocation ``root``
    (uint8, the interpreter's buffer), the view's first byte ``offset`` in
    it and the element type name ``dtype`` (numpy's names, "bfloat16"
    too)."""

    def __init__(self, view: np.ndarray, root: np.ndarray, root_addr: int,
                 dtype: str, owner: Any):
        self.view = view
        self.root = root
        self.root_addr = root_addr
        self.offset = int(view.__array_interface__["data"][0]) - root_addr \
            if view.size else 0
        self.dtype = dtype
        self.owner = owner  # keeps the memory alive during the run
        self.shape = tuple(view.shape)
        self.strides = tuple(view.strides)
        self.itemsize = view.itemsize

    @property
    def nbytes(self) -> int:
        return int(self.root.nbytes)

    @property
    def size(self) -> int:
        return int(self.view.size)

    @property
    def whole(self) -> bool:
        """The view is its whole allocation, C-contiguous from byte 0."""
        return (self.offset == 0 and self.view.flags.c_contiguous
                and self.view.nbytes == self.root.nbytes)

    def _solve(self, d: int, bounded: bool) -> "tuple[int, ...] | None":
        """Indices i with sum(i[k] * strides[k]) == d, each in its
        dimension (the outermost one unbounded above when not bounded)."""
        order = sorted(range(self.view.ndim),
                       key=lambda k: -abs(self.strides[k]))
        idx = [0] * self.view.ndim
        rest = d
        for n, k in enumerate(order):
            s = self.strides[k]
            if s == 0:
                continue
            q = rest // s
            if bounded or n > 0:
                q = max(0, min(q, self.shape[k] - 1))
            idx[k] = q
            rest -= q * s
        if rest != 0 or any(i < 0 for i in idx):
            return None
        return tuple(idx)

    def index_of(self, byte: int) -> "tuple[int, ...] | None":
        """The element index (in the view's shape) whose first byte is at
        ``byte`` of the allocation, or None when no element starts there."""
        d = byte - self.offset
        if self.view.ndim == 0:
            return () if d == 0 else None
        if any(n == 0 for n in self.shape):
            return None
        return self._solve(d, True)

    def describe(self, byte: int) -> "tuple[tuple[int, ...] | None, str]":
        """(index or None, words to put after the argument's name) for
        ``byte`` of the allocation: "[3, 5]", "[4, 0], outside its shape
        (4, 32)" or ": byte -8 from its first element (...)"."""
        idx = self.index_of(byte)
        if idx is not None:
            return idx, "[%s]" % ", ".join(map(str, idx))
        d = byte - self.offset
        out = self._solve(d, False) if self.view.ndim and \
            all(self.shape) else None
        if out is not None:
            return out, "[%s], outside its shape %s" % (
                ", ".join(map(str, out)), self.shape)
        return None, (": byte %+d from its first element (shape %s, strides "
                      "%s bytes)" % (d, self.shape, self.strides))


def _from_ndarray(v: np.ndarray, dtype: str, owner: Any) -> DeviceArray:
    root = v
    while isinstance(root.base, np.ndarray):
        root = root.base
    if v.size == 0:
        return DeviceArray(v, np.zeros(0, np.uint8), 0, dtype, owner)
    lo, hi = _byte_bounds(root)
    vlo, vhi = _byte_bounds(v)
    if vlo < lo or vhi > hi:  # a view built on foreign memory
        lo, hi = vlo, vhi
    if v.flags.writeable:
        mem = _u8_at(lo, hi - lo)
        return DeviceArray(v, mem, lo, dtype, (owner, v))
    # read-only: the allocation's bytes copied whole, offsets kept
    mem = np.frombuffer(bytearray(ctypes.string_at(lo, hi - lo)), np.uint8)
    addr = mem.ctypes.data
    off = int(v.__array_interface__["data"][0]) - lo
    view = np.ndarray(v.shape, v.dtype, buffer=mem, offset=off,
                      strides=v.strides)
    return DeviceArray(view, mem, addr, dtype, (owner, v))


def _torch_like(v: Any) -> DeviceArray:
    dev = getattr(v, "device", None)
    if dev is not None and getattr(dev, "type", "cpu") != "cpu":
        raise ValueError("a tensor on %s: pass a CPU tensor" % (dev,))
    name = str(getattr(v, "dtype", "")).replace("torch.", "")
    if name not in _MEM_DTYPES:
        raise TypeError("unsupported dtype %s" % name)
    mem_dt = np.dtype(_MEM_DTYPES[name])
    es = int(v.element_size())
    if es != mem_dt.itemsize:
        raise TypeError("dtype %s: element_size() says %d bytes" % (name, es))
    shape = tuple(int(n) for n in v.shape)
    strides = tuple(int(s) * es for s in v.stride())
    ptr = int(v.data_ptr())
    canon = {"half": "float16", "float": "float32", "double": "float64"}
    dtype = canon.get(name, name)
    if any(n == 0 for n in shape):
        return DeviceArray(np.zeros(shape, mem_dt), np.zeros(0, np.uint8), 0,
                           dtype, v)
    st = getattr(v, "untyped_storage", None)
    if st is not None:
        s = st()
        lo, n = int(s.data_ptr()), int(s.nbytes())
    else:  # the view's own span
        lo = ptr + sum(min(0, (k - 1) * s) for k, s in zip(shape, strides))
        hi = ptr + sum(max(0, (k - 1) * s) for k, s in zip(shape, strides)) \
            + es
        n = hi - lo
    mem = _u8_at(lo, n)
    view = np.ndarray(shape, mem_dt, buffer=mem, offset=ptr - lo,
                      strides=strides)
    return DeviceArray(view, mem, lo, dtype, v)


def as_device_array(v: Any) -> "DeviceArray | None":
    """v as a DeviceArray; None when v is not an array (a scalar, bytes).
    ValueError/TypeError for arrays that cannot be passed (GPU memory, an
    element type the interpreter has no name for)."""
    if isinstance(v, np.ndarray):
        return _from_ndarray(v, str(v.dtype), v)
    if isinstance(v, (bytes, bytearray, memoryview, np.generic, int, float,
                      bool)) or v is None:
        return None
    if callable(getattr(v, "data_ptr", None)) and \
            callable(getattr(v, "stride", None)) and \
            callable(getattr(v, "element_size", None)):
        return _torch_like(v)
    if hasattr(v, "__cuda_array_interface__") and \
            not hasattr(v, "__array_interface__"):
        raise ValueError("%s lives in GPU memory: pass a host array"
                         % type(v).__name__)
    if hasattr(v, "__array_interface__"):
        a = np.asarray(v)
        return _from_ndarray(a, str(a.dtype), v)
    if hasattr(v, "__dlpack__"):
        try:
            a = np.from_dlpack(v)
        except (BufferError, RuntimeError, TypeError) as e:
            raise ValueError("%s: %s" % (type(v).__name__, e)) from None
        return _from_ndarray(a, str(a.dtype), v)
    return None
