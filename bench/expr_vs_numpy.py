"""expr_vs_numpy.py -- `warpmem expr` on the 8192 x 8192 transposed copy
against its numpy model (bench/expr_numpy.py), in one run: both must give
the same sector totals (checked before any figure is printed), then the
median CPU seconds of each over REPEATS runs (alternated) and their ratio,
with the machine and its load average before and after.  warpmem's figure
is the whole process (start-up, parse, run, report) as the operating
system counts its child; the model's is its computation alone (numpy's
import not counted), so the ratio favours the model.

usage: python expr_vs_numpy.py WARPMEM [REPEATS]   (default 3)
"""
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import expr_numpy  # noqa: E402
from expr_examples import machine  # noqa: E402

PROGRAM = os.path.join(HERE, "..", "examples", "expr", "transposed_copy.expr")
LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
ST = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"


def warpmem_run(exe):
    """CPU seconds of one `warpmem expr` and its (load, store) sectors."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([exe, "expr", "-f", PROGRAM, "--format", "csv"],
                         check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                before.ru_stime)
    tot = {}
    for line in out.splitlines():
        f = line.split(",")
        if len(f) > 13 and f[3] == "total" and f[11] in (LD, ST):
            tot[f[11]] = int(f[13])
    return cpu, (tot.get(LD), tot.get(ST))


def numpy_run():
    t0 = time.process_time()
    ld, st = expr_numpy.model(8192)
    return time.process_time() - t0, (ld, st)


def main():
    exe = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(machine("start"))
    w, m = [], []
    for _ in range(reps):  # alternated, so a change of load hits both
        cw, sw = warpmem_run(exe)
        cm, sm = numpy_run()
        if sw != sm:
            sys.exit("expr_vs_numpy: sector totals differ: warpmem %s, "
                     "numpy %s" % (sw, sm))
        w.append(cw)
        m.append(cm)
    mw, mm = statistics.median(w), statistics.median(m)
    print("| what | CPU s, median (min) of %d |" % reps)
    print("|---|---|")
    print("| numpy model (baseline) | %.3f (%.3f) |" % (mm, min(m)))
    print("| warpmem expr, whole process | %.4f (%.4f) |" % (mw, min(w)))
    print("numpy / warpmem: %.0fx (target >= 50x: %s); sectors ld %d st %d"
          % (mm / mw, "met" if mm / mw >= 50 else "not met", sm[0], sm[1]))
    print(machine("end"))


if __name__ == "__main__":
    main()
