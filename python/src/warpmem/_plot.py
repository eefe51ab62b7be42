"""Figures of reports and sweeps (matplotlib, an optional dependency)."""
from __future__ import annotations

import os
from typing import Any, Callable

__all__ = ["plot_report", "plot_sweep"]


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover - depends on the env
        raise ImportError("plots need matplotlib (pip install matplotlib)"
                          ) from e
    return plt


def _axes(ax):
    if ax is not None:
        return ax
    return _pyplot().subplots(figsize=(8, 4))[1]


def _fit(ax, own: bool) -> None:
    """Room for the rotated labels in a figure made here."""
    if own:
        ax.figure.tight_layout()


def plot_report(rep: Any, ax=None, top: int = 20):
    """Stacked bars per source line: excessive sectors (global/local) and
    bank conflicts (excess shared wavefronts), worst line first."""
    rows = [r for r in rep.by_line() if r["excess"] > 0]
    rows.sort(key=lambda r: -r["excess"])
    rows = rows[:top]
    own = ax is None
    ax = _axes(ax)
    labels = ["%s:%s" % (os.path.basename(r["file"] or "?"), r["line"])
              for r in rows]
    xs = range(len(rows))
    sec = [r["excessive_sectors"] for r in rows]
    con = [r["conflicts"] for r in rows]
    ax.bar(xs, sec, label="excessive sectors", color="#c0504d")
    ax.bar(xs, con, bottom=sec, label="bank conflicts (excess wavefronts)",
           color="#4f81bd")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_ylabel("excess over the ideal")
    ax.set_title("%s: excess per source line" % (rep.kernel or "kernel")
                 if rows else "%s: no excess" % (rep.kernel or "kernel"))
    ax.legend()
    _fit(ax, own)
    return ax


def plot_sweep(rows: list, metric: str, param: "str | Callable | None",
               ax=None):
    """The metric of each run against its configuration's parameter, in
    the order of the parameter (numbers on a line; other values as
    categories)."""
    def key(c):
        if param is None:
            return c
        if callable(param):
            return param(c)
        return c[param]

    pts = [(key(r["config"]), r[metric]) for r in rows]
    numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool)
                  for x, _ in pts)
    if numeric:
        pts.sort(key=lambda p: p[0])
    own = ax is None
    ax = _axes(ax)
    xs = [p[0] for p in pts] if numeric else list(range(len(pts)))
    ax.plot(xs, [p[1] for p in pts], marker="o")
    if numeric and len(xs) <= 20:
        ax.set_xticks(xs)
    if not numeric:
        ax.set_xticks(xs)
        ax.set_xticklabels([str(p[0]) for p in pts])
    ax.set_xlabel(param if isinstance(param, str) else "config")
    ax.set_ylabel(metric)
    best = min(rows, key=lambda r: r[metric]) if rows else None
    if best is not None:
        ax.set_title("%s by %s (least: %s)" % (
            metric, ax.get_xlabel(), key(best["config"])))
    _fit(ax, own)
    return ax
