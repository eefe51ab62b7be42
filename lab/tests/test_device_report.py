#!/usr/bin/env python3
"""test_device_report.py -- lab/device_report.py on synthetic results.

lab/tests/data/once.json and lab.json come from lab_synth (the lab's own
JSON writer); ncu.csv is a synthetic `ncu --csv --page raw --print-units
base` export of the once.json launches, in launch order.  once.json has a
failed check (E6.b32.2way) before a checked row of the same kernel
(E6.b32.4way) and a row whose launch failed (E3.off1, no launch): the
counters must still land on the right rows.  Derived exports (a non-base
unit, ==ERROR== lines, a details page, a missing launch) are written to a
temporary folder.

  test_device_report.py [--warpmem BIN]   (stdlib only; exit 0 when all pass)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LAB = os.path.dirname(HERE)
ROOT = os.path.dirname(LAB)
DATA = os.path.join(HERE, "data")
REPORT = os.path.join(LAB, "device_report.py")
WARPMEM = ""
# time limits scale with the machine (tests/CMakeLists.txt)
FACTOR = int(os.environ.get("WM_TEST_TIMEOUT_FACTOR", "4") or "4")


def report(*args):
    env = dict(os.environ)
    if WARPMEM:  # the export reader is `warpmem compare`
        env["WARPMEM"] = WARPMEM
    p = subprocess.run([sys.executable, REPORT] + list(args),
                       capture_output=True, text=True, timeout=300 * FACTOR, env=env)
    return p.returncode, p.stdout + p.stderr


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def ncu_text():
    with open(os.path.join(DATA, "ncu.csv")) as f:
        return f.read()


class Compare(unittest.TestCase):
    def run_compare(self, ncu, warpmem=""):
        out = tempfile.mkdtemp(prefix="wm-report-")
        rc, log = report("compare", "--once", os.path.join(DATA, "once.json"),
                         "--ncu", ncu, "--warpmem", warpmem, "--root", ROOT,
                         "--out", out)
        self.assertEqual(rc, 0, log)
        with open(os.path.join(out, "compare.json")) as f:
            doc = json.load(f)
        with open(os.path.join(out, "compare.txt")) as f:
            txt = f.read()
        return {r["id"]: r for r in doc["rows"]}, doc, txt

    def ncu_of(self, rows, rid, cat):
        c = rows[rid]["categories"].get(cat)
        return c and c["ncu"]

    def test_matching_survives_failed_rows(self):
        rows, doc, txt = self.run_compare(os.path.join(DATA, "ncu.csv"))
        self.assertIsNone(doc["ncu_error"])
        self.assertEqual(doc["ncu_matching"], [])
        # every row whatever its status, in table order
        self.assertEqual(list(rows), [
            "E0.copy", "E2.read.s1", "E2.read.s2", "E3.off1", "E6.b32.free",
            "E6.b32.2way", "E6.b32.4way", "E6.b128.free"])
        # the failed row keeps its own launch ...
        self.assertEqual(rows["E6.b32.2way"]["status"], "CHECK-FAILED")
        self.assertEqual(self.ncu_of(rows, "E6.b32.2way", "s.ld"), 2.0)
        # ... so the next row of the same kernel is not shifted onto it
        self.assertEqual(self.ncu_of(rows, "E6.b32.4way", "s.ld"), 4.0)
        self.assertEqual(self.ncu_of(rows, "E6.b32.free", "s.ld"), 1.0)
        self.assertEqual(self.ncu_of(rows, "E6.b128.free", "s.ld"), 4.0)
        # the row whose launch failed has no counters, the next kernel's
        # rows are unaffected
        self.assertEqual(rows["E3.off1"]["status"], "ERROR")
        self.assertNotIn("ncu_raw", rows["E3.off1"])
        self.assertEqual(self.ncu_of(rows, "E2.read.s1", "g.ld"), 4.0)
        self.assertEqual(self.ncu_of(rows, "E2.read.s2", "g.ld"), 8.0)
        self.assertEqual(self.ncu_of(rows, "E0.copy", "g.ld"), 16.0)
        for rid in ("E6.b32.free", "E6.b32.4way", "E6.b128.free"):
            self.assertTrue(rows[rid]["probe_by_ncu"]["met"], rid)
        self.assertIn("ncu: yes (7 lab launches)", txt)
        self.assertIn("CHECK-FAILED: thread 1", txt)

    def test_warpmem_run(self):
        if not WARPMEM:
            self.skipTest("no warpmem binary given")
        rows, doc, _ = self.run_compare(os.path.join(DATA, "ncu.csv"),
                                        WARPMEM)
        self.assertTrue(doc["warpmem_run"])
        c = rows["E6.b32.4way"]["categories"]["s.ld"]
        self.assertEqual(c["warpmem_run"], 4.0)
        self.assertEqual(rows["E2.read.s2"]["categories"]["g.ld"]
                         ["warpmem_run"], 8.0)
        self.assertNotIn("warpmem_raw", rows["E3.off1"])

    def test_missing_launch_is_reported(self):
        tmp = tempfile.mkdtemp(prefix="wm-ncu-")
        lines = ncu_text().splitlines(True)
        # drop the last launch (E6.b128.free)
        path = write(os.path.join(tmp, "ncu.csv"), "".join(lines[:-1]))
        rows, doc, txt = self.run_compare(path)
        self.assertIsNone(self.ncu_of(rows, "E6.b128.free", "s.ld"))
        self.assertEqual(self.ncu_of(rows, "E6.b32.4way", "s.ld"), 4.0)
        self.assertTrue(any("no launch #1 of lab_smem_probe128" in n
                            for n in doc["ncu_matching"]), doc)
        self.assertIn("ncu matching:", txt)

    def test_non_base_unit_refused(self):
        tmp = tempfile.mkdtemp(prefix="wm-ncu-")
        lines = ncu_text().splitlines(True)
        i = next(k for k, ln in enumerate(lines) if '"byte"' in ln)
        lines[i] = lines[i].replace('"byte"', '"Kbyte"', 1)
        path = write(os.path.join(tmp, "ncu.csv"), "".join(lines))
        rows, doc, txt = self.run_compare(path)
        self.assertIn("Kbyte", doc["ncu_error"])
        self.assertIn("--print-units base", doc["ncu_error"])
        self.assertIsNone(self.ncu_of(rows, "E6.b32.4way", "s.ld"))
        self.assertIn("ncu: FAILED:", txt)
        rc, out = report("ncu-check", path)
        self.assertEqual(rc, 1)
        self.assertIn("Kbyte", out)

    def test_error_lines_fail_the_step(self):
        tmp = tempfile.mkdtemp(prefix="wm-ncu-")
        err = ("==ERROR== ERR_NVGPUCTRPERM - The user does not have "
               "permission to access NVIDIA GPU Performance Counters on the "
               "target device 0.\n")
        path = write(os.path.join(tmp, "ncu.csv"), err + ncu_text() + err)
        rows, doc, txt = self.run_compare(path)
        self.assertIn("ERR_NVGPUCTRPERM", doc["ncu_error"])
        self.assertIn("ncu: FAILED: ==ERROR== ERR_NVGPUCTRPERM", txt)
        self.assertNotIn("not available", txt.split("\n")[1].split(";")[1])
        rc, out = report("ncu-check", path)
        self.assertEqual(rc, 1)
        self.assertIn("ERR_NVGPUCTRPERM", out)
        # an export with only errors and no launches
        path = write(os.path.join(tmp, "only.csv"),
                     "==ERROR== Failed to load the NVIDIA profiling "
                     "library\n")
        rc, out = report("ncu-check", path)
        self.assertEqual(rc, 1)
        self.assertIn("profiling library", out)

    def test_good_export_passes_the_check(self):
        rc, out = report("ncu-check", os.path.join(DATA, "ncu.csv"))
        self.assertEqual(rc, 0, out)
        self.assertIn("7 lab launches", out)

    def test_details_page(self):
        tmp = tempfile.mkdtemp(prefix="wm-ncu-")
        head = ('"ID","Kernel Name","Section Name","Metric Name",'
                '"Metric Unit","Metric Value"\n')
        body = ""
        for i, (k, wf) in enumerate([("lab_smem_probe32", 8192),
                                     ("lab_smem_probe32", 16384),
                                     ("lab_smem_probe32", 32768)]):
            body += (f'"{i}","{k}","Command line profiler metrics",'
                     f'"smsp__sass_inst_executed_op_shared_ld.sum","inst",'
                     f'"8,192"\n'
                     f'"{i}","{k}","Command line profiler metrics",'
                     f'"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",'
                     f'"","{wf:,}"\n')
        path = write(os.path.join(tmp, "ncu.csv"), head + body)
        rows, doc, _ = self.run_compare(path)
        self.assertIsNone(doc["ncu_error"])
        self.assertEqual(self.ncu_of(rows, "E6.b32.2way", "s.ld"), 2.0)
        self.assertEqual(self.ncu_of(rows, "E6.b32.4way", "s.ld"), 4.0)
        bad = write(os.path.join(tmp, "bad.csv"),
                    head + body.replace('"inst"', '"Kinst"'))
        rc, out = report("ncu-check", bad)
        self.assertEqual(rc, 1)
        self.assertIn("Kinst", out)


class Targets(unittest.TestCase):
    def test_targets_on_synthetic_run(self):
        out = tempfile.mkdtemp(prefix="wm-targets-")
        cmp_out = tempfile.mkdtemp(prefix="wm-report-")
        rc, log = report("compare", "--once", os.path.join(DATA, "once.json"),
                         "--ncu", os.path.join(DATA, "ncu.csv"),
                         "--out", cmp_out)
        self.assertEqual(rc, 0, log)
        rc, log = report("targets", "--lab", os.path.join(DATA, "lab.json"),
                         "--compare", os.path.join(cmp_out, "compare.json"),
                         "--out", out)
        self.assertEqual(rc, 0, log)
        with open(os.path.join(out, "targets.json")) as f:
            doc = json.load(f)
        t = {x["target"]: x for x in doc["targets"]}
        e2 = t["E2.read.s1 / E0.copy (bytes moved per second)"]
        self.assertAlmostEqual(e2["value"], 1.0, places=3)
        self.assertTrue(e2["met"])
        self.assertTrue(any(k.startswith("E6.b32.4way ncu wavefronts")
                            for k in t), list(t))
        self.assertEqual(doc["rows_at_other_clocks"], ["E5.tile"])
        with open(os.path.join(out, "targets.txt")) as f:
            txt = f.read()
        self.assertIn("rows timed at other clocks: E5.tile", txt)
        self.assertIn("clocks (MHz): SM 1980 -> 1980", txt)


class Metrics(unittest.TestCase):
    def test_metrics_check(self):
        tmp = tempfile.mkdtemp(prefix="wm-metrics-")
        lst = write(os.path.join(tmp, "q.txt"),
                    "Device NVIDIA H200 (GH100)\n"
                    "------------------------------------------ ----\n"
                    "dram__bytes_read          # of bytes read from DRAM\n"
                    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld  # of sectors\n")
        rc, out = report("metrics-check", "--list", lst, "--metrics",
                         "dram__bytes_read.sum,"
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
        self.assertEqual(rc, 0, out)
        rc, out = report("metrics-check", "--list", lst, "--metrics",
                         "dram__bytes_read.sum,l1tex__no_such_metric.sum")
        self.assertEqual(rc, 1)
        self.assertIn("l1tex__no_such_metric.sum", out)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpmem", default="")
    a, rest = ap.parse_known_args()
    WARPMEM = a.warpmem if a.warpmem and os.path.exists(a.warpmem) else ""
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=1)
