"""Triton's device-side tensor descriptors (tl.make_tensor_descriptor) on
sm_90: the map is built in the kernel with tensormap.replace, published
into the global scratch Triton's metadata asks for and copied through
with TMA.  Results against numpy, TMA sectors against a hand count."""
import numpy as np
import pytest

triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402
import warpmem.triton as wt  # noqa: E402

if not hasattr(tl, "make_tensor_descriptor"):
    pytest.skip("Triton without tl.make_tensor_descriptor (3.3+)",
                allow_module_level=True)


@triton.jit
def desc_scale(a_ptr, b_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    da = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1],
                                   block_shape=[BM, BN])
    db = tl.make_tensor_descriptor(b_ptr, shape=[M, N], strides=[N, 1],
                                   block_shape=[BM, BN])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = da.load([pm * BM, pn * BN])
    db.store([pm * BM, pn * BN], x * 2.0 + 1.0)


def test_descriptor_tile_copy_partial_boxes():
    # 40 x 52 floats in 32 x 32 boxes: the edge boxes are partial, so the
    # load's fill must not reach b and the store must skip what is outside
    M, N = 40, 52
    a = np.random.default_rng(3).random((M, N), dtype=np.float32)
    b = np.full((M, N), -7.0, np.float32)
    rep = wt.analyze(desc_scale, (2, 2), a, b, M, N, BM=32, BN=32,
                     num_warps=4, arch="sm_90")
    np.testing.assert_array_equal(b, a * 2.0 + 1.0)
    # each box row's in-bounds part is one TMA request: rows 0..39 have
    # columns 0..31 (128 bytes) and 32..51 (80 bytes) at a 208-byte pitch
    pieces = [(y * N * 4, 128) for y in range(M)] + \
             [(y * N * 4 + 128, 80) for y in range(M)]
    sectors = sum((s + n - 1) // 32 - s // 32 + 1 for s, n in pieces)
    for text in ("x = da.load", "db.store("):
        tma = [r for r in rep.find(text) if r["op"] == "tma"]
        assert tma and all(r["space"] == "global" for r in tma)
        assert sum(r["requests"] for r in tma) == len(pieces)
        assert sum(r["sectors"] for r in tma) == sectors


def test_descriptor_without_scratch_faults_naming_the_copy():
    # the same PTX with Triton's scratch pointer left null: the map's
    # publication faults instead of writing anywhere
    from warpmem.ptx import run_ptx

    M, N = 32, 32
    a = np.zeros((M, N), np.float32)
    b = np.zeros((M, N), np.float32)
    ptx, md, values, _ = wt.compile_ptx(desc_scale, a, b, M, N, BM=32,
                                        BN=32, arch="sm_90")
    assert md.global_scratch_size >= 128
    assert "tensormap.replace.tile.global_address" in ptx
    with pytest.raises(Exception) as e:
        run_ptx(ptx, kernel=md.name, grid=(1, 1, 1), block=(128, 1, 1),
                args=values, smem=int(md.shared), arch="sm_90")
    assert "tensor map copy" in str(e.value)


@triton.jit
def desc_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr,
                BN: tl.constexpr, BK: tl.constexpr):
    da = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                   block_shape=[BM, BK])
    db = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                   block_shape=[BK, BN])
    dc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                   block_shape=[BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = da.load([tl.program_id(0) * BM, k])
        b = db.load([k, tl.program_id(1) * BN])
        acc = tl.dot(a, b, acc)
    dc.store([tl.program_id(0) * BM, tl.program_id(1) * BN], acc)


def test_descriptor_matmul_three_maps_in_scratch():
    # three maps per program (384 bytes of scratch each); quarter-step
    # fp16 inputs make every fp32 sum exact, so C equals numpy's
    rng = np.random.default_rng(5)
    M, N, K = 128, 64, 96
    a = (rng.integers(-8, 9, (M, K)) / 4.0).astype(np.float16)
    b = (rng.integers(-8, 9, (K, N)) / 4.0).astype(np.float16)
    c = np.zeros((M, N), np.float32)
    rep = wt.analyze(desc_matmul, (M // 64, N // 64), a, b, c, M, N, K,
                     BM=64, BN=64, BK=32, num_warps=4, arch="sm_90")
    np.testing.assert_array_equal(c, a.astype(np.float32) @
                                  b.astype(np.float32))
    dot = [r for r in rep.find("acc = tl.dot(a, b, acc)")
           if r["op"] == "wgmma"]
    assert dot and all(r["conflicts"] == 0 for r in dot)
    # A: 2 programs x 3 K steps x 64 rows of 64 bytes, one request each
    ld = [r for r in rep.find("a = da.load") if r["op"] == "tma"]
    assert sum(r["requests"] for r in ld) == 2 * 3 * 64
    assert sum(r["sectors"] for r in ld) == 2 * 3 * 64 * 2
