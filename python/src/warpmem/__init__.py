"""warpmem: GPU warp memory-access model and PTX interpreter (libwarpmem).

    import warpmem
    warpmem.count(range(0, 32 * 128, 128))         # one strided warp access
    rep = warpmem.run_ptx("k.ptx", grid=64, block=256, args=[x, y, n])
    rep.totals, rep.lines                          # ncu metric names, lines
    warpmem.lint_ptx("k.ptx").flagged()            # judged without a run

warpmem.triton.analyze and warpmem.numba.analyze compile a Triton or
numba-cuda kernel to PTX (no GPU needed) and run it the same way.
"""
from ._lib import lib as _clib
from ._checks import HazardError, HazardWarning, KernelFaultWarning
from .core import KernelFault, Report, count, expr
from .lint import Lint, lint_ptx
from .ptx import Kernel, describe, run_ptx
from .sweep import sweep

__version__: str = _clib.wm_version().decode()



def __getattr__(name: str):
    # warpmem.triton / warpmem.numba import their compiler only when used
    if name in ("triton", "numba"):
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError("module 'warpmem' has no attribute %r" % name)


__all__ = ["count", "expr", "run_ptx", "lint_ptx", "describe", "sweep",
           "Report", "Lint",
           "HazardError", "HazardWarning", "KernelFaultWarning",
           "Kernel", "KernelFault", "__version__"]
