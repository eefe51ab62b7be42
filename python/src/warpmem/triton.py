"""Analyse a ``@triton.jit`` kernel on the CPU: compile it to PTX for a
target without a GPU, run the PTX in libwarpmem with numpy arrays (or CPU
torch tensors) as its buffers, and report per line of the Python source."""
from __future__ import annotations

import inspect
import os
from typing import Any, Callable, Sequence

import numpy as np

from ._arrays import as_device_array
from .core import Report, _arch
from .ptx import run_ptx

__all__ = ["analyze", "compile_ptx", "signature_of"]

_PTR = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16",
        "float64": "fp64", "int8": "i8", "int16": "i16", "int32": "i32",
        "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
        "uint64": "u64", "bool": "i1",
        # torch's and ml_dtypes' names for the two fp8 formats
        "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5"}


def _dtype_name(v: Any) -> str | None:
    """The element type of an array argument (numpy, torch or any object
    of the array protocols), None for a scalar."""
    if isinstance(v, np.ndarray):
        return str(v.dtype)
    da = as_device_array(v)
    return da.dtype if da is not None else None


def _sig(name: str, v: Any) -> tuple[str, Any]:
    """Triton type string for one runtime argument, and the value to pass."""
    dt = _dtype_name(v)
    if dt is not None:
        if dt not in _PTR:
            raise TypeError("%s: unsupported dtype %s" % (name, dt))
        return "*" + _PTR[dt], v
    if isinstance(v, bool):
        return "i1", np.uint8(v)
    if isinstance(v, int):
        if -2**31 <= v < 2**31:
            return "i32", np.int32(v)
        if -2**63 <= v < 2**63:
            return "i64", np.int64(v)
        raise ValueError("%s: %d does not fit 64 bits" % (name, v))
    if isinstance(v, np.generic):
        dt = str(v.dtype)
        if dt not in _PTR:
            raise TypeError("%s: unsupported scalar type %s" % (name, dt))
        return _PTR[dt], v
    if isinstance(v, float):
        return "fp32", np.float32(v)
    raise TypeError("%s: expected a numpy array, a CPU torch tensor or a "
                    "scalar, got %s" % (name, type(v).__name__))


def signature_of(jit_fn: Any, args: Sequence[Any], constexprs: dict,
                 types: "dict[str, str] | None" = None
                 ) -> tuple[dict, dict, list]:
    """Bind positional args and constexpr keywords to the kernel's
    parameters.  types: Triton type strings that replace the ones the
    arguments imply, by parameter name (``{"a_ptr": "*fp8e4nv"}`` for fp8
    bytes held in a uint8 array, numpy having no fp8 dtype).  Returns
    (signature, constexprs, runtime values in order)."""
    params = getattr(jit_fn, "params", None)
    names = getattr(jit_fn, "arg_names", None)
    if params is None or names is None:
        raise TypeError("jit_fn: expected a @triton.jit function, got %s"
                        % type(jit_fn).__name__)
    kw = dict(constexprs)
    unknown = sorted(set(kw) - set(names))
    if unknown:
        raise TypeError("%s: not a parameter of %s" % (
            ", ".join(unknown), getattr(jit_fn, "__name__", "the kernel")))
    if len(args) > len(names):
        raise TypeError("args: %s takes %d parameters, %d given"
                        % (names and jit_fn.__name__, len(names), len(args)))
    sig, consts, values = {}, {}, []
    for i, (p, name) in enumerate(zip(params, names)):
        if i < len(args):
            if name in kw:
                raise TypeError("%s: given by position and by keyword" % name)
            v = args[i]
        elif name in kw:
            v = kw.pop(name)
        elif getattr(p, "default", inspect.Parameter.empty) is not \
                inspect.Parameter.empty:
            v = p.default
        else:
            raise TypeError("%s: missing argument" % name)
        if p.is_constexpr:
            sig[name] = "constexpr"
            consts[name] = v
        else:
            sig[name], val = _sig(name, v)
            values.append(val)
    if kw:
        raise TypeError("%s: not a parameter of %s" % (
            ", ".join(sorted(kw)), getattr(jit_fn, "__name__", "the kernel")))
    for name, t in (types or {}).items():
        if sig.get(name, "constexpr") == "constexpr":
            raise TypeError("types: %s is not a runtime parameter of %s" % (
                name, getattr(jit_fn, "__name__", "the kernel")))
        if sig[name].startswith("*") != t.startswith("*"):
            raise TypeError("types: %s is %s, %s given" % (
                name, "a pointer" if sig[name].startswith("*")
                else "a scalar", t))
        sig[name] = t
    return sig, consts, values


def runtime_names(jit_fn: Any) -> list[str]:
    """The names of the kernel's parameters that are not constexprs, in
    order (what the PTX's parameters stand for)."""
    return [n for p, n in zip(jit_fn.params, jit_fn.arg_names)
            if not p.is_constexpr]


def compile_ptx(jit_fn: Any, *args: Any, num_warps: int = 4,
                num_stages: int | None = None, arch: str = "sm_90",
                align: bool = True, num_ctas: int = 1,
                types: "dict[str, str] | None" = None, **constexprs: Any
                ) -> tuple[str, Any, list, dict]:
    """Compile for ``arch`` without a GPU.  align: specialise pointers and
    multiples of 16 as divisible by 16, as Triton's launcher does.
    num_ctas: Triton's CTAs per program (a cluster of that many on sm_90).
    types: see signature_of.  Returns (ptx text, Triton's metadata,
    runtime argument values, constexprs)."""
    import triton
    from triton.backends.compiler import GPUTarget

    a = _arch(arch)
    if not a.sm:
        raise ValueError("arch: %s is not an NVIDIA profile" % arch)
    sig, consts, values = signature_of(jit_fn, args, constexprs, types)
    # What Triton's launcher tells the compiler on a GPU: pointers whose
    # address is a multiple of 16 (the interpreter's allocations start on
    # aligned windows, so a view is aligned when its offset in its
    # allocation is) and integers that are multiples of 16 are divisible
    # by 16.  This enables vector loads and cp.async as on the device.
    attrs = {}
    if align:
        vi = 0
        for i, name in enumerate(jit_fn.arg_names):
            t = sig[name]
            if t == "constexpr":
                continue
            v = values[vi]
            vi += 1
            if t.startswith("*"):
                da = as_device_array(v)
                if da is None or da.offset % 16 == 0:
                    attrs[(i,)] = [["tt.divisibility", 16]]
            elif t in ("i32", "i64") and int(v) % 16 == 0:
                attrs[(i,)] = [["tt.divisibility", 16]]
    src = triton.compiler.ASTSource(fn=jit_fn, signature=sig,
                                    constexprs=consts, attrs=attrs)
    opts = {"num_warps": int(num_warps)}
    if int(num_ctas) != 1:
        opts["num_ctas"] = int(num_ctas)
    if num_stages is not None:
        opts["num_stages"] = int(num_stages)
    k = triton.compile(src, target=GPUTarget("cuda", int(a.sm), 32),
                       options=opts)
    return _here(k.asm["ptx"], jit_fn), k.metadata, values, consts


def _here(ptx: str, jit_fn: Any) -> str:
    """Triton's cache is keyed by the kernel's source text, not its path, so
    PTX compiled before the file moved (another checkout, a renamed
    folder) names the old path in its .file lines.  Point those at the
    function's file as it is now, so the report shows its source lines."""
    import re

    try:
        now = inspect.getsourcefile(getattr(jit_fn, "fn", jit_fn))
    except TypeError:
        now = None
    if not now:
        return ptx
    now = os.path.abspath(now)
    base = os.path.basename(now)

    def fix(m: "re.Match[str]") -> str:
        path = m.group(2)
        if path != now and os.path.basename(path) == base and \
                not os.path.exists(path):
            return m.group(1) + '"' + now.replace("\\", "\\\\") + '"'
        return m.group(0)

    return re.sub(r'^(\s*\.file\s+\d+\s+)"([^"]*)"', fix, ptx, flags=re.M)


def analyze(jit_fn: Any, grid: "int | Sequence[int] | Callable[[dict], Any]",
            *args: Any, num_warps: int = 4, num_stages: int | None = None,
            arch: str = "sm_90", ctas: str = "all",
            max_steps: int = 100_000_000, threads: int = 0,
            align: bool = True, num_ctas: int = 1,
            types: "dict[str, str] | None" = None,
            check: "str | None" = None,
            cache: "bool | str" = False, regs: int = 0,
            sms: "int | None" = None, uninit: Sequence[Any] = (),
            on_hazard: str = "warn", on_fault: str = "raise",
            schedule: str = "in-order", max_total_steps: int = 0,
            **constexprs: Any) -> Report:
    """Compile ``jit_fn`` for ``arch`` (no GPU needed), run it on the CPU
    over ``grid`` programs of ``num_warps`` warps with ``args`` (numpy
    arrays or CPU torch tensors for pointers, written back in place;
    Python or numpy scalars) and the constexprs as keywords, and report per
    line of the Python source.  grid may be a callable of the constexprs,
    as in ``kernel[lambda META: ...]``.  num_ctas > 1 launches as Triton
    does: each program is a cluster of num_ctas CTAs along x (the grid's
    x times num_ctas).  types: see signature_of.  check, cache, regs,
    sms, uninit, on_hazard, on_fault, schedule and max_total_steps are
    run_ptx's; errors, faults and hazards name the kernel's parameters."""
    ptx, md, values, consts = compile_ptx(
        jit_fn, *args, num_warps=num_warps, num_stages=num_stages,
        arch=arch, align=align, num_ctas=num_ctas, types=types,
        **constexprs)
    if callable(grid):
        grid = grid(dict(consts))
    if isinstance(grid, int):
        grid = (grid,)
    # Triton's launcher (driver.c) runs num_ctas CTAs a program: grid x
    # times num_ctas, in clusters of (num_ctas, 1, 1), 16 being beyond the
    # portable 8
    nc = int(getattr(md, "num_ctas", 1) or 1)
    grid = [int(g) for g in grid]
    grid[0] *= nc
    # global_scratch_size bytes of global scratch a CTA (device-side
    # tensor descriptors live there)
    nprog = 1
    for g in grid:
        nprog *= g
    scratch = int(getattr(md, "global_scratch_size", 0) or 0) * nprog
    cluster = (nc, 1, 1) if nc > 1 else None
    return run_ptx(ptx, kernel=md.name, grid=tuple(grid), scratch=scratch,
                   cluster=cluster, cluster_nonportable=nc > 8,
                   block=(int(md.num_warps) * 32, 1, 1), args=values,
                   smem=int(md.shared), arch=arch, ctas=ctas,
                   max_steps=max_steps, threads=threads, check=check,
                   cache=cache, regs=regs, sms=sms, uninit=uninit,
                   on_hazard=on_hazard, on_fault=on_fault,
                   schedule=schedule, max_total_steps=max_total_steps,
                   names=runtime_names(jit_fn))
