#!/usr/bin/env python3
"""device_report.py -- the reporting half of lab/device-check.sh.

  device_report.py compare --once ONCE.json [--ncu NCU.csv]
                   [--warpmem BIN] [--root DIR] --out DIR
      For every kernel row that `warpmem-lab --once` launched, put three
      views of the same launch side by side, per request: the lab's model
      (lane addresses of the first block, counted by wm_count), `warpmem run`
      on the committed PTX with the same grid, block and arguments (when the
      warpmem binary has the run command), and Nsight Compute's counters
      (when NCU.csv exists).  Writes compare.txt and compare.json.

      The export is read by `warpmem compare NCU.csv --format json` (the
      warpmem binary given, else $WARPMEM, else build/warpmem).
      Launches are matched to rows by kernel name and launch order, for
      every row whatever its status (each row says how many launches of its
      kernel the driver accepted), so a failed row cannot shift the
      counters of the rows after it.  NCU.csv must come from
      `ncu --print-units base`: a metric in any other unit (Kbyte, Msector)
      is refused, and `==ERROR==` lines make the ncu column FAILED with the
      message.

  device_report.py targets --lab LAB.json [--torch TORCH.json]
                   [--compare COMPARE.json] --out DIR
      Checks the H200 targets of docs/lab.md against a measured run and
      writes targets.txt and targets.json; with COMPARE.json the bank
      probes are also judged by ncu's wavefronts per request.

  device_report.py ncu-check NCU.csv [--warpmem BIN]
      Exit 1 (with the reason) if the export has ==ERROR== lines, non-base
      units or no lab launch: what makes lab/device-check.sh's ncu step fail.

  device_report.py metrics-check --list QUERY.txt --metrics M1,M2,...
      Exit 1 naming every metric that `ncu --query-metrics` (QUERY.txt)
      does not list for the device.

Only the Python standard library is used.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

# (label, ncu requests metric, ncu count metric) per category.
CATS = [
    ("g.ld", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
     "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global_ld", "sectors"),
    ("g.st", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
     "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global_st", "sectors"),
    ("s.ld", "smsp__sass_inst_executed_op_shared_ld.sum",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared_ld",
     "wavefronts"),
    ("s.st", "smsp__sass_inst_executed_op_shared_st.sum",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared_st",
     "wavefronts"),
]


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"device_report.py: {path}: {e}", file=sys.stderr)
        return None


def num(text):
    try:
        return float(str(text).replace(",", ""))
    except ValueError:
        return None


class NcuError(Exception):
    """The export cannot be trusted: ncu reported an error, or a unit is not
    a base unit."""


# A unit with an SI prefix (what ncu prints without --print-units base):
# Kbyte, Mbyte/second, Gsector, Kinst, usecond, ...  "nsecond" is ncu's
# base unit of time and stays allowed.
PREFIXED = re.compile(r"^(K|M|G|T|P|E|k|m|u|\u00b5)"
                      r"(byte|sector|request|inst|wavefront|cycle|warp|"
                      r"thread|second|hz|Hz)")


def unit_ok(unit):
    return not PREFIXED.match((unit or "").strip())


def kernel_base(name):
    """ncu's kernel name without a parameter list or template arguments."""
    return name.split("(")[0].strip()


def find_warpmem(binary=""):
    """The warpmem CLI: the one given, else $WARPMEM, else build/warpmem of
    this checkout."""
    for c in (binary, os.environ.get("WARPMEM", ""),
              os.path.join(os.path.dirname(os.path.dirname(
                  os.path.abspath(__file__))), "build", "warpmem")):
        if c and os.access(c, os.X_OK):
            return c
    return None


def read_ncu(path, warpmem=""):
    """An ncu CSV export (raw or details page, any order of launches) read by
    `warpmem compare EXPORT --format json`, warpmem's one CSV reader: a list
    of launches [(kernel name, {metric: value})] in file order.  Raises
    NcuError for ==ERROR== lines, a malformed export (warpmem's file:line
    message) and for non-base units."""
    if not path or not os.path.exists(path):
        return []
    binary = find_warpmem(warpmem)
    if not binary:
        raise NcuError("no warpmem binary to read the export with "
                       "(--warpmem BIN or $WARPMEM)")
    p = subprocess.run([binary, "compare", path, "--format", "json"],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        msg = (p.stderr.strip().splitlines() or ["warpmem compare failed"])[0]
        tag = "the profiler reported an error: "
        raise NcuError(msg.split(tag, 1)[1] if tag in msg else msg)
    launches = []
    for ln in json.loads(p.stdout)["launches"]:
        metrics = {}
        for m in ln["metrics"]:
            if "__" in m["name"] and not unit_ok(m["unit"]):
                raise NcuError(f"{m['name']} is in {m['unit']}, not a base "
                               "unit: run ncu with --print-units base")
            metrics[m["name"]] = m["value"]
        launches.append((ln["kernel"], metrics))
    return launches


def launches_of(row):
    """How many launches of its lab_ kernel a row made (the JSON says; an
    older JSON without the field: one for a row that reached its check)."""
    m = row["measured"]
    n = m.get("kernel_launches")
    if n is None:
        n = 1 if m["status"] in ("checked", "ok", "CHECK-FAILED") else 0
    return n


def match_ncu(rows, ncu):
    """Pair ncu launches with rows: the k-th launch of a kernel name belongs
    to the row that made it, counting every row's launches in table order
    whatever its status.  Returns ({row id: metrics of the row's first
    launch or None}, [notes on counts that do not add up])."""
    by_name = {}
    for name, metrics in ncu:
        by_name.setdefault(kernel_base(name), []).append(metrics)
    used, hw, notes = {}, {}, []
    for r in rows:
        if not r.get("ptx"):
            continue
        k, n = r["kernel"], launches_of(r)
        i = used.get(k, 0)
        seen = by_name.get(k, [])
        hw[r["id"]] = seen[i] if n > 0 and i < len(seen) else None
        if n > 0 and i >= len(seen):
            notes.append(f"{r['id']}: ncu has no launch #{i + 1} of {k}")
        used[k] = i + n
    for k, seen in by_name.items():
        if len(seen) != used.get(k, 0):
            notes.append(f"{k}: ncu saw {len(seen)} launches, the rows made "
                         f"{used.get(k, 0)}")
    return hw, notes


def find_metrics(obj, out):
    """The kernel totals of a warpmem JSON document (docs/output.md):
    {"<unit>__<name>.sum": value}."""
    if isinstance(obj, dict) and obj.get("schema", "").startswith("warpmem/"):
        return {k: v["value"] for k, v in obj.get("totals", {}).items()
                if k.endswith(".sum")}
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (int, float)) and "__" in k and k.endswith(".sum"):
                out[k] = max(out.get(k, 0), v)
            else:
                find_metrics(v, out)
    elif isinstance(obj, list):
        for v in obj:
            find_metrics(v, out)
    return out


def warpmem_run(binary, root, row, log):
    """Run `warpmem run` on the row's PTX with the row's launch; returns the
    metric totals or None."""
    launch = row["measured"]["launch"]
    grid = ",".join(str(x) for x in launch["grid"])
    block = ",".join(str(x) for x in launch["block"])
    cmd = [binary, "run", os.path.join(root, row["ptx"]), "--kernel",
           row["kernel"], "--grid", grid, "--block", block, "--format",
           "json"]
    for spec in launch["args"].split():
        cmd += ["--arg", spec]
    log.write("$ " + " ".join(cmd) + "\n")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        log.write(f"  failed: {e}\n")
        return None
    log.write(p.stderr[-2000:])
    if p.returncode != 0:
        log.write(f"  exit {p.returncode}\n")
        return None
    try:
        return find_metrics(json.loads(p.stdout), {})
    except ValueError as e:
        log.write(f"  not JSON: {e}\n")
        return None


def per_req(count, req):
    return count / req if req else None


def fmt(v):
    return "-" if v is None else f"{v:.4g}"


def smem_verdict(entry, row):
    """A bank probe judged by ncu: wavefronts per shared-load request
    against the model's n-way (within 10 %)."""
    c = entry["categories"].get("s.ld")
    if row.get("type") != "smem" or not c or c.get("ncu") is None or \
            not c.get("model_first_block"):
        return None
    ratio = c["ncu"] / c["model_first_block"]
    return {"ncu_wavefronts_per_request": c["ncu"],
            "model": c["model_first_block"], "ratio": ratio,
            "met": 0.9 <= ratio <= 1.1}


def compare(a):
    once = load_json(a.once)
    if once is None:
        return 1
    rows = [r for r in once["rows"] if r.get("ptx") and
            r["measured"]["status"] != "not-run"]
    ncu_error = None
    try:
        ncu = [l for l in read_ncu(a.ncu, a.warpmem)
               if kernel_base(l[0]).startswith("lab_")]
    except NcuError as e:
        ncu, ncu_error = [], str(e)
    have_run = False
    if a.warpmem and os.path.exists(a.warpmem):
        p = subprocess.run([a.warpmem, "run", "--help"], capture_output=True,
                           text=True)
        have_run = p.returncode == 0
    os.makedirs(a.out, exist_ok=True)
    log = open(os.path.join(a.out, "warpmem-run.log"), "w")
    if not have_run:
        log.write("warpmem has no `run` command here: no PTX predictions\n")
    hw_of, notes = match_ncu(rows, ncu)
    for n in notes:
        log.write(f"ncu matching: {n}\n")
    out_rows = []
    for r in rows:
        hw = hw_of.get(r["id"])
        launched = launches_of(r) > 0
        wr = warpmem_run(a.warpmem, a.root, r, log) \
            if have_run and launched else None
        entry = {"id": r["id"], "kernel": r["kernel"],
                 "status": r["measured"]["status"],
                 "note": r["measured"].get("note", ""),
                 "launch": r["measured"]["launch"], "categories": {}}
        for label, m_req, m_cnt, key, what in CATS:
            model = r["model"][key]
            c = {"model_first_block": per_req(model[what], model["requests"]),
                 "model_ideal": per_req(model["ideal"], model["requests"]),
                 "warpmem_run": None, "ncu": None,
                 "ncu_requests": None, "warpmem_requests": None}
            if wr and wr.get(m_req):
                c["warpmem_run"] = per_req(wr.get(m_cnt, 0), wr[m_req])
                c["warpmem_requests"] = wr[m_req]
            if hw and hw.get(m_req):
                c["ncu"] = per_req(hw.get(m_cnt) or 0, hw[m_req])
                c["ncu_requests"] = hw[m_req]
            if any(c[k] for k in ("model_first_block", "warpmem_run", "ncu")):
                entry["categories"][label] = c
        if hw:
            entry["ncu_raw"] = {k: v for k, v in hw.items() if "__" in k}
        if wr:
            entry["warpmem_raw"] = wr
        v = smem_verdict(entry, r)
        if v:
            entry["probe_by_ncu"] = v
        out_rows.append(entry)
    log.close()
    doc = {"env": once.get("env"), "ncu_csv": a.ncu if ncu else None,
           "ncu_error": ncu_error, "ncu_matching": notes,
           "warpmem_run": have_run,
           "note": "per request: global sectors or shared wavefronts; "
                   "shared requests from smsp__sass_inst_executed_op_shared_*",
           "rows": out_rows}
    with open(os.path.join(a.out, "compare.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(a.out, "compare.txt"), "w") as f:
        e = once.get("env", {})
        if ncu_error:
            ncu_state = f"FAILED: {ncu_error}"
        elif ncu:
            ncu_state = f"yes ({len(ncu)} lab launches)"
        elif a.ncu and os.path.exists(a.ncu):
            ncu_state = "FAILED: the export holds no lab_ launch"
        else:
            ncu_state = "not run"
        f.write(f"model vs warpmem run vs ncu, per request, on {e.get('device')}"
                f" (driver {e.get('driver')}), {e.get('date')}\n")
        f.write(f"warpmem run: {'yes' if have_run else 'not available'}; "
                f"ncu: {ncu_state}\n")
        for n in notes:
            f.write(f"ncu matching: {n}\n")
        f.write(f"\n{'row':16s} {'cat':5s} {'model':>8s} {'ideal':>8s} "
                f"{'w.run':>8s} {'ncu':>8s}  status\n")
        for r in out_rows:
            st = r["status"] if r["status"] == "checked" else \
                f"{r['status']}: {r['note']}" if r["note"] else r["status"]
            if not r["categories"]:
                f.write(f"{r['id']:16s} {'-':5s} {'':>8s} {'':>8s} {'':>8s} "
                        f"{'':>8s}  {st}\n")
            for label, c in r["categories"].items():
                f.write(f"{r['id']:16s} {label:5s} "
                        f"{fmt(c['model_first_block']):>8s} "
                        f"{fmt(c['model_ideal']):>8s} "
                        f"{fmt(c['warpmem_run']):>8s} {fmt(c['ncu']):>8s}"
                        f"  {st}\n")
        probes = [r for r in out_rows if "probe_by_ncu" in r]
        if probes:
            f.write("\nbank probes by ncu (wavefronts per request vs the "
                    "model's n-way, within 10 %):\n")
            for r in probes:
                v = r["probe_by_ncu"]
                f.write(f"{r['id']:16s} ncu {fmt(v['ncu_wavefronts_per_request'])}"
                        f" model {fmt(v['model'])}  "
                        f"{'met' if v['met'] else 'MISSED'}\n")
    return 0


def targets(a):
    lab = load_json(a.lab)
    if lab is None:
        return 1
    tor = load_json(a.torch) if a.torch and os.path.exists(a.torch) else None
    rows = {r["id"]: r for r in lab["rows"]}
    cref = lab["env"].get("c_ref_gbs") or 0

    def gbs(i):
        r = rows.get(i)
        if not r or r["measured"]["status"] != "ok":
            return None
        return r["measured"]["gbs"]["median"]

    res = []

    def check(name, value, want, ok, source):
        res.append({"target": name, "value": value, "want": want,
                    "met": None if value is None else bool(ok),
                    "source": source})

    mc, own = gbs("E0.memcpy"), gbs("E0.copy")
    check("own copy / cudaMemcpy", own / mc if own and mc else None,
          ">= 0.97", own and mc and own / mc >= 0.97, "docs/lab.md, targets")
    check("own copy GB/s", own, ">= 4100", own and own >= 4100,
          "docs/lab.md, targets")
    # A read-only stream should move about as many bytes per second as the
    # copy: well below it, the read kernel is limited by something else
    # (latency: 16 B in flight per thread; see docs/lab.md), and the
    # stride ratios built on it are not coalescing measurements.
    rd = gbs("E2.read.s1")
    check("E2.read.s1 / E0.copy (bytes moved per second)",
          rd / own if rd and own else None, "within 0.90 .. 1.10",
          rd and own and 0.9 <= rd / own <= 1.1, "docs/lab.md E2")
    pad, vec, geam = gbs("E5.pad"), gbs("E5.vec4"), gbs("E5.sgeam")
    check("padded transpose / C_ref", pad / cref if pad and cref else None,
          ">= 0.90", pad and cref and pad / cref >= 0.90,
          "docs/lab.md, targets")
    check("best transpose / C_ref", vec / cref if vec and cref else None,
          ">= 0.95", vec and cref and vec / cref >= 0.95,
          "docs/lab.md, targets")
    check("best transpose / cublasSgeam", vec / geam if vec and geam else None,
          ">= 1.0", vec and geam and vec / geam >= 1.0, "docs/lab.md, targets")
    t_gbs = None
    if tor:
        for r in tor.get("rows", []):
            if r["id"] == "torch.t_contiguous" and r.get("gbs"):
                t_gbs = r["gbs"]["median"]
    check("best transpose / torch .t().contiguous()",
          vec / t_gbs if vec and t_gbs else None, "> 1.0",
          vec and t_gbs and vec / t_gbs > 1.0, "docs/lab.md, targets")
    for i, r in rows.items():
        if r["type"] != "smem" or not r.get("predicted_rel") or \
                not r.get("baseline"):
            continue
        m = r["measured"].get("measured_rel")
        p = r["predicted_rel"]
        check(f"{i} time / conflict-free vs model {p:g}x",
              m / p if m else None, "within 0.90 .. 1.10",
              m and 0.9 <= m / p <= 1.1, "docs/lab.md, targets")
    cmp_doc = load_json(a.compare) if a.compare and \
        os.path.exists(a.compare) else None
    for r in (cmp_doc or {}).get("rows", []):
        v = r.get("probe_by_ncu")
        if v:
            check(f"{r['id']} ncu wavefronts/request vs model {v['model']:g}",
                  v["ratio"], "within 0.90 .. 1.10", v["met"],
                  "ncu, compare.json")
    clk = lab["env"].get("clocks_mhz") or {}
    moved = [r["id"] for r in lab["rows"]
             if r.get("measured", {}).get("clocks_moved")]
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "targets.json"), "w") as f:
        json.dump({"env": lab["env"], "c_ref_gbs": cref, "targets": res,
                   "clocks_moved": bool(clk.get("moved")),
                   "rows_at_other_clocks": moved}, f, indent=1)
    with open(os.path.join(a.out, "targets.txt"), "w") as f:
        e = lab["env"]
        f.write(f"targets on {e['device']} (driver {e['driver']}), "
                f"{e['date']}; C_ref {cref:.1f} GB/s\n")
        if clk.get("known"):
            f.write(f"clocks (MHz): SM {clk['sm'][1]} -> {clk['sm'][2]}, "
                    f"memory {clk['mem'][1]} -> {clk['mem'][2]}"
                    f"{'  MOVED' if clk.get('moved') else ' (steady)'}\n")
        else:
            f.write("clocks: unknown (no NVML)\n")
        if moved:
            f.write(f"rows timed at other clocks: {', '.join(moved)}\n")
        f.write("\n")
        for t in res:
            met = {None: "n/a", True: "met", False: "MISSED"}[t["met"]]
            f.write(f"{t['target']:48s} {fmt(t['value']):>8s} "
                    f"{t['want']:>20s}  {met:6s} ({t['source']})\n")
    return 0


def ncu_check(a):
    try:
        launches = [l for l in read_ncu(a.csv, a.warpmem)
                    if kernel_base(l[0]).startswith("lab_")]
    except NcuError as e:
        print(f"ncu: {e}")
        return 1
    if not launches:
        print(f"ncu: {a.csv} holds no lab_ launch")
        return 1
    print(f"ncu: {len(launches)} lab launches, base units")
    return 0


def metrics_check(a):
    """Every requested metric (its base name, without .sum/.avg/...) must
    appear in `ncu --query-metrics` output."""
    try:
        with open(a.list, errors="replace") as f:
            words = set(re.findall(r"[A-Za-z0-9_.]+__[A-Za-z0-9_.]+",
                                   f.read()))
    except OSError as e:
        print(f"metrics-check: {e}")
        return 1
    missing = []
    for m in [x for x in a.metrics.split(",") if x]:
        base = re.sub(r"\.(sum|avg|min|max|ratio|pct|per_second)$", "", m)
        if m not in words and base not in words:
            missing.append(m)
    if missing:
        print("metrics-check: not listed for this device: " +
              ", ".join(missing))
        return 1
    print(f"metrics-check: all {len(a.metrics.split(','))} metrics listed")
    return 0


def main():
    ap = argparse.ArgumentParser(description="lab/device-check.sh reports")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--once", required=True)
    c.add_argument("--ncu", default="")
    c.add_argument("--warpmem", default="")
    c.add_argument("--root", default=".")
    c.add_argument("--out", required=True)
    t = sub.add_parser("targets")
    t.add_argument("--lab", required=True)
    t.add_argument("--torch", default="")
    t.add_argument("--compare", default="")
    t.add_argument("--out", required=True)
    n = sub.add_parser("ncu-check")
    n.add_argument("csv")
    n.add_argument("--warpmem", default="")
    q = sub.add_parser("metrics-check")
    q.add_argument("--list", required=True)
    q.add_argument("--metrics", required=True)
    a = ap.parse_args()
    return {"compare": compare, "targets": targets, "ncu-check": ncu_check,
            "metrics-check": metrics_check}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
