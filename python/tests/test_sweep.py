"""sweep over configurations, in process and on a ProcessPoolExecutor."""
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import warpmem


def strided(stride):
    """An expression run per config: a warp reads with this stride."""
    return warpmem.expr("load global f32 a[1048576] at [tid.x * %d]"
                        % stride, grid=4, block=128)


def test_sweep_in_process():
    rows = warpmem.sweep(strided, [8, 1, 32, 2])
    assert [r["config"] for r in rows] == [1, 2, 8, 32]
    assert rows[0]["waste"] == 0 and rows[0]["rank"] == 1
    assert rows[-1]["excessive_sectors"] == 16 * (32 - 4)


def test_sweep_process_pool():
    with ProcessPoolExecutor(max_workers=2) as ex:
        rows = warpmem.sweep(strided, [4, 1, 2], executor=ex)
    assert [r["config"] for r in rows] == [1, 2, 4]
    assert isinstance(rows[0]["report"], warpmem.Report)


def add_block(block):
    pytest.importorskip("triton")
    import warpmem.triton as wt
    import triton_kernels as K
    n = 4096
    a = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    rep = wt.analyze(K.vec_add, n // block, a, a, c, n, BLOCK=block)
    assert (c == 2).all()
    return rep


def test_sweep_triton_block_sizes_process_pool():
    pytest.importorskip("triton")
    with ProcessPoolExecutor(max_workers=2) as ex:
        rows = warpmem.sweep(add_block, [128, 256, 512], executor=ex)
    assert sorted(r["config"] for r in rows) == [128, 256, 512]
    assert all(r["excessive_sectors"] == 0 for r in rows)


def test_sweep_dask():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.Client(processes=False, n_workers=1,
                            threads_per_worker=2) as client:
        rows = warpmem.sweep(strided, [2, 1], executor=client.get_executor())
    assert [r["config"] for r in rows] == [1, 2]


def test_sweep_errors():
    with pytest.raises(TypeError, match="fn"):
        warpmem.sweep(3, [1])
    with pytest.raises(TypeError, match="executor"):
        warpmem.sweep(strided, [1], executor=object())
