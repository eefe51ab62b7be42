"""python -m warpmem run KERNEL.ptx ... -- the CLI's `run` for PTX files,
through the Python binding (the same options and --arg specs)."""
from __future__ import annotations

import argparse
import ctypes
import sys

import numpy as np

from . import KernelFault, __version__, run_ptx
from . import _lib as L
from ._lib import lib

_NP = {"i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16,
       "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64,
       "f16": np.float16, "f32": np.float32, "f64": np.float64}


class SpecError(ValueError):
    pass


def _dims(s: str) -> tuple[int, ...]:
    try:
        d = tuple(int(x) for x in s.replace("x", ",").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not X[,Y[,Z]]" % s)
    if not 1 <= len(d) <= 3 or min(d) < 1:
        raise argparse.ArgumentTypeError("'%s' is not X[,Y[,Z]]" % s)
    return d


def _scalar(t: str, text: str):
    try:
        if t == "bf16":
            f = np.float32(float(text)).view(np.uint32)
            return np.uint16((int(f) + 0x7fff + ((int(f) >> 16) & 1)) >> 16)
        if t.startswith("f"):
            return _NP[t](float(text))
        v = int(text, 0)
        info = np.iinfo(_NP[t])
        if not info.min <= v <= info.max:
            raise SpecError("%s=%s: out of range" % (t, text))
        return _NP[t](v)
    except (ValueError, OverflowError) as e:
        if isinstance(e, SpecError):
            raise
        raise SpecError("%s=%s: not a %s value" % (t, text, t)) from None


def parse_arg(spec: str):
    """TYPE=VALUE -> a numpy scalar; TYPE[N][:init][:file=P][:out=P] ->
    (buffer, out path or None)."""
    head = spec.split(":", 1)[0]
    if "=" in head:
        t, _, v = spec.partition("=")
        if t not in L.PTX_TYPES:
            raise SpecError("'%s': unknown type %s" % (spec, t))
        return _scalar(t, v), None
    parts = spec.split(":")
    t, _, n = parts[0].partition("[")
    if t not in L.PTX_TYPES or not n.endswith("]"):
        raise SpecError("'%s' is not TYPE[N][:zeros|:iota|:rand=SEED]"
                        "[:file=PATH][:out=PATH] or TYPE=VALUE" % spec)
    try:
        count = int(n[:-1])
    except ValueError:
        raise SpecError("'%s': N is not a count" % spec) from None
    ti = L.PTX_TYPES.index(t)
    size = lib.wm_ptx_type_size(ti)
    buf = np.zeros(count * size, np.uint8)
    out = None
    for p in parts[1:]:
        if p.startswith("out="):
            out = p[4:]
        elif p.startswith("file="):
            data = np.fromfile(p[5:], np.uint8)
            buf[:min(len(data), buf.size)] = data[:buf.size]
        else:
            # zeros, iota, rand=SEED[,LO,HI]: the library's fill rules
            st = lib.wm_ptx_fill(buf.ctypes.data if count else None, ti,
                                 count, p.encode())
            if st != L.WM_OK:
                raise SpecError("'%s': unknown fill rule '%s'" % (spec, p))
    return buf, out


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m warpmem",
        description="Interpret a PTX kernel on the CPU and report memory "
                    "traffic per source line (the CLI's `run`).")
    ap.add_argument("--version", action="version", version=__version__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a kernel of a .ptx file")
    r.add_argument("ptx")
    r.add_argument("--kernel")
    r.add_argument("--grid", type=_dims, default=(1,))
    r.add_argument("--block", type=_dims)
    r.add_argument("--smem", type=int, default=0)
    r.add_argument("--arg", action="append", default=[], metavar="SPEC")
    r.add_argument("--ctas", default="all")
    r.add_argument("--max-steps", type=int, default=100_000_000)
    r.add_argument("-j", type=int, default=0, dest="threads")
    r.add_argument("--arch")
    r.add_argument("--format", choices=("text", "json", "csv"),
                   default="text")
    r.add_argument("--explain", action="store_true")
    r.add_argument("--html")
    r.add_argument("--list", action="store_true")
    a = ap.parse_args(argv)
    try:
        if a.list:
            from .ptx import _Module
            mod = _Module(a.ptx)
            for k in range(lib.wm_ptx_nkernels(mod.m)):
                print(mod.describe(k)[0].signature)
            return 0
        if a.block is None:
            ap.error("run: --block is required")
        args, outs = [], []
        for spec in a.arg:
            v, out = parse_arg(spec)
            args.append(v)
            if out:
                outs.append((v, out))
        fault = None
        try:
            rep = run_ptx(a.ptx, kernel=a.kernel, grid=a.grid, block=a.block,
                          args=args, smem=a.smem, arch=a.arch, ctas=a.ctas,
                          max_steps=a.max_steps, threads=a.threads,
                          explain=a.explain,
                          text_format="csv" if a.format == "csv" else "text")
        except KernelFault as e:
            fault, rep = e, e.report
        for v, path in outs:  # written even after a fault, as the CLI does
            v.tofile(path)
        if fault is not None:
            print("warpmem: %s: %s: %s" % (fault.source or "ptx:%s" %
                                           fault.ptx_line, fault.status,
                                           fault.message), file=sys.stderr)
            print("  block (%d,%d,%d), thread (%d,%d,%d) (warp %d, lane %d)"
                  % (*fault.block, *fault.thread, fault.warp, fault.lane),
                  file=sys.stderr)
            print("  ptx: %s" % fault.ptx, file=sys.stderr)
            if a.format == "json":
                print(rep.to_json())
            return 1
        sys.stdout.write(rep.to_json() + "\n" if a.format == "json"
                         else str(rep))
        if a.html:
            rep.to_html(a.html)
        return 0
    except (ValueError, TypeError) as e:
        print("warpmem: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
