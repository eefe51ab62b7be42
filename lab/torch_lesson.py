#!/usr/bin/env python3
"""torch_lesson.py -- the lesson's experiment in PyTorch, for comparison
with warpmem-lab in the same run (lab/device-check.sh runs it).

Copies an n x n fp32 matrix into a contiguous output with Tensor.copy_,
once from the matrix itself and once from its transposed view x.t(), and
times x.t().contiguous() at the transpose size of warpmem-lab's E5.  Same
method as the lab: the result is checked before timing (poisoned output,
exact comparison), then the median of N samples of back-to-back launches
between CUDA events, with min and max; GB/s = (read + written) / time,
10^9 units.

usage: torch_lesson.py [--n 8192] [--transpose-n N] [--repeat 10]
                       [--json FILE]
"""
import argparse
import json
import statistics
import sys
import time


def timed(torch, fn, repeat, min_ms=2.0):
    """Median/min/max milliseconds per call of fn, after 2 warm-up calls."""
    fn()
    fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    stop.record()
    stop.synchronize()
    one = start.elapsed_time(stop)
    per = max(1, min(1000, int(min_ms / one) + 1 if one > 0 else 1000))
    samples = []
    for _ in range(repeat):
        start.record()
        for _ in range(per):
            fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop) / per)
    return statistics.median(samples), min(samples), max(samples), per


def row(torch, name, src, out, repeat, what):
    """Check out.copy_(src) on a poisoned output, then time it."""
    nbytes = 2 * src.numel() * src.element_size()
    out.fill_(-1.5)
    out.copy_(src)
    torch.cuda.synchronize()
    ok = bool(torch.equal(out, src.contiguous()))
    res = {"id": name, "what": what, "shape": list(src.shape),
           "bytes": nbytes, "check": "ok" if ok else "FAILED"}
    if not ok:
        return res
    med, lo, hi, per = timed(torch, lambda: out.copy_(src), repeat)
    res.update({"ms": {"median": med, "min": lo, "max": hi},
                "gbs": {"median": nbytes / (med * 1e-3) / 1e9,
                        "min": nbytes / (hi * 1e-3) / 1e9,
                        "max": nbytes / (lo * 1e-3) / 1e9},
                "samples": repeat, "launches_per_sample": per})
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=8192)
    ap.add_argument("--transpose-n", type=int, default=0,
                    help="side of the .t().contiguous() matrix (default: n)")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_lesson.py: PyTorch not importable: {e}", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print("torch_lesson.py: no CUDA device visible to PyTorch",
              file=sys.stderr)
        return 3
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1)
    rows = []
    x = torch.randn(a.n, a.n, device="cuda", dtype=torch.float32,
                    generator=gen)
    out = torch.empty(a.n, a.n, device="cuda", dtype=torch.float32)
    rows.append(row(torch, "torch.contiguous", x, out, a.repeat,
                    "out.copy_(x), coalesced reads"))
    rows.append(row(torch, "torch.transposed", x.t(), out, a.repeat,
                    "out.copy_(x.t()), the transposed view"))
    del x, out
    tn = a.transpose_n or a.n
    y = torch.randn(tn, tn, device="cuda", dtype=torch.float32,
                    generator=gen)
    out = torch.empty(tn, tn, device="cuda", dtype=torch.float32)
    rows.append(row(torch, "torch.t_contiguous", y.t(), out, a.repeat,
                    "y.t().contiguous() equivalent at the E5 size"))
    doc = {"tool": "torch_lesson.py", "torch": torch.__version__,
           "cuda": torch.version.cuda,
           "device": torch.cuda.get_device_name(0),
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "units": "GB/s = 1e9 B/s, bytes = read + written, median",
           "rows": rows}
    for r in rows:
        g = r.get("gbs", {})
        print(f"{r['id']:20s} {str(r['shape']):16s} {r['check']:7s} "
              f"{g.get('median', 0):9.1f} GB/s "
              f"[{g.get('min', 0):.1f} .. {g.get('max', 0):.1f}]  {r['what']}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
    return 0 if all(r["check"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
