"""Analyse a numba-cuda kernel on the CPU: compile it with
``cuda.compile_ptx`` (no GPU needed) for the argument types of the given
arrays, fill numba's flattened array parameters (meminfo, parent, nitems,
itemsize, data, shape, strides) from the numpy arrays, run it in
libwarpmem and report per line of the Python source."""
from __future__ import annotations

import inspect
from typing import Any, Sequence

import numpy as np

from ._arrays import as_device_array
from .core import Report, _arch
from .ptx import run_ptx

__all__ = ["analyze", "compile_ptx"]


def compile_ptx(cuda_jit_fn: Any, *args: Any, arch: str = "sm_80"
                ) -> tuple[str, list]:
    """PTX of the kernel for the types of args (numpy arrays and scalars).
    Returns (ptx text, the values to pass)."""
    import numba
    from numba import cuda

    fn = getattr(cuda_jit_fn, "py_func", cuda_jit_fn)
    if not callable(fn):
        raise TypeError("cuda_jit_fn: expected a @cuda.jit function, got %s"
                        % type(cuda_jit_fn).__name__)
    a = _arch(arch)
    if not a.sm:
        raise ValueError("arch: %s is not an NVIDIA profile" % arch)
    types, values = [], []
    names = arg_names(cuda_jit_fn, len(args))
    for i, v in enumerate(args):
        da = None
        try:
            da = as_device_array(v)
        except (TypeError, ValueError) as e:
            raise type(e)("%s: %s" % (names[i], e)) from None
        if da is not None and not isinstance(v, np.ndarray):
            if da.dtype == "bfloat16":
                raise TypeError("%s: numba has no bfloat16 arrays"
                                % names[i])
            v = da.view  # a torch tensor: numba types it as this ndarray
        if isinstance(v, bool):
            v = np.bool_(v)
        elif isinstance(v, int):
            v = np.int64(v)
        elif isinstance(v, float):
            v = np.float64(v)
        if not isinstance(v, (np.ndarray, np.generic)):
            raise TypeError("%s: expected an array or a scalar, got %s"
                            % (names[i], type(v).__name__))
        types.append(numba.typeof(v))
        values.append(v)
    ptx, _ = cuda.compile_ptx(fn, tuple(types), cc=(a.sm // 10, a.sm % 10),
                              lineinfo=True)
    return ptx, values


def arg_names(cuda_jit_fn: Any, n: int) -> list[str]:
    """The kernel's parameter names (``args[i]`` past them)."""
    fn = getattr(cuda_jit_fn, "py_func", cuda_jit_fn)
    try:
        names = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        names = []
    return (names + ["args[%d]" % i for i in range(len(names), n)])[:n]


def analyze(cuda_jit_fn: Any, grid: "int | Sequence[int]",
            block: "int | Sequence[int]", *arrays: Any, arch: str = "sm_80",
            smem: int = 0, ctas: str = "all", max_steps: int = 100_000_000,
            threads: int = 0, check: "str | None" = None,
            cache: "bool | str" = False, regs: int = 0,
            sms: "int | None" = None, uninit: Sequence[Any] = (),
            on_hazard: str = "warn", on_fault: str = "raise",
            schedule: str = "in-order", max_total_steps: int = 0) -> Report:
    """Compile ``cuda_jit_fn`` for ``arch`` and run it over grid x block
    with ``arrays`` (numpy arrays or CPU torch tensors, used in place with
    their strides, and scalars).  check, cache, regs, sms, uninit,
    on_hazard, on_fault, schedule and max_total_steps are run_ptx's;
    errors, faults and hazards name the kernel's parameters."""
    ptx, values = compile_ptx(cuda_jit_fn, *arrays, arch=arch)
    return run_ptx(ptx, grid=grid, block=block, args=values, smem=smem,
                   arch=arch, ctas=ctas, max_steps=max_steps,
                   threads=threads, check=check, cache=cache, regs=regs,
                   sms=sms, uninit=uninit, on_hazard=on_hazard,
                   on_fault=on_fault,
                   schedule=schedule, max_total_steps=max_total_steps,
                   names=arg_names(cuda_jit_fn, len(values)))
