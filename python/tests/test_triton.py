"""Triton kernels compiled for a GPU target on the CPU and interpreted:
results against numpy, numbers per Python line."""
import numpy as np
import pytest

pytest.importorskip("triton")
import warpmem  # noqa: E402
import warpmem.triton as wt  # noqa: E402
import triton_kernels as K  # noqa: E402

rng = np.random.default_rng(12)


def rows_of(rep, text):
    recs = rep.find(text)
    assert recs, "no record for a line containing %r" % text
    return recs


def test_vec_add():
    n = 4096
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    rep = wt.analyze(K.vec_add, (n + 255) // 256, a, b, c, n, BLOCK=256)
    np.testing.assert_array_equal(c, a + b)
    assert rep.kernel == "vec_add"
    for r in rows_of(rep, "a = tl.load"):
        assert r["space"] == "global" and r["op"] == "ld"
        assert r["excessive_sectors"] == 0
        assert r["source"].strip().startswith("a = tl.load(a_ptr + idx")
    assert rep.totals["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] > 0
    assert rep.excessive_sectors == 0


def test_vec_add_grid_callable_and_torch_like_errors():
    n = 64
    a = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    rep = wt.analyze(K.vec_add, lambda meta: (n // meta["BLOCK"],), a, a, c,
                     n, BLOCK=32, num_warps=1)
    np.testing.assert_array_equal(c, 2 * a)
    assert rep.lines
    with pytest.raises(TypeError, match="BLOK"):
        wt.analyze(K.vec_add, 1, a, a, c, n, BLOK=32)
    with pytest.raises(TypeError, match="c_ptr"):
        wt.analyze(K.vec_add, 1, a, a, "c", n, BLOCK=32)


def test_column_read_is_uncoalesced():
    nrows, ncols = 256, 48
    m = rng.random((nrows, ncols), dtype=np.float32)
    out = np.zeros(nrows, np.float32)
    rep = wt.analyze(K.column_sums, nrows // 128, out, m, nrows, ncols,
                     ROWS=128)
    np.testing.assert_allclose(out, m.sum(axis=1), rtol=1e-5)
    (ld,) = rows_of(rep, "acc += tl.load(m_ptr")
    assert ld["op"] == "ld"
    assert ld["per_request_min"] == ld["per_request_max"] == 32
    assert ld["sectors"] == 32 * ld["requests"]
    assert ld["ideal_sectors"] == 4 * ld["requests"]
    assert ld["rank"] == 1
    (st,) = rows_of(rep, "tl.store(out_ptr")
    assert st["per_request_median"] == 4 and st["excessive_sectors"] == 0


def test_softmax():
    rows, cols, stride = 16, 100, 128
    x = rng.standard_normal((rows, stride), dtype=np.float32)
    y = np.zeros_like(x)
    rep = wt.analyze(K.row_softmax, rows, y, x, cols, stride, COLS=128)
    xs = x[:, :cols]
    e = np.exp(xs - xs.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y[:, :cols], e / e.sum(axis=1, keepdims=True),
                               rtol=1e-5, atol=1e-7)
    assert not y[:, cols:].any()
    # rows start on 512-byte boundaries: 4 sectors per 32 floats at most
    for r in rows_of(rep, "x = tl.load(in_ptr"):
        assert r["per_request_max"] <= 4
    # the reductions go through shared memory
    assert any(r["space"] == "shared" for r in rep.lines)


def test_layer_norm():
    rows, cols = 8, 192
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    w = rng.random(cols, dtype=np.float32)
    b = rng.random(cols, dtype=np.float32)
    y = np.zeros_like(x)
    eps = 1e-5
    rep = wt.analyze(K.layer_norm, rows, y, x, w, b, cols, eps, COLS=256)
    mu = x.mean(axis=1, keepdims=True)
    ref = (x - mu) / np.sqrt(x.var(axis=1, keepdims=True) + eps) * w + b
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
    assert rows_of(rep, "tl.store(y_ptr")
    assert all(r["excessive_sectors"] == 0 for r in rows_of(rep, "tl.load(w"))


def test_matmul_sm80_tensor_cores():
    M = N = 64
    K_ = 128
    a = (rng.random((M, K_), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((K_, N), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((M, N), np.float32)
    rep = wt.analyze(K.tiled_matmul, (M // 32, N // 32), c, a, b, M, N, K_,
                     BM=32, BN=32, BK=32, num_warps=4, arch="sm_80")
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c, ref, rtol=1e-2, atol=1e-2)
    ptx = " ".join(r["ptx"] for r in rep.lines)
    assert "ldmatrix" in ptx
    assert "cp.async" in ptx
    ops = {r["op"] for r in rep.lines}
    assert "ldsm" in ops and "ldgsts" in ops
    # numbers per Python line: the tile loads and the output store
    for text in ("a = tl.load(a_tile", "b = tl.load(b_tile"):
        recs = rows_of(rep, text)
        # cp.async global side: 16 bytes a lane, whole sectors
        g = [r for r in recs if r["op"] == "ldgsts" and r["space"] == "global"]
        assert g and all(r["per_request_max"] == 16 and
                         r["excessive_sectors"] == 0 for r in g)
        # Triton swizzles its shared tiles: cp.async stores and ldmatrix
        # reads are free of bank conflicts (4 wavefronts for ldmatrix.x4)
        sh = [r for r in recs if r["space"] == "shared"]
        assert {r["op"] for r in sh} == {"ldgsts", "ldsm"}
        assert all(r["conflicts"] == 0 for r in sh)
        assert all(r["per_request_max"] == 4 for r in sh if r["op"] == "ldsm")
    st = [r for r in rows_of(rep, "tl.store(c_ptr") if r["space"] == "global"]
    assert st and all(r["excessive_sectors"] == 0 for r in st)
    assert "sm_80" in rep.arch


def test_by_line_one_row_per_triton_line():
    # BLOCK=1024 on one warp: each lane holds 32 floats, so every tl.load
    # and tl.store is 8 vector instructions (ld.global.v4.b32); by_line()
    # has one row per Python line with their sums
    n = 4096
    a = np.ones(n, np.float32)
    b = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    rep = wt.analyze(K.vec_add, n // 1024, a, b, c, n, BLOCK=1024,
                     num_warps=1)
    assert (c == 2).all()
    assert len(rep.lines) == 24
    rows = rep.by_line()
    assert [r["instructions"] for r in rows] == [8, 8, 8]
    assert [r["accesses"] for r in rows] == ["global ld", "global ld",
                                             "global st"]
    assert rows[0]["source"] == "a = tl.load(a_ptr + idx, mask=keep, " \
        "other=0.0)"
    # 4 programs x 8 instructions, each 16 bytes x 32 lanes = 16 sectors
    assert [r["requests"] for r in rows] == [32, 32, 32]
    assert [r["sectors"] for r in rows] == [512, 512, 512]
    assert all(r["excessive_sectors"] == 0 for r in rows)


def test_matmul_sm90_wgmma():
    # on sm_90 tl.dot is wgmma.mma_async reading swizzled shared tiles
    # through matrix descriptors: op "wgmma", conflict-free
    M = N = 128
    K_ = 128
    a = (rng.random((M, K_), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((K_, N), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((M, N), np.float32)
    rep = wt.analyze(K.tiled_matmul, (M // 64, N // 64), c, a, b, M, N, K_,
                     BM=64, BN=64, BK=32, num_warps=4, arch="sm_90")
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c, ref, rtol=1e-3, atol=1e-3)
    dot = [r for r in rows_of(rep, "acc = tl.dot(a, b, acc)")
           if r["op"] == "wgmma"]
    assert dot and all(r["space"] == "shared" for r in dot)
    assert all(r["conflicts"] == 0 for r in dot)
    # 4 programs x 4 K steps x 2 wgmma m64n64k16 (BK 32), each 8
    # requests (A 4 warps x 1, B 4) of 4 wavefronts
    assert sum(r["requests"] for r in dot) == 4 * 4 * 2 * 8
    assert sum(r["wavefronts"] for r in dot) == 4 * 4 * 2 * 32
    assert "sm_90" in rep.arch


def test_attention_forward_sm90():
    # flash-attention shape: two wgmma dots a K/V step and an online
    # softmax (running max, running sum, exp2 rescale), fp16 in, f32 acc
    L, D = 256, 64
    q = (rng.standard_normal((L, D)) * 0.5).astype(np.float16)
    k = (rng.standard_normal((L, D)) * 0.5).astype(np.float16)
    v = rng.standard_normal((L, D)).astype(np.float16)
    o = np.zeros((L, D), np.float32)
    scale = 1.0 / np.sqrt(D)
    rep = wt.analyze(K.attention_fwd, L // 64, q, k, v, o, L,
                     float(scale * np.log2(np.e)), D=D, BM=64, BN=64,
                     num_warps=4, arch="sm_90")
    s = q.astype(np.float64) @ k.astype(np.float64).T * scale
    p = np.exp(s - s.max(axis=1, keepdims=True))
    ref = (p / p.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    # P is rounded to fp16 before the second dot: ~1e-3 relative
    np.testing.assert_allclose(o, ref, rtol=1e-2, atol=2e-3)
    for text in ("s = tl.dot(q, kt)", "acc = tl.dot(p.to(tl.float16)"):
        dot = [r for r in rows_of(rep, text) if r["op"] == "wgmma"]
        assert dot and all(r["space"] == "shared" for r in dot)


def e4m3_value(code):
    """The value of an e4m3 byte (bias 7, S.1111.111 NaN, no infinities)."""
    sign = -1.0 if code & 0x80 else 1.0
    e, m = (code >> 3) & 15, code & 7
    if e == 0:
        return sign * m / 8 * 2.0 ** -6
    return sign * (1 + m / 8) * 2.0 ** (e - 7)


def test_matmul_fp8_sm90():
    # e4m3 inputs, f32 accumulation: wgmma m64n64k32 .e4m3.e4m3.  Inputs
    # are multiples of 1/8 in [-2, 2] (all exact in e4m3), so every sum
    # is exact in fp32 and C equals the reference bit for bit.
    code = {e4m3_value(c): c for c in range(0x7f)}
    code.update({-x: c | 0x80 for x, c in code.items() if x})
    enc = np.vectorize(code.__getitem__, otypes=[np.uint8])
    M = N = 128
    K_ = 128
    af = rng.integers(-16, 17, (M, K_)) / 8.0
    bf = rng.integers(-16, 17, (K_, N)) / 8.0
    a, bt = enc(af), enc(np.ascontiguousarray(bf.T))
    c = np.zeros((M, N), np.float32)
    rep = wt.analyze(K.matmul_fp8, (M // 64, N // 64), c, a, bt, M, N, K_,
                     BM=64, BN=64, BK=64, arch="sm_90",
                     types={"a_ptr": "*fp8e4nv", "bt_ptr": "*fp8e4nv"})
    np.testing.assert_array_equal(c, af @ bf)
    assert any(".e4m3.e4m3" in r["ptx"] for r in rep.lines
               if r["op"] == "wgmma")
    with pytest.raises(TypeError, match="types: BM"):
        wt.compile_ptx(K.matmul_fp8, c, a, bt, M, N, K_, BM=64, BN=64,
                       BK=64, types={"BM": "*fp8e4nv"})


def test_matmul_num_ctas_2_is_a_cluster_launch():
    # num_ctas=2: Triton splits each program's tile over a cluster of two
    # CTAs (.reqnctapercluster 2); the launch doubles the grid's x, so
    # every tile of C is written only when both CTAs of each cluster run
    M = N = 256
    K_ = 128
    af = rng.integers(-8, 9, (M, K_)) / 4.0
    bf = rng.integers(-8, 9, (K_, N)) / 4.0
    c = np.zeros((M, N), np.float32)
    args = (c, af.astype(np.float16), bf.astype(np.float16), M, N, K_)
    ptx, md, _, _ = wt.compile_ptx(K.tiled_matmul, *args, BM=128, BN=64,
                                   BK=32, num_ctas=2)
    assert md.num_ctas == 2 and ".reqnctapercluster 2" in ptx
    assert "%cluster_ctarank" in ptx
    wt.analyze(K.tiled_matmul, (M // 128, N // 64), *args, BM=128, BN=64,
               BK=32, num_ctas=2, arch="sm_90")
    np.testing.assert_array_equal(c, af @ bf)
