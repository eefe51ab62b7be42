"""warpmem.testing: the assertions pass on good kernels and fail on bad
ones with messages that name the line, the cost and the ideal."""
import os

import numpy as np
import pytest

import warpmem
from warpmem.testing import (assert_coalesced, assert_no_bank_conflicts,
                             assert_no_hazards)
from conftest import REPO

pytest.importorskip("numba.cuda")
import warpmem.numba as wn  # noqa: E402
import numba_kernels as K  # noqa: E402


def _gather(view):
    out = np.zeros(view.shape[0], np.float32)
    return wn.analyze(K.gather_first, view.shape[0] // 128, 128, out, view)


def test_assert_coalesced():
    pts = np.zeros((1024, 2), np.float32)
    assert_coalesced(_gather(np.ascontiguousarray(pts[:, 0])))
    rep = _gather(pts[:, 0])
    assert_coalesced(rep, source="out[i] = pts[i]", max_excessive=128)
    with pytest.raises(AssertionError) as ei:
        assert_coalesced(rep, source="out[i] = pts[i]")
    msg = str(ei.value)
    assert msg.startswith("warpmem: numba_kernels::gather_first is not "
                          "coalesced:\n  numba_kernels.py:")
    assert "(out[i] = pts[i]), global ld: 8.0 sectors per request where " \
        "4.0 would do (128 excessive sectors over 32 requests)" in msg
    assert "advisor: strided access" in msg
    assert ", global st" not in msg          # the store is coalesced
    with pytest.raises(AssertionError, match="no global memory instruction "
                       "at line 3 .*lines with one: numba_kernels.py:"):
        assert_coalesced(rep, line=3)


def test_assert_no_bank_conflicts():
    src = np.zeros((64, 64), np.float32)
    dst = np.zeros_like(src)
    rep = wn.analyze(K.transpose_padded, (2, 2), (32, 32), dst, src)
    assert_no_bank_conflicts(rep)
    rep = wn.analyze(K.transpose_conflicted, (2, 2), (32, 32), dst, src)
    assert_no_bank_conflicts(rep, source="tile[ty, tx] = src[y, x]")
    with pytest.raises(AssertionError) as ei:
        assert_no_bank_conflicts(rep)
    assert "= tile[tx, ty]), shared ld: 32.0 wavefronts per request where " \
        "1.0 would do (3968 conflicts over 128 requests, worst 32-way)" \
        in str(ei.value)


def test_assert_no_hazards():
    x = np.arange(256, dtype=np.float32)
    out = np.zeros(256, np.float32)
    rep = wn.analyze(K.reverse_synced, 2, 128, out, x, check="race,init")
    assert_no_hazards(rep)
    with pytest.raises(AssertionError, match="without checks: run it with "
                       "check='race,init'"):
        assert_no_hazards(wn.analyze(K.reverse_synced, 2, 128, out, x))
    rep = wn.analyze(K.reverse_racy, 2, 128, out, x, check="race",
                     on_hazard="ignore")
    with pytest.raises(AssertionError) as ei:
        assert_no_hazards(rep)
    msg = str(ei.value)
    assert msg.startswith("warpmem: 2 hazards in numba_kernels::reverse_racy")
    assert "read-after-write on shared" in msg and \
        "tile[t] = x[i]" in msg


def test_example_test_file_runs():
    # python/examples/test_kernel_memory.py, the documented example
    import subprocess
    import sys
    ex = os.path.join(REPO, "python", "examples", "test_kernel_memory.py")
    # the warpmem package these tests import (python/src or installed)
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(warpmem.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [pkg] + [p for p in os.environ.get("PYTHONPATH", "").split(
            os.pathsep) if p]))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p",
                        "no:cacheprovider", ex], capture_output=True,
                       text=True, cwd=os.path.dirname(ex), env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 passed" in r.stdout
