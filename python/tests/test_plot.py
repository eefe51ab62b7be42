"""rep.plot() and sweep(...).plot(): the figures' data (bar heights, line
points, labels), not their pixels."""
import os

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import warpmem  # noqa: E402
from conftest import REPO  # noqa: E402


def _transpose_report():
    pytest.importorskip("numba.cuda")
    import warpmem.numba as wn
    import numba_kernels as K
    src = np.random.default_rng(2).random((64, 64), dtype=np.float32)
    dst = np.zeros_like(src)
    return wn.analyze(K.transpose_conflicted, (2, 2), (32, 32), dst, src)


def test_report_plot_bars_are_the_excess_per_line():
    rep = _transpose_report()
    ax = rep.plot()
    rows = sorted((r for r in rep.by_line() if r["excess"]),
                  key=lambda r: -r["excess"])
    sec, con = ax.containers  # excessive sectors, conflicts stacked on them
    assert [b.get_height() for b in sec] == [r["excessive_sectors"]
                                             for r in rows]
    assert [b.get_height() for b in con] == [r["conflicts"] for r in rows]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["numba_kernels.py:%d" % r["line"] for r in rows]
    # the read tile[tx, ty]: 31 conflicts per request, 4 blocks x 32 warps
    (rd,) = [r for r in rows if "= tile[tx, ty]" in r["source"]]
    assert rd["conflicts"] == 31 * 128 and labels[0].endswith(
        ":%d" % rd["line"])
    plt.close(ax.figure)


def test_report_plot_of_a_clean_kernel_and_given_axes():
    f = os.path.join(REPO, "tests", "ptx", "triton_add.ptx")
    x = np.ones(1024, np.float32)
    out = np.zeros(1024, np.float32)
    rep = warpmem.run_ptx(f, grid=4, block=128, args=[x, x, out, 1024])
    fig, ax = plt.subplots()
    assert rep.plot(ax=ax) is ax
    assert [len(c) for c in ax.containers] == [0, 0]
    assert "no excess" in ax.get_title()
    plt.close(fig)


def test_sweep_plot_is_the_metric_against_the_parameter():
    pytest.importorskip("numba.cuda")
    import warpmem.numba as wn
    import numba_kernels as K
    n = 1024
    pts = np.zeros((n, 4), np.float32)
    out = np.zeros(n, np.float32)

    def run(cfg):   # reading one column of a row of cfg["width"] floats
        return wn.analyze(K.gather_first, n // 128, 128, out,
                          pts.reshape(n * 4 // cfg["width"], cfg["width"])
                          [:n, 0])

    rows = warpmem.sweep(run, [{"width": 4}, {"width": 1}, {"width": 2}])
    assert [r["config"]["width"] for r in rows] == [1, 2, 4]
    ax = rows.plot(metric="excessive_sectors", param="width")
    (line,) = ax.get_lines()
    xs, ys = line.get_data()
    assert list(xs) == [1, 2, 4]
    # 4, 8 and 16 sectors per request of 4 ideal, 32 requests
    assert list(ys) == [0, 4 * 32, 12 * 32]
    assert ax.get_xlabel() == "width" and ax.get_ylabel() == \
        "excessive_sectors"
    assert "least: 1" in ax.get_title()
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="metric"):
        rows.plot(metric="speed")
    pd = pytest.importorskip("pandas")
    df = rows.to_pandas()
    assert isinstance(df, pd.DataFrame) and "report" not in df
    assert list(df["excessive_sectors"]) == [0, 128, 384]
