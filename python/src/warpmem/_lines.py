"""Per source line records of a run's JSON document (its "lines" groups,
each the sum of the memory instructions on one line)."""
from __future__ import annotations

import linecache

__all__ = ["line_records"]

_STATS = ("executions", "requests", "bytes", "sectors", "ideal_sectors",
          "excessive_sectors", "wavefronts", "ideal_wavefronts", "conflicts")


def _source(file: str, line: int, given: "str | None") -> "str | None":
    if given is not None:
        return given
    text = linecache.getline(file, line) if file and line else ""
    return text.rstrip("\n") or None


def line_records(doc: dict, instructions: list[dict]) -> list[dict]:
    by_site = {}
    for ins, site in zip(instructions, doc.get("sites", [])):
        by_site[site.get("site")] = ins
    out = []
    for lg in doc.get("lines", []):
        st = lg.get("stats", {})
        ins = [by_site[s] for s in lg.get("sites", []) if s in by_site]
        rec = {"file": lg.get("file"), "line": lg.get("line"),
               "source": _source(lg.get("file"), lg.get("line"),
                                 lg.get("source")),
               "instructions": len(lg.get("sites", [])),
               "accesses": ", ".join("%s %s" % (a["space"], a["op"])
                                     for a in lg.get("accesses", [])),
               "rank": lg.get("rank", 0)}
        for k in _STATS:
            rec[k] = st.get(k, 0)
        rec["excess"] = rec["excessive_sectors"] + rec["conflicts"]
        worst = max(ins, key=lambda r: (r["excessive_sectors"] +
                                        r["conflicts"]), default=None)
        rec["advice"] = worst["advice"] if worst else None
        out.append(rec)
    return out
