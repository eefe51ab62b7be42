"""The HTML report's source page on a Triton kernel: every line of the
Python file is a row, the column read is the summary's first finding, and
the page passes the XHTML, anchor and row checks (tests/cli/html_check.py)."""
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("triton")
import warpmem.triton as wt  # noqa: E402
import triton_kernels as K  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def test_triton_source_page(tmp_path):
    nrows, ncols = 256, 48
    m = np.random.default_rng(3).random((nrows, ncols), dtype=np.float32)
    out = np.zeros(nrows, np.float32)
    rep = wt.analyze(K.column_sums, nrows // 128, out, m, nrows, ncols,
                     ROWS=128)
    page = tmp_path / "triton.html"
    html = rep.to_html(page)
    summary = html[html.index("<!-- summary -->"):
                   html.index("<!-- /summary -->")]
    # the first finding is the column read: 32 sectors where 4 would do
    first = summary[summary.index('<li class="finding">'):]
    first = first[:first.index("</li>\n</ul></li>")]
    assert "acc += tl.load(m_ptr" in first
    assert "32 sectors per request (ideal 4)" in first
    assert "sev-high" in first
    src = os.path.join(HERE, "triton_kernels.py")
    r = subprocess.run([sys.executable, os.path.join(REPO, "tests", "cli",
                                                     "html_check.py"),
                        "--source-lines", src, str(page)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
