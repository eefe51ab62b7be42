"""Analyse a numba-cuda kernel on the CPU: compile it with
``cuda.compile_ptx`` (no GPU needed) for the argument types of the given
arrays, fill numba's flattened array parameters (meminfo, parent, nitems,
itemsize, data, shape, strides) from the numpy arrays, run it in
libwarpmem and report per line of the Python source."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

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
    for i, v in enumerate(args):
        if type(v).__module__.startswith("torch"):
            v = v.detach().numpy()
        if isinstance(v, bool):
            v = np.bool_(v)
        elif isinstance(v, int):
            v = np.int64(v)
        elif isinstance(v, float):
            v = np.float64(v)
        if not isinstance(v, (np.ndarray, np.generic)):
            raise TypeError("args[%d]: expected a numpy array or scalar, got "
                            "%s" % (i, type(v).__name__))
        types.append(numba.typeof(v))
        values.append(v)
    ptx, _ = cuda.compile_ptx(fn, tuple(types), cc=(a.sm // 10, a.sm % 10),
                              lineinfo=True)
    return ptx, values


def analyze(cuda_jit_fn: Any, grid: "int | Sequence[int]",
            block: "int | Sequence[int]", *arrays: Any, arch: str = "sm_80",
            smem: int = 0, ctas: str = "all", max_steps: int = 100_000_000,
            threads: int = 0) -> Report:
    """Compile ``cuda_jit_fn`` for ``arch`` and run it over grid x block
    with ``arrays`` (numpy arrays, written back in place, and scalars)."""
    ptx, values = compile_ptx(cuda_jit_fn, *arrays, arch=arch)
    return run_ptx(ptx, grid=grid, block=block, args=values, smem=smem,
                   arch=arch, ctas=ctas, max_steps=max_steps,
                   threads=threads)
