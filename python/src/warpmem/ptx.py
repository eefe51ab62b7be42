"""run_ptx: interpret a PTX kernel on the CPU through libwarpmem.

The kernel's signature (which parameters Triton or numba added, which are
pointers) comes from the library (wm_ptx_kernel_describe); arguments are
given per source-level argument and mapped onto the PTX parameters here."""
from __future__ import annotations

import ctypes
import json
import os
from typing import Any, Sequence

from . import _lib as L
from ._lib import lib
from .core import KernelFault, Report, _arch, _dims

__all__ = ["run_ptx", "describe", "Kernel"]

# numpy dtype -> the library's element type name
_DTYPES = {"int8": "i8", "uint8": "u8", "int16": "i16", "uint16": "u16",
           "int32": "i32", "uint32": "u32", "int64": "i64", "uint64": "u64",
           "float16": "f16", "bfloat16": "bf16", "float32": "f32",
           "float64": "f64", "bool": "u8"}


class Kernel:
    """A kernel's signature as the library reads it from the PTX."""

    def __init__(self, info: L.KernelInfo, params: Sequence[L.ParamInfo]):
        self.name = L.s(info.name)
        self.display = L.s(info.display)
        self.signature = L.s(info.signature)
        self.origin = L.ORIGINS[info.origin]
        self.ngroups = info.ngroups
        self.static_smem = info.static_smem
        self.dyn_smem = bool(info.dyn_smem)
        self.params = [{
            "name": L.s(p.name), "type": L.s(p.type), "size": p.size,
            "use": ("none", "value", "pointer", "escapes", "texture",
                    "surface")[p.use],
            "added": bool(p.added), "group": p.group, "role": L.s(p.role),
            "ctype": L.s(p.ctype),
            "elem": L.PTX_TYPES[p.elem] if 0 <= p.elem < 12 else None}
            for p in params]

    def __repr__(self) -> str:
        return "<warpmem.Kernel %s (%s, %d arguments)>" % (
            self.signature, self.origin, self.ngroups)


class _Module:
    def __init__(self, ptx: "str | bytes | os.PathLike"):
        path = "<ptx>"
        if isinstance(ptx, bytes):
            text = ptx
        elif isinstance(ptx, os.PathLike) or (
                isinstance(ptx, str) and ".entry" not in ptx
                and "\n" not in ptx):
            path = os.fspath(ptx)
            try:
                with open(path, "rb") as f:
                    text = f.read()
            except OSError as e:
                raise ValueError("ptx: cannot read %r: %s" % (path, e.strerror)
                                 ) from None
        elif isinstance(ptx, str):
            text = ptx.encode()
        else:
            raise TypeError("ptx: expected PTX text, bytes or a path, got %s"
                            % type(ptx).__name__)
        self.path = path
        self.text = text
        self.m = ctypes.c_void_p()
        d = L.Diag()
        st = lib.wm_ptx_parse(text, len(text), path.encode(),
                              ctypes.byref(self.m), ctypes.byref(d))
        if st != L.WM_OK:
            lib.wm_diag_locate(ctypes.byref(d), text, len(text))
            raise ValueError("ptx: %s:%d:%d: %s" % (path, d.line, d.col,
                                                    d.msg.decode()))

    def __del__(self):
        if getattr(self, "m", None):
            lib.wm_ptx_free(self.m)
            self.m = None

    def find(self, kernel: str | None) -> int:
        cand = (ctypes.c_size_t * 16)()
        n = lib.wm_ptx_match_kernels(self.m, kernel.encode() if kernel else
                                     None, cand, 16)
        if n == 1:
            return cand[0]
        names = [self.describe(cand[i])[0].display for i in range(min(n, 16))]
        if n == 0:
            raise ValueError("kernel: no kernel %r in %s" % (kernel, self.path))
        raise ValueError("kernel: %r matches %d kernels: %s" % (
            kernel or "", n, ", ".join(names)))

    def describe(self, k: int) -> tuple[Kernel, list[L.ParamInfo]]:
        ki = L.KernelInfo()
        n = lib.wm_ptx_kernel_describe(self.m, k, ctypes.byref(ki), None, 0)
        ps = (L.ParamInfo * max(n, 1))()
        lib.wm_ptx_kernel_describe(self.m, k, ctypes.byref(ki), ps, n)
        params = list(ps)[:n]
        return Kernel(ki, params), params


def describe(ptx: "str | bytes | os.PathLike", kernel: str | None = None
             ) -> Kernel:
    """The signature of a kernel of a PTX module: its parameters with what
    the library found out about them (pointer or value, added by Triton or
    numba, which source argument they belong to)."""
    mod = _Module(ptx)
    return mod.describe(mod.find(kernel))[0]


def _as_array(v: Any):
    """numpy array (or CPU torch tensor) -> (contiguous ndarray, write-back
    function or None); None when v is not an array."""
    import numpy as np

    if type(v).__module__.startswith("torch"):
        if getattr(v, "device", None) is not None and v.device.type != "cpu":
            raise ValueError("a torch tensor on %s: pass a CPU tensor"
                             % v.device)
        t = v.detach()
        if t.is_contiguous():
            return t.numpy(), None  # shares the tensor's memory
        arr = t.contiguous().numpy()

        def back(arr=arr, t=t):
            import torch
            t.copy_(torch.from_numpy(arr))
        return arr, back
    if isinstance(v, np.ndarray):
        if v.flags.c_contiguous and v.flags.writeable:
            return v, None
        c = np.ascontiguousarray(v).copy()
        if v.flags.writeable:
            return c, (lambda c=c, v=v: np.copyto(v, c))
        return c, None
    return None


def _elem_name(arr) -> str:
    name = str(arr.dtype)
    if name not in _DTYPES:
        raise TypeError("unsupported dtype %s" % name)
    return _DTYPES[name]


def _scalar(v: Any, p: L.ParamInfo, what: str, keep: list) -> L.PtxArg:
    import numpy as np

    if isinstance(v, (bytes, bytearray, memoryview)):
        b = bytes(v)
        if len(b) != p.size:
            raise ValueError("%s: %d bytes given for the %d-byte parameter %s"
                             % (what, len(b), p.size, L.s(p.name)))
        if len(b) in (1, 2, 4, 8) and p.count == 1:
            return L.PtxArg(None, 0, int.from_bytes(b, "little"), len(b))
        # a by-value struct (.param .align A .b8 p[N]): its bytes as they are
        raw = ctypes.create_string_buffer(b, len(b))
        keep.append(raw)
        return L.PtxArg(None, 0, 0, len(b), ctypes.cast(raw, ctypes.c_void_p))
    if isinstance(v, np.generic):
        arr = np.asarray(v)
    elif isinstance(v, bool):
        arr = np.asarray(int(v), dtype="u%d" % max(1, p.size))
    elif isinstance(v, int):
        kind = p.kind.decode()
        bits = p.bits if p.bits in (8, 16, 32, 64) else 8 * p.size
        if kind == "f":
            raise TypeError("%s: int given for the float parameter %s"
                            % (what, L.s(p.name)))
        signed = kind == "s" or (kind == "b" and v < 0)
        lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed
                  else (0, (1 << bits) - 1))
        if not lo <= v <= hi:
            raise ValueError("%s: %d does not fit the %s parameter %s"
                             % (what, v, L.s(p.type), L.s(p.name)))
        arr = np.asarray(v, dtype=("i%d" if signed else "u%d") % (bits // 8))
    elif isinstance(v, float):
        if p.kind.decode() not in "fb" or p.size not in (2, 4, 8):
            raise TypeError("%s: float given for the %s parameter %s"
                            % (what, L.s(p.type), L.s(p.name)))
        arr = np.asarray(v, dtype="f%d" % p.size)
    else:
        raise TypeError("%s: expected a numpy array, a CPU torch tensor, a "
                        "scalar or bytes, got %s" % (what, type(v).__name__))
    t = L.PTX_TYPES.index(_elem_name(arr))
    err = ctypes.create_string_buffer(200)
    if not lib.wm_ptx_param_accepts_scalar(ctypes.byref(p), t, err, 200):
        raise TypeError("%s: %s" % (what, err.value.decode()))
    return L.PtxArg(None, 0, int.from_bytes(arr.tobytes(), "little"),
                    arr.itemsize)


def _buffer(arr, p: L.ParamInfo, what: str, keep: list) -> L.PtxArg:
    err = ctypes.create_string_buffer(200)
    # a parameter the PTX declares .ptr (Triton does) is a pointer whatever
    # the library's use scan concludes (the scan is flow-insensitive and
    # follows only moves, 64-bit add/sub and mad.wide onto a base)
    if not p.declared_ptr and \
            not lib.wm_ptx_param_accepts_buffer(ctypes.byref(p), err, 200):
        raise TypeError("%s: %s" % (what, err.value.decode()))
    if arr.nbytes == 0:  # a buffer needs an address; nothing is inside it
        dummy = ctypes.create_string_buffer(1)
        keep.append(dummy)
        return L.PtxArg(ctypes.addressof(dummy), 0, 0, 0)
    keep.append(arr)
    return L.PtxArg(arr.ctypes.data, arr.nbytes, 0, 0)


def _numba_field(arr, role: str, p: L.ParamInfo, what: str,
                 keep: list) -> L.PtxArg:
    """One of numba's flattened array parameters (role "argN.FIELD")."""
    field = role.split(".", 1)[1]
    if field == "data":
        if p.elem != -1 and 0 <= p.elem < 12 and \
                L.PTX_TYPES[p.elem] != _elem_name(arr):
            raise TypeError("%s: a %s array given for a %s array parameter"
                            % (what, arr.dtype, L.PTX_TYPES[p.elem]))
        return _buffer(arr, p, what, keep)
    if field in ("meminfo", "parent"):
        v = 0
    elif field == "nitems":
        v = arr.size
    elif field == "itemsize":
        v = arr.itemsize
    else:
        kind, idx = field.rstrip("]").split("[")
        idx = int(idx)
        if idx >= arr.ndim:
            raise ValueError("%s: a %d-D array given for a parameter of more "
                             "dimensions" % (what, arr.ndim))
        v = arr.shape[idx] if kind == "shape" else arr.strides[idx]
    return L.PtxArg(None, 0, v & (2**64 - 1), p.size)


def _ctas(ctas: Any) -> tuple[int, int, int]:
    if ctas == "all" or ctas is None:
        return 0, 0, 0
    if isinstance(ctas, str):
        kind, _, rest = ctas.partition(":")
        try:
            if kind == "first":
                return 1, int(rest), 0
            if kind == "sample":
                n, _, seed = rest.partition(",")
                return 2, int(n), int(seed or 1)
        except ValueError:
            pass
    raise ValueError("ctas: %r is not 'all', 'first:N' or 'sample:K[,SEED]'"
                     % (ctas,))


def run_ptx(ptx: "str | bytes | os.PathLike", kernel: str | None = None,
            grid: "int | Sequence[int]" = 1,
            block: "int | Sequence[int]" = 32,
            args: Sequence[Any] = (), smem: int = 0,
            arch: str | None = None, ctas: str = "all",
            max_steps: int = 100_000_000, threads: int = 0,
            explain: bool = True, raise_on_fault: bool = True,
            text_format: str = "text",
            cluster: "int | Sequence[int] | None" = None,
            cluster_nonportable: bool = False) -> Report:
    """Interpret ``kernel`` of a PTX module on the CPU and report its memory
    traffic per source line.

    ptx
        PTX text, bytes, or the path of a .ptx file.
    kernel
        Entry name, demangled name or its prefix (None: the only kernel).
    args
        One per source-level argument (Triton's scratch pointers and
        numba's array fields are filled from the signature; passing every
        PTX parameter also works): numpy arrays or CPU torch tensors for
        pointers (the kernel reads and writes them in place), Python/numpy
        scalars, or bytes for parameters passed by value.
    arch
        Profile name; None takes it from the module's ``.target``.
    ctas
        "all", "first:N" or "sample:K[,SEED]".
    cluster
        CTAs per thread-block cluster, as for grid (None: the kernel's
        ``.reqnctapercluster``, else clusters of one); more than 8 needs
        ``cluster_nonportable=True``.
    raise_on_fault
        A fault raises KernelFault (default); False returns the report of
        the work before it with ``faults`` filled.
    text_format
        What ``str(report)`` holds: the library's "text" or "csv" report.
    """
    mod = _Module(ptx)
    k = mod.find(kernel)
    kern, params = mod.describe(k)
    target = L.s(lib.wm_ptx_target(mod.m))
    if arch is None:
        ta = lib.wm_arch_for_target(target.encode())
        if ta:
            a = L.Arch()
            ctypes.memmove(ctypes.byref(a), ta, ctypes.sizeof(a))
            note = "%s (from .target %s)" % (a.name.decode(), target)
        else:
            a = _arch(None)
            note = "%s (default: %s)" % (a.name.decode(), "no profile for "
                                         "the .target" if target else
                                         "no .target")
    else:
        a = _arch(arch)
        note = "%s (arch=%r)" % (a.name.decode(), arch)
    gd, bd = _dims(grid, "grid"), _dims(block, "block")
    if not isinstance(smem, int) or smem < 0:
        raise ValueError("smem: expected a byte count >= 0, got %r" % (smem,))
    args = list(args)
    n = len(params)
    per_param = len(args) == n and len(args) != kern.ngroups
    if len(args) != kern.ngroups and not per_param:
        raise TypeError("args: %s takes %d arguments, %d given" % (
            kern.signature, kern.ngroups, len(args)))
    keep: list = []
    back: list = []
    arr_of: dict[int, Any] = {}
    cargs = (L.PtxArg * max(n, 1))()
    for i, p in enumerate(params):
        g = i if per_param else p.group
        role = L.s(p.role)
        what = "args[%d]" % g
        if g < 0:  # Triton's scratch pointers: null unless asked for
            cargs[i] = L.PtxArg(None, 0, 0, p.size)
            continue
        v = args[g]
        conv = arr_of.get(g)
        if conv is None:
            try:
                conv = _as_array(v)
            except ValueError as e:
                raise ValueError("%s: %s" % (what, e)) from None
            if conv is not None:
                arr_of[g] = conv
                if conv[1]:
                    back.append(conv[1])
        if kern.origin == "numba" and "." in role and not per_param:
            if conv is None:
                raise TypeError("%s: numba array parameter %s needs a numpy "
                                "array, got %s" % (what, role,
                                                   type(v).__name__))
            try:
                _elem_name(conv[0])
            except TypeError as e:
                raise TypeError("%s: %s" % (what, e)) from None
            cargs[i] = _numba_field(conv[0], role, p, what, keep)
        elif conv is not None:
            cargs[i] = _buffer(conv[0], p, what, keep)
        elif v is None:
            cargs[i] = L.PtxArg(None, 0, 0, p.size)
        else:
            cargs[i] = _scalar(v, p, what, keep)
    if text_format not in ("text", "csv"):
        raise ValueError("text_format: %r is not 'text' or 'csv'"
                         % (text_format,))
    ct, cn, seed = _ctas(ctas)
    lch = L.Launch()
    lch.grid[:] = gd
    lch.block[:] = bd
    lch.dyn_smem = smem
    lch.args = cargs
    lch.nargs = n
    lch.ctas, lch.ctas_n, lch.seed = ct, cn, seed
    lch.max_steps = int(max_steps)
    lch.threads = int(threads)
    if cluster is not None:
        lch.cluster[:] = _dims(cluster, "cluster")
    lch.cluster_nonportable = int(bool(cluster_nonportable))
    g = lib.wm_agg_new(ctypes.byref(a))
    if not g:
        raise MemoryError("warpmem: out of memory")
    try:
        res, ft = L.Result(), L.Fault()
        st = lib.wm_ptx_run(mod.m, k, ctypes.byref(lch), g, ctypes.byref(res),
                            ctypes.byref(ft))
        for wb in back:
            wb()
        if st == L.WM_ERR_ARG:
            raise ValueError("launch: %s" % ft.msg.decode())
        faulted = st in (L.WM_ERR_FAULT, L.WM_ERR_LIMIT, L.WM_ERR_UNSUPPORTED)
        if st != L.WM_OK and not faulted:
            raise RuntimeError("warpmem: run: %s" % L.status_str(st))
        hint = b""
        if faulted and not smem and kern.dyn_smem and \
                b"out-of-bounds shared" in ft.msg:
            hint = b"; the kernel uses dynamic shared memory: pass smem=BYTES"
        ro = L.ReportOpts()
        ro.format = L.FMT_JSON
        ro.width = 100
        ro.draw_top = 2
        ro.ptx_path = mod.path.encode()
        ro.kernel = kern.display.encode()
        ro.res = ctypes.pointer(res)
        ro.explain = 1 if explain else 0
        ro.arch = note.encode()
        ro.fault = ctypes.pointer(ft) if faulted else None
        ro.fault_hint = hint
        ro.command = ("warpmem.run_ptx(%s, kernel=%r, grid=%s, block=%s)" % (
            os.path.basename(mod.path), kern.display, gd, bd)).encode()
        ln = ctypes.c_size_t()
        js = L.take_string(lib.wm_ptx_report_string(
            mod.m, g, ctypes.byref(ro), 0, ctypes.byref(ln)), ln.value)
        ro.format = L.FMT_CSV if text_format == "csv" else L.FMT_TEXT
        txt = L.take_string(lib.wm_ptx_report_string(
            mod.m, g, ctypes.byref(ro), 0, ctypes.byref(ln)), ln.value)
        html = L.take_string(lib.wm_ptx_report_string(
            mod.m, g, ctypes.byref(ro), 1, ctypes.byref(ln)), ln.value)
    finally:
        lib.wm_agg_free(g)
    rep = Report(json.loads(js), html=html, text=txt)
    if faulted and raise_on_fault:
        raise KernelFault(rep.faults[0], rep)
    return rep
