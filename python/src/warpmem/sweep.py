"""sweep: one analysis per configuration, ranked by wasted traffic."""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Any, Callable, Iterable

__all__ = ["sweep"]


def _row(config: Any, rep: Any) -> dict:
    return {"config": config,
            "excessive_sectors": rep.excessive_sectors,
            "excessive_wavefronts": rep.excessive_wavefronts,
            "waste": rep.excessive_sectors + rep.excessive_wavefronts,
            "sectors": sum(r["sectors"] for r in rep.lines),
            "wavefronts": sum(r["wavefronts"] for r in rep.lines),
            "report": rep}


def sweep(fn: Callable[[Any], Any], configs: Iterable[Any],
          executor: Executor | None = None) -> list[dict]:
    """Run ``fn(config)`` (which returns a Report, e.g. a call of
    warpmem.triton.analyze with the config's block sizes) for every config
    and rank the results, least wasted traffic first: excessive sectors
    plus excessive shared wavefronts, ties in the order given.

    executor: any concurrent.futures.Executor (ProcessPoolExecutor, a Dask
    ``Client.get_executor()``, ...); None runs in this process.  fn and the
    configs must then be picklable; Reports are plain data and pickle.
    Returns a list of dicts: config, excessive_sectors,
    excessive_wavefronts, waste, sectors, wavefronts, report.
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
    out = [rows[i] for i in order]
    for rank, r in enumerate(out, 1):
        r["rank"] = rank
    return out
