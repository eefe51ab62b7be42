"""expr_examples.py -- `warpmem expr -f FILE --format csv` on every program
of examples/expr as a user runs it: the whole process's CPU seconds (user +
system, as the operating system counts the finished child), alternated
with its baseline, the start-up floor: the same command on a program of one
warp access (start, parse, report: what every run pays).  Prints the
median (min) of REPEATS runs of each, their ratio, the target (< 0.1 s CPU
each), and the machine and its load average before and after.  Needs no
package beyond the standard library.

usage: python3 expr_examples.py WARPMEM [REPEATS]   (default 3)
"""
import glob
import os
import resource
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FLOOR = ["expr", "--block", "32", "load global f32 a[32] at [tid.x]",
         "--format", "csv"]


def machine(when):
    """The CPU model, the cores and the load average, one line."""
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return "machine: %s, %d cores online; load average %s (%s)" % (
        model, os.cpu_count(), load, when)


def cpu(cmd):
    """CPU seconds of one run of cmd (its output thrown away)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                 before.ru_stime)


def main():
    exe = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(machine("start"))
    print("| program | CPU s, median (min) of %d | start-up floor | "
          "program / floor | target < 0.1 s |" % reps)
    print("|---|---|---|---|---|")
    progs = sorted(glob.glob(os.path.join(HERE, "..", "examples", "expr",
                                          "*.expr")))
    for path in progs:
        t, b = [], []
        for _ in range(reps):  # alternated: a change of load hits both
            t.append(cpu([exe, "expr", "-f", path, "--format", "csv"]))
            b.append(cpu([exe] + FLOOR))
        mt, mb = statistics.median(t), statistics.median(b)
        print("| %s | %.4f (%.4f) | %.4f (%.4f) | %.1f | %s |" % (
            os.path.basename(path), mt, min(t), mb, min(b), mt / mb,
            "met" if mt < 0.1 else "not met"))
    print(machine("end"))


if __name__ == "__main__":
    main()
