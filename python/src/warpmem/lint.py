"""lint_ptx: the CLI's ``warpmem lint`` from Python.  Every memory
instruction of a kernel is judged without running it: the library's
abstract interpretation gives each lane's address as a form over the
thread and block indices, the parameters and the loop counters
(docs/lint.md), evaluated for every warp of one block."""
from __future__ import annotations

import ctypes
import os
from typing import Any, Sequence

from . import _lib as L
from ._checks import _src
from ._lib import lib
from .core import _dims
from .ptx import Kernel, _Module, _pick_arch

__all__ = ["lint_ptx", "Lint"]


class Lint:
    """The verdicts on one kernel: ``verdicts`` (one dict per memory access
    of an instruction, in instruction order), ``block`` (the shape they are
    for), ``profile`` (the profile and where it came from), ``worst`` (the
    worst severity: "none", "low", "medium" or "high"), ``kernel`` (its
    name) and ``info`` (its warpmem.Kernel).  ``lines`` gives the verdicts
    with a figure in the form of Report.lines, so warpmem.testing's
    assert_coalesced and assert_no_bank_conflicts take a Lint too."""

    def __init__(self, kernel: Kernel, block: tuple, profile: str,
                 verdicts: list, worst: str, srcdir: str = ""):
        self.srcdir = srcdir  # where relative .loc files are found
        self.info = kernel
        self.kernel = kernel.display
        self.block = block
        self.profile = profile
        self.verdicts = verdicts
        self.worst = worst

    def flagged(self) -> list[dict]:
        """The verdicts with excess (severity other than "none"), worst
        first."""
        order = {s: i for i, s in enumerate(L.SEVERITIES)}
        hits = [v for v in self.verdicts if v["severity"] != "none"]
        return sorted(hits, key=lambda v: -order[v["severity"]])

    @property
    def lines(self) -> list[dict]:
        """The verdicts that have a figure (exact or varying) as the block's
        warps' totals, with Report.lines' fields: file, line, source,
        space, op, requests (one a warp), sectors / wavefronts and their
        ideal, excessive_sectors, conflicts, per_request_max."""
        out = []
        for v in self.verdicts:
            if v["kind"] not in ("exact", "varies") or not v["warps"]:
                continue
            n, got, ideal = v["warps"], v["per_request"], v["ideal"]
            total, want = round(got * n), round(ideal * n)
            shared = v["space"] == "shared"
            out.append({
                "file": v["file"], "line": v["line"],
                "source": _src(os.path.join(self.srcdir, v["file"])
                               if v["file"] else "", v["line"]),
                "space": v["space"],
                "op": v["op"], "requests": n,
                "sectors": 0 if shared else total,
                "ideal_sectors": 0 if shared else want,
                "excessive_sectors": 0 if shared else max(total - want, 0),
                "wavefronts": total if shared else 0,
                "ideal_wavefronts": want if shared else 0,
                "conflicts": max(total - want, 0) if shared else 0,
                "per_request_max": v["max"], "advice": ""})
        return out

    def to_pandas(self):
        """The verdicts as a pandas DataFrame (needs pandas)."""
        import pandas as pd
        return pd.DataFrame(self.verdicts)

    def __repr__(self) -> str:
        return "<warpmem.Lint %s block %s: %d verdicts, worst %s>" % (
            self.kernel, self.block, len(self.verdicts), self.worst)


def _s(b: bytes) -> str:
    return b.decode(errors="replace")


def _verdict(m: Any, v: L.LintInsn) -> dict:
    w = L.PtxWhere()
    lib.wm_ptx_where_insn(m, v.insn, ctypes.byref(w))
    return {"insn": v.insn, "ptx_line": w.ptx_line,
            "ptx": _s(w.text or b""), "file": _s(w.file or b""),
            "line": w.line, "space": L.SPACES[v.space], "op": L.OPS[v.op],
            "size": v.size, "kind": _s(lib.wm_lint_kind_name(v.kind)),
            "form": _s(v.form), "stride": _s(v.stride),
            "reason": _s(v.reason), "depends": _s(v.depends),
            "assumed": bool(v.assumed), "warps": v.warps,
            "per_request": v.per_request, "min": v.min, "max": v.max,
            "worst": v.worst, "ideal": v.ideal,
            "severity": L.SEVERITIES[v.severity]}


def _params(params: "dict[str, int] | None", keep: list):
    if not params:
        return None, 0
    if not isinstance(params, dict):
        raise TypeError("params: expected a dict of parameter -> int, got "
                        "%r" % (type(params).__name__,))
    ps = (L.LintParam * len(params))()
    for p, (name, value) in zip(ps, params.items()):
        if isinstance(value, bool) or not isinstance(value, int) or \
                not -2 ** 63 <= value < 2 ** 63:
            raise ValueError("params[%r]: expected a 64-bit integer, got %r"
                             % (name, value))
        p.name = str(name).encode()
        p.value = value
        keep.append(p.name)
    keep.append(ps)
    return ps, len(params)


def lint_ptx(ptx: "str | bytes | os.PathLike", kernel: str | None = None,
             block: "int | Sequence[int] | None" = None,
             grid: "int | Sequence[int] | None" = None,
             params: "dict[str, int] | None" = None,
             arch: str | None = None) -> Lint:
    """Judge every memory instruction of ``kernel`` without running it (the
    CLI's ``warpmem lint``).

    block, grid
        The launch shape the verdicts are for (``--block``, ``--grid``);
        block None: the kernel's ``.reqntid``, else a block of 32 x 8
        for a kernel that reads tid.y, 256 threads for one that reads only
        tid.x; grid None: large enough for any block index.
    params
        Known values of scalar parameters, by name or index as text
        (``--param NAME=V``); the others count as 1024.
    arch
        Profile name; None takes it from the module's ``.target``.

    Each verdict: insn, ptx_line, ptx, file, line (where it is), space,
    op, size, kind ("exact", "varies", "data-dependent", "inactive",
    "unsupported"), form (the address, e.g. "in + 4*tid.x"), stride
    (bytes from lane to lane), reason, depends, assumed, warps,
    per_request, min, max, worst (sectors or wavefronts per request: mean,
    extremes over the warps, worst over the misalignments allowed), ideal
    and severity."""
    mod = _Module(ptx)
    k = mod.find(kernel)
    kern, _ = mod.describe(k)
    a, note = _pick_arch(mod, arch)
    keep: list = []
    o = L.LintOpts()
    if block is not None:
        o.block[:] = _dims(block, "block")
    if grid is not None:
        o.grid[:] = _dims(grid, "grid")
    o.params, o.nparams = _params(params, keep)
    res = ctypes.c_void_p()
    st = lib.wm_lint_kernel(mod.m, k, ctypes.byref(a), ctypes.byref(o),
                            ctypes.byref(res))
    if st == L.STATUS.index("parse"):
        d = L.Diag()
        lib.wm_ptx_kernel_error(mod.m, k, ctypes.byref(d))
        raise mod.error(d)
    if st == L.WM_ERR_ARG:
        raise ValueError("lint: block %s is no block of this kernel"
                         % (tuple(o.block),))
    if st != L.WM_OK:
        raise RuntimeError("warpmem: lint: %s" % L.status_str(st))
    try:
        shape = (ctypes.c_uint * 3)()
        lib.wm_lint_block(res, shape)
        verdicts = [_verdict(mod.m, lib.wm_lint_at(res, i).contents)
                    for i in range(lib.wm_lint_count(res))]
        worst = L.SEVERITIES[lib.wm_lint_worst(res)]
    finally:
        lib.wm_lint_free(res)
    srcdir = os.path.dirname(mod.path) if mod.path != "<ptx>" else ""
    return Lint(kern, tuple(shape), note, verdicts, worst, srcdir)
