"""The core API: count one warp access, run index expressions, interpret
PTX kernels.  Every number comes from libwarpmem; this module only moves
arguments in and results out."""
from __future__ import annotations

import ctypes
import json
import os
import tempfile
from typing import Any, Iterable, Sequence

from . import _lib as L
from ._lib import lib

__all__ = ["count", "expr", "run_ptx", "describe", "Report", "KernelFault"]

Dims = "int | Sequence[int]"


class KernelFault(RuntimeError):
    """The kernel faulted (out-of-bounds access, step budget, unsupported
    instruction).  The attributes are the fields of the CLI's fault report
    (``warpmem run --format json``): status, kind, message, block, thread,
    warp, lane, ptx_line, ptx, source and, for memory faults, space,
    address and buffer or bound, and argument (its name), index (in its
    shape) and element ("x[3]") when the address is in an argument's
    allocation.  ``report`` covers the work before the
    fault; the argument buffers hold what the kernel left in them."""

    def __init__(self, fault: dict, report: "Report"):
        self.fault = dict(fault)
        self.report = report
        # the argument the faulting address is in, when it is in one
        self.argument = self.index = self.element = None
        for k, v in fault.items():
            setattr(self, k, v)
        where = fault.get("source") or "PTX line %s" % fault.get("ptx_line")
        super().__init__("%s: %s (block %s, thread %s)" % (
            where, fault.get("message"), tuple(fault.get("block", ())),
            tuple(fault.get("thread", ()))))

    def __reduce__(self):
        return (KernelFault, (self.fault, self.report))


def _values(totals: dict | None) -> dict[str, float]:
    """{"metric": {"value": v, "unit": u}} (docs/output.md) -> {metric: v}."""
    return {k: v["value"] for k, v in (totals or {}).items()}


class Report:
    """What a run measured.

    totals
        Kernel totals, by Nsight Compute metric name.
    lines
        One record (dict) per memory instruction of each source line: file,
        line, source (the text of the line when the file is readable), ptx,
        space, op, size, executions, requests, bytes, sectors,
        ideal_sectors, excessive_sectors, wavefronts, ideal_wavefronts,
        conflicts, per_request_metric ("sectors" or "wavefronts") and
        per_request_min / _median / _max / _mean; rank (1 = most wasteful
        line, 0 = not wasteful) and advice (the advisor's headline or None).
    faults
        The fault the run stopped at, as a one-element list (only when the
        run was asked not to raise), else empty.
    hazards
        With ``check=``: one record (dict) per distinct hazard (kind,
        space, argument and index or variable, block, count, the two
        accesses as first_* / second_*, message); empty when none was
        found or no check ran (``checked`` says which).
    schedules
        With ``check="race"``, ``"all"`` or ``"schedules"``: whether the
        outputs differ when the warps run in the other order (reported,
        other, differs, proved: the second run was left out because the
        tracked run proves the outputs equal, and the first differing
        argument: name, index, values); else None.
    hierarchy
        With ``cache=``: the hierarchy model's results (hit rates, DRAM
        bytes, predicted time and bound); else None.
    advice
        The advisor's verdicts on the flagged instructions (dicts as
        ``warpmem run --explain --format json`` writes them).
    """

    def __init__(self, data: dict, html: str | None = None,
                 text: str | None = None, where=None):
        from ._checks import hazard_records, hierarchy_of

        self._data = data
        self._html = html
        self._text = text
        self.kernel: str = data.get("kernel", "")
        # the profile and where it came from ("sm_90 (from .target sm_90)")
        self.arch: str | None = data.get("profile") or data.get("arch")
        self.totals: dict[str, float] = _values(data.get("totals"))
        est = data.get("totals_estimated")
        self.totals_estimated: dict[str, float] | None = (
            _values(est) if est is not None else None)
        self.faults: list[dict] = [data["fault"]] if data.get("fault") else []
        self.checked: bool = "hazards" in data
        self.hazards: list[dict] = hazard_records(
            data, where or (lambda b, o: (None, None, "")))
        self.hierarchy: dict | None = hierarchy_of(data)
        self.schedules: dict | None = data.get("schedules")
        self.lines: list[dict] = []
        self.advice: list[dict] = []
        # the sites (one per memory instruction) joined with their line
        line_of = {}
        for lg in data.get("lines", []):
            for sid in lg.get("sites", []):
                line_of[sid] = lg
        for ins in data.get("sites", []):
            lg = line_of.get(ins["site"], {})
            st = ins["stats"]
            pr = ins.get("per_request", {})
            rec = {"file": ins["file"], "line": ins["line"],
                   "source": lg.get("source", ins.get("source")),
                   "rank": ins.get("rank", 0),
                   "ptx": ins.get("ptx"), "ptx_line": ins.get("ptx_line"),
                   "space": ins["space"], "op": ins["op"],
                   "size": ins.get("size")}
            rec.update(st)
            rec["per_request_metric"] = ins.get("per_request_metric")
            for k in ("min", "median", "max", "mean"):
                rec["per_request_" + k] = pr.get(k)
            adv = ins.get("advice")
            rec["advice"] = adv.get("headline") if adv else None
            self.lines.append(rec)
            if adv and adv.get("severity", "none") != "none":
                a = {"file": ins["file"], "line": ins["line"],
                     "ptx": ins.get("ptx")}
                a.update(adv)
                self.advice.append(a)

    @property
    def instructions(self) -> list[dict]:
        """``lines``: one record per memory instruction."""
        return self.lines

    def by_line(self) -> list[dict]:
        """One record per source line (a Triton ``tl.load`` that is
        several PTX instructions is one row): file, line, source,
        instructions (memory instructions on the line), accesses ("global
        ld, shared st"), rank, executions, requests, bytes, sectors,
        ideal_sectors, excessive_sectors, wavefronts, ideal_wavefronts,
        conflicts, excess (excessive sectors + conflicts) and advice (the
        advisor's headline for the line's worst instruction)."""
        from ._lines import line_records
        return line_records(self._data, self.lines)

    # -- queries ----------------------------------------------------------
    def line(self, line: int, space: str | None = None, op: str | None = None,
             file: str | None = None) -> list[dict]:
        """The records of one source line (optionally one space / op; file:
        a suffix of the file name)."""
        return [r for r in self.lines if r["line"] == line
                and (space is None or r["space"] == space)
                and (op is None or r["op"] == op)
                and (file is None or r["file"].endswith(file))]

    def find(self, text: str) -> list[dict]:
        """The records whose source line contains ``text``."""
        return [r for r in self.lines if r["source"] and text in r["source"]]

    @property
    def excessive_sectors(self) -> int:
        """Sectors beyond the ideal, summed over all instructions."""
        return sum(r["excessive_sectors"] for r in self.lines)

    @property
    def excessive_wavefronts(self) -> int:
        """Shared-memory wavefronts beyond the ideal (bank conflicts)."""
        return sum(r["conflicts"] for r in self.lines)

    # -- output -------------------------------------------------------------
    def to_dict(self) -> dict:
        """The library's JSON report as a dict."""
        return json.loads(json.dumps(self._data))

    def to_json(self, indent: int | None = None) -> str:
        """The report as JSON (the document ``warpmem run --format json
        --explain`` writes)."""
        return json.dumps(self._data, indent=indent)

    def to_html(self, path: "str | os.PathLike | None" = None) -> str:
        """The self-contained HTML report; written to path when given.
        Returns the HTML text."""
        if self._html is None:
            raise ValueError("this report has no HTML page")
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self._html)
        return self._html

    def _repr_html_(self) -> str | None:
        return self._html

    def to_pandas(self, by: str = "line"):
        """A pandas DataFrame (needs pandas): by="line" (``by_line()``, the
        default), "instruction" (``lines``) or "hazard" (``hazards``)."""
        rows = {"line": self.by_line, "instruction": lambda: self.lines,
                "hazard": lambda: self.hazards}
        if by not in rows:
            raise ValueError("by: %r is not 'line', 'instruction' or "
                             "'hazard'" % (by,))
        try:
            import pandas
        except ImportError as e:  # pragma: no cover - depends on the env
            raise ImportError("Report.to_pandas needs pandas "
                              "(pip install pandas)") from e
        return pandas.DataFrame(rows[by]())

    def plot(self, ax=None, top: int = 20):
        """Bars of the excess per source line (excessive sectors and bank
        conflicts, stacked), worst first, at most ``top`` lines; needs
        matplotlib.  Returns the Axes."""
        from ._plot import plot_report
        return plot_report(self, ax, top)

    def __str__(self) -> str:
        return self._text if self._text is not None else self.to_json(1)

    def __repr__(self) -> str:
        return "<warpmem.Report %s: %d memory instructions, %d excessive " \
               "sectors, %d excess wavefronts>" % (
                   self.kernel or "?", len(self.lines),
                   self.excessive_sectors, self.excessive_wavefronts)


# ---- helpers ----------------------------------------------------------------

def _arch(arch: "str | None", what: str = "arch") -> L.Arch:
    out = L.Arch()
    if arch is None:
        ctypes.memmove(ctypes.byref(out), lib.wm_arch_default(),
                       ctypes.sizeof(out))
        return out
    if not isinstance(arch, str):
        raise TypeError("%s: expected a profile name such as 'sm_80', got %s"
                        % (what, type(arch).__name__))
    err = ctypes.create_string_buffer(200)
    if lib.wm_arch_parse(arch.encode(), ctypes.byref(out), err, 200) != 0:
        raise ValueError("%s: %s" % (what, err.value.decode()))
    return out


def _dims(v: Any, what: str) -> tuple[int, int, int]:
    if isinstance(v, (int,)) and not isinstance(v, bool):
        v = (v,)
    try:
        d = [int(x) for x in v]
    except TypeError:
        raise TypeError("%s: expected an int or a tuple of up to 3 ints, "
                        "got %r" % (what, v)) from None
    if not 1 <= len(d) <= 3 or any(x < 1 or x > 0x7fffffff for x in d):
        raise ValueError("%s: expected 1 to 3 dimensions in 1..2^31-1, got %r"
                         % (what, v))
    return tuple(d + [1] * (3 - len(d)))  # type: ignore[return-value]


def _enum(name: str, value: str, choices: Sequence[str]) -> int:
    if value not in choices:
        raise ValueError("%s: %r is not one of %s" % (name, value,
                                                      ", ".join(choices)))
    return choices.index(value)


# ---- count ------------------------------------------------------------------

def count(addrs: Iterable[int], size: int = 4, space: str = "global",
          arch: str = "sm_90", op: str = "ld",
          mask: "Iterable[bool] | None" = None) -> dict[str, int]:
    """Count one warp-wide access: lane i accesses byte address addrs[i]
    (at most one address per lane of the profile's warp).  Returns the
    counts Nsight Compute reports for it: requests, sectors, tags,
    ideal_sectors, wavefronts, ideal_wavefronts, conflicts ..."""
    import numpy as np

    a = _arch(arch)
    try:
        ad = np.asarray(addrs)
    except Exception as e:
        raise TypeError("addrs: %s" % e) from None
    if ad.ndim != 1 or not (ad.dtype.kind in "iu" or ad.size == 0):
        raise TypeError("addrs: expected a 1-D sequence of integer byte "
                        "addresses, got dtype %s shape %s" % (ad.dtype,
                                                             ad.shape))
    if ad.size > a.warp_size:
        raise ValueError("addrs: %d addresses for a %d-lane warp (%s)" % (
            ad.size, a.warp_size, a.name.decode()))
    if ad.size and ad.min() < 0:
        raise ValueError("addrs: addresses must be >= 0")
    acc = L.Access()
    acc.space = _enum("space", space, L.SPACES)
    acc.op = _enum("op", op, L.OPS)
    acc.size = int(size)
    m = 0
    act = [True] * ad.size if mask is None else [bool(x) for x in mask]
    if len(act) != ad.size:
        raise ValueError("mask: %d entries for %d addresses" % (len(act),
                                                                ad.size))
    for i, x in enumerate(ad.tolist()):
        acc.addr[i] = int(x)
        if act[i]:
            m |= 1 << i
    acc.mask = m
    c = L.Counts()
    st = lib.wm_count(ctypes.byref(a), ctypes.byref(acc), ctypes.byref(c))
    if st != L.WM_OK:
        what = "size" if L.STATUS[st] == "size" else "addrs"
        raise ValueError("%s: %s" % (what, L.status_str(st)))
    return {n: getattr(c, n) for n, _ in L.Counts._fields_}


# ---- expressions ------------------------------------------------------------

def _totals_dict(t: L.Totals) -> dict[str, dict]:
    """Totals as the documents carry them (docs/output.md):
    {metric: {"value": v, "unit": u}}."""
    out = {}
    for i in range(lib.wm_metric_count()):
        if lib.wm_metric_relevant(ctypes.byref(t), i):
            v = lib.wm_metric_value(ctypes.byref(t), i)
            out[lib.wm_metric_name(i).decode()] = {
                "value": int(v) if lib.wm_metric_is_count(i) else v,
                "unit": lib.wm_metric_unit(i).decode()}
    return out


def _agg_html(g: int) -> str:
    fd, path = tempfile.mkstemp(suffix=".html")
    os.close(fd)
    try:
        st = lib.wm_html_report_file(path.encode(), g, None)
        if st != L.WM_OK:
            raise OSError("warpmem: HTML report: %s" % L.status_str(st))
        with open(path, encoding="utf-8") as f:
            return f.read()
    finally:
        os.unlink(path)


def expr(program: str, grid: "Dims | None" = None, block: "Dims | None" = None,
         arch: str = "sm_90", defines: "dict[str, int] | None" = None,
         max_accesses: int = 0) -> Report:
    """Evaluate an index-expression program (docs/expr.md) over a launch.
    grid/block replace the program's own ``grid``/``block`` lines; defines
    are the CLI's -D constants.  Each statement is one record of
    ``Report.lines`` (its text as ``source``)."""
    if not isinstance(program, str):
        raise TypeError("program: expected str, got %s"
                        % type(program).__name__)
    a = _arch(arch)
    e = lib.wm_expr_new()
    g = lib.wm_agg_new(ctypes.byref(a))
    if not e or not g:
        lib.wm_expr_free(e)
        lib.wm_agg_free(g)
        raise MemoryError("warpmem: out of memory")
    try:
        for k, v in (defines or {}).items():
            if lib.wm_expr_define(e, str(k).encode(), int(v)) != L.WM_OK:
                raise ValueError("defines: cannot define %r" % (k,))
        src = program.encode()
        d = L.Diag()
        if lib.wm_expr_parse(e, src, len(src), b"<expr>", ctypes.byref(d)):
            lib.wm_diag_locate(ctypes.byref(d), src, len(src))
            raise ValueError("program: line %d col %d: %s" % (
                d.line, d.col, d.msg.decode()))
        gr = (ctypes.c_uint * 3)(*_dims(grid, "grid")) if grid else None
        bl = (ctypes.c_uint * 3)(*_dims(block, "block")) if block else None
        if (gr or bl) and lib.wm_expr_set_launch(e, gr, bl) != L.WM_OK:
            raise ValueError("grid/block: outside CUDA's limits")
        ft = L.ExprFault()
        st = lib.wm_expr_run(e, g, int(max_accesses), ctypes.byref(ft))
        if st == L.WM_ERR_ARG:
            raise ValueError("block: the program gives no block and none "
                             "was passed")
        lines = []
        for i in range(lib.wm_agg_nsites(g)):
            s = L.Site()
            lib.wm_agg_site(g, i, ctypes.byref(s))
            stats = {n: getattr(s.stats, n) for n in L.STATS_FIELDS}
            stats["executions"] = stats.pop("inst")
            unit = "wavefront" if s.space == 2 else "sector"
            pr = {"unit": unit + "/request"}
            for k in ("min", "median", "max", "mean"):
                pr[k] = getattr(s.per_request, k)
            # a site of the common document shape (docs/output.md)
            lines.append({"site": s.site, "label": L.s(s.label),
                          "source": L.s(s.label), "file": L.s(s.file),
                          "line": s.line, "statement": s.site,
                          "space": L.SPACES[s.space], "op": L.OPS[s.op],
                          "size": s.size, "stats": stats, "per_request": pr,
                          "per_request_metric": unit + "s"})
        t = L.Totals()
        lib.wm_agg_totals(g, ctypes.byref(t))
        data = {"schema": "warpmem/1", "command": "expr", "kernel": "expr",
                "level": "expr", "arch": a.name.decode(),
                "totals": _totals_dict(t), "sites": lines}
        if st == L.WM_ERR_FAULT:
            lib.wm_diag_locate(ctypes.byref(ft.diag), src, len(src))
            data["fault"] = {"status": "fault", "message": ft.diag.msg.decode(),
                             "statement": ft.stmt,
                             "block": list(ft.where.block),
                             "thread": list(ft.thread), "lane": ft.lane,
                             "line": ft.diag.line, "col": ft.diag.col}
        elif st != L.WM_OK:
            raise RuntimeError("warpmem: expr: %s" % L.status_str(st))
        rep = Report(data, html=_agg_html(g))
        if st == L.WM_ERR_FAULT:
            raise KernelFault(data["fault"], rep)
        return rep
    finally:
        lib.wm_agg_free(g)
        lib.wm_expr_free(e)
