"""sweep: one analysis per configuration, ranked by wasted traffic."""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Any, Callable, Iterable

__all__ = ["sweep", "SweepResult"]


class SweepResult(list):
    """The rows of a sweep, least waste first (a list of dicts)."""

    def plot(self, metric: str = "waste",
             param: "str | Callable[[Any], Any] | None" = None, ax=None):
        """``metric`` (a column: waste, excessive_sectors, sectors,
        time_s ...) against the configuration: the config itself, its
        item ``param`` (a dict config's key) or ``param(config)``; needs
        matplotlib.  Returns the Axes."""
        if self and metric not in self[0]:
            raise ValueError("metric: %r is not one of %s" % (
                metric, ", ".join(k for k in self[0] if k != "report")))
        from ._plot import plot_sweep
        return plot_sweep(list(self), metric, param, ax)

    def to_pandas(self):
        """The rows without their reports as a DataFrame (needs pandas)."""
        import pandas
        return pandas.DataFrame([{k: v for k, v in r.items()
                                  if k != "report"} for r in self])


def _row(config: Any, rep: Any) -> dict:
    h = getattr(rep, "hierarchy", None)
    extra = {"time_s": h["time_s"], "dram_bytes": h["dram_bytes"]} if h \
        else {}
    return {**extra, "config": config,
            "excessive_sectors": rep.excessive_sectors,
            "excessive_wavefronts": rep.excessive_wavefronts,
            "waste": rep.excessive_sectors + rep.excessive_wavefronts,
            "sectors": sum(r["sectors"] for r in rep.lines),
            "wavefronts": sum(r["wavefronts"] for r in rep.lines),
            "report": rep}


def sweep(fn: Callable[[Any], Any], configs: Iterable[Any],
          executor: Executor | None = None) -> SweepResult:
    """Run ``fn(config)`` (which returns a Report, e.g. a call of
    warpmem.triton.analyze with the config's block sizes) for every config
    and rank the results, least wasted traffic first: excessive sectors
    plus excessive shared wavefronts, ties in the order given.

    executor: any concurrent.futures.Executor (ProcessPoolExecutor, a Dask
    ``Client.get_executor()``, ...); None runs in this process.  fn and the
    configs must then be picklable; Reports are plain data and pickle.
    Returns a list of dicts: config, excessive_sectors,
    excessive_wavefronts, waste, sectors, wavefronts, report (and
    time_s, dram_bytes when the reports ran the hierarchy model), with
    ``.plot()`` and ``.to_pandas()``.
    """
    configs = list(configs)
    if not callable(fn):
        raise TypeError("fn: expected a callable, got %s" % type(fn).__name__)
    if executor is None:
        reps = [fn(c) for c in configs]
    else:
        if not isinstance(executor, Executor) and not hasattr(executor, "map"):
            raise TypeError("executor: expected a concurrent.futures.Executor"
                            ", got %s" % type(executor).__name__)
        reps = list(executor.map(fn, configs))
    rows = [_row(c, r) for c, r in zip(configs, reps)]
    order = sorted(range(len(rows)), key=lambda i: (rows[i]["waste"], i))
    out = SweepResult(rows[i] for i in order)
    for rank, r in enumerate(out, 1):
        r["rank"] = rank
    return out
