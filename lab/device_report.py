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

  device_report.py targets --lab LAB.json [--torch TORCH.json] --out DIR
      Checks the H200 targets of docs/lab.md against a measured run and
      writes targets.txt and targets.json.

Only the Python standard library is used.
"""
import argparse
import csv
import json
import os
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


def read_ncu(path):
    """ncu --csv --page raw or the default details page: a list of launches
    [(kernel name, {metric: value})] in launch order."""
    launches = []
    if not path or not os.path.exists(path):
        return launches
    with open(path, newline="") as f:
        lines = [ln for ln in f if ln.startswith('"')]
    rows = list(csv.reader(lines))
    if not rows:
        return launches
    head = rows[0]
    if "Metric Name" in head:  # details page: one row per (launch, metric)
        i_id, i_k = head.index("ID"), head.index("Kernel Name")
        i_m, i_v = head.index("Metric Name"), head.index("Metric Value")
        by_id = {}
        order = []
        for r in rows[1:]:
            if len(r) <= max(i_id, i_k, i_m, i_v):
                continue
            if r[i_id] not in by_id:
                by_id[r[i_id]] = (r[i_k], {})
                order.append(r[i_id])
            by_id[r[i_id]][1][r[i_m]] = num(r[i_v])
        return [by_id[i] for i in order]
    i_k = head.index("Kernel Name") if "Kernel Name" in head else None
    i_id = head.index("ID") if "ID" in head else 0
    for r in rows[1:]:  # raw page: a row of units, then one row per launch
        if i_k is None or len(r) != len(head) or num(r[i_id]) is None:
            continue
        launches.append((r[i_k], {h: num(v) for h, v in zip(head, r)}))
    return launches


def find_metrics(obj, out):
    """Every "<unit>__<name>.sum": number in a warpmem JSON report; the
    largest value of a name is the kernel total (sites are parts of it)."""
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


def compare(a):
    once = load_json(a.once)
    if once is None:
        return 1
    rows = [r for r in once["rows"] if r.get("ptx") and
            r["measured"]["status"] in ("checked", "ok")]
    ncu = [l for l in read_ncu(a.ncu) if l[0].startswith("lab_")]
    have_run = False
    if a.warpmem and os.path.exists(a.warpmem):
        p = subprocess.run([a.warpmem, "run", "--help"], capture_output=True,
                           text=True)
        have_run = p.returncode == 0
    os.makedirs(a.out, exist_ok=True)
    log = open(os.path.join(a.out, "warpmem-run.log"), "w")
    if not have_run:
        log.write("warpmem has no `run` command here: no PTX predictions\n")
    # ncu launches are matched to rows by order and kernel name
    if ncu and len(ncu) != len(rows):
        log.write(f"ncu saw {len(ncu)} lab launches for {len(rows)} rows; "
                  "matching by order and name where possible\n")
    out_rows = []
    ni = 0
    for r in rows:
        hw = None
        while ni < len(ncu):
            name, metrics = ncu[ni]
            ni += 1
            if name.split("(")[0] == r["kernel"]:
                hw = metrics
                break
        wr = warpmem_run(a.warpmem, a.root, r, log) if have_run else None
        entry = {"id": r["id"], "kernel": r["kernel"],
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
        out_rows.append(entry)
    log.close()
    doc = {"env": once.get("env"), "ncu_csv": a.ncu if ncu else None,
           "warpmem_run": have_run,
           "note": "per request: global sectors or shared wavefronts; "
                   "shared requests from smsp__sass_inst_executed_op_shared_*",
           "rows": out_rows}
    with open(os.path.join(a.out, "compare.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(a.out, "compare.txt"), "w") as f:
        e = once.get("env", {})
        f.write(f"model vs warpmem run vs ncu, per request, on {e.get('device')}"
                f" (driver {e.get('driver')}), {e.get('date')}\n")
        f.write(f"warpmem run: {'yes' if have_run else 'not available'}; "
                f"ncu: {'yes' if ncu else 'not available'}\n\n")
        f.write(f"{'row':16s} {'cat':5s} {'model':>8s} {'ideal':>8s} "
                f"{'w.run':>8s} {'ncu':>8s}\n")
        for r in out_rows:
            for label, c in r["categories"].items():
                f.write(f"{r['id']:16s} {label:5s} "
                        f"{fmt(c['model_first_block']):>8s} "
                        f"{fmt(c['model_ideal']):>8s} "
                        f"{fmt(c['warpmem_run']):>8s} {fmt(c['ncu']):>8s}\n")
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
          ">= 0.97", own and mc and own / mc >= 0.97, "lab-anchors.md 9 E0")
    check("own copy GB/s", own, ">= 4100", own and own >= 4100,
          "lab-anchors.md 9 E0")
    pad, vec, geam = gbs("E5.pad"), gbs("E5.vec4"), gbs("E5.sgeam")
    check("padded transpose / C_ref", pad / cref if pad and cref else None,
          ">= 0.90", pad and cref and pad / cref >= 0.90,
          "lab-anchors.md 9 E6c")
    check("best transpose / C_ref", vec / cref if vec and cref else None,
          ">= 0.95", vec and cref and vec / cref >= 0.95,
          "lab-anchors.md 9 E6e")
    check("best transpose / cublasSgeam", vec / geam if vec and geam else None,
          ">= 1.0", vec and geam and vec / geam >= 1.0, "lab-anchors.md 9 E6f")
    t_gbs = None
    if tor:
        for r in tor.get("rows", []):
            if r["id"] == "torch.t_contiguous" and r.get("gbs"):
                t_gbs = r["gbs"]["median"]
    check("best transpose / torch .t().contiguous()",
          vec / t_gbs if vec and t_gbs else None, "> 1.0",
          vec and t_gbs and vec / t_gbs > 1.0, "issue 5 deliverable 5")
    for i, r in rows.items():
        if r["type"] != "smem" or not r.get("predicted_rel") or \
                not r.get("baseline"):
            continue
        m = r["measured"].get("measured_rel")
        p = r["predicted_rel"]
        check(f"{i} time / conflict-free vs model {p:g}x",
              m / p if m else None, "within 0.90 .. 1.10",
              m and 0.9 <= m / p <= 1.1, "lab-anchors.md 9 E7a")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "targets.json"), "w") as f:
        json.dump({"env": lab["env"], "c_ref_gbs": cref, "targets": res}, f,
                  indent=1)
    with open(os.path.join(a.out, "targets.txt"), "w") as f:
        e = lab["env"]
        f.write(f"targets on {e['device']} (driver {e['driver']}), "
                f"{e['date']}; C_ref {cref:.1f} GB/s\n\n")
        for t in res:
            met = {None: "n/a", True: "met", False: "MISSED"}[t["met"]]
            f.write(f"{t['target']:48s} {fmt(t['value']):>8s} "
                    f"{t['want']:>20s}  {met:6s} ({t['source']})\n")
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
    t.add_argument("--out", required=True)
    a = ap.parse_args()
    return compare(a) if a.cmd == "compare" else targets(a)


if __name__ == "__main__":
    sys.exit(main())
