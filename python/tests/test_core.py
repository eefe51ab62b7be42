"""The core binding: count, expr, run_ptx, Report, errors, pickling."""
import json
import os
import pickle
import shutil
import subprocess
import sys

import numpy as np
import pytest

import warpmem
from conftest import REPO

PTX = os.path.join(REPO, "tests", "ptx")


def test_version_is_the_library_version():
    from warpmem._lib import lib
    assert warpmem.__version__ == lib.wm_version().decode()
    hdr = open(os.path.join(REPO, "include", "warpmem.h")).read()
    parts = warpmem.__version__.split(".")
    for name, value in zip(("MAJOR", "MINOR", "PATCH"), parts):
        assert "#define WM_VERSION_%s %s\n" % (name, value) in hdr


def test_count_coalesced_and_strided():
    c = warpmem.count(np.arange(32) * 4)
    assert (c["requests"], c["sectors"], c["ideal_sectors"]) == (1, 4, 4)
    c = warpmem.count(np.arange(32) * 128)
    assert c["sectors"] == 32
    s = warpmem.count(np.arange(32) * 128, space="shared")
    assert s["wavefronts"] == 32 and s["conflicts"] == 31
    s = warpmem.count(np.arange(32) * 132, space="shared")
    assert s["wavefronts"] == 1
    m = warpmem.count(np.arange(32) * 4, mask=[i < 8 for i in range(32)])
    assert m["active"] == 8 and m["sectors"] == 1


def test_count_errors_name_the_argument():
    with pytest.raises(ValueError, match="addrs"):
        warpmem.count(np.arange(33) * 4)
    with pytest.raises(ValueError, match="addrs"):
        warpmem.count([2, 6])           # not aligned to 4 bytes
    with pytest.raises(ValueError, match="size"):
        warpmem.count([0], size=3)
    with pytest.raises(ValueError, match="space"):
        warpmem.count([0], space="constant")
    with pytest.raises(ValueError, match="arch"):
        warpmem.count([0], arch="sm_1")
    with pytest.raises(TypeError, match="addrs"):
        warpmem.count(np.zeros(4))
    with pytest.raises(TypeError, match="arch"):
        warpmem.count([0], arch=80)


def test_expr():
    rep = warpmem.expr("load global f32 a[64][64] at [tid.x][0]\n"
                       "load global f32 a[64][64] at [0][tid.x]\n",
                       grid=1, block=32)
    col, row = rep.lines
    assert col["per_request_median"] == 32 and col["excessive_sectors"] == 28
    assert row["per_request_median"] == 4
    assert "[tid.x][0]" in col["source"]
    assert rep.totals["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 36
    assert "<html" in rep._repr_html_()
    with pytest.raises(ValueError, match="program: line 1"):
        warpmem.expr("load global f32 a[4] at [", block=32)
    with pytest.raises(ValueError, match="block"):
        warpmem.expr("load global f32 a[64] at [tid.x]")
    with pytest.raises(warpmem.KernelFault, match="outside|bounds|index"):
        warpmem.expr("load global f32 a[16] at [tid.x]", block=32)


def _add(n=1000):
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 2, np.float32)
    out = np.zeros(n, np.float32)
    rep = warpmem.run_ptx(os.path.join(PTX, "triton_add.ptx"),
                          grid=(n + 255) // 256, block=128,
                          args=[x, y, out, n])
    return rep, x, y, out


def test_run_ptx_profile_rule():
    # the CLI's rule: arch= when given, else the .target's, else sm_90
    src = os.path.join(PTX, "target_sm_60.ptx")
    x = np.arange(32, dtype=np.float32)
    out = np.zeros(32, np.float32)
    rep = warpmem.run_ptx(src, grid=1, block=32, args=[out, x])
    np.testing.assert_array_equal(out, x)
    assert rep.arch == "sm_90 (default: no profile for the .target)"
    rep = warpmem.run_ptx(src, grid=1, block=32, args=[out, x], arch="A100")
    assert rep.arch == "A100 (arch='A100')"
    rep, _, _, _ = _add()
    assert rep.arch == "sm_90 (from .target sm_90a)"


def test_run_ptx_triton_fixture():
    rep, x, y, out = _add()
    np.testing.assert_array_equal(out, x + y)
    assert "from .target sm_90a" in rep.arch
    lines = {r["line"] for r in rep.lines}
    assert lines == {37, 38, 39}
    ld = rep.line(37)
    assert all(r["space"] == "global" and r["op"] == "ld" for r in ld)
    assert sum(r["requests"] for r in ld) == 32
    doc = json.loads(rep.to_json())
    assert doc["kernel"] == "add_kernel" and doc["lines"]
    assert "add_kernel" in str(rep)


def test_report_outputs(tmp_path):
    rep, *_ = _add()
    html = rep._repr_html_()
    assert html.startswith("<!DOCTYPE html") or "<html" in html[:200]
    p = tmp_path / "r.html"
    assert rep.to_html(p) == html and p.read_text() == html
    back = pickle.loads(pickle.dumps(rep))
    assert back.lines == rep.lines and back.totals == rep.totals
    pd = pytest.importorskip("pandas")
    df = rep.to_pandas()  # per source line
    assert isinstance(df, pd.DataFrame) and len(df) == len(rep.by_line())
    assert {"file", "line", "source", "sectors", "wavefronts"} <= set(df)
    di = rep.to_pandas(by="instruction")
    assert len(di) == len(rep.lines) and "ptx" in set(di)
    with pytest.raises(ValueError, match="by"):
        rep.to_pandas(by="site")


def test_html_renders_in_chromium(tmp_path):
    rep, *_ = _add()
    rep.to_html(tmp_path / "notebook.html")
    r = subprocess.run(["sh", os.path.join(REPO, "tests", "cli", "html_render.sh"),
                        str(tmp_path), "notebook.html"],
                       capture_output=True, text=True)
    if r.returncode == 77:
        pytest.skip("no chromium: " + r.stdout.strip())
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "notebook.png").stat().st_size > 20000


def test_run_ptx_argument_errors():
    f = os.path.join(PTX, "triton_add.ptx")
    x = np.zeros(16, np.float32)
    with pytest.raises(TypeError, match="4 arguments, 3 given"):
        warpmem.run_ptx(f, grid=1, block=32, args=[x, x, x])
    with pytest.raises(TypeError, match=r"args\[3\]"):
        warpmem.run_ptx(f, grid=1, block=32, args=[x, x, x, 1.5])
    with pytest.raises(ValueError, match=r"args\[3\]"):
        warpmem.run_ptx(f, grid=1, block=32, args=[x, x, x, -1])
    with pytest.raises(TypeError, match=r"args\[0\]"):
        warpmem.run_ptx(f, grid=1, block=32, args=["x", x, x, 16])
    with pytest.raises(ValueError, match="grid"):
        warpmem.run_ptx(f, grid=0, block=32, args=[x, x, x, 16])
    with pytest.raises(ValueError, match="launch"):
        warpmem.run_ptx(f, grid=1, block=2048, args=[x, x, x, 16])
    with pytest.raises(ValueError, match="ctas"):
        warpmem.run_ptx(f, grid=1, block=32, args=[x, x, x, 16], ctas="most")
    with pytest.raises(ValueError, match="kernel"):
        warpmem.run_ptx(f, kernel="nope", grid=1, block=32, args=[])
    with pytest.raises(ValueError, match="ptx: .*syntax|ptx: .*expected"):
        warpmem.run_ptx(".version 7.0\n.entry k( {\n", grid=1, block=1)
    with pytest.raises(ValueError, match="ptx: cannot read"):
        warpmem.run_ptx("/nonexistent.ptx", grid=1, block=1)


def test_kernel_fault_and_partial_report():
    f = os.path.join(PTX, "faults.ptx")
    buf = np.zeros(40, np.float32)
    with pytest.raises(warpmem.KernelFault) as ei:
        warpmem.run_ptx(f, kernel="oob", grid=2, block=32,
                        args=[buf, np.uint32(9)])
    e = ei.value
    assert e.status == "fault"
    assert e.block == [0, 0, 0] and e.thread == [31, 0, 0]
    assert e.warp == 0 and e.lane == 31
    assert e.ptx == "ld.global.f32 %f1, [%rd3]"
    assert e.source.endswith("faults.cu:12")
    assert e.buffer == {"argument": 0, "offset": 160, "bytes": 160}
    assert "out-of-bounds global load" in e.message
    assert isinstance(e.report, warpmem.Report)
    rep = warpmem.run_ptx(f, kernel="oob", grid=2, block=32,
                          args=[buf, np.uint32(9)], raise_on_fault=False)
    assert rep.faults and rep.faults[0]["lane"] == 31
    assert e.argument == "args[0]" and e.index == (40,)
    assert e.element == "args[0][40], outside its shape (40,)"
    with pytest.raises(warpmem.KernelFault, match="step") as ei:
        warpmem.run_ptx(f, kernel="spin", grid=1, block=32, max_steps=1000)
    assert ei.value.argument is None and ei.value.index is None


def test_describe_and_sampling():
    k = warpmem.describe(os.path.join(PTX, "triton_add.ptx"))
    assert k.origin == "triton" and k.ngroups == 4
    assert [p["role"] for p in k.params[-2:]] == ["global_scratch",
                                                   "profile_scratch"]
    n = 4096
    x = np.ones(n, np.float32)
    out = np.zeros(n, np.float32)
    rep = warpmem.run_ptx(os.path.join(PTX, "triton_add.ptx"), grid=16,
                          block=128, args=[x, x, out, n], ctas="first:2")
    assert out[:512].sum() == 1024 and out[512:].sum() == 0
    assert rep._data["launch"]["ctas_run"] == 2 and rep.totals_estimated


def test_views_are_passed_as_a_gpu_sees_them():
    # The kernel indexes its pointer contiguously.  Given the strided view
    # big[:, 0] it gets the view's first element inside big's memory, as
    # Triton's launcher passes data_ptr() on a GPU: it writes big's first
    # 256 floats, both columns, and nothing is copied or written back.
    n = 256
    big = np.zeros((n, 2), np.float32)
    x = np.ones(n, np.float32)
    warpmem.run_ptx(os.path.join(PTX, "triton_add.ptx"), grid=1, block=128,
                    args=[x, x, big[:, 0], n])
    assert (big.ravel()[:n] == 2).all() and (big.ravel()[n:] == 0).all()
    # a slice starts at its offset in the base buffer
    base = np.zeros(n + 16, np.float32)
    warpmem.run_ptx(os.path.join(PTX, "triton_add.ptx"), grid=1, block=128,
                    args=[x, x, base[16:], n])
    assert (base[:16] == 0).all() and (base[16:] == 2).all()


def test_by_line_sums_the_instructions_of_a_line():
    rep, *_ = _add()
    rows = rep.by_line()
    assert len(rows) == 3 and len(rep.lines) == 6
    for r in rows:
        ins = rep.line(r["line"])
        assert r["instructions"] == len(ins) == 2
        for k in ("requests", "sectors", "excessive_sectors", "bytes"):
            assert r[k] == sum(i[k] for i in ins), k


def test_python_m_warpmem(tmp_path):
    outp = tmp_path / "out.bin"
    cmd = [sys.executable, "-m", "warpmem", "run",
           os.path.join(PTX, "triton_add.ptx"), "--grid", "4", "--block",
           "128", "--arg", "f32[1000]:iota", "--arg", "f32[1000]:rand=1",
           "--arg", "f32[1000]:out=%s" % outp, "--arg", "u32=1000",
           "--format", "json"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["kernel"] == "add_kernel"
    out = np.fromfile(outp, np.float32)
    x = np.arange(1000, dtype=np.float32)
    assert out.shape == (1000,) and (out >= x).all() and (out < x + 1).all()
    cli = os.path.join(REPO, "build", "warpmem")
    if os.access(cli, os.X_OK):  # the same numbers as the C CLI
        c = subprocess.run([cli] + cmd[3:-2] + ["--format", "json"],
                           capture_output=True, text=True)
        assert c.returncode == 0, c.stderr
        assert json.loads(c.stdout)["totals"] == doc["totals"]
    r = subprocess.run([sys.executable, "-m", "warpmem", "run",
                        os.path.join(PTX, "faults.ptx"), "--kernel", "oob",
                        "--grid", "2", "--block", "32", "--arg", "f32[40]",
                        "--arg", "u32=9"], capture_output=True, text=True)
    assert r.returncode == 1 and "out-of-bounds global load" in r.stderr
