#!/usr/bin/env python3
"""CPU time of every test in two ctest build trees, run alternately.

    scripts/test-times.py OLD_BUILD NEW_BUILD [REPS] [OUT.json]

Each test both trees have (not the nvcc, lab or zsh completion tests) runs
as ctest runs it -- its command, working directory and environment, with
standard input closed -- REPS times (default 2) from each tree in turn; its
time is the minimum CPU time (user + system of the test's processes).  A
test more than 1.2x slower and over 50 ms runs three more times each.
Prints each test, the totals and the 15 largest ratios.  Used for "The test
suite before and after" in docs/performance.md.
"""
import json
import os
import resource
import subprocess
import sys


def tests(build):
    j = json.loads(subprocess.check_output(
        ["ctest", "--test-dir", build, "--show-only=json-v1"]))
    found = {}
    for t in j["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        if "command" not in t or "nvcc" in (props.get("LABELS") or []):
            continue
        found[t["name"]] = (t["command"], props.get("WORKING_DIRECTORY", build),
                            props.get("ENVIRONMENT", []))
    return found


def cpu_time(cmd, wd, envl):
    env = dict(os.environ)
    for e in envl:
        k, _, v = e.partition("=")
        env[k] = v
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        subprocess.run(cmd, cwd=wd, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=600)
    except subprocess.TimeoutExpired:
        return float("nan")
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main():
    old, new = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    O, N = tests(old), tests(new)
    names = [n for n in N if n in O and not n.startswith("lab_")
             and not n.startswith("completion_zsh")]
    res = {}
    for i, n in enumerate(names):
        to, tn = [], []
        for _ in range(reps):
            to.append(cpu_time(*O[n]))
            tn.append(cpu_time(*N[n]))
        if min(tn) > 1.2 * min(to) and min(tn) > 0.05:
            for _ in range(3):
                to.append(cpu_time(*O[n]))
                tn.append(cpu_time(*N[n]))
        res[n] = {"old": min(to), "new": min(tn)}
        print(f"{i + 1}/{len(names)} {n} {res[n]['old']:.3f} {res[n]['new']:.3f}",
              flush=True)
    if len(sys.argv) > 4:
        with open(sys.argv[4], "w") as f:
            json.dump(res, f, indent=1)
    to = sum(v["old"] for v in res.values())
    tn = sum(v["new"] for v in res.values())
    print(f"total CPU old {to:.2f} s new {tn:.2f} s ratio {tn / to:.3f}")
    worst = sorted(((v["new"] / max(v["old"], 1e-3), n, v)
                    for n, v in res.items() if v["new"] > 0.03), reverse=True)
    for r, n, v in worst[:15]:
        print(f"  {r:.2f}x {n} {v['old']:.3f} -> {v['new']:.3f}")


if __name__ == "__main__":
    main()
