# Regression corpus: a split-K fp16 matmul in Triton, compiled for sm_90
# to PTX (gen.py writes matmul_splitk_sm_90.ptx).  C += A @ B with A (M x
# K), B (K x N) fp16 row-major, C fp32 (zeroed by the caller): program
# (m, n, s) takes the K steps s, s + SPLIT, ... of its BM x BN tile and adds
# its fp32 partial tile into C with tl.atomic_add, the vector atomics of
# sm_90 in the PTX.
import triton
import triton.language as tl


@triton.jit
def matmul_splitk(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr,
                  BN: tl.constexpr, BK: tl.constexpr, SPLIT: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(pid_k * BK, K, BK * SPLIT):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc += tl.dot(a, b)
    # whole tiles (M and N multiples of BM and BN): no mask, so the adds
    # of neighbouring columns go out as one vector atomic
    tl.atomic_add(c_ptr + rm[:, None] * N + rn[None, :], acc)
