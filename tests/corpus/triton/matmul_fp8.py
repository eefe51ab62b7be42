# Regression corpus: an fp8 (e4m3) matmul in Triton with fp32
# accumulation, compiled for sm_90 to PTX (gen.py writes
# matmul_fp8_sm_90.ptx; tl.dot on float8e4nv becomes wgmma ... .e4m3.e4m3).
# C = A @ B with A (M x K) row-major and B given as B^T (N x K) row-major,
# both one byte an element, C fp32; one program per BM x BN tile.
import triton
import triton.language as tl


@triton.jit
def matmul_fp8(a_ptr, bt_ptr, c_ptr, M, N, K, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(bt_ptr + rn[None, :] * K + (k + rk)[:, None])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
