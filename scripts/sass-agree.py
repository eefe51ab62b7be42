#!/usr/bin/env python3
"""The static agreement table of the SASS map (docs/model.md, "SASS level").

For every PTX file given, every kernel and every source line with memory
accesses: the SASS memory instructions the map predicts (a lead or an
unchanged access: one instruction of its width, a split: `parts`, a merged
access: none), keyed by SASS opcode and width, against those nvdisasm
lists on the line.  A line agrees when both have the same keys and the
disassembly's counts are one whole multiple of the predicted ones (ptxas
unrolls or duplicates loop bodies: the count per execution is the same).
Usage: sass-agree.py WARPMEM FILE.ptx...  (ptxas and nvdisasm as warpmem
finds them).
"""
import collections, json, re, subprocess, sys

def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout

def line_key(path, line):
    return (path.rsplit("/", 1)[-1], int(line))

def main():
    wm, files = sys.argv[1], sys.argv[2:]
    tot = collections.Counter()
    rows = []
    for f in files:
        sass = json.loads(run([wm, "sass", f, "--json"]))
        funcs = sorted({x["function"] for x in sass})
        c = collections.Counter()
        for fn in funcs:
            try:
                out = run([wm, "sass", f, "--map", "--kernel", fn])
            except subprocess.CalledProcessError:
                continue  # a .func, not a kernel
            pred = collections.defaultdict(collections.Counter)
            unmapped, widened = set(), set()
            for m in re.finditer(r"^(\S+):(\d+)\s+(same|lead|merged|split|unmapped)\s+(\d+) B(?: x(\d+)| /(\d+))?(?: [+-]\d+)*\s+(\S+)", out, re.M):
                k = line_key(m.group(1), m.group(2))
                kind, w, opc = m.group(3), int(m.group(4)), m.group(7)
                if kind == "unmapped":
                    unmapped.add(k)
                elif kind in ("same", "lead"):
                    pred[k][(opc, w)] += 1
                elif kind == "split":
                    pred[k][(opc, w)] += int(m.group(6))
                if kind in ("lead", "split"):
                    widened.add(k)
            have = collections.defaultdict(collections.Counter)
            for x in sass:
                if x["function"] == fn and x["line"]:
                    have[line_key(x["file"], x["line"])][(x["opcode"], x["width"])] += 1
            for k in set(pred) | unmapped:
                c["lines"] += 1
                c["changed"] += k in widened
                if k in unmapped:
                    c["unmapped"] += 1
                    continue
                p, h = pred[k], have.get(k, collections.Counter())
                ratios = {h[key] / p[key] for key in p}
                if set(p) == set(h) and len(ratios) == 1 and list(ratios)[0].is_integer():
                    c["agree"] += 1
                else:
                    c["differ"] += 1
                    print("differs: %s %s:%d predicted %s, disassembly %s" % (f, k[0], k[1], dict(p), dict(h)), file=sys.stderr)
        rows.append((f, c))
        tot.update(c)
    print("| module | lines | merged/split | agree | differ | unmapped |")
    print("|---|---:|---:|---:|---:|---:|")
    for f, c in rows + [("**all**", tot)]:
        print("| %s | %d | %d | %d | %d | %d |" % (f.split("/")[-1], c["lines"], c["changed"], c["agree"], c["differ"], c["unmapped"]))

main()
