# Regression corpus: attention forward in Triton, compiled for sm_90 to
# PTX (gen.py writes attention_sm_90.ptx).  O = softmax(Q K^T * scale) V
# for one head, Q, K, V (L x D) fp16 row-major, O fp32; one program per
# BM rows of Q.  The Q block is loaded once; each step over BN keys does
# two dots (S = Q K^T, then P V) and keeps the softmax online: the row
# maximum so far, the row sum so far, and the accumulator rescaled by
# exp2(max_old - max_new) whenever the maximum grows.
import triton
import triton.language as tl


@triton.jit
def attention(q_ptr, k_ptr, v_ptr, o_ptr, L, qk_scale,
              D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start = tl.program_id(0) * BM
    rows = start + tl.arange(0, BM)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + dims[None, :])
    row_max = tl.full((BM,), float("-inf"), tl.float32)
    row_sum = tl.zeros((BM,), tl.float32)
    out = tl.zeros((BM, D), tl.float32)
    for first in range(0, L, BN):
        keys = first + tl.arange(0, BN)
        kt = tl.load(k_ptr + keys[None, :] * D + dims[:, None])
        s = tl.dot(q, kt) * qk_scale  # scores in log2 units
        new_max = tl.maximum(row_max, tl.max(s, 1))
        p = tl.exp2(s - new_max[:, None])
        shrink = tl.exp2(row_max - new_max)
        row_sum = row_sum * shrink + tl.sum(p, 1)
        out = out * shrink[:, None]
        v = tl.load(v_ptr + keys[:, None] * D + dims[None, :])
        out = tl.dot(p.to(tl.float16), v, out)
        row_max = new_max
    out = out / row_sum[:, None]
    tl.store(o_ptr + rows[:, None] * D + dims[None, :], out)
