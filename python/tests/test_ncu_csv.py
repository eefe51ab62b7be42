"""`warpmem --format ncu-csv / ncu-raw` read by pandas as an Nsight Compute
export is: the same columns as the hand-made exports of tests/ncu (written
from Nsight Compute's documented CSV layout), the same units row, values a
script for ncu parses the same way."""
import io
import os
import subprocess

import pytest

pandas = pytest.importorskip("pandas")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CLI = os.path.join(REPO, "build", "warpmem")
NCU = os.path.join(REPO, "tests", "ncu")
RUN = ["run", os.path.join(REPO, "examples", "kernels", "sm_80", "copy.ptx"),
       "--grid", "2", "--block", "256", "--arg", "f32[512]", "--arg",
       "f32[512]", "--arg", "i32=512"]

pytestmark = pytest.mark.skipif(not os.access(CLI, os.X_OK),
                                reason="the warpmem CLI is not built")


def csv_text(text):
    """What an ncu script keeps of an export: the CSV, not ==PROF== lines
    or the program's own output before the header."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith('"ID"'))
    return "\n".join(ln for ln in lines[start:] if not ln.startswith("=="))


def warpmem(fmt, *extra):
    r = subprocess.run([CLI] + RUN + ["--format", fmt] + list(extra),
                       capture_output=True, text=True, check=True)
    return r.stdout


def fixture(name):
    with open(os.path.join(NCU, name), newline="") as f:
        return f.read()


def test_details_page_columns_and_values():
    ours = pandas.read_csv(io.StringIO(csv_text(warpmem("ncu-csv"))))
    ncu = pandas.read_csv(io.StringIO(csv_text(fixture("copy_details.csv"))))
    assert list(ours.columns) == list(ncu.columns)
    assert list(ours.columns)[-3:] == ["Metric Name", "Metric Unit",
                                       "Metric Value"]
    # the same launch: pick it the way a script does, by ID and kernel
    launch = ncu[ncu["Block Size"] == "(256, 1, 1)"]
    for col in ("Block Size", "Grid Size", "CC", "Section Name"):
        assert set(ours[col].astype(str)) == set(launch[col].astype(str))
    want = dict(zip(launch["Metric Name"], launch["Metric Value"]))
    got = dict(zip(ours["Metric Name"], ours["Metric Value"]))
    units = dict(zip(ours["Metric Name"], ours["Metric Unit"]))
    for name in ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                 "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                 "smsp__sass_inst_executed_op_global_ld.sum"):
        assert float(str(got[name]).replace(",", "")) == \
            float(str(want[name]).replace(",", ""))
    assert units["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == "sector"
    assert units["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == \
        "request"
    assert units["smsp__sass_inst_executed_op_global_ld.sum"] == "inst"


def test_raw_page_columns_and_units_row():
    ours = pandas.read_csv(io.StringIO(csv_text(
        warpmem("ncu-raw", "--cache", "--arch", "A100"))))
    ncu = pandas.read_csv(io.StringIO(csv_text(fixture("copy_raw.csv"))))
    launch_cols = list(ncu.columns)[:11]
    assert list(ours.columns)[:11] == launch_cols
    assert set(ncu.columns[11:]) <= set(ours.columns)
    # row 0 is the units row in both (no ID), then one row per launch
    assert pandas.isna(ours["ID"][0]) and pandas.isna(ncu["ID"][0])
    for m in ncu.columns[11:]:
        assert ours[m][0] == ncu[m][0]
        assert float(str(ours[m][1]).replace(",", "")) == \
            float(str(ncu[m][1]).replace(",", "")), m
    assert len(ours) == 2


def test_hierarchy_metrics_in_ncu_units():
    ours = pandas.read_csv(io.StringIO(csv_text(
        warpmem("ncu-csv", "--cache", "--arch", "A100"))))
    units = dict(zip(ours["Metric Name"], ours["Metric Unit"]))
    assert units["dram__bytes_read.sum"] == "byte"
    assert units["lts__t_sector_hit_rate.pct"] == "%"
    assert units["gpu__time_duration.sum"] == "nsecond"
