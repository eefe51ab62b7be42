# Triton kernels with device-side tensor descriptors (tl.make_tensor_descriptor,
# Triton 3.3+): a scaled tile copy and a matmul whose operands and result
# move through TMA.  Compiled for sm_90 by gen_tdesc.py.
import triton
import triton.language as tl


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


@triton.jit
def desc_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr,
                BN: tl.constexpr, BK: tl.constexpr):
    da = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                   block_shape=[BM, BK])
    db = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                   block_shape=[BK, BN])
    dc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                   block_shape=[BM, BN])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = da.load([pm * BM, k])
        b = db.load([k, pn * BN])
        acc = tl.dot(a, b, acc)
    dc.store([pm * BM, pn * BN], acc)
