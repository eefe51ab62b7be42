"""The run options beyond the counts: hazard checks (``check=``), the cache
hierarchy model (``cache=``) and what a hazard or fault does in Python
(``on_hazard=``, ``on_fault=``)."""
from __future__ import annotations

import ctypes
import linecache
import os
import warnings
from typing import Any, Sequence

from . import _lib as L
from ._lib import lib

__all__ = ["HazardWarning", "HazardError", "KernelFaultWarning",
           "parse_checks", "parse_schedule", "new_check", "new_cache", "hazard_records",
           "hierarchy_of", "ACTIONS"]

ACTIONS = ("raise", "warn", "ignore")
# As the CLI's --check: race and all compare the two schedules' outputs
# unless the tracked run proves them equal; schedules always compares.
_CHECK_WORDS = {"race": L.CHECK_RACE | L.CHECK_SCHEDULES | L.CHECK_PROVE,
                "init": L.CHECK_INIT,
                "schedules": L.CHECK_SCHEDULES,
                "all": L.CHECK_RACE | L.CHECK_INIT | L.CHECK_SCHEDULES |
                L.CHECK_PROVE}


class HazardWarning(UserWarning):
    """A hazard the checks found (``on_hazard="warn"``, the default)."""


class KernelFaultWarning(UserWarning):
    """A kernel fault reported as a warning (``on_fault="warn"``)."""


class HazardError(RuntimeError):
    """Hazards found with ``on_hazard="raise"``: ``hazards`` (the records
    of ``Report.hazards``) and ``report`` (the whole run)."""

    def __init__(self, hazards: list, report: Any):
        self.hazards = list(hazards)
        self.report = report
        more = len(hazards) - 1
        super().__init__(hazards[0]["message"] + (
            " (and %d more hazard%s)" % (more, "s" if more > 1 else "")
            if more > 0 else ""))

    def __reduce__(self):
        return (HazardError, (self.hazards, self.report))


def action(name: str, v: str) -> str:
    if v not in ACTIONS:
        raise ValueError("%s: %r is not 'raise', 'warn' or 'ignore'"
                         % (name, v))
    return v


def parse_checks(check: "str | Sequence[str] | None") -> int:
    """"race,init" (or a list of words) -> WM_CHECK_* bits."""
    if not check:
        return 0
    words = check.split(",") if isinstance(check, str) else list(check)
    bits = 0
    for w in words:
        w = str(w).strip()
        if w not in _CHECK_WORDS:
            raise ValueError("check: %r is not race, init, schedules or all"
                             % w)
        bits |= _CHECK_WORDS[w]
    if "schedules" in (str(w).strip() for w in words):
        bits &= ~L.CHECK_PROVE  # the comparison is run, never proved
    return bits


_SCHEDULES = {"in-order": L.SCHED_IN_ORDER, "reverse": L.SCHED_REVERSE}


def parse_schedule(schedule: str) -> "tuple[int, int]":
    """The CLI's --schedule: "in-order", "reverse" or "random:SEED" ->
    (WM_SCHED_*, seed)."""
    if isinstance(schedule, str) and schedule in _SCHEDULES:
        return _SCHEDULES[schedule], 0
    if isinstance(schedule, str) and schedule.startswith("random:"):
        seed = schedule[7:]
        if seed.isdigit() and int(seed) < 2 ** 63:
            return L.SCHED_RANDOM, int(seed)
    raise ValueError("schedule: %r is not in-order, reverse or random:SEED "
                     "(SEED a number from 0)" % (schedule,))


def new_check(bits: int, elem_sizes: Sequence[int], uninit: Sequence[int],
              keep: list, schedule: "tuple[int, int]" = (0, 0)
              ) -> "L.Check | None":
    """The wm_ptx_check of a run with checks bits and schedule (from
    parse_schedule; another than in-order needs one even without checks),
    or None."""
    if not bits and schedule[0] == L.SCHED_IN_ORDER:
        return None
    c = L.Check()
    c.checks = bits
    c.schedule, c.seed = schedule
    n = len(elem_sizes)
    es = (ctypes.c_uint * max(n, 1))(*elem_sizes)
    un = (ctypes.c_ubyte * max(n, 1))(*uninit)
    keep += [es, un]
    c.elem_size, c.nelem_size = es, n
    c.uninit, c.nuninit = ctypes.cast(un, ctypes.c_void_p), n
    return c


def new_cache(cache: Any, arch: L.Arch, threads: int, smem: int, regs: int,
              sms: "int | None") -> int | None:
    """A wm_cache for the launch (caller frees), or None for cache=False.
    cache: True (the profile's GPU) or a GPU name ("H200", "A100" ...)."""
    if cache is None or cache is False:
        return None
    if cache is True:
        g = lib.wm_gpu_for_arch(ctypes.byref(arch))
        if not g:
            raise ValueError(
                "cache: no GPU figures for profile %r; pass cache='H200' "
                "(or another of %s)" % (arch.name.decode(), ", ".join(
                    gpu_names())))
    elif isinstance(cache, str):
        g = lib.wm_gpu_find(cache.encode())
        if not g:
            raise ValueError("cache: %r is not one of %s"
                             % (cache, ", ".join(gpu_names())))
    else:
        raise TypeError("cache: expected True, False or a GPU name, got %r"
                        % (cache,))
    cfg = L.CacheConfig()
    if lib.wm_cache_config_init_regs(ctypes.byref(cfg), g, threads, smem,
                                     int(regs)) != L.WM_OK:
        raise ValueError("cache: a CTA of %d threads, %d shared bytes and %d "
                         "registers per thread does not fit one %s SM"
                         % (threads, smem, regs, L.gpu_name(g)))
    if sms is not None:
        if not isinstance(sms, int) or not 1 <= sms <= 100000:
            raise ValueError("sms: expected 1..100000, got %r" % (sms,))
        cfg.nsms = sms
    c = lib.wm_cache_new(ctypes.byref(cfg))
    if not c:
        raise MemoryError("warpmem: out of memory")
    return c


def gpu_names() -> list[str]:
    return [L.gpu_name(lib.wm_gpu_at(i)) for i in range(lib.wm_gpu_count())]


def _src(file: str, line: int) -> str:
    return linecache.getline(file, line).strip() if file and line else ""


def _access(prefix: str, a: "dict | None", rec: dict) -> str:
    """Flatten one access of a hazard into rec; its words."""
    a = a or {}
    for k in ("access", "warp", "lane", "thread", "file", "line", "ptx",
              "ptx_line"):
        rec[prefix + k] = a.get(k)
    rec[prefix + "source"] = _src(a.get("file", ""), a.get("line", 0))
    rec[prefix + "block"] = tuple(a.get("block", ()))
    if "cluster_rank" in a:  # clusters of more than one CTA
        rec[prefix + "cluster_rank"] = a["cluster_rank"]
    if not a:
        return ""
    where = ("%s:%s" % (os.path.basename(a["file"]), a["line"])
             if a.get("line")
             else "PTX line %s" % a.get("ptx_line"))
    text = rec[prefix + "source"] or a.get("ptx") or ""
    return "%s by thread %s at %s: %s" % (a.get("access"),
                                          tuple(a.get("thread", ())), where,
                                          text)


def hazard_records(doc: dict, where_of) -> list[dict]:
    """The "hazards" of the run's JSON document as flat records (one per
    distinct hazard): kind, space, argument and index (global: the user's
    argument and the element in its shape) or variable and index (shared),
    block, count, first_* and second_* (access, block, thread, warp,
    lane, file, line, source, ptx; with clusters of more than one CTA also
    cluster_rank, and the hazard's cluster_rank on shared memory) and
    message (naming both blocks when they differ).  where_of(buffer, byte) -> (name, index
    or None, words) names a global location."""
    out = []
    for h in doc.get("hazards") or []:
        rec = {"kind": h["kind"], "space": h["space"], "block":
               tuple(h.get("block", ())), "count": h.get("count"),
               "size": h.get("size"), "address": h.get("address")}
        if h["space"] == "shared":
            var = h.get("variable") or ""
            rec["argument"] = None
            rec["variable"] = var
            rec["index"] = (h.get("index"),)
            place = ("shared %s[%s]" % (var, h.get("index")) if var else
                     "shared offset %s" % h.get("address"))
            if "cluster_rank" in h:  # whose shared memory, in a cluster
                rec["cluster_rank"] = h["cluster_rank"]
                place += " of cluster rank %s" % h["cluster_rank"]
        else:
            name, idx, words = where_of(h.get("buffer", -1),
                                        h.get("address", 0))
            rec["argument"], rec["variable"], rec["index"] = name, None, idx
            place = "%s%s" % (name, words) if name else \
                "global byte %s" % h.get("address")
        w1 = _access("first_", h.get("first"), rec)
        w2 = _access("second_", h.get("second"), rec)
        b1, b2 = rec.get("first_block"), rec["second_block"]
        blocks = ("between blocks %s and %s" % (b1, b2) if b1 and b1 != b2
                  else "block %s" % (rec["block"],))
        rec["message"] = "%s on %s (%s): %s%s; %s time%s" % (
            rec["kind"], place, blocks, (w1 + ", then ") if w1 else "",
            w2, rec["count"], "" if rec["count"] == 1 else "s")
        out.append(rec)
    return out


def warn_or_raise(hazards: list, on_hazard: str, report: Any) -> None:
    if not hazards or on_hazard == "ignore":
        return
    if on_hazard == "raise":
        raise HazardError(hazards, report)
    for h in hazards:
        warnings.warn(h["message"], HazardWarning, stacklevel=4)


def hierarchy_of(doc: dict) -> "dict | None":
    """The hierarchy model's section as a flat dict: the configuration
    (gpu, sms, ctas_per_sm, l1_bytes, l2_bytes, order), metrics (every
    metric by Nsight Compute name), l1_hit_rate and l2_hit_rate (percent),
    dram_read_bytes, dram_write_bytes, dram_bytes, time_s (the predicted
    memory time), bound ("latency", "DRAM", "L2", "L1", ...), reason (the
    report's sentence saying why), dram_s, l2_s, l1_s, lat_s (the latency
    term), whatif_s (the time without the winning term), inflight_sm_bytes,
    inflight_need_bytes, inflight_asked_bytes (the L1 misses the loads ask
    to have in flight per SM), miss_slots (the SM's L1 miss slots:
    sectors, bytes, source), terms_missing, tlb_l1_misses and tlb_l2_misses
    (the TLB lookups that missed), intervals (per barrier interval) and
    sites (per memory instruction: L1/L2 misses and DRAM bytes)."""
    h = doc.get("hierarchy")
    if not h:
        return None
    m = {k: v["value"] for k, v in h.get("totals", {}).items()}
    t = h.get("time", {})
    out = {k: h.get(k) for k in ("gpu", "sms", "ctas_per_sm", "l1_bytes",
                                 "l1_ways", "smem_carveout", "l2_bytes",
                                 "l2_ways", "order")}
    rd = m.get("dram__bytes_read.sum", 0)
    wr = m.get("dram__bytes_write.sum", 0)
    out.update({
        "metrics": m,
        "l1_hit_rate": m.get("l1tex__t_sector_hit_rate.pct"),
        "l2_hit_rate": m.get("lts__t_sector_hit_rate.pct"),
        "dram_read_bytes": rd, "dram_write_bytes": wr,
        "dram_bytes": rd + wr,
        "time_s": t.get("time_s"), "bound": t.get("bound"),
        "dram_s": t.get("dram_s"), "l2_s": t.get("l2_s"),
        "l1_s": t.get("l1_s"), "lat_s": t.get("lat_s"),
        "reason": t.get("reason"), "whatif_s": t.get("whatif_s"),
        "inflight_sm_bytes": t.get("inflight_sm_bytes"),
        "inflight_need_bytes": t.get("inflight_need_bytes"),
        "inflight_asked_bytes": t.get("inflight_asked_bytes"),
        "miss_slots": dict(t.get("miss_slots", {})),
        "terms_missing": list(t.get("terms_missing", [])),
        "tlb_l1_misses": m.get("warpmem__tlb_l1_misses.sum", 0),
        "tlb_l2_misses": m.get("warpmem__tlb_l2_misses.sum", 0),
        "intervals": list(t.get("intervals", [])),
        "sites": list(h.get("sites", []))})
    return out
