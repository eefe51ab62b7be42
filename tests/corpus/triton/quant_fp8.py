# Regression corpus: per-tensor fp8 quantisation in Triton, compiled for
# sm_90 to PTX (gen.py writes quant_fp8_sm_90.ptx).  q = fp8 e4m3 of x *
# scale (saturating), y = q / scale back in fp32.  x is read once and kept
# in L2 (eviction_policy="evict_last"), y streamed out ("evict_first"):
# Triton gives the loads and stores an L2 policy from createpolicy, and
# the casts are cvt.rn.satfinite.e4m3x2.f32 and cvt.rn.f16x2.e4m3x2.
import triton
import triton.language as tl


@triton.jit
def quant_fp8(x_ptr, q_ptr, y_ptr, n, scale, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = i < n
    x = tl.load(x_ptr + i, mask=live, other=0.0, eviction_policy="evict_last")
    q = (x * scale).to(tl.float8e4nv)
    tl.store(q_ptr + i, q, mask=live)
    tl.store(y_ptr + i, q.to(tl.float32) / scale, mask=live,
             eviction_policy="evict_first")
