"""run_ptx: interpret a PTX kernel on the CPU through libwarpmem.

The kernel's signature (which parameters Triton or numba added, which are
pointers) comes from the library (wm_ptx_kernel_describe); arguments are
given per source-level argument and mapped onto the PTX parameters here."""
from __future__ import annotations

import ctypes
import json
import os
import re
from typing import Any, Sequence

from . import _lib as L
from ._lib import lib
from . import _checks as C
from ._arrays import DeviceArray, as_device_array
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
            raise self.error(d)

    def error(self, d: L.Diag) -> ValueError:
        """The parse error d as "ptx: FILE:LINE:COL: message"."""
        lib.wm_diag_locate(ctypes.byref(d), self.text, len(self.text))
        return ValueError("ptx: %s:%d:%d: %s" % (self.path, d.line, d.col,
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


def _elem_name(arr) -> str:
    name = arr.dtype if isinstance(arr, DeviceArray) else str(arr.dtype)
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


def _buffer(da: DeviceArray, p: L.ParamInfo, what: str,
            bind: "_Binding") -> L.PtxArg:
    err = ctypes.create_string_buffer(200)
    # a parameter the PTX declares .ptr (Triton does) is a pointer whatever
    # the library's use scan concludes (the scan is flow-insensitive and
    # follows only moves, 64-bit add/sub and mad.wide onto a base)
    if not p.declared_ptr and \
            not lib.wm_ptx_param_accepts_buffer(ctypes.byref(p), err, 200):
        raise TypeError("%s: %s" % (what, err.value.decode()))
    return bind.pointer(da)


def _numba_field(arr: DeviceArray, role: str, p: L.ParamInfo, what: str,
                 bind: "_Binding") -> L.PtxArg:
    """One of numba's flattened array parameters (role "argN.FIELD")."""
    field = role.split(".", 1)[1]
    if field == "data":
        if p.elem != -1 and 0 <= p.elem < 12 and \
                L.PTX_TYPES[p.elem] != _elem_name(arr):
            raise TypeError("%s: a %s array given for a %s array parameter"
                            % (what, arr.dtype, L.PTX_TYPES[p.elem]))
        return _buffer(arr, p, what, bind)
    if field in ("meminfo", "parent"):
        v = 0
    elif field == "nitems":
        v = arr.size
    elif field == "itemsize":
        v = arr.itemsize
    else:
        kind, idx = field.rstrip("]").split("[")
        idx = int(idx)
        if idx >= len(arr.shape):
            raise ValueError("%s: a %d-D array given for a parameter of more "
                             "dimensions" % (what, len(arr.shape)))
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


class _Binding:
    """The device memory of a launch: array arguments whose view is their
    whole allocation are the parameter's own buffer; every other one lives
    in an extra buffer holding its whole allocation (one per allocation, so
    views of one buffer alias as on a GPU) and the parameter is the
    address of its first element in it."""

    def __init__(self, nparams: int):
        self.nparams = nparams
        self.keep: list = []
        self.extra: list = []      # DeviceArray roots, by extra index
        self._extra_of: dict = {}  # (address, bytes) -> extra index
        self.param = -1            # the parameter being bound
        self.scratch = 0           # bytes of Triton's global scratch
        self.group = -1
        # library buffer index -> [(group, DeviceArray)]
        self.buffers: dict[int, list] = {}

    def pointer(self, da: DeviceArray) -> L.PtxArg:
        self.keep.append(da)
        if da.nbytes == 0:  # a buffer needs an address; nothing is inside
            dummy = ctypes.create_string_buffer(1)
            self.keep.append(dummy)
            self.buffers.setdefault(self.param, []).append((self.group, da))
            return L.PtxArg(ctypes.addressof(dummy), 0, 0, 0)
        if da.whole:
            self.buffers.setdefault(self.param, []).append((self.group, da))
            return L.PtxArg(da.root_addr, da.nbytes, 0, 0)
        key = (da.root_addr, da.nbytes)
        j = self._extra_of.get(key)
        if j is None:
            j = self._extra_of[key] = len(self.extra)
            self.extra.append(da)
        b = self.nparams + j
        if all(g != self.group for g, _ in self.buffers.get(b, [])):
            self.buffers.setdefault(b, []).append((self.group, da))
        addr = lib.wm_ptx_extra_address(self.nparams, j) + da.offset
        return L.PtxArg(None, 0, addr, 8)

    def extra_args(self):
        ex = (L.PtxArg * max(len(self.extra), 1))()
        for j, da in enumerate(self.extra):
            ex[j] = L.PtxArg(da.root_addr, da.nbytes, 0, 0)
        return ex, len(self.extra)

    def where(self, names: Sequence[str], buf: int, byte: int,
              containing: bool = False
              ) -> tuple["str | None", "tuple | None", str]:
        """(argument name, element index or None, words) of byte ``byte``
        of library buffer ``buf`` (containing: of the element holding
        it)."""
        cands = self.buffers.get(buf)
        if not cands:
            return None, None, ""
        # the argument whose view holds an element there, else the first
        for g, da in cands:
            if da.index_of(byte) is not None:
                break
            if containing and da.index_of(_floor(da, byte)) is not None:
                byte = _floor(da, byte)
                break
        else:
            g, da = cands[0]
        idx, words = da.describe(byte)
        return names[g], idx, words


def _floor(da: DeviceArray, byte: int) -> int:
    """The first byte of the element slot holding ``byte``."""
    return byte - (byte - da.offset) % da.itemsize


def _name_schedules(doc: dict, bind: _Binding, names: Sequence[str]) -> None:
    """Name the argument and element whose bytes differ between schedules
    (check="schedules")."""
    sc = doc.get("schedules")
    if not sc or not sc.get("differs") or "argument" not in sc:
        return
    name, idx, words = bind.where(names, sc["argument"], sc.get("byte", 0),
                                  containing=True)
    if name is not None:
        sc["name"], sc["index"], sc["element_name"] = name, idx, name + words


def _pick_arch(mod: _Module, arch: "str | None") -> tuple[L.Arch, str]:
    """The profile and its note, by the rule every command follows
    (wm_ptx_pick_arch): ``arch`` when given, else the module's .target,
    else the default profile."""
    given = _arch(arch) if arch is not None else None
    out = L.Arch()
    note = ctypes.create_string_buffer(96)
    given_ref = ctypes.byref(given) if given is not None else None
    lib.wm_ptx_pick_arch(mod.m, given_ref, ("arch=%r" % arch).encode(),
                         ctypes.byref(out), note, len(note))
    return out, note.value.decode()


def _bind(kern: Kernel, params: list, args: list, names: Sequence[str],
          bind: _Binding):
    """The PTX parameters from the source-level arguments; returns them
    and per parameter its element size (0: not an array)."""
    n = len(params)
    per_param = len(args) == n and len(args) != kern.ngroups
    if len(args) != kern.ngroups and not per_param:
        raise TypeError("args: %s takes %d arguments, %d given" % (
            kern.signature, kern.ngroups, len(args)))
    arr_of: dict[int, Any] = {}
    cargs = (L.PtxArg * max(n, 1))()
    elem = [0] * n
    for i, p in enumerate(params):
        g = i if per_param else p.group
        role = L.s(p.role)
        if g < 0:  # Triton's scratch pointers: null unless asked for
            if role == "global_scratch" and bind.scratch:
                # zeroed, as a launcher's allocation (device-side tensor
                # descriptors are built there)
                import numpy as np

                buf = np.zeros(bind.scratch, np.uint8)
                bind.keep.append(buf)
                cargs[i] = L.PtxArg(buf.ctypes.data, buf.nbytes, 0, p.size)
            else:
                cargs[i] = L.PtxArg(None, 0, 0, p.size)
            continue
        what = names[g]
        v = args[g]
        if g not in arr_of:
            try:
                arr_of[g] = as_device_array(v)
            except (ValueError, TypeError) as e:
                raise type(e)("%s: %s" % (what, e)) from None
        da = arr_of[g]
        bind.param, bind.group = i, g
        if kern.origin == "numba" and "." in role and not per_param:
            if da is None:
                raise TypeError("%s: numba array parameter %s needs an "
                                "array, got %s" % (what, role,
                                                   type(v).__name__))
            try:
                _elem_name(da)
            except TypeError as e:
                raise TypeError("%s: %s" % (what, e)) from None
            cargs[i] = _numba_field(da, role, p, what, bind)
        elif da is not None:
            cargs[i] = _buffer(da, p, what, bind)
        elif v is None:
            cargs[i] = L.PtxArg(None, 0, 0, p.size)
        else:
            cargs[i] = _scalar(v, p, what, bind.keep)
        if da is not None:
            elem[i] = da.itemsize
    return cargs, elem, per_param


def _name_fault(fault: dict, bind: _Binding, names: Sequence[str]) -> None:
    """Add argument / index / element to a global memory fault and say them
    in its message."""
    b = fault.get("buffer")
    if isinstance(b, dict):
        buf, off = b.get("argument", -1), b.get("offset", 0)
    elif fault.get("space") == "global" and fault.get("address"):
        # a fault without a buffer (misaligned): the window of the address
        addr = fault["address"]
        buf, off = (addr >> 40) - 1, addr & ((1 << 40) - 1)
    else:
        return
    name, idx, words = bind.where(names, buf, off)
    if name is None:
        return
    fault["argument"] = name
    fault["index"] = idx
    fault["element"] = name + words
    # the library numbers PTX parameters and extra buffers; say the name
    msg = re.sub(r"the buffer of (argument|extra) \d+ ", "the buffer of %s "
                 % name.replace("\\", "\\\\"), fault["message"])
    fault["message"] = msg + ": " + name + words


def run_ptx(ptx: "str | bytes | os.PathLike", kernel: str | None = None,
            grid: "int | Sequence[int]" = 1,
            block: "int | Sequence[int]" = 32,
            args: Sequence[Any] = (), smem: int = 0,
            arch: str | None = None, ctas: str = "all",
            max_steps: int = 100_000_000, threads: int = 0,
            explain: bool = True, raise_on_fault: bool = True,
            text_format: str = "text", check: "str | None" = None,
            cache: "bool | str" = False, regs: int = 0,
            sms: "int | None" = None, uninit: Sequence[Any] = (),
            on_hazard: str = "warn", on_fault: "str | None" = None,
            names: "Sequence[str] | None" = None,
            cluster: "int | Sequence[int] | None" = None,
            cluster_nonportable: bool = False, scratch: int = 0,
            cooperative: bool = False, schedule: str = "in-order",
            max_total_steps: int = 0,
            symbols: "dict[str, Any] | None" = None) -> Report:
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
        pointers (the kernel reads and writes them in place, at the
        addresses a GPU launch would give them: a view points into its
        base buffer with its own strides), Python/numpy scalars, or bytes
        for parameters passed by value.
    arch
        Profile name; None takes it from the module's ``.target``.
    ctas
        "all", "first:N" or "sample:K[,SEED]".
    check
        "race", "init", "schedules", "all" or a comma list of them (the
        CLI's ``--check``): the hazards go to ``Report.hazards``.
    schedule
        The order of ready warps between barriers (the CLI's
        ``--schedule``): "in-order" (default), "reverse" or "random:SEED"
        (a fresh permutation each round): other orders a race needs to
        show, with or without ``check`` (with it, the reported run is this
        one, ``Report.schedules["other"]`` the one compared with).
    symbols
        The module's ``__device__`` / ``__constant__`` variables by PTX
        name, each a C-contiguous numpy array (the CLI's ``--global``,
        ``cudaMemcpyToSymbol``): its bytes are copied into the variable
        before the run (at most the variable's size) and, when the array
        is writable, the variable's bytes back into it after
        (``cudaMemcpyFromSymbol``).
    max_steps, max_total_steps
        Warp-instruction budgets of one CTA and of the whole launch (the
        CLI's ``--max-steps`` and ``--max-total-steps``; 0: no launch
        budget): past one the run stops with a fault.
    cache
        True (the profile's GPU) or a GPU name ("H200", "A100" ...): run
        the cache hierarchy model; ``Report.hierarchy``.  regs: registers
        per thread for occupancy; sms: SMs the CTAs are placed on.
    uninit
        Arguments (indices or names) whose bytes start uninitialised, for
        ``check="init"``.
    on_hazard, on_fault
        "raise", "warn" or "ignore": a hazard is a HazardWarning by
        default (HazardError with "raise"); a fault raises KernelFault by
        default ("warn": a KernelFaultWarning and the report of the work
        before it; raise_on_fault=False is on_fault="ignore").
    names
        What errors, faults and hazards call each argument (default
        "args[i]"; Triton and numba pass their parameter names).
    cluster
        CTAs per thread-block cluster, as for grid (None: the kernel's
        ``.reqnctapercluster``, else clusters of one); more than 8 needs
        ``cluster_nonportable=True``.
    text_format
        What ``str(report)`` holds: the library's "text" or "csv" report.
    scratch
        Bytes of zeroed memory for Triton's ``global_scratch`` pointer
        (the launch's whole allocation; 0: null, as when the kernel asks
        for none).
    cooperative
        A cooperative launch (``cudaLaunchCooperativeKernel``, the CLI's
        ``--cooperative``): every CTA runs at once, so cooperative groups'
        ``grid.sync()`` works; at most 4224 CTAs and 270336 threads, not
        with ``cache``, clusters or sampled ``ctas``; with ``check`` up to
        1024 warps and 16 MiB of shared memory in the grid.
    """
    on_hazard = C.action("on_hazard", on_hazard)
    on_fault = C.action("on_fault", on_fault if on_fault is not None else
                        "raise" if raise_on_fault else "ignore")
    if text_format not in ("text", "csv"):
        raise ValueError("text_format: %r is not 'text' or 'csv'"
                         % (text_format,))
    bits = C.parse_checks(check)
    sched = C.parse_schedule(schedule)
    if not isinstance(max_total_steps, int) or max_total_steps < 0:
        raise ValueError("max_total_steps: expected a count >= 0, got %r"
                         % (max_total_steps,))
    mod = _Module(ptx)
    k = mod.find(kernel)
    kern, params = mod.describe(k)
    a, note = _pick_arch(mod, arch)
    gd, bd = _dims(grid, "grid"), _dims(block, "block")
    if not isinstance(smem, int) or smem < 0:
        raise ValueError("smem: expected a byte count >= 0, got %r" % (smem,))
    args = list(args)
    n = len(params)
    names = list(names) if names is not None else []
    names += ["args[%d]" % i for i in range(len(names), max(len(args), n))]
    bind = _Binding(n)
    if not isinstance(scratch, int) or scratch < 0:
        raise ValueError("scratch: expected a byte count >= 0, got %r"
                         % (scratch,))
    bind.scratch = scratch
    cargs, elem, per_param = _bind(kern, params, args, names, bind)
    ct, cn, seed = _ctas(ctas)
    groups = _uninit(uninit, names)
    un = [1 if (i if per_param else p.group) in groups else 0
          for i, p in enumerate(params)]
    # the extra buffers (views in their allocations) after the parameters
    for j in range(len(bind.extra)):
        users = [g for g, _ in bind.buffers.get(n + j, [])]
        un.append(1 if any(g in groups for g in users) else 0)
        elem.append(bind.extra[j].itemsize)
    chk = C.new_check(bits, elem, un, bind.keep, sched)
    syms = _symbols(mod, symbols, bind.keep)  # (before the cache: raises)
    cch = C.new_cache(cache, a, bd[0] * bd[1] * bd[2],
                      lib.wm_ptx_kernel_smem(mod.m, k, smem), regs, sms)
    lch = L.Launch()
    lch.grid[:] = gd
    lch.block[:] = bd
    lch.dyn_smem = smem
    lch.args = cargs
    lch.nargs = n
    lch.extra, lch.nextra = bind.extra_args()
    lch.ctas, lch.ctas_n, lch.seed = ct, cn, seed
    lch.max_steps = int(max_steps)
    lch.max_total_steps = max_total_steps
    lch.globals, lch.nglobals = syms
    lch.threads = int(threads)
    lch.cache = cch
    lch.check = ctypes.cast(ctypes.pointer(chk), ctypes.c_void_p) \
        if chk else None
    if cluster is not None:
        lch.cluster[:] = _dims(cluster, "cluster")
    lch.cluster_nonportable = int(bool(cluster_nonportable))
    lch.cooperative = int(bool(cooperative))
    g = lib.wm_agg_new(ctypes.byref(a))
    if not g:
        lib.wm_cache_free(cch)
        raise MemoryError("warpmem: out of memory")
    try:
        res, ft = L.Result(), L.Fault()
        st = lib.wm_ptx_run(mod.m, k, ctypes.byref(lch), g, ctypes.byref(res),
                            ctypes.byref(ft))
        if st == L.WM_ERR_ARG:
            raise ValueError("launch: %s" % ft.msg.decode())
        faulted = st in (L.WM_ERR_FAULT, L.WM_ERR_LIMIT, L.WM_ERR_UNSUPPORTED)
        if st != L.WM_OK and not faulted:
            raise RuntimeError("warpmem: run: %s" % L.status_str(st))
        js, txt, html = _reports(mod, g, kern, res, ft if faulted else None,
                                 note, gd, bd, explain, text_format, smem,
                                 lch)
    finally:
        lib.wm_agg_free(g)
        if chk:
            lib.wm_ptx_check_clear(ctypes.byref(chk))
        lib.wm_cache_free(cch)
    doc = json.loads(js)
    if doc.get("fault"):
        _name_fault(doc["fault"], bind, names)
    _name_schedules(doc, bind, names)
    rep = Report(doc, html=html, text=txt,
                 where=lambda b, o: bind.where(names, b, o))
    if faulted and on_fault != "ignore":
        if on_fault == "raise":
            raise KernelFault(rep.faults[0], rep)
        import warnings
        warnings.warn(str(KernelFault(rep.faults[0], rep)),
                      C.KernelFaultWarning, stacklevel=2)
    C.warn_or_raise(rep.hazards or [], on_hazard, rep)
    return rep


def _symbols(mod: _Module, symbols: "dict[str, Any] | None", keep: list):
    """symbols= as a wm_ptx_global array and its count (None, 0: none)."""
    import numpy as np
    if not symbols:
        return None, 0
    if not isinstance(symbols, dict):
        raise TypeError("symbols: expected a dict of name -> numpy array, "
                        "got %r" % (type(symbols).__name__,))
    gs = (L.PtxGlobal * len(symbols))()
    for g, (name, arr) in zip(gs, symbols.items()):
        if not isinstance(arr, np.ndarray) or not arr.flags.c_contiguous:
            raise TypeError("symbols[%r]: expected a C-contiguous numpy "
                            "array, got %r" % (name, type(arr).__name__))
        size = lib.wm_ptx_global_size(mod.m, str(name).encode())
        if size < 0:
            raise ValueError("symbols: no __device__ or __constant__ "
                             "variable %r in the module" % (name,))
        if arr.nbytes > size:
            raise ValueError("symbols[%r]: %d bytes for a variable of %d"
                             % (name, arr.nbytes, size))
        g.name = str(name).encode()
        g.init = arr.ctypes.data
        g.out = arr.ctypes.data if arr.flags.writeable else None
        g.bytes = arr.nbytes
        keep += [g.name, arr]
    keep.append(gs)
    return ctypes.cast(gs, ctypes.c_void_p), len(symbols)


def _uninit(uninit: Sequence[Any], names: Sequence[str]) -> set[int]:
    """The argument indices uninit names (indices or names)."""
    groups = set()
    for u in uninit:
        if isinstance(u, int) and not isinstance(u, bool):
            groups.add(u)
        elif u in names:
            groups.add(names.index(u))
        else:
            raise ValueError("uninit: %r is neither an argument index nor "
                             "one of %s" % (u, ", ".join(names)))
    return groups


def _reports(mod: _Module, g: int, kern: Kernel, res: L.Result,
             ft: "L.Fault | None", note: str, gd, bd, explain: bool,
             text_format: str, smem: int, lch: L.Launch):
    """The JSON document, the text (or CSV) and the HTML report."""
    hint = b""
    if ft is not None and not smem and kern.dyn_smem and \
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
    ro.fault = ctypes.pointer(ft) if ft is not None else None
    ro.fault_hint = hint
    ro.check = lch.check
    ro.cache = lch.cache if ft is None else None
    ro.grid[:] = gd
    ro.block[:] = bd
    ro.command = ("warpmem.run_ptx(%s, kernel=%r, grid=%s, block=%s)" % (
        os.path.basename(mod.path), kern.display, gd, bd)).encode()
    ln = ctypes.c_size_t()
    out = []
    for fmt, html in ((L.FMT_JSON, 0), (L.FMT_CSV if text_format == "csv"
                                        else L.FMT_TEXT, 0), (L.FMT_JSON, 1)):
        ro.format = fmt
        out.append(L.take_string(lib.wm_ptx_report_string(
            mod.m, g, ctypes.byref(ro), html, ctypes.byref(ln)), ln.value))
    return out
