"""Assertions for a kernel's own test suite (pytest or any runner that
reports AssertionError): memory behaviour as part of the tests.

    from warpmem.testing import assert_coalesced, assert_no_hazards

    def test_row_sums_is_coalesced():
        rep = warpmem.triton.analyze(row_sums, grid, out, m, n, BLOCK=128,
                                     check="race,init", on_hazard="ignore")
        assert_coalesced(rep, source="tl.load(m_ptr")
        assert_no_hazards(rep)

assert_coalesced and assert_no_bank_conflicts also take the verdicts of
warpmem.lint_ptx, judged without a run (a Lint: the block's warps once).
Each selects memory instructions by source line number (``line=``) and/or
a piece of the line's text (``source=``), optionally in one file
(``file=``, a suffix of the path); no selection means the whole kernel.
A failure says which line, what it costs against the ideal and what the
advisor proposes."""
from __future__ import annotations

import os
from typing import Any

__all__ = ["assert_coalesced", "assert_no_bank_conflicts",
           "assert_no_hazards"]

__tracebackhide__ = True


def _select(rep: Any, line: "int | None", source: "str | None",
            file: "str | None", spaces: tuple, what: str) -> list[dict]:
    rows = [r for r in rep.lines
            if (line is None or r["line"] == line)
            and (source is None or (r["source"] and source in r["source"]))
            and (file is None or (r["file"] or "").endswith(file))]
    chosen = [r for r in rows if r["space"] in spaces]
    if not chosen and (line is not None or source is not None):
        have = sorted({(os.path.basename(r["file"] or "?"), r["line"])
                       for r in rep.lines if r["space"] in spaces})
        sel = " ".join(x for x in (
            "line %d" % line if line is not None else "",
            "source containing %r" % source if source is not None else "",
            "in %s" % file if file else "") if x)
        raise AssertionError(
            "warpmem: no %s memory instruction at %s in %s; lines with one: "
            "%s" % (what, sel, rep.kernel or "the kernel", ", ".join(
                "%s:%d" % h for h in have) or "none"))
    return chosen


def _by_line(rows: list[dict]) -> dict:
    """The rows by (file, line, space, op): a line's loads apart from its
    stores."""
    out: dict = {}
    for r in rows:
        out.setdefault((r["file"], r["line"], r["space"], r["op"]),
                       []).append(r)
    return out


def _where(key: tuple, rows: list[dict]) -> str:
    file, line, space, op = key
    src = next((r["source"].strip() for r in rows if r["source"]), "")
    return "%s:%d%s, %s %s" % (os.path.basename(file or "?"), line,
                               " (%s)" % src if src else "", space, op)


def _advice(rows: list[dict]) -> str:
    adv = [r["advice"] for r in rows if r.get("advice")]
    return "\n    advisor: %s" % adv[0] if adv else ""


def assert_coalesced(rep: Any, line: "int | None" = None, *,
                     source: "str | None" = None, file: "str | None" = None,
                     max_excessive: int = 0) -> None:
    """The selected global (and local) loads and stores touch no more
    32-byte sectors than their bytes need (at most ``max_excessive``
    excessive sectors per line)."""
    __tracebackhide__ = True
    rows = _select(rep, line, source, file, ("global", "local"), "global")
    bad = []
    for key, rs in _by_line(rows).items():
        exc = sum(r["excessive_sectors"] for r in rs)
        if exc > max_excessive:
            req = sum(r["requests"] for r in rs) or 1
            sec = sum(r["sectors"] for r in rs)
            ideal = sum(r["ideal_sectors"] for r in rs)
            bad.append("%s: %.1f sectors per request where %.1f would do "
                       "(%d excessive sectors over %d requests)%s" % (
                           _where(key, rs), sec / req, ideal / req, exc,
                           req, _advice(rs)))
    if bad:
        raise AssertionError("warpmem: %s is not coalesced:\n  %s" % (
            rep.kernel or "the kernel", "\n  ".join(bad)))


def assert_no_bank_conflicts(rep: Any, line: "int | None" = None, *,
                             source: "str | None" = None,
                             file: "str | None" = None) -> None:
    """The selected shared-memory accesses take no more wavefronts than
    their bytes need (no bank conflicts)."""
    __tracebackhide__ = True
    rows = _select(rep, line, source, file, ("shared",), "shared")
    bad = []
    for key, rs in _by_line(rows).items():
        con = sum(r["conflicts"] for r in rs)
        if con:
            req = sum(r["requests"] for r in rs) or 1
            wf = sum(r["wavefronts"] for r in rs)
            ideal = sum(r["ideal_wavefronts"] for r in rs)
            worst = max(r["per_request_max"] or 0 for r in rs)
            bad.append("%s: %.1f wavefronts per request where %.1f would do "
                       "(%d conflicts over %d requests, worst %d-way)%s" % (
                           _where(key, rs), wf / req, ideal / req, con,
                           req, worst, _advice(rs)))
    if bad:
        raise AssertionError("warpmem: %s has bank conflicts:\n  %s" % (
            rep.kernel or "the kernel", "\n  ".join(bad)))


def assert_no_hazards(rep: Any) -> None:
    """The run's checks found no hazard (the report must come from a run
    with ``check=``)."""
    __tracebackhide__ = True
    if not getattr(rep, "checked", False):
        raise AssertionError(
            "warpmem: the report of %s was made without checks: run it with "
            "check='race,init' (and on_hazard='ignore' to assert here)"
            % (rep.kernel or "the kernel"))
    if rep.hazards:
        raise AssertionError("warpmem: %d hazard%s in %s:\n  %s" % (
            len(rep.hazards), "" if len(rep.hazards) == 1 else "s",
            rep.kernel or "the kernel",
            "\n  ".join(h["message"] for h in rep.hazards)))
