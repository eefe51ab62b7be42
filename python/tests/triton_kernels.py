"""Triton kernels of the test suite (compiled to PTX on the CPU)."""
import triton
import triton.language as tl


@triton.jit
def vec_add(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    keep = idx < n
    a = tl.load(a_ptr + idx, mask=keep, other=0.0)
    b = tl.load(b_ptr + idx, mask=keep, other=0.0)
    tl.store(c_ptr + idx, a + b, mask=keep)


@triton.jit
def row_softmax(out_ptr, in_ptr, ncols, row_stride, COLS: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, COLS)
    inside = cols < ncols
    x = tl.load(in_ptr + row * row_stride + cols, mask=inside,
                other=-float("inf"))
    shifted = x - tl.max(x, axis=0)
    e = tl.exp(shifted)
    tl.store(out_ptr + row * row_stride + cols, e / tl.sum(e, axis=0),
             mask=inside)


@triton.jit
def layer_norm(y_ptr, x_ptr, w_ptr, b_ptr, ncols, eps, COLS: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, COLS)
    inside = cols < ncols
    x = tl.load(x_ptr + row * ncols + cols, mask=inside, other=0.0)
    mean = tl.sum(x, axis=0) / ncols
    d = tl.where(inside, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / ncols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=inside, other=0.0)
    b = tl.load(b_ptr + cols, mask=inside, other=0.0)
    tl.store(y_ptr + row * ncols + cols, d * rstd * w + b, mask=inside)


@triton.jit
def tiled_matmul(c_ptr, a_ptr, b_ptr, M, N, K,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_tile = a_ptr + rm[:, None] * K + rk[None, :]
    b_tile = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_tile, mask=(k0 + rk)[None, :] < K, other=0.0)
        b = tl.load(b_tile, mask=(k0 + rk)[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BK
        b_tile += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def column_sums(out_ptr, m_ptr, nrows, ncols, ROWS: tl.constexpr):
    # one program per block of 128 rows: each thread walks a row of m
    # across its columns, so a warp's 32 lanes read 32 different rows
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    live = r < nrows
    acc = tl.zeros((ROWS,), dtype=tl.float32)
    for c in range(0, ncols):
        acc += tl.load(m_ptr + r * ncols + c, mask=live, other=0.0)
    tl.store(out_ptr + r, acc, mask=live)


@triton.jit
def fold_store(out_ptr, x_ptr, WIDTH: tl.constexpr, BLOCK: tl.constexpr):
    # folds a block onto WIDTH outputs with a plain store where an atomic
    # add was meant: the warps of a program overwrite each other's results
    idx = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + idx)
    tl.store(out_ptr + idx % WIDTH, x)


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, L, qk_scale,
                  D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # one head: O = softmax(Q K^T * scale) V, online over BN keys a step;
    # qk_scale carries log2(e) so the exponentials are exp2
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + dims[None, :])
    m_i = tl.full((BM,), float("-inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for first in range(0, L, BN):
        keys = first + tl.arange(0, BN)
        kt = tl.load(k_ptr + keys[None, :] * D + dims[:, None])
        s = tl.dot(q, kt) * qk_scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + keys[:, None] * D + dims[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new
    tl.store(o_ptr + rows[:, None] * D + dims[None, :], acc / l_i[:, None])


@triton.jit
def matmul_fp8(c_ptr, a_ptr, bt_ptr, M, N, K,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A (M x K) and B^T (N x K) in e4m3, one byte each; C fp32
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        b = tl.load(bt_ptr + rn[None, :] * K + (k0 + rk)[:, None])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
