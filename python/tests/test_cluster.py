"""Thread-block clusters through run_ptx: the corpus kernel halo_exchange
reads both neighbours' shared tiles (distributed shared memory), and
pass_right_racy's hand-over to the next rank without a cluster barrier is
a race between two CTAs of the cluster, with their ranks."""
import os

import numpy as np
import pytest

import warpmem

PTX = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "corpus",
                   "ptx", "cluster_dsmem_sm_90.ptx")
CHECK_PTX = os.path.join(os.path.dirname(PTX), "cluster_check_sm_90a.ptx")


def halo_ref(x, cx):
    t = x.reshape(-1, 256)
    out = np.empty_like(t)
    for b in range(t.shape[0]):
        r, base = b % cx, b - b % cx
        right = t[base + (r + 1) % cx]
        left = t[base + (r + cx - 1) % cx][::-1]
        out[b] = t[b] + 2 * right + 4 * left
    return out.reshape(-1)


@pytest.mark.parametrize("cx", [1, 2, 4])
def test_halo_exchange_cluster(cx):
    x = (np.arange(2048) % 97).astype(np.float32)
    y = np.zeros_like(x)
    warpmem.run_ptx(PTX, "halo_exchange", grid=8, block=256, args=[x, y],
                    cluster=cx)
    np.testing.assert_array_equal(y, halo_ref(x, cx))


def test_cluster_shape_errors():
    x = np.zeros(2048, np.float32)
    with pytest.raises(ValueError, match="not a multiple of the cluster"):
        warpmem.run_ptx(PTX, "halo_exchange", grid=6, block=256,
                        args=[x, x.copy()], cluster=4)
    with pytest.raises(ValueError, match="portable size"):
        warpmem.run_ptx(PTX, "halo_exchange", grid=9, block=256,
                        args=[np.zeros(9 * 256, np.float32)] * 2, cluster=9)


def test_race_between_cluster_ctas():
    x = np.arange(1024, dtype=np.float32)
    rep = warpmem.run_ptx(CHECK_PTX, "pass_right_racy", grid=8, block=128,
                          args=[x, np.zeros_like(x)], cluster=4,
                          check="race", on_hazard="ignore")
    assert len(rep.hazards) == 1
    h = rep.hazards[0]
    assert h["kind"] == "read-after-write"
    assert (h["variable"], h["cluster_rank"], h["count"]) == ("inbox", 0, 1024)
    assert (h["first_line"], h["second_line"]) == (38, 40)
    assert (h["first_block"], h["first_cluster_rank"]) == ((3, 0, 0), 3)
    assert (h["second_block"], h["second_cluster_rank"]) == ((0, 0, 0), 0)
    assert "of cluster rank 0" in h["message"]
    clean = warpmem.run_ptx(CHECK_PTX, "pass_right", grid=8, block=128,
                            args=[x, np.zeros_like(x)], cluster=4,
                            check="race,init")
    assert clean.hazards == []
